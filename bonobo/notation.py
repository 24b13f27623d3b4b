"""Bonobo Beach text notation (pure Python): ``parse`` and ``format`` a position, and the
names of actions; the geometry's tables are ``savanna.bonobo.spec``'s. A position is one line
(shown here on two)::

    players=2 tiles=t00-t01:+3,t12-t13:-2 pawns=s03:0,s07:0,s10:1 score=5,-3
    pile=3,3,3,4,4,4,2,3 move=0 phase=choose

Every field, the geometry, the action ids and the checks ``parse`` makes: the game's page
(docs/games/bonobo.md). Every error is a one-line ``ValueError``.
"""
import re
from dataclasses import dataclass

from savanna.bonobo.spec import (
    DRAW,
    FINAL_SCORE_MAX,
    MAX_SCORE,
    NEIGHBOURS,
    NUM_ACTIONS,
    NUM_SLOTS,
    NUM_SPOTS,
    NUM_TRIANGLES,
    PAWNS_PER_PLAYER,
    PHASES,
    PLAYER_COUNTS,
    SLOTS,
    SPOT_TRIANGLES,
    SYMBOLS,
    TILE,
    TILE_COUNTS,
    VALUES,
)
from savanna.errors import check_int, clip, is_int


def triangle_name(t):
    return f"t{t:02d}"


def spot_name(s):
    return f"s{s:02d}"


def slot_name(k):
    a, b = SLOTS[k]
    return f"{triangle_name(a)}-{triangle_name(b)}"


def value_name(v):
    return f"{v:+d}"


def action_name(a):
    """``pawn s07``, ``draw`` or ``tile t12-t13``."""
    a = check_int("action", a, 0, NUM_ACTIONS - 1)
    if a < DRAW:
        return f"pawn {spot_name(a)}"
    return "draw" if a == DRAW else f"tile {slot_name(a - TILE)}"


def parse_action(text):
    """The action id of ``pawn sNN``, ``draw`` or ``tile tAA-tBB`` (either triangle order)."""
    words = _check_str(text, "an action").split()
    if words == ["draw"]:
        return DRAW
    if len(words) == 2 and words[0] == "pawn":
        return _parse_index(words[1], "s", NUM_SPOTS, "spot")
    if len(words) == 2 and words[0] == "tile":
        return TILE + _parse_slot(words[1])
    raise ValueError(f"unknown action {clip(text)}; expected 'pawn s00'..'pawn s18', 'draw' or "
                     f"'tile tAA-tBB' with two neighbouring triangles")


def parse_outcome(text):
    """The chance outcome of a value name ``-4`` .. ``+4`` (no 0)."""
    names = [value_name(v) for v in VALUES]
    word = _check_str(text, "a tile value").strip()
    if word not in names:
        raise ValueError(f"unknown tile value {clip(text)}; expected one of {' '.join(names)}")
    return names.index(word)


# ----- positions ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Position:
    """A full state in plain Python (what the notation writes)."""

    num_players: int
    tiles: tuple = ()        # ((slot, value), ...) sorted by slot
    pawns: tuple = ()        # ((spot, owner), ...) sorted by spot
    score: tuple = ()        # one int per player
    pile: tuple = TILE_COUNTS
    to_move: int = 0
    phase: str = "choose"
    drawn: int | None = None  # value of the tile in hand (phase place)


def start_position(num_players):
    check_num_players(num_players)
    return Position(num_players, score=(0,) * num_players)


def check_num_players(num_players):
    """Raise a ValueError unless ``num_players`` is an int of ``PLAYER_COUNTS`` (not ``True``,
    ``2.0`` or ``"2"``)."""
    check_int("num_players", num_players, min(PLAYER_COUNTS), max(PLAYER_COUNTS))


def format(pos):  # noqa: A001 - the notation's verb
    tiles = ",".join(f"{slot_name(k)}:{value_name(v)}" for k, v in pos.tiles) or "-"
    pawns = ",".join(f"{spot_name(s)}:{o}" for s, o in pos.pawns) or "-"
    phase = f"place:{value_name(pos.drawn)}" if pos.phase == "place" else pos.phase
    return (f"players={pos.num_players} tiles={tiles} pawns={pawns} "
            f"score={','.join(map(str, pos.score))} pile={','.join(map(str, pos.pile))} "
            f"move={pos.to_move} phase={phase}")


_KEYS = ("players", "tiles", "pawns", "score", "pile", "move", "phase")


