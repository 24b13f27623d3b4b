"""Banjooli Xeet kernels (numba): state dtype, course tables and the scalar kernels of
``savanna.game.Kernels`` plus ``scores_one`` (``observe_one`` is in ``_observe``, ``valid_one``
in ``_validity``).

The track is at most 21 rows x 3 lanes = 63 cells, so every cell set (rocks, quicksand, curves,
occupied cells, ...) is one uint64 with bit ``row*3 + lane``. During a move the board does not
change, so whether a move can spend all its points depends only on the mover's cell and points
left (``_completable`` walks a bitboard frontier).
"""
import numpy as np
from numba import njit

from savanna.banjooli import spec
from savanna.banjooli.spec import (
    A_ASSIGN,
    A_BACK,
    A_BERRY,
    A_DIR,
    A_GROUP,
    A_MOVE,
    A_PASS,
    A_SORCERY,
    A_SPEAR,
    A_SWAP,
    ACT,
    BVORTEX,
    CHASM,
    CROC,
    END,
    FORESIGHT,
    FRENZY,
    FRENZY_ASSIGN,
    FRENZY_PICK,
    FRENZY_ROLL,
    GO,
    JADE,
    JOKER,
    LAVA,
    MAX_TURNS,
    MOVE,
    PLACE,
    QUICK,
    REROLL,
    REROLLING,
    ROCK,
    ROLL,
    SNAKE,
    SNAKE_BACK,
    SPEAR,
    SPEAR_GIVE,
    TASTY,
    TRAP,
    UTURN,
    VORTEX,
    VORTEX_PICK,
    VORTEX_ROLL,
    WATER,
)
from savanna.bits import bit, lowest_bit, popcount
from savanna.codes import CHANCE, TERMINAL
from savanna.rng import below

ZERO = np.uint64(0)
ARRIVE = 63  # _target's answer for "crosses the finish line"

STATE_DTYPE = np.dtype([
    # options (copied from the base state)
    ("players", np.int8), ("nterrain", np.int8), ("special", np.int8), ("fixed", np.int8),
    ("course", np.int8, (spec.MAX_TERRAIN,)),
    # course cell sets, derived from ``course``
    ("block", np.uint64), ("quick", np.uint64), ("curve", np.uint64), ("croc", np.uint64),
    ("lava", np.uint64), ("vortex", np.uint64),
    # ostriches, by colour
    ("cells", np.int8, (5,)), ("places", np.int8, (5,)), ("narrived", np.int8),
    ("nest", np.uint8), ("scared", np.uint8),
    # the turn
    ("dice", np.int8, (6,)), ("phase", np.int8), ("to_move", np.int8), ("direction", np.int8),
    ("turn", np.int16), ("mover", np.int8), ("points", np.int8), ("safe", np.int8),
    # hidden: prediction card per seat
    ("cards", np.int8, (5,)),
    # berry variant: slot k = the berry placed by seat k; kinds hidden unless seen
    ("variant", np.int8), ("berry_cell", np.int8, (5,)), ("berry_kind", np.int8, (5,)),
    ("seen", np.uint8, (5,)),        # per slot: bitmask of the seats that know its kind
    ("collected", np.uint16, (5,)),  # per seat: bitmask of the kinds it took
    ("spear", np.uint8),             # seats without reroll on their next turn
    ("frenzy", np.int8, (5,)), ("jokers", np.int8),
])

SPECIAL_NONE = -1
SPECIAL_RANDOM = 16

FACE_CURVE = np.array(spec.FACE_CURVE, np.int8)
NUM_FACES = len(spec.FACE_NAMES)
CATALOGUE_FACES = len(spec.CATALOGUE)  # faces below this are drawn; the others are special


def _face_sets():
    """``uint64[faces, 6]``: per face and cell set (``SET_*``), the face's cells in it, bit
    ``row*3 + lane`` of the tile."""
    kinds_of = ((ROCK, WATER, CHASM), (QUICK,), (), (CROC,), (LAVA,), (VORTEX,))
    sets = np.zeros((NUM_FACES, 6), np.uint64)
    for f in range(NUM_FACES):
        for k, kind in enumerate(spec.face_kinds(f)):
            for g in range(6):
                if kind in kinds_of[g] or (g == SET_CURVE and spec.FACE_CURVE[f]):
                    sets[f, g] |= np.uint64(1 << k)
    return sets


