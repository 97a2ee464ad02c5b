"""Magicka Mayhem: elements and their oppositions, the Mayhem Muster, snap spells, barriers."""

from __future__ import annotations

from typing import Literal, Self

import pydantic

from ...models import Card, Game
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
    # what a summon whose card `grows` gains for each extra element paid: needed once a card grows
    extra_element_growth: PositiveInt | None = None
    # a summon card's name is this and its creature's ("Summon " + "Magma Golem"); none: the same
    summon_prefix: Text | None = None
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


AMOUNTED = ("damage", "heal", "barrier")  # deaths whose card says how much (freeze, zap: the constants)


def creature_name(c: Constants, card_name: str) -> str:
    """The creature a summon card brings: its name without the YAML's summon_prefix."""
    return card_name.removeprefix(c.summon_prefix or "").strip()


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
        if card.get("grows") is not None and c.extra_element_growth is None:
            report.card(card, ("grows",), "a card that grows needs constants.extra_element_growth: what each extra element adds")
        if (card.get("grows") is None) != (card.get("grows_with") is None):
            have, lack = ("grows", "grows_with") if card.get("grows") is not None else ("grows_with", "grows")
            report.card(card, (have,), f"'{have}' needs '{lack}' too: what grows, and with which extra element")
        death = card.get("death")
        if death is not None and card.get("death_to") is None:
            report.card(card, ("death",), "a death needs 'death_to': whom it reaches")
        if death in AMOUNTED and card.get("death_amount") is None:
            report.card(card, ("death",), f"a death that does {death} needs 'death_amount': how much")
        if death is not None and death not in AMOUNTED and card.get("death_amount") is not None:
            report.card(card, ("death_amount",), f"a death that does {death} takes its numbers from the constants: "
                                                 "leave 'death_amount' out")
        if card.type == "summon" and not creature_name(c, card.name):
            report.card(card, ("name",), f"the name is only the summon_prefix '{c.summon_prefix}': name the creature too")
        _check_effects(card, report)
        both = set(card.get("weak") or ()) & set(card.get("immune") or ())
        if both:
            report.card(card, ("immune",), f"a creature cannot be both weak and immune to {', '.join(sorted(both))}")


# Fields that go together: a card with the first needs the second (and the other way round).
PAIRED = (("boost", "boost_with"), ("burns", "burn_turns"))
# What each kind of spell must say it does: a beam how long it lasts, a barrier its strength,
# a heal how much. A field in KIND_ONLY belongs to that kind alone.
KIND_NEEDS = {"beam": "turns", "barrier": "strength", "heal": "heal"}
KIND_ONLY = {"turns": "beam"}
BARRIER_ONLY = ("mirrors", "chills")  # what a barrier does: only on a card that raises one


def _check_effects(card: Card, report: Report) -> None:
    """The effect fields the balance lab applies agree with each other and with the spell's kind."""
    for a, b in PAIRED:
        if (card.get(a) is None) != (card.get(b) is None):
            have, lack = (a, b) if card.get(a) is not None else (b, a)
            report.card(card, (have,), f"'{have}' needs '{lack}' too")
    kind = card.get("kind")
    need = KIND_NEEDS.get(kind or "")
    if need and card.get(need) is None:
        report.card(card, ("kind",), f"a {kind} spell needs '{need}': set it (a whole number)")
    for fname, only in KIND_ONLY.items():
        if card.get(fname) is not None and kind != only:
            report.card(card, (fname,), f"only a {only} spell has '{fname}'; this one is a {kind}")
    for fname in BARRIER_ONLY:
        if card.get(fname) and card.get("strength") is None:
            report.card(card, (fname,), f"'{fname}' tells what a barrier does: the card needs 'strength' too")
