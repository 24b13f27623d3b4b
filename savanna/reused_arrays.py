"""Fresh-looking output arrays without a fresh allocation per step: a set handed out earlier is
reused once nothing outside holds any of its arrays (the vector env's ``copy=True``; why: the
architecture guide).

>>> import numpy as np
>>> handouts = Handouts((np.zeros(3), np.zeros((3, 2))))
>>> dropped = [id(a) for a in handouts.take()]   # nothing keeps the set: given out again
>>> [id(a) for a in handouts.take()] == dropped
True
>>> kept = handouts.take()[0][1:]                # a view keeps its set: the next is new
>>> [id(a) for a in handouts.take()] == dropped
False
"""
import sys

import numpy as np

KEPT = 4  # sets remembered, the newest ones

EXACT_COUNTS = getattr(sys, "_is_gil_enabled", lambda: True)()


def references(arrays):
    """The reference count of each array (as seen from here: compared only with itself)."""
    return [sys.getrefcount(a) for a in arrays]


class Handouts:
    """Sets of arrays shaped like ``template`` for a caller to keep or drop."""

    def __init__(self, template):
        self.template = tuple(template)
        self.sets = []       # [(arrays, their reference counts while only this holds them)]

    def take(self):
        """A set that nothing outside holds (its contents are stale), or a new one. The
        sets are tried oldest first, the likeliest to be dropped: in a loop that keeps the
        last step's arrays, the first one tried is free."""
        for k, (arrays, free) in enumerate(self.sets):
            if references(arrays) == free:
                self.sets.append(self.sets.pop(k))
                return arrays
        arrays = tuple(np.empty_like(a) for a in self.template)
        if EXACT_COUNTS:   # the newest KEPT: a set the caller keeps for good ages out
            self.sets = [*self.sets[1 - KEPT:], (arrays, references(arrays))]
        return arrays
