"""The OpenSpiel adapter: OpenSpiel's own consistency checks, its MCTS bot, and agreement with
the Game protocol (chance, observations, hidden information, serialisation)."""
import numpy as np
import pytest

pytest.importorskip("pyspiel", reason="OpenSpiel is an optional extra: pip install '.[interop]'")
import pyspiel  # noqa: E402
from open_spiel.python.algorithms import mcts  # noqa: E402

from savanna.interop import openspiel as adapter  # noqa: E402
from tests.conftest import MISSION_CONFIGS, config_id  # noqa: E402


def spiel_params(options):
    """OpenSpiel parameters of Savanna game options."""
    renamed = {"num_players": "players"}
    return {renamed.get(k, k): ("none" if v is None else v) for k, v in options.items()}


@pytest.fixture(params=MISSION_CONFIGS, ids=config_id)
def spiel_game(request):
    name, options = request.param
    return adapter.load(name, **spiel_params(options))


def play_randomly(state, rng, on_state=None):
    """Play ``state`` to the end with uniform legal actions and chance by its probabilities."""
    while not state.is_terminal():
        if on_state is not None:
            on_state(state)
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def test_registered_under_savanna_names():
    assert {"savanna_zebres", "savanna_bonobo", "savanna_banjooli"} <= set(
        pyspiel.registered_names())
    with pytest.raises(ValueError, match="unknown game"):
        adapter.load("chess")


def test_random_sim_test_passes_with_serialisation(spiel_game):
    pyspiel.random_sim_test(spiel_game, num_sims=2, serialize=True, verbose=False)


def test_python_mcts_bot_plays_every_game_to_the_end():
    """OpenSpiel's MCTS bot (Python) chooses every move of a whole game, chance included."""
    for name, params in [("zebres", {}), ("bonobo", {"players": 3}),
                         ("banjooli", {"players": 2, "terrain": 1})]:
        game = adapter.load(name, **params)
        bot = mcts.MCTSBot(game, 1.4, 4, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
                           random_state=np.random.RandomState(0))
        state, rng = game.new_initial_state(), np.random.default_rng(0)
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(outcomes, p=probs)))
            else:
                action = bot.step(state)
                assert action in state.legal_actions()
                state.apply_action(action)
        assert sum(state.returns()) == pytest.approx(0.0, abs=1e-9)
        assert max(state.returns()) > 0


def test_cpp_algorithms_run_on_the_python_game():
    """OpenSpiel's C++ side drives the Python game: bots from C++ play a game to the end."""
    game = adapter.load("bonobo", players=2)
    bots = [pyspiel.make_uniform_random_bot(p, 10 + p) for p in range(2)]
    returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 3)
    assert sorted(returns) == [-1.0, 1.0] or returns == [0.0, 0.0]


def test_states_agree_with_the_game_protocol(spiel_game):
    """Along a random game: legal actions, chance outcomes and observations are the game's."""
    engine = adapter.Engine.of(spiel_game)
    game = engine.savanna
    seen = {"chance": 0, "decision": 0}

    def check(state):
        s = state.savanna_state
        if s is None:  # the random-setup chance node
            assert len(state.chance_outcomes()) == spiel_game.max_chance_outcomes()
            return
        player = int(game.current_player(s)[0])
        assert state.current_player() == player
        if state.is_chance_node():
            seen["chance"] += 1
            probs = game.chance_probs(s)[0]
            assert dict(state.chance_outcomes()) == {
                o: pytest.approx(p) for o, p in enumerate(probs) if p > 0}
        else:
            seen["decision"] += 1
            assert state.legal_actions() == game.legal_actions(s[0])
        for p in range(game.num_players):  # OpenSpiel's tensors are flat, in C order
            expected = game.observe(s, p)[0].astype(np.float32).ravel()
            assert np.array_equal(state.observation_tensor(p), expected)
            assert np.array_equal(state.information_state_tensor(p), expected)

    state = play_randomly(spiel_game.new_initial_state(), np.random.default_rng(1), check)
    assert seen["decision"] > 0 and (seen["chance"] > 0) == game.has_chance
    assert sum(state.returns()) == pytest.approx(0.0, abs=1e-9)


def test_observations_never_show_another_players_secret():
    """Banjooli: changing seat 1's card changes nothing seat 0 sees, but what seat 1 sees."""
    game = adapter.load("banjooli", players=3)
    state = game.new_initial_state()
    state.apply_action(7)  # the setup seed
    other = state.clone()
    cards = other.savanna_state["cards"][0]
    cards[1] = next(c for c in range(10) if c not in cards[:3])
    for view in ("observation_tensor", "information_state_tensor", "observation_string",
                 "information_state_string"):
        assert np.array_equal(getattr(state, view)(0), getattr(other, view)(0)), view
        assert not np.array_equal(getattr(state, view)(1), getattr(other, view)(1)), view
    assert "7" not in state.information_state_string(0).split("|")[0]


def test_information_state_string_remembers_the_public_actions():
    game = adapter.load("zebres")
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    before = state.information_state_string(0)
    state.apply_action(state.legal_actions()[0])
    assert state.information_state_string(0).startswith(
        " ".join(map(str, state.history())) + " | ")
    assert state.information_state_string(0) != before


def test_serialise_and_deserialise_mid_game(spiel_game):
    rng = np.random.default_rng(2)
    state = spiel_game.new_initial_state()
    for _ in range(12):
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        elif not state.is_terminal():
            state.apply_action(int(rng.choice(state.legal_actions())))
    text = pyspiel.serialize_game_and_state(spiel_game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(spiel_game)
    assert state2.history() == state.history() and str(state2) == str(state)
    assert np.array_equal(state2.observation_tensor(0), state.observation_tensor(0))


def test_parameters_reach_the_game():
    game = adapter.load("zebres", board="president", first_placer=0)
    engine = adapter.Engine.of(game)
    assert engine.savanna.board == "president" and engine.savanna.first_placer == 0
    banjooli = adapter.Engine.of(adapter.load("banjooli", players=4, special="lava"))
    assert banjooli.savanna.num_players == 4 and banjooli.savanna.special == "lava"
    with pytest.raises(pyspiel.SpielError):
        adapter.load("zebres", colour="blue")
