"""Vector outlines: a game icon's path data read into display-list paths, and a path filled
as pixels for the raster backend.

Path data is read by svglib (the SVG reader made to draw into reportlab): every command of SVG's
path syntax, relative and absolute, with arcs and quadratic curves turned into cubic ones, as
reportlab draws them. Only path data we checked reaches it (core/gameicons.py), inside a
document made here, so no file or link is ever opened. What it gives is kept as subpaths of lines
and cubic curves, which the PDF draws as they are (vectors) and raster.py fills through
`fill_mask` below, so both backends draw one outline.
"""

from __future__ import annotations

import functools
import io
import logging
import math
from xml.sax.saxutils import quoteattr

from PIL import Image as PILImage
from PIL import ImageDraw
from reportlab.graphics.shapes import Group
from reportlab.graphics.shapes import Path as RLPath

from ...core.gameicons import Icon
from .displaylist import Color, Path, Segment

Outline = tuple[tuple[tuple[Segment, ...], ...], bool]  # subpaths in the unit square, and whether even-odd
SUPERSAMPLE = 4  # samples a pixel across and down, for edges as smooth as a PDF viewer's
MAX_EDGES = 8_000  # straight edges a path is flattened into for pixels, whatever its curves (the library's busiest
# icon needs about 6,000): a stranger's icon at its worst, every edge across its whole height, costs a second or two at 300 dpi
BUSY = 4_000  # edges past which a path is sampled 2 x 2 a pixel, not SUPERSAMPLE x SUPERSAMPLE
REACH = 4.0  # a point may lie this many times the icon's size away from its box; further is refused


class BadOutline(ValueError):
    """Path data that cannot be drawn: the message says why."""


def icon(ic: Icon, x: float, y: float, size: float, fill: Color) -> list[Path]:
    """The icon's paths in the square (x, y, size), filled with `fill`."""
    return [place(outline, x, y, size, fill) for outline in outlines(ic)]


def outlines(ic: Icon) -> tuple[Outline, ...]:
    """The icon's paths in the unit square (its box scaled to fit, centred), read once."""
    return _outlines(ic.paths, ic.width, ic.height)


@functools.lru_cache(maxsize=2048)
def _outlines(paths: tuple[tuple[str, bool], ...], width: float, height: float) -> tuple[Outline, ...]:
    scale = 1 / max(width, height)
    dx, dy = (1 - width * scale) / 2, (1 - height * scale) / 2
    out = []
    for d, evenodd in paths:
        subpaths = []
        for sub in _read(d, width, height):
            subpaths.append(tuple(tuple(v * scale + (dx if i % 2 == 0 else dy) for i, v in enumerate(seg)) for seg in sub))
        out.append((tuple(subpaths), evenodd))
    return tuple(out)


def place(outline: Outline, x: float, y: float, size: float, fill: Color) -> Path:
    subpaths, evenodd = outline
    return Path(tuple(tuple(tuple(v * size + (x if i % 2 == 0 else y) for i, v in enumerate(seg)) for seg in sub)
                      for sub in subpaths), fill, evenodd)


def _read(d: str, width: float, height: float) -> list[tuple[Segment, ...]]:
    """Path data as subpaths: each a start point, then (x, y) lines and (x1, y1, x2, y2, x, y)
    curves, in the icon's own units; BadOutline for a point far out of its box."""
    from svglib.svglib import svg2rlg  # svglib reads lxml and tinycss2 on import: only where an icon is drawn

    document = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:g} {height:g}" width="{width:g}" '
                f'height="{height:g}"><path d={quoteattr(d)}/></svg>')
    logging.getLogger("svglib.svglib").setLevel(logging.ERROR)  # its debug notes are no problem of the card's
    drawing = svg2rlg(io.BytesIO(document.encode()))
    shapes: list[RLPath] = []

    def walk(node) -> None:
        if isinstance(node, Group):
            for child in node.contents:
                walk(child)
        elif isinstance(node, RLPath) and node.fillColor is not None:
            shapes.append(node)

    if drawing is not None:
        walk(drawing)
    limit = REACH * max(width, height)
    out: list[list[Segment]] = []
    for shape in shapes:
        points, at = shape.points, 0
        current: list[Segment] | None = None
        start: Segment = (0.0, 0.0)
        for op in shape.operators:  # reportlab's: 0 moveTo, 1 lineTo, 2 curveTo, 3 closePath
            if op == 3:
                current = None
                continue
            n = 6 if op == 2 else 2
            seg = tuple(float(v) for v in points[at:at + n])
            at += n
            if any(not math.isfinite(v) or abs(v) > limit for v in seg):
                raise BadOutline(f"a point of its path lies far outside its {width:g} x {height:g} box")
            if op == 0:
                current = [seg]
                start = seg
                out.append(current)
                continue
            if current is None:  # a segment after a close starts a new subpath where the last one began
                current = [start]
                out.append(current)
            current.append(seg)
    return [tuple(sub) for sub in out if len(sub) > 1]


