"""A card's picture checked by `validate` as the build draws it (issue 16, part 4), and how it
fills its box: `art_fit` (cover or contain) and `art_focus` (x,y), per card or per card type.

One small game of YAML alone in a temporary directory, two cards, real pictures made here."""

from __future__ import annotations

import io
import shutil
import struct
import zlib
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image
from reportlab.pdfgen.canvas import Canvas

from spellpress.cli import main
from spellpress.core import pictures
from spellpress.press.drawing import pdf, raster
from spellpress.press.model.options import Options
from spellpress.press.model.plan import plan

ROOT = Path(__file__).resolve().parent.parent
RED, BLUE, PAPER = (200, 30, 30), (30, 60, 200), (246, 240, 225)  # PAPER: templates/card.yaml's panel

GAME = """title: Goblin Art
pitch: Two cards with pictures.
players: {min: 2, max: 4}
play_minutes: {min: 10, max: 20}
constants: {hand_size: 3}
"""
DECKS = """card_types:
  action:
    name: Action
    template: goblin/action
    fields:
      text: {type: text, required: true}
decks:
  actions:
    name: Actions
    back: back
    types: [action]
"""
# every card of the type: its whole picture, at the top of the box
LAYOUT = """extends: card
boxes:
  art: {art_fit: contain, art_focus: "0.5,0"}
"""
CARDS = """actions:
  - id: mist
    name: Mist
    art: art/wide.png
    text: Draw a card.
  - id: blaze
    name: Blaze
    art: art/wide.png
    art_fit: cover
    art_focus: 1,1
    text: Another player loses 2 health.
"""
RULES = """rules:
  - id: play
    title: Play
    text: Play a card, then draw one.
"""


@pytest.fixture
def project(tmp_path, monkeypatch):
    # the shared layouts and rulebook: the five games' own are not needed
    shutil.copytree(ROOT / "templates", tmp_path / "templates",
                    ignore=lambda folder, names: [n for n in names if (Path(folder) / n).is_dir() and n != "rulebook"
                                                  or n.endswith(".md.j2") and n != "base.md.j2"])
    (tmp_path / "templates" / "goblin").mkdir()
    (tmp_path / "templates" / "goblin" / "action.yaml").write_text(LAYOUT)
    game = tmp_path / "cards" / "goblin"
    (game / "art").mkdir(parents=True)
    for name, text in (("game.yaml", GAME), ("decks.yaml", DECKS), ("actions.yaml", CARDS), ("rules.yaml", RULES)):
        (game / name).write_text(text)
    wide = Image.new("RGB", (1800, 600), RED)  # 3:1, wider than its 55.1 x 30.5 mm box; its right half blue
    wide.paste(BLUE, (900, 0, 1800, 600))
    wide.save(game / "art" / "wide.png")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def cards(project: Path, old: str, new: str) -> None:
    path = project / "cards" / "goblin" / "actions.yaml"
    assert old in path.read_text()
    path.write_text(path.read_text().replace(old, new, 1))


def validate(capsys, *args: str) -> tuple[int, str]:
    code = main(["validate", "goblin", *args])
    return code, capsys.readouterr().err


def fronts(project: Path) -> dict:
    plans, _ = plan(Options(cards=project / "cards", templates=project / "templates", games=("goblin",),
                            kinds=("png",), progress=False))
    return plans[0].fronts


# the art box (templates/card.yaml: x 4.2, y 13.2, w 55.1, h 30.5 mm) at 300 dpi, with the 3.175 mm bleed
def px(mm: float) -> int:
    return round((mm + 3.175) * 300 / 25.4)


BOX_LEFT, BOX_TOP, BOX_W, BOX_H = 4.2, 13.2, 55.1, 30.5


def at(fx: float, fy: float) -> tuple[int, int]:
    """A point of the art box, as fractions of its width and height, in pixels of the card."""
    return px(BOX_LEFT + BOX_W * fx), px(BOX_TOP + BOX_H * fy)


def near(a, b, tolerance=12) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b))


# ---------------------------------------------------------------------------- checks


def test_a_missing_picture_is_a_problem_at_its_line_unless_the_draft_allows_it(project, capsys):
    cards(project, "art/wide.png", "art/not-yet.png")  # mist's picture, line 4
    code, err = validate(capsys)
    assert code == 1
    problem = err.splitlines()[0]
    assert problem.startswith("cards/goblin/actions.yaml:4:10: card 'mist': art file 'art/not-yet.png' not found: "
                              "looked for cards/goblin/art/not-yet.png; a picture's path starts at the game's directory"), problem
    assert "--allow-missing-art" in problem and err.splitlines()[-1] == "1 problem found in cards"

    code, err = validate(capsys, "--allow-missing-art")
    assert code == 0
    assert ("warning: cards/goblin/actions.yaml:4:10: card 'mist': art file art/not-yet.png not found; drawing a placeholder"
            in err.splitlines())

    # the build refuses it alike and writes nothing; in a draft it draws the placeholder
    assert main(["build", "goblin", "--here", "--only", "png"]) == 1
    assert "card 'mist': art file 'art/not-yet.png' not found" in capsys.readouterr().err
    assert not (project / "build").exists()
    assert main(["build", "goblin", "--here", "--only", "png", "--allow-missing-art"]) == 0
    assert (project / "build" / "goblin" / "png" / "mist.png").is_file()