SET_BLOCK, SET_QUICK, SET_CURVE, SET_CROC, SET_LAVA, SET_VORTEX = range(6)
NESTS = np.array(spec.NESTS, np.int8)
CARDS = np.array(spec.CARDS, np.int8)
LANE_ORDER = np.array([[0, 1, 2], [1, 0, 2], [2, 1, 0]], np.int8)  # croc snap: nearest lane

FACE_SETS = _face_sets()
NEST_SET = np.uint64(sum(1 << c for c in spec.NESTS))


# ----- set-up -------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _course_sets(r):
    """The cell sets (block, quick, curve, croc, lava, vortex) of the course of row ``r``."""
    block = quick = curve = croc = lava = vortex = ZERO
    course = r.course
    for t in range(r.nterrain):
        f = FACE_SETS[course[t]]
        shift = np.uint64(9 + 9 * t)
        block |= f[SET_BLOCK] << shift
        quick |= f[SET_QUICK] << shift
        curve |= f[SET_CURVE] << shift
        croc |= f[SET_CROC] << shift
        lava |= f[SET_LAVA] << shift
        vortex |= f[SET_VORTEX] << shift
    return block, quick, curve, croc, lava, vortex


@njit(cache=True)
def fill_course_one(s, i):
    """Derive the cell sets of state ``i`` from its ``course``."""
    r = s[i]
    r.block, r.quick, r.curve, r.croc, r.lava, r.vortex = _course_sets(r)


@njit(cache=True)
def _draw_course(r, streams, i):
    """k distinct catalogue faces, no two curves adjacent (and at least one straight if a
    special tile is asked for); then the special tile replaces a random straight face."""
    k = r.nterrain
    while True:
        used = 0
        ok = True
        for t in range(k):
            face = _draw_unused(streams, i, 12, used)
            used |= 1 << face
            r.course[t] = face
            if t > 0 and FACE_CURVE[face] and FACE_CURVE[r.course[t - 1]]:
                ok = False
        if r.special != SPECIAL_NONE and ok:  # the special tile needs a straight face
            ok = False
            for t in range(k):
                if not FACE_CURVE[r.course[t]]:
                    ok = True
        if ok:
            break
    if r.special != SPECIAL_NONE:
        straights = 0
        for t in range(k):
            straights += 1 - FACE_CURVE[r.course[t]]
        pick = below(streams, i, straights)
        for t in range(k):
            if not FACE_CURVE[r.course[t]]:
                if pick == 0:
                    r.course[t] = r.special if r.special != SPECIAL_RANDOM else 12 + below(
                        streams, i, 4)
                    break
                pick -= 1


@njit(cache=True)
def reset_one(s, i, base, streams):
    s[i] = base[0]
    r = s[i]
    if not r.fixed:
        _draw_course(r, streams, i)
    fill_course_one(s, i)
    for c in range(5):  # nests in random order (Fisher-Yates)
        r.cells[c] = NESTS[c]
    for c in range(4, 0, -1):
        k = below(streams, i, c + 1)
        tmp = r.cells[c]
        r.cells[c] = r.cells[k]
        r.cells[k] = tmp
    used = 0
    for p in range(r.players):  # deal distinct cards
        r.cards[p] = _draw_unused(streams, i, 10, used)
        used |= 1 << r.cards[p]
    if r.variant:  # each seat draws a berry, unseen
        used = 0
        for p in range(r.players):
            r.berry_kind[p] = _draw_unused(streams, i, 11, used)
            used |= 1 << r.berry_kind[p]


@njit(cache=True, inline="always")
def _draw_unused(streams, i, n, used):
    """A uniform value in 0..n-1 that is not in the bitmask ``used``."""
    pick = below(streams, i, n - popcount(np.uint64(used)))
    v = 0
    while True:
        if not (used >> v) & 1:
            if pick == 0:
                return v
            pick -= 1
        v += 1


