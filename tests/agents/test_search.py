"""The search loop shared by UCT, PUCT and Gumbel search (savanna.agents.play.search)."""
import numpy as np
import pytest

from savanna.agents.play.gumbel import GumbelSearch
from savanna.conformance import play_random
from savanna.registry import make_game
from tests.agents.tiny_games import DiceRace, Nim


def uniform_evaluator(num_players):
    def evaluate(obs, mask):
        v = np.tanh(obs.reshape(len(obs), -1).sum(axis=1, dtype=np.float64) % 5 - 2)
        return mask / mask.sum(axis=1, keepdims=True), np.stack(
            [v * (-1) ** k for k in range(num_players)], axis=1).astype(np.float32)
    return evaluate


class SmallPoolSearch(GumbelSearch):
    """A search whose pool starts with 8 rows: it fills and grows many times in a search."""

    def pool_rows(self, n):
        return 8, 8


def start(game, n=4):
    """``n`` decision nodes of ``game`` (Nim's start, or a race with two turns left)."""
    return (game.init(n) if isinstance(game, Nim) else np.repeat(
        game.from_text("pos=6,6 dice=2,2 to_move=0 turns_left=2 over=0"), n))


@pytest.mark.parametrize("game, expect_chance, rollout_weight", [
    (Nim((2, 3, 4)), False, 0.0), (DiceRace(), False, 0.0), (DiceRace(), True, 0.0),
    (Nim((2, 3, 4)), False, 0.5), (DiceRace(), False, 0.5)])
def test_gumbel_search_is_the_same_from_a_pool_that_must_grow(game, expect_chance,
                                                              rollout_weight):
    """A pool of a few rows fills in the middle of a round, many times: the tree that stopped
    descends again from where its stream was (it samples chance outcomes from it), and its
    leaves' playouts draw from its own stream, so the search is the one a large pool makes."""
    states = start(game)
    evaluate = uniform_evaluator(game.num_players)
    results = []
    for search_type in (GumbelSearch, SmallPoolSearch):
        search = search_type(game, sims=24, gumbel_scale=1.0, expect_chance=expect_chance,
                             rollout_weight=rollout_weight)
        found = search.run(states, evaluate, np.random.default_rng(3))
        results.append((found, search.pool.nodes["visits"][:4].copy()))
    (big, big_visits), (small, small_visits) = results
    assert (big.actions == small.actions).all()
    assert np.array_equal(big.policy, small.policy)
    assert np.array_equal(big.values, small.values)
    assert (big_visits == small_visits).all() and big_visits.min() == 24 + 1  # and the root



def test_gumbel_search_answers_a_call_as_a_fresh_search_does():
    """A search's pool grew in a larger call before: the same states and seed still give the
    same search, playouts included, with an evaluator whose values move with the size of its
    batch as a network's last bits may (an agent's moves do not depend on what it played
    before). Banjooli's many actions make a fresh pool grow in the middle of the call."""
    game = make_game("banjooli", num_players=2)
    rng = np.random.default_rng(4)
    states = []
    play_random(game, game.init(2, rng=4), rng, on_step=lambda s: states.append(s.copy()))
    states = np.concatenate(states)
    states = states[game.current_player(states) >= 0]
    uniform = uniform_evaluator(game.num_players)
    batches = []

    def evaluate(obs, mask):
        batches.append(len(obs))
        priors, values = uniform(obs, mask)
        return priors, values + np.float32(1e-4 * len(obs))

    def searched(search):
        return search.run(states[::9][:4], evaluate, np.random.default_rng(3))

    fresh = searched(GumbelSearch(game, sims=16, rollout_weight=0.5))
    assert min(batches) < 4  # a round the pool's growth cut short: some trees came later
    used = GumbelSearch(game, sims=16, rollout_weight=0.5)
    used.run(states[:60], evaluate, np.random.default_rng(6))
    again = searched(used)
    assert (fresh.actions == again.actions).all()
    assert np.array_equal(fresh.policy, again.policy)
    assert np.array_equal(fresh.values, again.values)
