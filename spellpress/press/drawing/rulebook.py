"""Rulebooks: the game's YAML through a jinja2 template into markup, and the markup through
reportlab's platypus into a PDF with a cover, contents, page numbers and a labelled card.

The template (`templates/rulebook/<slug>.md.j2`, extending `base.md.j2`) decides what goes
where; every number in it comes from the loaded game, so a changed constant changes the book.
"""

from __future__ import annotations

import functools
import io
import json
import math
import re
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from types import MappingProxyType

import jinja2
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, letter
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import BaseDocTemplate, Flowable, Frame, PageTemplate
from reportlab.platypus.tableofcontents import TableOfContents

from ... import defaults
from ...core import fontcheck, games, ruletext
from ...core.models import Game
from ...core.play.errors import Invalid
from ..files import atomic_write
from . import fonts, markup, rlinternals, skeleton, templatelines
from . import pdf as pdfdraw
from .displaylist import Area, Drawing, Part, Text
from .faces import value_bytes
from .pdf import MM
from .pdf import draw as draw_face

PAGES = {"a4": A4, "letter": letter}
BOOKLET_PAGES = {paper: (size[1] / 2, size[0]) for paper, size in PAGES.items()}  # half a sheet, folded


@dataclass(frozen=True)
class Sample:
    """A card to show with its parts labelled: every box it shows, in the order they are drawn,
    with where its ink is (layout.Layouter.parts); those with a label are named in the figure."""

    drawing: Drawing
    parts: tuple[Part, ...]

    @property
    def labelled(self) -> tuple[Part, ...]:
        return tuple(part for part in self.parts if part.label)


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
    typeset: str = "9"  # bump when a change to this module or markup.py changes the PDF: it is in the build's key


# A rulebook template may come from anyone who shares the folder: it is rendered in jinja2's
# sandbox with `*` and `**` bounded (core/ruletext.py), and has a budget. Today's books come
# to 11,000-16,000 characters in well under 0.1 s; a template past either bound is a problem
# at its line, not a build that never ends or fills the memory.
BUDGET_SECONDS = 5.0  # of rendering one rulebook's markup
MAX_MARKUP = 1_000_000  # characters of markup: some 400 pages


def render_markup(game: Game, templates: Path, **extra) -> templatelines.Rendered:
    """The rulebook's markup: templates/rulebook/<slug>.md.j2, else the shared base (the project's
    templates/rulebook/base.md.j2, else the package's: spellpress/defaults/); with the
    template line each line of it comes from. Past its budget, templatelines.OverBudget."""
    folder = (templates / "rulebook").resolve()
    # The package's folder only while the project has no base.md.j2 of its own: an environment
    # (kept between builds) would go on serving the base it compiled first, though one was added.
    shared = () if (folder / "base.md.j2").is_file() else (str(defaults.TEMPLATES / "rulebook"),)
    env = _environment(str(folder), *shared)
    name = f"{game.slug}.md.j2" if (templates / "rulebook" / f"{game.slug}.md.j2").is_file() else "base.md.j2"
    book = as_written(game)
    variables = dict(
        game=book, c=game.text_context, decks=list(book.decks.values()), rules=book.rules,
        cards_of=lambda card_type: [card for card in book.cards if card.type == card_type],
        card=book.card, ask=lambda helper, **inputs: _ask(game, helper, inputs),
        **extra,
    )
    return templatelines.render(env.get_template(name), variables, seconds=BUDGET_SECONDS, max_text=MAX_MARKUP)


def as_written(game: Game) -> Game:
    """The game as its rulebook template sees it: the rules' titles and texts, the glossary's
    and the cards' texts are the designer's markup (MarkupText), the texts rendered again with
    what each of their `{{ references }}` prints marked as literal text, so that no constant
    ever reads as markup (a `3.` starting a line, a `*`, a `|` in a table's cell)."""
    def written(source: str, context) -> markup.MarkupText:
        text, _ = ruletext.render(source, context, literal=markup.literal)  # it rendered in the loader: no errors
        return markup.MarkupText(text or "")

    context = game.text_context
    rules = tuple(replace(section, title=markup.MarkupText(section.title), text=written(section.source, context))
                  for section in game.rules)
    glossary = game.glossary
    if len(game.glossary_written) == len(glossary):
        glossary = tuple((term, written(source, context)) for (term, _), source in zip(glossary, game.glossary_written))

    def card(c):
        fields = {name: written(game.cards_written[(c.id, name)], game.context_of(c))
                  if (c.id, name) in game.cards_written else value for name, value in c.fields.items()}
        return replace(c, fields=MappingProxyType(fields))

    decks = {d: replace(deck, cards=tuple(map(card, deck.cards))) for d, deck in game.decks.items()}
    return replace(game, rules=rules, glossary=glossary, decks=MappingProxyType(decks))


