"""Which Nim states some game reaches (``valid_one``), and why the others do not."""
from numba import njit

from nim_toy.spec import NUM_HEAPS

STATE_ERRORS = (
    "",
    "a heap outside 0..its size at the start",
    "to_move is not 0 or 1",
    "misere is not this game's",
    "to_move that no order of moves gives (the first player moves first, one heap a move)",
)
HEAP, TO_MOVE, MISERE, ORDER = range(1, len(STATE_ERRORS))


@njit(cache=True)
def valid_one(s, i, base):
    """0 if state ``i`` is reached from ``base``'s heaps, else a ``STATE_ERRORS`` code. The
    ``m`` moves so far took ``taken`` objects from ``changed`` heaps, so ``changed <= m <=
    taken``; the player to move is ``m % 2`` (the last mover's, ``(m - 1) % 2``, at the end)."""
    r = s[i]
    taken = 0
    changed = 0
    for heap in range(NUM_HEAPS):
        if r.heaps[heap] < 0 or r.heaps[heap] > base[0].heaps[heap]:
            return HEAP
        taken += base[0].heaps[heap] - r.heaps[heap]
        changed += r.heaps[heap] != base[0].heaps[heap]
    if r.to_move != 0 and r.to_move != 1:
        return TO_MOVE
    if r.misere != base[0].misere:
        return MISERE
    over = r.heaps.sum() == 0
    parity = (r.to_move + over) % 2  # of m
    if taken == changed and changed % 2 != parity:
        return ORDER
    return 0
