"""How many threads a parallel kernel should use right now: an adaptive choice that keeps the
parallel paths from falling below the serial one when other processes hold cores.

numba's workqueue layer (the only one in numba's pip wheels without extra packages) splits a
``prange`` evenly over its threads and waits for the last one; if another process holds a core,
the thread sharing it finishes late, or starts a scheduler time slice late, and a short
parallel call (the vector env's step takes ~100 us) can run many times slower than the serial
loop (benchmarks/threading_load.py measures it). No static setting fixes that, since the
load comes and goes; so ``Adaptive`` times every call and runs the arm (the serial kernel, or
the parallel one on k threads) that has been fastest per item lately. It keeps trying the
other arms, but only for a small share of its time (``EXPLORE``, budgeted on each arm's mean
cost, so that an arm whose calls are mostly fast but sometimes very slow cannot take more), so
that a load that comes or goes is noticed within a few calls while a slow arm costs little.

``adaptive(serial, parallel)`` is called with the arguments and gives the results of either
kernel (``savanna.batch_play`` steps through ``adaptive(drivers.env_step_batch,
drivers.env_step_batch_parallel)``).
"""
import time

import numba

__all__ = ["Adaptive", "adaptive"]

EXPLORE = 0.03   # at most this share of the time goes to re-trying slower arms
SMOOTHING = 0.3  # weight of the newest call in each arm's mean time per item

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


class Adaptive:
    """Call ``serial(*args)`` or ``parallel(*args)`` on 2..N threads (N: at most
    ``max_threads`` and numba's current thread count), whichever arm has the lowest recent time
    per item (items: ``len(args[0])``). Both kernels must compute the same
    result (Savanna's parallel kernels do, whatever the thread count)."""

    def __init__(self, serial, parallel, max_threads=None, clock=time.perf_counter):
        top = numba.config.NUMBA_NUM_THREADS if max_threads is None else max_threads
        if not 1 <= top <= numba.config.NUMBA_NUM_THREADS:
            raise ValueError(f"max_threads must be in 1..{numba.config.NUMBA_NUM_THREADS}, "
                             f"got {max_threads!r}")
        self.clock = clock                      # seconds (tests pass a fake one)
        self.arms = [(serial, 1)] + [(parallel, k) for k in range(2, top + 1)]
        self.calls = [0] * len(self.arms)
        self.cost = [None] * len(self.arms)     # mean seconds per item, None: not timed yet
        self.since = [0.0] * len(self.arms)     # seconds spent elsewhere since it was tried

    @property
    def threads(self):
        """The thread count of the arm in use (1: the serial kernel)."""
        return self.arms[self._best(len(self.arms))][1]

    def _best(self, allowed):
        tried = [i for i in range(allowed) if self.cost[i] is not None]
        return min(tried, key=lambda i: self.cost[i]) if tried else 0

    def _pick(self, allowed, items):
        """The arm to run among the first ``allowed`` (those within numba's thread count)."""
        for i in range(allowed):
            if self.cost[i] is None:
                return i
        best = self._best(allowed)
        for i in range(allowed):   # an arm is due once the others spent 1/EXPLORE times what
            if i != best and self.since[i] * EXPLORE >= self.cost[i] * items:  # it would cost
                return i
        return best

    def __call__(self, *args):
        items = max(1, len(args[0]))
        before = swap_threads(0)   # a lower count set by the caller is respected
        i = self._pick(sum(threads <= before for _, threads in self.arms), items)
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
            self.calls[i] += 1
            if self.calls[i] > 1:  # the first call may load or compile the kernel: not timed
                old = self.cost[i]
                per_item = seconds / items
                self.cost[i] = per_item if old is None else old + SMOOTHING * (per_item - old)
            for j in range(len(self.arms)):
                self.since[j] = 0.0 if j == i else self.since[j] + seconds


def adaptive(serial, parallel):
    """The one ``Adaptive`` of this pair of kernels in this process (so that what it learnt
    about the machine's load carries over from call to call and object to object)."""
    key = (serial, parallel)
    if key not in _cache:
        _cache[key] = Adaptive(serial, parallel)
    return _cache[key]
