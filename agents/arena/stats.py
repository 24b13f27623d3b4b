"""Statistics of match results: Wilson score intervals, Elo from a score, and Elo ratings
fitted to a round robin or a ladder (Bradley-Terry).

Intervals are 95% Wilson score intervals: for the win, draw and loss rates exactly the binomial
Wilson interval; for the score (draws count half) the same formula, which is slightly
conservative when there are draws; the Elo interval maps the score interval's ends. Ratings are
fitted to all pairwise results, draws as half points, with one virtual draw per pair so that an
agent that wins everything keeps a finite rating; ratings average 0, or a ladder's anchor is 0.
"""
import math

import numpy as np

__all__ = ["Z95", "elo_from_score", "fit_elo", "pair_scores", "wilson_interval"]

Z95 = 1.959963984540054  # two-sided 95% quantile of the standard normal


def wilson_interval(rate, n, z=Z95):
    """The Wilson score interval ``(low, high)`` of a proportion observed as ``rate`` in ``n``
    trials; ``(0, 1)`` when ``n == 0``."""
    if n == 0:
        return 0.0, 1.0
    denom = 1 + z * z / n
    centre = (rate + z * z / (2 * n)) / denom
    half = z / denom * math.sqrt(max(rate * (1 - rate), 0.0) / n + z * z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def elo_from_score(score):
    """Elo difference that predicts expected score ``score`` (``inf`` at 0 or 1)."""
    if score <= 1e-12:
        return -math.inf
    if score >= 1 - 1e-12:
        return math.inf
    return 400 * math.log10(score / (1 - score))


def pair_scores(returns):
    """``[G, P, P]``: 1 where agent i's return beats agent j's in a game, 1/2 if equal, else 0."""
    diff = returns[:, :, None] - returns[:, None, :]
    return (diff > 0) + 0.5 * (diff == 0)


def fit_elo(pair_score, pair_games, iterations=100, anchor=None):
    """Bradley-Terry Elo ratings (mean 0) and their standard errors from pairwise results.

    ``pair_score[i, j]`` is i's summed score against j over ``pair_games[i, j]`` comparisons.
    One virtual draw is added to every pair that met, so perfect records keep finite ratings.
    With ``anchor`` (an agent's index) the ratings are shifted so that agent's is 0, and the
    errors are those of the differences from it (the anchor's own is 0).
    """
    met = pair_games > 0
    score = pair_score + 0.5 * met
    games = pair_games + met
    n = len(games)
    beta = np.zeros(n)
    hessian = np.zeros((n, n))
    for _ in range(iterations):
        expected = 1 / (1 + np.exp(beta[None, :] - beta[:, None]))
        gradient = (score - games * expected).sum(axis=1)
        weight = games * expected * (1 - expected)
        hessian = np.diag(weight.sum(axis=1)) - weight
        step = np.clip(np.linalg.pinv(hessian) @ gradient, -1, 1)  # damped Newton
        beta += step
        beta -= beta.mean()
        if np.abs(step).max() < 1e-10:
            break
    scale = 400 / math.log(10)
    covariance = np.linalg.pinv(hessian)
    variances = np.diag(covariance)
    if anchor is not None:
        beta = beta - beta[anchor]
        variances = variances + covariance[anchor, anchor] - 2 * covariance[:, anchor]
    errors = np.sqrt(np.maximum(variances, 0))
    return beta * scale, errors * scale
