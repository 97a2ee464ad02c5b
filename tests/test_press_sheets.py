"""The printed sheets, read back from the PDFs: where every card and crop mark lands."""

import hashlib
import struct

import pytest
from pypdf import PdfReader

from pdf_checks import fonts, has_cards, operations, syntax_problems
from spellpress.press.drawing import papers, sheets
from spellpress.press.drawing.papers import PAPERS
from spellpress.press.model.options import Options
from spellpress.press.outputs import images
from spellpress.press.outputs.build import build

MM = 72 / 25.4
CARD_W, CARD_H, BLEED = 63.5, 88.9, 3.175
GAME = "magicka-mayhem"
GAMES = ("magicka-mayhem", "spellchamber", "powermage-54", "powers-combined", "sorcerer-duel")
# (page width, height) in pt, (columns, rows): both papers landscape
DUPLEX = {"a4": ((841.89, 595.28), (4, 2)), "letter": ((792, 612), (3, 2))}
EPS = 0.01  # mm: the PDF writes coordinates to a hundredth of a point, and placements round


@pytest.fixture(scope="module")
def built(tmp_path_factory, cards_dir):
    out = tmp_path_factory.mktemp("build")
    build(Options(cards=cards_dir, templates=cards_dir.parent / "templates", out=out, games=(GAME,),
                  kinds=("sheets", "fold", "printshop", "png", "tts", "overview"), back_offset=(0.8, -0.5), progress=False))
    return out / GAME


@pytest.fixture(scope="module")
def every_game(built_once):
    """Every game's duplex and fold sheets on both papers."""
    return built_once


def _multiply(m, n):
    """The matrix m then n (PDF's row-vector convention: [a b c d e f])."""
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


def _walk(page, reader):
    """(operator, operands, current transformation matrix) of every operation on the page."""
    ctm, stack = (1, 0, 0, 1, 0, 0), []
    for operands, op in operations(page):
        if op == b"q":
            stack.append(ctm)
        elif op == b"Q":
            ctm = stack.pop()
        elif op == b"cm":
            ctm = _multiply(tuple(float(v) for v in operands), ctm)
        yield op, operands, ctm


def _to_mm(page, ctm, x, y):
    """A point of user space, in mm from the page's top left."""
    a, b, c, d, e, f = ctm
    height = float(page.mediabox.height)
    return (a * x + c * y + e) / MM, (height - (b * x + d * y + f)) / MM


def placements(page, reader):
    """[(form name, x, y of the card's trim top left in mm from the page's top left, turned)]:
    not the mirrored strips that carry a bleed on to a fold line farther than it (a reflection)."""
    out = []
    for op, operands, ctm in _walk(page, reader):
        if op == b"Do" and ctm[0] * ctm[3] - ctm[1] * ctm[2] > 0:
            w, h = CARD_W + 2 * BLEED, CARD_H + 2 * BLEED
            corners = [_to_mm(page, ctm, x * MM, y * MM) for x, y in ((0, 0), (w, 0), (0, h), (w, h))]
            left, top = min(p[0] for p in corners), min(p[1] for p in corners)
            out.append((str(operands[0]).removeprefix("/FormXob."), round(left + BLEED, 2), round(top + BLEED, 2),
                        ctm[0] < 0))
    return out


def lines(page, reader):
    """Every stroked line segment on the page, in mm from the top left: ((x1, y1), (x2, y2))."""
    out, start = [], None
    for op, operands, ctm in _walk(page, reader):
        if op == b"m":
            start = _to_mm(page, ctm, float(operands[0]), float(operands[1]))
        elif op == b"l" and start:
            out.append((start, _to_mm(page, ctm, float(operands[0]), float(operands[1]))))
    return out


def designs(page, reader):
    """Each placed form's picture: a hash of its drawing operators."""
    forms = page["/Resources"]["/XObject"]
    return {name.removeprefix("/FormXob."): hashlib.sha256(forms[name].get_object().get_data()).hexdigest()
            for name in forms}


