"""Impossible states, texts and options are rejected with one-line ValueErrors (issue #11):
``valid_one`` per class of impossible state, the reproductions of the issue, the round trip of
every accepted row, options in small ranges.

Corrupted rows could crash the process before ``valid_one`` existed, so the code that feeds
them to the kernels runs in a subprocess (``corruption_report``): a crash fails the tests."""
import itertools
import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from savanna.banjooli import _validity as V
from savanna.banjooli import notation, spec
from savanna.banjooli.game import SPECIAL_OPTIONS, BanjooliGame
from savanna.game import CHANCE, NO_ACTIONS, TERMINAL
from tests.banjooli.helpers import game_of, position

ROOT = Path(__file__).resolve().parents[2]

# Real states to edit, as texts of hand-made positions (game: ``game_of``) or random set-ups.
BASES = {
    # 3 players, random course with a lava tile, first roll
    "start": lambda: _init(BanjooliGame(num_players=3, special="lava")),
    # 3 players, berries, seat 1 to place its berry
    "place": lambda: _stepped(BanjooliGame(num_players=3, berries=True), 1),
    # R on lava a7 with 1 point left, its last non-lava cell b6
    "move": lambda: _text(position("a7,b4,b1n,a2n,c2n", course="T1,LAVA", phase="move:R1:b6")),
    # berries: seat 1 took Jëmbat and so knows the two berries left
    "act": lambda: _text(position("b3,b4,b1n,a2n,c2n", course="T1,T2,T3", players=3,
                                  berries="T@a5+1,O@c7+1,x", collected="-,J,-")),
    # seat 0 took Joka with R on b6: it chooses where R lands on row 4
    "snake": lambda: _text(position("b6,b4,b1n,a2n,c2n", course="T1,K1", phase="snake:R",
                                    berries="x,T@a8", collected="K,-")),
}

E = V  # the error codes E_* live beside STATE_ERRORS
EDITS = [  # (base, field, index or None, value, expected code)
    ("start", "players", None, 127, E.E_OPTIONS),
    ("start", "nterrain", None, 5, E.E_OPTIONS),
    ("start", "variant", None, 1, E.E_OPTIONS),
    ("start", "course", 5, 0, E.E_COURSE),          # past nterrain
    ("start", "course", 0, 99, E.E_COURSE),         # no such face
    ("act", "course", 0, 1, E.E_COURSE),            # not the fixed course
    ("start", "block", None, 1 << 62, E.E_CELL_SETS),
    ("start", "places", 0, 4, E.E_PLACES),
    ("start", "narrived", None, 1, E.E_PLACES),
    ("start", "narrived", None, 100, E.E_PLACES),
    ("start", "cells", 0, 100, E.E_CELLS),          # past the track
    ("start", "cells", 0, -1, E.E_CELLS),           # off the track but not arrived
    ("act", "cells", 0, 13, E.E_SHARED),            # on B
    ("act", "cells", 0, 22, E.E_SHARED),            # on the rock b7
    ("start", "nest", None, 255, E.E_NEST),
    ("start", "scared", None, 1, E.E_NEST),         # scared on its nest
    ("act", "nest", None, 0b11101, E.E_NEST),       # R on b3 marked on its nest
    ("start", "phase", None, 14, E.E_PHASE),
    ("start", "phase", None, spec.FRENZY_PICK, E.E_PHASE),  # a berry phase without berries
    ("start", "to_move", None, 3, E.E_TO_MOVE),
    ("start", "turn", None, 1001, E.E_TURN),
    ("start", "turn", None, 1000, E.E_TURN),        # the cap is the end
    ("act", "phase", None, spec.END, E.E_TURN),       # the end without three arrivals
    ("act", "dice", 0, 6, E.E_DICE),
    ("act", "dice", 0, -1, E.E_DICE),               # unrolled in the act phase
    ("place", "dice", 0, 3, E.E_DICE),              # rolled in the place phase
    ("act", "cards", 1, 0, E.E_CARDS),              # seat 0's card
    ("act", "cards", 3, 7, E.E_CARDS),              # a fourth seat
    ("start", "cards", 0, 10, E.E_CARDS),
    ("act", "mover", None, 0, E.E_MOVER),
    ("move", "mover", None, 5, E.E_MOVER),          # no such ostrich
    ("snake", "scared", None, 1, E.E_MOVER),        # the snake's mover scared
    ("move", "points", None, 0, E.E_POINTS),
    ("move", "points", None, 7, E.E_POINTS),
    ("act", "points", None, 1, E.E_POINTS),
    ("move", "safe", None, 21, E.E_SAFE),           # lava a7 itself
    ("move", "safe", None, 13, E.E_SAFE),           # B's cell
    ("act", "safe", None, 9, E.E_SAFE),
    ("act", "frenzy", 0, 1, E.E_FRENZY),
    ("act", "jokers", None, 1, E.E_FRENZY),
    ("start", "berry_cell", 0, 12, E.E_BERRY_SLOT),  # a berry without the variant
    ("act", "berry_kind", 3, 4, E.E_BERRY_SLOT),     # a slot past the seats
    ("act", "berry_cell", 2, 12, E.E_BERRY_SLOT),    # a taken slot with a cell
    ("act", "berry_kind", 1, spec.TRAP, E.E_KINDS),    # Tër twice
    ("act", "berry_kind", 0, spec.FORESIGHT, E.E_KINDS),  # Jëmbat on the track and collected
    ("act", "collected", 0, 1 << 11, E.E_KINDS),
    ("act", "collected", 0, 1 << spec.PLAIN, E.E_KINDS),  # two collected, one slot taken
    ("act", "berry_cell", 0, 4, E.E_BERRY_CELL),     # on the start tile
    ("act", "berry_cell", 0, 27, E.E_BERRY_CELL),    # on the rock a9
    ("act", "berry_cell", 0, 23, E.E_BERRY_CELL),    # on the other berry
    ("act", "berry_cell", 0, -1, E.E_BERRY_CELL),    # not placed after the place phase
    ("act", "seen", 0, 0, E.E_SEEN),                 # seat 1 took Jëmbat but forgot
    ("act", "direction", None, -1, E.E_DIRECTION),   # nobody took Pakaarloo
    ("act", "spear", None, 1, E.E_SPEAR),            # nobody took Naangateku
    ("place", "turn", None, 1, E.E_PLACE_PHASE),
    ("snake", "to_move", None, 1, E.E_BERRY_PHASE),  # seat 1 took no Joka
]


