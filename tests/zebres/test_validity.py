"""Impossible Zèbres states and inputs are one-line ValueErrors (issue #11): ``valid_one``,
strict parsing, options.

Before ``valid_one`` the kernels trusted every field, so a corrupted row could crash or hang
the process. Every test that hands one to compiled code therefore runs it in a subprocess
(``isolated_outcomes`` runs them all in one): a crash or a hang fails the test instead of
killing pytest. Positions used (standard board)::

    PLACE   Z g* L E C .      red zebra a1, green face-down gazelle b1 (next to the red lion
            z G . . . .       c1), red elephant d1 and crocodile e1; green zebra a2, red
            . . . . . .       gazelle b2; green places on row 4 (track 9)
    CROC    red crocodile c4 (sector B) just placed, green gazelle b4 (sector A) across the
            river: ``croc:c4:-``
    END     the full board of the scoring test, green holds the inauguration
    LAST    END without green's crocodile on e5: green places it (red's hand is empty)
    COLUMNS columns a and b full: from track 21 only +3 is possible
"""
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from savanna.zebres import _kernels as K
from savanna.zebres.game import ZebresGame
from savanna.zebres.twin import play_lockstep

ROOT = Path(__file__).resolve().parents[2]
SEED = 2026_11_30
MUTANTS = 300  # mutated rows of real states for the round-trip property

EMPTY = "....../....../....../....../......"
PLACE = "Zg*LEC./zG..../....../....../...... g 9 - place"
CROC = "....../....../....../.gC.../...... r 2 - croc:c4:-"
END = "ZZZZZz/zzzzGG/GGGGgg/ggggEe/LlCCcc r 7 g end"
LAST = "ZZZZZz/zzzzGG/GGGGgg/ggggEe/LlCC.c g 10 g place"
COLUMNS = "ZG..../ZG..../Zg..../Zg..../zz.... g 21 r place"
SETUP = f"{EMPTY} r - - setup"


def bit(cell):
    return np.uint64(1) << np.uint64(cell)


def set_field(name, value):
    def edit(r):
        r[name] = value
    return edit


def or_bits(name, index, cells):
    """Set ``cells`` in bitboard ``name`` (``index``: which of own[2] / kind[5], or None)."""
    def edit(r):
        mask = np.uint64(sum(1 << c for c in cells))
        if index is None:
            r[name] |= mask
        else:
            r[name][index] |= mask
    return edit


def clear_bits(name, index, cells):
    def edit(r):
        r[name][index] &= ~np.uint64(sum(1 << c for c in cells))
    return edit


def add_token(player, kind, cell):
    """A token put on ``cell`` in both its own and kind boards (no other field changed)."""
    def edit(r):
        r["own"][player] |= bit(cell)
        r["kind"][kind] |= bit(cell)
    return edit