# ----- movement -----------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _target(r, cell, d, occ):
    """One point from ``cell`` towards lane change ``d``: -1 illegal, ARRIVE, or the cell."""
    x = cell % 3 + d
    y = cell // 3 + 1
    if x < 0 or x > 2:
        return -1
    last = 3 * r.nterrain + 2
    if y > last:
        return ARRIVE
    b = bit(3 * y + x)
    if d != 0 and (r.curve & b) != ZERO:
        return -1
    if (r.block & b) != ZERO:
        return -1
    if (occ & b) == ZERO:
        return 3 * y + x
    x += d  # jump over the ostrich on the target
    y += 1
    if x < 0 or x > 2:
        return -1
    if y > last:
        return ARRIVE
    b = bit(3 * y + x)
    if d != 0 and (r.curve & b) != ZERO:
        return -1
    if ((r.block | occ) & b) != ZERO:
        return -1
    return 3 * y + x


@njit(cache=True)
def _completable(r, cell, points, occ):
    """Some sequence of ``points`` points from ``cell`` spends them all or ends by a rule."""
    frontier = bit(cell)
    stop = r.quick | r.vortex
    for _ in range(points):
        nxt = ZERO
        while frontier != ZERO:
            c = lowest_bit(frontier)
            frontier &= frontier - np.uint64(1)
            for d in range(-1, 2):
                t = _target(r, c, d, occ)
                if t == ARRIVE:
                    return True
                if t >= 0:
                    b = bit(t)
                    if (stop & b) != ZERO:
                        return True
                    nxt |= b
        if nxt == ZERO:
            return False
        frontier = nxt
    return True


@njit(cache=True, inline="always")
def _occupied(r, mover):
    occ = ZERO
    for c in range(5):
        if c != mover and r.cells[c] >= 0:
            occ |= bit(r.cells[c])
    return occ


@njit(cache=True, inline="always")
def _berries(r):
    occ = ZERO
    for k in range(r.players):
        if r.berry_cell[k] >= 0:
            occ |= bit(r.berry_cell[k])
    return occ


@njit(cache=True)
def _snake_lanes(r):
    """Bitmask of the lanes two rows behind the mover where it may land (free, may stop)."""
    row = r.cells[r.mover] // 3 - 2
    bad = _occupied(r, r.mover) | r.block | r.lava
    lanes = 0
    for x in range(3):
        if (bad & bit(3 * row + x)) == ZERO:
            lanes |= 1 << x
    return lanes


@njit(cache=True, inline="always")
def _count(r, face):
    k = 0
    for d in range(5):
        k += r.dice[d] == face
    return k


@njit(cache=True, inline="always")
def _in_race(r, c):
    return r.cells[c] >= 0 and not (r.nest >> c) & 1


# ----- the protocol -------------------------------------------------------------------------
@njit(cache=True)
def current_player_one(s, i):
    ph = s[i].phase
    if ph == ROLL or ph == REROLLING or ph == VORTEX_ROLL or ph == FRENZY_ROLL:
        return CHANCE
    if ph == END:
        return TERMINAL
    return s[i].to_move


