"""The random and greedy baselines: legal moves only, uniform ties, the greedy heuristic."""
import numpy as np
import pytest

from savanna.agents.play.base import describe, random_argmax
from savanna.agents.play.greedy import GreedyAgent
from savanna.agents.play.random_agent import RandomAgent
from savanna.zebres.game import ZebresGame
from tests.agents.coin_game import CoinGame, GambleGame


@pytest.fixture(scope="module")
def zebres():
    return ZebresGame()


def test_random_argmax_picks_only_maxima_and_every_one_of_them():
    values = np.array([[1.0, 3.0, 3.0, -np.inf], [0.0, 0.0, 0.0, 0.0]])
    picks = np.array([random_argmax(values, np.random.default_rng(s)) for s in range(200)])
    assert set(picks[:, 0]) == {1, 2}
    assert set(picks[:, 1]) == {0, 1, 2, 3}


def test_random_agent_plays_every_legal_move_uniformly_and_nothing_else(zebres):
    # Impala faces column f: f1-f4 empty, 5 kinds in red's hand -> 20 legal placements
    #      a b c d e f
    #   1  . . . g . .
    #   2  . . . . Z .
    #   3  . . . . . .
    #   4  . . . . . .
    #   5  . . . . . g
    s = zebres.from_text("...g../....Z./....../....../.....g r 5 - place")
    legal = zebres.legal_actions(s[0])
    batch = np.repeat(s, 4000)
    actions = RandomAgent().act(zebres, batch, np.random.default_rng(0))
    counts = np.bincount(actions, minlength=zebres.num_actions)
    assert set(np.flatnonzero(counts)) == set(legal)
    expected = len(batch) / len(legal)  # 200 each; a count outside +-5 sd fails
    assert (np.abs(counts[legal] - expected) < 5 * np.sqrt(expected)).all()


def test_random_agent_handles_a_batch_of_mixed_phases(zebres):
    rng = np.random.default_rng(1)
    states = zebres.init(60, rng)
    agent = RandomAgent()
    for _ in range(40):  # every state moves; some games are in setup, place or move phases
        live = np.flatnonzero(zebres.current_player(states) >= 0)
        sub = states[live]
        actions = agent.act(zebres, sub, rng)
        mask = zebres.legal_mask(sub)
        assert mask[np.arange(len(sub)), actions].all()
        zebres.step_inplace(sub, actions)
        states[live] = sub


def test_greedy_takes_the_placement_that_gains_most_on_the_opponent(zebres):
    # Sectors (rules §1): C = c1-f1, d2, d3, e3; D = e2, f2, f3; F = f4, c5-f5.
    # Red leads 6 (zebra in D) to 4 (gazelles in C and F). A red zebra (the most valuable
    # token) on f2 or f3 adds 6 in D; in C or F it only ties the sector (green loses 2); a
    # lion on f2 would turn red's own zebra face down.
    s = zebres.from_text("...g../....Z./....../....../.....g r 5 - place")
    best = {zebres.string_to_action(s[0], "Z f2"), zebres.string_to_action(s[0], "Z f3")}
    values = GreedyAgent().action_values(zebres, s)
    assert values[0].max() == 12 - 4
    actions = GreedyAgent().act(zebres, np.repeat(s, 100), np.random.default_rng(0))
    assert set(actions) == best


def test_greedy_values_the_lead_of_the_player_to_move():
    game = CoinGame(lambda c: [50, 50, 0])
    s = game.init(1)
    game.apply_chance(s, [0])
    assert (GreedyAgent().act(game, np.repeat(s, 50), np.random.default_rng(0)) == 1).all()
    game.step_inplace(s, [1])  # seat 0 chose 1; seat 1's lead is -1 after 0, 0 after 1
    assert GreedyAgent().action_values(game, s).tolist() == [[-1.0, 0.0]]


def test_greedy_breaks_ties_at_random():
    game = CoinGame(lambda c: [50, 50, 0], flat_scores=True)
    s = game.init(1)
    game.apply_chance(s, [0])
    actions = GreedyAgent().act(game, np.repeat(s, 100), np.random.default_rng(0))
    assert set(actions) == {0, 1}


def test_agents_describe_themselves():
    assert describe(RandomAgent()) == "random"
    assert describe(GreedyAgent(chance_depth=2)) == "greedy:chance_depth=2"


def test_greedy_averages_the_chance_that_follows_its_action():
    game = GambleGame()  # a sure 1 point, or 3 or 0 points with even odds
    s = game.init(1)
    assert GreedyAgent().action_values(game, s).tolist() == [[1.0, 1.5]]
    assert GreedyAgent(chance_depth=0).action_values(game, s).tolist() == [[0.0, 0.0]]


class _CheckedOnly:
    """A game seen only through its public, checked API (no ``kernels``): the path a game
    written in Python takes."""

    def __init__(self, game):
        self._game = game

    @property
    def unchecked(self):
        return self

    def __getattr__(self, name):
        if name == "kernels":
            raise AttributeError(name)
        return getattr(self._game, name)


def test_greedy_values_every_move_as_the_checked_api_does(game):
    """The agent's unchecked calls on the states it makes agree with the public API, on
    states met in random games of every configuration (chance nodes followed two deep)."""
    from savanna.conformance import play_random

    rng = np.random.default_rng(3)
    met = []
    play_random(game, game.init(8, rng), rng, on_step=lambda s: met.append(
        s[game.current_player(s) >= 0]))
    states = np.concatenate(met[::3])
    agent = GreedyAgent(chance_depth=2)
    if game.kernels.scores_one is None:  # a game without scores: nothing to be greedy on
        for either in (game, _CheckedOnly(game)):
            with pytest.raises(ValueError, match=f"{game.name} has none before the end"):
                agent.action_values(either, states)
        return
    assert np.array_equal(agent.action_values(game, states),
                          agent.action_values(_CheckedOnly(game), states))
