"""Colour never the only signal (issue 28, build item 3).

1. The measure: CIEDE2000 as Sharma, Wu and Dalal (2005) publish it, CIE L*a*b* and the
   Machado (2009) simulations as colorspacious 1.1.2 computes them, and a box seen as drawn
   (its fill and the grain over it, not its outline).
2. Every two colours that tell the five games' kinds apart (their layouts' `tells` boxes as the
   cards draw them, their elements) stay THRESHOLD apart for every eye; a palette with two that
   do not is said by `validate`, at the line that writes the colour, with a colour that would do.
3. In mono, every two kinds that colour tells apart differ in the shape drawn for them (the
   medallions at the ends of the type line on a front, the emblem on a back), not only in grey.
"""

from __future__ import annotations

import itertools
import re
import shutil
from pathlib import Path

import pytest
from PIL import Image, ImageFilter

from spellpress.cli import main
from spellpress.press.drawing import raster, vision
from spellpress.press.drawing.displaylist import Drawing, Ellipse, Primitive, Rect
from spellpress.press.drawing.layout import pattern
from spellpress.press.drawing.templates import Box
from spellpress.press.model.options import Options
from spellpress.press.model.plan import plan

GAMES = ("magicka-mayhem", "powermage-54", "powers-combined", "sorcerer-duel", "spellchamber")

# Sharma, Wu and Dalal (2005), "The CIEDE2000 color-difference formula: implementation notes,
# supplementary test data, and mathematical observations", Color Res. Appl. 30(1), Table 1:
# L1, a1, b1, L2, a2, b2, their difference
SHARMA = [
    (50.0000, 2.6772, -79.7751, 50.0000, 0.0000, -82.7485, 2.0425),
    (50.0000, 3.1571, -77.2803, 50.0000, 0.0000, -82.7485, 2.8615),
    (50.0000, 2.8361, -74.0200, 50.0000, 0.0000, -82.7485, 3.4412),
    (50.0000, -1.3802, -84.2814, 50.0000, 0.0000, -82.7485, 1.0000),
    (50.0000, -1.1848, -84.8006, 50.0000, 0.0000, -82.7485, 1.0000),
    (50.0000, -0.9009, -85.5211, 50.0000, 0.0000, -82.7485, 1.0000),
    (50.0000, 0.0000, 0.0000, 50.0000, -1.0000, 2.0000, 2.3669),
    (50.0000, -1.0000, 2.0000, 50.0000, 0.0000, 0.0000, 2.3669),
    (50.0000, 2.4900, -0.0010, 50.0000, -2.4900, 0.0009, 7.1792),
    (50.0000, 2.4900, -0.0010, 50.0000, -2.4900, 0.0010, 7.1792),
    (50.0000, 2.4900, -0.0010, 50.0000, -2.4900, 0.0011, 7.2195),
    (50.0000, 2.4900, -0.0010, 50.0000, -2.4900, 0.0012, 7.2195),
    (50.0000, -0.0010, 2.4900, 50.0000, 0.0009, -2.4900, 4.8045),
    (50.0000, -0.0010, 2.4900, 50.0000, 0.0010, -2.4900, 4.8045),
    (50.0000, -0.0010, 2.4900, 50.0000, 0.0011, -2.4900, 4.7461),
    (50.0000, 2.5000, 0.0000, 50.0000, 0.0000, -2.5000, 4.3065),
    (50.0000, 2.5000, 0.0000, 73.0000, 25.0000, -18.0000, 27.1492),
    (50.0000, 2.5000, 0.0000, 61.0000, -5.0000, 29.0000, 22.8977),
    (50.0000, 2.5000, 0.0000, 56.0000, -27.0000, -3.0000, 31.9030),
    (50.0000, 2.5000, 0.0000, 58.0000, 24.0000, 15.0000, 19.4535),
    (50.0000, 2.5000, 0.0000, 50.0000, 3.1736, 0.5854, 1.0000),
    (50.0000, 2.5000, 0.0000, 50.0000, 3.2972, 0.0000, 1.0000),
    (50.0000, 2.5000, 0.0000, 50.0000, 1.8634, 0.5757, 1.0000),
    (50.0000, 2.5000, 0.0000, 50.0000, 3.2592, 0.3350, 1.0000),
    (60.2574, -34.0099, 36.2677, 60.4626, -34.1751, 39.4387, 1.2644),
    (63.0109, -31.0961, -5.8663, 62.8187, -29.7946, -4.0864, 1.2630),
    (61.2901, 3.7196, -5.3901, 61.4292, 2.2480, -4.9620, 1.8731),
    (35.0831, -44.1164, 3.7933, 35.0232, -40.0716, 1.5901, 1.8645),
    (22.7233, 20.0904, -46.6940, 23.0331, 14.9730, -42.5619, 2.0373),
    (36.4612, 47.8580, 18.3852, 36.2715, 50.5065, 21.2231, 1.4146),
    (90.8027, -2.0831, 1.4410, 91.1528, -1.6435, 0.0447, 1.4441),
    (90.9257, -0.5406, -0.9208, 88.6381, -0.8985, -0.7239, 1.5381),
    (6.7747, -0.2908, -2.4247, 5.8714, -0.0985, -2.2286, 0.6377),
    (2.0776, 0.0795, -1.1350, 0.9033, -0.0636, -0.5514, 0.9082),
]

