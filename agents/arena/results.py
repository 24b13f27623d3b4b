"""What a match or a tournament leaves: ``MatchResult`` and ``TournamentResult``
(``savanna.agents.arena.matches`` plays them), their summaries, text tables, notebook HTML
and files (JSON
and CSV, each written atomically into a new or empty folder)."""
import json
import math
from dataclasses import dataclass, field

import numpy as np

from savanna.agents.arena.stats import Z95, elo_from_score, pair_scores, wilson_interval
from savanna.agents.html_tables import html_table
from savanna.files import atomic_write_text, output_folder, write_csv
from savanna.records import write_records

__all__ = ["RECORDS_FILE", "MatchResult", "TournamentResult"]

RECORDS_FILE = "records.jsonl"


@dataclass
class MatchResult:
    """The record of a match: per game, each agent's seat, return and final points.

    Column ``j`` of every array belongs to ``agents[j]``; ``points`` (the game's own scores at
    the end, ``game.scores``) is None for a game without scores.
    """

    game: str
    agents: list
    settings: list
    seed: int
    seats: np.ndarray
    returns: np.ndarray
    plies: np.ndarray
    points: np.ndarray | None = None  # None: the game declares no scores
    seconds: float = 0.0
    metadata: dict | None = None  # savanna.metadata.run_metadata(game)
    records: list | None = None  # every game's savanna.records.Record, when recorded
    seconds_per_decision: np.ndarray | None = None  # each agent's mean time in act() per move
    labels: list = field(init=False)

    def __post_init__(self):
        self.labels = _unique_labels(self.agents)

    @property
    def games(self):
        return len(self.returns)

    def outcomes(self):
        """Bool arrays ``(wins, draws, losses)`` of shape ``[G, P]``."""
        best = self.returns.max(axis=1, keepdims=True)
        top = self.returns == best
        shared = top.sum(axis=1, keepdims=True) > 1
        return top & ~shared, top & shared, ~top

    def scores(self):
        """``float[G, P]``: each agent's pairwise score in each game, averaged over opponents."""
        p = self.returns.shape[1]
        return (pair_scores(self.returns).sum(axis=2) - 0.5) / max(p - 1, 1)

    def summary(self):
        """One dict per agent: counts, rates with 95% intervals, score, Elo, mean return."""
        n = self.games
        wins, draws, losses = self.outcomes()
        score = self.scores().mean(axis=0)
        rows = []
        for j, label in enumerate(self.labels):
            row = {"agent": label, "settings": self.settings[j], "games": n}
            for name, rate, hits in (("wins", "win", wins), ("draws", "draw", draws),
                                     ("losses", "loss", losses)):
                k = int(hits[:, j].sum())
                row[name] = k
                row[rate + "_rate"] = k / n
                row[rate + "_ci"] = wilson_interval(k / n, n)
            row["score"] = float(score[j])
            row["score_ci"] = wilson_interval(float(score[j]), n)
            row["elo"] = elo_from_score(row["score"])
            row["elo_ci"] = tuple(elo_from_score(x) for x in row["score_ci"])
            row["mean_return"] = float(self.returns[:, j].mean())
            if self.points is not None:
                row["mean_points"] = float(self.points[:, j].mean())
            if self.seconds_per_decision is not None:
                row["seconds_per_decision"] = float(self.seconds_per_decision[j])
            rows.append(row)
        return rows

    def elo_difference(self):
        """``(elo, low, high)``: agent 0's Elo minus agent 1's (two-agent matches)."""
        row = self.summary()[0]
        return (row["elo"], *row["elo_ci"])

    def table(self):
        """A readable text table of the match."""
        p = len(self.agents)
        lines = [f"{self.game}: {self.games} games, seats rotated, seed {self.seed}, "
                 f"{self.seconds:.1f} s, {self.plies.mean():.1f} decisions per game"]
        width = max(len("agent"), *(len(x) for x in self.labels))
        has_points = self.points is not None
        timed = self.seconds_per_decision is not None
        lines.append(f"{'agent':<{width}}  {'wins':>20}  {'draws':>20}  {'losses':>20}  "
                     f"{'score':>6}" + ("  points" if has_points else "")
                     + ("  ms/move" if timed else ""))
        for row in self.summary():
            cells = [f"{row[k + '_rate']:6.1%} [{row[k + '_ci'][0]:5.1%},{row[k + '_ci'][1]:6.1%}]"
                     for k in ("win", "draw", "loss")]
            lines.append(f"{row['agent']:<{width}}  " + "  ".join(f"{c:>20}" for c in cells)
                         + f"  {row['score']:6.1%}"
                         + (f"  {row['mean_points']:6.1f}" if has_points else "")
                         + (f"  {1e3 * row['seconds_per_decision']:7.2f}" if timed else ""))
        if p == 2:
            elo, low, high = self.elo_difference()
            lines.append(f"Elo difference ({self.labels[0]} - {self.labels[1]}): "
                         f"{_signed(elo)} [{_signed(low)}, {_signed(high)}] (95%)")
        else:
            lines.append("Elo against the field: " + ", ".join(
                f"{r['agent']} {_signed(r['elo'])} [{_signed(r['elo_ci'][0])}, "
                f"{_signed(r['elo_ci'][1])}]" for r in self.summary()))
        return "\n".join(lines)

    def _repr_html_(self):
        """The summary as an HTML table, for notebooks (the numbers of ``table``)."""
        has_points = self.points is not None
        head = ["agent", "wins", "draws", "losses", "score", "Elo"] + ["points"] * has_points
        rows = []
        for row in self.summary():
            low, high = row["elo_ci"]
            rows.append([row["agent"]] + [
                f"{row[k + '_rate']:.1%} [{row[k + '_ci'][0]:.1%}, {row[k + '_ci'][1]:.1%}]"
                for k in ("win", "draw", "loss")] + [
                f"{row['score']:.1%}", f"{_signed(row['elo'])} [{_signed(low)}, {_signed(high)}]"
            ] + ([f"{row['mean_points']:.1f}"] if has_points else []))
        return html_table(self.table().splitlines()[0], head, rows)

    def to_json(self):
        """A JSON-ready dict: the match, its summary and every game."""
        summary = [{k: _jsonable(v) for k, v in row.items()} for row in self.summary()]
        return {
            "game": self.game, "agents": self.agents, "seed": self.seed, "games": self.games,
            "seconds": self.seconds, "metadata": self.metadata, "summary": summary,
            "per_game": {"seats": self.seats.tolist(), "returns": self.returns.tolist(),
                         "plies": self.plies.tolist(),
                         "points": None if self.points is None else self.points.tolist()},
        }

    def save(self, directory, overwrite=False):
        """Write ``match.json``, ``summary.csv`` (one row per agent), ``games.csv`` (one row
        per game) and, when the games were recorded, ``records.jsonl`` (one game record per
        line, ``savanna.records``) into ``directory``, each atomically; returns its path. A
        folder that already holds files is refused unless ``overwrite``
        (``savanna.files.output_folder``)."""
        out = output_folder(directory, overwrite)
        atomic_write_text(out / "match.json", json.dumps(self.to_json(), indent=1))
        if self.records is not None:
            write_records(out / RECORDS_FILE, self.records, overwrite=True)
        summary = self.summary()
        write_csv(out / "summary.csv", [_flat_row(r) for r in summary])
        rows = []
        for g in range(self.games):
            row = {"game": g, "plies": int(self.plies[g])}
            for j in range(len(self.agents)):
                row[f"seat_{j}"] = int(self.seats[g, j])
                row[f"return_{j}"] = float(self.returns[g, j])
                if self.points is not None:
                    row[f"points_{j}"] = float(self.points[g, j])
            rows.append(row)
        write_csv(out / "games.csv", rows)
        return out


