"""Matches and round-robin tournaments between agents, with 95% intervals and Elo.

``play_match(game, agents, games)`` rotates the seats (with a multiple of the player count,
every agent plays every seat equally often) and plays the games in batches, each agent acting
on all its states of a batch in one call; a match gives the same results for any number of
worker processes and on Ray (``backend="ray"``). ``tournament`` plays every pair (or group) of
agents at once and fits Elo ratings. How games are scored: the agents guide.

>>> from savanna import make_game
>>> from savanna.agents import make_agent
>>> result = play_match(make_game("zebres"), [make_agent("mcts:sims=20"), make_agent("greedy")],
...                     games=4, seed=1, workers=1)
>>> print(result.table())
>>> folder = result.save("mcts-vs-greedy")
"""
import itertools
import multiprocessing
import os
import signal
import sys
import time
import warnings
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
from tqdm.auto import tqdm

from savanna.agents.arena.results import MatchResult, TournamentResult
from savanna.agents.arena.stats import fit_elo, pair_scores
from savanna.agents.play.base import Agent, agent_settings, describe
from savanna.agents.play.random_agent import RandomAgent
from savanna.agents.processes import main_not_rerun
from savanna.agents.settings import MAX_GAMES, MAX_WORKERS
from savanna.codes import CHANCE
from savanna.errors import check_int, clip
from savanna.metadata import run_metadata
from savanna.records import make_records
from savanna.seats import seat_act

if TYPE_CHECKING:  # the annotations' Game: savanna.game loads numba, a match's help not
    from savanna.game import Game

__all__ = ["BACKENDS", "default_start_method", "match_jobs", "match_result", "play_batches",
           "play_job", "play_match", "tournament"]


# ----- a match ----------------------------------------------------------------------------------
BACKENDS = ("local", "ray")


def play_match(game: "Game", agents: Sequence[Agent], games: int = 200, seed: int = 0,
               workers: int | None = None, progress: bool = True, batch_size: int | None = None,
               start_method: str | None = None, backend: str = "local",
               address: str | None = None, record: bool = False) -> MatchResult:
    """Play ``games`` games between ``agents`` (one per seat, rotated); a ``MatchResult``.

    ``workers``: processes to spread the batches over (default: every core; 1 plays here).
    ``batch_size``: games stepped together (default ``min(64, ceil(games / 16))``); results
    depend on ``seed`` and ``batch_size``, never on ``workers`` or ``backend``.
    ``start_method``: how workers start, ``"fork"`` or ``"spawn"`` (default: see
    ``default_start_method``). Spawned workers cannot import classes defined in a notebook or
    an interactive session: with such a game or agent the match is played here, with a
    warning.
    ``backend``: ``"local"`` (a pool of ``workers`` processes) or ``"ray"``: every batch is a
    Ray task (``savanna.agents.distributed``) on the cluster at ``address`` (default, as
    ``ray.init``: ``RAY_ADDRESS``, else the cluster running on this machine, else a Ray started
    here; ``"auto"``: the running one; ``"local"``: a new one), retried if its worker or node
    dies; ``workers`` and ``start_method`` are then unused.
    ``record``: keep every game as a ``savanna.records.Record`` (``result.records``; saved
    as ``records.jsonl``); the games played are the same with or without.
    """
    agents = _checked_agents(game, agents)
    check_int("games", games, 1, MAX_GAMES)
    batch_size = _default_batch_size(games) if batch_size is None else batch_size
    check_int("batch_size", batch_size, 1, MAX_GAMES)
    match = (tuple(range(len(agents))), int(games), seed, int(batch_size))
    return _play_matches(game, agents, [match], workers, progress, start_method, backend,
                         address, " vs ".join(describe(a) for a in agents), record)[0]


def _checked_agents(game, agents):
    agents = list(agents)
    p = game.num_players
    if len(agents) != p:
        raise ValueError(f"{game.name} is a {p}-player game: give {p} agents, got {len(agents)}")
    _check_agents(agents)
    return agents


