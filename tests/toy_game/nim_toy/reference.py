"""Nim's rules in plain Python, the oracle the kernels are checked against (no numba)."""
from typing import NamedTuple

from nim_toy.spec import HEAP_NAMES, MAX_HEAP, START
from savanna.codes import TERMINAL


class State(NamedTuple):
    heaps: tuple
    to_move: int
    misere: bool


def start(misere=False):
    return State(START, 0, misere)


def from_position(pos, misere=False):
    """The state of a ``notation.Position``."""
    return State(tuple(pos.heaps), pos.to_move, misere)


def current_player(state):
    return TERMINAL if sum(state.heaps) == 0 else state.to_move


def legal_actions(state):
    return [heap * MAX_HEAP + taken - 1 for heap in range(len(HEAP_NAMES))
            for taken in range(1, state.heaps[heap] + 1)]


def step(state, action):
    """``(next state, rewards)`` after a legal ``action``."""
    heap, taken = divmod(action, MAX_HEAP)
    heaps = tuple(h - (taken + 1) * (k == heap) for k, h in enumerate(state.heaps))
    if sum(heaps):
        return state._replace(heaps=heaps, to_move=1 - state.to_move), [0.0, 0.0]
    winner = 1 - state.to_move if state.misere else state.to_move
    return state._replace(heaps=heaps), [1.0 if p == winner else -1.0 for p in (0, 1)]


def observe(state, player):
    return [*state.heaps, int(state.to_move == player), int(state.misere)]