# colorspacious 1.1.2: cspace_convert(rgb / 255, {"name": "sRGB1+CVD", "cvd_type": ..., "severity": 100},
# "sRGB1"), clipped to 0..1 and rounded to 8 bits; and cspace_convert(rgb / 255, "sRGB1", "CIELab")
COLOURS = [(217, 72, 15), (47, 158, 68), (24, 100, 171), (134, 46, 156), (245, 159, 0), (201, 42, 42), (128, 128, 128),
           (255, 255, 255), (10, 20, 30)]
COLORSPACIOUS = {
    "protanopia": [(115, 101, 0), (160, 144, 59), (65, 105, 174), (0, 81, 159), (188, 165, 0), (93, 83, 40), (128, 128, 128),
                   (255, 255, 255), (16, 20, 30)],
    "deuteranopia": [(151, 134, 0), (147, 135, 75), (39, 92, 170), (53, 89, 153), (208, 186, 13), (132, 118, 35),
                     (128, 128, 128), (255, 255, 255), (13, 18, 30)],
    "tritanopia": [(239, 19, 63), (0, 154, 138), (0, 117, 127), (134, 67, 98), (255, 137, 135), (222, 0, 45), (128, 128, 128),
                   (255, 255, 255), (3, 22, 23)],
}
LAB = {(217, 72, 15): (51.175, 54.696, 58.483), (47, 158, 68): (57.535, -50.152, 37.693), (24, 100, 171): (41.608, 4.485, -44.206),
       (10, 20, 30): (5.949, -0.667, -8.14)}


def test_ciede2000_gives_sharma_wu_and_dalals_published_differences():
    for l1, a1, b1, l2, a2, b2, expected in SHARMA:
        assert round(vision.delta_e((l1, a1, b1), (l2, a2, b2)), 4) == expected, (l1, a1, b1, l2, a2, b2)
        assert round(vision.delta_e((l2, a2, b2), (l1, a1, b1)), 4) == expected  # either way round


def test_the_simulations_and_lab_are_as_colorspacious_computes_them():
    for deficiency, expected in COLORSPACIOUS.items():
        assert [vision.simulate(c, deficiency) for c in COLOURS] == expected, deficiency
    for colour, expected in LAB.items():
        assert all(abs(a - b) < 0.05 for a, b in zip(vision.lab(colour), expected)), (colour, vision.lab(colour))
    assert vision.simulate((201, 42, 42), "normal vision") == (201, 42, 42)


def test_a_box_is_seen_by_its_fill_and_the_grain_over_it_not_by_its_outline():
    red, gold = (180, 30, 30), (224, 180, 60)
    flat = Drawing(20, 20, 0, (Rect(2, 2, 16, 16, fill=red),))
    outlined = Drawing(20, 20, 0, (Rect(2, 2, 16, 16, fill=red, stroke=gold, width=0.6),))
    box = Box(kind="pattern", pattern="lattice", x=2, y=2, w=16, h=16, spacing=1.1, width=0.25)
    grained = Drawing(20, 20, 0, (Rect(2, 2, 16, 16, fill=red), *pattern(box, 2, 2, 16, 16, None, (60, 10, 10))))
    seen = {name: vision.seen_items(d, d.items) for name, d in (("flat", flat), ("outlined", outlined), ("grained", grained))}
    normal = {name: s["normal vision"] for name, s in seen.items() if s is not None}
    assert vision.delta_e(normal["flat"], vision.lab(red)) < 0.5
    assert vision.delta_e(normal["outlined"], normal["flat"]) < 0.5  # the gold outline is the box's edge, not its colour
    assert normal["grained"][0] < normal["flat"][0] - 3  # the dark grain is seen with the red under it
    assert vision.seen_items(flat, ()) is None