def _segment_to_rect(p, q, rect):
    """The distance from an axis-parallel segment to a rectangle (x0, y0, x1, y1), mm."""
    (x1, y1), (x2, y2) = p, q
    x0, y0, xa, ya = rect
    dx = max(0.0, x0 - max(x1, x2), min(x1, x2) - xa)
    dy = max(0.0, y0 - max(y1, y2), min(y1, y2) - ya)
    return (dx * dx + dy * dy) ** 0.5


def expected_marks(cards):
    """The marks a cutter needs for these cards (trim top lefts): at both ends of each cut line's
    stretch along them, 1 mm beyond the bleed, 5 mm long."""
    start, end = BLEED + 1, BLEED + 1 + 5
    marks = []
    for x in {v for _, left, _, _ in cards for v in (left, round(left + CARD_W, 2))}:
        along = [y for _, cx, y, _ in cards if abs(cx - x) < 0.02 or abs(cx + CARD_W - x) < 0.02]
        top, bottom = min(along), max(along) + CARD_H
        marks += [(x, top - start, x, top - end), (x, bottom + start, x, bottom + end)]
    for y in {v for _, _, top, _ in cards for v in (top, round(top + CARD_H, 2))}:
        along = [x for _, x, cy, _ in cards if abs(cy - y) < 0.02 or abs(cy + CARD_H - y) < 0.02]
        left, right = min(along), max(along) + CARD_W
        marks += [(left - start, y, left - end, y), (right + start, y, right + end, y)]
    return marks


def is_back(form):
    return form.startswith("back-") or form.endswith("-back")


def fold_marks(cards):
    """A fold sheet's marks at its fold line, in the middle of the gap between the fronts' half
    and the backs': at both ends of the line, 1 mm beyond the bleed, 5 mm long."""
    fronts, backs = [c for c in cards if not is_back(c[0])], [c for c in cards if is_back(c[0])]
    start, end = BLEED + 1, BLEED + 1 + 5
    top, bottom = min(c[2] for c in cards), max(c[2] for c in cards) + CARD_H
    left, right = min(c[1] for c in cards), max(c[1] for c in cards) + CARD_W
    if min(c[1] for c in backs) > max(c[1] for c in fronts):  # a fold between the columns
        x = (max(c[1] for c in fronts) + CARD_W + min(c[1] for c in backs)) / 2
        return [(x, top - start, x, top - end), (x, bottom + start, x, bottom + end)]
    y = (max(c[2] for c in fronts) + CARD_H + min(c[2] for c in backs)) / 2
    return [(left - start, y, left - end, y), (right + start, y, right + end, y)]


def same_marks(found, expected):
    """Whether the two lists hold the same segments, to 0.05 mm."""
    def near(m, others):
        return any(all(abs(a - b) < 0.05 for a, b in zip(m, o)) for o in others)
    return all(near(m, expected) for m in found) and all(near(m, found) for m in expected)


def sheet_pages(reader):
    """The file's pages without the checklist that ends it (the cards' identity)."""
    pages = list(reader.pages)
    while pages and not has_cards(pages[-1]):
        pages.pop()
    return pages


def card_pages(reader, name):
    """The pages with cards: a duplex file's calibration pair left out."""
    return sheet_pages(reader) if "fold" in name else sheet_pages(reader)[2:]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_cards_sit_on_the_grid_and_backs_mirror_them(built, games, paper):
    reader = PdfReader(built / f"cards-{paper}.pdf")
    size, (cols, rows) = DUPLEX[paper]
    assert [round(float(v), 2) for v in reader.pages[0].mediabox[2:]] == list(size)
    pw, ph = size[0] / MM, size[1] / MM
    x0, y0 = (pw - cols * CARD_W) / 2, (ph - rows * CARD_H) / 2
    fronts, backs = placements(reader.pages[2], reader), placements(reader.pages[3], reader)
    assert len(fronts) == cols * rows == len(backs)
    for i, (form, x, y, _) in enumerate(fronts):
        col, row = i % cols, i // cols
        assert (x, y) == (round(x0 + col * CARD_W, 2), round(y0 + row * CARD_H, 2))
        # long-edge duplex on a landscape page: rows reversed
        back = next(b for b in backs if b[1:3] == (round(x0 + col * CARD_W + 0.8, 2), round(y0 + (rows - 1 - row) * CARD_H - 0.5, 2)))
        assert back[0] == "back-" + games[GAME].card(form).deck


