"""Slow, obvious Banjooli Xeet rules in pure Python: the oracle the kernels are checked against.

Works on its own mutable ``State`` (lists), converted from and to ``notation.Position``.
Imports neither numba nor ``savanna.banjooli._kernels``. Its decisions are the game's
(docs/games/banjooli.md).
"""
from dataclasses import dataclass, fields

from savanna.banjooli import notation, spec

CHANCE, TERMINAL = -1, -2


@dataclass
class State:
    players: int
    course: list
    cells: list
    places: list
    nest: list
    scared: list
    cards: list
    to_move: int
    direction: int
    turn: int
    phase: int
    dice: list
    mover: int
    points: int
    safe: int
    variant: bool
    berry_cells: list
    berry_kinds: list
    seen: list       # per slot, list of seats
    collected: list  # per seat, list of kinds
    spear: list
    frenzy: list
    jokers: int

    def copy(self):
        return State(**{f.name: _lists(getattr(self, f.name)) for f in fields(self)})


def _lists(v):
    return [_lists(x) for x in v] if isinstance(v, (list, tuple)) else v


def _tuples(v):
    return tuple(_tuples(x) for x in v) if isinstance(v, (list, tuple)) else v


def from_position(pos):
    return State(**{f.name: _lists(getattr(pos, f.name)) for f in fields(notation.Position)})


def to_position(st):
    return notation.Position(**{f.name: _tuples(getattr(st, f.name)) for f in fields(State)})


# ----- the course ---------------------------------------------------------------------------
def last_row(st):
    return 3 * len(st.course) + 2


