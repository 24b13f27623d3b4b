"""Kuhn poker's rules in plain Python, the oracle the kernels are checked against."""
from typing import NamedTuple

from savanna.codes import CHANCE, TERMINAL


class State(NamedTuple):
    players: int
    cards: tuple  # the cards dealt so far, seat 0 first
    play: tuple  # the decisions so far: 0 pass, 1 bet


def from_position(pos):
    """The state of a ``notation.Position``."""
    return State(len(pos.cards), tuple(c for c in pos.cards if c is not None), pos.play)


def _bettor(state):
    return state.play.index(1) if 1 in state.play else None


def current_player(state):
    if len(state.cards) < state.players:
        return CHANCE
    bettor = _bettor(state)
    if len(state.play) == state.players + (bettor or 0):
        return TERMINAL
    return len(state.play) % state.players


def legal_actions(state):
    return [0, 1] if current_player(state) >= 0 else []


def chance_outcomes(state):
    """``{card: probability}``: the cards not dealt yet, alike."""
    free = [c for c in range(state.players + 1) if c not in state.cards]
    return {card: 1 / len(free) for card in free}


def apply_chance(state, outcome):
    return state._replace(cards=state.cards + (outcome,))


def chips(state, seat):
    """The ante, and one more chip if ``seat`` bet or called."""
    return 2 if 1 in state.play[seat::state.players] else 1


def step(state, action):
    """``(next state, rewards)``: at the end of the hand the best card shown takes the pot
    (every card when nobody bet, else the bettor's and the callers'), rewards scaled by the
    most a seat can win."""
    state = state._replace(play=state.play + (action,))
    if current_player(state) != TERMINAL:
        return state, [0.0] * state.players
    shown = [p for p in range(state.players)
             if _bettor(state) is None or chips(state, p) == 2]
    winner = max(shown, key=lambda p: state.cards[p])
    pot = sum(chips(state, p) for p in range(state.players))
    scale = 2 * (state.players - 1)
    return state, [((pot if p == winner else 0) - chips(state, p)) / scale
                   for p in range(state.players)]


def observe(state, player):
    """Own card (one-hot over J Q K A), then from the observer's seat on: who is to move,
    who bet, who put a second chip in."""
    out = [0] * 13
    if player < len(state.cards):
        out[state.cards[player]] = 1
    to_move = current_player(state)
    bettor = _bettor(state)
    for k in range(state.players):
        p = (player + k) % state.players
        out[4 + k] = int(to_move == p)
        out[7 + k] = int(bettor == p)
        out[10 + k] = chips(state, p) - 1
    return out
