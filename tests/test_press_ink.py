"""Ink modes (issue 17, part 1): the saver's heaviest page holds at most a third of the ink of
full's, measured as the mean darkness of the pages rendered at 50 dpi; in mono every icon stays
a different picture in grey, and nothing but greys is printed; a mode builds into its own folder."""

from __future__ import annotations

import itertools
import shutil
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import ImageStat

from spellpress import defaults
from spellpress.core import ValidationFailed, load_game
from spellpress.press.drawing import raster
from spellpress.press.drawing.displaylist import Drawing, Ellipse, Poly, Rect, Text
from spellpress.press.drawing.icons import IconSet
from spellpress.press.drawing.templates import Templates
from spellpress.press.model.options import INKS, Options
from spellpress.press.model.plan import plan
from spellpress.press.outputs.build import build

GAME = "spellchamber"  # its full-bleed backs and frames: the most ink on a page of the five (cards-a4.pdf)


def darkness(pdf: Path, dpi: int = 50) -> list[float]:
    """Each page's mean darkness (0 white, 1 black) rendered at `dpi`: the ink it lays down."""
    doc = pdfium.PdfDocument(pdf)
    out = []
    for page in doc:
        grey = page.render(scale=dpi / 72).to_pil().convert("L")
        out.append(1 - ImageStat.Stat(grey).mean[0] / 255)
    return out


@pytest.fixture(scope="module")
def inked(tmp_path_factory, cards_dir):
    """The game's A4 duplex sheets built in each ink, into one output directory."""
    out = tmp_path_factory.mktemp("ink")
    for ink in INKS:
        build(Options(cards=cards_dir, templates=cards_dir.parent / "templates", out=out, games=(GAME,),
                      kinds=("sheets",), papers=("a4",), ink=ink, progress=False))
    return out / GAME


def test_each_ink_builds_into_its_own_folder(inked):
    assert (inked / "cards-a4.pdf").is_file()
    for ink in ("saver", "mono"):
        assert (inked / f"ink-{ink}" / "cards-a4.pdf").is_file()
        assert (inked / f"ink-{ink}" / "cards-a4.pdf").read_bytes() != (inked / "cards-a4.pdf").read_bytes()


def test_the_saver_heaviest_page_has_at_most_a_third_of_the_ink_of_full(inked):
    full, saver = max(darkness(inked / "cards-a4.pdf")), max(darkness(inked / "ink-saver" / "cards-a4.pdf"))
    assert full > 0.4  # full-bleed backs: a measure that can tell
    assert saver <= full / 3, (saver, full)


def test_mono_lays_down_no_more_ink_than_a_third_of_full_either(inked):
    assert max(darkness(inked / "ink-mono" / "cards-a4.pdf")) <= max(darkness(inked / "cards-a4.pdf")) / 3


def _colours(drawing: Drawing):
    for item in drawing.items:
        if isinstance(item, Text):
            yield item.color
        elif isinstance(item, (Rect, Ellipse, Poly)):
            yield from (c for c in (item.fill, item.stroke) if c is not None)


def test_mono_prints_greys_only_and_saver_keeps_colour(cards_dir):
    kw = dict(cards=cards_dir, templates=cards_dir.parent / "templates", games=(GAME,), kinds=("png",))
    (mono,), _ = plan(Options(**kw, ink="mono"))
    faces = [*mono.fronts.values(), *mono.deck_backs.values()]
    assert all(r == g == b for face in faces for r, g, b in _colours(face.drawing))
    (saver,), _ = plan(Options(**kw, ink="saver"))
    assert any(len({*c}) > 1 for face in saver.fronts.values() for c in _colours(face.drawing))


def _grey_picture(items, size: float = 12.0) -> bytes:
    drawing = Drawing(size, size, 0.0, tuple(items))
    return raster.render(drawing, 150).convert("L").tobytes()


def test_in_mono_every_icon_is_a_picture_of_its_own(cards_dir):
    """Each element of each game, as mono draws it (one grey for all: its glyph tells it), and
    every icon of the shared icons.yaml (kinds and suits: burst, shield, heart, star...), rendered
    in greyscale: no two are the same image."""
    root = cards_dir.parent / "templates"
    icons = IconSet.load(defaults.find(root, "icons.yaml"))
    mono = Templates(root).get("card").ink("mono")
    assert mono.grey and mono.elements and mono.outline
    grey = tuple(int(mono.elements[i:i + 2], 16) for i in (1, 3, 5))
    # one icon under two names (cold and frost: one glyph for the games that call it either) is drawn once
    names = {repr(shape): name for name, shape in reversed(icons.shapes.items())}.values()
    pictures = {f"icon {name}": _grey_picture(icons.glyph(name, 1, 1, 10, (0, 0, 0), (255, 255, 255), mono.outline))
                for name in names}
    assert len(pictures) > 20
    for slug in sorted(p.name for p in cards_dir.iterdir() if (p / "game.yaml").is_file()):
        game = load_game(cards_dir / slug)
        elements = {f"{slug} {e.name}": _grey_picture(icons.element(e.name, 1, 1, 10, grey, mono.outline))
                    for e in game.elements}
        for (a, pa), (b, pb) in itertools.combinations(elements.items(), 2):
            assert pa != pb, f"in mono, {a} and {b} look the same"
    for (a, pa), (b, pb) in itertools.combinations(pictures.items(), 2):
        assert pa != pb, f"{a} and {b} are the same picture in grey"


