"""Bonobo Beach rules in slow, obvious Python: the oracle the numba kernels are checked against.

It shares only the board data and names of ``savanna.bonobo.notation`` and re-derives the rest
from the rules text (neighbours, activation, scoring, eviction, turn order, the observation);
it never imports numba or ``savanna.bonobo._kernels``. States are plain dataclasses, every
function returns a new one. Its [decision]s are the game's (docs/games/bonobo.md).
"""
from dataclasses import dataclass, field

from savanna.bonobo import notation, spec

CHANCE = -1
TERMINAL = -2

_NEIGHBOURS = [{u for u in range(spec.NUM_TRIANGLES)
                if len(set(spec.TRIANGLES[t]) & set(spec.TRIANGLES[u])) == 2}
               for t in range(spec.NUM_TRIANGLES)]
_SPOT_TRIANGLES = [{t for t in range(spec.NUM_TRIANGLES) if point in spec.TRIANGLES[t]}
                   for point in spec.SPOTS]


@dataclass
class State:
    num_players: int
    cover: dict = field(default_factory=dict)   # triangle -> base value of its tile
    tiles: dict = field(default_factory=dict)   # slot -> base value
    pawns: dict = field(default_factory=dict)   # spot -> owner
    score: list = field(default_factory=list)
    pile: list = field(default_factory=lambda: list(spec.TILE_COUNTS))
    to_move: int = 0
    phase: str = "choose"
    drawn: int | None = None


def new_game(num_players=2):
    notation.check_num_players(num_players)
    return State(num_players, score=[0] * num_players)


def from_position(pos):
    notation.check_position(pos)
    cover = {t: v for k, v in pos.tiles for t in spec.SLOTS[k]}
    return State(pos.num_players, cover, dict(pos.tiles), dict(pos.pawns), list(pos.score),
                 list(pos.pile), pos.to_move, pos.phase, pos.drawn)


def clone(state):
    return State(state.num_players, dict(state.cover), dict(state.tiles), dict(state.pawns),
                 list(state.score), list(state.pile), state.to_move, state.phase, state.drawn)


def to_position(state):
    return notation.Position(state.num_players, tuple(sorted(state.tiles.items())),
                      tuple(sorted(state.pawns.items())), tuple(state.score), tuple(state.pile),
                      state.to_move, state.phase, state.drawn)


# ----- definitions (rules §4) ----------------------------------------------------------------
def free(state, t):
    return t not in state.cover


def activated(state, t):
    return t not in state.cover and all(u in state.cover for u in _NEIGHBOURS[t])


def activated_toilets(state):
    return {t for t in spec.TOILETS if activated(state, t)}


def free_slots(state):
    return [k for k, (a, b) in enumerate(spec.SLOTS) if free(state, a) and free(state, b)]


def legal_spots(state):
    """Spots a pawn may go to (whoever places it): empty, beside a free triangle and beside
    no activated toilet."""
    toilets = activated_toilets(state)
    return [s for s, tris in enumerate(_SPOT_TRIANGLES)
            if s not in state.pawns and any(free(state, t) for t in tris) and not tris & toilets]


def supply(state, player):
    return spec.PAWNS_PER_PLAYER - sum(1 for o in state.pawns.values() if o == player)


def can_draw(state):
    return sum(state.pile) > 0 and bool(free_slots(state))


def can_act(state, player):
    return can_draw(state) or (
        supply(state, player) > 0 and bool(legal_spots(state)))


# ----- the protocol ----------------------------------------------------------------------------
def current_player(state):
    return {"chance": CHANCE, "end": TERMINAL}.get(state.phase, state.to_move)


def legal_actions(state):
    if state.phase == "place":
        return [spec.TILE + k for k in free_slots(state)]
    if state.phase != "choose":
        return []
    actions = []
    if supply(state, state.to_move) > 0:
        actions = legal_spots(state)
    return actions + ([spec.DRAW] if can_draw(state) else [])


def chance_outcomes(state):
    """``{outcome: probability}`` of the tile values still in the pile."""
    if state.phase != "chance":
        return {}
    total = sum(state.pile)
    return {o: c / total for o, c in enumerate(state.pile) if c}


def apply_chance(state, outcome):
    if outcome not in chance_outcomes(state):
        raise ValueError(f"chance outcome {outcome} is impossible here")
    state = clone(state)
    state.pile[outcome] -= 1
    state.drawn = spec.VALUES[outcome]
    state.phase = "place"
    return state


