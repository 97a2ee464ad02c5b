"""Playmats, read back from their PDFs: the full-size mat has its bleed, the tiles' crosses are
seen on both pieces while aligning and on none once put together as the steps say, every player's
part of the table faces them, and each seat of the game's largest table has its own track."""

import shutil
from collections import Counter

import pytest
import yaml
from pypdf import PdfReader

from pdf_checks import operations
from spellpress.core import ValidationFailed
from spellpress.press.drawing import playmat
from spellpress.press.model.options import Options
from spellpress.press.outputs.build import build

MM = 72 / 25.4
SLUGS = ["magicka-mayhem", "powermage-54", "powers-combined", "sorcerer-duel", "spellchamber"]
MAT = (609.6, 355.6)
TRACKS = {"magicka-mayhem": "Health", "powermage-54": "Points", "sorcerer-duel": "Health", "spellchamber": "Life"}


@pytest.fixture(scope="module")
def built(built_once):
    return built_once


def box(page, name):
    return [float(v) / MM for v in page[name]]


@pytest.mark.parametrize("slug", SLUGS)
def test_the_full_size_mat_has_an_eighth_inch_bleed_around_its_trim(built, slug):
    page = PdfReader(built / slug / "playmat.pdf").pages[0]
    trim, bleed, media = box(page, "/TrimBox"), box(page, "/BleedBox"), [float(v) / MM for v in page.mediabox]
    assert bleed == pytest.approx(media) and trim != pytest.approx(bleed)
    assert [round(trim[2] - trim[0], 1), round(trim[3] - trim[1], 1)] == list(MAT)
    b = 25.4 / 8
    assert [trim[0] - bleed[0], trim[1] - bleed[1], bleed[2] - trim[2], bleed[3] - trim[3]] == pytest.approx([b] * 4, abs=0.01)
    # the mat's background fills the bleed: the first thing drawn covers the whole page
    first = next(operands for operands, op in operations(page) if op == b"re")
    assert [float(v) / MM for v in first] == pytest.approx([0, 0, bleed[2], bleed[3]], abs=0.01)


@pytest.mark.parametrize("slug", SLUGS)
def test_the_mat_names_every_deck_it_holds(built, games, cards_dir, slug):
    text = PdfReader(built / slug / "playmat.pdf").pages[0].extract_text()
    layout = yaml.safe_load((cards_dir.parent / "templates" / "playmat" / f"{slug}.yaml").read_text())
    for deck in games[slug].decks.values():
        if deck.id not in layout.get("off_mat", []):  # kept in hand: quick-reference cards
            assert deck.name in text
            assert f"{deck.total} tokens" in text if deck.token else f"{deck.total} cards" in text


# ---------------------------------------------------------------------------- which way labels face


def labels(pdf, word):
    """(direction, x, y) of every text run that is `word`: its baseline's direction in degrees
    (0 upright, 180 upside down) and where it starts, in mm from the page's lower left."""
    found = []

    def visit(text, cm, tm, font, size):
        if text.strip() == word:
            a, b = tm[0] * cm[0] + tm[1] * cm[2], tm[0] * cm[1] + tm[1] * cm[3]
            x, y = tm[4] * cm[0] + tm[5] * cm[2] + cm[4], tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
            direction = {(1, 0): 0, (0, 1): 90, (-1, 0): 180, (0, -1): 270}[(round(a), round(b))]
            found.append((direction, x / MM, y / MM))

    PdfReader(pdf).pages[0].extract_text(visitor_text=visit)
    return found


def test_the_duel_mats_far_half_faces_the_far_player(built):
    page_h = MAT[1] + 2 * 25.4 / 8
    for word in ("Health", "Mana", "Creatures and blockers", "Sorcerer Duel"):
        found = labels(built / "sorcerer-duel" / "playmat.pdf", word)
        assert sorted(d for d, _, _ in found) == [0, 180], word
        for direction, _, y in found:
            near = y < page_h / 2  # the PDF's y grows up: the near player sits at the bottom
            assert near == (direction == 0), (word, direction, y)


@pytest.mark.parametrize("slug", sorted(TRACKS))
def test_every_seat_of_the_largest_table_has_its_own_track_facing_it(built, games, slug):
    seats = games[slug].players.max
    found = labels(built / slug / "playmat.pdf", TRACKS[slug])
    assert len(found) == seats
    edges = playmat.seat_edges(seats)
    facing = {"bottom": 0, "top": 180, "left": 270, "right": 90}
    assert sorted(d for d, _, _ in found) == sorted(facing[e] for e in edges)


