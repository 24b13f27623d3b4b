"""Banjooli Xeet text notation (pure Python): ``parse`` and ``format`` a position, and the
names of actions; the course data, action ids and observation layout are
``savanna.banjooli.spec``'s. A position is one line (shown here on two)::

    players=2 course=T1,K2,T5,T3 ostriches=a0n,c0n,b1n,a2n,c2n cards=3,7 to_move=0 dir=+
    turn=0 phase=roll dice=??????

Every field and the readings taken where the rules are silent: the game's page
(docs/games/banjooli.md). Every error is a one-line ``ValueError``.
"""
import operator
import re
from dataclasses import dataclass, replace

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
    BERRY_LETTERS,
    COLOURS,
    DIR_NAMES,
    END,
    FACE_NAMES,
    FACES,
    FRENZY_ASSIGN,
    FRENZY_ROLL,
    GROUND,
    IMPASSABLE,
    LANES,
    MAX_PLAYERS,
    MAX_ROWS,
    MAX_TERRAIN,
    MAX_TURNS,
    MOVE,
    NESTS,
    NUM_ACTIONS,
    PHASES,
    PLACE,
    REROLLING,
    ROLL,
    SNAKE_BACK,
    SPEAR_GIVE,
    VORTEX_PICK,
    VORTEX_ROLL,
    face_kinds,
)
from savanna.errors import clip


@dataclass(frozen=True)
class Position:
    """A full state, hidden fields included. Ostrich tuples are indexed by colour."""

    players: int
    course: tuple          # face ids
    cells: tuple           # cell of each ostrich on the track, None if arrived
    places: tuple          # 0 on the track, else arrival place 1..3
    nest: tuple            # still on its nest (not in the race)
    scared: tuple
    cards: tuple           # card id per seat
    to_move: int
    direction: int         # +1 or -1
    turn: int
    phase: int
    dice: tuple            # six faces 0..5, None = still to roll
    mover: int = -1        # move / spear / vortex / snake phases
    points: int = 0        # move / spear phases
    safe: int = -1         # move / spear phases: last non-lava cell of the move
    # berry variant (``variant``); slot k is the berry placed by seat k
    variant: bool = False
    berry_cells: tuple = ()  # cell per slot, None if not placed yet or taken
    berry_kinds: tuple = ()  # kind per slot, None once taken
    seen: tuple = ()         # per slot: the seats that know its kind (Jëmbat)
    collected: tuple = ()    # per seat: the kinds of the berries it took, ascending
    spear: tuple = ()        # seats that get no reroll on their next turn
    frenzy: tuple = (0, 0, 0, 0, 0)  # frenzy points still to move, per colour
    jokers: int = 0          # frenzy-assign: joker dice left to assign

    @property
    def last_row(self):
        return 3 * len(self.course) + 2


def cell_name(cell):
    return f"{LANES[cell % 3]}{cell // 3}"


def parse_cell(text):
    m = re.fullmatch(r"([abc])([0-9]{1,2})", text)
    if not m or int(m.group(2)) >= MAX_ROWS:
        raise ValueError(f"bad cell {clip(text)}: expected a lane a-c and a row 0-{MAX_ROWS - 1}, "
                         "e.g. b4")
    return int(m.group(2)) * 3 + LANES.index(m.group(1))


def _ostrich_text(pos, c):
    if pos.places[c]:
        return f"+{pos.places[c]}"
    return cell_name(pos.cells[c]) + ("n" if pos.nest[c] else "") + ("s" if pos.scared[c] else "")


def _phase_text(pos):
    name = PHASES[pos.phase]
    if pos.phase in (MOVE, SPEAR_GIVE):
        return f"{name}:{COLOURS[pos.mover]}{pos.points}:{cell_name(pos.safe)}"
    if pos.phase in (VORTEX_ROLL, VORTEX_PICK, SNAKE_BACK):
        return f"{name}:{COLOURS[pos.mover]}"
    if pos.phase == FRENZY_ASSIGN:
        return f"{name}:{pos.jokers}"
    return name


def _berry_text(pos, k):
    if pos.berry_kinds[k] is None:
        return "x"
    cell = "-" if pos.berry_cells[k] is None else cell_name(pos.berry_cells[k])
    seen = "".join(str(p) for p in pos.seen[k])
    return f"{BERRY_LETTERS[pos.berry_kinds[k]]}@{cell}" + (f"+{seen}" if seen else "")


