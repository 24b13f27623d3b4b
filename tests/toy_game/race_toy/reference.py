"""The dice race's rules in plain Python, the oracle the kernels are checked against."""
from typing import NamedTuple

from savanna.codes import CHANCE, TERMINAL

PLAYERS = 3
DIE = 3


class State(NamedTuple):
    pos: tuple
    to_move: int
    roll: int
    goal: int


def from_position(pos, goal=6):
    """The state of a ``notation.Position`` in a race to ``goal``."""
    return State(tuple(pos.pos), pos.to_move, pos.roll, goal)


def current_player(state):
    if max(state.pos) >= state.goal:
        return TERMINAL
    return CHANCE if state.roll == 0 else state.to_move


def legal_actions(state):
    return [0, 1] if current_player(state) >= 0 else []


def chance_outcomes(state):
    """``{outcome: probability}``: outcome ``k`` rolls ``k + 1``."""
    return {face - 1: 1 / DIE for face in range(1, DIE + 1)}


def apply_chance(state, outcome):
    return state._replace(roll=outcome + 1)


def step(state, action):
    """``(next state, rewards)`` after a legal ``action``: step one square or jump the roll."""
    mover = state.to_move
    pos = list(state.pos)
    pos[mover] += 1 if action == 0 else state.roll
    if pos[mover] >= state.goal:
        return (state._replace(pos=tuple(pos), roll=0),
                [1.0 if p == mover else -0.5 for p in range(PLAYERS)])
    return State(tuple(pos), (mover + 1) % PLAYERS, 0, state.goal), [0.0] * PLAYERS


def observe(state, player):
    return [[state.pos[(player + k) % PLAYERS] for k in range(PLAYERS)],
            [state.roll, int(state.to_move == player), state.goal]]
