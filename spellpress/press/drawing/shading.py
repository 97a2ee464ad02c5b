"""A gradient as flat shapes: a box shaded from one colour at its top to another at its bottom.

Both backends draw it alike because it is made of the primitives they already draw: horizontal
slices of the box (a rounded box's slices cut to its corners), each filled with one colour, one
slice per LEVELS steps of 8-bit colour between the two ends (a step of two levels does not show
in a subtle gradient) and never thinner than MIN_SLICE. Each slice reaches a hair into the next,
drawn over it, so that no seam of paper shows between two in a viewer that smooths the edges of
shapes. No PDF shading is used: a shading is a resource of its document, and a face's drawing
must name none to be kept and reused (pdf.cacheable).
"""

from __future__ import annotations

import math

from .displaylist import Color, Poly, Primitive, Rect

MIN_SLICE = 0.5  # mm: the thinnest slice
MAX_SLICES = 48
LEVELS = 2  # 8-bit steps of colour a slice
OVERLAP = 0.06  # mm that each slice reaches into the one below it
CORNER_STEPS = 8  # straight pieces to a rounded corner's quarter circle


def mix(a: Color, b: Color, t: float) -> Color:
    red, green, blue = (round(x + (y - x) * t) for x, y in zip(a, b))
    return red, green, blue


def rounded(x: float, y: float, w: float, h: float, radius: float) -> list[tuple[float, float]]:
    """The outline of a box with rounded corners, clockwise from its top left (y down)."""
    r = max(0.0, min(radius, w / 2, h / 2))
    if r == 0:
        return [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
    points: list[tuple[float, float]] = []
    corners = ((x + w - r, y + r, -90), (x + w - r, y + h - r, 0), (x + r, y + h - r, 90), (x + r, y + r, 180))
    for cx, cy, start in corners:
        for k in range(CORNER_STEPS + 1):
            a = math.radians(start + 90 * k / CORNER_STEPS)
            points.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return points


def _slab(poly: list[tuple[float, float]], top: float, bottom: float) -> list[tuple[float, float]]:
    """The polygon cut to top <= y <= bottom (Sutherland-Hodgman, two edges)."""
    for keep_below, bound in ((True, top), (False, bottom)):
        out: list[tuple[float, float]] = []
        for i, cur in enumerate(poly):
            prev = poly[i - 1]
            cur_in = cur[1] >= bound if keep_below else cur[1] <= bound
            prev_in = prev[1] >= bound if keep_below else prev[1] <= bound
            if cur_in != prev_in:
                t = (bound - prev[1]) / (cur[1] - prev[1])
                out.append((prev[0] + (cur[0] - prev[0]) * t, bound))
            if cur_in:
                out.append(cur)
        poly = out
        if not poly:
            break
    return poly


def slices(steps: int, h: float) -> int:
    """How many slices a gradient of `steps` levels of colour takes over a height of h mm."""
    return max(1, min(MAX_SLICES, math.ceil(steps / LEVELS), int(h / MIN_SLICE)))


def gradient(x: float, y: float, w: float, h: float, radius: float, top: Color, bottom: Color,
             stroke: Color | None = None, width: float = 0.0) -> list[Primitive]:
    """The box filled from `top` (its upper edge) to `bottom` (its lower edge), then its edge
    stroked, if it has one, as a Rect would stroke it."""
    steps = max(abs(a - b) for a, b in zip(top, bottom))
    n = slices(steps, h)
    if n == 1:
        return [Rect(x, y, w, h, top, stroke, width, radius)]
    outline = rounded(x, y, w, h, radius)
    out: list[Primitive] = []
    for i in range(n):
        upper, lower = y + h * i / n, y + h * (i + 1) / n + (OVERLAP if i < n - 1 else 0.0)
        piece = _slab(outline, upper, min(lower, y + h))
        if len(piece) >= 3:
            out.append(Poly(tuple(piece), fill=mix(top, bottom, (i + 0.5) / n)))
    if stroke is not None and width > 0:
        out.append(Rect(x, y, w, h, None, stroke, width, radius))
    return out
