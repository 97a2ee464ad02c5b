"""Things in play beside the players: Magicka Mayhem's creatures, Sorcerer Duel's creatures and
blockers. They live in the table's tracker as `units` (with `next_unit`, the number of the next
one's id), each a `Unit` that a game may extend with its own fields.

These functions read and change a list of units; the game reads it from its tracker and writes
it back, so the list keeps the game's own type of unit."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypedDict, TypeVar

from .errors import Invalid
from .state import H, P, R, T, TableState, name

MAX_UNITS = 60  # in play at one table: every phone is sent each of them with every change


class Unit(TypedDict):
    id: str  # "u1", "u2"...
    owner: int  # a player
    kind: str
    name: str
    attack: int
    health: int
    max: int  # its health when it arrived
    turn: int  # the table's turn it arrived in
    attacked: int | None  # the turn it last attacked in
    ready: bool  # may attack now


U = TypeVar("U", bound=Unit)


def new_id(in_play: Sequence[Unit], next_unit: int) -> str:
    """The id of a unit arriving beside `in_play`; a table already holding MAX_UNITS has no room."""
    if len(in_play) >= MAX_UNITS:
        raise Invalid(f"the table already holds {MAX_UNITS} creatures and blockers, more than any game needs; take some off first")
    return f"u{next_unit}"


def find(units: Sequence[U], uid: Any) -> U:
    for unit in units:
        if unit["id"] == uid:
            return unit
    known = ", ".join(u["name"] for u in units) or "none"
    raise Invalid(f"that creature or blocker is no longer in play; in play: {known}"[:300])


def get(units: Sequence[U], uid: str) -> U | None:
    return next((u for u in units if u["id"] == uid), None)


def target(state: TableState[T, P, R, H], units: Sequence[Unit], value: Any, what: str = "target") -> tuple[str, int | str]:
    """A target named in an action: a player's index (a whole number) or a unit's id (text)."""
    if isinstance(value, str):
        return "unit", find(units, value)["id"]
    if isinstance(value, bool) or not isinstance(value, int):
        raise Invalid(f"choose a player, a creature or a blocker as the {what}"[:200])
    if not 0 <= value < len(state["players"]):
        raise Invalid(f"there is no such player at this table: its players are {', '.join(p['name'] for p in state['players'])}"[:300])
    return "player", value


def replaced(units: Sequence[U], uid: str, unit: U | None) -> list[U]:
    """The units with unit `uid` changed to `unit`, or gone if `unit` is None."""
    return [u for u in units if u["id"] != uid] if unit is None else [unit if u["id"] == uid else u for u in units]


def owned(units: Sequence[U], owner: int, kind: str | None = None) -> list[U]:
    return [u for u in units if u["owner"] == owner and (kind is None or u["kind"] == kind)]


def called(state: TableState[T, P, R, H], unit: Unit) -> str:
    """"Ann's Cinder Imp", as the log says it."""
    return f"{name(state, unit['owner'])}'s {unit['name']}"
