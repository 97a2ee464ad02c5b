"""Icons of game-icons.net as a card's art (issue 28, build item 1): `art: game-icons:NAME`.

An icon is path data: read by svglib into lines and curves, drawn as vectors into the PDF and
filled by its rule (nonzero, SVG's default, or even-odd) by raster.py. The two must agree. A
name the game cannot draw is a problem at the card's `art:` line, said by `validate` as by
`build`; a game's own icons file may come from anyone and is read bounded; `spellpress icons
add` copies icons from the library a designer installed.

One small game of YAML alone in a temporary directory, and a small library made here."""

from __future__ import annotations

import io
import json
import shutil
import time
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import ImageChops, ImageStat
from reportlab.pdfgen.canvas import Canvas

from spellpress.cli import main
from spellpress.core import gameicons
from spellpress.press.drawing import pdf, raster, vectors
from spellpress.press.drawing.displaylist import Drawing
from spellpress.press.drawing.displaylist import Path as Outline
from spellpress.press.model.options import Options
from spellpress.press.model.plan import plan

ROOT = Path(__file__).resolve().parent.parent


def drawn_icon(item) -> bool:
    """Whether a face's item is a shape of an icon or a picture: an outline filled, or cut to its
    picture's box (a frame's grain, a lattice of lines over the whole card, is an outline too, but
    stroked only and cut to nothing)."""
    return isinstance(item, Outline) and (item.fill is not None or item.clip is not None)


GAME = """title: Goblin Icons
pitch: Three cards with icons.
players: {min: 2, max: 4}
play_minutes: {min: 10, max: 20}
constants: {hand_size: 3}
"""
DECKS = """card_types:
  action:
    name: Action
    template: card
    fields:
      text: {type: text, required: true}
decks:
  actions:
    name: Actions
    back: back
    types: [action]
"""
CARDS = """actions:
  - id: mist
    name: Mist
    art: game-icons:frame
    text: Draw a card.
  - id: blaze
    name: Blaze
    art: game-icons:moon
    text: Another player loses 2 health.
  - id: gust
    name: Gust
    text: Everyone passes a card left.
"""
RULES = """rules:
  - id: play
    title: Play
    text: Play a card, then draw one.
"""
# Two squares turning the same way: nonzero fills the inner one, even-odd leaves it a hole
SAME_WAY = "M64 64H448V448H64Z M160 160H352V352H160Z"
# a crescent of two arcs, in relative commands: svglib turns arcs into cubic curves
MOON = "M256 48a208 208 0 1 0 0 416a160 160 0 1 1 0-416z"
LIBRARY = {
    "prefix": "game-icons", "width": 512, "height": 512,
    "icons": {
        "frame": {"body": f'<path fill="currentColor" d="{SAME_WAY}"/>'},
        "holed-frame": {"body": f'<path fill="currentColor" fill-rule="evenodd" d="{SAME_WAY}"/>'},
        "moon": {"body": f'<path fill="currentColor" d="{MOON}"/>'},
        "fire-ray": {"body": '<path fill="currentColor" d="M10 10L500 256L10 500z"/>'},
    },
    "aliases": {"fireray": {"parent": "fire-ray"}},
}


@pytest.fixture
def project(tmp_path, monkeypatch):
    shutil.copytree(ROOT / "spellpress" / "defaults" / "templates", tmp_path / "templates")
    game = tmp_path / "cards" / "goblin"
    game.mkdir(parents=True)
    for name, text in (("game.yaml", GAME), ("decks.yaml", DECKS), ("actions.yaml", CARDS), ("rules.yaml", RULES)):
        (game / name).write_text(text)
    (tmp_path / "library").mkdir()
    (tmp_path / "library" / "icons.json").write_text(json.dumps(LIBRARY))
    monkeypatch.chdir(tmp_path)
    assert main(["icons", "add", "frame", "moon", "holed-frame", "--from", "library", "--game", "goblin"]) == 0
    return tmp_path


def fronts(project: Path) -> dict:
    plans, _ = plan(Options(cards=project / "cards", templates=project / "templates", games=("goblin",),
                            kinds=("png",), progress=False))
    return plans[0].fronts


def pdf_page(drawing: Drawing, dpi: float = 300):
    buffer = io.BytesIO()
    b = drawing.bleed
    canvas = Canvas(buffer, pagesize=((drawing.width + 2 * b) * pdf.MM, (drawing.height + 2 * b) * pdf.MM))
    pdf.draw(canvas, drawing)
    canvas.showPage()
    canvas.save()
    return pdfium.PdfDocument(buffer.getvalue())[0].render(scale=dpi / 72).to_pil().convert("RGB")


