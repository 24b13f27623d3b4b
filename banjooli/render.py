"""Pictures of a Banjooli Xeet ``notation.Position``: a text track and a drawing (SVG, RGB).

The drawing runs from the start (left) to the finish (right), lanes a-c top to bottom, every
cell named as moves name it (``b5``, as in ``berry b5``), each tile labelled (``START``,
``K2 curve``, ``LAVA``); beside it the arrivals. Above it the title and whose turn and what they
do, under it the dice (five movement dice and the sorcery die) and each seat's prediction card
and points, and beside those a legend: panels that a phone lays under the track, which it draws
large enough to read and scrolls sideways. With a ``player``, only what that seat knows: the
others' cards and points, and the kinds of berries that seat has not seen, show as ``?``.
"""
from savanna.banjooli import notation, reference, spec
from savanna.draw import Drawing

TEXT_CHARS = ".#QCWXLV"  # rocks as # so that R stays the red ostrich


def _kinds(pos):
    kinds = [spec.GROUND] * 9
    for face in pos.course:
        kinds.extend(spec.face_kinds(face))
    return kinds


def _occupant(pos):
    return {cell: c for c, cell in enumerate(pos.cells) if cell is not None}


def _knows(pos, k, player):
    """Whether berry slot ``k``'s kind shows: seen by ``player`` (None: by anyone)."""
    return bool(pos.seen[k]) if player is None else player in pos.seen[k]


def _berries(pos, player=None):
    """Cell -> kind letter if ``player`` (None: some seat) has seen it, else ``*`` (face down)."""
    if not pos.variant:
        return {}
    return {cell: spec.BERRY_LETTERS[pos.berry_kinds[k]].lower() if _knows(pos, k, player)
            else "*" for k, cell in enumerate(pos.berry_cells) if cell is not None}


def _notation_seen_by(pos, player):
    """The notation line with what ``player`` cannot know as ``?``: the other seats'
    prediction cards and the kinds of the berries ``player`` has not seen (taken ones are
    public). Example: ``cards=7,?,?`` and ``berries=?@b5,T@c7+0``."""
    fields = []
    for field in notation.format(pos).split():
        key, _, value = field.partition("=")
        if key == "cards":
            value = ",".join(c if p == player else "?" for p, c in enumerate(value.split(",")))
        elif key == "berries":
            value = ",".join(b if b == "x" or _knows(pos, k, player) else "?" + b[1:]
                             for k, b in enumerate(value.split(",")))
        fields.append(f"{key}={value}")
    return " ".join(fields)


