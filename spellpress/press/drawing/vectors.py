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
import os
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
    for path in paths:
        _scan(path, mask, k * s, left, top, width * s, height * s, steps)
    return mask.reduce(s)


def _scan(path: Path, mask: PILImage.Image, k: float, left: float, top: float, width: int, height: int,
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
    fill = mask.im.paste  # Pillow's own fill of a box, without ImageDraw's checks: a run costs a third of a line
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
                    fill(255, (c0, row, c1 + 1, row + 1))
            winding += turn


def stroke_mask(path: Path, k: float, left: float, top: float, width: int, height: int) -> PILImage.Image:
    """Coverage of the path's outline drawn `path.width` mm wide with round joins, as fill_mask
    gives a fill's: lines on a mask sampled SUPERSAMPLE x SUPERSAMPLE a pixel."""
    s = SUPERSAMPLE
    mask = PILImage.new("L", (width * s, height * s), 0)
    draw = ImageDraw.Draw(mask)
    segments = sum(len(sub) for sub in path.subpaths)
    steps = max(1, min(24, MAX_EDGES // max(1, segments)))
    line = max(1, round(path.width * k * s))
    for sub in path.subpaths:
        points = _flatten(sub, k * s, left, top, steps)
        if path.closed:
            points.append(points[0])
        draw.line(points, fill=255, width=line, joint="curve")
        r = line / 2
        for x, y in (points[0], points[-1]):  # round ends, as the PDF draws them
            draw.ellipse([x - r, y - r, x + r, y + r], fill=255)
    return mask.reduce(s)


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


MAX_SVG_SEGMENTS = 200_000  # lines and curves of a designer's SVG picture, all its shapes together
_KAPPA = 0.5522847498  # a quarter circle's control points, as a share of its radius


def svg_art(path: str, x: float, y: float, w: float, h: float, fit: str, focus: tuple[float, float]) -> list[Path]:
    """A designer's SVG picture (checked by core/svgcheck.py) as outlines placed in the box
    (x, y, w, h) as its fit and focus say (art.place, as for a picture), cut to the box."""
    from . import art

    width, height, shapes = svg_shapes(path)
    ox, oy, dw, dh = art.place(width, height, w, h, fit, focus)
    k = dw / width
    clip = (x, y, w, h)

    def moved(sub: tuple[Segment, ...]) -> tuple[Segment, ...]:
        return tuple(tuple(x + ox + v * k if i % 2 == 0 else y + oy + v * k for i, v in enumerate(seg)) for seg in sub)

    return [Path(tuple(moved(sub) for sub in subs), fill, evenodd, stroke, line * k, closed, clip)
            for subs, fill, evenodd, stroke, line, closed in shapes]


Shape = tuple[tuple[tuple[Segment, ...], ...], Color | None, bool, Color | None, float, bool]


@functools.lru_cache(maxsize=64)
def _svg_cached(path: str, mtime_ns: int, size: int) -> tuple[float, float, tuple[Shape, ...]]:
    from reportlab.graphics import shapes as rl
    from svglib.svglib import svg2rlg

    with open(path, "rb") as file:
        raw = file.read()
    logging.getLogger("svglib.svglib").setLevel(logging.CRITICAL)
    drawing = svg2rlg(io.BytesIO(raw))  # from bytes: svglib resolves no other file (core/svgcheck.py refused links)
    if drawing is None:
        raise BadOutline("svglib could not read it")
    out: list[Shape] = []
    count = 0
    height = float(drawing.height)

    def point(m, px: float, py: float) -> tuple[float, float]:
        return m[0] * px + m[2] * py + m[4], height - (m[1] * px + m[3] * py + m[5])

    def color(c) -> Color | None:
        if c is None:
            return None
        alpha = float(getattr(c, "alpha", 1.0) or 0.0)
        if alpha <= 0:
            return None
        return tuple(round((v * alpha + (1 - alpha)) * 255) for v in (c.red, c.green, c.blue))  # type: ignore[return-value]

    def add(subs: list[list[Segment]], closed: list[bool], node, m) -> None:
        nonlocal count
        count += sum(len(s) for s in subs)
        if count > MAX_SVG_SEGMENTS:
            raise BadOutline(f"it has more than {MAX_SVG_SEGMENTS:,} lines and curves: simplify it, or save it as PNG")
        placed = [tuple(_moved(seg, m, point) for seg in sub) for sub in subs]
        fill, stroke = color(getattr(node, "fillColor", None)), color(getattr(node, "strokeColor", None))
        evenodd = getattr(node, "fillMode", 1) == 0  # reportlab's FILL_EVEN_ODD
        scale = abs(m[0] * m[3] - m[1] * m[2]) ** 0.5
        line = float(getattr(node, "strokeWidth", 0) or 0) * scale
        shut = [s for s, c in zip(placed, closed) if c]
        open_ = [s for s, c in zip(placed, closed) if not c]
        if fill is not None and placed:  # SVG fills an open subpath as though closed
            out.append((tuple(placed), fill, evenodd, None, 0.0, True))
        if stroke is not None and line > 0:
            if shut:
                out.append((tuple(shut), None, evenodd, stroke, line, True))
            if open_:
                out.append((tuple(open_), None, evenodd, stroke, line, False))

    def walk(node, m) -> None:
        if isinstance(node, rl.Group):
            t = getattr(node, "transform", (1, 0, 0, 1, 0, 0))
            inner = _times(m, t)
            for child in node.contents:
                walk(child, inner)
        elif isinstance(node, rl.Path):
            subs, closed = _rl_subpaths(node)
            add(subs, closed, node, m)
        elif isinstance(node, rl.Rect):
            x0, y0, w0, h0 = float(node.x), float(node.y), float(node.width), float(node.height)
            add([[(x0, y0), (x0 + w0, y0), (x0 + w0, y0 + h0), (x0, y0 + h0)]], [True], node, m)
        elif isinstance(node, (rl.Circle, rl.Ellipse)):
            rx = float(node.r) if isinstance(node, rl.Circle) else float(node.rx)
            ry = float(node.r) if isinstance(node, rl.Circle) else float(node.ry)
            add([_ellipse(float(node.cx), float(node.cy), rx, ry)], [True], node, m)
        elif isinstance(node, (rl.Polygon, rl.PolyLine)):
            pts = [float(v) for v in node.points]
            pairs: list[Segment] = [(pts[i], pts[i + 1]) for i in range(0, len(pts) - 1, 2)]
            if len(pairs) >= 2:
                add([pairs], [isinstance(node, rl.Polygon)], node, m)
        elif isinstance(node, rl.Line):
            add([[(float(node.x1), float(node.y1)), (float(node.x2), float(node.y2))]], [False], node, m)

    walk(drawing, (1, 0, 0, 1, 0, 0))
    return float(drawing.width), height, tuple(out)


def svg_shapes(path: str) -> tuple[float, float, tuple[Shape, ...]]:
    """The SVG's size and its shapes (subpaths, fill, even-odd, stroke, stroke width, closed) in
    its own units, y down; read once per version of the file."""
    st = os.stat(path)
    return _svg_cached(path, st.st_mtime_ns, st.st_size)


def _times(a, b) -> tuple[float, ...]:
    """The affine transform b, then a (each as reportlab and SVG write them: a, b, c, d, e, f)."""
    return (a[0] * b[0] + a[2] * b[1], a[1] * b[0] + a[3] * b[1], a[0] * b[2] + a[2] * b[3], a[1] * b[2] + a[3] * b[3],
            a[0] * b[4] + a[2] * b[5] + a[4], a[1] * b[4] + a[3] * b[5] + a[5])


def _moved(seg: Segment, m, point) -> Segment:
    out: list[float] = []
    for i in range(0, len(seg), 2):
        out += point(m, seg[i], seg[i + 1])
    return tuple(out)


def _rl_subpaths(shape) -> tuple[list[list[Segment]], list[bool]]:
    """A reportlab path's subpaths, and whether each is closed."""
    subs: list[list[Segment]] = []
    closed: list[bool] = []
    points, at = shape.points, 0
    current: list[Segment] | None = None
    start: Segment = (0.0, 0.0)
    for op in shape.operators:
        if op == 3:
            if current is not None:
                closed[-1] = True
            current = None
            continue
        n = 6 if op == 2 else 2
        seg = tuple(float(v) for v in points[at:at + n])
        at += n
        if op == 0 or current is None:
            current = [seg if op == 0 else start]
            start = current[0]
            subs.append(current)
            closed.append(False)
            if op == 0:
                continue
        current.append(seg)
    keep = [i for i, sub in enumerate(subs) if len(sub) > 1]
    return [subs[i] for i in keep], [closed[i] for i in keep]


def _ellipse(cx: float, cy: float, rx: float, ry: float) -> list[Segment]:
    kx, ky = rx * _KAPPA, ry * _KAPPA
    return [(cx + rx, cy), (cx + rx, cy + ky, cx + kx, cy + ry, cx, cy + ry), (cx - kx, cy + ry, cx - rx, cy + ky, cx - rx, cy),
            (cx - rx, cy - ky, cx - kx, cy - ry, cx, cy - ry), (cx + kx, cy - ry, cx + rx, cy - ky, cx + rx, cy)]
