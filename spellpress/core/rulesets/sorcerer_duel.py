"""Sorcerer Duel: mana per turn, card conversions, the hand limit, each player's own deck."""

from __future__ import annotations

import pydantic

from ..models import Game
from ..schema import Flag, Ident, Model, NonNegativeInt, PositiveInt
from ._checks import decks_exist

SLUG = "sorcerer-duel"


class Constants(Model):
    starting_health: PositiveInt
    starting_hand: PositiveInt
    draws_per_turn: PositiveInt
    mana_per_turn: PositiveInt  # reset every turn, never carried over
    max_conversions: NonNegativeInt  # cards a player may turn into mana each turn
    mana_per_conversion: PositiveInt
    hand_limit: PositiveInt  # at the limit a player does not draw
    first_player_skips_draw: Flag
    draws_on_creature_death: NonNegativeInt
    player_decks: tuple[Ident, ...] = pydantic.Field(min_length=1)  # decks a player may pick


def check(game: Game, report) -> None:
    c: Constants = game.constants
    decks_exist(game, [(("player_decks", i), d) for i, d in enumerate(c.player_decks)], report)
