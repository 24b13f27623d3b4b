"""Nim's declared facts: the heaps, the action ids, the observation layout, the longest game.

Action ``heap * MAX_HEAP + taken - 1`` takes ``taken`` (1..7) objects from heap ``heap``
(0..2, named a, b, c).
"""
from savanna.layout import Layout

NUM_PLAYERS = 2
START = (3, 5, 7)  # the heaps at the start
NUM_HEAPS = len(START)
MAX_HEAP = max(START)
HEAP_NAMES = "abc"
NUM_ACTIONS = NUM_HEAPS * MAX_HEAP
MAX_PLIES = sum(START)  # every move takes at least one object

OBS = Layout(
    ("heaps", NUM_HEAPS, "the objects left in heaps a, b, c (0..7)"),
    ("to_move", 1, "the observer is to move"),
    ("misere", 1, "taking the last object loses"),
)
__doc__ = OBS.document(__doc__)