def format(pos):  # noqa: A001 - the notation's verb
    """The one-line text of a Position."""
    fields = [
        f"players={pos.players}",
        "course=" + ",".join(FACE_NAMES[f] for f in pos.course),
        "ostriches=" + ",".join(_ostrich_text(pos, c) for c in range(5)),
        "cards=" + ",".join(str(k) for k in pos.cards),
        f"to_move={pos.to_move}",
        "dir=" + ("+" if pos.direction > 0 else "-"),
        f"turn={pos.turn}",
        "phase=" + _phase_text(pos),
        "dice=" + "".join("?" if f is None else FACES[f] for f in pos.dice),
    ]
    if pos.variant:
        fields += [
            "spear=" + ("".join(str(p) for p in pos.spear) or "-"),
            "berries=" + ",".join(_berry_text(pos, k) for k in range(pos.players)),
            "collected=" + ",".join("".join(BERRY_LETTERS[b] for b in kinds) or "-"
                                    for kinds in pos.collected),
            "frenzy=" + ("".join(f"{COLOURS[c]}{pos.frenzy[c]}" for c in range(5)
                                 if pos.frenzy[c]) or "-"),
        ]
    return " ".join(fields)


_KEYS = ("players", "course", "ostriches", "cards", "to_move", "dir", "turn", "phase", "dice")
_BERRY_KEYS = ("spear", "berries", "collected", "frenzy")


def parse(text):
    """The Position of a one-line text; ValueError naming the first bad field."""
    if not isinstance(text, str):
        raise ValueError(f"a position is a str in the banjooli notation, got {clip(text)}")
    fields = text.split()
    keys = tuple(f.split("=", 1)[0] for f in fields)
    if keys not in (_KEYS, _KEYS + _BERRY_KEYS) or any("=" not in f for f in fields):
        raise ValueError(f"expected the fields {' '.join(k + '=' for k in _KEYS)} in this order, "
                         f"then for the berry variant {' '.join(k + '=' for k in _BERRY_KEYS)}; "
                         f"got {clip(text)}")
    v = dict(f.split("=", 1) for f in fields)
    players = _int(v["players"], "players", 2, MAX_PLAYERS)
    course = tuple(_face(name) for name in v["course"].split(","))
    if not 1 <= len(course) <= MAX_TERRAIN:
        raise ValueError(f"course must have 1..{MAX_TERRAIN} faces, got {len(course)}")
    last_row = 3 * len(course) + 2
    tokens = v["ostriches"].split(",")
    if len(tokens) != 5:
        raise ValueError("ostriches must list 5 ostriches (R,B,G,Y,P), got "
                         f"{clip(v['ostriches'])}")
    cells, places, nest, scared = [], [], [], []
    for c, tok in enumerate(tokens):
        m = re.fullmatch(r"\+([123])|([abc][0-9]{1,2})(n?)(s?)", tok)
        if not m:
            raise ValueError(f"bad ostrich {COLOURS[c]} {clip(tok)}: expected a cell with "
                             "optional n (on its nest) and s (scared), or +1/+2/+3")
        if m.group(1):
            cells.append(None), places.append(int(m.group(1))), nest.append(False)
            scared.append(False)
            continue
        cell = parse_cell(m.group(2))
        if cell // 3 > last_row:
            raise ValueError(f"ostrich {COLOURS[c]} on {clip(tok)} is past the last row "
                             f"{last_row}")
        if m.group(3) and cell not in NESTS:
            raise ValueError(f"ostrich {COLOURS[c]} marked n but {m.group(2)} is not a nest")
        cells.append(cell), places.append(0), nest.append(bool(m.group(3)))
        scared.append(bool(m.group(4)))
    on_track = [x for x in cells if x is not None]
    if len(set(on_track)) != len(on_track):
        raise ValueError("two ostriches share a cell")
    arrived = sorted(p for p in places if p)
    if arrived != list(range(1, len(arrived) + 1)):
        raise ValueError(f"arrival places must be 1..k without gaps, got {arrived}")
    kinds = _course_kinds(course)
    for c, cell in enumerate(cells):
        if cell is not None and kinds[cell] in IMPASSABLE:
            raise ValueError(f"ostrich {COLOURS[c]} stands on impassable {cell_name(cell)}")
    cards = tuple(_int(k, "card", 0, 9) for k in v["cards"].split(","))
    if len(cards) != players:
        raise ValueError(f"cards must list {players} cards (one per seat), got {clip(v['cards'])}")
    if len(set(cards)) != players:
        raise ValueError(f"cards must be distinct, got {clip(v['cards'])}")
    to_move = _int(v["to_move"], "to_move", 0, players - 1)
    if v["dir"] not in "+-" or len(v["dir"]) != 1:
        raise ValueError(f"dir must be + or -, got {clip(v['dir'])}")
    turn = _int(v["turn"], "turn", 0, MAX_TURNS)
    phase, mover, points, safe, jokers = _parse_phase(v["phase"], cells)
    variant = "spear" in v
    if not variant and phase >= PLACE:
        raise ValueError(f"phase {PHASES[phase]} needs the berry variant fields")
    if len(v["dice"]) != 6 or any(ch not in FACES + "?" for ch in v["dice"]):
        raise ValueError(f"dice must be 6 characters from {FACES}?, got {clip(v['dice'])}")
    dice = tuple(None if ch == "?" else FACES.index(ch) for ch in v["dice"])
    rolling = phase in (ROLL, REROLLING, FRENZY_ROLL, PLACE)
    if rolling != (None in dice):
        raise ValueError("dice may show ? exactly in the place, roll, rerolling and frenzy-roll "
                         "phases")
    if (len(arrived) == 3) != (phase == END) and turn < MAX_TURNS:
        raise ValueError("phase must be end exactly when three ostriches have arrived")
    pos = Position(players, course, tuple(cells), tuple(places), tuple(nest), tuple(scared),
                   cards, to_move, 1 if v["dir"] == "+" else -1, turn, phase, dice, mover,
                   points, safe)
    if not variant:
        return pos
    return _parse_berries(pos, v, kinds, jokers)


