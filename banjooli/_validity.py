"""Which rows of ``savanna.banjooli._kernels.STATE_DTYPE`` are Banjooli Xeet states: ``valid_one``
and the reasons it gives (``STATE_ERRORS``), apart from the hot kernels that trust what it
accepts (the possible states are listed in ``savanna.banjooli.game``'s docstring).
"""
import numpy as np
from numba import njit

from savanna.banjooli import spec
from savanna.banjooli._kernels import (
    CATALOGUE_FACES,
    FACE_CURVE,
    NEST_SET,
    NUM_FACES,
    SPECIAL_NONE,
    SPECIAL_RANDOM,
    ZERO,
    _course_sets,
    _occupied,
)
from savanna.banjooli.spec import (
    BVORTEX,
    END,
    FORESIGHT,
    FRENZY,
    FRENZY_ASSIGN,
    FRENZY_PICK,
    FRENZY_ROLL,
    MAX_TURNS,
    MOVE,
    PLACE,
    REROLLING,
    ROLL,
    SNAKE,
    SNAKE_BACK,
    SPEAR,
    SPEAR_GIVE,
    UTURN,
    VORTEX_PICK,
    VORTEX_ROLL,
)
from savanna.bits import ONE, bit, popcount


@njit(cache=True)
def valid_one(s, i, base):
    """0 if row ``i`` is a possible state of the game whose options row is ``base[0]``,
    else the code (``STATE_ERRORS``) of the first problem: every field in range and consistent
    with the others, so that the other kernels are safe on any row it accepts."""
    r = s[i]
    t = base[0]
    if (r.players != t.players or r.nterrain != t.nterrain or r.special != t.special
            or r.fixed != t.fixed or r.variant != t.variant):
        return E_OPTIONS
    code = _valid_course(r, t)
    if code == 0:
        code = _valid_ostriches(r)
    if code == 0:
        code = _valid_turn(r, t)
    if code == 0:
        code = _valid_berries(r)
    return code


@njit(cache=True, inline="always")
def _valid_course(r, t):
    """The course is the base state's (fixed) or one the draw can give; the cell sets match it."""
    course = r.course
    used = 0
    specials = 0
    for j in range(spec.MAX_TERRAIN):
        f = course[j]
        if r.fixed or j >= r.nterrain:
            if f != t.course[j]:
                return E_COURSE
            continue
        if f < 0 or f >= NUM_FACES or (used >> f) & 1:
            return E_COURSE
        used |= 1 << f
        if j > 0 and FACE_CURVE[f] and FACE_CURVE[course[j - 1]]:
            return E_COURSE
        if f >= CATALOGUE_FACES:
            specials += 1
            if r.special != SPECIAL_RANDOM and f != r.special:
                return E_COURSE
    if not r.fixed and specials != (r.special != SPECIAL_NONE):
        return E_COURSE
    block, quick, curve, croc, lava, vortex = _course_sets(r)
    if (r.block != block or r.quick != quick or r.curve != curve or r.croc != croc
            or r.lava != lava or r.vortex != vortex):
        return E_CELL_SETS
    return 0


@njit(cache=True, inline="always")
def _valid_ostriches(r):
    """Cells, arrival places, nest and scared marks of the five ostriches."""
    ncells = 3 * (3 * r.nterrain + 3)
    if r.narrived < 0 or r.narrived > 3:
        return E_PLACES
    if r.nest > 31 or r.scared > 31:
        return E_NEST
    occ = ZERO
    arrived = 0  # bitmask of the places taken
    cells = r.cells
    places = r.places
    for c in range(5):
        cell = cells[c]
        place = places[c]
        nest = (r.nest >> c) & 1
        scared = (r.scared >> c) & 1
        if place < 0 or place > 3 or (arrived >> place) & 1:
            return E_PLACES
        if cell < -1 or cell >= ncells or (cell == -1) != (place > 0):
            return E_CELLS
        if place > 0:
            arrived |= 1 << place
            if nest or scared:
                return E_NEST
            continue
        b = bit(cell)
        if ((occ | r.block) & b) != ZERO:
            return E_SHARED
        occ |= b
        if nest and (scared or (NEST_SET & b) == ZERO):
            return E_NEST
    if arrived != (1 << (r.narrived + 1)) - 2:
        return E_PLACES
    return 0


