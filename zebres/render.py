"""Pictures of a Zèbres position: a text diagram and an RGB image (pure Python and NumPy).

Both take a ``notation.Position``, the board name and the current (red, green) scores, e.g.
``render_text(pos, "standard", (0, 0))``. In the text diagram rivers are drawn with ``|`` and
``---``, tokens in the notation's letters (upper case red, lower case green, ``*`` face down),
the track positions around the board with Impala Jones marked by ``v > < ^`` pointing at the
line it faces, and the sector letters beside the board.
"""
from savanna import draw
from zebres.notation import (KINDS, NUM_CELLS, NUM_COLS, NUM_ROWS, SECTOR_MAPS,
                             cell_name)

COLOUR_NAMES = ("red", "green")


def _side(position):
    """(side, index along it) of a track position: top/right/bottom/left, column or row."""
    if position < 6:
        return "top", position
    if position < 11:
        return "right", position - 6
    if position < 17:
        return "bottom", 16 - position
    return "left", 21 - position


def _river(sectors, a, b):
    return sectors[a] != sectors[b]


def _status(pos, scores):
    """Lines under the board: hands, inauguration, phase, points."""
    lines = []
    for player in (0, 1):
        hand = pos.hand(player)
        lines.append(f"{COLOUR_NAMES[player]:<5} hand: "
                     + " ".join(f"{k}{hand[k]}" for k in KINDS))
    holder = "unclaimed" if pos.inauguration is None else COLOUR_NAMES[pos.inauguration]
    mover = COLOUR_NAMES[pos.to_move]
    phase = {
        "setup": f"{mover} chooses Impala's start",
        "place": f"{mover} to place",
        "move": f"{mover} moves Impala",
        "end": "game over",
    }.get(pos.phase)
    if pos.phase == "croc":
        swapped = ",".join(cell_name(c) for c in sorted(pos.swapped)) or "-"
        phase = (f"{mover}'s crocodile on {cell_name(pos.croc_cell)} may swap or stop "
                 f"(swapped: {swapped})")
    lines.append(f"inauguration: {holder}; {phase}")
    lines.append(f"points{' now' if pos.phase != 'end' else ''}: red {scores[0]}, "
                 f"green {scores[1]}")
    return lines