@njit(cache=True)
def legal_actions_one(s, i, out):
    r = s[i]
    ph = r.phase
    k = 0
    if ph == REROLL:
        for a in range(64):
            out[a] = a
        return 64
    if ph == MOVE:
        c = r.mover
        occ = _occupied(r, c)
        for d in range(-1, 2):
            t = _target(r, r.cells[c], d, occ)
            if t == ARRIVE or (t >= 0 and (((r.quick | r.vortex) & bit(t)) != ZERO
                                           or _completable(r, t, r.points - 1, occ))):
                out[k] = A_DIR + d + 1
                k += 1
        return k
    if ph == VORTEX_PICK:
        for c in range(5):
            if c != r.mover and r.cells[c] >= 0:
                out[k] = A_SWAP + c
                k += 1
        return k
    if ph == PLACE:
        occ = _occupied(r, -1) | _berries(r) | r.block | r.quick | r.croc | r.lava | r.vortex
        for cell in range(9, 9 + 9 * r.nterrain):
            if (occ & bit(cell)) == ZERO:
                out[k] = A_BERRY + cell
                k += 1
        return k
    if ph == SPEAR_GIVE:
        for j in range(1, r.players):
            out[k] = A_SPEAR + j
            k += 1
        return k
    if ph == FRENZY_ASSIGN:
        for c in range(5):
            if r.cells[c] >= 0:
                out[k] = A_ASSIGN + c
                k += 1
        return k
    if ph == FRENZY_PICK:
        for c in range(5):
            if r.frenzy[c] > 0:
                out[k] = A_GROUP + c
                k += 1
        return k
    if ph == SNAKE_BACK:
        lanes = _snake_lanes(r)
        for x in range(3):
            if (lanes >> x) & 1:
                out[k] = A_BACK + x
                k += 1
        return k
    if ph != ACT:
        return 0
    occ_all = _occupied(r, -1)
    for c in range(5):
        cell = r.cells[c]
        if cell < 0 or (r.scared >> c) & 1:
            continue
        occ = occ_all & ~bit(cell)
        own = _count(r, c)
        if own > 0 and _completable(r, cell, own, occ):
            out[k] = A_MOVE + 7 * c
            k += 1
        extra = _count(r, JOKER)
        if extra > 0 and _completable(r, cell, own + extra, occ):
            out[k] = A_MOVE + 7 * c + 1
            k += 1
        for j in range(5):
            if r.places[j] > 0:
                extra = _count(r, j)
                if extra > 0 and _completable(r, cell, own + extra, occ):
                    out[k] = A_MOVE + 7 * c + 2 + j
                    k += 1
    sorcery = r.dice[5]
    for c in range(5):
        if _in_race(r, c) and (sorcery == c or sorcery == JOKER):
            out[k] = A_SORCERY + c
            k += 1
    if k == 0:
        out[0] = A_PASS
        k = 1
    return k


@njit(cache=True)
def chance_probs_one(s, i, probs):
    for f in range(6):
        probs[f] = 1.0 / 6.0


@njit(cache=True)
def apply_chance_one(s, i, outcome):
    r = s[i]
    if r.phase == VORTEX_ROLL:
        c = r.mover
        if outcome == JOKER:
            r.phase = VORTEX_PICK
            return
        if outcome != c and r.cells[outcome] >= 0:
            _swap(r, c, outcome)
        else:
            r.scared |= np.uint8(1 << c)
        _end_move(r, np.empty(0, np.float32))  # no arrival at a roll: no returns to write
        return
    for d in range(6):
        if r.dice[d] < 0:
            r.dice[d] = outcome
            break
    for d in range(6):
        if r.dice[d] < 0:
            return
    if r.phase == FRENZY_ROLL:
        _frenzy_groups(r)
    elif r.phase == ROLL and (r.spear >> r.to_move) & 1:
        r.spear &= np.uint8(~(1 << r.to_move) & 0xFF)
        r.phase = ACT
    else:
        r.phase = REROLL if r.phase == ROLL else ACT


@njit(cache=True)
def _frenzy_groups(r):
    """Frenzy dice rolled: colour dice of ostriches on the track join their groups; white and
    arrived colours are jokers to assign."""
    r.jokers = 0
    for d in range(5):
        f = r.dice[d]
        if f != JOKER and r.cells[f] >= 0:
            r.frenzy[f] += 1
        else:
            r.jokers += 1
    r.phase = FRENZY_ASSIGN if r.jokers > 0 else FRENZY_PICK


