"""Every front and back of every game, measured on its display list (GUIDE section 2, tolerances).

- backs: no edge parallel to the trim within 6 mm of it (inside or outside), so that 2 mm of
  duplex drift and 1 mm of cutting error cannot be seen; fronts: none within 3 mm;
- no text below 7 pt on a front, and no text or rule icon outside the safe zone;
- every card of a deck held in a hand has a corner index, top left and turned at bottom right,
  that shows its value or element;
- the generated art's emblem comes from the card's data, never from a hash of its id.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from spellpress.press import fonts
from spellpress.press.displaylist import Drawing, Ellipse, Image, Rect, Text
from spellpress.press.options import Options
from spellpress.press.plan import plan

ROOT = Path(__file__).resolve().parent.parent
BACK_MARGIN, FRONT_MARGIN = 6.0, 3.0  # GUIDE: no edge parallel to the trim within this of it
MIN_PT = 7.0
PARALLEL = math.radians(8)  # a segment this close to a trim's direction counts as parallel to it
SHORT = 0.8  # mm: a segment shorter than this is a corner of a curve, not an edge


@pytest.fixture(scope="module")
def plans():
    options = Options(cards=ROOT / "cards", templates=ROOT / "templates", kinds=("png",), progress=False)
    found, _ = plan(options)
    return {p.game.slug: p for p in found}


def faces(plans, side: str):
    """(slug, key, drawing) for every distinct front or back."""
    out = []
    for slug, p in plans.items():
        if side == "front":
            out += [(slug, key, face.drawing) for key, face in p.fronts.items()]
        else:
            out += [(slug, f"back-{deck}", face.drawing) for deck, face in p.deck_backs.items()]
    return out


def own_backs(plans):
    """A card's own back (a wizard's powered-up side) is read like a front, and measured like one."""
    return [(slug, face.key, face.drawing) for slug, p in plans.items() for face in p.backs.values()
            if face.key.endswith("-back")]


def edges(item) -> list[tuple[str, float, float, float]]:
    """The straight edges of a primitive that run parallel to the trim: ('x', at, from, to) for
    a vertical edge at x = at, ('y', ...) for a horizontal one. A stroke counts on both sides."""
    if isinstance(item, Text):
        return []
    half = item.width / 2 if getattr(item, "stroke", None) else 0.0
    if isinstance(item, (Rect, Image)):
        r = getattr(item, "radius", 0.0)
        x0, y0, x1, y1 = item.x, item.y, item.x + item.w, item.y + item.h
        if not getattr(item, "fill", True) and not getattr(item, "stroke", None):
            return []
        out = []
        for at in (x0, x1):
            out += [("x", at - half, y0 + r, y1 - r), ("x", at + half, y0 + r, y1 - r)]
        for at in (y0, y1):
            out += [("y", at - half, x0 + r, x1 - r), ("y", at + half, x0 + r, x1 - r)]
        return out
    if isinstance(item, Ellipse):
        # a curve has no straight edge, but its flat extreme reads as one when it grazes the trim
        x0, x1, y0, y1 = item.cx - item.rx - half, item.cx + item.rx + half, item.cy - item.ry - half, item.cy + item.ry + half
        return [("x", x0, item.cy, item.cy), ("x", x1, item.cy, item.cy), ("y", y0, item.cx, item.cx), ("y", y1, item.cx, item.cx)]
    pts = list(item.points) + ([item.points[0]] if item.closed else [])
    out = []
    for (ax, ay), (bx, by) in zip(pts, pts[1:]):
        length = math.hypot(bx - ax, by - ay)
        if length < SHORT:
            continue
        angle = math.atan2(abs(by - ay), abs(bx - ax))
        if angle < PARALLEL:
            for d in (-half, half):
                out.append(("y", (ay + by) / 2 + d, min(ax, bx), max(ax, bx)))
        elif angle > math.pi / 2 - PARALLEL:
            for d in (-half, half):
                out.append(("x", (ax + bx) / 2 + d, min(ay, by), max(ay, by)))
    return out


def near_trim(drawing: Drawing, margin: float) -> list[str]:
    """Edges within `margin` of a trim line, on either side; the bleed's own outer edge (cut
    away) is allowed, and so is anything wholly in the bleed beyond the margin."""
    bad = []
    w, h, b, eps = drawing.width, drawing.height, drawing.bleed, 1e-6
    for item in drawing.items:
        for axis, at, lo, hi in edges(item):
            size, across = (w, h) if axis == "x" else (h, w)
            if abs(at + b) < eps or abs(at - size - b) < eps:
                continue  # the outer edge of the bleed
            if hi < -b + eps or lo > across + b - eps:
                continue  # beyond the bleed: never printed
            for trim in (0.0, size):
                if abs(at - trim) < margin - eps:
                    bad.append(f"{type(item).__name__} edge at {axis}={at:.2f} mm, {abs(at - trim):.2f} mm from the trim")
    return bad


def test_backs_show_no_edge_within_6_mm_of_the_trim(plans):
    failures = [f"{slug}/{key}: {bad[0]}" for slug, key, d in faces(plans, "back") if (bad := near_trim(d, BACK_MARGIN))]
    assert not failures, "\n".join(failures)


def test_fronts_keep_their_frames_3_mm_inside_the_trim(plans):
    drawn = faces(plans, "front") + own_backs(plans)
    failures = [f"{slug}/{key}: {bad[0]}" for slug, key, d in drawn if (bad := near_trim(d, FRONT_MARGIN))]
    assert not failures, "\n".join(failures)


def test_the_measure_sees_a_framed_back():
    framed = Drawing(63.5, 88.9, 3.175, (Rect(-3.175, -3.175, 69.85, 95.25, fill=(0, 0, 0)),
                                         Rect(4, 4, 55.5, 80.9, radius=3, fill=(9, 9, 9))))
    assert near_trim(framed, BACK_MARGIN)
    assert not near_trim(Drawing(63.5, 88.9, 3.175, framed.items[:1]), BACK_MARGIN)


def text_box(t: Text) -> tuple[float, float, float, float]:
    """The ink box of a text (x0, y0, x1, y1), turned half round its anchor when it is turned."""
    w = fonts.width(t.text, t.font, t.size)
    up, down = fonts.ascent(t.font) * t.size * 25.4 / 72, 0.25 * t.size * 25.4 / 72
    if getattr(t, "turned", False):
        return t.x - w, t.y - down, t.x, t.y + up
    return t.x, t.y - up, t.x + w, t.y + down


def test_no_text_on_a_front_is_smaller_than_7_pt(plans):
    drawn = faces(plans, "front") + own_backs(plans)
    small = [f"{slug}/{key}: '{t.text}' at {t.size:g} pt" for slug, key, d in drawn for t in d.items
             if isinstance(t, Text) and t.size < MIN_PT - 1e-6]
    assert not small, "\n".join(small[:40]) + f"\n({len(small)} in all)"


def test_text_stays_in_the_safe_zone(plans):
    outside = []
    for slug, key, d in faces(plans, "front") + faces(plans, "back") + own_backs(plans):
        s = 3.175
        for t in d.items:
            if isinstance(t, Text):
                x0, y0, x1, y1 = text_box(t)
                if x0 < s - 0.05 or y0 < s - 0.05 or x1 > d.width - s + 0.05 or y1 > d.height - s + 0.05:
                    outside.append(f"{slug}/{key}: '{t.text}' at ({x0:.1f}, {y0:.1f})-({x1:.1f}, {y1:.1f})")
    assert not outside, "\n".join(outside[:40])