def _init(game):
    return game, game.init(1, rng=0)


def _stepped(game, decisions):
    """The first state of ``game`` (seed 0) after ``decisions`` first legal decisions."""
    game, s = _init(game)
    for _ in range(decisions):
        game.step_inplace(s, [game.legal_actions(s[0])[0]])
    return game, s


def _text(text):
    game = game_of(text)
    return game, game.from_text(text)


def _mutate(s, rng, states):
    """One random field edit of row ``s[0]`` in place: the field's value in another real
    state, a bit flip of a mask or bitboard, a small value (where the valid ones lie) or any
    value of the field's type."""
    name = str(rng.choice(s.dtype.names))
    index = () if s[name].ndim == 1 else (int(rng.integers(s[name].shape[1])),)
    field = s[name][(slice(None), *index)]
    kind = field.dtype
    if rng.random() < 0.4:
        value = int(states[name][(int(rng.integers(len(states))), *index)])
    elif kind.kind == "u":
        value = int(field[0]) ^ (1 << int(rng.integers(8 * kind.itemsize)))
    elif rng.random() < 0.8:
        value = int(rng.integers(-2, 16))
    else:
        info = np.iinfo(kind)
        value = int(rng.integers(info.min, info.max, endpoint=True))
    field[0] = value
    return f"{name}{list(index)}={value}"


def _snapshots(game, n, plies, every, rng):
    """Real states of ``game``: ``n`` random games, a copy every ``every`` plies."""
    s = game.init(n, rng=rng)
    out = []
    for ply in range(plies):
        if ply % every == 0:
            out.append(s.copy())
        players = game.current_player(s)
        probs, masks = game.chance_probs(s), game.legal_mask(s)
        for i in np.flatnonzero(players != TERMINAL):
            row = s[i : i + 1]
            if players[i] == CHANCE:
                game.apply_chance(row, [rng.choice(6, p=probs[i])])
            else:
                game.step_inplace(row, [rng.choice(np.flatnonzero(masks[i]))])
    return np.concatenate(out)