def kind(st, x, y):
    if y < 3:
        return spec.GROUND
    return spec.KIND_CHARS.index(spec.FACE_ROWS[st.course[(y - 3) // 3]][(y - 3) % 3][x])


def is_curve(st, x, y):
    return y >= 3 and spec.FACE_CURVE[st.course[(y - 3) // 3]]


def occupied(st, mover):
    return {st.cells[c] for c in range(5) if c != mover and st.cells[c] is not None}


# ----- movement -----------------------------------------------------------------------------
def target(st, cell, d, occ):
    """Where one point towards ``d`` takes an ostrich: None (illegal), "arrive" or a cell."""
    x, y = cell % 3, cell // 3
    tx, ty = x + d, y + 1
    if not 0 <= tx <= 2:
        return None
    if ty > last_row(st):
        return "arrive"
    if d != 0 and is_curve(st, tx, ty):
        return None
    if kind(st, tx, ty) in spec.IMPASSABLE:
        return None
    if ty * 3 + tx not in occ:
        return ty * 3 + tx
    lx, ly = x + 2 * d, y + 2  # jump over the ostrich on the target
    if not 0 <= lx <= 2:
        return None
    if ly > last_row(st):
        return "arrive"
    if d != 0 and is_curve(st, lx, ly):
        return None
    if kind(st, lx, ly) in spec.IMPASSABLE or ly * 3 + lx in occ:
        return None
    return ly * 3 + lx


def stops(st, cell):
    """Entering this cell ends the move (quicksand, vortex)."""
    return kind(st, cell % 3, cell // 3) in (spec.QUICK, spec.VORTEX)


def completable(st, cell, points, occ):
    """Some sequence of points from ``cell`` spends all ``points`` or ends by a rule."""
    if points == 0:
        return True
    for d in (-1, 0, 1):
        t = target(st, cell, d, occ)
        if t == "arrive" or (t is not None and (stops(st, t) or
                                                completable(st, t, points - 1, occ))):
            return True
    return False


def dice_counts(st):
    return [st.dice[:5].count(f) for f in range(6)]


def joker_sources(st):
    """Joker source index j (1 white, 2+k arrived colour k) -> face it counts."""
    return {1: spec.JOKER, **{2 + k: k for k in range(5) if st.places[k]}}


def in_race(st, c):
    return st.cells[c] is not None and not st.nest[c]


# ----- the protocol -------------------------------------------------------------------------
def current_player(st):
    if st.phase in (spec.ROLL, spec.REROLLING, spec.VORTEX_ROLL, spec.FRENZY_ROLL):
        return CHANCE
    if st.phase == spec.END:
        return TERMINAL
    return st.to_move


def legal_actions(st):
    if st.phase == spec.REROLL:
        return list(range(64))
    if st.phase == spec.ACT:
        return act_actions(st)
    if st.phase == spec.MOVE:
        occ = occupied(st, st.mover)
        out = []
        for d in (-1, 0, 1):
            t = target(st, st.cells[st.mover], d, occ)
            if t == "arrive" or (t is not None and (stops(st, t) or
                                                    completable(st, t, st.points - 1, occ))):
                out.append(spec.A_DIR + d + 1)
        return out
    if st.phase == spec.VORTEX_PICK:
        return [spec.A_SWAP + c for c in range(5) if c != st.mover and st.cells[c] is not None]
    if st.phase == spec.PLACE:
        occ = occupied(st, -1) | set(st.berry_cells)
        return [spec.A_BERRY + cell for cell in range(9, 3 * (last_row(st) + 1))
                if kind(st, cell % 3, cell // 3) == spec.GROUND and cell not in occ]
    if st.phase == spec.SPEAR_GIVE:
        return [spec.A_SPEAR + k for k in range(1, st.players)]
    if st.phase == spec.FRENZY_ASSIGN:
        return [spec.A_ASSIGN + c for c in range(5) if st.cells[c] is not None]
    if st.phase == spec.FRENZY_PICK:
        return [spec.A_GROUP + c for c in range(5) if st.frenzy[c]]
    if st.phase == spec.SNAKE_BACK:
        return [spec.A_BACK + lane for lane in snake_lanes(st)]
    return []


def snake_lanes(st):
    """Lanes of the free cells two rows behind the mover where an ostrich may stop."""
    cell = st.cells[st.mover]
    row = cell // 3 - 2
    occ = occupied(st, st.mover)
    return [x for x in range(3) if 3 * row + x not in occ
            and kind(st, x, row) not in spec.IMPASSABLE + (spec.LAVA,)]


def act_actions(st):
    counts = dice_counts(st)
    out = []
    for c in range(5):
        if st.cells[c] is None or st.scared[c]:
            continue
        occ = occupied(st, c)
        if counts[c] and completable(st, st.cells[c], counts[c], occ):
            out.append(spec.A_MOVE + 7 * c)
        for j, face in sorted(joker_sources(st).items()):
            if counts[face] and completable(st, st.cells[c], counts[c] + counts[face], occ):
                out.append(spec.A_MOVE + 7 * c + j)
    sorcery = st.dice[5]
    for c in range(5):
        if in_race(st, c) and sorcery in (c, spec.JOKER):
            out.append(spec.A_SORCERY + c)
    return out or [spec.A_PASS]


def chance_probs(st):
    return [1 / 6] * 6 if current_player(st) == CHANCE else [0.0] * 6


def apply_chance(st, outcome):
    st = st.copy()
    if st.phase == spec.VORTEX_ROLL:
        c = st.mover
        if outcome == spec.JOKER:
            st.phase = spec.VORTEX_PICK
            return st
        if outcome != c and st.cells[outcome] is not None:
            return end_move(swap(st, c, outcome))[0]
        st.scared[c] = True
        return end_move(st)[0]
    st.dice[st.dice.index(None)] = outcome
    if None in st.dice:
        return st
    if st.phase == spec.FRENZY_ROLL:
        return frenzy_groups(st)
    if st.phase == spec.ROLL and st.to_move in st.spear:
        st.spear.remove(st.to_move)
        st.phase = spec.ACT
    else:
        st.phase = spec.REROLL if st.phase == spec.ROLL else spec.ACT
    return st


def frenzy_groups(st):
    """Frenzy dice rolled: colour dice of ostriches on the track join their groups; the
    others (white, arrived colours) are jokers to assign."""
    st.jokers = 0
    for f in st.dice[:5]:
        if f != spec.JOKER and st.cells[f] is not None:
            st.frenzy[f] += 1
        else:
            st.jokers += 1
    st.phase = spec.FRENZY_ASSIGN if st.jokers else spec.FRENZY_PICK
    return st


def step(st, action):
    """Apply a legal decision: returns ``(new state, rewards list[players])``."""
    st = st.copy()
    a = action
    if st.phase == spec.REROLL:
        for i in range(6):
            if a >> i & 1:
                st.dice[i] = None
        st.phase = spec.REROLLING if a else spec.ACT
        return st, [0.0] * st.players
    if st.phase == spec.VORTEX_PICK:
        return end_move(swap(st, st.mover, a - spec.A_SWAP))
    if st.phase == spec.MOVE:
        return point(st, a - spec.A_DIR - 1)
    if st.phase == spec.PLACE:
        st.berry_cells[st.to_move] = a - spec.A_BERRY
        st.to_move += 1
        if st.to_move == st.players:
            st.to_move, st.phase = 0, spec.ROLL
        return st, [0.0] * st.players
    if st.phase == spec.SPEAR_GIVE:
        st.spear = sorted(set(st.spear) | {(st.to_move + a - spec.A_SPEAR) % st.players})
        return after_berry(st)
    if st.phase == spec.FRENZY_ASSIGN:
        st.frenzy[a - spec.A_ASSIGN] += 1
        st.jokers -= 1
        if not st.jokers:
            st.phase = spec.FRENZY_PICK
        return st, [0.0] * st.players
    if st.phase == spec.FRENZY_PICK:
        c = a - spec.A_GROUP
        points, st.frenzy[c] = st.frenzy[c], 0
        if (st.cells[c] is not None and not st.scared[c]
                and completable(st, st.cells[c], points, occupied(st, c))):
            st.mover, st.points, st.safe, st.phase = c, points, st.cells[c], spec.MOVE
            return st, [0.0] * st.players
        return end_move(st)  # a group that cannot be moved is lost
    if st.phase == spec.SNAKE_BACK:
        st.cells[st.mover] = 3 * (st.cells[st.mover] // 3 - 2) + a - spec.A_BACK
        return end_move(st)
    if a == spec.A_PASS:
        return end_turn(st)
    if a >= spec.A_SORCERY:
        return end_turn(sorcery(st, a - spec.A_SORCERY))
    c, j = divmod(a - spec.A_MOVE, 7)
    counts = dice_counts(st)
    st.mover, st.points, st.safe = c, counts[c], st.cells[c]
    if j:
        st.points += counts[joker_sources(st)[j]]
    st.phase = spec.MOVE
    return st, [0.0] * st.players


def point(st, d):
    """Spend one point of the moving ostrich towards ``d``."""
    c = st.mover
    t = target(st, st.cells[c], d, occupied(st, c))
    st.nest[c] = False
    if t == "arrive":
        st.places[c] = 1 + sum(1 for p in st.places if p)
        st.cells[c], st.scared[c] = None, False
        return end_move(st)
    st.cells[c] = t
    k = kind(st, t % 3, t // 3)
    if k != spec.LAVA:
        st.safe = t
    if k == spec.QUICK:
        st.scared[c] = True
        return end_move(st)
    if k == spec.VORTEX:
        st.phase, st.points, st.safe = spec.VORTEX_ROLL, 0, -1
        return st, [0.0] * st.players
    st.points -= 1
    if st.variant and t in st.berry_cells:
        return take_berry(st, st.berry_cells.index(t))
    if st.points:
        return st, [0.0] * st.players
    if k == spec.LAVA:
        st.cells[c] = st.safe
    return end_move(st)


def take_berry(st, slot):
    """The mover takes the berry of ``slot`` and applies it (§7)."""
    berry, c, seat = st.berry_kinds[slot], st.mover, st.to_move
    st.berry_cells[slot], st.berry_kinds[slot], st.seen[slot] = None, None, []
    st.collected[seat] = sorted(st.collected[seat] + [berry])
    if berry == spec.TRAP:
        st.scared[c] = True
        return end_move(st)
    if berry == spec.TASTY:
        st.frenzy = [0] * 5
        return end_turn(st)
    if berry == spec.FORESIGHT:
        for k, cell in enumerate(st.berry_cells):
            if cell is not None:
                st.seen[k] = sorted(set(st.seen[k]) | {seat})
    if berry == spec.GO:
        st.points += 2
    if berry == spec.UTURN:
        st.direction = -st.direction
    if berry == spec.SPEAR:
        st.phase = spec.SPEAR_GIVE
        return st, [0.0] * st.players
    if berry == spec.FRENZY:
        st.mover, st.points, st.safe = -1, 0, -1
        st.dice[:5] = [None] * 5
        st.phase = spec.FRENZY_ROLL
        return st, [0.0] * st.players
    if berry == spec.BVORTEX:
        st.phase, st.points, st.safe = spec.VORTEX_ROLL, 0, -1
        return st, [0.0] * st.players
    if berry == spec.SNAKE:
        st.points, st.safe = 0, -1
        if snake_lanes(st):
            st.phase = spec.SNAKE_BACK
            return st, [0.0] * st.players
        return end_move(st)
    return after_berry(st)


def after_berry(st):
    """Finish the move after a berry that does not stop it: go on if all points can still be
    spent, else stop on the berry's cell."""
    cell = st.cells[st.mover]
    if st.points and completable(st, cell, st.points, occupied(st, st.mover)):
        st.phase = spec.MOVE
        return st, [0.0] * st.players
    st.points = 0
    return end_move(st)


def sorcery(st, c):
    cell = st.cells[c]
    x, y = cell % 3, cell // 3
    if st.scared[c] or kind(st, x, y) != spec.CROC:
        st.scared[c] = not st.scared[c]
        return st
    occ = occupied(st, c)
    lanes = {0: (0, 1, 2), 1: (1, 0, 2), 2: (2, 1, 0)}[x]
    for row in range(3 + 3 * ((y - 3) // 3) + 2, last_row(st) + 1):
        for lane in lanes:
            if row * 3 + lane not in occ and kind(st, lane, row) not in spec.IMPASSABLE:
                st.cells[c] = row * 3 + lane
                return st
    st.scared[c] = True
    return st


def swap(st, a, b):
    st.cells[a], st.cells[b] = st.cells[b], st.cells[a]
    st.nest[a] = st.nest[b] = False
    return st


def end_move(st):
    """A move is over: the game may end; a frenzy goes on with its next group."""
    if sum(1 for p in st.places if p) < 3 and any(st.frenzy):
        st.mover, st.points, st.safe, st.phase = -1, 0, -1, spec.FRENZY_PICK
        return st, [0.0] * st.players
    return end_turn(st)


def end_turn(st):
    """Finish the turn: the end at the third arrival or the turn cap, else the next player."""
    st.mover, st.points, st.safe = -1, 0, -1
    st.frenzy, st.jokers = [0] * 5, 0
    arrived = sum(1 for p in st.places if p)
    if arrived == 3:
        st.phase = spec.END
        return st, returns(st)
    st.turn += 1
    if st.turn >= spec.MAX_TURNS:
        st.phase = spec.END
        return st, [0.0] * st.players
    st.to_move = (st.to_move + st.direction) % st.players
    st.phase, st.dice = spec.ROLL, [None] * 6
    return st, [0.0] * st.players


# ----- scoring ------------------------------------------------------------------------------
def last_ostrich(st):
    """The unique lowest-row ostrich on the track, or None (tied or nobody)."""
    rows = {c: st.cells[c] // 3 for c in range(5) if st.cells[c] is not None}
    if not rows:
        return None
    low = min(rows.values())
    lows = [c for c, r in rows.items() if r == low]
    return lows[0] if len(lows) == 1 else None


def score_and_exact(st, seat):
    first, second, third, last = spec.CARDS[st.cards[seat]]
    order = {p: c for c, p in enumerate(st.places) if p}
    score, exact = 0, 0
    for place, (c, value) in enumerate(((first, 5), (second, 4), (third, 3)), start=1):
        if order.get(place) == c:
            score, exact = score + value, exact + 1
        elif st.places[c]:
            score += 2
    if last_ostrich(st) == last:
        score *= 2
    if st.variant and spec.JADE in st.collected[seat]:
        score += 2
    return score, exact


def scores(st):
    return [score_and_exact(st, p)[0] for p in range(st.players)]


def returns(st):
    keys = [score_and_exact(st, p) for p in range(st.players)]
    best = max(keys)
    winners = [p for p in range(st.players) if keys[p] == best]
    P = st.players
    return [P / (P - 1) * ((1 / len(winners) if p in winners else 0.0) - 1 / P) for p in range(P)]


# ----- observation --------------------------------------------------------------------------
def observe(st, player):
    """The observation of ``spec.OBS`` from ``player``'s seat."""
    at = spec.OBS.offset
    obs = [0] * spec.OBS.size
    P = st.players
    for c in range(5):
        if st.cells[c] is not None:
            obs[at("ostriches") + c * 63 + st.cells[c]] = 1
            if st.scared[c]:
                obs[at("scared") + st.cells[c]] = 1
        else:
            obs[at("arrival") + 3 * c + st.places[c] - 1] = 1
        if not st.nest[c]:
            obs[at("left_nest") + c] = 1
    for cell in range(3 * (last_row(st) + 1)):
        x, y = cell % 3, cell // 3
        k = kind(st, x, y)
        for part, hit in (("impassable", k in spec.IMPASSABLE),
                          ("quicksand", k == spec.QUICK), ("curve", is_curve(st, x, y)),
                          ("crocodile", k == spec.CROC), ("lava", k == spec.LAVA),
                          ("vortex", k == spec.VORTEX), ("track", True)):
            if hit:
                obs[at(part) + cell] = 1
    if st.variant:
        for k, cell in enumerate(st.berry_cells):
            if cell is not None:
                obs[at("berry") + cell] = 1
                if player in st.seen[k]:
                    obs[at("berry_kinds") + st.berry_kinds[k] * 63 + cell] = 1
        for seat in st.spear:
            obs[at("spear") + (seat - player) % P] = 1
        for seat in range(P):
            if spec.JADE in st.collected[seat]:
                obs[at("oor") + (seat - player) % P] = 1
    for d, f in enumerate(st.dice):
        if f is not None:
            obs[at("dice") + 6 * d + f] = 1
    obs[at("phase") + st.phase] = 1
    if st.mover >= 0:
        obs[at("mover") + st.mover] = 1
    for k in range(min(st.points, 8)):
        obs[at("points") + k] = 1
    obs[at("card") + st.cards[player]] = 1
    obs[at("to_move") + (st.to_move - player) % P] = 1
    obs[at("reversed")] = int(st.direction < 0)
    for k in range(P):
        obs[at("seats") + k] = 1
    past = st.phase not in (spec.ROLL, spec.REROLL, spec.PLACE, spec.END)
    obs[at("past_reroll")] = int(past)
    for c in range(5):
        for k in range(min(st.frenzy[c], 5)):
            obs[at("frenzy") + 5 * c + k] = 1
    for k in range(min(st.jokers, 5)):
        obs[at("jokers") + k] = 1
    return obs
