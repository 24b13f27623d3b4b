# Every install step lives here: a fresh clone needs only `make demo` or `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# the folders that install inside savanna/ (pyproject.toml's package-dir: games, agents, ...)
PACKAGE_FOLDERS = $(shell $(PY) -c "import tomllib; \
    print(*tomllib.load(open('pyproject.toml', 'rb'))['tool']['setuptools']['package-dir'].values())")
export NUMBA_CACHE_DIR := $(CURDIR)/.numba_cache

.PHONY: demo test warmup suite lint docs docs-check chromium dist check-full bench clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	# CPU build first: a bare or open-ended torch requirement could pull a multi-GB CUDA build.
	$(PY) -m pip install --quiet torch==2.13.0
	$(PY) -m pip install --quiet -e '.[dev,plot,interop,ray,docs,web]'
	touch $(STAMP)

demo: $(STAMP)
	$(PY) -m savanna.cli demo

# Two cores kept busy: mypy beside the compiling, the site's build (one core, mostly) beside the
# test workers.
test: $(STAMP) chromium
	$(MAKE) -j2 lint warmup
	$(MAKE) -j2 docs suite

warmup: $(STAMP)  # compile once, a game per core: the test workers then share the cache
	$(PY) -m savanna.cli warmup

suite: $(STAMP)  # the tests alone (make test runs lint, warmup and docs around them)
	$(PY) -m pytest -n 2 -m "not slow"

lint: $(STAMP)  # the quality gate: ruff on the whole tree, mypy on the public API
	$(PY) -m ruff check --quiet .
	# mypy follows no import hook: it reads the installed layout, linked in build/typecheck
	rm -rf build/typecheck && mkdir -p build/typecheck/savanna
	ln -s $(CURDIR)/savanna/* build/typecheck/savanna/
	ln -s $(addprefix $(CURDIR)/,$(PACKAGE_FOLDERS)) build/typecheck/savanna/
	$(PY) -m mypy

# The site in docs/_build/html: warnings are errors (a broken link or reference, a docstring that
# does not parse, a failing notebook cell); executed pages are cached in docs/_build/.jupyter_cache,
# and -j auto reads (and executes) the pages on every core.
docs: $(STAMP)
	$(PY) -m sphinx -j auto -W --keep-going -q -b html docs docs/_build/html

# Every page opened in headless Chromium (Debian's package, installed here when missing and
# root), failing on console errors; the front page's screenshot goes to docs/images/.
docs-check: docs chromium
	$(PY) docs/check_pages.py docs/_build/html --screenshot docs/images/site-front.png

# Debian's chromium, for the browser board's tests (tests/web) and docs-check: installed when
# missing and root (Playwright drives it; its own browser download is never used).
chromium:
	command -v chromium >/dev/null || { test "$$(id -u)" = 0 && apt-get update -q && \
	    apt-get install -y -q chromium; } || { echo "Debian's chromium is needed (tests/web, docs-check)"; exit 1; }

dist: $(STAMP)  # the sdist and the wheel, in dist/
	$(PY) -m build --no-isolation --outdir dist

check-full: $(STAMP) lint
	$(PY) -m pytest -n 2 --hypothesis-profile=full

bench: $(STAMP)
	$(PY) -m savanna.benchmarks --out benchmarks

clean:
	rm -rf $(NUMBA_CACHE_DIR) .pytest_cache build dist *.egg-info docs/_build docs/api
	find . -name __pycache__ -prune -not -path './$(VENV)/*' -exec rm -rf {} +