def _parse_berries(pos, v, kinds, jokers):
    P = pos.players
    if not re.fullmatch(r"-|[0-4]+", v["spear"]) or any(int(p) >= P for p in v["spear"].strip("-")):
        raise ValueError(f"spear must be - or seats 0..{P - 1}, got {clip(v['spear'])}")
    spear = tuple(sorted({int(p) for p in v["spear"].strip("-")}))
    tokens = v["berries"].split(",")
    if len(tokens) != P:
        raise ValueError(f"berries must list {P} slots (one per seat), got {clip(v['berries'])}")
    cells, slot_kinds, seen = [], [], []
    for k, tok in enumerate(tokens):
        if tok == "x":
            cells.append(None), slot_kinds.append(None), seen.append(())
            continue
        m = re.fullmatch(rf"([{BERRY_LETTERS}])@(-|[abc][0-9]{{1,2}})(?:\+([0-4]+))?", tok)
        if not m:
            raise ValueError(f"bad berry slot {clip(tok)}: expected x (taken) or "
                             "<kind>@<cell or -> "
                             f"with optional +<seats that saw it>; kinds {BERRY_LETTERS}")
        cell = None if m.group(2) == "-" else parse_cell(m.group(2))
        unplaced = pos.phase == PLACE and k >= pos.to_move
        if (cell is None) != unplaced:
            raise ValueError(f"berry slot {k} ({clip(tok)}): berries are placed in seat order "
                             "during the place phase, and only then")
        if cell is not None and (cell // 3 < 3 or cell // 3 > pos.last_row
                                 or kinds[cell] != GROUND):
            raise ValueError(f"berry slot {k} on {m.group(2)}: berries lie on ground (.) cells "
                             "of terrain tiles")
        who = m.group(3) or ""
        if any(int(p) >= P for p in who):
            raise ValueError(f"berry slot {k}: seats that saw it must be in 0..{P - 1}")
        cells.append(cell), slot_kinds.append(BERRY_LETTERS.index(m.group(1)))
        seen.append(tuple(sorted({int(p) for p in who})))
    placed = [c for c in cells if c is not None]
    if len(set(placed)) != len(placed):
        raise ValueError("two berries share a cell")
    tokens = v["collected"].split(",")
    if len(tokens) != P or any(not re.fullmatch(rf"-|[{BERRY_LETTERS}]+", t) for t in tokens):
        raise ValueError(f"collected must list {P} seats' kinds (letters {BERRY_LETTERS}) or -, "
                         f"got {clip(v['collected'])}")
    collected = tuple(tuple(sorted(BERRY_LETTERS.index(ch) for ch in t.strip("-")))
                      for t in tokens)
    every = [b for b in slot_kinds if b is not None] + [b for t in collected for b in t]
    if len(set(every)) != len(every):
        raise ValueError("a berry kind appears twice among the slots and collected berries")
    m = re.fullmatch(r"-|(?:[RBGYP][1-9])+", v["frenzy"])
    if not m:
        raise ValueError("frenzy must be - or colour+points groups like R2B1, got "
                         f"{clip(v['frenzy'])}")
    frenzy = [0] * 5
    for colour, pts in re.findall(r"([RBGYP])([1-9])", v["frenzy"]):
        frenzy[COLOURS.index(colour)] = int(pts)
    return replace(pos, variant=True, berry_cells=tuple(cells), berry_kinds=tuple(slot_kinds),
                   seen=tuple(seen), collected=collected, spear=spear, frenzy=tuple(frenzy),
                   jokers=jokers)


def _int(text, what, lo, hi):
    if not re.fullmatch(r"[0-9]{1,9}", text) or not lo <= int(text) <= hi:
        raise ValueError(f"{what} must be an integer in {lo}..{hi}, got {clip(text)}")
    return int(text)


def _face(name):
    if name not in FACE_NAMES:
        raise ValueError(f"unknown tile face {clip(name)}; known: {', '.join(FACE_NAMES)}")
    return FACE_NAMES.index(name)


