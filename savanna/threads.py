"""How many threads a parallel kernel should use: chosen once per batch size, re-checked rarely,
so that the parallel paths never fall far below the serial one when other processes hold cores.

``adaptive(serial, parallel)`` is called with the arguments of either kernel and gives the same
results; ``report()`` shows every choice and its measurements. How ``Adaptive`` calibrates,
watches and re-checks: the architecture guide.
"""
import math
import time
from collections import deque

import numba
import numpy as np

from savanna.errors import clip

__all__ = ["Adaptive", "adaptive", "kernel_for", "report"]

CALIBRATION = 3      # timed calls of each arm before a shape's first choice
SERIAL_ONLY = 20e-6  # seconds: a shape whose serial call is shorter never tries threads
SUSPECT = 3          # the chosen parallel arm's last calls whose median is compared
SLOWER = 1.25        # ... with this many times the serial arm's: a neighbour has a core
RECHECK = 1.0        # seconds from a choice to the first re-check of the other arms
MAX_RECHECK = 64.0   # the longest wait between re-checks
RECHECK_CALLS = 2    # calls of each other arm in a re-check
ABORT = 3.0          # a re-checked call this many times slower than the chosen arm's: dropped
EXPLORE = 0.01       # re-checks take at most this share of the time
WINDOW = 5           # recent call times kept per arm and shape

_cache = {}


@numba.njit  # not cached: numba cannot cache what calls its thread-count functions
def swap_threads(k):
    """numba's thread count for this thread before the call; sets it to ``k`` unless ``k``
    is 0. Compiled: ``numba.get/set_num_threads`` from Python take a process lock each time
    (about 10 us, a tenth of a short vector-env step), this takes well under one."""
    before = numba.get_num_threads()
    if k > 0:
        numba.set_num_threads(k)
    return before


def thread_counts(top):
    """The arms' thread counts: 1 (the serial kernel), then 2, 4, 8, ... and ``top``."""
    counts = {1, top}
    k = 2
    while k < top:
        counts.add(k)
        k *= 2
    return sorted(counts)


class Shape:
    """What one ``Adaptive`` knows about one batch size: recent call times per arm, the
    choice, and when the other arms are next re-checked."""

    def __init__(self, arms):
        self.times = [deque(maxlen=WINDOW) for _ in range(arms)]
        self.calls = [0] * arms
        self.arm = None          # the chosen arm; None while calibrating
        self.queue = []          # arms still to run in the current re-check
        self.interval = RECHECK
        self.due = math.inf
        self.switches = 0
        self.rechecks = 0

    def median(self, arm, last=WINDOW):
        recent = sorted(self.times[arm] if last >= WINDOW else list(self.times[arm])[-last:])
        if not recent:
            return math.inf
        half = len(recent) // 2   # by hand: statistics.median costs microseconds a call
        return recent[half] if len(recent) % 2 else (recent[half - 1] + recent[half]) / 2

    def best(self, allowed):
        return min(allowed, key=self.median)

    def hopeless(self, arm):
        """Timed, and ``ABORT`` times slower than the serial arm: not worth more calls."""
        return arm != 0 and bool(self.times[arm]) and self.median(arm) > ABORT * self.median(0)

    def calibrated(self, allowed):
        return all(len(self.times[i]) >= CALIBRATION or self.hopeless(i) for i in allowed)

    def recheck_cost(self, allowed):
        """Seconds a re-check of the arms not chosen is expected to take (their last times;
        one call of an arm that would be dropped)."""
        chosen = self.median(self.arm)
        recent = {i: self.median(i, SUSPECT) for i in allowed if i != self.arm and self.times[i]}
        return sum(t * (1 if t > ABORT * chosen else RECHECK_CALLS) for t in recent.values())


