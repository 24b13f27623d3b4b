"""BanjooliGame: options, random setup, notation, hidden information, pictures."""
import numpy as np
import pytest

from savanna.banjooli import notation, spec
from savanna.banjooli.game import BanjooliGame
from tests.banjooli.helpers import game_of, observe, position


# ----- options ------------------------------------------------------------------------------
@pytest.mark.parametrize("options, match", [
    ({"num_players": 1}, "num_players"), ({"num_players": 6}, "num_players"),
    ({"terrain": 0}, "terrain"), ({"terrain": 7}, "terrain"), ({"special": "lake"}, "special"),
    ({"berries": "yes"}, "berries"), ({"course": ["T1", "Z9"]}, "unknown face"),
    ({"course": ["K1", "K2"]}, "adjacent curves"), ({"course": []}, "course"),
])
def test_bad_options_are_rejected(options, match):
    with pytest.raises(ValueError, match=match):
        BanjooliGame(**options)


# ----- random setup -------------------------------------------------------------------------
def _courses(game, n=300):
    s = game.init(n, rng=1)
    return s, [list(r["course"][: r["nterrain"]]) for r in s]


@pytest.mark.parametrize("terrain", [4, 5, 6])
def test_random_course_distinct_faces_no_adjacent_curves(terrain):
    s, courses = _courses(BanjooliGame(terrain=terrain))
    for course in courses:
        assert len(course) == terrain and len(set(course)) == terrain
        assert all(0 <= f < 12 for f in course)
        curve = spec.FACE_CURVE
        assert not any(curve[a] and curve[b] for a, b in zip(course, course[1:]))
    seen = {f for c in courses for f in c}
    assert seen == set(range(12))


@pytest.mark.parametrize("special", ["crocodiles", "canyon", "lava", "vortex", "random"])
def test_special_tile_replaces_one_straight_face(special):
    s, courses = _courses(BanjooliGame(special=special))
    kinds = set()
    for course in courses:
        specials = [f for f in course if f >= 12]
        assert len(specials) == 1
        kinds.add(specials[0])
        assert sum(spec.FACE_CURVE[f] for f in course) <= 2
    expected = set(range(12, 16)) if special == "random" else {spec.SPECIALS[special]}
    assert kinds == expected


def test_special_tile_even_on_a_one_tile_course():
    s, courses = _courses(BanjooliGame(terrain=1, special="lava"), n=100)
    assert all(course == [spec.SPECIALS["lava"]] for course in courses)


def test_explicit_course_is_used():
    s = BanjooliGame(course=["T2", "K1", "LAVA"]).init(5, rng=0)
    assert (s["nterrain"] == 3).all()
    assert (s["course"][:, :3] == [1, 8, 14]).all()


def test_nests_and_cards_are_dealt_at_random():
    s = BanjooliGame(num_players=5).init(300, rng=2)
    for r in s:
        assert sorted(r["cells"]) == sorted(spec.NESTS) and r["nest"] == 0b11111
        assert len(set(r["cards"])) == 5
    assert len({tuple(r["cells"]) for r in s}) > 50
    assert set(s["cards"][:, 0]) == set(range(10))


# ----- notation -----------------------------------------------------------------------------
def test_text_round_trip_of_random_states():
    game = BanjooliGame(num_players=3, special="random")
    s = game.init(50, rng=3)
    game.random_playouts(s, rng=4)
    for row in s:
        assert game.from_text(game.to_text(row))[0].tobytes() == row.tobytes()


@pytest.mark.parametrize("text, match", [
    ("players=2", "fields"),
    (position("b3,b3,b1n,a2n,c2n"), "share a cell"),
    (position("b3,b9,b1n,a2n,c2n"), "past the last row"),
    (position("b3n,b4,b1n,a2n,c2n"), "not a nest"),
    (position("b3,b4,b1n,a2n,c2n", course="T1,Q7"), "unknown tile face"),
    (position("+2,b4,b1n,a2n,c2n"), "places"),
    (position("b3,b4,b1n,a2n,c2n", cards="1,1"), "distinct"),
    (position("b3,b4,b1n,a2n,c2n", dice="RRR?RR"), r"\?"),
    (position("b3,b4,b1n,a2n,c2n", phase="fly"), "unknown phase"),
    (position("b3,b4,b1n,a4,c2n", course="T7"), "impassable"),
])
def test_bad_texts_are_rejected(text, match):
    with pytest.raises(ValueError, match=match):
        notation.parse(text)


def test_action_names_round_trip():
    for a in range(spec.NUM_ACTIONS):
        assert notation.parse_action(notation.action_name(a)) == a
    assert notation.action_name(64 + 7 * 2 + 1) == "move G+W"
    with pytest.raises(ValueError, match="unknown action"):
        notation.parse_action("fly R")


