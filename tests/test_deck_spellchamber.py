"""Spellchamber's decks are complete and playable (issue 6).

Every scenario's chamber can be loaded and its spells laid out for every player count of its
deck; the ammo cards cover the largest chamber; the decks have the sizes the issue asks for;
the beginner's card is there, numbered and gentle; wizards carry a reminder on the front and
a power on the back. The figures are searched from the cards, never copied into the test.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

from spellpress import defaults
from spellpress.cli import catalog
from spellpress.core import load_game, table
from spellpress.press.drawing.displaylist import Text
from spellpress.press.drawing.icons import IconSet
from spellpress.press.drawing.layout import Layouter
from spellpress.press.drawing.templates import Templates

SLUG = "spellchamber"
TEMPLATES = Path(__file__).resolve().parent.parent / "templates"


@pytest.fixture(scope="module")
def game(cards_dir):
    # this game alone, so that another game's work in progress cannot hide these checks
    return load_game(cards_dir / SLUG)


def scenarios(game):
    """(scenario deck's key, its spec, card) for every scenario card of every scenario deck."""
    c = game.constants
    return [(key, spec, card) for key, spec in c.scenario_decks.items() for card in game.decks[spec.deck].cards]


def player_counts(spec):
    return range(spec.players.min, spec.players.max + 1)


def spell_cards(game):
    """The spell deck as it is shuffled: one entry per printed copy."""
    return [card for card in game.decks[game.constants.spell_deck].cards for _ in range(card.count)]


def chamber(game, card) -> Counter:
    return Counter({kind: card[kind] for kind in game.constants.ammo})


def ammo_supply(game) -> Counter:
    supply = Counter()
    for card in game.decks[game.constants.ammo_deck].cards:
        supply[card["kind"]] += card.count
    return supply


def most_cards_held(slot_copies: Counter, players: int, slots: int) -> int:
    """The most spell cards `players` players can hold at once with `slots` slots each, drawn
    from a deck with `slot_copies[n]` cards of n slots: an exact search over every way each
    player can fill their slots."""
    sizes = sorted(slot_copies)
    fills = [
        fill
        for fill in itertools.product(*(range(min(slot_copies[s], slots // s) + 1) for s in sizes))
        if sum(n * s for n, s in zip(fill, sizes)) <= slots
    ]

    @cache
    def best(left: int, remaining: tuple[int, ...]) -> int:
        if left == 0:
            return 0
        return max(
            sum(fill) + best(left - 1, tuple(r - n for r, n in zip(remaining, fill)))
            for fill in fills
            if all(n <= r for n, r in zip(fill, remaining))
        )

    return best(players, tuple(slot_copies[s] for s in sizes))


def printed_text(game, card, back: bool = False) -> str:
    """Everything a card's face (or its own back) prints, as one line of words."""
    layouter = Layouter(game, IconSet.load(defaults.find(TEMPLATES, "icons.yaml")))
    ctype = game.card_types[card.type]
    drawing = layouter.draw(layouter.card_face(card), Templates(TEMPLATES).get(ctype.back if back else ctype.template))
    assert layouter.problems == []
    return " ".join(" ".join(item.text for item in drawing.items if isinstance(item, Text)).split())


def words(text: str) -> str:
    return " ".join(text.split())


# -- the decks the issue asks for


def test_the_list_shows_the_sizes_the_issue_asks_for(game):
    [entry] = json.loads(json.dumps(catalog((game,))))["games"]  # what `spellpress list --json` prints
    decks = {d["id"]: (d["unique"], d["total"]) for d in entry["decks"]}
    c = game.constants
    assert decks[c.spell_deck][0] == 12  # the twelve spells of the base set
    for spec in c.scenario_decks.values():
        assert decks[spec.deck] == (c.scenarios_per_deck, c.scenarios_per_deck) == (12, 12)
    assert decks["wizards"][0] >= 4
    assert decks[c.ammo_deck][0] == len(c.ammo)  # one card for each kind of ammo, in copies
    assert sum(total for _, total in decks.values()) == entry["total"]


def test_no_two_cards_share_an_id_or_a_name(game):
    for attribute in ("id", "name"):
        values = [getattr(card, attribute) for card in game.cards]
        assert [v for v, n in Counter(values).items() if n > 1] == []


def test_the_spells_of_the_base_set(game):
    spells = game.decks[game.constants.spell_deck].cards
    assert len(spells) == len({card.name for card in spells}) == 12
    slots = {card.name: card["slots"] for card in spells}
    assert slots["Mind Control"] == 2 and slots["Sleep Magic"] == 3
    kinds = Counter(card["kind"] for card in spell_cards(game))
    assert set(kinds) == {"regular", "hybrid", "powered"}
    for card in spells:
        assert 1 <= card["slots"] <= game.constants.spell_slots
        assert bool(card.get("powered_text")) == (card["kind"] == "hybrid"), card.id


def test_scenario_decks_are_numbered_one_to_twelve(game):
    c = game.constants
    for spec in c.scenario_decks.values():
        numbers = sorted(card["number"] for card in game.decks[spec.deck].cards)
        assert numbers == list(range(1, c.scenarios_per_deck + 1))
        for card in game.decks[spec.deck].cards:  # printed on the card as 'n/12'
            assert f"{card['number']}/{c.scenarios_per_deck}" in printed_text(game, card).split()


def test_wizards_have_a_reminder_in_front_and_a_power_on_the_back(game):
    wizards = game.decks["wizards"].cards
    assert len(wizards) >= 4
    assert len({card["power_name"] for card in wizards}) == len(wizards)  # every power its own
    assert game.card_types["wizard"].back == "spellchamber/wizard-back"
    for card in wizards:
        front, back = printed_text(game, card), printed_text(game, card, back=True)
        assert words(card["reminder"]) in front and words(card["power"]) not in front
        assert words(card["power"]) in back and card["power_name"] in back


def test_table_cards_cover_the_most_players(game):
    most = game.players.max
    table_cards = game.decks["table"].cards
    count = Counter()
    for card in table_cards:
        count[card.type] += card.count
    assert count["gun"] == 1
    # the game ends when one wizard is left, so at most all but one player become ghosts
    assert count["ghost"] == most - 1 == 3
    assert most >= game.constants.ghosts_from_players  # ghosts are possible at all
    assert count["life-tracker"] >= most  # every player may be without a die


# -- the checks of issue 6


@pytest.mark.parametrize("deck_key", ["duel", "group"])
def test_every_chamber_is_non_empty(game, deck_key):
    spec = game.constants.scenario_decks[deck_key]
    for card in game.decks[spec.deck].cards:
        loaded = chamber(game, card)
        assert min(loaded.values()) >= 0 and sum(loaded.values()) > 0, card.id


def test_the_spells_can_be_laid_out_for_every_player_count(game):
    deck = spell_cards(game)
    for _, spec, card in scenarios(game):
        for players in player_counts(spec):
            grid = card["spells_per_player"] * players
            assert grid <= len(deck), (card.id, players)
            # drafted one at a time in turn until the grid is empty: each player gets the same
            turns = Counter(i % players for i in range(grid))
            assert set(turns.values()) == {card["spells_per_player"]}


def test_every_drafted_set_fits_a_wizards_empty_slots(game):
    """The slot rule lets a wizard discard to make room, but a round's draft alone never
    forces it: every set of spells a player can draft in one round, searched over every
    combination of the deck's cards, fits in empty slots."""
    deck = spell_cards(game)
    slots = game.constants.spell_slots
    assert all(card["slots"] <= slots for card in deck)  # any single spell fits somehow
    for per_player in sorted({card["spells_per_player"] for _, _, card in scenarios(game)}):
        worst = max(sum(card["slots"] for card in drafted) for drafted in itertools.combinations(deck, per_player))
        assert worst <= slots, f"{per_player} spells can take {worst} slots, more than {slots}"
    # the figure the designer's note gives: three drafted spells fill the slots exactly
    assert max(card["spells_per_player"] for _, _, card in scenarios(game)) == 3
    assert max(sum(card["slots"] for card in d) for d in itertools.combinations(deck, 3)) == slots


def test_the_spell_deck_deals_the_grid_even_while_every_player_hoards(game):
    """Held spells are out of the deck and its discard pile: even when every player (ghosts
    too) holds as many cards as their slots allow, the rest still deals the largest grid."""
    deck = spell_cards(game)
    slot_copies = Counter(card["slots"] for card in deck)
    slots = game.constants.spell_slots
    held = {n: most_cards_held(slot_copies, n, slots) for n in range(2, game.players.max + 1)}
    assert held == {2: 16, 3: 22, 4: 26}  # all the one-slot spells first, then two-slot ones
    for _, spec, card in scenarios(game):
        for players in player_counts(spec):
            assert len(deck) - held[players] >= card["spells_per_player"] * players, (card.id, players)


def test_the_search_for_hoarded_spells_is_exact():
    # two-slot cards only: 4 per player; ones and threes: 8 = 1+1+3+3 or eight ones
    assert most_cards_held(Counter({2: 20}), 2, 8) == 8
    assert most_cards_held(Counter({1: 2, 3: 10}), 1, 8) == 4
    assert most_cards_held(Counter({1: 2, 3: 10}), 2, 8) == 6  # 1+1+3+3, then 3+3
    assert most_cards_held(Counter({1: 20}), 3, 8) == 20


def test_the_ammo_supply_covers_the_largest_chamber_of_each_kind(game):
    supply = ammo_supply(game)
    assert set(supply) == set(game.constants.ammo)
    largest = Counter()
    for _, _, card in scenarios(game):
        largest |= chamber(game, card)  # the most of each kind any one scenario loads
    for kind in game.constants.ammo:
        assert supply[kind] >= largest[kind], kind
    assert supply == largest  # the designer's note: no spare cards, none missing
    biggest = max(sum(chamber(game, card).values()) for _, _, card in scenarios(game))
    assert sum(supply.values()) >= biggest


@pytest.mark.parametrize("deck_key", ["duel", "group"])
def test_the_beginners_card(game, deck_key):
    c = game.constants
    spec = c.scenario_decks[deck_key]
    [card] = [card for card in game.decks[spec.deck].cards if card["number"] == c.beginner_scenario]
    loaded = chamber(game, card)
    assert all(loaded[kind] >= 1 for kind in c.ammo)  # new players meet every kind of ammo
    assert loaded["live"] < loaded["magic"] + loaded["blank"]  # and lose little life doing it
    assert card["spells_per_player"] >= 2  # and have a choice in their first draft
    assert f"{c.beginner_scenario}/{c.scenarios_per_deck}" in printed_text(game, card).split()
    assert "on top" in card.flavor  # the card itself says where it goes
    # the companion offers it first
    option = table.game_options(game)[0]
    assert option.default(spec.players.min) == card.id


def test_the_rules_carry_a_designers_note(game):
    ids = [section.id for section in game.rules]
    assert "designers-note" in ids
    for section in game.rules:
        assert "{{" not in section.text and "}}" not in section.text
