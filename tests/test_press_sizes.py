"""Any card size (issue 26, part 5): each paper takes the largest grid that keeps the bleed, the
crop marks and the printer's margin; a size no paper holds is a problem from `validate`.

The grids below are worked by hand: a grid needs 3.175 mm bleed + 1 mm gap + 5 mm mark +
6.35 mm unprintable = 15.525 mm beside it on every side, so cards may fill
  A4 portrait 178.95 x 265.95 mm, A4 landscape 265.95 x 178.95 mm,
  Letter portrait 184.85 x 248.35 mm, Letter landscape 248.35 x 184.85 mm;
each way of the paper holds floor(across / width) x floor(down / height) cards, and the way of
more cards wins (landscape when both hold as many). For example tarot (70 x 120) on A4:
portrait 178.95 / 70 = 2.56 -> 2 and 265.95 / 120 = 2.22 -> 2 (4 cards); landscape
265.95 / 70 -> 3 and 178.95 / 120 -> 1 (3 cards): portrait 2 x 2.
"""

import pytest
from PIL import Image
from pypdf import PdfReader

from spellpress.cli import main
from spellpress.newgame import make
from spellpress.press.drawing import papers, sheets
from spellpress.press.model.options import Options
from spellpress.press.outputs.build import build
from test_press_sheets import _segment_to_rect, _to_mm, _walk, lines

MM = 72 / 25.4
BLEED = 3.175
EPS = 0.02
SIZES = {"mini": (41, 63), "bridge": (57, 89), "poker": (63.5, 88.9), "tarot": (70, 120), "square": (70, 70),
         "landscape": (88.9, 63.5)}
# (columns, rows, landscape page): worked by hand as the module's docstring says
DUPLEX = {
    ("mini", "a4"): (4, 4, False),  # P 178.95/41 -> 4, 265.95/63 -> 4 = 16; L 6 x 2 = 12
    ("mini", "letter"): (6, 2, True),  # L 248.35/41 -> 6, 184.85/63 -> 2 = 12; P 4 x 3 = 12: landscape first
    ("bridge", "a4"): (4, 2, True),  # L 265.95/57 -> 4, 178.95/89 -> 2 = 8; P 3 x 2 = 6
    ("bridge", "letter"): (4, 2, True),  # L 248.35/57 -> 4, 184.85/89 -> 2 = 8; P 3 x 2 = 6
    ("poker", "a4"): (4, 2, True),  # L 265.95/63.5 -> 4, 178.95/88.9 -> 2 = 8; P 2 x 2
    ("poker", "letter"): (3, 2, True),  # L 248.35/63.5 -> 3, 184.85/88.9 -> 2 = 6; P 2 x 2
    ("tarot", "a4"): (2, 2, False),
    ("tarot", "letter"): (2, 2, False),  # P 184.85/70 -> 2, 248.35/120 -> 2 = 4; L 3 x 1 = 3
    ("square", "a4"): (3, 2, True),  # L 3 x 2 = 6; P 2 x 3 = 6: landscape first
    ("square", "letter"): (3, 2, True),  # L 248.35/70 -> 3, 184.85/70 -> 2 = 6; P 2 x 3 = 6
    ("landscape", "a4"): (2, 4, False),  # P 178.95/88.9 -> 2, 265.95/63.5 -> 4 = 8; L 2 x 2 = 4
    ("landscape", "letter"): (2, 3, False),  # P 184.85/88.9 -> 2, 248.35/63.5 -> 3 = 6; L 2 x 2 = 4
}
# fold sheets: the grid of most cells with an even number of columns (fold 'columns') or rows
# ('rows'), the fold's gap of 6.35 mm (papers.fold_reach: the 3.175 mm bleed each side, since
# papers.MISFOLD is half of it) between the halves; equals: landscape first, then columns
FOLD = {
    ("mini", "a4"): (4, 4, False, "columns"),  # 8 cards: P 4 x 41 + 6.35 = 170.35 of 178.95; L 6 x 2 gives 6
    ("mini", "letter"): (6, 2, True, "rows"),  # 6 cards: L 2 x 63 + 6.35 = 132.35 of 184.85 (6 x 41 + 6.35 > 248.35 between columns)
    ("bridge", "a4"): (4, 2, True, "columns"),  # 4 x 57 + 6.35 = 234.35 of 265.95
    ("bridge", "letter"): (4, 2, True, "columns"),  # 234.35 of 248.35
    ("poker", "a4"): (4, 2, True, "columns"),  # 4 x 63.5 + 6.35 = 260.35 of 265.95
    ("poker", "letter"): (3, 2, True, "rows"),  # 3 cards: L 2 x 88.9 + 6.35 = 184.15 of 184.85; 2 x 2 between the columns: 2
    ("tarot", "a4"): (2, 2, False, "columns"),
    ("tarot", "letter"): (2, 2, False, "columns"),
    ("square", "a4"): (3, 2, True, "rows"),  # 3 cards: 2 x 70 + 6.35 = 146.35; 2 x 2 between the columns: 2
    ("square", "letter"): (3, 2, True, "rows"),
    ("landscape", "a4"): (2, 4, False, "rows"),  # 4 cards: P 4 x 63.5 + 6.35 = 260.35 of 265.95 (2 x 88.9 + 6.35 > 178.95 across)
    ("landscape", "letter"): (2, 3, False, "columns"),  # 3 cards: P 2 x 88.9 + 6.35 = 184.15 of 184.85, 3 x 63.5 = 190.5 of 248.35 down
}
CARD = """extends: poker
palette: {frame: "#3d3550", ink: "#ffffff"}
boxes:
  background: {kind: rect, area: bleed, fill: frame}
  title: {kind: text, text: "%s", area: safe, size: 8, align: center, valign: middle, color: ink}
"""


