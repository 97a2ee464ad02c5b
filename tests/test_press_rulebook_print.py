"""Rulebooks that print well: the figure's leaders cross no text and no other leader, every
text can be read against what is behind it, and no page holds a stray line or two."""

import re
from dataclasses import dataclass

import pytest
from pypdf import PdfReader

from conftest import ROOT
from spellpress.press.drawing import fonts, markup, rulebook
from spellpress.press.model.options import Options
from spellpress.press.model.plan import plan

MM = 72 / 25.4
SLUGS = ["magicka-mayhem", "powermage-54", "powers-combined", "sorcerer-duel", "spellchamber"]
PDFS = ["rulebook-a4.pdf", "rulebook-letter.pdf", "rulebook-a4-booklet.pdf", "rulebook-letter-booklet.pdf"]


@pytest.fixture(scope="module")
def books(cards_dir):
    """Each game's Book, as the build makes it."""
    jobs = plan(Options(cards=cards_dir, templates=cards_dir.parent / "templates", kinds=("rulebook",), progress=False))
    return {job.book.title: job.book for group in jobs for job in group if hasattr(job, "book")}


@pytest.fixture()
def built(books_built):
    return books_built


# -- geometry


def _crosses_box(a, b, box, pad=0.0) -> bool:
    """Whether the segment a-b passes through the box (x0, y0, x1, y1), grown by `pad`."""
    x0, y0, x1, y1 = box[0] - pad, box[1] - pad, box[2] + pad, box[3] + pad
    t0, t1 = 0.0, 1.0
    dx, dy = b[0] - a[0], b[1] - a[1]
    for p, q in ((-dx, a[0] - x0), (dx, x1 - a[0]), (-dy, a[1] - y0), (dy, y1 - a[1])):
        if p == 0:
            if q < 0:
                return False
        else:
            t = q / p
            if p < 0:
                t0 = max(t0, t)
            else:
                t1 = min(t1, t)
            if t0 > t1:
                return False
    return True


def _cross(o, a, b) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _segments_meet(a, b, c, d) -> bool:
    """Whether two segments touch or cross."""
    d1, d2, d3, d4 = _cross(c, d, a), _cross(c, d, b), _cross(a, b, c), _cross(a, b, d)
    if ((d1 > 0) != (d2 > 0)) and ((d3 > 0) != (d4 > 0)) and 0 not in (d1, d2, d3, d4):
        return True
    for p, q, r, side in ((c, d, a, d1), (c, d, b, d2), (a, b, c, d3), (a, b, d, d4)):
        if side == 0 and min(p[0], q[0]) <= r[0] <= max(p[0], q[0]) and min(p[1], q[1]) <= r[1] <= max(p[1], q[1]):
            return True
    return False


def leader_problems(paths: list[list[tuple[float, float]]], texts: list[tuple[float, float, float, float]]) -> list[str]:
    """Each leader (a polyline) that runs over a text box or meets another leader."""
    problems = []
    segments = [[(p[i], p[i + 1]) for i in range(len(p) - 1)] for p in paths]
    for n, path in enumerate(segments):
        for a, b in path:
            for box in texts:
                if _crosses_box(a, b, box):
                    problems.append(f"leader {n} {a}->{b} crosses text {box}")
            for m, other in enumerate(segments):
                if m != n and any(_segments_meet(a, b, c, d) for c, d in other):
                    problems.append(f"leader {n} {a}->{b} meets leader {m}")
    return problems


def test_the_checks_see_a_crossing():
    assert _crosses_box((0, 5), (10, 5), (4, 4, 6, 6)) and not _crosses_box((0, 7), (10, 7), (4, 4, 6, 6))
    assert _segments_meet((0, 0), (10, 10), (0, 10), (10, 0)) and not _segments_meet((0, 0), (10, 0), (0, 1), (10, 2))
    assert leader_problems([[(0, 0), (10, 10)], [(0, 10), (10, 0)]], []) != []