def corruption_report():
    """What the kernels make of corrupted rows (run in a subprocess: a crash is a failure):
    the code ``first_invalid`` gives each edit of ``EDITS``; and for random one-field
    mutations of real states, how many were accepted and rejected, and the accepted ones
    whose text does not parse back to the same bytes or rejected ones whose error is not one
    line. Accepted rows are then played out by the kernels."""
    edits = []
    for base, name, index, value, _ in EDITS:
        game, s = BASES[base]()
        (s[name] if index is None else s[name][:, index])[0] = value
        edits.append(int(game.drivers.first_invalid(s, game.base_state(), NO_ACTIONS)[1]))
    rng = np.random.default_rng(11)
    accepted, rejected, bad = 0, 0, []
    for options in ({"num_players": 2, "special": "random"}, {"num_players": 3, "berries": True},
                    {"num_players": 5, "berries": True, "special": "random"}):
        game = BanjooliGame(**options)
        states = _snapshots(game, 12, 90, 15, rng)
        keep = []
        for k in range(300):
            s = states[k % len(states) : k % len(states) + 1].copy()
            edit = _mutate(s, rng, states)
            try:
                game.check_states(s)
            except ValueError as err:
                rejected += 1
                if "\n" in str(err) or len(str(err)) > 600:
                    bad.append(f"{edit}: error not one line: {err}")
                continue
            accepted += 1
            again = game.from_text(game.to_text(s[0]))
            if again.tobytes() != s.tobytes():
                bad.append(f"{edit}: {game.to_text(s[0])}")
            keep.append(s)
        game.random_playouts(np.concatenate(keep), rng=1)
    return {"edits": edits, "accepted": accepted, "rejected": rejected, "bad": bad}


