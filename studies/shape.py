"""The shape of a game, from recorded games and a strong agent's view of each decision (Ludii's
metrics, Browne et al., computed from strong play rather than weak playouts).

* ``play_shape(game, result)``: decisions and chance nodes per game, the branching factor (legal
  moves) in each third of a game's decisions, Ludii's decision moves (the share of decisions
  with more than one legal move), decision factor (the legal moves of those), a game-tree
  complexity estimate (log10 of the product of the legal moves along a game, Shannon's
  estimate from measured play), completion (the share of games not cut by the declared ply
  cap) and the draw rate, each with its sample size and 95% interval; every per-decision
  quantity is first averaged within each game, so that the interval counts games, not
  correlated decisions.
* ``drama(values, winners)``: from each reviewed game's values (``float[plies, P]``, the
  review's curves, ``savanna.agents.play.review``) and its winner: lead changes (how often the
  player with the highest value changes), decisiveness (the share of the game played before
  the eventual winner's value stays highest to the end) and drama (the eventual winner's mean
  deficit behind the leader's value) and stability (the mean change of a player's value from
  one decision to the next: Ludii's stability, small where evaluations hold) and uncertainty
  (the mean over the game's decisions of the eventual winner's distance from a sure win, one
  less its expected result: after Browne's uncertainty, how long the outcome stays open);
  drawn games are left out.
* ``clarity(moves, players)``: from every decision's move values (the mover's value of each
  move the reviewing search tried), Ludii's clarity: narrowness (the share of the moves whose
  value reaches the mean's value plus 3/4 of the way to the best's) and variance (the
  population variance of the moves' values); decisions with fewer than two valued moves have
  no clarity to measure and are left out.
"""
import math

import numpy as np

from savanna.agents.arena.stats import wilson_interval
from savanna.agents.play.review import expected_result
from savanna.studies.significance import score_tests

__all__ = ["NARROW", "PHASES", "clarity", "drama", "play_shape"]

PHASES = ("opening", "middle", "end")  # thirds of a game's decisions
NARROW = 0.75  # Ludii's narrowness: a move counts from the mean plus this share to the best


def _stat(values, low=0.0, high=math.inf):
    """Mean, 95% t interval within the quantity's bounds ``[low, high]``, sample size: the
    values one per game, so that a game's many decisions count once (clustered by game)."""
    values = np.asarray(values, np.float64)
    values = values[np.isfinite(values)]
    if not len(values):
        return {"n": 0, "mean": math.nan, "ci": (math.nan, math.nan)}
    mean, lo, hi, _ = score_tests([values], 0.0, bounds=(low, high))[0]
    return {"n": int(len(values)), "mean": mean, "ci": (lo, hi)}


def play_shape(game, result):
    """Decisions, chance nodes, branching by phase, Ludii's decision moves, decision factor,
    game-tree complexity and completion, and draws of the recorded ``result``, each per game
    then averaged over games."""
    branching = [[] for _ in PHASES]
    chance_nodes, decision_share, decision_factor, complexity = [], [], [], []
    for record in result.records:
        states = record.states(game)
        decisions = [k for k, move in enumerate(record.moves) if "action" in move]
        chance_nodes.append(len(record.moves) - len(decisions))
        legal = game.legal_mask(states[decisions]).sum(axis=1)
        phase = len(PHASES) * np.arange(len(legal)) // max(len(legal), 1)
        for k in range(len(PHASES)):
            branching[k].append(legal[phase == k].mean() if (phase == k).any() else math.nan)
        choices = legal[legal > 1]
        decision_share.append(len(choices) / max(len(legal), 1))
        decision_factor.append(choices.mean() if len(choices) else math.nan)
        complexity.append(float(np.log10(legal).sum()))
    _, draws, _ = result.outcomes()
    drawn = int(draws.any(axis=1).sum())
    cut = int((np.asarray(result.plies) >= game.max_plies).sum())
    n = result.games
    return {"decisions": _stat(result.plies), "chance_nodes": _stat(chance_nodes),
            "branching": {p: _stat(b, 1.0) for p, b in zip(PHASES, branching)},
            "decision_moves": _stat(decision_share, 0.0, 1.0),
            "decision_factor": _stat(decision_factor, 2.0),
            "complexity": _stat(complexity),
            "completion": {"n": n, "mean": 1 - cut / n, "ci": wilson_interval(1 - cut / n, n)},
            "draw_rate": {"n": n, "mean": drawn / n, "ci": wilson_interval(drawn / n, n)}}


def drama(values, winners):
    """Lead changes, decisiveness, drama, stability and uncertainty of reviewed games (module
    docstring)."""
    changes, decided, deficit, stability, uncertainty = [], [], [], [], []
    for v, winner in zip(values, winners):
        if winner < 0 or not len(v):
            continue
        uncertainty.append(float((1 - expected_result(v[:, winner], v.shape[1])).mean()))
        leader = v.argmax(axis=1)
        changes.append(int((leader[1:] != leader[:-1]).sum()))
        ahead = v[:, winner] >= v.max(axis=1) - 1e-12
        behind = np.flatnonzero(~ahead)
        decided.append((behind[-1] + 1) / len(v) if len(behind) else 0.0)
        deficit.append(float((v.max(axis=1) - v[:, winner]).mean()))
        stability.append(float(np.abs(np.diff(v, axis=0)).mean()) if len(v) > 1 else 0.0)
    return {"games": len(changes), "lead_changes": _stat(changes),
            "decided_at": _stat(decided, 0.0, 1.0), "drama": _stat(deficit),
            "stability": _stat(stability), "uncertainty": _stat(uncertainty, 0.0, 1.0)}


def clarity(moves, players):
    """Ludii's clarity narrowness and variance of reviewed games (module docstring):
    ``moves`` holds, per game, one list per decision of the mover's values of its moves."""
    narrowness, variance = [], []
    for game in moves:
        shares, spreads = [], []
        for v in map(np.asarray, game):
            if len(v) < 2:
                continue
            mean = v.mean()
            shares.append(float((v >= mean + NARROW * (v.max() - mean) - 1e-12).mean()))
            spreads.append(float(v.var()))
        narrowness.append(np.mean(shares) if shares else math.nan)
        variance.append(np.mean(spreads) if spreads else math.nan)
    # values lie within [-1/(P-1), 1]: their variance within a quarter of that width squared
    widest = (players / (players - 1) / 2) ** 2
    return {"clarity_narrowness": _stat(narrowness, 0.0, 1.0),
            "clarity_variance": _stat(variance, 0.0, widest)}
