"""One test per rule clause and [decision] of ../shared/rules/banjooli.md (core and special
tiles), each on a hand-made position, run against both the kernels and the reference.

Diagrams show the track with the finish at the top; lanes a b c left to right; capital letters
are running ostriches, lower case scared ones, # rocks.
"""
import pytest

from tests.banjooli.helpers import field, legal, ostriches, play, position, scores

# Nest-bound ostriches used to fill unused colours: Y and P wait on nests a2 and c2.
NESTED = "a2n,c2n"


# ----- §4 the turn --------------------------------------------------------------------------
def test_roll_fills_the_dice_then_offers_every_reroll_subset(impl):
    text = position(f"b3,b4,b1n,{NESTED}", dice="??????", phase="roll")
    after, _ = play(impl, text, ["die R", "die B", "die G", "die Y", "die P", "die W"])
    assert field(after, "dice") == "RBGYPW" and field(after, "phase") == "reroll"
    assert legal(impl, after) == ["keep"] + [n for n in legal(impl, after) if n != "keep"]
    assert len(legal(impl, after)) == 64


def test_reroll_rolls_only_the_chosen_dice_once(impl):
    text = position(f"b3,b4,b1n,{NESTED}", dice="RBGYPW", phase="reroll")
    after, _ = play(impl, text, ["reroll 0,5"])
    assert field(after, "dice") == "?BGYP?" and field(after, "phase") == "rerolling"
    after, _ = play(impl, after, ["die W", "die R"])
    assert field(after, "dice") == "WBGYPR" and field(after, "phase") == "act"


def test_keep_goes_straight_to_acting(impl):
    after, _ = play(impl, position(f"b3,b4,b1n,{NESTED}", dice="RBGYPW", phase="reroll"),
                    ["keep"])
    assert field(after, "phase") == "act" and field(after, "dice") == "RBGYPW"


def test_turn_passes_only_when_nothing_is_legal(impl):
    # every ostrich on the track is scared, the sorcery die shows a nest-bound ostrich
    text = position("b3s,b4s,b1n,a2n,c2n", dice="RRBBRY")
    assert legal(impl, text) == ["pass"]
    after, _ = play(impl, text, ["pass"])
    assert field(after, "to_move") == "1" and field(after, "phase") == "roll"
    assert field(after, "dice") == "??????" and field(after, "turn") == "1"


def test_play_goes_to_the_next_seat_and_wraps(impl):
    text = position("b3s,b4s,b1n,a2n,c2n", dice="RRBBRY", players=3, to_move=2)
    after, _ = play(impl, text, ["pass"])
    assert field(after, "to_move") == "0"


# ----- §5 moving ----------------------------------------------------------------------------
def test_single_jump_costs_one_point(impl):
    #  5 | . . . |      R (1 point) may step to a4 or c4 or jump B to b5
    #  4 | . B . |
    #  3 | . R . |
    text = position(f"b3,b4,b1n,{NESTED}", dice="RYYYYY")
    after, _ = play(impl, text, ["move R"])
    assert legal(impl, after) == ["left", "straight", "right"]
    after, _ = play(impl, after, ["straight"])
    assert ostriches(after)["R"] == "b5" and field(after, "phase") == "roll"


def test_jumps_chain_within_one_move(impl):
    #  7 | . . . |
    #  6 | . G . |     R (2 points): jump B to b5, then jump G to b7
    #  5 | . . . |
    #  4 | . B . |
    #  3 | . R . |
    text = position(f"b3,b4,b6,{NESTED}", course="T1,K1", dice="RRYYYY")
    after, _ = play(impl, text, ["move R", "straight", "straight"])
    assert ostriches(after)["R"] == "b7"


def test_two_ostriches_in_a_row_cannot_be_jumped(impl):
    #  5 | . G . |
    #  4 | . B . |     R (1 point): straight is blocked
    #  3 | . R . |
    text = position(f"b3,b4,b5,{NESTED}", dice="RYYYYY")
    after, _ = play(impl, text, ["move R"])
    assert legal(impl, after) == ["left", "right"]


def test_diagonal_jump_lands_in_the_same_direction(impl):
    #  5 | . . . |
    #  4 | . B . |     R (1 point) on a3 jumps B diagonally to c5
    #  3 | R . . |
    after, _ = play(impl, position(f"a3,b4,b1n,{NESTED}", dice="RYYYYY"),
                    ["move R", "right"])
    assert ostriches(after)["R"] == "c5"


def test_no_sideways_or_backward_and_rocks_block(impl):
    #  5 | . . . |
    #  4 | # . # |     T7: R on b3 (1 point) can only go straight
    #  3 | . R . |
    after, _ = play(impl, position(f"b3,b1n,c0n,{NESTED}", course="T7", dice="RYYYYY"),
                    ["move R"])
    assert legal(impl, after) == ["straight"]


