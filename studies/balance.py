"""Seat balance: how each seat fares when the same agent sits in every seat.

``seat_rows(result)`` turns a match of identical agents (``savanna.agents.arena.matches``, seats
rotated) into one row per seat: games, win, draw and loss rates with 95% Wilson intervals, the
pairwise score (draws half; 1/2 is even) with its interval and the two-sided p-value of its
being 1/2 (a t test over the games), and the mean points with a 95% normal interval where the
game keeps scores. With P players an even seat wins 1/P of the games less its share of the
draws (``even``, the row's own even line). ``mark_findings(variants)`` applies Holm's
correction over every seat row of a study: a seat differs from even only where it survives.
"""
import math

import numpy as np

from savanna.agents.arena.stats import Z95, wilson_interval
from savanna.studies.significance import holm, score_tests

__all__ = ["by_seat", "mark_findings", "mean_interval", "seat_rows"]


def by_seat(result, values):
    """``values[G, P]`` (one column per agent of ``result``) re-ordered by seat."""
    agent_at = np.argsort(result.seats, axis=1)  # agent_at[g, seat]
    return np.take_along_axis(values, agent_at, axis=1)


def mean_interval(values):
    """``(mean, low, high)``: the mean of ``values`` and its 95% normal interval."""
    values = np.asarray(values, np.float64)
    n = len(values)
    mean = float(values.mean()) if n else math.nan
    half = Z95 * float(values.std(ddof=1)) / math.sqrt(n) if n > 1 else math.inf
    return mean, mean - half, mean + half


def seat_rows(result):
    """One dict per seat of a match of identical agents (module docstring)."""
    wins, draws, losses = (by_seat(result, x) for x in result.outcomes())
    scores = by_seat(result, result.scores())
    points = None if result.points is None else by_seat(result, result.points)
    n = result.games
    rows = []
    for seat in range(result.seats.shape[1]):
        row = {"seat": seat, "games": n}
        for rate, hits in (("win", wins), ("draw", draws), ("loss", losses)):
            k = int(hits[:, seat].sum())
            row[rate + "_rate"] = k / n
            row[rate + "_ci"] = wilson_interval(k / n, n)
        row["score"] = float(scores[:, seat].mean())
        row["score_ci"] = wilson_interval(row["score"], n)
        row["p"] = score_tests([scores[:, seat]], 0.5)[0][3]
        row["even"] = (1 - row["draw_rate"]) / len(result.agents)
        if points is not None:
            mean, low, high = mean_interval(points[:, seat])
            row["points"], row["points_ci"] = mean, (low, high)
        rows.append(row)
    return rows


def mark_findings(variants):
    """Holm's correction over every seat row of ``variants`` (a study's measured dicts) whose
    games differ (a deterministic agent's repeated game is no sample): each such row gets
    ``finding`` (its score differs from 1/2 after the correction); the number of rows tested."""
    rows = [seat for v in variants for b in v["balance"] if b["distinct"] > 1
            for seat in b["seats"]]
    for row, differs in zip(rows, holm([row["p"] for row in rows])):
        row["finding"] = bool(differs)
    return len(rows)
