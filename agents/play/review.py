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
  it played the best move, negative when the move played (less visited) had the higher mean;
  a move the search never tried gets its value from a search of the position after it
  (``savanna.agents.play.analysis.move_value``, chance there drawn ``CHANCE_DRAWS`` times and
  averaged): left out, as they were, they were a sixth of the moves in Bonobo Beach;
* ``drop``: the same loss as the mover's expected result, its share of the win from 0 to 1
  (``expected_result``: ``(P-1)/P * value + 1/P``, the win probability of a two-player game
  with a draw as half a win), so ``drop = loss * (P-1)/P``;
* ``confirmed_drop``: where ``drop > threshold``, the mean drop that ``repeats`` searches
  ``confirm`` times deeper (``deeper``, each with its own seed, so chance and hidden cards
  redrawn) find, else NaN; ``sure``: how sure they are of it, the normal chance that the drop
  is above the threshold given the standard error of their mean (the larger of the one their
  spread measures and Bhatia and Davis's bound on the variance of returns within [lo, hi]);
* ``label``: ``inaccuracy`` when ``confirmed_drop > threshold``, ``mistake`` above twice it,
  ``blunder`` above three times it, else empty (lichess's 10, 20 and 30 points of win
  probability with the default ``threshold`` of 0.1), and only where another such search would
  find the drop above the threshold too with a chance of 90% (``PREDICTION``: the one-sided
  prediction bound from the searches' mean and spread, Student's t; for a search without
  randomness, whose repeats agree, the mean itself): a mark only where the deeper searches
  find the drop beyond their own noise (with ``confirm=0``, wherever ``drop`` passes). One
  search alone marked moves that a search four times deeper did not find a quarter to a third
  of the time, and in Banjooli's dice and hidden cards one confirming search was not enough
  (the records guide measures it);
* ``line``: the search's best line from the position, its move names joined by ``"; "``
  (a chance outcome in parentheses);
* ``position``: the position before the move, in the game's notation (where to look at it).

``Review.summary()`` counts each player's inaccuracies, mistakes and blunders, its average
drop (of every move, negative drops included) and its accuracy (lichess's formula from the
drop in win probability, of the marked drops) with a bootstrap interval;
``savanna.agents.play.review_scores`` scores agents over many reviews, and on the same
positions.

>>> from savanna import make_game
>>> from savanna.agents import make_agent, play_match, review
>>> result = play_match(make_game("zebres"), [make_agent("mcts:sims=50"), make_agent("greedy")],
...                     games=1, seed=0, workers=1, record=True)
>>> r = review(result.records[0], "az:baseline,sims=128", threshold=0.2)
>>> r.marked[["ply", "player", "move", "best", "drop", "label"]]
>>> r.summary()[0]["accuracy"]
>>> r.to_csv("review.csv")
"""
import copy
import csv
import io
import math
from dataclasses import dataclass

import numpy as np

from savanna.agents.html_tables import html_table
from savanna.agents.play.base import describe
from savanna.agents.play.registry import make_agent
from savanna.agents.settings import MAX_SEED
from savanna.errors import check_int, check_range
from savanna.files import atomic_write_text, check_new_file

__all__ = ["DEFAULT_AGENT", "DEFAULT_CONFIRM", "DEFAULT_THRESHOLD", "FALLBACK_AGENT", "LABELS",
           "Review", "bootstrap_interval", "deeper", "default_agent", "default_reviewer",
           "expected_result", "move_accuracy", "move_values", "review", "review_decision"]

DEFAULT_AGENT = "az:baseline,sims=128"  # chosen by measurement (the records guide)
# where the shipped network's search marks too little that a deeper one confirms (the guide)
REVIEWERS = {"banjooli": "mcts:sims=400"}
FALLBACK_AGENT = "mcts:sims=400"  # the reviewer of a game without a shipped baseline
DEFAULT_THRESHOLD = 0.1  # of the mover's expected result, 0..1
DEFAULT_CONFIRM = 4  # a confirming search's simulations, times the reviewing agent's
DEFAULT_REPEATS = 3  # confirming searches, each with its own seed: their spread is the noise
PREDICTION = 0.9  # a mark needs this chance that another confirming search finds it too
MAX_REPEATS = 16
MAX_CONFIRM = 64
CHANCE_DRAWS = 4  # chance outcomes averaged in the value of a move the search never tried
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
    confirm: int = DEFAULT_CONFIRM  # how many times deeper the confirming search is (0: none)
    repeats: int = DEFAULT_REPEATS  # how many confirming searches, each with its own seed

    @classmethod
    def of(cls, record, game, agent, seed, threshold, rows=(), confirm=DEFAULT_CONFIRM,
           repeats=DEFAULT_REPEATS):
        """The review by ``agent`` (its label) of ``record``'s decisions ``rows`` (tuples of
        ``review_decision``) so far."""
        return cls(game.name, agent, seed, threshold, record.where, list(record.agents),
                   record.plies, _array(list(rows), game.num_players), confirm, repeats)

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
        ``mistakes`` and ``blunders`` (the marks shown), ``average_drop`` (of its expected
        result, in points of 100, the mean over its decisions of each move's drop as the
        review measured it best: the confirming searches' mean where they ran, else the first
        search's; a move that looked better than the search's best counts negative, so that
        the searches' noise cancels in the mean rather than adding up), ``accuracy`` (0-100,
        the mean of lichess's per-move accuracy ``103.1668 * exp(-0.04354 * drop) - 3.1669``
        where ``drop`` is the marked drop, 0 for a move not marked) and
        ``accuracy_interval`` (its 95% percentile bootstrap over the player's decisions, None
        below two); None without any decision. Only marked drops count in the accuracy:
        below the threshold, or not confirmed, a drop is within the search's noise, and
        counting it ranked random clicks in Zèbres near a search's play."""
        out = []
        for p in range(len(self.agents)):
            mine = self.decisions[self.decisions["player"] == p]
            accuracy = move_accuracy(100 * self.marked_drops(mine))
            drops = 100 * self.measured_drops(mine)
            out.append({"player": p, "decisions": len(mine),
                        **{PLURALS[name]: int(np.sum(mine["label"] == name)) for name in LABELS},
                        "average_drop": float(drops.mean()) if len(mine) else None,
                        "accuracy": float(accuracy.mean()) if len(mine) else None,
                        "accuracy_interval": _listed(bootstrap_interval(accuracy,
                                                                        rng=self.seed))})
        return out

    def marked_drops(self, rows=None):
        """The drop each decision of ``rows`` (default: all) is marked with: the confirming
        search's (the first search's with ``confirm=0``) where it is marked, else 0."""
        rows = self.decisions if rows is None else rows
        shown = rows["confirmed_drop"] if self.confirm else rows["drop"]
        return np.where(rows["label"] != "", shown, 0.0)

    def measured_drops(self, rows=None):
        """Each decision's drop as the review measured it best: the confirming searches' mean
        where they ran, else the first search's."""
        rows = self.decisions if rows is None else rows
        return np.where(np.isnan(rows["confirmed_drop"]), rows["drop"], rows["confirmed_drop"])

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
                "threshold": self.threshold, "confirm": self.confirm, "repeats": self.repeats,
                "agents": self.agents,
                "plies": self.plies,
                "decisions": rows, "summary": self.summary()}

    def _repr_html_(self):
        """The mistakes as a table (every decision is in ``decisions``)."""
        confirmed = f" confirmed {self.confirm}x deeper" if self.confirm else ""
        caption = (f"{self.game}: {len(self.decisions)} of {self.plies} decisions reviewed by "
                   f"{self.agent}; {len(self.marked)} marked (drop > {self.threshold:g}"
                   f"{confirmed})")
        return html_table(caption, self.columns(),
                          [list(map(_text, row)) for row in self.marked.tolist()])






