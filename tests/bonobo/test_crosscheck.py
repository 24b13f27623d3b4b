"""The kernel game against the pure-Python reference, move for move on seeded random games:
state text, player, legal actions, chance probabilities, rewards, every seat's observation and
the scores agree at every step. A sample runs in the normal suite; 2,000 games per player
count under ``-m slow``."""
import numpy as np
import pytest

from savanna.bonobo.game import BonoboGame
from savanna.bonobo.twin import play_lockstep


def crosscheck(num_players, seeds):
    """Whole games from the start, each within ``max_plies`` decisions."""
    game = BonoboGame(num_players)
    for seed in seeds:
        s = game.init(1)
        play_lockstep(game, s, game.max_plies, np.random.default_rng(seed))
        assert game.is_terminal(s)[0]


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_kernel_matches_reference_sample(num_players):
    crosscheck(num_players, range(8))


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(4))
@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_kernel_matches_reference_2000_games(num_players, chunk):
    crosscheck(num_players, range(1000 + 500 * chunk, 1000 + 500 * (chunk + 1)))
