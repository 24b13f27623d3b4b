"""Per-state random streams for kernels (splitmix64).

Each state of a batch owns one ``uint64`` stream, so results never depend on the number of
threads or on the order in which states are processed. Kernels never touch ``np.random``.
"""
import numpy as np
from numba import njit

from savanna.errors import clip

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


def as_generator(rng):
    """``rng`` as a ``np.random.Generator``: a Generator (used as is), an int seed >= 0, or
    None (fresh entropy). Anything else is a one-line ValueError, before numpy sees it."""
    if rng is None or isinstance(rng, np.random.Generator):
        return np.random.default_rng(rng)
    if isinstance(rng, (int, np.integer)) and not isinstance(rng, bool) and rng >= 0:
        return np.random.default_rng(int(rng))
    raise ValueError(f"rng must be None, an int seed >= 0 or a np.random.Generator, "
                     f"got {clip(rng)}")


def make_streams(rng, n):
    """``n`` independent stream seeds drawn from ``rng`` (see ``as_generator``)."""
    return as_generator(rng).integers(0, np.iinfo(np.uint64).max, size=n, dtype=np.uint64,
                                      endpoint=True)


@njit(cache=True, inline="always")
def next_u64(streams, i):
    """Advance stream ``i`` and return 64 random bits."""
    z = streams[i] + _GOLDEN
    streams[i] = z
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@njit(cache=True, inline="always")
def below(streams, i, k):
    """A uniform integer in ``[0, k)`` for ``0 < k < 2**32`` (multiply-shift, no modulo bias)."""
    return np.int64(((next_u64(streams, i) >> np.uint64(32)) * np.uint64(k)) >> np.uint64(32))


@njit(cache=True, inline="always")
def uniform(streams, i):
    """A uniform float in ``[0, 1)`` with 53 random bits."""
    return np.float64(next_u64(streams, i) >> np.uint64(11)) * (1.0 / 9007199254740992.0)
