"""Cards and aids say what the rules say (issue 14 part 7): Spellchamber's scenario cards and
quick reference describe the draft of the rules, and Powers Combined states its reading of
how the cave is built, which the core's deck check follows."""

from __future__ import annotations

from pathlib import Path

from spellpress import defaults
from spellpress.press.drawing.displaylist import Text
from spellpress.press.drawing.icons import IconSet
from spellpress.press.drawing.layout import Layouter
from spellpress.press.drawing.templates import Templates

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"


def printed(game, card) -> str:
    """The words a card's face prints, as one line."""
    layouter = Layouter(game, IconSet.load(defaults.find(TEMPLATES, "icons.yaml")))
    drawing = layouter.draw(layouter.card_face(card), Templates(TEMPLATES).get(game.card_types[card.type].template))
    return " ".join(" ".join(item.text for item in drawing.items if isinstance(item, Text)).split())


def section(game, section_id: str) -> str:
    return " ".join(next(s.text for s in game.rules if s.id == section_id).split())


def test_spellchamber_rules_deal_a_grid_face_down_then_draft_it(games):
    game = games["spellchamber"]
    preparing, draft = section(game, "preparing"), section(game, "spell-draft")
    assert "face down, in a grid" in preparing and "number of players (ghosts count)" in preparing
    assert "Turn the spells in the grid face up" in draft and "counter-clockwise" in draft


def test_spellchamber_quick_reference_describes_that_draft(games):
    game = games["spellchamber"]
    [aid] = [card for card in game.cards if card.id == "quick-reference"]
    text = printed(game, aid)
    assert "face down in a grid" in text and "ghosts too" in text
    assert "turn the grid face up" in text and "counter-clockwise" in text
    assert "deal its spells face up" not in text.lower() and "deal each" not in text.lower()


def test_spellchamber_scenario_cards_give_spells_per_player_not_a_deal(games):
    game = games["spellchamber"]
    for spec in game.constants.scenario_decks.values():
        for card in game.decks[spec.deck].cards:
            text = printed(game, card)
            assert "Spells per player" in text and "deal" not in text.lower(), (card.id, text)


def test_powers_combined_states_its_reading_of_the_cave_and_the_core_follows_it(games):
    game = games["powers-combined"]
    c = game.constants
    setup = section(game, "setup")
    # the printed rules' way, and ours, both said
    assert f"The printed rules shuffle the whole challenge deck and take the top {c.challenges_per_game}" in setup
    assert f"Sort the challenge cards into {len(c.levels)} piles by the level" in setup
    # each level is dealt from its own pile, as many as it has places: what the ruleset checks
    challenges = game.decks[c.challenge_deck].cards
    for number, level in enumerate(c.levels, start=1):
        places = level.last - level.first + 1
        assert f"challenges {level.first} to {level.last}, so {places} cards from its pile" in setup
        assert sum(card.count for card in challenges if card["level"] == number) >= places


def test_spellchamber_says_where_a_spells_slots_are_as_its_cards_show_them(games):
    """Issue 28, defect 5: the rules said a spell fills 'as many slots as the diamonds under its
    title'; a spell card shows one diamond with the number in it, at the top left corner."""
    game = games["spellchamber"]
    slots = Templates(TEMPLATES).get(game.card_types["spell"].template)
    box = dict(slots.boxes)["slots"]
    assert box.shape == "diamond" and box.x + box.w < slots.width / 3 and box.y + box.h < slots.height / 3
    said = " ".join(s.text for s in game.rules) + " ".join(text for _, text in game.glossary)
    assert "diamonds under" not in said
    assert "as many slots as the number in the diamond at its top left corner" in " ".join(said.split())
