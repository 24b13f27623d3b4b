"""The Zèbres text notation: round trips, cell and action names, board maps, every malformed
case."""
import random

import pytest

from savanna.zebres import notation, spec
from savanna.zebres.notation import Position, Token

EMPTY = "....../....../....../....../......"


# ----- round trips --------------------------------------------------------------------------
@pytest.mark.parametrize("text", [
    f"{EMPTY} r - - setup",
    f"{EMPTY} g - - setup",
    "ZG..../....../....../....../...... g 3 - place",
    # a crocodile chain: the red crocodile placed on c4 swapped with the gazelle of b4
    "....../....../....../.Cg.../...... r 2 - croc:b4:c4",
    "....../....../..G.../.Cg.../...... r 2 - croc:b4:c4",
    "....../....../....../..C.../...... r 2 - croc:c4:-",
    "z*Z*g*G*EL/elc.../....../....../...... g 21 r move",
    "ZZZZZz/zzzzGG/GGGGgg/ggggEe/LlCCcc r 7 g end",
    # a crocodile placed on the last empty cell still swaps: a full board in phase croc
    "ZZZZZz/zzzzGG/GGGGgg/ggggEe/LlCCcc r 7 g croc:c5:-",
])
def test_round_trip_text(text):
    assert notation.format(notation.parse(text)) == text


def test_round_trip_random_positions():
    """Random boards in every phase survive format -> parse unchanged (seed 0)."""
    rng = random.Random(0)
    for _ in range(300):
        pool = [Token(p, k) for p in (0, 1) for k, c in spec.TOKEN_COUNTS.items()
                for _ in range(c)]
        rng.shuffle(pool)
        filled = rng.randrange(1, 30)
        board = [None] * 30
        for cell in rng.sample(range(30), filled):
            token = pool.pop()
            board[cell] = Token(token.player, token.kind, token.kind in "ZG" and rng.random() < .3)
        pos = Position(tuple(board), rng.randrange(2), rng.randrange(22),
                       rng.choice([None, 0, 1]), rng.choice(["move", "place"]))
        if pos.phase == "place" and not any(pos.hand(pos.to_move).values()):
            continue
        text = notation.format(pos)
        assert notation.parse(text) == pos
        assert notation.format(notation.parse(text)) == text


def test_croc_swapped_cells_are_formatted_in_cell_order():
    text = "....../....../..g.../.GCg../...... r 2 - croc:c4:d4,b4,c3"
    assert notation.format(notation.parse(text)).endswith("croc:c4:c3,b4,d4")
    assert notation.parse(text).swapped == frozenset({14, 19, 21})


def test_start_position_and_first_placer():
    assert notation.format(notation.start_position()) == f"{EMPTY} r - - setup"
    assert notation.format(notation.start_position(first_placer=0)) == f"{EMPTY} g - - setup"
    with pytest.raises(ValueError, match="first_placer"):
        notation.start_position(2)


def test_hand_is_initial_tokens_minus_own_colour_on_board():
    pos = notation.parse("ZZg*L../....../....../....../...... g 3 - place")
    assert pos.hand(0) == {"Z": 3, "G": 6, "E": 1, "L": 0, "C": 2}
    assert pos.hand(1) == {"Z": 5, "G": 5, "E": 1, "L": 1, "C": 2}


def test_token_letter_and_value():
    assert Token(0, "Z").letter == "Z" and Token(1, "G", True).letter == "g*"
    assert [Token(0, k).value for k in "ZGELC"] == [6, 2, 5, 1, 0]
    assert Token(1, "Z", True).value == 0


# ----- cells, track, boards -----------------------------------------------------------------
def test_cell_names():
    assert [notation.cell_name(c) for c in (0, 29, 20)] == ["a1", "f5", "c4"]
    assert [notation.cell_index(notation.cell_name(c)) for c in range(30)] == list(range(30))
    assert notation.cell_index("d4") == 3 * 6 + 3


@pytest.mark.parametrize("bad", ["g1", "a6", "a0", "c", "c44", "", 7])
def test_bad_cell_name(bad):
    with pytest.raises(ValueError, match="cell name"):
        notation.cell_index(bad)


@pytest.mark.parametrize("bad", [-1, 30, 2.0])
def test_bad_cell_index(bad):
    with pytest.raises(ValueError, match="cell index"):
        notation.cell_name(bad)


