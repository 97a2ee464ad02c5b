"""PowerMage 54: points, thump multipliers and the halving on an empty draw deck."""

from __future__ import annotations

from ..models import Game
from ..schema import Flag, Model, PositiveInt

SLUG = "powermage-54"


class Constants(Model):
    starting_points: PositiveInt
    starting_hand: PositiveInt
    deck_size: PositiveInt  # the deck has exactly this many cards
    draws_per_turn: PositiveInt
    exchange_discard: PositiveInt  # cards discarded and redrawn instead of drawing
    empty_deck_divisor: PositiveInt  # points are divided by this, rounding down
    thump_needs_powermage: Flag  # a PowerMage must be shown before a thump is used


def check(game: Game, report) -> None:
    """Nothing to cross-check yet; the full deck's size is checked with the decks."""
