"""Drôles de Zèbres on bitboards: state dtype, lookup tables and the scalar numba kernels.

The 30 cells are bits 0..29 of a uint64 (cell = row * 6 + col, ``a1`` = bit 0); the fields of
``STATE_DTYPE`` are described where it is declared. A state is exactly what the text notation
writes (hands are derived), so ``from_text(to_text(s))`` reproduces ``s`` byte for byte;
``valid_one`` accepts exactly the rows ``from_text`` can produce. Forced moves (a chain with no
swap left, a single Impala move, an empty hand) are applied inside ``step_one``, never offered.
"""
import numpy as np
from numba import njit

from savanna.bits import ONE, lowest_bit, popcount
from savanna.codes import TERMINAL
from savanna.zebres import spec
from savanna.zebres.spec import (
    BOARDS,
    KINDS,
    NUM_ACTIONS,
    NUM_CELLS,
    NUM_PLAYERS,
    SECTOR_MAPS,
    START,
    STOP,
    SWAP,
)

# ----- savanna.zebres.spec's facts as numba globals
# ---------------------------------------------------
NUM_TRACK = spec.TRACK_LENGTH

Z, G, E, L, C = range(5)
HAND = np.array([spec.TOKEN_COUNTS[k] for k in KINDS], np.int64)   # per player, per kind
VALUE = np.array([spec.TOKEN_VALUES[k] for k in KINDS], np.int64)  # face-up value
INAUGURATION_POINTS = spec.INAUGURATION_BONUS
IMPALA = spec.IMPALA  # impala +k = IMPALA + k

SETUP, PLACE, CROC, MOVE, END = range(5)  # the order of spec.PHASES

# Packed (78 bytes, no padding): NumPy copies structured rows field by field, so padding bytes
# would hold garbage and ``row.tobytes()`` would stop being a faithful hash.
STATE_DTYPE = np.dtype([
    ("own", np.uint64, (2,)),    # cells holding a token of each colour (0 red, 1 green)
    ("kind", np.uint64, (5,)),   # cells holding a token of each kind, either colour (Z G E L C)
    ("down", np.uint64),         # face-down tokens (only zebras and gazelles are turned down)
    ("swapped", np.uint64),      # during a crocodile chain: where the swapped gazelles now stand
    ("board", np.int8),          # 0 standard, 1 president (selects the sector and river tables)
    ("impala", np.int8),         # track position 0..21, -1 before it is placed
    ("inauguration", np.int8),   # -1 unclaimed, else the holder (claimed when a chain is over)
    ("to_move", np.int8),        # the player deciding (at the end: who made the last placement)
    ("phase", np.int8),          # SETUP, PLACE, CROC, MOVE, END
    ("croc", np.int8),           # the crocodile's cell during a chain, else -1
])

FULL = np.uint64((1 << NUM_CELLS) - 1)
ZERO = np.uint64(0)


# ----- lookup tables (plain numpy, built once) ------------------------------------------------
def _mask(cells):
    m = 0
    for c in cells:
        m |= 1 << c
    return m


NEIGHBOURS = np.array([_mask(spec.neighbours(c)) for c in range(NUM_CELLS)], np.uint64)
LINES = np.array([_mask(line) for line in spec.TRACK_LINES], np.uint64)
SECTORS = np.array([[_mask(c for c in range(NUM_CELLS) if SECTOR_MAPS[b][c] == "ABCDEF"[k])
                     for k in range(6)] for b in BOARDS], np.uint64)
# neighbours on the other side of a river, i.e. in another sector
ACROSS = np.array([[_mask(n for n in spec.neighbours(c)
                          if SECTOR_MAPS[b][n] != SECTOR_MAPS[b][c])
                    for c in range(NUM_CELLS)] for b in BOARDS], np.uint64)


# ----- small helpers --------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _bit(c):
    return ONE << np.uint64(c)


@njit(cache=True, inline="always")
def _occupied(r):
    return r.own[0] | r.own[1]


@njit(cache=True, inline="always")
def _hand(r, p, t):
    """Tokens of kind ``t`` still in player ``p``'s hand."""
    return HAND[t] - popcount(r.own[p] & r.kind[t])


