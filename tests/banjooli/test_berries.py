"""The berry variant (§7): placement, trigger, each of the eleven berries, hidden kinds; every
test runs on both the kernels and the reference. Course T1,K1 (rows 3-8, plain ground; a
course lays each face once, so the second tile is the plain curve) unless said otherwise;
slot k of ``berries=`` is the berry placed by seat k (``x`` once taken).
"""

from tests.banjooli.helpers import field, legal, observe, ostriches, play, position, scores

NESTS = "b1n,a2n,c2n"  # G, Y, P wait on their nests


def berry_position(ostriches, berries, **kw):
    kw.setdefault("course", "T1,K1")
    return position(ostriches, berries=berries, **kw)


# ----- §7.4 placement -----------------------------------------------------------------------
def test_each_seat_places_its_berry_on_a_free_ground_cell_of_a_terrain_tile(impl):
    #  5 | . . . |
    #  4 | . # . |   T2: eight ground cells
    #  3 | . . . |
    text = berry_position("a0n,c0n,b1n,a2n,c2n", "T@-,O@-", course="T2", phase="place",
                          dice="??????")
    assert legal(impl, text) == [f"berry {c}" for c in
                                 ("a3", "b3", "c3", "a4", "c4", "a5", "b5", "c5")]
    after, _ = play(impl, text, ["berry a3"])
    assert field(after, "berries") == "T@a3,O@-" and field(after, "to_move") == "1"
    assert "berry a3" not in legal(impl, after)
    after, _ = play(impl, after, ["berry c5"])
    assert field(after, "phase") == "roll" and field(after, "to_move") == "0"


def test_berries_are_not_placed_on_quicksand_or_special_cells(impl):
    text = berry_position("a0n,c0n,b1n,a2n,c2n", "T@-,O@-", course="T8,CROC", phase="place",
                          dice="??????")
    names = legal(impl, text)
    assert "berry b4" not in names and "berry a6" not in names and "berry b6" not in names
    assert "berry a8" in names and "berry c4" in names


# ----- §7.1 trigger and §7.2 berries --------------------------------------------------------
def test_trap_stops_and_scares(impl):
    text = berry_position(f"b3,a3,{NESTS}", "T@b4,O@b7", dice="RRRYYY")
    after, _ = play(impl, text, ["move R", "straight"])
    assert ostriches(after)["R"] == "b4s" and field(after, "phase") == "roll"
    assert field(after, "berries") == "x,O@b7" and field(after, "collected") == "T,-"


def test_tasty_berry_ends_the_move_and_the_turn(impl):
    text = berry_position(f"b3,a3,{NESTS}", "N@b4,O@b7", dice="RRRYYY")
    after, _ = play(impl, text, ["move R", "straight"])
    assert ostriches(after)["R"] == "b4" and field(after, "to_move") == "1"


def test_plain_berry_lets_the_move_go_on(impl):
    text = berry_position(f"b3,a3,{NESTS}", "P@b4,O@b7", dice="RRRYYY")
    after, _ = play(impl, text, ["move R", "straight"])
    assert field(after, "phase") == "move:R2:b4"


def test_jade_scores_two_after_the_double(impl):
    # arrivals R B G, P last: card 0 scores (5+4+3)*2 = 24, plus 2 for the jade
    text = position("+1,+2,+3,a4,c3", phase="end", cards="0,5", course="T1,K1",
                    berries="x,T@b7", collected="O,-")
    assert scores(impl, text) == [26, 7]


def test_foresight_reveals_the_berries_left_to_the_mover_only(impl):
    text = berry_position(f"b3,a3,{NESTS}", "J@b4,O@b7", dice="RRRYYY")
    after, _ = play(impl, text, ["move R", "straight"])
    assert field(after, "berries") == "x,O@b7+0" and field(after, "phase") == "move:R2:b4"
    jade_at_b7 = (14 + 2) * 63 + 3 * 7 + 1
    assert observe(impl, after, 0)[jade_at_b7] == 1
    assert observe(impl, after, 1)[jade_at_b7] == 0