def test_curve_forbids_changing_lane_into_it(impl):
    #  3 | . . . |  K1 (curve)
    #  2 | . R . |  start tile: R (1 point) may only go straight
    text = position("b2,b1n,c0n,a0n,c2n", course="K1,T1", dice="RYYYYY")
    assert legal(impl, play(impl, text, ["move R"])[0]) == ["straight"]


def test_curve_forbids_diagonal_jumps_inside_it(impl):
    #  6 | . . . |  T1
    #  5 | . B . |  K1 (curve): R on a4 cannot jump B diagonally
    #  4 | R . . |
    text = position(f"a4,b5,b1n,{NESTED}", course="K1,T1", dice="RYYYYY")
    assert legal(impl, play(impl, text, ["move R"])[0]) == ["straight"]


def test_leaving_a_curve_diagonally_is_allowed(impl):
    #  6 | . . . |  T1
    #  5 | . R . |  K1 (curve)
    text = position(f"b5,b1n,c0n,{NESTED}", course="K1,T1", dice="RYYYYY")
    assert legal(impl, play(impl, text, ["move R"])[0]) == ["left", "straight", "right"]


def test_quicksand_ends_the_move_and_scares(impl):
    #  5 | . . . |
    #  4 | . Q . |     T8: R (3 points) steps into the quicksand and stops
    #  3 | . R . |
    text = position(f"b3,b1n,c0n,{NESTED}", course="T8", dice="RRRYYY")
    after, _ = play(impl, text, ["move R", "straight"])
    assert ostriches(after)["R"] == "b4s" and field(after, "phase") == "roll"


def test_a_move_that_cannot_spend_all_points_is_not_offered(impl):
    #  6 | . G . |
    #  5 | Y B P |     R on a3: one point reaches b4, from where nothing can move
    #  4 | # . # |     T7
    #  3 | R . . |
    one = position("a3,b5,b6,a5,c5", course="T7,T1", dice="RBBBBB")
    two = position("a3,b5,b6,a5,c5", course="T7,T1", dice="RRBBBB")
    assert "move R" in legal(impl, one)
    assert "move R" not in legal(impl, two)


def test_only_directions_that_complete_the_move_are_offered(impl):
    #  6 | B G P |
    #  5 | B Y . |     R (2 points) on b3: left leads to a4, a dead end
    #  4 | . . . |
    #  3 | . R . |
    text = position("b3,a5,a6,b5,c6", course="T1,K1", dice="RRYYYY")
    after, _ = play(impl, text, ["move R"])
    assert legal(impl, after) == ["straight", "right"]


def test_arrival_ends_the_move_and_forfeits_points(impl):
    #  finish
    #  5 | . R . |     R (3 points) arrives with its first point
    text = position(f"b5,b1n,c0n,{NESTED}", dice="RRRYYY")
    after, _ = play(impl, text, ["move R", "straight"])
    assert ostriches(after)["R"] == "+1" and field(after, "phase") == "roll"


def test_jump_over_the_last_row_arrives(impl):
    #  finish
    #  5 | . B . |
    #  4 | . R . |     R (1 point) jumps B across the finish line
    after, _ = play(impl, position(f"b4,b5,c0n,{NESTED}", dice="RYYYYY"),
                    ["move R", "straight"])
    assert ostriches(after)["R"] == "+1"


def test_a_scared_ostrich_cannot_move(impl):
    assert not any(n.startswith("move R") for n in
                   legal(impl, position(f"b3s,b1n,c0n,{NESTED}", dice="RRWYYY")))


def test_joker_sources_are_optional_and_never_combined(impl):
    # R shows once, W once, arrived G twice: R may move 1, 1+1 or 1+2 points, never 1+1+2
    text = position("b3,a3,+1,a2n,c2n", dice="RWGGBY")
    names = legal(impl, text)
    assert [n for n in names if n.startswith("move R")] == ["move R", "move R+W", "move R+G"]
    points = {name: field(play(impl, text, [name])[0], "phase") for name in
              ("move R", "move R+W", "move R+G")}
    assert points == {"move R": "move:R1:b3", "move R+W": "move:R2:b3",
                      "move R+G": "move:R3:b3"}


def test_a_colour_may_move_on_jokers_alone(impl):
    text = position("b3,a3,+1,a2n,c2n", dice="WBGGBY")
    names = legal(impl, text)
    assert "move R" not in names and "move R+W" in names and "move R+G" in names