def step(state, action):
    """Apply a legal decision: returns ``(new_state, rewards)``."""
    if action not in legal_actions(state):
        raise ValueError(f"illegal action {action} in {notation.format(to_position(state))}")
    state = clone(state)
    if action == spec.DRAW:
        state.phase = "chance"
        return state, [0.0] * state.num_players
    if action < spec.DRAW:
        state.pawns[action] = state.to_move
    else:
        _place_tile(state, action - spec.TILE)
    return state, _end_turn(state)


def _place_tile(state, slot):
    before = activated_toilets(state)
    for t in spec.SLOTS[slot]:
        state.cover[t] = state.drawn
    state.tiles[slot] = state.drawn
    state.drawn = None
    for s, owner in sorted(state.pawns.items()):              # 1. scoring
        if all(t in state.cover for t in _SPOT_TRIANGLES[s]):
            state.score[owner] += sum(state.cover[t] for t in _SPOT_TRIANGLES[s])
            del state.pawns[s]
    for t in activated_toilets(state) - before:              # 2. toilets chase pawns
        for s in range(spec.NUM_SPOTS):
            if t in _SPOT_TRIANGLES[s]:
                state.pawns.pop(s, None)


def _end_turn(state):
    """Pass the turn to the next player who can act, or end the game; returns the rewards."""
    P = state.num_players
    for d in range(1, P + 1):
        p = (state.to_move + d) % P
        if can_act(state, p):
            state.to_move, state.phase = p, "choose"
            return [0.0] * P
    for s, owner in state.pawns.items():
        state.score[owner] += final_pawn_score(state, s)
    state.phase = "end"
    best = max(state.score)
    winners = [p for p in range(P) if state.score[p] == best]
    return [P / (P - 1) * ((1 / len(winners) if p in winners else 0.0) - 1 / P)
            for p in range(P)]


def final_pawn_score(state, s):
    """Rules §6: numbers toward the spot; activated parasol: absolute values; x2 per dune."""
    tris = _SPOT_TRIANGLES[s]
    numbers = [state.cover[t] for t in tris if t in state.cover]
    if any(spec.SYMBOLS[t] == "P" and activated(state, t) for t in tris):
        numbers = [abs(x) for x in numbers]
    dunes = sum(1 for t in tris if spec.SYMBOLS[t] == "D" and activated(state, t))
    return sum(numbers) * 2 ** dunes


def scores(state):
    return list(state.score)


def observe(state, player):
    """The observation of ``spec.OBS``, built plainly part by part."""
    P = state.num_players
    rel = [(o - player) % P for o in range(P)]
    triangles = [[0] * spec.NUM_TRIANGLES for _ in range(12)]
    for t, v in state.cover.items():
        triangles[spec.VALUES.index(v)][t] = 1
    for t in range(spec.NUM_TRIANGLES):
        triangles[8][t] = int(activated(state, t))
        triangles[9 + "TPD".index(spec.SYMBOLS[t])][t] = 1
    spots = [[0] * spec.NUM_SPOTS for _ in range(5)]
    for s, owner in state.pawns.items():
        spots[rel[owner]][s] = 1
    for s in legal_spots(state):
        spots[4][s] = 1
    parts = {"tiles": [x for plane in triangles[:8] for x in plane],
             "activated": triangles[8],
             "symbols": [x for plane in triangles[9:] for x in plane],
             "pawns": [x for plane in spots[:4] for x in plane],
             "legal_spots": spots[4],
             "drawn": [int(state.phase == "place" and state.drawn == v) for v in spec.VALUES],
             "pile": [int(count > j) for count, initial in zip(state.pile, spec.TILE_COUNTS)
                      for j in range(initial)]}
    by_seat = {rel[p]: p for p in range(P)}
    parts["supply"] = []
    for k in range(4):
        left = supply(state, by_seat[k]) if k in by_seat else 0
        parts["supply"] += [int(left > j) for j in range(4)]
    parts["score"] = []
    for k in range(4):
        shifted = min(255, max(0, state.score[by_seat[k]] + 128)) if k in by_seat else 0
        parts["score"] += [shifted >> j & 1 for j in range(8)]
    parts["phase"] = [int(state.phase == ph) for ph in spec.PHASES]
    mover = rel[state.to_move] if state.phase != "end" else -1
    parts["to_move"] = [int(k == mover) for k in range(4)]
    parts["seats"] = [int(k < P) for k in range(4)]
    assert [(name, len(part)) for name, part in parts.items()] == \
        [(part.name, part.size) for part in spec.OBS.parts]
    return [x for part in parts.values() for x in part]