def default_agent(name):
    """The reviewer of the game ``name`` chosen by measurement (the records guide):
    ``mcts:sims=400`` in Banjooli, where the shipped network's values are too noisy for its
    marks to be confirmed, else ``DEFAULT_AGENT``."""
    return REVIEWERS.get(name, DEFAULT_AGENT)


def default_reviewer(game):
    """The reviewer of ``game`` when none is asked for: ``default_agent`` where the shipped
    AlphaZero baseline of the game and its player count exists, else ``FALLBACK_AGENT`` (MCTS,
    which every game has; a plug-in game ships no baseline). The AlphaZero agent is imported
    here: it loads torch, which the command line's other commands never need."""
    from savanna.agents.play.az_agent import baseline_path

    try:
        baseline_path(game)
    except ValueError:
        return FALLBACK_AGENT
    return default_agent(game.name)








def bootstrap_interval(values, statistic=np.mean, level=0.95, resamples=4000, rng=None):
    """The percentile bootstrap interval of ``statistic`` (called with an array and ``axis``;
    the mean by default) of ``values``: ``level`` of the statistics of ``resamples`` draws with
    replacement. A mean lies within the values' own range, so a bounded quantity gets a
    bounded interval; None for fewer than two values."""
    values = np.asarray(values, np.float64)
    if len(values) < 2:
        return None
    rng = np.random.default_rng(rng)
    draws = values[rng.integers(len(values), size=(resamples, len(values)))]
    found = statistic(draws, axis=1)
    tail = (1 - level) / 2
    low, high = np.quantile(found, [tail, 1 - tail])
    return float(low), float(high)


