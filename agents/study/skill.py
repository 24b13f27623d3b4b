"""Skill depth: a chain of agents of doubling budget, Bradley-Terry ratings over it, the
skill-chain length and the share of chance.

* ``chain_ratings(results)``: each step's score (the stronger agent's pairwise score against
  the weaker, 95% interval) and the Elo ratings fitted to every step (``fit_elo``, random = 0),
  with 95% intervals.
* The skill-chain length (Lantz et al., "Depth in strategic games", 2017): the steps whose
  stronger agent scores at least ``threshold``.
* The rating spread (Duersch, Lambrecht and Oechssler, "Measuring skill and chance in games",
  2020): the top agent's rating minus random's, with its interval.
* ``chance_share(spread, reference_scores)``: the share ``x`` of a reference game's results
  that, replaced by coin flips (their "x%-chess"), leaves the reference chain the same spread;
  0 when the game spreads as wide as the reference or wider, 1 for a game of pure chance.
"""
import math

import numpy as np

from savanna.agents.arena.stats import Z95, fit_elo, pair_scores, wilson_interval

__all__ = ["chain_ratings", "chance_share", "mixed_spread", "spread_of"]


def _tables(results, n):
    """``(pair_score, pair_games)`` ``[n, n]`` of chain matches ``results`` (step ``i`` holds
    agent ``i + 1`` in its first seat, agent ``i`` in the others)."""
    score, games = np.zeros((n, n)), np.zeros((n, n))
    for i, result in enumerate(results):
        idx = np.array([i + 1] + [i] * (result.returns.shape[1] - 1))
        np.add.at(score, (idx[:, None], idx[None, :]), pair_scores(result.returns).sum(axis=0))
        np.add.at(games, (idx[:, None], idx[None, :]), float(result.games))
    np.fill_diagonal(score, 0)  # copies of the weaker agent against each other: no information
    np.fill_diagonal(games, 0)
    return score, games


def step_score(result):
    """The stronger agent's (column 0) mean pairwise score against the others of a match."""
    return float(pair_scores(result.returns)[:, 0, 1:].mean())


def spread_of(score, games):
    """``(spread, error)``: the Bradley-Terry rating of the chain's top agent (the last)
    minus its bottom one's (random), and its standard error, of the pairwise tables. Ends
    fixed by budget, not the highest and lowest ratings: with no skill at all the spread is 0
    on average, not the largest of several noises."""
    ratings, errors = fit_elo(score, games, anchor=0)
    return float(ratings[-1]), float(errors[-1])


def chain_ratings(agents, results, threshold):
    """The chain's steps, ratings, length and spread as a dict (module docstring)."""
    steps = []
    for i, result in enumerate(results):
        s = step_score(result)
        steps.append({"stronger": agents[i + 1], "weaker": agents[i], "games": result.games,
                      "score": s, "score_ci": wilson_interval(s, result.games),
                      "step": bool(s >= threshold)})
    score, games = _tables(results, len(agents))
    ratings, errors = fit_elo(score, games, anchor=0)
    spread, error = spread_of(score, games)
    played = games.sum(axis=1)
    return {"agents": list(agents), "steps": steps, "threshold": threshold,
            "length": sum(s["step"] for s in steps),
            "ratings": [{"agent": a, "elo": float(r), "games": int(g),
                         "elo_ci": (float(r - Z95 * e), float(r + Z95 * e))}
                        for a, r, e, g in zip(agents, ratings, errors, played)],
            "spread": spread, "spread_ci": (spread - Z95 * error, spread + Z95 * error),
            "step_scores": [s["score"] for s in steps], "step_games": [s["games"]
                                                                        for s in steps]}


def mixed_spread(x, scores, games):
    """The spread of a chain whose step scores ``scores`` are mixed with coin flips: a share
    ``x`` of every step's games replaced by a fair coin."""
    n = len(scores) + 1
    score, table = np.zeros((n, n)), np.zeros((n, n))
    for i, (s, g) in enumerate(zip(scores, games)):
        mixed = (1 - x) * s + x * 0.5
        score[i + 1, i], score[i, i + 1] = mixed * g, (1 - mixed) * g
        table[i + 1, i] = table[i, i + 1] = g
    return spread_of(score, table)[0]


def chance_share(spread, reference):
    """The share of chance of a game whose chain spreads ``spread`` Elo, against the
    ``reference`` chain (a ``chain_ratings`` dict of a game without chance): the ``x`` in
    [0, 1] at which the reference, ``x`` of its games replaced by coin flips, spreads as much
    (bisection: the spread falls as ``x`` grows)."""
    scores, games = reference["step_scores"], reference["step_games"]
    if not math.isfinite(spread) or spread >= mixed_spread(0.0, scores, games):
        return 0.0
    if spread <= mixed_spread(1.0, scores, games):
        return 1.0
    low, high = 0.0, 1.0
    for _ in range(40):
        middle = (low + high) / 2
        if mixed_spread(middle, scores, games) > spread:
            low = middle
        else:
            high = middle
    return (low + high) / 2
