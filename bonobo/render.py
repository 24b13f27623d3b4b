"""The pictures of a Bonobo Beach position: ``render_text`` (``BonoboGame.render``) and
``render_drawing`` (``BonoboGame.render_svg`` / ``render_rgb``).

Free triangles show their name (``t07``, as in ``tile t07-t08``) and symbol (T toilet, P parasol,
D dune) on a brown, sea or sand ground, framed in white once activated; tiles are rhombi, green
when positive and red when negative, with the number each corner shows toward it (a at the acute
corners, 2a at the obtuse ones); spots are named (``s07``, as in ``pawn s07``) and hold pawns in
their owner's colour; a spot barred by an activated toilet shows a cross. Beside the board, in a
panel: whose turn and what they do, scores, pawns in supply, the pile, and a legend (a phone lays
the title and the panel under the board and leaves out the triangles' and spots' names where
they would be too small).
"""
from savanna.bonobo import notation, spec
from savanna.bonobo.notation import activated, value_name
from savanna.bonobo.spec import (
    PAWNS_PER_PLAYER,
    POINTS,
    RADIUS,
    SLOTS,
    SPOT_TRIANGLES,
    SPOTS,
    SYMBOLS,
    TRIANGLES,
    VALUES,
)
from savanna.draw import Drawing

EDGE = 72                  # user units per lattice edge
MARGIN = 22
BOARD_W = 2 * spec.RADIUS * EDGE
BOARD_H = 3 ** 0.5 * spec.RADIUS * EDGE
PANEL = MARGIN * 2 + BOARD_W + 10
WIDTH, HEIGHT = PANEL + 290, BOARD_H + 2 * MARGIN + 36
GROUND = {"D": (238, 214, 155), "P": (125, 192, 228), "T": (160, 120, 86)}
SYMBOL_NAMES = {"D": "dune", "P": "parasol", "T": "toilet"}
TILE_COLOURS = {1: (104, 176, 104), -1: (214, 104, 96)}
PLAYER_COLOURS = ((40, 90, 200), (232, 150, 20), (150, 60, 170), (20, 150, 140))
INK = (30, 30, 30)
BACKGROUND = (64, 112, 150)
PAPER = (250, 248, 242)


def screen_xy(point):
    """Screen position of a lattice point (x right, y down), unit edge length."""
    q, r = point
    return q + r / 2, r * 3 ** 0.5 / 2


def point_xy(point):
    """User coordinates of a lattice point."""
    x, y = screen_xy(point)
    return (MARGIN + (x + spec.RADIUS) * EDGE,
            MARGIN + 36 + (y + 3 ** 0.5 * spec.RADIUS / 2) * EDGE)


def move_spot(action):
    """Where move ``action`` sits on ``render_drawing``'s picture, for a board that takes clicks:
    a pawn at its spot, a tile at the middle of the edge its two triangles share; None for
    ``draw`` (its place, the pile, depends on the number of players: ``pile_spot``)."""
    if action < spec.DRAW:
        return point_xy(spec.SPOTS[action])
    if action == spec.DRAW:
        return None
    a, b = spec.SLOTS[action - spec.TILE]
    return _centre([point_xy(c) for c in set(TRIANGLES[a]) & set(TRIANGLES[b])])


def _pile_y(num_players):
    """The baseline of the panel's "Pile:" line, under one line per player."""
    return 22 + 30 + 22 * num_players + 18


def pile_spot(num_players):
    """Where the tile pile is named on the picture: the click target of ``draw``."""
    return PANEL + 16, _pile_y(num_players)


def _centre(points):
    return (sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))


def _shrink(points, by):
    """``points`` moved toward their centre by the fraction ``by``."""
    cx, cy = _centre(points)
    return [(x + (cx - x) * by, y + (cy - y) * by) for x, y in points]


def _barred(act):
    """Spots touching an activated toilet."""
    return {s for s, tris in enumerate(spec.SPOT_TRIANGLES)
            if any(t in act and spec.SYMBOLS[t] == "T" for t in tris)}


