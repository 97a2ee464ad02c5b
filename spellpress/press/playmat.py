"""Playmats: a game's table laid out at full size, and tiled over home-printer pages.

The layout is `templates/playmat/<slug>.yaml`; what goes on it comes from the game: a zone for
every deck (and its discard pile) named and counted from the decks, tracks as long as the
constants say, icons and labels. The mat is 24 x 14 in (610 x 356 mm), the size of the
common neoprene play mat: it fits a card table, and print shops sell mats of that size.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import pydantic
from reportlab.pdfgen.canvas import Canvas

from ..core import ruletext
from ..core.models import Game
from ..core.problems import Problem, ValidationFailed, did_you_mean, display_path
from ..core.schema import Color, FrozenMap, Model, Text, validate
from ..core.yamlsource import read
from . import fonts
from .displaylist import Drawing, Ellipse, Primitive, Rect
from .displaylist import Text as TextItem
from .icons import IconSet
from .layout import hex_color
from .papers import PAPERS
from .pdf import MM, draw, prepare
from .sheets import UNPRINTABLE

CARD = (63.5, 88.9)
OVERLAP = 12.0  # mm that neighbouring tiles share, to glue one over the other


class Zone(Model):
    kind: Literal["deck", "track", "area", "icon", "label", "levels"]
    x: float
    y: float
    w: float | None = None
    h: float | None = None
    deck: Text | None = None  # deck: its id; the discard pile goes beside it unless discard: false
    discard: bool = True
    label: str | None = None
    start: int | Text | None = None  # track: from, to (numbers or constants' names)
    stop: int | Text | None = None
    per_row: pydantic.PositiveInt = 25
    icon: Text | None = None
    size: pydantic.PositiveFloat = 14.0  # label: points; icon: mm
    fill: Text = "zone"


class MatSpec(Model):
    size: tuple[pydantic.PositiveFloat, pydantic.PositiveFloat] = (609.6, 355.6)
    palette: FrozenMap[Text, Color]
    zones: tuple[Zone, ...]
    off_mat: tuple[Text, ...] = ()  # decks that stay in the players' hands (quick references)


@dataclass(frozen=True)
class Mat:
    title: str
    drawing: Drawing


def load(game: Game, templates: Path, icons: IconSet) -> Mat:
    """The game's playmat, laid out; raises ValidationFailed with what is wrong."""
    path = templates / "playmat" / f"{game.slug}.yaml"
    if not path.is_file():
        raise ValidationFailed([Problem(display_path(path), 0, 0, "", f"no playmat layout for {game.slug}")])
    doc, problems = read(path)
    if doc is None:
        raise ValidationFailed(problems)
    spec, problems = validate(MatSpec, doc.data, doc)
    if spec is None:
        raise ValidationFailed(problems)
    placed = {z.deck for z in spec.zones if z.kind == "deck"}
    for i, zone in enumerate(spec.zones):
        if zone.kind == "deck" and zone.deck not in game.decks:
            problems.append(doc.problem(("zones", i, "deck"), f"unknown deck '{zone.deck}'{did_you_mean(zone.deck, game.decks)}"))
    for i, deck in enumerate(spec.off_mat):
        if deck not in game.decks:
            problems.append(doc.problem(("off_mat", i), f"unknown deck '{deck}'{did_you_mean(deck, game.decks)}"))
    for deck in game.decks:
        if deck not in placed and deck not in spec.off_mat:
            fix = f"add a zone {{kind: deck, deck: {deck}, x: .., y: ..}}, or list it under off_mat"
            problems.append(doc.problem(("zones",), f"deck '{deck}' has no place on the mat: {fix}"))
    if problems:
        raise ValidationFailed(problems)
    painter = _Painter(game, spec, icons)
    try:
        items = [item for zone in spec.zones for item in painter.zone(zone)]
    except ValueError as exc:
        raise ValidationFailed([doc.problem(("zones",), str(exc))]) from None
    w, h = spec.size
    background = [Rect(0, 0, w, h, fill=painter.color("field")),
                  Rect(6, 6, w - 12, h - 12, stroke=painter.color("accent"), width=0.8, radius=8)]
    title = painter.label(game.title, w - 14, 16, 22, "right", "bold")
    return Mat(game.title, Drawing(w, h, 0.0, tuple(background + title + items)))