@pytest.mark.parametrize("slug", SLUGS)
def test_the_figures_leaders_cross_no_text_and_no_other_leader(books, games, slug):
    book = books[games[slug].title]
    for card, sample in book.samples:
        flow = rulebook._SampleFlowable(sample, None)
        routed = flow.leaders
        assert sorted(leader.label for leader in routed) == sorted(part.label for part in sample.labelled), card
        texts = rulebook.text_boxes(sample.drawing) + [leader.text_box for leader in routed]
        assert leader_problems([list(leader.path) for leader in routed], texts) == []
        d = sample.drawing
        for leader, part in zip(sorted(routed, key=lambda r: r.label), sorted(sample.labelled, key=lambda p: p.label)):
            (x, y, w, h), (ax, ay) = part.area, leader.anchor  # each dot on its own part, or on its turned copy
            boxes = [(x, y)] + ([(d.width - x - w, d.height - y - h)] if part.turned else [])
            assert any(bx * MM <= ax <= (bx + w) * MM and flow.card_h - (by + h) * MM <= ay <= flow.card_h - by * MM
                       for bx, by in boxes), leader.label


# -- reading the PDF


@dataclass
class PageInk:
    texts: list[tuple[str, tuple[float, float, float, float], tuple[float, ...]]]  # text, box, fill colour
    strokes: list[tuple[float, tuple[float, ...], list[tuple[float, float]]]]  # line width, colour, points
    fills: list[tuple[int, tuple[float, float, float, float], tuple[float, ...]]]  # when, rectangle, colour
    shows: list[tuple[int, tuple[float, float], tuple[float, ...]]]  # when, where a text starts, its colour


_FACES = {fonts.registered(role).face.name.decode(): role for role in fonts.FONTS}  # 'Literata-Regular': 'regular'...


def _apply(m, x, y):
    return m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]


def read_page(page) -> PageInk:
    """The page's text boxes (with their fill colour), stroked paths and filled rectangles, in
    page coordinates, as its content stream draws them."""
    ink = PageInk([], [], [], [])
    state = {"w": 1.0, "RG": (0.0,), "rg": (0.0,), "path": [], "rects": []}
    stack = []

    def before(op, args, cm, tm):
        if op in (b"Tj", b"TJ", b"'", b'"'):
            ink.shows.append((len(ink.shows) + len(ink.fills), _apply(cm, tm[4], tm[5]), state["rg"]))
        elif op == b"q":
            stack.append(dict(state, path=list(state["path"])))
        elif op == b"Q" and stack:
            state.update(stack.pop())
        elif op == b"w":
            state["w"] = float(args[0])
        elif op in (b"RG", b"G"):
            state["RG"] = tuple(float(a) for a in args)
        elif op in (b"rg", b"g"):
            state["rg"] = tuple(float(a) for a in args)
        elif op == b"m":
            state["path"] = [[_apply(cm, float(args[0]), float(args[1]))]]
        elif op == b"l" and state["path"]:
            state["path"][-1].append(_apply(cm, float(args[0]), float(args[1])))
        elif op == b"re":
            x, y, w, h = (float(a) for a in args)
            (ax, ay), (bx, by) = _apply(cm, x, y), _apply(cm, x + w, y + h)
            state["rects"].append((min(ax, bx), min(ay, by), max(ax, bx), max(ay, by)))
        elif op in (b"S", b"s", b"f", b"F", b"f*", b"B", b"B*", b"b", b"b*", b"n"):
            if op in (b"S", b"s", b"B", b"B*", b"b", b"b*"):
                ink.strokes += [(state["w"], state["RG"], p) for p in state["path"]]
            if op in (b"f", b"F", b"f*", b"B", b"B*", b"b", b"b*"):
                ink.fills += [(len(ink.shows) + len(ink.fills), r, state["rg"]) for r in state["rects"]]
            state["path"], state["rects"] = [], []

    def text(t, cm, tm, font, size):
        if not t.strip() or font is None:
            return
        face = _FACES.get(str(font["/BaseFont"]).split("+")[-1], "regular")  # else a test's Helvetica: as the text face
        x, y = _apply(cm, tm[4], tm[5])
        scale = (cm[0] * tm[0]) or 1.0
        size *= abs(scale)
        up, down = rulebook._extent(face, size)
        width = fonts.width(t.strip(), face, size) * MM
        if scale < 0:  # turned half round (a card's lower corner index): its letters run left of and below where it starts
            ink.texts.append((t.strip(), (x - width, y - up, x, y + down), state["rg"]))
        else:
            ink.texts.append((t.strip(), (x, y - down, x + width, y + up), state["rg"]))

    page.extract_text(visitor_operand_before=before, visitor_text=text)
    return ink


