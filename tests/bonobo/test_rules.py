"""One test per clause and [decision] of the Bonobo Beach rules, on hand-made positions, run on
the kernel game and on the reference (the ``impl`` fixture).

Pictures are ``render.render_text``: spots show a pawn's owner, ``.`` empty or ``x`` barred by a
toilet; triangles show their tile's value, or when free their symbol (d dune, p parasol,
t toilet), upper case once activated. Triangle and spot ids are listed in the comments.
"""
import pytest

from savanna.bonobo import notation, spec

# Spot s09 = (0, 0) is surrounded by the dunes t20 t21 t22 (above) and t31 t32 t33 (below).
# Tiles: t20-t21 +3 and t31-t32 +4 lie with both triangles at s09 (obtuse corner: 2a);
# t22-t23 +2 and, once placed, t33-t34 -1 have one triangle there (acute corner: a).
#
#     p  d  p  d +3 +3 +2 +2  d  t  d
#  +     .     .     0     .     .     +      <- s09 holds player 0's pawn
#     d  t  d  d +4 +4  d  d  p  d  p
#     +     .     .     1     .     +         <- s14 holds player 1's pawn
COMPLETION = ("players=2 tiles=t20-t21:+3,t22-t23:+2,t31-t32:+4 pawns=s09:0,s14:1 score=0,0 "
              "pile=3,3,4,3,4,3,2,2 move=0 phase=place:-1")


def test_completed_pawn_scores_its_corners_and_returns_to_supply(impl):
    s, rewards = impl.play(impl.load(COMPLETION), "tile t33-t34")
    # 2*3 (obtuse) + 2 (acute) + 2*4 (obtuse) - 1 (acute) = 15
    assert impl.scores(s) == [15, 0]
    assert impl.text(s) == (
        "players=2 tiles=t20-t21:+3,t22-t23:+2,t31-t32:+4,t33-t34:-1 pawns=s14:1 score=15,0 "
        "pile=3,3,4,3,4,3,2,2 move=1 phase=choose")
    assert rewards == [0.0, 0.0]
    assert "pawn s09" not in impl.legal(s)  # a fully covered spot has no free triangle


def test_a_pawn_not_yet_surrounded_stays(impl):
    s, _ = impl.play(impl.load(COMPLETION), "tile t41-t42")
    assert impl.scores(s) == [0, 0]
    assert "pawns=s09:0,s14:1" in impl.text(s)


# Toilet t04 (neighbours t03 t05 t12) touches s01 and s02. Placing +2 on t12-t13 covers its
# last free neighbour and also completes s05 (t11 t12 t13 t21 t22 t23).
#
#           d  p +1 +1  t +2 +2
#        +     .     1     0     +      <- s00 s01 s02
#        d  t  d -1 -1  d  p  d  d
#     +     .     1     0     .     +   <- s03 s04 s05 s06
#     p  d  p  d  d +3 +3 +4 +4  t  d
EVICTION = ("players=2 tiles=t02-t03:+1,t05-t06:+2,t10-t11:-1,t21-t22:+3,t23-t24:+4 "
            "pawns=s01:1,s02:0,s04:1,s05:0 score=0,0 pile=3,3,4,3,3,2,2,2 move=0 phase=place:+2")


def test_scoring_then_toilet_chases_pawns_without_score(impl):
    s, _ = impl.play(impl.load(EVICTION), "tile t12-t13")
    # s05: -1 (t11, acute) + 2*3 (t21 t22) + 4 (t23, acute) + 2*2 (t12 t13) = 13; the pawns on
    # s01 and s02 go home with nothing; s04 is untouched.
    assert impl.scores(s) == [13, 0]
    assert "pawns=s04:1 " in impl.text(s)
    assert not {"pawn s01", "pawn s02", "pawn s04", "pawn s05"} & set(impl.legal(s))
    assert impl.player(s) == 1


def test_the_same_tile_elsewhere_activates_no_toilet(impl):
    s, _ = impl.play(impl.load(EVICTION), "tile t13-t14")
    assert "pawns=s01:1,s02:0,s04:1,s05:0 " in impl.text(s)


def test_a_newly_activated_dune_waits_for_the_end(impl):
    """Covering t08 activates dune t00 (neighbours t01 t08) beside player 0's pawn on s00:
    nothing happens now; only toilets act at once.

              d +1 +1  d  t  d  p
           +     0     .     .     +
           d  t  d  p  d  d  p  d  d
    """
    s = impl.load("players=2 tiles=t01-t02:+1 pawns=s00:0 score=0,0 pile=3,3,4,4,3,3,3,3 "
                  "move=0 phase=place:+2")
    s, _ = impl.play(s, "tile t08-t09")
    assert impl.text(s) == ("players=2 tiles=t01-t02:+1,t08-t09:+2 pawns=s00:0 score=0,0 "
                            "pile=3,3,4,4,3,3,3,3 move=1 phase=choose")


