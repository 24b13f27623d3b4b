"""One drawing, two outputs: shapes described once in user units (``(x, y)``, y down; colours
``(r, g, b)``), emitted as SVG text or as an ``uint8[H, W, 3]`` raster (Gymnasium's
``rgb_array``, PNG for notebooks and files).

``svg()`` needs no dependency; ``rgb()`` paints with Pillow, imported only then, supersampled
for smooth edges, with Pillow's built-in font (ASCII only: the raster writes ``Zèbres`` as
``Zebres``, the SVG keeps the accents). A drawing shows itself in a notebook; ``grid`` lays
several out as one.

>>> d = Drawing(120, 60, background=(255, 255, 255))
>>> d.circle(30, 30, 20, fill=(200, 40, 40), stroke=(0, 0, 0))
>>> d.text(80, 30, "a1", size=16)
>>> svg_text, image = d.svg(), d.rgb()
>>> image.shape
(60, 120, 3)
"""
import functools
import io
import unicodedata
from xml.sax.saxutils import escape

import numpy as np

__all__ = ["Drawing"]

INK = (30, 30, 30)
FONT_FAMILY = "Aileron, Helvetica, Arial, sans-serif"  # the SVG's; Aileron is Pillow's font
SUPERSAMPLE = 3
_ANCHORS = {"start": "l", "middle": "m", "end": "r"}


def _hex(colour):
    return "none" if colour is None else "#{:02x}{:02x}{:02x}".format(*colour)


def _num(x):
    return f"{x:.2f}".rstrip("0").rstrip(".")


