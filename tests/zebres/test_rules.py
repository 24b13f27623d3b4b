"""One test per clause and [decision] of rules/zebres.md, on both implementations.

Every test runs on the reference (pure Python) and on the kernels (ZebresGame) through the
adapters of helpers.py. Positions are written in the notation; the sector maps are::

    standard              president
          a b c d e f           a b c d e f
      1   A B C C C C       1   A B B B C C
      2   A B B C D D       2   A D D B B C
      3   A A B C C D       3   A D E E B B
      4   E A B B B F       4   D D E F F B
      5   E E F F F F       5   E E E E F B

Track (rules §2): 0-5 face columns a-f from the top, 6-10 rows 1-5 from the right, 11-16
columns f-a from the bottom, 17-21 rows 5-1 from the left. Upper case red, lower case green.
"""
import pytest

from savanna.zebres import reference
from savanna.zebres.notation import parse_action

EMPTY = "....../....../....../....../......"
NO_REWARD = [0.0, 0.0]
TERMINAL = -2


def play(impl, text, *moves):
    """Load ``text``, play the named ``moves`` (each must be legal), return (text, rewards)."""
    h = impl.load(text)
    rewards = NO_REWARD
    for move in moves:
        action = parse_action(move)
        assert action in impl.legal(h), f"{move} is not legal in {impl.text(h)}"
        h, rewards = impl.step(h, action)
    return impl.text(h), rewards


def names(actions):
    from savanna.zebres.notation import action_name
    return [action_name(a) for a in actions]


def legal_names(impl, text):
    return names(impl.legal(impl.load(text)))


def placements(kinds, cells):
    return sorted(parse_action(f"{k} {c}") for k in kinds for c in cells)


# ----- §4 setup --------------------------------------------------------------------------------
def test_red_chooses_impala_start_then_green_places_first(impl):
    impl = impl()
    h = impl.start()
    assert impl.text(h) == f"{EMPTY} r - - setup"
    assert impl.player(h) == 0
    assert names(impl.legal(h)) == [f"start {p}" for p in range(22)]
    h, rewards = impl.step(h, parse_action("start 14"))
    assert impl.text(h) == f"{EMPTY} g 14 - place" and rewards == NO_REWARD
    assert impl.player(h) == 1


def test_first_placer_option_swaps_the_roles(impl):
    impl = impl(first_placer=0)
    h = impl.start()
    assert impl.text(h) == f"{EMPTY} g - - setup"
    assert impl.player(h) == 1
    h, _ = impl.step(h, parse_action("start 3"))
    assert impl.text(h) == f"{EMPTY} r 3 - place"


# ----- §2 track, §5.1 placing --------------------------------------------------------------
@pytest.mark.parametrize("start, line", [
    (0, "a1 a2 a3 a4 a5"), (5, "f1 f2 f3 f4 f5"),
    (6, "a1 b1 c1 d1 e1 f1"), (10, "a5 b5 c5 d5 e5 f5"),
    (11, "f1 f2 f3 f4 f5"), (16, "a1 a2 a3 a4 a5"),
    (17, "a5 b5 c5 d5 e5 f5"), (21, "a1 b1 c1 d1 e1 f1"),
])
def test_placements_are_on_the_line_impala_faces(impl, start, line):
    impl = impl()
    text, _ = play(impl, f"{EMPTY} r - - setup", f"start {start}")
    assert impl.legal(impl.load(text)) == placements("ZGELC", line.split())


def test_only_empty_cells_of_the_line_and_placing_is_compulsory(impl):
    # column a (track 0): a1 and a3 taken; no pass, no stop, no Impala move before placing
    text = "Z...../....../z...../....../...... g 0 - place"
    assert impl().legal(impl().load(text)) == placements("ZGELC", ["a2", "a4", "a5"])


def test_a_hand_holds_the_initial_tokens_minus_those_on_the_board(impl):
    # red has both crocodiles and the lion on the board: only Z, G, E can be placed (row 4)
    text = "CC.L../cc.l../....../....../...... r 9 - place"
    assert impl().legal(impl().load(text)) == placements(
        "ZGE", ["a4", "b4", "c4", "d4", "e4", "f4"])


