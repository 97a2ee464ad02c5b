"""Reading and changing a table's state. A state is never changed in place: each function that
changes one returns a new one, sharing whatever did not change.

A table's state holds the players (each with their counters and options) and the table's own
counters; a game with a tracker adds `rules` (the numbers and cards the tracker needs, copied
from the game's YAML when the table starts, so that a game in progress keeps them), `tracker`
(the table's own fields), each player's `tracker`, and `hidden`: what nobody at the table may
see (the order of a shuffled deck).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .errors import Invalid
from .inputs import whole

RandBelow = Callable[[int], int]


def player(state: dict, value: Any, what: str = "player") -> int:
    """A player's index sent by a phone, checked against the table's players."""
    index = whole(value, what)
    if not 0 <= index < len(state["players"]):
        raise Invalid(f"no player {index}: players are numbered 0 to {len(state['players']) - 1}")
    return index



def name(state: dict, index: int | None) -> str:
    players = state["players"]
    return players[index]["name"] if index is not None and 0 <= index < len(players) else "someone"


def spec(state: dict, counter: str) -> dict | None:
    return next((s for s in state["counter_specs"] if s["id"] == counter), None)


def value(state: dict, counter: str, index: int | None = None) -> int:
    holder = state["counters"] if index is None else state["players"][index]["counters"]
    return holder.get(counter, 0)


def clamp(number: int, bounds: Mapping | None) -> int:
    if bounds is None:
        return number
    if bounds["min"] is not None:
        number = max(number, bounds["min"])
    if bounds["max"] is not None:
        number = min(number, bounds["max"])
    return number


def move(state: dict, counter: str, delta: int, index: int | None = None) -> tuple[dict, int, int]:
    """The state with a counter moved by `delta` (stopping at its bounds): (state, from, to)."""
    return put(state, counter, value(state, counter, index) + delta, index)


def put(state: dict, counter: str, number: int, index: int | None = None) -> tuple[dict, int, int]:
    """The state with a counter set to `number` (within its bounds): (state, from, to)."""
    before = value(state, counter, index)
    after = clamp(number, spec(state, counter))
    if index is None:
        return {**state, "counters": {**state["counters"], counter: after}}, before, after
    players = list(state["players"])
    players[index] = {**players[index], "counters": {**players[index]["counters"], counter: after}}
    return {**state, "players": players}, before, after


def mine(state: dict, index: int) -> dict:
    """A player's tracker fields."""
    return state["players"][index].get("tracker", {})


def with_mine(state: dict, index: int, **fields) -> dict:
    players = list(state["players"])
    players[index] = {**players[index], "tracker": {**players[index].get("tracker", {}), **fields}}
    return {**state, "players": players}


def with_tracker(state: dict, **fields) -> dict:
    return {**state, "tracker": {**state["tracker"], **fields}}


def settled(state: dict, **fields) -> dict:
    """The state with derived tracker fields, itself if none of them moved (the common case)."""
    tracker = state["tracker"]
    if fields.items() <= tracker.items():
        return state
    return {**state, "tracker": {**tracker, **fields}}


def settled_players(state: dict, derive: Callable[[int, dict], dict]) -> dict:
    """The state with each player's derived tracker fields (`derive(i, player)`), itself if none moved."""
    players, moved = [], False
    for i, p in enumerate(state["players"]):
        fields = derive(i, p)
        mine_now = p["tracker"]
        if fields.items() <= mine_now.items():
            players.append(p)
        else:
            players.append({**p, "tracker": {**mine_now, **fields}})
            moved = True
    return {**state, "players": players} if moved else state


def with_hidden(state: dict, **fields) -> dict:
    return {**state, "hidden": {**state.get("hidden", {}), **fields}}


def pad_players(state: dict, defaults: dict) -> dict:
    """Every player with a tracker, a player who joined later too."""
    if all("tracker" in p for p in state["players"]):
        return state
    players = [p if "tracker" in p else {**p, "tracker": dict(defaults)} for p in state["players"]]
    return {**state, "players": players}


def shuffled(items: list, randbelow: RandBelow) -> list:
    """A Fisher-Yates shuffle drawn from `randbelow` (the server passes `secrets.randbelow`)."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = randbelow(i + 1)
        out[i], out[j] = out[j], out[i]
    return out