# Toilet t45 is activated (t44 t46 t53 covered): s15 and s18 are barred (x). Dune t00 is
# activated and is the only free triangle of s00: a pawn may still go there [decision].
#
#           D +1 +1  d  t  d  p
#        +     .     .     .     +
#        d +2 +2 -2 -2  d  p  d  d
#     ...
#     d  t  d  d  d  d  d +1  p +2  p
#     +     .     .     .     x     +
#        d  d  p  d  d  p +1  T +2
#        +     .     .     x     +
#           p  d  t  d  d -1 -1
BARRED = ("players=2 tiles=t01-t02:+1,t08-t09:+2,t10-t11:-2,t34-t44:+1,t36-t46:+2,t52-t53:-1 "
          "pawns=- score=0,0 pile=3,3,3,3,2,2,3,3 move=1 phase=choose")


def test_no_pawn_beside_an_activated_toilet_but_beside_an_activated_dune(impl):
    legal = impl.legal(impl.load(BARRED))
    spots = [f"pawn {notation.spot_name(s)}" for s in range(spec.NUM_SPOTS)
             if s not in (15, 18)]
    assert legal == spots + ["draw"]


def test_an_occupied_spot_is_not_legal_and_supply_limits_pawns(impl):
    s = impl.load("players=2 tiles=- pawns=s00:0,s01:0,s02:0,s03:0,s04:1 score=0,0 "
                  "pile=3,3,4,4,4,4,3,3 move=0 phase=choose")
    assert impl.legal(s) == ["draw"]                       # player 0's four pawns are out
    s, _ = impl.play(s, "draw")
    s, _ = impl.play(s, "+1")
    s, _ = impl.play(s, "tile t40-t41")
    assert impl.legal(s) == [f"pawn {notation.spot_name(k)}" for k in range(5, 19)] + ["draw"]


def test_draw_is_a_chance_node_weighted_by_the_remaining_tiles(impl):
    s = impl.load(COMPLETION.replace("place:-1", "chance").replace("3,4,3,2,2", "4,4,3,2,2"))
    assert impl.player(s) == -1 and impl.legal(s) == []
    probs = impl.probs(s)
    assert probs == pytest.approx({"-4": 3 / 25, "-3": 3 / 25, "-2": 4 / 25, "-1": 4 / 25,
                                   "+1": 4 / 25, "+2": 3 / 25, "+3": 2 / 25, "+4": 2 / 25})
    s, _ = impl.play(s, "-3")
    assert impl.text(s).endswith("pile=3,2,4,4,4,3,2,2 move=0 phase=place:-3")
    assert impl.player(s) == 0
    # the six covered triangles have 18 sides to neighbours, 5 of them between two covered
    assert len(impl.legal(s)) == spec.NUM_SLOTS - (18 - 5)


# The end of a two-player game: every triangle but t52-t53 is covered or activated (upper
# case), and the eight spots with a free triangle all hold pawns.
#
#           D +3 +3 -1 -1 +2 +2
#        +     0     .     .     +
#       -2 -2  D +1 +1 -4 -4 +4 +4
#     +     1     0     .     .     +
#     P -3 -3 +2 +2 -1 -1 +1 +1 -4 -4
#  +     1     0     .     .     .     +
#    -2 -2  D +4 +4 -3 -3 +3 +3 -1 -1
#     +     1     0     .     .     +
#       -4 -4  P -2 -2 +1 +1 +2 +2
#        +     1     .     .     +
#           P -1 -1 +3 +3  p  d
ENDGAME = ("players=2 tiles=t01-t02:+3,t03-t04:-1,t05-t06:+2,t07-t08:-2,t10-t11:+1,"
           "t12-t13:-4,t14-t15:+4,t17-t18:-3,t19-t20:+2,t21-t22:-1,t23-t24:+1,t25-t26:-4,"
           "t27-t28:-2,t30-t31:+4,t32-t33:-3,t34-t35:+3,t36-t37:-1,t38-t39:-4,t41-t42:-2,"
           "t43-t44:+1,t45-t46:+2,t48-t49:-1,t50-t51:+3 "
           "pawns=s00:0,s03:1,s04:0,s07:1,s08:0,s12:1,s13:0,s16:1 score=5,30 "
           "pile=0,1,1,0,1,1,0,0 move=0 phase=place:+4")
