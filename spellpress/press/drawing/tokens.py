"""Tokens: the decks the rules call tokens (a deck with `token:` in decks.yaml) print as small
punch-out pieces on a sheet with cut lines, not as poker cards (GUIDE section 2).

A piece is drawn from the same data as the deck's cards: its colours and icon are the deck
back's (its `field`, `ring`, `ink` and `frame` colours and its `emblem` icon), and the field the
deck's `token.shows` names (a health token's value) is printed large on it. Each card's count
decides how many pieces print. A piece's own drawing has the print shop's 1/8 in bleed (its
PNG is that); on the sheet each piece keeps 1.5 mm of it, in a cell of its own, so a cut a
millimetre off still shows no white.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass

from reportlab.pdfgen.canvas import Canvas

from ...core.models import Card, Deck, Game, TokenSpec
from ...core.problems import Problem, ValidationFailed
from . import fonts
from .displaylist import Color, Drawing, Ellipse, Primitive, Rect, Text
from .icons import IconSet
from .layout import hex_color
from .papers import PAPERS
from .pdf import MM, define_form, new_canvas, prepare
from .sheets import UNPRINTABLE
from .templates import Templates

PIECE_BLEED = 25.4 / 8  # a piece's drawing, and so its PNG, has the print-shop bleed
SHEET_BLEED = 1.5  # what of it a piece keeps on the sheet, beyond its cut line, mm
GAP = SHEET_BLEED + 1.0  # from a piece's cut line to its cell's edge, mm
MARK_GAP, MARK_LEN = 1.0, 5.0  # crop marks start 1 mm beyond the grid and are 5 mm long
CUT = (0.25, 0.25, 0.25)  # the colour of cut lines (pieces' outlines, the grid, crop marks)
HEADER = 24.0  # mm below the unprintable edge for the page's title, note and ruler
SCALE_MM = 50.0  # the ruler that checks the page printed at actual size


@dataclass(frozen=True)
class Piece:
    card: str  # the card's id
    count: int
    drawing: Drawing


@dataclass(frozen=True)
class TokenDeck:
    id: str
    name: str
    size: float  # mm across
    shape: str  # 'round' or 'square'
    pieces: tuple[Piece, ...]

    @property
    def total(self) -> int:
        return sum(p.count for p in self.pieces)


def lay_out(game: Game, templates: Templates, icons: IconSet, ink: str = "full") -> tuple[TokenDeck, ...]:
    """Every token deck of the game, its pieces drawn; raises ValidationFailed if a deck's back
    cannot give a piece its colours and icon."""
    decks, problems = [], []
    for deck in game.decks.values():
        if deck.token is None:
            continue
        back = templates.get(deck.back)
        emblem = dict(back.boxes).get("emblem")
        if emblem is None or emblem.icon is None or emblem.icon not in icons:
            problems.append(Problem(f"templates/{deck.back}.yaml", 0, 0, "boxes.emblem",
                                    f"deck '{deck.id}' prints as tokens, which show its back's emblem: give the back an "
                                    "'emblem' box of kind icon with an icon of icons.yaml"))
            continue
        style = back.ink(ink)  # the back's colours in the build's ink: its grounds made light, grey in mono
        palette = {name: style.hex(name, value, ground=name in ("field", "frame")) for name, value in style.palette.items()}
        decks.append(_deck(deck, deck.token, palette, emblem.icon, icons))
    if problems:
        raise ValidationFailed(problems)
    return tuple(decks)


def _deck(deck: Deck, spec: TokenSpec, palette: dict, icon: str, icons: IconSet) -> TokenDeck:
    pieces = tuple(Piece(card.id, card.count, piece(card, spec, palette, icon, icons)) for card in deck.cards)
    return TokenDeck(deck.id, deck.name, spec.size_mm, spec.shape, pieces)


def piece(card: Card, spec: TokenSpec, palette: dict, icon: str, icons: IconSet) -> Drawing:
    """One token's face: the back's field colour, a ring, the emblem, and the value it shows."""
    s, b = spec.size_mm, PIECE_BLEED
    field, ring = hex_color(palette.get("field", "#574c73")), hex_color(palette.get("ring", "#b08d3c"))
    ink, frame = hex_color(palette.get("ink", "#fbf7ee")), hex_color(palette.get("frame", "#3d3550"))
    inset = 1.4
    items: list[Primitive]
    if spec.shape == "round":
        items = [Ellipse(s / 2, s / 2, s / 2 + b, s / 2 + b, fill=field),
                 Ellipse(s / 2, s / 2, s / 2 - inset, s / 2 - inset, stroke=ring, width=0.45)]
    else:
        items = [Rect(-b, -b, s + 2 * b, s + 2 * b, fill=field),
                 Rect(inset, inset, s - 2 * inset, s - 2 * inset, stroke=ring, width=0.45, radius=1.5)]
    shown = card.get(spec.shows) if spec.shows else None
    glyph = s * (0.66 if shown is not None else 0.56)
    items += icons.glyph(icon, (s - glyph) / 2, (s - glyph) / 2, glyph, ring, field)
    if shown is not None:
        text, color = str(shown), max((ink, frame), key=lambda c: contrast(c, ring))
        size = s * 0.36 * 72 / 25.4  # points: a third of the piece tall
        width = fonts.width(text, "bold", size)
        items.append(Text(s / 2 - width / 2, s / 2 + size * 0.34 * 25.4 / 72, text, "bold", size, color))
    return Drawing(s, s, b, tuple(items))


def contrast(a: Color, b: Color) -> float:
    """WCAG's contrast ratio of two colours."""
    def luminance(c: Color) -> float:
        linear = [v / 255 / 12.92 if v / 255 <= 0.04045 else ((v / 255 + 0.055) / 1.055) ** 2.4 for v in c]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