@pytest.mark.parametrize("impala, move, placed", [
    (8, "Z c3", "Z*"),    # below the lion, same sector
    (7, "Z d2", "Z*"),    # right of the lion, across a river
    (7, "G b2", "G*"),    # left of the lion, gazelle
    (8, "G c3", "G*"),
    (8, "Z d3", "Z"),     # diagonal: not next to the lion
    (7, "E d2", "E"),     # elephants never turn face down
])
def test_zebra_or_gazelle_placed_next_to_a_lion_is_face_down(impl, impala, move, placed):
    #   a b c d e f
    # 1 . . . . . .
    # 2 . . l . . .     green lion on c2; red places in row 2 (track 7) or row 3 (track 8)
    text, _ = play(impl(), f"....../..l.../....../....../...... r {impala} - place", move)
    cell = move.split()[1]
    row = int(cell[1]) - 1
    rows = text.split()[0].split("/")
    expected = list("......")
    expected["abcdef".index(cell[0])] = placed
    if row == 1:
        expected[2] = "l"
    assert rows[row] == "".join(expected)


def test_own_lion_also_makes_zebras_hide(impl):
    text, _ = play(impl(), "....../..L.../....../....../...... r 8 - place", "Z c3")
    assert text.split()[0] == "....../..L.../..Z*.../....../......"


def test_lion_hides_zebras_and_chases_gazelles_face_down_ones_too(impl):
    #   a b c d e f        red places its lion on c3 (row 3, track 8):
    # 2 . l C . . .        c2 red crocodile: unaffected
    # 3 . g*. e . .        b3 face-down green gazelle: leaves the board [decision]
    # 4 . . Z . . .        d3 green elephant: unaffected; c4 red zebra: hides
    text, rewards = play(impl(), "....../.lC.../.g*.e../..Z.../...... r 8 - place", "L c3")
    assert text == "....../.lC.../..Le../..Z*.../...... r 8 - move"
    assert rewards == NO_REWARD


def test_elephant_has_no_effect(impl):
    text, _ = play(impl(), "....../..l.../.g.z../....../...... r 8 - place", "E c3")
    assert text == "....../..l.../.gEz../....../...... r 8 - move"


def test_a_fled_gazelle_returns_face_up_to_its_owners_hand(impl):
    # green's gazelle on d3 flees from the red lion: green holds 6 gazelles again
    impl = impl()
    h = impl.load("....../....../...g../....../...... r 8 - place")
    h, _ = impl.step(h, parse_action("L c3"))
    green_view = impl.observe(h, 1)
    assert green_view[627 + 5:627 + 11] == [1] * 6          # own gazelles, thermometer
    red_view = impl.observe(h, 0)
    assert red_view[642 + 5:642 + 11] == [1] * 6            # the same seen from red's seat


# ----- rulebook example: the lion ----------------------------------------------------------
def test_rulebook_lion_example(impl):
    """Column c has a single free cell (c3); red places its lion there.

    Before:              After:
      a b c d e f          a b c d e f
    1 . . c . . .        1 . . c . . .
    2 . . E . . .        2 . . E . . .
    3 . g . G . .        3 . * L * . .     the two gazelles fled (back to their owners),
    4 . . z . . .        4 . . z*. . .     the zebra hid; the elephant is unaffected;
    5 . . C . . .        5 . . C . . .     a zebra or gazelle placed on * must be face down.
    """
    impl = impl()
    before = "..c.../..E.../.g.G../..z.../..C... r 2 - place"
    assert names(impl.legal(impl.load(before))) == ["Z c3", "G c3", "L c3", "C c3"]
    after, _ = play(impl, before, "L c3")
    assert after == "..c.../..E.../..L.../..z*.../..C... r 2 - move"
    # red sends Impala to column d; green's gazelle on the starred d3 goes face down
    text, _ = play(impl, after, "impala +1", "G d3")
    assert text == "..c.../..E.../..Lg*../..z*.../..C... g 3 - move"


def test_observation_from_greens_seat(impl):
    """Player-relative planes and features (contract): green observes, green to move."""
    impl = impl()
    # a1 red zebra, a2 green face-down zebra (next to green's lion on b2); red holds the
    # inauguration; Impala on track 0 faces column a
    obs = impl.observe(impl.load("Z...../z*l..../....../....../...... g 0 r place"), 1)
    expected = [0] * 660
    ones = [0 * 30 + 6, 3 * 30 + 7, 5 * 30 + 0, 10 * 30 + 6]         # own z, own l, opp Z, down
    ones += [11 * 30 + c for c in (0, 6, 12, 18, 24)]                  # column a
    sectors = "ABCCCC" "ABBCDD" "AABCCD" "EABBBF" "EEFFFF"
    ones += [(12 + "ABCDEF".index(sectors[c])) * 30 + c for c in range(30)]
    ones += [600, 622 + 1]                                             # track 0, phase place
    ones += [627 + k for k in range(4)] + [632 + k for k in range(6)] + [638, 640, 641]
    ones += [642 + k for k in range(4)] + [647 + k for k in range(6)] + [653, 654, 655, 656]
    ones += [658, 659]                                                 # opp inaugurated, to move
    for i in ones:
        expected[i] = 1
    assert obs == expected
    red_view = impl.observe(impl.load("Z...../z*l..../....../....../...... g 0 r place"), 0)
    assert red_view[0] == 1 and red_view[5 * 30 + 6] == 1 and red_view[657] == 1
    assert red_view[659] == 0


