"""Powers Combined: shared lives, levels of challenges, modifiers, runes, weakness tables.

Besides the constants' schema and checks, this module holds the game's arithmetic as pure
functions (`challenge_target`, `spell_totals`, `cast`): what a challenge's power and reward
become under its modifiers, and what the party's spell (or two, with Double Up!) adds up to
against it. Dice come in as an argument, so the companion's calculator, the rulebook's examples
and the tests all work the same sum.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Literal, Self

import pydantic

from ...models import Game
from ...problems import did_you_mean, one_of
from ...ruleset import Loc, Report
from ...schema import FrozenMap, Ident, Model, NonNegativeInt, PositiveInt, Text
from ..checks import decks_exist, elements_exist

SLUG = "powers-combined"


class Level(Model):
    name: Text
    first: PositiveInt  # challenge numbers, 1-based, inclusive
    last: PositiveInt
    modifiers: NonNegativeInt  # modifiers the level adds to each challenge


class Modifier(Model):
    name: Text
    # roll: add `amount` rolls of the game's die (the rulebook's contents hold a die that no
    # other rule uses, so a modifier is where it comes into play)
    op: Literal["add", "multiply", "roll", "double_up"]
    amount: PositiveInt | None = None

    @pydantic.model_validator(mode="after")
    def _amount(self) -> Self:
        if (self.op == "double_up") == (self.amount is not None):
            raise ValueError("'add', 'multiply' and 'roll' need an amount; 'double_up' takes none")
        return self


class Matchup(Model):
    weak_to: tuple[Text, ...] = ()  # spell elements that double the spell's power against it
    resists: tuple[Text, ...] = ()  # spell elements whose power it halves


class Constants(Model):
    lives: PositiveInt
    hand_size: PositiveInt
    challenges_per_game: PositiveInt
    levels: tuple[Level, ...] = pydantic.Field(min_length=1)
    cards_submitted: PositiveInt
    cards_submitted_two_players: PositiveInt
    rune_tokens: PositiveInt
    rune_spend_limit: PositiveInt
    double_up_limit: PositiveInt
    double_up_fallback: Text  # what a further Double Up! counts as
    double_up_on_challenge: PositiveInt  # a challenge's power and rune reward are multiplied by it
    weakness_multiplier: PositiveInt
    resistance_divisor: PositiveInt
    die_sides: PositiveInt
    modifiers: tuple[Modifier, ...] = pydantic.Field(min_length=1)
    matchups: FrozenMap[Text, Matchup]
    # The box's contents: the decks the game is played from and how many cards each holds.
    # A challenge card's `level` (1 for the first of `levels`) says which pile it is dealt from.
    spell_deck: Ident
    spell_cards: PositiveInt
    challenge_deck: Ident
    challenge_cards: PositiveInt
    rune_deck: Ident  # holds rune_tokens tokens


def check(game: Game, report: Report) -> None:
    c = game.constants_as(Constants)
    names: list[tuple[Loc, str]] = [(("matchups", k), k) for k in c.matchups]
    for k, m in c.matchups.items():
        names += [(("matchups", k, side, i), e) for side in ("weak_to", "resists") for i, e in enumerate(getattr(m, side))]
    elements_exist(game, names, report)
    expected = 1
    for i, level in enumerate(c.levels):
        if level.name in [earlier.name for earlier in c.levels[:i]]:
            report.constant(("levels", i, "name"), f"level '{level.name}' is named twice: texts find a level's number by its name")
        if level.first != expected or level.last < level.first:
            report.constant(("levels", i), f"level '{level.name}' should start at challenge {expected} and end at or after it")
        expected = level.last + 1
    if expected - 1 != c.challenges_per_game:
        report.constant(("levels",), f"the levels cover challenges 1-{expected - 1}, but challenges_per_game is {c.challenges_per_game}")
    modifiers = [m.name for m in c.modifiers]
    for i, name in enumerate(modifiers):
        if name in modifiers[:i]:
            report.constant(("modifiers", i, "name"), f"modifier '{name}' is given twice")
    if c.double_up_fallback not in modifiers:
        hint = did_you_mean(c.double_up_fallback, modifiers) or f"; the modifiers are {one_of(modifiers)}"
        report.constant(("double_up_fallback",), f"unknown modifier '{c.double_up_fallback}'{hint}")
    elif next(m for m in c.modifiers if m.name == c.double_up_fallback).op == "double_up":
        report.constant(("double_up_fallback",), f"'{c.double_up_fallback}' is itself a Double Up!: name a modifier that is not")
    for k, m in c.matchups.items():
        for i, e in enumerate(m.resists):
            if e in m.weak_to:
                report.constant(("matchups", k, "resists", i), f"'{k}' is both weak to and resistant to '{e}'")
    for card in game.cards:
        modifier = card.get("modifier")
        if modifier is not None and modifier not in modifiers:
            hint = did_you_mean(modifier, modifiers) or f"; the modifiers are {one_of(modifiers)}"
            report.card(card, ("modifier",), f"unknown modifier '{modifier}'{hint}")
    decks = [(("spell_deck",), c.spell_deck), (("challenge_deck",), c.challenge_deck), (("rune_deck",), c.rune_deck)]
    decks_exist(game, decks, report)
    for key, size in (("spell_deck", c.spell_cards), ("challenge_deck", c.challenge_cards), ("rune_deck", c.rune_tokens)):
        deck = game.decks.get(getattr(c, key))
        if deck is not None and deck.total != size:
            diff = size - deck.total
            fix = f"add {diff} card(s)" if diff > 0 else f"take out {-diff} card(s)"
            report.constant((key,), f"deck '{deck.id}' holds {deck.total} cards (each card times its count), "
                                    f"but the box should hold {size}: {fix} or change the count")
    # The challenge deck is sorted by level into piles; each level deals its challenges from its
    # own pile, so every pile must hold at least that many.
    challenges = game.decks.get(c.challenge_deck)
    piles = [0] * len(c.levels)
    for card in challenges.cards if challenges else ():
        level = card.get("level")
        if level is None:
            report.card(card, (), f"a challenge needs a 'level' from 1 to {len(c.levels)}: the pile it is dealt from")
        elif not 1 <= level <= len(c.levels):
            report.card(card, ("level",), f"level {level} is not one of the game's levels (1 to {len(c.levels)})")
        else:
            piles[level - 1] += card.count
    for i, (level, held) in enumerate(zip(c.levels, piles)):
        needed = level.last - level.first + 1
        if challenges is not None and held < needed:
            report.constant(("levels", i),
                            f"level '{level.name}' deals {needed} challenges, but deck '{challenges.id}' holds {held} of level {i + 1}")


# ---------------------------------------------------------------------------- the arithmetic


class Spell(Model):
    """One spell the party casts: the element card's element, the power card's power, the
    modifier card's modifier, then the modifiers of the cards turned over with runes."""

    element: Text
    power: PositiveInt
    modifier: Text
    runes: tuple[Text, ...] = ()


