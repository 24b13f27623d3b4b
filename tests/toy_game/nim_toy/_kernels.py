"""Nim's state dtype and scalar kernels (numba)."""
import numpy as np
from numba import njit

from nim_toy.spec import MAX_HEAP, NUM_HEAPS
from savanna.codes import TERMINAL

STATE_DTYPE = np.dtype([("heaps", np.int8, (NUM_HEAPS,)), ("to_move", np.int8),
                        ("misere", np.int8)])


@njit(cache=True)
def reset_one(s, i, base, streams):
    s[i] = base[0]


@njit(cache=True)
def current_player_one(s, i):
    """The player to move; at the end ``to_move`` stays the last mover's."""
    return TERMINAL if s[i].heaps.sum() == 0 else s[i].to_move


@njit(cache=True)
def legal_actions_one(s, i, out):
    n = 0
    for heap in range(NUM_HEAPS):
        for taken in range(1, s[i].heaps[heap] + 1):
            out[n] = heap * MAX_HEAP + taken - 1
            n += 1
    return n


@njit(cache=True)
def step_one(s, i, action, rewards):
    r = s[i]
    rewards[:] = 0.0
    r.heaps[action // MAX_HEAP] -= action % MAX_HEAP + 1
    if r.heaps.sum() == 0:
        winner = 1 - r.to_move if r.misere else r.to_move
        rewards[winner] = 1.0
        rewards[1 - winner] = -1.0
    else:
        r.to_move = 1 - r.to_move


@njit(cache=True)
def chance_probs_one(s, i, probs):
    pass  # no chance nodes


@njit(cache=True)
def apply_chance_one(s, i, outcome):
    pass
