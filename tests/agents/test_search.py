"""The search loop shared by UCT, PUCT and Gumbel search (savanna.agents.play.search)."""
import numpy as np
import pytest

from savanna.agents.play.gumbel import GumbelSearch
from savanna.agents.play.search import Tree
from tests.agents.tiny_games import DiceRace, Nim


def uniform_evaluator(num_players):
    def evaluate(obs, mask):
        v = np.tanh(obs.reshape(len(obs), -1).sum(axis=1, dtype=np.float64) % 5 - 2)
        return mask / mask.sum(axis=1, keepdims=True), np.stack(
            [v * (-1) ** k for k in range(num_players)], axis=1).astype(np.float32)
    return evaluate


@pytest.mark.parametrize("game, expect_chance", [(Nim((2, 3, 4)), False), (DiceRace(), False),
                                                 (DiceRace(), True)])
def test_gumbel_search_is_the_same_from_a_pool_that_must_grow(game, expect_chance):
    """A pool of a few rows fills in the middle of a round, many times: the tree that stopped
    descends again from where its stream was (it samples chance outcomes from it), so the
    search is the one a large pool makes."""
    states = (game.init(4) if isinstance(game, Nim) else np.repeat(
        game.from_text("pos=6,6 dice=2,2 to_move=0 turns_left=2 over=0"), 4))
    evaluate = uniform_evaluator(game.num_players)
    results = []
    for rows in (None, 8):
        search = GumbelSearch(game, sims=24, gumbel_scale=1.0, expect_chance=expect_chance)
        if rows:
            search.pool = Tree(game, rows, rows, leaf_values=True)
        found = search.run(states, evaluate, np.random.default_rng(3))
        results.append((found, search.pool.nodes["visits"][:4].copy()))
    (big, big_visits), (small, small_visits) = results
    assert (big.actions == small.actions).all()
    assert np.array_equal(big.policy, small.policy)
    assert np.array_equal(big.values, small.values)
    assert (big_visits == small_visits).all() and big_visits.min() == 24 + 1  # and the root