# (id, position, edit of its row, API call, words of the error). Cells: a1=0 b1=1 c1=2 d1=3
# e1=4 f1=5 a2=6 b2=7 b4=19 c4=20 e5=28.
EDITS = [
    ("to_move 100: random_playouts hung", SETUP, set_field("to_move", 100), "random_playouts",
     "to_move is not a seat"),
    ("to_move -1", PLACE, set_field("to_move", -1), "legal_mask", "to_move is not a seat"),
    ("phase 5", PLACE, set_field("phase", 5), "step", "phase is not 0..4"),
    ("phase -1", PLACE, set_field("phase", -1), "to_text", "phase is not 0..4"),
    ("board 1 in a standard game", PLACE, set_field("board", 1), "scores",
     "board is not this game's board"),
    ("board 100", PLACE, set_field("board", 100), "legal_mask", "board is not this game's"),
    ("impala 22", PLACE, set_field("impala", 22), "legal_mask", "impala is not -1"),
    ("impala -2", PLACE, set_field("impala", -2), "random_playouts", "impala is not -1"),
    ("impala -1 outside setup", PLACE, set_field("impala", -1), "legal_mask",
     "impala must be placed"),
    ("inauguration 2", PLACE, set_field("inauguration", 2), "scores", "inauguration is not"),
    ("inauguration -2", PLACE, set_field("inauguration", -2), "scores", "inauguration is not"),
    ("croc 30", CROC, set_field("croc", 30), "render", "croc is not -1 or a cell"),
    ("croc -7", CROC, set_field("croc", -7), "random_playouts", "croc is not -1 or a cell"),
    ("own beyond the board", PLACE, or_bits("own", 0, [30]), "legal_mask", "beyond cell 29"),
    ("kind bit 63", PLACE, or_bits("kind", K.Z, [63]), "observe", "beyond cell 29"),
    ("down beyond the board", PLACE, or_bits("down", None, [40]), "observe", "beyond cell 29"),
    ("swapped beyond the board", CROC, or_bits("swapped", None, [31]), "legal_mask",
     "beyond cell 29"),
    ("overlapping own boards", PLACE, or_bits("own", 1, [0]), "scores",
     "own boards overlap"),
    ("a cell with two kinds", PLACE, or_bits("kind", K.E, [0]), "random_playouts",
     "a cell with two kinds"),
    ("an occupied cell with no kind", PLACE, clear_bits("kind", K.Z, [0]), "legal_mask",
     "do not cover exactly the occupied cells"),
    ("a kind on an empty cell", PLACE, or_bits("kind", K.G, [5]), "legal_mask",
     "do not cover exactly the occupied cells"),
    ("an owned cell with no kind", PLACE, or_bits("own", 0, [5]), "legal_mask",
     "do not cover exactly the occupied cells"),
    ("two red lions", PLACE, add_token(0, K.L, 5), "random_playouts", "more tokens of a kind"),
    ("three green crocodiles", PLACE, lambda r: [add_token(1, K.C, c)(r) for c in (5, 8, 9)],
     "legal_mask", "more tokens of a kind"),
    ("down on a lion", PLACE, or_bits("down", None, [2]), "observe", "down marks a cell"),
    ("down on an elephant", PLACE, or_bits("down", None, [3]), "observe", "down marks a cell"),
    ("down on a crocodile", PLACE, or_bits("down", None, [4]), "observe", "down marks a cell"),
    ("down on an empty cell", PLACE, or_bits("down", None, [5]), "observe",
     "down marks a cell"),
    ("swapped outside a croc phase", PLACE, or_bits("swapped", None, [7]), "legal_mask",
     "croc must be -1 and swapped 0 outside"),
    ("croc outside a croc phase", PLACE, set_field("croc", 4), "legal_mask",
     "croc must be -1 and swapped 0 outside"),
    ("a token in setup", SETUP, add_token(0, K.Z, 0), "legal_mask", "setup phase needs an empty"),
    ("impala placed in setup", SETUP, set_field("impala", 3), "legal_mask",
     "setup phase needs an empty"),
    ("inauguration claimed in setup", SETUP, set_field("inauguration", 0), "legal_mask",
     "setup phase needs an empty"),
    ("green chooses the start though green places first", SETUP, set_field("to_move", 1),
     "legal_mask", "setup phase: to_move"),
    ("end with empty cells", PLACE, set_field("phase", K.END), "scores",
     "end phase needs a full board"),
    ("place on a full board", END, set_field("phase", K.PLACE), "legal_mask",
     "the board is full"),
    ("move on a full board", END, set_field("phase", K.MOVE), "random_playouts",
     "the board is full"),
    ("place with an empty hand", LAST, set_field("to_move", 0), "legal_mask",
     "to_move has no token left"),
    ("place on a full line", LAST, set_field("impala", 0), "legal_mask",
     "the line Impala faces is full"),
    ("move with a single option", COLUMNS, set_field("phase", K.MOVE), "legal_mask",
     "at least two possible Impala moves"),
    ("croc phase without croc", CROC, set_field("croc", -1), "legal_mask",
     "croc must be a cell holding a crocodile"),
    ("croc on the gazelle", CROC, set_field("croc", 19), "legal_mask",
     "croc must be a cell holding a crocodile"),
    ("the opponent's crocodile", CROC, set_field("to_move", 1), "legal_mask",
     "crocodile of to_move"),
    ("croc phase before impala", CROC, set_field("impala", -1), "legal_mask",
     "impala must be placed"),
    ("swapped on an empty cell", CROC, or_bits("swapped", None, [0]), "legal_mask",
     "swapped may only mark gazelles"),
    ("the only gazelle already swapped", CROC, or_bits("swapped", None, [19]), "legal_mask",
     "needs a swap left"),
    ("the only gazelle face down", CROC, or_bits("down", None, [19]), "legal_mask",
     "needs a swap left"),
    ("a full sector, inauguration unclaimed", END, set_field("inauguration", -1), "scores",
     "inauguration is unclaimed"),
]