def parse(text):
    """The Position written by ``text``, or a one-line ValueError saying what is wrong."""
    fields = {}
    for word in _check_str(text, "a position").split():
        key, eq, value = word.partition("=")
        if not eq or key not in _KEYS or key in fields:
            raise ValueError(f"bad field {clip(word)}; a position is the fields "
                             f"{' '.join(k + '=...' for k in _KEYS)}")
        fields[key] = value
    missing = [k for k in _KEYS if k not in fields]
    if missing:
        raise ValueError(f"missing field(s) {', '.join(missing)} in {clip(text)}")
    phase, drawn = fields["phase"], None
    if phase.startswith("place:"):
        drawn = VALUES[parse_outcome(phase[6:])]
        phase = "place"
    elif phase not in ("choose", "chance", "end"):
        raise ValueError(f"unknown phase {clip(phase)}; expected choose, chance, place:<value>, "
                         f"end")
    pos = Position(_parse_int(fields["players"], "players"), _parse_tiles(fields["tiles"]),
                   _parse_pawns(fields["pawns"]), _parse_ints(fields["score"], "score"),
                   _parse_ints(fields["pile"], "pile"), _parse_int(fields["move"], "move"),
                   phase, drawn)
    check_position(pos)
    return pos


def check_position(pos):
    """Raise a one-line ValueError unless ``pos`` is a possible Bonobo state: every field of
    the right type and in range, then the state consistent (the rules of ``savanna.bonobo.game``).
    The kernels' ``valid_one`` accepts exactly the states this accepts."""
    if not isinstance(pos, Position):
        raise ValueError(f"expected a savanna.bonobo.notation.Position, got {clip(pos)}")
    check_num_players(pos.num_players)
    P = pos.num_players
    _check_fields(pos)
    for v, initial in zip(VALUES, TILE_COUNTS):
        used = sum(1 for _, w in pos.tiles if w == v) + (pos.drawn == v) + pos.pile[VALUES.index(v)]
        if used != initial:
            raise ValueError(f"tiles of value {value_name(v)}: {used} on board, in hand and in "
                             f"the pile, but the game has {initial}")
    covered = {t for k, _ in pos.tiles for t in SLOTS[k]}
    if 2 * len(pos.tiles) != len(covered):
        raise ValueError("two tiles overlap")
    act = activated(covered)
    for s, _ in pos.pawns:
        if all(t in covered for t in SPOT_TRIANGLES[s]):
            raise ValueError(f"pawn on {spot_name(s)} is fully surrounded: it would have scored")
        if any(t in act and SYMBOLS[t] == "T" for t in SPOT_TRIANGLES[s]):
            raise ValueError(f"pawn on {spot_name(s)} is beside an activated toilet: "
                             f"it would have been chased")
    free_slot = any(a not in covered and b not in covered for a, b in SLOTS)
    if pos.phase in ("chance", "place") and not free_slot:
        raise ValueError(f"phase {pos.phase} needs a free slot")
    can_draw = free_slot and sum(pos.pile) > 0
    able = [can_draw or can_place_pawn(pos, p, covered, act) for p in range(P)]
    if pos.phase == "choose" and not able[pos.to_move]:
        raise ValueError(f"player {pos.to_move} cannot act (write the next player who can, "
                         f"or phase=end)")
    if pos.phase == "end" and any(able):
        raise ValueError("phase end but a player can still act")
    room = MAX_SCORE - score_headroom(pos)
    if any(abs(x) > room for x in pos.score):
        raise ValueError(f"score {clip(pos.score)} out of reach: the points still to score here "
                         f"could take it past +-{MAX_SCORE}, so each must be within +-{room}")


def score_headroom(pos):
    """The most any player's score can still change by from ``pos`` (see ``MAX_SCORE``): each
    spot not yet fully covered will score its placed triangles at most once (``abs(a)`` each),
    a tile not yet placed at most ``6 * abs(a)`` (three spots at each of its two triangles), and
    the final scoring, unless the game is over, at most ``FINAL_SCORE_MAX``. A legal move
    lowers it by at least the points it scores, so a position whose scores are within
    ``MAX_SCORE - headroom`` leads only to such positions: ``check_position`` asks for it."""
    value = {t: abs(v) for k, v in pos.tiles for t in SLOTS[k]}
    placed = sum(value.get(t, 0) for tris in SPOT_TRIANGLES
                 if not all(t in value for t in tris) for t in tris)
    unplaced = sum(abs(v) * c for v, c in zip(VALUES, pos.pile)) + abs(pos.drawn or 0)
    return placed + 6 * unplaced + (0 if pos.phase == "end" else FINAL_SCORE_MAX)


