"""Print-and-play sheets: cards in a grid with crop marks, duplex backs, fold sheets, calibration.

Bleed is printed around the cards' outside (beside an empty slot too). Between neighbours: where
every card of a size that may share a page looks alike at its edges (edges.py), cards sit edge
to edge and one cut separates two, each card clipped to its trim at the shared cut; where any
two differ (a frame's colour telling a card apart), a gutter of twice the bleed lies between
every two neighbours, each card's own bleed filling its half, and each card has its own cut
lines and marks (see apart).

One back design a page (GUIDE, tolerances): a duplex drift of up to 2 mm would show a sliver of
a neighbour's back, so a player could read a card from its back. Cards are grouped by the
design of their back (the back face's content hash), in the order the decks first use it; each
group starts a new sheet and leaves the rest of its last sheet empty. Cards whose back is their
own other side (Spellchamber's wizards) make a group of their deck.

Crop marks (GUIDE): at least 5 mm long, starting 1 mm beyond the bleed, inside the home
printer's reach (6.35 mm from the paper's edge). So a grid needs 3.175 + 1 + 5 = 9.175 mm
beside it, plus 6.35 mm: 15.525 mm of margin on every side. Each paper takes the grid of most
cards of the game's size that leaves that room (papers.py); for poker cards:
- A4 3 x 3 portrait: 9.75 mm left and right, 15.15 mm top and bottom: no.
- A4 4 x 2 landscape: 21.5 mm left and right, 16.1 mm top and bottom: yes (8 a sheet); with
  gutters it needs 273.05 x 184.15 mm of 265.95 x 178.95: 2 x 2 portrait (4 a sheet).
- Letter 3 x 3 portrait: 12.7 mm and 6.35 mm; Letter 4 x 2 landscape: 12.7 mm left and right:
  no. Letter 3 x 2 landscape: 44.45 mm and 19.05 mm: yes (6 a sheet), with gutters too (38.1
  and 15.875 mm).
Fold sheets take the grid of most cards with an even number of columns (folded between the
column halves, each back mirrored about the fold) or of rows (folded between the rows, the backs
in the lower half turned half round, as folding over a horizontal line turns them). Between the
halves lies the fold's gap: each side's print reaches papers.fold_reach beyond its cut line, to
the fold line (with a 1/8 in bleed, the bleed itself: 3.175 mm; where the bleed is narrower
than that reach, its outer strip mirrored beyond it), so a fold papers.MISFOLD (1.5875 mm) off
still shows each side its own colours once cut at the fronts' marks. For poker cards: A4 4 x 2
landscape folded between the columns (4 cards a sheet; gutters: 2 x 2 portrait, 2), Letter 3 x
2 landscape folded between the rows (3 cards a sheet: 177.8 + 6.35 mm of 184.85; gutters too).
The margin note runs up the left margin, clear of the marks; where the marks fill that margin,
in the stretches beside the rows, between them.
"""

from __future__ import annotations

import hashlib
import io
import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from ..files import atomic_write
from . import edges, fonts, rlinternals, skeleton
from .displaylist import Drawing
from .papers import MARK_GAP, MARK_LENGTH, PAPERS, UNPRINTABLE, Grid, Paper, duplex_grid, fold_grid, span
from .pdf import FORM_CODE_VERSION, MM, define_form, new_canvas, prepare

LAYOUT_VERSION = "4"  # bump when a change here moves what is on the sheets
NOTE_WIDTH = 2.6  # the margin note's line, mm across
INK, HALO = (0, 0, 0), (1, 1, 1)


# Letter 3 x 3 portrait (spellpress build --letter-3x3), for printers that print to 5 mm of the
# edge: 12.7 mm beside the grid leaves 7.7 mm within reach, so the outer bleed at the sides is
# 1.7 mm and the rows' marks keep their 1 mm gap and 5 mm length; 6.35 mm above and below leave
# 1.35 mm, so the grid has no outer bleed there and the columns' marks are ticks from the cards'
# edge to the printer's reach.
NINE = "letter-3x3"
NINE_GRID = Grid(3, 3, False, reach=5.0)
NINE_NOTE = ("Nine a sheet, for printers that print to 5 mm of the edge:",
             "1.7 mm of bleed at the sides, none above and below;",
             "cut the columns first, a ruler laid through the top and bottom ticks")
NINE_CARD = (63.5, 88.9)  # the nine-a-sheet grid is for poker cards


def sheet_for(layout: str, paper: str, width: float, height: float, bleed: float,
              apart: bool = False) -> Sheet | None:
    """The sheet of a layout ('duplex', 'fold' or 'nine') on a paper for cards of this size: the
    grid of most cards with room for bleed and marks (papers.py), with a gutter between
    neighbours when they are `apart` (see apart); None where there is none (a card too large
    for the paper, a fold sheet that holds one card, nine a sheet of no poker card). Nine a
    sheet has no room for gutters: its cards sit edge to edge whatever their edges."""
    if layout == "nine":
        poker = abs(width - NINE_CARD[0]) < 0.05 and abs(height - NINE_CARD[1]) < 0.05
        grid = NINE_GRID if poker and paper == "letter" else None
    else:
        grid = (fold_grid if layout == "fold" else duplex_grid)(PAPERS[paper], width, height, bleed, apart)
    return Sheet(PAPERS[paper], grid, width, height, bleed) if grid is not None else None


