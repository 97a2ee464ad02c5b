"""Print-and-play sheets: cards in a grid with crop marks, duplex backs, fold sheets, calibration.

Cards sit edge to edge, so one cut separates two cards; bleed is printed only around the grid's
outside, and each card is clipped to its own trim elsewhere. Crop marks run outward from every
cut line, from 1 mm beyond the trim to the edge a home printer can reach.

Grids (GUIDE section 2): A4 takes 3 x 3 portrait. Letter cannot: 3 x 88.9 mm leaves 6.35 mm top
and bottom, all of it unprintable, so Letter takes 4 x 2 landscape, with room for bleed and
marks on every side. Fold sheets are 4 x 2 landscape on both papers: two columns of fronts, the
fold, and their backs mirrored about it.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from . import fonts
from .displaylist import Drawing
from .papers import Paper
from .pdf import FORM_CODE_VERSION, MM, define_form, prepare

UNPRINTABLE = 6.35  # a home printer's unprintable edge, mm (GUIDE section 2)
MARK_GAP = 1.0  # crop marks start this far beyond the trim, mm
MARK_MAX = 4.5  # and reach at most this far, mm, leaving the top margin to its note
INK, HALO = (0, 0, 0), (1, 1, 1)




@dataclass(frozen=True)
class Grid:
    cols: int
    rows: int
    landscape: bool


DUPLEX_GRIDS = {"a4": Grid(3, 3, False), "letter": Grid(4, 2, True)}
FOLD_GRID = Grid(4, 2, True)


@dataclass(frozen=True)
class Face:
    """A face to print: the form name under which its drawing is defined once."""

    form: str
    drawing: Drawing
    hash: str = ""  # the key of its cached PDF form: its content hash and the PDF libraries' versions


@dataclass(frozen=True)
class SheetCard:
    front: Face
    back: Face
    label: str  # e.g. the deck's name, for the page's margin


class Sheet:
    """Page geometry of one paper and grid, in mm from the page's top left."""

    def __init__(self, paper: Paper, grid: Grid, card_w: float, card_h: float, bleed: float,
                 check_marks: bool = True):
        self.paper, self.grid = paper, grid
        self.pw, self.ph = (paper.height, paper.width) if grid.landscape else (paper.width, paper.height)
        self.cw, self.ch, self.bleed = card_w, card_h, bleed
        self.x0 = (self.pw - grid.cols * card_w) / 2
        self.y0 = (self.ph - grid.rows * card_h) / 2
        room = min(self.x0, self.y0) - UNPRINTABLE
        if check_marks and room < MARK_GAP + 1.0:
            raise ValueError(f"{grid.cols} x {grid.rows} cards leave no room for crop marks on {paper.name}")

    @property
    def per_page(self) -> int:
        return self.grid.cols * self.grid.rows

    def cell(self, col: int, row: int) -> tuple[float, float]:
        return self.x0 + col * self.cw, self.y0 + row * self.ch

    def mirrored(self, col: int, row: int) -> tuple[int, int]:
        """Where a card's back goes for long-edge duplex: columns reversed on a portrait page,
        rows reversed on a landscape one (GUIDE section 2)."""
        if self.grid.landscape:
            return col, self.grid.rows - 1 - row
        return self.grid.cols - 1 - col, row