class Adaptive:
    """Call ``serial(*args)`` or ``parallel(*args)`` on 2..N threads (N: at most
    ``max_threads`` and numba's current thread count), chosen per batch size
    (``len(args[0])``): calibrated, watched and re-checked as the architecture guide says.
    Both kernels must compute the same result (Savanna's parallel kernels do, whatever the
    thread count)."""

    def __init__(self, serial, parallel, max_threads=None, clock=time.perf_counter):
        top = numba.config.NUMBA_NUM_THREADS if max_threads is None else max_threads
        if not 1 <= top <= numba.config.NUMBA_NUM_THREADS:
            raise ValueError(f"max_threads must be in 1..{numba.config.NUMBA_NUM_THREADS}, "
                             f"got {max_threads!r}")
        self.clock = clock                      # seconds (tests pass a fake one)
        self.name = getattr(serial, "__name__", repr(serial))
        self.arms = [(serial if k == 1 else parallel, k) for k in thread_counts(top)]
        self.loaded = [False] * len(self.arms)  # called once (a first call may compile)
        self.shapes = {}
        self.last = None
        self.allowed = {}                       # numba's thread count -> the arms within it

    @property
    def threads(self):
        """The thread count chosen for the batch size of the last call (1: serial)."""
        return self.choice(self.last)

    def choice(self, n):
        """The thread count chosen for batches of ``n`` (None while still calibrating)."""
        shape = self.shapes.get(n)
        return None if shape is None or shape.arm is None else self.arms[shape.arm][1]

    def __call__(self, *args):
        n = len(args[0])
        shape = self.shapes.get(n)
        if shape is None:
            shape = self.shapes[n] = Shape(len(self.arms))
        self.last = n
        before = swap_threads(0)   # a lower count set by the caller is respected
        allowed = self.allowed.get(before)
        if allowed is None:
            allowed = self.allowed[before] = [i for i, (_, k) in enumerate(self.arms)
                                              if k <= before]
        i = self._pick(shape, allowed)
        kernel, threads = self.arms[i]
        if threads > 1 and threads != before:
            swap_threads(threads)
        start = self.clock()
        try:
            return kernel(*args)
        finally:
            seconds = self.clock() - start
            if threads > 1 and threads != before:
                swap_threads(before)
            shape.calls[i] += 1
            if self.loaded[i]:     # the first call may load or compile the kernel: not timed
                self._record(shape, allowed, i, seconds)
            self.loaded[i] = True

    def _pick(self, shape, allowed):
        """The arm to run now among ``allowed`` (those within numba's thread count)."""
        if shape.arm is None or shape.arm not in allowed:
            shape.arm = None                                   # calibrate, arms in turn
            return min((i for i in allowed if not shape.hopeless(i)),
                       key=lambda i: (len(shape.times[i]), i))
        if not shape.queue and self.clock() >= shape.due:
            shape.rechecks += 1
            for i in allowed:
                if i != shape.arm:
                    shape.times[i].clear()
                    shape.queue += [i] * RECHECK_CALLS
        return shape.queue[0] if shape.queue else shape.arm

    def _record(self, shape, allowed, i, seconds):
        shape.times[i].append(seconds)
        if shape.arm is None:
            if i == 0 and shape.median(0) < SERIAL_ONLY:
                self._settle(shape, 0, math.inf)   # too short to split: serial, for good
            elif shape.calibrated(allowed):
                self._settle(shape, shape.best(allowed), RECHECK, allowed)
        elif shape.queue and shape.queue[0] == i:
            shape.queue.pop(0)
            if seconds > ABORT * shape.median(shape.arm):
                shape.queue = [j for j in shape.queue if j != i]
            if not shape.queue:
                self._end_recheck(shape, allowed)
        elif i == shape.arm and i != 0 and len(shape.times[i]) >= SUSPECT \
                and shape.median(i, SUSPECT) > SLOWER * shape.median(0):
            shape.switches += 1                    # a neighbour took a core: serial now
            self._settle(shape, 0, RECHECK, allowed)

    def _end_recheck(self, shape, allowed):
        best = shape.best(allowed)
        if best != shape.arm:
            shape.switches += 1
            self._settle(shape, best, RECHECK, allowed)
        else:
            self._settle(shape, best, min(2 * shape.interval, MAX_RECHECK), allowed)

    def _settle(self, shape, arm, interval, allowed=()):
        """Run ``arm`` from now on; re-check the others after ``interval`` seconds, or later
        if the re-check is expected to take more than ``EXPLORE`` of the time until then."""
        shape.arm, shape.interval, shape.queue = arm, interval, []
        shape.due = self.clock() + max(interval, shape.recheck_cost(allowed) / EXPLORE)

    def report(self):
        """One dict per batch size seen: the choice, each arm's median recent seconds per
        call and calls, how often the choice switched and the others were re-checked."""
        return [{"kernel": self.name, "n": n, "threads": self.choice(n),
                 "median_seconds": {k: shape.median(i) for i, (_, k) in enumerate(self.arms)
                                    if shape.times[i]},
                 "calls": {k: shape.calls[i] for i, (_, k) in enumerate(self.arms)},
                 "switches": shape.switches, "rechecks": shape.rechecks}
                for n, shape in sorted(self.shapes.items())]


def adaptive(serial, parallel):
    """The one ``Adaptive`` of this pair of kernels in this process (so that what it learnt
    about the machine's load carries over from call to call and object to object)."""
    key = (serial, parallel)
    if key not in _cache:
        _cache[key] = Adaptive(serial, parallel)
    return _cache[key]


def kernel_for(parallel, serial_kernel, parallel_kernel):
    """What a ``parallel=`` setting asks for: ``False`` the serial kernel, ``True`` the
    parallel one on numba's threads, ``"auto"`` the adaptive choice between them."""
    if isinstance(parallel, (bool, np.bool_)):
        return parallel_kernel if parallel else serial_kernel
    if isinstance(parallel, str) and parallel == "auto":
        return adaptive(serial_kernel, parallel_kernel)
    raise ValueError(f"parallel must be 'auto', True or False, got {clip(parallel)}")


def report():
    """Every adaptive choice in this process (``Adaptive.report`` of each kernel pair)."""
    return [row for choice in _cache.values() for row in choice.report()]
