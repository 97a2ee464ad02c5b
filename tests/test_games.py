"""The real `cards/`: every game loads into typed, immutable models that hold the rulebooks' numbers."""

import dataclasses
import re
import shutil

import pydantic
import pytest

from spellpress.core import ValidationFailed, load_game, load_games
from spellpress.core.games import RULESETS

SLUGS = ["magicka-mayhem", "powermage-54", "powers-combined", "sorcerer-duel", "spellchamber"]


def test_all_five_games_load(games):
    assert sorted(games) == SLUGS


@pytest.mark.parametrize("slug", SLUGS)
def test_constants_are_the_rulesets_typed_model(games, slug):
    game = games[slug]
    assert type(game.constants) is RULESETS[game.ruleset].constants
    assert game.ruleset == slug


@pytest.mark.parametrize("slug", SLUGS)
def test_every_card_type_is_used_and_every_deck_has_cards(games, slug):
    game = games[slug]
    used = {card.type for card in game.cards}
    assert used == set(game.card_types)
    for deck in game.decks.values():
        assert deck.cards and deck.total >= deck.unique > 0
        assert all(card.type in deck.types and card.deck == deck.id for card in deck.cards)


@pytest.mark.parametrize("slug", SLUGS)
def test_ids_and_names_are_unique(games, slug):
    cards = games[slug].cards
    assert len({c.id for c in cards}) == len(cards)
    assert len({c.name for c in cards}) == len(cards)


@pytest.mark.parametrize("slug", SLUGS)
def test_rule_text_is_rendered_and_repeats_no_rule_number(games, slug):
    for section in games[slug].rules:
        assert "{{" not in section.text and "{%" not in section.text
        literal = re.sub(r"\{\{.*?\}\}|\{%.*?%\}", "", section.source, flags=re.S)
        # Only 0 (dead, defeated) and "1/" of a divisor may stand as numbers in the prose.
        assert set(re.findall(r"\b\d+\b", literal)) <= {"0", "1"}, section.id


def test_magicka_mayhem_reads_as_the_rulebook(games):
    game = games["magicka-mayhem"]
    c = game.constants
    assert (c.starting_health, c.hand_limit) == (20, 10)
    assert dict(c.deal) == {"elements": 5, "spells": 3}
    assert dict(c.draw_per_turn) == {"elements": 2, "spells": 1}
    assert {frozenset(p) for p in c.opposed} == {
        frozenset({"Lightning", "Earth"}), frozenset({"Fire", "Cold"}), frozenset({"Life", "Arcane"})
    }
    assert [e.name for e in game.elements] == ["Fire", "Cold", "Water", "Lightning", "Earth", "Life", "Arcane", "Shield"]
    assert {(lv.id, lv.hits, lv.out_of) for lv in c.mayhem_levels} >= {("maximum", 1, 1), ("standard", 1, 2), ("minimum", 1, 6)}
    bolt = game.card("fire-bolt")
    assert bolt["cost"] == ("Fire", "Fire", "Lightning") and bolt.deck == "spells"
    blended = game.card("blended")
    assert blended.type == "wild" and len(blended["elements"]) == 6
    assert "20 health" in game.rule("setup").text


def test_spellchamber_reads_as_the_rulebook_and_guide(games):
    game = games["spellchamber"]
    c = game.constants
    assert (c.starting_life, c.spell_slots, c.max_extra_turns_per_turn) == (4, 8, 1)
    assert c.ammo["live"].life_loss == 1 and c.ammo["magic"].drafts == 1 and c.ammo["blank"].extra_turn_if_self
    for spec in c.scenario_decks.values():
        numbers = {card["number"] for card in game.decks[spec.deck].cards}
        assert c.beginner_scenario in numbers
        for card in game.decks[spec.deck].cards:
            assert card["live"] + card["magic"] + card["blank"] > 0
    slots = {card.name: card["slots"] for card in game.decks[c.spell_deck].cards}
    assert slots["Mind Control"] == 2 and slots["Sleep Magic"] == 3
    assert [(x.id, x.start) for x in game.counters] == [("life", 4)]


def test_powermage_54_reads_as_the_tutorial(games):
    c = games["powermage-54"].constants
    assert (c.starting_points, c.starting_hand, c.deck_size, c.empty_deck_divisor) == (100, 5, 54, 2)
    names = {card.name for card in games["powermage-54"].cards}
    assert {"Blister", "Annihilator"} <= names


def test_powers_combined_reads_as_the_rulebook(games):
    game = games["powers-combined"]
    c = game.constants
    assert (c.lives, c.hand_size, c.challenges_per_game, c.rune_tokens, c.rune_spend_limit) == (3, 5, 15, 12, 2)
    assert [(lv.first, lv.last, lv.modifiers) for lv in c.levels] == [(1, 5, 0), (6, 10, 1), (11, 15, 2)]
    assert "Double Up!" in {m.name for m in c.modifiers}
    elements = {e.name for e in game.elements}
    assert set(c.matchups) == elements
    for card in game.decks["spells"].cards:
        assert card["element"] in elements and card["power"] > 0


def test_sorcerer_duel_reads_as_the_rulebook(games):
    game = games["sorcerer-duel"]
    c = game.constants
    assert (c.starting_health, c.starting_hand, c.mana_per_turn, c.max_conversions, c.hand_limit) == (20, 5, 2, 2, 7)
    assert c.first_player_skips_draw is True
    assert len(c.player_decks) == 2 and all(d in game.decks for d in c.player_decks)
    assert {x.id: x.start for x in game.counters}["health"] == 20


def test_models_are_immutable(games):
    game = games["magicka-mayhem"]
    card = game.card("fire-bolt")
    with pytest.raises(dataclasses.FrozenInstanceError):
        card.count = 99
    with pytest.raises(TypeError):
        card.fields["damage"] = 99
    with pytest.raises(TypeError):
        game.decks["spells"] = None
    with pytest.raises(pydantic.ValidationError):
        game.constants.starting_health = 1
    with pytest.raises(TypeError):
        game.constants.deal["elements"] = 9


def test_a_changed_constant_changes_the_rule_text_cards_and_counters(cards_dir, tmp_path):
    copy = tmp_path / "magicka-mayhem"
    shutil.copytree(cards_dir / "magicka-mayhem", copy)
    game_yaml = copy / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("starting_health: 20", "starting_health: 27")
                         .replace("freeze_turns: 1", "freeze_turns: 2"))
    game = load_game(copy)
    assert "27 health" in game.rule("setup").text and "20 health" not in game.rule("setup").text
    assert {c.id: c.start for c in game.counters}["health"] == 27
    assert "freezes all opponents for 2 turn" in game.card("summon-frigid-elemental")["text"]


def test_loading_is_deterministic(cards_dir):
    first, second = load_games(cards_dir), load_games(cards_dir)
    assert first == second


def test_one_game_can_be_picked_and_a_wrong_name_is_told(cards_dir):
    assert [g.slug for g in load_games(cards_dir, ["spellchamber"])] == ["spellchamber"]
    with pytest.raises(ValidationFailed) as failed:
        load_games(cards_dir, ["spellchambre"])
    assert "no game 'spellchambre' (did you mean 'spellchamber'?)" in str(failed.value)