@pytest.fixture(scope="module")
def report():
    code = ("import json; from tests.banjooli.test_validity import corruption_report; "
            "print(json.dumps(corruption_report()))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, check=False,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.splitlines()[-1])


# ----- valid_one, class by class ------------------------------------------------------------
@pytest.mark.parametrize("k", range(len(EDITS)),
                         ids=[f"{b}-{f}{'' if i is None else i}={v}" for b, f, i, v, _ in EDITS])
def test_each_impossible_edit_has_its_reason(report, k):
    expected = EDITS[k][4]
    assert V.STATE_ERRORS[report["edits"][k]] == V.STATE_ERRORS[expected]


def test_every_reason_is_tested():
    assert {code for *_, code in EDITS} == set(range(1, len(V.STATE_ERRORS)))


@pytest.mark.parametrize("base", sorted(BASES))
def test_the_edited_bases_are_possible(base):
    game, s = BASES[base]()
    assert game.check_states(s) is s


def test_accepted_mutations_round_trip_and_play(report):
    """Hundreds of one-field mutations of real states: every accepted row parses back from
    its text byte for byte (and the kernels played it out in the subprocess)."""
    assert report["bad"] == []
    assert report["accepted"] > 100 and report["rejected"] > 100


def test_the_error_names_the_state_and_the_reason():
    game, s = BASES["start"]()
    s[0]["to_move"] = 3
    with pytest.raises(ValueError, match=r"^state 0 is not a possible BanjooliGame\(.*\) state: "
                                         r"to_move is not a seat of this game"):
        game.observe(s, 0)


# ----- the reproductions ------------------------------------------------------------
def test_observe_with_127_players_is_a_value_error_not_a_heap_corruption():
    code = ("from savanna.banjooli.game import BanjooliGame\n"
            "game = BanjooliGame(); s = game.init(1); s[0]['players'] = 127\n"
            "try:\n    game.observe(s, 0)\nexcept ValueError as err:\n    print('ValueError', err)")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, check=False,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("ValueError state 0 is not a possible") and "players" in \
        done.stdout


IMPOSSIBLE_TEXTS = [  # (text, words of the reason)
    (position("b3,b4,b1n,a2n,c2n", phase="frenzy-pick", berries="T@a5,O@c4",
              collected="F,-"), "frenzy"),
    (position("a0n,b4,b1n,a2n,c2n", phase="snake:R", berries="T@a5,O@c4", collected="K,-"),
     "mover"),
    (position("a0n,c0n,b1n,a2n,c2n", phase="place", dice="??????", berries="x,x"),
     "collected berry per taken slot"),
    (position("b3,b4,b1n,a2n,c2n", turn=1000), "turn"),
    (position("b3,b4,b1n,a2n,c2n", phase="move:R3:a5"), "safe"),
    (position("b3,b4,b1n,a2n,c2n", phase="roll", dice="R?R???"), "dice"),
    (position("b3,b4,b1n,a2n,c2n", berries="T@a5+1,O@c4"), "Jëmbat"),
    (position("b3,b4,b1n,a2n,c2n", course="T1,K1", berries="T@a5,x", collected="-,U"),
     "direction"),
]


@pytest.mark.parametrize("text, words", IMPOSSIBLE_TEXTS)
def test_impossible_positions_are_one_line_value_errors(text, words):
    with pytest.raises(ValueError, match=words) as err:
        game_of(text).from_text(text)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("text", [None, 12, b"players=2", "", "players=2 " * 5000,
                                  position("b3,b4,b1n,a2n,c2n", turn=10 ** 30),
                                  position("b3,b4,b1n,a2n,c2n").replace("turn=0", "turn=٣"),
                                  position("b3,b4,b1n,a2n,c2n", course="T1,K1,K2")])
def test_bad_texts_are_short_one_line_value_errors(text):
    with pytest.raises(ValueError) as err:
        BanjooliGame(course=["T1", "K1", "T2"]).from_text(text)
    assert "\n" not in str(err.value) and len(str(err.value)) < 400


def test_from_text_wants_the_games_course():
    text = position("b3,b4,b1n,a2n,c2n", course="T1,T2")
    with pytest.raises(ValueError, match="2 terrain tiles, this game 4"):
        BanjooliGame().from_text(text)
    with pytest.raises(ValueError, match="course"):
        BanjooliGame(course=["T1", "T3"]).from_text(text)
    assert BanjooliGame(terrain=2).from_text(text)["nterrain"] == 2  # a course it can draw


@pytest.mark.parametrize("field, value", [("cells", (300, 13, 4, 6, 8)),
                                          ("cells", (9.5, 13, 4, 6, 8)),
                                          ("turn", 2 ** 70), ("cards", None), ("course", (0, 99))])
def test_from_position_rejects_garbage_fields(field, value):
    game = BanjooliGame(course=["T1", "T2"])
    pos = notation.parse(position("b3,b4,b1n,a2n,c2n", course="T1,T2"))
    with pytest.raises(ValueError):
        game.from_position(replace(pos, **{field: value}))
    with pytest.raises(ValueError, match="Position"):
        game.from_position(game.to_text(game.init(1)[0]))


def test_to_text_checks_its_row():
    game, s = BASES["start"]()
    s[0]["mover"] = 7
    with pytest.raises(ValueError, match="mover"):
        game.to_text(s[0])


# ----- options ------------------------------------------------------------------------------
@pytest.mark.parametrize("options, match", [
    ({"num_players": True}, "num_players"), ({"terrain": True}, "terrain"),
    ({"num_players": 2.0}, "num_players"), ({"berries": 1}, "berries"),
    ({"special": ["lava"]}, "special"), ({"course": "T1"}, "list of face names"),
    ({"course": 5}, "list of face names"), ({"course": ["T1"], "special": "lava"}, "special"),
    ({"course": ["T1"], "terrain": 2}, "terrain=2"),
    ({"num_players": 4, "terrain": 1, "berries": True, "special": "canyon"}, "ground cells"),
    ({"num_players": 4, "course": ["CROC"], "berries": True}, "ground cells"),
])
def test_impossible_options_are_value_errors(options, match):
    with pytest.raises(ValueError, match=match):
        BanjooliGame(**options)


def _play_checked(game, n, rng):
    """Play ``n`` random games to the end, every state checked (``current_player`` and
    ``legal_mask`` run ``check_states``: possible, with a legal action or a chance outcome);
    the moves go straight to the batch kernels. Returns the number of plies."""
    s = game.init(n, rng=rng)
    plies = 0
    while True:
        players = game.current_player(s)
        if (players == TERMINAL).all():
            return plies
        masks = game.legal_mask(s)
        chance, decide = np.flatnonzero(players == CHANCE), np.flatnonzero(players >= 0)
        sub = s[chance]
        game.drivers.apply_chance_batch(sub, rng.integers(0, 6, len(chance)))
        s[chance] = sub
        sub = s[decide]
        actions = np.array([rng.choice(np.flatnonzero(masks[i])) for i in decide], np.int64)
        game.drivers.step_batch(sub, actions, np.zeros((len(decide), game.num_players),
                                                       np.float32))
        s[decide] = sub
        plies += 1


def test_every_small_option_combination_builds_a_playable_game_or_is_rejected():
    """Players 2..5, 1..2 terrain tiles, every special, with and without berries: the only
    impossible games are 4 or 5 players placing berries on a one-tile course whose special
    tile has 3 ground cells (crocodiles, canyon, lava, or random ones); the others play to
    the end."""
    rng = np.random.default_rng(3)
    rejected = set()
    for P, terrain, special, berries in itertools.product(range(2, 6), (1, 2), SPECIAL_OPTIONS,
                                                          (False, True)):
        try:
            game = BanjooliGame(num_players=P, terrain=terrain, special=special,
                                berries=berries)
        except ValueError:
            rejected.add((P, terrain, special, berries))
            continue
        assert _play_checked(game, 2, rng) > 0
    assert rejected == {(P, 1, special, True) for P in (4, 5)
                        for special in ("crocodiles", "canyon", "lava", "random")}


def test_resample_hidden_gives_possible_states():
    game = BanjooliGame(num_players=4, berries=True)
    states = _snapshots(game, 8, 60, 6, np.random.default_rng(5))
    for p in range(4):
        game.check_states(game.resample_hidden(states, p, rng=p))
