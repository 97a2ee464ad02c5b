"""What `validate` says of a game's layouts before anything is drawn (issue 26, part 4): a
declared field that no layout draws, and layout mistakes found without drawing a card."""

from pathlib import Path

import pytest

from broken_cases import CASES, FIXTURES, build_case
from spellpress.cli import main


def _generic_with(tmp_path: Path, fields: str, cards: str) -> None:
    """The tiny game of YAML alone with these lines added to its card type's fields and its cards."""
    build_case(next(c for c in CASES if c.name == "end-never"), tmp_path)  # lays out tiny-generic
    game = tmp_path / "cards" / "tiny-generic"
    base = FIXTURES / "games" / "tiny-generic"
    for name in ("decks.yaml", "actions.yaml", "game.yaml"):
        (game / name).write_text((base / name).read_text())
    decks = (game / "decks.yaml").read_text().replace("      text: {type: text, required: true}\n",
                                                      "      text: {type: text, required: true}\n" + fields)
    (game / "decks.yaml").write_text(decks)
    (game / "actions.yaml").write_text((game / "actions.yaml").read_text() + cards)


def test_a_declared_field_no_layout_draws_is_a_warning_at_its_line(tmp_path, monkeypatch, capsys):
    _generic_with(tmp_path, "      power: {type: int, min: 0}\n      heal: {type: int, min: 0}\n",
                  "  - {id: bash, name: Bash, power: 3, heal: 1, text: 'Heal {{ heal }}.'}\n")
    monkeypatch.chdir(tmp_path)
    assert main(["validate", "cards"]) == 0
    err = capsys.readouterr().err
    warned = [line for line in err.splitlines() if "no layout" in line]
    # heal is printed by the card's text ({{ heal }}); power by nothing
    assert warned == ["warning: cards/tiny-generic/decks.yaml:7:7: card_types.action.fields.power: no layout of card type "
                      "'action' draws 'power' (card): show it in a box (`field: power` for a number or elements, '{power}' "
                      "in a text), or take it out if the cards need it not"]


def test_a_field_a_layout_draws_is_not_warned_of(tmp_path, monkeypatch, capsys):
    _generic_with(tmp_path, "      power: {type: int, min: 0}\n", "  - {id: bash, name: Bash, power: 3, text: Hit.}\n")
    layouts = tmp_path / "templates"
    layouts.mkdir()
    shared = (Path(__file__).parent.parent / "spellpress/defaults/templates/card.yaml").read_text()
    (layouts / "card.yaml").write_text(shared.replace(
        "boxes:\n", "boxes:\n  power: {kind: stat, field: power, x: 50, y: 14, w: 8, h: 8, fill: stat}\n", 1))
    monkeypatch.chdir(tmp_path)
    assert main(["validate", "cards"]) == 0
    assert "no layout" not in capsys.readouterr().err


@pytest.mark.parametrize("name", ["layout-unknown-field", "layout-unknown-colour", "layout-unknown-icon",
                                  "layout-unknown-placeholder"])
def test_layout_mistakes_are_found_before_any_card_is_drawn(name, tmp_path, monkeypatch, capsys):
    """With drawing by the broken layout itself broken, its mistakes are still all said, once:
    they are read from the layout and the game, not found by drawing each card with it."""
    from spellpress.press.drawing import layout

    case = next(c for c in CASES if c.name == name)
    build_case(case, tmp_path)
    monkeypatch.chdir(tmp_path)

    draw = layout.Layouter.draw

    def no_drawing(self, face, drawn_with):
        assert drawn_with.name != "tiny/spell", "a card was drawn with the broken layout"
        return draw(self, face, drawn_with)

    monkeypatch.setattr(layout.Layouter, "draw", no_drawing)
    assert main(["validate", "cards"]) == 1
    assert capsys.readouterr().err == (case / "expected.txt").read_text()