class Challenge(Model):
    """A face-up challenge: its card's element, power and rune reward, and the modifiers its
    level laid on it, in the order they were laid."""

    element: Text
    power: PositiveInt
    runes: NonNegativeInt
    modifiers: tuple[Text, ...] = ()


@dataclass(frozen=True)
class Step:
    """One modifier at work on a power, as the table would say it aloud."""

    name: str  # the modifier as laid or flipped
    counts_as: str  # itself, or the fallback for a Double Up! past the limit
    power: int  # the power after it
    rolled: int | None = None  # the die's total, for a roll modifier
    double_up: bool = False  # a Double Up! within the limit (another spell, or a doubled challenge)


@dataclass(frozen=True)
class Target:
    power: int  # what the party's total must equal or beat
    runes: int  # what clearing it puts in the pot (before the supply runs short)
    steps: tuple[Step, ...] = ()  # its modifiers at work, in order


@dataclass(frozen=True)
class Working:
    """How one spell's total came about."""

    steps: tuple[Step, ...]  # the card's modifier, then the runes'
    modified: int  # the power after every modifier
    relation: str | None  # "weak" or "resists": the challenge against the spell's element
    total: int


@dataclass(frozen=True)
class Outcome:
    target: Target
    totals: tuple[int, ...]  # each spell's total, weakness or resistance included
    total: int  # their sum
    workings: tuple[Working, ...] = ()

    @property
    def cleared(self) -> bool:
        return self.total >= self.target.power


def level_of(c: Constants, number: int) -> Level:
    """The level that challenge `number` (1-based, in the order they are turned up) is in."""
    for level in c.levels:
        if level.first <= number <= level.last:
            return level
    raise ValueError(f"there is no challenge {number}: a game has {c.challenges_per_game}")


def modifier(c: Constants, name: str) -> Modifier:
    for m in c.modifiers:
        if m.name == name:
            return m
    hint = did_you_mean(name, [m.name for m in c.modifiers]) or f"; the modifiers are {one_of([m.name for m in c.modifiers])}"
    raise ValueError(f"unknown modifier '{name}'{hint}")


def _dice(c: Constants, rolls: Iterator[int], count: int) -> int:
    total = 0
    for _ in range(count):
        roll = next(rolls, None)
        if roll is None:
            raise ValueError("a Wild Surge needs a roll of the die, and no rolls are left")
        if isinstance(roll, bool) or not isinstance(roll, int) or not 1 <= roll <= c.die_sides:
            raise ValueError(f"a roll of a {c.die_sides}-sided die is 1 to {c.die_sides}, not {roll!r}")
        total += roll
    return total


def _apply(c: Constants, m: Modifier, power: int, rolls: Iterator[int]) -> Step:
    """An add, multiply or roll modifier applied to a power."""
    if m.op == "double_up" or m.amount is None:  # the one without an amount (Modifier checks it)
        raise ValueError(f"'{m.name}' is a Double Up!, which is no sum")
    if m.op == "add":
        return Step(m.name, m.name, power + m.amount)
    if m.op == "multiply":
        return Step(m.name, m.name, power * m.amount)
    rolled = _dice(c, rolls, m.amount)  # a roll
    return Step(m.name, m.name, power + rolled, rolled)