def move_accuracy(drops):
    """lichess's accuracy of a move, 0-100, from its ``drops`` in points of 100 of win
    probability (here of the expected result): ``103.1668 * exp(-0.04354 * drop) - 3.1669``."""
    return np.clip(103.1668 * np.exp(-0.04354 * np.asarray(drops)) - 3.1669, 0, 100)


def review(record, agent=DEFAULT_AGENT, *, threshold=DEFAULT_THRESHOLD, seed=0, game=None,
           progress=None, stop=None, confirm=DEFAULT_CONFIRM, repeats=DEFAULT_REPEATS):
    """Review every decision of ``record`` (a ``savanna.records.Record``) with ``agent`` (a
    search agent or its spec: ``mcts``, ``ppo-mcts``, ``az``); a ``Review``.

    ``game``: the record's game if already built; ``progress(partial)`` is called with the
    ``Review`` so far after each decision; ``stop`` (e.g. a ``threading.Event``) is checked
    before each decision, and once set the review returns what it has; ``confirm``: how many
    times deeper the searches are that confirm a mark (0: none, every drop above the threshold
    marked), ``repeats``: how many of them, each with its own seed. A ValueError for a record
    that does not replay, an agent that does not search, a bad threshold, confirm or
    repeats."""
    threshold = float(check_range("threshold", threshold, 0))
    seed = check_int("seed", seed, 0, MAX_SEED)
    confirm = check_int("confirm", confirm, 0, MAX_CONFIRM)
    repeats = check_int("repeats", repeats, 1, MAX_REPEATS)
    game = game or record.game()
    states = record.states(game)
    agent = make_agent(agent) if isinstance(agent, str) else agent
    rows = []
    done = Review.of(record, game, describe(agent), seed, threshold, confirm=confirm,
                     repeats=repeats)
    for ply in range(record.plies):
        if stop is not None and stop.is_set():
            break
        k = record.ply_index(ply)
        rows.append(review_decision(game, states[k: k + 1], record.moves[k], agent, seed, ply,
                                    threshold, confirm, repeats))
        done.decisions = _array(rows, game.num_players)
        if progress is not None:
            progress(done)
    return done


def review_decision(game, row, played, agent, seed, ply, threshold, confirm=DEFAULT_CONFIRM,
                    repeats=DEFAULT_REPEATS):
    """The tuple of one row of ``decisions``: decision ``ply``, ``played`` (the record's
    move) in state ``row``, as ``agent`` searching with ``seed`` sees it; a drop above
    ``threshold`` searched again by ``repeats`` searches ``deeper(agent, confirm)`` (none with
    ``confirm=0``), each with its own seed."""
    # here: the search loads numba, which the review command's help does without
    from savanna.agents.play.analysis import analyse

    found = analyse(game, row, agent, rng=seed)
    mover, share = found.player, (game.num_players - 1) / game.num_players
    best = found.rows[0]  # the most visited
    action = played["action"]
    best_value, played_value, _ = move_values(game, row, found, action, agent, (seed, 1))
    loss = best_value - played_value
    drop = loss * share  # of the mover's expected result (expected_result is linear)
    confirmed, sure, shown = math.nan, math.nan, ""
    if not confirm:
        shown = label(drop, threshold)
    elif drop > threshold:
        confirmed, low, error = _confirm(game, row, action, deeper(agent, confirm), seed, repeats)
        confirmed, low, error = confirmed * share, low * share, error * share
        sure = _sure(confirmed, error, threshold)
        shown = label(confirmed, threshold) if low > threshold else ""
    return (ply, mover, action, game.action_to_string(row[0], action), best["action"],
            best["move"], LINE.join(found.pv), *found.values, best_value, played_value, loss,
            drop, shown, found.position, confirmed, sure)


