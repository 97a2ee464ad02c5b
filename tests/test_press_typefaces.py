"""The faces the cards are set in (issue 28, build item 2): the package's display face (Cinzel)
for titles and text face (Literata) for the rest, shipped under the OFL, embedded and subset in
every PDF; a game's own faces (game.yaml's `fonts:`) used where it names them, in the PDF and the
PNG alike. The mistakes a designer can make naming a face are broken fixtures
(tests/fixtures/broken/font-*), each said by `validate` and `build` alike (test_broken_fixtures).
"""

from __future__ import annotations

import shutil
import struct
from pathlib import Path

import pikepdf
import pytest
from PIL import Image
from pypdf import PdfReader

from broken_cases import CASES, FIXTURES
from spellpress.core import ValidationFailed, fontcheck, load_game
from spellpress.core.models import FONT_ROLES
from spellpress.defaults import FONTS as FONT_DIR
from spellpress.press.drawing import fonts, markup, raster
from spellpress.press.drawing.displaylist import Drawing, Text
from spellpress.press.drawing.templates import Templates
from spellpress.press.model.options import Options
from spellpress.press.model.plan import plan
from spellpress.press.outputs.build import build

ROOT = Path(__file__).resolve().parent.parent
TEXT_STYLES = {"regular", "bold", "italic", "bold-italic"}
BOXES = FIXTURES / "fonts" / "Boxes.ttf"  # every character a box 0.6 em wide (tests/fixtures/fonts/make_fonts.py)


def _ps_name(role: str) -> str:
    return fonts.registered(role).face.name.decode()


@pytest.fixture(scope="module")
def plans():
    found, _ = plan(Options(cards=ROOT / "cards", templates=ROOT / "templates", kinds=("png",), progress=False))
    return {p.game.slug: p for p in found}


@pytest.fixture(scope="module")
def sheets(tmp_path_factory) -> Path:
    """Magicka Mayhem's duplex sheets on A4."""
    out = tmp_path_factory.mktemp("sheets")
    build(Options(cards=ROOT / "cards", templates=ROOT / "templates", out=out, games=("magicka-mayhem",),
                  kinds=("sheets",), papers=("a4",), progress=False, jobs=1))
    return out / "magicka-mayhem" / "cards-a4.pdf"


# -- the package's faces


def test_the_package_ships_the_two_faces_with_their_licences_and_credits():
    assert fonts.ROLES == FONT_ROLES  # a face for each role a layout or game.yaml may name
    assert {role: path.name for role, path in fonts.FONTS.items()} == {
        "regular": "Literata-Regular.ttf", "bold": "Literata-Bold.ttf", "italic": "Literata-Italic.ttf",
        "bold-italic": "Literata-BoldItalic.ttf", "display": "Cinzel-Bold.ttf"}
    assert sorted(p.name for p in FONT_DIR.iterdir() if p.suffix == ".ttf") == sorted(p.name for p in fonts.FONTS.values())
    for family in ("Cinzel", "Literata"):
        licence = (FONT_DIR / f"OFL-{family}.txt").read_text()
        assert f"The {family} Project Authors" in licence and "SIL OPEN FONT LICENSE Version 1.1" in licence
    credits, readme = (FONT_DIR / "CREDITS.md").read_text(), (ROOT / "README.md").read_text()
    for text in (credits, readme):
        assert "Cinzel" in text and "Literata" in text and "SIL Open Font License" in text
    for path in fonts.FONTS.values():  # each a TrueType face reportlab can embed (not CFF)
        assert fontcheck.check(path)
    assert 'fonts/*' in (ROOT / "pyproject.toml").read_text()  # installed with the package (test_installed builds it)


def test_the_text_face_reads_at_small_sizes_and_sets_no_wider_than_before():
    """Literata's x-height is about half its size (most book faces' is 0.45), and it sets a
    little narrower than Bitstream Vera did: every card's text still fits."""
    x_height = struct.unpack(">h", _table(fonts.FONTS["regular"], b"OS/2")[86:88])[0] / 1000
    assert x_height > 0.5
    import reportlab

    vera = Path(reportlab.__file__).parent / "fonts" / "Vera.ttf"
    sample = "Causes 4 damage if cast in the same turn as another spell with 2 or more Fire."
    assert fonts.width(sample, "regular", 10) < fonts.width(sample, str(vera), 10)


def _table(path: Path, tag: bytes) -> bytes:
    data = path.read_bytes()
    count = struct.unpack(">H", data[4:6])[0]
    for i in range(count):
        found, _, offset, length = struct.unpack(">4sLLL", data[12 + 16 * i:28 + 16 * i])
        if found == tag:
            return data[offset:offset + length]
    raise KeyError(tag)