# ----- §5.2 crocodiles ---------------------------------------------------------------------
CROC_EXAMPLE = "Z...../z...../Z.g.../.g..../..G... r 2 - place"


def test_rulebook_crocodile_example(impl):
    """Red places a crocodile on c4 (sector B); it may swap with the green gazelle on b4
    (sector A) or the red one on c5 (sector F), not with c3 (same sector B, no river).

      a b c d e f                 after 'swap b4':
    1 Z . . . . .                   a b c d e f
    2 z . . . . .                 3 Z . g . . .
    3 Z . g . . .                 4 . C g . . .    red now holds 3 of the 5 cells of A
    4 . g C . . .
    5 . . G . . .
    """
    impl = impl()
    text, rewards = play(impl, CROC_EXAMPLE, "C c4")
    assert text == "Z...../z...../Z.g.../.gC.../..G... r 2 - croc:c4:-"
    assert rewards == NO_REWARD and impl.player(impl.load(text)) == 0
    assert legal_names(impl, text) == ["swap b4", "swap c5", "stop"]
    # no swap is left from b4 (a4, b5 empty; b3 same sector): the chain ends by itself
    text, _ = play(impl, text, "swap b4")
    assert text == "Z...../z...../Z.g.../.Cg.../..G... r 2 - move"
    # if the game ended now: A (red 3 of 4 tokens) 6+6+6+0, B (green) 2+2, F (red) 2
    assert impl.scores(impl.load(text)) == [20, 4]


def test_swapping_is_optional(impl):
    text, _ = play(impl(), CROC_EXAMPLE, "C c4", "stop")
    assert text == "Z...../z...../Z.g.../.gC.../..G... r 2 - move"


def test_crocodile_swaps_with_a_gazelle_of_either_colour(impl):
    text, _ = play(impl(), CROC_EXAMPLE, "C c4", "swap c5")
    assert text == "Z...../z...../Z.g.../.gG.../..C... r 2 - move"


def test_no_swap_without_a_river(impl):
    # c3 and d4 are in the crocodile's sector B: no chain at all, the turn goes on
    text, _ = play(impl(), "....../....../..g.../...g../...... r 2 - place", "C c4")
    assert text == "....../....../..g.../..Cg../...... r 2 - move"


def test_no_swap_with_a_face_down_gazelle(impl):
    # b4 (sector A) is across a river but face down (the green lion on a4 hid it)
    text, _ = play(impl(), "....../....../....../lg*..../...... r 2 - place", "C c4")
    assert text == "....../....../....../lg*C.../...... r 2 - move"


def test_swapped_gazelle_landing_next_to_a_lion_turns_face_down(impl):
    # the gazelle of b4 lands on c4, next to the green lion on d4
    text, _ = play(impl(), "....../....../....../.g.l../...... r 2 - place", "C c4", "swap b4")
    assert text == "....../....../....../.Cg*l../...... r 2 - move"


def test_each_gazelle_is_swapped_at_most_once(impl):
    """[decision] After swapping with b4, the gazelle (now on c4) is across the river from the
    crocodile again, but swapping back is not offered: the chain ends by itself."""
    impl = impl()
    text, _ = play(impl, "....../....../....../.g..../...... r 2 - place", "C c4")
    assert legal_names(impl, text) == ["swap b4", "stop"]
    text, _ = play(impl, text, "swap b4")
    assert text == "....../....../....../.Cg.../...... r 2 - move"