def _confirm(game, row, action, deep, seed, repeats):
    """The mover's loss by ``action`` as ``repeats`` searches by ``deep`` find it, each with
    its own seed (chance and hidden cards redrawn): their mean; the loss that another such
    search finds above with chance ``PREDICTION``, the one-sided prediction bound from their
    mean and spread (Student's t; the mean itself for one search, or for a search without
    randomness, which finds the same loss every time); and the standard error of the mean
    (the larger of the measured one and Bhatia and Davis's bound)."""
    from scipy import stats

    from savanna.agents.play.analysis import analyse

    losses, bounds = [], []
    for j in range(repeats):
        found = analyse(game, row, deep, rng=np.random.default_rng((seed, 2, j)))
        best_value, played_value, bound = move_values(game, row, found, action, deep,
                                                       (seed, 3, j))
        losses.append(best_value - played_value)
        bounds.append(bound)
    n, mean = len(losses), float(np.mean(losses))
    noise = float(np.std(losses, ddof=1)) if n > 1 else 0.0
    low = mean - (stats.t.ppf(PREDICTION, n - 1) * noise * math.sqrt(1 + 1 / n) if noise else 0)
    return mean, low, max(noise, float(np.mean(bounds))) / math.sqrt(n)


def deeper(agent, factor):
    """A copy of the search agent ``agent`` that searches ``factor`` times as many
    simulations (or ``factor`` times as long, with a time budget)."""
    out = copy.copy(agent)
    out.sims = agent.sims * factor
    if getattr(agent, "time_budget", None) is not None:
        out.time_budget = agent.time_budget * factor
    return out


def move_values(game, row, found, action, agent, stream):
    """The mover's value of ``found``'s best move and of ``action``, and the standard error
    bound of their difference: ``found``'s mean return through the move, or, for a move it
    never tried, ``move_value`` of it (a search of the position after it, chance drawn from
    ``stream``). The bound is Bhatia and Davis's: a mean of ``n`` returns in [lo, hi] with
    mean m has a variance of at most (hi - m) (m - lo) / n (the returns taken as independent
    draws; a search's are not quite: the records guide measures how sure marks are)."""
    from savanna.agents.play.analysis import move_value

    mover = found.player
    best = found.rows[0]
    mine = next(r for r in found.rows if r["action"] == action)
    best_value, played_value = best[f"value_{mover}"], mine[f"value_{mover}"]
    visits = mine["visits"]
    if math.isnan(played_value):
        played_value = float(move_value(game, row, action, agent, np.random.default_rng(stream),
                                        CHANCE_DRAWS)[mover])
        visits = found.simulations
    lo = -1 / (game.num_players - 1)  # a sole loser's return; a sole winner's is 1
    spread = math.sqrt(sum(max((1 - v) * (v - lo), 0) / max(n, 1) for v, n in
                           ((best_value, best["visits"]), (played_value, visits))))
    return best_value, played_value, spread


def _sure(drop, spread, threshold):
    """How sure the mark is: the normal chance that a drop measured as ``drop`` with standard
    error ``spread`` is truly above ``threshold`` (1 where the error is 0)."""
    if spread <= 0:
        return float(drop > threshold)
    return 0.5 * (1 + math.erf((drop - threshold) / spread / math.sqrt(2)))


def expected_result(value, players):
    """A player's mean return ``value`` as its expected share of the win, 0 to 1: returns are
    ``P/(P-1) * (w - 1/P)`` for a win share ``w`` (1 for a sole winner, 0 for a loser).

    >>> expected_result(0.0, 2), expected_result(-0.5, 2), expected_result(1.0, 3)
    (0.5, 0.25, 1.0)
    """
    return (players - 1) / players * value + 1 / players


def label(drop, threshold):
    """``inaccuracy``, ``mistake`` or ``blunder`` for a ``drop`` above 1, 2 or 3 times
    ``threshold``, else ``""`` (also for NaN: a drop no search measured)."""
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
                           ("label", "U10"), ("position", wide(-3)),
                           ("confirmed_drop", np.float64), ("sure", np.float64)])


def _listed(interval):
    """An interval as JSON gives it back: a list, or None."""
    return None if interval is None else list(interval)


def _text(x):
    return f"{x:+.3f}" if isinstance(x, float) else str(x)


def _finite(x):
    return x if not isinstance(x, float) or math.isfinite(x) else None
