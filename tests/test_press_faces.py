"""Every front and back of every game, measured on its display list (GUIDE section 2, tolerances).

- backs: no edge parallel to the trim within 6 mm of it (inside or outside), so that 2 mm of
  duplex drift and 1 mm of cutting error cannot be seen; fronts: none within 3 mm;
- no text below 7 pt on a front, and no text outside the safe zone (a layout's text and icon
  boxes are held to it when it loads: test_press_templates);
- every card of a deck held in a hand has a corner index, top left and turned at bottom right,
  that shows its value or element;
- the generated art's emblem comes from the card's data, never from a hash of its id.
"""

from __future__ import annotations

import math
from pathlib import Path as FilePath

import pytest

from spellpress.defaults import TEMPLATES as DEFAULTS
from spellpress.press.drawing import fonts
from spellpress.press.drawing.displaylist import Drawing, Ellipse, Image, Path, Rect, Text
from spellpress.press.model.options import Options
from spellpress.press.model.plan import plan

ROOT = FilePath(__file__).resolve().parent.parent
BACK_MARGIN, FRONT_MARGIN = 6.0, 3.0  # GUIDE: no edge parallel to the trim within this of it
MIN_PT = 7.0
PARALLEL = math.radians(8)  # a segment this close to a trim's direction counts as parallel to it
SHORT = 0.8  # mm: a segment shorter than this is a corner of a curve, not an edge


@pytest.fixture(scope="module")
def plans():
    options = Options(cards=ROOT / "cards", templates=ROOT / "templates", kinds=("png",), progress=False)
    found, _ = plan(options)
    return {p.game.slug: p for p in found}


def faces(plans, side: str):
    """(slug, key, drawing) for every distinct front or back."""
    out = []
    for slug, p in plans.items():
        if side == "front":
            out += [(slug, key, face.drawing) for key, face in p.fronts.items()]
        else:
            out += [(slug, f"back-{deck}", face.drawing) for deck, face in p.deck_backs.items()]
    return out


def own_backs(plans):
    """A card's own back (a wizard's powered-up side): read like a front, but printed on the
    back of the sheet, so it takes a back's margins."""
    return [(slug, face.key, face.drawing) for slug, p in plans.items() for face in p.backs.values()
            if face.key.endswith("-back")]


def edges(item) -> list[tuple[str, float, float, float]]:
    """The straight edges of a primitive that run parallel to the trim: ('x', at, from, to) for
    a vertical edge at x = at, ('y', ...) for a horizontal one. A stroke counts on both sides."""
    if isinstance(item, Text):
        return []
    half = item.width / 2 if getattr(item, "stroke", None) else 0.0
    if isinstance(item, (Rect, Image)):
        r = getattr(item, "radius", 0.0)
        x0, y0, x1, y1 = item.x, item.y, item.x + item.w, item.y + item.h
        if not getattr(item, "fill", True) and not getattr(item, "stroke", None):
            return []
        out = []
        for at in (x0, x1):
            out += [("x", at - half, y0 + r, y1 - r), ("x", at + half, y0 + r, y1 - r)]
        for at in (y0, y1):
            out += [("y", at - half, x0 + r, x1 - r), ("y", at + half, x0 + r, x1 - r)]
        return out
    if isinstance(item, Ellipse):
        # a curve has no straight edge, but its flat extreme reads as one when it grazes the trim
        x0, x1, y0, y1 = item.cx - item.rx - half, item.cx + item.rx + half, item.cy - item.ry - half, item.cy + item.ry + half
        return [("x", x0, item.cy, item.cy), ("x", x1, item.cy, item.cy), ("y", y0, item.cx, item.cx), ("y", y1, item.cx, item.cx)]
    if isinstance(item, Path):  # an icon's outline: each subpath's pieces from end to end, closed
        return [edge for sub in item.subpaths for edge in _straight([(seg[-2], seg[-1]) for seg in sub] + [sub[0]], 0.0)]
    return _straight(list(item.points) + ([item.points[0]] if item.closed else []), half)


def _straight(pts, half: float) -> list[tuple[str, float, float, float]]:
    out = []
    for (ax, ay), (bx, by) in zip(pts, pts[1:]):
        length = math.hypot(bx - ax, by - ay)
        if length < SHORT:
            continue
        angle = math.atan2(abs(by - ay), abs(bx - ax))
        if angle < PARALLEL:
            for d in (-half, half):
                out.append(("y", (ay + by) / 2 + d, min(ax, bx), max(ax, bx)))
        elif angle > math.pi / 2 - PARALLEL:
            for d in (-half, half):
                out.append(("x", (ax + bx) / 2 + d, min(ay, by), max(ay, by)))
    return out


