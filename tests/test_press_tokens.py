"""Tokens, read back from their PDFs: the decks the rules call tokens print as punch-out pieces
of their YAML's size, as many as its counts, with cut lines, and no longer as cards."""

import json
import shutil

import pytest
from PIL import Image
from pypdf import PdfReader

from pdf_checks import operations
from spellpress.core import ValidationFailed, load_game
from spellpress.press.drawing import tokens
from spellpress.press.model.options import Options
from spellpress.press.outputs.build import build

MM = 72 / 25.4
TOKEN_GAMES = ["sorcerer-duel", "powers-combined"]
CUT = tuple(round(v, 3) for v in tokens.CUT)


@pytest.fixture(scope="module")
def built(built_once):
    return built_once


def stroked(page):
    """Every path stroked in the cut lines' colour: (points in page mm, has curves)."""
    ctm, stack, ink, path, curved, out = [1, 0, 0, 1, 0, 0], [], None, [], False, []

    def at(x, y):
        return ((x * ctm[0] + y * ctm[2] + ctm[4]) / MM, (x * ctm[1] + y * ctm[3] + ctm[5]) / MM)

    for operands, op in operations(page):
        values = [float(v) for v in operands] if op in (b"cm", b"m", b"l", b"c", b"re") else []
        if op == b"q":
            stack.append((ctm, ink))
        elif op == b"Q":
            ctm, ink = stack.pop()
        elif op == b"cm":
            a, b, c, d, e, f = values
            ctm = [a * ctm[0] + b * ctm[2], a * ctm[1] + b * ctm[3], c * ctm[0] + d * ctm[2], c * ctm[1] + d * ctm[3],
                   e * ctm[0] + f * ctm[2] + ctm[4], e * ctm[1] + f * ctm[3] + ctm[5]]
        elif op == b"RG":
            ink = tuple(round(float(v), 3) for v in operands)
        elif op == b"m":
            path, curved = [at(*values)], False
        elif op in (b"l", b"c"):
            path += [at(*values[i:i + 2]) for i in range(0, len(values), 2)]
            curved |= op == b"c"
        elif op == b"re":
            x, y, w, h = values
            path, curved = [at(x, y), at(x + w, y + h)], False
        elif op in (b"S", b"s"):
            if ink == CUT:
                out.append((path, curved))
            path = []
        elif op in (b"n", b"f", b"B", b"b"):
            path = []
    return out


