"""Magicka Mayhem's rule helpers, held to the rulebook's own examples and to a brute-force search."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from pathlib import Path

import pytest

from spellpress.core import load_games
from spellpress.core.games import ask, ruleset_of
from spellpress.core.games.magicka_mayhem.helpers import Attack, Target, absorb, counter_damage, hit, pay
from spellpress.core.play.errors import Invalid

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def game():
    return next(g for g in load_games(ROOT / "cards") if g.slug == "magicka-mayhem")


def answer(game, helper, **inputs):
    return ask(game, helper, inputs)


# ---------------------------------------------------------------------------- can-cast


def test_fire_bolt_paid_with_raging_fire_and_limitless_lightning_wastes_one_lightning(game):
    a = answer(game, "can-cast", hand=["raging-fire", "limitless-lightning"], spell="fire-bolt")
    assert a["paid"] and a["wasted"] == {"Lightning": 1} and a["missing"] == {}
    assert [(p["card"], p["element"]) for p in a["pay"]] == [("raging-fire", "Fire"), ("limitless-lightning", "Lightning")]
    assert a["verdict"] == "Yes: pay with Raging Fire and Limitless Lightning; 1 Lightning wasted."


def test_the_payment_that_wastes_least_is_chosen_and_the_rest_kept(game):
    hand = ["limitless-lightning", "raging-fire", "fire", "fire", "lightning"]
    a = answer(game, "can-cast", hand=hand, spell="fire-bolt")
    assert a["paid"] and a["wasted"] == {}
    assert sorted(p["card"] for p in a["pay"]) == ["lightning", "raging-fire"], "fewest cards among the exact ones"
    assert sorted(a["kept"]) == ["fire", "fire", "limitless-lightning"]
    assert "nothing wasted" in a["verdict"]


def test_a_combo_worth_two_gives_two_of_one_element_and_is_never_split(game):
    a = answer(game, "can-cast", hand=["limitless-lightning-epic-earth", "earth"], spell="thunderclap")
    assert a["paid"] and a["wasted"] == {}
    assert [(p["card"], p["element"], p["worth"]) for p in a["pay"]] == [
        ("limitless-lightning-epic-earth", "Lightning", 2), ("earth", "Earth", 1)]
    alone = answer(game, "can-cast", hand=["limitless-lightning-epic-earth"], spell="thunderclap")
    assert not alone["paid"] and alone["missing"] == {"Earth": 1}
    assert alone["verdict"].startswith("No: 1 Earth short")


def test_a_wild_card_fills_a_gap_but_is_kept_when_a_plain_card_will_do(game):
    a = answer(game, "can-cast", hand=["blended", "fire", "lightning"], spell="fire-bolt")
    assert a["paid"] and ("blended", "Fire") in [(p["card"], p["element"]) for p in a["pay"]]
    assert "Blended Element as Fire" in a["verdict"]
    spare = answer(game, "can-cast", hand=["blended", "fire", "fire", "lightning"], spell="fire-bolt")
    assert spare["paid"] and spare["kept"] == ["blended"]


def test_the_wild_card_gives_only_the_elements_it_lists(game):
    listed = game.card("blended")["elements"]
    unlisted = [e.name for e in game.elements if e.name not in listed]
    assert unlisted, "the Blended card leaves some elements out"
    for element in unlisted:
        assert pay([game.card("blended")], [element]).missing == {element: 1}


def test_an_impossible_payment_says_what_is_missing(game):
    meteor = game.card("meteor")
    a = answer(game, "can-cast", hand=[], spell="meteor")
    assert not a["paid"] and a["missing"] == dict(Counter(meteor["cost"])) and a["pay"] == []
    b = answer(game, "can-cast", hand=["water", "shield"], spell="fire-bolt")
    assert b["missing"] == {"Fire": 2, "Lightning": 1} and b["kept"] == ["water", "shield"]


def _brute_force_waste(hand, cost):
    """Least waste over every choice of each card: unused or one of its elements (None if none pays)."""
    need, best = Counter(cost), None
    for choice in itertools.product(*[[None, *card["elements"]] for card in hand]):
        given = Counter()
        for card, element in zip(hand, choice):
            if element:
                given[element] += card["value"]
        if all(given[e] >= n for e, n in need.items()):
            waste = sum(card["value"] for card, e in zip(hand, choice) if e) - sum(need.values())
            best = waste if best is None else min(best, waste)
    return best


def test_the_search_matches_brute_force_on_random_hands(game):
    rng = random.Random(8)
    deck = [card for card in game.decks["elements"].cards for _ in range(card.count)]
    spells = [card for card in game.cards if card.get("cost")]
    for _ in range(150):
        hand, spell = rng.sample(deck, rng.randint(0, 6)), rng.choice(spells)
        payment, want = pay(hand, spell["cost"]), _brute_force_waste(hand, spell["cost"])
        assert payment.paid == (want is not None), (spell.id, [c.id for c in hand])
        if want is not None:
            assert sum(payment.wasted.values()) == want, (spell.id, [c.id for c in hand])


# ---------------------------------------------------------------------------- snap-spells


def test_snap_spells_of_a_hand_and_which_can_reflect(game):
    c = game.constants
    a = answer(game, "snap-spells", hand=["raging-fire", "cold", "cold", "shield", "water"])
    castable = {s["snap"]: s for s in a["snaps"] if s["castable"]}
    assert set(castable) == {"flickering-flame", "cold-cube"}
    assert castable["flickering-flame"]["pay"] == [{"card": "raging-fire", "name": "Raging Fire", "element": "Fire", "worth": 2}]
    assert castable["cold-cube"]["reflect"] and castable["flickering-flame"]["reflect"]
    assert a["verdict"] == "You can cast Flickering Flame and Cold Cube."
    no_shield = answer(game, "snap-spells", hand=["cold"] * c.snap_cost)
    assert [s["reflect"] for s in no_shield["snaps"] if s["castable"]] == [False]


def test_a_snap_spell_needs_identical_elements(game):
    a = answer(game, "snap-spells", hand=["fire", "cold", "fire-cold"])
    assert {s["snap"] for s in a["snaps"] if s["castable"]} == {"flickering-flame", "cold-cube"}
    none = answer(game, "snap-spells", hand=["fire", "cold"])
    assert not any(s["castable"] for s in none["snaps"]) and none["verdict"].startswith("No snap spell")


def test_extra_elements_for_a_growing_snap_spell_are_counted(game):
    a = answer(game, "snap-spells", hand=["shield", "stalwart-shield", "water-shield"])
    shield = next(s for s in a["snaps"] if s["snap"] == "shoddy-shield")
    assert shield["castable"] and shield["most"] == 4


# ---------------------------------------------------------------------------- snap-vs-spell


def test_cold_cube_counters_fire_bolt(game):
    a = answer(game, "snap-vs-spell", snap="cold-cube", spell="fire-bolt")
    half = counter_damage(game.constants, game.card("fire-bolt")["damage"])
    assert a["outcome"] == "countered" and half == 1
    assert a["caster"] == a["target"] == {"damage": half, "effects": True, "mayhem": True}
    assert a["mayhem"] == ["caster", "target"] and a["verdict"].startswith("Countered")


def test_flickering_flame_disrupts_fire_bolt(game):
    a = answer(game, "snap-vs-spell", snap="flickering-flame", spell="fire-bolt")
    assert a["outcome"] == "disrupted" and a["mayhem"] == []
    assert a["caster"] == a["target"] == {"damage": 0, "effects": False, "mayhem": False}


def test_cold_cube_with_a_shield_reflects_fire_bolt(game):
    a = answer(game, "snap-vs-spell", snap="cold-cube", shield=True, spell="fire-bolt")
    assert a["outcome"] == "reflected" and a["mayhem"] == ["caster"]
    assert a["caster"] == {"damage": game.card("fire-bolt")["damage"], "effects": True, "mayhem": True}
    assert a["target"] == {"damage": 0, "effects": False, "mayhem": False}


def test_fury_of_the_wizard_cannot_be_countered_disrupted_or_reflected(game):
    for snap in (s for s in game.cards if s.type == "snap"):
        for shield in (False, True):
            a = answer(game, "snap-vs-spell", snap=snap.id, shield=shield, spell="fury-of-the-wizard")
            assert a["outcome"] == "none" and a["target"]["damage"] == game.card("fury-of-the-wizard")["damage"]
            assert "cannot be countered, disrupted or reflected" in a["verdict"]


def test_a_shield_only_reflects_a_counter(game):
    a = answer(game, "snap-vs-spell", snap="flickering-flame", shield=True, spell="fire-bolt")
    assert a["outcome"] == "disrupted" and any("adds nothing" in d for d in a["details"])
    b = answer(game, "snap-vs-spell", snap="wet-willy", shield=True, spell="fire-bolt")
    assert b["outcome"] == "none" and b["mayhem"] == ["caster"] and b["target"]["effects"]


def test_an_odd_damage_halves_as_the_constants_say(game):
    c = game.constants
    a = answer(game, "snap-vs-spell", snap="baby-boulder", spell="thunderclap")
    damage = game.card("thunderclap")["damage"]
    assert a["outcome"] == "countered" and damage % c.counter_damage_divisor
    assert a["caster"]["damage"] == damage // c.counter_damage_divisor
    assert counter_damage(c.model_copy(update={"counter_damage_rounding": "up"}), damage) == -(-damage // c.counter_damage_divisor)


def test_summons_are_never_mustered_and_cannot_be_reflected(game):
    a = answer(game, "snap-vs-spell", snap="static-stunner", shield=True, spell="summon-magma-golem")
    assert a["outcome"] == "countered" and a["mayhem"] == [] and "no creature arrives" in a["verdict"]
    b = answer(game, "snap-vs-spell", snap="baby-boulder", spell="summon-magma-golem")
    assert b["outcome"] == "disrupted" and b["mayhem"] == []


# ---------------------------------------------------------------------------- damage


def test_a_barrier_of_2_against_3_damage_lets_1_through_and_breaks(game):
    a = answer(game, "damage", amount=3, barrier=2)
    assert (a["damage"], a["absorbed"], a["barrier"], a["broken"]) == (1, 2, 0, True)
    assert a["verdict"] == "1 damage to the wizard; the barrier absorbs 2 and breaks."
    assert absorb(2, 3) == (2, 1, 0) and absorb(4, 3) == (3, 0, 1)
    assert answer(game, "damage")["verdict"] == "No damage to the wizard.", "an untouched form answers"


def test_flickering_flame_dries_a_wet_wizard_without_damage(game):
    a = answer(game, "damage", source="flickering-flame", wet=True)
    assert a["damage"] == 0 and not a["wet"] and a["effects"] == ["dries"]
    dry = answer(game, "damage", source="flickering-flame")
    assert dry["damage"] == game.card("flickering-flame")["damage"] and dry["effects"] == []


def test_static_stunner_zaps_a_wet_target_and_cold_cube_freezes_it(game):
    c = game.constants
    zap = answer(game, "damage", source="static-stunner", wet=True)
    assert zap["damage"] == c.zap_damage and not zap["wet"] and zap["effects"] == ["zaps"]
    freeze = answer(game, "damage", source="cold-cube", wet=True)
    assert freeze["frozen"] and not freeze["wet"] and freeze["damage"] == 0
    assert not answer(game, "damage", source="cold-cube")["frozen"]


def test_a_shielded_target_is_spared_wet_effects_but_not_damage(game):
    a = answer(game, "damage", source="static-stunner", wet=True, barrier=3)
    assert a["spared"] == ["zaps"] and a["wet"] and a["absorbed"] == game.card("static-stunner")["damage"]
    b = answer(game, "damage", source="wet-willy", barrier=2)
    assert b["spared"] == ["wets"] and not b["wet"] and not b["broken"]


def test_a_spell_zapping_a_wet_target_adds_to_its_damage(game):
    c = game.constants
    a = answer(game, "damage", source="thunderclap", wet=True)
    assert a["damage"] == game.card("thunderclap")["damage"] + c.zap_damage and not a["wet"]
    steam = game.card("steam-blast")
    b = answer(game, "damage", source="steam-blast", wet=True)
    assert b["damage"] == steam["damage"] + steam["wet_bonus"] and b["effects"] == ["dries"]


def test_fire_bolt_doubles_once_against_a_wet_or_frozen_target(game):
    bolt = game.card("fire-bolt")
    assert answer(game, "damage", source="fire-bolt", wet=True)["damage"] == bolt["damage"] * bolt["wet_multiplier"]
    both = answer(game, "damage", source="fire-bolt", wet=True, frozen=True)
    assert both["damage"] == bolt["damage"] * max(bolt["wet_multiplier"], bolt["frozen_multiplier"])


def test_weak_creatures_take_double_and_immune_ones_none(game):
    c = game.constants
    flame = game.card("flickering-flame")["damage"]
    assert answer(game, "damage", source="flickering-flame", creature="summon-frigid-elemental")["damage"] == flame * c.weak_multiplier
    assert answer(game, "damage", source="flickering-flame", creature="summon-magma-golem")["damage"] == 0
    plain = answer(game, "damage", amount=3, creature="summon-frigid-elemental")
    assert plain["damage"] == 3, "plain damage holds no elements"
    one = hit(c, Attack(2, ("Fire", "Lightning")), Target(weak=("Fire",)))
    assert one.damage == 2, "one Fire is not two"


# ---------------------------------------------------------------------------- inputs


@pytest.mark.parametrize("helper, inputs, reason", [
    ("can-cast", {"hand": ["fire"], "spell": "fire-bolt", "mana": 3}, "asks something the question does not"),
    ("can-cast", {"hand": "fire", "spell": "fire-bolt"}, "Element cards in hand: choose from"),
    ("can-cast", {"hand": ["fireball"], "spell": "fire-bolt"}, "Element cards in hand: choose from"),
    ("can-cast", {"hand": ["fire"], "spell": "raging-fire"}, "Spell: choose one of"),
    ("can-cast", {"hand": ["fire"]}, "Spell: choose one"),
    ("can-cast", {"hand": ["raging-fire"] * 3, "spell": "meteor"}, "holds 3 Raging Fire, but the deck has only 2 copies"),
    ("can-cast", {"hand": ["limitless-lightning-epic-earth"] * 2, "spell": "meteor"}, "only 1 copy"),
    ("snap-spells", ["fire", "fire"], "could not be read"),
    ("snap-vs-spell", {"snap": "fire-bolt", "spell": "fire-bolt"}, "Snap spell: choose one of"),
    ("snap-vs-spell", {"snap": "cold-cube", "spell": "fire-bolt", "shield": "yes"}, "With a Shield element: yes or no"),
    ("damage", {"source": "fire-bolt", "amount": 2}, "not both"),
    ("damage", {"amount": 2, "barrier": -1}, "Target's barrier strength: 0 to"),
    ("damage", {"amount": 2.5}, "Plain damage: a whole number"),
    ("damage", {"amount": 2, "creature": "fire-bolt"}, "Target creature: choose one of"),
])
def test_bad_inputs_are_refused_with_a_reason(game, helper, inputs, reason):
    with pytest.raises(Invalid, match=reason.replace("(", r"\(").replace(")", r"\)")):
        ask(game, helper, inputs)


def test_the_inputs_come_from_the_yaml(game):
    found = ruleset_of(game).helpers
    assert set(found) == {"can-cast", "snap-spells", "snap-vs-spell", "damage"}
    hand = next(f for f in found["can-cast"].inputs(game) if f.name == "hand")
    elements = [card for card in game.cards if card.deck == "elements"]
    assert {o.value for o in hand.options} == {card.id for card in elements}
    assert hand.each == max(card.count for card in elements)
    spell = next(f for f in found["can-cast"].inputs(game) if f.name == "spell")
    assert {o.value for o in spell.options} == {card.id for card in game.cards if card.get("cost")}
    for helper in found.values():
        described = helper.json(game)
        assert described["fields"] and described["question"]