def colour_warnings(warnings: list[str]) -> list[str]:
    return [w for w in warnings if "(CIEDE2000)" in w]


@pytest.fixture(scope="module")
def full(cards_dir):
    """Every game laid out in colour, as validate lays them out."""
    plans, warnings = plan(Options(cards=cards_dir, templates=cards_dir.parent / "templates", kinds=("png",)))
    return {p.game.slug: p for p in plans}, warnings


@pytest.fixture(scope="module")
def mono(cards_dir):
    plans, _ = plan(Options(cards=cards_dir, templates=cards_dir.parent / "templates", kinds=("png",), ink="mono"))
    return {p.game.slug: p for p in plans}


def test_every_two_colours_that_tell_the_five_games_kinds_apart_stay_apart_for_every_eye(full):
    plans, warnings = full
    assert sorted(plans) == list(GAMES)
    assert colour_warnings(warnings) == []
    # and the check looked at something in every game: its kinds drawn in colours of their own
    for slug, p in plans.items():
        classes = kinds_by_colour(p)
        assert len(classes.get("kind", {})) >= 3, (slug, classes.keys())


def faces(p) -> list[tuple[str, Drawing]]:
    """Every face of a plan, named: fronts, own backs, deck backs."""
    out = [(card, f.drawing) for card, f in p.fronts.items()]
    out += [(f"{card} (back)", f.drawing) for card, f in p.backs.items() if f.key.endswith("-back")]
    out += [(f"back-{deck}", f.drawing) for deck, f in p.deck_backs.items()]
    return out


def kinds_by_colour(p) -> dict[str, dict[str, list[str]]]:
    """tells -> the colour (as seen in normal vision, '#rrggbb') -> the faces that draw it, each
    colour one kind of card: colours closer than vision.SAME are one."""
    out: dict[str, dict[str, list[str]]] = {}
    for name, drawing in faces(p):
        items: dict[str, list[Primitive]] = {}
        for mark in drawing.marks:
            if mark.tells:
                items.setdefault(mark.tells, []).extend(drawing.items[mark.start:mark.end])
        for tells, drawn in items.items():
            seen = vision.seen_items(drawing, drawn)
            if seen is None:
                continue
            known = out.setdefault(tells, {})
            same = [h for h in known if vision.delta_e(vision.lab(vision.hex_color(h)), seen["normal vision"]) < vision.SAME]
            known.setdefault(same[0] if same else vision.hex_of(seen), []).append(name)
    return out


SIZE = 64  # px: a kind's shape is drawn this big to be compared
# likeness() at or above which two shapes are one: one icon drawn twice, at different places (a
# medallion follows its words), is 0.95 or more alike at SIZE; the most alike of two different
# icons among the five games' kinds (Spellchamber's live round and blank cartridge) are 0.58.
SAME_SHAPE = 0.8


