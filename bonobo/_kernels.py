"""Bonobo Beach on bitboards: state dtype, lookup tables and the scalar numba kernels.

Triangle ``t`` is bit ``t`` of a uint64 (54 bits), spot ``s`` bit ``s`` (19 bits); slots, spots
and symbols are the tables of ``savanna.bonobo.spec``; the fields of ``STATE_DTYPE`` are described
where it is declared. Activation is not stored: a
free triangle is activated when no neighbour is free, a function of ``covered`` alone. The pile
is a multiset of counts, never an order: a draw is a chance node with probability
``pile[o] / sum(pile)``.
"""
import numpy as np
from numba import njit

from savanna.bits import ONE, lowest_bit, popcount
from savanna.bonobo import spec
from savanna.codes import CHANCE, TERMINAL

# ----- declared facts ------------------------------------------------------------------------
NUM_ACTIONS = spec.NUM_ACTIONS     # 92: pawn s (0..18), draw (19), tile on slot k (20 + k)
DRAW = spec.DRAW
TILE = spec.TILE
CHOOSE, DRAWING, PLACE, END = range(4)  # the order of spec.PHASES

# packed, so that tobytes() has no padding
STATE_DTYPE = np.dtype([
    ("covered", np.uint64),                    # triangles under a tile
    ("slots", np.uint64, (2,)),                # placed slots: slot k is bit k & 63 of slots[k >> 6]
    ("pawns", np.uint64, (4,)),                # spots of each player's pawns (supply: 4 minus)
    ("score", np.int16, (4,)),                 # running scores (the pawns' added at the end)
    ("tval", np.int8, (spec.NUM_TRIANGLES,)),  # base value of the tile on each triangle, or 0
    ("pile", np.int8, (len(spec.VALUES),)),    # tiles left per value, in outcome order
    ("drawn", np.int8),                        # outcome of the tile in hand (PLACE), else -1
    ("phase", np.int8),                        # CHOOSE, DRAWING (chance), PLACE, END
    ("to_move", np.int8),                      # who decides or draws (at END: the last to)
    ("num_players", np.int8),                  # 2..4; seats >= num_players stay zero
])

ZERO = np.uint64(0)
ALL_TRIANGLES = np.uint64((1 << spec.NUM_TRIANGLES) - 1)
SPOT_COUNT = spec.NUM_SPOTS
NUM_SLOTS = spec.NUM_SLOTS
PAWNS = spec.PAWNS_PER_PLAYER


# ----- lookup tables (plain numpy, built once, never mutated) --------------------------------
def _mask(bits):
    m = 0
    for b in bits:
        m |= 1 << b
    return m


NEIGHBOURS = np.array([_mask(spec.NEIGHBOURS[t]) for t in range(spec.NUM_TRIANGLES)],
                      np.uint64)
SLOT_MASK = np.array([_mask(pair) for pair in spec.SLOTS], np.uint64)
SLOT_TRIS = np.array(spec.SLOTS, np.int64)
SPOT_MASK = np.array([_mask(tris) for tris in spec.SPOT_TRIANGLES], np.uint64)
SPOT_TRIS = np.array(spec.SPOT_TRIANGLES, np.int64)
TRI_SPOTS = np.array([_mask(s for s in range(SPOT_COUNT) if t in spec.SPOT_TRIANGLES[s])
                      for t in range(spec.NUM_TRIANGLES)], np.uint64)
TOILETS = np.array(spec.TOILETS, np.int64)
TOILET_NEIGHBOURS = NEIGHBOURS[TOILETS]
TOILET_AREA = TOILET_NEIGHBOURS | ONE << TOILETS.astype(np.uint64)  # toilet and neighbours
TOILET_SPOTS = TRI_SPOTS[TOILETS]
SYMBOL_MASK = np.array([_mask(t for t in range(spec.NUM_TRIANGLES)
                              if spec.SYMBOLS[t] == sym)
                        for sym in "TPD"], np.uint64)   # toilet, parasol, dune
PARASOL_MASK = SYMBOL_MASK[1]
DUNE_MASK = SYMBOL_MASK[2]
VALUES = np.array(spec.VALUES, np.int64)
TILE_COUNTS = np.array(spec.TILE_COUNTS, np.int64)


# ----- rule helpers --------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _bit(k):
    return ONE << np.uint64(k)


@njit(cache=True)
def _any_free_slot(covered):
    for k in range(NUM_SLOTS):
        if covered & SLOT_MASK[k] == ZERO:
            return True
    return False


@njit(cache=True)
def _activated(covered):
    """Free triangles with no free neighbour."""
    free = ALL_TRIANGLES & ~covered
    act = ZERO
    rest = free
    while rest:
        t = lowest_bit(rest)
        rest &= rest - ONE
        if NEIGHBOURS[t] & free == ZERO:
            act |= _bit(t)
    return act


@njit(cache=True, inline="always")
def _barred_spots(covered):
    """Spots beside an activated toilet (a free toilet triangle with no free neighbour)."""
    barred = ZERO
    for j in range(len(TOILET_AREA)):
        if covered & TOILET_AREA[j] == TOILET_NEIGHBOURS[j]:
            barred |= TOILET_SPOTS[j]
    return barred


