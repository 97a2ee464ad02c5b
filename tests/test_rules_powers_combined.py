"""Powers Combined's spell-power helper: the rulebook's sums, Double Up!, runes, dice and bad inputs.

Cards are found in the loaded game by what they carry (an element, a power, a modifier), never
by name, and every expected number is worked from the game's constants.
"""

from __future__ import annotations

import pytest

from spellpress.core.games import ask, ruleset_of
from spellpress.core.play.errors import Invalid

SLUG = "powers-combined"


def spell(game, **want):
    """The id of a spell card carrying every field of `want`."""
    return next(card.id for card in game.cards if card.type == "spell" and all(card.get(k) == v for k, v in want.items()))


def challenge(game, level=1, **want):
    return next(card for card in game.cards if card.type == "challenge" and card["level"] == level
                and all(card.get(k) == v for k, v in want.items()))


def neutral(c, foe):
    """An element the challenge `foe` is neither weak to nor resists."""
    m = c.matchups[foe]
    return next(e for e in c.matchups if e not in m.weak_to and e not in m.resists)


def spell_power(game, **inputs):
    return ask(game, "spell-power", inputs)


def test_it_is_registered_and_its_form_comes_from_the_yaml(game, c):
    helper = ruleset_of(game).helpers["spell-power"]
    fields = {f["name"]: f for f in helper.json(game)["fields"]}
    assert [o["value"] for o in fields["challenge_modifiers"]["options"]] == [m.name for m in c.modifiers]
    assert fields["runes"]["most"] == c.rune_spend_limit
    assert {o["value"] for o in fields["challenge"]["options"]} == {card.id for card in game.cards if card.type == "challenge"}
    assert fields["roll_1"]["max"] == c.die_sides and not fields["roll_1"]["required"]