@pytest.mark.parametrize("slug", SLUGS)
@pytest.mark.parametrize("name", PDFS)
def test_in_the_pdf_no_leader_crosses_text_or_another_leader(built, books, games, slug, name):
    book = books[games[slug].title]
    accent = tuple(round(v, 3) for v in rulebook.colors.HexColor(book.accent).rgb())
    labels = {part.label for _, sample in book.samples for part in sample.labelled}
    found = 0
    for page in PdfReader(built / slug / name).pages:
        ink = read_page(page)
        paths = [pts for width, colour, pts in ink.strokes
                 if width == rulebook.LEADER_WIDTH and tuple(round(v, 3) for v in colour) == accent and len(pts) > 1]
        if not paths:
            continue
        found += len(paths)
        assert leader_problems(paths, [box for _, box, _ in ink.texts]) == [], name
        assert labels <= {t for t, _, _ in ink.texts}
    assert found == sum(len(sample.labelled) for _, sample in book.samples)


# -- the figure's leaders end on the parts they name (issue 28, defect 6)


@dataclass
class Figure:
    """A sample card as the tests see it: each labelled part's layout box, its areas, and where
    its ink shows on the card."""

    drawing: object
    boxes: dict  # label -> the layout's Box
    areas: dict  # label -> its areas (x, y, w, h) in mm, its turned copy's too
    ink: dict  # label -> the (column, row) pixels, y down at DPI, where the part's own ink shows


DPI = 150


class Ink:
    """The pixels of a mask (a Pillow image, mode 'L') that are set: `(column, row) in ink`."""

    def __init__(self, mask):
        self.mask = mask

    def __contains__(self, px) -> bool:
        w, h = self.mask.size
        return 0 <= px[0] < w and 0 <= px[1] < h and self.mask.getpixel(px) > 0

    def __len__(self) -> int:
        return sum(1 for v in self.mask.getdata() if v)


def painted(layouter, face, layout, box) -> object:
    """The mask of the pixels a layout's box, drawn alone by the raster backend, paints: those
    that differ from the ground when drawn on black or on white (no colour is both)."""
    from dataclasses import replace

    from PIL import Image, ImageChops

    from spellpress.press.drawing import raster
    from spellpress.press.drawing.displaylist import Rect

    drawing = layouter.draw(face, replace(layout, boxes=(box,)))
    mask = None
    for ground in ((0, 0, 0), (255, 255, 255)):
        rect = Rect(-drawing.bleed, -drawing.bleed, drawing.width + 2 * drawing.bleed, drawing.height + 2 * drawing.bleed, ground)
        image = raster.render(replace(drawing, items=(rect, *drawing.items)), DPI, bleed=False)
        diff = ImageChops.difference(image, Image.new("RGB", image.size, ground))
        channels = diff.split()
        most = ImageChops.lighter(ImageChops.lighter(channels[0], channels[1]), channels[2])
        here = most.point(lambda v: 255 if v > 24 else 0)
        mask = here if mask is None else ImageChops.lighter(mask, here)
    return mask


def figure(games, slug: str, card_id: str, sample) -> Figure:
    """The sample card laid out again, as the build lays it out; each labelled part's ink is
    what its box paints, less what the boxes drawn after it paint."""
    from PIL import ImageChops

    from spellpress import defaults
    from spellpress.press.drawing.icons import IconSet
    from spellpress.press.drawing.layout import Layouter
    from spellpress.press.drawing.templates import Templates

    game = games[slug]
    root = ROOT / "templates"
    layouter = Layouter(game, IconSet.load(defaults.find(root, "icons.yaml")), game.ink, game.identity)
    card = game.card(card_id)
    layout = Templates(root).get(game.card_types[card.type].template)
    face = layouter.card_face(card)
    drawing = layouter.draw(face, layout)
    assert drawing == sample.drawing, "the test lays the card out as the build does"
    masks = [painted(layouter, face, layout, box) for box in layout.boxes]
    later = [masks[-1].point(lambda v: 0)]  # what the boxes after each one paint, from the last back
    for mask in reversed(masks[1:]):
        later.append(ImageChops.lighter(later[-1], mask))
    later.reverse()
    boxes, areas, ink = {}, {}, {}
    for part in sample.labelled:
        [at] = [i for i, (name, _) in enumerate(layout.boxes) if name == part.name]
        box = boxes[part.label] = layout.boxes[at][1]
        assert layout.area(box) == part.area
        x, y, w, h = part.area
        label = part.label
        areas[label] = [part.area] + ([(drawing.width - x - w, drawing.height - y - h, w, h)] if box.mirror else [])
        ink[label] = Ink(ImageChops.subtract(masks[at], later[at]))
    return Figure(drawing, boxes, areas, ink)