# ---------------------------------------------------------------------------- the sheet


def pitch(deck: TokenDeck) -> float:
    """A cell's side: the piece and its gap on each side, mm."""
    return deck.size + 2 * GAP


def columns(deck: TokenDeck, page_w: float) -> int:
    """As many cells as fit between the margins that keep the crop marks printable."""
    return int((page_w - 2 * (UNPRINTABLE + MARK_GAP + MARK_LEN)) // pitch(deck))


@dataclass(frozen=True)
class TokensPdf:
    """The job making a game's token sheet for one paper (see outputs/listing.py)."""

    decks: tuple[TokenDeck, ...]
    paper: str
    title: str

    def __call__(self, shared: dict) -> bytes:
        return sheet_pdf(self.decks, self.paper, self.title)


def sheet_pdf(decks: tuple[TokenDeck, ...], paper: str, title: str) -> bytes:
    """Every token deck's pieces, each its count times, in grids with cut lines: a deck's grid
    starts under its own heading, and goes on over the next page if it must."""
    p = PAPERS[paper]
    pw, ph = p.width, p.height
    out = io.BytesIO()
    c = new_canvas(out, pagesize=(pw * MM, ph * MM))
    c.setTitle(f"{title}: tokens")
    c.setCreator("Spellpress")
    prepare(c)
    for deck in decks:
        for n, item in enumerate(deck.pieces):
            define_form(c, _form(deck, n), item.drawing)
    bottom = ph - UNPRINTABLE - MARK_GAP - MARK_LEN
    y = _header(c, title, decks, pw, ph)
    for deck in decks:
        cells = [n for n, item in enumerate(deck.pieces) for _ in range(item.count)]
        cols, step = columns(deck, pw), pitch(deck)
        heading = f"{deck.name}: {deck.total} pieces, {deck.size:g} mm {'across' if deck.shape == 'round' else 'square'}"
        while cells:
            rows = min(math.ceil(len(cells) / cols), int((bottom - y - 10) // step))
            if rows < 1:
                c.showPage()
                y = _header(c, title, decks, pw, ph)
                heading = f"{deck.name} (continued)"
                continue
            top = y + 10  # room for the heading and the crop marks above the grid
            chunk, cells = cells[: rows * cols], cells[rows * cols:]
            _grid(c, deck, chunk, cols, top, pw, ph, heading)
            y = top + rows * step + MARK_GAP + MARK_LEN + 3
    c.showPage()
    c.save()
    return out.getvalue()


def _form(deck: TokenDeck, n: int) -> str:
    return f"token-{deck.id}-{n}"


def _header(c: Canvas, title: str, decks: tuple[TokenDeck, ...], pw: float, ph: float) -> float:
    """The page's title, how to print and cut, and a ruler; returns where the grids may start."""
    x, top = UNPRINTABLE + MARK_GAP + MARK_LEN, UNPRINTABLE
    c.setFillColorRGB(0.1, 0.1, 0.1)
    c.setFont(fonts.pdf_name("bold"), 12)
    c.drawString(x * MM, (ph - top - 5) * MM, f"{title}: tokens")
    c.setFont(fonts.pdf_name("regular"), 8)
    punch = " or ".join(sorted({f"{d.size:g} mm" for d in decks if d.shape == "round"}))
    lines = ["Print at actual size (100 %, not 'fit to page'); the bar below is exactly 50 mm. Glue to card stock if you like.",
             "Cut along the lines from mark to mark into squares, then cut each piece out along its outline"
             + (f" (a {punch} circle punch does it at once)." if punch else ".")]
    for i, line in enumerate(lines):
        c.drawString(x * MM, (ph - top - 10 - i * 3.6) * MM, line)
    ry = ph - top - HEADER + 4
    c.setStrokeColorRGB(0.1, 0.1, 0.1)
    c.setLineWidth(0.3 * MM)
    c.line(x * MM, ry * MM, (x + SCALE_MM) * MM, ry * MM)
    for tick in range(0, int(SCALE_MM) + 1, 10):
        c.line((x + tick) * MM, ry * MM, (x + tick) * MM, (ry + (2 if tick % 50 else 3)) * MM)
    c.drawString((x + SCALE_MM + 2) * MM, ry * MM, f"{SCALE_MM:g} mm")
    return top + HEADER


def _grid(c: Canvas, deck: TokenDeck, cells: list[int], cols: int, top: float, pw: float, ph: float,
          heading: str) -> None:
    """The cells from the top left, row by row; thin cut lines between them (in the white gaps)
    and crop marks in the margin where every cut line meets it."""
    step, s = pitch(deck), deck.size
    rows = math.ceil(len(cells) / cols)
    width = min(cols, len(cells)) * step
    left = (pw - width) / 2

    def Y(y: float) -> float:
        return (ph - y) * MM

    c.setFillColorRGB(0.1, 0.1, 0.1)
    c.setFont(fonts.pdf_name("bold"), 9)
    c.drawString(left * MM, Y(top - MARK_GAP - MARK_LEN - 1.5), heading)
    for i, n in enumerate(cells):
        r, col = divmod(i, cols)
        x, y = left + col * step + GAP, top + r * step + GAP  # the piece's trim, top left
        c.saveState()
        clip = c.beginPath()
        if deck.shape == "round":
            clip.circle((x + s / 2) * MM, Y(y + s / 2), (s / 2 + SHEET_BLEED) * MM)
        else:
            clip.rect((x - SHEET_BLEED) * MM, Y(y + s + SHEET_BLEED), (s + 2 * SHEET_BLEED) * MM, (s + 2 * SHEET_BLEED) * MM)
        c.clipPath(clip, stroke=0, fill=0)
        c.translate((x - PIECE_BLEED) * MM, Y(y + s + PIECE_BLEED))
        c.doForm(_form(deck, n))
        c.restoreState()
    c.saveState()
    c.setStrokeColorRGB(*CUT)
    c.setLineWidth(0.2 * MM)
    for i in range(len(cells)):  # each piece's outline: the line a knife or a punch follows
        r, col = divmod(i, cols)
        x, y = left + col * step + GAP, top + r * step + GAP
        if deck.shape == "round":
            c.circle((x + s / 2) * MM, Y(y + s / 2), s / 2 * MM, stroke=1, fill=0)
        else:
            c.rect(x * MM, Y(y + s), s * MM, s * MM, stroke=1, fill=0)
    height = rows * step
    xs = [left + k * step for k in range(min(cols, len(cells)) + 1)]
    ys = [top + k * step for k in range(rows + 1)]
    for x in xs:  # the cuts between cells, through the white gaps
        c.line(x * MM, Y(top), x * MM, Y(top + height))
    for y in ys:
        c.line(left * MM, Y(y), (left + width) * MM, Y(y))
    for x in xs:  # and where each meets the margin
        c.line(x * MM, Y(top - MARK_GAP), x * MM, Y(top - MARK_GAP - MARK_LEN))
        c.line(x * MM, Y(top + height + MARK_GAP), x * MM, Y(top + height + MARK_GAP + MARK_LEN))
    for y in ys:
        c.line((left - MARK_GAP) * MM, Y(y), (left - MARK_GAP - MARK_LEN) * MM, Y(y))
        c.line((left + width + MARK_GAP) * MM, Y(y), (left + width + MARK_GAP + MARK_LEN) * MM, Y(y))
    c.restoreState()
