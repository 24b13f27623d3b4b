"""Kernels against the reference: seeded random games played move for move in both (the
``play_lockstep`` of the twin its registration declares), whole, from the start."""
import numpy as np

from savanna.conformance import twin


def test_kernels_agree_with_the_reference_on_seeded_random_games(game):
    lockstep = twin(game).play_lockstep
    for seed in range(3):
        # every decision and chance outcome of a whole game (a twin counts one or both)
        lockstep(game, game.init(1, rng=seed), 2 * game.max_plies + 2,
                 np.random.default_rng(seed))