def drawn_leaders(page, drawing, accent, labels) -> list[tuple[str, list[tuple[float, float]]]]:
    """Each leader drawn on the page, as (its label, its points in the card's millimetres, y
    down from the trim's top left corner): the card found on the page by its own words."""
    from collections import Counter

    ink = read_page(page)
    paths = [pts for width, colour, pts in ink.strokes
             if width == rulebook.LEADER_WIDTH and tuple(round(v, 3) for v in colour) == accent and len(pts) > 1]
    if not paths:
        return []
    words = [item for item in drawing.items if type(item).__name__ == "Text" and not item.turned and item.text.strip()]
    starts = _text_starts(page)
    offsets = Counter((round(x - w.x * MM, 1), round(y - (drawing.height - w.y) * MM, 1))
                      for w in words for text, (x, y) in starts if text == w.text.strip())
    (ox, oy), found = offsets.most_common(1)[0]
    assert found >= len(words) * 0.8, "the card's words are on the page"
    out = []
    for pts in paths:
        ex, ey = pts[-1]
        label = min((t for t, box, _ in ink.texts if t in labels), key=lambda t: min(
            abs(box[0] - ex - 2 * MM) + abs((box[1] + box[3]) / 2 - ey) for tt, box, _ in ink.texts if tt == t))
        out.append((label, [((x - ox) / MM, drawing.height - (y - oy) / MM) for x, y in pts]))
    return out


def _text_starts(page) -> list[tuple[str, tuple[float, float]]]:
    """Each text the page shows, with the start of its baseline in page coordinates."""
    out = []

    def text(t, cm, tm, font, size):
        if t.strip():
            out.append((t.strip(), _apply(cm, tm[4], tm[5])))

    page.extract_text(visitor_text=text)
    return out


def _inside(point, area, pad=0.0) -> bool:
    x, y, w, h = area
    return x - pad <= point[0] <= x + w + pad and y - pad <= point[1] <= y + h + pad


def _px(point) -> tuple[int, int]:
    return int(point[0] * DPI / 25.4), int(point[1] * DPI / 25.4)


def on_ink(point, ink, reach_mm: float = 0.0, along_row: bool = False) -> bool:
    """Whether the point lies on the ink (a pixel of it within `reach_mm`); `along_row`: on ink
    found to its left on its own row (a text's dot sits just after its line)."""
    cx, cy = _px(point)
    r = round(reach_mm * DPI / 25.4)
    if along_row:
        rows = round(1.0 * DPI / 25.4)  # a line's letters reach this far above and below its middle
        return any((cx - dx, cy + dy) in ink for dx in range(0, r + 1) for dy in range(-rows, rows + 1))
    return all((cx + dx, cy + dy) in ink for dx in (-1, 0, 1) for dy in (-1, 0, 1))


def crossed(path, ink) -> bool:
    """Whether the polyline (mm) runs over a pixel of the ink, within the card."""
    for (ax, ay), (bx, by) in zip(path, path[1:]):
        steps = max(1, int(max(abs(bx - ax), abs(by - ay)) * DPI / 25.4 * 2))
        for i in range(steps + 1):
            point = (ax + (bx - ax) * i / steps, ay + (by - ay) * i / steps)
            if _px(point) in ink:
                return True
    return False


def leader_end_problems(fig: Figure, leaders) -> list[str]:
    """What is wrong with where each leader ends and runs: its dot outside the box of the part it
    names (or of that box's turned copy), off the part's own visible ink (for a text, not just
    after one of its lines), or its line over another labelled part's ink, unless the part it
    names lies on that part (a badge on the picture)."""
    problems = []
    for label, path in leaders:
        dot, box = path[0], fig.boxes[label]
        where = f"{label} at ({dot[0]:.1f}, {dot[1]:.1f}) mm"
        if not any(_inside(dot, area) for area in fig.areas[label]):
            problems.append(f"{where}: outside its box")
        text = box.kind == "text"
        if not on_ink(dot, fig.ink[label], reach_mm=1.5 if text else 0.0, along_row=text):
            problems.append(f"{where}: not on its own {'line' if text else 'ink'}")
        for other, ink in fig.ink.items():
            if other == label or any(_inside_area(a, b) for a in fig.areas[label] for b in fig.areas[other]):
                continue
            if crossed(path, ink):
                problems.append(f"{where}: its line crosses {other}")
    return problems


