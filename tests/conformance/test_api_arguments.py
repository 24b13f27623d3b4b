"""The Game API's argument checks (issue #11): a one-line ValueError naming what was wrong and
what is allowed, raised before anything runs."""
import numpy as np
import pytest

from savanna.game import CHANCE, TERMINAL
from savanna.rng import as_generator
from savanna.zebres.game import ZebresGame

GAME = ZebresGame()


@pytest.mark.parametrize("n", [True, 0, -1, 2.0, "2", None])
def test_init_takes_a_positive_int(n):
    with pytest.raises(ValueError, match="n must be a positive int") as err:
        GAME.init(n)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("rng", ["abc", 1.5, -1, True, [1, 2], np.random.SeedSequence(0)])
def test_rng_is_none_a_seed_or_a_generator(rng):
    with pytest.raises(ValueError, match="rng must be None, an int seed >= 0 or a np.random"):
        GAME.init(2, rng=rng)


def test_the_accepted_rngs_give_the_same_games():
    a = GAME.init(3, rng=7)
    assert a.tobytes() == GAME.init(3, rng=np.int64(7)).tobytes()
    assert a.tobytes() == GAME.init(3, rng=np.random.default_rng(7)).tobytes()
    generator = np.random.default_rng(1)
    assert as_generator(generator) is generator


@pytest.mark.parametrize("player", [0.5, True, [0, 1, 0], [[0, 1]], 2, -1, "0"])
def test_observe_takes_a_seat_or_one_per_state(player):
    s = GAME.init(2, rng=0)
    with pytest.raises(ValueError, match=r"player must be an int in 0\.\.1 or 2 of them") as err:
        GAME.observe(s, player)
    assert "\n" not in str(err.value)


def test_observe_takes_an_int_or_an_int_per_state():
    s = GAME.init(2, rng=0)
    both = GAME.observe(s, np.array([1, 1]))
    assert np.array_equal(both, GAME.observe(s, 1))
    assert np.array_equal(both, GAME.observe(s, np.int8(1)))


# ----- issue #21: any array of states for the calls that read, every game ----------------------
def _sample(game):
    """States at every stage of seeded random games (decision, chance and end)."""
    from savanna.conformance.fuzz import sample_states

    name, options = _config_of(game)
    return sample_states(name, tuple(options.items()))


def _config_of(game):
    from savanna.metadata import game_options

    return game.name, {k: v for k, v in game_options(game).items() if v is not None}


READS = {
    "current_player": lambda g, s: g.current_player(s),
    "legal_mask": lambda g, s: g.legal_mask(s),
    "chance_probs": lambda g, s: g.chance_probs(s),
    "observe": lambda g, s: g.observe(s, 0),
    "check_states": lambda g, s: g.check_states(s),
    "step": lambda g, s: g.step(s[:1], g.legal_actions(s[:1].copy())[:1] or [0])[0]
    if g.current_player(s[:1])[0] >= 0 else g.observe(s[:1], 0),
    "resample_hidden": lambda g, s: g.resample_hidden(s, 0, rng=0),
    "to_text": lambda g, s: g.to_text(s[:1]),
    "render": lambda g, s: g.render(s[:1], 0),
    "action_to_string": lambda g, s: g.action_to_string(s[:1], 0),
    "show": lambda g, s: repr(g.show(s[:2])),
}


def _same(a, b):
    if isinstance(a, np.ndarray):
        return a.tobytes() == b.tobytes() and a.shape == b.shape
    return a == b


@pytest.mark.parametrize("call", READS)
def test_calls_that_read_take_read_only_and_strided_arrays(game, call):
    """A read-only array (Ray hands those back) and a strided view give what a fresh
    C-contiguous copy gives, and leave the array as it was."""
    states = _sample(game)[:12]
    strided = states[::3]
    frozen = states[::3].copy()
    frozen.flags.writeable = False
    before = strided.copy()
    expected = READS[call](game, strided.copy())
    for s in (strided, frozen):
        assert _same(READS[call](game, s), expected)
        assert s.tobytes() == before.tobytes()


@pytest.mark.parametrize("call", [
    lambda g, s: g.step_inplace(s, np.zeros(len(s), np.int64)),
    lambda g, s: g.apply_chance(s, np.zeros(len(s), np.int64)),
    lambda g, s: g.random_playouts(s, rng=0),
], ids=["step_inplace", "apply_chance", "random_playouts"])
def test_calls_that_change_states_demand_a_writeable_contiguous_array(game, call):
    """An in-place call on a copy would lose its changes: refused with the one-line reason."""
    states = _sample(game)[:6]
    frozen = states.copy()
    frozen.flags.writeable = False
    for s in (states[::2], frozen):
        with pytest.raises(ValueError, match=r"C-contiguous, writeable array \(use \.copy\(\)\)"):
            call(game, s)


# ----- issue #21: wrong argument types are ValueErrors on every game ---------------------------
def test_bad_players_rngs_and_actions_are_value_errors(game):
    s = game.init(2, rng=0)
    for player in (0.5, True, "0", -1, game.num_players):
        with pytest.raises(ValueError, match=r"player must be an int \(a seat\)"):
            game.resample_hidden(s, player)
    for rng in ("x", 1.5, -1):
        with pytest.raises(ValueError, match="rng must be None, an int seed"):
            game.resample_hidden(s, 0, rng=rng)
        with pytest.raises(ValueError, match="rng must be None, an int seed"):
            game.sample_chance(s, rng)
    for action in (True, 0.0, "0", -1, game.num_actions):
        with pytest.raises(ValueError, match=r"action must be an int \(an action id\)"):
            game.action_to_string(s[:1], action)