@functools.lru_cache(maxsize=8)
def _environment(*folders: str) -> jinja2.Environment:
    """One environment per folder of rulebook templates, so that a build after an edit (watch, the
    resident builder, the preview) compiles no template again unless its file changed (jinja2
    checks a template's file before each use of it). A name is looked up in the folders in
    order: the project's own `base.md.j2` wins over the package's.

    What an expression prints is literal text in the markup (markup.printed), unless it is markup
    written as such: a rule's, a glossary term's or a card's text (as_written), a block's or
    `super()`'s output (the template's own lines), `x | icon` (`{fire}` for an element's name) and
    `x | markup`, which says that `x` is markup on purpose."""
    env = ruletext.sandbox(
        loader=jinja2.FileSystemLoader(list(folders)), finalize=markup.printed,
        undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
    )
    env.concat = _concat  # type: ignore[method-assign]  # a block's output (super(), self.name()) is the template's markup
    env.filters.update(icon=_icon, markup=markup.MarkupText, replace=_replace)
    return env


def _concat(pieces) -> markup.MarkupText:
    return markup.MarkupText("".join(pieces))


def _icon(name: object) -> str:
    """`{{ element | icon }}`: the element's inline icon, `{fire}`, as markup."""
    word = str(name).lower()
    return markup.MarkupText(f"{{{word}}}") if re.fullmatch(r"[a-z0-9-]+", word) else markup.literal(name)


def _replace(text: object, old: str, new: str, count: int | None = None) -> str:
    """jinja2's `replace`, keeping markup markup (`card.text | replace("\\n", " ")`)."""
    out = str(text).replace(str(old), str(new), -1 if count is None else count)
    return markup.MarkupText(out) if isinstance(text, markup.MarkupText) else out


def _ask(game: Game, helper: str, inputs: dict) -> dict:
    """A rule helper's answer, for a worked example: the book's examples are worked out by the
    same code as the companion's calculators. An example the helper refuses is the template's
    mistake, reported like one."""
    try:
        return games.ask(game, helper, inputs)
    except Invalid as exc:
        asked = repr(inputs) if len(repr(inputs)) <= 160 else repr(inputs)[:157] + "..."
        raise jinja2.TemplateRuntimeError(f"the example ask('{helper}', {asked}) is refused: {exc}") from None


@dataclass(frozen=True)
class Placed:
    """A flowable as the last layout pass put it on a page: for checking the page breaks."""

    page: int
    kind: str  # its class: Heading, Text, Item, Table, ...
    lines: int  # a paragraph's, a heading's or a list item's lines; 0 for anything else
    continued: bool  # a paragraph's (or an item's) part carried over from the page before
    block: int = -1  # the markup block it sets (markup.parse), -1 for none
    item: tuple[int, int] = (0, 0)  # a list item's number and the list's number of items
    height: float = 0.0  # in points, as laid out
    keeps: bool = False  # kept with what follows it (a heading, an introducing paragraph, a list's first item)


def pdf(book: Book, paper: str, booklet: bool = False, contents: Path | None = None,
        placed: list[Placed] | None = None, keep: Path | None = None) -> bytes:
    """The rulebook as a PDF on `paper`; `booklet` gives half-size pages, for imposing.

    The contents page needs the pages its headings land on, so platypus lays the book out
    again until they stop changing: twice from nothing. `contents` (a file) keeps the last
    build's entries; starting from them, a book whose headings did not move is laid out once.
    The bytes are the same either way: the last pass always draws the entries it confirms.
    `placed`, if given, receives where the last pass put each flowable.

    The card figures (the sample cards with their leaders, the cover's fan) are forms: with
    `keep` (a file named by skeleton_key), the book's skeleton (skeleton.py) is kept there, and
    a later book that differs only in what those figures draw is the skeleton with the new
    figures put in, not laid out again. A booklet's pages draw them in place, as pypdf reads
    the forms of an imposed page in the wrong place (the tests read the figures' leaders), and
    are laid out whole.
    """
    page = BOOKLET_PAGES[paper] if booklet else PAGES[paper]
    st = markup.styles(book.accent)
    keep = None if booklet else keep
    if keep is not None and placed is None:
        data = _refill(keep, book, page, st)
        if data is not None:
            return data
    colours = dict(book.element_colors)
    samples = dict(book.samples)
    turns = markup.Turns()
    entries = _kept_entries(contents) if contents is not None else None
    for attempt in range(MAX_TURNS + 1):  # again, while a chapter's last page is short and can be helped
        places: list[Placed] = []
        forms = _Forms(inline=booklet)
        story = markup.flowables(book.blocks, st, colours, functools.partial(_sample, samples, st, forms, page), turns)
        tocs = [f for f in story if isinstance(f, TableOfContents)]
        if entries is not None and tocs:
            rlinternals.set_contents_entries(tocs[0], entries)
        out = io.BytesIO()
        doc = _Doc(out, book, page, st, places, forms)
        doc.multiBuild(story)
        more = turns_for_short_ends(places, turns, st.body.leading)
        if more is None or attempt == MAX_TURNS:
            break
        turns = more
        entries = rlinternals.contents_entries(tocs[0]) if tocs else None  # the headings' pages as they were
    if placed is not None:
        placed[:] = places
    if contents is not None and tocs:
        atomic_write(contents, json.dumps(rlinternals.contents_entries(tocs[0])).encode())
    data = out.getvalue()
    if keep is not None:
        objects = rlinternals.saved_objects(doc.canv)
        kept = skeleton.make(data, objects, forms.holes) if objects else None
        if kept is not None:
            atomic_write(keep, kept)
    return data