def near_trim(drawing: Drawing, margin: float) -> list[str]:
    """Edges within `margin` of a trim line, on either side; the bleed's own outer edge (cut
    away) is allowed, and so is anything wholly in the bleed beyond the margin."""
    bad = []
    w, h, b, eps = drawing.width, drawing.height, drawing.bleed, 1e-6
    for item in drawing.items:
        for axis, at, lo, hi in edges(item):
            size, across = (w, h) if axis == "x" else (h, w)
            if abs(at + b) < eps or abs(at - size - b) < eps:
                continue  # the outer edge of the bleed
            if hi < -b + eps or lo > across + b - eps:
                continue  # beyond the bleed: never printed
            for trim in (0.0, size):
                if abs(at - trim) < margin - eps:
                    bad.append(f"{type(item).__name__} edge at {axis}={at:.2f} mm, {abs(at - trim):.2f} mm from the trim")
    return bad


def test_backs_show_no_edge_within_6_mm_of_the_trim(plans):
    drawn = faces(plans, "back") + own_backs(plans)
    failures = [f"{slug}/{key}: {bad[0]}" for slug, key, d in drawn if (bad := near_trim(d, BACK_MARGIN))]
    assert not failures, "\n".join(failures)


def test_fronts_keep_their_frames_3_mm_inside_the_trim(plans):
    failures = [f"{slug}/{key}: {bad[0]}" for slug, key, d in faces(plans, "front") if (bad := near_trim(d, FRONT_MARGIN))]
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("ink", ["full", "saver", "mono"])
def test_cards_that_may_share_a_sheet_have_the_same_outer_edge(plans, ink):
    """Issue 28, defect 4: a cut 1 mm off its line shows a sliver of the neighbour's edge, so
    every card that may share a sheet with another (one back design) draws the same within 2 mm
    of its trim (edges.py), and a card type's or element's colour lies inside that (PowerMage
    54's and Powers Combined's inner frames): the sheets keep the cards edge to edge, eight an
    A4 sheet, with no gutters (sheets.apart). Not merely alike within edges.ALIKE: the same."""
    from spellpress.press.drawing import edges

    if ink != "full":
        options = Options(cards=ROOT / "cards", templates=ROOT / "templates", kinds=("png",), progress=False, ink=ink)
        plans = {p.game.slug: p for p in plan(options)[0]}
    differ = []
    for slug, p in plans.items():
        groups: dict[str, dict] = {}
        for deck in p.game.decks.values():
            if deck.token is not None:  # punch-out pieces, not on the card sheets
                continue
            for card in deck.cards:
                back = p.backs[card.id]
                design = back.hash if back is p.deck_backs.get(deck.id) else f"own backs of {deck.id}"
                groups.setdefault(design, {}).setdefault(edges.edge(p.fronts[card.id].drawing), []).append(card.id)
        for found in groups.values():
            if len(found) > 1:
                differ.append(f"{slug}: {len(found)} outer edges among {[ids[0] for ids in found.values()]}")
    assert not differ, "\n".join(differ)


def test_the_measure_sees_a_framed_back():
    framed = Drawing(63.5, 88.9, 3.175, (Rect(-3.175, -3.175, 69.85, 95.25, fill=(0, 0, 0)),
                                         Rect(4, 4, 55.5, 80.9, radius=3, fill=(9, 9, 9))))
    assert near_trim(framed, BACK_MARGIN)
    assert not near_trim(Drawing(63.5, 88.9, 3.175, framed.items[:1]), BACK_MARGIN)


def text_box(t: Text) -> tuple[float, float, float, float]:
    """The ink box of a text (x0, y0, x1, y1), turned half round its anchor when it is turned."""
    w = fonts.width(t.text, t.font, t.size)
    up, down = fonts.ascent(t.font) * t.size * 25.4 / 72, 0.25 * t.size * 25.4 / 72
    if getattr(t, "turned", False):
        return t.x - w, t.y - down, t.x, t.y + up
    return t.x, t.y - up, t.x + w, t.y + down


def test_no_text_on_a_front_is_smaller_than_7_pt(plans):
    drawn = faces(plans, "front") + own_backs(plans)
    small = [f"{slug}/{key}: '{t.text}' at {t.size:g} pt" for slug, key, d in drawn for t in d.items
             if isinstance(t, Text) and t.size < MIN_PT - 1e-6]
    assert not small, "\n".join(small[:40]) + f"\n({len(small)} in all)"