# ----- §4 B sorcery -------------------------------------------------------------------------
def test_sorcery_only_on_ostriches_in_the_race(impl):
    # joker sorcery: R (scared, in the race) and Y (in the race); not B (nest), G (arrived)
    text = position("b3s,a0n,+1,b4,c2n", dice="GGGGGW")
    assert [n for n in legal(impl, text) if n.startswith("sorcery")] == ["sorcery R",
                                                                           "sorcery Y"]
    for die in "BGP":  # nest-bound or arrived colours give no sorcery
        assert not any(n.startswith("sorcery") for n in
                       legal(impl, position("b3s,a0n,+1,b4,c2n", dice="GGGGG" + die)))


def test_sorcery_bewitches_and_unbewitches(impl):
    text = position("b3s,a0n,+1,b4,c2n", dice="GGGGGW")
    assert ostriches(play(impl, text, ["sorcery R"])[0])["R"] == "b3"
    assert ostriches(play(impl, text, ["sorcery Y"])[0])["Y"] == "b4s"


def test_an_ostrich_that_left_its_nest_is_in_the_race_even_on_another_nest(impl):
    # R left a0 for b1 (an empty nest): it is in the race
    text = position("b1,c0n,b3,a2n,c2n", dice="GGGGGR")
    assert "sorcery R" in legal(impl, text)


# ----- §6 special tiles ---------------------------------------------------------------------
def test_crocodile_snaps_a_bewitched_ostrich_past_the_ditch(impl):
    #  5 | . . . |
    #  4 | W C W |     CROC: R on the crocodile a3 is bewitched: it lands running on a5
    #  3 | R W C |
    text = position(f"a3,b1n,c0n,{NESTED}", course="CROC,T1", dice="GGGGGR")
    assert ostriches(play(impl, text, ["sorcery R"])[0])["R"] == "a5"


def test_crocodile_snap_takes_the_nearest_free_lane(impl):
    # R on b4 (crocodile): b5 taken by B, lower lane a5 preferred to c5
    text = position("b4,b5,c0n,a2n,c2n", course="CROC,T1", dice="GGGGGR")
    assert ostriches(play(impl, text, ["sorcery R"])[0])["R"] == "a5"
    # row 5 full: the next row, own lane
    text = position("b4,a5,b5,c5,c2n", course="CROC,T1", dice="GGGGGR")
    assert ostriches(play(impl, text, ["sorcery R"])[0])["R"] == "b6"


def test_crocodile_with_no_free_cell_to_the_end_leaves_the_ostrich_scared(impl):
    # [decision] §6: the snap has nowhere to send it, so it is bewitched as usual
    #  finish
    #  5 | B G Y |     CROC, the last tile: every cell from row 2 of the tile (row 5) to the
    #  4 | W C W |     end of the track is taken; R on the crocodile a3 is bewitched and
    #  3 | R W C |     stays there, scared
    text = position("a3,a5,b5,c5,c2n", course="CROC", dice="GGGGGR")
    after, _ = play(impl, text, ["sorcery R"])
    assert ostriches(after) == {**ostriches(text), "R": "a3s"}
    assert field(after, "phase") == "roll" and field(after, "to_move") == "1"


def test_crocodile_water_is_impassable(impl):
    text = position(f"b2,b1n,c0n,{NESTED}", course="CROC,T1", dice="RYYYYY")
    assert legal(impl, play(impl, text, ["move R"])[0]) == ["left", "right"]


def test_unbewitching_on_a_crocodile_just_flips(impl):
    text = position(f"a3s,b1n,c0n,{NESTED}", course="CROC,T1", dice="GGGGGR")
    assert ostriches(play(impl, text, ["sorcery R"])[0])["R"] == "a3"


def test_canyon_leaves_only_the_bridge(impl):
    text = position(f"b2,b1n,c0n,{NESTED}", course="CANYON", dice="RYYYYY")
    assert legal(impl, play(impl, text, ["move R"])[0]) == ["straight"]


def test_lava_may_be_crossed(impl):
    #  5 | . L . |
    #  4 | L L L |     LAVA: R (3 points) from b2 crosses b3, a4 to a5
    #  3 | L . L |
    text = position(f"b2,b1n,c0n,{NESTED}", course="LAVA,T1", dice="RRRYYY")
    after, _ = play(impl, text, ["move R", "straight", "left", "straight"])
    assert ostriches(after)["R"] == "a5"


def test_a_move_ending_on_lava_goes_back_to_the_last_safe_cell(impl):
    text = position(f"b2,b1n,c0n,{NESTED}", course="LAVA,T1", dice="RRYYYY")
    after, _ = play(impl, text, ["move R", "straight", "straight"])  # b3 ground, b4 lava
    assert ostriches(after)["R"] == "b3"
    text = position("a2n,b1n,c0n,a0n,c2n", course="LAVA,T1", dice="RYYYYY")
    after, _ = play(impl, text, ["move R", "straight"])  # a3 lava: back to its start
    assert ostriches(after)["R"] == "a2"