def test_sample_chance_takes_a_seed_as_every_rng_of_the_api_does(game):
    chance = [r for r in _sample(game) if game.current_player(r)[0] == CHANCE][:5]
    if not chance:
        pytest.skip("no chance nodes")
    s = np.array(chance)
    assert np.array_equal(game.sample_chance(s, 4),
                          game.sample_chance(s, np.random.default_rng(4)))


def test_init_refuses_a_batch_beyond_its_maximum_before_allocating(game):
    from savanna.game import MAX_BATCH

    for n in (MAX_BATCH + 1, 10**12):
        with pytest.raises(ValueError, match=rf"n must be a positive int .* in 1\.\.{MAX_BATCH}"):
            game.init(n)


def test_an_unknown_option_is_a_value_error_naming_the_options():
    from savanna.registry import make_game

    with pytest.raises(ValueError, match=r"unknown setting \['colour'\]: not a zebres option "
                                         r"\(board, first_placer\)$"):
        make_game("zebres", colour="blue")


# ----- issue #21: the baseline agents act at decision nodes only ------------------------------
@pytest.mark.parametrize("agent", ["random", "greedy"])
def test_baseline_agents_refuse_chance_nodes_and_the_end(game, agent):
    from savanna.agents.play.registry import make_agent

    if agent == "greedy" and not game.has_scores:
        with pytest.raises(ValueError, match=f"greedy plays on the game's score, and "
                                             f"{game.name} has none"):
            make_agent(agent).act(game, game.init(1, rng=0), np.random.default_rng(0))
        return
    rows = _sample(game)
    players = game.current_player(rows)
    for where, message in ((TERMINAL, "the end"), (CHANCE, "a chance node")):
        if not (players == where).any():
            continue
        s = np.concatenate([rows[players >= 0][:2], rows[players == where][:1]])
        with pytest.raises(ValueError, match=f"{agent} acts at decision nodes; state 2 is at "
                                             f"{message}"):
            make_agent(agent).act(game, s, np.random.default_rng(0))


# ----- issue #21: one spelling per position ----------------------------------------------------
BONOBO = ("players=2 tiles=t00-t01:+3,t12-t13:-2 pawns=s03:0,s07:0,s10:1 score=5,-3 "
          "pile=3,3,3,4,4,4,2,3 move=0 phase=choose")
BANJOOLI = ("players=3 course=K3,T8,T6,T1 ostriches=a0n,c2n,b1n,c0n,a2n cards=0,2,6 to_move=0 "
            "dir=+ turn=0 phase=place dice=?????? spear=- berries=O@-,U@-,V@- "
            "collected=-,-,- frenzy=-")
RACE = ("players=2 course=K3,T8,T6,T1 ostriches=a0n,c2n,b1n,c0n,a2n cards=0,2 to_move=0 dir=+ "
        "turn=7 phase=roll dice=??????")
VARIANTS = [  # (game, options, canonical, a variant the parsers used to read as it)
    ("bonobo", {}, BONOBO, BONOBO.replace("move=0", "move=00")),
    ("bonobo", {}, BONOBO, BONOBO.replace("s10:1", "s10:01")),
    ("bonobo", {}, BONOBO, BONOBO.replace("score=5,-3", "score=+5,-3")),
    ("bonobo", {}, BONOBO.replace("score=5,-3", "score=0,0"),
     BONOBO.replace("score=5,-3", "score=-0,+0")),
    ("bonobo", {}, BONOBO, BONOBO.replace("s03:0,s07:0,s10:1", "s10:1,s03:0,s07:0")),
    ("bonobo", {}, BONOBO, BONOBO.replace("t00-t01:+3,t12-t13:-2", "t12-t13:-2,t00-t01:+3")),
    ("bonobo", {}, BONOBO, BONOBO.replace(" move=0 phase=choose", " phase=choose move=0")),
    ("bonobo", {}, BONOBO, BONOBO.replace(" ", "  ", 1)),
    ("banjooli", {}, RACE, RACE.replace("turn=7", "turn=007")),
    ("banjooli", {"num_players": 3, "berries": True}, BANJOOLI,
     BANJOOLI.replace("cards=0,2,6", "cards=00,2,6")),
    ("banjooli", {"num_players": 3, "berries": True}, BANJOOLI, BANJOOLI + " "),
]


@pytest.mark.parametrize("name, options, canonical, variant", VARIANTS)
def test_a_position_has_one_spelling(name, options, canonical, variant):
    """Leading zeros, signs, reordered lists or fields, extra spaces: refused, pointing at
    the first difference from the notation ``to_text`` writes."""
    from savanna.registry import make_game

    game = make_game(name, **options)
    assert game.to_text(game.from_text(canonical)) == canonical
    with pytest.raises(ValueError, match="not in the canonical notation at character") as err:
        game.from_text(variant)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("course", [["T1", "T1"], ["T2", "K1", "T2"], ("T1", "K2", "T1")])
def test_a_course_lays_each_face_once(course):
    from savanna.banjooli.game import BanjooliGame

    with pytest.raises(ValueError, match=r"course lists the face T\d twice"):
        BanjooliGame(course=course)
