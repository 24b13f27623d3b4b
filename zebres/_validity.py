"""Which rows of ``savanna.zebres._kernels.STATE_DTYPE`` are Zèbres positions: ``valid_one`` and the
reasons it gives (``STATE_ERRORS``), apart from the hot kernels that trust what it accepts.

``valid_one`` accepts exactly the rows ``from_text`` can produce; its checks are those of
``savanna.zebres.notation.validate`` and ``notation._validate_rules``, in the same words where they
agree.
"""
from numba import njit

from savanna.bits import popcount
from savanna.zebres._kernels import (
    CROC,
    END,
    FULL,
    HAND,
    LINES,
    MOVE,
    NUM_TRACK,
    PLACE,
    SECTORS,
    SETUP,
    ZERO,
    C,
    G,
    Z,
    _bit,
    _impala_options,
    _swap_targets,
)
from savanna.zebres.spec import NUM_CELLS

# Reasons valid_one gives for an impossible state, by code (0: the state is possible).
STATE_ERRORS = (
    "",
    "board is not this game's board option (0 standard, 1 president)",
    "phase is not 0..4 (setup, place, croc, move, end)",
    "to_move is not a seat of this game (0 red or 1 green)",
    "impala is not -1 (not yet placed) or a track position 0..21",
    "inauguration is not -1 (unclaimed), 0 (red) or 1 (green)",
    "croc is not -1 or a cell 0..29",
    "a bitboard (own, kind, down, swapped) has bits beyond cell 29",
    "own boards overlap: a cell held by both players",
    "kind boards overlap: a cell with two kinds",
    "kind boards do not cover exactly the occupied cells (own[0] | own[1])",
    "a player has more tokens of a kind than they own (5 Z, 6 G, 1 E, 1 L, 2 C)",
    "down marks a cell that holds no zebra or gazelle",
    "setup phase needs an empty board, impala -1 and inauguration -1",
    "setup phase: to_move must be the player who chooses Impala's start (1 - first_placer)",
    "impala must be placed (0..21) outside the setup phase",
    "end phase needs a full board",
    "the board is full: the phase must be end (or croc), not place or move",
    "place phase but to_move has no token left to place",
    "place phase but the line Impala faces is full",
    "move phase needs at least two possible Impala moves (one is applied automatically)",
    "croc must be -1 and swapped 0 outside the croc phase",
    "croc phase: croc must be a cell holding a crocodile of to_move",
    "croc phase: swapped may only mark gazelles",
    "croc phase needs a swap left (a chain with none ends by itself)",
    "a sector is full but the inauguration is unclaimed (outside a croc phase)",
)
(BAD_BOARD, BAD_PHASE, BAD_TO_MOVE, BAD_IMPALA, BAD_INAUGURATION, BAD_CROC, OFF_BOARD,
 OWN_OVERLAP, KIND_OVERLAP, KIND_COVER, TOO_MANY, BAD_DOWN, SETUP_NOT_EMPTY, SETUP_TO_MOVE,
 IMPALA_UNPLACED, END_NOT_FULL, FULL_NOT_END, PLACE_NO_TOKEN, PLACE_LINE_FULL, MOVE_FORCED,
 CROC_OUTSIDE, CROC_NOT_CROCODILE, SWAPPED_NOT_GAZELLE, CROC_NO_SWAP,
 INAUGURATION_UNCLAIMED) = range(1, len(STATE_ERRORS))


@njit(cache=True, inline="always")
def valid_one(s, i, base):
    """0 if row ``i`` of ``s`` is a position ``from_text`` can produce for the game whose
    base state is ``base[0]``, else the code (into ``STATE_ERRORS``) of the first problem.
    Every other kernel is safe on a row it accepts. Fields first (the tables they index), then
    the bitboards, then the phase against the rest. Inlined into the drivers' checking loops:
    a call costs as much as the checks (18% of a 4,096-state ``step`` instead of 9%)."""
    r = s[i]
    t = base[0]
    phase = r.phase
    if r.board != t.board:
        return BAD_BOARD
    if phase < SETUP or phase > END:
        return BAD_PHASE
    if r.to_move != 0 and r.to_move != 1:
        return BAD_TO_MOVE
    if r.impala < -1 or r.impala >= NUM_TRACK:
        return BAD_IMPALA
    if r.inauguration < -1 or r.inauguration > 1:
        return BAD_INAUGURATION
    if r.croc < -1 or r.croc >= NUM_CELLS:
        return BAD_CROC
    own0 = r.own[0]
    own1 = r.own[1]
    occupied = own0 | own1
    union = ZERO
    overlap = ZERO
    for k in range(5):
        overlap |= union & r.kind[k]
        union |= r.kind[k]
    if (occupied | union | r.down | r.swapped) & ~FULL:
        return OFF_BOARD
    if own0 & own1:
        return OWN_OVERLAP
    if overlap:
        return KIND_OVERLAP
    if union != occupied:
        return KIND_COVER
    for k in range(5):
        if popcount(own0 & r.kind[k]) > HAND[k] or popcount(own1 & r.kind[k]) > HAND[k]:
            return TOO_MANY
    if r.down & ~(r.kind[Z] | r.kind[G]):
        return BAD_DOWN
    if phase == SETUP:
        if occupied or r.impala != -1 or r.inauguration != -1:
            return SETUP_NOT_EMPTY
        if r.to_move != t.to_move:
            return SETUP_TO_MOVE
    elif r.impala == -1:
        return IMPALA_UNPLACED
    empty = FULL & ~occupied
    if phase == END and empty:
        return END_NOT_FULL
    if (phase == PLACE or phase == MOVE) and empty == ZERO:
        return FULL_NOT_END
    if phase == PLACE:
        if popcount(r.own[r.to_move]) == 15:
            return PLACE_NO_TOKEN
        if LINES[r.impala] & empty == ZERO:
            return PLACE_LINE_FULL
    if phase == MOVE:
        opts = _impala_options(r, empty)
        if opts & (opts - 1) == 0:
            return MOVE_FORCED
    if phase != CROC:
        if r.croc != -1 or r.swapped:
            return CROC_OUTSIDE
        if r.inauguration == -1 and phase != SETUP:
            for k in range(6):
                if SECTORS[r.board, k] & empty == ZERO:
                    return INAUGURATION_UNCLAIMED
        return 0
    if r.croc == -1 or r.own[r.to_move] & r.kind[C] & _bit(r.croc) == ZERO:
        return CROC_NOT_CROCODILE
    if r.swapped & ~r.kind[G]:
        return SWAPPED_NOT_GAZELLE
    if _swap_targets(r, r.croc) == ZERO:
        return CROC_NO_SWAP
    return 0