def test_text_stays_in_the_safe_zone(plans):
    outside = []
    for slug, key, d in faces(plans, "front") + faces(plans, "back") + own_backs(plans):
        s = 3.175
        for t in d.items:
            if isinstance(t, Text):
                x0, y0, x1, y1 = text_box(t)
                if x0 < s - 0.05 or y0 < s - 0.05 or x1 > d.width - s + 0.05 or y1 > d.height - s + 0.05:
                    outside.append(f"{slug}/{key}: '{t.text}' at ({x0:.1f}, {y0:.1f})-({x1:.1f}, {y1:.1f})")
    assert not outside, "\n".join(outside[:40])


# -- cards held in a hand


def corner_signs(drawing: Drawing, turned: bool) -> tuple[list[Text], list[Ellipse]]:
    """The texts and discs of the top left corner index (or, turned, of the bottom right one)."""
    w, h = drawing.width, drawing.height

    def at(x, y):
        return (w - x, h - y) if turned else (x, y)

    texts = [t for t in drawing.items if isinstance(t, Text) and t.turned == turned
             and at(t.x, t.y)[0] < 12.4 and at(t.x, t.y)[1] < 22]  # a title starts right of the index
    discs = [e for e in drawing.items if isinstance(e, Ellipse) and at(e.cx, e.cy)[0] < 14.5 and at(e.cx, e.cy)[1] < 36]
    return texts, discs


def test_the_decks_held_in_a_hand_come_from_the_data(games):
    held = {(slug, deck.id) for slug, game in games.items() for deck in game.decks.values() if deck.hand}
    assert {("magicka-mayhem", "elements"), ("magicka-mayhem", "spells"), ("powermage-54", "draw")} <= held
    assert ("magicka-mayhem", "mayhem") not in held and ("spellchamber", "spells") not in held


def test_every_card_held_in_a_hand_shows_its_value_or_element_in_both_corners(plans):
    missing = []
    for slug, p in plans.items():
        game = p.game
        colors = {e.name: tuple(int(e.color[i:i + 2], 16) for i in (1, 3, 5)) for e in game.elements}
        for deck in game.decks.values():
            for card in deck.cards:
                d = p.fronts[card.id].drawing
                texts, discs = corner_signs(d, turned=False)
                if not deck.hand:
                    if any(isinstance(t, Text) and t.turned for t in d.items):
                        missing.append(f"{slug}/{card.id}: an index, though deck '{deck.id}' is not held in a hand")
                    continue
                shown = "".join(t.text for t in sorted(texts, key=lambda t: (t.y, t.x)))
                words = {str(v) for v in card.fields.values() if isinstance(v, (int, str)) and len(str(v)) <= 6}
                words.add(game.card_types[card.type].name.replace(" ", ""))
                elements = [n for v in card.fields.values() for n in (v if isinstance(v, tuple) else (v,)) if n in colors]
                says = any(word in shown for word in words) or any(e.fill == colors[n] for n in elements for e in discs)
                # the bottom right corner holds the same index, turned half round the card's centre
                turned_texts, turned_discs = corner_signs(d, turned=True)
                mirrored = ({(t.text, round(d.width - t.x, 3), round(d.height - t.y, 3)) for t in texts}
                            <= {(t.text, round(t.x, 3), round(t.y, 3)) for t in turned_texts})
                mirrored &= ({(e.fill, round(d.width - e.cx, 3), round(d.height - e.cy, 3)) for e in discs if e.fill in colors.values()}
                             <= {(e.fill, round(e.cx, 3), round(e.cy, 3)) for e in turned_discs})
                if not (says and mirrored and (texts or discs)):
                    missing.append(f"{slug}/{card.id}: corner shows {shown!r}, says its data: {says}, turned copy: {mirrored}")
    assert not missing, "\n".join(missing[:30])


def test_a_bad_hand_flag_is_a_problem_with_its_line(tmp_path, cards_dir):
    import shutil

    from spellpress.core import ValidationFailed, load_games

    shutil.copytree(cards_dir / "powermage-54", tmp_path / "powermage-54")
    decks = tmp_path / "powermage-54" / "decks.yaml"
    text = decks.read_text().replace("    hand: true", "    hand: often", 1)
    decks.write_text(text)
    with pytest.raises(ValidationFailed) as failed:
        load_games(tmp_path)
    [problem] = [str(p) for p in failed.value.problems]
    line = next(i for i, row in enumerate(text.splitlines(), 1) if "hand: often" in row)
    assert problem.endswith(f"decks.yaml:{line}:11: decks.draw.hand: expected true or false, got the text 'often'")


# -- icons from data


