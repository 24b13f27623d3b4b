"""Luck: how often the weaker agent wins, and how much the outcome turns on chance alone.

* ``upset_rate(result)``: in a match of a stronger agent (column 0) against weaker ones, the
  weaker's mean pairwise score against the stronger (draws half) with its 95% interval; 1/2
  where skill does not matter, near 0 where it decides everything (Gilbert and Wells,
  "Ludometrics: luck, and how to measure it", 2018: luck is what the skill difference leaves
  unexplained).
* ``chance_sensitivity(a, b)``: two matches of the same agents with the same decision seeds,
  chance drawn from two streams (``savanna.agents.arena.matches.play_batches``): the share of
  games whose result (the winner, or a draw) differs, with its interval. 0 for a game without
  chance; ``1 - sum_k p_k**2`` when chance alone picks the winner with probabilities ``p_k``.
"""
import numpy as np

from savanna.agents.arena.stats import pair_scores, wilson_interval

__all__ = ["chance_sensitivity", "upset_rate"]


def upset_rate(result):
    """The weaker agents' score against the stronger one (module docstring), as a dict."""
    rate = float(pair_scores(result.returns)[:, 1:, 0].mean())
    return {"games": result.games, "rate": rate, "ci": wilson_interval(rate, result.games)}


def _results(result):
    """Per game, by seat: the winner's seat, or -1 for a draw."""
    wins, _, _ = result.outcomes()
    seat_of_winner = np.where(wins.any(axis=1),
                              result.seats[np.arange(result.games), wins.argmax(axis=1)], -1)
    return seat_of_winner


def chance_sensitivity(a, b):
    """The share of games whose result differs between matches ``a`` and ``b`` (module
    docstring), as a dict."""
    differ = _results(a) != _results(b)
    rate = float(differ.mean())
    return {"games": int(len(differ)), "rate": rate, "ci": wilson_interval(rate, len(differ))}