def test_the_sheets_embed_a_subset_of_each_face_and_no_other_font(sheets):
    names = {}
    with pikepdf.open(sheets) as pdf:
        for page in pdf.pages:
            scopes = [page.obj.Resources] + [x.Resources for x in page.obj.Resources.get("/XObject", {}).values()
                                            if x.get("/Subtype") == "/Form" and "/Resources" in x]
            for resources in scopes:
                for font in (resources.get("/Font") or {}).values():
                    file = font.FontDescriptor.get("/FontFile2")
                    names[str(font.BaseFont)] = len(file.read_bytes()) if file is not None else None
    assert set(names) == {f"/AAAAAA+{_ps_name(role)}" for role in fonts.FONTS}  # subset ('AAAAAA+'), all five
    for name, size in names.items():  # embedded, and a subset: a small part of the face's file
        full = next(p for r, p in fonts.FONTS.items() if name.endswith(_ps_name(r))).stat().st_size
        assert size is not None and size < full / 3, (name, size, full)


def test_titles_are_drawn_in_the_display_face_and_rules_in_the_text_face_in_the_pdf(sheets, games):
    """Read back from the PDF (the cards are forms; pypdf follows them): every word of a card's
    name on a sheet of fronts is shown in Cinzel, every word of its rules text in Literata."""
    game = games["magicka-mayhem"]
    names = {word for card in game.cards for word in card.name.split()}
    rules = {word for card in game.cards for word in str(card.get("text", "")).split() if "{" not in word and "*" not in word}
    display, text_face = f"/AAAAAA+{_ps_name('display')}", {f"/AAAAAA+{_ps_name(r)}" for r in TEXT_STYLES}
    shown: dict[str, set[str]] = {}
    for page in PdfReader(sheets).pages[2::2]:  # the fronts, after the calibration page and its back
        def seen(t, cm, tm, font, size):
            if t.strip() and font is not None:
                shown.setdefault(t.strip(), set()).add(str(font["/BaseFont"]))
        page.extract_text(visitor_text=seen)
    assert all(display in shown[w] for w in names if w in shown) and sum(w in shown for w in names) > len(names) * 0.9
    assert {w for w, faces in shown.items() if display in faces} <= names  # the display face sets titles alone
    only_rules = rules - names
    assert only_rules and all(shown[w] <= text_face for w in only_rules if w in shown)


def test_every_title_is_in_the_display_face_and_every_rules_text_in_the_text_face(plans):
    """On every front of the five games: the title box's words in 'display', the rules text
    box's in the text face's styles (what `**bold**` makes bold)."""
    templates = Templates(ROOT / "templates")
    checked = 0
    for p in plans.values():
        for card in p.game.cards:
            layout = templates.get(p.game.card_types[card.type].template)
            boxes = dict(layout.boxes)
            drawn = [t for t in p.fronts[card.id].drawing.items if isinstance(t, Text)]
            for name, want in (("title", {"display"}), ("body", TEXT_STYLES)):
                if name not in boxes:
                    continue
                x, y, w, h = layout.area(boxes[name])
                inside = {t.font for t in drawn if x - 0.01 <= t.x <= x + w and y <= t.y <= y + h and not t.turned}
                if name == "title":
                    assert inside == {"display"}, (card.id, inside)
                    checked += 1
                else:
                    assert inside <= want, (card.id, inside)
    assert checked == sum(len(p.game.cards) for p in plans.values())


def test_the_png_draws_each_face_with_the_metrics_the_layout_measured():
    """A word drawn by the PNG renderer is as wide as the layout measured it, in each face; the
    two faces set the same word to different widths, so a renderer that drew another face would
    be caught."""
    word, size = "illicit", 24.0  # Cinzel's small capitals set it a third wider than Literata does
    for role in ("display", "regular", "bold-italic"):
        image = raster.render(Drawing(60, 20, 0, (Text(5, 15, word, role, size, (0, 0, 0)),)), dpi=600, bleed=False)
        box = Image.eval(image.convert("L"), lambda v: 255 - v).getbbox()
        assert box is not None
        inked = (box[2] - box[0]) * 25.4 / 600
        measured = fonts.width(word, role, size)
        assert abs(inked - measured) < 0.06 * measured, (role, inked, measured)  # the side bearings' play
    assert fonts.width(word, "display", size) > 1.25 * fonts.width(word, "regular", size)


def test_a_line_is_placed_by_the_ink_of_its_letters_not_the_header_ascent():
    """Literata's header makes room for stacked accents (ascent 1.18); its letters reach 0.78."""
    assert fonts.registered("regular").face.ascent / 1000 > 1.1
    assert 0.7 < fonts.ascent("regular") < 0.8 and 0.65 < fonts.ascent("display") < 0.75
    assert 0.15 < fonts.descent("regular") < 0.3


