"""Which rows of ``savanna.bonobo._kernels.STATE_DTYPE`` are Bonobo Beach positions: ``valid_one``
and the reasons it gives (``STATE_ERRORS``), apart from the hot kernels that trust what it accepts.

``valid_one`` accepts exactly the states ``from_text`` can write.
"""
import numpy as np
from numba import njit

from savanna.bits import ONE, lowest_bit, popcount
from savanna.bonobo import spec
from savanna.bonobo._kernels import (
    ALL_TRIANGLES,
    CHOOSE,
    DRAWING,
    END,
    NUM_SLOTS,
    PAWNS,
    PLACE,
    SLOT_MASK,
    SPOT_COUNT,
    SPOT_MASK,
    SPOT_TRIS,
    ZERO,
    _any_free_slot,
    _barred_spots,
    _bit,
    _can_draw,
    _legal_spots,
)

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
    f"+-{spec.MAX_SCORE} (notation.score_headroom)",
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
FULL_PILE = np.uint64(sum(c << 8 * o for o, c in enumerate(spec.TILE_COUNTS)))
SLOT_PAIR = np.array([a | b << 8 for a, b in spec.SLOTS], np.uint64)  # SLOT_TRIS in one load
BYTE = np.uint64(255)
# 6 less the spots at the corners of the slot's two triangles: the corner scorings a tile
# there can no longer have (valid_one's score room)
_SPOTS_AT = [sum(t in tris for tris in spec.SPOT_TRIANGLES)
             for t in range(spec.NUM_TRIANGLES)]
SLOT_SLACK = np.array([6 - _SPOTS_AT[a] - _SPOTS_AT[b] for a, b in spec.SLOTS], np.int64)
# A tile of value v on the board adds TILE_BIT[v + 4] to the packed counts; 0 where v is none.
TILE_BIT = np.array([1 << 8 * spec.VALUES.index(v) if v in spec.VALUES else 0
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
def valid_one(s, i, base):
    """0 if state ``i`` is one ``from_text`` can write for the game of ``base``, else the
    first problem's code in ``STATE_ERRORS``. Every other kernel is safe on what it accepts.
    Every state entering the API passes here, so it is inlined and works a word at a time
    (its budget: at most 15% of ``Game.step`` on a batch, 10% on one state)."""
    r = s[i]
    P = r.num_players
    if P != base[0].num_players:
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
    for t in range(0, spec.NUM_TRIANGLES, 8):
        nonzero += _nonzero_bytes(_word(r.tval, t, min(8, spec.NUM_TRIANGLES - t)))
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
    room = slack + (spec.FINAL_SCORE_MAX if r.phase == END else 0)
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