# A chapter (what a `::: pagebreak` ends, and the book's last) whose last page would hold fewer
# lines than this has lines carried over to it from the page before, or a page turned earlier
# there, so that it holds at least this many: never a page of a line or three ending a chapter.
LEAST_LAST_PAGE = 6
MAX_TURNS = 3  # layouts more a book may take to get there


def turns_for_short_ends(places: list[Placed], turns: markup.Turns, leading: float) -> markup.Turns | None:
    """What the next layout must do so that no chapter's last page is short (LEAST_LAST_PAGE), on
    top of `turns`; None if every chapter's last page holds enough, or no more can be done.

    For a short last page, the page before gives what it needs from its foot: the last paragraph
    there that can carry the lines over and keep two carries them (markup.Text's force_tail; a
    list item only where it was split already); else a page is turned before as many of its last
    flowables as make up the lines, and before any heading or introducing paragraph kept with
    them. Never before the page's first one: a page left empty helps nothing."""
    pages: dict[int, list[Placed]] = {}
    for p in places:
        if p.block >= 0:  # the markup's own blocks: a page break, a kept group's marks are not
            pages.setdefault(p.page, []).append(p)
    if not pages:
        return None
    breaks = {p.page for p in places if p.kind == "PageBreak"}  # a chapter ends on the page its break is placed on
    carry, turn_before = dict(turns.carry), set(turns.turn_before)
    for end in sorted(breaks | {max(pages)}):
        if end - 1 in breaks or end not in pages or end - 1 not in pages:
            continue  # the chapter is on one page: all of it is there
        short = LEAST_LAST_PAGE - sum(_lines(p, leading) for p in pages[end])
        before = pages[end - 1]
        for k in range(len(before) - 1, 0, -1):
            f = before[k]
            if short <= 0:
                break
            if f.kind in ("Text", "Item"):
                key = (f.block, f.item[0])
                already = sum(p.lines for p in pages[end] if (p.block, p.item[0]) == key)
                total = max(2, already + short)  # never a line alone at the top of a page
                # a paragraph is split where asked; a list item only where it was split already
                if (f.kind == "Text" or already) and f.lines - (total - already) >= 2:
                    carry[key] = max(carry.get(key, 0), total)
                    break
            short -= _lines(f, leading)
            if short <= 0:
                while k > 0 and before[k - 1].keeps:
                    k -= 1
                if k > 0:
                    turn_before.add(before[k].block)
    more = markup.Turns(tuple(sorted(carry.items())), frozenset(turn_before))
    return None if more == turns else more


def _lines(p: Placed, leading: float) -> int:
    """A placed flowable's lines: a text's own, else as many as its height would hold."""
    return p.lines or round(p.height / leading)


def _sample(samples: dict[str, Sample], st: markup.Styles, forms: _Forms, page, card: str) -> Flowable:
    return _SampleFlowable(samples[card], st, f"sample-{card}", forms, page)


def type_credits(game: Game, faces: Mapping[str, str]) -> str:
    """The rulebook's credits for its type, in its markup: the package's faces it is set in
    (spellpress/defaults/fonts/CREDITS.md), and each face of the game's own that its cards are
    set in, by the name and copyright notice the face's file gives."""
    said = [f"The titles and headings are set in {fonts.CREDITS['display']} and the text in {fonts.CREDITS['text']}, both "
            f"under the SIL Open Font License 1.1 ({fonts.OFL_URL})."]
    own = {role: key for role, key in faces.items() if fonts.own(key)}
    if own:
        roles = {path: [r for r in own if fonts.path(own[r]) == path] for path in dict.fromkeys(fonts.path(k) for k in own.values())}
        named = [f"{markup.literal(fontcheck.credit(path))} ({', '.join(_ROLE_WORDS[r] for r in rs)})" for path, rs in roles.items()]
        said.append(f"The cards are set in the game's own faces: {'; '.join(named)}.")
    return " ".join(said)


_ROLE_WORDS = {"display": "titles", "regular": "text", "bold": "bold text", "italic": "italic text", "bold-italic": "bold italic text"}


