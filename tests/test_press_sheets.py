"""The printed sheets, read back from the PDFs: where every card and crop mark lands."""

import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream

from pdf_checks import fonts, syntax_problems
from spellpress.press import sheets
from spellpress.press.build import Options, build

MM = 72 / 25.4
CARD_W, CARD_H, BLEED = 63.5, 88.9, 3.175
GAME = "magicka-mayhem"


@pytest.fixture(scope="module")
def built(tmp_path_factory, cards_dir):
    out = tmp_path_factory.mktemp("build")
    build(Options(cards=cards_dir, templates=cards_dir.parent / "templates", out=out, games=(GAME,),
                  back_offset=(0.8, -0.5), progress=False))
    return out / GAME


def placements(page, reader):
    """[(form name, x mm, y mm from the top-left of the page)] of the card forms on a page."""
    height = float(page.mediabox.height)
    out, at = [], None
    for operands, op in ContentStream(page.get_contents(), reader).operations:
        if op == b"cm":
            at = float(operands[4]), float(operands[5])
        elif op == b"Do":
            # the form's origin is the card's bleed corner at the bottom left
            x = at[0] / MM + BLEED
            y_bottom = (height - at[1]) / MM - BLEED
            out.append((str(operands[0]).removeprefix("/FormXob."), round(x, 2), round(y_bottom - CARD_H, 2)))
    return out


def lines(page, reader):
    """Every stroked line segment on the page, in mm from the top left: ((x1, y1), (x2, y2))."""
    height = float(page.mediabox.height)
    out, start = [], None
    for operands, op in ContentStream(page.get_contents(), reader).operations:
        if op == b"m":
            start = (float(operands[0]) / MM, (height - float(operands[1])) / MM)
        elif op == b"l" and start:
            out.append((start, (float(operands[0]) / MM, (height - float(operands[1])) / MM)))
    return out


@pytest.mark.parametrize("paper,size,grid", [("a4", (595.28, 841.89), (3, 3)), ("letter", (792, 612), (4, 2))])
def test_cards_sit_on_the_grid_and_backs_mirror_them(built, games, paper, size, grid):
    reader = PdfReader(built / f"cards-{paper}.pdf")
    assert [round(float(v), 2) for v in reader.pages[0].mediabox[2:]] == list(size)
    cols, rows = grid
    pw, ph = size[0] / MM, size[1] / MM
    x0, y0 = (pw - cols * CARD_W) / 2, (ph - rows * CARD_H) / 2
    fronts, backs = placements(reader.pages[2], reader), placements(reader.pages[3], reader)
    assert len(fronts) == cols * rows == len(backs)
    for i, (form, x, y) in enumerate(fronts):
        col, row = i % cols, i // cols
        assert (x, y) == (round(x0 + col * CARD_W, 2), round(y0 + row * CARD_H, 2))
        # long-edge duplex: columns reversed on portrait A4, rows reversed on landscape Letter
        mcol, mrow = (col, rows - 1 - row) if paper == "letter" else (cols - 1 - col, row)
        back = next(b for b in backs if b[1:] == (round(x0 + mcol * CARD_W + 0.8, 2), round(y0 + mrow * CARD_H - 0.5, 2)))
        assert back[0] == "back-" + games[GAME].card(form).deck


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_crop_marks_stay_outside_the_cards_and_inside_the_printable_area(built, paper):
    reader = PdfReader(built / f"cards-{paper}.pdf")
    page = reader.pages[2]
    pw, ph = float(page.mediabox.width) / MM, float(page.mediabox.height) / MM
    cols, rows = (3, 3) if paper == "a4" else (4, 2)
    x0, y0 = (pw - cols * CARD_W) / 2, (ph - rows * CARD_H) / 2
    marks = lines(page, reader)
    cut_xs = {round(x0 + i * CARD_W, 2) for i in range(cols + 1)}
    cut_ys = {round(y0 + j * CARD_H, 2) for j in range(rows + 1)}
    assert len(marks) == 2 * 2 * (cols + 1 + rows + 1)  # halo and ink, both ends of every cut
    for (x1, y1), (x2, y2) in marks:
        for x, y in ((x1, y1), (x2, y2)):
            assert sheets.UNPRINTABLE - 1e-6 <= x <= pw - sheets.UNPRINTABLE + 1e-6
            assert sheets.UNPRINTABLE - 1e-6 <= y <= ph - sheets.UNPRINTABLE + 1e-6
            inside = x0 < x < x0 + cols * CARD_W and y0 < y < y0 + rows * CARD_H
            assert not inside
        assert round(x1, 2) in cut_xs or round(y1, 2) in cut_ys


def test_every_card_appears_its_count_times(built, games):
    game = games[GAME]
    for paper in ("a4", "letter"):
        for name in (f"cards-{paper}.pdf", f"cards-fold-{paper}.pdf"):
            reader = PdfReader(built / name)
            seen: dict[str, int] = {}
            pages = reader.pages[2::2] if "fold" not in name else reader.pages
            for page in pages:
                for form, _, _ in placements(page, reader):
                    if not form.startswith("back-"):
                        seen[form] = seen.get(form, 0) + 1
            assert seen == {card.id: card.count for card in game.cards}, name


def test_fold_sheet_puts_each_back_mirrored_about_the_fold(built, games):
    reader = PdfReader(built / "cards-fold-a4.pdf")
    page = placements(reader.pages[0], reader)
    fronts = [p for p in page if not p[0].startswith("back-")]
    backs = [p for p in page if p[0].startswith("back-")]
    fold_x = 297 / 2
    for form, x, y in fronts:
        mirror = round(2 * fold_x - x - CARD_W, 2)
        assert any(b[1] == mirror and b[2] == y for b in backs)
        assert x + CARD_W <= fold_x + 1e-6


def test_calibration_pages_come_first_and_state_the_offset(built):
    reader = PdfReader(built / "cards-a4.pdf")
    text = reader.pages[0].extract_text()
    assert "Spellpress calibration" in text and "100 mm" in text
    assert "+0.8 mm across, -0.5 mm down" in text
    assert placements(reader.pages[0], reader) == []


def test_margin_says_print_at_actual_size(built):
    reader = PdfReader(built / "cards-letter.pdf")
    assert "print at actual size (100%)" in reader.pages[2].extract_text()


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
