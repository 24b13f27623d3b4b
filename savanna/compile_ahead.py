"""Compile a game's kernels on a second core while the first call compiles its own path.

When a process first compiles one of a game's shared loops, one helper process
(``python -m savanna.compile_ahead GAME_CLASS ENTRY``) compiles into numba's cache the kernels
that loop reaches late, for exactly the argument types the loops pass (``kernel_arguments``);
the first process then loads them instead of compiling them. Once per game and process, on
machines with more than one core, never inside ``savanna warmup`` or a search worker of
``savanna serve`` (each a compile per core already); ``SAVANNA_COMPILE_AHEAD=0`` turns it off.
How it works: the architecture guide.
"""
import importlib
import os
import subprocess
import sys

import numpy as np
from numba import typeof
from numba.core import event

from savanna import compile_log

__all__ = ["AHEAD", "compile_kernels", "install", "kernel_arguments", "switched_off"]

SWITCH = "SAVANNA_COMPILE_AHEAD"  # "0": never start a helper

# The kernels a first call reaches late, by the loop that starts its compilation, in the
# order the helper compiles them (numba's order is traced in benchmarks/RESULTS.md, "compile
# time"): an env steps through reset, step and chance before it reaches the legal moves and
# the observation; a game's checked calls (init, then step) check states, legal moves and
# chance before they reach step_one and the scores, which a match needs after them.
_ENV_LATE = ("legal_actions_one", "observe_one", "apply_chance_one", "chance_probs_one")
AHEAD = {"env_step_batch": _ENV_LATE, "vector_step_batch": _ENV_LATE}
AHEAD_OTHERWISE = ("step_one", "scores_one", "observe_one")

GAME_CLASSES: dict = {}  # game name -> "module:Class" (savanna.binding notes each it binds)
_STARTED: set = set()  # the games this process has started a helper for
_HELPERS: list = []  # their processes (kept, so that none is collected while it runs)


def kernel_arguments(game) -> dict:
    """``{kernel: arguments}``: one call's arguments for each of ``game``'s kernels, of the
    types ``savanna._drivers`` and the other shared loops pass (a batch of states, an
    ``int64`` index, the buffers of the ``savanna.binding`` stubs)."""
    s = np.zeros(1, game.state_dtype)
    base = game.base_state()
    i = np.int64(0)
    return {
        "reset_one": (s, i, base, np.zeros(1, np.uint64)),
        "current_player_one": (s, i),
        "legal_actions_one": (s, i, np.empty(game.num_actions, np.int16)),
        "step_one": (s, i, i, np.zeros(game.num_players, np.float32)),
        "chance_probs_one": (s, i, np.empty(max(1, game.max_chance_outcomes), np.float64)),
        "apply_chance_one": (s, i, i),
        "observe_one": (s, i, i, np.empty(int(np.prod(game.obs_shape)), np.uint8)),
        "valid_one": (s, i, base),
        "scores_one": (s, i, np.empty(game.num_players, np.int64)),
    }


def compile_kernels(game, names) -> None:
    """Compile (or load from numba's cache) ``game``'s kernels ``names``, in that order, for
    the argument types of ``kernel_arguments``; a kernel the game lacks is skipped."""
    arguments = kernel_arguments(game)
    for name in names:
        kernel = getattr(game.kernels, name)
        if kernel is not None:
            kernel.compile(tuple(typeof(a) for a in arguments[name]))


class _Starter(event.Listener):
    """Starts a game's helper when the process first compiles one of its shared loops."""

    def on_start(self, ev):
        func = ev.data["dispatcher"].py_func
        label = compile_log.LABELS.get(func.__module__, "")  # "<template>[<game>]"
        game = label.partition("[")[2].rstrip("]")
        if game in GAME_CLASSES and game not in _STARTED and not switched_off():
            _STARTED.add(game)
            _start_helper(GAME_CLASSES[game], func.__name__)

    def on_end(self, ev):
        pass


def switched_off() -> bool:
    """Whether this process starts no helper (``SAVANNA_COMPILE_AHEAD=0``)."""
    return os.environ.get(SWITCH) == "0"


def _start_helper(game_class, loop):
    """``python -m savanna.compile_ahead GAME_CLASS LOOP``, importing this process's savanna."""
    package_root = os.path.dirname(os.path.dirname(os.path.abspath(compile_log.__file__)))
    path = os.pathsep.join(filter(None, [package_root, os.environ.get("PYTHONPATH")]))
    env = {**os.environ, SWITCH: "0", "PYTHONPATH": path}
    _HELPERS.append(subprocess.Popen(
        [sys.executable, "-m", "savanna.compile_ahead", game_class, loop], env=env,
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))


_INSTALLED = False


def install() -> None:
    """Start helpers from now on, on machines of more than one core, while
    ``SAVANNA_COMPILE_AHEAD`` is not ``0`` (``savanna.binding`` calls it on import)."""
    global _INSTALLED
    if not _INSTALLED and (os.cpu_count() or 1) > 1:
        event.register("numba:compile", _Starter())
        _INSTALLED = True


def main(argv=None):
    """The helper: ``python -m savanna.compile_ahead package.module:GameClass LOOP``."""
    game_class, loop = argv or sys.argv[1:]
    module, _, name = game_class.partition(":")
    game = getattr(importlib.import_module(module), name)()
    compile_kernels(game, AHEAD.get(loop, AHEAD_OTHERWISE))


if __name__ == "__main__":
    main()