def skeleton_key(book: Book) -> bytes:
    """What the book's skeleton is made of: the book, less what each figure that is a hole
    draws (its size stays), and the code and fonts that write it."""
    def shape(d: Drawing) -> Drawing:
        return replace(d, items=()) if pdfdraw.cacheable(d) else d

    samples = tuple((card, replace(s, drawing=shape(s.drawing)) if _sample_is_hole(s) else s) for card, s in book.samples)
    code = skeleton.code_version(("rulebook.py", "markup.py"))
    return value_bytes((replace(book, samples=samples, fanned=tuple(map(shape, book.fanned))), code, fonts.fingerprint()))


def _sample_is_hole(sample: Sample) -> bool:
    """Whether the sample's figure names no resource of its document (see pdf.cacheable)."""
    return pdfdraw.cacheable(sample.drawing) and all(pdfdraw.stable(part.label or "") for part in sample.labelled)


def _fan_box(face: Drawing) -> tuple[float, float, float, float]:
    return 0, 0, (face.width + 2 * face.bleed) * MM, (face.height + 2 * face.bleed) * MM


def _fan(face: Drawing) -> Callable[[Canvas], None]:
    def draw(canvas: Canvas) -> None:
        _clip_to_trim(canvas, face)
        draw_face(canvas, face)
    return draw


def _refill(keep: Path, book: Book, page, st: markup.Styles) -> bytes | None:
    """The book from its skeleton and its figures drawn anew; None without a usable skeleton."""
    try:
        kept = keep.read_bytes()
    except OSError:
        return None
    scratch = pdfdraw.new_canvas(io.BytesIO())
    pdfdraw.prepare(scratch)
    forms = _Forms()
    for card, sample in book.samples:
        _SampleFlowable(sample, st, f"sample-{card}", forms, page).define(scratch)
    for i, face in enumerate(book.fanned):
        forms.define(scratch, f"fanned-{i}", _fan_box(face), _fan(face), pdfdraw.cacheable(face))
    try:
        return skeleton.fill(kept, forms.holes.__getitem__)
    except (KeyError, ValueError):
        return None


class _Forms:
    """The figures a layout pass defined as forms, and the streams of those that are holes of
    the book's skeleton (their stream a function of what they draw alone); `inline`: no forms,
    each figure drawn where it is placed."""

    def __init__(self, inline: bool = False) -> None:
        self.inline = inline
        self.defined: set[str] = set()
        self.holes: dict[str, bytes] = {}

    def clear(self) -> None:
        self.defined.clear()
        self.holes.clear()

    def define(self, canvas: Canvas, name: str, box: tuple[float, float, float, float],
               draw: Callable[[Canvas], None], hole: bool) -> None:
        if name in self.defined:
            return
        self.defined.add(name)
        canvas.beginForm(name, *box)  # type: ignore[arg-type]  # the stubs take ints: any number is a corner
        draw(canvas)
        canvas.endForm()
        stored = zlib.compress(rlinternals.form_operators(canvas, name))  # as reportlab would
        rlinternals.set_form_operators(canvas, name, stored)
        if hole:
            self.holes[name] = stored

    def place(self, canvas: Canvas, name: str, box: tuple[float, float, float, float],
              draw: Callable[[Canvas], None], hole: bool) -> None:
        """The figure drawn here: as the form `name` (defined at its first use), or in place."""
        if self.inline:
            canvas.saveState()
            draw(canvas)
            canvas.restoreState()
            return
        self.define(canvas, name, box, draw, hole)
        canvas.doForm(name)


def _kept_entries(path: Path) -> list[tuple]:
    """The contents entries a build kept: (level, text, page, key) each; none if unreadable."""
    try:
        entries = [tuple(entry) for entry in json.loads(path.read_text())]
    except (OSError, ValueError, TypeError):
        return []
    shape: tuple[type | tuple[type, ...], ...] = (int, str, int, (str, type(None)))
    if all(len(e) == 4 and all(isinstance(v, t) for v, t in zip(e, shape)) for e in entries):
        return entries
    return []


def _placed(flowable, page: int) -> Placed:
    kind = type(flowable).__name__
    text = flowable.text() if isinstance(flowable, markup.Item) else flowable
    # a paragraph's lines, as its wrap set them (blPara: not in the stubs)
    lines = len(vars(text)["blPara"].lines) if isinstance(text, (markup.Text, markup.Heading)) else 0
    item = (flowable.number, flowable.of) if isinstance(flowable, markup.Item) else (0, 0)
    keeps = bool(getattr(getattr(text, "style", None), "keepWithNext", False)) or (item[0] == 1 and item[1] > 1)
    return Placed(page, kind, lines, isinstance(text, markup.Text) and text.continued, getattr(flowable, "block", -1),
                  item, float(getattr(flowable, "height", 0) or 0), keeps)


