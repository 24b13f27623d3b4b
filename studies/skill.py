"""Skill depth: ratings over a population of agents, the skill chain and the share of chance.

The population is the skill chain (random, then MCTS of doubling budget) and a second family
(``plan.skill_population``); its direct matches are every adjacent pair of the chain, every
pair two apart, and each agent of the second family against random, the chain's middle and
its top.

* Ratings: Bradley–Terry, 95% intervals clustered by game (``ratings.fit``).
* Skill: the ratings' dispersion (their standard deviation over the population, sampling noise
  taken out), as Duersch, Lambrecht and Oechssler ("Measuring skill and chance in games",
  2020) measure it; "no skill measured" when the Wald test cannot tell any two agents apart
  (p >= 0.05).
* The skill chain (Lantz, Isaksen, Jaffe, Nealen and Togelius, "Depth in strategic games",
  2017): the longest chain of agents each beating the one below it in their direct match, by
  a score of at least ``threshold`` that differs from 1/2 after Holm's correction over the
  direct matches, the winner rated above the loser beyond the difference's 95% interval.
* Transitivity: whether every direct match's score agrees with the one the ratings predict
  (two-sided tests, Holm's correction over the matches).
* The share of chance: the share ``x`` of a reference game's games (without chance, played by
  the same population) that, replaced by coin flips, leaves its ratings the game's dispersion
  (Duersch et al.'s x%-chess). Its interval is a bootstrap over the games of both the game and
  the reference.

Every interval on the dispersion, the chain's length and the share is a percentile bootstrap
over games, match by match (``resamples`` draws); a draw's dispersion has the noise taken
out twice (the sample's and the draw's), so that the draws centre on the estimate.
"""
import numpy as np

from savanna.studies.ratings import Comparisons, fit, mixed
from savanna.studies.significance import ALPHA, holm, score_tests

__all__ = ["measure_skill"]

def _direct(comparisons):
    """Per direct match: ``(stronger a, weaker b, per-game scores of a against b)``."""
    out = []
    for pairs, s in zip(comparisons.pairs, comparisons.scores):
        a, b = pairs[0]
        assert (pairs[:, 0] == a).all() and (pairs[:, 1] == b).all()
        out.append((int(a), int(b), s.mean(axis=1)))
    return out


def _chain(comparisons, ratings, threshold):
    """``(length, agents)``: the longest chain of agents each beating the one below it
    (module docstring), and each match's ``(score, low, high, p, beats)``. ``ratings``: the
    population's ``Fit``; a step also needs the winner rated above the loser beyond the
    difference's 95% interval, so that one lucky match among many agrees with the rest."""
    elo = ratings.elo
    direct = _direct(comparisons)
    tests = score_tests([y for _, _, y in direct], 0.5)
    differ = holm([t[3] for t in tests])
    beats = {}  # (winner, loser)
    rows = []
    for (a, b, _), (mean, low, high, p), significant in zip(direct, tests, differ):
        won = significant and max(mean, 1 - mean) >= threshold
        if won:
            beats[(a, b) if mean > 0.5 else (b, a)] = True
        rows.append((mean, low, high, p, bool(significant), bool(won)))
    order = np.argsort(elo, kind="stable")
    best = {int(i): (0, [int(i)]) for i in order}
    for i in order:  # the longest chain ending at i, from agents rated below it
        for j in order:
            if (int(i), int(j)) not in beats or (
                    elo[i] - elo[j] <= 1.96 * ratings.difference_error(i, j)):
                continue
            length, agents = best[int(j)]
            if length + 1 > best[int(i)][0]:
                best[int(i)] = (length + 1, agents + [int(i)])
    length, agents = max(best.values(), key=lambda item: item[0])
    return length, agents, rows


def _transitivity(comparisons, elo):
    """Each direct match's score against the ratings' prediction: ``(predicted, p)`` per match
    and which differ after Holm's correction."""
    direct = _direct(comparisons)
    predicted = [1 / (1 + 10 ** ((elo[b] - elo[a]) / 400)) for a, b, _ in direct]
    tests = score_tests([y for _, _, y in direct], predicted)
    out = [(float(q), t[3]) for q, t in zip(predicted, tests)]
    return out, holm([p for _, p in out])


def _percentile(values):
    values = np.asarray(values, np.float64)
    return float(np.percentile(values, 2.5)), float(np.percentile(values, 97.5))


def measure_skill(population, matches, threshold, reference=None, resamples=400, seed=0):
    """The skill section of a study (module docstring) as a JSON-ready dict. ``matches``:
    ``(agents, result)`` per direct match, one agent spec per column; ``reference``: the same
    for the reference game, or None."""
    game = Comparisons.of(population, matches)
    whole = fit(game)
    length, longest, rows = _chain(game, whole, threshold)
    predicted, intransitive = _transitivity(game, whole.elo)
    ref = None if reference is None else Comparisons.of(population, reference)
    ref_fit = None if ref is None else fit(ref)
    rng = np.random.default_rng(seed)
    draws = {"dispersion": [], "length": [], "share": []}
    for _ in range(resamples):
        g = game.resampled(rng)
        f = fit(g)
        draws["dispersion"].append(f.debiased(2))
        draws["length"].append(_chain(g, f, threshold)[0])
        if ref is not None:
            draws["share"].append(mixed(ref.resampled(rng), f.debiased(2), noises=2))
    errors = whole.errors
    skill = {
        "population": list(population), "threshold": threshold,
        "ratings": [{"agent": a, "elo": float(e), "elo_ci": (float(e - 1.96 * s),
                                                             float(e + 1.96 * s)),
                     "games": int(sum(len(s_) for p, s_ in zip(game.pairs, game.scores)
                                      if i in p))}
                    for i, (a, e, s) in enumerate(zip(population, whole.elo, errors))],
        "dispersion": whole.dispersion, "dispersion_ci": _percentile(draws["dispersion"]),
        "no_skill_p": whole.no_skill_p,
        "skill_measured": whole.no_skill_p < ALPHA,
        "length": length, "length_ci": _percentile(draws["length"]),
        "longest": [population[i] for i in longest] if length else [],
        "matches": [{"stronger": population[a], "weaker": population[b], "games": len(y),
                     "score": m, "score_ci": (lo, hi), "p": p, "differs": d, "beats": w,
                     "predicted": pr, "off_prediction": bool(off)}
                    for (a, b, y), (m, lo, hi, p, d, w), (pr, _), off
                    in zip(_direct(game), rows, predicted, intransitive)],
        "transitive": not bool(np.any(intransitive)),
        "resamples": resamples,
    }
    if ref is not None:
        skill["reference_dispersion"] = ref_fit.dispersion
        if skill["skill_measured"]:
            skill["chance_share"] = mixed(ref, whole.dispersion, ref_fit)
            skill["chance_share_ci"] = _percentile(draws["share"])
    return skill
