"""Matches and round-robin tournaments between agents, with 95% intervals and Elo.

``play_match(game, agents, games)`` gives one agent per seat and rotates the seats: in game
``g`` agent ``j`` sits at seat ``(j + g) % P``, so with a multiple of ``P`` games every agent
plays every seat equally often. Games are played in batches of ``batch_size``: at each round
every agent gets, in one ``act`` call, all the states of the batch where one of its seats is
to move, and chance nodes are sampled from ``game.chance_probs``. Batch ``k`` draws all its
randomness from ``default_rng([seed, k])``, so a match is reproducible and its results are the
same for any number of worker processes (batches are spread over the cores).

Outcomes come from each agent's return (its summed rewards): the agent wins a game when its
return is the highest alone, draws when it shares the highest, and loses otherwise. The
**score** of an agent is its pairwise score against the others, averaged over opponents and
games (1 for a higher return, 1/2 for an equal one): for two players, ``(wins + draws/2) / n``.
Its Elo is ``400 log10(s / (1 - s))`` against the field (for two players, the Elo difference
between them). Intervals are 95% Wilson score intervals: for the win, draw and loss rates
exactly the binomial Wilson interval; for the score (draws count half) the same formula, which
is slightly conservative when there are draws; the Elo interval maps the score interval's ends.

``tournament(game, agents, games_per_pair)`` plays every pair of agents (every group of ``P``
agents for a ``P``-player game) and fits Elo ratings to all pairwise results (Bradley-Terry,
draws as half points, one virtual draw per pair so that an agent that wins everything keeps a
finite rating; ratings average 0).

Example::

    result = play_match(ZebresGame(), [make_agent("mcts:sims=200"), make_agent("greedy")],
                        games=100, seed=1)
    print(result.table())
    result.save("runs/mcts-vs-greedy")
"""
import csv
import io
import itertools
import json
import math
import multiprocessing
import os
import sys
import time
import warnings
from dataclasses import dataclass, field

import numpy as np
from tqdm import tqdm

from agents.base import describe
from agents.random_agent import RandomAgent
from savanna.files import atomic_write_text, output_folder
from savanna.game import CHANCE

__all__ = ["MatchResult", "TournamentResult", "default_start_method", "elo_from_score",
           "play_match", "tournament", "wilson_interval"]

Z95 = 1.959963984540054  # two-sided 95% quantile of the standard normal