def test_generated_art_shows_an_emblem_chosen_from_the_card_data(games):
    """The game icon a card's `art:` names (issue 28); without one, as before: its `icon`
    field, its first element's glyph, its type's icon (each card here taken without its art)."""
    import dataclasses

    from spellpress.press.drawing.icons import IconSet
    from spellpress.press.drawing.layout import Layouter
    from spellpress.press.drawing.templates import Templates

    templates, icons = Templates(ROOT / "templates"), IconSet.load(DEFAULTS / "icons.yaml")
    chosen = {}
    for slug, game in games.items():
        layouter = Layouter(game, icons)
        for card in game.cards:
            layout = templates.get(game.card_types[card.type].template)
            art = [box for _, box in layout.boxes if box.kind == "art"]
            if art:
                if card.art:
                    assert layouter.emblem(layouter.card_face(card), art[0]) == card.art  # game-icons:...
                face = layouter.card_face(dataclasses.replace(card, art=None))
                chosen[card.id] = layouter.emblem(face, art[0])
                assert chosen[card.id], f"{slug}/{card.id} has generated art with no emblem"
                if not face.values.get("icon") and not face.elements:
                    assert chosen[card.id] == art[0].icon  # its type's, whatever its id
    assert chosen["bramble-hedge"] == "wall" and chosen["elder-treant"] == "tree" and chosen["mossling"] == "paw"
    assert chosen["fire-bolt"] == "fire" and chosen["grand-reshuffle"] == "star"


def test_an_unknown_icon_field_is_a_problem_naming_the_card(games):
    import dataclasses
    import types

    from spellpress.press.drawing.icons import IconSet
    from spellpress.press.drawing.layout import Layouter
    from spellpress.press.drawing.templates import Templates

    game = games["sorcerer-duel"]
    layouter = Layouter(game, IconSet.load(DEFAULTS / "icons.yaml"))
    card = game.card("elder-treant")
    card = dataclasses.replace(card, art=None, fields=types.MappingProxyType({**card.fields, "icon": "tre"}))  # its art would win
    layouter.draw(layouter.card_face(card), Templates(ROOT / "templates").get("sorcerer-duel/creature"))
    [problem] = layouter.problems
    assert problem.file.endswith("thornwood.yaml") and problem.line > 0
    assert "card 'elder-treant', box 'art'" in problem.message and "unknown icon 'tre' (did you mean 'tree'?)" in problem.message


def test_turned_text_is_drawn_upside_down_below_and_left_of_its_anchor():
    from spellpress.press.drawing import raster

    drawing = Drawing(63.5, 88.9, 0.0, (Text(40, 40, "Wy", "bold", 20, (0, 0, 0), turned=True),))
    image = raster.render(drawing, 100)
    box = image.convert("L").point(lambda v: 255 if v < 128 else 0).getbbox()
    k = 100 / 25.4
    assert box is not None
    assert box[2] <= 40 * k + 2 and box[0] < 40 * k - 5  # it runs leftwards from its anchor
    assert box[1] >= 40 * k - 4 * k and box[3] > 40 * k + 3  # and hangs below its baseline


def test_a_layout_asking_for_text_below_7_pt_is_refused_at_its_line(tmp_path, monkeypatch):
    import shutil

    from spellpress.core import ValidationFailed
    from spellpress.press.drawing.templates import Templates

    shutil.copytree(ROOT / "templates", tmp_path / "templates")
    path = tmp_path / "templates" / "card.yaml"  # the project's own copy of the shared card wins over the package's
    path.write_text((DEFAULTS / "card.yaml").read_text().replace("size: 8.5, min_size: 7,", "size: 8.5, min_size: 6,", 1))
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ValidationFailed) as failed:
        Templates(tmp_path / "templates").get("magicka-mayhem/spell")
    [problem] = [str(p) for p in failed.value.problems]
    line = next(i for i, row in enumerate(path.read_text().splitlines(), 1) if "min_size: 6," in row)
    assert problem.startswith(f"templates/card.yaml:{line}:") and "boxes.body.min_size" in problem and "7" in problem


def test_an_icon_file_whose_yaml_error_has_no_position_is_a_problem_not_a_crash(tmp_path, monkeypatch):
    """PyYAML's marks are optional: an error without one was an AttributeError (mypy found it);
    now it is said at line 0, as the core says a position it does not know."""
    import yaml

    from spellpress.core import ValidationFailed
    from spellpress.press.drawing import icons
    from spellpress.press.drawing.icons import IconSet

    def broken(*args, **kwargs):
        raise yaml.MarkedYAMLError(problem="found something broken")

    path = tmp_path / "icons.yaml"
    path.write_text("star: []\n")
    monkeypatch.setattr(icons.yaml, "load", broken)
    with pytest.raises(ValidationFailed) as failed:
        IconSet.load(path)
    [problem] = failed.value.problems
    assert (problem.line, problem.column) == (0, 0)
    assert problem.message == "YAML syntax error: found something broken"
