"""Kuhn poker's facts, state dtype, scalar kernels and state checks (numba).

A state holds the cards dealt (-1: not yet) and the betting so far, one decision per entry of
``history`` (0 pass, 1 bet). Seats decide in turn from seat 0; the first bet makes every later
pass a fold; the hand ends when every seat has passed, or when the turn comes back to the
bettor. The other facts follow from the history: ``bettor`` is its first bet, a seat is in at
a showdown after a bet when it bet or called.
"""
import numpy as np
from numba import njit

from savanna.codes import CHANCE, TERMINAL

MAX_PLAYERS = 3
NUM_ACTIONS = 2  # 0 pass (check, or fold after a bet), 1 bet (or call)
DECK = MAX_PLAYERS + 1  # cards 0..players, J Q K A
MAX_PLIES = 2 * MAX_PLAYERS - 1  # passes up to the last seat, its bet, the others' answers
# own card (one-hot), then for each seat from the observer's: to move, bettor, chips in
OBS_SIZE = DECK + 3 * MAX_PLAYERS

STATE_DTYPE = np.dtype([("players", np.int8), ("cards", np.int8, (MAX_PLAYERS,)),
                        ("moves", np.int8), ("history", np.int8, (MAX_PLIES,))])

STATE_ERRORS = (
    "",
    "players is not this game's",
    "a card outside the deck, dealt twice, or dealt out of seat order",
    "a history entry that is not 0 or 1, or betting before every card is dealt",
    "more moves than the hand lasts",
)
PLAYERS, CARDS, HISTORY, LENGTH = range(1, len(STATE_ERRORS))


@njit(cache=True)
def reset_one(s, i, base, streams):
    s[i] = base[0]


@njit(cache=True)
def dealt(r):
    """The cards dealt so far (seats 0, 1, ... in order)."""
    n = 0
    while n < r.players and r.cards[n] >= 0:
        n += 1
    return n


@njit(cache=True)
def bettor(r):
    """The seat that bet first (the history's index of it), or -1."""
    for k in range(r.moves):
        if r.history[k] == 1:
            return k
    return -1


@njit(cache=True)
def hand_length(r):
    """The moves the hand lasts with the history so far: every seat once, and after a bet
    until the turn is back to the bettor."""
    return r.players + max(bettor(r), 0)


@njit(cache=True)
def current_player_one(s, i):
    r = s[i]
    if dealt(r) < r.players:
        return CHANCE
    if r.moves == hand_length(r):
        return TERMINAL
    return r.moves % r.players


@njit(cache=True)
def legal_actions_one(s, i, out):
    out[0] = 0
    out[1] = 1
    return 2


@njit(cache=True)
def chips(r, p):
    """The chips seat ``p`` has put in: the ante, and one more if it bet or called."""
    for k in range(p, r.moves, r.players):
        if r.history[k] == 1:
            return 2
    return 1


@njit(cache=True)
def step_one(s, i, action, rewards):
    r = s[i]
    rewards[:] = 0.0
    r.history[r.moves] = action
    r.moves += 1
    if r.moves < hand_length(r):
        return
    contested = bettor(r) >= 0  # after a bet only the seats that called show their cards
    winner = -1
    pot = 0
    for p in range(r.players):
        pot += chips(r, p)
        if (not contested or chips(r, p) == 2) and (winner < 0 or r.cards[p] > r.cards[winner]):
            winner = p
    scale = 2.0 * (r.players - 1)  # the most a seat can win: returns lie in [-1, 1]
    for p in range(r.players):
        rewards[p] = ((pot if p == winner else 0) - chips(r, p)) / scale


@njit(cache=True)
def chance_probs_one(s, i, probs):
    r = s[i]
    n = dealt(r)
    free = r.players + 1 - n
    for card in range(r.players + 1):
        probs[card] = 1.0 / free
        for p in range(n):
            if r.cards[p] == card:
                probs[card] = 0.0


@njit(cache=True)
def apply_chance_one(s, i, outcome):
    r = s[i]
    r.cards[dealt(r)] = outcome


@njit(cache=True)
def observe_one(s, i, player, out):
    r = s[i]
    out[:] = 0
    if r.cards[player] >= 0:
        out[r.cards[player]] = 1
    to_move = current_player_one(s, i)
    first = bettor(r)
    for k in range(r.players):
        p = (player + k) % r.players
        out[DECK + k] = to_move == p
        out[DECK + MAX_PLAYERS + k] = first >= 0 and first % r.players == p
        out[DECK + 2 * MAX_PLAYERS + k] = chips(r, p) - 1


@njit(cache=True)
def valid_one(s, i, base):
    """0 if some hand reaches state ``i``, else a ``STATE_ERRORS`` code."""
    r = s[i]
    if r.players != base[0].players:
        return PLAYERS
    n = dealt(r)
    for p in range(MAX_PLAYERS):
        if p >= n and r.cards[p] != -1 or r.cards[p] > r.players:
            return CARDS
        for q in range(p):
            if r.cards[p] >= 0 and r.cards[p] == r.cards[q]:
                return CARDS
    if r.moves < 0 or r.moves > MAX_PLIES or (r.moves > 0 and n < r.players):
        return HISTORY
    for k in range(MAX_PLIES):
        if r.history[k] != 0 and (k >= r.moves or r.history[k] != 1):
            return HISTORY
    if r.moves > hand_length(r) or bettor(r) >= r.players:
        return LENGTH
    return 0