def test_go_gives_two_more_points(impl):
    text = berry_position(f"b3,a3,{NESTS}", "D@b4,O@b7", dice="RYYYYY")
    after, _ = play(impl, text, ["move R", "straight"])
    assert field(after, "phase") == "move:R2:b4"


def test_go_points_that_cannot_be_spent_end_the_move_on_the_berry(impl):
    #  6 | . Y . |
    #  5 | B G P |   from b4 nothing can move: the two extra points are lost
    #  4 | . D . |
    #  3 | . R . |
    text = berry_position("b3,a5,b5,b6,c5", "D@b4,O@b7", dice="RBBBBB")
    after, _ = play(impl, text, ["move R", "straight"])
    assert ostriches(after)["R"] == "b4" and field(after, "phase") == "roll"


def test_u_turn_reverses_the_order_at_once(impl):
    text = berry_position(f"b3,a3,{NESTS}", "U@b4,O@b7,T@a7", dice="RYYYYY", players=3,
                          collected="-,-,-")
    after, _ = play(impl, text, ["move R", "straight"])
    assert field(after, "dir") == "-" and field(after, "to_move") == "2"


def test_spear_is_given_and_costs_the_next_reroll(impl):
    text = berry_position(f"b3,a3,{NESTS}", "S@b4,O@b7", dice="RRYYYY")
    after, _ = play(impl, text, ["move R", "straight"])
    assert field(after, "phase") == "spear:R1:b4" and legal(impl, after) == ["spear +1"]
    after, _ = play(impl, after, ["spear +1", "straight"])
    assert field(after, "spear") == "1" and field(after, "to_move") == "1"
    after, _ = play(impl, after, [f"die {d}" for d in "RRBBGW"])
    assert field(after, "phase") == "act" and field(after, "spear") == "-"


def test_frenzy_rolls_the_movement_dice_and_moves_every_group(impl):
    # G has arrived: G and W dice are jokers to assign
    text = berry_position("b3,a3,+1,a2n,c2n", "F@b4,O@b7", dice="RRYYYB")
    after, _ = play(impl, text, ["move R", "straight"])
    assert ostriches(after)["R"] == "b4" and field(after, "phase") == "frenzy-roll"
    assert field(after, "dice") == "?????B"
    after, _ = play(impl, after, [f"die {d}" for d in "RBWGY"])
    assert field(after, "phase") == "frenzy-assign:2" and field(after, "frenzy") == "R1B1Y1"
    assert legal(impl, after) == ["assign R", "assign B", "assign Y", "assign P"]
    after, _ = play(impl, after, ["assign R", "assign B"])
    assert field(after, "phase") == "frenzy-pick" and field(after, "frenzy") == "R2B2Y1"
    assert legal(impl, after) == ["group R", "group B", "group Y"]
    after, _ = play(impl, after, ["group B", "straight", "straight"])
    assert ostriches(after)["B"] == "a5" and field(after, "phase") == "frenzy-pick"
    after, _ = play(impl, after, ["group R", "straight", "straight", "group Y", "straight"])
    assert ostriches(after)["R"] == "b6" and ostriches(after)["Y"] == "a3"
    assert field(after, "to_move") == "1" and field(after, "frenzy") == "-"


def test_a_frenzy_group_that_cannot_move_is_lost(impl):
    # B is scared: picking its group loses it
    text = berry_position("b3,a3s,+1,a2n,c2n", "F@b4,O@b7", dice="RRYYYB",
                          phase="act")
    after, _ = play(impl, text, ["move R", "straight"] + [f"die {d}" for d in "RBRYY"])
    assert field(after, "phase") == "frenzy-pick" and field(after, "frenzy") == "R2B1Y2"
    after, _ = play(impl, after, ["group B"])
    assert field(after, "phase") == "frenzy-pick" and field(after, "frenzy") == "R2Y2"
    assert ostriches(after)["B"] == "a3s"


