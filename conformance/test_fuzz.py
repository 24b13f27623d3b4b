"""Fuzzed position strings, action strings and state rows on every game configuration: each
works (round-trips, agrees with the reference for a few plies) or raises ValueError; rows run
in a child process so that a crash or a hang fails the test (see conformance/fuzz.py).

The number of cases is the hypothesis profile's ``max_examples``: ``ci`` in ``make test``,
``full`` (more) in ``make check-full`` (profiles in conformance/plugin.py)."""
import json
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from savanna.conformance import fuzz
from savanna.registry import GAMES


@pytest.fixture
def key(config):
    """The configuration's options as a hashable key: ``((option, value), ...)``."""
    return tuple(config[1].items())


def test_position_strings(config, key):
    name = config[0]
    game = fuzz.make(name, dict(key))

    @fuzz.property_settings()
    @given(fuzz.mutated(fuzz.sample_texts(name, key)), st.integers(0, 2**32 - 1))
    def property_(text, seed):
        fuzz.check_text(game, text, seed)

    property_()


def test_action_strings(config, key):
    name = config[0]
    game = fuzz.make(name, dict(key))
    rows = [r for r in fuzz.sample_states(name, key) if game.current_player(r)[0] >= 0]
    names = sorted({game.action_to_string(r, a) for r in rows for a in game.legal_actions(r)})

    @fuzz.property_settings()
    @given(st.sampled_from(rows), fuzz.mutated(names))
    def property_(row, text):
        fuzz.check_action(game, row, text)

    property_()


def test_state_rows_in_a_child_process(config, key):
    name = config[0]
    examples = settings.default.max_examples
    timeout = 120 + examples  # seconds: compiled kernels load from the cache
    try:
        done = subprocess.run(
            [sys.executable, "-m", "savanna.conformance.fuzz", GAMES[name].package, name,
             json.dumps(dict(key)), str(examples)],
            capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as hang:
        last = (hang.stderr or b"").decode(errors="replace").strip().splitlines()[-1:]
        pytest.fail(f"hung for {timeout} s; last case: {last}")
    tail = "\n".join(done.stderr.strip().splitlines()[-25:])
    assert done.returncode == 0 and done.stdout.strip().endswith("ok"), (
        f"exit code {done.returncode}; stderr ends with:\n{tail}")