def render_drawing(pos):
    """The ``Drawing`` of a ``notation.Position`` (perfect information: one view for all)."""
    d = Drawing(WIDTH, HEIGHT, background=PAPER)
    d.rect(0, 0, PANEL - 10, HEIGHT, fill=BACKGROUND)
    title = Drawing(MARGIN + 140, 36, background=BACKGROUND)
    title.text(MARGIN, 20, "Bonobo Beach", size=17, bold=True, fill=(255, 255, 255),
               anchor="start")
    d.place(title, 0, 0, panel=True)
    covered = {t: v for k, v in pos.tiles for t in spec.SLOTS[k]}
    act = notation.activated(covered)
    for t, corners in enumerate(spec.TRIANGLES):
        points = [point_xy(c) for c in corners]
        d.polygon(points, fill=INK)
        if t not in covered:
            _free_triangle(d, t, points, t in act)
    for k, v in pos.tiles:
        _tile(d, k, v)
    _spots(d, pos, _barred(act))
    d.place(_panel(pos), PANEL, 0, panel=True)
    return d


def _free_triangle(d, t, points, activated):
    symbol = spec.SYMBOLS[t]
    if activated:
        d.polygon(_shrink(points, 0.05), fill=(255, 255, 255))
    d.polygon(_shrink(points, 0.13 if activated else 0.04), fill=GROUND[symbol])
    cx, cy = _centre(points)
    shift = 2 if spec.POINTS_UP[t] else -6  # toward the wide side, clear of the spot names
    light = symbol == "T"
    d.text(cx, cy + shift - 7, symbol, size=15, bold=activated,
           fill=(255, 255, 255) if light else INK)
    d.text(cx, cy + shift + 7, notation.triangle_name(t), size=10,
           fill=(235, 225, 210) if light else (90, 80, 60), label=True)


def _tile(d, slot, value):
    a, b = spec.SLOTS[slot]
    shared = set(spec.TRIANGLES[a]) & set(spec.TRIANGLES[b])
    acute = [c for c in spec.TRIANGLES[a] + spec.TRIANGLES[b] if c not in shared]
    corners = [acute[0], *sorted(shared), acute[1]]
    outline = [corners[0], corners[1], corners[3], corners[2]]   # around the rhombus
    points = dict(zip(corners, _shrink([point_xy(c) for c in corners], 0.05)))
    d.polygon([points[c] for c in outline], fill=TILE_COLOURS[1 if value > 0 else -1],
              stroke=(255, 255, 255), width=1.5)
    cx, cy = _centre(list(points.values()))
    for c, (x, y) in points.items():
        number = notation.value_name(value if c in acute else 2 * value)
        by = 0.32 if c in acute else 0.6  # clear of the pawn on the corner
        d.text(x + (cx - x) * by, y + (cy - y) * by, number, size=13, bold=True, fill=INK)


def _spots(d, pos, barred):
    owner = dict(pos.pawns)
    for s, point in enumerate(spec.SPOTS):
        x, y = point_xy(point)
        if s in owner:
            d.circle(x, y, 11, fill=PLAYER_COLOURS[owner[s]], stroke=(255, 255, 255), width=2)
            d.text(x, y, str(owner[s]), size=12, bold=True, fill=(255, 255, 255))
        elif s in barred:
            _cross(d, x, y)
        else:
            d.circle(x, y, 4, fill=(255, 255, 255), stroke=INK, width=1)
        d.rect(x + 8, y - 6, 21, 12, fill=(255, 255, 255), radius=3, label=True)  # on the edge
        d.text(x + 18.5, y, notation.spot_name(s), size=9, fill=INK, label=True)


def _cross(d, x, y):
    """The mark of a barred spot."""
    d.line([(x - 6, y - 6), (x + 6, y + 6)], stroke=(200, 20, 20), width=3)
    d.line([(x - 6, y + 6), (x + 6, y - 6)], stroke=(200, 20, 20), width=3)


def _phase(pos):
    """Who acts and how, e.g. ``Player 1: place a pawn or draw a tile``."""
    return {"choose": f"Player {pos.to_move}: place a pawn or draw a tile",
            "chance": f"Player {pos.to_move} draws a tile",
            "place": f"Player {pos.to_move} places the tile {notation.value_name(pos.drawn or 0)}",
            "end": "Game over"}[pos.phase]


