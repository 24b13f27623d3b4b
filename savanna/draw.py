"""Tiny raster drawing on ``uint8[H, W, 3]`` NumPy images, for the games' ``render_rgb``.

No imaging library is needed: rectangles, discs, rings, a 5x7 bitmap font (digits, upper-case
letters, a few signs; lower case is drawn upper case), a PNG encoder, and ``Picture``, which a
notebook shows as an image. Coordinates are ``(y, x)`` pixels, colours ``(r, g, b)`` tuples.

Example::

    img = canvas(40, 80, (255, 255, 255))
    disc(img, 20, 20, 15, (200, 40, 40))
    text(img, 14, 16, "Z", (255, 255, 255), scale=2)
"""
import struct
import zlib

import numpy as np

GLYPH_WIDTH, GLYPH_HEIGHT = 5, 7

_FONT_ROWS = {
    "0": ".###.|#...#|#..##|#.#.#|##..#|#...#|.###.",
    "1": "..#..|.##..|..#..|..#..|..#..|..#..|.###.",
    "2": ".###.|#...#|....#|...#.|..#..|.#...|#####",
    "3": "####.|....#|....#|.###.|....#|....#|####.",
    "4": "...#.|..##.|.#.#.|#..#.|#####|...#.|...#.",
    "5": "#####|#....|####.|....#|....#|#...#|.###.",
    "6": "..##.|.#...|#....|####.|#...#|#...#|.###.",
    "7": "#####|....#|...#.|..#..|.#...|.#...|.#...",
    "8": ".###.|#...#|#...#|.###.|#...#|#...#|.###.",
    "9": ".###.|#...#|#...#|.####|....#|...#.|.##..",
    "A": ".###.|#...#|#...#|#####|#...#|#...#|#...#",
    "B": "####.|#...#|#...#|####.|#...#|#...#|####.",
    "C": ".###.|#...#|#....|#....|#....|#...#|.###.",
    "D": "###..|#..#.|#...#|#...#|#...#|#..#.|###..",
    "E": "#####|#....|#....|####.|#....|#....|#####",
    "F": "#####|#....|#....|####.|#....|#....|#....",
    "G": ".###.|#...#|#....|#.###|#...#|#...#|.####",
    "H": "#...#|#...#|#...#|#####|#...#|#...#|#...#",
    "I": ".###.|..#..|..#..|..#..|..#..|..#..|.###.",
    "J": "..###|...#.|...#.|...#.|...#.|#..#.|.##..",
    "K": "#...#|#..#.|#.#..|##...|#.#..|#..#.|#...#",
    "L": "#....|#....|#....|#....|#....|#....|#####",
    "M": "#...#|##.##|#.#.#|#.#.#|#...#|#...#|#...#",
    "N": "#...#|#...#|##..#|#.#.#|#..##|#...#|#...#",
    "O": ".###.|#...#|#...#|#...#|#...#|#...#|.###.",
    "P": "####.|#...#|#...#|####.|#....|#....|#....",
    "Q": ".###.|#...#|#...#|#...#|#.#.#|#..#.|.##.#",
    "R": "####.|#...#|#...#|####.|#.#..|#..#.|#...#",
    "S": ".####|#....|#....|.###.|....#|....#|####.",
    "T": "#####|..#..|..#..|..#..|..#..|..#..|..#..",
    "U": "#...#|#...#|#...#|#...#|#...#|#...#|.###.",
    "V": "#...#|#...#|#...#|#...#|#...#|.#.#.|..#..",
    "W": "#...#|#...#|#...#|#.#.#|#.#.#|#.#.#|.#.#.",
    "X": "#...#|#...#|.#.#.|..#..|.#.#.|#...#|#...#",
    "Y": "#...#|#...#|.#.#.|..#..|..#..|..#..|..#..",
    "Z": "#####|....#|...#.|..#..|.#...|#....|#####",
    " ": ".....|.....|.....|.....|.....|.....|.....",
    "+": ".....|..#..|..#..|#####|..#..|..#..|.....",
    "-": ".....|.....|.....|#####|.....|.....|.....",
    "*": ".....|#.#.#|.###.|#####|.###.|#.#.#|.....",
    ".": ".....|.....|.....|.....|.....|.##..|.##..",
    ":": ".....|.##..|.##..|.....|.##..|.##..|.....",
    "/": "....#|....#|...#.|..#..|.#...|#....|#....",
    "?": ".###.|#...#|....#|...#.|..#..|.....|..#..",
}
FONT = {ch: np.array([[c == "#" for c in row] for row in rows.split("|")], bool)
        for ch, rows in _FONT_ROWS.items()}


