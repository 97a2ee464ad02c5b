"""The small text markup the rulebook templates write: read into blocks once, where a mistake in
it can be reported with its line, then made into reportlab flowables for each PDF.

    # Heading            a chapter, listed in the contents
    ## Heading           a section, listed in the contents
    Text lines...        a paragraph (lines join; a blank line ends it); **bold**, *italic*
    - item / 1. item     a bulleted or numbered list
    | a | b |            a table; its first row is the header (a |---| row is skipped)
    ::: pagebreak        a new page
    ::: contents         the table of contents
    ::: sample CARD-ID   the card, drawn by the card renderer, with its parts labelled

Inline `{fire}` becomes the element's name in its colour. Everything else is escaped.

What a template's `{{ expression }}` prints (a constant, a card's name, a number worked out) is
text, never markup: rendered, it is held between LITERAL and END (`literal`), and the markup
reads what is between them as the characters they are, wherever it falls on a line: a constant
of 3 that starts a line with `3.` starts no numbered list. Markup written as such (a rule's text
from rules.yaml, a card's text, a template's own lines) is a MarkupText, printed as it is.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.fonts import addMapping
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase import pdfmetrics
from reportlab.platypus import (
    CondPageBreak,
    Flowable,
    PageBreak,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)
from reportlab.platypus.flowables import BulletDrawer, LIIndenter
from reportlab.platypus.tableofcontents import TableOfContents

from ...core.problems import did_you_mean
from . import fonts, rlinternals

MM = 72 / 25.4
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_ITALIC = re.compile(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])")
_ICON = re.compile(r"\{([a-z0-9-]+)\}")

# Private-use characters around what an expression printed: no one types them, no font draws them.
LITERAL, END = "\ue000", "\ue001"
_SPAN = re.compile(f"{LITERAL}([^{LITERAL}{END}]*){END}")
_HIDDEN = re.compile("\ue002(\\d+)\ue003")  # where _hide put a span away


class MarkupText(str):
    """Text that is markup on purpose (a rule's text as rules.yaml writes it, a card's text with
    its `{icon}` and `**bold**`): a rulebook template prints it as it is, where any other value
    it prints is literal text. `replace` keeps it markup; other filters make it plain text."""


def literal(value: object) -> str:
    """`value` as text that the markup reads as itself: what a `{{ expression }}` prints. Its
    line breaks become spaces (a value is one run of text, never the start of a new line)."""
    text = re.sub(r"[\r\n]+", " ", str(value).replace(LITERAL, "").replace(END, ""))
    return f"{LITERAL}{text}{END}" if text else ""


def printed(value: object) -> str:
    """What a rulebook template's `{{ expression }}` writes into the markup: a MarkupText as it
    is (jinja2's `finalize`), anything else as literal text."""
    return value if isinstance(value, MarkupText) else literal(value)


def plain(text: str) -> str:
    """The text with its literal spans' marks taken away: what it reads as."""
    return text.replace(LITERAL, "").replace(END, "")


def _hide(text: str) -> tuple[str, list[str]]:
    """The text with each literal span put out of the markup's reach (a numbered mark in its
    place, which no markup pattern matches), and the spans, to put back by `_show`."""
    spans: list[str] = []
    text = text.replace("\ue002", "").replace("\ue003", "")

    def hide(m: re.Match) -> str:
        spans.append(m.group(1))
        return f"\ue002{len(spans) - 1}\ue003"

    return plain(_SPAN.sub(hide, text)), spans


def _show(text: str, spans: list[str], how: Callable[[str], str] = lambda s: s) -> str:
    return _HIDDEN.sub(lambda m: how(spans[int(m.group(1))]), text)


def register_family() -> str:
    """The text face, registered as one family so <b> and <i> in paragraphs find the right
    faces; the display face (one style) as a family of its own, so a heading's <b> or <i> keeps it."""
    names = {k: fonts.pdf_name(k) for k in fonts.FONTS}
    addMapping(names["regular"], 0, 0, names["regular"])
    addMapping(names["regular"], 1, 0, names["bold"])
    addMapping(names["regular"], 0, 1, names["italic"])
    addMapping(names["regular"], 1, 1, names["bold-italic"])
    for bold in (0, 1):
        for italic in (0, 1):
            addMapping(names["display"], bold, italic, names["display"])
    return names["regular"]


@dataclass(frozen=True)
class Styles:
    body: ParagraphStyle
    lead: ParagraphStyle  # a paragraph that introduces the list or table after it
    h1: ParagraphStyle
    h2: ParagraphStyle
    cell: ParagraphStyle
    head: ParagraphStyle
    accent: colors.Color  # the book's colour: table headers, rules, leaders
    accent_text: colors.Color  # the accent as text on the page, dark enough to read


PAPER = colors.white
INK = colors.HexColor("#231f1a")
ROWS = (colors.HexColor("#fbf8f1"), colors.HexColor("#f1ebdd"))  # a table's rows, by turns
LEAST_CONTRAST = 4.5  # of any text against what is behind it: WCAG AA (GUIDE section 2)


def luminance(colour: colors.Color) -> float:
    """WCAG's relative luminance of an sRGB colour."""
    def linear(v: float) -> float:
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
    return 0.2126 * linear(colour.red) + 0.7152 * linear(colour.green) + 0.0722 * linear(colour.blue)


def contrast(a: colors.Color, b: colors.Color) -> float:
    """WCAG's contrast ratio of two colours, 1 to 21."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def readable(colour: colors.Color, *backgrounds: colors.Color) -> colors.Color:
    """`colour`, or the least darkened or lightened version of it that reads at LEAST_CONTRAST
    against every one of `backgrounds`: an element keeps its hue where it can."""
    for step in range(21):
        t = step / 20
        for end in (colors.black, colors.white):
            # as the PDF will hold it: to 1/255
            mixed = colors.Color(*(round((v + (e - v) * t) * 255) / 255 for v, e in zip(colour.rgb(), end.rgb())))
            if all(contrast(mixed, b) >= LEAST_CONTRAST for b in backgrounds):
                return mixed
    return colors.black


def hex_of(colour: colors.Color) -> str:
    return "#" + "".join(f"{round(v * 255):02x}" for v in colour.rgb())


def styles(accent: str) -> Styles:
    regular = register_family()
    bold, display = fonts.pdf_name("bold"), fonts.pdf_name("display")
    tint = colors.HexColor(accent)
    tint_text = readable(tint, PAPER)
    # reportlab's own widow and orphan control: a paragraph leaves no single line at a page's
    # foot (allowOrphans=0) nor carries one alone to the next (allowWidows=0)
    body = ParagraphStyle("body", fontName=regular, fontSize=10, leading=13.5, textColor=INK, spaceAfter=5,
                          allowWidows=0, allowOrphans=0)
    return Styles(
        body=body,
        lead=ParagraphStyle("lead", parent=body, keepWithNext=True),
        h1=ParagraphStyle("h1", parent=body, fontName=display, fontSize=19, leading=23, spaceBefore=4, spaceAfter=9,
                          textColor=tint_text, keepWithNext=True),
        h2=ParagraphStyle("h2", parent=body, fontName=display, fontSize=12.5, leading=16, spaceBefore=9, spaceAfter=4,
                          textColor=tint_text, keepWithNext=True),
        cell=ParagraphStyle("cell", parent=body, fontSize=8.5, leading=10.5, spaceAfter=0),
        head=ParagraphStyle("head", parent=body, fontName=bold, fontSize=8.5, leading=10.5, spaceAfter=0,
                            textColor=readable(colors.white, tint)),
        accent=tint,
        accent_text=tint_text,
    )


def inline(text: str, element_colors: dict[str, str], on: tuple[colors.Color, ...] = (PAPER,)) -> str:
    """Escaped paragraph text with **bold**, *italic* and {element} names in colour: the
    element's own colour where it reads against the backgrounds `on`, else one near it.
    Literal spans are the characters they hold, whatever they are."""
    hidden, spans = _hide(text)
    out = escape(hidden)
    out = _BOLD.sub(r"<b>\1</b>", out)
    out = _ITALIC.sub(r"<i>\1</i>", out)

    def icon(m: re.Match) -> str:
        name = next((n for n in element_colors if n.lower() == m.group(1)), None)
        if name is None:
            return m.group(1)
        colour = readable(colors.HexColor(element_colors[name]), *on)
        return f'<font color="{hex_of(colour)}"><b>{escape(name)}</b></font>'

    return _show(_ICON.sub(icon, out), spans, escape)


class Heading(Paragraph):
    """A heading the contents list, at its level."""

    block = -1  # the markup block it sets (rulebook.Placed)

    def __init__(self, text: str, style: ParagraphStyle, level: int):
        super().__init__(text, style)
        self.level = level


# The directives, and how each is written.
DIRECTIVES = {"pagebreak": "::: pagebreak", "contents": "::: contents", "sample": "::: sample CARD-ID"}
_ITEM = re.compile(r"^(- |\d+\. )")


@dataclass(frozen=True)
class TextBlock:
    text: str  # a paragraph's lines joined


@dataclass(frozen=True)
class HeadingBlock:
    level: int  # 0 for a chapter, 1 for a section
    text: str


@dataclass(frozen=True)
class ListBlock:
    numbered: bool
    items: tuple[str, ...]


@dataclass(frozen=True)
class TableBlock:
    rows: tuple[tuple[str, ...], ...]  # the header first


@dataclass(frozen=True)
class Directive:
    word: str  # a key of DIRECTIVES
    arg: str  # a sample's card id; '' for the others


Block = TextBlock | HeadingBlock | ListBlock | TableBlock | Directive


@dataclass(frozen=True)
class Parsed:
    blocks: tuple[Block, ...]
    lines: tuple[int, ...]  # the line of the markup each block starts on
    problems: tuple[tuple[int, str], ...]  # (line, what is wrong), in the order met


def parse(source: str) -> Parsed:
    """The markup's blocks, and what in it cannot be printed: a directive the markup does not
    know, a sample without a card. Read once, where problems can still be reported."""
    blocks: list[Block] = []
    starts: list[int] = []
    problems: list[tuple[int, str]] = []
    lines = source.splitlines()
    i = 0
    paragraph: list[str] = []
    began = 0

    def add(block: Block, line: int) -> None:
        blocks.append(block)
        starts.append(line)

    def flush():
        if paragraph:
            add(TextBlock(" ".join(paragraph)), began)
            paragraph.clear()

    while i < len(lines):
        line = lines[i].rstrip()
        stripped = line.strip()
        if not stripped:
            flush()
        elif stripped.startswith("::: "):
            flush()
            word, _, arg = stripped[4:].partition(" ")
            if word not in DIRECTIVES:
                written = plain(word)  # an expression's text is never a directive's word
                problems.append((i + 1, f"unknown directive '::: {written}'{did_you_mean(written, DIRECTIVES)}; "
                                        f"the markup has {', '.join(DIRECTIVES.values())}"
                                        + ("; a directive's word is written in the template, not printed by an "
                                           "expression" if written != word else "")))
            elif word == "sample" and not plain(arg).strip():
                problems.append((i + 1, "'::: sample' names no card: write ::: sample CARD-ID"))
            else:
                add(Directive(word, plain(arg).strip() if word == "sample" else ""), i + 1)
        elif stripped.startswith("## "):
            flush()
            add(HeadingBlock(1, stripped[3:]), i + 1)
        elif stripped.startswith("# "):
            flush()
            add(HeadingBlock(0, stripped[2:]), i + 1)
        elif stripped.startswith("|"):
            flush()
            first, rows = i + 1, []
            while i < len(lines) and lines[i].strip().startswith("|"):
                cells = _cells(lines[i].strip())
                if not all(set(c) <= set("-: ") for c in cells):
                    rows.append(cells)
                i += 1
            add(TableBlock(tuple(rows)), first)
            continue
        elif _ITEM.match(stripped):
            flush()
            first, numbered, items = i + 1, stripped[0].isdigit(), []
            while i < len(lines) and _ITEM.match(lines[i].strip()):
                text = _ITEM.sub("", lines[i].strip())
                i += 1
                while i < len(lines) and lines[i].startswith("  ") and lines[i].strip() and not _ITEM.match(lines[i].strip()):
                    text += " " + lines[i].strip()
                    i += 1
                items.append(text)
            add(ListBlock(numbered, tuple(items)), first)
            continue
        else:
            if not paragraph:
                began = i + 1
            paragraph.append(stripped)
        i += 1
    flush()
    return Parsed(tuple(blocks), tuple(starts), tuple(problems))


def _cells(row: str) -> tuple[str, ...]:
    """A table row's cells: split at each `|` the row writes, never at one inside a literal span."""
    hidden, spans = _hide(row)
    return tuple(_show(c.strip(), spans, literal) for c in hidden.strip("|").split("|"))


LEAST_LINES = 3  # a section begins with room for this many lines under its heading


class Text(Paragraph):
    """A paragraph that knows, once split, which part carried over (for checking the pages).
    `least_tail`: the fewest lines it may carry over; the last paragraph before a new page
    carries LEAST_LINES or none, since what it carries is all the next page would hold.
    `force_tail`: lines it carries over to a new page even where it would fit whole, as a
    chapter's short last page asks of the paragraph at the foot of the page before (Turns)."""

    continued = False
    block = -1  # the markup block it sets (rulebook.Placed)
    force_tail = 0

    def __init__(self, text: str, style: ParagraphStyle, least_tail: int = 2, **kwargs):
        super().__init__(text, style, **kwargs)
        self.least_tail = least_tail

    def wrap(self, availWidth, availHeight):
        width, height = super().wrap(availWidth, availHeight)
        if (self.force_tail and rlinternals.frame_height(self) is not None and height <= availHeight
                and len(self.blPara.lines) - self.force_tail >= 2):
            return width, availHeight + 1  # as a frame places it (not as a group measures it): split it
        return width, height

    def split(self, availWidth, availHeight):
        parts = super().split(availWidth, availHeight)
        turn = []
        if parts == [self] and self.force_tail:  # it fits: the page is turned inside it all the same
            lines = len(self.blPara.lines)
            parts = super().split(availWidth, (lines - self.force_tail) * self.style.leading + 1e-6)
            turn = [Turn()] if len(parts) == 2 else []
        elif len(parts) == 2:
            kept, total = len(parts[0].blPara.lines), len(self.blPara.lines)
            short = max(self.least_tail, self.force_tail) - (total - kept)
            if short > 0:  # reportlab's split again, with the room of `short` fewer lines
                parts = super().split(availWidth, parts[0].height - short * self.style.leading + 1e-6)
        for part in parts:
            part.block = self.block
        for part in parts[1:]:
            part.continued, part.least_tail = True, self.least_tail
        return parts[:1] + turn + parts[1:]


@dataclass(frozen=True)
class Turns:
    """What a layout pass asks of the next, so that no chapter ends on a page of a line or two
    (rulebook.pdf): paragraphs and list items that carry over at least so many lines, by
    (block, item) (item 0 for a paragraph), and blocks before which a page is turned."""

    carry: tuple[tuple[tuple[int, int], int], ...] = ()
    turn_before: frozenset[int] = frozenset()


class Turn(PageBreak):
    """A page turned early, so that the chapter's last page is not short (Turns)."""


class Item(LIIndenter):
    """One item of a list, a flowable of its own (a list is no container: the paragraph that
    introduces it keeps with it); `number` of `of`. A list's first item keeps with its second,
    so it never stands alone at a page's foot."""

    # an LIIndenter passes the attributes it does not name to its text: LIIndenter's, and ours
    _IndenterAttrs = ("_flowable _bullet _leftIndent _rightIndent width height spaceBefore spaceAfter "
                      "number of block keepWithNext").split()

    def __init__(self, text: Flowable, bullet: BulletDrawer | None, number: int, of: int, block: int):
        super().__init__(text, leftIndent=LIST_INDENT, bullet=bullet)
        self.number, self.of, self.block = number, of, block
        if number == 1 and of > 1:
            self.keepWithNext = True

    def text(self) -> Flowable:
        """The item's text (its paragraph, or a part of it)."""
        return self.__dict__["_flowable"]

    def split(self, aW, aH):
        parts = super().split(aW, aH)
        return [Item(part.__dict__["_flowable"], part.__dict__["_bullet"], self.number, self.of, self.block)
                for part in parts]


LIST_INDENT = 14  # points from the text's left to an item's text


def flowables(blocks: tuple[Block, ...], st: Styles, element_colors: dict[str, str],
              sample: Callable[[str], Flowable], turns: Turns = Turns()) -> list[Flowable]:
    """The blocks as platypus flowables: new ones for every document, which lays them out.

    Page breaks are reportlab's: a heading keeps with what follows it (keepWithNext) and
    starts a new page unless LEAST_LINES fit under it (CondPageBreak); a paragraph that ends
    in a colon introduces the list or table after it and keeps with it, and a list's first item
    keeps with its second (Item); paragraphs control their widows and orphans (styles) and a
    chapter's last one carries over enough (Text). `turns`: what an earlier pass found a
    chapter's short last page needs (rulebook.pdf)."""
    out: list[Flowable] = []
    carry = dict(turns.carry)
    for i, block in enumerate(blocks):
        after = blocks[i + 1] if i + 1 < len(blocks) else None
        if i in turns.turn_before:
            out.append(Turn())
        if isinstance(block, TextBlock):
            ends_chapter = after is None or (isinstance(after, Directive) and after.word == "pagebreak") or (
                isinstance(after, HeadingBlock) and after.level == 0)
            leads = isinstance(after, (ListBlock, TableBlock)) and block.text.rstrip().endswith(":")
            text = Text(inline(block.text, element_colors), st.lead if leads else st.body,
                        LEAST_LINES if ends_chapter else 2)
            text.block, text.force_tail = i, carry.get((i, 0), 0)
            out.append(text)
        elif isinstance(block, HeadingBlock):
            style = (st.h1, st.h2)[block.level]
            if not (i and isinstance(blocks[i - 1], HeadingBlock)):
                out.append(CondPageBreak(style.spaceBefore + style.leading + style.spaceAfter
                                         + LEAST_LINES * st.body.leading))
            heading = Heading(inline(block.text, element_colors), style, block.level)
            heading.block = i
            out.append(heading)
        elif isinstance(block, TableBlock):
            table = _table([list(row) for row in block.rows], st, element_colors)
            table.block = i  # type: ignore[attr-defined]  # read back by rulebook.Placed
            out.append(table)
        elif isinstance(block, ListBlock):
            for k, item in enumerate(block.items, start=1):
                text = Text(inline(item, element_colors), st.body, max(2, carry.get((i, k), 0)))
                bullet = BulletDrawer(value=str(k) if block.numbered else "bulletchar",
                                      bulletType="1" if block.numbered else "bullet",
                                      bulletFontName=fonts.pdf_name("bold"), bulletFontSize=9,
                                      bulletDedent=LIST_INDENT, bulletColor=hex_of(st.accent_text))
                out.append(Item(text, bullet, k, len(block.items), i))
        elif block.word == "pagebreak":
            out.append(PageBreak())
        elif block.word == "contents":
            out.append(_contents(st))
        else:
            figure = sample(block.arg)
            figure.block = i  # type: ignore[attr-defined]  # read back by rulebook.Placed
            out.append(figure)
    return out


class _Contents(TableOfContents):
    """The contents, on one page where it can be: set a little tighter (to FIT of its size)
    rather than leave its last entry or two alone on a page of their own.

    Each entry's leader dots end at one x, a column for the page numbers after them (reportlab's
    own end where each number begins, so a wider number or a bold one moved them), and are set
    in one face and size on one pitch from there: the dots of every entry line up in columns."""

    FIT = 0.75
    DOT = " . "  # as reportlab's contents set their leaders
    GAP = 4  # points, at least, between an entry's last word and its first dot

    def wrap(self, availWidth, availHeight):
        full = getattr(self, "_full", None) or list(self.levelStyles)
        self._full = self.levelStyles = full
        width, height = super().wrap(availWidth, availHeight)
        scale = 1.0
        while height > availHeight and scale > self.FIT:  # rows have padding that does not scale
            scale = max(self.FIT, scale * availHeight / height * 0.99)
            self.levelStyles = [ParagraphStyle(f"{s.name}-fit", parent=s, fontSize=s.fontSize * scale,
                                               leading=s.leading * scale) for s in full]
            width, height = super().wrap(availWidth, availHeight)
        # each entry's end drawn here, not by reportlab's drawPageNumbers (which super().wrap named)
        self.canv.setNamedCB("drawTOCEntryEnd", lambda canvas, kind, label: self._entry_end(canvas, label, availWidth))
        return width, height

    def dots_end(self, width: float) -> float:
        """Where every entry's leader dots end, `width` being the contents' width: before room
        for a three-figure page number in the widest face and size of the levels."""
        room = max(pdfmetrics.stringWidth("000", s.fontName, s.fontSize) for s in self.levelStyles)
        return width - room

    def _entry_end(self, canvas, label: str, width: float) -> None:
        page, level = (int(v) for v in label.split(",")[:2])
        style = self.getLevelStyle(level)
        leader = self.levelStyles[-1]  # the dots of every level alike
        x, y = rlinternals.text_cursor(canvas)  # where the entry's text ended
        end = self.dots_end(width)
        pitch = pdfmetrics.stringWidth(self.DOT, leader.fontName, leader.fontSize)
        count = max(0, int((end - x - self.GAP) // pitch))
        text = canvas.beginText(end - count * pitch, y)
        text.setFillColor(style.textColor)
        if count:
            text.setFont(leader.fontName, leader.fontSize)
            text.textOut(self.DOT * count)
        number = str(page)
        text.setFont(style.fontName, style.fontSize)
        text.setTextOrigin(width - pdfmetrics.stringWidth(number, style.fontName, style.fontSize), y)
        text.textOut(number)
        canvas.drawText(text)


def _contents(st: Styles) -> TableOfContents:
    toc = _Contents()
    toc.levelStyles = [
        ParagraphStyle("toc1", parent=st.body, fontName=fonts.pdf_name("bold"), fontSize=11, leading=16, leftIndent=0),
        ParagraphStyle("toc2", parent=st.body, fontSize=10, leading=13, leftIndent=14),
    ]
    toc.dotsMinLevel = 0
    # a table's cells default to Helvetica, which would go unembedded
    toc.tableStyle = TableStyle([("FONTNAME", (0, 0), (-1, -1), fonts.pdf_name("regular")),
                                 ("VALIGN", (0, 0), (-1, -1), "TOP")])
    return toc


def _table(rows: list[list[str]], st: Styles, element_colors) -> Flowable:
    if not rows:
        return Spacer(1, 1)
    width = max(len(r) for r in rows)
    rows = [r + [""] * (width - len(r)) for r in rows]
    data = [[Paragraph(inline(c, element_colors, (st.accent,) if n == 0 else ROWS), st.head if n == 0 else st.cell)
             for c in row] for n, row in enumerate(rows)]
    weights = [min(max(max(len(_plain(r[k])) for r in rows), 4), 60) ** 0.8 for k in range(width)]
    least = [max(_longest_word(r[k], st.head if n == 0 else st.cell) for n, r in enumerate(rows)) + 2 * _CELL_PAD
             for k in range(width)]
    table = _SharedTable(data, weights, least, whole=len(rows) <= KEEP_WHOLE, repeatRows=1, hAlign="LEFT",
                         spaceAfter=TABLE_SPACE_AFTER)
    table.setStyle(TableStyle([
        ("FONTNAME", (0, 0), (-1, -1), fonts.pdf_name("regular")),  # else Helvetica, unembedded
        ("BACKGROUND", (0, 0), (-1, 0), st.accent),
        ("ROWBACKGROUNDS", (0, 1), (-1, -1), list(ROWS)),
        ("GRID", (0, 0), (-1, -1), 0.3, colors.HexColor("#c9bfa9")),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LEFTPADDING", (0, 0), (-1, -1), _CELL_PAD),
        ("RIGHTPADDING", (0, 0), (-1, -1), _CELL_PAD),
        ("TOPPADDING", (0, 0), (-1, -1), 3),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
    ]))
    return table


_CELL_PAD = 4  # points either side of a cell's text
KEEP_WHOLE = 12  # rows, the header's too: a table of no more is never split over two pages
# Points under a table, before whatever follows: a heading after a table starts at least
# HEADING_AFTER_TABLE below its last rule (a h1's space before and its line above its letters add
# 8.6 points to this, a h2's 12), where before a large table had none and a heading nearly touched it.
TABLE_SPACE_AFTER = 10
HEADING_AFTER_TABLE = 6 * MM


class _SharedTable(Table):
    """Columns share the width by how much they hold (a column of long text gets the room),
    but none is narrower than its longest word, which would otherwise break mid-word. A table
    `whole` is not split where a page has room for it at its top: it goes there whole. (It
    is no container, as a KeepTogether would be: a paragraph that introduces it keeps with it.)"""

    def __init__(self, data, weights: list[float] | None = None, least: list[float] | None = None,
                 whole: bool = False, **kwargs):
        super().__init__(data, **kwargs)  # the parts of a split table come with their widths set
        self._weights, self._least, self._whole = weights, least, whole

    def split(self, availWidth, availHeight):
        if self._whole:
            _, height = self.wrap(availWidth, availHeight)
            room = rlinternals.frame_height(self)
            if room is not None and availHeight < room and height <= room:
                return []  # to the next page, whole
        return super().split(availWidth, availHeight)

    def wrap(self, availWidth, availHeight):
        if self._weights is not None:
            rlinternals.set_column_widths(self, _share(availWidth, self._weights, self._least))
        return super().wrap(availWidth, availHeight)


def _share(total: float, weights: list[float], least: list[float]) -> list[float]:
    """Widths in proportion to `weights` summing to `total`, each at least its `least` (as
    far as the total allows): a column below its least is fixed there, the rest share on."""
    fixed: dict[int, float] = {}
    while True:
        free = [k for k in range(len(weights)) if k not in fixed]
        room = total - sum(fixed.values())
        share = {k: room * weights[k] / sum(weights[j] for j in free) for k in free} if free else {}
        short = [k for k in free if share[k] < least[k]]
        if not short or room <= sum(least[k] for k in free):
            return [fixed.get(k, share.get(k, 0.0)) for k in range(len(weights))]
        fixed.update({k: least[k] for k in short})


def _longest_word(text: str, style: ParagraphStyle) -> float:
    """Its widest word, measured in bold: a word may be set in bold, and then it is wider."""
    words = _plain(text).split() or [""]
    return max(pdfmetrics.stringWidth(word, fonts.pdf_name("bold"), style.fontSize) for word in words)


def _plain(text: str) -> str:
    hidden, spans = _hide(text)
    return _show(_ICON.sub(lambda m: m.group(1), hidden.replace("**", "").replace("*", "")), spans)
