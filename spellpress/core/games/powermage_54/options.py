"""PowerMage 54's table option: whether the table keeps turns (the tracker refuses a play out of turn)."""

from __future__ import annotations

from ...models import Game
from ...play.options import Choice, Option

TURNS, KEPT, NOT_KEPT = "turns", "on", "off"  # the option, and its values


def options(game: Game) -> tuple[Option, ...]:
    return (Option(TURNS, "Turns", "table", (
        Choice(KEPT, "Kept: one action play a turn, each player in turn"),
        Choice(NOT_KEPT, "Not kept: any player may play at any time"),
    )),)
