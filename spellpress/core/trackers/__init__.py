"""Each game's own tracker, as pure functions of a table's state (see `base` for the shape).

`table.decide` and `table.evolve` hand every action a tracker knows to it; the rules live here,
never in the companion's views or JavaScript. Trackers are found by the game's ruleset, so a
variant of a game (a copy of its directory with other numbers) gets the same tracker.
"""

from __future__ import annotations

from . import magicka_mayhem, powermage_54, powers_combined, sorcerer_duel, spellchamber
from .base import Action, Conflict, Invalid, TableError, Tracker

TRACKERS: dict[str, Tracker] = {
    module.TRACKER.ruleset: module.TRACKER
    for module in (magicka_mayhem, spellchamber, powermage_54, powers_combined, sorcerer_duel)
}


def for_game(game) -> Tracker | None:
    return TRACKERS.get(game.ruleset)


def for_state(state: dict | None) -> Tracker | None:
    """The tracker of a table; None for a table started before trackers (counters only)."""
    if not state or not state.get("rules"):
        return None
    return TRACKERS.get(state.get("ruleset"))


__all__ = ["Action", "Conflict", "Invalid", "TRACKERS", "TableError", "Tracker", "for_game", "for_state"]
