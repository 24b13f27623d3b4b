"""Kuhn poker's text notation, ``cards=K,J,- play=pb``: each seat's card (``J Q K A``, ``-``
not dealt yet) and the decisions so far (``p`` pass, ``b`` bet; ``-`` none yet); its two
moves, ``pass`` and ``bet``; and the chance outcomes' names, the cards."""
import re
from typing import NamedTuple

from savanna.errors import clip

CARDS = "JQKA"
ACTIONS = ("pass", "bet")
POSITION = re.compile(r"cards=([-JQKA](?:,[-JQKA]){1,2}) play=(-|[pb]{1,5})")


class Position(NamedTuple):
    cards: tuple  # a card 0..3 per seat, or None (not dealt yet)
    play: tuple  # the decisions so far, 0 pass, 1 bet


def parse(text):
    """The ``Position`` of ``text``, or a ValueError saying how a position is written."""
    match = POSITION.fullmatch(text) if isinstance(text, str) else None
    if match is None:
        raise ValueError("a position is written 'cards=K,J,- play=pb' (a card J Q K A or - "
                         f"per seat; play - or p and b), got {clip(text)}")
    cards, play = match.groups()
    return Position(tuple(None if c == "-" else CARDS.index(c) for c in cards.split(",")),
                    () if play == "-" else tuple("pb".index(m) for m in play))


def format(pos):  # noqa: A001 - the notation's verb
    cards = ",".join("-" if c is None else CARDS[c] for c in pos.cards)
    return f"cards={cards} play={''.join('pb'[m] for m in pos.play) or '-'}"


def card_name(card):
    return CARDS[card]


def action_name(action):
    return ACTIONS[action]


def parse_action(text):
    if text not in ACTIONS:
        raise ValueError(f"a move is 'pass' or 'bet', got {clip(text)}")
    return ACTIONS.index(text)