def _panel(pos):
    """The panel of text beside the board (its pile is the target of ``draw``)."""
    d = Drawing(WIDTH - PANEL, HEIGHT)
    x, y = 0, 22
    d.text(x, y, _phase(pos), size=13, bold=True, anchor="start",
           fill=INK if pos.phase == "end" else PLAYER_COLOURS[pos.to_move])
    y += 30
    for p in range(pos.num_players):
        supply = spec.PAWNS_PER_PLAYER - sum(1 for _, o in pos.pawns if o == p)
        d.circle(x + 9, y, 9, fill=PLAYER_COLOURS[p])
        d.text(x + 9, y, str(p), size=11, bold=True, fill=(255, 255, 255))
        d.text(x + 24, y, f"player {p}: {pos.score[p]:+d} points", size=13, anchor="start",
               bold=p == pos.to_move and pos.phase != "end")
        for k in range(supply):
            d.circle(x + 180 + 14 * k, y, 5, fill=PLAYER_COLOURS[p])
        y += 22
    d.text(x + 180, y - 4, "pawns in supply", size=9, anchor="start", fill=(110, 110, 110))
    y = _pile_y(pos.num_players)
    d.text(x, y, "Pile: " + ("  ".join(f"{notation.value_name(v)}:{c}" for v, c in
                                        zip(spec.VALUES, pos.pile) if c) or "empty"),
           size=12, anchor="start")
    y += 30
    d.text(x, y, "Legend", size=13, bold=True, anchor="start")
    y += 22
    for symbol in "DPT":
        d.rect(x, y - 9, 22, 18, fill=GROUND[symbol], stroke=INK, width=1)
        d.text(x + 11, y, symbol, size=11, fill=(255, 255, 255) if symbol == "T" else INK)
        d.text(x + 30, y, f"{SYMBOL_NAMES[symbol]} triangle (t00-t53)", size=12, anchor="start")
        y += 22
    d.rect(x, y - 9, 22, 18, fill=GROUND["D"], stroke=(255, 255, 255), width=3)
    d.text(x + 30, y, "activated: no tile can cover it", size=12, anchor="start")
    y += 22
    for sign, words in ((1, "positive"), (-1, "negative")):
        d.rect(x, y - 9, 22, 18, fill=TILE_COLOURS[sign])
        d.text(x + 30, y, f"{words} tile: a at sharp corners, 2a at wide", size=12,
               anchor="start")
        y += 22
    d.circle(x + 11, y, 4, fill=(255, 255, 255), stroke=INK)
    d.text(x + 30, y, "spot (s00-s18) for a pawn", size=12, anchor="start")
    y += 22
    _cross(d, x + 11, y)
    d.text(x + 30, y, "spot barred by an activated toilet", size=12, anchor="start")
    y += 26
    for line in ("End: an activated parasol makes a pawn's", "negative numbers positive; each",
                 "activated dune doubles its sum."):
        d.text(x, y, line, size=11, anchor="start", fill=(110, 110, 110))
        y += 16
    return d


# ----- the text picture --------------------------------------------------------------------
def render_text(pos):
    """A text picture: spots (pawn owner digit, ``.`` empty, ``x`` barred), triangles (tile
    value, or the free symbol: lower case ``d p t``, upper case once activated)."""
    covered = {t: v for k, v in pos.tiles for t in SLOTS[k]}
    act = activated(covered)
    owner = dict(pos.pawns)
    barred = {s for s, tris in enumerate(SPOT_TRIANGLES)
              if any(t in act and SYMBOLS[t] == "T" for t in tris)}
    lines = []
    for r in range(-RADIUS, RADIUS + 1):
        cells = {}
        for p in POINTS:
            if p[1] == r:
                s = SPOTS.index(p) if p in SPOTS else None
                cells[2 * p[0] + r] = ("+" if s is None else str(owner[s]) if s in owner
                                       else "x" if s in barred else ".")
        lines.append(_row(cells))
        if r == RADIUS:
            break
        cells = {}
        for t, corners in enumerate(TRIANGLES):
            if corners[0][1] == r:
                h = round(2 * sum(screen_xy(c)[0] for c in corners) / 3)
                sym = SYMBOLS[t].upper() if t in act else SYMBOLS[t].lower()
                cells[h] = value_name(covered[t]) if t in covered else sym
        lines.append(_row(cells))
    supply = [PAWNS_PER_PLAYER - sum(1 for _, o in pos.pawns if o == p)
              for p in range(pos.num_players)]
    phase = f"place {value_name(pos.drawn)}" if pos.phase == "place" else pos.phase
    pile = " ".join(f"{value_name(v)}x{c}" for v, c in zip(VALUES, pos.pile) if c)
    lines.append("scores " + "  ".join(f"P{p}:{pos.score[p]:+d} ({supply[p]} in supply)"
                                       for p in range(pos.num_players)))
    lines.append(f"pile {pile or '-'}")
    lines.append(f"{phase}, player {pos.to_move}" if pos.phase != "end" else "game over")
    return "\n".join(lines)


def _row(cells):
    return "".join(f"{cells.get(h, ''):^3}" for h in range(-2 * RADIUS, 2 * RADIUS + 1)).rstrip()