class _Painter:
    def __init__(self, game: Game, spec: MatSpec, icons: IconSet):
        self.game, self.spec, self.icons = game, spec, icons

    def color(self, name: str):
        if name.startswith("#"):
            return hex_color(name)
        return hex_color(self.spec.palette.get(name, "#888888"))

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

    def zone(self, z: Zone) -> list[Primitive]:
        if z.kind == "deck":
            deck = self.game.decks[z.deck]
            out = self.slot(z.x, z.y, *CARD, deck.name, f"{deck.total} cards", z.fill)
            if z.discard:
                out += self.slot(z.x + CARD[0] + 6, z.y, *CARD, "Discard", deck.name, "discard")
            return out
        if z.kind == "area":
            return self.slot(z.x, z.y, z.w or CARD[0], z.h or CARD[1], z.label or "", "", z.fill)
        if z.kind == "label":
            return self.label(z.label or "", z.x, z.y, z.size)
        if z.kind == "icon":
            return self.icons.glyph(z.icon, z.x, z.y, z.size, self.color("accent"), self.color("field"))
        if z.kind == "levels":
            return self.levels(z)
        return self.track(z)

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
        """Numbered cells from start to stop, for a token to mark a count."""
        start, stop = self.constant(z.start if z.start is not None else 0), self.constant(z.stop)
        step = 1 if stop >= start else -1
        numbers = list(range(start, stop + step, step))
        cols = min(z.per_row, len(numbers))
        w = z.w or cols * 14.0
        cell = min(w / cols, 16.0)
        out: list[Primitive] = []
        if z.label:
            out += self.label(z.label, z.x, z.y - 3, 10, align="left")
        for i, n in enumerate(numbers):
            r, col = divmod(i, cols)
            cx, cy = z.x + col * cell + cell / 2, z.y + r * cell + cell / 2
            out.append(Ellipse(cx, cy, cell * 0.44, cell * 0.44, fill=self.color(z.fill), stroke=self.color("accent"), width=0.4))
            out += self.label(str(n), cx, cy + 1.3, 9)
        return out


# ---------------------------------------------------------------------------- PDFs


def full_pdf(mat: Mat) -> bytes:
    d = mat.drawing
    out = io.BytesIO()
    c = Canvas(out, pagesize=(d.width * MM, d.height * MM), invariant=1, initialFontName=fonts.pdf_name("regular"))
    c.setTitle(f"{mat.title}: playmat")
    c.setCreator("Spellpress")
    prepare(c)
    draw(c, d)
    c.showPage()
    c.save()
    return out.getvalue()


@dataclass(frozen=True)
class Tile:
    row: int
    col: int
    x: float  # the part of the mat it shows, mm
    y: float
    w: float
    h: float


def tiling(mat_w: float, mat_h: float, paper: str) -> tuple[bool, list[Tile]]:
    """(landscape, tiles): the orientation needing fewer pages, each tile overlapping its
    neighbours by OVERLAP mm."""
    best = None
    for landscape in (False, True):
        p = PAPERS[paper]
        pw, ph = (p.height, p.width) if landscape else (p.width, p.height)
        aw, ah = pw - 2 * UNPRINTABLE, ph - 2 * UNPRINTABLE - 8  # 8 mm for the tile's caption
        cols = max(1, math.ceil((mat_w - OVERLAP) / (aw - OVERLAP)))
        rows = max(1, math.ceil((mat_h - OVERLAP) / (ah - OVERLAP)))
        if best is None or cols * rows < best[0]:
            tw, th = (mat_w + (cols - 1) * OVERLAP) / cols, (mat_h + (rows - 1) * OVERLAP) / rows
            tiles = [Tile(r, c, c * (tw - OVERLAP), r * (th - OVERLAP), tw, th) for r in range(rows) for c in range(cols)]
            best = (cols * rows, landscape, tiles)
    return best[1], best[2]


def tiled_pdf(mat: Mat, paper: str) -> bytes:
    """A page map, then one page per tile: cut the left and top overlap off every tile that has
    a neighbour there, lay it over that neighbour with the marks on each other, and glue."""
    d = mat.drawing
    landscape, tiles = tiling(d.width, d.height, paper)
    p = PAPERS[paper]
    pw, ph = (p.height, p.width) if landscape else (p.width, p.height)
    out = io.BytesIO()
    c = Canvas(out, pagesize=(pw * MM, ph * MM), invariant=1, initialFontName=fonts.pdf_name("regular"))
    c.setTitle(f"{mat.title}: playmat in {len(tiles)} tiles")
    c.setCreator("Spellpress")
    prepare(c)
    c.beginForm("mat", 0, 0, d.width * MM, d.height * MM)
    draw(c, d)
    c.endForm()
    _page_map(c, mat, tiles, pw, ph)
    for tile in tiles:
        ox, oy = UNPRINTABLE, UNPRINTABLE + 8  # the tile's top left on the page, mm
        c.saveState()
        clip = c.beginPath()
        clip.rect(ox * MM, (ph - oy - tile.h) * MM, tile.w * MM, tile.h * MM)
        c.clipPath(clip, stroke=0, fill=0)
        c.translate((ox - tile.x) * MM, (ph - oy - (d.height - tile.y)) * MM)
        c.doForm("mat")
        c.restoreState()
        _guides(c, tile, ox, oy, ph, (tiles[-1].row, tiles[-1].col))
        c.setFont(fonts.pdf_name("regular"), 8)
        c.setFillColorRGB(0.2, 0.2, 0.2)
        c.drawString(ox * MM, (ph - UNPRINTABLE - 5) * MM,
                     f"{mat.title} playmat · tile row {tile.row + 1}, column {tile.col + 1} of {len(tiles)} · "
                     "print at actual size · cut the dashed edges, glue over the neighbour, marks on marks")
        c.showPage()
    c.save()
    return out.getvalue()


