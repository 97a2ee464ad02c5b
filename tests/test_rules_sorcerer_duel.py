"""Sorcerer Duel's attack helper: blockers first, one target or the whole side, the rulebook's
examples, and bad inputs. Cards are found in the loaded game by what they carry."""

from __future__ import annotations

import pytest

from spellpress.core.games import ask, ruleset_of
from spellpress.core.games.sorcerer_duel.ruleset import one_target, whole_side
from spellpress.core.play.errors import Invalid

SLUG = "sorcerer-duel"


@pytest.fixture(scope="module")
def decks(game):
    """(the attacker's deck, the defender's deck)."""
    first, second = game.constants.player_decks[:2]
    return game.decks[first], game.decks[second]


def find(deck, kind, **want):
    return next(card for card in deck.cards if card.type == kind and all(card.get(k) == v for k, v in want.items()))


def spell(deck, damage=None, target="one"):
    cards = [card for card in deck.cards if card.type == "attack-spell" and card["target"] == target]
    return next(card for card in cards if damage is None or card["damage"] == damage)


def attack(game, **inputs):
    return ask(game, "attack", inputs)


def test_it_is_registered_and_lists_wounded_cards(game):
    fields = {f["name"]: f for f in ruleset_of(game).helpers["attack"].json(game)["fields"]}
    blockers = {o["value"] for o in fields["blockers"]["options"]}
    for card in (card for card in game.cards if card.type == "blocker"):
        assert card.id in blockers and f"{card.id}@1" in blockers and f"{card.id}@{card['health']}" not in blockers
    assert fields["health"]["default"] == game.constants.starting_health


def test_rulebook_a_side_attack_of_2_into_a_blocker_of_3_touches_nothing_else(game, decks):
    attacker, defender = decks
    heat = spell(attacker, target="side")
    blocker = next(card for card in defender.cards if card.type == "blocker" and card["health"] > heat["damage"])
    creature = find(defender, "creature")
    answer = attack(game, attack=heat.id, blockers=[blocker.id], creatures=[creature.id])
    assert [h["damage"] for h in answer["blockers"]] == [heat["damage"]]
    assert answer["creatures"][0]["damage"] == 0 and answer["sorcerer"]["damage"] == 0
    assert answer["verdict"] == f"{heat['damage']} damage: {heat['damage']} to the {blocker.name} blocker"


def test_rulebook_the_last_blocker_breaks_and_the_rest_is_shared(game, decks):
    # "If only 1 blocker left, the remaining 1 damage is split evenly among the remaining units":
    # 2 damage into a blocker with 1 health left; the 1 left over goes to one of the rest
    attacker, defender = decks
    heat = spell(attacker, damage=2, target="side")
    blocker = find(defender, "blocker")
    creature = next(card for card in defender.cards if card.type == "creature" and card["health"] > 1)
    answer = attack(game, attack=heat.id, blockers=[f"{blocker.id}@1"], creatures=[creature.id])
    assert answer["blockers"][0]["destroyed"] and answer["odd"] == 1
    assert answer["sorcerer"]["damage"] + answer["creatures"][0]["damage"] == 1
    assert any("attacker chooses" in line for line in answer["details"])


def test_rulebook_blockers_before_the_sorcerer_and_the_excess_goes_through(game, decks, c):
    attacker, defender = decks
    bolt = max((card for card in attacker.cards if card.type == "attack-spell" and card["target"] == "one"),
               key=lambda card: card["damage"])
    blocker = find(defender, "blocker")
    answer = attack(game, attack=bolt.id, blockers=[f"{blocker.id}@1"])
    assert answer["blockers"][0] == {"card": blocker.id, "name": blocker.name, "kind": "blocker", "from": 1, "to": 0,
                                     "damage": 1, "destroyed": True}
    assert answer["sorcerer"] == {"from": c.starting_health, "to": c.starting_health - bolt["damage"] + 1, "damage": bolt["damage"] - 1}
    assert answer["verdict"] == (f"{bolt['damage']} damage: 1 to the {blocker.name} blocker (destroyed), "
                                 f"{bolt['damage'] - 1} to the sorcerer")