def _inside_area(a, b) -> bool:
    """Whether area a lies within area b."""
    return b[0] <= a[0] and b[1] <= a[1] and a[0] + a[2] <= b[0] + b[2] and a[1] + a[3] <= b[1] + b[3]


@pytest.fixture(scope="module")
def figures(books, games):
    return {(slug, card): figure(games, slug, card, sample)
            for slug in SLUGS for card, sample in books[games[slug].title].samples}


def test_the_leader_checks_see_a_dot_off_its_part_and_a_line_over_another():
    mm = 25.4 / DPI  # a pixel
    badge = {(x, y) for x in range(10, 40) for y in range(10, 40)}  # two badges side by side
    other = {(x, y) for x in range(60, 80) for y in range(10, 40)}
    fig = Figure(rulebook.Drawing(63.5, 88.9, 0, ()), {"A": _Kind("stat"), "B": _Kind("stat")},
                 {"A": [(10 * mm, 10 * mm, 30 * mm, 30 * mm)], "B": [(60 * mm, 10 * mm, 20 * mm, 30 * mm)]},
                 {"A": badge, "B": other})
    assert leader_end_problems(fig, [("A", [(25 * mm, 25 * mm), (100, 25 * mm)])]) == [
        "A at (4.2, 4.2) mm: its line crosses B"]
    assert leader_end_problems(fig, [("A", [(25 * mm, 45 * mm), (100, 45 * mm)])]) == [
        "A at (4.2, 7.6) mm: outside its box", "A at (4.2, 7.6) mm: not on its own ink"]
    assert leader_end_problems(fig, [("A", [(25 * mm, 25 * mm), (25 * mm, 5 * mm), (100, 5 * mm)])]) == []


@dataclass
class _Kind:
    kind: str
    mirror: bool = False


@pytest.mark.parametrize("slug", SLUGS)
@pytest.mark.parametrize("name", PDFS)
def test_each_leader_ends_on_the_part_it_names_and_crosses_no_other(built, books, games, figures, slug, name):
    """Read from the built PDF: each leader's dot lies in the layout box of the part it names, on
    that part's own visible ink (a text's just after its line), and its line runs over no other
    labelled part, save the one its part sits on (issue 28, defect 6: Magicka Mayhem's 'Picture'
    ended on the damage badge; Sorcerer Duel's 'Picture' on the summoning banner, 'Attack'
    crossed the heart, 'Health' ended in empty space)."""
    book = books[games[slug].title]
    accent = tuple(round(v, 3) for v in rulebook.colors.HexColor(book.accent).rgb())
    seen = []
    for page in PdfReader(built / slug / name).pages:
        for card, sample in book.samples:
            labels = {part.label for part in sample.labelled}
            leaders = drawn_leaders(page, sample.drawing, accent, labels)
            if not leaders:
                continue
            assert sorted(label for label, _ in leaders) == sorted(labels)
            problems = leader_end_problems(figures[slug, card], leaders)
            assert problems == [], "\n".join(problems)
            seen.append(card)
    assert sorted(seen) == sorted(card for card, _ in book.samples)


# -- contrast


def _colour(values: tuple[float, ...]):
    from reportlab.lib import colors

    return colors.Color(*values) if len(values) == 3 else colors.Color(values[0], values[0], values[0])


def contrast_problems(page) -> list[str]:
    """Each text drawn in a colour that reads below 4.5:1 against the last rectangle filled
    under where it starts (the white page if none)."""
    from spellpress.press.drawing.markup import PAPER, contrast

    ink = read_page(page)
    problems = []
    for when, (x, y), colour in ink.shows:
        under = [c for w, (x0, y0, x1, y1), c in ink.fills if w < when and x0 <= x + 1 <= x1 and y0 <= y + 2 <= y1]
        background = _colour(under[-1]) if under else PAPER
        ratio = contrast(_colour(colour), background)
        if ratio < 4.5:
            problems.append(f"text at ({x:.0f}, {y:.0f}) in {colour} on {background.rgb()}: {ratio:.2f}:1")
    return problems