class SheetWriter:
    """One PDF of sheets; each face is defined once as a form and placed as often as needed."""

    def __init__(self, sheet: Sheet, title: str, cache: Path | None = None):
        self.sheet = sheet
        self.cache = cache  # a directory of faces' PDF forms, by content hash
        self.buffer = io.BytesIO()
        self.canvas = Canvas(self.buffer, pagesize=(sheet.pw * MM, sheet.ph * MM), invariant=1, pageCompression=1,
                             initialFontName=fonts.pdf_name("regular"))  # else Helvetica, unembedded
        self.canvas.setTitle(title)
        self.canvas.setAuthor("Spellpress")
        self.canvas.setCreator("Spellpress")
        prepare(self.canvas)
        self.forms: set[str] = set()

    def pdf(self) -> bytes:
        self.canvas.save()
        return self.buffer.getvalue()

    def _form(self, face: Face) -> None:
        if face.form not in self.forms:
            cached = self.cache / form_cache_name(face.hash) if self.cache is not None and face.hash else None
            define_form(self.canvas, face.form, face.drawing, cached)
            self.forms.add(face.form)

    def place(self, face: Face, col: int, row: int, dx: float = 0.0, dy: float = 0.0,
              cols: int | None = None) -> None:
        """The face in cell (col, row), bleed kept only on the grid's outer edges."""
        s, c = self.sheet, self.canvas
        cols = cols or s.grid.cols
        self._form(face)
        x, y = s.cell(col, row)
        x, y = x + dx, y + dy
        b = s.bleed
        left = b if col == 0 else 0
        right = b if col == cols - 1 else 0
        top = b if row == 0 else 0
        bottom = b if row == s.grid.rows - 1 else 0
        c.saveState()
        clip = c.beginPath()
        clip.rect((x - left) * MM, (s.ph - y - s.ch - bottom) * MM, (s.cw + left + right) * MM, (s.ch + top + bottom) * MM)
        c.clipPath(clip, stroke=0, fill=0)
        c.translate((x - b) * MM, (s.ph - y - s.ch - b) * MM)
        c.doForm(face.form)
        c.restoreState()

    def crop_marks(self, dx: float = 0.0, dy: float = 0.0, fold_at: int | None = None) -> None:
        """Marks outward from every cut line, in the margins; a fold line is marked dashed."""
        s, c = self.sheet, self.canvas
        g = s.grid
        left, top = s.x0 + dx, s.y0 + dy
        right, bottom = left + g.cols * s.cw, top + g.rows * s.ch
        reach_x = min(MARK_MAX, s.x0 - UNPRINTABLE)
        reach_y = min(MARK_MAX, s.y0 - UNPRINTABLE)
        marks = []
        for i in range(g.cols + 1):
            x = left + i * s.cw
            dashed = fold_at is not None and i == fold_at
            marks.append(((x, top - MARK_GAP), (x, top - reach_y), dashed))
            marks.append(((x, bottom + MARK_GAP), (x, bottom + reach_y), dashed))
        for j in range(g.rows + 1):
            y = top + j * s.ch
            marks.append(((left - MARK_GAP, y), (left - reach_x, y), False))
            marks.append(((right + MARK_GAP, y), (right + reach_x, y), False))
        for width, color in ((1.4, HALO), (0.35, INK)):
            c.setLineWidth(width)
            c.setStrokeColorRGB(*color)
            for (x1, y1), (x2, y2), dashed in marks:
                c.setDash(1.5, 1.2) if dashed and color == INK else c.setDash()
                c.line(x1 * MM, (s.ph - y1) * MM, x2 * MM, (s.ph - y2) * MM)
        c.setDash()

    def margin_note(self, text: str, dx: float = 0.0, dy: float = 0.0) -> None:
        """A line of small print in the top margin, above the crop marks."""
        s, c = self.sheet, self.canvas
        size = 6.5
        baseline = UNPRINTABLE + 2.6 + dy  # crop marks stop MARK_MAX short of the grid, below it
        c.setFillColorRGB(0.25, 0.25, 0.25)
        c.setFont(fonts.pdf_name("regular"), size)
        c.drawCentredString((s.pw / 2 + dx) * MM, (s.ph - baseline) * MM, text)

    def next_page(self) -> None:
        self.canvas.showPage()


def form_cache_name(key: str) -> str:
    """The file of a face's cached form stream, by its Face.hash."""
    return f"{hashlib.sha256(f'{key}:{FORM_CODE_VERSION}'.encode()).hexdigest()[:40]}.form"


def chunks(seq: Sequence, n: int) -> Iterator[Sequence]:
    for i in range(0, len(seq), n):
        yield seq[i:i + n]


