"""Bonobo Beach on bitboards: state dtype, lookup tables and the scalar numba kernels.

Triangle ``t`` is bit ``t`` of a uint64 (54 bits), spot ``s`` bit ``s`` (19 bits); slots,
spots and symbols are the tables of ``bonobo.notation``. A state is one row of
``STATE_DTYPE`` (packed, so ``tobytes()`` has no padding)::

    covered      triangles under a tile
    slots[2]     placed slots: slot k is bit k & 63 of slots[k >> 6]
    pawns[4]     spots holding each player's pawns (a player's supply is 4 minus these)
    score[4]     running scores (the final pawn scoring is added when the game ends)
    tval[54]     base value of the tile on each triangle, 0 when free
    pile[8]      tiles left per value, in outcome order (values -4..-1, +1..+4)
    drawn        outcome index of the tile in hand (phase PLACE), else -1
    phase        CHOOSE, DRAWING (a chance node: the tile is drawn), PLACE, END
    to_move      the player deciding or drawing (at the end: who made the last decision)
    num_players  2..4; seats >= num_players stay zero

Activation is not stored: a free triangle is activated when no neighbour is free, a function
of ``covered`` alone, so it is permanent by construction. The pile is a multiset of counts,
never an order: each draw is a chance node with probability ``pile[o] / sum(pile)``.
"""
import numpy as np
from numba import njit

from bonobo import notation
from savanna.bits import ONE, lowest_bit, popcount
from savanna.codes import CHANCE, TERMINAL