def game_of_size(root, width, height):
    """A game of YAML alone (`spellpress new`) whose layouts give cards of this size, 23 copies."""
    make("goblin-market", root / "cards", root / "templates", title="Goblin Market")
    actions = root / "cards" / "goblin-market" / "actions.yaml"
    actions.write_text(actions.read_text().replace("count: 3", "count: 20"))
    (root / "templates").mkdir(exist_ok=True)
    (root / "templates" / "poker.yaml").write_text(f"size: [{width}, {height}]\nbleed: {BLEED}\nsafe: {BLEED}\n")
    (root / "templates" / "card.yaml").write_text(CARD % "{name}")
    (root / "templates" / "back.yaml").write_text(CARD % "{deck}")
    return root


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """Each size's game built: its duplex and fold sheets on A4 and Letter, print-shop file, PNGs and TTS sheets."""
    out = {}
    for name, (w, h) in SIZES.items():
        root = game_of_size(tmp_path_factory.mktemp(name), w, h)
        build(Options(cards=root / "cards", templates=root / "templates", out=root / "build", games=("goblin-market",),
                      kinds=("sheets", "fold", "printshop", "png", "tts", "overview"), progress=False))
        out[name] = root / "build" / "goblin-market"
    return out


def placed(page, reader, w, h):
    """[(form, x, y of the trim's top left in mm from the page's top left, turned)] for cards w x h mm."""
    out = []
    for op, operands, ctm in _walk(page, reader):
        if op == b"Do" and ctm[0] * ctm[3] - ctm[1] * ctm[2] > 0:  # not a mirrored strip carrying a bleed to the fold
            bw, bh = w + 2 * BLEED, h + 2 * BLEED
            corners = [_to_mm(page, ctm, x * MM, y * MM) for x, y in ((0, 0), (bw, 0), (0, bh), (bw, bh))]
            out.append((str(operands[0]).removeprefix("/FormXob."), min(p[0] for p in corners) + BLEED,
                        min(p[1] for p in corners) + BLEED, ctm[0] < 0))
    return out


@pytest.mark.parametrize("size, paper", list(DUPLEX))
def test_each_paper_takes_the_hand_worked_grid(size, paper):
    w, h = SIZES[size]
    g = papers.duplex_grid(papers.PAPERS[paper], w, h, BLEED)
    assert (g.cols, g.rows, g.landscape) == DUPLEX[size, paper]
    f = papers.fold_grid(papers.PAPERS[paper], w, h, BLEED)
    assert (f.cols, f.rows, f.landscape, f.fold) == FOLD[size, paper]
    sheet = sheets.sheet_for("duplex", paper, w, h, BLEED)
    assert min(sheet.x0, sheet.y0) >= papers.margin(BLEED) - 1e-9