def fill_mask(paths: list[Path], k: float, left: float, top: float, width: int, height: int) -> PILImage.Image:
    """Coverage of `paths` (millimetres; `k` pixels a millimetre, the pixel grid's top left at
    millimetre (left, top)) on a `width` x `height` grey mask, 255 inside. Each path is filled
    by its own rule (nonzero, as SVG's default, or even-odd); a pixel is sampled
    SUPERSAMPLE x SUPERSAMPLE times, so edges come out anti-aliased."""
    segments = sum(len(sub) for path in paths for sub in path.subpaths)
    steps = max(1, min(24, MAX_EDGES // max(1, segments)))  # a curve's most pieces, bounded for a huge path
    s = 2 if segments * steps > BUSY else SUPERSAMPLE
    mask = PILImage.new("L", (width * s, height * s), 0)
    draw = ImageDraw.Draw(mask)
    for path in paths:
        _scan(path, draw, k * s, left, top, width * s, height * s, steps)
    return mask.reduce(s)


def _scan(path: Path, draw: ImageDraw.ImageDraw, k: float, left: float, top: float, width: int, height: int,
          steps: int) -> None:
    """One path's inside, by its rule, drawn as a run of pixels on each row it crosses: the rows'
    centres cross its edges, sorted, and the winding number (or its parity) between them says
    inside. Pixels whose centres lie inside are set. A curve is cut into at most `steps` lines."""
    edges = []
    for sub in path.subpaths:
        points = _flatten(sub, k, left, top, steps)
        for (xa, ya), (xb, yb) in zip(points, points[1:] + points[:1]):
            if ya == yb:
                continue
            winding = 1 if yb > ya else -1
            if ya > yb:
                xa, ya, xb, yb = xb, yb, xa, ya
            edges.append((ya, yb, xa, (xb - xa) / (yb - ya), winding))
    edges.sort()
    active: list[tuple[float, float, float, float, int]] = []
    taken = 0
    first = max(0, math.floor(edges[0][0] - 0.5)) if edges else height
    for row in range(first, height):
        y = row + 0.5
        while taken < len(edges) and edges[taken][0] <= y:
            active.append(edges[taken])
            taken += 1
        active = [e for e in active if e[1] > y]
        if not active:
            if taken == len(edges):
                break
            continue
        crossings = sorted((e[2] + (y - e[0]) * e[3], e[4]) for e in active)
        winding = 0
        for i, (x, turn) in enumerate(crossings):
            if i and (winding % 2 if path.evenodd else winding):
                c0, c1 = max(0, math.ceil(crossings[i - 1][0] - 0.5)), min(width - 1, math.ceil(x - 0.5) - 1)
                if c1 >= c0:
                    draw.line([(c0, row), (c1, row)], fill=255)
            winding += turn


def _flatten(sub: tuple[Segment, ...], k: float, left: float, top: float, steps: int) -> list[tuple[float, float]]:
    """A subpath as points in pixels, each curve cut into pieces about a third of a pixel off it at most."""
    points = [((sub[0][0] - left) * k, (sub[0][1] - top) * k)]
    for seg in sub[1:]:
        if len(seg) == 2:
            points.append(((seg[0] - left) * k, (seg[1] - top) * k))
            continue
        px, py = points[-1]
        x1, y1, x2, y2, x3, y3 = ((v - (left if i % 2 == 0 else top)) * k for i, v in enumerate(seg))
        reach = math.hypot(x1 - px, y1 - py) + math.hypot(x2 - x1, y2 - y1) + math.hypot(x3 - x2, y3 - y2)
        n = max(1, min(steps, math.ceil(math.sqrt(reach * 2))))
        for j in range(1, n + 1):
            t = j / n
            u = 1 - t
            a, b, c, e = u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t
            points.append((a * px + b * x1 + c * x2 + e * x3, a * py + b * y1 + c * y2 + e * y3))
    return points