def test_vortex_swaps_with_the_rolled_colour(impl):
    #  5 | . . . |
    #  4 | . V . |     VORTEX: R (2 points) enters the vortex and stops
    #  3 | . R . |
    text = position(f"b3,a6,b1n,{NESTED}", course="VORTEX,T1", dice="RRYYYY")
    after, _ = play(impl, text, ["move R", "straight"])
    assert field(after, "phase") == "vortex:R"
    swapped, _ = play(impl, after, ["die B"])
    assert ostriches(swapped)["R"] == "a6" and ostriches(swapped)["B"] == "b4"
    assert field(swapped, "phase") == "roll"


def test_vortex_joker_lets_the_mover_choose(impl):
    text = position(f"b3,a6,b1n,{NESTED}", course="VORTEX,T1", dice="RRYYYY")
    after, _ = play(impl, text, ["move R", "straight", "die W"])
    assert legal(impl, after) == ["swap B", "swap G", "swap Y", "swap P"]
    after, _ = play(impl, after, ["swap G"])
    assert ostriches(after)["R"] == "b1" and ostriches(after)["G"] == "b4"
    assert "sorcery G" in legal(impl, position(",".join(ostriches(after).values()),
                                               course="VORTEX,T1", dice="RRRRRG"))


def test_vortex_own_or_arrived_colour_scares(impl):
    text = position("b3,a6,+1,a2n,c2n", course="VORTEX,T1", dice="RRYYYY")
    for die in "RG":
        after, _ = play(impl, text, ["move R", "straight", f"die {die}"])
        assert ostriches(after)["R"] == "b4s"


# ----- §8 end and scoring -------------------------------------------------------------------
def test_the_third_arrival_ends_the_game_at_once(impl):
    text = position("+1,+2,b5,a4,c3", dice="GYYYYY", cards="0,5")
    after, rewards = play(impl, text, ["move G", "straight"])
    assert field(after, "phase") == "end" and ostriches(after)["G"] == "+3"
    assert legal(impl, after) == []
    assert rewards == [1.0, -1.0]


def test_scoring_places_misplaced_and_double_for_last(impl):
    # arrivals R B G; P (row 3) is last. Card 0 = R B G / last P: (5+4+3)*2 = 24.
    # Card 5 = R G P / last Y: 5 for R, 2 for G misplaced = 7.
    text = position("+1,+2,+3,a4,c3", phase="end", cards="0,5")
    assert scores(impl, text) == [24, 7]


def test_tied_last_place_cancels_the_double(impl):
    text = position("+1,+2,+3,a4,c4", phase="end", cards="0,5")
    assert scores(impl, text) == [12, 7]


def test_tie_broken_by_exactly_placed_ostriches(impl):
    # arrivals R B G. Card 9 = P B Y: 4 (B exact). Card 1 = B G Y: 2 + 2 (misplaced), 0 exact.
    text = position("+1,+2,b5,a4,c3", dice="GYYYYY", cards="9,1")
    after, rewards = play(impl, text, ["move G", "straight"])
    assert scores(impl, after) == [4, 4] and rewards == [1.0, -1.0]


def test_full_tie_shares_the_victory(impl):
    # Card 1 = B G Y and card 7 = G P B both score 2 + 2 with nothing exact.
    text = position("+1,+2,b5,a4,c3", dice="GYYYYY", cards="1,7")
    after, rewards = play(impl, text, ["move G", "straight"])
    assert scores(impl, after) == [4, 4] and rewards == [0.0, 0.0]


def test_returns_for_more_players_sum_to_zero(impl):
    text = position("+1,+2,b5,a4,c3", dice="GYYYYY", cards="0,1,7", players=3)
    after, rewards = play(impl, text, ["move G", "straight"])
    assert rewards == pytest.approx([1.0, -0.5, -0.5])


def test_turn_cap_ends_the_game_as_a_draw(impl):
    text = position("b3s,b4s,b1n,a2n,c2n", dice="RRBBRY", turn=999)
    after, rewards = play(impl, text, ["pass"])
    assert field(after, "phase") == "end" and rewards == [0.0, 0.0]


def test_scores_before_the_end_are_those_if_it_ended_now(impl):
    # R arrived first; Y (row 3) is alone on the lowest row. Card 0 = R B G / last P: 5.
    # Card 4 = P R B / last Y: 2 for R misplaced, doubled for Y last = 4.
    assert scores(impl, position("+1,b5,b4,a3,c4", cards="0,4")) == [5, 4]
    # Y and P share the lowest row: no last ostrich, no double
    assert scores(impl, position("+1,b5,b4,a3,c3", cards="0,4")) == [5, 2]
