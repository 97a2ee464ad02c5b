"""Playmats: a game's table laid out at full size, and tiled over home-printer pages.

The layout is `templates/playmat/<slug>.yaml`; what goes on it comes from the game: a zone for
every deck (and its discard pile) named and counted from the decks, tracks as long as the
constants say, icons and labels. The mat is 24 x 14 in (610 x 356 mm), the size of the
common neoprene play mat: it fits a card table, and print shops sell mats of that size.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import pydantic
from reportlab.pdfgen.canvas import Canvas

from ...core import ruletext
from ...core.models import Game
from ...core.problems import Problem, ValidationFailed, did_you_mean, display_path
from ...core.schema import Color, FrozenMap, Model, Text, validate
from ...core.yamlsource import Document, read
from . import fonts, matlayout
from .displaylist import Drawing, Ellipse, Primitive, Rect
from .displaylist import Text as TextItem
from .icons import IconSet
from .layout import grey, hex_color, mix
from .papers import PAPERS
from .pdf import MM, draw, new_canvas, prepare
from .sheets import UNPRINTABLE
from .templates import INK_MODES, Ink, InkSpec, ink_style

CARD = (63.5, 88.9)
BLEED = 25.4 / 8  # the full-size mat's bleed on each side, mm (GUIDE section 2)
FRAME = 6.0  # the mat's inner frame, mm inside the trim: nothing is laid out beyond it
# The edges the seats go to, in the order a table fills them: the long sides first, one seat
# each, then the short sides, then a second seat on each long side.
EDGES = ("bottom", "top", "left", "right", "bottom", "top")


class Zone(Model):
    kind: Literal["deck", "track", "area", "icon", "label", "levels"]
    x: float
    y: float
    w: float | None = None
    h: float | None = None
    # deck: its id (a seat's zone may list one per seat); the discard pile goes beside it
    # unless discard: false; a token deck's zone is the pile of its pieces
    deck: Text | tuple[Text, ...] | None = None
    discard: bool = True
    label: str | None = None  # '{title}' in a label stands for the game's title
    start: int | Text | None = None  # track: from, to (numbers or constants' names)
    stop: int | Text | None = None
    per_row: pydantic.PositiveInt = 25
    covered_by: Text | None = None  # track: the token deck laid on it; a cell fits one of its pieces
    tens: bool = False  # track: a row of tens and a row of ones, a marker on each (for long counts)
    icon: Text | None = None
    size: pydantic.PositiveFloat = 14.0  # label: points; icon: mm
    fill: Text = "zone"


class SeatSpec(Model):
    """One player's part of the table, drawn once per seat of the game's largest table, each
    turned to face its player. Zones are in mm from the seat's far left corner as its player
    sees it; the player sits beyond its bottom edge, `inset` mm from the mat's edge."""

    w: pydantic.PositiveFloat
    h: pydantic.PositiveFloat
    inset: pydantic.NonNegativeFloat = 8.0
    zones: tuple[Zone, ...]


class TitleSpec(Model):
    x: float | None = None  # the right end of the title; the mat's right frame if left out
    y: float = 16.0
    size: pydantic.PositiveFloat = 22.0


class MatSpec(Model):
    size: tuple[pydantic.PositiveFloat, pydantic.PositiveFloat] = (609.6, 355.6)
    palette: FrozenMap[Text, Color]
    zones: tuple[Zone, ...] = ()
    seat: SeatSpec | None = None
    title: TitleSpec | None = TitleSpec()  # null: no title of its own (a seat's label may show it)
    off_mat: tuple[Text, ...] = ()  # decks that stay in the players' hands (quick references)
    # the mat in the ink modes (spellpress build --ink): as a card layout's (templates.InkSpec)
    inks: FrozenMap[Literal[INK_MODES], InkSpec] = pydantic.Field(default_factory=dict)  # type: ignore[valid-type]


@dataclass(frozen=True)
class Seat:
    """A seat's drawing (in its own mm, y growing towards its player) and where it lies: its
    origin on the mat and the mat directions of its x and y axes."""

    drawing: Drawing
    origin: tuple[float, float]
    u: tuple[int, int]
    v: tuple[int, int]

    def to_mat(self, x: float, y: float) -> tuple[float, float]:
        return (self.origin[0] + x * self.u[0] + y * self.v[0], self.origin[1] + x * self.u[1] + y * self.v[1])

    @property
    def box(self) -> tuple[float, float, float, float]:
        """(left, top, right, bottom) on the mat."""
        corners = [self.to_mat(x, y) for x in (0, self.drawing.width) for y in (0, self.drawing.height)]
        xs, ys = [c[0] for c in corners], [c[1] for c in corners]
        return min(xs), min(ys), max(xs), max(ys)


