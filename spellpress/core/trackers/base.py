"""What every game's tracker is made of, and the helpers they share.

A tracker is a set of actions. Each action is four pure functions:

- `parse(state, action)`: the action's inputs, checked for type and range (`Invalid` if not);
- `draw(state, inputs, randbelow)`: the randomness it needs, drawn from `randbelow` (optional);
- `apply(state, data, strict)`: the new state and the results, from the inputs and the draws;
- `describe(data, state)`: the log's line for it.

`table.decide` runs parse, draw and apply (strict: the action must make sense now, or it is
refused and nothing changes) and writes inputs, draws and results into the event's data;
`table.evolve` runs apply again on that data (not strict: when an undo replays a table, an
action that was fine when it was made is replayed as it was). The same code thus decides and
replays, and the results in the log are the ones the players saw.

A table's state holds, beside part 1's counters: `rules` (the numbers and cards the tracker
needs, copied from the game's YAML when the table starts, so that a game in progress keeps
them), `tracker` (the table's own), each player's `tracker`, and `hidden`: what nobody at the
table may see (the order of a shuffled deck). The API never sends `hidden`; events keep their
secret draws under `data["hidden"]`, left out of the log.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

RandBelow = Callable[[int], int]
MAX_AMOUNT = 100  # damage, healing or a stat typed on a phone: more is taken for a typo
NAME_MAX = 24


class TableError(Exception):
    """An action or a set-up the table refuses; the state stays as it was."""


class Invalid(TableError):
    """The request makes no sense for this table (unknown counter, a value out of range...)."""


class Conflict(TableError):
    """The request made sense, but not any more: a stale version, nothing left to undo."""


@dataclass(frozen=True)
class Action:
    parse: Callable[[dict, Mapping], dict]
    apply: Callable[[dict, dict, bool], tuple[dict, dict]]
    describe: Callable[[dict, dict], str]
    draw: Callable[[dict, dict, RandBelow], dict] | None = None
    ordered: bool = False  # must carry the version it was made against
    undoable: bool = True  # a change that undo can take back; draws and turns of the gun are not
    shown: bool = False  # shown to every phone as the latest draw
    private: bool = False  # its hidden results go back to the phone that asked, and to no other


@dataclass(frozen=True)
class Tracker:
    ruleset: str
    rules: Callable[[Any, dict], dict | None]  # (game, the create event's data) -> rules
    player: Callable[[dict], dict]  # a player's tracker fields as they sit down
    initial: Callable[[dict], dict]  # the state with the table's tracker (and hidden) added
    settle: Callable[[dict], dict]  # derived fields, after every event of every kind
    actions: Mapping[str, Action]
    reveal: Callable[[Mapping, dict], bool] = field(default=lambda data, state: False)


# ---------------------------------------------------------------------------- checking input


def whole(value: Any, what: str, low: int | None = None, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise Invalid(f"{what} must be a whole number, got {value!r}"[:200])
    if low is not None and value < low or high is not None and value > high:
        span = f"{low} to {high}" if high is not None else f"at least {low}"
        raise Invalid(f"{what} must be {span}; got {value}")
    return value


def flag(value: Any, what: str, default: bool = False) -> bool:
    if value is None:
        return default
    if not isinstance(value, bool):
        raise Invalid(f"{what} must be true or false, got {value!r}"[:200])
    return value


def choice(value: Any, what: str, allowed: list | tuple | Mapping) -> Any:
    if value not in allowed:
        raise Invalid(f"{what} must be one of {', '.join(map(str, allowed))}; got {value!r}"[:300])
    return value


def player(state: dict, value: Any, what: str = "player") -> int:
    index = whole(value, what)
    if not 0 <= index < len(state["players"]):
        raise Invalid(f"no player {index}: players are numbered 0 to {len(state['players']) - 1}")
    return index


_MARKUP = re.compile(r"<\s*[a-zA-Z/!?]|&#?[a-zA-Z0-9]+;")


def label(value: Any, what: str) -> str:
    """A short name typed on a phone (a creature's): tidied, no markup or control characters."""
    if not isinstance(value, str) or not " ".join(value.split()):
        raise Invalid(f"{what} must be some text")
    text = " ".join(value.split())
    if any(not ch.isprintable() for ch in text) or _MARKUP.search(text):
        raise Invalid(f"{what} cannot hold markup or control characters")
    if len(text) > NAME_MAX:
        raise Invalid(f"{what} has at most {NAME_MAX} characters")
    return text


def card_of(cards: list[dict], value: Any, what: str) -> dict:
    for card in cards:
        if card["id"] == value:
            return card
    names = ", ".join(c["id"] for c in cards) or "none"
    raise Invalid(f"unknown {what} {value!r}; the choices are: {names}"[:300])


# ---------------------------------------------------------------------------- reading state


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


# ---------------------------------------------------------------------------- randomness


def shuffled(items: list, randbelow: RandBelow) -> list:
    """A Fisher-Yates shuffle drawn from `randbelow` (the server passes `secrets.randbelow`)."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = randbelow(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


# ---------------------------------------------------------------------------- words


def _and(words: list[str]) -> str:
    if not words:
        return ""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word if n == 1 else many or word + 's'}"


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"\N{MINUS SIGN}{-n}"


ARROW = "\N{RIGHTWARDS ARROW}"


def plain_text(text: str, elements: list[str]) -> str:
    """Card text for a phone: inline icons such as `{fire}` become the element's name."""
    known = {e.lower(): e for e in elements}
    return re.sub(r"\{([a-z]+)\}", lambda m: known.get(m.group(1), m.group(0)), " ".join(str(text).split()))