@njit(cache=True, inline="always")
def _valid_turn(r, t):
    """Phase, seat, turn, dice, cards and the move fields (mover, points, safe, frenzy)."""
    ph = r.phase
    P = r.players
    if ph < 0 or ph >= spec.NUM_PHASES or (ph >= PLACE and not r.variant):
        return E_PHASE
    if r.to_move < 0 or r.to_move >= P:
        return E_TO_MOVE
    if r.turn < 0 or r.turn > MAX_TURNS:
        return E_TURN
    if r.turn == MAX_TURNS:
        if ph != END or r.narrived == 3:
            return E_TURN
    elif (ph == END) != (r.narrived == 3):
        return E_TURN
    unrolled = 0
    dice = r.dice
    for d in range(6):
        if dice[d] < -1 or dice[d] > 5:
            return E_DICE
        if dice[d] < 0:
            unrolled |= 1 << d
    low = unrolled & -unrolled  # unrolled dice are rolled lowest first: a suffix is unrolled
    if ph == PLACE:
        ok = unrolled == 63
    elif ph == ROLL:
        ok = unrolled != 0 and unrolled + low == 64
    elif ph == FRENZY_ROLL:
        ok = unrolled != 0 and unrolled + low == 32
    elif ph == REROLLING:
        ok = unrolled != 0
    else:
        ok = unrolled == 0
    if not ok:
        return E_DICE
    used = 0
    cards = r.cards
    for p in range(5):
        card = cards[p]
        if p >= P:
            if card != t.cards[p]:
                return E_CARDS
        elif card < 0 or card > 9 or (used >> card) & 1:
            return E_CARDS
        else:
            used |= 1 << card
    moving = (ph == MOVE or ph == VORTEX_ROLL or ph == VORTEX_PICK or ph == SPEAR_GIVE
              or ph == SNAKE_BACK)
    m = r.mover
    if not moving:
        if m != -1:
            return E_MOVER
    elif (m < 0 or m > 4 or r.cells[m] < 0 or (r.scared >> m) & 1
          or (ph != MOVE and (r.nest >> m) & 1)):
        return E_MOVER
    top = 0
    if ph == MOVE:
        top = 6 if r.variant else 5
    elif ph == SPEAR_GIVE:
        top = 5
    if r.points < (1 if ph == MOVE else 0) or r.points > top:
        return E_POINTS
    if ph == MOVE or ph == SPEAR_GIVE:
        cell = r.cells[m]
        safe = r.safe
        if safe < 0 or safe >= 3 * (3 * r.nterrain + 3):
            return E_SAFE
        if (r.lava & bit(cell)) == ZERO:
            if safe != cell:
                return E_SAFE
        elif (((r.lava | r.block | _occupied(r, m)) & bit(safe)) != ZERO
              or safe // 3 >= cell // 3):
            return E_SAFE
    elif r.safe != -1:
        return E_SAFE
    total = 0
    frenzy = r.frenzy
    cells = r.cells
    for c in range(5):
        f = frenzy[c]
        if f < 0 or f > 5 or (f > 0 and (cells[c] < 0 or c == m)):
            return E_FRENZY
        total += f
    if ph == FRENZY_ASSIGN:
        ok = r.jokers >= 1 and total + r.jokers == 5
    elif r.jokers != 0:
        ok = False
    elif ph == FRENZY_PICK:
        ok = 1 <= total <= 5
    elif moving:
        ok = total <= 4
    else:
        ok = total == 0
    if not ok:
        return E_FRENZY
    return 0


@njit(cache=True, inline="always")
def _valid_berries(r):
    """Berry slots, collected kinds, Jëmbat's knowledge, spear, direction and the phases a
    berry starts (without the variant every berry field holds its neutral value)."""
    P = r.players
    slots = P if r.variant else 0
    ph = r.phase
    collected = 0  # kinds taken by any seat
    ncollected = 0
    jembat = 0  # seats that took Jëmbat
    collected_by = r.collected
    for p in range(5):
        kinds = np.int64(collected_by[p])
        if (p >= slots and kinds != 0) or kinds >> 11 or (collected & kinds):
            return E_KINDS
        if kinds != 0:
            collected |= kinds
            ncollected += popcount(np.uint64(kinds))
            jembat |= ((kinds >> FORESIGHT) & 1) << p
    every = collected
    taken = 0
    ground = (((ONE << np.uint64(9 * r.nterrain)) - ONE) << np.uint64(9)) & ~(
        r.block | r.quick | r.croc | r.lava | r.vortex)
    berries = ZERO
    berry_cell = r.berry_cell
    berry_kind = r.berry_kind
    seen = r.seen
    for k in range(5):
        cell = berry_cell[k]
        kind = berry_kind[k]
        if k >= slots or kind == -1:
            if cell != -1 or kind != -1 or seen[k] != 0:
                return E_BERRY_SLOT
            if k < slots:
                taken += 1
            continue
        if kind < 0 or kind > 10 or (every >> kind) & 1:
            return E_KINDS
        every |= 1 << kind
        if ph == PLACE and k >= r.to_move:  # not placed yet
            if cell != -1 or seen[k] != 0:
                return E_BERRY_CELL
            continue
        if cell < 0 or cell > 62 or ((ground & ~berries) & bit(cell)) == ZERO:
            return E_BERRY_CELL
        berries |= bit(cell)
        if seen[k] != jembat:
            return E_SEEN
    if taken != ncollected:
        return E_KINDS
    if r.direction != (-1 if (collected >> UTURN) & 1 else 1):
        return E_DIRECTION
    spear = np.int64(r.spear)
    if (spear >> slots or popcount(np.uint64(spear)) > 1
            or (spear != 0 and not (collected >> SPEAR) & 1)
            or (ph != ROLL and (spear >> r.to_move) & 1) or (ph == SPEAR_GIVE and spear != 0)):
        return E_SPEAR
    if ph == PLACE and (r.turn != 0 or r.nest != 31 or ncollected != 0):
        return E_PLACE_PHASE
    took = np.int64(collected_by[r.to_move])
    cell = bit(r.cells[r.mover]) if r.mover >= 0 else ZERO
    on_ground = (ground & cell) != ZERO
    if ph == SPEAR_GIVE:
        ok = (took >> SPEAR) & 1 == 1 and on_ground
    elif ph == SNAKE_BACK:
        ok = (took >> SNAKE) & 1 == 1 and on_ground
    elif ph == VORTEX_ROLL or ph == VORTEX_PICK:
        ok = (r.vortex & cell) != ZERO or ((took >> BVORTEX) & 1 == 1 and on_ground)
    else:
        ok = True
    frenzy = ph == FRENZY_ROLL or r.jokers > 0
    for c in range(5):
        frenzy = frenzy or r.frenzy[c] > 0
    if not ok or (frenzy and (took >> FRENZY) & 1 == 0):
        return E_BERRY_PHASE
    return 0


# Reasons valid_one gives for an impossible state, by code (0: the state is possible).
STATE_ERRORS = (
    "",
    "an option field (players, nterrain, special, fixed, variant) differs from the game's",
    ("course is not one this game can have (its fixed course, or distinct faces 0..15 with no "
     "two curves adjacent and the special tile asked for; -1 past nterrain)"),
    "block/quick/curve/croc/lava/vortex are not the cell sets of the course",
    "places must be 0 (on the track) or the distinct arrival places 1..narrived, narrived <= 3",
    "cells must be track cells (rows 0 to the last terrain row), -1 exactly when arrived",
    "two ostriches share a cell, or one stands on an impassable cell",
    ("nest and scared are 5-bit masks; a nest ostrich is on a nest cell (a0 c0 b1 a2 c2) and "
     "running; an arrived ostrich is neither"),
    "phase must be 0..13 (place and later phases only in the berry variant)",
    "to_move is not a seat of this game",
    ("turn must be 0..1000; the end phase comes exactly with the third arrival (or turn 1000, "
     "the turn cap, before it)"),
    ("dice must be faces 0..5 or -1 (unrolled): all in place, a suffix in roll (of the movement "
     "dice in frenzy-roll), some in rerolling, none elsewhere"),
    "cards must be distinct cards 0..9, one per seat (0 past the seats)",
    ("mover must be -1 outside the move, vortex, spear and snake phases, else a running ostrich "
     "on the track (off its nest except at the start of a move)"),
    ("points must be 1..5 in the move phase (1..6 with berries, after Daaaaw), 0..5 in the "
     "spear phase, 0 elsewhere"),
    ("safe must be -1 outside the move and spear phases, else the mover's cell or, when the "
     "mover is on lava, a free earlier non-lava cell"),
    ("frenzy points (0..5 per ostrich on the track, none for the mover) and jokers do not fit "
     "the phase (frenzy-assign: points + jokers = 5; frenzy-pick: 1..5 points; none outside a "
     "frenzy)"),
    "berry slots past the seats, and taken ones, must be empty (cell -1, kind -1, seen 0)",
    ("berry kinds 0..10 must be distinct among the slots and the collected berries (11-bit "
     "masks, one per seat), one collected berry per taken slot"),
    ("a berry slot's cell must be a free ground cell of a terrain tile, or -1 until its seat "
     "places it in the place phase"),
    "seen must be, for every berry on the track, exactly the seat that took Jëmbat",
    "direction must be +1, or -1 exactly when a seat took Pakaarloo (U-turn)",
    ("spear holds at most one seat, after Naangateku was taken, and not the seat to move once "
     "its roll is over"),
    "the place phase comes first: turn 0, every ostrich on its nest, nothing collected",
    ("the spear, snake, vortex or frenzy phase needs the seat to move to have taken that berry "
     "(or the mover on the vortex), with the mover on the berry's ground cell"),
)
(E_OPTIONS, E_COURSE, E_CELL_SETS, E_PLACES, E_CELLS, E_SHARED, E_NEST, E_PHASE, E_TO_MOVE,
 E_TURN, E_DICE, E_CARDS, E_MOVER, E_POINTS, E_SAFE, E_FRENZY, E_BERRY_SLOT, E_KINDS,
 E_BERRY_CELL, E_SEEN, E_DIRECTION, E_SPEAR, E_PLACE_PHASE, E_BERRY_PHASE) = range(
    1, len(STATE_ERRORS))
