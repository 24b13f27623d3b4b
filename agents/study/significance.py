"""Tests of a study's rows: the mean of per-game scores against a value, and Holm's
correction over a family of such tests (a finding is a row that survives it)."""
import numpy as np
from scipy import stats

__all__ = ["ALPHA", "holm", "score_tests"]

ALPHA = 0.05


def holm(p_values, alpha=ALPHA):
    """Which of ``p_values`` are rejected at ``alpha`` after Holm's correction: the k-th
    smallest while each up to it is at most ``alpha / (m - k + 1)``. Written here because
    statsmodels' ``multipletests`` (which the tests compare it with) collects garbage at
    every call, a quarter of a second in a bootstrap's inner loop."""
    p = np.asarray(p_values, np.float64)
    order = np.argsort(p, kind="stable")
    passed = p[order] <= alpha / (len(p) - np.arange(len(p)))
    rejected = np.zeros(len(p), bool)
    rejected[order[: len(p) if passed.all() else int(np.argmin(passed))]] = True
    return rejected


def score_tests(per_game, expected, bounds=(0.0, 1.0)):
    """``(mean, low, high, p)`` per sample of per-game scores in ``per_game``: the mean, its
    95% t interval (within ``bounds``, the quantity's own) and the two-sided p-value of the
    mean being ``expected`` (one per sample), the games independent. Without variation the
    interval is the mean itself and p is 0 or 1."""
    means = np.array([float(np.mean(y)) for y in per_game])
    n = np.array([len(y) for y in per_game], np.float64)
    sds = np.array([float(np.std(y, ddof=1)) if len(y) > 1 else 0.0 for y in per_game])
    expected = np.broadcast_to(np.asarray(expected, np.float64), means.shape)
    varies = sds > 1e-12
    se = np.where(varies, sds, 1.0) / np.sqrt(n)
    half = np.where(varies, stats.t.ppf(0.975, np.maximum(n - 1, 1)) * se, 0.0)
    p = np.where(varies, 2 * stats.t.sf(np.abs(means - expected) / se, np.maximum(n - 1, 1)),
                 (np.abs(means - expected) < 1e-12).astype(float))
    low, high = bounds
    return [(float(m), max(float(m - h), low), min(float(m + h), high), float(q))
            for m, h, q in zip(means, half, p)]