def test_chained_swaps(impl):
    """The crocodile goes c4 -> b4 -> a4 -> a3, each swap from its new cell.

      a b c d e f          after the chain:
    1 . . . . . e          1 . . . . . e
    3 G . . . . .          3 C . . . . .
    4 g G . . . .          4 G g G . . .
    """
    impl = impl()
    text, _ = play(impl, ".....e/....../G...../gG..../...... r 2 - place", "C c4")
    assert legal_names(impl, text) == ["swap b4", "stop"]
    text, _ = play(impl, text, "swap b4")
    assert text == ".....e/....../G...../gCG.../...... r 2 - croc:b4:c4"
    assert legal_names(impl, text) == ["swap a4", "stop"]
    text, _ = play(impl, text, "swap a4")
    assert text == ".....e/....../G...../CgG.../...... r 2 - croc:a4:b4,c4"
    assert legal_names(impl, text) == ["swap a3", "stop"]
    obs = impl.observe(impl.load(text), 0)
    assert [c for c in range(30) if obs[18 * 30 + c]] == [18]             # crocodile on a4
    assert [c for c in range(30) if obs[19 * 30 + c]] == [19, 20]         # b4, c4 swapped
    text, _ = play(impl, text, "swap a3")
    assert text == ".....e/....../C...../GgG.../...... r 2 - move"


def test_stopping_in_the_middle_of_a_chain(impl):
    text, _ = play(impl(), ".....e/....../G...../gG..../...... r 2 - place",
                   "C c4", "swap b4", "stop")
    assert text == ".....e/....../G...../gCG.../...... r 2 - move"


def test_crocodile_on_the_last_cell_still_swaps(impl):
    """The crocodile fills the board, but its swaps are effects of the placement: the game ends
    when the chain does. From a4 (sector E) it swaps with red's gazelle on a3 (sector A), which
    lands next to green's lion on a5 and hides. Green's hand is empty.

      a b c d e f          red 20 (A: 6+6+0+2+6) + 20 (B) + 6 (D) = 46
    3 G g g E c L          green 27 (C) + 1 (E) + 10 (F) + 5 (inauguration) = 43
    4 . z g C z Z*
    5 l g*g z G c
    """
    impl = impl()
    before = "ZZzzgG/ZGGZeG*/GggEcL/.zgCzZ*/lg*gzGc r 0 g place"
    text, rewards = play(impl, before, "C a4")
    assert text == "ZZzzgG/ZGGZeG*/GggEcL/CzgCzZ*/lg*gzGc r 0 g croc:a4:-"
    assert rewards == NO_REWARD and impl.player(impl.load(text)) == 0
    assert legal_names(impl, text) == ["swap a3", "stop"]
    swapped, rewards = play(impl, text, "swap a3")
    assert swapped == "ZZzzgG/ZGGZeG*/CggEcL/G*zgCzZ*/lg*gzGc r 0 g end"
    assert rewards == [1.0, -1.0] and impl.scores(impl.load(swapped)) == [46, 43]
    stopped, _ = play(impl, text, "stop")
    assert stopped == "ZZzzgG/ZGGZeG*/GggEcL/CzgCzZ*/lg*gzGc r 0 g end"


# ----- §5.3 inauguration -------------------------------------------------------------------
def test_filling_a_sector_first_takes_the_inauguration(impl):
    # sector D = e2 f2 f3; red fills f2 (column f, track 5)
    text, _ = play(impl(), "....../....z./.....z/....../...... r 5 - place", "E f2")
    assert text == "....../....zE/.....z/....../...... r 5 r move"


def test_only_the_first_completion_takes_it(impl):
    text, _ = play(impl(), "....../....z./.....z/....../...... r 5 g place", "E f2")
    assert text == "....../....zE/.....z/....../...... r 5 g move"


def test_the_inauguration_is_never_lost(impl):
    """[decision] The red lion on f1 chases the gazelle of f2: sector D is no longer full,
    green keeps the token."""
    text, _ = play(impl(), "....../....zg/.....z/....../...... r 5 g place", "L f1")
    assert text == ".....L/....z./.....z/....../...... r 5 g move"


def test_faq_q5_lion_filling_a_sector_but_chasing_its_gazelle(impl):
    """Q5: the lion takes the last cell of D (f2) but the gazelle of e2 flees: nobody takes
    the inauguration (and the zebra of f3 hides)."""
    text, _ = play(impl(), "....../....g./.....z/....../...... r 5 - place", "L f2")
    assert text == "....../.....L/.....z*/....../...... r 5 - move"