class _Doc(BaseDocTemplate):
    def __init__(self, out, book: Book, page, st: markup.Styles, placed: list[Placed] | None = None,
                 forms: _Forms | None = None):
        margin = 16 * MM if page[0] > 420 else 12 * MM
        super().__init__(out, pagesize=page, leftMargin=margin, rightMargin=margin, topMargin=margin + 4 * MM,
                         bottomMargin=margin + 2 * MM, title=f"{book.title}: rules", author="Spellpress",
                         creator="Spellpress", invariant=1,
                         initialFontName=fonts.pdf_name("regular"))  # else Helvetica, unembedded
        self.book, self.st, self.placed = book, st, placed
        self.forms = forms or _Forms()
        frame = Frame(self.leftMargin, self.bottomMargin, self.width, self.height, id="body")
        cover = Frame(self.leftMargin, self.bottomMargin, self.width, self.height * 0.01, id="cover")
        self.addPageTemplates([
            PageTemplate("cover", [cover], onPage=self._cover, autoNextPageTemplate="body"),
            PageTemplate("body", [frame], onPage=self._page),
        ])

    def beforeDocument(self):
        if self.placed is not None:
            self.placed.clear()  # a layout pass begins: only the last one's places count
        self.forms.clear()  # and on a canvas of its own
        pdfdraw.prepare(self.canv)  # every character a card uses numbered alike: the figures' forms are the same in any book

    def afterFlowable(self, flowable):
        if isinstance(flowable, markup.Heading):
            self.notify("TOCEntry", (flowable.level, flowable.getPlainText(), self.page))
        if self.placed is not None:
            self.placed.append(_placed(flowable, self.page))

    def _page(self, canvas, doc):
        w, h = self.pagesize
        canvas.saveState()
        canvas.setFillColor(self.st.accent_text)
        canvas.setFont(fonts.pdf_name("display"), 8)
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
        cover = colors.HexColor(self.book.cover)
        canvas.setFillColor(cover)
        canvas.rect(0, 0, w, h, stroke=0, fill=1)
        canvas.setFillColor(markup.readable(colors.white, cover))
        size = 40 if w > 420 else 28
        canvas.setFont(fonts.pdf_name("display"), size)
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
            self.forms.place(canvas, f"fanned-{i}", _fan_box(face), _fan(face), pdfdraw.cacheable(face))
            canvas.restoreState()
        canvas.setFillColor(markup.readable(colors.white, cover))  # the cards drew in their own colours
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


Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in points, y up
Point = tuple[float, float]


@dataclass(frozen=True)
class Leader:
    """One part's label and the line from the part to it, in the figure's points (y up, the
    card's trim corner at the bottom left)."""

    label: str
    anchor: Point  # the dot on the part
    path: tuple[Point, ...]  # the anchor, (the turn to its run,) the elbow right of the card, the label's end
    baseline: Point  # where the label's text starts
    text_box: Box


LABEL_FONT, LABEL_SIZE = "bold", 9.0
_GAP = 1.6  # points between a leader and any text, and between an anchor and the text it follows
_SPACING = 1.4 * MM  # least distance between two leaders' runs across the card
_APART = 3.0  # points between any other two pieces of two leaders (a dot with its halo is 1.8 from its middle)
_PAD = _GAP  # points a leader keeps from another part's ink to count as clear of it
_CORE = (0.3, 0.1)  # a glyph's dot stays this share of its size from its middle, across and up or down:
# on the ink of every shape icons.yaml draws, the narrow ones (a diamond, a heart, a burst) too
_STEP = 0.5  # points between the heights tried for a dot
_LANE_STEP = 1.0  # points between the heights tried for a run moved off its dot's height
_REACH = 12 * MM  # how far up or down from its dot a run may go, round another part
_BENT_DOTS = 6  # the best dots of a part tried with a run moved off their height


def text_boxes(drawing: Drawing) -> list[Box]:
    """Every line of text on the card, as the box its glyphs fill (a turned one's, a corner
    index's, below and left of where it starts)."""
    height = drawing.height * MM
    out = []
    for item in drawing.items:
        if isinstance(item, Text) and item.text.strip():
            up, down = _extent(item.font, item.size)
            x, y = item.x * MM, height - item.y * MM
            w = fonts.width(item.text, item.font, item.size) * MM
            out.append((x - w, y - up, x, y + down) if item.turned else (x, y - down, x + w, y + up))
    return out


def _extent(font: str, size: float) -> tuple[float, float]:
    """How far a font's letters reach above and below the baseline, in points (fonts.ascent:
    the ink of its letters, as the card's layout places them)."""
    return fonts.ascent(font) * size, fonts.descent(font) * size