def _check_fields(pos):
    """Each field of ``pos`` alone: types, ranges, lengths, no slot or spot twice."""
    P = pos.num_players
    for k, v in _pairs(pos.tiles, "tiles"):
        if not (is_int(k) and 0 <= k < NUM_SLOTS and is_int(v) and v in VALUES):
            raise ValueError(f"tile {clip((k, v))} needs a slot 0..{NUM_SLOTS - 1} and a value "
                             f"in {' '.join(map(value_name, VALUES))}")
    if len({k for k, _ in pos.tiles}) != len(pos.tiles):
        raise ValueError("a slot is listed twice in tiles")
    for s, o in _pairs(pos.pawns, "pawns"):
        if not (is_int(s) and 0 <= s < NUM_SPOTS):
            raise ValueError(f"bad spot {clip(s)}; expected s00..s{NUM_SPOTS - 1:02d}")
        if not (is_int(o) and 0 <= o < P):
            raise ValueError(f"pawn on {spot_name(s)} needs an owner 0..{P - 1}, got {clip(o)}")
    if len({s for s, _ in pos.pawns}) != len(pos.pawns):
        raise ValueError("two pawns on one spot")
    for p in range(P):
        if sum(1 for _, o in pos.pawns if o == p) > PAWNS_PER_PLAYER:
            raise ValueError(f"player {p} has more than {PAWNS_PER_PLAYER} pawns on the board")
    if not (isinstance(pos.score, tuple) and len(pos.score) == P
            and all(is_int(x) and -MAX_SCORE <= x <= MAX_SCORE for x in pos.score)):
        raise ValueError(f"score needs {P} integers in -{MAX_SCORE}..{MAX_SCORE} (no player "
                         f"can score more), got {clip(pos.score)}")
    if not (isinstance(pos.pile, tuple) and len(pos.pile) == len(VALUES)
            and all(is_int(c) and 0 <= c <= n for c, n in zip(pos.pile, TILE_COUNTS))):
        raise ValueError(f"pile needs 8 counts, value -4..+4 at most "
                         f"{','.join(map(str, TILE_COUNTS))}, got {clip(pos.pile)}")
    if not (is_int(pos.to_move) and 0 <= pos.to_move < P):
        raise ValueError(f"move must be a player 0..{P - 1}, got {clip(pos.to_move)}")
    if pos.phase not in PHASES:
        raise ValueError(f"phase must be one of {', '.join(PHASES)}, got {clip(pos.phase)}")
    if (pos.drawn is None) == (pos.phase == "place") or (
            pos.drawn is not None and not (is_int(pos.drawn) and pos.drawn in VALUES)):
        raise ValueError(f"drawn must be a tile value in phase place and None in other "
                         f"phases, got {clip(pos.drawn)} in phase {clip(pos.phase)}")


def _pairs(items, what):
    if not (isinstance(items, tuple) and all(isinstance(x, tuple) and len(x) == 2
                                              for x in items)):
        raise ValueError(f"{what} must be a tuple of pairs, got {clip(items)}")
    return items


def can_place_pawn(pos, player, covered, act):
    """Whether ``player`` has a pawn in supply and a legal spot for it (rules §4)."""
    mine = sum(1 for _, o in pos.pawns if o == player)
    taken = {s for s, _ in pos.pawns}
    return mine < PAWNS_PER_PLAYER and any(
        s not in taken and any(t not in covered for t in tris)
        and not any(t in act and SYMBOLS[t] == "T" for t in tris)
        for s, tris in enumerate(SPOT_TRIANGLES))


def activated(covered):
    """Free triangles none of whose neighbours is free (rules §4)."""
    return {t for t in range(NUM_TRIANGLES) if t not in covered
            and all(n in covered for n in NEIGHBOURS[t])}


# ----- field parsers -----------------------------------------------------------------------
def _check_str(text, what):
    if not isinstance(text, str):
        raise ValueError(f"expected {what} as a str, got {clip(text)}")
    return text


_INT = re.compile(r"[+-]?[0-9]{1,9}")


def _parse_int(text, what):
    """A decimal integer of at most 9 digits (range checks come later, with the field's)."""
    if not _INT.fullmatch(text):
        raise ValueError(f"{what}: {clip(text)} is not an integer")
    return int(text)


def _parse_ints(text, what):
    return tuple(_parse_int(x, what) for x in text.split(","))


def _parse_index(text, letter, count, what):
    if (len(text) == 3 and text[0] == letter and "0" <= text[1] <= "9" and "0" <= text[2] <= "9"
            and int(text[1:]) < count):
        return int(text[1:])
    raise ValueError(f"bad {what} {clip(text)}; expected {letter}00..{letter}{count - 1:02d}")


def _parse_slot(text):
    a, dash, b = text.partition("-")
    pair = tuple(sorted((_parse_index(a, "t", NUM_TRIANGLES, "triangle"),
                         _parse_index(b, "t", NUM_TRIANGLES, "triangle") if dash else -1)))
    if pair not in SLOTS:
        raise ValueError(f"{clip(text)} is not a slot: expected two neighbouring triangles tAA-tBB")
    return SLOTS.index(pair)


def _parse_tiles(text):
    if text == "-":
        return ()
    tiles = []
    for item in text.split(","):
        slot, colon, value = item.partition(":")
        k = _parse_slot(slot)
        if not colon:
            raise ValueError(f"tile {clip(item)} needs a value, e.g. {slot_name(k)}:+3")
        tiles.append((k, VALUES[parse_outcome(value)]))
    return tuple(sorted(tiles))


def _parse_pawns(text):
    if text == "-":
        return ()
    pawns = []
    for item in text.split(","):
        spot, colon, owner = item.partition(":")
        s = _parse_index(spot, "s", NUM_SPOTS, "spot")
        if not colon:
            raise ValueError(f"pawn {clip(item)} needs an owner, e.g. {spot_name(s)}:0")
        pawns.append((s, _parse_int(owner, "pawn owner")))
    return tuple(sorted(pawns))
