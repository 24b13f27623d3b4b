"""A game review: a search's view of every decision of a recorded game, and the mover's mistakes.

``review(record, agent)`` analyses the position of each decision (ply ``k``: after ``k``
decisions and the chance outcomes that follow them; chance outcomes are no one's decision and
get no row) with ``savanna.agents.play.analysis.analyse`` and the same ``seed`` every time, so
that each row is what ``analyse(game, record.position(k), agent, rng=seed)`` says. From that
one analysis:

* ``value_0 .. value_{P-1}``: each player's value of the position, the root's mean return;
* ``best``: the search's choice, its most visited move; ``best_value``, ``played_value``: the
  mover's mean return through the best move and through the move played;
* ``loss = best_value - played_value``, the value the mover gave up by the move played; 0 when
  it played the best move, negative when the move played (less visited) had the higher mean,
  NaN when the search never tried the move played (more simulations give it a value);
* ``drop``: the same loss as the mover's expected result, its share of the win from 0 to 1
  (``expected_result``: ``(P-1)/P * value + 1/P``, the win probability of a two-player game
  with a draw as half a win), so ``drop = loss * (P-1)/P``;
* ``label``: ``inaccuracy`` when ``drop > threshold``, ``mistake`` above twice it, ``blunder``
  above three times it, else empty (lichess's 10, 20 and 30 points of win probability with the
  default ``threshold`` of 0.1);
* ``line``: the search's best line from the position, its move names joined by ``"; "``
  (a chance outcome in parentheses);
* ``position``: the position before the move, in the game's notation (where to look at it).

``Review.summary()`` counts each player's inaccuracies, mistakes and blunders, its average
drop and its accuracy (lichess's formula from the drop in win probability).

>>> from savanna import make_game
>>> from savanna.agents import make_agent, play_match, review
>>> result = play_match(make_game("zebres"), [make_agent("mcts:sims=50"), make_agent("greedy")],
...                     games=1, seed=0, workers=1, record=True)
>>> r = review(result.records[0], "az:baseline,sims=32", threshold=0.2)
>>> r.marked[["ply", "player", "move", "best", "drop", "label"]]
>>> r.summary()[0]["accuracy"]
>>> r.to_csv("review.csv")
"""
import csv
import io
import math
from dataclasses import dataclass

import numpy as np

from savanna.agents.play.analysis import analyse
from savanna.agents.play.base import describe
from savanna.agents.play.registry import make_agent
from savanna.agents.settings import MAX_SEED
from savanna.agents.tables import html_table
from savanna.errors import check_int, check_range
from savanna.files import atomic_write_text, check_new_file

__all__ = ["DEFAULT_AGENT", "DEFAULT_THRESHOLD", "LABELS", "Review", "expected_result", "review",
           "review_decision"]

