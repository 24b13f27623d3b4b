"""The RGB picture of a Bonobo Beach position (``BonoboGame.render_rgb``), with savanna.draw.

Free triangles show their symbol (T toilet, P parasol, D dune) on a sand, sea or brown ground,
framed in white once activated; tiles are rhombi, green when positive and red when negative,
with the number each corner shows toward it (a at the acute corners, 2a at the obtuse ones);
pawns are discs in their owner's colour on the spots; a spot barred by a toilet shows a cross.
The top band lists the scores, supplies and whose turn it is.
"""
import numpy as np

from bonobo import notation as N
from savanna import draw

EDGE = 60                  # pixels per unit edge
MARGIN = 24
BAND = 30                  # the text band on top
GROUND = {"D": (236, 212, 150), "P": (120, 190, 225), "T": (150, 112, 80)}
TILE_COLOUR = {1: (110, 180, 110), -1: (215, 110, 100)}
PLAYER_COLOURS = ((40, 90, 200), (230, 150, 20), (150, 60, 170), (30, 150, 140))
INK = (30, 30, 30)
BACKGROUND = (60, 110, 150)


def _pixel(point):
    x, y = N.screen_xy(point)
    return (BAND + MARGIN + (y + 3 ** 0.5 * 1.5) * EDGE, MARGIN + (x + N.RADIUS) * EDGE)


def _centre(points):
    return (sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))


def _shrink(points, by):
    """``points`` moved toward their centre by the fraction ``by``."""
    cy, cx = _centre(points)
    return [(y + (cy - y) * by, x + (cx - x) * by) for y, x in points]


def render_image(pos):
    """``uint8[H, W, 3]`` picture of a ``notation.Position``."""
    height = int(BAND + 2 * MARGIN + 3 * 3 ** 0.5 * EDGE)
    width = int(2 * MARGIN + 2 * N.RADIUS * EDGE)
    img = draw.canvas(height, width, BACKGROUND)
    covered = {t: v for k, v in pos.tiles for t in N.SLOTS[k]}
    act = N.activated(covered)
    for t, corners in enumerate(N.TRIANGLES):
        points = [_pixel(c) for c in corners]
        draw.triangle(img, points, INK)
        if t not in covered:
            if t in act:
                draw.triangle(img, _shrink(points, 0.06), (255, 255, 255))
            draw.triangle(img, _shrink(points, 0.14), GROUND[N.SYMBOLS[t]])
            cy, cx = _centre(points)
            draw.centred_text(img, int(cy), int(cx), N.SYMBOLS[t], INK, scale=2)
    for k, v in pos.tiles:
        _tile(img, k, v)
    _spots(img, pos, act)
    _band(img, pos)
    return img


def _tile(img, slot, value):
    a, b = N.SLOTS[slot]
    shared = set(N.TRIANGLES[a]) & set(N.TRIANGLES[b])
    acute = [c for c in N.TRIANGLES[a] + N.TRIANGLES[b] if c not in shared]
    corners = [acute[0], *sorted(shared), acute[1]]
    pixels = dict(zip(corners, _shrink([_pixel(c) for c in corners], 0.07)))
    colour = TILE_COLOUR[1 if value > 0 else -1]
    for t in (a, b):
        draw.triangle(img, [pixels[c] for c in N.TRIANGLES[t]], colour)
    cy, cx = _centre(list(pixels.values()))
    for c, (y, x) in pixels.items():
        number = N.value_name(value if c in acute else 2 * value)
        ny, nx = y + (cy - y) * 0.45, x + (cx - x) * 0.45
        draw.centred_text(img, int(ny), int(nx), number, INK)


def _spots(img, pos, act):
    owner = dict(pos.pawns)
    for s, point in enumerate(N.SPOTS):
        y, x = (int(v) for v in _pixel(point))
        if s in owner:
            draw.disc(img, y, x, 9, INK)
            draw.disc(img, y, x, 7, PLAYER_COLOURS[owner[s]])
        elif any(t in act and N.SYMBOLS[t] == "T" for t in N.SPOT_TRIANGLES[s]):
            draw.centred_text(img, y, x, "X", INK, scale=2)
        else:
            draw.disc(img, y, x, 3, INK)


def _band(img, pos):
    x = MARGIN
    for p in range(pos.num_players):
        supply = N.PAWNS_PER_PLAYER - sum(1 for _, o in pos.pawns if o == p)
        label = f"{'*' if p == pos.to_move and pos.phase != 'end' else ''}P{p} {pos.score[p]:+d}"
        draw.disc(img, 12, x + 6, 6, PLAYER_COLOURS[p])
        draw.text(img, 9, x + 16, label, (255, 255, 255))
        draw.text(img, 21, x + 16, "O" * supply, PLAYER_COLOURS[p])
        x += int(np.ceil((img.shape[1] - 2 * MARGIN) / pos.num_players))
    if pos.phase == "place":
        draw.text(img, 21, img.shape[1] - MARGIN - 60, f"TILE {N.value_name(pos.drawn)}",
                  (255, 255, 255))