def test_the_rulebooks_example_3_plus_2_then_weakness_or_resistance(game, c):
    # rules.yaml, "Working out the total": a power of 3 with +2 is 5; x weakness; / resistance, rounding down
    foe = challenge(game)
    element = foe["element"]
    power, plus = spell(game, power=3), spell(game, modifier="+2 Power")
    weak, resisted = c.matchups[element].weak_to[0], c.matchups[element].resists[0]
    cases = [(weak, 5 * c.weakness_multiplier, "weak"), (resisted, 5 // c.resistance_divisor, "resists"),
             (neutral(c, element), 5, "none")]
    for spell_element, total, relation in cases:
        answer = spell_power(game, challenge=foe.id, element=spell(game, element=spell_element), power=power, modifier=plus)
        assert answer["total"] == {"low": total, "high": total}, spell_element
        assert answer["spells"][0]["modified"]["low"] == 5 and answer["spells"][0]["matchup"] == relation
        assert answer["cleared"] == (total >= foe["power"])
        assert answer["verdict"].startswith("Cleared" if total >= foe["power"] else f"Short by {foe['power'] - total}")
        assert any(f"= {total}" in line or f": {total}" in line for line in answer["details"])


def test_modifiers_come_before_the_weakness(game, c):
    foe = challenge(game)
    weak = c.matchups[foe["element"]].weak_to[0]
    answer = spell_power(game, challenge=foe.id, element=spell(game, element=weak), power=spell(game, power=2),
                         modifier=spell(game, modifier="2x Power"), runes=["+1 Power"])
    # (2 x 2 + 1) x weakness, not 2 x weakness x 2 + 1
    assert answer["total"]["low"] == (2 * 2 + 1) * c.weakness_multiplier
    assert [s["power"]["low"] for s in answer["spells"][0]["steps"]] == [4, 5]


def test_a_double_up_past_the_limit_counts_as_the_fallback(game, c):
    foe = challenge(game)
    other = neutral(c, foe["element"])
    answer = spell_power(game, challenge=foe.id, element=spell(game, element=other), power=spell(game, power=3),
                         modifier=spell(game, modifier="Double Up!"), runes=["Double Up!"])
    steps = answer["spells"][0]["steps"]
    assert steps[0]["double_up"] and not steps[1]["double_up"] and steps[1]["counts_as"] == c.double_up_fallback
    assert answer["total"]["low"] == 3 * 2  # the fallback is 2x Power
    assert answer["second_spell_open"] and any("second spell" in line for line in answer["details"])


def test_a_double_up_adds_a_second_spell(game, c):
    foe = challenge(game, level=1)
    other = neutral(c, foe["element"])
    answer = spell_power(
        game, challenge=foe.id, element=spell(game, element=other), power=spell(game, power=4, modifier="+2 Power"),
        modifier=spell(game, modifier="Double Up!"),
        second_element=spell(game, element=other, modifier="+1 Power"), second_power=spell(game, power=5),
        second_modifier=spell(game, modifier="+3 Power"),
    )
    assert [s["total"]["low"] for s in answer["spells"]] == [4, 8]
    assert answer["total"]["low"] == 12 and not answer["second_spell_open"]
    with pytest.raises(Invalid, match="no Double Up! to cast it"):
        spell_power(game, challenge=foe.id, element=spell(game, element=other), power=spell(game, power=4),
                    modifier=spell(game, modifier="+1 Power"), second_element=spell(game, element=other, modifier="+1 Power"),
                    second_power=spell(game, power=5), second_modifier=spell(game, modifier="+3 Power"))


def test_a_challenge_takes_its_levels_modifiers_and_a_double_up_doubles_power_and_reward(game, c):
    level = next(i for i, lv in enumerate(c.levels, start=1) if lv.modifiers == 1)
    foe = challenge(game, level=level)
    other = neutral(c, foe["element"])
    cards = dict(element=spell(game, element=other), power=spell(game, power=6), modifier=spell(game, modifier="+1 Power"))
    answer = spell_power(game, challenge=foe.id, challenge_modifiers=["Double Up!"], **cards)
    assert answer["target"]["low"] == foe["power"] * c.double_up_on_challenge
    assert answer["runes"] == foe["runes"] * c.double_up_on_challenge
    with pytest.raises(Invalid, match=f"lays {c.levels[level - 1].modifiers} modifier"):
        spell_power(game, challenge=foe.id, **cards)


def test_a_wild_surge_takes_the_roll_given_or_tries_every_face(game, c):
    foe = challenge(game)
    other = neutral(c, foe["element"])
    power = foe["power"] - 3  # cleared on a roll of 3 or more
    cards = dict(challenge=foe.id, element=spell(game, element=other), power=spell(game, power=power),
                 modifier=spell(game, modifier="Wild Surge"))
    rolled = spell_power(game, roll_1=2, **cards)
    assert rolled["total"] == {"low": power + 2, "high": power + 2} and not rolled["cleared"]
    assert rolled["verdict"].startswith("Short by 1")
    open_ = spell_power(game, **cards)
    assert open_["total"] == {"low": power + 1, "high": power + c.die_sides}
    clearing = c.die_sides - 2
    assert open_["chance"]["numerator"] * c.die_sides == clearing * open_["chance"]["denominator"]
    assert f"Cleared on {clearing} of the {c.die_sides} faces" in open_["verdict"]
    with pytest.raises(Invalid, match="take 1"):
        spell_power(game, roll_1=2, roll_2=3, **cards)
    with pytest.raises(Invalid, match="take none"):
        spell_power(game, roll_1=2, **{**cards, "modifier": spell(game, modifier="+1 Power")})


def test_a_challenges_wild_surge_roll_raises_its_power(game, c):
    level = next(i for i, lv in enumerate(c.levels, start=1) if lv.modifiers == 1)
    foe = challenge(game, level=level)
    cards = dict(challenge=foe.id, challenge_modifiers=["Wild Surge"], element=spell(game, element=neutral(c, foe["element"])),
                 power=spell(game, power=6), modifier=spell(game, modifier="+1 Power"))
    assert spell_power(game, challenge_roll_1=4, **cards)["target"]["low"] == foe["power"] + 4
    assert spell_power(game, **cards)["target"] == {"low": foe["power"] + 1, "high": foe["power"] + c.die_sides}


def test_runes_stop_at_the_limit(game, c):
    foe = challenge(game)
    cards = dict(challenge=foe.id, element=spell(game, element="Fire"), power=spell(game, power=2),
                 modifier=spell(game, modifier="+1 Power"))
    with pytest.raises(Invalid, match=f"runes: at most {c.rune_spend_limit}"):
        spell_power(game, runes=["+1 Power"] * (c.rune_spend_limit + 1), **cards)


@pytest.mark.parametrize("inputs, reason", [
    ({"challenge": "nope"}, "Challenge: choose one of"),
    ({"element": 3}, "Element card: choose one of"),
    ({"runes": "+1 Power"}, "Modifiers flipped with runes: choose from"),
    ({"runes": ["+9 Power"]}, "Modifiers flipped with runes: choose from"),
    ({"roll_1": 0}, "Spell's roll 1: 1 to"),
    ({"roll_1": "4"}, "Spell's roll 1: a whole number"),
    ({"colour": "red"}, "asks something the question does not"),
    ({"second_element": "fireball"}, "a second spell needs all three of its cards"),
    ({"second_runes": ["+1 Power"]}, "the second spell's runes need the second spell's cards"),
])
def test_bad_inputs_are_refused_with_a_reason(game, inputs, reason):
    foe = challenge(game)
    base = dict(challenge=foe.id, element=spell(game, element="Fire"), power=spell(game, power=2),
                modifier=spell(game, modifier="+1 Power"))
    with pytest.raises(Invalid, match=reason):
        spell_power(game, **{**base, **inputs})


def test_one_card_counts_for_one_slot(game):
    single = next(card for card in game.cards if card.type == "spell" and card.count == 1)
    with pytest.raises(Invalid, match=f"{single.name} is in 2 slots"):
        spell_power(game, challenge=challenge(game).id, element=single.id, power=single.id, modifier=spell(game, modifier="+1 Power"))

def test_a_fresh_form_answers_at_once(game):
    answer = ask(game, "spell-power", {})
    assert answer["verdict"] and answer["details"][0].startswith("Challenge")