def render_text(pos, player=None):
    """The notation line, then the track with the finish at the top, then the turn. With a
    ``player``, only what that seat knows: the others' cards and unseen berry kinds are ``?``
    (the track shows unseen berries face down, ``*``)."""
    kinds, who, berries = _kinds(pos), _occupant(pos), _berries(pos, player)
    arrived = {p: spec.COLOURS[c] for c, p in enumerate(pos.places) if p}
    top = notation.format(pos) if player is None else _notation_seen_by(pos, player)
    lines = [top, "          a b c",
             "finish    " + "  ".join(f"{p}:{arrived.get(p, '-')}" for p in (1, 2, 3))]
    for y in range(pos.last_row, -1, -1):
        label = "start" if y < 3 else spec.FACE_NAMES[pos.course[(y - 3) // 3]]
        label = label if y % 3 == 2 else ""
        cells = []
        for x in range(3):
            cell = 3 * y + x
            if cell in who:
                ch = spec.COLOURS[who[cell]]
                cells.append(ch.lower() if pos.scared[who[cell]] else ch)
            elif cell in berries:
                cells.append(berries[cell])
            else:
                cells.append("n" if y < 3 and cell in spec.NESTS else TEXT_CHARS[kinds[cell]])
        lines.append(f"{label:<6}{y:>3} |{' '.join(cells)}|")
    dice = "".join("?" if f is None else spec.FACES[f] for f in pos.dice)
    lines.append(f"to move: seat {pos.to_move} ({'+' if pos.direction > 0 else '-'})  "
                 f"phase: {notation.format(pos).split('phase=')[1].split()[0]}  "
                 f"dice: {dice[:5]} sorcery {dice[5]}  turn {pos.turn}")
    lines.append("lower case = scared; n = empty nest; # rock, Q quicksand, C crocodile, "
                 "W water, X chasm, L lava, V vortex; * berry (face down), t n o j d u s p f v k "
                 "berry seen by " + ("someone" if player is None else "you"))
    return "\n".join(lines)


# ----- the drawing ----------------------------------------------------------------------------
CELL = 40
LEFT, TOP = 34, 62                   # the track's top-left corner
UNDER = TOP + 3 * CELL + 30          # the top of the panels under the track
LEGEND = 390                         # the left edge of the legend, beside the dice and seats
READABLE = 0.9                       # screen pixels per unit at least: cells 36 px wide
OSTRICH_RGB = ((210, 40, 40), (40, 85, 220), (40, 160, 60), (230, 190, 20), (140, 60, 170))
OSTRICH_NAMES = ("red", "blue", "green", "yellow", "purple")
KIND_RGB = {spec.GROUND: (236, 212, 160), spec.ROCK: (128, 124, 120),
            spec.QUICK: (164, 120, 66), spec.CROC: (96, 160, 90),
            spec.WATER: (80, 140, 220), spec.CHASM: (35, 30, 30),
            spec.LAVA: (232, 90, 30), spec.VORTEX: (136, 72, 176)}
KIND_NAMES = {spec.ROCK: "rock (impassable)", spec.QUICK: "quicksand: stops, scares",
              spec.CROC: "crocodile", spec.WATER: "water (impassable)",
              spec.CHASM: "chasm (impassable)", spec.LAVA: "lava: cannot stop on it",
              spec.VORTEX: "vortex: swaps two ostriches"}
INK, FAINT, PAPER = (35, 30, 25), (120, 105, 85), (251, 248, 240)
BERRY = (30, 90, 45)
PHASE_TEXT = {
    spec.ROLL: "rolls the six dice", spec.REROLL: "may reroll some dice (once)",
    spec.REROLLING: "rerolls the chosen dice",
    spec.ACT: "moves an ostrich, casts sorcery or passes",
    spec.PLACE: "places a berry face down", spec.SPEAR_GIVE: "gives the spear to a seat",
    spec.FRENZY_ROLL: "frenzy: rolls the movement dice",
    spec.FRENZY_PICK: "frenzy: picks a group"}


def _cell_xy(cell):
    """Top-left corner of ``cell``: rows run left to right, lanes a-c top to bottom."""
    return LEFT + (cell // 3) * CELL, TOP + (cell % 3) * CELL


def _centre(cell):
    x, y = _cell_xy(cell)
    return x + CELL / 2, y + CELL / 2


def move_spot(pos, action):
    """Where move ``action`` of ``pos`` sits on ``render_drawing``'s picture, for a board that
    takes clicks: a berry or the snake's landing at its cell; a direction where that point takes
    the moving ostrich (the cell it steps or jumps to, or the finish line in its lane); a move,
    sorcery, swap, joker or group at the ostrich it names. None for the rest (keep, rerolls,
    pass, the spear: no place of their own).

    >>> pos = notation.parse("players=2 course=T1,K2,T5,T3 ostriches=a0,c0n,b1n,a2n,c4 "
    ...                      "cards=3,7 to_move=0 dir=+ turn=0 phase=move:R1:a0 dice=RBGYPW")
    >>> move_spot(pos, spec.A_DIR + 1)  # straight: a step to a1
    (94.0, 82.0)
    >>> move_spot(pos, spec.A_DIR + 2)  # right: a jump over green on b1 to c2
    (134.0, 162.0)
    """
    if spec.A_BERRY <= action < spec.A_SPEAR:
        return _centre(action - spec.A_BERRY)
    if spec.A_DIR <= action < spec.A_SWAP:
        return _point_spot(pos, action - spec.A_DIR - 1)
    if spec.A_BACK <= action < spec.NUM_ACTIONS:
        return _centre(3 * (pos.cells[pos.mover] // 3 - 2) + action - spec.A_BACK)
    colour = _named_colour(action)
    if colour is None or pos.cells[colour] is None:
        return None
    return _centre(pos.cells[colour])


def _point_spot(pos, d):
    """Where one point towards ``d`` takes the moving ostrich: the cell it steps or jumps to,
    or just past the finish line in the lane it arrives in."""
    st = reference.from_position(pos)
    cell, others = pos.cells[pos.mover], reference.occupied(st, pos.mover)
    to = reference.target(st, cell, d, others)
    if to is None:
        return None
    if to != "arrive":
        return _centre(to)
    x, y = cell % 3, cell // 3
    lane = x + 2 * d if 3 * (y + 1) + x + d in others else x + d  # a jump over the last row
    return LEFT + (pos.last_row + 1) * CELL + CELL / 2, TOP + lane * CELL + CELL / 2


def _named_colour(action):
    """The ostrich an action names (move, sorcery, swap, assign a joker, pick a group), or None."""
    for first, size, last in ((spec.A_MOVE, 7, spec.A_SORCERY), (spec.A_SORCERY, 1, spec.A_PASS),
                              (spec.A_SWAP, 1, spec.A_BERRY), (spec.A_ASSIGN, 1, spec.A_GROUP),
                              (spec.A_GROUP, 1, spec.A_BACK)):
        if first <= action < last:
            return (action - first) // size
    return None


def _phase_text(pos):
    """``Seat 1 ...``: who acts and what they do."""
    colour = spec.COLOURS[pos.mover] if pos.mover >= 0 else ""
    words = PHASE_TEXT.get(pos.phase) or {
        spec.MOVE: f"moves {colour}: {pos.points} point(s) left",
        spec.VORTEX_ROLL: f"rolls the vortex die for {colour}",
        spec.VORTEX_PICK: f"chooses whom {colour} swaps with",
        spec.FRENZY_ASSIGN: f"frenzy: assigns {pos.jokers} joker(s)",
        spec.SNAKE_BACK: f"chooses where {colour} lands (2 rows back)"}.get(pos.phase)
    if pos.phase == spec.END:
        return "Game over"
    return f"Seat {pos.to_move} {words}"


def render_drawing(pos, scores, player=None):
    """The ``Drawing`` of ``pos`` with each seat's ``scores`` (points if it ended now), as
    ``player`` sees it (None: everything)."""
    rows = pos.last_row + 1
    finish = LEFT + rows * CELL
    width = max(finish + 150, 720)
    table, legend = _table(pos, scores, player), _legend(pos, player, width - LEGEND)
    d = Drawing(width, UNDER + max(table.height, legend.height), background=PAPER,
                min_scale=READABLE)
    title = Drawing(150, 36)
    title.text(12, 18, "Banjooli Xeet", size=17, bold=True, anchor="start")
    d.place(title, 0, 0, panel=True)
    d.place(_turn(pos), 150, 0, panel=True)
    _track(d, pos, rows)
    _ostriches(d, pos, finish)
    for k, cell in enumerate(pos.berry_cells):
        if cell is not None:
            x, y = _cell_xy(cell)
            known = player is None or player in pos.seen[k]
            d.circle(x + CELL / 2, y + CELL / 2 + 2, 11, fill=BERRY, stroke=(255, 255, 255))
            d.text(x + CELL / 2, y + CELL / 2 + 2, spec.BERRY_LETTERS[pos.berry_kinds[k]]
                   if known else "?", size=12, bold=True, fill=(255, 255, 255))
    d.place(table, 0, UNDER, panel=True)
    d.place(legend, LEGEND, UNDER, panel=True)
    return d


def _turn(pos):
    """Who acts and what they do, then the turn and the seats' order, in two lines."""
    d = Drawing(360, 40)
    d.text(0, 12, _phase_text(pos), size=13, anchor="start", bold=True)
    d.text(0, 29, f"Turn {pos.turn}, seat order "
           + ("increasing" if pos.direction > 0 else "reversed by a U-turn"), size=12,
           anchor="start", fill=FAINT)
    return d


def _table(pos, scores, player):
    """The dice, then each seat's card and points."""
    d = Drawing(LEGEND - 10, 70 + 40 * pos.players)
    _dice(d, pos, 16)
    _seats(d, pos, scores, player, 12, 72)
    return d


def _track(d, pos, rows):
    kinds = _kinds(pos)
    for lane in range(3):
        d.text(LEFT - 14, TOP + lane * CELL + CELL / 2, spec.LANES[lane], size=14, bold=True,
               fill=FAINT)
    for row in range(rows):
        d.text(LEFT + row * CELL + CELL / 2, TOP - 10, str(row), size=11, fill=FAINT)
        for lane in range(3):
            cell = 3 * row + lane
            x, y = _cell_xy(cell)
            d.rect(x, y, CELL, CELL, fill=KIND_RGB[kinds[cell]], stroke=(200, 180, 140))
            if row < 3 and cell in spec.NESTS:
                d.circle(x + CELL / 2, y + CELL / 2 + 2, 14, stroke=(150, 110, 60), width=2)
            if kinds[cell] in KIND_NAMES:
                d.text(x + CELL - 4, y + CELL - 8, TEXT_CHARS[kinds[cell]], size=10,
                       fill=(255, 255, 255), anchor="end")
            d.text(x + 3, y + 7, notation.cell_name(cell), size=8, anchor="start",
                   fill=(255, 255, 255) if kinds[cell] in (spec.CHASM, spec.ROCK)
                   else FAINT, label=True)
    labels = ["START"] + [spec.FACE_NAMES[f] + (" curve" if spec.FACE_CURVE[f] else "")
                          for f in pos.course]
    for t, label in enumerate(labels):
        x = LEFT + 3 * t * CELL
        d.line([(x, TOP - 20), (x, TOP + 3 * CELL + 6)], stroke=INK, width=2)
        d.text(x + 1.5 * CELL, TOP + 3 * CELL + 16, label, size=12, bold=True)
        if t and spec.FACE_CURVE[pos.course[t - 1]]:  # barriers: no lane change in a curve
            for lane in (1, 2):
                d.line([(x + 4, TOP + lane * CELL), (x + 3 * CELL - 4, TOP + lane * CELL)],
                       stroke=(110, 70, 30), width=4)
    d.rect(LEFT, TOP, rows * CELL, 3 * CELL, stroke=INK, width=2)


def _ostriches(d, pos, finish):
    d.line([(finish, TOP - 20), (finish, TOP + 3 * CELL + 6)], stroke=INK, width=4)
    d.text(finish + 60, TOP - 10, "FINISH", size=12, bold=True)
    for place in (1, 2, 3):
        d.text(finish + 30, TOP + (place - 1) * CELL + CELL / 2,
               ("1st", "2nd", "3rd")[place - 1], size=12, fill=FAINT)
    for c, cell in enumerate(pos.cells):
        if cell is None:
            cx, cy = finish + 78, TOP + (pos.places[c] - 1) * CELL + CELL / 2
        else:
            x, y = _cell_xy(cell)
            cx, cy = x + CELL / 2, y + CELL / 2 + 2
        _ostrich(d, c, cx, cy, pos.scared[c])


def _ostrich(d, c, cx, cy, scared, r=14):
    """A running ostrich is a filled disc; a scared one a ring (it cannot move)."""
    colour = OSTRICH_RGB[c]
    if scared:
        d.circle(cx, cy, r - 2, fill=(255, 255, 255), stroke=colour, width=4)
        d.text(cx, cy, spec.COLOURS[c].lower(), size=13, bold=True, fill=colour)
    else:
        d.circle(cx, cy, r, fill=colour, stroke=INK, width=1)
        d.text(cx, cy, spec.COLOURS[c], size=13, bold=True, fill=(255, 255, 255))


def _die(d, x, y, face):
    fill = (255, 255, 255) if face is None or face == spec.JOKER else OSTRICH_RGB[face]
    d.rect(x, y - 13, 26, 26, fill=fill, stroke=INK, width=1.5, radius=5)
    d.text(x + 13, y, "?" if face is None else spec.FACES[face], size=13, bold=True,
           fill=INK if face is None or face == spec.JOKER else (255, 255, 255))


def _dice(d, pos, y):
    d.text(12, y, "Dice", size=13, bold=True, anchor="start")
    for k in range(5):
        _die(d, 60 + 32 * k, y, pos.dice[k])
    d.text(230, y, "sorcery", size=11, anchor="start", fill=FAINT)
    _die(d, 275, y, pos.dice[5])
    d.text(12, y + 26, "W = joker; an arrived colour is a joker too", size=11,
           anchor="start", fill=FAINT)


def _seats(d, pos, scores, player, x, y):
    """Each seat's prediction card (1st, 2nd, 3rd, last) and points, unless hidden."""
    d.text(x, y, "Seat", size=12, bold=True, anchor="start")
    d.text(x + 52, y, "Card", size=12, bold=True, anchor="start")
    for k, place in enumerate(("1st", "2nd", "3rd", "last")):
        d.text(x + 112 + 28 * k, y, place, size=11, fill=FAINT)
    d.text(x + 250, y, "points" + ("" if pos.phase == spec.END else " now"), size=12,
           bold=True, anchor="start")
    for p in range(pos.players):
        y += 24
        mine = player is None or p == player
        d.text(x, y, f"{p}" + (" (you)" if p == player else ""), size=12, anchor="start",
               bold=p == pos.to_move)
        if mine:
            d.text(x + 52, y, f"card {pos.cards[p]}:", size=12, anchor="start")
            for k, colour in enumerate(spec.CARDS[pos.cards[p]]):
                _ostrich(d, colour, x + 112 + 28 * k, y, False, r=10)
        else:
            d.text(x + 52, y, "card ? (secret)", size=12, anchor="start", fill=FAINT)
        extra = []
        if pos.variant and pos.collected[p]:
            extra.append("took " + "".join(spec.BERRY_LETTERS[b] for b in pos.collected[p]))
        if p in pos.spear:
            extra.append("speared: no reroll")
        d.text(x + 250, y, f"{scores[p]}" if mine else "?", size=12, anchor="start")
        if extra:  # on a line of its own, under the seat's
            y += 16
            d.text(x + 52, y, ", ".join(extra), size=11, anchor="start", fill=FAINT)


def _legend(pos, player, width):
    """The legend, one entry a line: the kinds of cells, the ostriches, the nests, the berries."""
    entries = len(KIND_NAMES) + 3 + (5 if pos.variant else 0)
    d = Drawing(width, 30 + 21 * entries)
    d.text(12, 16, "Legend", size=13, bold=True, anchor="start")
    y = 16
    for kind, name in KIND_NAMES.items():
        y += 21
        d.rect(12, y - 9, 18, 18, fill=KIND_RGB[kind], stroke=INK)
        d.text(36, y, f"{TEXT_CHARS[kind]} {name}", size=11, anchor="start")
    y += 21
    _ostrich(d, 0, 21, y, False, r=9)
    d.text(36, y, "running ostrich", size=11, anchor="start")
    y += 21
    _ostrich(d, 0, 21, y, True, r=9)
    d.text(36, y, "scared (lower case): cannot move", size=11, anchor="start")
    y += 21
    d.circle(21, y, 10, stroke=(150, 110, 60), width=2)
    d.text(36, y, "nest on the start tile", size=11, anchor="start")
    if pos.variant:
        y += 21
        d.circle(21, y, 9, fill=BERRY)
        d.text(21, y, "?", size=10, bold=True, fill=(255, 255, 255))
        d.text(36, y, "berry, face down (every kind shown)" if player is None else
               "berry, face down: ? is a kind you have not seen", size=11, anchor="start")
        for i in range(0, 11, 3):
            y += 18
            d.text(36, y, ", ".join(f"{spec.BERRY_LETTERS[b]} {spec.BERRY_NAMES[b]}"
                                    for b in range(i, min(i + 3, 11))), size=11,
                   anchor="start", fill=FAINT)
    return d