def _guides(c: Canvas, tile: Tile, ox: float, oy: float, ph: float, last: tuple[int, int]) -> None:
    """Dashed cut lines where a neighbour's overlap begins, and alignment crosses in the
    overlap (drawn at the same place of the mat on both tiles, so they meet)."""
    def P(x, y):  # mat mm -> page points
        return (ox + x - tile.x) * MM, (ph - oy - (y - tile.y)) * MM

    c.saveState()
    c.setLineWidth(0.5)
    c.setStrokeColorRGB(0, 0, 0)
    c.setDash(3, 2)
    if tile.col > 0:  # the left overlap is cut off this tile
        c.line(*P(tile.x + OVERLAP, tile.y), *P(tile.x + OVERLAP, tile.y + tile.h))
    if tile.row > 0:
        c.line(*P(tile.x, tile.y + OVERLAP), *P(tile.x + tile.w, tile.y + OVERLAP))
    c.setDash()
    marks = []  # the middle of each overlap this tile shares, at a quarter and three quarters
    right, bottom = tile.x + tile.w, tile.y + tile.h
    if tile.col > 0:
        marks += [(tile.x + OVERLAP / 2, tile.y + tile.h * f) for f in (0.25, 0.75)]
    if tile.col < last[1]:
        marks += [(right - OVERLAP / 2, tile.y + tile.h * f) for f in (0.25, 0.75)]
    if tile.row > 0:
        marks += [(tile.x + tile.w * f, tile.y + OVERLAP / 2) for f in (0.25, 0.75)]
    if tile.row < last[0]:
        marks += [(tile.x + tile.w * f, bottom - OVERLAP / 2) for f in (0.25, 0.75)]
    for x, y in marks:
        for width, grey in ((1.6, 1), (0.4, 0)):
            c.setLineWidth(width)
            c.setStrokeColorRGB(grey, grey, grey)
            px, py = P(x, y)
            c.line(px - 3 * MM, py, px + 3 * MM, py)
            c.line(px, py - 3 * MM, px, py + 3 * MM)
    c.restoreState()


def _page_map(c: Canvas, mat: Mat, tiles: list[Tile], pw: float, ph: float) -> None:
    d = mat.drawing
    scale = min((pw - 40) / d.width, (ph - 80) / d.height)
    x0, y0 = (pw - d.width * scale) / 2, 40
    c.setFont(fonts.pdf_name("bold"), 16)
    c.drawString(20 * MM, (ph - 20) * MM, f"{mat.title}: playmat, {d.width / 25.4:g} x {d.height / 25.4:g} in")
    c.setFont(fonts.pdf_name("regular"), 9)
    for i, line in enumerate([
        f"Print the next {len(tiles)} pages at actual size. Each tile shares {OVERLAP:g} mm with its neighbours.",
        "Cut along the dashed edges, lay each tile over its neighbour with the crosses on each other, and glue.",
    ]):
        c.drawString(20 * MM, (ph - 28 - i * 5) * MM, line)
    c.saveState()
    c.translate(x0 * MM, (ph - y0 - d.height * scale) * MM)
    c.scale(scale, scale)
    c.doForm("mat")
    c.restoreState()
    c.setStrokeColorRGB(0.85, 0.1, 0.1)
    c.setFillColorRGB(0.85, 0.1, 0.1)
    c.setLineWidth(0.8)
    c.setFont(fonts.pdf_name("bold"), 11)
    for n, t in enumerate(tiles, start=1):
        x, y = x0 + t.x * scale, y0 + t.y * scale
        c.rect(x * MM, (ph - y - t.h * scale) * MM, t.w * scale * MM, t.h * scale * MM, stroke=1, fill=0)
        c.drawCentredString((x + t.w * scale / 2) * MM, (ph - y - t.h * scale / 2) * MM, str(n))
    c.showPage()
