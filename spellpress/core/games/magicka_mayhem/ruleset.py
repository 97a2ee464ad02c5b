"""Magicka Mayhem: elements and their oppositions, the Mayhem Muster, snap spells, barriers."""

from __future__ import annotations

from typing import Literal, Self

import pydantic

from ...models import Game
from ...problems import did_you_mean, one_of
from ...ruleset import Loc, Report
from ...schema import FrozenMap, Ident, Model, PositiveInt, Text
from ..checks import decks_exist, elements_exist

SLUG = "magicka-mayhem"


class MayhemLevel(Model):
    """How likely a spell card spell is Mayhemified: `hits` chances in `out_of`."""

    id: Ident
    name: Text
    method: Literal["always", "coin", "die", "custom"]
    hits: PositiveInt
    out_of: PositiveInt

    @pydantic.model_validator(mode="after")
    def _chance(self) -> Self:
        if self.hits > self.out_of:
            raise ValueError(f"hits ({self.hits}) cannot be more than out_of ({self.out_of})")
        if self.method == "always" and self.hits != self.out_of:
            raise ValueError("an 'always' level hits every time: make hits equal out_of")
        if self.method == "coin" and self.out_of != 2:
            raise ValueError("a coin has two sides: a 'coin' level needs out_of: 2")
        return self


class Exchange(Model):
    """Discard `give` (deck id -> cards) to draw `get`."""

    give: FrozenMap[Ident, PositiveInt]
    get: FrozenMap[Ident, PositiveInt]


class Barrier(Model):
    shield_cost: PositiveInt  # Shield elements that raise a barrier
    strength: PositiveInt  # its strength when raised with exactly shield_cost
    per_extra_shield: PositiveInt  # strength added by each further Shield at casting
    repair_per_shield: PositiveInt  # damage one Shield element repairs, up to the cast maximum


class Mode(Model):
    id: Ident
    name: Text


class Constants(Model):
    starting_health: PositiveInt
    hand_limit: PositiveInt
    deal: FrozenMap[Ident, PositiveInt]
    draw_per_turn: FrozenMap[Ident, PositiveInt]
    exchanges: tuple[Exchange, ...]
    opposed: tuple[tuple[Text, Text], ...]
    snap_cost: PositiveInt  # identical elements a snap spell is cast with
    interaction_threshold: PositiveInt  # same elements a spell needs to be countered, weak, immune
    counter_damage_divisor: PositiveInt  # a countered spell deals this fraction to both wizards
    counter_damage_rounding: Literal["down", "up"] = "down"  # an odd damage divided: the rulebook is silent
    reflect_element: Text
    barrier: Barrier
    freeze_turns: PositiveInt
    zap_damage: PositiveInt
    weak_multiplier: PositiveInt
    modes: tuple[Mode, ...] = pydantic.Field(min_length=1)
    mayhem_levels: tuple[MayhemLevel, ...] = pydantic.Field(min_length=1)
    default_mayhem: Ident


def check(game: Game, report: Report) -> None:
    c = game.constants_as(Constants)
    names: list[tuple[Loc, str]] = [(("opposed", i, j), name) for i, pair in enumerate(c.opposed) for j, name in enumerate(pair)]
    names.append((("reflect_element",), c.reflect_element))
    elements_exist(game, names, report)
    for i, (a, b) in enumerate(c.opposed):
        if a == b:
            report.constant(("opposed", i), f"an element cannot oppose itself ('{a}')")
    decks: list[tuple[Loc, str]] = [(("deal", d), d) for d in c.deal]
    decks += [(("draw_per_turn", d), d) for d in c.draw_per_turn]
    for i, exchange in enumerate(c.exchanges):
        decks += [(("exchanges", i, side, d), d) for side in ("give", "get") for d in getattr(exchange, side)]
    decks_exist(game, decks, report)
    levels = [level.id for level in c.mayhem_levels]
    if c.default_mayhem not in levels:
        hint = did_you_mean(c.default_mayhem, levels) or f"; the levels are {one_of(levels)}"
        report.constant(("default_mayhem",), f"unknown Mayhem level '{c.default_mayhem}'{hint}")
    _check_cards(game, c, report)


def opposite(c: Constants, element: str) -> str | None:
    """The element that `element` opposes, or None for one that opposes nothing."""
    for a, b in c.opposed:
        if element in (a, b):
            return b if element == a else a
    return None


def _check_cards(game: Game, c: Constants, report: Report) -> None:
    """Snap spells name the element they counter as the constants oppose it, one snap spell an
    element; a creature is never both weak and immune to one element."""
    snaps: dict[str, str] = {}
    for card in game.cards:
        if card.type == "snap":
            element, opposes = card["element"], card.get("opposes")
            want = opposite(c, element)
            if opposes != want:
                if want is None:
                    report.card(card, ("opposes",), f"{element} opposes nothing (constants.opposed): leave 'opposes' out")
                else:
                    loc = ("opposes",) if opposes else ()
                    report.card(card, loc, f"{element} opposes {want} (constants.opposed): set 'opposes: {want}'")
            if element in snaps:
                report.card(card, ("element",), f"'{snaps[element]}' is the snap spell of {element} already")
            snaps.setdefault(element, card.id)
        both = set(card.get("weak") or ()) & set(card.get("immune") or ())
        if both:
            report.card(card, ("immune",), f"a creature cannot be both weak and immune to {', '.join(sorted(both))}")
