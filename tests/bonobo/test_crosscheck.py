"""The kernel game against the pure-Python reference, move for move on seeded random games:
state text, player, legal actions, chance probabilities, rewards, every seat's observation and
the scores agree at every step. A sample runs in the normal suite; 2,000 games per player
count under ``-m slow``."""
import random

import numpy as np
import pytest

from bonobo import notation as N
from bonobo import reference as R
from bonobo.game import BonoboGame
from savanna.game import CHANCE, TERMINAL


def _agree(game, s, r):
    P = game.num_players
    assert game.to_text(s[0]) == N.format(R.to_position(r))
    player = R.current_player(r)
    assert game.current_player(s)[0] == player
    assert game.legal_actions(s[0]) == R.legal_actions(r)
    outcomes = R.chance_outcomes(r)
    assert game.chance_probs(s)[0].tolist() == [outcomes.get(o, 0.0) for o in range(8)]
    observations = game.observe(np.repeat(s, P), np.arange(P))
    for p in range(P):
        assert observations[p].tolist() == R.observe(r, p), f"player {p}"
    assert game.scores(s)[0].tolist() == R.scores(r)


def crosscheck(num_players, seeds):
    game = BonoboGame(num_players)
    for seed in seeds:
        rng = random.Random(seed)
        s, r = game.init(1), R.new_game(num_players)
        decisions = 0
        while True:
            _agree(game, s, r)
            player = R.current_player(r)
            if player == TERMINAL:
                break
            if player == CHANCE:
                outcomes = R.chance_outcomes(r)
                o = rng.choices(list(outcomes), weights=list(outcomes.values()))[0]
                game.apply_chance(s, [o])
                r = R.apply_chance(r, o)
            else:
                a = rng.choice(R.legal_actions(r))
                s, rewards = game.step(s, [a])
                r, expected = R.step(r, a)
                assert rewards[0].tolist() == np.float32(expected).tolist()
                decisions += 1
        assert decisions <= game.max_plies


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_kernel_matches_reference_sample(num_players):
    crosscheck(num_players, range(8))


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(4))
@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_kernel_matches_reference_2000_games(num_players, chunk):
    crosscheck(num_players, range(1000 + 500 * chunk, 1000 + 500 * (chunk + 1)))
