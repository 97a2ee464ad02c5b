"""Spellchamber: the Wizard Gun's chamber, ammo effects, scenario decks and spell slots."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import pydantic

from ...models import Card, Game
from ...problems import did_you_mean, one_of
from ...ruleset import Loc, Report
from ...schema import Flag, FrozenMap, Ident, Model, NonNegativeInt, PositiveInt, Range, Text
from ..checks import decks_exist
from .spells import POWER_EFFECTS, POWER_NUMBERS, SPELL_EFFECTS, SPELL_NUMBERS

SLUG = "spellchamber"
AMMO_KINDS = ("live", "magic", "blank")


class AmmoEffect(Model):
    """What a revealed ammo card does to the wizard who was shot."""

    name: Text
    life_loss: NonNegativeInt = 0
    drafts: NonNegativeInt = 0  # spells drafted from the top of the spell deck
    extra_turn_if_self: Flag = False  # shooting yourself with it gives one more battle turn


class ScenarioDeck(Model):
    deck: Ident
    players: Range


class Constants(Model):
    starting_life: PositiveInt
    die_sides: PositiveInt
    spell_slots: PositiveInt
    ammo: FrozenMap[Ident, AmmoEffect]
    max_extra_turns_per_turn: NonNegativeInt
    scenario_decks: FrozenMap[Ident, ScenarioDeck]
    scenarios_per_deck: PositiveInt
    beginner_scenario: PositiveInt
    ghosts_from_players: PositiveInt
    ghost_drafts: PositiveInt  # spells a ghost drafts from the spell deck as its battle turn begins
    spell_deck: Ident
    ammo_deck: Ident

    @pydantic.field_validator("ammo")
    @classmethod
    def _three_kinds(cls, ammo: Mapping[str, AmmoEffect]) -> Mapping[str, AmmoEffect]:
        if tuple(ammo) != AMMO_KINDS:
            raise ValueError(f"ammo must declare exactly {', '.join(AMMO_KINDS)}, in that order")
        return ammo


def check(game: Game, report: Report) -> None:
    c = game.constants_as(Constants)
    decks: list[tuple[Loc, str]] = [(("scenario_decks", k, "deck"), s.deck) for k, s in c.scenario_decks.items()]
    decks += [(("spell_deck",), c.spell_deck), (("ammo_deck",), c.ammo_deck)]
    decks_exist(game, decks, report)
    for spec in c.scenario_decks.values():
        deck = game.decks.get(spec.deck)
        if deck is None:
            continue
        seen: dict[int, str] = {}
        for card in deck.cards:
            if sum(card.get(kind, 0) for kind in AMMO_KINDS) == 0:
                report.card(card, (), "the scenario's chamber is empty: give it at least one Live, Magic or Blank")
            number = card.get("number")
            if number in seen:
                report.card(card, ("number",), f"scenario number {number} is used already by '{seen[number]}'")
            seen.setdefault(number, card.id)
            if number is not None and number > c.scenarios_per_deck:
                report.card(card, ("number",), f"scenario number {number} is more than scenarios_per_deck ({c.scenarios_per_deck})")
        if deck.cards and c.beginner_scenario not in seen:
            report.constant(("beginner_scenario",), f"deck '{spec.deck}' has no scenario numbered {c.beginner_scenario}")
    ammo = game.decks.get(c.ammo_deck)
    supply = dict.fromkeys(c.ammo, 0)
    for card in ammo.cards if ammo else ():
        kind = card.get("kind")
        if kind not in c.ammo:
            hint = did_you_mean(kind, list(c.ammo)) or f"; the kinds are {one_of(c.ammo)}"
            report.card(card, ("kind",), f"unknown ammo kind '{kind}'{hint}")
        else:
            supply[kind] += card.count
    # The chamber deck is built from the ammo cards in the box: each scenario must fit in it.
    if ammo and ammo.cards:
        for spec in c.scenario_decks.values():
            deck = game.decks.get(spec.deck)
            for card in deck.cards if deck else ():
                for kind in AMMO_KINDS:
                    if card.get(kind, 0) > supply[kind]:
                        needs = f"the scenario needs {card.get(kind)} {c.ammo[kind].name} ammo"
                        report.card(card, (kind,), f"{needs} but deck '{c.ammo_deck}' holds {supply[kind]}")
    spells = game.decks.get(c.spell_deck)
    for card in spells.cards if spells else ():
        slots = card.get("slots")
        if slots is not None and slots > c.spell_slots:
            report.card(card, ("slots",), f"the spell takes {slots} slots but a wizard has only {c.spell_slots} (spell_slots)")
        hybrid, powered_text = card.get("kind") == "hybrid", card.get("powered_text")
        if hybrid and not powered_text:
            report.card(card, (), "a hybrid spell needs a 'powered_text': what it does when its caster is powered up")
        elif powered_text and not hybrid:
            report.card(card, ("powered_text",), "only a hybrid spell has a 'powered_text'; make the spell's kind 'hybrid' or remove it")
        _check_spell_effect(card, report)
    for card in game.cards:
        if card.type == "wizard":
            _check_power(card, report)


def _numbers(card: Card, effect: str, needs: tuple[str, ...], numbers: tuple[str, ...], needing: Mapping[str, str],
             report: Report) -> None:
    """An effect has the number fields it needs and no other (`needing`: number -> the effect that takes it)."""
    for number in needs:
        if card.get(number) is None:
            report.card(card, ("effect",), f"a '{effect}' effect needs '{number}': how much")
    for other in numbers:
        if other not in needs and card.get(other) is not None:
            report.card(card, (other,), f"'{other}' goes with a '{needing[other]}' effect, not '{effect}'")


def _check_spell_effect(card: Card, report: Report) -> None:
    """A spell's effect has its numbers; a hybrid's effect has a powered-up part; it says something."""
    effect = card.get("effect")
    if effect is not None:
        needs, has_powered = SPELL_EFFECTS[effect]
        needing = {n: e for e, (ns, _) in SPELL_EFFECTS.items() for n in ns}
        _numbers(card, effect, needs, SPELL_NUMBERS, needing, report)
        if card.get("kind") == "hybrid" and not has_powered:
            hybrids = ", ".join(e for e, (_, p) in SPELL_EFFECTS.items() if p)
            report.card(card, ("effect",), f"a '{effect}' effect has no powered-up part for a hybrid spell: "
                                           f"make the spell regular, or give it one of {hybrids}")
    if not card.get("text"):
        report.card(card, (), "a spell needs a text: write it, or give the number its effect prints")


def _check_power(card: Card, report: Report) -> None:
    """A power's effect has its numbers, and the power says what it does."""
    effect = card.get("effect")
    if effect is not None:
        needing = {n: e for e, ns in POWER_EFFECTS.items() for n in ns}
        _numbers(card, effect, POWER_EFFECTS[effect], POWER_NUMBERS, needing, report)
    if not card.get("power"):
        report.card(card, ("power",), "a wizard needs a power: write it, or give the number its effect prints")