@dataclass(frozen=True)
class _Shown:
    """A labelled part as its figure sees it, in points: what of its ink no later box covers."""

    label: str
    areas: tuple[Box, ...]  # its box, its turned copy's
    lines: tuple[Box, ...]
    glyphs: tuple[tuple[Box, tuple[Box, ...]], ...]  # each glyph's square, with the pieces of it that show
    fills: tuple[Box, ...]  # the pieces of what it fills that show

    @property
    def ink(self) -> tuple[Box, ...]:
        return self.lines + tuple(piece for _, pieces in self.glyphs for piece in pieces) + self.fills


def _points(area: Area, card_h: float) -> Box:
    x, y, w, h = area
    return x * MM, card_h - (y + h) * MM, (x + w) * MM, card_h - y * MM


def _minus(box: Box, cut: Box) -> list[Box]:
    """What of a box lies outside another: up to four boxes."""
    x0, y0, x1, y1 = box
    c0, d0, c1, d1 = cut
    if c0 >= x1 or c1 <= x0 or d0 >= y1 or d1 <= y0:
        return [box]
    out = []
    if d1 < y1:
        out.append((x0, d1, x1, y1))
    if d0 > y0:
        out.append((x0, y0, x1, d0))
    low, high = max(y0, d0), min(y1, d1)
    if c0 > x0:
        out.append((x0, low, c0, high))
    if c1 < x1:
        out.append((c1, low, x1, high))
    return out


def shown(sample: Sample) -> list[_Shown]:
    """Each labelled part, less what the boxes drawn after it cover: the picture under a badge or
    a banner is not the picture there."""
    d = sample.drawing
    card_h = d.height * MM
    out = []
    for i, part in enumerate(sample.parts):
        if not part.label:
            continue
        covers = [_points(a, card_h) for later in sample.parts[i + 1:] for a in later.lines + later.glyphs + later.fills]
        x, y, w, h = part.area
        areas = [part.area] + ([(d.width - x - w, d.height - y - h, w, h)] if part.turned else [])
        out.append(_Shown(part.label, tuple(_points(a, card_h) for a in areas),
                          tuple(p for a in part.lines for p in _uncovered(_points(a, card_h), covers)),
                          tuple((_points(a, card_h), _uncovered(_points(a, card_h), covers)) for a in part.glyphs),
                          tuple(p for a in part.fills for p in _uncovered(_points(a, card_h), covers))))
    return out


def _uncovered(box: Box, covers: list[Box]) -> tuple[Box, ...]:
    """The pieces of a box that none of the covers lies over."""
    pieces = [box]
    for cut in covers:
        pieces = [piece for whole in pieces for piece in _minus(whole, cut)]
    return tuple(pieces)


def _inside(point: Point, boxes, margin: float = 0.0) -> bool:
    return any(b[0] + margin <= point[0] <= b[2] - margin and b[1] <= point[1] <= b[3] for b in boxes)


def _after_text(x: float, y: float, x0: float, x1: float, texts: list[Box]) -> float:
    """x, or just after the texts between x0 and x1 that a line at height y would run through."""
    crossed = [t[2] for t in texts if t[1] - _GAP < y < t[3] + _GAP and t[2] > x0 and t[0] < x1]
    return max(x, max(crossed) + _GAP) if crossed else x


def _heights(middle: float, low: float, high: float, step: float) -> list[float]:
    """Heights from `middle` outward, `step` apart, between low and high."""
    out = [middle]
    for k in range(1, int(max(middle - low, high - middle) / step) + 1):
        out += [y for y in (middle + k * step, middle - k * step) if low < y < high]
    return out


def _dots(part: _Shown, texts: list[Box]) -> list[Point]:
    """Where a part's dot may go, best first: on a glyph near its middle (the copy nearest the
    labels first), else on what it fills, from its middle out, else just after one of its lines,
    the line nearest the part's middle first. A dot that would sit on a text, or whose line would
    run through one at once (a badge's own number), goes just after it, if it stays on the part."""
    out = []
    for (x0, y0, x1, y1), pieces in sorted(part.glyphs, key=lambda g: -g[0][2]):
        size = x1 - x0
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        for y in _heights(cy, cy - _CORE[1] * size - 1e-6, cy + _CORE[1] * size + 1e-6, _STEP):
            x = _after_text(cx, y, x0, x1, texts)
            if x <= cx + _CORE[0] * size and _inside((x, y), pieces):
                out.append((x, y))
    if part.fills:
        x0, y0, x1, y1 = part.areas[0]
        mx = (x0 + x1) / 2
        for y in _heights((y0 + y1) / 2, y0, y1, _STEP * 2):
            row = [(p[0], p[2]) for p in part.fills if p[1] < y < p[3]]
            if not row:
                continue
            lo, hi = min(row, key=lambda r: 0 if r[0] <= mx <= r[1] else min(abs(r[0] - mx), abs(r[1] - mx)))
            x = _after_text(min(max(mx, lo + MM), hi - MM), y, lo, hi, texts)
            if x <= hi - MM:
                out.append((x, y))
    middle = (part.areas[0][1] + part.areas[0][3]) / 2
    for line in sorted(part.lines, key=lambda b: abs((b[1] + b[3]) / 2 - middle)):
        y = (line[1] + line[3]) / 2
        # just after the line's own text box as text_boxes measures it: the line's box is the same
        # words summed another way, a hair (1e-14) to either side, which decided whether the run
        # from the dot met its own text
        dot = (_after_text(line[2] + _GAP, y, line[0], line[2], texts), y)
        if _inside(dot, part.areas, margin=0.5):
            out.append(dot)
    return out


