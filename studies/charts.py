"""The study's pictures (``savanna.draw`` drawings: ``.svg()``, ``.png()``, shown in a notebook).

* ``interval_chart``: one row per estimate, a dot at its value and a bar over its 95% interval
  (none where the interval is unknown, as for a deterministic agent's one repeated game), a
  dashed line at the value that means "even" (or "no skill"), or a tick on each row at its own,
  each row's sample size beside it and the value axis named below.
* ``curves_chart``: the review's curves, one line per game: the eventual winner's value minus
  the best other player's, over the share of the game played.
"""
import math

from savanna import draw

__all__ = ["curves_chart", "interval_chart"]

BAR, DOT, GRID, EVEN = (70, 110, 180), (200, 60, 40), (220, 220, 220), (120, 120, 120)


def _ticks(low, high):
    step = 10 ** math.floor(math.log10((high - low) / 4))
    for factor in (1, 2, 5, 10):
        if (high - low) / (step * factor) <= 8:
            step *= factor
            break
    first = math.ceil(low / step) * step
    return [first + k * step for k in range(int((high - first) / step) + 1)]


def interval_chart(title, rows, even=None, percent=False, axis=""):
    """``rows``: ``(label, value, low, high, n)`` or ``(label, value, low, high, n, even)``
    (the row's own even value); ``even``: where the dashed line goes; ``axis``: what the
    values are."""
    finite = [x for r in rows for x in (*r[1:4], *r[5:6]) if math.isfinite(x)] + (
        [even] if even is not None else [])
    low, high = (min(finite), max(finite)) if finite else (0.0, 1.0)
    span = max(high - low, 0.1 if percent else 10.0)
    low, high = low - 0.06 * span, high + 0.06 * span
    label_w = 7.0 * max(len(r[0]) for r in rows) + 16
    plot_w, row_h, top = 380.0, 24.0, 36.0
    bottom = top + row_h * len(rows)
    n_w = 6.5 * max(len(f"n={r[4]}") for r in rows) + 16
    d = draw.Drawing(max(label_w + plot_w + n_w, 7.5 * len(title)), bottom + 50,
                     background=(255, 255, 255), text=title)

    def x(v):
        return label_w + (min(max(v, low), high) - low) / (high - low) * plot_w

    d.text(d.width / 2, 16, title, size=13, bold=True)
    for t in _ticks(low, high):
        d.line([(x(t), top - 4), (x(t), bottom)], stroke=GRID)
        d.text(x(t), bottom + 14, f"{t:.0%}" if percent else f"{t:+.0f}" if t else "0",
               size=10)
    if axis:
        d.text(label_w + plot_w / 2, bottom + 32, axis, size=10)
    if even is not None:
        for y in range(int(top - 4), int(bottom), 6):
            d.line([(x(even), y), (x(even), y + 3)], stroke=EVEN)
    for k, (label, value, lo, hi, n, *own) in enumerate(rows):
        y = top + row_h * (k + 0.5)
        if own and math.isfinite(own[0]):
            for dy in (-9, -3, 3):
                d.line([(x(own[0]), y + dy), (x(own[0]), y + dy + 3)], stroke=EVEN)
        d.text(label_w - 8, y, label, size=11, anchor="end")
        if math.isfinite(lo) and math.isfinite(hi):
            d.line([(x(lo), y), (x(hi), y)], stroke=BAR, width=4)
        if math.isfinite(value):
            d.circle(x(value), y, 4.5, fill=DOT)
        d.text(label_w + plot_w + 8, y, f"n={n}", size=10, anchor="start")
    return d


def curves_chart(title, curves):
    """``curves``: ``(winner, values float[plies, P])`` per reviewed game (module docstring)."""
    plot_w, plot_h, left, top = 420.0, 180.0, 50.0, 30.0
    width = max(left + plot_w + 20, 7.5 * len(title))
    d = draw.Drawing(width, top + plot_h + 50, background=(255, 255, 255), text=title)
    d.text(width / 2, 16, title, size=13, bold=True)

    def at(share, margin):
        return left + share * plot_w, top + (1 - (margin + 2) / 4) * plot_h

    for m in (-2, -1, 0, 1, 2):
        d.line([at(0, m), at(1, m)], stroke=EVEN if m == 0 else GRID)
        d.text(left - 6, at(0, m)[1], f"{m:+d}" if m else "0", size=10, anchor="end")
    for share in (0, 0.5, 1):
        d.text(*at(share, -2.25), f"{share:.0%}", size=10)
    d.text(*at(0.5, -2.6), "share of the game's decisions played", size=10)
    for winner, values in curves:
        if winner < 0 or len(values) < 2:
            continue
        others = [[v for q, v in enumerate(row) if q != winner] for row in values]
        margins = [row[winner] - max(rest) for row, rest in zip(values, others)]
        d.line([at(j / (len(margins) - 1), max(min(m, 2), -2)) for j, m in enumerate(margins)],
               stroke=BAR, width=1.5)
    return d
