"""PowerMage 54: points, thump multipliers, the hand limit and the halving on an empty draw deck.

The game's arithmetic is here too, as pure functions the tracker and the rule helpers share:
a card's value times its thump, an attack less its defense, the halving of points.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...models import Game
from ...ruleset import Report
from ...schema import Flag, Ident, Model, PositiveInt
from ..checks import decks_exist

SLUG = "powermage-54"


class Constants(Model):
    starting_points: PositiveInt
    starting_hand: PositiveInt
    deck_size: PositiveInt  # the deck has exactly this many cards
    draw_deck: Ident  # the deck that holds them, the only one the game is played from
    hand_limit: PositiveInt  # cards a player may keep at the end of their own turn
    draws_per_turn: PositiveInt
    exchange_discard: PositiveInt  # cards discarded and redrawn instead of drawing
    empty_deck_divisor: PositiveInt  # points are divided by this, rounding down
    thump_needs_powermage: Flag  # a PowerMage must be shown before a thump is used


def check(game: Game, report: Report) -> None:
    c = game.constants_as(Constants)
    decks_exist(game, [(("draw_deck",), c.draw_deck)], report)
    deck = game.decks.get(c.draw_deck)
    if deck is not None and deck.total != c.deck_size:
        diff = c.deck_size - deck.total
        fix = f"add {diff} card(s)" if diff > 0 else f"take out {-diff} card(s)"
        report.constant(
            ("deck_size",),
            f"deck '{c.draw_deck}' holds {deck.total} cards (each card times its count), but "
            f"deck_size is {c.deck_size}: {fix} or change deck_size",
        )
    if c.hand_limit < c.starting_hand:
        report.constant(("hand_limit",), f"hand_limit ({c.hand_limit}) is less than starting_hand ({c.starting_hand}): "
                                         "players would have to throw away part of the hand they are dealt")
    dealt = c.starting_hand * game.players.max
    if dealt >= c.deck_size:
        report.constant(("starting_hand",), f"{game.players.max} players dealt {c.starting_hand} cards each take {dealt} cards, "
                                            f"leaving no draw deck of the {c.deck_size}")


# ---------------------------------------------------------------------------- the arithmetic


@dataclass(frozen=True)
class Clash:
    strength: int  # the attack card's value, thumped
    block: int  # the defense card's value, thumped (0 with no defense)
    damage: int  # what gets through: never below 0


def thumped(value: int, multiplier: int | None = None) -> int:
    """A card's value, times its thump card's multiplier if it has one."""
    return value * (multiplier or 1)


def clash(attack: int, attack_thump: int | None = None, defense: int = 0, defense_thump: int | None = None) -> Clash:
    strength, block = thumped(attack, attack_thump), thumped(defense, defense_thump)
    return Clash(strength, block, max(0, strength - block))


def points_after(points: int, change: int) -> int:
    """Points never go below 0 and have no upper limit."""
    return max(0, points + change)


def halved(points: int, divisor: int) -> int:
    """An empty draw deck's halving: rounding down."""
    return points // divisor
