"""Sorcerer Duel's player options: each player's deck, and the sorcerer they play (whose effect the
tracker then applies; "not told" leaves it to the players)."""

from __future__ import annotations

from ...models import Game
from ...play.options import Choice, Option
from .ruleset import NO_SORCERER, Constants

SORCERER = "sorcerer"  # the card type of decks.yaml


def options(game: Game) -> tuple[Option, ...]:
    decks = game.constants_as(Constants).player_decks
    sorcerers = tuple(Choice(card.id, card.name) for card in game.cards if card.type == SORCERER)
    return (
        Option("deck", "Deck", "player", tuple(Choice(d, game.decks[d].name) for d in decks)),
        Option("sorcerer", "Sorcerer", "player", (Choice(NO_SORCERER, "Not told (its effect by hand)"), *sorcerers),
               preferred=(NO_SORCERER,)),
    )