@pytest.mark.parametrize("size, paper", list(DUPLEX))
def test_every_size_prints_on_the_grid_with_backs_mirrored_and_marks_printable(built, size, paper):
    w, h = SIZES[size]
    cols, rows, landscape = DUPLEX[size, paper]
    reader = PdfReader(built[size] / f"cards-{paper}.pdf")
    pw, ph = float(reader.pages[2].mediabox.width) / MM, float(reader.pages[2].mediabox.height) / MM
    assert (pw > ph) == landscape
    x0, y0 = (pw - cols * w) / 2, (ph - rows * h) / 2
    fronts, backs = placed(reader.pages[2], reader, w, h), placed(reader.pages[3], reader, w, h)
    assert len(fronts) == len(backs) == cols * rows  # 23 copies fill the first sheet of every grid
    for i, (form, x, y, _) in enumerate(fronts):
        col, row = i % cols, i // cols
        assert abs(x - (x0 + col * w)) < EPS and abs(y - (y0 + row * h)) < EPS, (form, x, y)
        # long-edge duplex: columns reversed on a portrait page, rows on a landscape one
        bcol, brow = (col, rows - 1 - row) if landscape else (cols - 1 - col, row)
        assert any(abs(bx - (x0 + bcol * w)) < EPS and abs(by - (y0 + brow * h)) < EPS and b == "back-actions"
                   for b, bx, by, _ in backs), (form, col, row)
    for page in reader.pages[2:4]:
        cards = placed(page, reader, w, h)
        bleeds = [(x - BLEED, y - BLEED, x + w + BLEED, y + h + BLEED) for _, x, y, _ in cards]
        marks = lines(page, reader)
        assert len(marks) == 2 * 2 * (cols + 1 + rows + 1)  # both ends of every cut, drawn twice (halo, ink)
        for p, q in marks:
            assert abs(p[0] - q[0]) + abs(p[1] - q[1]) >= 5 - EPS, (p, q)
            for x, y in (p, q):
                assert papers.UNPRINTABLE - EPS <= x <= pw - papers.UNPRINTABLE + EPS, (p, q)
                assert papers.UNPRINTABLE - EPS <= y <= ph - papers.UNPRINTABLE + EPS, (p, q)
            assert min(_segment_to_rect(p, q, r) for r in bleeds) >= 1 - EPS, (p, q)


@pytest.mark.parametrize("size, paper", list(FOLD))
def test_fold_sheets_follow_the_size(built, size, paper):
    w, h = SIZES[size]
    cols, rows, _, fold = FOLD[size, paper]
    reader = PdfReader(built[size] / f"cards-fold-{paper}.pdf")
    page = reader.pages[0]
    pw, ph = float(page.mediabox.width) / MM, float(page.mediabox.height) / MM
    gap = 2 * papers.fold_reach(BLEED)  # the fold's, between the halves
    x0 = (pw - cols * w - (gap if fold == "columns" else 0)) / 2
    y0 = (ph - rows * h - (gap if fold == "rows" else 0)) / 2
    assert min(x0, y0) >= papers.margin(BLEED) - EPS
    cards = placed(page, reader, w, h)
    fronts = [c for c in cards if not c[0].startswith("back-")]
    backs = [c for c in cards if c[0].startswith("back-")]
    assert len(fronts) == len(backs) == cols * rows // 2
    for _, x, y, turned in fronts:
        assert not turned
        if fold == "columns":  # the back mirrored about the fold between the column halves
            assert x + w <= pw / 2 - papers.fold_reach(BLEED) + EPS
            assert any(abs(bx - (pw - x - w)) < EPS and abs(by - y) < EPS and not t for _, bx, by, t in backs)
        else:  # below the fold between the rows, turned half round
            assert y + h <= ph / 2 - papers.fold_reach(BLEED) + EPS
            assert any(abs(bx - x) < EPS and abs(by - (ph - y - h)) < EPS and t for _, bx, by, t in backs)
        assert x0 - EPS <= x and y0 - EPS <= y


