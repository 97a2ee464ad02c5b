"""PowerMage 54's helpers: an attack and its defense, a health card, the empty draw deck.

Cards are found in the loaded game by their type and value; every number comes from the YAML.
"""

from __future__ import annotations

import pytest

from spellpress.core.games import ask, ruleset_of
from spellpress.core.games.powermage_54.ruleset import clash, halved
from spellpress.core.play.errors import Invalid

SLUG = "powermage-54"


def cards(game, kind):
    return [card for card in game.cards if card.type == kind]


def biggest(game, kind, key="value"):
    return max(cards(game, kind), key=lambda card: card[key])


def test_the_helpers_are_registered_with_forms_from_the_yaml(game, c):
    found = ruleset_of(game).helpers
    assert set(found) == {"attack", "heal", "empty-deck"}
    fields = {f["name"]: f for f in found["attack"].json(game)["fields"]}
    assert {o["value"] for o in fields["attack"]["options"]} == {card.id for card in cards(game, "attack")}
    assert {o["value"] for o in fields["attack_powermage"]["options"]} == {card.id for card in cards(game, "powermage")}
    assert fields["points"]["default"] == c.starting_points
    empty = found["empty-deck"].json(game)["fields"]
    assert len(empty) == game.players.max and [f["required"] for f in empty].count(True) == game.players.min
    assert [f["default"] for f in empty if f["required"]] == [c.starting_points] * game.players.min


def test_an_attack_thumped_with_a_powermage_shown_less_a_defense(game, c):
    attack, thump, mage = biggest(game, "attack"), biggest(game, "thump", "multiplier"), cards(game, "powermage")[0]
    defense = min(cards(game, "defense"), key=lambda card: card["value"])
    answer = ask(game, "attack", {"attack": attack.id, "attack_thump": thump.id, "attack_powermage": mage.id, "defense": defense.id})
    strength = attack["value"] * thump["multiplier"]
    damage = strength - defense["value"]
    assert (answer["strength"], answer["block"], answer["damage"]) == (strength, defense["value"], damage)
    assert answer["points"] == {"from": c.starting_points, "to": c.starting_points - damage}
    assert answer["verdict"] == f"{damage} damage: {c.starting_points} → {c.starting_points - damage} points"


def test_a_thumped_defense_can_block_it_all_and_never_heals(game):
    attack = min(cards(game, "attack"), key=lambda card: card["value"])
    defense, thump = biggest(game, "defense"), biggest(game, "thump", "multiplier")
    mages = cards(game, "powermage")
    answer = ask(game, "attack", {"attack": attack.id, "defense": defense.id, "defense_thump": thump.id,
                                  "defense_powermage": mages[1].id, "points": 30})
    assert answer["damage"] == 0 and answer["points"] == {"from": 30, "to": 30}
    assert any("never below 0" in line for line in answer["details"])


def test_an_attack_can_defeat_a_player_and_points_stop_at_zero(game):
    attack = biggest(game, "attack")
    answer = ask(game, "attack", {"attack": attack.id, "points": attack["value"] - 1})
    assert answer["points"]["to"] == 0 and answer["defeated"] and "defeated" in answer["verdict"]


def test_a_health_card_thumped(game, c):
    card, thump, mage = biggest(game, "health"), cards(game, "thump")[0], cards(game, "powermage")[0]
    answer = ask(game, "heal", {"health": card.id, "thump": thump.id, "powermage": mage.id, "points": c.starting_points})
    assert answer["amount"] == card["value"] * thump["multiplier"]
    assert answer["points"]["to"] == c.starting_points + answer["amount"]  # no upper limit


def test_an_empty_draw_deck_halves_everyone_rounding_down(game, c):
    # GUIDE: points start at 100, halving rounds down
    answer = ask(game, "empty-deck", {"points_1": c.starting_points, "points_2": 75, "points_3": 1})
    assert [p["to"] for p in answer["points"]] == [c.starting_points // c.empty_deck_divisor, 75 // c.empty_deck_divisor, 0]
    assert "player 3 defeated" in answer["verdict"]
    assert halved(75, 2) == 37 and clash(10, 2, 5).damage == 15


def test_a_thump_needs_a_powermage_shown(game):
    attack, thump = cards(game, "attack")[0], cards(game, "thump")[0]
    with pytest.raises(Invalid, match="the attack.s thump needs a PowerMage shown first: say which PowerMage was shown"):
        ask(game, "attack", {"attack": attack.id, "attack_thump": thump.id})
    with pytest.raises(Invalid, match="the health card.s thump needs a PowerMage shown first"):
        ask(game, "heal", {"health": cards(game, "health")[0].id, "thump": thump.id})


def test_a_card_is_not_used_more_often_than_the_deck_holds_it(game):
    mage = cards(game, "powermage")[0]
    with pytest.raises(Invalid, match=f"{mage.name} is used 2 times here, but the deck holds one"):
        ask(game, "attack", {"attack": cards(game, "attack")[0].id, "attack_powermage": mage.id, "defense_powermage": mage.id})


@pytest.mark.parametrize("helper, inputs, reason", [
    ("attack", {"attack": "nope"}, "Attack card: choose one of"),
    ("attack", {"attack": None}, "Attack card: choose one"),
    ("attack", {"attack": "ward"}, "Attack card: choose one of"),  # a defense card is no attack
    ("attack", {"points": 0}, "Attacked player's points: 1 to"),
    ("attack", {"points": 2.5}, "Attacked player's points: a whole number"),
    ("attack", {"defense_thump": "double-thump", "defense_powermage": "blister"}, "name the defense card too"),
    ("heal", {"health": "ward"}, "Health card: choose one of"),
    ("heal", {"extra": 1}, "asks something the question does not"),
    ("empty-deck", {"points_3": "10"}, "Player 3's points: a whole number"),
    ("empty-deck", {"points_1": -4, "points_2": 3}, "Player 1's points: 1 to"),
])
def test_bad_inputs_are_refused_with_a_reason(game, helper, inputs, reason):
    base = {"attack": {"attack": cards(game, "attack")[0].id}, "heal": {"health": cards(game, "health")[0].id},
            "empty-deck": {}}[helper]
    with pytest.raises(Invalid, match=reason):
        ask(game, helper, {**base, **inputs})
