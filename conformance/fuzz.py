"""Inputs from outside, generated and mutated for every game configuration (issue #11).

Three kinds of input enter the API: position strings (``from_text``), action strings
(``string_to_action``) and state rows (any method taking states). Each property says that an
input either works -- it round-trips and, played on, agrees with the pure-Python reference
(the twin the game's registration declares) -- or raises ``ValueError``; no other exception,
no hang, no crash.

Real positions (texts and rows of seeded random games) are the seeds; hypothesis mutates them
character by character or byte by byte, and adds wholly random strings. State rows run in a
child process (``python -m savanna.conformance.fuzz PACKAGE NAME OPTIONS EXAMPLES``) since a
row that slips past the checks can crash the interpreter: the child prints every case before
trying it, so the parent names the case that crashed or hung.
"""
import importlib
import json
import sys
from functools import cache

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from savanna.conformance import twin
from savanna.game import CHANCE, TERMINAL
from savanna.registry import game_class

PLIES = 6  # decisions played in lockstep with the reference from an accepted input
EXTRA_CHARS = " \t\n-+,.:;/=()[]0123456789xX?é\x00"


def make(name, options):
    return game_class(name)(**options)


def play_lockstep(game, s, seed):
    twin(game).play_lockstep(game, s, PLIES, np.random.default_rng(seed))


@cache
def sample_states(name, options_key):
    """Rows of seeded random games at every stage (start, middle, chance nodes, the end)."""
    game = make(name, dict(options_key))
    rng = np.random.default_rng(7)
    s = game.init(6, rng=7)
    rows = [s.copy()]
    for _ in range(game.max_plies * 4 + 100):
        players = game.current_player(s)
        if (players == TERMINAL).all():
            break
        for i, p in enumerate(players):
            one = s[i : i + 1]
            if p == CHANCE:
                probs = game.chance_probs(one)[0]
                game.apply_chance(one, [rng.choice(len(probs), p=probs / probs.sum())])
            elif p >= 0:
                game.step_inplace(one, [rng.choice(np.flatnonzero(game.legal_mask(one)[0]))])
        rows.append(s.copy())
    picked = np.concatenate(rows)
    keep = rng.choice(len(picked), size=min(40, len(picked)), replace=False)
    return picked[np.sort(np.append(keep, len(picked) - 1))]


def sample_texts(name, options_key):
    game = make(name, dict(options_key))
    return [game.to_text(row) for row in sample_states(name, options_key)]


# ----- strategies -----------------------------------------------------------------------------
def mutated(texts):
    """A real position string with a few character edits, or a random string."""
    alphabet = sorted(set("".join(texts)) | set(EXTRA_CHARS))
    edit = st.tuples(st.sampled_from("rid"), st.integers(0, 10_000), st.sampled_from(alphabet))

    def apply(text, edits):
        for kind, at, char in edits:
            at %= len(text) + 1
            text = (text[:at] + char + text[at + 1:] if kind == "r" else
                    text[:at] + char + text[at:] if kind == "i" else text[:at] + text[at + 1:])
        return text

    return st.one_of(
        st.builds(apply, st.sampled_from(texts), st.lists(edit, min_size=1, max_size=4)),
        st.text(alphabet=st.sampled_from(alphabet), max_size=120),
        st.sampled_from(texts))


def row_edits(dtype):
    """Byte edits of a row, and whole-field edits to a field's extreme or small values."""
    fields = [(name, dtype.fields[name][0].base) for name in dtype.names]
    byte = st.tuples(st.just("byte"), st.integers(0, dtype.itemsize - 1), st.integers(0, 255))
    field = st.tuples(st.just("field"), st.sampled_from(range(len(fields))),
                      st.sampled_from([-1, 0, 1, 2, 5, 6, 7, 100, "min", "max"]))
    return st.lists(st.one_of(byte, field), min_size=1, max_size=3), fields


def apply_row_edits(row, edits, fields):
    """A batch of one: ``row`` with ``edits`` applied."""
    s = np.array([row], row.dtype)
    raw = s.view(np.uint8)
    for kind, at, value in edits:
        if kind == "byte":
            raw[at] = value
        else:
            name, base = fields[at]
            info = np.iinfo(base) if np.issubdtype(base, np.integer) else np.finfo(base)
            value = info.min if value == "min" else info.max if value == "max" else value
            flat = s[name].reshape(-1)  # a view of the field (any shape)
            flat[int(at) % flat.size] = np.array(value).astype(base)
    return s


# ----- the properties ---------------------------------------------------------------------------
def property_settings(**overrides):
    """The loaded profile's settings (example count) without the health checks that fire on
    slow, reference-checked examples."""
    return settings(settings.default, deadline=None, suppress_health_check=[
        HealthCheck.too_slow, HealthCheck.data_too_large], **overrides)


def check_text(game, text, seed=0):
    try:
        s = game.from_text(text)
    except ValueError:
        return
    again = game.from_text(game.to_text(s[0]))
    assert again[0].tobytes() == s[0].tobytes(), text
    play_lockstep(game, s, seed)


def check_action(game, row, text):
    try:
        action = game.string_to_action(row, text)
    except ValueError:
        return
    assert action in game.legal_actions(row), text


def check_row(game, s, seed=0):
    """An accepted state (a batch of one) behaves like a real state; a rejected one is
    rejected everywhere."""
    try:
        game.check_states(s)
    except ValueError:
        refused = True
    else:
        refused = False
    if refused:
        for call in (game.current_player, game.legal_mask, game.chance_probs,
                     lambda t: game.observe(t, 0), lambda t: game.random_playouts(t.copy())):
            try:
                call(s)
            except ValueError:
                continue
            raise AssertionError(f"{call} accepted a row that check_states refuses")
        return
    for p in range(game.num_players):
        game.observe(s, p)
    again = game.from_text(game.to_text(s[0]))
    assert again[0].tobytes() == s[0].tobytes(), game.to_text(s[0])
    play_lockstep(game, s.copy(), seed)
    game.random_playouts(s.copy(), rng=seed)


def run_rows(name, options_key, examples):
    """The row property for one configuration (runs in the child process)."""
    game = make(name, dict(options_key))
    rows = sample_states(name, options_key)
    edits, fields = row_edits(game.state_dtype)

    @property_settings(max_examples=examples, derandomize=True, database=None)
    @given(st.integers(0, len(rows) - 1), edits)
    def rows_property(k, row_edit):
        s = apply_row_edits(rows[k], row_edit, fields)
        print(f"case {name} {dict(options_key)} row {k} edits {row_edit}", file=sys.stderr,
              flush=True)
        check_row(game, s)

    rows_property()


if __name__ == "__main__":  # python -m savanna.conformance.fuzz PACKAGE NAME OPTIONS_JSON EXAMPLES
    _, package, name, options, examples = sys.argv
    importlib.import_module(package)  # registers the game (one from outside savanna too)
    run_rows(name, tuple(json.loads(options).items()), int(examples))
    print("ok")
