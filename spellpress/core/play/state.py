"""Reading and changing a table's state. A state is never changed in place: each function that
changes one returns a new one, sharing whatever did not change.

A table's state holds the players (each with their counters and options) and the table's own
counters; a game with a tracker adds `rules` (the numbers and cards the tracker needs, copied
from the game's YAML when the table starts, so that a game in progress keeps them), `tracker`
(the table's own fields), each player's `tracker`, and `hidden`: what nobody at the table may
see (the order of a shuffled deck).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Generic, NotRequired, TypedDict, TypeVar

from .errors import Invalid
from .inputs import whole

RandBelow = Callable[[int], int]

# A game's own parts of a table: its tracker's table fields (T), each player's (P), its rules (R)
# and what it keeps hidden (H). Each game names them once: `State = TableState[...]`.
T = TypeVar("T")
P = TypeVar("P")
R = TypeVar("R")
H = TypeVar("H")
X = TypeVar("X")


class CounterSpec(TypedDict):
    """A counter as the table was started with it (game.yaml's, its constants resolved)."""

    id: str
    label: str
    scope: str  # "player" or "table"
    start: int
    min: int | None
    max: int | None
    step: int


class Player(TypedDict, Generic[P]):
    name: str
    counters: dict[str, int]
    options: dict[str, str]
    tracker: NotRequired[P]  # a game with a tracker: this player's fields (every player's, once settled)


class StoredBurst(TypedDict):
    """Taps on one counter by one phone in quick succession, as a table's undo keeps them: one
    change (core/table.py's `Burst`)."""

    counter: str
    player: int | None
    by: int | None
    at: float  # its latest tap's time
    last: int  # its latest tap's seq
    from_: int  # the counter before its first tap
    delta: int  # its taps' sum


class Undo(TypedDict):
    """The latest change that undo would take back."""

    seq: int
    text: str
    by: NotRequired[int | None]  # whose phone made the change: told when another phone undoes it
    seqs: NotRequired[list[int]]  # a burst of taps: every tap's seq, taken back together
    burst: NotRequired[StoredBurst]


class LastDraw(TypedDict):
    """The latest draw every phone shows: dice, a coin, who goes first, or a tracker's draw."""

    seq: int
    type: str
    text: str
    number: NotRequired[int]  # the game's draws so far, this one included: a repeat still looks new
    sides: NotRequired[int]  # a roll's
    count: NotRequired[int]
    results: NotRequired[list[int]]
    result: NotRequired[str]  # a coin's
    player: NotRequired[int]  # who goes first


class Ending(TypedDict):
    """How a finished game ended, in the words every phone shows at its top: the rules core's
    (each game's tracker says it, from the fields its `settle` keeps), never a phone's own."""

    text: str  # "Ann wins!", "No lives left: the party has lost."
    winner: int | None  # the player who won; None when nobody did, and in a game the party plays together
    won: bool  # someone (or the party) won; False when everyone fell, or the party lost


class TableState(TypedDict, Generic[T, P, R, H]):
    game: str
    title: str
    max_players: int
    counter_specs: list[CounterSpec]
    options: dict[str, str]  # the table's options
    counters: dict[str, int]  # the table's own counters
    players: list[Player[P]]
    first_player: int | None
    last_draw: LastDraw | None
    undo: Undo | None
    ruleset: NotRequired[str]  # a game with a tracker: the ruleset that plays it
    rules: NotRequired[R]
    tracker: NotRequired[T]
    hidden: NotRequired[H]
    games: NotRequired[int]  # the games played at this table, this one included (1 if absent)
    reopened: NotRequired[bool]  # a finished game someone reopened to change its numbers
    life: NotRequired[str]  # the player counter at whose 0 a player is out (the tracker's `life`)
    end: NotRequired[Ending]  # a finished game (not reopened): how it ended (table.py's `evolve` keeps it)


def player(state: TableState[T, P, R, H], value: Any, what: str = "player") -> int:
    """A player's index sent by a phone, checked against the table's players."""
    index = whole(value, what)
    if not 0 <= index < len(state["players"]):
        raise Invalid(f"there is no such player at this table: its players are {', '.join(p['name'] for p in state['players'])}"[:300])
    return index


def name(state: TableState[T, P, R, H], index: int | None) -> str:
    players = state["players"]
    return players[index]["name"] if index is not None and 0 <= index < len(players) else "someone"


def won_by(state: TableState[T, P, R, H], winner: int | None, nobody: str, wins: str = "{} wins!") -> Ending:
    """The end of a game that one player wins: `wins` with the winner's name, or `nobody` when
    nobody is left to win it."""
    if winner is None:
        return {"text": nobody, "winner": None, "won": False}
    return {"text": wins.format(name(state, winner)), "winner": winner, "won": True}


def spec(state: TableState[T, P, R, H], counter: str) -> CounterSpec | None:
    return next((s for s in state["counter_specs"] if s["id"] == counter), None)


def value(state: TableState[T, P, R, H], counter: str, index: int | None = None) -> int:
    holder = state["counters"] if index is None else state["players"][index]["counters"]
    return holder.get(counter, 0)


def clamp(number: int, bounds: CounterSpec | None) -> int:
    if bounds is None:
        return number
    if bounds["min"] is not None:
        number = max(number, bounds["min"])
    if bounds["max"] is not None:
        number = min(number, bounds["max"])
    return number


def move(state: TableState[T, P, R, H], counter: str, delta: int, index: int | None = None) -> tuple[TableState[T, P, R, H], int, int]:
    """The state with a counter moved by `delta` (stopping at its bounds): (state, from, to)."""
    return put(state, counter, value(state, counter, index) + delta, index)


def put(state: TableState[T, P, R, H], counter: str, number: int, index: int | None = None) -> tuple[TableState[T, P, R, H], int, int]:
    """The state with a counter set to `number` (within its bounds): (state, from, to)."""
    before = value(state, counter, index)
    after = clamp(number, spec(state, counter))
    if index is None:
        return {**state, "counters": {**state["counters"], counter: after}}, before, after
    players = list(state["players"])
    players[index] = {**players[index], "counters": {**players[index]["counters"], counter: after}}
    return {**state, "players": players}, before, after


# A game changes its own fields by a function of the old ones, `lambda t: {**t, "round": 2}`:
# mypy checks that spread against the game's TypedDict, which keyword arguments would not allow.


def mine(state: TableState[T, P, R, H], index: int) -> P:
    """A player's tracker fields (every player has them once the table has settled)."""
    return state["players"][index]["tracker"]


def with_mine(state: TableState[T, P, R, H], index: int, change: Callable[[P], P]) -> TableState[T, P, R, H]:
    players = list(state["players"])
    players[index] = {**players[index], "tracker": change(players[index]["tracker"])}
    return {**state, "players": players}


def with_tracker(state: TableState[T, P, R, H], change: Callable[[T], T]) -> TableState[T, P, R, H]:
    return {**state, "tracker": change(state["tracker"])}


def with_hidden(state: TableState[T, P, R, H], change: Callable[[H], H]) -> TableState[T, P, R, H]:
    return {**state, "hidden": change(state["hidden"])}


def settled(state: TableState[T, P, R, H], derive: Callable[[T], T]) -> TableState[T, P, R, H]:
    """The state with derived tracker fields, itself if none of them moved (the common case)."""
    tracker = state["tracker"]
    new = derive(tracker)
    return state if new == tracker else {**state, "tracker": new}


def settled_players(state: TableState[T, P, R, H], derive: Callable[[int, Player[P]], P]) -> TableState[T, P, R, H]:
    """The state with each player's derived tracker fields (`derive(i, player)`), itself if none moved."""
    players: list[Player[P]] = []
    moved = False
    for i, p in enumerate(state["players"]):
        fields = derive(i, p)
        if fields == p["tracker"]:
            players.append(p)
        else:
            players.append({**p, "tracker": fields})
            moved = True
    return {**state, "players": players} if moved else state


def pad_players(state: TableState[T, P, R, H], defaults: P) -> TableState[T, P, R, H]:
    """Every player with a tracker, a player who joined later too."""
    if all("tracker" in p for p in state["players"]):
        return state
    players: list[Player[P]] = [p if "tracker" in p else {**p, "tracker": defaults} for p in state["players"]]
    return {**state, "players": players}


def shuffled(items: Sequence[X], randbelow: RandBelow) -> list[X]:
    """A Fisher-Yates shuffle drawn from `randbelow` (the server passes `secrets.randbelow`)."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = randbelow(i + 1)
        out[i], out[j] = out[j], out[i]
    return out