def cards(project: Path, old: str, new: str) -> None:
    path = project / "cards" / "goblin" / "actions.yaml"
    assert old in path.read_text()
    path.write_text(path.read_text().replace(old, new, 1))


# -- drawing


def _square_test(evenodd: bool):
    rule = ' fill-rule="evenodd"' if evenodd else ""
    icon = gameicons.icon("t", {"body": f'<path d="{SAME_WAY}"{rule}/>'})
    return Drawing(40, 40, 0, tuple(vectors.icon(icon, 0, 0, 40, (20, 20, 20))))


@pytest.mark.parametrize("evenodd", [False, True])
def test_both_backends_fill_by_the_paths_rule(evenodd):
    drawing = _square_test(evenodd)
    png, page = raster.render(drawing, 100), pdf_page(drawing, 100)
    centre, ring, outside = (79, 79), (30, 79), (5, 5)  # 40 mm at 100 dpi: 157 px
    assert png.getpixel(ring) == (20, 20, 20) and png.getpixel(outside) == (255, 255, 255)
    assert png.getpixel(centre) == ((255, 255, 255) if evenodd else (20, 20, 20))
    for point in (centre, ring, outside):
        assert all(abs(a - b) <= 8 for a, b in zip(page.getpixel(point), png.getpixel(point))), point


def test_the_png_is_the_pdfs_picture_edge_for_edge(project):
    """Each icon face's outlines alone, the PDF (rendered by pdfium) against the PNG: they differ
    only along anti-aliased edges (two rasterisers' coverage), by about a grey level on average."""
    for key, face in fronts(project).items():
        outlines = tuple(item for item in face.drawing.items if drawn_icon(item))
        if not outlines:
            continue
        drawing = Drawing(face.drawing.width, face.drawing.height, face.drawing.bleed, outlines)
        page, png = pdf_page(drawing), raster.render(drawing)
        assert abs(page.width - png.width) <= 1 and abs(page.height - png.height) <= 1
        page = page.crop((0, 0, png.width, png.height))
        difference = ImageChops.difference(page, png.crop((0, 0, page.width, page.height))).convert("L")
        assert ImageStat.Stat(difference).mean[0] < 1.0, key
        assert sum(1 for v in difference.get_flattened_data() if v > 128) < 200, key


def test_an_icons_curves_reach_the_pdf_as_curves(project):
    """Vectors, not a picture: the moon's arcs are PDF curve operators, and the face has no image."""
    face = fronts(project)["blaze"]
    assert not any(type(item).__name__ == "Image" for item in face.drawing.items)
    moons = [item for item in face.drawing.items if drawn_icon(item)]
    assert len(moons) == 2  # its shadow, then the icon
    assert all(any(len(segment) == 6 for segment in moon.subpaths[0][1:]) for moon in moons)
    buffer = io.BytesIO()
    canvas = Canvas(buffer)
    pdf.draw(canvas, face.drawing)
    assert " c\n" in canvas._code[-1] or any(line.endswith(" c") for line in canvas._code)


def test_a_card_without_art_keeps_its_generated_art(project):
    assert not any(drawn_icon(item) for item in fronts(project)["gust"].drawing.items)


# -- problems, said by validate as by build


def test_an_unknown_icon_is_a_problem_at_its_art_line_with_the_closest_name(project, capsys):
    cards(project, "art: game-icons:moon", "art: game-icons:mooon")
    line = next(i for i, row in enumerate((project / "cards/goblin/actions.yaml").read_text().splitlines(), 1) if "mooon" in row)
    said = []
    for command in (["validate", "goblin"], ["build", "goblin", "--here", "--only", "png"]):
        assert main(command) == 1
        said.append([row for row in capsys.readouterr().err.splitlines() if "mooon" in row])
    assert said[0] == said[1] and len(said[0]) == 1, said
    assert said[0][0].startswith(f"cards/goblin/actions.yaml:{line}:10: actions[1].art: unknown icon 'game-icons:mooon' "
                                 "(did you mean 'moon'?)")
    assert "spellpress icons add mooon --from" in said[0][0]


def test_an_unknown_icon_on_a_layouts_art_box_is_a_problem_at_its_line(project, capsys):
    (project / "templates" / "card.yaml").write_text((project / "templates" / "card.yaml").read_text().replace(
        "art: {kind: art,", "art: {kind: art, icon: 'game-icons:moom',"))
    for command in (["validate", "goblin"], ["build", "goblin", "--here", "--only", "png"]):
        assert main(command) == 1
        err = capsys.readouterr().err
        assert "templates/card.yaml:" in err and "boxes.art.icon: unknown icon 'game-icons:moom' (did you mean 'moon'?)" in err


