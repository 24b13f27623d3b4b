"""The shape of a game, from recorded games and a strong agent's view of each decision (Ludii's
metrics, Browne et al., computed from strong play rather than weak playouts).

* ``play_shape(game, result)``: decisions and chance nodes per game, the branching factor (legal
  moves) in each third of a game's decisions, the draw rate, each with its sample size and 95%
  interval, from a recorded match.
* ``drama(values, winners)``: from each reviewed game's values (``float[plies, P]``, the
  review's curves, ``savanna.agents.play.review``) and its winner: lead changes (how often the
  player with the highest value changes), decisiveness (the share of the game played before
  the eventual winner's value stays highest to the end) and drama (the eventual winner's mean
  deficit behind the leader's value); drawn games are left out.
"""
import numpy as np

from savanna.agents.arena.stats import wilson_interval
from savanna.agents.study.balance import mean_interval

__all__ = ["PHASES", "drama", "play_shape"]

PHASES = ("opening", "middle", "end")  # thirds of a game's decisions


def _stat(values):
    mean, low, high = mean_interval(values)
    return {"n": int(len(values)), "mean": mean, "ci": (low, high)}


def play_shape(game, result):
    """Decisions, chance nodes, branching by phase and draws of the recorded ``result``."""
    branching = [[] for _ in PHASES]
    chance_nodes = []
    for record in result.records:
        states = record.states(game)
        decisions = [k for k, move in enumerate(record.moves) if "action" in move]
        chance_nodes.append(len(record.moves) - len(decisions))
        legal = game.legal_mask(states[decisions]).sum(axis=1)
        for j, count in enumerate(legal):
            branching[len(PHASES) * j // len(decisions)].append(count)
    _, draws, _ = result.outcomes()
    drawn = int(draws.any(axis=1).sum())
    return {"decisions": _stat(result.plies), "chance_nodes": _stat(chance_nodes),
            "branching": {phase: _stat(b) for phase, b in zip(PHASES, branching)},
            "draw_rate": {"n": result.games, "mean": drawn / result.games,
                          "ci": wilson_interval(drawn / result.games, result.games)}}


def drama(values, winners):
    """Lead changes, decisiveness and drama of reviewed games (module docstring)."""
    changes, decided, deficit = [], [], []
    for v, winner in zip(values, winners):
        if winner < 0 or not len(v):
            continue
        leader = v.argmax(axis=1)
        changes.append(int((leader[1:] != leader[:-1]).sum()))
        ahead = v[:, winner] >= v.max(axis=1) - 1e-12
        behind = np.flatnonzero(~ahead)
        decided.append((behind[-1] + 1) / len(v) if len(behind) else 0.0)
        deficit.append(float((v.max(axis=1) - v[:, winner]).mean()))
    return {"games": len(changes), "lead_changes": _stat(changes),
            "decided_at": _stat(decided), "drama": _stat(deficit)}