# ----- declared facts ------------------------------------------------------------------------
NUM_ACTIONS = notation.NUM_ACTIONS     # 92: pawn s (0..18), draw (19), tile on slot k (20 + k)
MAX_CHANCE_OUTCOMES = len(notation.VALUES)    # 8
OBS_SIZE = notation.OBS.size
# observation offsets (numba freezes these module globals), from the layout in bonobo.notation
OBS_TILES = notation.OBS.offset("tiles")
OBS_ACTIVATED = notation.OBS.offset("activated")
OBS_SYMBOLS = notation.OBS.offset("symbols")
OBS_PAWNS = notation.OBS.offset("pawns")
OBS_LEGAL_SPOTS = notation.OBS.offset("legal_spots")
OBS_DRAWN = notation.OBS.offset("drawn")
OBS_PILE = notation.OBS.offset("pile")
OBS_SUPPLY = notation.OBS.offset("supply")
OBS_SCORE = notation.OBS.offset("score")
OBS_PHASE = notation.OBS.offset("phase")
OBS_TO_MOVE = notation.OBS.offset("to_move")
OBS_SEATS = notation.OBS.offset("seats")
__doc__ = notation.OBS.document(__doc__)
# Decisions in one game, at most: a pawn leaves a spot only when the spot is fully covered or
# beside an activated toilet, and both bar it for good, so each of the 19 spots receives at most
# one pawn; 54 triangles hold at most 27 tiles, each a draw and a placement: 19 + 2 * 27 = 73.
MAX_PLIES = notation.NUM_SPOTS + 2 * (notation.NUM_TRIANGLES // 2)
DRAW = notation.DRAW
TILE = notation.TILE
CHOOSE, DRAWING, PLACE, END = range(4)  # the order of notation.PHASES

STATE_DTYPE = np.dtype([
    ("covered", np.uint64),
    ("slots", np.uint64, (2,)),
    ("pawns", np.uint64, (4,)),
    ("score", np.int16, (4,)),
    ("tval", np.int8, (notation.NUM_TRIANGLES,)),
    ("pile", np.int8, (len(notation.VALUES),)),
    ("drawn", np.int8),
    ("phase", np.int8),
    ("to_move", np.int8),
    ("num_players", np.int8),
])

ZERO = np.uint64(0)
ALL_TRIANGLES = np.uint64((1 << notation.NUM_TRIANGLES) - 1)
SPOT_COUNT = notation.NUM_SPOTS
NUM_SLOTS = notation.NUM_SLOTS
PAWNS = notation.PAWNS_PER_PLAYER


# ----- lookup tables (plain numpy, built once, never mutated) --------------------------------
def _mask(bits):
    m = 0
    for b in bits:
        m |= 1 << b
    return m


NEIGHBOURS = np.array([_mask(notation.NEIGHBOURS[t]) for t in range(notation.NUM_TRIANGLES)],
                      np.uint64)
SLOT_MASK = np.array([_mask(pair) for pair in notation.SLOTS], np.uint64)
SLOT_TRIS = np.array(notation.SLOTS, np.int64)
SPOT_MASK = np.array([_mask(tris) for tris in notation.SPOT_TRIANGLES], np.uint64)
SPOT_TRIS = np.array(notation.SPOT_TRIANGLES, np.int64)
TRI_SPOTS = np.array([_mask(s for s in range(SPOT_COUNT) if t in notation.SPOT_TRIANGLES[s])
                      for t in range(notation.NUM_TRIANGLES)], np.uint64)
TOILETS = np.array(notation.TOILETS, np.int64)
TOILET_NEIGHBOURS = NEIGHBOURS[TOILETS]
TOILET_AREA = TOILET_NEIGHBOURS | ONE << TOILETS.astype(np.uint64)  # toilet and neighbours
TOILET_SPOTS = TRI_SPOTS[TOILETS]
SYMBOL_MASK = np.array([_mask(t for t in range(notation.NUM_TRIANGLES)
                              if notation.SYMBOLS[t] == sym)
                        for sym in "TPD"], np.uint64)   # toilet, parasol, dune
PARASOL_MASK = SYMBOL_MASK[1]
DUNE_MASK = SYMBOL_MASK[2]
VALUES = np.array(notation.VALUES, np.int64)
TILE_COUNTS = np.array(notation.TILE_COUNTS, np.int64)


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
def reset_one(s, i, template, streams):
    s[i] = template[0]


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


@njit(cache=True, inline="always")
def _plane(out, base, m):
    while m:
        out[base + lowest_bit(m)] = 1
        m &= m - ONE


@njit(cache=True)
def observe_one(s, i, player, out):
    """The observation from ``player``'s seat, laid out as ``notation.OBS``."""
    r = s[i]
    P = r.num_players
    out[:] = 0
    for t in range(notation.NUM_TRIANGLES):
        v = r.tval[t]
        if v != 0:
            o = v + 4 if v < 0 else v + 3
            out[OBS_TILES + o * notation.NUM_TRIANGLES + t] = 1
    _plane(out, OBS_ACTIVATED, _activated(r.covered))
    for k in range(3):
        _plane(out, OBS_SYMBOLS + k * notation.NUM_TRIANGLES, SYMBOL_MASK[k])
    for p in range(P):
        k = (p - player) % P
        _plane(out, OBS_PAWNS + k * SPOT_COUNT, r.pawns[p])
    _plane(out, OBS_LEGAL_SPOTS, _legal_spots(r))
    if r.phase == PLACE:
        out[OBS_DRAWN + r.drawn] = 1
    base = OBS_PILE
    for o in range(8):
        for j in range(TILE_COUNTS[o]):
            out[base + j] = r.pile[o] > j
        base += TILE_COUNTS[o]
    for p in range(P):
        k = (p - player) % P
        supply = PAWNS - popcount(r.pawns[p])
        for j in range(supply):
            out[OBS_SUPPLY + PAWNS * k + j] = 1
        shifted = min(255, max(0, np.int64(r.score[p]) + 128))
        for j in range(8):
            out[OBS_SCORE + 8 * k + j] = (shifted >> j) & 1
        out[OBS_SEATS + k] = 1
    out[OBS_PHASE + r.phase] = 1
    if r.phase != END:
        out[OBS_TO_MOVE + (r.to_move - player) % P] = 1


@njit(cache=True)
def scores_one(s, i, out):
    for p in range(s[i].num_players):
        out[p] = s[i].score[p]


# ----- validity: the states from_text can write ----------------------------------------------
# Reasons valid_one gives for an impossible state, by code (0: the state is possible).
STATE_ERRORS = (
    "",
    "num_players differs from the game's player count",
    "phase must be 0..3 (choose, chance, place, end)",
    "to_move is not a seat of this game",
    "drawn must be a value index 0..7 in phase place and -1 in the other phases",
    "covered has bits beyond triangle 53, or bits no placed slot covers",
    "slots has bits beyond slot 71",
    "two placed slots share a triangle",
    "tval of a placed slot must be one tile value (-4..-1, +1..+4) on both its triangles",
    "tval must be 0 on a free triangle",
    "pile[v] must be >= 0, and with the tiles of value v on the board and in hand make the "
    "game's count of that value (3,3,4,4,4,4,3,3)",
    "pawns and score of a seat >= num_players must be 0",
    "pawns has bits beyond spot 18",
    f"a player has more than {PAWNS} pawns on the board",
    "two pawns on one spot",
    "a pawn on a fully covered spot (it would have scored)",
    "a pawn beside an activated toilet (it would have been chased)",
    f"score out of reach: with the points still to score here it could pass "
    f"+-{notation.MAX_SCORE} (notation.score_headroom)",
    "phase chance or place with no free slot",
    "phase end while a player can still act",
)
(BAD_PLAYERS, BAD_PHASE, BAD_TO_MOVE, BAD_DRAWN, BAD_COVERED, BAD_SLOTS, OVERLAP, BAD_TVAL,
 TVAL_ON_FREE, BAD_PILE, ABSENT_SEAT, BAD_PAWNS, TOO_MANY_PAWNS, SHARED_SPOT, SURROUNDED,
 CHASED, BAD_SCORE, NO_FREE_SLOT, END_TOO_SOON) = range(1, len(STATE_ERRORS))
ALL_SPOTS = np.uint64((1 << SPOT_COUNT) - 1)
LAST_SLOTS = np.uint64((1 << (NUM_SLOTS - 64)) - 1)    # slots 64..71 in slots[1]
# Byte-parallel arithmetic: eight int8 fields packed in a uint64, field j in bits 8j..8j+7.
HIGH_BITS = np.uint64(0x8080808080808080)
LOW_BITS = np.uint64(0x7F7F7F7F7F7F7F7F)
BYTE_SUM = np.uint64(0x0101010101010101)     # (x * BYTE_SUM) >> 56 adds x's bytes
# before any draw
FULL_PILE = np.uint64(sum(c << 8 * o for o, c in enumerate(notation.TILE_COUNTS)))
SLOT_PAIR = np.array([a | b << 8 for a, b in notation.SLOTS], np.uint64)  # SLOT_TRIS in one load
BYTE = np.uint64(255)
# 6 less the spots at the corners of the slot's two triangles: the corner scorings a tile
# there can no longer have (valid_one's score room)
_SPOTS_AT = [sum(t in tris for tris in notation.SPOT_TRIANGLES)
             for t in range(notation.NUM_TRIANGLES)]
SLOT_SLACK = np.array([6 - _SPOTS_AT[a] - _SPOTS_AT[b] for a, b in notation.SLOTS], np.int64)
# A tile of value v on the board adds TILE_BIT[v + 4] to the packed counts; 0 where v is none.
TILE_BIT = np.array([1 << 8 * notation.VALUES.index(v) if v in notation.VALUES else 0
                     for v in range(-4, 5)], np.uint64)


@njit(cache=True, inline="always")
def _word(a, k, n):
    """``a[k : k + n]`` (int8, n <= 8) packed into a uint64, ``a[k + j]`` in bits 8j..8j+7."""
    w = ZERO
    for j in range(n):
        w |= np.uint64(np.uint8(a[k + j])) << np.uint64(8 * j)
    return w


@njit(cache=True, inline="always")
def _nonzero_bytes(w):
    """Bit 8j of the result is set iff byte j of ``w`` is not zero: adding 0x7F to a byte's
    low 7 bits sets its high bit iff they are not all zero (no carry leaves a byte)."""
    return (((w & LOW_BITS) + LOW_BITS | w) & HIGH_BITS) >> np.uint64(7)


@njit(cache=True, inline="always")
def _more_than(m, n):
    """Whether the uint64 ``m`` has more than ``n`` bits set: ``n`` clears of its lowest bit
    (one instruction each) leave some."""
    for _ in range(n):
        m &= m - ONE
    return m != ZERO


@njit(cache=True, inline="always")
def _covered_spots_room(r):
    """The part of ``_score_room`` from the fully covered spots: their placed triangles'
    ``|a|``, which will never score again."""
    room = np.int64(0)
    for s in range(SPOT_COUNT):
        if SPOT_MASK[s] & ~r.covered == ZERO:
            for j in range(6):
                room += abs(np.int64(r.tval[SPOT_TRIS[s, j]]))
    return room


@njit(cache=True, inline="always")
def valid_one(s, i, template):
    """0 if state ``i`` is one ``from_text`` can write for the game of ``template``, else the
    first problem's code in ``STATE_ERRORS``. Every other kernel is safe on what it accepts.
    Every state entering the API passes here, so it is inlined and works a word at a time
    (issue #11: at most 15% of ``Game.step`` on a batch, 10% on one state)."""
    r = s[i]
    P = r.num_players
    if P != template[0].num_players:
        return BAD_PLAYERS
    if r.phase < CHOOSE or r.phase > END:
        return BAD_PHASE
    if r.to_move < 0 or r.to_move >= P:
        return BAD_TO_MOVE
    if (r.drawn < 0 or r.drawn >= 8) if r.phase == PLACE else r.drawn != -1:
        return BAD_DRAWN
    if r.covered & ~ALL_TRIANGLES != ZERO:
        return BAD_COVERED
    if r.slots[1] & ~LAST_SLOTS != ZERO:
        return BAD_SLOTS
    on_board = ZERO   # tiles on the board per outcome o, in bits 8o..8o+7 (as _word packs)
    slack = np.int64(0)   # see the score room below
    seen = ZERO
    for half in range(2):
        rest = r.slots[half]
        while rest:
            k = 64 * half + lowest_bit(rest)
            rest &= rest - ONE
            if SLOT_MASK[k] & seen != ZERO:
                return OVERLAP
            seen |= SLOT_MASK[k]
            pair = SLOT_PAIR[k]   # unsigned indices: no negative-index wraparound
            v = r.tval[pair & BYTE]
            u = np.uint64(np.int64(v) + 4)   # v < -4 wraps to a huge index
            if u >= len(TILE_BIT) or TILE_BIT[u] == ZERO or r.tval[pair >> np.uint64(8)] != v:
                return BAD_TVAL
            on_board += TILE_BIT[u]
            slack += np.int64(abs(np.int64(v))) * SLOT_SLACK[k]
    if seen != r.covered:
        return BAD_COVERED
    # Every covered triangle has a value now; the free ones must have none. Eight triangles a
    # word: each byte of ``nonzero`` counts at most 7 of them, so the bytes never carry.
    nonzero = ZERO
    for t in range(0, notation.NUM_TRIANGLES, 8):
        nonzero += _nonzero_bytes(_word(r.tval, t, min(8, notation.NUM_TRIANGLES - t)))
    if np.int64((nonzero * BYTE_SUM) >> np.uint64(56)) != popcount(r.covered):
        return TVAL_ON_FREE
    # The eight counts at once: each byte is at most 127 + 27 + 1 once none is negative, so no
    # sum carries into its neighbour and the words are equal iff every count is.
    pile = _word(r.pile, 0, 8)
    used = on_board + _bit(8 * r.drawn) if r.phase == PLACE else on_board
    if pile & HIGH_BITS != ZERO or pile + used != FULL_PILE:
        return BAD_PILE
    taken = ZERO
    # How far from 0 a score may be: MAX_SCORE - notation.score_headroom, rearranged so that
    # most of it is summed in the loop over the placed slots above. As the unplaced tiles are
    # the 28 less those on the board, it is ``slack`` (each placed tile's |a| times its
    # SLOT_SLACK) plus the final scoring's FINAL_SCORE_MAX once done (phase end) plus the
    # covered spots' part, added only if a score needs it.
    room = slack + (notation.FINAL_SCORE_MAX if r.phase == END else 0)
    covered_added = False
    for p in range(4):
        m = r.pawns[p]
        if p >= P:
            if m != ZERO or r.score[p] != 0:
                return ABSENT_SEAT
            continue
        if m & ~ALL_SPOTS != ZERO:
            return BAD_PAWNS
        if _more_than(m, PAWNS):
            return TOO_MANY_PAWNS
        if m & taken != ZERO:
            return SHARED_SPOT
        taken |= m
        if abs(np.int64(r.score[p])) > room:
            if not covered_added:
                room += _covered_spots_room(r)
                covered_added = True
            if abs(np.int64(r.score[p])) > room:
                return BAD_SCORE
    rest = taken
    while rest:
        if SPOT_MASK[lowest_bit(rest)] & ~r.covered == ZERO:
            return SURROUNDED
        rest &= rest - ONE
    if taken & _barred_spots(r.covered) != ZERO:
        return CHASED
    # The board holds 27 tiles of the 28, so a chance node always has one left to draw.
    if r.phase == DRAWING or r.phase == PLACE:
        if not _any_free_slot(r.covered):
            return NO_FREE_SLOT
    elif r.phase == END:
        if _can_draw(r) or popcount(taken) < PAWNS * P and _legal_spots(r) != ZERO:
            return END_TOO_SOON
    return 0
