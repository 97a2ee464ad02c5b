"""Card layouts: inheritance, and mistakes in them reported like mistakes in cards."""

import shutil

import pytest

from spellpress import defaults
from spellpress.cli import main
from spellpress.core import ValidationFailed
from spellpress.press.drawing.templates import Templates


@pytest.fixture()
def layouts(tmp_path, cards_dir):
    shutil.copytree(cards_dir.parent / "templates", tmp_path / "templates")
    return tmp_path / "templates"


def test_a_layout_inherits_its_parents_boxes_and_palette(layouts):
    spell = Templates(layouts).get("magicka-mayhem/spell")
    names = [name for name, _ in spell.boxes]
    assert names[:5] == ["background", "frame-grain", "inner-frame", "panel", "band"]  # from card.yaml, in its order
    assert "cost" in names and "damage" in names  # from spell.yaml
    assert spell.palette["frame"] == "#2e1f4d"  # magicka-mayhem/card.yaml over card.yaml
    assert (spell.width, spell.height, spell.bleed, spell.safe) == (63.5, 88.9, 3.175, 3.175)
    element = Templates(layouts).get("magicka-mayhem/element")
    assert "art" not in [name for name, _ in element.boxes]  # removed with `art: null`


def problems(layouts, name):
    with pytest.raises(ValidationFailed) as failed:
        Templates(layouts).get(name)
    return [str(p) for p in failed.value.problems]


def test_an_unknown_box_key_is_named_where_it_is_written(layouts, monkeypatch):
    monkeypatch.chdir(layouts.parent)
    path = layouts / "magicka-mayhem" / "spell.yaml"
    path.write_text(path.read_text().replace("shape: burst", "shpe: burst"))
    [problem] = problems(layouts, "magicka-mayhem/spell")
    line = next(i for i, text in enumerate(path.read_text().splitlines(), 1) if "shpe" in text)
    assert problem.startswith(f"templates/magicka-mayhem/spell.yaml:{line}:")
    assert problem.endswith("boxes.damage.shpe: unknown key 'shpe' (did you mean 'shape'?)")


def test_text_outside_the_safe_zone_is_refused(layouts, monkeypatch):
    monkeypatch.chdir(layouts.parent)
    path = layouts / "magicka-mayhem" / "mayhem.yaml"
    path.write_text(path.read_text().replace("body: {y: 45.6, h: 28.2}", "body: {y: 45.6, h: 28.2, x: 1}"))
    [problem] = problems(layouts, "magicka-mayhem/mayhem")
    assert problem.startswith("templates/magicka-mayhem/mayhem.yaml:")
    assert "the 'body' box (1, 45.6, 52.3 x 28.2 mm) reaches outside the safe zone" in problem


def test_a_missing_layout_is_named(layouts, monkeypatch):
    monkeypatch.chdir(layouts.parent)
    [problem] = problems(layouts, "magicka-mayhem/spel")
    assert problem == ("templates/magicka-mayhem/spel.yaml: no such layout 'magicka-mayhem/spel' "
                       "(named in decks.yaml) (did you mean 'magicka-mayhem/spell'?)")


def test_layouts_that_extend_each_other_in_a_circle(layouts, monkeypatch):
    monkeypatch.chdir(layouts.parent)
    (layouts / "a.yaml").write_text("extends: b\n")
    (layouts / "b.yaml").write_text("extends: a\n")
    assert problems(layouts, "a") == ["templates/b.yaml:1:10: extends: layouts extend each other in a circle: a -> b -> a"]