@njit(cache=True, inline="always")
def _track(p):
    return p - NUM_TRACK if p >= NUM_TRACK else p


@njit(cache=True, inline="always")
def _impala_options(r, empty):
    """Bits 1..3 set for the Impala steps +1..+3 whose line has an empty cell."""
    opts = 0
    for k in range(1, 4):
        if LINES[_track(r.impala + k)] & empty:
            opts |= 1 << k
    return opts


@njit(cache=True, inline="always")
def _swap_targets(r, cell):
    """Face-up gazelles across a river from ``cell`` not yet swapped in this chain."""
    return ACROSS[r.board, cell] & r.kind[G] & ~(r.down | r.swapped)


@njit(cache=True)
def _scores(r):
    """(red, green) points if the game ended now (rules §6)."""
    up = ~r.down
    s0 = 0
    s1 = 0
    for k in range(6):
        sector = SECTORS[r.board, k]
        n0 = popcount(r.own[0] & sector)
        n1 = popcount(r.own[1] & sector)
        if n0 == n1:
            continue
        v = (VALUE[Z] * popcount(r.kind[Z] & sector & up)
             + VALUE[G] * popcount(r.kind[G] & sector & up)
             + VALUE[E] * popcount(r.kind[E] & sector) + VALUE[L] * popcount(r.kind[L] & sector))
        if n0 > n1:
            s0 += v
        else:
            s1 += v
    if r.inauguration == 0:
        s0 += INAUGURATION_POINTS
    elif r.inauguration == 1:
        s1 += INAUGURATION_POINTS
    return s0, s1


@njit(cache=True)
def _finish_placement(r, rewards):
    """After a placement and its effects: inauguration, end of game or the Impala move."""
    r.croc = -1
    r.swapped = ZERO
    occupied = _occupied(r)
    empty = FULL & ~occupied
    if r.inauguration < 0:
        for k in range(6):
            if SECTORS[r.board, k] & empty == ZERO:
                r.inauguration = r.to_move
                break
    if empty == ZERO:
        r.phase = END
        s0, s1 = _scores(r)
        if s0 != s1:
            w = 1.0 if s0 > s1 else -1.0
            rewards[0] = w
            rewards[1] = -w
        return
    opts = _impala_options(r, empty)
    if opts & (opts - 1):           # two or more options: the player decides
        r.phase = MOVE
        return
    if opts:
        k = lowest_bit(np.uint64(opts))
    else:                           # forced jump to the first line with an empty cell
        k = 4
        while LINES[_track(r.impala + k)] & empty == ZERO:
            k += 1
    r.impala = _track(r.impala + k)
    _pass_turn(r)


@njit(cache=True, inline="always")
def _pass_turn(r):
    """The other player places next, unless their hand is empty (rules §5.5)."""
    other = 1 - r.to_move
    if popcount(r.own[other]) < 15:
        r.to_move = other
    r.phase = PLACE


@njit(cache=True)
def _place(r, t, c, rewards):
    b = _bit(c)
    r.own[r.to_move] |= b
    r.kind[t] |= b
    if t == Z or t == G:
        if NEIGHBOURS[c] & r.kind[L]:
            r.down |= b
    elif t == L:
        adjacent = NEIGHBOURS[c]
        r.down |= adjacent & r.kind[Z]
        fled = adjacent & r.kind[G]
        if fled:
            keep = ~fled
            r.own[0] &= keep
            r.own[1] &= keep
            r.kind[G] &= keep
            r.down &= keep
    elif t == C:
        r.swapped = ZERO
        if _swap_targets(r, c):
            r.phase = CROC
            r.croc = c
            return
    _finish_placement(r, rewards)


@njit(cache=True)
def _swap(r, g, rewards):
    c = r.croc
    both = _bit(c) | _bit(g)
    r.kind[C] ^= both
    r.kind[G] ^= both
    p = r.to_move
    if r.own[p] & _bit(g) == ZERO:    # an opponent's gazelle: the colours swap too
        r.own[0] ^= both
        r.own[1] ^= both
    if NEIGHBOURS[c] & r.kind[L]:     # the gazelle lands next to a lion
        r.down |= _bit(c)
    r.swapped |= _bit(c)
    r.croc = g
    if _swap_targets(r, g) == ZERO:
        _finish_placement(r, rewards)


