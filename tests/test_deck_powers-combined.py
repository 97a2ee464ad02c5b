"""Powers Combined's decks are complete and playable (issue 6).

The box: 80 spell cards (element, power, modifier; Double Up! among the modifiers), 30 challenge
cards (element, power, rune reward, and the level whose pile they are dealt from), 12 rune
tokens and the Elemental Guide. Every challenge can be beaten by some legal hand and lost by
another, whatever its level lays on it; and the cave grows harder with depth.

The sums are the ruleset's own (`spellpress.core.games.powers_combined.ruleset`), which the
companion's calculator is to use as well.
"""

import itertools
import shutil
from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import repeat

import pytest

from spellpress.core import ValidationFailed, load_game
from spellpress.core.games.powers_combined.ruleset import (
    Challenge,
    Spell,
    cast,
    challenge_target,
    level_of,
    matchup,
    spell_totals,
)

SLUG = "powers-combined"


def spell_cards(game):
    """Every physical spell card, each copy once, as (element, power, modifier)."""
    deck = game.decks[game.constants.spell_deck]
    return [(card["element"], card["power"], card["modifier"]) for card in deck.cards for _ in range(card.count)]


def as_challenge(card, modifiers=()):
    return Challenge(element=card["element"], power=card["power"], runes=card["runes"], modifiers=tuple(modifiers))


# ---------------------------------------------------------------------------- the box


def test_the_box_holds_the_rulebooks_decks(game, c):
    decks = {deck.id: deck.total for deck in game.decks.values()}
    assert decks[c.spell_deck] == c.spell_cards == 80
    assert decks[c.challenge_deck] == c.challenge_cards == 30
    assert decks[c.rune_deck] == c.rune_tokens == 12
    assert "elemental-guide" in {card.id for card in game.decks["reference"].cards}


def test_every_spell_has_an_element_a_power_and_a_modifier_and_all_modifiers_are_dealt(game, c):
    elements = [e.name for e in game.elements]
    modifiers = {m.name for m in c.modifiers}
    cards = spell_cards(game)
    for element, power, modifier in cards:
        assert element in elements and power >= 1 and modifier in modifiers
    dealt = Counter(m for _, _, m in cards)
    assert set(dealt) == modifiers, "every modifier the rules describe is on some card"
    double_up = [m.name for m in c.modifiers if m.op == "double_up"]
    assert double_up == ["Double Up!"] and dealt["Double Up!"] >= 1
    # each element has the same spread, so no element is weaker than another
    spreads = {e: sorted((p, m) for el, p, m in cards if el == e) for e in elements}
    assert len({tuple(s) for s in spreads.values()}) == 1, spreads


def test_every_challenge_has_an_element_power_reward_and_a_level_with_enough_in_each_pile(game, c):
    elements = [e.name for e in game.elements]
    piles = Counter()
    for card in game.decks[c.challenge_deck].cards:
        assert card["element"] in elements and card["power"] >= 1 and card["runes"] >= 0
        assert 1 <= card["level"] <= len(c.levels)
        piles[card["level"]] += card.count
    for number, level in enumerate(c.levels, start=1):
        assert piles[number] >= level.last - level.first + 1, level.name
    assert sum(level.last - level.first + 1 for level in c.levels) == c.challenges_per_game


def test_no_two_cards_share_an_id_or_a_name(game):
    ids = Counter(card.id for card in game.cards)
    names = Counter(card.name for card in game.cards)
    assert [i for i, n in ids.items() if n > 1] == [] and [i for i, n in names.items() if n > 1] == []


def test_the_elemental_guide_covers_every_element(game, c):
    elements = [e.name for e in game.elements]
    assert list(c.matchups) == elements
    for foe, m in c.matchups.items():
        assert len(m.weak_to) == 1 and not set(m.weak_to) & set(m.resists), foe
    # every element is some challenge's weakness, so no element is only ever resisted
    assert sorted(e for m in c.matchups.values() for e in m.weak_to) == sorted(elements)
    guide = game.card("elemental-guide")["text"]
    for foe, m in c.matchups.items():
        assert f"{{{foe.lower()}}} {foe}" in guide and all(f"{{{e.lower()}}}" in guide for e in m.weak_to + m.resists)


# ---------------------------------------------------------------------------- the sums


