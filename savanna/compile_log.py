"""What numba compiles and how long it takes: the figures of ``savanna warmup --profile`` and
the one line that the first compiling call of a process prints.

``CompileLog`` listens to numba's ``"numba:compile"`` events: each function's own seconds
(nested compilations taken out), its number of compiled signatures (more than one is a
duplicated specialisation, e.g. an argument typed ``int8`` at one call and ``int64`` at
another), and the seconds of each outermost call.

>>> from savanna.compile_log import CompileLog
>>> with CompileLog() as log:
...     game.init(2, rng=0)                                 # doctest: +SKIP
>>> print(log.table())                                      # doctest: +SKIP
"""
import sys
import time
from collections import Counter

from numba.core import event
from numba.core.config import CACHE_DIR

__all__ = ["CompileLog", "install_notice", "kernel_name"]

# Roughly what a first call compiles on a 2-core machine with a fresh cache; the notice quotes
# it (benchmarks/RESULTS.md, "Compile time", has the figures by game and entry point).
TYPICAL = "3-20 s"


# generated module -> its label, "<template>[<game>]" (savanna.binding fills it as it loads one)
LABELS: dict = {}


def kernel_name(dispatcher):
    """``module.function`` of a jitted function; a template bound to a game
    (``savanna.binding``) is labelled ``<template>[<game>]``, e.g.
    ``_drivers[banjooli].env_step_batch``."""
    func = dispatcher.py_func
    module = func.__module__ or "?"
    return f"{LABELS.get(module, module)}.{func.__qualname__}"


class CompileLog(event.Listener):
    """Records numba's compilations while active (a context manager)."""

    def __init__(self):
        self.own = Counter()        # kernel -> seconds compiling it, nested ones excluded
        self.signatures = Counter()  # kernel -> compilations (one per signature)
        self.args = {}              # kernel -> the argument types of each compilation
        self.entries = Counter()    # outermost kernel -> seconds, nested ones included
        self._stack = []

    def on_start(self, ev):
        name = kernel_name(ev.data["dispatcher"])
        self.args.setdefault(name, []).append(tuple(ev.data["args"]))
        self._stack.append([name, time.perf_counter(), 0.0])

    def on_end(self, ev):
        name, started, nested = self._stack.pop()
        seconds = time.perf_counter() - started
        self.own[name] += seconds - nested
        self.signatures[name] += 1
        if self._stack:
            self._stack[-1][2] += seconds
        else:
            self.entries[name] += seconds

    def __getstate__(self):  # the figures, without numba's types (for another process)
        return {k: v for k, v in vars(self).items() if k not in ("args", "_stack")}

    def __enter__(self):
        event.register("numba:compile", self)
        return self

    def __exit__(self, *exc):
        event.unregister("numba:compile", self)

    @property
    def seconds(self):
        """Seconds spent compiling while active."""
        return sum(self.entries.values())

    def duplicated(self):
        """``{kernel: signatures}`` of the kernels compiled more than once."""
        return {name: n for name, n in self.signatures.items() if n > 1}

    def table(self, top=12):
        """The entry points by seconds, then the ``top`` kernels by their own seconds (with
        their number of signatures), as text."""
        lines = [f"{self.seconds:7.1f} s compiling {len(self.own)} functions "
                 f"({sum(self.signatures.values())} compilations); entry points:"]
        lines += [f"{s:7.1f} s  {name}" for name, s in self.entries.most_common()]
        lines.append(f"  own seconds of the {min(top, len(self.own))} slowest functions:")
        lines += [f"{s:7.1f} s  {name}" + (f"  ({self.signatures[name]} signatures)"
                                           if self.signatures[name] > 1 else "")
                  for name, s in self.own.most_common(top)]
        return "\n".join(lines)


class Notice(event.Listener):
    """Prints one line to stderr when the process first compiles one of savanna's kernels
    (a cached kernel loads without an event, so a warm process prints nothing)."""

    shown = False

    def on_start(self, ev):
        func = ev.data["dispatcher"].py_func
        if self.shown or not (func.__module__ or "").startswith("savanna"):
            return
        self.shown = True  # stays registered: unregistering inside numba's loop over its
        # listeners would skip the next one (a CompileLog)
        where = f" in {CACHE_DIR}" if CACHE_DIR else ""
        print(f"savanna: compiling numba kernels ({kernel_name(ev.data['dispatcher'])} and "
              f"what this call needs), about {TYPICAL} once: cached{where} afterwards; "
              "`savanna warmup` compiles every game ahead", file=sys.stderr, flush=True)

    def on_end(self, ev):
        pass


_NOTICE = Notice()
_INSTALLED = False


def install_notice():
    """Announce the process's first compilation (``savanna.binding`` calls it on import)."""
    global _INSTALLED
    if not _INSTALLED:
        event.register("numba:compile", _NOTICE)
        _INSTALLED = True