@njit(cache=True)
def _legal_spots(r):
    """Spots a pawn may go to (rules §4), whoever places it."""
    taken = r.pawns[0] | r.pawns[1] | r.pawns[2] | r.pawns[3]
    barred = _barred_spots(r.covered)
    spots = ZERO
    for s in range(SPOT_COUNT):
        if SPOT_MASK[s] & ~r.covered != ZERO:
            spots |= _bit(s)
    return spots & ~taken & ~barred


@njit(cache=True, inline="always")
def _can_draw(r):
    n = 0
    for o in range(8):
        n += r.pile[o]
    return n > 0 and _any_free_slot(r.covered)


@njit(cache=True)
def _spot_sum(r, s, absolute):
    total = 0
    for j in range(6):
        v = np.int64(r.tval[SPOT_TRIS[s, j]])
        total += abs(v) if absolute else v
    return total


@njit(cache=True)
def _place_tile(r, k):
    """Cover slot ``k`` with the tile in hand, then score completed pawns and let newly
    activated toilets chase their pawns (rules §5 B, in that order)."""
    before = _barred_spots(r.covered)
    a, b = SLOT_TRIS[k, 0], SLOT_TRIS[k, 1]
    r.covered |= SLOT_MASK[k]
    r.slots[k >> 6] |= _bit(k & 63)
    v = VALUES[r.drawn]
    r.tval[a] = v
    r.tval[b] = v
    r.drawn = -1
    near = TRI_SPOTS[a] | TRI_SPOTS[b]
    for p in range(r.num_players):
        done = r.pawns[p] & near
        while done:
            s = lowest_bit(done)
            done &= done - ONE
            if SPOT_MASK[s] & ~r.covered == ZERO:
                r.score[p] += _spot_sum(r, s, False)
                r.pawns[p] &= ~_bit(s)
    chased = _barred_spots(r.covered) & ~before
    for p in range(r.num_players):
        r.pawns[p] &= ~chased


@njit(cache=True)
def _end_turn(r, rewards):
    """Give the turn to the next player who can act; if nobody can, score and end (§6)."""
    P = r.num_players
    draw = _can_draw(r)
    spots = _legal_spots(r) != ZERO
    for d in range(1, P + 1):
        p = (r.to_move + d) % P
        if draw or (spots and popcount(r.pawns[p]) < PAWNS):
            r.to_move = p
            r.phase = CHOOSE
            return
    act = _activated(r.covered)
    for p in range(P):
        rest = r.pawns[p]
        while rest:
            s = lowest_bit(rest)
            rest &= rest - ONE
            near = SPOT_MASK[s] & act
            total = _spot_sum(r, s, near & PARASOL_MASK != ZERO)
            r.score[p] += total << popcount(near & DUNE_MASK)
    r.phase = END
    best = r.score[0]
    for p in range(1, P):
        best = max(best, r.score[p])
    winners = 0
    for p in range(P):
        winners += r.score[p] == best
    for p in range(P):
        share = 1.0 / winners if r.score[p] == best else 0.0
        rewards[p] = P / (P - 1.0) * (share - 1.0 / P)


# ----- the seven kernels of savanna.game.Kernels ----------------------------------------------
@njit(cache=True)
def reset_one(s, i, base, streams):
    s[i] = base[0]


@njit(cache=True)
def current_player_one(s, i):
    ph = s[i].phase
    if ph == DRAWING:
        return CHANCE
    if ph == END:
        return TERMINAL
    return np.int64(s[i].to_move)


@njit(cache=True)
def legal_actions_one(s, i, out):
    r = s[i]
    n = 0
    if r.phase == PLACE:
        for k in range(NUM_SLOTS):
            if r.covered & SLOT_MASK[k] == ZERO:
                out[n] = TILE + k
                n += 1
    elif r.phase == CHOOSE:
        if popcount(r.pawns[r.to_move]) < PAWNS:
            rest = _legal_spots(r)
            while rest:
                out[n] = lowest_bit(rest)
                rest &= rest - ONE
                n += 1
        if _can_draw(r):
            out[n] = DRAW
            n += 1
    return n


@njit(cache=True)
def step_one(s, i, action, rewards):
    r = s[i]
    rewards[:] = 0.0
    if action == DRAW:
        r.phase = DRAWING
        return
    if action < DRAW:
        r.pawns[r.to_move] |= _bit(action)
    else:
        _place_tile(r, action - TILE)
    _end_turn(r, rewards)


@njit(cache=True)
def chance_probs_one(s, i, probs):
    r = s[i]
    total = 0
    for o in range(8):
        total += r.pile[o]
    for o in range(8):
        probs[o] = r.pile[o] / total


@njit(cache=True)
def apply_chance_one(s, i, outcome):
    r = s[i]
    r.pile[outcome] -= 1
    r.drawn = outcome
    r.phase = PLACE


@njit(cache=True)
def scores_one(s, i, out):
    for p in range(s[i].num_players):
        out[p] = s[i].score[p]