def test_each_rulebook_credits_the_faces_and_sets_its_headings_in_the_display_face(books_built, games):
    for slug in games:
        pdf = books_built / slug / "rulebook-a4.pdf"
        said = " ".join(page.extract_text() for page in PdfReader(pdf).pages[-2:])
        for words in ("Cinzel", "Literata", "SIL Open Font License"):
            assert words in " ".join(said.split()), (slug, words)
        headings = set()
        for page in PdfReader(pdf).pages[1:4]:
            def seen(t, cm, tm, font, size, found=headings):
                if t.strip() and font is not None and size * abs(tm[0] or 1) > 12:
                    found.add(str(font["/BaseFont"]).split("+")[-1])
            page.extract_text(visitor_text=seen)
        assert _ps_name("display") in headings, (slug, headings)


# -- a game's own faces


def _own_game(root: Path, fonts_yaml: str, files: dict[str, Path]) -> Path:
    """tiny-mayhem with the tiny layouts, its game.yaml naming `fonts_yaml`, the `files` copied into it."""
    cards = root / "cards"
    shutil.copytree(FIXTURES / "games" / "tiny-mayhem", cards / "tiny-mayhem")
    shutil.copytree(FIXTURES / "templates", root / "templates")
    game = cards / "tiny-mayhem"
    text = (game / "game.yaml").read_text().replace("counters:", f"{fonts_yaml}\ncounters:", 1)
    (game / "game.yaml").write_text(text)
    for name, source in files.items():
        (game / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, game / name)
    return cards


def test_a_games_own_face_is_measured_drawn_and_embedded(tmp_path):
    cards = _own_game(tmp_path, "fonts: {display: fonts/Boxes.ttf}", {"fonts/Boxes.ttf": BOXES})
    options = Options(cards=cards, templates=tmp_path / "templates", out=tmp_path / "out", kinds=("sheets", "png"),
                      papers=("a4",), progress=False, jobs=1)
    [p], _ = plan(options)
    key = fonts.faces(p.game.fonts)["display"]
    assert fonts.own(key) and fonts.path(key) == (cards / "tiny-mayhem" / "fonts" / "Boxes.ttf").resolve()
    titles = [t for card in p.game.cards for t in p.fronts[card.id].drawing.items
              if isinstance(t, Text) and t.font == key]
    assert {t.text for t in titles} >= {w for card in p.game.cards for w in card.name.split()}
    assert not any(t.font == "display" for card in p.game.cards for t in p.fronts[card.id].drawing.items
                   if isinstance(t, Text))
    # measured in its own metrics: every character of the test face is 0.6 em wide
    assert fonts.width("Fire", key, 10) == pytest.approx(4 * 0.6 * 10 * 25.4 / 72)
    # the rules text is still the package's text face
    assert any(isinstance(t, Text) and t.font == "regular" for card in p.game.cards for t in p.fronts[card.id].drawing.items)

    build(options)
    pdf = tmp_path / "out" / "tiny-mayhem" / "cards-a4.pdf"
    with pikepdf.open(pdf) as doc:
        used = {str(f.BaseFont) for page in doc.pages
                for x in page.obj.Resources.get("/XObject", {}).values() if "/Resources" in x
                for f in (x.Resources.get("/Font") or {}).values()}
    assert any(name.endswith("+SpellpressTestBoxes-Regular") for name in used), used
    assert f"/AAAAAA+{_ps_name('regular')}" in used
    # the PNG is set in it too: a title in boxes is a run of solid blocks, unlike the package's face
    own_png = Image.open(tmp_path / "out" / "tiny-mayhem" / "png" / f"{p.game.cards[0].id}.png")
    (cards / "tiny-mayhem" / "game.yaml").write_text((cards / "tiny-mayhem" / "game.yaml").read_text()
                                                    .replace("fonts: {display: fonts/Boxes.ttf}\n", ""))
    build(options)
    plain_png = Image.open(tmp_path / "out" / "tiny-mayhem" / "png" / f"{p.game.cards[0].id}.png")
    band = (0, 40, own_png.width, 160)  # the title band at 300 dpi, below the bleed
    assert own_png.crop(band).tobytes() != plain_png.crop(band).tobytes()


def test_a_games_own_face_is_credited_by_its_name_in_the_rulebook(tmp_path):
    cards = _own_game(tmp_path, "fonts: {display: fonts/Boxes.ttf, regular: fonts/Boxes.ttf}", {"fonts/Boxes.ttf": BOXES})
    [p], _ = plan(Options(cards=cards, templates=tmp_path / "templates", kinds=("rulebook",), progress=False))
    assert p.book is not None
    said = markup.plain(" ".join(str(getattr(b, "text", "")) for b in p.book.blocks))
    assert "set in the game's own faces: Spellpress Test Boxes Regular (text, titles)." in said and "Literata" in said


