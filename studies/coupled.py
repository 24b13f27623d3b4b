"""Games played with common random numbers: every random draw keyed to its place in the game.

In ``play_keyed(game, agents, seed, chance_seed, first, count)`` game ``g`` draws its
decision at ply ``t`` from ``default_rng([seed, g, t])`` and its chance outcome (and random
setup) at ply ``t`` from ``default_rng([chance_seed, g, t])``: never from a stream that
earlier draws consumed. Two matches with the same ``seed`` and different ``chance_seed`` then
make the same decision wherever they reach the same position at the same ply, so the share of
games whose result differs measures chance, not the agents' own randomness redrawn (common
random numbers, the coupling of simulation studies). An agent decides from its seat's view
(``savanna.seats.seat_act``, drawn from the decision's key). Each game is played on its own, so the
numbers are the same for any batch or worker count.
"""
import multiprocessing
import os
import sys

import numpy as np

from savanna.agents.arena.matches import default_start_method
from savanna.agents.processes import main_not_rerun
from savanna.game import CHANCE
from savanna.seats import seat_act

__all__ = ["keyed_map", "play_keyed"]

SETUP = 1 << 30  # the ply key of the random setup (game.init), past any game's plies


def _keyed(seed, game_index, ply):
    return np.random.default_rng([seed, game_index, ply])


def play_keyed(game, agents, seed, chance_seed, first, count):
    """Games ``first .. first + count - 1`` of a match of ``agents`` (one per seat of game 0;
    seats rotate) with keyed randomness (module docstring); a part as
    ``savanna.agents.arena.matches.play_batches`` gives them, without records."""
    p = game.num_players
    seats = (np.arange(p)[None, :] + np.arange(first, first + count)[:, None]) % p
    returns = np.zeros((count, p))
    plies = np.zeros(count, np.int64)
    decisions = np.zeros(len(agents), np.int64)
    for row in range(count):
        g = first + row
        agent_at = np.argsort(seats[row])
        state = game.init(1, _keyed(chance_seed, g, SETUP))
        ply = 0
        while True:
            player = int(game.current_player(state)[0])
            if player == CHANCE:
                game.apply_chance(state, game.sample_chance(state, _keyed(chance_seed, g, ply)))
            elif player >= 0:
                j = agent_at[player]
                action = np.asarray(seat_act(agents[j], game, state, _keyed(seed, g, ply)))
                returns[row] += game.step_inplace(state, action)[0][seats[row]]
                decisions[j] += 1
                plies[row] += 1
            else:
                break
            ply += 1
    return (seats, returns, plies, None, (first, None, []),
            (np.zeros(len(agents)), decisions))


def _play(shared, job):
    game, agents, matches = shared
    m, _, first, count = job
    members, _, seed, _, chance_seed = matches[m]
    return job, play_keyed(game, [agents[i] for i in members], seed, chance_seed, first, count)


_SHARED = None


def _init(shared):
    global _SHARED
    _SHARED = shared


def _job(job):
    return _play(_SHARED, job)


def keyed_map(game, agents, matches, jobs, workers=None):
    """``(job, part)`` for each of ``jobs`` (``match_jobs``), here or on ``workers``
    processes; ``matches`` as ``play_batches`` takes them, each with its ``chance_seed``.
    Workers start as the arena's do (``default_start_method``), and are spawned while Ray
    runs in this process: a child forked beside Ray's threads can hang."""
    shared = (game, agents, matches)
    workers = min(os.cpu_count() if workers is None else workers, len(jobs))
    if workers <= 1:
        yield from (_play(shared, job) for job in jobs)
        return
    ray = sys.modules.get("ray")
    method = "spawn" if ray is not None and ray.is_initialized() else default_start_method()
    context = multiprocessing.get_context(method)
    with main_not_rerun(context, (game, *agents)):
        pool = context.Pool(workers, _init, (shared,))
    with pool:
        yield from pool.imap_unordered(_job, jobs)
