"""Pictures of a Banjooli Xeet ``notation.Position``: a text track and an RGB race track."""
import numpy as np

from banjooli import notation as nt
from savanna import draw

OSTRICH_RGB = ((210, 40, 40), (40, 80, 220), (40, 160, 60), (235, 200, 30), (140, 60, 170))
KIND_RGB = {nt.GROUND: (232, 205, 150), nt.ROCK: (120, 120, 120), nt.QUICK: (150, 110, 60),
            nt.CROC: (60, 130, 60), nt.WATER: (70, 130, 220), nt.CHASM: (25, 25, 25),
            nt.LAVA: (230, 80, 20), nt.VORTEX: (120, 50, 160)}


TEXT_CHARS = ".#QCWXLV"  # rocks as # so that R stays the red ostrich


def _kinds(pos):
    kinds = [nt.GROUND] * 9
    for face in pos.course:
        kinds.extend(nt.face_kinds(face))
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
    return {cell: nt.BERRY_LETTERS[pos.berry_kinds[k]].lower() if _knows(pos, k, player)
            else "*" for k, cell in enumerate(pos.berry_cells) if cell is not None}


def _notation_seen_by(pos, player):
    """The notation line with what ``player`` cannot know as ``?``: the other seats'
    prediction cards and the kinds of the berries ``player`` has not seen (taken ones are
    public). Example: ``cards=7,?,?`` and ``berries=?@b5,T@c7+0``."""
    fields = []
    for field in nt.format(pos).split():
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
    arrived = {p: nt.COLOURS[c] for c, p in enumerate(pos.places) if p}
    top = nt.format(pos) if player is None else _notation_seen_by(pos, player)
    lines = [top, "          a b c",
             "finish    " + "  ".join(f"{p}:{arrived.get(p, '-')}" for p in (1, 2, 3))]
    for y in range(pos.last_row, -1, -1):
        label = "start" if y < 3 else nt.FACE_NAMES[pos.course[(y - 3) // 3]]
        label = label if y % 3 == 2 else ""
        cells = []
        for x in range(3):
            cell = 3 * y + x
            if cell in who:
                ch = nt.COLOURS[who[cell]]
                cells.append(ch.lower() if pos.scared[who[cell]] else ch)
            elif cell in berries:
                cells.append(berries[cell])
            else:
                cells.append("n" if y < 3 and cell in nt.NESTS else TEXT_CHARS[kinds[cell]])
        lines.append(f"{label:<6}{y:>3} |{' '.join(cells)}|")
    dice = "".join("?" if f is None else nt.FACES[f] for f in pos.dice)
    lines.append(f"to move: seat {pos.to_move} ({'+' if pos.direction > 0 else '-'})  "
                 f"phase: {nt.format(pos).split('phase=')[1].split()[0]}  "
                 f"dice: {dice[:5]} sorcery {dice[5]}  turn {pos.turn}")
    lines.append("lower case = scared; n = empty nest; # rock, Q quicksand, C crocodile, "
                 "W water, X chasm, L lava, V vortex; * berry (face down), t n o j d u s p f v k "
                 "berry seen by " + ("someone" if player is None else "you"))
    return "\n".join(lines)


def render_image(pos, cell=28):
    """The race track left (start) to right (finish), lanes a-c top to bottom, with ostriches,
    tiles (curves darker), rocks, quicksand and special cells, arrivals and dice."""
    kinds, who, berries = _kinds(pos), _occupant(pos), _berries(pos)
    rows = pos.last_row + 1
    top = 24
    img = draw.canvas(top + 3 * cell + 20, (rows + 3) * cell + 8, (250, 246, 235))
    for t, label in enumerate(["START"] + [nt.FACE_NAMES[f] for f in pos.course]):
        draw.text(img, top + 3 * cell + 6, 8 + 3 * t * cell, label, (60, 40, 20))
    draw.text(img, top + 3 * cell + 6, 8 + rows * cell, "FINISH", (60, 40, 20))
    for y in range(rows):
        curve = y >= 3 and nt.FACE_CURVE[pos.course[(y - 3) // 3]]
        for x in range(3):
            colour = np.array(KIND_RGB[kinds[3 * y + x]], float) * (0.8 if curve else 1.0)
            y0, x0 = top + x * cell, 4 + y * cell
            draw.rect(img, y0 + 1, x0 + 1, y0 + cell, x0 + cell, tuple(colour.astype(int)))
            if y < 3 and 3 * y + x in nt.NESTS:
                draw.ring(img, y0 + cell // 2, x0 + cell // 2, cell // 2 - 3, 2, (160, 120, 70))
        if y % 3 == 0:
            draw.rect(img, top, 4 + y * cell - 1, top + 3 * cell, 4 + y * cell + 1, (60, 40, 20))
    for cell_index, letter in berries.items():
        cy = top + (cell_index % 3) * cell + cell // 2
        cx = 4 + (cell_index // 3) * cell + cell // 2
        draw.disc(img, cy, cx, cell // 3, (30, 90, 40))
        draw.centred_text(img, cy, cx, "?" if letter == "*" else letter, (255, 255, 255))
    finish = 4 + rows * cell
    draw.rect(img, top, finish - 1, top + 3 * cell, finish + 2, (0, 0, 0))
    for c, cell_index in enumerate(pos.cells):
        if cell_index is None:
            cy, cx = top + (pos.places[c] - 1) * cell + cell // 2, finish + cell + cell // 2
        else:
            cy = top + (cell_index % 3) * cell + cell // 2
            cx = 4 + (cell_index // 3) * cell + cell // 2
        if pos.scared[c]:
            draw.ring(img, cy, cx, cell // 2 - 3, 4, OSTRICH_RGB[c])
        else:
            draw.disc(img, cy, cx, cell // 2 - 3, OSTRICH_RGB[c])
        draw.centred_text(img, cy, cx, nt.COLOURS[c], (0, 0, 0) if pos.scared[c] else
                          (255, 255, 255))
    dice = "".join("?" if f is None else nt.FACES[f] for f in pos.dice)
    draw.text(img, 6, 6, f"SEAT {pos.to_move} DICE {dice[:5]} S:{dice[5]}", (0, 0, 0), scale=1)
    return img