def render_text(pos, board, scores):
    """The text diagram of ``pos`` (see the module docstring)."""
    sectors = SECTOR_MAPS[board]
    side, index = _side(pos.impala) if pos.impala is not None else (None, None)
    width = 4 * NUM_COLS + 1
    pad = " " * 6

    def column_line(marks):
        chars = [" "] * width
        for col, mark in marks.items():
            for k, ch in enumerate(mark):
                chars[4 * col + 2 - (len(mark) - 1) // 2 + k] = ch
        return (pad + "".join(chars)).rstrip()

    def horizontal(row):  # the boundary above ``row`` (0..5)
        out = "+"
        for col in range(NUM_COLS):
            cell = row * NUM_COLS + col
            wall = row in (0, NUM_ROWS) or _river(sectors, cell - NUM_COLS, cell)
            out += "---" if wall else "   "
            if col == NUM_COLS - 1:
                out += "+"
            else:
                right_wall = row in (0, NUM_ROWS) or _river(sectors, cell - NUM_COLS + 1, cell + 1)
                above = row > 0 and _river(sectors, cell - NUM_COLS, cell - NUM_COLS + 1)
                below = row < NUM_ROWS and _river(sectors, cell, cell + 1)
                out += "+" if wall or right_wall or above or below else " "
        return out

    lines = [column_line({c: str(c) for c in range(NUM_COLS)}),
             column_line({index: "v"} if side == "top" else {})]
    for row in range(NUM_ROWS):
        lines.append(pad + horizontal(row))
        cells = "|"
        for col in range(NUM_COLS):
            token = pos.board[row * NUM_COLS + col]
            cells += f" {token.letter:<2}" if token is not None else " . "
            last = col == NUM_COLS - 1
            cells += "|" if last or _river(sectors, row * 6 + col, row * 6 + col + 1) else " "
        left = f"{21 - row:>3} " + (">" if side == "left" and index == row else " ") + " "
        right = " " + ("<" if side == "right" and index == row else " ") + f" {6 + row:<3}"
        letters = " ".join(sectors[row * NUM_COLS: (row + 1) * NUM_COLS])
        lines.append(left + cells + right + "  " + letters)
    lines.append(pad + horizontal(NUM_ROWS))
    lines.append(column_line({index: "^"} if side == "bottom" else {}))
    lines.append(column_line({c: str(16 - c) for c in range(NUM_COLS)}))
    return "\n".join([line.rstrip() for line in lines if line.strip()] + _status(pos, scores))


# ----- the image ------------------------------------------------------------------------------
CELL = 48
MARGIN = 36
STATUS = 48
SECTOR_COLOURS = {"A": (233, 216, 166), "B": (196, 224, 156), "C": (243, 196, 150),
                  "D": (206, 196, 232), "E": (176, 214, 224), "F": (238, 178, 178)}
PLAYER_COLOURS = ((200, 45, 45), (30, 135, 60))
RIVER = (45, 110, 215)
GRID = (150, 150, 150)
IMPALA = (245, 150, 20)
INK = (40, 40, 40)


def _cell_box(cell):
    row, col = divmod(cell, NUM_COLS)
    return MARGIN + row * CELL, MARGIN + col * CELL


def _track_centre(position):
    side, k = _side(position)
    mid = MARGIN // 2
    along = MARGIN + k * CELL + CELL // 2
    return {"top": (mid, along), "bottom": (MARGIN + NUM_ROWS * CELL + mid, along),
            "left": (along, mid), "right": (along, MARGIN + NUM_COLS * CELL + mid)}[side]


def _faced_cells(position):
    side, k = _side(position)
    if side in ("top", "bottom"):
        return [row * NUM_COLS + k for row in range(NUM_ROWS)]
    return [k * NUM_COLS + col for col in range(NUM_COLS)]


def render_image(pos, board, scores):
    """An ``uint8[H, W, 3]`` picture of ``pos``: sectors, rivers, tokens, Impala, status."""
    sectors = SECTOR_MAPS[board]
    height = 2 * MARGIN + NUM_ROWS * CELL + STATUS
    width = 2 * MARGIN + NUM_COLS * CELL
    img = draw.canvas(height, width, (250, 248, 240))
    faced = _faced_cells(pos.impala) if pos.impala is not None else []
    for cell in range(NUM_CELLS):
        y, x = _cell_box(cell)
        colour = SECTOR_COLOURS[sectors[cell]]
        if cell in faced:  # the line Impala faces, lightened
            colour = tuple((c + 255) // 2 for c in colour)
        draw.rect(img, y, x, y + CELL, x + CELL, colour)
        draw.text(img, y + 3, x + 3, sectors[cell], tuple(c * 3 // 5 for c in colour))
        draw.rect(img, y, x + CELL - 1, y + CELL, x + CELL, GRID)
        draw.rect(img, y + CELL - 1, x, y + CELL, x + CELL, GRID)
    for cell in range(NUM_CELLS):  # rivers on the edges between sectors
        y, x = _cell_box(cell)
        if cell % NUM_COLS < NUM_COLS - 1 and _river(sectors, cell, cell + 1):
            draw.rect(img, y - 2, x + CELL - 3, y + CELL + 2, x + CELL + 3, RIVER)
        if cell + NUM_COLS < NUM_CELLS and _river(sectors, cell, cell + NUM_COLS):
            draw.rect(img, y + CELL - 3, x - 2, y + CELL + 3, x + CELL + 2, RIVER)
    bottom, right = MARGIN + NUM_ROWS * CELL, MARGIN + NUM_COLS * CELL
    for y0, x0, y1, x1 in ((MARGIN - 2, MARGIN - 2, MARGIN, right + 2),
                           (bottom, MARGIN - 2, bottom + 2, right + 2),
                           (MARGIN - 2, MARGIN - 2, bottom + 2, MARGIN),
                           (MARGIN - 2, right, bottom + 2, right + 2)):
        draw.rect(img, y0, x0, y1, x1, INK)
    for cell, token in enumerate(pos.board):
        if token is not None:
            _token(img, cell, token, highlight=pos.phase == "croc" and (
                cell == pos.croc_cell or cell in pos.swapped))
    for position in range(22):
        cy, cx = _track_centre(position)
        if position == pos.impala:
            draw.disc(img, cy, cx, 13, IMPALA)
            draw.centred_text(img, cy, cx, str(position), INK)
        else:
            draw.disc(img, cy, cx, 3, GRID)
    _status_panel(img, pos, scores, bottom + MARGIN)
    return img


def _token(img, cell, token, highlight):
    y, x = _cell_box(cell)
    cy, cx = y + CELL // 2, x + CELL // 2
    colour = PLAYER_COLOURS[token.player]
    if highlight:
        draw.disc(img, cy, cx, 21, IMPALA)
    if token.down:  # face down: a dark token rimmed with its owner's colour
        draw.disc(img, cy, cx, 18, (85, 85, 85))
        draw.ring(img, cy, cx, 18, 4, colour)
        draw.centred_text(img, cy, cx, token.kind, (205, 205, 205), scale=2)
    else:
        draw.disc(img, cy, cx, 18, colour)
        draw.centred_text(img, cy, cx, token.kind, (255, 255, 255), scale=2)


def _status_panel(img, pos, scores, top):
    for player in (0, 1):
        hand = pos.hand(player)
        line = (f"{COLOUR_NAMES[player]:<5} " + " ".join(f"{k}{hand[k]}" for k in KINDS)
                + f"  {scores[player]:>3} PTS" + ("  +INAUG" if pos.inauguration == player
                                                  else ""))
        draw.text(img, top + 4 + 12 * player, 8, line, PLAYER_COLOURS[player])
    status = "game over" if pos.phase == "end" else (
        f"{pos.phase}: {COLOUR_NAMES[pos.to_move]} to play")
    draw.text(img, top + 28, 8, status, INK)
