# Every install step lives here: a fresh clone needs only `make demo` or `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
export NUMBA_CACHE_DIR := $(CURDIR)/.numba_cache

.PHONY: demo test lint check-full bench clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	# CPU build first: a bare or open-ended torch requirement could pull a multi-GB CUDA build.
	$(PY) -m pip install --quiet torch==2.13.0
	$(PY) -m pip install --quiet -e '.[dev,plot,interop,ray]'
	touch $(STAMP)

demo: $(STAMP)
	$(PY) -m savanna_experiments demo

test: $(STAMP) lint
	$(PY) -m savanna_experiments warmup  # compile once, serially: the test workers then share the cache
	$(PY) -m pytest -n 2 -m "not slow"

lint: $(STAMP)  # the quality gate: ruff on the whole tree, mypy on the public API
	$(PY) -m ruff check --quiet .
	$(PY) -m mypy

check-full: $(STAMP) lint
	$(PY) -m pytest -n 2 --hypothesis-profile=full

bench: $(STAMP)
	$(PY) -m savanna_benchmarks

clean:
	rm -rf $(NUMBA_CACHE_DIR) .pytest_cache build *.egg-info
	find . -name __pycache__ -prune -not -path './$(VENV)/*' -exec rm -rf {} +
