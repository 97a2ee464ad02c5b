"""Sorcerer Duel's player option: each player's deck."""

from __future__ import annotations

from ...models import Game
from ...play.options import Choice, Option
from .ruleset import Constants


def options(game: Game) -> tuple[Option, ...]:
    decks = game.constants_as(Constants).player_decks
    return (Option("deck", "Deck", "player", tuple(Choice(d, game.decks[d].name) for d in decks)),)