def test_an_edited_face_is_a_new_key_so_nothing_measured_in_the_old_one_is_kept(tmp_path):
    face = tmp_path / "Face.ttf"
    shutil.copyfile(BOXES, face)
    before = fonts.faces({"display": face})["display"]
    data = bytearray(face.read_bytes())
    data[-1] ^= 1  # one bit of its last table
    face.write_bytes(bytes(data))
    after = fonts.faces({"display": face})["display"]
    assert before != after and fonts.path(before) == fonts.path(after) == face.resolve()
    assert fonts.faces({}) == {role: role for role in fonts.ROLES}


def test_a_game_that_names_its_faces_loads_them_with_where_it_names_them(tmp_path):
    cards = _own_game(tmp_path, "fonts:\n  display: fonts/Boxes.ttf\n  bold: fonts/Boxes.ttf", {"fonts/Boxes.ttf": BOXES})
    game = load_game(cards / "tiny-mayhem")
    assert set(game.fonts) == {"display", "bold"} and game.fonts["bold"].name == "Boxes.ttf"
    assert game.fonts_at["display"].endswith("game.yaml:36:12") and game.fonts_at["bold"].endswith("game.yaml:37:9")


def test_a_character_the_packages_face_lacks_is_a_problem_at_the_card(tmp_path):
    """Literata has no CJK: a name in it would print as empty boxes, said at the card's line."""
    cards = _own_game(tmp_path, "", {})
    spells = cards / "tiny-mayhem" / "spells.yaml"
    spells.write_text(spells.read_text().replace("name: Fire Bolt", "name: Fire Bolt 火", 1))
    with pytest.raises(ValidationFailed) as failed:
        plan(Options(cards=cards, templates=tmp_path / "templates", kinds=("png",), progress=False))
    [problem] = failed.value.problems
    assert problem.file.endswith("tiny-mayhem/spells.yaml") and problem.line == 2
    assert problem.message.startswith("card 'fire-bolt': the package's display face (Cinzel Bold) has no glyph for "
                                      "'火' (U+706B), which would print as an empty box")


# -- the file checks, kind by kind


@pytest.mark.parametrize(("head", "said"), [
    (b"wOF2", "a web font (WOFF2)"), (b"wOFF", "a web font (WOFF)"), (b"ttcf", "a font collection (.ttc)"),
    (b"OTTO", "PostScript (CFF) outlines"), (b"%PDF", "is not a font file"), (b"", "is not a font file")])
def test_a_file_that_is_not_a_truetype_face_is_refused_saying_what_it_is(tmp_path, head, said):
    path = tmp_path / "Face.ttf"
    path.write_bytes(head + b"\0" * 64)
    with pytest.raises(fontcheck.Refused, match=said.replace("(", r"\(").replace(")", r"\)")):
        fontcheck.check(path)


def test_a_face_whose_licence_forbids_embedding_is_refused(tmp_path):
    data = bytearray(BOXES.read_bytes())
    count = struct.unpack(">H", data[4:6])[0]
    for i in range(count):
        tag, _, offset, _ = struct.unpack(">4sLLL", data[12 + 16 * i:28 + 16 * i])
        if tag == b"OS/2":
            data[offset + 8:offset + 10] = struct.pack(">H", 0x0002)  # fsType: restricted licence embedding
    path = tmp_path / "Restricted.ttf"
    path.write_bytes(bytes(data))
    with pytest.raises(fontcheck.Refused, match="may not be embedded"):
        fontcheck.check(path)


def test_a_truncated_face_is_refused_as_damaged(tmp_path):
    path = tmp_path / "Cut.ttf"
    path.write_bytes(BOXES.read_bytes()[:2000])
    with pytest.raises(fontcheck.Refused, match="damaged"):
        fontcheck.check(path)


def test_each_mistake_naming_a_face_has_its_broken_fixture():
    """Each is run through `validate` and `build` (test_broken_fixtures): the same problems, at
    game.yaml's line and field, no traceback."""
    said = {case.name: (case / "expected.txt").read_text() for case in CASES if case.name.startswith("font-")}
    assert set(said) == {"font-not-found", "font-outside", "font-not-a-font", "font-cff", "font-missing-glyphs",
                         "font-damaged", "font-many-at-once"}
    for name, text in said.items():
        problems = [line for line in text.splitlines() if line.startswith("cards/")]
        assert problems and all("cards/tiny-mayhem/game.yaml:" in line and ": fonts." in line for line in problems), name
    assert len(said["font-many-at-once"].splitlines()) == 5  # four problems at once, and the count