@dataclass(frozen=True)
class Mat:
    title: str
    drawing: Drawing  # the mat's own zones, with its bleed
    seats: tuple[Seat, ...] = ()
    note: str = ""  # a warning for the build to print: the layout was made for the game, not read


def load(game: Game, templates: Path, icons: IconSet, ink: str = "full") -> Mat:
    """The game's playmat, laid out in that ink; raises ValidationFailed with what is wrong."""
    path = templates / "playmat" / f"{game.slug}.yaml"
    note = ""
    if path.is_file():
        doc, problems = read(path)
        if doc is None:
            raise ValidationFailed(problems)
    else:  # laid out from the decks and counters, and said so
        try:
            doc = Document(path, matlayout.generated(game))
        except ValueError as exc:
            raise ValidationFailed([Problem(display_path(path), 0, 0, "", str(exc))]) from None
        note = (f"{game.slug}: no playmat layout {display_path(path)}: the mat is laid out from the decks and "
                "counters (write that file to lay it out yourself)")
    spec, problems = validate(MatSpec, doc.data, doc)
    if spec is None:
        raise ValidationFailed(problems)
    problems += _check_decks(game, spec, doc)
    if problems:
        raise ValidationFailed(problems)
    painter = _Painter(game, spec, icons, ink)
    w, h = spec.size
    try:
        zones = [painter.zone(zone) for zone in spec.zones]
    except ValueError as exc:
        raise ValidationFailed([doc.problem(("zones",), str(exc))]) from None
    try:
        seats = _seats(game, spec, painter)
    except ValueError as exc:
        raise ValidationFailed([doc.problem(("seat",), str(exc))]) from None
    problems += _check_room(spec, zones, seats, doc)
    if problems:
        raise ValidationFailed(problems)
    background = [Rect(-BLEED, -BLEED, w + 2 * BLEED, h + 2 * BLEED, fill=painter.color("field")),
                  Rect(FRAME, FRAME, w - 2 * FRAME, h - 2 * FRAME, stroke=painter.color("accent"), width=0.8, radius=8)]
    title = []
    if spec.title is not None:
        t = spec.title
        title = painter.label(game.title, w - FRAME - 8 if t.x is None else t.x, t.y, t.size, "right", "bold")
    items = tuple(background + title + [item for zone in zones for item in zone])
    return Mat(game.title, Drawing(w, h, BLEED, items), seats, note)


def _decks_of(zone: Zone) -> tuple[str, ...]:
    if zone.kind != "deck" or zone.deck is None:
        return ()
    return (zone.deck,) if isinstance(zone.deck, str) else zone.deck


def _check_decks(game: Game, spec: MatSpec, doc) -> list[Problem]:
    """Every deck named exists, and every deck has a place on the mat or is kept off it."""
    problems = []
    groups = [(("zones",), spec.zones)] + ([(("seat", "zones"), spec.seat.zones)] if spec.seat else [])
    placed: set[str] = set()
    for where, zones in groups:
        for i, zone in enumerate(zones):
            named = _decks_of(zone)
            placed.update(named)
            for j, deck in enumerate(named):
                loc = where + (i, "deck") + ((j,) if not isinstance(zone.deck, str) else ())
                if deck not in game.decks:
                    problems.append(doc.problem(loc, f"unknown deck '{deck}'{did_you_mean(deck, game.decks)}"))
            if zone.kind == "deck" and not named:
                problems.append(doc.problem(where + (i,), "a deck zone names its deck: deck: <a deck id of decks.yaml>"))
            if zone.covered_by is not None:
                covering = game.decks.get(zone.covered_by)
                if covering is None or covering.token is None:
                    tokens = [d.id for d in game.decks.values() if d.token]
                    problems.append(doc.problem(where + (i, "covered_by"), f"'{zone.covered_by}' is no token deck "
                                                f"(one with 'token:' in decks.yaml){did_you_mean(zone.covered_by, tokens)}"))
    for i, deck in enumerate(spec.off_mat):
        if deck not in game.decks:
            problems.append(doc.problem(("off_mat", i), f"unknown deck '{deck}'{did_you_mean(deck, game.decks)}"))
    for deck in game.decks:
        if deck not in placed and deck not in spec.off_mat:
            fix = f"add a zone {{kind: deck, deck: {deck}, x: .., y: ..}}, or list it under off_mat"
            problems.append(doc.problem(("zones",), f"deck '{deck}' has no place on the mat: {fix}"))
    return problems


