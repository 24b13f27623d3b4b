"""Nim's text notation: ``heaps=3,5,7 to_move=0``; action ``b2`` takes 2 from heap b."""
import re
from typing import NamedTuple

from nim_toy.spec import HEAP_NAMES, MAX_HEAP, NUM_HEAPS
from savanna.errors import clip

POSITION = re.compile(r"heaps=(\d),(\d),(\d) to_move=([01])")
ACTION = re.compile(r"([abc])([1-7])")


class Position(NamedTuple):
    heaps: tuple
    to_move: int


def parse(text):
    """The ``Position`` of ``text``, or a ValueError saying how a position is written."""
    match = POSITION.fullmatch(text) if isinstance(text, str) else None
    if match is None:
        raise ValueError(f"a position is written 'heaps=3,5,7 to_move=0', got {clip(text)}")
    return Position(tuple(int(h) for h in match.groups()[:NUM_HEAPS]), int(match[4]))


def format(pos):
    return f"heaps={','.join(map(str, pos.heaps))} to_move={pos.to_move}"


def action_name(action):
    return f"{HEAP_NAMES[action // MAX_HEAP]}{action % MAX_HEAP + 1}"


def parse_action(text):
    match = ACTION.fullmatch(text) if isinstance(text, str) else None
    if match is None:
        raise ValueError(f"a move is a heap a..c and a count 1..7 ('b2'), got {clip(text)}")
    return HEAP_NAMES.index(match[1]) * MAX_HEAP + int(match[2]) - 1
