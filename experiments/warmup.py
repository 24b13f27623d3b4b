"""``savanna warmup``: compile (and cache) every game's kernels, batch loops and MCTS search, so
that later processes start at once.

Each game compiles in its own process, ``--jobs`` at a time (default: one per core): numba
compiles on one thread, and each game's kernels are generated code of its own (the few shared
helpers are compiled twice at most; numba's cache takes concurrent writers, as the test
workers do), so two cores shorten the wait of a fresh clone's first ``make test``.
"""
import inspect
import os
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

import numpy as np

from savanna.experiments.arguments import count
from savanna.registry import GAMES, game_class

__all__ = ["add_parser", "compile_cost", "run", "warm_game"]


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
    # one compiled copy serves every option and player count; the longest first, so that no
    # core is left alone with the last one (Banjooli took 113 s here, connect four 47 s)
    names = sorted(GAMES, key=compile_cost, reverse=True)
    jobs = min(len(names), args.jobs or os.cpu_count() or 1)
    if jobs == 1:
        for name in names:
            warm_game(name)
        return
    with ProcessPoolExecutor(jobs, mp_context=get_context("spawn")) as pool:
        list(pool.map(warm_game, names))  # re-raises the first failure


def compile_cost(name):
    """How long ``name`` takes to compile, roughly: the size of its kernels' source files."""
    kernels = [f for f in game_class(name).kernels if f is not None]
    return sum(os.path.getsize(path) for path in
               {inspect.getsourcefile(getattr(f, "py_func", f)) for f in kernels})


def warm_game(name):
    """Compile one game's kernels, its vector env and its MCTS search."""
    from savanna.agents.play.mcts import MCTSAgent
    from savanna.vector_env import warmup

    game = game_class(name)()
    MCTSAgent(sims=8).search(game, game.warmup(verbose=True), np.random.default_rng(0))
    warmup(game)