@njit(cache=True)
def step_one(s, i, action, rewards):
    r = s[i]
    rewards[:] = 0.0
    a = action
    ph = r.phase
    if ph == REROLL:
        if a == 0:
            r.phase = ACT
            return
        for d in range(6):
            if (a >> d) & 1:
                r.dice[d] = -1
        r.phase = REROLLING
        return
    if ph == VORTEX_PICK:
        _swap(r, r.mover, a - A_SWAP)
        _end_move(r, rewards)
        return
    if ph == MOVE:
        _point(r, a - A_DIR - 1, rewards)
        return
    if ph == PLACE:
        r.berry_cell[r.to_move] = a - A_BERRY
        r.to_move += 1
        if r.to_move == r.players:
            r.to_move = 0
            r.phase = ROLL
        return
    if ph == SPEAR_GIVE:
        r.spear |= np.uint8(1 << ((r.to_move + a - A_SPEAR) % r.players))
        _after_berry(r, rewards)
        return
    if ph == FRENZY_ASSIGN:
        r.frenzy[a - A_ASSIGN] += 1
        r.jokers -= 1
        if r.jokers == 0:
            r.phase = FRENZY_PICK
        return
    if ph == FRENZY_PICK:
        c = a - A_GROUP
        n = r.frenzy[c]
        r.frenzy[c] = 0
        cell = r.cells[c]
        if cell >= 0 and not (r.scared >> c) & 1 and _completable(r, cell, n, _occupied(r, c)):
            r.mover = c
            r.points = n
            r.safe = cell
            r.phase = MOVE
        else:
            _end_move(r, rewards)  # a group that cannot be moved is lost
        return
    if ph == SNAKE_BACK:
        r.cells[r.mover] = 3 * (r.cells[r.mover] // 3 - 2) + a - A_BACK
        _end_move(r, rewards)
        return
    if a == A_PASS:
        _end_turn(r, rewards)
        return
    if a >= A_SORCERY:
        _sorcery(r, a - A_SORCERY)
        _end_turn(r, rewards)
        return
    c = (a - A_MOVE) // 7
    j = (a - A_MOVE) % 7
    n = _count(r, c)
    if j == 1:
        n += _count(r, JOKER)
    elif j >= 2:
        n += _count(r, j - 2)
    r.mover = c
    r.points = n
    r.safe = r.cells[c]
    r.phase = MOVE


@njit(cache=True)
def _point(r, d, rewards):
    """Spend one point of the moving ostrich towards ``d``."""
    c = r.mover
    t = _target(r, r.cells[c], d, _occupied(r, c))
    r.nest &= np.uint8(~(1 << c) & 0xFF)
    if t == ARRIVE:
        r.narrived += 1
        r.places[c] = r.narrived
        r.cells[c] = -1
        r.scared &= np.uint8(~(1 << c) & 0xFF)
        _end_move(r, rewards)
        return
    r.cells[c] = t
    b = bit(t)
    if (r.lava & b) == ZERO:
        r.safe = t
    if (r.quick & b) != ZERO:
        r.scared |= np.uint8(1 << c)
        _end_move(r, rewards)
        return
    if (r.vortex & b) != ZERO:
        r.phase = VORTEX_ROLL
        r.points = 0
        r.safe = -1
        return
    r.points -= 1
    if r.variant:
        for k in range(r.players):
            if r.berry_cell[k] == t:
                _take_berry(r, k, rewards)
                return
    if r.points > 0:
        return
    if (r.lava & b) != ZERO:
        r.cells[c] = r.safe
    _end_move(r, rewards)


@njit(cache=True)
def _take_berry(r, slot, rewards):
    """The mover takes the berry of ``slot`` and applies it (§7)."""
    berry = r.berry_kind[slot]
    c = r.mover
    seat = r.to_move
    r.berry_cell[slot] = -1
    r.berry_kind[slot] = -1
    r.seen[slot] = 0
    r.collected[seat] |= np.uint16(1 << berry)
    if berry == TRAP:
        r.scared |= np.uint8(1 << c)
        _end_move(r, rewards)
        return
    if berry == TASTY:
        for k in range(5):
            r.frenzy[k] = 0
        _end_turn(r, rewards)
        return
    if berry == FORESIGHT:
        for k in range(r.players):
            if r.berry_cell[k] >= 0:
                r.seen[k] |= np.uint8(1 << seat)
    elif berry == GO:
        r.points += 2
    elif berry == UTURN:
        r.direction = -r.direction
    elif berry == SPEAR:
        r.phase = SPEAR_GIVE
        return
    elif berry == FRENZY:
        r.mover = -1
        r.points = 0
        r.safe = -1
        for d in range(5):
            r.dice[d] = -1
        r.phase = FRENZY_ROLL
        return
    elif berry == BVORTEX:
        r.phase = VORTEX_ROLL
        r.points = 0
        r.safe = -1
        return
    elif berry == SNAKE:
        r.points = 0
        r.safe = -1
        if _snake_lanes(r) != 0:
            r.phase = SNAKE_BACK
        else:
            _end_move(r, rewards)
        return
    _after_berry(r, rewards)


@njit(cache=True)
def _after_berry(r, rewards):
    """Finish the move after a berry that does not stop it: go on if all points can still be
    spent, else stop on the berry's cell."""
    c = r.mover
    if r.points > 0 and _completable(r, r.cells[c], r.points, _occupied(r, c)):
        r.phase = MOVE
        return
    r.points = 0
    _end_move(r, rewards)


@njit(cache=True)
def _end_move(r, rewards):
    """A move is over: the game may end; a frenzy goes on with its next group."""
    if r.narrived < 3:
        for c in range(5):
            if r.frenzy[c] > 0:
                r.mover = -1
                r.points = 0
                r.safe = -1
                r.phase = FRENZY_PICK
                return
    _end_turn(r, rewards)


@njit(cache=True)
def _sorcery(r, c):
    cell = r.cells[c]
    if (r.scared >> c) & 1 or (r.croc & bit(cell)) == ZERO:
        r.scared ^= np.uint8(1 << c)
        return
    occ = _occupied(r, c)
    x = cell % 3
    first = 3 + 3 * ((cell // 3 - 3) // 3) + 2
    for row in range(first, 3 * r.nterrain + 3):
        for k in range(3):
            t = 3 * row + LANE_ORDER[x, k]
            if ((occ | r.block) & bit(t)) == ZERO:
                r.cells[c] = t
                return
    r.scared |= np.uint8(1 << c)


@njit(cache=True, inline="always")
def _swap(r, a, b):
    tmp = r.cells[a]
    r.cells[a] = r.cells[b]
    r.cells[b] = tmp
    r.nest &= np.uint8(~((1 << a) | (1 << b)) & 0xFF)


@njit(cache=True)
def _end_turn(r, rewards):
    """Finish the turn: the end at the third arrival or the turn cap, else the next player."""
    r.mover = -1
    r.points = 0
    r.safe = -1
    r.jokers = 0
    for c in range(5):
        r.frenzy[c] = 0
    if r.narrived == 3:
        r.phase = END
        if rewards.shape[0] > 0:
            _returns(r, rewards)
        return
    r.turn += 1
    if r.turn >= MAX_TURNS:
        r.phase = END
        return
    r.to_move = (r.to_move + r.direction + r.players) % r.players
    r.phase = ROLL
    for d in range(6):
        r.dice[d] = -1


# ----- scoring ------------------------------------------------------------------------------
@njit(cache=True)
def _last(r):
    """The unique lowest-row ostrich on the track, or -1 (tied or nobody)."""
    low = 99
    who = -1
    for c in range(5):
        if r.cells[c] >= 0:
            row = r.cells[c] // 3
            if row < low:
                low = row
                who = c
            elif row == low:
                who = -1
    return who


@njit(cache=True)
def _score(r, seat, last):
    """(score, exactly placed) of ``seat``, packed as score * 8 + exact."""
    card = r.cards[seat]
    score = 0
    exact = 0
    for place in range(3):
        c = CARDS[card, place]
        if r.places[c] == place + 1:
            score += 5 - place
            exact += 1
        elif r.places[c] > 0:
            score += 2
    if last >= 0 and CARDS[card, 3] == last:
        score *= 2
    if r.variant and (r.collected[seat] >> JADE) & 1:
        score += 2
    return score * 8 + exact


@njit(cache=True)
def scores_one(s, i, out):
    r = s[i]
    last = _last(r)
    for p in range(r.players):
        out[p] = _score(r, p, last) // 8


@njit(cache=True)
def _returns(r, rewards):
    last = _last(r)
    best = -1
    winners = 0
    for p in range(r.players):
        key = _score(r, p, last)
        if key > best:
            best = key
            winners = 1
        elif key == best:
            winners += 1
    P = r.players
    for p in range(P):
        w = 1.0 / winners if _score(r, p, last) == best else 0.0
        rewards[p] = P / (P - 1.0) * (w - 1.0 / P)


