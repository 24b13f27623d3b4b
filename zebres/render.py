"""Pictures of a Zèbres position: a text diagram and a ``savanna.draw.Drawing`` (SVG, RGB).

Both take a ``notation.Position``, the board name and the current (red, green) scores, e.g.
``render_text(pos, "standard", (0, 0))``. In the text diagram rivers are drawn with ``|`` and
``---``, tokens in the notation's letters (upper case red, lower case green, ``*`` face down),
the cells' column letters a-f above the board and row numbers 1-5 beside it, the track positions
around the board with Impala Jones marked by ``v > < ^`` pointing at the line it faces, and the
sector letters beside the board. The drawing shows the same, with every cell named (``c4``), a
legend and the hands, phase and points in a panel beside the board (a phone lays it under the
board and leaves out the cells' names and sector letters where they would be too small).
"""
from savanna.draw import Drawing
from savanna.zebres.notation import cell_name
from savanna.zebres.spec import (
    KIND_NAMES,
    KINDS,
    NUM_CELLS,
    NUM_COLS,
    NUM_ROWS,
    PLACE,
    SECTOR_MAPS,
    START,
    STOP,
    SWAP,
    TOKEN_VALUES,
    TRACK_LENGTH,
    TRACK_LINES,
)

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


def _phase(pos):
    """What happens next, e.g. ``green to place``."""
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
    return phase


def _status(pos, scores):
    """Lines under the board: hands, inauguration, phase, points."""
    lines = []
    for player in (0, 1):
        hand = pos.hand(player)
        lines.append(f"{COLOUR_NAMES[player]:<5} hand: "
                     + " ".join(f"{k}{hand[k]}" for k in KINDS))
    holder = "unclaimed" if pos.inauguration is None else COLOUR_NAMES[pos.inauguration]
    lines.append(f"inauguration: {holder}; {_phase(pos)}")
    lines.append(f"points{' now' if pos.phase != 'end' else ''}: red {scores[0]}, "
                 f"green {scores[1]}")
    return lines


def render_text(pos, board, scores):
    """The text diagram of ``pos`` (see the module docstring)."""
    sectors = SECTOR_MAPS[board]
    side, index = _side(pos.impala) if pos.impala is not None else (None, None)
    width = 4 * NUM_COLS + 1
    pad = " " * 8

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
             column_line({index: "v"} if side == "top" else {}),
             column_line({c: "abcdef"[c] for c in range(NUM_COLS)})]
    for row in range(NUM_ROWS):
        lines.append(pad + horizontal(row))
        cells = "|"
        for col in range(NUM_COLS):
            token = pos.board[row * NUM_COLS + col]
            cells += f" {token.letter:<2}" if token is not None else " . "
            last = col == NUM_COLS - 1
            cells += "|" if last or _river(sectors, row * 6 + col, row * 6 + col + 1) else " "
        left = (f"{21 - row:>3} " + (">" if side == "left" and index == row else " ")
                + f" {row + 1} ")
        right = " " + ("<" if side == "right" and index == row else " ") + f" {6 + row:<3}"
        letters = " ".join(sectors[row * NUM_COLS: (row + 1) * NUM_COLS])
        lines.append(left + cells + right + "  " + letters)
    lines.append(pad + horizontal(NUM_ROWS))
    lines.append(column_line({index: "^"} if side == "bottom" else {}))
    lines.append(column_line({c: str(16 - c) for c in range(NUM_COLS)}))
    return "\n".join([line.rstrip() for line in lines if line.strip()] + _status(pos, scores))


# ----- the drawing ----------------------------------------------------------------------------
CELL = 64                       # user units per cell
TRACK = 30                      # the ring of track positions outside the board
X0 = Y0 = 28 + TRACK + 10       # the board's top-left corner
PANEL = X0 + NUM_COLS * CELL + TRACK + 46   # left edge of the text panel
WIDTH, HEIGHT = PANEL + 300, Y0 + NUM_ROWS * CELL + TRACK + 40
SECTOR_COLOURS = {"A": (236, 221, 170), "B": (203, 228, 165), "C": (245, 207, 166),
                  "D": (214, 205, 236), "E": (186, 220, 230), "F": (240, 190, 190)}
