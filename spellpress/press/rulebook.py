"""Rulebooks: the game's YAML through a jinja2 template into markup, and the markup through
reportlab's platypus into a PDF with a cover, contents, page numbers and a labelled card.

The template (`templates/rulebook/<slug>.md.j2`, extending `base.md.j2`) decides what goes
where; every number in it comes from the loaded game, so a changed constant changes the book.
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from pathlib import Path

import jinja2
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, letter
from reportlab.platypus import BaseDocTemplate, Flowable, Frame, PageTemplate
from reportlab.platypus.tableofcontents import TableOfContents

from ..core import ruletext
from ..core.models import Game
from . import fonts, markup, rlinternals, templatelines
from .displaylist import Drawing
from .files import atomic_write
from .pdf import MM
from .pdf import draw as draw_face

PAGES = {"a4": A4, "letter": letter}
BOOKLET_PAGES = {paper: (size[1] / 2, size[0]) for paper, size in PAGES.items()}  # half a sheet, folded


@dataclass(frozen=True)
class Sample:
    """A card to show with its parts labelled: (label, box in mm) for each part."""

    drawing: Drawing
    parts: tuple[tuple[str, tuple[float, float, float, float]], ...]


@dataclass(frozen=True)
class Book:
    """Everything a rulebook PDF is made of; made in the main process, drawn in a worker."""

    title: str
    pitch: str
    blocks: tuple[markup.Block, ...]  # the rendered markup, read
    accent: str
    cover: str  # colour of the cover
    element_colors: tuple[tuple[str, str], ...]
    samples: tuple[tuple[str, Sample], ...]  # card id -> sample
    fanned: tuple[Drawing, ...]  # cards shown on the cover


# A rulebook template may come from anyone who shares the folder: it is rendered in jinja2's
# sandbox with `*` and `**` bounded (core/ruletext.py), and has a budget. Today's books come
# to 11,000-16,000 characters in well under 0.1 s; a template past either bound is a problem
# at its line, not a build that never ends or fills the memory.
BUDGET_SECONDS = 5.0  # of rendering one rulebook's markup
MAX_MARKUP = 1_000_000  # characters of markup: some 400 pages


def render_markup(game: Game, templates: Path, **extra) -> templatelines.Rendered:
    """The rulebook's markup: templates/rulebook/<slug>.md.j2, else the shared base; with the
    template line each line of it comes from. Past its budget, templatelines.OverBudget."""
    env = ruletext.sandbox(
        loader=jinja2.FileSystemLoader(str(templates / "rulebook")),
        undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
    )
    name = f"{game.slug}.md.j2" if (templates / "rulebook" / f"{game.slug}.md.j2").is_file() else "base.md.j2"
    variables = dict(
        game=game, c=game.text_context, decks=list(game.decks.values()), rules=game.rules,
        cards_of=lambda card_type: [card for card in game.cards if card.type == card_type],
        card=game.card, ask=lambda helper, **inputs: _ask(game, helper, inputs),
        **extra,
    )
    return templatelines.render(env.get_template(name), variables, seconds=BUDGET_SECONDS, max_text=MAX_MARKUP)


def _ask(game: Game, helper: str, inputs: dict) -> dict:
    """A rule helper's answer, for a worked example: the book's examples are worked out by the
    same code as the companion's calculators. An example the helper refuses is the template's
    mistake, reported like one."""
    from ..core import games
    from ..core.play.errors import Invalid

    try:
        return games.ask(game, helper, inputs)
    except Invalid as exc:
        raise jinja2.TemplateRuntimeError(f"the example ask('{helper}', ...) is refused: {exc}") from None


def pdf(book: Book, paper: str, booklet: bool = False, contents: Path | None = None) -> bytes:
    """The rulebook as a PDF on `paper`; `booklet` gives half-size pages, for imposing.

    The contents page needs the pages its headings land on, so platypus lays the book out
    again until they stop changing: twice from nothing. `contents` (a file) keeps the last
    build's entries; starting from them, a book whose headings did not move is laid out once.
    The bytes are the same either way: the last pass always draws the entries it confirms.
    """
    page = BOOKLET_PAGES[paper] if booklet else PAGES[paper]
    st = markup.styles(book.accent)
    colours = dict(book.element_colors)
    samples = dict(book.samples)
    story = markup.flowables(book.blocks, st, colours, lambda card: _SampleFlowable(samples[card], st))
    tocs = [f for f in story if isinstance(f, TableOfContents)]
    if contents is not None and tocs:
        rlinternals.set_contents_entries(tocs[0], _kept_entries(contents))
    out = io.BytesIO()
    doc = _Doc(out, book, page, st)
    doc.multiBuild(story)
    if contents is not None and tocs:
        atomic_write(contents, json.dumps(rlinternals.contents_entries(tocs[0])).encode())
    return out.getvalue()


def _kept_entries(path: Path) -> list[tuple]:
    """The contents entries a build kept: (level, text, page, key) each; none if unreadable."""
    try:
        entries = [tuple(entry) for entry in json.loads(path.read_text())]
    except (OSError, ValueError, TypeError):
        return []
    shape = (int, str, int, (str, type(None)))
    if all(len(e) == 4 and all(isinstance(v, t) for v, t in zip(e, shape)) for e in entries):
        return entries
    return []


class _Doc(BaseDocTemplate):
    def __init__(self, out, book: Book, page, st: markup.Styles):
        margin = 16 * MM if page[0] > 420 else 12 * MM
        super().__init__(out, pagesize=page, leftMargin=margin, rightMargin=margin, topMargin=margin + 4 * MM,
                         bottomMargin=margin + 2 * MM, title=f"{book.title}: rules", author="Spellpress",
                         creator="Spellpress", invariant=1,
                         initialFontName=fonts.pdf_name("regular"))  # else Helvetica, unembedded
        self.book, self.st = book, st
        frame = Frame(self.leftMargin, self.bottomMargin, self.width, self.height, id="body")
        cover = Frame(self.leftMargin, self.bottomMargin, self.width, self.height * 0.01, id="cover")
        self.addPageTemplates([
            PageTemplate("cover", [cover], onPage=self._cover, autoNextPageTemplate="body"),
            PageTemplate("body", [frame], onPage=self._page),
        ])

    def afterFlowable(self, flowable):
        if isinstance(flowable, markup.Heading):
            self.notify("TOCEntry", (flowable.level, flowable.getPlainText(), self.page))

    def _page(self, canvas, doc):
        w, h = self.pagesize
        canvas.saveState()
        canvas.setFillColor(self.st.accent)
        canvas.setFont(fonts.pdf_name("bold"), 8)
        canvas.drawString(self.leftMargin, h - self.topMargin + 8 * MM, self.book.title)
        canvas.setStrokeColor(self.st.accent)
        canvas.setLineWidth(0.5)
        canvas.line(self.leftMargin, h - self.topMargin + 6.5 * MM, w - self.rightMargin, h - self.topMargin + 6.5 * MM)
        canvas.setFillColor(colors.HexColor("#6f665a"))
        canvas.setFont(fonts.pdf_name("regular"), 8.5)
        canvas.drawCentredString(w / 2, self.bottomMargin - 9 * MM, str(doc.page))
        canvas.restoreState()

    def _cover(self, canvas, doc):
        w, h = self.pagesize
        canvas.saveState()
        canvas.setFillColor(colors.HexColor(self.book.cover))
        canvas.rect(0, 0, w, h, stroke=0, fill=1)
        canvas.setFillColor(colors.white)
        size = 40 if w > 420 else 28
        canvas.setFont(fonts.pdf_name("bold"), size)
        canvas.drawCentredString(w / 2, h * 0.78, self.book.title)
        canvas.setFont(fonts.pdf_name("italic"), size * 0.32)
        for i, line in enumerate(_wrap(self.book.pitch, "italic", size * 0.32, w * 0.7)):
            canvas.drawCentredString(w / 2, h * 0.78 - size * 0.9 - i * size * 0.45, line)
        # A fan of cards, drawn by the card renderer.
        cards = self.book.fanned
        scale = (w * 0.22) / (63.5 * MM)
        for i, face in enumerate(cards):
            angle = (i - (len(cards) - 1) / 2) * 12
            canvas.saveState()
            canvas.translate(w / 2, h * 0.2)
            canvas.rotate(-angle)
            canvas.translate(-(face.width / 2 + face.bleed) * MM * scale, 0)
            canvas.scale(scale, scale)
            _clip_to_trim(canvas, face)
            draw_face(canvas, face)
            canvas.restoreState()
        canvas.setFont(fonts.pdf_name("regular"), 8)
        canvas.drawCentredString(w / 2, 10 * MM, "Rules · made with Spellpress")
        canvas.restoreState()


def _clip_to_trim(canvas, face: Drawing) -> None:
    path = canvas.beginPath()
    path.roundRect(face.bleed * MM, face.bleed * MM, face.width * MM, face.height * MM, 3 * MM)
    canvas.clipPath(path, stroke=0, fill=0)


def _wrap(text: str, font: str, size: float, width: float) -> list[str]:
    lines, line = [], ""
    for word in text.split():
        trial = f"{line} {word}".strip()
        if fonts.width(trial, font, size) * MM > width and line:
            lines.append(line)
            line = word
        else:
            line = trial
    return lines + ([line] if line else [])


class _SampleFlowable(Flowable):
    """The card at actual size, its parts named with leader lines."""

    def __init__(self, sample: Sample, st: markup.Styles):
        super().__init__()
        self.sample, self.st = sample, st
        d = sample.drawing
        self.card_w, self.card_h = d.width * MM, d.height * MM
        self.width_needed = self.card_w + 70 * MM
        self.height_needed = self.card_h + 6 * MM

    def wrap(self, available_width, available_height):
        self.available = available_width
        return available_width, self.height_needed

    def draw(self):
        c, d = self.canv, self.sample.drawing
        c.saveState()
        c.translate(0, 3 * MM)
        c.saveState()
        c.translate(-d.bleed * MM, -d.bleed * MM)
        _clip_to_trim(c, d)
        draw_face(c, d)
        c.restoreState()
        label_x = self.card_w + 14 * MM
        parts = sorted(self.sample.parts, key=lambda p: p[1][1])
        step = self.card_h / max(len(parts), 1)
        c.setFont(fonts.pdf_name("bold"), 9)
        for i, (label, (x, y, w, h)) in enumerate(parts):
            tx, ty = (x + w / 2) * MM, self.card_h - (y + h / 2) * MM
            ly = self.card_h - (i + 0.5) * step
            c.setStrokeColor(self.st.accent)
            c.setFillColor(self.st.accent)
            c.setLineWidth(0.6)
            c.line(tx, ty, self.card_w + 4 * MM, ty)
            c.line(self.card_w + 4 * MM, ty, label_x - 2 * MM, ly)
            c.circle(tx, ty, 1.1, stroke=0, fill=1)
            c.setFillColor(colors.HexColor("#231f1a"))
            c.drawString(label_x, ly - 3, label)
        c.restoreState()


def impose(pdf_bytes: bytes, paper: str) -> bytes:
    """Half-size pages two to a landscape sheet in saddle-stitch order: print double-sided
    (flip on the short edge), fold the stack in half, staple the fold."""
    from pypdf import PageObject, PdfReader, PdfWriter, Transformation

    reader = PdfReader(io.BytesIO(pdf_bytes))
    pages = list(reader.pages)
    half_w, half_h = BOOKLET_PAGES[paper]
    while len(pages) % 4:
        pages.append(None)  # blank pages at the back
    n = len(pages)
    order = []
    for sheet in range(n // 4):
        order += [(n - 1 - 2 * sheet, 2 * sheet), (2 * sheet + 1, n - 2 - 2 * sheet)]
    writer = PdfWriter()
    for left, right in order:
        sheet = PageObject.create_blank_page(width=2 * half_w, height=half_h)
        for index, dx in ((left, 0), (right, half_w)):
            if pages[index] is not None:
                sheet.merge_transformed_page(pages[index], Transformation().translate(dx, 0))
        writer.add_page(sheet)
    writer.add_metadata({"/Title": reader.metadata.title or "", "/Creator": "Spellpress"})
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