# ----- statistics -------------------------------------------------------------------------------
def wilson_interval(rate, n, z=Z95):
    """The Wilson score interval ``(low, high)`` of a proportion observed as ``rate`` in ``n``
    trials; ``(0, 1)`` when ``n == 0``."""
    if n == 0:
        return 0.0, 1.0
    denom = 1 + z * z / n
    centre = (rate + z * z / (2 * n)) / denom
    half = z / denom * math.sqrt(max(rate * (1 - rate), 0.0) / n + z * z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def elo_from_score(score):
    """Elo difference that predicts expected score ``score`` (``inf`` at 0 or 1)."""
    if score <= 1e-12:
        return -math.inf
    if score >= 1 - 1e-12:
        return math.inf
    return 400 * math.log10(score / (1 - score))


def pair_scores(returns):
    """``[G, P, P]``: 1 where agent i's return beats agent j's in a game, 1/2 if equal, else 0."""
    diff = returns[:, :, None] - returns[:, None, :]
    return (diff > 0) + 0.5 * (diff == 0)


def _finite(x):
    """JSON has no infinity: non-finite floats become None."""
    return float(x) if math.isfinite(x) else None


def _signed(x, digits=0):
    if not math.isfinite(x):
        return "+inf" if x > 0 else "-inf"
    return f"{x:+.{digits}f}"


# ----- a match ----------------------------------------------------------------------------------
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
    points: np.ndarray = None
    seconds: float = 0.0
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
        lines.append(f"{'agent':<{width}}  {'wins':>20}  {'draws':>20}  {'losses':>20}  "
                     f"{'score':>6}" + ("  points" if has_points else ""))
        for row in self.summary():
            cells = [f"{row[k + '_rate']:6.1%} [{row[k + '_ci'][0]:5.1%},{row[k + '_ci'][1]:6.1%}]"
                     for k in ("win", "draw", "loss")]
            lines.append(f"{row['agent']:<{width}}  " + "  ".join(f"{c:>20}" for c in cells)
                         + f"  {row['score']:6.1%}"
                         + (f"  {row['mean_points']:6.1f}" if has_points else ""))
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
        import html

        has_points = self.points is not None
        head = ["agent", "wins", "draws", "losses", "score", "Elo"] + ["points"] * has_points
        rows = []
        for row in self.summary():
            low, high = row["elo_ci"]
            cells = [html.escape(row["agent"])] + [
                f"{row[k + '_rate']:.1%} [{row[k + '_ci'][0]:.1%}, {row[k + '_ci'][1]:.1%}]"
                for k in ("win", "draw", "loss")] + [
                f"{row['score']:.1%}", f"{_signed(row['elo'])} [{_signed(low)}, {_signed(high)}]"
            ] + ([f"{row['mean_points']:.1f}"] if has_points else [])
            rows.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
        caption = html.escape(self.table().splitlines()[0])
        return (f"<table><caption>{caption}</caption><tr>"
                + "".join(f"<th>{h}</th>" for h in head) + "</tr>" + "".join(rows)
                + "</table>")

    def to_json(self):
        """A JSON-ready dict: the match, its summary and every game."""
        summary = [{k: _jsonable(v) for k, v in row.items()} for row in self.summary()]
        return {
            "game": self.game, "agents": self.agents, "seed": self.seed, "games": self.games,
            "seconds": self.seconds, "summary": summary,
            "per_game": {"seats": self.seats.tolist(), "returns": self.returns.tolist(),
                         "plies": self.plies.tolist(),
                         "points": None if self.points is None else self.points.tolist()},
        }

    def save(self, directory, overwrite=False):
        """Write ``match.json``, ``summary.csv`` (one row per agent) and ``games.csv`` (one row
        per game) into ``directory``, each atomically; returns its path. A folder that already
        holds files is refused unless ``overwrite`` (``savanna.files.output_folder``)."""
        out = output_folder(directory, overwrite)
        atomic_write_text(out / "match.json", json.dumps(self.to_json(), indent=1))
        summary = self.summary()
        _write_csv(out / "summary.csv", [_flat_row(r) for r in summary])
        rows = []
        for g in range(self.games):
            row = {"game": g, "plies": int(self.plies[g])}
            for j in range(len(self.agents)):
                row[f"seat_{j}"] = int(self.seats[g, j])
                row[f"return_{j}"] = float(self.returns[g, j])
                if self.points is not None:
                    row[f"points_{j}"] = float(self.points[g, j])
            rows.append(row)
        _write_csv(out / "games.csv", rows)
        return out


def play_match(game, agents, games=200, seed=0, workers=None, progress=True, batch_size=None,
               start_method=None):
    """Play ``games`` games between ``agents`` (one per seat, rotated); a ``MatchResult``.

    ``workers``: processes to spread the batches over (default: every core; 1 plays here).
    ``batch_size``: games stepped together (default ``min(64, ceil(games / 16))``); results
    depend on ``seed`` and ``batch_size``, never on ``workers``.
    ``start_method``: how workers start, ``"fork"`` or ``"spawn"`` (default: see
    ``default_start_method``). Spawned workers cannot import classes defined in a notebook or
    an interactive session: with such a game or agent the match is played here, with a
    warning.
    """
    agents = list(agents)
    p = game.num_players
    if len(agents) != p:
        raise ValueError(f"{game.name} is a {p}-player game: give {p} agents, got {len(agents)}")
    for agent in agents:
        if not all(hasattr(agent, a) for a in ("name", "settings", "act")):
            raise ValueError(f"{agent!r} is not an agent: it needs name, settings() and act()")
    if not isinstance(games, (int, np.integer)) or games < 1:
        raise ValueError(f"games must be a positive int, got {games!r}")
    if batch_size is None:
        batch_size = min(64, -(-games // 16))
    if not isinstance(batch_size, (int, np.integer)) or batch_size < 1:
        raise ValueError(f"batch_size must be a positive int, got {batch_size!r}")
    batches = [(k, first, min(batch_size, games - first))
               for k, first in enumerate(range(0, games, batch_size))]
    workers = os.cpu_count() if workers is None else workers
    if not isinstance(workers, (int, np.integer)) or workers < 1:
        raise ValueError(f"workers must be a positive int, got {workers!r}")
    workers = min(int(workers), len(batches))
    labels = [describe(a) for a in agents]
    start = time.perf_counter()
    parts = {}
    context = None
    if workers > 1:
        context = multiprocessing.get_context(start_method or default_start_method())
        interactive = _interactive_classes([game, *agents])
        if context.get_start_method() != "fork" and interactive:
            warnings.warn(f"{', '.join(interactive)} defined interactively cannot be sent to "
                          "spawned worker processes: playing in this process (define them in "
                          "a module to use workers)", stacklevel=2)
            context = None
    with tqdm(total=games, desc=" vs ".join(labels), unit="game", disable=not progress,
              leave=False) as bar:
        if context is None:
            for k, first, count in batches:
                parts[k] = _play_batch(game, agents, seed, k, first, count)
                bar.update(count)
        else:
            if context.get_start_method() == "fork":
                _warm_up(game, agents, seed)
            with context.Pool(workers, _init_worker, (game, agents, seed)) as pool:
                for k, part in pool.imap_unordered(_worker_batch, batches):
                    parts[k] = part
                    bar.update(len(part[2]))
    seats, returns, plies, points = (np.concatenate([parts[k][i] for k in sorted(parts)])
                                     if parts[0][i] is not None else None for i in range(4))
    return MatchResult(game.name, labels, [a.settings() for a in agents], seed, seats, returns,
                       plies, points, time.perf_counter() - start)


def _play_batch(game, agents, seed, k, first, count):
    """Games ``first .. first + count - 1`` played together with ``default_rng([seed, k])``.
    Returns ``(seats, returns, plies, points)``, one row per game, one column per agent."""
    rng = np.random.default_rng([seed, k])
    p = game.num_players
    seats = (np.arange(p)[None, :] + np.arange(first, first + count)[:, None]) % p
    agent_at = np.argsort(seats, axis=1)  # agent_at[g, seat] = the agent sitting there
    states = game.init(count, rng)
    returns = np.zeros((count, p))
    plies = np.zeros(count, np.int64)
    while True:
        player = game.current_player(states)
        chance = np.flatnonzero(player == CHANCE)
        if len(chance):
            sub = states[chance]
            game.apply_chance(sub, game.sample_chance(sub, rng))
            states[chance] = sub
            continue
        deciding = np.flatnonzero(player >= 0)
        if not len(deciding):
            break
        if plies.max() >= game.max_plies:
            raise RuntimeError(f"a {game.name} game passed its declared max_plies "
                               f"({game.max_plies}) in the arena")
        sub = states[deciding]
        actions = np.empty(len(deciding), np.int64)
        owner = agent_at[deciding, player[deciding]]
        for j, agent in enumerate(agents):
            mine = np.flatnonzero(owner == j)
            if len(mine):
                actions[mine] = _checked_act(game, agent, sub[mine], rng)
        returns[deciding] += game.step_inplace(sub, actions)
        states[deciding] = sub
        plies[deciding] += 1
    rows = np.arange(count)[:, None]
    try:
        points = np.asarray(game.scores(states), np.float64)[rows, seats]
    except NotImplementedError:
        points = None
    return seats, returns[rows, seats], plies, points


def _checked_act(game, agent, states, rng):
    actions = np.asarray(agent.act(game, states, rng))
    if actions.shape != (len(states),) or not np.issubdtype(actions.dtype, np.integer):
        raise ValueError(f"agent {describe(agent)} returned {actions.dtype} actions of shape "
                         f"{actions.shape} for {len(states)} states")
    mask = game.legal_mask(states)
    inside = (actions >= 0) & (actions < game.num_actions)
    legal = inside & mask[np.arange(len(states)), np.where(inside, actions, 0)]
    if not legal.all():
        i = int(np.flatnonzero(~legal)[0])
        raise ValueError(f"agent {describe(agent)} chose illegal action {actions[i]} in "
                         f"{game.to_text(states[i])!r}")
    return actions


def default_start_method():
    """``"fork"``, so that the workers inherit the compiled code, unless torch is loaded: a
    child forked after torch's OpenMP threads started can hang, so then ``"spawn"`` (workers
    import and compile anew; the game and agents must pickle)."""
    if "fork" in multiprocessing.get_all_start_methods() and "torch" not in sys.modules:
        return "fork"
    return "spawn"


def _interactive_classes(objects):
    """Names of the classes of ``objects`` defined in an interactive ``__main__`` (a notebook,
    a REPL: no file a spawned process could import them from)."""
    if hasattr(sys.modules.get("__main__"), "__file__"):
        return []
    return sorted({type(x).__name__ for x in objects if type(x).__module__ == "__main__"})


def _warm_up(game, agents, seed):
    """Compile the game's loops and each agent's code here, before forking the workers."""
    _play_batch(game, [RandomAgent()] * game.num_players, seed, 0, 0, 1)
    rng = np.random.default_rng(seed)
    states = game.init(1, rng)
    while game.current_player(states)[0] == CHANCE:
        game.apply_chance(states, game.sample_chance(states, rng))
    for agent in agents:
        agent.act(game, states, rng)


_WORKER = {}


def _init_worker(game, agents, seed):
    if "torch" in sys.modules:  # the workers are the parallelism: torch's own OpenMP threads
        sys.modules["torch"].set_num_threads(1)  # would spin against them (7x slower)
    _WORKER.update(game=game, agents=agents, seed=seed)


def _worker_batch(batch):
    k, first, count = batch
    return k, _play_batch(_WORKER["game"], _WORKER["agents"], _WORKER["seed"], k, first, count)


# ----- a tournament -----------------------------------------------------------------------------
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

    def save(self, directory, overwrite=False):
        """Write ``tournament.json``, ``ratings.csv`` and ``pairs.csv`` into ``directory`` as
        ``MatchResult.save`` does; returns its path."""
        out = output_folder(directory, overwrite)
        data = {"game": self.game, "agents": self.agents, "ratings": self.ranking(),
                "pair_score": self.pair_score.tolist(), "pair_games": self.pair_games.tolist(),
                "matches": [{"members": list(m), **r.to_json()} for m, r in self.matches]}
        atomic_write_text(out / "tournament.json", json.dumps(data, indent=1))
        _write_csv(out / "ratings.csv", self.ranking())
        _write_csv(out / "pairs.csv", [
            {"agent": self.labels[i], "opponent": self.labels[j],
             "games": int(self.pair_games[i, j]), "score": float(self.pair_score[i, j])}
            for i in range(len(self.agents)) for j in range(len(self.agents))
            if self.pair_games[i, j]])
        return out


def tournament(game, agents, games_per_pair=50, seed=0, workers=None, progress=True,
               start_method=None):
    """A round robin: every group of ``game.num_players`` agents (every pair, for two players)
    plays a match of ``games_per_pair`` games; Elo ratings are fitted to all the results."""
    agents = list(agents)
    p = game.num_players
    if len(agents) < max(p, 2):
        raise ValueError(f"a {game.name} tournament needs at least {max(p, 2)} agents, "
                         f"got {len(agents)}")
    n = len(agents)
    pair_score = np.zeros((n, n))
    pair_games = np.zeros((n, n))
    matches = []
    groups = list(itertools.combinations(range(n), p))
    for k, members in enumerate(groups):
        match_seed = int(np.random.SeedSequence([seed, k]).generate_state(1)[0])
        result = play_match(game, [agents[i] for i in members], games_per_pair, match_seed,
                            workers, progress, start_method=start_method)
        matches.append((members, result))
        idx = np.array(members)
        pair_score[np.ix_(idx, idx)] += pair_scores(result.returns).sum(axis=0)
        pair_games[np.ix_(idx, idx)] += result.games
    np.fill_diagonal(pair_score, 0)
    np.fill_diagonal(pair_games, 0)
    ratings, errors = fit_elo(pair_score, pair_games)
    return TournamentResult(game.name, [describe(a) for a in agents], matches, pair_score,
                            pair_games, ratings, errors)


def fit_elo(pair_score, pair_games, iterations=100):
    """Bradley-Terry Elo ratings (mean 0) and their standard errors from pairwise results.

    ``pair_score[i, j]`` is i's summed score against j over ``pair_games[i, j]`` comparisons.
    One virtual draw is added to every pair that met, so perfect records keep finite ratings.
    """
    met = pair_games > 0
    score = pair_score + 0.5 * met
    games = pair_games + met
    n = len(games)
    beta = np.zeros(n)
    hessian = np.zeros((n, n))
    for _ in range(iterations):
        expected = 1 / (1 + np.exp(beta[None, :] - beta[:, None]))
        gradient = (score - games * expected).sum(axis=1)
        weight = games * expected * (1 - expected)
        hessian = np.diag(weight.sum(axis=1)) - weight
        step = np.clip(np.linalg.pinv(hessian) @ gradient, -1, 1)  # damped Newton
        beta += step
        beta -= beta.mean()
        if np.abs(step).max() < 1e-10:
            break
    scale = 400 / math.log(10)
    errors = np.sqrt(np.maximum(np.diag(np.linalg.pinv(hessian)), 0))
    return beta * scale, errors * scale


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


def _write_csv(path, rows):
    """``rows`` (dicts with the same keys) as a CSV file with a header, written atomically."""
    text = io.StringIO()
    writer = csv.DictWriter(text, fieldnames=list(rows[0]))
    writer.writeheader()
    writer.writerows(rows)
    atomic_write_text(path, text.getvalue())
