"""The compiled half of ``savanna.agents.play.exact``: a depth-first expectimax over a game's
kernels.

A template: ``Game.compiled`` binds the game's kernels and ``A``, ``C`` (see
``savanna.binding``); the player count is read from the shape of ``values``.
"""
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
def enter(stack, level, player, options, count, probs, acc, chosen):
    """Lists the options of the node at ``level``; clears its accumulator."""
    p = current_player_one(stack, level)
    player[level] = p
    acc[level, :] = 0.0
    chosen[level] = False
    count[level] = 0
    if p == CHANCE:
        probs[level, :] = 0.0  # a game may write only its possible outcomes
        chance_probs_one(stack, level, probs[level])
        for o in range(C):
            if probs[level, o] > 0.0:
                options[level, count[level]] = o
                count[level] += 1
    elif p != TERMINAL:
        count[level] = legal_actions_one(stack, level, options[level])


@njit(cache=True)
def solve_one(root, max_depth, values, action_values):
    """Fills ``values`` and ``action_values``; False if the game is deeper than max_depth."""
    P = values.shape[0]
    stack = np.empty(max_depth + 1, root.dtype)
    player = np.empty(max_depth + 1, np.int64)
    options = np.empty((max_depth + 1, max(A, C)), np.int16)
    count = np.zeros(max_depth + 1, np.int64)
    nxt = np.zeros(max_depth + 1, np.int64)
    probs = np.zeros((max_depth + 1, C), np.float64)
    acc = np.zeros((max_depth + 1, P), np.float64)
    chosen = np.zeros(max_depth + 1, np.bool_)
    rewards = np.zeros((max_depth + 1, P), np.float32)
    stack[0] = root[0]
    enter(stack, 0, player, options, count, probs, acc, chosen)
    nxt[0] = 0
    level = 0
    while True:
        if nxt[level] < count[level]:
            if level == max_depth:
                return False
            o = options[level, nxt[level]]
            stack[level + 1] = stack[level]
            if player[level] == CHANCE:
                apply_chance_one(stack, level + 1, o)
                rewards[level + 1, :] = 0.0
            else:
                step_one(stack, level + 1, o, rewards[level + 1])
            level += 1
            enter(stack, level, player, options, count, probs, acc, chosen)
            nxt[level] = 0
            continue
        if level == 0:
            values[:] = acc[0]
            return True
        parent = level - 1
        o = options[parent, nxt[parent]]
        p = player[parent]
        if p == CHANCE:
            for q in range(P):
                acc[parent, q] += probs[parent, o] * (acc[level, q] + rewards[level, q])
        else:
            mine = acc[level, p] + rewards[level, p]
            if not chosen[parent] or mine > acc[parent, p]:
                chosen[parent] = True
                for q in range(P):
                    acc[parent, q] = acc[level, q] + rewards[level, q]
            if parent == 0:
                for q in range(P):
                    action_values[o, q] = acc[level, q] + rewards[level, q]
        nxt[parent] += 1
        level = parent
