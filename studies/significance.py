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
    95% interval (within ``bounds``, the quantity's own) and the two-sided p-value of the mean
    being ``expected`` (one per sample), the games independent. Scores all 0 or 1 (wins and
    losses) get SciPy's exact binomial test and Clopper-Pearson interval; others a t test and
    interval. Without variation the interval is the mean itself and p is 0 or 1."""
    out = []
    expected = np.broadcast_to(np.asarray(expected, np.float64), (len(per_game),))
    low_bound, high_bound = bounds
    for y, mu in zip(per_game, expected):
        y = np.asarray(y, np.float64)
        mean = float(y.mean())
        n = len(y)
        binary = bool(np.isin(y, (0.0, 1.0)).all())
        if binary and 0 < mu < 1:
            test = stats.binomtest(int(y.sum()), n, float(mu))
            ci = test.proportion_ci()
            out.append((mean, max(ci.low, low_bound), min(ci.high, high_bound),
                        float(test.pvalue)))
            continue
        sd = float(y.std(ddof=1)) if n > 1 else 0.0
        if sd < 1e-12:
            out.append((mean, mean, mean, float(abs(mean - mu) < 1e-12)))
            continue
        se = sd / np.sqrt(n)
        half = float(stats.t.ppf(0.975, n - 1) * se)
        p = float(2 * stats.t.sf(abs(mean - mu) / se, n - 1))
        out.append((mean, max(mean - half, low_bound), min(mean + half, high_bound), p))
    return out
