"""Luck: how often the weaker agent wins, and how much the outcome turns on chance alone.

* ``upset_rate(result)``: in a match of a stronger agent (column 0) against weaker ones, the
  weaker's mean pairwise score against the stronger (draws half) with its 95% interval; 1/2
  where skill does not matter, near 0 where it decides everything (Gilbert and Wells,
  "Ludometrics: luck, and how to measure it", 2018: luck is what the skill difference leaves
  unexplained).
* ``chance_sensitivity(a, b, c)``: three matches of the same agents, their randomness keyed
  to each decision (``savanna.studies.coupled``): ``a`` and ``b`` with the same decision
  seeds, chance drawn from two streams; ``c`` with ``a``'s chance and other decision seeds.
  ``redrawn``: the share of games whose result (the winner, or a draw) differs between ``a``
  and ``b``; ``control``: between ``a`` and ``c`` (the agents' own randomness alone);
  ``chance_alone``: their difference, game by game. Each with its 95% interval (Wilson for the
  shares, a t interval over the paired games for the difference). 0 for a game without chance
  (deterministic agents: its interval 0 too); ``1 - sum_k p_k**2`` when chance alone picks the
  winner with probabilities ``p_k`` (a fair coin: 1/2).
"""
import math

import numpy as np
from scipy import stats

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


def chance_sensitivity(a, b, c):
    """The result changed by chance redrawn, by the agents' randomness redrawn, and the
    difference (module docstring), as a dict."""
    first = _results(a)
    redrawn, control = first != _results(b), first != _results(c)
    n = len(first)
    out = {"games": int(n)}
    for name, differ in (("redrawn", redrawn), ("control", control)):
        rate = float(differ.mean())
        out[name], out[name + "_ci"] = rate, wilson_interval(rate, n)
    d = redrawn.astype(float) - control.astype(float)
    mean, sd = float(d.mean()), float(d.std(ddof=1)) if n > 1 else 0.0
    half = stats.t.ppf(0.975, n - 1) * sd / math.sqrt(n) if n > 1 else math.inf
    out["chance_alone"], out["chance_alone_ci"] = mean, (max(mean - half, -1.0),
                                                         min(mean + half, 1.0))
    return out