def test_validate_reports_text_that_does_not_fit_and_names_the_card(tmp_path, cards_dir, capsys, monkeypatch):
    shutil.copytree(cards_dir, tmp_path / "cards")
    shutil.copytree(cards_dir.parent / "templates", tmp_path / "templates")
    spells = tmp_path / "cards" / "magicka-mayhem" / "spells.yaml"
    spells.write_text(spells.read_text().replace("Double damage to wet or frozen targets.",
                                                 "Double damage to wet or frozen targets. " + "And more. " * 80))
    monkeypatch.chdir(tmp_path)
    assert main(["validate"]) == 1
    err = capsys.readouterr().err
    line = next(i for i, text in enumerate(spells.read_text().splitlines(), 1) if "id: fire-bolt" in text)
    assert err.startswith(f"cards/magicka-mayhem/spells.yaml:{line}:5: card 'fire-bolt', box 'body' of layout "
                          "magicka-mayhem/spell: the text does not fit its box")
    assert "even at 7 pt; shorten it" in err  # no rules text below 7 pt (issue 14)


def _layouter(game):
    from spellpress.press.drawing.icons import IconSet
    from spellpress.press.drawing.layout import Layouter

    return Layouter(game, IconSet.load(defaults.TEMPLATES / "icons.yaml"))


def _texts(drawing):
    from spellpress.press.drawing.displaylist import Text

    return [item.text for item in drawing.items if isinstance(item, Text)]


def test_a_track_counts_from_the_games_constants(games, layouts):
    game = games["spellchamber"]
    layouter = _layouter(game)
    card = next(c for c in game.cards if c.type == "life-tracker")
    drawing = layouter.draw(layouter.card_face(card), Templates(layouts).get("spellchamber/life-tracker"))
    numbers = [t for t in _texts(drawing) if t.isdigit()]
    c = game.constants
    assert numbers[-c.die_sides:] == [str(n) for n in range(c.die_sides, 0, -1)]  # the track is drawn last
    assert layouter.problems == []


def test_when_tests_a_value_and_before_draws_underneath(games, layouts):
    (layouts / "t.yaml").write_text(
        "extends: magicka-mayhem/card\n"
        "boxes:\n"
        "  bolt-note: {kind: text, text: 'A bolt', when: kind=bolt, x: 5, y: 60, w: 50, h: 5}\n"
        "  other-note: {kind: text, text: 'Not a bolt', when: kind!=bolt, x: 5, y: 60, w: 50, h: 5}\n"
        "  under: {kind: rect, before: panel, x: 0, y: 0, w: 10, h: 10, fill: accent}\n")
    layout = Templates(layouts).get("t")
    names = [n for n, _ in layout.boxes]
    assert names.index("under") == names.index("panel") - 1
    game = games["magicka-mayhem"]
    layouter = _layouter(game)
    assert "A bolt" in " ".join(_texts(layouter.draw(layouter.card_face(game.card("fire-bolt")), layout)))
    assert "Not a bolt" in " ".join(_texts(layouter.draw(layouter.card_face(game.card("healing-rain")), layout)))


def test_an_unknown_placeholder_in_a_layout_is_a_problem(games, layouts):
    (layouts / "t.yaml").write_text("extends: magicka-mayhem/card\nboxes:\n  title: {text: '{nmae}'}\n")
    game = games["magicka-mayhem"]
    layouter = _layouter(game)
    layouter.draw(layouter.card_face(game.card("fire-bolt")), Templates(layouts).get("t"))
    [problem] = layouter.problems
    assert "box 'title' of layout t: unknown placeholder '{nmae}' (did you mean 'name'?)" in problem.message


def test_double_asterisks_set_words_in_bold(games, layouts):
    from spellpress.press.drawing.displaylist import Text
    from spellpress.press.drawing.templates import Box

    layouter = _layouter(games["magicka-mayhem"])
    box = Box(kind="text", text="x", x=5, y=5, w=50, h=20)
    face = layouter.card_face(games["magicka-mayhem"].card("fire-bolt"))
    items = layouter.text("**Start:** plain **two words** end", 5, 5, 50, 20, box, (0, 0, 0), face)
    fonts_by_word = [(i.text, i.font) for i in items if isinstance(i, Text)]
    assert fonts_by_word == [("Start:", "bold"), ("plain", "regular"), ("two", "bold"), ("words", "bold"), ("end", "regular")]