def test_a_misspelt_name_is_suggested(project, capsys):
    cards(project, "art/wide.png", "art/Wide.PNG")
    _, err = validate(capsys)
    assert "looked for cards/goblin/art/Wide.PNG (did you mean 'wide.png'?)" in err


def test_a_damaged_or_wrong_file_is_a_problem_naming_card_line_and_why(project, capsys):
    art_dir = project / "cards" / "goblin" / "art"
    (art_dir / "cut.png").write_bytes((art_dir / "wide.png").read_bytes()[:300])  # a download cut short
    (art_dir / "notes.png").write_text("a sketch, to be drawn")
    cards(project, "art/wide.png", "art/cut.png")
    cards(project, "art/wide.png", "art/notes.png")
    code, err = validate(capsys)
    assert code == 1
    assert err.splitlines() == [
        "cards/goblin/actions.yaml:4:10: card 'mist': art 'art/cut.png' is damaged or cut short (image file is truncated); "
        "save it again as PNG or JPEG",
        "cards/goblin/actions.yaml:8:10: card 'blaze': art 'art/notes.png' is not a picture: a picture must be a PNG, JPEG, "
        "WebP or SVG file",
        "2 problems found in cards",
    ]
    assert "cannot identify image file" not in err


def test_a_refused_picture_is_said_with_the_other_problems_of_the_game(project, capsys):
    """Issue 32, row 10: a path problem on one card used to hide a picture over the pixel budget
    on another until the path was fixed. The picture's header claims 400 megapixels."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", 20_000, 20_000, 8, 2, 0, 0, 0)
    (project / "cards" / "goblin" / "art" / "huge.png").write_bytes(
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"")) + chunk(b"IEND", b""))
    cards(project, "art/wide.png", "/etc/passwd")
    cards(project, "art/wide.png", "art/huge.png")
    for command in (["validate", "goblin"], ["build", "goblin", "--here", "--only", "png"]):
        assert main(command) == 1
        err = capsys.readouterr().err.splitlines()
        assert err[0].startswith("cards/goblin/actions.yaml:4:10: ") and "'/etc/passwd' is an absolute path" in err[0], err
        assert err[1] == ("cards/goblin/actions.yaml:8:10: actions[1].art: art 'art/huge.png' is over 179 megapixels; "
                          "a picture may have at most 50 megapixels (a whole card at 300 dpi is under "
                          "1): scale it down"), err
        assert len(err) == 3, err
    assert not (project / "build").exists()


def test_other_kinds_of_picture_are_named(tmp_path):
    Image.new("RGB", (30, 20)).save(tmp_path / "drawn.gif")
    (tmp_path / "drawn.png").write_bytes((tmp_path / "drawn.gif").read_bytes())
    (tmp_path / "empty.png").write_bytes(b"")
    with pytest.raises(pictures.Refused, match="^is a GIF file; a picture must be PNG, JPEG, WebP or SVG: save it as one of those$"):
        pictures.check(tmp_path / "drawn.png")
    with pytest.raises(pictures.Refused, match="^is an empty file, not a picture$"):
        pictures.check(tmp_path / "empty.png")


def test_a_small_picture_is_one_warning_per_card_with_the_size_it_needs(project, capsys):
    Image.new("RGB", (40, 22), RED).save(project / "cards" / "goblin" / "art" / "tiny.png")
    cards(project, "art/wide.png", "art/tiny.png")  # mist: contained, so its own proportions are kept
    cards(project, "art/wide.png", "art/tiny.png")  # blaze: covers the box
    code, err = validate(capsys)
    assert code == 0
    small = [line for line in err.splitlines() if "tiny.png" in line]
    assert small == [
        "warning: cards/goblin/actions.yaml:4:10: card 'mist': art 'art/tiny.png' is 40 x 22 px; its box (55.1 x 30.5 mm, "
        "contain) needs at least 651 x 358 px to print sharp at 300 dpi",
        "warning: cards/goblin/actions.yaml:8:10: card 'blaze': art 'art/tiny.png' is 40 x 22 px; its box (55.1 x 30.5 mm) "
        "needs at least 651 x 361 px to print sharp at 300 dpi",
    ]
    assert main(["build", "goblin", "--here", "--only", "sheets", "png", "--paper", "a4", "--paper", "letter"]) == 0
    err = capsys.readouterr().err
    assert sum("tiny.png" in line for line in err.splitlines()) == 2, err  # once a card, not once a paper


def test_bad_fit_and_focus_are_problems_at_their_lines(project, capsys):
    cards(project, "art_fit: cover", "art_fit: contian")
    cards(project, "art_focus: 1,1", "art_focus: 1.5,0")
    code, err = validate(capsys)
    assert code == 1
    lines = err.splitlines()
    assert ("cards/goblin/actions.yaml:9:14: actions[1].art_fit: art_fit is one of cover, contain, got the text 'contian' "
            "(did you mean 'contain'?)") in lines
    assert any(line.startswith("cards/goblin/actions.yaml:10:16: actions[1].art_focus: art_focus is two numbers from 0 to 1, "
                               "like 0.5,0.3") and line.endswith("got the text '1.5,0'") for line in lines), lines


@pytest.mark.parametrize("boxes,said", [
    ('art: {art_focus: "0.5, middle"}', "templates/goblin/action.yaml:3:20: boxes.art.art_focus: art_focus is two numbers "
                                        "from 0 to 1, like 0.5,0.3"),
    ("art: {art_fit: fill}", "templates/goblin/action.yaml:3:18: boxes.art.art_fit: art_fit is one of cover, contain, "
                             "got the text 'fill'"),
    ("title: {art_fit: cover}", "art_fit and art_focus are for the 'art' box, not a 'text' box"),
])
def test_bad_fit_and_focus_in_a_layout_are_problems_at_their_lines(project, capsys, boxes, said):
    (project / "templates" / "goblin" / "action.yaml").write_text(f"extends: card\nboxes:\n  {boxes}\n")
    code, err = validate(capsys)
    assert code == 1 and said in err, err


# ---------------------------------------------------------------------------- drawing


def test_fit_and_focus_place_the_picture_and_the_card_wins_over_its_type(project):
    faces = fronts(project)
    mist = raster.render(faces["mist"].drawing)  # the type's: contained, at the top of the box
    assert near(mist.getpixel(at(0.25, 0.2)), RED) and near(mist.getpixel(at(0.75, 0.2)), BLUE)
    assert near(mist.getpixel(at(0.5, 0.9)), PAPER), "the box's spare room below the picture is bare"
    assert near(mist.getpixel(at(0.02, 0.5)), RED) and near(mist.getpixel(at(0.98, 0.5)), BLUE), "whole width shown"

    blaze = raster.render(faces["blaze"].drawing)  # its own: cover, its right edge kept in view
    assert all(near(blaze.getpixel(at(x, y)), BLUE) for x in (0.3, 0.6, 0.9) for y in (0.1, 0.9))  # 0.4 .. 1 of it
    before = faces["blaze"].hash
    cards(project, "art_focus: 1,1", "art_focus: 0,0")  # now its left edge
    faces = fronts(project)
    blaze = raster.render(faces["blaze"].drawing)
    assert near(blaze.getpixel(at(0.1, 0.5)), RED) and near(blaze.getpixel(at(0.5, 0.5)), RED)
    assert near(blaze.getpixel(at(0.95, 0.5)), BLUE)  # 60% of the picture shows: its half line is in the box
    assert faces["blaze"].hash != before, "a changed focus draws the face again"


def test_defaults_draw_as_before(project):
    """No fit or focus anywhere: cover, centred (the face is the one it always was)."""
    (project / "templates" / "goblin" / "action.yaml").write_text("extends: card\n")
    plain = fronts(project)["mist"]
    cards(project, "    art: art/wide.png\n    text: Draw",
          "    art: art/wide.png\n    art_fit: cover\n    art_focus: 0.5,0.5\n    text: Draw")
    said = fronts(project)["mist"]
    assert said.hash == plain.hash
    image = raster.render(plain.drawing)
    assert near(image.getpixel(at(0.3, 0.5)), RED) and near(image.getpixel(at(0.7, 0.5)), BLUE)
    assert near(image.getpixel(at(0.3, 0.03)), RED) and near(image.getpixel(at(0.7, 0.97)), BLUE)  # no bare room


def test_the_pdf_places_the_picture_as_the_png_does(project):
    cards(project, "art_focus: 1,1", "art_focus: 0.2,0")
    for key, drawing in ((k, f.drawing) for k, f in fronts(project).items()):
        buffer = io.BytesIO()
        b = drawing.bleed
        canvas = Canvas(buffer, pagesize=((drawing.width + 2 * b) * pdf.MM, (drawing.height + 2 * b) * pdf.MM))
        pdf.draw(canvas, drawing)
        canvas.showPage()
        canvas.save()
        page = pdfium.PdfDocument(buffer.getvalue())[0].render(scale=300 / 72).to_pil().convert("RGB")
        png = raster.render(drawing)
        assert abs(page.width - png.width) <= 1 and abs(page.height - png.height) <= 1
        for fx in (0.03, 0.25, 0.45, 0.6, 0.8, 0.97):
            for fy in (0.05, 0.3, 0.5, 0.7, 0.95):
                assert near(page.getpixel(at(fx, fy)), png.getpixel(at(fx, fy)), 20), (key, fx, fy)