def apart_by_size(cards: Iterable[SheetCard]) -> dict[Size, bool]:
    """For each size of these cards, whether its sheets need gutters (apart)."""
    sized: dict[Size, list[SheetCard]] = {}
    for card in cards:
        sized.setdefault(size_of(card), []).append(card)
    return {size: apart(group) for size, group in sized.items()}


def apart(cards: Iterable[SheetCard]) -> bool:
    """Whether these cards (of one size) need gutters between neighbours: two of one back design,
    which may share a page, whose fronts or backs differ at their edges (edges.py)."""
    seen: dict[int, edges.Edge] = {}  # a drawing's id -> its edge: each drawing read once

    def of(face: Face) -> edges.Edge:
        if id(face.drawing) not in seen:
            seen[id(face.drawing)] = edges.edge(face.drawing)
        return seen[id(face.drawing)]

    designs: dict[str, set[tuple[edges.Edge, edges.Edge]]] = {}
    for card in cards:
        designs.setdefault(card.design, set()).add((of(card.front), of(card.back)))
    for pairs in designs.values():
        listed = list(pairs)
        for i, (front, back) in enumerate(listed):
            if any(not (edges.alike(front, f) and edges.alike(back, b)) for f, b in listed[i + 1:]):
                return True
    return False


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
    design: str = ""  # its back's design: cards share a page only with cards of the same design


Cell = tuple[int, int]  # (col, row)


@dataclass(frozen=True)
class Listed:
    """A card as the checklist lists it: its number in the game (the one printed on it)."""

    number: int
    name: str
    deck: str
    count: int


def checklist_of(game) -> tuple[Listed, ...]:
    """Every card of the game (a core Game) in its order: the numbers its cards carry."""
    return tuple(Listed(n, card.name, game.decks[card.deck].name, card.count)
                 for n, card in enumerate(game.cards, start=1))