# Final value of each pawn of ENDGAME (rules §6), spelled out:
FINAL = {
    0: 4 * (2 * 3 - 2 + 1),             # dunes t00 t09: x4; t01 t02 +3, t08 -2, t10 +1
    3: 2 * (2 * -2 + 2 * -3 + 2),       # dune t09: x2, negatives too; t07 t08, t17 t18, t19
    4: 2 * (2 * 1 + 2 * 2 - 1),         # dune t09; t10 t11, t19 t20, t21
    7: 2 * (2 * 3 + 2 * 2),             # parasol t16 and dune t29: |t17 t18|, |t27 t28|, x2
    8: 2 * (-3 + 2 * 2 + 2 * 4),        # dune t29; t18, t19 t20, t30 t31
    12: 2 * (2 + 4 + 2 * 4),            # parasol t40, dune t29: |t28|, |t30|, |t38 t39|, x2
    13: 2 * 4 + 3 + 2 * 2,              # parasol t40 only: |t30 t31|, |t32|, |t41 t42|
    16: 4 + 2 + 2 * 1,                  # parasols t40 t47: |t39|, |t41|, |t48 t49|
}


def test_the_last_tile_is_a_decision_even_with_one_free_slot(impl):
    s = impl.load(ENDGAME)
    assert impl.player(s) == 0 and impl.legal(s) == ["tile t52-t53"]


def test_game_ends_with_final_pawn_scoring_and_rewards(impl):
    s, rewards = impl.play(impl.load(ENDGAME), "tile t52-t53")
    assert impl.player(s) == -2 and impl.legal(s) == []
    mine = [sum(v for spot, v in FINAL.items() if f"s{spot:02d}:{p}" in ENDGAME) for p in (0, 1)]
    assert impl.scores(s) == [5 + mine[0], 30 + mine[1]]       # 68 and 70
    assert rewards == [-1.0, 1.0]
    assert "pawns=s00:0,s03:1,s04:0,s07:1,s08:0,s12:1,s13:0,s16:1 " in impl.text(s)


@pytest.mark.parametrize("spot", sorted(FINAL))
def test_final_scoring_of_each_pawn(impl, spot):
    """Four players: the pawn on ``spot`` is player 0's, the seven others are spread over
    players 1-3, so player 0's final gain is that pawn's value alone."""
    others = iter([1, 2, 3] * 3)
    pawns = ",".join(f"s{k:02d}:{0 if k == spot else next(others)}" for k in sorted(FINAL))
    text = (ENDGAME.replace("players=2", "players=4").replace("score=5,30", "score=0,0,0,0")
            .replace("pawns=s00:0,s03:1,s04:0,s07:1,s08:0,s12:1,s13:0,s16:1", f"pawns={pawns}"))
    s, _ = impl.play(impl.load(text), "tile t52-t53")
    assert impl.scores(s)[0] == FINAL[spot]


def test_a_player_who_cannot_act_is_passed_over(impl):
    """After the last tile, player 1 has no pawn in supply and nothing to draw onto: player 0
    places both remaining pawns in a row, and the game ends."""
    text = (ENDGAME.replace("t50-t51:+3", "t50-t51:+3,t52-t53:+4")
            .replace("pawns=s00:0,s03:1,s04:0,s07:1,s08:0,s12:1,s13:0,s16:1",
                     "pawns=s00:0,s03:1,s04:0,s07:1,s12:1,s16:1").replace("place:+4", "choose"))
    s = impl.load(text)
    assert impl.legal(s) == ["pawn s08", "pawn s13"]           # no draw: no free slot
    s, rewards = impl.play(s, "pawn s08")
    assert impl.player(s) == 0 and rewards == [0.0, 0.0]
    s, rewards = impl.play(s, "pawn s13")
    assert impl.player(s) == -2
    assert impl.scores(s) == [5 + FINAL[0] + FINAL[4] + FINAL[8] + FINAL[13],
                              30 + FINAL[3] + FINAL[7] + FINAL[12] + FINAL[16]]
    assert rewards == [-1.0, 1.0]


def test_a_tie_for_first_is_shared(impl):
    """Three players finish 48, 48, 33: the two winners share (P/(P-1) (1/2 - 1/3) each)."""
    text = (ENDGAME.replace("players=2", "players=3").replace("score=5,30", "score=0,16,10")
            .replace("s13:0,s16:1", "s13:2,s16:2"))
    s, rewards = impl.play(impl.load(text), "tile t52-t53")
    assert impl.scores(s) == [48, 48, 33]
    assert rewards == pytest.approx([0.25, 0.25, -0.5])


def test_players_move_in_increasing_order_from_player_0(impl):
    s = impl.load("players=3 tiles=- pawns=- score=0,0,0 pile=3,3,4,4,4,4,3,3 move=0 "
                  "phase=choose")
    seen = []
    for name in ["pawn s00", "draw", "+2", "tile t20-t21", "pawn s05", "pawn s06"]:
        seen.append(impl.player(s))
        s, _ = impl.play(s, name)
    assert seen == [0, 1, -1, 1, 2, 0] and impl.player(s) == 1