# ---------------------------------------------------------------------------- the gun's rules
# Pure functions of the rules the tracker applies (the lab plays through the tracker).


def deck_for(players: Mapping[str, tuple[int, int]], n: int) -> str | None:
    """The scenario deck for `n` players: the first whose [fewest, most] holds n; None if none."""
    return next((key for key, (low, high) in players.items() if low <= n <= high), None)


def roll_off(contenders: Sequence[int], sides: int, randbelow: Callable[[int], int]) -> list[list[list[int]]]:
    """The first battle player's roll-off: every contender rolls a die of `sides`; those tied on
    the highest roll again. Rounds of [player, roll]; the last round has a single top roll."""
    rolls: list[list[list[int]]] = []
    left = list(contenders)
    while len(left) > 1:
        rolled = [[i, randbelow(sides) + 1] for i in left]
        rolls.append(rolled)
        top = max(r for _, r in rolled)
        left = [i for i, r in rolled if r == top]
    return rolls


def roll_off_winner(rolls: Sequence[Sequence[Sequence[int]]]) -> int | None:
    """Who won the roll-off (None if nobody rolled: a single contender)."""
    return max(rolls[-1], key=lambda rolled: rolled[1])[0] if rolls else None


@dataclass(frozen=True)
class ShotEffect:
    powered_up: bool  # the shooter powers up
    extra_turn: bool | None  # None: the shot gives no extra turn; False: it would, but this turn has had its most


def shot_effect(itself: bool, lost_life: bool, powered: bool, extra_turn_if_self: bool, earned: int, max_extra: int) -> ShotEffect:
    """What a shot does besides the life it takes: shooting yourself without losing life powers
    you up (if you are not already); a card with `extra_turn_if_self` shot at yourself earns one
    more battle turn, at most `max_extra` in one turn (`earned` so far)."""
    extra = (earned < max_extra) if itself and extra_turn_if_self else None
    return ShotEffect(powered_up=itself and not lost_life and not powered, extra_turn=extra)