def _segments(path: tuple[Point, ...]) -> list[Box]:
    """A leader's straight pieces, each as the box it spans (they run across or up and down)."""
    return [(min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]), max(a[1], b[1])) for a, b in zip(path, path[1:])]


def _meets(segment: Box, box: Box, pad: float) -> bool:
    return segment[0] < box[2] + pad and segment[2] > box[0] - pad and segment[1] < box[3] + pad and segment[3] > box[1] - pad


def _gap(a: Box, b: Box) -> float:
    return math.hypot(max(0.0, b[0] - a[2], a[0] - b[2]), max(0.0, b[1] - a[3], a[1] - b[3]))


def _apart(path: tuple[Point, ...], taken: list[tuple[Point, ...]]) -> bool:
    """Whether a leader keeps clear of those already routed: its run _SPACING from theirs, every
    other piece _APART from theirs."""
    mine = _segments(path)
    for other in taken:
        if abs(other[-1][1] - path[-1][1]) < _SPACING:
            return False
        theirs = _segments(other)
        if any(_gap(a, b) < _APART for a in mine for b in theirs):
            return False
    return True


def _route(part: _Shown, others: list[_Shown], texts: list[Box], taken: list[tuple[Point, ...]],
           elbow: float, card_h: float) -> tuple[Point, ...] | None:
    """The leader of a part from its dot to the elbow past the card's edge: straight across
    from the best dot whose line crosses no other part; else, up or down from one of the best
    dots to the nearest height from which it can; else the way that crosses fewest. Never
    through text, never near another leader."""
    inks = [other.ink for other in others if other.label != part.label]
    dots = _dots(part, texts)

    def crossings(path) -> int:
        return sum(1 for ink in inks if any(_meets(s, box, _PAD) for s in _segments(path) for box in ink))

    best: tuple[tuple, tuple[Point, ...]] | None = None
    for bent in (False, True):
        for rank, (ax, ay) in enumerate(dots[:_BENT_DOTS] if bent else dots):
            lanes = _heights(ay, max(MM, ay - _REACH), min(card_h - MM, ay + _REACH), _LANE_STEP)[1:] if bent else [ay]
            for y in lanes:
                path = ((ax, ay), (ax, y), (elbow, y)) if bent else ((ax, ay), (elbow, ay))
                if any(_meets(s, t, _GAP) for s in _segments(path) for t in texts) or not _apart(path, taken):
                    continue
                key = (crossings(path), bent, rank, abs(y - ay))
                if best is None or key < best[0]:
                    best = (key, path)
                if key[0] == 0:
                    return path
    return best[1] if best else None


def _turn(part: _Shown) -> tuple[int, float]:
    """The order parts are routed in: those that can be pointed at in fewest places first (a
    line of text, a badge), a picture last; each from the card's top down."""
    return (0 if part.lines and not part.glyphs and not part.fills else 1 if part.glyphs else 2), -part.areas[0][3]


def leaders(sample: Sample, label_x: float, bottom: float, top: float) -> list[Leader]:
    """Where each part's leader runs: from a dot on what of the part shows, across the card
    (up or down first, where that keeps it off the other parts it would cross), to an elbow past
    the card's edge, then to its label in a column at `label_x` (labels kept between `bottom`
    and `top`). Labels are in the order of their runs, so no two leaders cross."""
    d = sample.drawing
    card_w, card_h = d.width * MM, d.height * MM
    texts = text_boxes(d)
    parts = shown(sample)
    routes: dict[str, tuple[Point, ...]] = {}
    for part in sorted(parts, key=_turn):
        route = _route(part, parts, texts, list(routes.values()), card_w + 4 * MM, card_h)
        if route is not None:  # else no clear way out of it: better unlabelled than struck through
            routes[part.label] = route
    ordered = sorted(routes.items(), key=lambda r: -r[1][-1][1])
    up, down = _extent(LABEL_FONT, LABEL_SIZE)
    middle = (up - down) / 2  # a label's middle above its baseline
    line = LABEL_SIZE * 1.45
    bases = [route[-1][1] - middle for _, route in ordered]
    for i in range(1, len(bases)):  # top down, each at least a line below the one above
        bases[i] = min(bases[i], bases[i - 1] - line)
    if bases and bases[-1] - down < bottom:  # then bottom up, back inside
        bases[-1] = bottom + down
        for i in range(len(bases) - 2, -1, -1):
            bases[i] = max(bases[i], bases[i + 1] + line)
    out = []
    for (label, route), base in zip(ordered, bases):
        base = min(base, top - up)
        width = fonts.width(label, LABEL_FONT, LABEL_SIZE) * MM
        path = (*route, (label_x - 2 * MM, base + middle))
        out.append(Leader(label, route[0], path, (label_x, base), (label_x, base - down, label_x + width, base + up)))
    return out


