"""What a face shows at its edges, and so whether cards may share a cut on a sheet
(sheets.apart).

A cut about 1 mm off its line (GUIDE, tolerances) shows a sliver of the neighbour's edge. Where
that sliver is not the card's own colour it tells the card apart: a frame in the colour of a
card's type or element would give it away. So the sheets of a file put a gutter between
neighbours (papers.py, sheets.apart) when any two cards that may share a page (the same size
and back design) differ at their edges, and keep cards edge to edge, one cut between two, when
every such pair looks alike there.

Why a file's cards and not each seam: one grid a file keeps every cut a straight line across
the page (a gutter at some seams only would break the long cuts), the pages of a file keep
one way round (a duplex back offset is measured on one), and a game whose cards all share
their outer frame keeps its cards a sheet. The five games' layouts all do (issue 28):
PowerMage 54's card types and Powers Combined's elements colour an inner frame, 3 mm inside
the trim, within an outer frame that is the same on every card of a deck.

A face's edge is what its display list draws within BAND of its trim or beyond it (what a cut
off its line can show of it, with room to spare): each item as it is, its colours apart. Two
edges look alike when they draw the same items and every colour of one is within ALIKE (CIE76
delta E) of the other's: a difference below it is one no one reads from a sliver at an edge.
"""

from __future__ import annotations

import dataclasses
import math

from . import fonts
from .displaylist import Color, Drawing, Ellipse, Image, Path, Poly, Primitive, Rect, Text

ALIKE = 5.0  # CIE76 delta E below which two colours at a card's edge count as one
BAND = 2.0  # mm inside the trim: twice the hand's cutting error (GUIDE: about 1 mm)
COLOURS = ("fill", "stroke", "color")  # the fields of an item that hold its colours

Edge = tuple[tuple, tuple[Color | None, ...]]  # the items drawn at a face's edges, without their colours; the colours


def bounds(item: Primitive) -> tuple[float, float, float, float]:
    """The box an item paints, mm (left, top, right, bottom): generous for text (its advance
    across, the size up and a third of it down)."""
    half = getattr(item, "width", 0.0) / 2 if getattr(item, "stroke", None) else 0.0
    if isinstance(item, Rect):
        return item.x - half, item.y - half, item.x + item.w + half, item.y + item.h + half
    if isinstance(item, Ellipse):
        return item.cx - item.rx - half, item.cy - item.ry - half, item.cx + item.rx + half, item.cy + item.ry + half
    if isinstance(item, Poly):
        xs, ys = [p[0] for p in item.points], [p[1] for p in item.points]
        return min(xs) - half, min(ys) - half, max(xs) + half, max(ys) + half
    if isinstance(item, Text):
        w, h = fonts.width(item.text, item.font, item.size), item.size * 25.4 / 72
        if item.turned:
            return item.x - w, item.y - h / 3, item.x, item.y + h
        return item.x, item.y - h, item.x + w, item.y + h / 3
    if isinstance(item, Image):
        return item.x, item.y, item.x + item.w, item.y + item.h
    if isinstance(item, Path):  # a curve stays within its control points: every number pair of a segment
        xs = [v for subpath in item.subpaths for segment in subpath for v in segment[0::2]]
        ys = [v for subpath in item.subpaths for segment in subpath for v in segment[1::2]]
        box = min(xs) - half, min(ys) - half, max(xs) + half, max(ys) + half
        if item.clip is None:
            return box
        x, y, w, h = item.clip
        return max(box[0], x), max(box[1], y), min(box[2], x + w), min(box[3], y + h)
    raise TypeError(f"no bounds for {item!r}")


def edge(drawing: Drawing) -> Edge:
    """What the face draws within BAND inside its trim, or beyond it."""
    band = BAND
    shapes, colours = [], []
    for item in drawing.items:
        left, top, right, bottom = bounds(item)
        if left >= band and top >= band and right <= drawing.width - band and bottom <= drawing.height - band:
            continue
        fields = {f.name: getattr(item, f.name) for f in dataclasses.fields(item)}  # not asdict: no deep copies
        colours += [fields.pop(name) for name in COLOURS if name in fields]
        shapes.append((type(item).__name__, tuple(sorted(fields.items()))))
    return tuple(shapes), tuple(colours)


def _lab(color: Color) -> tuple[float, float, float]:
    """sRGB to CIE L*a*b* (D65)."""
    def linear(v: float) -> float:
        v /= 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(v) for v in color)
    x, y, z = ((0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047, 0.2126 * r + 0.7152 * g + 0.0722 * b,
               (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883)

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def difference(a: Color, b: Color) -> float:
    """CIE76 delta E between two colours."""
    return math.dist(_lab(a), _lab(b))


def alike(a: Edge, b: Edge) -> bool:
    """Whether two faces' edges look alike: the same items, each colour within ALIKE."""
    if a[0] != b[0]:
        return False
    return all((x is None) == (y is None) and (x is None or y is None or difference(x, y) < ALIKE)
               for x, y in zip(a[1], b[1]))
