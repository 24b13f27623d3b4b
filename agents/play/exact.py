"""Exact values of small positions by exhaustive search: expectimax over per-player vectors.

At a decision node the player to move picks the action whose value vector is best for them
(the first such action on ties); at a chance node values are averaged with the outcome
probabilities; rewards are added along the way. For two-player zero-sum games without chance
this is minimax. There is no transposition table, so keep the positions small (endgames,
tiny games). Hidden information is ignored: the solve sees the whole state.

An endgame: a random Zèbres game played until three cells are left empty.

>>> from savanna import make_game
>>> game = make_game("zebres")
>>> rng = np.random.default_rng(0)
>>> row = game.init(1, rng=0)
>>> while game.to_text(row[0]).split()[0].count(".") > 3:
...     row, _ = game.step(row, [rng.choice(game.legal_actions(row))])
>>> values, per_action = solve(game, row)   # float64[P], float64[A, P] (NaN where illegal)
"""
import numpy as np

from savanna.agents.play import _exact_kernels


def solve(game, row, max_depth=256):
    """``(values float64[P], action_values float64[A, P])`` of one state, exactly.

    ``action_values[a]`` is the value after taking ``a`` at the root (NaN if ``a`` is illegal,
    and everywhere if the root is not a decision node). ``max_depth`` sizes the search stack:
    a line longer than that doubles it and starts again.
    """
    root = game.check_row(row).copy()
    solver = _solver(game)
    while True:
        values = np.zeros(game.num_players, np.float64)
        action_values = np.full((game.num_actions, game.num_players), np.nan)
        if solver.solve_one(root, max_depth, values, action_values):
            return values, action_values
        max_depth *= 2


def _solver(game):
    """``savanna.agents.play._exact_kernels`` bound to ``game``'s kernels (``Game.compiled``)."""
    return game.compiled(_exact_kernels)