def call(game, method, s):
    """Hand ``s`` to one public entry point of ``game``."""
    if method == "step":
        return game.step(s, np.zeros(len(s), np.int64))
    if method == "observe":
        return game.observe(s, 0)
    return getattr(game, method)(s)


def real_states(game, games, rng):
    """Every state of ``games`` seeded random games (all phases occur)."""
    rows = []
    for _ in range(games):
        s = game.init(1)
        while True:
            rows.append(s[0].copy())
            legal = game.legal_actions(s[0])
            if not legal:
                break
            s, _ = game.step(s, [rng.choice(legal)])
    return np.array(rows, game.state_dtype)


def mutate(row, rng):
    """One random corruption of ``row`` (in place): a field set to a nearby value, a bit of
    a bitboard flipped, or a cell emptied or given a token (all its boards together)."""
    what = rng.integers(3)
    if what == 0:
        name = str(rng.choice(["board", "impala", "inauguration", "to_move", "phase", "croc"]))
        row[name] = rng.integers(-3, 31)
    elif what == 1:
        name, index = [("own", 0), ("own", 1), ("kind", int(rng.integers(5))),
                       ("down", None), ("swapped", None)][rng.integers(5)]
        flip = bit(rng.integers(32) if rng.random() < 0.9 else rng.integers(64))
        if index is None:
            row[name] ^= flip
        else:
            row[name][index] ^= flip
    else:
        cell = bit(rng.integers(30))
        if (row["own"][0] | row["own"][1]) & cell:
            row["own"] &= ~cell
            row["kind"] &= ~cell
            row["down"] &= ~cell
        else:
            row["own"][rng.integers(2)] |= cell
            row["kind"][rng.integers(5)] |= cell


def round_trip_failures(game, rows):
    """For every row ``check_states`` accepts: the text round trip must be byte exact and the
    kernels must agree with the reference for a few plies. Returns (accepted, failures)."""
    accepted, failures = 0, []
    rng = np.random.default_rng(SEED)
    for row in rows:
        s = np.array([row], game.state_dtype)
        try:
            game.check_states(s)
        except ValueError as error:
            if "\n" in str(error):
                failures.append(f"multi-line error: {error}")
            continue
        accepted += 1
        text = game.to_text(s[0])
        if game.from_text(text).tobytes() != s.tobytes():
            failures.append(f"{text} does not round-trip byte for byte")
        try:
            play_lockstep(game, s, 3, rng)
        except AssertionError as error:
            failures.append(str(error))
    return accepted, failures


def isolated_report():
    """Run every corrupted row through the API; print a JSON report (run in a subprocess)."""
    game = ZebresGame()
    outcomes = {}
    for name, text, edit, method, _ in EDITS:
        s = game.from_text(text)
        edit(s[0])
        try:
            call(game, method, s)
            outcomes[name] = None
        except ValueError as error:
            outcomes[name] = str(error)
    rng = np.random.default_rng(SEED)
    states = real_states(game, 10, rng)
    mutants = states[rng.integers(len(states), size=MUTANTS)].copy()
    for row in mutants:
        mutate(row, rng)
    accepted, failures = round_trip_failures(game, mutants)
    print(json.dumps({"edits": outcomes, "accepted": accepted, "failures": failures}))