def _course_kinds(course):
    """Cell kind of every cell of the track (start tile = ground), indexed by cell."""
    kinds = [GROUND] * 9
    for face in course:
        kinds.extend(face_kinds(face))
    return kinds


def _parse_phase(text, cells):
    """(phase, mover, points, safe cell, jokers) of a phase token."""
    m = re.fullmatch(r"(move|spear):([RBGYP])([0-9]):([abc][0-9]{1,2})", text)
    if m:
        mover = COLOURS.index(m.group(2))
        if cells[mover] is None or int(m.group(3)) < (m.group(1) == "move"):
            raise ValueError(f"bad phase {clip(text)}: the mover must be on the track (with at "
                             "least 1 point to move)")
        return PHASES.index(m.group(1)), mover, int(m.group(3)), parse_cell(m.group(4)), 0
    m = re.fullmatch(r"(vortex|vortex-pick|snake):([RBGYP])", text)
    if m:
        mover = COLOURS.index(m.group(2))
        if cells[mover] is None:
            raise ValueError(f"bad phase {clip(text)}: the ostrich must be on the track")
        return PHASES.index(m.group(1)), mover, 0, -1, 0
    m = re.fullmatch(r"frenzy-assign:([1-5])", text)
    if m:
        return FRENZY_ASSIGN, -1, 0, -1, int(m.group(1))
    if text not in ("roll", "reroll", "rerolling", "act", "end", "place", "frenzy-roll",
                    "frenzy-pick"):
        raise ValueError(f"unknown phase {clip(text)}; expected roll, reroll, rerolling, act, "
                         "move:<C><n>:<cell>, vortex:<C>, vortex-pick:<C>, end, place, "
                         "spear:<C><n>:<cell>, frenzy-roll, frenzy-assign:<n>, frenzy-pick or "
                         "snake:<C>")
    return PHASES.index(text), -1, 0, -1, 0


# ----- actions --------------------------------------------------------------------------
def action_name(action):
    """The name of an action id, e.g. ``move R+W``, ``reroll 0,5``, ``right``."""
    try:
        a = operator.index(action)
    except TypeError:
        a = -1
    if not 0 <= a < NUM_ACTIONS:
        raise ValueError(f"action must be in 0..{NUM_ACTIONS - 1}, got {clip(action)}")
    if a < A_MOVE:
        return "keep" if a == 0 else "reroll " + ",".join(str(i) for i in range(6) if a >> i & 1)
    if a < A_SORCERY:
        c, j = divmod(a - A_MOVE, 7)
        return f"move {COLOURS[c]}" + ("" if j == 0 else "+" + FACES[5 if j == 1 else j - 2])
    if a < A_PASS:
        return f"sorcery {COLOURS[a - A_SORCERY]}"
    if a == A_PASS:
        return "pass"
    if a < A_SWAP:
        return DIR_NAMES[a - A_DIR]
    if a < A_BERRY:
        return f"swap {COLOURS[a - A_SWAP]}"
    if a < A_SPEAR:
        return f"berry {cell_name(a - A_BERRY)}"
    if a < A_ASSIGN:
        return f"spear +{a - A_SPEAR}"
    if a < A_GROUP:
        return f"assign {COLOURS[a - A_ASSIGN]}"
    if a < A_BACK:
        return f"group {COLOURS[a - A_GROUP]}"
    return f"back {LANES[a - A_BACK]}"


def reroll_name(dice, mask):
    """The name of reroll ``mask`` (the dice it rolls again, bit k for die k) by the faces the
    six ``dice`` show, as a player sees them: a movement die by its face, numbered among the
    movement dice that show the same face (``R1``, ``R2``), the sixth die as ``sorcery``.

    >>> reroll_name((0, 1, 0, 3, 4, 5), 0b100011)
    'reroll R1,B,sorcery W'
    """
    moving = dice[:5]
    names = []
    for k in range(5):
        if mask >> k & 1:
            same = moving.count(moving[k])
            names.append(FACES[moving[k]] + (str(moving[:k].count(moving[k]) + 1) if same > 1
                                             else ""))
    if mask >> 5 & 1:
        names.append(f"sorcery {FACES[dice[5]]}")
    return "reroll " + ",".join(names)


_NAMED = {}


def parse_action(text):
    """The action id of a name (inverse of ``action_name``)."""
    if not _NAMED:
        _NAMED.update({action_name(a): a for a in range(NUM_ACTIONS)})
    key = " ".join(str(text).split())
    if key not in _NAMED:
        raise ValueError(f"unknown action {clip(text)}; e.g. keep, reroll 0,5, move R, move R+W, "
                         "sorcery G, pass, left, straight, right, swap B, berry b5, spear +1, "
                         "assign R, group R, back a")
    return _NAMED[key]