DEFAULT_AGENT = "az:baseline,sims=32"
DEFAULT_THRESHOLD = 0.1  # of the mover's expected result, 0..1
LABELS = ("inaccuracy", "mistake", "blunder")  # a drop above 1, 2, 3 times the threshold
PLURALS = {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders"}
LINE = "; "  # between the moves of the best line


@dataclass
class Review:
    """The result of ``review`` (see the module docstring): ``decisions`` holds one row per
    decision reviewed, ``plies`` the record's number of decisions (more while a review runs or
    after it was stopped)."""

    game: str
    agent: str       # the spec of the agent that searched
    seed: int
    threshold: float
    where: str       # the record, as its error messages name it ("FILE line N")
    agents: list     # the record's seats
    plies: int
    decisions: np.ndarray

    @classmethod
    def of(cls, record, game, agent, seed, threshold, rows=()):
        """The review by ``agent`` (its label) of ``record``'s decisions ``rows`` (tuples of
        ``review_decision``) so far."""
        return cls(game.name, agent, seed, threshold, record.where, list(record.agents),
                   record.plies, _array(list(rows), game.num_players))

    @property
    def complete(self):
        """Whether every decision of the record was reviewed."""
        return len(self.decisions) == self.plies

    @property
    def marked(self):
        """The rows of the decisions labelled inaccuracy, mistake or blunder."""
        return self.decisions[self.decisions["label"] != ""]

    def summary(self):
        """One dict per player, of the decisions it made: ``decisions``, its ``inaccuracies``,
        ``mistakes`` and ``blunders``, ``average_drop`` (of its expected result, in points of
        100, a move better than the search's best counted as 0) and ``accuracy`` (0-100, the
        mean of lichess's per-move ``103.1668 * exp(-0.04354 * drop) - 3.1669``); the averages
        leave out moves the search never tried (NaN) and are None without any."""
        out = []
        for p in range(len(self.agents)):
            mine = self.decisions[self.decisions["player"] == p]
            drops = 100 * np.maximum(mine["drop"][np.isfinite(mine["drop"])], 0)
            accuracy = np.clip(103.1668 * np.exp(-0.04354 * drops) - 3.1669, 0, 100)
            out.append({"player": p, "decisions": len(mine),
                        **{PLURALS[name]: int(np.sum(mine["label"] == name)) for name in LABELS},
                        "average_drop": float(drops.mean()) if len(drops) else None,
                        "accuracy": float(accuracy.mean()) if len(drops) else None})
        return out

    def columns(self):
        """The column names, in order (those of ``to_csv``)."""
        return list(self.decisions.dtype.names)

    def to_csv(self, path=None, overwrite=False):
        """The decisions as CSV text (a header line, one line per decision, NaN as ``nan``);
        with ``path``, written there atomically (an existing file only with ``overwrite``)."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(self.columns())
        writer.writerows(self.decisions.tolist())
        if path is None:
            return out.getvalue()
        atomic_write_text(check_new_file(path, overwrite), out.getvalue())
        return path

    def to_json(self):
        """A JSON-ready dict: the settings and one dict per decision (NaN as None)."""
        rows = [dict(zip(self.columns(), (_finite(x) for x in row)))
                for row in self.decisions.tolist()]
        return {"game": self.game, "agent": self.agent, "seed": self.seed,
                "threshold": self.threshold, "agents": self.agents, "plies": self.plies,
                "decisions": rows, "summary": self.summary()}

    def _repr_html_(self):
        """The mistakes as a table (every decision is in ``decisions``)."""
        caption = (f"{self.game}: {len(self.decisions)} of {self.plies} decisions reviewed by "
                   f"{self.agent}; {len(self.marked)} marked (drop > {self.threshold:g})")
        return html_table(caption, self.columns(),
                          [list(map(_text, row)) for row in self.marked.tolist()])


def review(record, agent=DEFAULT_AGENT, *, threshold=DEFAULT_THRESHOLD, seed=0, game=None,
           progress=None, stop=None):
    """Review every decision of ``record`` (a ``savanna.records.Record``) with ``agent`` (a
    search agent or its spec: ``mcts``, ``ppo-mcts``, ``az``); a ``Review``.

    ``game``: the record's game if already built; ``progress(partial)`` is called with the
    ``Review`` so far after each decision; ``stop`` (e.g. a ``threading.Event``) is checked
    before each decision, and once set the review returns what it has. A ValueError for a
    record that does not replay, an agent that does not search, a bad threshold."""
    threshold = float(check_range("threshold", threshold, 0))
    seed = check_int("seed", seed, 0, MAX_SEED)
    game = game or record.game()
    states = record.states(game)
    agent = make_agent(agent) if isinstance(agent, str) else agent
    rows = []
    done = Review.of(record, game, describe(agent), seed, threshold)
    for ply in range(record.plies):
        if stop is not None and stop.is_set():
            break
        k = record.ply_index(ply)
        rows.append(review_decision(game, states[k: k + 1], record.moves[k], agent, seed, ply,
                                    threshold))
        done.decisions = _array(rows, game.num_players)
        if progress is not None:
            progress(done)
    return done


def review_decision(game, row, played, agent, seed, ply, threshold):
    """The tuple of one row of ``decisions``: decision ``ply``, ``played`` (the record's
    move) in state ``row``, as ``agent`` searching with ``seed`` sees it."""
    found = analyse(game, row, agent, rng=seed)
    mover = found.player
    by_action = {r["action"]: r for r in found.rows}
    best = found.rows[0]  # the most visited
    best_value = best[f"value_{mover}"]
    played_value = by_action[played["action"]][f"value_{mover}"]
    loss = best_value - played_value
    drop = (expected_result(best_value, game.num_players)
            - expected_result(played_value, game.num_players))
    return (ply, mover, played["action"], game.action_to_string(row[0], played["action"]),
            best["action"], best["move"], LINE.join(found.pv), *found.values, best_value,
            played_value, loss, drop, label(drop, threshold), found.position)


def expected_result(value, players):
    """A player's mean return ``value`` as its expected share of the win, 0 to 1: returns are
    ``P/(P-1) * (w - 1/P)`` for a win share ``w`` (1 for a sole winner, 0 for a loser).

    >>> expected_result(0.0, 2), expected_result(-0.5, 2), expected_result(1.0, 3)
    (0.5, 0.25, 1.0)
    """
    return (players - 1) / players * value + 1 / players


def label(drop, threshold):
    """``inaccuracy``, ``mistake`` or ``blunder`` for a ``drop`` above 1, 2 or 3 times
    ``threshold``, else ``""`` (also for NaN: a move the search never tried)."""
    over = [k for k in range(len(LABELS)) if drop > (k + 1) * threshold]
    return LABELS[over[-1]] if over else ""


def _array(rows, players):
    """``rows`` as a structured array, its move names as wide as the longest."""
    def wide(*columns):
        return f"U{max([len(r[k]) for r in rows for k in columns] + [1])}"

    text = wide(3, 5)
    return np.array(rows, [("ply", np.int32), ("player", np.int8), ("action", np.int32),
                           ("move", text), ("best_action", np.int32), ("best", text),
                           ("line", wide(6)),
                           *((f"value_{p}", np.float64) for p in range(players)),
                           ("best_value", np.float64), ("played_value", np.float64),
                           ("loss", np.float64), ("drop", np.float64),
                           ("label", "U10"), ("position", wide(-1))])


def _text(x):
    return f"{x:+.3f}" if isinstance(x, float) else str(x)


def _finite(x):
    return x if not isinstance(x, float) or math.isfinite(x) else None