def test_the_number_of_tracks_follows_the_games_players(tmp_path, cards_dir):
    cards = tmp_path / "cards"
    shutil.copytree(cards_dir / "magicka-mayhem", cards / "magicka-mayhem")
    game_yaml = cards / "magicka-mayhem" / "game.yaml"
    text = game_yaml.read_text()
    assert "players: {min: 2, max: 6}" in text
    game_yaml.write_text(text.replace("players: {min: 2, max: 6}", "players: {min: 2, max: 3}"))
    build(Options(cards=cards, templates=cards_dir.parent / "templates", out=tmp_path / "out", kinds=("playmat",),
                  progress=False))
    found = labels(tmp_path / "out" / "magicka-mayhem" / "playmat.pdf", "Health")
    assert sorted(d for d, _, _ in found) == [0, 180, 270]


def test_a_seat_that_does_not_fit_is_a_problem_at_the_layout(tmp_path, cards_dir):
    templates = tmp_path / "templates"
    shutil.copytree(cards_dir.parent / "templates", templates)
    layout = templates / "playmat" / "magicka-mayhem.yaml"
    layout.write_text(layout.read_text().replace("  w: 232\n", "  w: 400\n"))
    with pytest.raises(ValidationFailed) as failed:
        build(Options(cards=cards_dir, templates=templates, out=tmp_path / "out", games=("magicka-mayhem",),
                      kinds=("playmat",), progress=False))
    messages = [str(p) for p in failed.value.problems]
    assert any("magicka-mayhem.yaml" in m and "overlap" in m for m in messages), messages


def test_zones_that_overlap_are_a_problem_at_the_layouts_line(tmp_path, cards_dir):
    templates = tmp_path / "templates"
    shutil.copytree(cards_dir.parent / "templates", templates)
    layout = templates / "playmat" / "powermage-54.yaml"
    text = layout.read_text()
    line = next(n for n, row in enumerate(text.splitlines(), 1) if "kind: area" in row)
    layout.write_text(text.replace("{kind: area, label: \"Attack and defence in play\", x: 196,",
                                   "{kind: area, label: \"Attack and defence in play\", x: 100,"))
    with pytest.raises(ValidationFailed) as failed:
        build(Options(cards=cards_dir, templates=templates, out=tmp_path / "out", games=("powermage-54",),
                      kinds=("playmat",), progress=False))
    messages = [str(p) for p in failed.value.problems]
    assert any(f"powermage-54.yaml:{line}:" in m and "overlaps zone 1 (deck)" in m for m in messages), messages


# ---------------------------------------------------------------------------- tiles


def strokes(page, color):
    """The straight lines stroked in `color` on a page, as ((x0, y0), (x1, y1)) in page mm,
    the current transformation applied."""
    ops = operations(page)
    ctm, stack, ink, path, out = [1, 0, 0, 1, 0, 0], [], None, [], []

    def at(x, y):
        return ((x * ctm[0] + y * ctm[2] + ctm[4]) / MM, (x * ctm[1] + y * ctm[3] + ctm[5]) / MM)

    for operands, op in ops:
        if op == b"q":
            stack.append((ctm, ink))
        elif op == b"Q":
            ctm, ink = stack.pop()
        elif op == b"cm":
            a, b, c, d, e, f = (float(v) for v in operands)
            ctm = [a * ctm[0] + b * ctm[2], a * ctm[1] + b * ctm[3], c * ctm[0] + d * ctm[2], c * ctm[1] + d * ctm[3],
                   e * ctm[0] + f * ctm[2] + ctm[4], e * ctm[1] + f * ctm[3] + ctm[5]]
        elif op == b"RG":
            ink = tuple(round(float(v), 3) for v in operands)
        elif op == b"m":
            path = [at(*map(float, operands))]
        elif op == b"l":
            path.append(at(*map(float, operands)))
        elif op == b"S":
            if ink == color:
                out += list(zip(path, path[1:]))
            path = []
        elif op in (b"n", b"f", b"B", b"b", b"s"):
            path = []
    return out


def crosses(page, ph, tile):
    """The registration crosses on a tile's page, each as the (left, top, right, bottom) of its
    arms at its place on the mat, mm."""
    ox, oy = playmat.TILE_AT
    lines = strokes(page, tuple(round(v, 3) for v in playmat.MARK_INK))
    flat = [(a, b) for a, b in lines if abs(a[1] - b[1]) < 0.01]
    upright = [(a, b) for a, b in lines if abs(a[0] - b[0]) < 0.01]
    assert len(flat) == len(upright)
    out = []
    for (a, b) in flat:
        x0, x1 = sorted((a[0], b[0]))
        (c, d), = [(c, d) for c, d in upright if abs(c[0] - (x0 + x1) / 2) < 0.01 and min(c[1], d[1]) <= a[1] <= max(c[1], d[1])]
        y0, y1 = sorted((c[1], d[1]))
        # page mm (y up) -> the mat's mm (y down from its top left)
        out.append((tile.x + x0 - ox, tile.y + (ph - y1) - oy, tile.x + x1 - ox, tile.y + (ph - y0) - oy))
    return out


