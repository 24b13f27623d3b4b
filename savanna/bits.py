"""Bit helpers for uint64 bitboards, compiled with numba.

Every operand is ``np.uint64``: in numba ``uint64 | int64`` silently becomes ``int64``.
"""
import numpy as np
from numba import njit

ONE = np.uint64(1)
_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)


@njit(cache=True, inline="always")
def bit(cell):
    """The mask with only ``cell`` set."""
    return ONE << np.uint64(cell)


@njit(cache=True, inline="always")
def popcount(x):
    """Number of set bits of a uint64 (SWAR, branch-free)."""
    x = np.uint64(x)
    x = x - ((x >> np.uint64(1)) & _M1)
    x = (x & _M2) + ((x >> np.uint64(2)) & _M2)
    x = (x + (x >> np.uint64(4))) & _M4
    return np.int64((x * _H01) >> np.uint64(56))


@njit(cache=True, inline="always")
def lowest_bit(x):
    """Index of the lowest set bit of a non-zero uint64."""
    x = np.uint64(x)
    return popcount((x & (~x + ONE)) - ONE)


@njit(cache=True, inline="always")
def set_cells(out, base, cells):
    """``out[base + c] = 1`` for every set bit ``c`` of ``cells``: a bitboard written into an
    observation plane."""
    while cells:
        out[base + lowest_bit(cells)] = 1
        cells &= cells - ONE