def _modify(c: Constants, power: int, names: Iterable[str], rolls: Iterator[int], doubled: int,
            double: int) -> tuple[tuple[Step, ...], int]:
    """The steps of `names` applied in order to `power`, and the Double Ups used so far. A
    Double Up! within the limit multiplies the power by `double`; one past it counts as the
    fallback modifier."""
    steps = []
    for name in names:
        m = modifier(c, name)
        if m.op == "double_up":
            if doubled < c.double_up_limit:
                doubled += 1
                power *= double
                steps.append(Step(name, name, power, double_up=True))
                continue
            m = modifier(c, c.double_up_fallback)
        step = _apply(c, m, power, rolls)
        power = step.power
        steps.append(Step(name, m.name, power, step.rolled))
    return tuple(steps), doubled


def relation(c: Constants, spell_element: str, challenge_element: str) -> str | None:
    """"weak" if the challenge is weak to the spell's element, "resists" if it resists it."""
    for element in (spell_element, challenge_element):
        if element not in c.matchups:
            hint = did_you_mean(element, list(c.matchups)) or f"; the elements are {one_of(list(c.matchups))}"
            raise ValueError(f"unknown element '{element}'{hint}")
    m = c.matchups[challenge_element]
    if spell_element in m.weak_to:
        return "weak"
    if spell_element in m.resists:
        return "resists"
    return None


def matchup(c: Constants, spell_element: str, challenge_element: str, power: int) -> int:
    """A power after the Elemental Guide: times the weakness multiplier against a challenge
    weak to the spell's element, divided (rounding down) against one that resists it."""
    found = relation(c, spell_element, challenge_element)
    if found == "weak":
        return power * c.weakness_multiplier
    if found == "resists":
        return power // c.resistance_divisor
    return power


def challenge_target(c: Constants, challenge: Challenge, rolls: Iterable[int] = ()) -> Target:
    """The challenge's power and reward under its modifiers, applied in order. The first
    Double Up! multiplies both; one past the limit counts as the fallback modifier."""
    return _target(c, challenge, iter(rolls))


def _target(c: Constants, challenge: Challenge, rolls: Iterator[int]) -> Target:
    steps, doubled = _modify(c, challenge.power, challenge.modifiers, rolls, 0, c.double_up_on_challenge)
    power = steps[-1].power if steps else challenge.power
    return Target(power, challenge_reward(challenge.runes, doubled, c.double_up_on_challenge), steps)


def challenge_reward(runes: int, doubled: int, double_up_on_challenge: int) -> int:
    """A challenge's rune reward under `doubled` Double Ups (within the limit), each multiplying
    it by the YAML's `double_up_on_challenge`."""
    reward: int = runes * double_up_on_challenge ** doubled  # whole: `doubled` is never negative
    return reward


def spell_totals(c: Constants, spells: Sequence[Spell], challenge_element: str, rolls: Iterable[int] = ()) -> tuple[int, ...]:
    """Each spell's total against a challenge of that element: its power, then its modifiers
    in order (the card's, then the runes'), then weakness or resistance.

    Every Double Up! up to the turn's limit lets the party cast one more spell and changes
    nothing itself; one past the limit counts as the fallback modifier. The party may cast
    fewer spells than its Double Ups allow, never more, and may spend at most
    `rune_spend_limit` runes in all."""
    return tuple(w.total for w in _workings(c, spells, challenge_element, iter(rolls)))


def _workings(c: Constants, spells: Sequence[Spell], element: str, rolls: Iterator[int]) -> tuple[Working, ...]:
    if not spells:
        raise ValueError("the party casts at least one spell")
    spent = sum(len(s.runes) for s in spells)
    if spent > c.rune_spend_limit:
        raise ValueError(f"{spent} runes spent in one turn; at most {c.rune_spend_limit} may be")
    doubled, workings = 0, []
    for i, spell in enumerate(spells):
        if i > doubled:
            raise ValueError(f"spell {i + 1} has no Double Up! to cast it: {doubled + 1} spell(s) may be cast")
        steps, doubled = _modify(c, spell.power, (spell.modifier, *spell.runes), rolls, doubled, 1)
        modified = steps[-1].power
        found = relation(c, spell.element, element)
        workings.append(Working(steps, modified, found, matchup(c, spell.element, element, modified)))
    return tuple(workings)


def cast(c: Constants, challenge: Challenge, spells: Sequence[Spell], rolls: Iterable[int] = ()) -> Outcome:
    """The whole turn's sum: the challenge's target and the spells' totals. `rolls` are the
    die's results, taken in order: first for the challenge's Wild Surges, then the spells'."""
    rolls = iter(rolls)
    target = _target(c, challenge, rolls)
    workings = _workings(c, spells, challenge.element, rolls)
    totals = tuple(w.total for w in workings)
    return Outcome(target, totals, sum(totals), workings)