def test_a_layouts_game_icon_is_the_default_of_every_card_of_its_type(project):
    (project / "templates" / "card.yaml").write_text((project / "templates" / "card.yaml").read_text().replace(
        "art: {kind: art,", "art: {kind: art, icon: 'game-icons:holed-frame',"))
    faces = fronts(project)
    gust = [item for item in faces["gust"].drawing.items if drawn_icon(item)]
    assert gust and all(item.evenodd for item in gust)  # the type's icon: the holed frame
    assert not any(item.evenodd for item in faces["mist"].drawing.items if drawn_icon(item))  # its own wins


HOSTILE = [
    ('<image href="/etc/passwd"/>', "must be <path d=\"...\"/> elements only"),
    ('<path d="M0 0L1 1" transform="scale(9)"/>', "may give d, fill and fill-rule only, not transform"),
    ('<path d="M0 0L1 1"/><use href="#x"/>', "must be <path d=\"...\"/> elements only"),
    ('<path d="M0 0 &lt;L1 1"/>', "something other than path commands and numbers"),
    ('<path d="M0 0 url(x)"/>', "something other than path commands and numbers"),
    ('<path d="M' + " 1" * 12_002 + '"/>', "12,002 numbers; an icon may have at most 12,000"),
    ('<path d="M0 0' + "L1 1" * 30_000 + '"/>', "an icon may have at most 100,000"),
]


@pytest.mark.parametrize("body, why", HOSTILE)
def test_a_games_icons_file_is_read_bounded_and_keeps_path_data_alone(project, capsys, body, why):
    own = project / "cards" / "goblin" / gameicons.FILE
    data = json.loads(own.read_text())
    data["icons"]["moon"] = {"body": body}
    own.write_text(json.dumps(data, indent=1))
    for command in (["validate", "goblin"], ["build", "goblin", "--here", "--only", "png"]):
        assert main(command) == 1
        err = capsys.readouterr().err
        assert f"cards/goblin/{gameicons.FILE}:" in err and "icons.moon: " in err and why in err, err


def test_a_point_far_outside_its_box_is_a_problem_not_a_hang(project, capsys):
    own = project / "cards" / "goblin" / gameicons.FILE
    data = json.loads(own.read_text())
    data["icons"]["moon"] = {"body": '<path d="M0 0L1e300 5L5 5z"/>'}
    own.write_text(json.dumps(data))
    assert main(["validate", "goblin"]) == 1
    assert "icon 'game-icons:moon' cannot be drawn: a point of its path lies far outside its 512 x 512 box" in capsys.readouterr().err


def test_the_busiest_icon_a_file_may_hold_is_drawn_within_seconds():
    """12,000 numbers of curves, each across the icon's whole height: its edges are bounded, so a
    stranger's icon costs a few seconds at 300 dpi at its worst, never minutes."""
    parts = ["M0 0"] + [f"C{i % 512} {512 * (i % 2)} {i * 7 % 512} {512 * (1 - i % 2)} {i * 3 % 512} {512 * (1 - i % 2)}"
                        for i in range(1998)]
    icon = gameicons.icon("busy", {"body": f'<path d="{" ".join(parts)}Z"/>'})
    drawing = Drawing(63.5, 88.9, 3.175, tuple(vectors.icon(icon, 4, 13, 55, (0, 0, 0))))
    start = time.process_time()
    raster.render(drawing)
    assert time.process_time() - start < 10


# -- spellpress icons add


def test_icons_add_refuses_an_unknown_name_with_the_closest_and_writes_nothing(project, capsys):
    own = project / "cards" / "goblin" / gameicons.FILE
    before = own.read_bytes()
    assert main(["icons", "add", "fire-ray", "fire-rey", "--from", "library/icons.json", "--game", "goblin"]) == 1
    err = capsys.readouterr().err
    assert "the library has no icon 'fire-rey' (did you mean 'fire-ray'?)" in err and "nothing was written" in err
    assert own.read_bytes() == before


def test_icons_add_keeps_what_the_file_held_and_reads_an_alias_through(project, capsys):
    assert main(["icons", "add", "fireray", "moon", "--from", "library", "--game", "goblin"]) == 0
    out = capsys.readouterr().out
    assert "added fireray" in out and "held moon already" in out
    data = json.loads((project / "cards" / "goblin" / gameicons.FILE).read_text())
    assert sorted(data["icons"]) == ["fireray", "frame", "holed-frame", "moon"]
    assert data["info"]["license"]["title"] == "CC BY 3.0"
    cards(project, "art: game-icons:moon", "art: game-icons:fireray")
    assert main(["validate", "goblin"]) == 0