def canvas(height, width, colour):
    """A new image filled with ``colour``."""
    img = np.empty((height, width, 3), np.uint8)
    img[:] = colour
    return img


def rect(img, y0, x0, y1, x1, colour):
    """Fill the rectangle of rows ``y0..y1-1`` and columns ``x0..x1-1`` (clipped)."""
    img[max(y0, 0):max(y1, 0), max(x0, 0):max(x1, 0)] = colour


def _disc_mask(img, cy, cx, radius):
    ys, xs = np.ogrid[: img.shape[0], : img.shape[1]]
    return (ys - cy) ** 2 + (xs - cx) ** 2 <= radius * radius


def disc(img, cy, cx, radius, colour):
    """Fill the disc of centre ``(cy, cx)``."""
    img[_disc_mask(img, cy, cx, radius)] = colour


def ring(img, cy, cx, radius, width, colour):
    """Draw a circle ``width`` pixels thick, inside ``radius``."""
    img[_disc_mask(img, cy, cx, radius) & ~_disc_mask(img, cy, cx, radius - width)] = colour


def triangle(img, points, colour):
    """Fill the triangle with corners ``points = ((y, x), (y, x), (y, x))``."""
    (ay, ax), (by, bx), (cy, cx) = points
    ys, xs = np.mgrid[: img.shape[0], : img.shape[1]]

    def side(py, px, qy, qx):
        return (qx - px) * (ys - py) - (qy - py) * (xs - px)

    d1, d2, d3 = side(ay, ax, by, bx), side(by, bx, cy, cx), side(cy, cx, ay, ax)
    inside = ((d1 >= 0) & (d2 >= 0) & (d3 >= 0)) | ((d1 <= 0) & (d2 <= 0) & (d3 <= 0))
    img[inside] = colour


def text_size(string, scale=1):
    """(height, width) in pixels of ``string`` drawn by ``text``."""
    return GLYPH_HEIGHT * scale, max(0, len(string) * (GLYPH_WIDTH + 1) - 1) * scale


def text(img, y, x, string, colour, scale=1):
    """Draw ``string`` with its top-left corner at ``(y, x)``; unknown characters draw ``?``."""
    for ch in string.upper():
        glyph = np.kron(FONT.get(ch, FONT["?"]), np.ones((scale, scale), bool))
        region = img[y: y + glyph.shape[0], x: x + glyph.shape[1]]
        region[glyph[: region.shape[0], : region.shape[1]]] = colour
        x += (GLYPH_WIDTH + 1) * scale


def centred_text(img, cy, cx, string, colour, scale=1):
    """Draw ``string`` centred on ``(cy, cx)``."""
    h, w = text_size(string, scale)
    text(img, cy - h // 2, cx - w // 2, string, colour, scale)


def png_bytes(img):
    """The PNG file of an ``uint8[H, W, 3]`` image (no compression library beyond zlib)."""
    img = np.ascontiguousarray(img, np.uint8)
    height, width, _ = img.shape
    raw = np.concatenate([np.zeros((height, 1), np.uint8), img.reshape(height, -1)], axis=1)

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(raw.tobytes())) + chunk(b"IEND", b""))


class Picture:
    """An image that shows itself in a notebook (``_repr_png_``) and as text elsewhere."""

    def __init__(self, image, text=""):
        self.image = image
        self.text = text

    def _repr_png_(self):
        return png_bytes(self.image)

    def __repr__(self):
        return self.text or f"<Picture {self.image.shape[1]}x{self.image.shape[0]}>"
