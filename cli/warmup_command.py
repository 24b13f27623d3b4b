"""``savanna warmup``: compile (and cache) every game's kernels, batch loops and MCTS search, so
that later processes start at once; ``--profile`` reports what compiled and how long it took.

Each game compiles in its own process, ``--jobs`` at a time (default: one per core), since numba
compiles on one thread. ``--profile`` times each entry point's first call (``ENTRY_POINTS``)
and each function's own seconds; for cold figures give a fresh cache
(``NUMBA_CACHE_DIR=$(mktemp -d) savanna warmup --profile``).
"""
import inspect
import os
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from contextlib import ExitStack
from multiprocessing import get_context

import numpy as np

from savanna.cli.arguments import count
from savanna.registry import GAMES, game_class

__all__ = ["ENTRY_POINTS", "add_parser", "compile_cost", "run", "warm_game"]


def add_parser(commands):
    """Register ``warmup`` on the ``savanna`` command's subparsers."""
    warm = commands.add_parser(
        "warmup",
        description="Compile every game's kernels, batch loops and MCTS search into numba's "
                    "cache, so that later processes start at once.")
    warm.add_argument("--jobs", type=count(1024), default=None, metavar="N",
                      help="games compiled at once, each in its own process (default: one "
                           "per core)")
    warm.add_argument("--profile", action="store_true",
                      help="report the seconds each entry point and each function took to "
                           "compile (cold figures need a fresh NUMBA_CACHE_DIR)")
    warm.set_defaults(run=run)
    return warm


def run(args, extra=None):
    """Compile every game's kernels and its MCTS search into numba's cache."""
    from savanna import compile_ahead  # here: numba, which the help does without

    os.environ[compile_ahead.SWITCH] = "0"  # every core compiles a game already: no helpers
    # one compiled copy serves every option and player count; the longest first, so that no
    # core is left alone with the last one (Banjooli took 113 s here, connect four 47 s)
    names = sorted(GAMES, key=compile_cost, reverse=True)
    jobs = min(len(names), args.jobs or os.cpu_count() or 1)
    with ExitStack() as stack:
        if jobs == 1:
            results = map(warm_game, names, [args.profile] * len(names))
        else:
            pool = stack.enter_context(ProcessPoolExecutor(jobs, mp_context=get_context("spawn")))
            results = pool.map(warm_game, names, [args.profile] * len(names))
        for name, logs in zip(names, results):  # re-raises the first failure
            if logs:
                print(report(name, logs), flush=True)


def compile_cost(name):
    """How long ``name`` takes to compile, roughly: the size of its kernels' source files."""
    kernels = [f for f in game_class(name).kernels if f is not None]
    return sum(os.path.getsize(path) for path in
               {inspect.getsourcefile(getattr(f, "py_func", f)) for f in kernels})


def warm_game(name, profile=False):
    """Compile one game's kernels: its envs, game API, playouts, MCTS and AlphaZero search.
    With ``profile``: ``{entry point: CompileLog}`` of what each first call compiled."""
    from savanna.compile_log import CompileLog

    game = game_class(name)()
    logs = {}
    for entry, first_call in ENTRY_POINTS.items():
        with CompileLog() as logs[entry]:
            first_call(game)
    return logs if profile else None


def report(name, logs, top=8):
    """The text of ``--profile`` for one game: seconds per entry point, then its functions'
    own seconds (the ``top`` slowest)."""
    total = sum(log.seconds for log in logs.values())
    lines = [f"{name}: {total:.1f} s compiling"]
    lines += [f"  {log.seconds:6.1f} s  {entry} ({len(log.own)} functions)"
              for entry, log in logs.items()]
    own = sum((log.own for log in logs.values()), start=Counter())
    lines.append(f"  the {min(top, len(own))} slowest functions, own seconds:")
    lines += [f"  {seconds:6.1f} s  {kernel}" for kernel, seconds in own.most_common(top)]
    return "\n".join(lines)


def _first_legal(mask):
    return np.array([np.flatnonzero(m)[0] for m in mask])


def _env(game, parallel=False):
    from savanna.batch_play import BatchPlay

    play = BatchPlay(game, 2, parallel=parallel)  # the engine under SavannaEnv
    play.reset()
    play.step(_first_legal(play.mask), np.ones(2, np.bool_))


def _vector_env(game, parallel=False):
    from savanna.vector_env import SavannaVectorEnv

    envs = SavannaVectorEnv(game, 2, parallel=parallel)
    envs.reset(seed=0)
    envs.step(envs.action_masks().argmax(axis=1))


def _playouts(game):
    game.random_playouts(game.init(2, rng=0), rng=0)


def _parallel(game):
    s = game.init(2, rng=0)
    game.unchecked.random_playouts(s, 0, parallel=True)
    _env(game, parallel=True)
    _vector_env(game, parallel=True)


def _mcts(game):
    from savanna.agents.play.mcts import MCTSAgent

    MCTSAgent(sims=8).search(game, game.warmup(), np.random.default_rng(0))


def _alphazero(game):
    from savanna.agents.play.gumbel import GumbelSearch

    def uniform(obs, mask):
        return np.where(mask, 1.0, 0.0), np.zeros((len(obs), game.num_players))

    GumbelSearch(game, sims=8).run(game.warmup(), uniform, np.random.default_rng(0))


# What warmup calls first, in order: each compiles what it needs that the ones before did not.
ENTRY_POINTS = {
    "env (reset, step)": _env,
    "vector env": _vector_env,
    "random playouts": _playouts,
    "parallel variants": _parallel,
    "game API (checked calls)": lambda game: game.warmup(),
    "MCTS search": _mcts,
    "AlphaZero search": _alphazero,
}