class Drawing:
    """A picture of ``width`` x ``height`` user units (one unit is one pixel at ``scale=1``).

    For a page on a phone, a picture says what it can spare: its panels of text (hands, scores,
    a legend: drawings placed with ``panel=True``) are laid one under another below the board,
    as wide as the screen; its labels (``label=True``: a cell's name, which the moves and the
    notation also carry) are left out where they would be drawn too small to read; and
    ``min_scale`` (screen pixels per unit) is the least it is drawn at, a narrower screen
    scrolling it sideways (a long track). The SVG carries them as ``class="panel"``,
    ``class="label"`` and ``data-min-scale``.

    Shapes are kept in drawing order; ``text`` is the plain-text stand-in ``repr`` shows
    outside a notebook.
    """

    def __init__(self, width, height, background=None, text="", min_scale=None):
        self.width, self.height = width, height
        self.min_scale = min_scale
        self.background = background
        self.text_fallback = text
        self.items = []

    # ----- shapes -----------------------------------------------------------------------------
    def rect(self, x, y, w, h, fill=None, stroke=None, width=1.0, radius=0.0, label=False):
        """An axis-aligned rectangle, corners rounded by ``radius``; ``label``: the ground of a
        label, left out with it."""
        self.items.append(("rect", (x, y, w, h, radius, label), fill, stroke, width))

    def polygon(self, points, fill=None, stroke=None, width=1.0):
        """A closed polygon through ``points`` [(x, y), ...] (rounded joins)."""
        self.items.append(("polygon", tuple(points), fill, stroke, width))

    def circle(self, cx, cy, r, fill=None, stroke=None, width=1.0):
        self.items.append(("circle", (cx, cy, r), fill, stroke, width))

    def line(self, points, stroke=INK, width=1.0):
        """An open path through ``points``, with round ends and joins."""
        self.items.append(("line", tuple(points), None, stroke, width))

    def text(self, x, y, string, size=12.0, fill=INK, anchor="middle", bold=False,
             label=False):
        """``string`` vertically centred on ``y``; ``anchor`` start, middle or end at ``x``;
        ``label``: a name a phone may leave out (see the class)."""
        if anchor not in _ANCHORS:
            raise ValueError(f"anchor must be start, middle or end, got {anchor!r}")
        self.items.append(("text", (x, y, str(string), size, anchor, bold, label), fill, None,
                           0))

    def place(self, drawing, x, y, panel=False):
        """Draw ``drawing`` here with its top-left corner at ``(x, y)``; ``panel``: it is a
        panel of text that a phone lays under the board (see the class)."""
        self.items.append(("place", (drawing, x, y, panel), None, None, 0))

    # ----- SVG ----------------------------------------------------------------------------------
    def svg(self):
        """The drawing as a standalone SVG document (a str)."""
        w, h = _num(self.width), _num(self.height)
        least = "" if self.min_scale is None else f' data-min-scale="{_num(self.min_scale)}"'
        return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
                f'viewBox="0 0 {w} {h}" font-family="{FONT_FAMILY}"{least}>'
                + "".join(self._svg_body()) + "</svg>")

    def _svg_body(self):
        if self.background is not None:
            yield (f'<rect width="{_num(self.width)}" height="{_num(self.height)}" '
                   f'fill="{_hex(self.background)}"/>')
        for kind, geometry, fill, stroke, width in self.items:
            paint = f'fill="{_hex(fill)}"'
            if stroke is not None:
                paint += (f' stroke="{_hex(stroke)}" stroke-width="{_num(width)}" '
                          'stroke-linejoin="round" stroke-linecap="round"')
            if kind == "rect":
                x, y, w, h, radius, label = geometry
                yield (f'<rect x="{_num(x)}" y="{_num(y)}" width="{_num(w)}" height="{_num(h)}"'
                       + (f' rx="{_num(radius)}"' if radius else "")
                       + (' class="label"' if label else "") + f" {paint}/>")
            elif kind in ("polygon", "line"):
                tag = "polygon" if kind == "polygon" else "polyline"
                points = " ".join(f"{_num(x)},{_num(y)}" for x, y in geometry)
                yield f'<{tag} points="{points}" {paint}/>'
            elif kind == "circle":
                cx, cy, r = geometry
                yield f'<circle cx="{_num(cx)}" cy="{_num(cy)}" r="{_num(r)}" {paint}/>'
            elif kind == "text":
                x, y, string, size, anchor, bold, label = geometry
                yield (f'<text x="{_num(x)}" y="{_num(y)}" font-size="{_num(size)}" '
                       f'text-anchor="{anchor}" dominant-baseline="central"'
                       + (' font-weight="bold"' if bold else "")
                       + (' class="label"' if label else "")
                       + f' fill="{_hex(fill)}">{escape(string)}</text>')
            else:
                drawing, x, y, panel = geometry
                box = (f' class="panel" data-box="{_num(x)} {_num(y)} {_num(drawing.width)} '
                       f'{_num(drawing.height)}"' if panel else "")
                yield f'<g transform="translate({_num(x)},{_num(y)})"{box}>'
                yield from drawing._svg_body()
                yield "</g>"

    def _repr_svg_(self):
        return self.svg()

    # ----- raster -------------------------------------------------------------------------------
    def rgb(self, scale=1.0):
        """The drawing painted as an ``uint8[H, W, 3]`` array, ``scale`` pixels per unit
        (white where nothing is drawn), anti-aliased by supersampling."""
        from PIL import Image, ImageDraw  # lazily: only pictures need Pillow

        k = scale * SUPERSAMPLE
        size = (round(self.width * scale), round(self.height * scale))
        image = Image.new("RGB", (size[0] * SUPERSAMPLE, size[1] * SUPERSAMPLE), "white")
        self._paint(ImageDraw.Draw(image), k, 0.0, 0.0)
        return np.asarray(image.reduce(SUPERSAMPLE), np.uint8).copy()

    def _paint(self, pen, k, dx, dy):
        """Paint onto Pillow's ``pen`` with ``k`` pixels per unit, offset by ``(dx, dy)`` units."""
        def at(x, y):
            return ((x + dx) * k, (y + dy) * k)

        if self.background is not None:
            pen.rectangle([at(0, 0), at(self.width, self.height)], fill=self.background)
        for kind, geometry, fill, stroke, width in self.items:
            w = max(1, round(width * k)) if stroke is not None else 0
            if kind == "rect":
                x, y, rw, rh, radius, _ = geometry
                box = [at(x - width / 2 * bool(w), y - width / 2 * bool(w)),
                       at(x + rw + width / 2 * bool(w), y + rh + width / 2 * bool(w))]
                pen.rounded_rectangle(box, radius=radius * k, fill=fill, outline=stroke, width=w)
            elif kind == "circle":
                cx, cy, r = geometry
                r += width / 2 if w else 0
                pen.ellipse([at(cx - r, cy - r), at(cx + r, cy + r)], fill=fill, outline=stroke,
                            width=w)
            elif kind == "polygon":
                points = [at(x, y) for x, y in geometry]
                if fill is not None:
                    pen.polygon(points, fill=fill)
                if w:
                    _round_line(pen, points + points[:1], stroke, w)
            elif kind == "line":
                _round_line(pen, [at(x, y) for x, y in geometry], stroke, w)
            elif kind == "text":
                x, y, string, size, anchor, bold, _ = geometry
                pen.text(at(x, y), _ascii(string), fill=fill, font=_font(round(size * k)),
                         anchor=_ANCHORS[anchor] + "m",
                         stroke_width=max(1, round(size * k / 28)) if bold else 0,
                         stroke_fill=fill)
            else:
                drawing, x, y, _ = geometry
                drawing._paint(pen, k, dx + x, dy + y)

    def png(self, scale=1.0):
        """The PNG file of ``rgb(scale)``, encoded by Pillow (which paints it)."""
        from PIL import Image

        out = io.BytesIO()
        Image.fromarray(self.rgb(scale)).save(out, format="PNG")
        return out.getvalue()

    def _repr_png_(self):
        return self.png()

    def __repr__(self):
        return self.text_fallback or f"<Drawing {_num(self.width)}x{_num(self.height)}>"