# ----- the seven kernels of savanna.game.Kernels ---------------------------------------------
@njit(cache=True)
def reset_one(s, i, base, streams):
    s[i] = base[0]


@njit(cache=True)
def current_player_one(s, i):
    r = s[i]
    return TERMINAL if r.phase == END else np.int64(r.to_move)


@njit(cache=True)
def legal_actions_one(s, i, out):
    r = s[i]
    phase = r.phase
    n = 0
    if phase == PLACE:
        empty = LINES[r.impala] & ~_occupied(r)
        p = r.to_move
        mine = r.own[p]
        for t in range(5):
            if popcount(mine & r.kind[t]) < HAND[t]:
                m = empty
                while m:
                    out[n] = t * NUM_CELLS + lowest_bit(m)
                    n += 1
                    m &= m - ONE
    elif phase == MOVE:
        opts = _impala_options(r, FULL & ~_occupied(r))
        for k in range(1, 4):
            if opts >> k & 1:
                out[n] = IMPALA + k
                n += 1
    elif phase == CROC:
        m = _swap_targets(r, r.croc)
        while m:
            out[n] = SWAP + lowest_bit(m)
            n += 1
            m &= m - ONE
        out[n] = STOP
        n += 1
    elif phase == SETUP:
        for p in range(NUM_TRACK):
            out[p] = START + p
        n = NUM_TRACK
    return n


@njit(cache=True)
def step_one(s, i, action, rewards):
    r = s[i]
    rewards[0] = 0.0
    rewards[1] = 0.0
    if action < START:
        t = action // NUM_CELLS
        _place(r, t, action - t * NUM_CELLS, rewards)
    elif action < SWAP:
        r.impala = action - START
        r.to_move = 1 - r.to_move
        r.phase = PLACE
    elif action < STOP:
        _swap(r, action - SWAP, rewards)
    elif action == STOP:
        _finish_placement(r, rewards)
    else:
        r.impala = _track(r.impala + action - IMPALA)
        _pass_turn(r)


@njit(cache=True)
def chance_probs_one(s, i, probs):
    """Zèbres has no chance nodes."""


@njit(cache=True)
def apply_chance_one(s, i, outcome):
    """Zèbres has no chance nodes."""


@njit(cache=True)
def scores_one(s, i, out):
    """out[:2] = the (red, green) points if the game ended now."""
    s0, s1 = _scores(s[i])
    out[0] = s0
    out[1] = s1


# ----- perft (rules §8) ------------------------------------------------------------------------
@njit(cache=True)
def _perft(stack, actions, depth):
    """Decision sequences of length ``depth`` from ``stack[0]``; ``stack`` and ``actions`` are
    scratch of ``depth`` rows. The last level is counted without being played."""
    count = np.zeros(depth, np.int64)
    next_ = np.zeros(depth, np.int64)
    rewards = np.zeros(NUM_PLAYERS, np.float32)
    count[0] = legal_actions_one(stack, 0, actions[0])
    if depth == 1:
        return count[0]
    total = 0
    level = 0
    while level >= 0:
        if next_[level] == count[level]:
            level -= 1
            continue
        a = actions[level, next_[level]]
        next_[level] += 1
        stack[level + 1] = stack[level]
        step_one(stack, level + 1, a, rewards)
        n = legal_actions_one(stack, level + 1, actions[level + 1])
        if level + 2 == depth:
            total += n
        else:
            level += 1
            count[level] = n
            next_[level] = 0
    return total


def perft(states, depth):
    """Number of distinct sequences of ``depth`` decisions from ``states[0]`` (rules §8).

    From the start, ``perft(start, 2) == 600``: 22 starts, then 5 kinds on the 5 or 6 cells of
    the line. Forced moves (see the module docstring) are not decisions.
    """
    if depth == 0:
        return 1
    stack = np.empty(depth, STATE_DTYPE)
    stack[0] = states[0]
    return int(_perft(stack, np.empty((depth, NUM_ACTIONS), np.int16), depth))
