"""Exact values of small positions by exhaustive search: expectimax over per-player vectors.

At a decision node the player to move picks the action whose value vector is best for them
(the first such action on ties); at a chance node values are averaged with the outcome
probabilities; rewards are added along the way. For two-player zero-sum games without chance
this is minimax. There is no transposition table, so keep the positions small (endgames,
tiny games). Hidden information is ignored: the solve sees the whole state.

>>> values, per_action = solve(game, row)   # float64[P], float64[A, P] (NaN where illegal)
"""
from types import SimpleNamespace

import numpy as np
from numba import njit

from savanna.game import CHANCE, TERMINAL

_solvers_by_class = {}


def solve(game, row, max_depth=256):
    """``(values float64[P], action_values float64[A, P])`` of one state, exactly.

    ``action_values[a]`` is the value after taking ``a`` at the root (NaN if ``a`` is illegal,
    and everywhere if the root is not a decision node). ``max_depth`` sizes the search stack:
    a line longer than that doubles it and starts again.
    """
    root = game.check_states(game._as_batch(row)).copy()
    solver = _solver(game)
    while True:
        values = np.zeros(game.num_players, np.float64)
        action_values = np.full((game.num_actions, game.num_players), np.nan)
        if solver.solve(root, max_depth, values, action_values):
            return values, action_values
        max_depth *= 2


def _solver(game):
    key = (type(game), game.num_players)
    if key not in _solvers_by_class:
        _solvers_by_class[key] = make_solver(
            game.kernels, game.num_actions, game.num_players, game.max_chance_outcomes)
    return _solvers_by_class[key]


def make_solver(kernels, num_actions, num_players, max_chance_outcomes):
    """The compiled depth-first search for one game's kernels (see ``solve``)."""
    current_player_one = kernels.current_player_one
    legal_actions_one = kernels.legal_actions_one
    step_one = kernels.step_one
    chance_probs_one = kernels.chance_probs_one
    apply_chance_one = kernels.apply_chance_one
    A, P, C = num_actions, num_players, max(1, max_chance_outcomes)
    W = max(A, C)

    @njit
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
            buf = options[level]
            count[level] = legal_actions_one(stack, level, buf)

    @njit
    def solve(root, max_depth, values, action_values):
        """Fills ``values`` and ``action_values``; False if the game is deeper than max_depth."""
        stack = np.empty(max_depth + 1, root.dtype)
        player = np.empty(max_depth + 1, np.int64)
        options = np.empty((max_depth + 1, W), np.int16)
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

    return SimpleNamespace(solve=solve)
