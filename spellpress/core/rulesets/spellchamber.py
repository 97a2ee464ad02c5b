"""Spellchamber: the Wizard Gun's chamber, ammo effects, scenario decks and spell slots."""

from __future__ import annotations

import pydantic

from ..models import Game
from ..problems import did_you_mean, one_of
from ..schema import Flag, FrozenMap, Ident, Model, NonNegativeInt, PositiveInt, Range, Text
from ._checks import decks_exist

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
    spell_deck: Ident
    ammo_deck: Ident

    @pydantic.field_validator("ammo")
    @classmethod
    def _three_kinds(cls, ammo):
        if tuple(ammo) != AMMO_KINDS:
            raise ValueError(f"ammo must declare exactly {', '.join(AMMO_KINDS)}, in that order")
        return ammo


def check(game: Game, report) -> None:
    c: Constants = game.constants
    decks = [(("scenario_decks", k, "deck"), s.deck) for k, s in c.scenario_decks.items()]
    decks += [(("spell_deck",), c.spell_deck), (("ammo_deck",), c.ammo_deck)]
    decks_exist(game, decks, report)
    for key, spec in c.scenario_decks.items():
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
    for card in ammo.cards if ammo else ():
        kind = card.get("kind")
        if kind not in c.ammo:
            hint = did_you_mean(kind, list(c.ammo)) or f"; the kinds are {one_of(c.ammo)}"
            report.card(card, ("kind",), f"unknown ammo kind '{kind}'{hint}")