@pytest.mark.parametrize("slug", GAMES)
def test_no_page_shows_two_back_designs(every_game, games, slug):
    """A duplex backs page, or a fold page's back half, shows one back design; cards whose back
    is their own other side share a page only with their deck's."""
    game = games[slug]
    own = {f"{c.id}-back": c.deck for c in game.cards if game.card_types[c.type].back}
    for name in ("cards-a4.pdf", "cards-letter.pdf", "cards-fold-a4.pdf", "cards-fold-letter.pdf"):
        reader = PdfReader(every_game / slug / name)
        pages = sheet_pages(reader)[3::2] if "fold" not in name else sheet_pages(reader)
        for n, page in enumerate(pages):
            fronts = {c.id for c in game.cards}
            placed = [p[0] for p in placements(page, reader) if p[0] not in fronts]
            assert placed, (name, n)
            if placed[0] in own:
                assert {own.get(form) for form in placed} == {own[placed[0]]}, (name, n, placed)
            else:
                seen = designs(page, reader)
                assert len({seen[form] for form in placed}) == 1, (name, n, sorted(set(placed)))


def test_the_spellchamber_decks_each_start_a_sheet(every_game, games):
    """Spellchamber's A4 sheet 7 once had three Live Ammo cards under group-scenario backs."""
    game = games["spellchamber"]
    reader = PdfReader(every_game / "spellchamber" / "cards-a4.pdf")
    decks = [{game.card(p[0]).deck for p in placements(page, reader)} for page in sheet_pages(reader)[2::2]]
    assert all(len(d) == 1 for d in decks)
    per_deck = {deck: sum(c.count for c in game.cards if c.deck == deck) for deck in game.decks}
    assert [d.pop() for d in decks] == [deck for deck, n in per_deck.items() for _ in range(0, n, 8)]


@pytest.mark.parametrize("slug", GAMES)
def test_crop_marks_are_long_clear_of_the_bleed_printable_and_only_for_cards(every_game, slug):
    for name in ("cards-a4.pdf", "cards-letter.pdf", "cards-fold-a4.pdf", "cards-fold-letter.pdf"):
        reader = PdfReader(every_game / slug / name)
        for n, page in enumerate(card_pages(reader, name)):
            pw, ph = float(page.mediabox.width) / MM, float(page.mediabox.height) / MM
            cards = placements(page, reader)
            bleeds = [(x - BLEED, y - BLEED, x + CARD_W + BLEED, y + CARD_H + BLEED) for _, x, y, _ in cards]
            marks = lines(page, reader)
            assert marks, (name, n)
            for p, q in marks:
                assert abs(p[0] - q[0]) + abs(p[1] - q[1]) >= 5 - EPS, (name, n, p, q)
                for x, y in (p, q):
                    assert sheets.UNPRINTABLE - EPS <= x <= pw - sheets.UNPRINTABLE + EPS, (name, n, p, q)
                    assert sheets.UNPRINTABLE - EPS <= y <= ph - sheets.UNPRINTABLE + EPS, (name, n, p, q)
                assert min(_segment_to_rect(p, q, r) for r in bleeds) >= 1 - EPS, (name, n, p, q)
            # no mark beside an empty slot, every card's cut lines marked, and a fold sheet's fold line
            expected = expected_marks(cards) + (fold_marks(cards) if "fold" in name else [])
            assert same_marks([(*p, *q) for p, q in marks], expected), (name, n)


def test_the_grids_are_the_ones_with_room_for_marks():
    need = BLEED + 1 + 5 + sheets.UNPRINTABLE
    for paper in PAPERS:
        for layout in ("duplex", "fold"):
            sheet = sheets.sheet_for(layout, paper, CARD_W, CARD_H, BLEED)
            assert min(sheet.x0, sheet.y0) >= need
    for paper, grid in (("a4", sheets.Grid(3, 3, False)), ("letter", sheets.Grid(4, 2, True)),
                        ("letter", sheets.Grid(3, 3, False))):
        with pytest.raises(ValueError, match="crop marks need 15.525 mm"):
            sheets.Sheet(PAPERS[paper], grid, CARD_W, CARD_H, BLEED)


