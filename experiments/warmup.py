"""``savanna warmup``: compile (and cache) every game's kernels, batch loops and MCTS search, so
that later processes start at once.

Each game compiles in its own process, ``--jobs`` at a time (default: one per core): numba
compiles on one thread, and each game's kernels are generated code of its own (the few shared
helpers are compiled twice at most; numba's cache takes concurrent writers, as the test
workers do), so two cores shorten the wait of a fresh clone's first ``make test``.
"""
import os
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

import numpy as np

from savanna.experiments.arguments import count
from savanna.registry import GAMES, game_class

__all__ = ["add_parser", "run", "warm_game"]


def add_parser(commands):
    """Register ``warmup`` on the ``savanna`` command's subparsers."""
    warm = commands.add_parser(
        "warmup", help="compile (and cache) every game's kernels and the MCTS search",
        description="Compile every game's kernels, batch loops and MCTS search into numba's "
                    "cache, so that later processes start at once.")
    warm.add_argument("--jobs", type=count(1024), default=None, metavar="N",
                      help="games compiled at once, each in its own process (default: one "
                           "per core)")
    warm.set_defaults(run=run)
    return warm


def run(args, extra=None):
    """Compile every game's kernels and its MCTS search into numba's cache."""
    names = sorted(GAMES)  # one compiled copy serves every option and player count
    jobs = min(len(names), args.jobs or os.cpu_count() or 1)
    if jobs == 1:
        for name in names:
            warm_game(name)
        return
    with ProcessPoolExecutor(jobs, mp_context=get_context("spawn")) as pool:
        list(pool.map(warm_game, names))  # re-raises the first failure


def warm_game(name):
    """Compile one game's kernels, its vector env and its MCTS search."""
    from savanna.agents.mcts import MCTSAgent
    from savanna.vector_env import warmup

    game = game_class(name)()
    MCTSAgent(sims=8).search(game, game.warmup(verbose=True), np.random.default_rng(0))
    warmup(game)