def test_berry_vortex_acts_on_its_cell(impl):
    text = berry_position(f"b3,a6,{NESTS}", "V@b4,O@b7", dice="RRRYYY")
    after, _ = play(impl, text, ["move R", "straight"])
    assert field(after, "phase") == "vortex:R"
    after, _ = play(impl, after, ["die B"])
    assert ostriches(after)["R"] == "a6" and ostriches(after)["B"] == "b4"


def test_snake_jumps_back_two_rows_to_a_chosen_free_cell(impl):
    #  6 | . K . |   R enters the snake on b6 and falls back to row 4
    #  5 | . R . |
    #  4 | B . . |
    text = berry_position(f"b5,a4,{NESTS}", "K@b6,O@b8", dice="RRRYYY")
    after, _ = play(impl, text, ["move R", "straight"])
    assert legal(impl, after) == ["back b", "back c"]
    after, _ = play(impl, after, ["back c"])
    assert ostriches(after)["R"] == "c4" and field(after, "to_move") == "1"


def test_snake_with_no_free_cell_leaves_the_ostrich(impl):
    #  5 | . . K |   T2: R enters the snake on c5; row 3 is full, so R stays on c5
    #  4 | . # R |
    #  3 | B G Y |
    text = berry_position("c4,a3,b3,c3,c2n", "K@c5,O@b8", course="T2,T1", dice="RRRYYY")
    after, _ = play(impl, text, ["move R", "straight"])
    assert ostriches(after)["R"] == "c5" and field(after, "to_move") == "1"


def test_berry_cells_count_as_ground_for_the_all_points_rule(impl):
    # the trap on b4 will stop R, but legality treats it as ground: all options as without it
    with_berry = berry_position(f"b3,a3,{NESTS}", "T@b4,O@b7", dice="RRRYYY")
    without = berry_position(f"b3,a3,{NESTS}", "T@c8,O@b7", dice="RRRYYY")
    assert legal(impl, with_berry) == legal(impl, without)
    assert legal(impl, play(impl, with_berry, ["move R"])[0]) == ["left", "straight", "right"]


def test_unseen_berry_kinds_do_not_show(impl):
    a = berry_position(f"b3,a3,{NESTS}", "T@b4,O@b7", dice="RRRYYY")
    b = berry_position(f"b3,a3,{NESTS}", "F@b4,K@b7", dice="RRRYYY")
    for p in (0, 1):
        assert (observe(impl, a, p) == observe(impl, b, p)).all()
    assert observe(impl, a, 0)[13 * 63 + 3 * 4 + 1] == 1  # a face-down berry on b4


def test_the_third_arrival_during_a_frenzy_ends_the_game(impl):
    text = berry_position("b3,+1,+2,a2n,c2n", "F@b4,O@b7", course="T1", dice="RYYYYY")
    text = text.replace("O@b7", "O@a5")
    after, _ = play(impl, text, ["move R", "straight"] + [f"die {d}" for d in "RRRYY"])
    assert field(after, "frenzy") == "R3Y2"
    after, rewards = play(impl, after, ["group R", "straight", "straight"])
    assert ostriches(after)["R"] == "+3" and field(after, "phase") == "end"
    assert field(after, "frenzy") == "-" and sum(rewards) == 0 and any(rewards)


def test_tasty_berry_during_a_frenzy_loses_the_other_groups(impl):
    text = berry_position(f"b3,a3,{NESTS}", "F@b4,N@b6", dice="RYYYYY")
    after, _ = play(impl, text, ["move R", "straight"] + [f"die {d}" for d in "RRBBB"])
    after, _ = play(impl, after, ["group R", "straight", "straight"])
    assert ostriches(after)["R"] == "b6" and field(after, "to_move") == "1"
    assert field(after, "frenzy") == "-" and ostriches(after)["B"] == "a3"