PLAYER_COLOURS = ((198, 40, 40), (30, 130, 60))
FACE_DOWN = (90, 90, 90)
RIVER = (40, 105, 210)
IMPALA = (240, 140, 10)
INK = (35, 35, 35)
FAINT = (120, 110, 95)
BACKGROUND = (251, 249, 242)


def _cell_xy(cell):
    """The top-left corner of ``cell``."""
    row, col = divmod(cell, NUM_COLS)
    return X0 + col * CELL, Y0 + row * CELL


def _track_xy(position):
    """The centre of track ``position``, facing its row or column."""
    side, k = _side(position)
    along = k * CELL + CELL / 2
    out = TRACK / 2 + 6
    return {"top": (X0 + along, Y0 - out), "bottom": (X0 + along, Y0 + NUM_ROWS * CELL + out),
            "left": (X0 - out, Y0 + along),
            "right": (X0 + NUM_COLS * CELL + out, Y0 + along)}[side]


def impala_spot(impala, steps):
    """Where Impala lands on the track after ``steps`` from position ``impala`` (the click
    target of that move)."""
    return _track_xy((impala + steps) % TRACK_LENGTH)


def move_spot(action):
    """Where move ``action`` sits on ``render_drawing``'s picture, for a board that takes clicks:
    a placement or a swap at its cell's centre, Impala's start at its track position; None for
    ``stop`` and Impala's steps (their place depends on the position: ``impala_spot``)."""
    if PLACE <= action < START:
        x, y = _cell_xy((action - PLACE) % NUM_CELLS)
    elif START <= action < SWAP:
        return _track_xy(action - START)
    elif SWAP <= action < STOP:
        x, y = _cell_xy(action - SWAP)
    else:
        return None
    return x + CELL / 2, y + CELL / 2


def _lighter(colour, by=0.5):
    return tuple(round(c + (255 - c) * by) for c in colour)


def render_drawing(pos, board, scores):
    """The ``Drawing`` of ``pos``: sectors, rivers, named cells, tokens, the track with Impala,
    then the hands, phase, points and a legend beside the board."""
    sectors = SECTOR_MAPS[board]
    d = Drawing(WIDTH, HEIGHT, background=BACKGROUND)
    faced = set(TRACK_LINES[pos.impala]) if pos.impala is not None else set()
    for cell in range(NUM_CELLS):
        x, y = _cell_xy(cell)
        colour = SECTOR_COLOURS[sectors[cell]]
        d.rect(x, y, CELL, CELL, fill=_lighter(colour, 0.45) if cell in faced else colour,
               stroke=(175, 165, 150), width=1)
        d.text(x + 4, y + 9, cell_name(cell), size=11, fill=FAINT, anchor="start", label=True)
        d.text(x + CELL - 5, y + CELL - 9, sectors[cell], size=10, fill=FAINT, anchor="end",
               label=True)
    _rivers(d, sectors)
    d.rect(X0, Y0, NUM_COLS * CELL, NUM_ROWS * CELL, stroke=INK, width=2)
    for col in range(NUM_COLS):  # the axes, outside the track
        d.text(X0 + col * CELL + CELL / 2, 12, "abcdef"[col], size=14, fill=FAINT)
    for row in range(NUM_ROWS):
        d.text(12, Y0 + row * CELL + CELL / 2, str(row + 1), size=14, fill=FAINT)
    for cell, token in enumerate(pos.board):
        if token is not None:
            _token(d, cell, token, pos.phase == "croc" and (
                cell == pos.croc_cell or cell in pos.swapped))
    for position in range(TRACK_LENGTH):
        _track_position(d, position, position == pos.impala)
    d.place(_panel(pos, board, scores), PANEL, 0, panel=True)
    return d


def _rivers(d, sectors):
    """A blue line on every edge between two sectors."""
    for cell in range(NUM_CELLS):
        x, y = _cell_xy(cell)
        if cell % NUM_COLS < NUM_COLS - 1 and _river(sectors, cell, cell + 1):
            d.line([(x + CELL, y), (x + CELL, y + CELL)], stroke=RIVER, width=5)
        if cell + NUM_COLS < NUM_CELLS and _river(sectors, cell, cell + NUM_COLS):
            d.line([(x, y + CELL), (x + CELL, y + CELL)], stroke=RIVER, width=5)