@dataclass
class TournamentResult:
    """Every match of a round robin, the pairwise score table and the fitted Elo ratings."""

    game: str
    agents: list
    matches: list          # (member indices, MatchResult)
    pair_score: np.ndarray  # [N, N] summed pairwise score of i against j
    pair_games: np.ndarray  # [N, N] pairwise comparisons of i with j
    ratings: np.ndarray
    errors: np.ndarray      # standard errors of the ratings
    metadata: dict | None = None  # savanna.metadata.run_metadata(game)

    @property
    def records(self):
        """Every recorded game of every match, in match order (None when not recorded)."""
        if any(r.records is None for _, r in self.matches):
            return None
        return [record for _, r in self.matches for record in r.records]

    @property
    def labels(self):
        return _unique_labels(self.agents)

    def ranking(self):
        """Rows sorted by rating: agent, elo, 95% half-width, games, score."""
        games = self.pair_games.sum(axis=1)
        scored = self.pair_score.sum(axis=1)
        order = np.argsort(-self.ratings, kind="stable")
        return [{"rank": r + 1, "agent": self.labels[i], "elo": float(self.ratings[i]),
                 "elo_ci95": float(Z95 * self.errors[i]), "games": int(games[i]),
                 "score": float(scored[i] / games[i]) if games[i] else math.nan}
                for r, i in enumerate(order)]

    def table(self):
        """The ratings table, then the pairwise score of each row agent against each column."""
        width = max(len("agent"), *(len(x) for x in self.labels))
        lines = [f"{self.game} round robin: {len(self.agents)} agents, "
                 f"{len(self.matches)} matches", f"rank  {'agent':<{width}}  {'Elo':>6}  "
                 f"{'95% CI':>7}  {'games':>6}  {'score':>6}"]
        for row in self.ranking():
            lines.append(f"{row['rank']:>4}  {row['agent']:<{width}}  {row['elo']:+6.0f}  "
                         f"{'±' + format(row['elo_ci95'], '.0f'):>7}  {row['games']:>6}  "
                         f"{row['score']:6.1%}")
        lines.append("")
        lines.append("score of row against column:")
        lines.append(" " * (width + 2) + "  ".join(f"{j:>6}" for j in range(len(self.agents))))
        for i, label in enumerate(self.labels):
            cells = ["" if self.pair_games[i, j] == 0 else
                     f"{self.pair_score[i, j] / self.pair_games[i, j]:.0%}"
                     for j in range(len(self.agents))]
            lines.append(f"{label:<{width}}  " + "  ".join(f"{c:>6}" for c in cells)
                         + f"   ({i})")
        return "\n".join(lines)

    def _repr_html_(self):
        """The ratings as an HTML table, for notebooks (the first part of ``table``)."""
        rows = [[str(r["rank"]), r["agent"], f"{r['elo']:+.0f}", f"±{r['elo_ci95']:.0f}",
                 str(r["games"]), f"{r['score']:.1%}"] for r in self.ranking()]
        return html_table(self.table().splitlines()[0],
                           ["rank", "agent", "Elo", "95% CI", "games", "score"], rows)

    def save(self, directory, overwrite=False):
        """Write ``tournament.json``, ``ratings.csv``, ``pairs.csv`` and, when the games were
        recorded, ``records.jsonl`` into ``directory`` as ``MatchResult.save`` does; returns
        its path."""
        out = output_folder(directory, overwrite)
        if self.records is not None:
            write_records(out / RECORDS_FILE, self.records, overwrite=True)
        data = {"game": self.game, "agents": self.agents, "metadata": self.metadata,
                "ratings": self.ranking(),
                "pair_score": self.pair_score.tolist(), "pair_games": self.pair_games.tolist(),
                "matches": [{"members": list(m), **r.to_json()} for m, r in self.matches]}
        atomic_write_text(out / "tournament.json", json.dumps(data, indent=1))
        write_csv(out / "ratings.csv", self.ranking())
        write_csv(out / "pairs.csv", [
            {"agent": self.labels[i], "opponent": self.labels[j],
             "games": int(self.pair_games[i, j]), "score": float(self.pair_score[i, j])}
            for i in range(len(self.agents)) for j in range(len(self.agents))
            if self.pair_games[i, j]])
        return out


# ----- helpers ----------------------------------------------------------------------------------
def _unique_labels(labels):
    """Labels, numbered where two agents share one (``random #0``, ``random #1``)."""
    return [f"{x} #{j}" if labels.count(x) > 1 else x for j, x in enumerate(labels)]


def _jsonable(value):
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, float):
        return _finite(value)
    return value


def _flat_row(row):
    """A summary row for CSV: intervals split into low/high columns, settings as JSON."""
    flat = {}
    for key, value in row.items():
        if isinstance(value, tuple):
            flat[key + "_low"], flat[key + "_high"] = (_finite(v) for v in value)
        elif isinstance(value, dict):
            flat[key] = json.dumps(value)
        else:
            flat[key] = _finite(value) if isinstance(value, float) else value
    return flat


def _finite(x):
    """JSON has no infinity: non-finite floats become None."""
    return float(x) if math.isfinite(x) else None


def _signed(x, digits=0):
    if not math.isfinite(x):
        return "+inf" if x > 0 else "-inf"
    return f"{x:+.{digits}f}"
