"""Bradley–Terry ratings over a population of agents, with intervals clustered by game.

``Comparisons.of(population, matches)`` gathers, game by game, every pairwise comparison of two
different agents of the population in a set of matches (draws half; copies of one agent in a
multi-player game are not compared with each other). ``fit(comparisons)`` gives the ratings
(``savanna.agents.arena.stats.fit_elo``: one virtual draw per pair that met) and their
covariance by the sandwich clustered by game (Liang and Zeger): a game of P players gives up
to P - 1 correlated comparisons of one agent, which the plain Bradley–Terry covariance would
count as independent. ``dispersion`` is the standard deviation of the ratings over the
population with the sampling noise taken out (the skill of Duersch, Lambrecht and Oechssler,
"Measuring skill and chance in games", 2020), ``no_skill_p`` the Wald test that every agent
has the same rating.
"""
import math
from typing import NamedTuple

import numpy as np
from scipy import stats

from savanna.agents.arena.stats import fit_elo, pair_scores

__all__ = ["Comparisons", "Fit", "fit", "mixed"]

ELO = 400 / math.log(10)  # Elo points per unit of the logistic scale


class Comparisons(NamedTuple):
    """One entry per match: ``pairs[m]`` ``int[K, 2]`` (population indices a, b) and
    ``scores[m]`` ``float[G, K]`` (a's score against b in each game)."""

    n: int
    pairs: list
    scores: list

    @classmethod
    def of(cls, population, matches):
        """``matches``: ``(agents, result)`` with one agent spec per column of the result."""
        index = {spec: i for i, spec in enumerate(population)}
        pairs, scores = [], []
        for agents, result in matches:
            members = [index[a] for a in agents]
            keep = [(i, j) for i in range(len(members)) for j in range(i + 1, len(members))
                    if members[i] != members[j]]
            s = pair_scores(np.asarray(result.returns))
            pairs.append(np.array([(members[i], members[j]) for i, j in keep], np.int64))
            scores.append(np.stack([s[:, i, j] for i, j in keep], axis=1).astype(np.float64))
        return cls(len(population), pairs, scores)

    def resampled(self, rng):
        """The same matches with their games drawn again with replacement (a bootstrap)."""
        return self._replace(scores=[s[rng.integers(0, len(s), len(s))] for s in self.scores])

    def tables(self, x=0.0):
        """``(score, games)`` ``[n, n]`` summed tables; ``x`` of every game replaced by a fair
        coin in expectation (Duersch et al.'s x%-chess)."""
        score, games = np.zeros((self.n, self.n)), np.zeros((self.n, self.n))
        for (pairs, s) in zip(self.pairs, self.scores):
            a, b = pairs[:, 0], pairs[:, 1]
            won = (1 - x) * s.sum(axis=0) + x * 0.5 * len(s)
            np.add.at(score, (a, b), won)
            np.add.at(score, (b, a), len(s) - won)
            np.add.at(games, (a, b), len(s))
            np.add.at(games, (b, a), len(s))
        return score, games


class Fit(NamedTuple):
    """Ratings (Elo, mean 0) and their clustered covariance (Elo squared)."""

    elo: np.ndarray
    covariance: np.ndarray

    @property
    def errors(self):
        return np.sqrt(np.maximum(np.diag(self.covariance), 0))

    def difference_error(self, i, j):
        c = self.covariance
        return math.sqrt(max(c[i, i] + c[j, j] - 2 * c[i, j], 0.0))

    @property
    def dispersion(self):
        """The ratings' standard deviation over the population, less the part the sampling
        noise adds (its expected square is the covariance's trace over n - 1); 0 at least."""
        return self.debiased(1)

    def debiased(self, noises):
        """The dispersion less ``noises`` times the noise's part: 1 for the estimate; 2 in a
        bootstrap draw, whose games carry the sample's noise and the draw's own."""
        n = len(self.elo)
        centred = self.elo - self.elo.mean()
        return math.sqrt(max((centred @ centred - noises * np.trace(self.covariance))
                             / (n - 1), 0.0))

    @property
    def no_skill_p(self):
        """The p-value of the Wald test that every rating is the same (1 when none differs)."""
        centred = self.elo - self.elo.mean()
        if np.abs(centred).max() < 1e-9:
            return 1.0
        if np.trace(self.covariance) < 1e-12:
            return 0.0  # different ratings without noise: every game the same
        wald = float(centred @ np.linalg.pinv(self.covariance, hermitian=True) @ centred)
        rank = np.linalg.matrix_rank(self.covariance, hermitian=True, tol=1e-9)
        return float(stats.chi2.sf(wald, max(int(rank), 1)))


def fit(comparisons, x=0.0, noise_from=None):
    """The ``Fit`` of ``comparisons`` (module docstring), ``x`` of the games replaced by coin
    flips in expectation. The clustered noise is that of the games, shrunk by ``1 - x`` (a
    coin in expectation adds none); ``noise_from``: a ``Fit`` at ``x = 0`` whose residuals to
    use (saves refitting)."""
    score, games = comparisons.tables(x)
    elo, _ = fit_elo(score, games)
    beta = elo / ELO
    met = games > 0
    expected = 1 / (1 + np.exp(beta[None, :] - beta[:, None]))
    weight = (games + met) * expected * (1 - expected)  # fit_elo's virtual draws included
    bread = np.linalg.pinv(np.diag(weight.sum(axis=1)) - weight)
    base = beta if noise_from is None else noise_from.elo / ELO
    meat = _meat(comparisons, base) * (1 - x) ** 2
    return Fit(elo, bread @ meat @ bread * ELO ** 2)


def _meat(comparisons, beta):
    """``sum_g u_g u_g^T``: each game's score residuals summed per agent (the clusters)."""
    meat = np.zeros((comparisons.n, comparisons.n))
    for pairs, s in zip(comparisons.pairs, comparisons.scores):
        a, b = pairs[:, 0], pairs[:, 1]
        residual = s - 1 / (1 + np.exp(beta[b] - beta[a]))[None, :]
        u = np.zeros((len(s), comparisons.n))
        for k in range(len(a)):
            u[:, a[k]] += residual[:, k]
            u[:, b[k]] -= residual[:, k]
        meat += u.T @ u
    return meat


def mixed(comparisons, dispersion, base=None, noises=1):
    """The share ``x`` in [0, 1] at which ``comparisons`` (a reference game without chance),
    with ``x`` of its games replaced by coin flips, have the ratings' ``dispersion``: 0 when
    the reference at full skill disperses less, 1 for no dispersion at all. The reference's
    dispersion falls as ``x`` grows (to 0 at 1); found by Brent's method. ``noises``: as
    ``Fit.debiased`` (2 for a bootstrap draw of the reference)."""
    from scipy.optimize import brentq

    base = fit(comparisons) if base is None else base

    def gap(x):
        return fit(comparisons, x, base).debiased(noises) - dispersion

    if dispersion <= 0:
        return 1.0
    if gap(0.0) <= 0:
        return 0.0
    return float(brentq(gap, 0.0, 1.0, xtol=1e-4))
