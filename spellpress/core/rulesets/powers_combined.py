"""Powers Combined: shared lives, levels of challenges, modifiers, runes, weakness tables."""

from __future__ import annotations

from typing import Literal

import pydantic

from ..models import Game
from ..problems import did_you_mean, one_of
from ..schema import FrozenMap, Model, NonNegativeInt, PositiveInt, Text
from ._checks import elements_exist

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
    def _amount(self):
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
    weakness_multiplier: PositiveInt
    resistance_divisor: PositiveInt
    die_sides: PositiveInt
    modifiers: tuple[Modifier, ...] = pydantic.Field(min_length=1)
    matchups: FrozenMap[Text, Matchup]


def check(game: Game, report) -> None:
    c: Constants = game.constants
    names = [(("matchups", k), k) for k in c.matchups]
    for k, m in c.matchups.items():
        names += [(("matchups", k, side, i), e) for side in ("weak_to", "resists") for i, e in enumerate(getattr(m, side))]
    elements_exist(game, names, report)
    expected = 1
    for i, level in enumerate(c.levels):
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