@pytest.fixture(scope="module")
def isolated_outcomes():
    done = subprocess.run(
        [sys.executable, "-c",
         "from tests.zebres.test_validity import isolated_report; isolated_report()"],
        cwd=ROOT, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, f"the subprocess died ({done.returncode}): {done.stderr[-2000:]}"
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("name, words", [(e[0], e[4]) for e in EDITS], ids=[e[0] for e in EDITS])
def test_a_corrupted_field_is_a_one_line_value_error(isolated_outcomes, name, words):
    message = isolated_outcomes["edits"][name]
    assert message is not None, f"{name}: accepted"
    assert words in message and "not a possible ZebresGame" in message and "\n" not in message


def test_mutated_real_states_round_trip_or_are_rejected(isolated_outcomes):
    """valid_one accepts exactly what from_text produces: an accepted row's text gives it back
    byte for byte, and the kernels play it as the reference does."""
    assert not isolated_outcomes["failures"], "\n".join(isolated_outcomes["failures"][:5])
    assert MUTANTS // 5 < isolated_outcomes["accepted"] < MUTANTS - MUTANTS // 5  # both happen


def test_real_states_are_all_accepted():
    game = ZebresGame(board="president", first_placer=0)
    states = real_states(game, 5, np.random.default_rng(SEED))
    assert len(game.check_states(states)) == len(states)


def test_a_state_of_the_other_board_is_rejected():
    standard = ZebresGame().from_text(PLACE)
    with pytest.raises(ValueError, match="board is not this game's board option"):
        ZebresGame(board="president").legal_mask(standard)


# ----- positions as text ------------------------------------------------------------------------
@pytest.mark.parametrize("text, words", [
    ("Zg*LEC./zG..../....../....../...... g 9 - place".replace("L", "L*"), "only zebras and"),
    ("ZZZZZZ/....../....../....../...... g 3 - place", "too many red zebras"),
    ("CCC.../....../....../....../...... g 3 - place", "too many red crocodiles"),
    (f"{EMPTY} g - - setup", "r \\(who chooses Impala's start when first_placer=1\\)"),
    (END.replace(" g end", " - end"), "sector A is full but the inauguration is unclaimed"),
    (COLUMNS.replace(" r place", " - place"), "sector A is full"),
    (COLUMNS.replace("place", "move"), "at least two possible Impala moves"),
    (LAST.replace(" g 10 ", " r 10 "), "red \\(to move\\) has no token left"),
    (LAST.replace(" 10 ", " 0 "), "the line Impala faces \\(0\\) is full"),
    (PLACE.replace(" g 9 ", " g 99999999999999999999999 "), "impala must be '-' or a track"),
    (PLACE.replace(" g 9 ", " g \u0661 "), "impala must be '-' or a track"),  # Arabic-Indic 1
    (PLACE.replace("zG", "\uff5aG"), "unknown letter"),  # full-width z
    (CROC.replace("croc:c4:-", "croc:c4:a1"), "croc phase: swapped cell a1 must hold a gazelle"),
])
def test_impossible_positions_are_rejected(text, words):
    with pytest.raises(ValueError, match=words) as error:
        ZebresGame().from_text(text)
    assert "\n" not in str(error.value)


@pytest.mark.parametrize("text", [None, b"....../....../....../....../...... r - - setup",
                                  "Z" * 1_000_000, " ".join(["....../....../"] * 100_000),
                                  "9" * 1_000_000, 42, ["r"]])
def test_non_positions_are_short_one_line_value_errors(text):
    with pytest.raises(ValueError) as error:
        ZebresGame().from_text(text)
    message = str(error.value)
    assert "\n" not in message and len(message) <= 120


def test_setup_positions_follow_first_placer():
    assert ZebresGame(first_placer=0).from_text(f"{EMPTY} g - - setup")[0]["to_move"] == 1
    with pytest.raises(ValueError, match="g \\(who chooses"):
        ZebresGame(first_placer=0).from_text(SETUP)


# ----- options ------------------------------------------------------------------------------
@pytest.mark.parametrize("options, words", [
    ({"first_placer": 2}, "first_placer must be a seat in 0..1, got 2"),
    ({"first_placer": True}, "got True"),
    ({"first_placer": 1.0}, "got 1.0"),
    ({"first_placer": "1"}, "got '1'"),
    ({"first_placer": None}, "got None"),
    ({"board": None}, "board must be one of standard, president, got None"),
    ({"board": ["standard"]}, "board must be one of"),
    ({"board": "Standard"}, "board must be one of"),
])
def test_impossible_options_are_one_line_value_errors(options, words):
    with pytest.raises(ValueError, match=words) as error:
        ZebresGame(**options)
    assert "\n" not in str(error.value)


def test_numpy_int_options_are_plain_ints():
    game = ZebresGame(first_placer=np.int64(0))
    assert game.first_placer == 0 and type(game.first_placer) is int