def _default_batch_size(games):
    return min(64, -(-games // 16))


def _check_agents(agents):
    for agent in agents:
        if not callable(getattr(agent, "act", None)):
            raise ValueError(f"{agent!r} is not an agent: it needs act(game, states, rng)")


def _play_matches(game, agents, matches, workers, progress, start_method, backend, address,
                  desc, record):
    """Play ``matches`` (see ``play_batches``), all their batches on one pool (or one Ray
    cluster) at once; their ``MatchResult``s (with records if ``record``). A match's
    ``seconds`` run from the start to its last batch."""
    jobs = match_jobs(matches)
    start = time.perf_counter()
    parts = [{} for _ in matches]
    seconds = [0.0] * len(matches)
    done = play_batches(game, agents, matches, jobs, workers, start_method, backend, address)
    with tqdm(total=sum(job[3] for job in jobs), desc=desc, unit="game",
              disable=not progress, leave=False) as bar:
        for (m, k, _, count), part in done:
            parts[m][k] = part
            seconds[m] = time.perf_counter() - start
            bar.update(count)
    return [match_result(game, [agents[i] for i in match[0]], match[2], parts[m], seconds[m],
                         record)
            for m, match in enumerate(matches)]


def match_jobs(matches):
    """The batches of ``matches`` as jobs ``(m, k, first, count)``: batch ``k`` of match ``m``
    plays its games ``first .. first + count - 1``."""
    return [(m, k, first, min(batch_size, games - first))
            for m, (_, games, _, batch_size, *_) in enumerate(matches)
            for k, first in enumerate(range(0, games, batch_size))]


def play_batches(game, agents, matches, jobs, workers=None, start_method=None,
                 backend="local", address=None):
    """``(job, part)`` for each of ``jobs`` (``match_jobs``) as its batch finishes, in any
    order, on a pool of ``workers`` processes or on Ray (``play_match`` says how). Each of
    ``matches`` is ``(members, games, seed, batch_size)`` or ``(members, games, seed,
    batch_size, chance_seed)``: ``members`` index ``agents``; with a ``chance_seed`` the chance
    outcomes (and ``game.init``'s random setup) come from a stream of their own, so that two
    matches that differ only in it are the same agents with the same decision seeds, chance
    resampled. ``match_result`` makes a ``MatchResult`` of a match's parts; a caller that keeps
    the parts as they come (``savanna.studies``) can play only the jobs still missing."""
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(BACKENDS)}, got {clip(backend)}")
    if backend == "ray":
        from savanna.agents.distributed import ray_map

        return ray_map(play_job, (game, agents, matches), jobs, address)
    return _local_map(game, agents, matches, jobs, workers, start_method)


def match_result(game, agents, seed, parts, seconds=0.0, record=False):
    """The ``MatchResult`` of ``agents`` (one per seat of the match, in order) from every
    batch's part (``parts[k]``, as ``play_batches`` gives them)."""
    labels = [describe(a) for a in agents]
    parts = [parts[k] for k in sorted(parts)]
    seats, returns, plies = (np.concatenate([part[i] for part in parts]) for i in range(3))
    points = (np.concatenate([part[3] for part in parts]) if parts[0][3] is not None
              else None)
    records = _records(game, labels, seed, parts) if record else None
    think, decisions = (sum(part[5][i] for part in parts) for i in range(2))
    return MatchResult(game.name, labels, [agent_settings(a) for a in agents], seed, seats, returns,
                       plies, points, seconds, run_metadata(game), records,
                       think / np.maximum(decisions, 1))


def _records(game, labels, seed, parts):
    """The Record of every game, from the batches' starts and logs (``_play_batch``)."""
    records = []
    for seats, _, _, _, (first, starts, log), _ in parts:
        agents = [[labels[j] for j in np.argsort(row)] for row in seats]
        infos = [{"match_game": first + g} for g in range(len(starts))]
        records += make_records(game, starts, log, agents, seed, infos)
    return records


def play_job(game, agents, matches, job):
    """Batch ``k`` (games ``first .. first + count - 1``) of match ``m``: ``_play_batch``."""
    m, k, first, count = job
    members, _, seed, _, *chance_seed = matches[m]
    return _play_batch(game, [agents[i] for i in members], seed, k, first, count,
                       *chance_seed)


def _local_map(game, agents, matches, jobs, workers, start_method):
    """``(job, play_job(...))`` pairs as they complete: here, or on one pool of ``workers``
    processes for all the jobs (a tournament starts its workers once)."""
    workers = os.cpu_count() if workers is None else workers
    check_int("workers", workers, 1, MAX_WORKERS)
    workers = min(int(workers), len(jobs))
    context = None
    if workers > 1:
        context = multiprocessing.get_context(start_method or default_start_method())
        interactive = _interactive_classes([game, *agents])
        if context.get_start_method() != "fork" and interactive:
            warnings.warn(f"{', '.join(interactive)} defined interactively cannot be sent to "
                          "spawned worker processes: playing in this process (define them in "
                          "a module to use workers)", stacklevel=4)
            context = None
    if context is None:
        return ((job, play_job(game, agents, matches, job)) for job in jobs)
    if context.get_start_method() == "fork":
        _warm_up(game, agents, matches[0][2])
    return _pooled(context, workers, (game, agents, matches), jobs)


def _pooled(context, workers, shared, jobs):
    game, agents, _ = shared
    with main_not_rerun(context, (game, *agents)):
        pool = context.Pool(workers, _init_worker, shared)  # starts the workers
    with pool:
        yield from pool.imap_unordered(_worker_job, jobs)


def _play_batch(game, agents, seed, k, first, count, chance_seed=None):
    """Games ``first .. first + count - 1`` played together with ``default_rng([seed, k])``
    (and chance drawn from ``default_rng([chance_seed, k])`` when a ``chance_seed`` is given).
    Returns ``(seats, returns, plies, points, history, timing)``, one row per game, one column
    per agent; ``history`` is ``(first, start states, log)``, the log one ``(who, games,
    values)`` triple of arrays per round (``who`` a seat or CHANCE) that ``_records``
    turns into game records; ``timing`` is ``(seconds in act, decisions)`` per agent."""
    rng = np.random.default_rng([seed, k])
    chance_rng = rng if chance_seed is None else np.random.default_rng([chance_seed, k])
    p = game.num_players
    seats = (np.arange(p)[None, :] + np.arange(first, first + count)[:, None]) % p
    agent_at = np.argsort(seats, axis=1)  # agent_at[g, seat] = the agent sitting there
    states = game.init(count, chance_rng)
    starts, log = states.copy(), []
    returns = np.zeros((count, p))
    plies = np.zeros(count, np.int64)
    think, decisions = np.zeros(len(agents)), np.zeros(len(agents), np.int64)
    while True:
        player = game.current_player(states)
        chance = np.flatnonzero(player == CHANCE)
        if len(chance):
            sub = states[chance]
            outcomes = game.sample_chance(sub, chance_rng)
            game.apply_chance(sub, outcomes)
            states[chance] = sub
            log.append((np.full(len(chance), CHANCE), chance, outcomes))
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
                started = time.perf_counter()
                actions[mine] = _checked_act(game, agent, sub[mine], rng)
                think[j] += time.perf_counter() - started
                decisions[j] += len(mine)
        returns[deciding] += game.step_inplace(sub, actions)
        states[deciding] = sub
        log.append((player[deciding], deciding, actions))
        plies[deciding] += 1
    rows = np.arange(count)[:, None]
    points = np.asarray(game.scores(states), np.float64)[rows, seats] if game.has_scores \
        else None
    return (seats, returns[rows, seats], plies, points, (first, starts, log),
            (think, decisions))


def _checked_act(game, agent, states, rng):
    actions = np.asarray(seat_act(agent, game, states, rng))
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
        seat_act(agent, game, states, rng)


_WORKER: dict = {}


def _init_worker(game, agents, matches):
    # A forked worker inherits the parent's SIGTERM handler; Ray's (a driver installs one) drains
    # its node first and never returns here, so the pool could never terminate its workers.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if "torch" in sys.modules:  # the workers are the parallelism: torch's own OpenMP threads
        sys.modules["torch"].set_num_threads(1)  # would spin against them (7x slower)
    _WORKER.update(game=game, agents=agents, matches=matches)


def _worker_job(job):
    return job, play_job(_WORKER["game"], _WORKER["agents"], _WORKER["matches"], job)


# ----- a tournament -----------------------------------------------------------------------------
def tournament(game: "Game", agents: Sequence[Agent], games_per_pair: int = 50, seed: int = 0,
               workers: int | None = None, progress: bool = True,
               start_method: str | None = None, backend: str = "local",
               address: str | None = None, record: bool = False) -> TournamentResult:
    """A round robin: every group of ``game.num_players`` agents (every pair, for two players)
    plays a match of ``games_per_pair`` games; Elo ratings are fitted to all the results.
    The batches of all the matches are played at once, on one pool of ``workers`` processes
    or on Ray (``backend``, ``address``: see ``play_match``). ``record``: keep every game's
    record (``play_match``)."""
    agents = list(agents)
    p = game.num_players
    if len(agents) < max(p, 2):
        raise ValueError(f"a {game.name} tournament needs at least {max(p, 2)} agents, "
                         f"got {len(agents)}")
    _check_agents(agents)
    check_int("games_per_pair", games_per_pair, 1, MAX_GAMES)
    n = len(agents)
    batch_size = _default_batch_size(games_per_pair)
    groups = list(itertools.combinations(range(n), p))
    matches = [(members, int(games_per_pair),
                int(np.random.SeedSequence([seed, k]).generate_state(1)[0]), batch_size)
               for k, members in enumerate(groups)]
    results = _play_matches(game, agents, matches, workers, progress, start_method, backend,
                            address, f"{game.name} round robin", record)
    for k, result in enumerate(results):
        for r in result.records or ():
            r.info["match"] = k
    pair_score = np.zeros((n, n))
    pair_games = np.zeros((n, n))
    for members, result in zip(groups, results):
        idx = np.array(members)
        pair_score[np.ix_(idx, idx)] += pair_scores(result.returns).sum(axis=0)
        pair_games[np.ix_(idx, idx)] += result.games
    np.fill_diagonal(pair_score, 0)
    np.fill_diagonal(pair_games, 0)
    ratings, errors = fit_elo(pair_score, pair_games)
    return TournamentResult(game.name, [describe(a) for a in agents],
                            list(zip(groups, results)), pair_score, pair_games, ratings, errors,
                            run_metadata(game))