def _token(d, cell, token, highlight):
    x, y = _cell_xy(cell)
    cx, cy = x + CELL / 2, y + CELL / 2 + 3
    colour = PLAYER_COLOURS[token.player]
    if highlight:  # the crocodile of a chain and the gazelles it swapped
        d.circle(cx, cy, 23, fill=IMPALA)
    if token.down:  # face down: dark, rimmed with the owner's colour
        d.circle(cx, cy, 19, fill=FACE_DOWN, stroke=colour, width=4)
        d.text(cx, cy, token.kind, size=20, fill=(200, 200, 200), bold=True)
    else:
        d.circle(cx, cy, 19, fill=colour, stroke=INK, width=1)
        d.text(cx, cy, token.kind, size=20, fill=(255, 255, 255), bold=True)


def _track_position(d, position, impala):
    cx, cy = _track_xy(position)
    if impala:
        d.circle(cx, cy, 14, fill=IMPALA, stroke=INK, width=1.5)
        d.text(cx, cy, str(position), size=13, fill=INK, bold=True)
    else:
        d.circle(cx, cy, 12, fill=(255, 255, 255), stroke=(190, 180, 165), width=1)
        d.text(cx, cy, str(position), size=10, fill=FAINT)


def _panel(pos, board, scores):
    """The panel of text beside the board: title, phase, hands and points, legend."""
    d = Drawing(WIDTH - PANEL, HEIGHT)
    x, y = 0, 22
    d.text(x, y, f"Drôles de Zèbres ({board} board)", size=16, bold=True, anchor="start")
    y += 24
    phase = _phase(pos)
    d.text(x, y, phase[0].upper() + phase[1:], size=13, anchor="start",
           fill=INK if pos.phase == "end" else PLAYER_COLOURS[pos.to_move])
    y += 30
    final = "" if pos.phase == "end" else " now"
    for player in (0, 1):
        hand = pos.hand(player)
        colour = PLAYER_COLOURS[player]
        d.circle(x + 7, y, 7, fill=colour)
        d.text(x + 20, y, f"{COLOUR_NAMES[player]}: {scores[player]} points{final}"
               + ("  (inauguration +5)" if pos.inauguration == player else ""),
               size=13, anchor="start", bold=True, fill=colour)
        y += 19
        d.text(x + 20, y, "in hand: " + "   ".join(f"{hand[k]} {k}" for k in KINDS),
               size=12, anchor="start")
        y += 26
    if pos.inauguration is None:
        d.text(x, y, "Inauguration (+5): unclaimed", size=12, anchor="start")
        y += 26
    d.text(x, y, "Legend", size=13, bold=True, anchor="start")
    y += 20
    for kind in KINDS:
        d.circle(x + 9, y, 9, fill=PLAYER_COLOURS[0])
        d.text(x + 9, y, kind, size=11, fill=(255, 255, 255), bold=True)
        d.text(x + 24, y, f"{KIND_NAMES[kind]}, {TOKEN_VALUES[kind]} point"
               + ("s" if TOKEN_VALUES[kind] != 1 else ""), size=12, anchor="start")
        y += 21
    d.circle(x + 9, y, 8, fill=FACE_DOWN, stroke=PLAYER_COLOURS[1], width=2.5)
    d.text(x + 24, y, "face down: 0 points, counts for majority", size=12, anchor="start")
    y += 21
    d.line([(x, y), (x + 18, y)], stroke=RIVER, width=5)
    d.text(x + 24, y, "river between sectors A-F", size=12, anchor="start")
    y += 21
    d.circle(x + 9, y, 9, fill=IMPALA, stroke=INK, width=1.5)
    d.text(x + 24, y, "Impala: the lit line is where to place", size=12, anchor="start")
    y += 21
    d.text(x, y, "Majority of a sector scores its face-up tokens.", size=11, anchor="start",
           fill=FAINT)
    return d