def test_the_contrast_reading_sees_dark_on_dark(tmp_path):
    from reportlab.pdfgen.canvas import Canvas

    canvas = Canvas(str(tmp_path / "x.pdf"))
    canvas.setFillColorRGB(0.2, 0.2, 0.3)
    canvas.rect(0, 0, 200, 200, stroke=0, fill=1)
    canvas.setFillColorRGB(0.3, 0.3, 0.5)
    canvas.drawString(10, 10, "dark on dark")
    canvas.setFillColorRGB(1, 1, 1)
    canvas.drawString(10, 50, "white on dark")
    canvas.setFillColorRGB(0.6, 0.6, 0.6)
    canvas.drawString(300, 300, "grey on the page")
    canvas.save()
    problems = contrast_problems(PdfReader(tmp_path / "x.pdf").pages[0])
    assert len(problems) == 2 and "(10, 10)" in problems[0] and "(300, 300)" in problems[1]


@pytest.mark.parametrize("slug", SLUGS)
def test_every_text_of_the_rulebook_reads_against_its_background(books, games, slug, monkeypatch, tmp_path):
    """Every text the book sets (headings, tables' headers and cells with their element names,
    lists, contents, labels, cover): the cards it shows are drawn by the card renderer and
    are left out here."""
    import io

    from spellpress.press.drawing.markup import PAPER, ROWS, contrast, readable, styles

    book = books[games[slug].title]
    monkeypatch.setattr(rulebook, "draw_face", lambda canvas, face: None)
    for paper in ("a4", "letter"):
        reader = PdfReader(io.BytesIO(rulebook.pdf(book, paper)))
        problems = [f"p{n + 1} {p}" for n, page in enumerate(reader.pages) for p in contrast_problems(page)]
        assert problems == [], problems[:5]
    st = styles(book.accent)
    for name, colour in book.element_colors:  # an element named in a table's header, in its rows, on the page
        for on in ((st.accent,), ROWS, (PAPER,)):
            assert all(contrast(readable(rulebook.colors.HexColor(colour), *on), b) >= 4.5 for b in on), name


# -- page breaks


def body_lines(page) -> int:
    """The lines of text a page's body holds: its distinct baselines, the running head and
    the page number left out."""
    width, height = float(page.mediabox.width), float(page.mediabox.height)
    margin = (16 if width > 420 else 12) * MM  # as rulebook._Doc sets its frame
    ys = sorted(y for _, (x, y), _ in read_page(page).shows if margin + 2 * MM - 1 < y < height - margin - 4 * MM + 1)
    return sum(1 for i, y in enumerate(ys) if i == 0 or y - ys[i - 1] > 3)  # a contents line's dots sit a little apart


LAYOUTS = [("a4", False), ("letter", False), ("a4", True), ("letter", True)]


@pytest.fixture(scope="module")
def laid_out(books, games):
    """Each game's book on each paper, booklets' pages too (before imposing): where the last
    layout pass put each flowable, and the PDF, made once for the page checks."""
    import io

    out = {}
    for slug in SLUGS:
        for paper, booklet in LAYOUTS:
            placed: list[rulebook.Placed] = []
            reader = PdfReader(io.BytesIO(rulebook.pdf(books[games[slug].title], paper, booklet, placed=placed)))
            out[slug, paper, booklet] = placed, reader
    return out


@pytest.mark.parametrize("slug", SLUGS)
@pytest.mark.parametrize("paper,booklet", LAYOUTS)
def test_no_page_holds_a_stray_line_or_ends_with_a_heading(laid_out, slug, paper, booklet):
    from collections import defaultdict

    placed, reader = laid_out[slug, paper, booklet]
    pages = defaultdict(list)
    for p in placed:
        if p.kind not in ("CondPageBreak", "PageBreak", "Spacer", "Turn"):
            pages[p.page].append(p)
    for number, on_page in pages.items():
        first, last = on_page[0], on_page[-1]
        assert not (first.continued and first.lines < 2), (number, "begins with a paragraph's last line")
        assert last.kind != "Heading", (number, "ends with a heading")
    for number, page in enumerate(reader.pages[1:], start=2):  # the cover holds no body text
        assert body_lines(page) >= 3, (number, "holds only one or two lines")


def test_the_page_check_sees_a_stray_line(books, games, monkeypatch):
    """Spellchamber's A4 booklet's contents, set at full size, spill 'Designer's note...16'
    alone onto its page 3, as issue 14 saw."""
    from spellpress.press.drawing import markup

    monkeypatch.setattr(markup._Contents, "FIT", 1.0)
    reader = PdfReader(__import__("io").BytesIO(rulebook.pdf(books[games["spellchamber"].title], "a4", True)))
    assert min(body_lines(page) for page in reader.pages[1:]) < 3