def test_faq_q6_crocodile_filling_a_sector_then_swapping(impl):
    """Q6: the crocodile fills D's last cell (f2) then swaps with green's gazelle on f1
    (sector C): red still takes the inauguration, once the chain is over."""
    impl = impl()
    text, _ = play(impl, ".....g/....z./.....z/....../...... r 5 - place", "C f2")
    assert text == ".....g/....zC/.....z/....../...... r 5 - croc:f2:-"   # not yet claimed
    swapped, _ = play(impl, text, "swap f1")
    assert swapped == ".....C/....zg/.....z/....../...... r 5 r move"
    stopped, _ = play(impl, text, "stop")
    assert stopped == ".....g/....zC/.....z/....../...... r 5 r move"


# ----- §5.4 Impala -------------------------------------------------------------------------
#   columns a and b (track 0 and 1) are full (so is sector A: green took the inauguration);
#   Impala is on track 20 (row 2)
COLUMNS_AB = "Zz..../zG..../Gg..../gZ..../Zz...."


def test_impala_moves_1_to_3_only_to_lines_with_room(impl):
    # column a (+2) is full; row 1 (+1) and column b (+3, b5 empty) have room
    impl = impl()
    text, _ = play(impl, "Zz..../zG..../Gg..../gZ..../Z..... r 20 g place", "E c2")
    assert text == "Zz..../zGE.../Gg..../gZ..../Z..... r 20 g move"
    assert legal_names(impl, text) == ["impala +1", "impala +3"]
    text, _ = play(impl, text, "impala +3")             # 20 + 3 wraps round to 1
    assert text == "Zz..../zGE.../Gg..../gZ..../Z..... g 1 g place"


def test_faq_q4_a_single_possible_move_is_made_automatically(impl):
    # from 20 only +1 (row 1) has room: Impala goes to 21 and green places
    text, _ = play(impl(), f"{COLUMNS_AB} r 20 g place", "E c2")
    assert text == "Zz..../zGE.../Gg..../gZ..../Zz.... g 21 g place"


def test_impala_jumps_to_the_first_line_with_room_when_all_three_are_full(impl):
    # row 1 (21), column a (0) and column b (1) are full: forced on to column c (2)
    text, _ = play(impl(), "ZzGgEe/zG..../Gg..../gZ..../Zz.... r 20 g place", "Z c2")
    assert text == "ZzGgEe/zGZ.../Gg..../gZ..../Zz.... g 2 g place"


# ----- §5.5 who plays next, §6 end and scoring ---------------------------------------------
#   a b c d e f   every sector full but C (d3) and F (e5); green's hand is empty
# 1 Z Z z z g G
# 2 Z G G Z e G*
# 3 G g g . c L
# 4 C z g C z Z*
# 5 l g*g z . c
ALMOST_FULL = "ZZzzgG/ZGGZeG*/Ggg.cL/CzgCzZ*/lg*gz.c r 3 g place"
FULL = "ZZzzgG/ZGGZeG*/GggEcL/CzgCzZ*/lg*gzGc r 4 g end"


def test_a_player_with_an_empty_hand_is_skipped(impl):
    # red places its elephant; Impala's only move is +1 (column e); green has nothing: red again
    text, rewards = play(impl(), ALMOST_FULL, "E d3")
    assert text == "ZZzzgG/ZGGZeG*/GggEcL/CzgCzZ*/lg*gz.c r 4 g place"
    assert rewards == NO_REWARD


def test_the_full_board_ends_the_game_and_impala_does_not_move(impl):
    """Final scores (red: A B D, green: C E F by majority; face-up values only):
    A a1 Z a2 Z a3 G b3 g b4 z  red 3-2   6+6+2+2+6       = 22
    B b1 Z b2 G c2 G c3 g c4 g d4 C e4 z  red 4-3  6+2+2+2+2+0+6 = 20
    C c1 z d1 z e1 g f1 G d2 Z d3 E e3 c  green 4-3  6+6+2+2+6+5+0 = 27
    D e2 e f2 G* f3 L  red 2-1  5+0+1 = 6
    E a4 C a5 l b5 g*  green 2-1  0+1+0 = 1
    F f4 Z* c5 g d5 z e5 G f5 c  green 3-2  0+2+6+2+0 = 10
    red 22+20+6 = 48; green 27+1+10 + 5 (inauguration) = 43: red wins.
    """
    impl = impl()
    text, rewards = play(impl, ALMOST_FULL, "E d3", "G e5")
    assert text == FULL
    assert rewards == [1.0, -1.0]
    h = impl.load(text)
    assert impl.player(h) == TERMINAL and impl.legal(h) == []
    assert impl.scores(h) == [48, 43]
    assert impl.observe(h, 0)[622 + 4] == 1 and impl.observe(h, 0)[659] == 0