class _SampleFlowable(Flowable):
    """The card at actual size, its parts named with leader lines (see `leaders`); drawn as the
    form `name`, the same in any book (its box reaches a page's size around it)."""

    def __init__(self, sample: Sample, st: markup.Styles, name: str = "sample", forms: _Forms | None = None,
                 page: tuple[float, float] = A4):
        super().__init__()
        self.sample, self.st, self.name, self.forms, self.page = sample, st, name, forms or _Forms(), page
        d = sample.drawing
        self.card_w, self.card_h = d.width * MM, d.height * MM
        self.height_needed = self.card_h + 6 * MM
        self.leaders = leaders(sample, self.card_w + 14 * MM, -3 * MM, self.card_h + 3 * MM)

    def wrap(self, available_width, available_height):
        return available_width, self.height_needed

    def _box(self) -> tuple[float, float, float, float]:
        w, h = self.page
        return -w, -h, w, h

    def define(self, canvas: Canvas) -> None:
        self.forms.define(canvas, self.name, self._box(), self._figure, _sample_is_hole(self.sample))

    def draw(self):
        self.forms.place(self.canv, self.name, self._box(), self._figure, _sample_is_hole(self.sample))

    def _figure(self, c: Canvas) -> None:
        d = self.sample.drawing
        c.saveState()
        c.translate(0, 3 * MM)
        c.saveState()
        c.translate(-d.bleed * MM, -d.bleed * MM)
        _clip_to_trim(c, d)
        draw_face(c, d)
        c.restoreState()
        c.setFont(fonts.pdf_name(LABEL_FONT), LABEL_SIZE)
        # each line and dot over a halo in the paper's colour: seen on a band or a picture of
        # the book's own colour, as on the paper
        for colour, width, dot in ((markup.PAPER, LEADER_WIDTH + 2 * HALO, DOT + HALO), (self.st.accent, LEADER_WIDTH, DOT)):
            c.setStrokeColor(colour)
            c.setFillColor(colour)
            c.setLineWidth(width)
            for leader in self.leaders:
                path = c.beginPath()
                path.moveTo(*leader.path[0])
                for point in leader.path[1:]:
                    path.lineTo(*point)
                c.drawPath(path, stroke=1, fill=0)
                c.circle(*leader.anchor, dot, stroke=0, fill=1)
        c.setFillColor(markup.INK)
        for leader in self.leaders:
            c.drawString(*leader.baseline, leader.label)
        c.restoreState()


LEADER_WIDTH = 0.6  # points; the figure's leaders are told apart from the card's lines by it
HALO = 0.7  # points of the paper's colour each side of a leader and round its dot
DOT = 1.1  # points: the radius of the dot on the part


def impose(pdf_bytes: bytes, paper: str) -> bytes:
    """Half-size pages two to a landscape sheet in saddle-stitch order: print double-sided
    (flip on the short edge), fold the stack in half, staple the fold."""
    # imported here: pypdf takes 0.15 s to import, and only the booklets need it (model/libraries.py)
    from pypdf import PageObject, PdfReader, PdfWriter, Transformation

    reader = PdfReader(io.BytesIO(pdf_bytes))
    pages: list[PageObject | None] = list(reader.pages)
    half_w, half_h = BOOKLET_PAGES[paper]
    while len(pages) % 4:
        pages.append(None)  # blank pages at the back
    n = len(pages)
    order = []
    for k in range(n // 4):
        order += [(n - 1 - 2 * k, 2 * k), (2 * k + 1, n - 2 - 2 * k)]
    writer = PdfWriter()
    for left, right in order:
        sheet = PageObject.create_blank_page(width=2 * half_w, height=half_h)
        for index, dx in ((left, 0), (right, half_w)):
            page = pages[index]
            if page is not None:
                sheet.merge_transformed_page(page, Transformation().translate(dx, 0))
        writer.add_page(sheet)
    title = reader.metadata.title if reader.metadata is not None else None  # the book's own PDF has one
    writer.add_metadata({"/Title": title or "", "/Creator": "Spellpress"})
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