def test_modifiers_come_first_then_weakness_or_resistance(c):
    # Lightning runs through Water: (3 + 2) x 2, not 3 x 2 + 2
    assert spell_totals(c, [Spell(element="Lightning", power=3, modifier="+2 Power")], "Water") == ((3 + 2) * c.weakness_multiplier,)
    # Fire resists Fire: (4 + 1) / 2, rounded down
    assert spell_totals(c, [Spell(element="Fire", power=4, modifier="+1 Power")], "Fire") == ((4 + 1) // c.resistance_divisor,)
    assert spell_totals(c, [Spell(element="Earth", power=4, modifier="2x Power")], "Fire") == (8,)
    assert matchup(c, "Frost", "Earth", 7) == 7 * c.weakness_multiplier
    with pytest.raises(ValueError, match="unknown element 'Ice'"):
        matchup(c, "Ice", "Earth", 7)


def test_wild_surge_takes_the_die_it_is_given(c):
    spell = [Spell(element="Earth", power=2, modifier="Wild Surge")]
    assert spell_totals(c, spell, "Fire", [5]) == (7,)
    with pytest.raises(ValueError, match="no rolls are left"):
        spell_totals(c, spell, "Fire", [])
    with pytest.raises(ValueError, match=f"1 to {c.die_sides}"):
        spell_totals(c, spell, "Fire", [c.die_sides + 1])


def test_double_up_casts_a_second_spell_once_a_turn(c):
    first = Spell(element="Water", power=1, modifier="Double Up!")
    second = Spell(element="Earth", power=5, modifier="Double Up!")  # past the limit: 2x Power
    totals = spell_totals(c, [first, second], "Fire")
    assert totals == (1 * c.weakness_multiplier, 5 * 2)
    outcome = cast(c, Challenge(element="Fire", power=12, runes=1), [first, second])
    assert outcome.total == 12 and outcome.cleared
    with pytest.raises(ValueError, match="no Double Up! to cast it"):
        spell_totals(c, [first, second, second], "Fire")
    with pytest.raises(ValueError, match="no Double Up! to cast it"):
        spell_totals(c, [Spell(element="Water", power=4, modifier="+1 Power"), second], "Fire")


def test_runes_add_modifiers_after_the_cards_and_at_most_the_limit(c):
    spell = Spell(element="Earth", power=3, modifier="+1 Power", runes=("2x Power",))
    assert spell_totals(c, [spell], "Fire") == ((3 + 1) * 2,)
    # a rune's Double Up! lets the party cast a second spell
    bought = Spell(element="Earth", power=3, modifier="+1 Power", runes=("Double Up!",))
    assert spell_totals(c, [bought, Spell(element="Earth", power=2, modifier="+1 Power")], "Fire") == (4, 3)
    too_many = Spell(element="Earth", power=3, modifier="+1 Power", runes=("+1 Power",) * (c.rune_spend_limit + 1))
    with pytest.raises(ValueError, match="runes spent"):
        spell_totals(c, [too_many], "Fire")


def test_a_double_up_on_a_challenge_doubles_power_and_reward_once(c):
    card = Challenge(element="Earth", power=8, runes=2, modifiers=("Double Up!", "Double Up!"))
    target = challenge_target(c, card)
    assert (target.power, target.runes) == (8 * c.double_up_on_challenge * 2, 2 * c.double_up_on_challenge)
    surge = challenge_target(c, Challenge(element="Earth", power=8, runes=2, modifiers=("+3 Power", "Wild Surge")), [4])
    assert (surge.power, surge.runes) == (15, 2)


def test_levels_follow_the_challenge_numbers(c):
    assert [level_of(c, n).modifiers for n in (1, 5, 6, 10, 11, 15)] == [0, 0, 1, 1, 2, 2]
    with pytest.raises(ValueError):
        level_of(c, c.challenges_per_game + 1)


# ---------------------------------------------------------------------------- beatable and losable
#
# A legal hand is one spell (three different spell cards: one for its element, one for its
# power, one for its modifier), or, when that spell's modifier is a Double Up!, that spell and a
# second one of three more cards, whose own Double Up! would count as the fallback. Runes are
# left out: the pot may be empty. The level's modifiers come off the spell deck, so the hand
# must be made of the cards left: we ask for a hand that is there whichever cards were laid
# on the challenge (Hall's condition with that many cards taken away), and we take the dice
# at their worst for the party when it should win and at their best when it should lose.


def slot_value(card, slot):
    field, value = slot
    return card[("element", "power", "modifier").index(field)] == value


@cache
def _cover(cards, slots):
    return sum(1 for card in cards if any(slot_value(card, s) for s in slots))


def always_there(cards, slots, taken):
    """Whichever `taken` cards are gone, distinct cards can still fill every slot: each set of
    slots must be fillable from at least that many cards plus `taken`."""
    for r in range(1, len(slots) + 1):
        for chosen in itertools.combinations(slots, r):
            if _cover(cards, tuple(sorted(chosen, key=str))) < r + taken:
                return False
    return True


def hands(c, cards):
    """Every kind of legal hand: a tuple of Spells, and the slots its cards fill."""
    elements = sorted({e for e, _, _ in cards})
    powers = sorted({p for _, p, _ in cards})
    modifiers = sorted({m for _, _, m in cards})
    doublers = [m.name for m in c.modifiers if m.op == "double_up" and m.name in modifiers]
    singles = [(Spell(element=e, power=p, modifier=m), (("element", e), ("power", p), ("modifier", m)))
               for e in elements for p in powers for m in modifiers]
    for spell, slots in singles:
        yield (spell,), slots
    for (first, slots), (second, more) in itertools.product(singles, singles):
        if first.modifier in doublers:
            yield (first, second), slots + more


def totals(c, hand, foe, roll):
    return sum(spell_totals(c, hand, foe, repeat(roll)))


def fair(c, hand, foe):
    """A hand that throws nothing away: no spell of an element the challenge resists, and a
    Double Up! always followed by its second spell. Losing with such a hand means the
    challenge is no walkover even for a party that avoids the obvious mistakes."""
    doublers = {m.name for m in c.modifiers if m.op == "double_up"}
    resisted = set(c.matchups[foe].resists)
    return all(s.element not in resisted for s in hand) and (len(hand) > 1 or hand[0].modifier not in doublers)


@pytest.fixture(scope="module")
def reach(c, game):
    """For each challenge element and number of cards laid on the challenge: the strongest
    hand that is always there (dice at 1), the strongest single spell, and the weakest fair
    hand (dice at their highest)."""
    cards = tuple(spell_cards(game))
    every = list(hands(c, cards))
    out = {}
    for foe in c.matchups:
        lows = sorted(every, key=lambda h: totals(c, h[0], foe, 1), reverse=True)
        highs = sorted(every, key=lambda h: totals(c, h[0], foe, c.die_sides))
        for taken in sorted({level.modifiers for level in c.levels}):
            best = next(h for h, slots in lows if always_there(cards, slots, taken))
            single = next(h for h, slots in lows if len(h) == 1 and always_there(cards, slots, taken))
            worst = next(h for h, slots in highs if fair(c, h, foe) and always_there(cards, slots, taken))
            out[foe, taken] = best, single, worst
    return out


def draws(c, game, count):
    """Every ordered run of `count` modifiers the spell deck can lay on a challenge."""
    held = Counter(m for _, _, m in spell_cards(game))
    for run in itertools.product(sorted(held), repeat=count):
        if all(Counter(run)[m] <= n for m, n in held.items()):
            yield run


def test_every_challenge_can_be_beaten_by_some_legal_hand_and_lost_by_another(c, game, reach):
    needs_double_up = Counter()
    for card in game.decks[c.challenge_deck].cards:
        level = c.levels[card["level"] - 1]
        foe = card["element"]
        best, single, worst = reach[foe, level.modifiers]
        for run in draws(c, game, level.modifiers):
            challenge = as_challenge(card, run)
            hardest = challenge_target(c, challenge, repeat(c.die_sides)).power
            easiest = challenge_target(c, challenge, repeat(1)).power
            assert totals(c, best, foe, 1) >= hardest, f"{card.name} with {run}: the best hand {best} cannot reach {hardest}"
            assert totals(c, worst, foe, c.die_sides) < easiest, f"{card.name} with {run}: even {worst} reaches {easiest}"
            # the same sums through cast(): the challenge's dice first, then the spells'
            dice = dice_needed(c, challenge)
            won = cast(c, challenge, best, itertools.chain(repeat(c.die_sides, dice), repeat(1)))
            lost = cast(c, challenge, worst, itertools.chain(repeat(1, dice), repeat(c.die_sides)))
            assert won.cleared and won.target.power == hardest
            assert not lost.cleared and lost.target.power == easiest
            needs_double_up[card["level"]] += hardest > totals(c, single, foe, 1)
    # By design only the deepest level can demand a Double Up!: a single spell beats every
    # draw in the levels above it, and some draws in the deepest level need two spells.
    deepest = len(c.levels)
    assert all(needs_double_up[n] == 0 for n in range(1, deepest)), needs_double_up
    assert needs_double_up[deepest] > 0, "the deepest level never needs a Double Up!"


def dice_needed(c, challenge):
    """How many rolls the challenge's modifiers take."""
    taken = []

    def die():
        while True:
            taken.append(1)
            yield 1

    challenge_target(c, challenge, die())
    return len(taken)


# ---------------------------------------------------------------------------- deeper is harder


def expected_target(c, game, card, count):
    """The challenge's power to beat, averaged exactly over the modifiers the spell deck can
    lay on it (drawn without replacement) and the die's faces."""
    held = Counter(m for _, _, m in spell_cards(game))
    total = sum(held.values())
    mean = Fraction(0)
    for run in draws(c, game, count):
        chance, seen = Fraction(1), Counter()
        for i, m in enumerate(run):
            chance *= Fraction(held[m] - seen[m], total - i)
            seen[m] += 1
        challenge = as_challenge(card, run)
        faces = list(itertools.product(range(1, c.die_sides + 1), repeat=dice_needed(c, challenge)))
        mean += chance * Fraction(sum(challenge_target(c, challenge, roll).power for roll in faces), len(faces))
    return mean


def test_the_cave_grows_harder_level_by_level(c, game):
    """The figures (the deck as it stands): printed power 4.5, 7.2 and 8.6 on average by
    level; the power to beat after the level's modifiers, averaged exactly over the draws and
    the die, 4.5, 10.3 and 15.9; rune rewards 1, 1.4 and 2.6 (`pytest -s` prints them)."""
    cards = game.decks[c.challenge_deck].cards
    by_level = [[card for card in cards if card["level"] == n] for n in range(1, len(c.levels) + 1)]
    printed = [Fraction(sum(card["power"] for card in pile), len(pile)) for pile in by_level]
    to_beat = [sum(expected_target(c, game, card, level.modifiers) for card in pile) / len(pile)
               for level, pile in zip(c.levels, by_level)]
    rewards = [Fraction(sum(card["runes"] for card in pile), len(pile)) for pile in by_level]
    figures = (f"printed {[float(round(x, 2)) for x in printed]}, to beat {[float(round(x, 2)) for x in to_beat]}, "
               f"runes {[float(round(x, 2)) for x in rewards]}")
    print(figures)
    assert all(a < b for a, b in zip(printed, printed[1:])), figures
    assert all(a < b for a, b in zip(to_beat, to_beat[1:])), figures
    assert all(a < b for a, b in zip(rewards, rewards[1:])), figures
    # and every level's weakest challenge is stronger, to beat, than the level above on average
    weakest = [min(expected_target(c, game, card, level.modifiers) for card in pile) for level, pile in zip(c.levels, by_level)]
    assert all(w > mean for w, mean in zip(weakest[1:], to_beat)), figures
    # the modifiers the levels lay on never fall as the cave goes down
    assert all(a.modifiers <= b.modifiers for a, b in zip(c.levels, c.levels[1:]))


# ---------------------------------------------------------------------------- the checks


def broken_copy(cards_dir, tmp_path, file, old, new):
    copy = tmp_path / SLUG
    shutil.copytree(cards_dir / SLUG, copy)
    path = copy / file
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    return copy


def test_a_challenge_of_no_level_is_reported(cards_dir, tmp_path):
    copy = broken_copy(cards_dir, tmp_path, "challenges.yaml", "    level: 1\n", "    level: 4\n")
    with pytest.raises(ValidationFailed, match="level 4 is not one of the game's levels"):
        load_game(copy)


def test_a_pile_too_small_for_its_level_is_reported(cards_dir, tmp_path):
    copy = broken_copy(cards_dir, tmp_path, "game.yaml", "{name: The Heart of the Mountain, first: 11, last: 15,",
                       "{name: The Heart of the Mountain, first: 11, last: 21,")
    copy_game = copy / "game.yaml"
    copy_game.write_text(copy_game.read_text().replace("challenges_per_game: 15", "challenges_per_game: 21"))
    with pytest.raises(ValidationFailed, match="deals 11 challenges, but deck 'challenges' holds 10 of level 3"):
        load_game(copy)


def test_a_deck_of_the_wrong_size_is_reported(cards_dir, tmp_path):
    copy = broken_copy(cards_dir, tmp_path, "spells.yaml", "modifier: +1 Power, count: 2}", "modifier: +1 Power, count: 3}")
    with pytest.raises(ValidationFailed, match="deck 'spells' holds 81 cards .* but the box should hold 80"):
        load_game(copy)