def test_die_faces_name_the_chance_outcomes_both_ways():
    game = BanjooliGame()
    names = [game.outcome_to_string(o) for o in range(game.max_chance_outcomes)]
    assert names == list("RBGYPW")
    assert [game.string_to_outcome(n) for n in names] == list(range(game.max_chance_outcomes))
    with pytest.raises(ValueError, match="one of R, B, G, Y, P, W, got 'RB'"):
        game.string_to_outcome("RB")


def test_string_to_action_lists_the_legal_ones():
    text = position("b3,b4,b1n,a2n,c2n", dice="RYYYYY")
    game = game_of(text)
    s = game.from_text(text)
    with pytest.raises(ValueError, match="legal: move R, move Y"):
        game.string_to_action(s[0], "pass")


# ----- hidden information -------------------------------------------------------------------
def test_observation_shows_only_the_observers_card(impl):
    a = position("b3,b4,b1n,a2n,c2n", players=3, cards="0,1,2")
    b = position("b3,b4,b1n,a2n,c2n", players=3, cards="0,7,9")
    assert (observe(impl, a, 0) == observe(impl, b, 0)).all()
    assert (observe(impl, a, 1) != observe(impl, b, 1)).any()


def test_observation_is_player_relative():
    text = position("b3,b4,b1n,a2n,c2n", players=3, to_move=1)
    assert observe("kernel", text, 1)[1668] == 1 and observe("kernel", text, 0)[1669] == 1


def test_resample_hidden_keeps_own_card_and_redraws_the_others():
    game = BanjooliGame(num_players=4)
    s = game.init(200, rng=5)
    other = game.resample_hidden(s, 2, rng=6)
    assert (other["cards"][:, 2] == s["cards"][:, 2]).all()
    assert (other["cards"][:, [0, 1, 3]] != s["cards"][:, [0, 1, 3]]).any()
    for r in other:
        assert len(set(r["cards"][:4])) == 4
    np.testing.assert_array_equal(game.observe(s, 2), game.observe(other, 2))


def test_resample_hidden_respects_seen_and_collected_kinds():
    """Seat 0 took Jëmbat, so it knows both berries left; seat 1 knows neither: for it they
    are redrawn, distinct, from the kinds nobody collected (collected berries are public)."""
    text = position("b3,a3,b1n,a2n,c2n", course="T1,K1", dice="RRRYYY", players=3,
                    berries="x,O@b7+0,T@a8+0", collected="J,-,-")
    game = game_of(text)
    s = np.repeat(game.from_text(text), 200)
    mine = game.resample_hidden(s, 0, rng=1)
    # seen by seat 0: kept
    assert (mine["berry_kind"][:, 1:3] == [spec.JADE, spec.TRAP]).all()
    other = game.resample_hidden(s, 1, rng=1)
    drawn = other["berry_kind"][:, 1:3]
    assert set(drawn.ravel().tolist()) == set(range(11)) - {spec.FORESIGHT}
    assert (drawn[:, 0] != drawn[:, 1]).all()
    np.testing.assert_array_equal(game.observe(mine, 0), game.observe(s, 0))
    np.testing.assert_array_equal(game.observe(other, 1), game.observe(s, 1))


# ----- pictures -----------------------------------------------------------------------------
def test_render_text_and_image():
    game = BanjooliGame(special="lava")
    s = game.init(1, rng=0)
    text = game.render(s[0])
    assert game.to_text(s[0]) in text and "finish" in text and "start" in text
    img = game.render_rgb(s[0])
    assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 3
    assert len(np.unique(img.reshape(-1, 3), axis=0)) > 5

def test_render_shows_face_down_and_seen_berries():
    """Seat 1 took Jëmbat: it sees the berries' kinds, seat 0 sees them face down."""
    text = position("b3,a3,b1n,a2n,c2n", course="T1,K1", dice="RRRYYY", players=3,
                    berries="T@b4+1,O@b7+1,x", collected="-,J,-")
    game = game_of(text)
    s = game.from_text(text)
    assert "|. * .|" in game.render(s[0], player=0)
    assert "|. o .|" in game.render(s[0], player=1)
    assert game.render_rgb(s[0]).shape[2] == 3


def test_from_text_checks_the_game_options():
    plain = position("b3,b4,b1n,a2n,c2n")
    with pytest.raises(ValueError, match="2 players, this game 3"):
        BanjooliGame(num_players=3).from_text(plain)
    with pytest.raises(ValueError, match="berry fields"):
        BanjooliGame(berries=True).from_text(plain)
    with pytest.raises(ValueError, match="berry fields"):
        BanjooliGame().from_text(position("b3,b4,b1n,a2n,c2n", berries="T@b5,O@a5"))