def seat_edges(players: int) -> list[str]:
    """The edge each seat faces from, for a table of `players`."""
    if players > len(EDGES):
        raise ValueError(f"a mat seats at most {len(EDGES)} players around its edges; the game says up to {players}")
    return list(EDGES[:players])


def _seats(game: Game, spec: MatSpec, painter: _Painter) -> tuple[Seat, ...]:
    """One seat for each player of the game's largest table, spread along the edges, each
    turned so that its bottom edge is nearest its player."""
    if spec.seat is None:
        return ()
    seat, (w, h) = spec.seat, spec.size
    edges = seat_edges(game.players.max)
    seats = []
    for n, edge in enumerate(edges):
        k, i = edges.count(edge), edges[:n].count(edge)
        along = (i + 0.5) / k
        far = seat.inset + seat.h  # the seat's far edge, from the mat's edge
        if edge == "bottom":
            origin, u, v = (w * along - seat.w / 2, h - far), (1, 0), (0, 1)
        elif edge == "top":
            origin, u, v = (w * (1 - along) + seat.w / 2, far), (-1, 0), (0, -1)
        elif edge == "left":
            origin, u, v = (far, h * along - seat.w / 2), (0, 1), (-1, 0)
        else:
            origin, u, v = (w - far, h * (1 - along) + seat.w / 2), (0, -1), (1, 0)
        items = tuple(item for zone in seat.zones for item in painter.zone(zone, n))
        seats.append(Seat(Drawing(seat.w, seat.h, 0.0, items), origin, u, v))
    return tuple(seats)


def bounds(items) -> tuple[float, float, float, float] | None:
    """(left, top, right, bottom) of primitives, mm; a text's from its font's width and size."""
    xs: list[float] = []
    ys: list[float] = []
    for item in items:
        if isinstance(item, Rect):
            xs += [item.x, item.x + item.w]
            ys += [item.y, item.y + item.h]
        elif isinstance(item, Ellipse):
            xs += [item.cx - item.rx, item.cx + item.rx]
            ys += [item.cy - item.ry, item.cy + item.ry]
        elif isinstance(item, TextItem):
            xs += [item.x, item.x + fonts.width(item.text, item.font, item.size)]
            ys += [item.y - item.size * 0.75 * 25.4 / 72, item.y + item.size * 0.22 * 25.4 / 72]
        else:
            xs += [p[0] for p in item.points]
            ys += [p[1] for p in item.points]
    return (min(xs), min(ys), max(xs), max(ys)) if xs else None