def test_a_size_no_paper_holds_is_a_problem_at_its_line_saying_what_fits(tmp_path, monkeypatch, capsys):
    root = game_of_size(tmp_path, 200, 300)
    monkeypatch.chdir(root)
    for command in (["validate", "goblin-market"], ["build", "goblin-market", "--here"]):
        assert main(command) == 1
        out = capsys.readouterr()
        said = out.out + out.err
        assert "Traceback" not in said
        assert "templates/poker.yaml:1:" in said and "size: cards of 200 x 300 mm do not fit on A4 or Letter" in said
        assert "A4 holds at most 178.95 x 265.95 mm (or 265.95 x 178.95)" in said
        assert "Letter holds at most 184.85 x 248.35 mm (or 248.35 x 184.85)" in said
    assert not (root / "build" / "goblin-market" / "cards-a4.pdf").exists()


def test_a_size_that_fits_one_a_page_says_so_and_makes_no_fold_sheet(tmp_path, monkeypatch, capsys):
    root = game_of_size(tmp_path, 150, 200)  # A4: 178.95 x 265.95 portrait; Letter 184.85 x 248.35
    monkeypatch.chdir(root)
    assert main(["validate", "goblin-market"]) == 0
    assert main(["build", "goblin-market", "--here"]) == 0
    said = capsys.readouterr().out
    for paper, name in (("a4", "A4"), ("letter", "Letter")):
        assert f"cards-{paper}.pdf holds one card a sheet: no more of 150 x 200 mm fit {name}" in said
        assert f"no cards-fold-{paper}.pdf: a fold sheet needs room for a card's front beside its back" in said
        assert not (root / "build" / "goblin-market" / f"cards-fold-{paper}.pdf").exists()
        reader = PdfReader(root / "build" / "goblin-market" / f"cards-{paper}.pdf")
        assert "one card a sheet" in reader.pages[2].extract_text()
        assert len(placed(reader.pages[2], reader, 150, 200)) == 1


# a card's pixels on a Tabletop Simulator sheet: 409 px wide in its own shape, or 585 px high
# (4096 // 7) where that is less; by hand, 409 * 120 / 70 = 701 > 585, so tarot is 585 * 70 / 120 = 341 wide
TTS = {"mini": (380, 585), "bridge": (374, 585), "poker": (409, 572), "tarot": (341, 585), "square": (409, 409),
       "landscape": (409, 292)}


@pytest.mark.parametrize("size", list(SIZES))
def test_tts_sheets_and_the_overview_keep_the_cards_shape(built, size):
    w, h = SIZES[size]
    with Image.open(built[size] / "tts" / "actions-1.png") as sheet:
        cw, ch = TTS[size]
        assert sheet.size == (10 * cw, 3 * ch)  # 23 cards and the hidden one, ten a row
        assert max(sheet.size) <= 4096 and 7 * ch <= 4096
        assert abs(cw / ch - w / h) < 0.01
    with Image.open(built[size] / "overview.png") as overview:
        # one line of the deck's three faces and its back, 180 px each and 12 px apart
        assert overview.size[0] == 12 + 4 * (180 + 12)
        assert overview.size[1] == 12 + int(180 * h / w + 1e-6) + 28 + 12  # a gap, the cards, their copies, a gap


@pytest.mark.parametrize("size", list(SIZES))
def test_the_print_shop_file_and_pngs_are_the_cards_size(built, size):
    w, h = SIZES[size]
    reader = PdfReader(built[size] / "cards-printshop.pdf")
    trim = reader.pages[0].trimbox
    assert abs(float(trim.width) / MM - w) < EPS and abs(float(trim.height) / MM - h) < EPS
    with Image.open(built[size] / "png" / "quick-strike.png") as png:
        assert abs(png.size[0] - (w + 2 * BLEED) / 25.4 * 300) <= 1 and abs(png.size[1] - (h + 2 * BLEED) / 25.4 * 300) <= 1