def test_alternation_resumes_when_a_lion_returns_a_gazelle(impl):
    """Green's hand is empty; red's lion on f3 chases green's face-down gazelle of f2 (and
    hides the zebra of f4): green holds a token again and plays next. Impala: from column f
    (5) only +2 (row 2, where f2 is empty) has room."""
    before = "ZZzzgG/ZGGZeg*/GggEc./CzgCzZ/lg*GzGc r 5 g place"
    text, _ = play(impl(), before, "L f3")
    assert text == "ZZzzgG/ZGGZe./GggEcL/CzgCzZ*/lg*GzGc g 7 g place"
    text, rewards = play(impl(), text, "G f2")           # next to the lion: face down
    assert text == "ZZzzgG/ZGGZeg*/GggEcL/CzgCzZ*/lg*GzGc g 7 g end"
    # red A 22, B 20, F 0+2+6+2+0 = 10 (3-2); green C 27, D 5+0+1 = 6 (2-1), E 1, +5
    assert rewards == [1.0, -1.0]
    assert impl().scores(impl().load(text)) == [52, 39]


def test_rulebook_scoring_example(impl):
    """A 7-cell sector (B of the standard board) with green zebra, green face-down token,
    green elephant, green crocodile, red lion, red gazelle, red zebra: green has 4 tokens to 3
    and scores 6 + 0 + 5 + 0 + 1 + 2 + 6 = 20 (red holds the inauguration: 5).

      a b c d e f
    1 . L . . . .
    2 . e z . . .
    3 . . g*. . .
    4 . . G c Z .
    """
    impl = impl()
    h = impl.load(".L..../.ez.../..g*.../..GcZ./...... g 3 r place")
    assert impl.scores(h) == [5, 20]


def test_face_down_tokens_count_for_majority_but_score_nothing(impl):
    # sector A: red a1 Z and a2 Z* (hidden by green's lion on b2), green a3 g: red has the
    # majority 2-1 and scores 6 + 0 + 2 = 8; sector B: the green lion alone, 1
    impl = impl()
    h = impl.load("Z...../Z*l..../g...../....../...... r 0 - place")
    assert impl.scores(h) == [8, 1]


def test_a_tied_sector_scores_for_nobody_before_the_end(impl):
    impl = impl()
    assert impl.scores(impl.load("Z...../z...../....../....../...... g 0 - place")) == [0, 0]
    assert impl.scores(impl.load("Z...../z...../G...../....../...... g 0 - place")) == [14, 0]


def test_equal_totals_are_a_draw():
    """[decision] Equal totals give rewards 0 / 0. At a real end the draw cannot happen: every
    sector is scored, the face-up values (6, 2, 5+5, 1+1) sum to an even number and the
    inauguration adds 5 to one side, so the totals differ by an odd number."""
    assert reference.outcome([40, 40]) == [0.0, 0.0]
    assert reference.outcome([41, 40]) == [1.0, -1.0]
    assert reference.outcome([40, 41]) == [-1.0, 1.0]


# ----- the President board ------------------------------------------------------------------
@pytest.mark.parametrize("board, after", [
    # standard: c4 and d4 are both in B, no river; president: c4 in E, d4 in F
    ("standard", "....../....../....../..Cg../...... r 2 - move"),
    ("president", "....../....../....../..Cg../...... r 2 - croc:c4:-"),
])
def test_president_board_has_its_own_rivers(impl, board, after):
    text, _ = play(impl(board=board), "....../....../....../...g../...... r 2 - place", "C c4")
    assert text == after


@pytest.mark.parametrize("board, after", [
    ("standard", "z...../Z...../E...../....../...... r 0 - move"),     # A has 5 cells
    ("president", "z...../Z...../E...../....../...... r 0 r move"),    # A = a1 a2 a3
])
def test_president_board_has_its_own_sectors(impl, board, after):
    text, _ = play(impl(board=board), "z...../Z...../....../....../...... r 0 - place", "E a3")
    assert text == after


def test_president_scores_use_its_sectors(impl):
    # standard A (a1 a2 a3 b3 ...) is tied 2-2; president A = a1 a2 a3: red 2-1 scores
    # 6 + 6 + 2 and b3 (president D) scores 2 for green; green holds the inauguration (+5),
    # as it must once president A is full
    text = "Z...../Z...../gg..../....../...... g 0 g place"
    assert impl().scores(impl().load(text)) == [0, 5]
    assert impl(board="president").scores(impl(board="president").load(text)) == [14, 2 + 5]