AMMO = {"Live": "live-ammo", "Magic": "magic-ammo", "Blank": "blank-ammo"}  # Spellchamber's kinds of ammo, a card each


def _luminance(colour) -> float:
    """WCAG relative luminance of an sRGB colour."""
    def linear(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(v) for v in colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b) -> float:
    """WCAG contrast ratio of two colours (1 to 21)."""
    light, dark = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def _round(drawing: Drawing, dpi: int = 150):
    """An ammo card's round as printed: its ground (the disc it sits on: the smallest filled disc
    over 10 mm across, its outer millimetre left out), the ground's colour, the round's colour
    (the commonest of the pixels there that are not the ground's) and where those pixels are."""
    disc = min((e for e in drawing.items if isinstance(e, Ellipse) and e.fill and e.rx > 5), key=lambda e: e.rx)
    k, b = dpi / 25.4, drawing.bleed
    picture = raster.render(drawing, dpi)
    cx, cy, r = (disc.cx + b) * k, (disc.cy + b) * k, (disc.rx - 1) * k
    pixels = picture.load()
    inside = {(x, y): pixels[x, y] for x in range(int(cx - r), int(cx + r) + 1)
              for y in range(int(cy - r), int(cy + r) + 1) if (x - cx) ** 2 + (y - cy) ** 2 < r * r}
    counts: dict = {}
    for colour in inside.values():
        counts[colour] = counts.get(colour, 0) + 1
    ground = max(counts, key=counts.get)
    drawn = {at: c for at, c in inside.items() if max(abs(u - v) for u, v in zip(c, ground)) > 16}
    colours: dict = {}
    for colour in drawn.values():
        colours[colour] = colours.get(colour, 0) + 1
    return ground, max(colours, key=colours.get), set(drawn)


def test_in_mono_each_kind_of_ammo_has_a_glyph_of_its_own_shape_that_stands_out(cards_dir):
    """Issue 28, defect 8: the README says mono tells each kind by its glyph. Spellchamber's Live,
    Magic and Blank ammo cards rendered in mono: their rounds' pictures (the pixels not of their
    ground) overlap by less than half (intersection over union), and each round stands out from
    its ground by at least 3:1 (WCAG's for graphics; the GUIDE's 4.5:1 is for text)."""
    (mono,), _ = plan(Options(cards=cards_dir, templates=cards_dir.parent / "templates", games=(GAME,), kinds=("png",),
                              ink="mono"))
    rounds = {kind: _round(mono.fronts[card].drawing) for kind, card in AMMO.items()}
    for kind, (ground, colour, _) in rounds.items():
        print(f"{kind}: round {colour} on {ground}, contrast {contrast(colour, ground):.2f}:1")
    for (a, (_, _, shape_a)), (b, (_, _, shape_b)) in itertools.combinations(rounds.items(), 2):
        print(f"{a} and {b}: their rounds overlap {len(shape_a & shape_b) / len(shape_a | shape_b):.2f}")
    for (a, (_, _, shape_a)), (b, (_, _, shape_b)) in itertools.combinations(rounds.items(), 2):
        assert len(shape_a & shape_b) / len(shape_a | shape_b) < 0.5, f"in mono, {a} and {b} ammo have one glyph"
    for kind, (ground, colour, _) in rounds.items():
        assert contrast(colour, ground) >= 3, f"in mono, {kind} ammo's round is {contrast(colour, ground):.2f}:1 on its ground"


def test_ink_in_game_yaml_is_checked_and_used(tmp_path, cards_dir):
    game = tmp_path / GAME
    shutil.copytree(cards_dir / GAME, game)
    text = (game / "game.yaml").read_text()
    (game / "game.yaml").write_text(text.replace("\ntitle:", "\nink: savr\ntitle:", 1))
    with pytest.raises(ValidationFailed) as failed:
        load_game(game)
    [problem] = failed.value.problems
    assert problem.file.endswith("game.yaml") and problem.line > 0 and "'saver'" in problem.message
    (game / "game.yaml").write_text(text.replace("\ntitle:", "\nink: mono\ntitle:", 1))
    (p,), _ = plan(Options(cards=tmp_path, templates=cards_dir.parent / "templates", kinds=("png",)))
    assert p.ink == "mono"
    (p,), _ = plan(Options(cards=tmp_path, templates=cards_dir.parent / "templates", kinds=("png",), ink="full"))
    assert p.ink == "full"  # --ink wins over the game's own


def test_a_one_card_edit_redraws_that_card_only_in_its_ink(tmp_path, cards_dir):
    """A mode follows the incremental rules: its outputs have their own manifest, and an edit to
    one card redraws that card's image, in the saver's folder."""
    slug = "powermage-54"
    shutil.copytree(cards_dir / slug, tmp_path / "cards" / slug)
    kw = dict(cards=tmp_path / "cards", templates=cards_dir.parent / "templates", out=tmp_path / "build",
              games=(slug,), kinds=("png",), progress=False)
    first = build(Options(**kw, ink="saver"))
    assert first.written and all("ink-saver" in p.parts for p in first.written)
    assert not build(Options(**kw, ink="saver")).written
    cards = tmp_path / "cards" / slug / "draw.yaml"
    cards.write_text(cards.read_text().replace("name: Ember Dart", "name: Ember Darts", 1))
    again = build(Options(**kw, ink="saver"))
    assert [p.relative_to(tmp_path / "build") for p in again.written] == [Path(slug, "ink-saver", "png", "ember-dart.png")]