def test_track_lines_follow_the_clockwise_table():
    # top: columns left to right; right: rows top to bottom; bottom: columns right to left;
    # left: rows bottom to top (rules §2)
    lines = spec.TRACK_LINES
    assert [notation.cell_name(c) for c in lines[0]] == ["a1", "a2", "a3", "a4", "a5"]
    assert [notation.cell_name(c) for c in lines[5]] == ["f1", "f2", "f3", "f4", "f5"]
    assert [notation.cell_name(c) for c in lines[6]] == ["a1", "b1", "c1", "d1", "e1", "f1"]
    assert [notation.cell_name(c) for c in lines[10]] == ["a5", "b5", "c5", "d5", "e5", "f5"]
    assert lines[11] == lines[5] and lines[16] == lines[0]
    assert lines[17] == lines[10] and lines[21] == lines[6]


def test_neighbours():
    assert sorted(spec.neighbours(0)) == [1, 6]
    assert sorted(spec.neighbours(notation.cell_index("c3"))) == sorted(
        notation.cell_index(c) for c in ["c2", "c4", "b3", "d3"])


@pytest.mark.parametrize("board, sizes", [
    ("standard", {"A": 5, "B": 7, "C": 7, "D": 3, "E": 3, "F": 5}),
    ("president", {"A": 3, "B": 9, "C": 3, "D": 5, "E": 7, "F": 3}),
])
def test_sector_maps(board, sizes):
    sectors = spec.SECTOR_MAPS[board]
    assert len(sectors) == 30
    assert {s: sectors.count(s) for s in "ABCDEF"} == sizes
    for letter in "ABCDEF":  # every sector is connected
        cells = [c for c in range(30) if sectors[c] == letter]
        seen, todo = {cells[0]}, [cells[0]]
        while todo:
            for m in spec.neighbours(todo.pop()):
                if sectors[m] == letter and m not in seen:
                    seen.add(m)
                    todo.append(m)
        assert len(seen) == len(cells)


def test_check_board_name():
    notation.check_board_name("president")
    with pytest.raises(ValueError, match="standard, president"):
        notation.check_board_name("savane")


# ----- actions ------------------------------------------------------------------------------
@pytest.mark.parametrize("action, name", [
    (0, "Z a1"), (1 * 30 + 20, "G c4"), (4 * 30 + 29, "C f5"), (149, "C f5"),
    (150, "start 0"), (164, "start 14"), (171, "start 21"),
    (172, "swap a1"), (172 + 21, "swap d4"), (201, "swap f5"),
    (202, "stop"), (203, "impala +1"), (205, "impala +3"),
])
def test_action_names(action, name):
    assert notation.action_name(action) == name
    assert notation.parse_action(name) == action


def test_every_action_name_round_trips():
    names = [notation.action_name(a) for a in range(spec.NUM_ACTIONS)]
    assert len(set(names)) == spec.NUM_ACTIONS
    assert [notation.parse_action(name) for name in names] == \
        list(range(spec.NUM_ACTIONS))
    # the colour is not in the name
    assert notation.parse_action("z c4") == notation.parse_action("Z c4")


@pytest.mark.parametrize("bad", ["", "go", "X c4", "Z g9", "start 22", "start -1", "swap",
                                 "impala +4", "impala 2", "stop now", "Z", None])
def test_bad_action_name(bad):
    with pytest.raises(ValueError, match="unknown action"):
        notation.parse_action(bad)


@pytest.mark.parametrize("bad", [-1, 206, 3.0])
def test_bad_action_id(bad):
    with pytest.raises(ValueError, match="action must be"):
        notation.action_name(bad)