def test_an_attack_spell_reaches_the_sorcerer_past_creatures(game, decks, c):
    attacker, defender = decks
    bolt = spell(attacker)
    answer = attack(game, attack=bolt.id, creatures=[find(defender, "creature").id])
    assert answer["sorcerer"]["damage"] == bolt["damage"] and answer["creatures"][0]["damage"] == 0


def test_a_creature_attacking_a_creature_loses_what_is_past_its_health(game, decks, c):
    attacker, defender = decks
    biter = max((card for card in attacker.cards if card.type == "creature"), key=lambda card: card["attack"])
    victim = next(card for card in defender.cards if card.type == "creature" and card["health"] < biter["attack"])
    answer = attack(game, attack=biter.id, target=victim.id, creatures=[victim.id])
    assert answer["creatures"][0]["destroyed"] and answer["lost"] == biter["attack"] - victim["health"]
    assert answer["draws"] == c.draws_on_creature_death and answer["sorcerer"]["damage"] == 0


def test_a_whole_side_without_blockers_is_shared_and_the_weak_take_only_what_they_need():
    # 7 over a creature of 1 and two of 5 and the sorcerer: the 1 dies on 1, the other 6 share out 2 each
    blow = whole_side(7, [], [1, 5, 5])
    assert (blow.creatures, blow.sorcerer, blow.odd) == ((1, 2, 2), 2, 0)
    odd = whole_side(5, [], [4, 4])
    assert (odd.creatures, odd.sorcerer, odd.odd) == ((2, 1), 2, 2)
    assert one_target(3, [1, 1], [2], None).blockers == (1, 1)


def test_the_sorcerer_at_zero_loses(game, decks):
    attacker, _ = decks
    bolt = spell(attacker)
    answer = attack(game, attack=bolt.id, health=bolt["damage"])
    assert answer["won"] and answer["verdict"].endswith("the duel is won")


@pytest.mark.parametrize("make, reason", [
    (lambda a, d: {"attack": "nope"}, "Attack spell or attacking creature: choose one of"),
    (lambda a, d: {"attack": spell(a).id, "health": 0}, "The sorcerer's health: 1 to"),
    (lambda a, d: {"attack": spell(a).id, "health": 99}, "The sorcerer's health: 1 to"),
    (lambda a, d: {"attack": spell(a).id, "blockers": "wall"}, "Blockers on the side: choose from"),
    (lambda a, d: {"attack": spell(a).id, "blockers": [find(d, "creature").id]}, "Blockers on the side: choose from"),
    (lambda a, d: {"attack": spell(a).id, "target": find(d, "creature").id}, "not among the side's creatures"),
    (lambda a, d: {"attack": spell(a, target="side").id, "target": "sorcerer"}, "choose no target"),
    (lambda a, d: {"attack": spell(a).id, "creatures": [find(a, "creature").id]}, "each player plays their own deck"),
    (lambda a, d: {"attack": spell(a).id, "creatures": [find(d, "creature").id], "blockers": [find(a, "blocker").id]},
     "from one deck"),
    (lambda a, d: {"attack": spell(a).id, "blockers": [find(d, "blocker").id] * (find(d, "blocker").count + 1)},
     "at most|but the"),
    (lambda a, d: {"attack": spell(a).id, "mana": 2}, "asks something the question does not"),
])
def test_bad_inputs_are_refused_with_a_reason(game, decks, make, reason):
    with pytest.raises(Invalid, match=reason):
        attack(game, **make(*decks))


def test_a_side_holds_no_more_copies_than_the_deck(game, decks):
    attacker, defender = decks
    creature = next(card for card in defender.cards if card.type == "creature" and card.count == 1 and card["health"] > 1)
    with pytest.raises(Invalid, match=f"the side holds 2 {creature.name}, but the {defender.name} has 1"):
        attack(game, attack=spell(attacker).id, creatures=[creature.id, f"{creature.id}@1"])