# -- a chapter's last page, a list's first item, a heading after a table, the contents (issue 28, defect 9)


def chapter_ends(placed: list[rulebook.Placed], pages: int) -> list[int]:
    """The pages that end a chapter (its `::: pagebreak` is placed on them, or the book ends),
    of chapters on more than one page (the contents, after the cover, are on page 2 alone)."""
    breaks = {p.page for p in placed if p.kind == "PageBreak"}
    return [n for n in sorted(breaks | {pages}) if n - 1 not in breaks and n > 2]


@pytest.mark.parametrize("slug", SLUGS)
@pytest.mark.parametrize("paper,booklet", LAYOUTS)
def test_a_chapters_last_page_holds_a_handful_of_lines(laid_out, slug, paper, booklet):
    """At least 6 lines of text (rulebook.LEAST_LAST_PAGE), read from the PDF, on the last page
    of every chapter: Magicka Mayhem's Letter book ended 'How to play' on a page of 3 lines (p.7),
    Spellchamber's Letter booklet its designer's note on 3 (p.15)."""
    placed, reader = laid_out[slug, paper, booklet]
    short = [(n, body_lines(reader.pages[n - 1])) for n in chapter_ends(placed, len(reader.pages))
             if body_lines(reader.pages[n - 1]) < 6]
    assert short == [], f"chapter-ending pages with fewer than 6 lines (page, lines): {short}"
    assert rulebook.LEAST_LAST_PAGE == 6


def test_a_short_last_page_is_helped_by_the_page_before():
    """What the rule asks of the next layout: the page before gives lines from its foot, a
    paragraph split, else a page turned before the flowables that make them up (never before a
    heading's text without the heading)."""
    P, T = rulebook.Placed, markup.Turns()
    end = [P(8, "Heading", 1, False, 44, height=16, keeps=True), P(8, "Text", 3, False, 45, height=40.5),
           P(8, "PageBreak", 0, False)]  # 4 lines: 2 short
    split = [P(7, "Heading", 1, False, 40, height=16, keeps=True), P(7, "Text", 6, False, 41, height=81)]
    assert rulebook.turns_for_short_ends(split + end, T, 13.5) == markup.Turns(carry=(((41, 0), 2),))
    whole = [P(7, "Text", 5, False, 39, height=67.5), P(7, "Heading", 1, False, 40, height=16, keeps=True),
             P(7, "Table", 0, False, 41, height=81)]  # no table is split where it need not be
    assert rulebook.turns_for_short_ends(whole + end, T, 13.5) == markup.Turns(turn_before=frozenset({40}))
    assert rulebook.turns_for_short_ends(whole[1:] + end, T, 13.5) is None  # the page would be left empty
    enough = end[:1] + [P(8, "Text", 5, False, 45, height=67.5)] + end[2:]
    assert rulebook.turns_for_short_ends(split + enough, T, 13.5) is None


@pytest.mark.parametrize("slug", SLUGS)
@pytest.mark.parametrize("paper,booklet", LAYOUTS)
def test_a_lists_first_item_never_stands_alone_at_a_pages_foot(laid_out, slug, paper, booklet):
    """A list's first item keeps with its second: Magicka Mayhem's Letter book left '1 spell card
    for 2 element cards' alone at the foot of p.4, the other three rates on p.5."""
    placed, _ = laid_out[slug, paper, booklet]
    assert [p for p in placed if p.kind == "Item"] or slug == "powermage-54"  # whose rules hold no list
    content = [p for p in placed if p.block >= 0]
    alone = [p for p, after in zip(content, content[1:]) if p.item[0] == 1 and p.item[1] > 1 and after.page > p.page]
    assert alone == []