def test_every_card_appears_its_count_times(built, games):
    game = games[GAME]
    for paper in ("a4", "letter"):
        for name in (f"cards-{paper}.pdf", f"cards-fold-{paper}.pdf"):
            reader = PdfReader(built / name)
            seen: dict[str, int] = {}
            pages = sheet_pages(reader)[2::2] if "fold" not in name else sheet_pages(reader)
            for page in pages:
                for form, _, _, _ in placements(page, reader):
                    if not form.startswith("back-"):
                        seen[form] = seen.get(form, 0) + 1
            assert seen == {card.id: card.count for card in game.cards}, name


def test_fold_sheets_put_each_back_mirrored_about_the_fold(built):
    """Each back mirrored about the fold line, which lies in the middle of a gap: each side's cut
    line papers.fold_reach (the 1/8 in bleed, 3.175 mm) from it. A4: poker cards fold between
    the second and third columns, each back beside its front. Letter: 3 x 2 landscape folded
    between the rows (177.8 + 6.35 mm of the 184.85 mm beside the margins), each back below its
    front, turned half round."""
    reach = papers.fold_reach(BLEED)
    assert reach == BLEED
    reader = PdfReader(built / "cards-fold-a4.pdf")
    page = placements(reader.pages[0], reader)
    fronts = [p for p in page if not p[0].startswith("back-")]
    backs = [p for p in page if p[0].startswith("back-")]
    fold_x = 297 / 2
    assert len(fronts) == len(backs) == 4
    for _form, x, y, _ in fronts:
        assert any(abs(b[1] - (2 * fold_x - x - CARD_W)) < EPS and b[2] == y and not b[3] for b in backs)  # placements rounds to 0.01 mm
        assert x + CARD_W <= fold_x - reach + EPS
    assert max(x for _, x, _, _ in fronts) + CARD_W == pytest.approx(fold_x - reach, abs=EPS)
    reader = PdfReader(built / "cards-fold-letter.pdf")
    page = placements(reader.pages[0], reader)
    fronts = [p for p in page if not p[0].startswith("back-")]
    backs = [p for p in page if p[0].startswith("back-")]
    fold_y = 215.9 / 2
    assert len(fronts) == len(backs) == 3
    for _form, x, y, turned in fronts:
        assert not turned and y + CARD_H <= fold_y - reach + EPS
        assert any(b[1] == x and abs(b[2] - (2 * fold_y - y - CARD_H)) < EPS and b[3] for b in backs)
    assert max(y for _, _, y, _ in fronts) + CARD_H == pytest.approx(fold_y - reach, abs=EPS)


def crosses(page, reader):
    """The centres of the calibration's targets: crossing lines 36 mm long."""
    segments = lines(page, reader)
    across = [(p, q) for p, q in segments if abs(p[1] - q[1]) < EPS and abs(abs(p[0] - q[0]) - 2 * sheets.ARM) < 0.01]
    down = {(round(p[0], 2), round((p[1] + q[1]) / 2, 2)) for p, q in segments
            if abs(p[0] - q[0]) < EPS and abs(abs(p[1] - q[1]) - 2 * sheets.ARM) < 0.01}
    centres = {(round((p[0] + q[0]) / 2, 2), round(p[1], 2)) for p, q in across}
    return centres & down


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_calibration_targets_land_on_each_other_under_a_long_edge_flip(built, paper):
    reader = PdfReader(built / f"cards-{paper}.pdf")
    pw, ph = (float(v) / MM for v in reader.pages[0].mediabox[2:])
    front, back = crosses(reader.pages[0], reader), crosses(reader.pages[1], reader)
    assert len(front) == len(back) == 5
    # near the four corners and the centre, so that rotation and scale show, not only a shift
    for cx, cy in ((0, 0), (pw, 0), (0, ph), (pw, ph), (pw / 2, ph / 2)):
        assert any(abs(x - cx) < 60 and abs(y - cy) < 60 for x, y in front), (cx, cy)
    # landscape, long-edge flip: the back page's (x, ph - y) is behind the front's (x, y); offset +0.8, -0.5
    assert {(round(x + 0.8, 2), round(ph - y - 0.5, 2)) for x, y in front} == back
    # a short-edge flip puts the back's (x, y) behind (pw - x, y): every target then lies off the
    # back's scales (more than 15 mm from any front cross across or down)
    for x, y in back:
        assert all(abs(pw - x - fx) > sheets.SCALE or abs(y - fy) > sheets.SCALE for fx, fy in front)


