"""Nim's observation kernel: ``spec.OBS`` from the observer's seat."""
from numba import njit


@njit(cache=True)
def observe_one(s, i, player, out):
    r = s[i]
    for heap in range(len(r.heaps)):
        out[heap] = r.heaps[heap]
    out[len(r.heaps)] = r.to_move == player
    out[len(r.heaps) + 1] = r.misere