# -- a designer's SVG picture: vectors in the PDF, the same picture in the PNG

SVG = """<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 100" width="200" height="100">
  <rect x="0" y="0" width="200" height="100" fill="#1d3557"/>
  <circle cx="150" cy="30" r="20" fill="#f1faee"/>
  <g transform="translate(20,10) rotate(10)">
    <path d="M40 0 L10 50 H35 L20 90 L70 35 H45 L60 0 Z" fill="#ffb703" stroke="#fb8500" stroke-width="3"/>
  </g>
  <polyline points="100,90 120,70 140,85 160,60 190,80" fill="none" stroke="#a8dadc" stroke-width="4"/>
  {extra}
</svg>
"""


def test_an_svg_picture_is_drawn_as_vectors_alike_in_pdf_and_png(project):
    (project / "cards" / "goblin" / "art").mkdir()
    (project / "cards" / "goblin" / "art" / "bolt.svg").write_text(SVG.format(extra=""))
    cards(project, "art: game-icons:frame", "art: art/bolt.svg")
    face = fronts(project)["mist"]
    outlines = tuple(item for item in face.drawing.items if drawn_icon(item))
    assert not any(type(item).__name__ == "Image" for item in face.drawing.items)
    assert any(o.stroke is not None and not o.closed for o in outlines)  # the polyline, stroked only
    assert all(o.clip == (4.2, 13.2, 55.1, 30.5) for o in outlines)  # cut to the art box (cover)
    drawing = Drawing(face.drawing.width, face.drawing.height, face.drawing.bleed, outlines)
    page, png = pdf_page(drawing), raster.render(drawing)
    page = page.crop((0, 0, png.width, png.height))
    difference = ImageChops.difference(page, png.crop((0, 0, page.width, page.height))).convert("L")
    assert ImageStat.Stat(difference).mean[0] < 1.0
    assert png.getpixel((100, 40)) == (255, 255, 255)  # outside the box: nothing
    navy = png.getpixel((round((4.2 + 3.175 + 2) * 300 / 25.4), round((13.2 + 3.175 + 2) * 300 / 25.4)))
    assert navy == (0x1d, 0x35, 0x57)


@pytest.mark.parametrize("extra, why", [
    ('<image href="/etc/passwd" width="9" height="9"/>', "holds an <image>"),
    ('<text x="1" y="9">Hi</text>', "holds text: turn it into paths"),
    ('<linearGradient id="g"/>', "holds a gradient"),
    ('<use href="other.svg#x"/>', "<use> links to 'other.svg#x': an SVG picture may use only its own shapes"),
    ('<rect width="9" height="9" fill="url(#g)"/>', "names 'url(#g)'"),
    ('<foreignObject/>', "holds a foreignObject"),
])
def test_an_svg_that_would_open_something_else_or_cannot_be_drawn_is_a_problem_at_its_art_line(project, capsys, extra, why):
    (project / "cards" / "goblin" / "art").mkdir()
    (project / "cards" / "goblin" / "art" / "bolt.svg").write_text(SVG.format(extra=extra))
    cards(project, "art: game-icons:frame", "art: art/bolt.svg")
    for command in (["validate", "goblin"], ["build", "goblin", "--here", "--only", "png"]):
        assert main(command) == 1
        err = capsys.readouterr().err
        assert "cards/goblin/actions.yaml:4:10: card 'mist': art 'art/bolt.svg' " in err and why in err, err


def test_an_svg_with_entities_is_refused_unread(project, capsys):
    (project / "cards" / "goblin" / "art").mkdir()
    (project / "cards" / "goblin" / "art" / "bolt.svg").write_text(
        '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>' + SVG.split("?>", 1)[1])
    cards(project, "art: game-icons:frame", "art: art/bolt.svg")
    assert main(["validate", "goblin"]) == 1
    assert "holds a DOCTYPE or entities, which are not read" in capsys.readouterr().err


def test_a_games_icons_file_that_links_out_of_the_game_is_not_read(project, capsys, tmp_path):
    own = project / "cards" / "goblin" / gameicons.FILE
    elsewhere = tmp_path / "elsewhere.json"
    elsewhere.write_text(own.read_text())
    own.unlink()
    own.symlink_to(elsewhere)
    assert main(["validate", "goblin"]) == 1
    err = capsys.readouterr().err
    assert f"cards/goblin/{gameicons.FILE}: 'game-icons.json' leads out of the game's directory through a link" in err
