"""Things in play beside the players: Magicka Mayhem's creatures, Sorcerer Duel's creatures and
blockers. They live in the table's tracker as `units`, each a dict with an `id` ("u1", "u2"...),
its `owner` (a player), `kind`, `name`, `attack`, `health`, `max` (its health when it arrived)
and `turn` (the table's turn it arrived in)."""

from __future__ import annotations

from typing import Any

from .errors import Invalid
from .state import name

MAX_UNITS = 60  # in play at one table: every phone is sent each of them with every change


def units(state: dict) -> list[dict]:
    return state["tracker"].get("units", [])


def find(state: dict, uid: Any) -> dict:
    for unit in units(state):
        if unit["id"] == uid:
            return unit
    known = ", ".join(f"{u['id']} ({u['name']})" for u in units(state)) or "none in play"
    raise Invalid(f"no unit {uid!r} in play; the units are: {known}"[:300])


def get(state: dict, uid: str) -> dict | None:
    return next((u for u in units(state) if u["id"] == uid), None)


def target(state: dict, value: Any, what: str = "target") -> tuple[str, Any]:
    """A target named in an action: a player's index (a whole number) or a unit's id (text)."""
    if isinstance(value, str):
        return "unit", find(state, value)["id"]
    if isinstance(value, bool) or not isinstance(value, int):
        raise Invalid(f"{what} must be a player's number or a unit's id, got {value!r}"[:200])
    if not 0 <= value < len(state["players"]):
        raise Invalid(f"no player {value}: players are numbered 0 to {len(state['players']) - 1}")
    return "player", value


def add(state: dict, unit: dict) -> tuple[dict, dict]:
    tracker = state["tracker"]
    if len(tracker["units"]) >= MAX_UNITS:
        raise Invalid(f"the table already holds {MAX_UNITS} creatures and blockers, more than any game needs; take some off first")
    unit = {"id": f"u{tracker['next_unit']}", **unit}
    new = {**state, "tracker": {**tracker, "units": [*tracker["units"], unit], "next_unit": tracker["next_unit"] + 1}}
    return new, unit


def replace(state: dict, uid: str, unit: dict | None) -> dict:
    """The state with unit `uid` changed to `unit`, or gone if `unit` is None."""
    kept = [(unit if u["id"] == uid else u) for u in units(state)]
    return {**state, "tracker": {**state["tracker"], "units": [u for u in kept if u is not None]}}


def owned(state: dict, owner: int, kind: str | None = None) -> list[dict]:
    return [u for u in units(state) if u["owner"] == owner and (kind is None or u["kind"] == kind)]


def called(state: dict, unit: dict) -> str:
    """"Ann's Cinder Imp", as the log says it."""
    return f"{name(state, unit['owner'])}'s {unit['name']}"