def _heading_gaps(page, accent_text: tuple[float, ...]) -> list[tuple[str, float]]:
    """Each heading right after a table on the page, with the room between the table's last
    rule (the foot of its last row) and the heading's top (its baseline plus its font's ascent)."""
    rows = tuple(round(v, 3) for c in markup.ROWS for v in [c.red, c.green, c.blue])
    row_colours = {rows[:3], rows[3:]}
    ink = read_page(page)
    tables = [r for _, r, c in ink.fills if tuple(round(v, 3) for v in c) in row_colours]
    out = []
    for text, (x0, y0, x1, y1), colour in ink.texts:
        if tuple(round(v, 3) for v in colour) != accent_text or y1 - y0 <= 12:  # a h1 or h2, not the running head
            continue
        above = [r for r in tables if r[1] >= y1 - 1 and r[0] <= x0 + 1 <= r[2]]
        if not above:
            continue
        foot = min(r[1] for r in above)
        between = [t for t, b, _ in ink.texts if y1 < b[1] < foot and b[0] < x1 and b[2] > x0 - 1]
        if not between:  # nothing between the table and the heading: it follows the table
            out.append((text, foot - y1))
    return out


@pytest.mark.parametrize("slug", SLUGS)
@pytest.mark.parametrize("paper,booklet", LAYOUTS)
def test_a_heading_after_a_table_keeps_clear_of_it(laid_out, books, games, slug, paper, booklet):
    """6 mm at least (markup.HEADING_AFTER_TABLE) from a table's last rule to the top of the
    heading after it: 'Glossary' sat 3 mm under the table before it (Spellchamber p.8, PowerMage p.7)."""
    _, reader = laid_out[slug, paper, booklet]
    accent_text = tuple(round(v, 3) for v in markup.styles(books[games[slug].title].accent).accent_text.rgb())
    gaps = [(n, text, round(gap / MM, 2)) for n, page in enumerate(reader.pages, start=1)
            for text, gap in _heading_gaps(page, accent_text)]
    assert gaps  # "The parts of a card" after the table of parts, at least
    assert [g for g in gaps if g[2] < 6] == []
    assert markup.HEADING_AFTER_TABLE == 6 * MM


def contents_leaders(page) -> list[tuple[float, float, float]]:
    """Each leader of a contents page: where its first dot begins and its last dot ends, and how
    many dots that span is (its length less one dot, in dot pitches), from the PDF."""
    runs = []

    def text(t, cm, tm, font, size):
        if font is None or "." not in t or not re.fullmatch(r"[ .]*\d*\s*", t):  # dots, and a number after them
            return
        face = _FACES.get(str(font["/BaseFont"]).split("+")[-1], "regular")  # else a test's Helvetica: as the text face
        x, _ = _apply(cm, tm[4], tm[5])
        size *= abs((cm[0] * tm[0]) or 1.0)
        first, last = t.index("."), t.rindex(".") + 1
        begin, end = x + fonts.width(t[:first], face, size) * MM, x + fonts.width(t[:last], face, size) * MM
        pitch, dot = (fonts.width(s, face, size) * MM for s in (" . ", "."))
        runs.append((begin, end, (end - begin - dot) / pitch))

    page.extract_text(visitor_text=text)
    return runs


@pytest.mark.parametrize("slug", SLUGS)
@pytest.mark.parametrize("paper,booklet", LAYOUTS)
def test_the_contents_leader_dots_end_at_one_x_and_line_up(laid_out, slug, paper, booklet):
    """Every entry's dots end at one x, whatever its page number's width or face, and stand in
    columns: the dots of every entry are on one pitch from there."""
    _, reader = laid_out[slug, paper, booklet]
    leaders = contents_leaders(reader.pages[1])
    assert len(leaders) > 10
    ends = sorted({round(end, 2) for _, end, _ in leaders})
    assert ends[-1] - ends[0] < 0.05, f"the dots end at {len(ends)} places: {ends}"
    assert all(abs(steps - round(steps)) < 0.01 for _, _, steps in leaders)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_powermage_card_table_lists_the_54_play_cards_only(built, games, paper):
    """'The 54 cards' lists the draw deck (the ruleset's draw_deck, deck_size cards), not the
    quick-reference cards, which are no play cards."""
    from test_press_rulebook import text_of

    game = games["powermage-54"]
    deck = game.decks[game.text_context["draw_deck"]]
    assert deck.total == game.text_context["deck_size"] == 54
    text = text_of(built / "powermage-54" / f"rulebook-{paper}.pdf")
    table = text.split("The 54 cards Card Kind Value or power Copies", 1)[1].split("Glossary", 1)[0]
    assert all(card.name in table for card in deck.cards)
    others = [card for card in game.cards if card.deck != deck.id]
    assert others and [card.name for card in others if card.name in table] == []
    assert "Quick reference" not in table