def test_calibration_says_offsets_add_up_and_what_a_wrong_flip_looks_like(built):
    reader = PdfReader(built / "cards-a4.pdf")
    text = " ".join(reader.pages[0].extract_text().split())
    assert "Spellpress calibration" in text and "100 mm" in text and "4 in" in text
    assert "+0.8 mm across, -0.5 mm down" in text
    assert f"spellpress build {GAME} --only sheets --back-offset=0.8+X,-0.5+Y" in text
    assert f"spellpress build {GAME} --only sheets --back-offset=2.3,-1" in text  # +1.5, -0.5 read
    assert "SHORT edge" in text and "do not enter an offset" in text
    assert placements(reader.pages[0], reader) == []


def test_margin_says_print_at_actual_size_and_which_sheet(built):
    reader = PdfReader(built / "cards-letter.pdf")
    text = " ".join(reader.pages[2].extract_text().split())
    assert "print at actual size (100%)" in text and "sheet 1 of" in text


def test_fonts_are_embedded_and_the_files_are_sound(built):
    for pdf in sorted(built.glob("*.pdf")):
        used = fonts(pdf)
        assert used and {font.name for font in used if not font.embedded} == set(), pdf.name
        assert syntax_problems(pdf) == [], pdf.name


def test_the_print_shop_pdf_has_one_card_a_page_with_trim_and_bleed_boxes(built, games):
    reader = PdfReader(built / "cards-printshop.pdf")
    game = games[GAME]
    assert len(reader.pages) == 2 * sum(card.count for card in game.cards)
    for page in reader.pages[:4]:
        assert [round(float(v) / MM, 3) for v in page.mediabox] == [0, 0, 69.85, 95.25]
        assert [round(float(v) / MM, 3) for v in page.trimbox] == [3.175, 3.175, 66.675, 92.075]
        assert [round(float(v) / MM, 3) for v in page.bleedbox] == [0, 0, 69.85, 95.25]
    forms = [placements(page, reader)[0][0] for page in reader.pages[:2]]
    first = game.cards[0]
    assert forms == [first.id, f"back-{first.deck}"]


def phys(path):
    """(pixels a metre across, down, unit) of a PNG's pHYs chunk, or None."""
    data = path.read_bytes()
    at = 8
    while at < len(data):
        size, kind = struct.unpack(">I4s", data[at:at + 8])
        if kind == b"pHYs":
            return struct.unpack(">IIB", data[at + 8:at + 8 + size])
        at += 12 + size
    return None


def test_every_png_says_its_resolution(built):
    written = sorted(built.rglob("*.png"))  # the cache's thumbnails too
    per_card = [p for p in written if p.parent.name == "png"]
    assert per_card and any(p.parent.name == "tts" for p in written) and (built / "overview.png") in written
    for path in written:
        if path.parent.name == "png":  # the print shop's 825 x 1125 px: 300 dpi
            assert phys(path) == (11811, 11811, 1), path.name
        else:  # a TTS sheet's or the overview's cards (and their thumbnails in .cache) are smaller: their density
            small = path.name == "overview.png" or path.name.endswith("-small.png")
            card_px = images.OVERVIEW_CARD[0] if small else images.TTS_CARD[0]
            per_metre = round(card_px / (CARD_W / 1000))
            assert phys(path) == (per_metre, per_metre, 1), path.name