def test_the_printing_page_table_says_what_the_sheets_take():
    """docs/printing.md's table of sizes is the grids papers.py chooses, not numbers typed once."""
    from pathlib import Path

    page = (Path(__file__).parent.parent / "docs" / "printing.md").read_text()
    rows = [line for line in page.splitlines() if line.startswith("| ") and " x " in line.split("|")[1]
            and "mm" not in line.split("|")[1] and line.split("|")[1].split()[0] in SIZES]
    assert len(rows) == len(SIZES)
    for line in rows:
        cells = [c.strip() for c in line.strip("|").split("|")]
        size = cells[0].split()[0]
        w, h = SIZES[size]
        for cell, paper in zip(cells[1:3], ("a4", "letter")):
            g = papers.duplex_grid(papers.PAPERS[paper], w, h, BLEED)
            assert cell == f"{g.cols} x {g.rows} {'landscape' if g.landscape else 'portrait'}: {g.cols * g.rows}", line
        for cell, paper in zip(cells[3:5], ("a4", "letter")):
            f = papers.fold_grid(papers.PAPERS[paper], w, h, BLEED)
            assert cell == str(f.cols * f.rows // 2), line
        # cards whose edges differ (edges.py): a gutter between neighbours
        duplex = [papers.duplex_grid(papers.PAPERS[paper], w, h, BLEED, apart=True) for paper in ("a4", "letter")]
        fold = [papers.fold_grid(papers.PAPERS[paper], w, h, BLEED, apart=True) for paper in ("a4", "letter")]
        assert cells[5] == " / ".join(str(g.cols * g.rows) for g in duplex), line
        assert cells[6] == " / ".join(str(g.cols * g.rows // 2) for g in fold), line


def mixed_game(root):
    """The game of YAML alone with a second deck, Events, of tarot cards (its own layouts)."""
    game_of_size(root, *SIZES["poker"])
    (root / "templates" / "tall.yaml").write_text("extends: card\nsize: [70, 120]\n")
    (root / "templates" / "tall-back.yaml").write_text("extends: back\nsize: [70, 120]\n")
    decks = root / "cards" / "goblin-market" / "decks.yaml"
    text = decks.read_text().replace("decks:\n", "  event:\n    name: Event\n    template: tall\n    fields:\n"
                                     "      text: {type: text, required: true}\ndecks:\n", 1)
    decks.write_text(text + "  events:\n    name: Events\n    back: tall-back\n    types: [event]\n")
    (root / "cards" / "goblin-market" / "events.yaml").write_text(
        "events:\n  - id: storm\n    name: Storm\n    count: 3\n    text: Everyone loses 1 health.\n")
    return root


def test_each_deck_prints_at_its_own_size_on_its_own_grid(tmp_path, monkeypatch, capsys):
    root = mixed_game(tmp_path)
    monkeypatch.chdir(root)
    assert main(["build", "goblin-market", "--here", "--paper", "a4"]) == 0
    assert main(["build", "goblin-market", "--here", "--paper", "a4", "--target", "mpc"]) == 0
    said = capsys.readouterr()
    out = root / "build" / "goblin-market"
    reader = PdfReader(out / "cards-a4.pdf")
    storm = [n for n, page in enumerate(reader.pages) if any(c[0] == "storm" for c in placed(page, reader, 70, 120))]
    assert storm, "the events are on the sheets"
    for n, page in enumerate(reader.pages[2:], start=2):
        landscape = float(page.mediabox.width) > float(page.mediabox.height)
        if n in storm or n - 1 in storm:  # the tarot fronts and their backs: A4 2 x 2 portrait
            w, h, cols, rows = 70, 120, 2, 2
            assert not landscape
        elif "checklist" in page.extract_text():
            continue
        else:  # the poker actions: A4 4 x 2 landscape
            w, h, cols, rows = 63.5, 88.9, 4, 2
            assert landscape
        pw, ph = float(page.mediabox.width) / MM, float(page.mediabox.height) / MM
        x0, y0 = (pw - cols * w) / 2, (ph - rows * h) / 2
        cells = {(round((x - x0) / w, 3), round((y - y0) / h, 3)) for _, x, y, _ in placed(page, reader, w, h)}
        assert cells and all(c.is_integer() and 0 <= c < cols and r.is_integer() and 0 <= r < rows for c, r in cells), n
    with Image.open(out / "tts" / "events-1.png") as sheet:
        assert sheet.size == (4 * 341, 585)  # three storms and the hidden card, tarot's shape
    with Image.open(out / "tts" / "actions-1.png") as sheet:
        assert sheet.size == (10 * 409, 3 * 572)  # 23 poker cards and the hidden one
    assert "no files for MakePlayingCards of the deck Events" in said.err and "70 x 120 mm" in said.err
    assert (out / "mpc" / "actions").is_dir() and not (out / "mpc" / "events").exists()


def test_a_back_of_another_size_than_its_cards_is_a_problem_where_it_is_named(tmp_path, monkeypatch, capsys):
    root = mixed_game(tmp_path)
    (root / "templates" / "tall-back.yaml").write_text("extends: back\n")  # poker, behind tarot fronts
    monkeypatch.chdir(root)
    for command in (["validate", "goblin-market"], ["build", "goblin-market", "--here"]):
        assert main(command) == 1
        out = capsys.readouterr()
        said = out.out + out.err
        assert "Traceback" not in said
        assert ("cards/goblin-market/decks.yaml:20:11: the back 'tall-back' is 63.5 x 88.9 mm, but the cards of 'tall' "
                "it backs are 70 x 120 mm") in said


def test_nine_a_letter_sheet_is_for_poker_cards_and_says_so_for_others(tmp_path, monkeypatch, capsys):
    root = game_of_size(tmp_path, *SIZES["tarot"])
    monkeypatch.chdir(root)
    assert main(["build", "goblin-market", "--here", "--paper", "letter", "--letter-3x3", "--only", "sheets"]) == 0
    said = capsys.readouterr().out
    assert "no cards-letter-3x3.pdf: nine a Letter sheet is for poker cards (63.5 x 88.9 mm); these cards are 70 x 120 mm" in said
    assert (root / "build" / "goblin-market" / "cards-letter.pdf").is_file()
    assert not (root / "build" / "goblin-market" / "cards-letter-3x3.pdf").exists()


def _ground_of_row(png, fy):
    image = Image.open(png).convert("RGB")
    y = int(image.height * fy)
    row = [image.getpixel((x, y)) for x in range(image.width // 4, image.width * 3 // 4)]
    return max(set(row), key=row.count)


def _paper_at(png, fx, fy):
    """The colour at a point of the card: the commonest in the 15 x 15 px round it (the frame's
    grain, a fine lattice, crosses the frame's colour)."""
    image = Image.open(png).convert("RGB")
    x, y = min(int(image.width * fx), image.width - 8), min(int(image.height * fy), image.height - 8)
    counts = image.crop((x - 7, y - 7, x + 8, y + 8)).getcolors(225)
    return max(counts)[1]


PAPER, FRAME = (0xF6, 0xF0, 0xE1), (0x3D, 0x35, 0x50)  # the default card's panel and frame (defaults/templates/card.yaml)


@pytest.mark.parametrize("size", [s for s in SIZES if s != "poker"])
def test_the_default_layouts_are_refitted_to_a_projects_card_size(size, tmp_path, monkeypatch, capsys):
    """A `spellpress new` game whose poker.yaml gives another size: the default card and back,
    placed for poker, fill the new card (safe zone onto safe zone), every text still fits."""
    w, h = SIZES[size]
    make("goblin-market", tmp_path / "cards", tmp_path / "templates", title="Goblin Market")
    (tmp_path / "templates").mkdir(exist_ok=True)
    (tmp_path / "templates" / "poker.yaml").write_text(f"size: [{w}, {h}]\nbleed: {BLEED}\nsafe: {BLEED}\n")
    monkeypatch.chdir(tmp_path)
    assert main(["validate", "goblin-market"]) == 0
    assert main(["build", "goblin-market", "--here", "--only", "png"]) == 0
    assert "problem" not in capsys.readouterr().out
    png = tmp_path / "build" / "goblin-market" / "png" / "gather.png"
    # the panel reaches down to the footer on every size (poker's places would leave a tall card's
    # lower part in the frame's colour, and cut a small card's footer off)
    for fy in (0.5, 0.88):  # the row's commonest colour, across the middle: a glyph of the footer may fall on any one point
        assert max(abs(a - b) for a, b in zip(_ground_of_row(png, fy), PAPER, strict=True)) < 12, (size, fy)
    assert max(abs(a - b) for a, b in zip(_paper_at(png, 0.5, 0.995), FRAME, strict=True)) < 12
    from spellpress.press.drawing.templates import Templates

    card = Templates(tmp_path / "templates").get("card")
    boxes = dict(card.boxes)
    for name, box in boxes.items():
        if box.kind == "text":
            x, y, bw, bh = card.area(box)
            assert card.safe - 1e-6 <= x and x + bw <= w - card.safe + 1e-6, name
            assert card.safe - 1e-6 <= y and y + bh <= h - card.safe + 1e-6, name


def test_a_layout_that_gives_its_own_size_refits_what_it_extends(tmp_path, monkeypatch, capsys):
    """The issue's case: a layout extending the default card with `size: [70, 120]` (tarot) gets
    the card's boxes refitted; a box it places itself stays where it says."""
    make("goblin-market", tmp_path / "cards", tmp_path / "templates", title="Goblin Market")
    (tmp_path / "templates").mkdir(exist_ok=True)
    (tmp_path / "templates" / "tall.yaml").write_text(
        "extends: card\nsize: [70, 120]\nboxes:\n  mark: {kind: rect, x: 10, y: 100, w: 5, h: 5, fill: accent}\n")
    from spellpress.press.drawing.templates import Templates

    tall, poker = Templates(tmp_path / "templates").get("tall"), Templates(tmp_path / "templates").get("card")
    boxes, before = dict(tall.boxes), dict(poker.boxes)
    assert (boxes["mark"].x, boxes["mark"].y, boxes["mark"].w) == (10, 100, 5)
    # the inner frame keeps its 3 mm margin inside a trim of 70 x 120 (safe zone onto safe zone: 3.175
    # stays, the rest scales by (70 - 6.35) / (63.5 - 6.35) across and (120 - 6.35) / (88.9 - 6.35) down)
    across, down = (70 - 6.35) / (63.5 - 6.35), (120 - 6.35) / (88.9 - 6.35)
    frame = boxes["inner-frame"]
    assert frame.x == pytest.approx(3.175 + (3 - 3.175) * across, abs=1e-3)
    assert frame.y + frame.h == pytest.approx(3.175 + (3 + 82.9 - 3.175) * down, abs=2e-3)
    # the title keeps its point size; the art grows with the card
    assert boxes["title"].size == before["title"].size
    assert boxes["art"].h == pytest.approx(before["art"].h * down, abs=1e-3)


def test_a_malformed_designed_at_is_a_problem_at_its_line(tmp_path, monkeypatch, capsys):
    make("goblin-market", tmp_path / "cards", tmp_path / "templates", title="Goblin Market")
    (tmp_path / "templates").mkdir(exist_ok=True)
    (tmp_path / "templates" / "card.yaml").write_text(
        "extends: poker\ndesigned_at: [63.5, big]\nboxes:\n  title: {kind: text, text: '{name}', area: safe}\n")
    monkeypatch.chdir(tmp_path)
    for command in (["validate", "goblin-market"], ["build", "goblin-market", "--here"]):
        assert main(command) == 1
        out = capsys.readouterr()
        said = out.out + out.err
        assert "templates/card.yaml:2:" in said and "designed_at" in said and "Traceback" not in said


@pytest.mark.parametrize("size", list(SIZES))
def test_the_tts_object_lays_each_deck_at_its_cards_size(built, size):
    """A Tabletop Simulator custom card is a poker card at scale 1: other sizes are scaled to theirs."""
    import json

    w, h = SIZES[size]
    saved = json.loads((built[size] / "tts" / "goblin-market.json").read_text())
    for deck in saved["ObjectStates"]:
        for thing in [deck, *deck.get("ContainedObjects", ())]:
            t = thing["Transform"]
            assert (t["scaleX"], t["scaleY"], t["scaleZ"]) == pytest.approx((w / 63.5, 1.0, h / 88.9), abs=1e-4)