def _round_line(pen, points, colour, width):
    """A polyline ``width`` pixels wide with round joins and ends (as SVG's round caps)."""
    pen.line(points, fill=colour, width=width, joint="curve")
    r = width / 2
    for x, y in (points[0], points[-1]):
        pen.ellipse([(x - r, y - r), (x + r, y + r)], fill=colour)


def _ascii(string):
    """``string`` in the raster font's letters: accents dropped (``ë`` as ``e``)."""
    return unicodedata.normalize("NFKD", string).encode("ascii", "ignore").decode()


@functools.lru_cache(maxsize=64)
def _font(pixels):
    from PIL import ImageFont

    return ImageFont.load_default(size=max(1, pixels))


def grid(drawings, captions=None, columns=None, gap=12.0, caption_size=14.0, text=""):
    """One drawing of ``drawings`` in rows of ``columns`` (default: about square), each under
    its caption (e.g. ``"state 3"``), cells as large as the largest drawing."""
    n = len(drawings)
    if n == 0:
        raise ValueError("grid needs at least one drawing")
    columns = columns or max(1, int(np.ceil(np.sqrt(n))))
    cell_w = max(d.width for d in drawings)
    head = caption_size * 1.6 if captions else 0.0
    cell_h = max(d.height for d in drawings) + head
    rows = -(-n // columns)
    out = Drawing(columns * cell_w + (columns + 1) * gap, rows * cell_h + (rows + 1) * gap,
                  background=(255, 255, 255), text=text)
    for i, d in enumerate(drawings):
        row, col = divmod(i, columns)
        x, y = gap + col * (cell_w + gap), gap + row * (cell_h + gap)
        if captions:
            out.text(x + cell_w / 2, y + head / 2, captions[i], size=caption_size)
        out.place(d, x + (cell_w - d.width) / 2, y + head)
    return out


def animation(drawings, seconds=1.0):
    """An animated SVG document (a str) showing ``drawings`` in turn, ``seconds`` each, in a
    loop (SMIL ``animate`` on each frame's visibility: browsers play it, no script)."""
    n = len(drawings)
    if n == 0:
        raise ValueError("an animation needs at least one drawing")
    w, h = _num(max(d.width for d in drawings)), _num(max(d.height for d in drawings))
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
             f'viewBox="0 0 {w} {h}" font-family="{FONT_FAMILY}">',
             f'<rect width="{w}" height="{h}" fill="#ffffff"/>']
    for i, d in enumerate(drawings):
        parts.append(f'<g visibility="{"visible" if i == 0 else "hidden"}">'
                     f'<animate attributeName="visibility" values="hidden;visible;hidden" '
                     f'keyTimes="0;{i / n:.6f};{(i + 1) / n:.6f}" calcMode="discrete" '
                     f'dur="{_num(n * seconds)}s" repeatCount="indefinite"/>')
        parts.extend(d._svg_body())
        parts.append("</g>")
    return "".join(parts) + "</svg>"