def shape(drawing: Drawing) -> Image.Image | None:
    """The shape a face draws for its kind, as mono prints it, black on white, SIZE px square:
    on a front the icon of the medallion at the left end of its type line (its disc left out:
    every medallion has one), on a back its emblem; None if it draws none."""
    flank = [mark for mark in drawing.marks if mark.box.endswith(":flank")]
    if flank:
        items = drawing.items[flank[0].start:flank[0].end]
        disc = items[0]
        assert isinstance(disc, Ellipse)
        cx, cy, d = disc.cx, disc.cy, 2 * disc.rx
        icon = [i for i in items[1:len(items) // 2] if not (isinstance(i, Ellipse) and i.rx > 0.4 * d)]  # the left one
    else:
        icon = list(drawing.drawn_by("emblem"))
        if not icon:
            return None
        from spellpress.press.drawing.edges import bounds

        boxes = [bounds(i) for i in icon]
        left, top = min(b[0] for b in boxes), min(b[1] for b in boxes)
        d = max(max(b[2] for b in boxes) - left, max(b[3] for b in boxes) - top)
        cx, cy = left + d / 2, top + d / 2
    dpi = SIZE / d * 25.4
    picture = raster.render(Drawing(drawing.width, drawing.height, drawing.bleed, tuple(icon)), dpi)
    k, b = dpi / 25.4, drawing.bleed
    x0, y0 = round((cx - d / 2 + b) * k), round((cy - d / 2 + b) * k)
    return picture.crop((x0, y0, x0 + SIZE, y0 + SIZE)).convert("L").point(lambda v: 0 if v < 128 else 255)


def edges(picture: Image.Image) -> set[int]:
    """The pixels at the edge of a shape's ink (black pixels beside a white one): an outline's
    two sides, a filled shape's outline."""
    inside = picture.filter(ImageFilter.MaxFilter(3))  # black only where all nine are black
    return {i for i, (v, w) in enumerate(zip(vision._pixels(picture), vision._pixels(inside))) if v == 0 and w != 0}


def likeness(a: Image.Image, b: Image.Image) -> float:
    """How much two shapes are one: the least share of either's edge pixels that lie within a
    pixel of the other's edge (one icon drawn twice, a fraction of a pixel apart: about 1)."""
    ea, eb = edges(a), edges(b)
    near = {i + dx + dy * SIZE for i in eb for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
    near_a = {i + dx + dy * SIZE for i in ea for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
    return min(len(ea & near) / max(1, len(ea)), len(eb & near_a) / max(1, len(eb)))


@pytest.mark.parametrize("slug", GAMES)
def test_in_mono_every_two_kinds_that_colour_tells_apart_differ_in_shape(slug, full, mono):
    """The kinds of a `tells` name are its colours on the cards in colour; in mono each face's
    kind shape (its medallion's icon, its back's emblem) must be there, and the shapes of two
    kinds overlap by less than SAME_SHAPE: mono prints them in greys alike."""
    classes = kinds_by_colour(full[0][slug])
    assert len(classes.get("kind", {})) >= 2, classes.keys()  # kinds told apart by colour: something to compare
    drawings = dict(faces(mono[slug]))
    for tells, by_colour in classes.items():
        shapes: dict[str, dict[bytes, tuple[str, Image.Image]]] = {}
        for colour, names in by_colour.items():
            for name in names:
                picture = shape(drawings[name])
                assert picture is not None, f"{slug}: in mono, {name} ({tells} {colour}) draws no shape for its kind"
                shapes.setdefault(colour, {}).setdefault(picture.tobytes(), (name, picture))
        for (one, a), (two, b) in itertools.combinations(shapes.items(), 2):
            for (name_a, pa), (name_b, pb) in itertools.product(a.values(), b.values()):
                assert likeness(pa, pb) < SAME_SHAPE, (f"{slug}: in mono, {name_a} ({tells} {one}) and {name_b} ({tells} {two}) "
                                               f"draw one shape ({likeness(pa, pb):.2f} alike)")


@pytest.fixture()
def game_copy(tmp_path, cards_dir, monkeypatch):
    """A copy of the games and the templates to edit, the working directory at its root."""
    def copy(slug: str) -> Path:
        shutil.copytree(cards_dir / slug, tmp_path / "cards" / slug)
        if not (tmp_path / "templates").exists():
            shutil.copytree(cards_dir.parent / "templates", tmp_path / "templates")
        monkeypatch.chdir(tmp_path)
        return tmp_path
    return copy


def validate(capsys, slug: str) -> list[str]:
    assert main(["validate", "cards", slug]) == 0  # a warning, not a problem: the game still builds
    return [line for line in capsys.readouterr().err.splitlines() if "(CIEDE2000)" in line]


def test_two_kinds_a_colour_blind_player_cannot_tell_apart_are_said_with_a_colour_that_would_do(game_copy, capsys):
    """PowerMage 54's Health cards in a darker green: without green cones it reads close to the
    Attack cards' red. `validate` says so at the line of health.yaml that writes the
    colour, naming both colours, the deficiency and the difference, and a colour that would do;
    written in, that colour is said no more."""
    root = game_copy("powermage-54")
    health = root / "templates" / "powermage-54" / "health.yaml"
    text = health.read_text()
    old = re.search(r'kind: "(#[0-9a-f]{6})", band: "(#[0-9a-f]{6})"', text)
    assert old is not None and old.group(1) == old.group(2)
    green = "#28612a"  # a darker green than theirs: close, for deuteranopia, to the Attack cards' red as drawn
    health.write_text(text.replace(old.group(0), f'kind: "{green}", band: "{green}"'))
    said = validate(capsys, "powermage-54")
    line = 1 + text[:old.start()].count("\n")
    about = [w for w in said if "deuteranopia" in w and f"templates/powermage-54/health.yaml:{line}:" in w]
    assert about, said
    warning = about[0]
    assert "Tonic (Health)" in warning and "Ember Dart (Attack)" in warning
    difference = float(re.search(r"are (\d+\.\d) apart \(CIEDE2000\)", warning).group(1))
    assert difference < vision.THRESHOLD
    better = re.search(r"such as (#[0-9a-f]{6})", warning)
    assert better is not None, warning
    health.write_text(text.replace(old.group(0), f'kind: "{better.group(1)}", band: "{better.group(1)}"'))
    again = validate(capsys, "powermage-54")
    assert not [w for w in again if "health.yaml" in w and "Ember Dart (Attack)" in w], again


def test_the_elements_are_checked_where_game_yaml_writes_them(game_copy, capsys):
    """Magicka Mayhem's Arcane back in its old purple, which deuteranopia sees as Water's blue."""
    root = game_copy("magicka-mayhem")
    game = root / "cards" / "magicka-mayhem" / "game.yaml"
    text = game.read_text()
    arcane = re.search(r'\{name: Arcane, color: "#[0-9a-f]{6}"\}', text)
    assert arcane is not None
    game.write_text(text.replace(arcane.group(0), '{name: Arcane, color: "#862e9c"}'))
    said = validate(capsys, "magicka-mayhem")
    line = 1 + text[:arcane.start()].count("\n")
    assert any(f"cards/magicka-mayhem/game.yaml:{line}:" in w and "element Water" in w and "element Arcane" in w
               and "deuteranopia" in w for w in said), said


@pytest.mark.parametrize("slug", GAMES)
def test_in_mono_a_kinds_grounds_are_light_and_its_medallion_stands_out(slug, mono):
    """Mono prints light grounds (docs/printing.md): what tells a kind apart in colour (its inner
    frame, its band, its back's ground) is light in mono (L* 70 or more), and the icon of each
    medallion stands out from its disc by 3:1 at least (WCAG's for graphics): a dark disc hides a
    dark outline icon, and then the kind has no shape to be told by."""
    dark, faint = [], []
    for name, drawing in faces(mono[slug]):
        grounds: dict[str, list[Primitive]] = {}
        for mark in drawing.marks:
            if mark.tells:
                grounds.setdefault(mark.tells, []).extend(drawing.items[mark.start:mark.end])
            if mark.box.endswith(":flank"):
                disc, *rest = drawing.items[mark.start:mark.end]  # two medallions: a disc (and its ring), an icon, each
                icon = [i for i in rest if not (isinstance(i, Ellipse) and isinstance(disc, Ellipse) and i.rx > 0.4 * disc.rx * 2)]
                inks = {c for item in icon for c in (getattr(item, "fill", None), getattr(item, "stroke", None)) if c}
                if isinstance(disc, Ellipse) and disc.fill is not None and inks:
                    least = min(vision.contrast(disc.fill, ink) for ink in inks if ink != disc.fill)
                    if least < 3:
                        faint.append(f"{name} {mark.box}: {least:.1f}:1")
        for tells, items in grounds.items():
            seen = vision.seen_items(drawing, items)
            if seen is not None and seen["normal vision"][0] < 70:
                dark.append(f"{name} {tells}: L* {seen['normal vision'][0]:.0f}")
    assert not dark, f"{slug}: in mono, dark grounds: {dark[:5]}"
    assert not faint, f"{slug}: in mono, medallions whose icon hardly shows: {faint[:5]}"