def _meets(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _check_room(spec: MatSpec, zones: list[list[Primitive]], seats: tuple[Seat, ...], doc) -> list[Problem]:
    """Nothing reaches past the mat's frame, the seats do not overlap, no zone of the mat lies
    under a seat, and no two zones that hold cards or markers overlap (labels and icons may lie on them)."""
    w, h = spec.size
    inside = (FRAME, FRAME, w - FRAME, h - FRAME)
    problems = []

    def within(box) -> bool:
        return box[0] >= inside[0] - 1e-6 and box[1] >= inside[1] - 1e-6 and box[2] <= inside[2] + 1e-6 and box[3] <= inside[3] + 1e-6

    placed: list[tuple[int, tuple[float, float, float, float]]] = []  # the zones that hold cards or markers
    for i, items in enumerate(zones):
        box = bounds(items)
        if box is None:
            continue
        if spec.zones[i].kind in ("deck", "area", "track", "levels"):
            for j, other in placed:
                if _meets(box, other):
                    problems.append(doc.problem(("zones", i), f"the zone overlaps zone {j + 1} ({spec.zones[j].kind}"
                                                f"{' ' + repr(spec.zones[j].label) if spec.zones[j].label else ''}): "
                                                "one would be drawn under the other; move one of them"))
            placed.append((i, box))
        if not within(box):
            problems.append(doc.problem(("zones", i), f"the zone reaches past the mat's frame ({FRAME:g} mm inside its "
                                        f"{w:g} x {h:g} mm): it spans x {box[0]:.1f} to {box[2]:.1f}, y {box[1]:.1f} to {box[3]:.1f}"))
        for n, seat in enumerate(seats):
            if _meets(box, seat.box):
                x0, y0, x1, y1 = seat.box
                problems.append(doc.problem(("zones", i), f"the zone lies under seat {n + 1}'s part of the mat "
                                            f"(x {x0:.1f} to {x1:.1f}, y {y0:.1f} to {y1:.1f}): move it"))
    for n, seat in enumerate(seats):
        box = bounds(seat.drawing.items)
        if box is not None:
            corners = [seat.to_mat(x, y) for x in (box[0], box[2]) for y in (box[1], box[3])]
            box = (min(c[0] for c in corners), min(c[1] for c in corners), max(c[0] for c in corners), max(c[1] for c in corners))
        if box is not None and not within(box):
            problems.append(doc.problem(("seat",), f"seat {n + 1} of {len(seats)} reaches past the mat's frame: "
                                        f"its zones span x {box[0]:.1f} to {box[2]:.1f}, y {box[1]:.1f} to {box[3]:.1f}; "
                                        "make the seat smaller"))
        for m in range(n):
            if _meets(seat.box, seats[m].box):
                problems.append(doc.problem(("seat",), f"seats {m + 1} and {n + 1} of {len(seats)} overlap: make the seat "
                                            "smaller, or its inset larger"))
    return problems


class _Painter:
    def __init__(self, game: Game, spec: MatSpec, icons: IconSet, ink: str = "full"):
        self.game, self.spec, self.icons = game, spec, icons
        self.style = ink_style(dict(spec.palette), spec.inks[ink]) if ink in spec.inks else Ink(dict(spec.palette))

    def color(self, name: str):
        """A colour of the mat's palette in its ink; a filled area's made lighter as the ink says."""
        color = hex_color(name) if name.startswith("#") else hex_color(self.style.palette.get(name, "#888888"))
        share = dict(self.style.grounds).get(name, 0.0)
        color = mix(color, (255, 255, 255), share) if share else color
        return grey(color) if self.style.grey else color

    def constant(self, value) -> int:
        """A number, a constant's name, or a sum of them ('mana_per_turn + max_conversions')."""
        return ruletext.number(value, self.game.text_context)

    def label(self, text: str, x: float, y: float, size: float, align: str = "center", font: str = "bold",
              color: str = "ink") -> list[Primitive]:
        width = fonts.width(text, font, size)
        left = {"left": x, "center": x - width / 2, "right": x - width}[align]
        return [TextItem(left, y, text, font, size, self.color(color))]

    def slot(self, x, y, w, h, title: str, note: str, fill: str) -> list[Primitive]:
        out: list[Primitive] = [Rect(x, y, w, h, fill=self.color(fill), stroke=self.color("accent"), width=0.6, radius=3)]
        out += self.label(title, x + w / 2, y + h / 2, 10)
        if note:
            out += self.label(note, x + w / 2, y + h / 2 + 6, 8, font="italic", color="muted")
        return out

    def zone(self, z: Zone, seat: int = 0) -> list[Primitive]:
        if z.kind == "deck":
            named = _decks_of(z)
            deck = self.game.decks[named[seat % len(named)]]
            if deck.token is not None:
                return self.pile(z, deck)
            note = f"{deck.name}, {deck.total} cards" if z.label else f"{deck.total} cards"
            out = self.slot(z.x, z.y, *CARD, z.label or deck.name, note, z.fill)
            if z.discard:
                out += self.slot(z.x + CARD[0] + 6, z.y, *CARD, "Discard", deck.name, "discard")
            return out
        if z.kind == "area":
            return self.slot(z.x, z.y, z.w or CARD[0], z.h or CARD[1], z.label or "", "", z.fill)
        if z.kind == "label":
            return self.label((z.label or "").replace("{title}", self.game.title), z.x, z.y, z.size)
        if z.kind == "icon":
            if z.icon is None or z.icon not in self.icons:  # was a KeyError out of the build (mypy saw the None)
                said = "names no icon" if z.icon is None else f"names an unknown icon '{z.icon}'"
                raise ValueError(f"an icon zone {said}: icon: <a name of icons.yaml>")
            return self.icons.glyph(z.icon, z.x, z.y, z.size, self.color("accent"), self.color("field"), self.style.outline)
        if z.kind == "levels":
            return self.levels(z)
        return self.track(z)

    def pile(self, z: Zone, deck) -> list[Primitive]:
        """Where a token deck's pieces lie: an area with the outline of one piece."""
        size = deck.token.size_mm
        w, h = z.w or 3 * size, z.h or size + 24
        cx, cy = z.x + w / 2, z.y + h / 2 + 1
        out: list[Primitive] = [Rect(z.x, z.y, w, h, fill=self.color(z.fill), stroke=self.color("accent"), width=0.6, radius=3)]
        out += self.label(z.label or deck.name, cx, z.y + 7, 10)
        out += self.label(f"{deck.name}, {deck.total} tokens in all" if z.label else f"{deck.total} tokens",
                          cx, z.y + h - 4, 8, font="italic", color="muted")
        if deck.token.shape == "round":
            out.append(Ellipse(cx, cy, size / 2, size / 2, stroke=self.color("accent"), width=0.4))
        else:
            out.append(Rect(cx - size / 2, cy - size / 2, size, size, stroke=self.color("accent"), width=0.4))
        return out

    def levels(self, z: Zone) -> list[Primitive]:
        """Powers Combined's challenge track: a cell per challenge, grouped by the levels of the
        constants, each level named with the modifiers it adds."""
        levels = self.game.text_context["levels"]
        cell = (z.w or 15 * 16.0) / levels[-1]["last"]
        out: list[Primitive] = []
        for level in levels:
            x = z.x + (level["first"] - 1) * cell
            width = (level["last"] - level["first"] + 1) * cell
            out.append(Rect(x + 1, z.y, width - 2, cell + 14, fill=self.color("zone"), stroke=self.color("accent"), width=0.5, radius=3))
            out += self.label(level["name"], x + width / 2, z.y + 5, 8)
            plus = level["modifiers"]
            out += self.label(f"+{plus} modifier{'s' if plus != 1 else ''}" if plus else "no modifiers",
                              x + width / 2, z.y + cell + 11, 7, font="italic", color="muted")
            for n in range(level["first"], level["last"] + 1):
                cx = z.x + (n - 0.5) * cell
                out.append(Ellipse(cx, z.y + 7 + cell / 2, cell * 0.4, cell * 0.4,
                                   fill=self.color("field"), stroke=self.color("accent"), width=0.4))
                out += self.label(str(n), cx, z.y + 7 + cell / 2 + 1.3, 9)
        if z.label:
            out += self.label(z.label, z.x, z.y - 3, 10, align="left")
        return out

    def track(self, z: Zone) -> list[Primitive]:
        """Numbered cells from start to stop, for a marker or tokens to mark a count; with
        `tens`, a row of tens and a row of ones, so that a long count takes little room."""
        start, stop = self.constant(z.start if z.start is not None else 0), self.constant(z.stop)
        step = 1 if stop >= start else -1
        if z.tens:
            tens = list(range(start - start % 10, stop + 1, 10))
            rows = [[str(n) for n in tens], [str(n) for n in range(10)]]
            captions = ["tens", "ones"]
        else:
            numbers = [str(n) for n in range(start, stop + step, step)]
            per_row = min(z.per_row, len(numbers))
            rows = [numbers[i:i + per_row] for i in range(0, len(numbers), per_row)]
            captions = []
        cols = max(len(r) for r in rows)
        token = self.game.decks[z.covered_by].token if z.covered_by else None  # a token deck's, as load checked
        cell = (token.size_mm + 2 if token is not None
                else min((z.w or cols * 14.0) / cols, 16.0))
        out: list[Primitive] = []
        if z.label:
            out += self.label(z.label, z.x, z.y - 3, 10, align="left")
        for r, row in enumerate(rows):
            y = z.y + r * (cell + (3 if captions else 0))
            if captions:
                out += self.label(captions[r], z.x - 2, y + cell / 2 + 1.2, 7, align="right", font="italic", color="muted")
            for col, text in enumerate(row):
                cx, cy = z.x + col * cell + cell / 2, y + cell / 2
                out.append(Ellipse(cx, cy, cell * 0.44, cell * 0.44, fill=self.color(z.fill), stroke=self.color("accent"), width=0.4))
                out += self.label(text, cx, cy + 1.3, 9 if len(text) < 3 else 7.5)
        return out


# ---------------------------------------------------------------------------- PDFs


def _draw_mat(c: Canvas, mat: Mat) -> None:
    """The whole mat, its origin at the lower left of its bleed: its own zones, then each seat
    turned to face its player."""
    d = mat.drawing
    draw(c, d)
    for seat in mat.seats:
        c.saveState()
        c.transform(*seat_matrix(seat, d))
        draw(c, seat.drawing)
        c.restoreState()


def seat_matrix(seat: Seat, mat: Drawing) -> tuple[float, ...]:
    """The PDF transform from a seat drawing's page space to the mat's (points)."""
    (ux, uy), (vx, vy), (ox, oy) = seat.u, seat.v, seat.origin
    b, top, h = mat.bleed, mat.height + mat.bleed, seat.drawing.height
    return (ux, -uy, -vx, vy, (ox + b + h * vx) * MM, (top - oy - h * vy) * MM)


def full_pdf(mat: Mat) -> bytes:
    """The mat at full size with its bleed: the page is the bleed box, the TrimBox the mat."""
    d = mat.drawing
    b = d.bleed
    out = io.BytesIO()
    c = new_canvas(out, pagesize=((d.width + 2 * b) * MM, (d.height + 2 * b) * MM))
    c.setTitle(f"{mat.title}: playmat")
    c.setCreator("Spellpress")
    prepare(c)
    c.setTrimBox((b * MM, b * MM, (d.width + b) * MM, (d.height + b) * MM))
    c.setBleedBox((0, 0, (d.width + 2 * b) * MM, (d.height + 2 * b) * MM))
    _draw_mat(c, mat)
    c.showPage()
    c.save()
    return out.getvalue()


# ---------------------------------------------------------------------------- tiles
#
# How the tiles go together (the page map says so, in these steps):
# 1. Rows first: on every tile but a row's first, cut off the white strip on its left, along
#    the edge of the picture. Lay the tile over its left neighbour, its cut edge on the upright
#    bar of each cross, the half crosses it keeps continuing the crosses beneath, and glue.
# 2. Then on every row but the first, cut off the white strip along its top, lay the row over
#    the one above the same way, and glue.
# 3. Last, cut around the mat at the corner marks: the margin goes.
# So neighbours share OVERLAP mm: the half nearer the later tile is cut off it (its white strip);
# the other half of the earlier tile is glued under the later one. Each seam's crosses are
# centred on its cut, and printed on both tiles; they lie only where nothing shows at the end:
# in a strip cut off later (a row's top strip while its tiles are glued), in a strip glued
# under the next row, or in the margin beyond the mat, cut off last.

OVERLAP = 16.0  # mm neighbouring tiles share: half cut off the later one, half glued under it
MARGIN = 10.0  # mm of paper beyond the mat's trim on the outer tiles: its bleed, then marks
MARK_AT = 6.5  # mm beyond the trim: the crosses in the margin (clear of the bleed)
ARM = 2.5  # a cross's arm, mm: it stays in its strip with 1.5 mm to spare either side
CAPTION = 9.0  # mm above the tile on its page for its caption
MARK_INK = (0.85, 0.0, 0.55)  # the crosses' colour: plain on white paper and on a dark mat
TILE_AT = (UNPRINTABLE, UNPRINTABLE + CAPTION)  # a tile's top left on its page, mm


@dataclass(frozen=True)
class Tile:
    row: int
    col: int
    x: float  # the part of the mat it shows, mm (beyond 0 and the mat's size on outer tiles)
    y: float
    w: float
    h: float


@dataclass(frozen=True)
class Tiling:
    landscape: bool
    cols: int
    rows: int
    tiles: tuple[Tile, ...]
    width: float  # the mat's, mm
    height: float

    def tile(self, row: int, col: int) -> Tile:
        return self.tiles[row * self.cols + col]

    def cut_x(self, col: int) -> float:
        """Where the tiles of column `col` (not the first) are cut on their left."""
        return self.tile(0, col).x + OVERLAP / 2

    def cut_y(self, row: int) -> float:
        return self.tile(row, 0).y + OVERLAP / 2

    def shown(self, tile: Tile) -> tuple[float, float, float, float]:
        """(left, top, right, bottom) of the mat's picture on the tile: all of it but its white
        strips, out to the bleed on the mat's outer edges."""
        return (self.cut_x(tile.col) if tile.col else -BLEED, self.cut_y(tile.row) if tile.row else -BLEED,
                tile.x + tile.w if tile.col < self.cols - 1 else self.width + BLEED,
                tile.y + tile.h if tile.row < self.rows - 1 else self.height + BLEED)

    def kept(self, tile: Tile) -> tuple[float, float, float, float]:
        """(left, top, right, bottom) of the finished mat that this tile is: from the cut on its
        left to the next tile's, from the cut above it to the next row's, within the trim."""
        return (self.cut_x(tile.col) if tile.col else 0.0, self.cut_y(tile.row) if tile.row else 0.0,
                self.cut_x(tile.col + 1) if tile.col < self.cols - 1 else self.width,
                self.cut_y(tile.row + 1) if tile.row < self.rows - 1 else self.height)

    def marks(self, tile: Tile) -> list[tuple[float, float]]:
        """The crosses printed on this tile, at their places on the mat, mm."""
        out = []
        last_row, last_col = self.rows - 1, self.cols - 1

        def ends(row: int) -> list[float]:  # where a column seam's crosses go, in this row
            top = -MARK_AT if row == 0 else self.cut_y(row) - OVERLAP / 4  # a strip cut off later
            bottom = self.height + MARK_AT if row == last_row else self.cut_y(row + 1) + OVERLAP / 4  # glued under
            return [top, bottom]

        for col in (tile.col, tile.col + 1):  # the seams on its left and its right
            if 0 < col <= last_col:
                out += [(self.cut_x(col), y) for y in ends(tile.row)]
        for row in (tile.row, tile.row + 1):  # the row seams above and below it, in the margins
            if 0 < row <= last_row:
                if tile.col == 0:
                    out.append((-MARK_AT, self.cut_y(row)))
                if tile.col == last_col:
                    out.append((self.width + MARK_AT, self.cut_y(row)))
        return out


def tiling(mat_w: float, mat_h: float, paper: str) -> Tiling:
    """The orientation needing fewer pages, and its tiles: the mat and its margin cut into
    tiles that share OVERLAP mm with their neighbours."""
    best = None
    for landscape in (False, True):
        p = PAPERS[paper]
        pw, ph = (p.height, p.width) if landscape else (p.width, p.height)
        aw, ah = pw - 2 * UNPRINTABLE, ph - 2 * UNPRINTABLE - CAPTION
        span_w, span_h = mat_w + 2 * MARGIN, mat_h + 2 * MARGIN
        cols = max(1, math.ceil((span_w - OVERLAP) / (aw - OVERLAP)))
        rows = max(1, math.ceil((span_h - OVERLAP) / (ah - OVERLAP)))
        if best is None or cols * rows < best.cols * best.rows:
            tw, th = (span_w + (cols - 1) * OVERLAP) / cols, (span_h + (rows - 1) * OVERLAP) / rows
            tiles = tuple(Tile(r, c, -MARGIN + c * (tw - OVERLAP), -MARGIN + r * (th - OVERLAP), tw, th)
                          for r in range(rows) for c in range(cols))
            best = Tiling(landscape, cols, rows, tiles, mat_w, mat_h)
    assert best is not None
    return best


def tiled_pdf(mat: Mat, paper: str) -> bytes:
    """A page map with the steps, then one page per tile: the mat's picture, white strips to
    cut off, crosses to align, corner marks for the last cut."""
    d = mat.drawing
    t = tiling(d.width, d.height, paper)
    p = PAPERS[paper]
    pw, ph = (p.height, p.width) if t.landscape else (p.width, p.height)
    out = io.BytesIO()
    c = new_canvas(out, pagesize=(pw * MM, ph * MM))
    c.setTitle(f"{mat.title}: playmat in {len(t.tiles)} tiles")
    c.setCreator("Spellpress")
    prepare(c)
    b = d.bleed
    c.beginForm("mat", 0, 0, (d.width + 2 * b) * MM, (d.height + 2 * b) * MM)
    _draw_mat(c, mat)
    c.endForm()
    _page_map(c, mat, t, pw, ph)
    ox, oy = TILE_AT
    for tile in t.tiles:
        def P(x: float, y: float, tile: Tile = tile) -> tuple[float, float]:  # mat mm -> page points
            return (ox + x - tile.x) * MM, (ph - oy - (y - tile.y)) * MM

        left, top, right, bottom = t.shown(tile)
        c.saveState()
        clip = c.beginPath()
        x0, y0 = P(left, bottom)
        clip.rect(x0, y0, (right - left) * MM, (bottom - top) * MM)
        c.clipPath(clip, stroke=0, fill=0)
        c.translate(*P(-b, d.height + b))
        c.doForm("mat")
        c.restoreState()
        _strip_notes(c, t, tile, P)
        _corner_marks(c, t, tile, P)
        for x, y in t.marks(tile):
            _cross(c, *P(x, y))
        c.setFillColorRGB(0.2, 0.2, 0.2)
        c.setFont(fonts.pdf_name("bold"), 7.5)
        c.drawString(ox * MM, (ph - UNPRINTABLE - 3) * MM, f"{mat.title} playmat · row {tile.row + 1} of {t.rows}, "
                     f"column {tile.col + 1} of {t.cols} · print at actual size (100 %)")
        steps = (["Step 2: cut off the white strip on the left; lay the cut edge on the crosses' bars, over the tile "
                  "to the left; glue."] if tile.col else []) + (
                 ["Step 3: once the row is glued, cut off its top strip; lay it over the row above the same way; glue."]
                 if tile.row else [])
        c.setFont(fonts.pdf_name("regular"), 6.5)
        for i, step in enumerate(steps):
            c.drawString(ox * MM, (ph - UNPRINTABLE - 5.6 - 2.6 * i) * MM, step)
        c.showPage()
    c.save()
    return out.getvalue()


def _cross(c: Canvas, px: float, py: float) -> None:
    """A registration cross at a page point: magenta on a white halo, seen on any ground."""
    c.saveState()
    for width, ink in ((1.2, (1, 1, 1)), (0.25, MARK_INK)):
        c.setLineWidth(width * MM)
        c.setStrokeColorRGB(*ink)
        c.line(px - ARM * MM, py, px + ARM * MM, py)
        c.line(px, py - ARM * MM, px, py + ARM * MM)
    c.restoreState()


def _corner_marks(c: Canvas, t: Tiling, tile: Tile, P: Callable[[float, float], tuple[float, float]]) -> None:
    """Crop marks in the margin in line with the mat's edges, for the last cut around it."""
    c.saveState()
    c.setLineWidth(0.25 * MM)
    c.setStrokeColorRGB(0, 0, 0)
    start, end = BLEED + 1.0, MARGIN - 0.5
    for x, sx in ((0.0, -1), (t.width, 1)):
        for y, sy in ((0.0, -1), (t.height, 1)):
            if not (tile.x <= x <= tile.x + tile.w and tile.y <= y <= tile.y + tile.h):
                continue
            c.line(*P(x + sx * start, y), *P(x + sx * end, y))
            c.line(*P(x, y + sy * start), *P(x, y + sy * end))
    c.restoreState()


def _strip_notes(c: Canvas, t: Tiling, tile: Tile, P: Callable[[float, float], tuple[float, float]]) -> None:
    """'cut off' written along the white strips, so nobody glues one down."""
    c.saveState()
    c.setFillColorRGB(0.45, 0.45, 0.45)
    c.setFont(fonts.pdf_name("italic"), 6)
    if tile.col:
        x = (tile.x + t.cut_x(tile.col)) / 2 + 0.8
        for k in range(1, int(tile.h // 60) + 1):
            c.saveState()
            c.translate(*P(x, tile.y + k * 60 - 30))
            c.rotate(90)
            c.drawCentredString(0, 0, "cut off")
            c.restoreState()
    if tile.row:
        y = (tile.y + t.cut_y(tile.row)) / 2 + 0.8
        for k in range(1, int(tile.w // 60) + 1):
            c.drawCentredString(*P(tile.x + k * 60 - 30, y), "cut off")
    c.restoreState()


def _page_map(c: Canvas, mat: Mat, t: Tiling, pw: float, ph: float) -> None:
    d = mat.drawing
    b = d.bleed
    scale = min((pw - 40) / d.width, (ph - 110) / d.height)
    x0, y0 = (pw - d.width * scale) / 2, 68
    c.setFont(fonts.pdf_name("bold"), 16)
    c.drawString(20 * MM, (ph - 20) * MM, f"{mat.title}: playmat, {d.width / 25.4:g} x {d.height / 25.4:g} in")
    c.setFont(fonts.pdf_name("regular"), 9)
    steps = [
        f"1. Print the next {len(t.tiles)} pages at actual size (100 %, not 'fit to page'). "
        f"Tiles share {OVERLAP:g} mm with their neighbours.",
        "2. Rows first. On each tile with a white strip on its left, cut that strip off along the edge of the picture.",
        "    Lay the tile over its left neighbour: its cut edge on the upright bar of each magenta cross, the half",
        "    crosses it keeps continuing the crosses beneath. Glue it there. Do so along every row.",
        "3. Then, on every row but the first, cut off the white strip along its top, lay the row over the row above",
        "    the same way (cut edge on the crosses' bars) and glue.",
        "4. Last, cut around the mat at the black corner marks. Every cross is then gone: cut off with a strip or",
        "    the margin, or under the tile glued over it.",
    ]
    for i, line in enumerate(steps):
        c.drawString(20 * MM, (ph - 28 - i * 4.5) * MM, line)
    c.saveState()
    c.translate(x0 * MM, (ph - y0 - d.height * scale) * MM)
    c.scale(scale, scale)
    c.translate(-b * MM, -b * MM)
    c.doForm("mat")
    c.restoreState()
    c.setStrokeColorRGB(0.85, 0.1, 0.1)
    c.setFillColorRGB(0.85, 0.1, 0.1)
    c.setLineWidth(0.8)
    c.setFont(fonts.pdf_name("bold"), 11)
    for n, tile in enumerate(t.tiles, start=1):
        left, top, right, bottom = t.kept(tile)
        x, y = x0 + left * scale, y0 + top * scale
        w, h = (right - left) * scale, (bottom - top) * scale
        c.rect(x * MM, (ph - y - h) * MM, w * MM, h * MM, stroke=1, fill=0)
        c.drawCentredString((x + w / 2) * MM, (ph - y - h / 2) * MM, str(n))
    c.showPage()
