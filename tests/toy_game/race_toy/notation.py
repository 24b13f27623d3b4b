"""The dice race's text notation, ``pos=0,2,1 to_move=1 roll=3`` (``roll=0``: the die is still
to roll), and its two moves, ``step`` (one square) and ``jump`` (the roll)."""
import re
from typing import NamedTuple

from savanna.errors import clip

NUM_PLAYERS = 3
ACTIONS = ("step", "jump")
POSITION = re.compile(r"pos=(\d+),(\d+),(\d+) to_move=([0-2]) roll=([0-3])")


class Position(NamedTuple):
    pos: tuple
    to_move: int
    roll: int


def parse(text):
    """The ``Position`` of ``text``, or a ValueError saying how a position is written."""
    match = POSITION.fullmatch(text) if isinstance(text, str) else None
    if match is None:
        raise ValueError("a position is written 'pos=0,2,1 to_move=1 roll=3' (roll 0..3), "
                         f"got {clip(text)}")
    values = [int(v) for v in match.groups()]
    return Position(tuple(values[:3]), values[3], values[4])


def format(pos):
    return f"pos={','.join(map(str, pos.pos))} to_move={pos.to_move} roll={pos.roll}"


def action_name(action):
    return ACTIONS[action]


def parse_action(text):
    if text not in ACTIONS:
        raise ValueError(f"a move is 'step' or 'jump', got {clip(text)}")
    return ACTIONS.index(text)
