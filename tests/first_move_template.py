"""A compiled algorithm written once over the Game protocol, for tests/test_compiled_template.py:
play each state to the end taking the lowest legal action and the likeliest chance outcome.

A template like ``savanna._drivers``: ``game.compiled(this module)`` binds the free names, with
no list of bindings anywhere."""
from typing import TYPE_CHECKING

import numpy as np
from numba import njit

from savanna.game import CHANCE, TERMINAL

if TYPE_CHECKING:  # bound by Game.compiled; this block never runs
    from savanna.binding import (
        A,
        C,
        apply_chance_one,
        chance_probs_one,
        current_player_one,
        legal_actions_one,
        step_one,
    )


@njit(cache=True)
def first_move_playouts(s, totals):
    """Plays every state of ``s`` to the end in place; adds each one's rewards to ``totals``."""
    actions = np.empty(A, np.int16)
    probs = np.empty(C, np.float64)
    rewards = np.zeros(totals.shape[1], np.float32)
    for i in range(s.shape[0]):
        while True:
            p = current_player_one(s, i)
            if p == TERMINAL:
                break
            if p == CHANCE:
                probs[:] = 0.0
                chance_probs_one(s, i, probs)
                apply_chance_one(s, i, np.argmax(probs))
            else:
                legal_actions_one(s, i, actions)
                step_one(s, i, actions[0], rewards)
                totals[i] += rewards
