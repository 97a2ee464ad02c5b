"""Magicka Mayhem's table options: the mode and the Mayhem level, read from the constants."""

from __future__ import annotations

from ...models import Game
from ...play.options import Choice, Option
from .ruleset import Constants


def options(game: Game) -> tuple[Option, ...]:
    c = game.constants_as(Constants)
    return (
        Option("mode", "Mode", "table", tuple(Choice(m.id, m.name) for m in c.modes)),
        Option("mayhem", "Mayhem", "table", tuple(Choice(m.id, m.name) for m in c.mayhem_levels), (c.default_mayhem,)),
    )