class Sheet:
    """Page geometry of one paper and grid, in mm from the page's top left."""

    def __init__(self, paper: Paper, grid: Grid, card_w: float, card_h: float, bleed: float,
                 check_marks: bool = True):
        self.paper, self.grid = paper, grid
        self.pw, self.ph = (paper.height, paper.width) if grid.landscape else (paper.width, paper.height)
        self.cw, self.ch, self.bleed = card_w, card_h, bleed
        # each column's and row's start from the grid's, mm: the cards, the gutters between them,
        # and on a fold sheet the fold's gap between the halves
        self.xs = _starts(grid.cols, card_w, grid.gutter, grid.fold_gap if grid.fold == "columns" else None)
        self.ys = _starts(grid.rows, card_h, grid.gutter, grid.fold_gap if grid.fold == "rows" else None)
        self.x0 = (self.pw - span(grid.cols, card_w, grid.gutter, grid.fold_gap, grid.fold == "columns")) / 2
        self.y0 = (self.ph - span(grid.rows, card_h, grid.gutter, grid.fold_gap, grid.fold == "rows")) / 2
        # beside the grid: the outer bleed, the marks' gap from it and their length, across and down
        self.outer_x, self.gap_x, self.mark_x = self._margin(self.x0)
        self.outer_y, self.gap_y, self.mark_y = self._margin(self.y0)
        need = bleed + MARK_GAP + MARK_LENGTH + UNPRINTABLE
        if check_marks and grid.reach is None and min(self.x0, self.y0) < need - 1e-9:
            raise ValueError(
                f"{grid.cols} x {grid.rows} cards leave {min(self.x0, self.y0):.2f} mm beside them on {paper.name}; "
                f"crop marks need {need:.3f} mm ({bleed:g} mm bleed, {MARK_GAP:g} mm gap, {MARK_LENGTH:g} mm mark, "
                f"{UNPRINTABLE:g} mm the printer cannot reach)")

    def _margin(self, room: float) -> tuple[float, float, float]:
        """(outer bleed, marks' gap, marks' length) in a margin of `room` mm: the full ones, or on
        a grid for a printer of short reach the most that reach allows (see NINE_GRID)."""
        reach = self.grid.reach
        if reach is None or room - reach >= self.bleed + MARK_GAP + MARK_LENGTH - 1e-9:
            return self.bleed, MARK_GAP, MARK_LENGTH
        within = room - reach
        if within >= MARK_GAP + MARK_LENGTH:
            return within - MARK_GAP - MARK_LENGTH, MARK_GAP, MARK_LENGTH
        return 0.0, 0.0, max(within, 0.0)

    @property
    def per_page(self) -> int:
        return self.grid.cols * self.grid.rows

    def fit_note(self, cards: int) -> str:
        """What the margin says when a sheet holds only one card (`cards` a sheet): that no
        more of this size fit the paper with their bleed and marks."""
        if cards != 1:
            return ""
        return f" · one card a sheet: no more of {self.cw:g} x {self.ch:g} mm fit {self.paper.name} with bleed and crop marks"

    def cell(self, col: int, row: int) -> tuple[float, float]:
        """The top left of the trim of the card in (col, row), mm from the page's top left."""
        return self.x0 + self.xs[col], self.y0 + self.ys[row]

    def gap(self, across: bool, before: int) -> float:
        """The gap, mm, between column (or row, not `across`) `before` - 1 and `before`."""
        starts, card = (self.xs, self.cw) if across else (self.ys, self.ch)
        return starts[before] - starts[before - 1] - card

    def fold_line(self) -> float:
        """Where a fold sheet folds, mm from the page's left (fold between columns) or top (rows):
        the middle of the gap between its halves."""
        g = self.grid
        if g.fold == "columns":
            return self.x0 + self.xs[g.cols // 2] - g.fold_gap / 2
        return self.y0 + self.ys[g.rows // 2] - g.fold_gap / 2

    def mirrored(self, col: int, row: int) -> Cell:
        """Where a card's back goes for long-edge duplex: columns reversed on a portrait page,
        rows reversed on a landscape one (GUIDE section 2)."""
        if self.grid.landscape:
            return col, self.grid.rows - 1 - row
        return self.grid.cols - 1 - col, row

    def behind(self, x: float, y: float) -> tuple[float, float]:
        """The point of the backs page that long-edge duplex puts behind (x, y) of the front."""
        return (x, self.ph - y) if self.grid.landscape else (self.pw - x, y)


def _starts(n: int, card: float, gutter: float, fold_gap: float | None) -> list[float]:
    """Where each of `n` cards in a line starts, mm from the line's start: after the cards and
    gutters before it, and after the fold's gap (`fold_gap`, None: no fold across this line)
    for the second half."""
    return [i * (card + gutter) + (fold_gap - gutter if fold_gap is not None and i >= n // 2 else 0.0)
            for i in range(n)]


Size = tuple[float, float, float]  # a card's trimmed width, height and bleed, mm


def size_of(card: SheetCard) -> Size:
    """A card's size: each deck's layout gives its own, and each size has its own grid."""
    d = card.front.drawing
    return d.width, d.height, d.bleed


def pages(cards: Sequence[SheetCard], per_page: int | Callable[[Size], int]) -> list[list[SheetCard]]:
    """The cards a page at a time, one back design and one size a page: the designs in the order
    the cards first show them, each design's cards in their order, a new design on a new page;
    `per_page` the cards a page of each size holds."""
    designs: dict[tuple[Size, str], list[SheetCard]] = {}
    for card in cards:
        designs.setdefault((size_of(card), card.design), []).append(card)
    held = per_page if callable(per_page) else (lambda size: per_page)
    return [list(page) for (size, _), group in designs.items() for page in chunks(group, held(size))]


class SheetWriter:
    """One PDF of sheets; each face is defined once as a form and placed as often as needed.
    With `keep`, the file's skeleton (skeleton.py) is kept there when it is written."""

    def __init__(self, sheet: Sheet, title: str, cache: Path | None = None, keep: Path | None = None):
        self.sheet = sheet
        self.cache = cache  # a directory of faces' PDF forms, by content hash
        self.keep = keep
        self.holes: dict[str, bytes] = {}  # form name -> its cached stream, for the skeleton
        self.buffer = io.BytesIO()
        self.canvas = new_canvas(self.buffer, pagesize=(sheet.pw * MM, sheet.ph * MM), page_compression=1)
        self.canvas.setTitle(title)
        self.canvas.setAuthor("Spellpress")
        self.canvas.setCreator("Spellpress")
        prepare(self.canvas)
        self.forms: set[str] = set()

    def pdf(self) -> bytes:
        self.canvas.save()
        data = self.buffer.getvalue()
        if self.keep is not None:
            objects = rlinternals.saved_objects(self.canvas)
            kept = skeleton.make(data, objects, self.holes) if objects else None
            if kept is not None:
                atomic_write(self.keep, kept)
        return data

    def _form(self, face: Face) -> None:
        if face.form not in self.forms:
            cached = self.cache / form_cache_name(face.hash) if self.cache is not None and face.hash else None
            stored = define_form(self.canvas, face.form, face.drawing, cached)
            if stored is not None:
                self.holes[face.form] = stored
            self.forms.add(face.form)

    def place(self, face: Face, col: int, row: int, filled: set[Cell], dx: float = 0.0, dy: float = 0.0,
              turned: bool = False) -> None:
        """The face in cell (col, row), with its bleed where no card of `filled` shares its cut:
        beside an empty slot, outside the grid, and into its half of a gutter; into the fold's
        gap up to the fold line, the bleed's last strip mirrored where that is farther than the
        bleed (papers.fold_reach). `turned`: half round, as a fold over a horizontal line shows a back."""
        s, c = self.sheet, self.canvas
        self._form(face)
        x, y = s.cell(col, row)
        x, y = x + dx, y + dy
        b = s.bleed
        left, right = self._reach(col, row, -1, 0, filled), self._reach(col, row, 1, 0, filled)
        top, bottom = self._reach(col, row, 0, -1, filled), self._reach(col, row, 0, 1, filled)

        def draw() -> None:
            if turned:
                c.translate((x + s.cw + b) * MM, (s.ph - y + b) * MM)
                c.rotate(180)
            else:
                c.translate((x - b) * MM, (s.ph - y - s.ch - b) * MM)
            c.doForm(face.form)

        c.saveState()
        clip = c.beginPath()
        clip.rect((x - min(left, b)) * MM, (s.ph - y - s.ch - min(bottom, b)) * MM,
                  (s.cw + min(left, b) + min(right, b)) * MM, (s.ch + min(top, b) + min(bottom, b)) * MM)
        c.clipPath(clip, stroke=0, fill=0)
        draw()
        c.restoreState()
        # beyond the bleed (towards a fold farther than it): the bleed's outer strip, mirrored about its edge
        for side, reach in (("left", left), ("right", right), ("top", top), ("bottom", bottom)):
            extra = reach - b
            if extra <= 1e-9:
                continue
            if side in ("left", "right"):
                edge = x - b if side == "left" else x + s.cw + b
                strip = (edge - extra if side == "left" else edge, y - min(top, b), extra, s.ch + min(top, b) + min(bottom, b))
            else:
                edge = y - b if side == "top" else y + s.ch + b
                strip = (x - min(left, b), edge - extra if side == "top" else edge, s.cw + min(left, b) + min(right, b), extra)
            sx, sy, sw, sh = strip
            c.saveState()
            clip = c.beginPath()
            clip.rect(sx * MM, (s.ph - sy - sh) * MM, sw * MM, sh * MM)
            c.clipPath(clip, stroke=0, fill=0)
            if side in ("left", "right"):
                c.translate(2 * edge * MM, 0)
                c.scale(-1, 1)
            else:
                c.translate(0, 2 * (s.ph - edge) * MM)
                c.scale(1, -1)
            draw()
            c.restoreState()

    def _reach(self, col: int, row: int, dcol: int, drow: int, filled: set[Cell]) -> float:
        """How far, mm, the card in (col, row) prints beyond its trim towards the cell (col + dcol,
        row + drow): the outer bleed at the grid's edge, half the gap where one lies between
        (a gutter's half is the bleed; the fold's reaches the fold line), else the bleed into an
        empty slot and nothing where a card shares the cut."""
        s, g = self.sheet, self.sheet.grid
        other = (col + dcol, row + drow)
        if not (0 <= other[0] < g.cols and 0 <= other[1] < g.rows):
            return s.outer_x if dcol else s.outer_y
        gap = s.gap(True, max(col, other[0])) if dcol else s.gap(False, max(row, other[1]))
        if gap > 1e-9:
            return gap / 2
        return 0.0 if other in filled else s.bleed

    def crop_marks(self, filled: set[Cell], dx: float = 0.0, dy: float = 0.0, fold: str = "") -> None:
        """At both ends of every card's cut lines, outward, clear of the bleed: each line's marks
        at the ends of its stretch along the cards of `filled` (so an empty slot has no marks of
        its own), one line where neighbours share a cut, two across a gutter. A fold sheet's fold
        line, in the middle of the gap between its halves, has dashed marks at its ends."""
        s, c = self.sheet, self.canvas
        down: dict[float, list[int]] = {}  # the vertical cut lines (x) and the rows of the cards along them
        across: dict[float, list[int]] = {}  # the horizontal ones (y) and the columns of theirs
        for col, row in sorted(filled):
            x, y = s.cell(col, row)
            for at in (x, x + s.cw):
                down.setdefault(round(at, 6), []).append(row)
            for at in (y, y + s.ch):
                across.setdefault(round(at, 6), []).append(col)
        if fold == "columns" and filled:
            down[round(s.fold_line(), 6)] = [row for _, row in filled]
        if fold == "rows" and filled:
            across[round(s.fold_line(), 6)] = [col for col, _ in filled]
        dashed_at = round(s.fold_line(), 6) if fold else None
        marks = []
        start, length = s.outer_y + s.gap_y, s.mark_y  # above and below the grid
        for x, rows in down.items():
            top, bottom = s.cell(0, min(rows))[1] + dy, s.cell(0, max(rows))[1] + s.ch + dy
            dashed = fold == "columns" and x == dashed_at
            marks.append(((x + dx, top - start), (x + dx, top - start - length), dashed))
            marks.append(((x + dx, bottom + start), (x + dx, bottom + start + length), dashed))
        start, length = s.outer_x + s.gap_x, s.mark_x  # left and right of it
        for y, cols in across.items():
            left, right = s.cell(min(cols), 0)[0] + dx, s.cell(max(cols), 0)[0] + s.cw + dx
            dashed = fold == "rows" and y == dashed_at
            marks.append(((left - start, y + dy), (left - start - length, y + dy), dashed))
            marks.append(((right + start, y + dy), (right + start + length, y + dy), dashed))
        for width, color in ((1.4, HALO), (0.35, INK)):
            c.setLineWidth(width)
            c.setStrokeColorRGB(*color)
            for (x1, y1), (x2, y2), dashed in marks:
                c.setDash(1.5, 1.2) if dashed and color == INK else c.setDash()
                c.line(x1 * MM, (s.ph - y1) * MM, x2 * MM, (s.ph - y2) * MM)
        c.setDash()

    def margin_note(self, text: str, dx: float = 0.0, dy: float = 0.0, cards: bool = True) -> None:
        """A line of small print up the left margin, between the printer's reach and the marks;
        where the marks fill the side margins (Letter 3 x 3, or a size whose grid leaves no more
        room), in each row's stretch of the margin, clear of the marks at the rows' cuts; on the
        nine-a-sheet grid the sheet's trade-off down the right margin too. A page without
        cards (`cards` false: the checklist) has the whole margin."""
        s = self.sheet
        marks_end = s.x0 - s.outer_x - s.gap_x - s.mark_x  # the rows' marks reach this near the paper's edge
        if not cards or (s.grid.reach is None and marks_end >= UNPRINTABLE + NOTE_WIDTH - 1e-9):
            self._note(text, UNPRINTABLE, s.ph / 2, s.ph - 2 * UNPRINTABLE - 4, dx, dy)
            return
        edge = UNPRINTABLE if s.grid.reach is None else s.grid.reach
        rows = s.grid.rows  # a part of the note beside each row, between the marks at its cuts
        words = text.split(" · ")
        per = -(-len(words) // rows)
        parts = [" · ".join(words[i:i + per]) for i in range(0, len(words), per)]
        right = NINE_NOTE if s.grid.reach is not None else ()
        for row in range(rows):
            middle = s.cell(0, rows - 1 - row)[1] + s.ch / 2  # read upwards: the first part beside the lowest row
            self._note(parts[row] if row < len(parts) else "", edge, middle, s.ch - 8, dx, dy)
            if row < len(right):
                self._note(right[row], s.pw - edge - NOTE_WIDTH, middle, s.ch - 8, dx, dy)

    def _note(self, text: str, edge: float, middle: float, room: float, dx: float, dy: float) -> None:
        """`text` up the page from x = `edge` mm, centred on `middle`, at most `room` mm long."""
        if not text:
            return
        s, c = self.sheet, self.canvas
        font = fonts.pdf_name("regular")
        size = min(6.5, 6.5 * room / (stringWidth(text, font, 6.5) / MM))
        baseline = edge + 0.8 * size / MM + dx  # the glyphs' tops face the paper's edge
        c.saveState()
        c.setFillColorRGB(0.25, 0.25, 0.25)
        c.setFont(font, size)
        c.translate(baseline * MM, (s.ph - middle - dy) * MM)
        c.rotate(90)
        c.drawCentredString(0, 0, text)
        c.restoreState()

    def next_page(self) -> None:
        self.canvas.showPage()

    def use(self, sheet: Sheet) -> None:
        """Lay the next page out on `sheet`: cards of another size, on their own grid and page."""
        if sheet is not self.sheet:
            self.sheet = sheet
            self.canvas.setPageSize((sheet.pw * MM, sheet.ph * MM))


def form_cache_name(key: str) -> str:
    """The file of a face's cached form stream, by its Face.hash."""
    return f"{hashlib.sha256(f'{key}:{FORM_CODE_VERSION}'.encode()).hexdigest()[:40]}.form"


def refill(kept: Path, cards: Sequence[SheetCard], cache: Path) -> bytes | None:
    """The sheets PDF from its skeleton `kept` and the current forms of these cards' faces (from
    the form cache `cache`, else drawn); None if there is no such skeleton, or it does not fit."""
    try:
        data = kept.read_bytes()
    except OSError:
        return None
    faces = {face.form: face for card in cards for face in (card.front, card.back)}
    scratch: list[Canvas] = []

    def stream(form: str) -> bytes:
        face = faces[form]
        cached = cache / form_cache_name(face.hash)
        try:
            return cached.read_bytes()
        except OSError:
            pass
        if not scratch:  # a face not drawn for a PDF yet (the edited card): its form drawn alone
            scratch.append(new_canvas(io.BytesIO()))
            prepare(scratch[0])
        stored = define_form(scratch[0], form, face.drawing, cached)
        if stored is None:
            raise ValueError(f"the face {form} is no hole")
        return stored

    try:
        return skeleton.fill(data, stream)
    except (KeyError, ValueError):
        return None


def chunks(seq: Sequence, n: int) -> Iterator[Sequence]:
    for i in range(0, len(seq), n):
        yield seq[i:i + n]


def duplex_pdf(cards: list[SheetCard], sheet: Sheet, title: str, back_offset: tuple[float, float],
               cache: Path | None = None, command: str = "spellpress build", listed: Sequence[Listed] = (),
               version: str = "", keep: Path | None = None, by_size: Mapping[Size, Sheet] | None = None) -> bytes:
    """Calibration page pair first, then each fronts page followed by its backs page; cards of
    each size on their own sheet (`by_size`; `sheet` for the rest)."""
    first = sheet
    w = SheetWriter(sheet, title, cache, keep)
    calibration(w, back_offset, command)
    sheet_of = (by_size or {}).get
    sheets = pages(cards, lambda size: sheet_of(size, first).per_page)
    dx, dy = back_offset
    for n, page in enumerate(sheets, start=1):
        sheet = sheet_of(size_of(page[0]), first)
        w.use(sheet)
        cols = sheet.grid.cols
        labels = ", ".join(dict.fromkeys(c.label for c in page))
        note = (f"{title} · {labels} · sheet {n} of {len(sheets)} · print at actual size (100%), "
                f"double-sided, flip on long edge{sheet.fit_note(sheet.per_page)}")
        fronts = [(i % cols, i // cols) for i in range(len(page))]
        w.margin_note(note + " · fronts")
        filled = set(fronts)
        for card, cell in zip(page, fronts):
            w.place(card.front, *cell, filled)
        w.crop_marks(filled)
        w.next_page()
        # Backs are shifted by the user's offset, measured on the calibration page.
        w.margin_note(note + f" · backs (offset {dx:+g}, {dy:+g} mm)", dx, dy)
        backs = [sheet.mirrored(*cell) for cell in fronts]
        filled = set(backs)
        for card, cell in zip(page, backs):
            w.place(card.back, *cell, filled, dx, dy)
        w.crop_marks(filled, dx, dy)
        w.next_page()
    w.use(first)
    checklist(w, title, listed, version)
    return w.pdf()


def fold_pdf(cards: list[SheetCard], sheet: Sheet, title: str, cache: Path | None = None,
             listed: Sequence[Listed] = (), version: str = "", keep: Path | None = None,
             by_size: Mapping[Size, Sheet] | None = None) -> bytes:
    """Fronts in one half, their backs mirrored about the fold in the other: the right half for
    a fold between columns, the lower half (turned half round) for a fold between rows; cards
    of each size on their own sheet (`by_size`; `sheet` for the rest)."""
    first = sheet
    w = SheetWriter(sheet, title, cache, keep)
    sheet_of = (by_size or {}).get

    def halves(s: Sheet) -> tuple[int, int]:
        """The columns and rows of fronts on a fold sheet."""
        g = s.grid
        return (g.cols, g.rows // 2) if g.fold == "rows" else (g.cols // 2, g.rows)

    sheets = pages(cards, lambda size: math.prod(halves(sheet_of(size, first))))
    for n, page in enumerate(sheets, start=1):
        sheet = sheet_of(size_of(page[0]), first)
        w.use(sheet)
        g = sheet.grid
        by_rows = g.fold == "rows"
        cols, rows = halves(sheet)
        labels = ", ".join(dict.fromkeys(c.label for c in page))
        w.margin_note(f"{title} · {labels} · sheet {n} of {len(sheets)} · print at actual size (100%), "
                      f"one-sided · fold along the line between the dashed marks, glue, then cut at the solid marks "
                      f"(the fold is cut away){sheet.fit_note(cols * rows)}")
        fronts = [(i % cols, i // cols) for i in range(len(page))]
        backs = [(col, g.rows - 1 - row) if by_rows else (g.cols - 1 - col, row) for col, row in fronts]
        filled = set(fronts) | set(backs)
        for card, front, back in zip(page, fronts, backs):
            w.place(card.front, *front, filled)
            w.place(card.back, *back, filled, turned=by_rows)
        w.crop_marks(filled, fold=g.fold)
        w.next_page()
    w.use(first)
    checklist(w, title, listed, version)
    return w.pdf()


def printshop_pdf(cards: list[SheetCard], size: tuple[float, float, float], title: str,
                  cache: Path | None = None, keep: Path | None = None) -> bytes:
    """One card a page with its bleed, front then back, every copy: what print shops take.
    Each page is its card's size (`size` when there is none) with its bleed; its TrimBox is the
    card and its BleedBox the whole page."""
    made: dict[Size, Sheet] = {}

    def page(size: Size) -> Sheet:
        """The page of one card of this size."""
        if size not in made:
            width, height, bleed = size
            made[size] = Sheet(Paper("card", width + 2 * bleed, height + 2 * bleed), Grid(1, 1, False), width, height,
                               bleed, check_marks=False)
        return made[size]

    w = SheetWriter(page(size_of(cards[0]) if cards else size), title, cache, keep)
    c = w.canvas
    for card in cards:
        w.use(page(size_of(card)))
        width, height, bleed = size_of(card)
        for face in (card.front, card.back):
            c.setTrimBox((bleed * MM, bleed * MM, (width + bleed) * MM, (height + bleed) * MM))
            c.setBleedBox((0, 0, (width + 2 * bleed) * MM, (height + 2 * bleed) * MM))
            w.place(face, 0, 0, set())
            w.next_page()
    return w.pdf()


# -- checklist

CHECK_ROW = 4.4  # mm a line
CHECK_COLUMNS = 3


def checklist(w: SheetWriter, title: str, listed: Sequence[Listed], version: str = "") -> None:
    """After the sheets, every card with its number (as printed on it), its deck and how many
    copies are printed, a box to tick beside each: what a designer checks a printed set against."""
    if not listed:
        return
    s, c = w.sheet, w.canvas
    regular, bold = fonts.pdf_name("regular"), fonts.pdf_name("bold")
    left, top, bottom = UNPRINTABLE + 8, UNPRINTABLE + 8, s.ph - UNPRINTABLE - 6
    rows = int((bottom - top - 14) // CHECK_ROW)
    columns = max(2, min(CHECK_COLUMNS, -(-len(listed) // rows)))  # as few as hold them: names keep room
    col_w = (s.pw - 2 * left) / columns
    # the deck column as wide as its longest name needs (the rest is the cards' names'), and
    # never narrower than a third of what the two share
    decks = max(stringWidth(card.deck, regular, 8) for card in listed) / MM
    deck_at = max(col_w - 9 - decks, 15 + (col_w - 24) * 2 / 3)
    pages = list(chunks(listed, rows * columns))
    copies = sum(card.count for card in listed)
    for n, page in enumerate(pages, start=1):
        c.setFillColorRGB(0, 0, 0)
        c.setFont(bold, 12)
        heading = f"{title} · checklist" + (f" · version {version}" if version else "")
        c.drawString(left * MM, (s.ph - top - 4) * MM, heading)
        c.setFont(regular, 8)
        c.drawRightString((s.pw - left) * MM, (s.ph - top - 4) * MM,
                          f"{len(listed)} cards, {copies} copies" + (f" · page {n} of {len(pages)}" if len(pages) > 1 else ""))
        for i, card in enumerate(page):
            col, row = divmod(i, rows)
            x, y = left + col * col_w, top + 12 + row * CHECK_ROW
            if row == 0:
                c.setFont(bold, 7)
                c.setFillColorRGB(0.35, 0.35, 0.35)
                for text, at in (("No.", x + 4), ("Card", x + 13), ("Deck", x + deck_at), ("Copies", x + col_w - 4)):
                    (c.drawRightString if text == "Copies" else c.drawString)(at * MM, (s.ph - y + 1.6) * MM, text)
                c.setFillColorRGB(0, 0, 0)
            base = s.ph - y - CHECK_ROW + 1.2
            c.setLineWidth(0.3)
            c.rect(x * MM, (base - 0.1) * MM, 2.6 * MM, 2.6 * MM, stroke=1, fill=0)
            c.setFont(regular, 8)
            c.drawRightString((x + 11) * MM, base * MM, str(card.number))
            for text, at, room in ((card.name, x + 13, deck_at - 15), (card.deck, x + deck_at, col_w - deck_at - 9)):
                for line, size, dy in _fitted(text, regular, 8, room):
                    c.setFont(regular, size)
                    c.drawString(at * MM, (base + dy) * MM, line)
            c.setFont(regular, 8)
            c.drawRightString((x + col_w - 4) * MM, base * MM, f"×{card.count}")
        w.margin_note(f"{title} · checklist: every card with the number printed on it · print at actual size (100%)",
                      cards=False)
        w.next_page()


CHECK_MIN_SIZE = 7.0  # pt: a name too long for its column is set smaller, down to this (no print text under 7 pt), then in two lines


def _fitted(text: str, font: str, size: float, width: float) -> list[tuple[str, float, float]]:
    """The text as (line, size in pt, baseline shift in mm) to fit `width` mm: whole on one
    line, shrunk a quarter point at a time down to CHECK_MIN_SIZE; else in two lines of about
    even width at that size, in the row's height. Never cut short (issue 28, defect 7)."""
    while size > CHECK_MIN_SIZE and stringWidth(text, font, size) > width * MM:
        size = max(CHECK_MIN_SIZE, size - 0.25)
    words = text.split()
    if stringWidth(text, font, size) <= width * MM or len(words) < 2:
        return [(text, size, 0.0)]
    cut = min(range(1, len(words)), key=lambda i: max(stringWidth(" ".join(words[:i]), font, size),
                                                      stringWidth(" ".join(words[i:]), font, size)))
    step = size * 25.4 / 72 * 1.02
    return [(" ".join(words[:cut]), size, step / 2 + 0.2), (" ".join(words[cut:]), size, -step / 2 + 0.2)]


# -- calibration

ARM = 18.0  # a target's cross reaches this far from its centre, mm
SCALE = 15  # the back's scales read this far, mm: a front cross beyond them is no offset


def targets(sheet: Sheet) -> list[tuple[str, float, float]]:
    """The calibration's targets on the front page: near the four corners and the centre, at
    distances from the edges that differ left to right and top to bottom, so that a back
    printed with the wrong flip puts each target more than SCALE mm from any front one."""
    pw, ph = sheet.pw, sheet.ph
    near, far = 30.0, 52.0
    return [("A", near, near), ("B", pw - far, near), ("C", near, ph - far), ("D", pw - far, ph - far),
            ("E", pw / 2 + 18, ph / 2 + 20)]


def calibration(w: SheetWriter, back_offset: tuple[float, float], command: str = "spellpress build") -> None:
    """A page pair to check actual-size printing and measure the duplex back offset."""
    s, c = w.sheet, w.canvas
    dx, dy = back_offset
    regular, bold = fonts.pdf_name("regular"), fonts.pdf_name("bold")

    def Y(y):
        return (s.ph - y) * MM

    marks = targets(s)
    left, right, top = 62.0, s.pw - 72.0, 22.0  # the text, between the corner targets
    if not s.grid.landscape:  # a portrait page (Letter 3 x 3): under the top targets, rulers above the lower
        left, right, top = 20.0, s.pw - 20.0, 62.0
    c.setFillColorRGB(0, 0, 0)
    c.setFont(bold, 13)
    c.drawString(left * MM, Y(top), "Spellpress calibration: size and back offset")
    ex, ey = dx + 1.5, dy - 0.5
    paragraphs = [
        "1. Print this file double-sided, flip on LONG edge, at actual size (100%, no 'fit to page').",
        "2. Size: the rulers below must measure exactly 100 mm and 4 in. If not, the printer scaled "
        "the page: set 'actual size' and print again before anything else.",
        "3. Offset: hold the sheet against a light, the side with the scales towards you. At each "
        "target A to E read on the back's scales where the front's cross lies, in mm: + is right "
        "and down as you look at the back.",
        "4. Offsets add up. This file was built with a back offset of "
        f"{dx:+g} mm across, {dy:+g} mm down. If you read X across and Y down, build again with "
        f"{dx:g} + X and {dy:g} + Y:",
        f"@{command} --back-offset={dx:g}+X,{dy:g}+Y",
        f"For example, reading +1.5 across and -0.5 down ({dx:g} + 1.5 = {ex:g}; {dy:g} - 0.5 = {ey:g}):",
        f"@{command} --back-offset={ex:g},{ey:g}",
        "5. The five readings differ: the printer turns or scales one side. Use the reading at E "
        "(the centre); the corners then stay within the difference.",
        "6. A front cross off its scale, or behind a target with another letter: the printer "
        "flipped on the SHORT edge. Change the duplex setting to long-edge flip and print again; "
        "do not enter an offset for it.",
    ]
    c.setFont(regular, 8.5)
    y = top + 8
    for paragraph in paragraphs:
        if paragraph.startswith("@"):  # a command, on a line of its own
            c.setFont(bold, 8.5)
            c.drawString((left + 6) * MM, Y(y), paragraph[1:])
            c.setFont(regular, 8.5)
            y += 4.4
            continue
        for line in simpleSplit(paragraph, regular, 8.5, (right - left) * MM):
            c.drawString(left * MM, Y(y), line)
            y += 3.9
        y += 1.2
    ruler_y = s.ph - (40 if s.grid.landscape else 80)
    _ruler(c, left, ruler_y - 16, 100, 1.0, "mm", Y)
    _ruler(c, left, ruler_y, 101.6, 2.54, "in/10", Y)
    for name, tx, ty in marks:
        _cross(c, tx, ty, Y)
        c.setFont(bold, 9)
        c.drawString((tx + 3) * MM, Y(ty - 3), name)
    w.next_page()
    # The back: each target where long-edge duplex puts it, shifted by the offset, on scales.
    for name, tx, ty in marks:
        bx, by = s.behind(tx, ty)
        bx, by = bx + dx, by + dy
        _cross(c, bx, by, Y, rings=False)
        _scale(c, bx, by, Y)
        c.setFont(bold, 9)
        c.drawString((bx - 9) * MM, Y(by - 9), name)
    c.setFont(regular, 8)
    cx, cy = s.pw / 2 - 10 + dx, s.ph - (45 if s.grid.landscape else 85) + dy  # clear of every target, whichever way it is flipped
    c.drawCentredString(cx * MM, Y(cy), "Back: at each letter, read where the front's cross lies on these scales (mm).")
    c.drawCentredString(cx * MM, Y(cy + 4), f"This file's back offset: {dx:+g} mm across, {dy:+g} mm down.")
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


def _cross(c: Canvas, x: float, y: float, Y, rings: bool = True) -> None:
    c.setLineWidth(0.25)
    c.line((x - ARM) * MM, Y(y), (x + ARM) * MM, Y(y))
    c.line(x * MM, Y(y - ARM), x * MM, Y(y + ARM))
    for r in (2, 5, 10) if rings else ():
        c.circle(x * MM, Y(y), r * MM, stroke=1, fill=0)


def _scale(c: Canvas, x: float, y: float, Y) -> None:
    """Millimetre ticks along both arms of the cross, numbered every 5 mm."""
    c.setFont(fonts.pdf_name("regular"), 5)
    for i in range(-SCALE, SCALE + 1):
        tall = 2.2 if i % 5 == 0 else 1.0
        c.line((x + i) * MM, Y(y - tall), (x + i) * MM, Y(y + tall))
        c.line((x - tall) * MM, Y(y + i), (x + tall) * MM, Y(y + i))
        if i % 5 == 0 and i:
            c.drawCentredString((x + i) * MM, Y(y + 4.5), f"{i:+d}")
            if abs(i) > 5:  # +5 and -5 down the arm would touch those across it
                c.drawString((x + 3) * MM, Y(y + i + 0.7), f"{i:+d}")