# ----- malformed positions ------------------------------------------------------------------
@pytest.mark.parametrize("text, message", [
    (f"{EMPTY} r - -", "5 space-separated fields"),
    (f"{EMPTY} r - - setup extra", "5 space-separated fields"),
    ("....../....../....../...... r - - setup", "5 rows"),
    ("......./....../....../....../...... r - - setup", "row 1 must have 6 cells"),
    ("....../...../....../....../...... r - - setup", "row 2 must have 6 cells"),
    ("....../....../....x./....../...... r 0 - place", "unknown letter 'x' in"),
    ("*...../....../....../....../...... r 0 - place", "'\\*' must directly follow"),
    ("Z**.../....../....../....../...... r 0 - place", "'\\*' must directly follow"),
    (".*..../....../....../....../...... r 0 - place", "'\\*' must directly follow"),
    ("E*..../....../....../....../...... r 0 - place", "only zebras and gazelles"),
    ("l*..../....../....../....../...... r 0 - place", "only zebras and gazelles"),
    (f"{EMPTY} x - - setup", "to_move must be 'r' or 'g'"),
    ("Z...../....../....../....../...... r 22 - place", "impala must be"),
    ("Z...../....../....../....../...... r -1 - place", "impala must be"),
    ("Z...../....../....../....../...... r 03 - place", "impala must be"),
    ("Z...../....../....../....../...... r 1x - place", "impala must be"),
    ("Z...../....../....../....../...... r 3 x place", "inauguration must be"),
    ("Z...../....../....../....../...... r 3 - play", "phase must be"),
    ("Z...../....../....../....../...... r 3 - croc", "phase must be"),
    ("ZZZZZZ/....../....../....../...... g 3 - place", "too many red zebras.*6.*5"),
    ("ggggggg/....../....../....../...... r 3 - place", "row 1 must have 6 cells"),
    ("gggggg/g...../....../....../...... r 3 - place", "too many green gazelles"),
    ("EE..../....../....../....../...... g 3 - place", "too many red elephants"),
    ("ll..../....../....../....../...... g 3 - place", "too many green lions"),
    ("CCC.../....../....../....../...... g 3 - place", "too many red crocodiles"),
    ("Z...../....../....../....../...... r - - setup", "setup phase needs an empty board"),
    (f"{EMPTY} r 3 - setup", "setup phase needs"),
    (f"{EMPTY} r - g setup", "setup phase needs"),
    ("Z...../....../....../....../...... g - - place", "impala must be placed"),
    ("Z...../....../....../....../...... g 3 - end", "end phase needs a full board"),
    ("ZZZZZz/zzzzGG/GGGGgg/ggggEe/LlCCcc r 7 g place", "the board is full"),
    ("ZZZZZz/zzzzGG/GGGGgg/ggggEe/LlCCcc r 7 g move", "the board is full"),
    ("ZZZZZz/zzzzGG/GGGGgg/ggggEe/LlCC.c r 7 g place", "red \\(to move\\) has no token"),
    # crocodile chains
    ("....../....../....../..C.../...... r 2 - croc:c4", "croc:<crocodile cell>"),
    ("....../....../....../..C.../...... r 2 - croc:z9:-", "bad cell name"),
    ("....../....../....../..C.../...... r 2 - croc:c4:b4,", "bad cell name"),
    ("....../....../....../.GCg../...... r 2 - croc:c4:b4,b4", "swapped cell twice"),
    ("....../....../....../..c.../...... r 2 - croc:c4:-", "c4 must hold a crocodile of red"),
    ("....../....../....../..E.../...... r 2 - croc:c4:-", "c4 must hold a crocodile"),
    ("....../....../....../.ZC.../...... r 2 - croc:c4:b4", "b4 must hold a gazelle"),
    ("....../....../....../..C.../...... r 2 - croc:c4:c4", "crocodile cell c4 is listed"),
])
def test_malformed_position(text, message):
    with pytest.raises(ValueError, match=message) as error:
        notation.parse(text)
    assert "\n" not in str(error.value)


@pytest.mark.parametrize("text, message", [
    # the line of position 0 (column a) is full
    ("Z...../Z...../Z...../Z...../z..... g 0 - place", "line Impala faces \\(0\\) is full"),
    # from 20: +1 faces row 1 (empty cells), +2 column a and +3 column b, both full
    ("ZG..../ZG..../Zg..../Zg..../zz.... r 20 r move", "at least two possible Impala moves"),
    # the red crocodile on c4 (sector B) has no face-up gazelle across a river
    ("....../....../....../..C.../...... r 2 - croc:c4:-", "needs a swap left"),
    ("....../....../....../.g*C.../...... r 2 - croc:c4:-", "needs a swap left"),
    # d4 is in the crocodile's sector B: no river
    ("....../....../....../..Cg../...... r 2 - croc:c4:-", "needs a swap left"),
    ("....../....../....../.gC.../...... r 2 - croc:c4:b4", "needs a swap left"),
])
def test_inconsistent_with_the_rules(text, message):
    notation.parse(text)  # fine without a board map
    with pytest.raises(ValueError, match=message):
        notation.parse(text, board="standard")


def test_rule_checks_accept_consistent_positions():
    notation.parse("....../....../....../.gC.../...... r 2 - croc:c4:-", board="standard")
    notation.parse("ZG..../ZG..../Zg..../Zg..../z..... r 20 r move", board="standard")
    with pytest.raises(ValueError, match="board must be one of"):
        notation.parse(f"{EMPTY} r - - setup", board="savane")


def test_format_validates():
    with pytest.raises(ValueError, match="too many"):
        notation.format(Position((Token(0, "E"),) * 2 + (None,) * 28, 1, 3, None, "place"))
    with pytest.raises(ValueError, match="only allowed in phase croc"):
        notation.format(Position((None,) * 30, 1, 3, None, "place", croc_cell=3))