def pieces_and_lines(pdf):
    """Per page: the pieces' outlines as (centre x, centre y, width, height) and the straight cut
    lines as ((x0, y0), (x1, y1)), page mm."""
    pages = []
    for page in PdfReader(pdf).pages:
        outlines, lines = [], []
        for points, curved in stroked(page):
            xs, ys = [p[0] for p in points], [p[1] for p in points]
            if curved or len(points) == 2 and xs[0] != xs[1] and ys[0] != ys[1]:  # a circle, or a square's box
                outlines.append(((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2, max(xs) - min(xs), max(ys) - min(ys)))
            else:
                lines.append((points[0], points[-1]))
        pages.append((outlines, lines))
    return pages


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("slug", TOKEN_GAMES)
def test_token_decks_print_as_small_pieces_with_cut_lines(built, games, slug, paper):
    decks = [deck for deck in games[slug].decks.values() if deck.token]
    assert decks
    pdf = built / slug / f"tokens-{paper}.pdf"
    pages = pieces_and_lines(pdf)
    outlines = [o for found, _ in pages for o in found]
    assert len(outlines) == sum(deck.total for deck in decks)  # each card its count times
    sizes = {deck.token.size_mm for deck in decks}
    for _, _, w, h in outlines:
        assert 16 <= w <= 25 and w == pytest.approx(h, abs=0.01)
        assert any(w == pytest.approx(size, abs=0.02) for size in sizes)
    text = " ".join(page.extract_text() for page in PdfReader(pdf).pages)
    assert "actual size" in text
    for deck in decks:
        assert f"{deck.name}: {deck.total} pieces" in text
    # every piece's cell has a cut on each side, and each cut line reaches the margin as a crop
    # mark at least 5 mm long, starting 1 mm or more beyond the grid
    for found, lines in pages:
        verticals = [(a, b) for a, b in lines if abs(a[0] - b[0]) < 0.01]
        horizontals = [(a, b) for a, b in lines if abs(a[1] - b[1]) < 0.01]
        grid_top = max(y + h / 2 for _, y, _, h in found) + tokens.GAP
        grid_bottom = min(y - h / 2 for _, y, _, h in found) - tokens.GAP
        for x, y, w, _ in found:
            pitch = w + 2 * tokens.GAP
            for edge in (x - pitch / 2, x + pitch / 2):
                here = [(a, b) for a, b in verticals if abs(a[0] - edge) < 0.01]
                assert any(min(a[1], b[1]) <= y <= max(a[1], b[1]) for a, b in here), (x, y)  # the cut by the piece
                marks = [(a, b) for a, b in here if min(a[1], b[1]) >= grid_top + 0.99 or max(a[1], b[1]) <= grid_bottom - 0.99]
                assert marks and all(abs(a[1] - b[1]) >= 5 - 0.01 for a, b in marks)
            for edge in (y - pitch / 2, y + pitch / 2):
                assert any(abs(a[1] - edge) < 0.01 and min(a[0], b[0]) <= x <= max(a[0], b[0]) for a, b in horizontals)
        for a, b in lines:  # nothing in the printer's unprintable edge
            for px, py in (a, b):
                assert 6.35 - 1e-6 <= px and 6.35 - 1e-6 <= py


def test_the_token_sheets_are_known_as_the_tokens_kinds(built):
    from spellpress.press.drawing.papers import PAPER_NAMES
    from spellpress.press.model import kinds

    for paper in ("a4", "letter"):
        assert (built / "sorcerer-duel" / f"tokens-{paper}.pdf").is_file()
        assert kinds.owner(f"tokens-{paper}.pdf", PAPER_NAMES) == ("tokens", paper)


def test_counts_in_the_yaml_decide_how_many_pieces_print(tmp_path, cards_dir):
    cards = tmp_path / "cards"
    shutil.copytree(cards_dir / "sorcerer-duel", cards / "sorcerer-duel")
    path = cards / "sorcerer-duel" / "tokens.yaml"
    text = path.read_text()
    assert "value: 5, count: 8}" in text
    path.write_text(text.replace("value: 5, count: 8}", "value: 5, count: 11}"))
    build(Options(cards=cards, templates=cards_dir.parent / "templates", out=tmp_path / "out", kinds=("tokens",),
                  papers=("a4",), progress=False))
    pages = pieces_and_lines(tmp_path / "out" / "sorcerer-duel" / "tokens-a4.pdf")
    assert sum(len(found) for found, _ in pages) == 20 + 11


@pytest.mark.parametrize("slug", TOKEN_GAMES)
def test_token_decks_are_no_longer_cards(built, games, slug):
    game = games[slug]
    cards = sum(deck.total for deck in game.decks.values() if not deck.token)
    printshop = PdfReader(built / slug / "cards-printshop.pdf")
    assert len(printshop.pages) == 2 * cards  # a front and a back for every card, no token among them
    for paper in ("a4", "letter"):  # every card's front and back placed once on the duplex sheets
        reader = PdfReader(built / slug / f"cards-{paper}.pdf")
        placed = sum(1 for page in reader.pages for _, op in operations(page) if op == b"Do")
        assert placed == 2 * cards
    sheets = json.loads((built / slug / "tts" / "sheets.json").read_text())["sheets"]
    assert {s["deck"] for s in sheets} == {deck.name for deck in game.decks.values() if not deck.token}
    assert sum(s["cards"] for s in sheets) == cards


def test_a_tokens_png_is_its_piece_at_300_dpi_with_bleed(built, games):
    deck = games["sorcerer-duel"].decks["tokens"]
    side = round((deck.token.size_mm + 2 * 25.4 / 8) / 25.4 * 300)
    for card in deck.cards:
        with Image.open(built / "sorcerer-duel" / "png" / f"{card.id}.png") as im:
            assert im.size == (side, side)
    assert not (built / "sorcerer-duel" / "png" / "back-tokens.png").exists()
    with Image.open(built / "sorcerer-duel" / "png" / "back-ember.png") as im:
        assert im.size == (825, 1125)


@pytest.mark.parametrize(("token", "where", "says"), [
    ("{size_mm: 30, shape: round}", "token.size_mm", "16 to 25 mm"),
    ("{size_mm: '20', shape: round}", "token.size_mm", "expected a number"),
    ("{size_mm: 20, shape: hexagon}", "token.shape", "'round' or 'square'"),
    ("{size_mm: 20, shape: round, shows: valu}", "token.shows", "did you mean 'value'"),
])
def test_a_bad_token_field_is_a_problem_at_its_line(tmp_path, cards_dir, token, where, says):
    root = tmp_path / "sorcerer-duel"
    shutil.copytree(cards_dir / "sorcerer-duel", root)
    path = root / "decks.yaml"
    text = path.read_text()
    old = "token: {size_mm: 20, shape: round, shows: value}"
    assert old in text
    path.write_text(text.replace(old, f"token: {token}"))
    line = 1 + text[:text.index(old)].count("\n")
    with pytest.raises(ValidationFailed) as failed:
        load_game(root)
    [problem] = failed.value.problems
    assert problem.file.endswith("decks.yaml") and problem.line == line and problem.path.endswith(where)
    assert says in problem.message