def duplex_pdf(cards: list[SheetCard], sheet: Sheet, title: str, back_offset: tuple[float, float],
               cache: Path | None = None) -> bytes:
    """Calibration page pair first, then each fronts page followed by its backs page."""
    w = SheetWriter(sheet, title, cache)
    calibration(w, back_offset)
    pages = list(chunks(cards, sheet.per_page))
    dx, dy = back_offset
    for n, page in enumerate(pages, start=1):
        labels = ", ".join(dict.fromkeys(c.label for c in page))
        note = (f"{title} · {labels} · sheet {n} of {len(pages)} · print at actual size (100%), "
                f"double-sided, flip on long edge")
        w.margin_note(note + " · fronts")
        for i, card in enumerate(page):
            w.place(card.front, i % sheet.grid.cols, i // sheet.grid.cols)
        w.crop_marks()
        w.next_page()
        # Backs are shifted by the user's offset, measured on the calibration page.
        w.margin_note(note + f" · backs (offset {dx:+g}, {dy:+g} mm)", dx, dy)
        for i, card in enumerate(page):
            col, row = sheet.mirrored(i % sheet.grid.cols, i // sheet.grid.cols)
            w.place(card.back, col, row, dx, dy)
        w.crop_marks(dx, dy)
        w.next_page()
    return w.pdf()


def fold_pdf(cards: list[SheetCard], sheet: Sheet, title: str, cache: Path | None = None) -> bytes:
    """Fronts in the left half, their backs mirrored about the fold in the right half."""
    w = SheetWriter(sheet, title, cache)
    half = sheet.grid.cols // 2
    pages = list(chunks(cards, half * sheet.grid.rows))
    for n, page in enumerate(pages, start=1):
        labels = ", ".join(dict.fromkeys(c.label for c in page))
        w.margin_note(f"{title} · {labels} · sheet {n} of {len(pages)} · print at actual size (100%), "
                      "one-sided · fold along the dashed line, glue, then cut")
        for i, card in enumerate(page):
            col, row = i % half, i // half
            w.place(card.front, col, row)
            w.place(card.back, sheet.grid.cols - 1 - col, row)
        w.crop_marks(fold_at=half)
        w.next_page()
    return w.pdf()


def printshop_pdf(cards: list[SheetCard], size: tuple[float, float, float], title: str,
                  cache: Path | None = None) -> bytes:
    """One card a page with its bleed, front then back, every copy: what print shops take.
    Each page's TrimBox is the card and its BleedBox the whole page."""
    width, height, bleed = size
    page = Sheet(Paper("card", width + 2 * bleed, height + 2 * bleed), Grid(1, 1, False), width, height, bleed,
                 check_marks=False)
    w = SheetWriter(page, title, cache)
    c = w.canvas
    c.setTrimBox((bleed * MM, bleed * MM, (width + bleed) * MM, (height + bleed) * MM))
    c.setBleedBox((0, 0, (width + 2 * bleed) * MM, (height + 2 * bleed) * MM))
    for card in cards:
        for face in (card.front, card.back):
            w.place(face, 0, 0)
            w.next_page()
    return w.pdf()


def calibration(w: SheetWriter, back_offset: tuple[float, float]) -> None:
    """A page pair to check actual-size printing and measure the duplex back offset."""
    s, c = w.sheet, w.canvas
    dx, dy = back_offset
    ink = fonts.pdf_name("regular")
    bold = fonts.pdf_name("bold")

    def Y(y):
        return (s.ph - y) * MM

    c.setFillColorRGB(0, 0, 0)
    c.setFont(bold, 14)
    c.drawString(20 * MM, Y(25), "Spellpress calibration")
    lines = [
        "1. Print this file double-sided (flip on long edge) at actual size (100%, no 'fit to page').",
        "2. Measure the rulers below: the long one must be exactly 100 mm, the other exactly 4 in.",
        "3. Hold this sheet against a light. The back's cross should sit exactly on the front's.",
        "   Read on the back's scales where the front's cross lies, and build again with",
        "   spellpress build --back-offset X,Y  (millimetres; the numbers the scales show).",
        f"Back offset in this file: {dx:+g} mm across, {dy:+g} mm down.",
    ]
    c.setFont(ink, 9)
    for i, line in enumerate(lines):
        c.drawString(20 * MM, Y(34 + i * 5), line)
    _ruler(c, 20, 72, 100, 1.0, "mm", Y)
    _ruler(c, 20, 90, 101.6, 2.54, "in/10", Y)
    tx, ty = s.pw / 2, s.ph * 0.66
    _cross(c, tx, ty, Y)
    c.setFont(ink, 8)
    c.drawCentredString(tx * MM, Y(ty + 24), "front")
    w.next_page()
    # The back: the same cross where long-edge duplex puts it, shifted by the offset, on scales.
    bx, by = (tx, s.ph - ty) if s.grid.landscape else (s.pw - tx, ty)
    bx, by = bx + dx, by + dy
    _cross(c, bx, by, Y)
    _scale(c, bx, by, Y)
    c.setFont(ink, 8)
    c.drawCentredString(bx * MM, Y(by + 24), "back: read the front's cross on these scales (mm)")
    w.next_page()


def _ruler(c: Canvas, x: float, y: float, length: float, step: float, unit: str, Y) -> None:
    c.setLineWidth(0.3)
    c.line(x * MM, Y(y), (x + length) * MM, Y(y))
    n = round(length / step)
    for i in range(n + 1):
        tall = 4 if i % 10 == 0 else (2.5 if i % 5 == 0 else 1.5)
        c.line((x + i * step) * MM, Y(y), (x + i * step) * MM, Y(y - tall))
    c.setFont(fonts.pdf_name("regular"), 7)
    label = "100 mm" if unit == "mm" else "4 in"
    c.drawString((x + length + 3) * MM, Y(y - 1), label)


def _cross(c: Canvas, x: float, y: float, Y) -> None:
    c.setLineWidth(0.25)
    c.line((x - 20) * MM, Y(y), (x + 20) * MM, Y(y))
    c.line(x * MM, Y(y - 20), x * MM, Y(y + 20))
    for r in (2, 5, 10):
        c.circle(x * MM, Y(y), r * MM, stroke=1, fill=0)


def _scale(c: Canvas, x: float, y: float, Y) -> None:
    """Millimetre ticks along both arms of the cross, numbered every 5 mm."""
    c.setFont(fonts.pdf_name("regular"), 5)
    for i in range(-15, 16):
        tall = 2.2 if i % 5 == 0 else 1.0
        c.line((x + i) * MM, Y(y - tall), (x + i) * MM, Y(y + tall))
        c.line((x - tall) * MM, Y(y + i), (x + tall) * MM, Y(y + i))
        if i % 5 == 0 and i:
            c.drawCentredString((x + i) * MM, Y(y + 4.5), f"{i:+d}")
            c.drawString((x + 3) * MM, Y(y + i + 0.7), f"{i:+d}")