def kept(t, tile):
    """What of the finished mat is this tile, by the steps: each tile's left strip (but the first
    column's) and each row's top strip (but the first row's) are cut off half way into the
    overlap, and the cut edge lies on the tile before it; the margin goes last."""
    half = playmat.OVERLAP / 2
    last_col, last_row = t.cols - 1, t.rows - 1
    left = tile.x + half if tile.col else 0.0
    top = tile.y + half if tile.row else 0.0
    right = t.tile(tile.row, tile.col + 1).x + half if tile.col < last_col else MAT[0]
    bottom = t.tile(tile.row + 1, tile.col).y + half if tile.row < last_row else MAT[1]
    return left, top, right, bottom


def meets(a, b, slack=0.0):
    return a[0] < b[2] + slack and b[0] < a[2] + slack and a[1] < b[3] + slack and b[1] < a[3] + slack


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("slug", ["magicka-mayhem", "sorcerer-duel"])
def test_tiles_crosses_show_on_both_pieces_and_on_none_once_assembled(built, slug, paper):
    reader = PdfReader(built / slug / f"playmat-tiled-{paper}.pdf")
    t = playmat.tiling(*MAT, paper)
    assert len(reader.pages) == 1 + len(t.tiles)
    ph = float(reader.pages[1].mediabox.height) / MM
    on = {}  # a cross's centre on the mat -> the tiles it is printed on, with its arms there
    for tile, page in zip(t.tiles, reader.pages[1:]):
        for arms in crosses(page, ph, tile):
            # never on what shows of the finished mat, with a hand's millimetre of error to spare
            assert not meets(arms, kept(t, tile), slack=1.0), (tile, arms)
            centre = (round((arms[0] + arms[2]) / 2, 2), round((arms[1] + arms[3]) / 2, 2))
            on.setdefault(centre, []).append((tile, arms))
    assert on
    seams = Counter()
    for centre, where in on.items():
        assert len(where) == 2, centre  # on both pieces of its seam
        (first, _), (later, arms) = sorted(where, key=lambda w: (w[0].row, w[0].col))
        if later.row == first.row:  # a column seam: the later tile's left strip is cut off first...
            cut = later.x + playmat.OVERLAP / 2
            assert later.col == first.col + 1 and arms[2] > cut + 1.0  # ...and part of the cross stays on it
            seams[("col", later.row, later.col)] += 1
        else:  # a row seam: the later row's top strip is cut off
            cut = later.y + playmat.OVERLAP / 2
            assert later.row == first.row + 1 and arms[3] > cut + 1.0
            seams[("row", later.row)] += 1
    expected = {("col", r, c) for r in range(t.rows) for c in range(1, t.cols)} | {("row", r) for r in range(1, t.rows)}
    assert set(seams) == expected
    assert min(seams.values()) >= 2  # on every seam, to set both its place and its angle


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_tiles_fit_the_printable_page_and_cover_the_mat(built, paper):
    reader = PdfReader(built / "magicka-mayhem" / f"playmat-tiled-{paper}.pdf")
    t = playmat.tiling(*MAT, paper)
    for tile, page in zip(t.tiles, reader.pages[1:]):
        pw, ph = float(page.mediabox.width) / MM, float(page.mediabox.height) / MM
        ox, oy = playmat.TILE_AT
        assert ox >= 6.35 and ox + tile.w <= pw - 6.35 + 1e-6 and oy + tile.h <= ph - 6.35 + 1e-6
    parts = [kept(t, tile) for tile in t.tiles]
    assert sum((r - le) * (b - tp) for le, tp, r, b in parts) == pytest.approx(MAT[0] * MAT[1])
    assert min(p[0] for p in parts) == 0 and max(p[2] for p in parts) == MAT[0]


@pytest.mark.parametrize(("icon", "said"), [("", "names no icon"), ("icon: no-such-icon, ", "names an unknown icon 'no-such-icon'")])
def test_an_icon_zone_without_a_known_icon_is_a_problem_not_a_crash(tmp_path, cards_dir, icon, said):
    """It was a KeyError out of the build (mypy saw that an icon zone's icon may be None)."""
    templates = tmp_path / "templates"
    shutil.copytree(cards_dir.parent / "templates", templates)
    layout = templates / "playmat" / "powermage-54.yaml"
    layout.write_text(layout.read_text().replace("{kind: area, label: \"Attack and defence in play\", x: 196,",
                                                 f"{{kind: icon, {icon}x: 196,"))
    with pytest.raises(ValidationFailed) as failed:
        build(Options(cards=cards_dir, templates=templates, out=tmp_path / "out", games=("powermage-54",),
                      kinds=("playmat",), progress=False))
    messages = [str(p) for p in failed.value.problems]
    assert any("powermage-54.yaml" in m and f"an icon zone {said}" in m for m in messages), messages
