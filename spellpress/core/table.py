"""A table at play: its events, the reducer that folds them into state, and undo.

A table is an append-only list of events. `decide` checks an action against the current state
and turns it into an event's data, drawing any randomness from the `randbelow` it is handed
(the companion passes `secrets.randbelow`); `evolve` applies one event; `fold` replays a whole
list. State is a plain, JSON-ready dict that is never changed in place: each step returns a
new one. Starting values and bounds come from the game's counters, copied into the table's
first event so that a game in progress keeps the numbers it was started with.

A change of a number is a delta, so two phones tapping at once both count, in either order;
a delta that would pass a counter's bound stops at the bound. Undo takes back the latest
change that is still standing and must name the version it was made against: if anything
happened since, the player is undoing something they have not seen, and it is refused.
Draws (dice, coin, who goes first) are never undone, so nobody can draw again until they like
the result.

Each game's own tracker (`spellpress.core.games`) adds its actions: `decide` hands them to
it, and `evolve` replays them through it. A tracker governs its counters (one door): a `+` on a
player who is out of the game is refused, and only a logged `bring_back` brings them back; a
`−` or `+` that its rules say more about becomes its own action (the event is that action's).
What a tracker keeps secret (the order of a shuffled deck) is in the state's `hidden`, which
`public` leaves out, and in an event's `data["hidden"]`, which the log leaves out until the
tracker says it may be shown.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, NotRequired, TypedDict, cast

import orjson

from .games import RULESETS, ruleset_of
from .models import Game
from .play.errors import Conflict, Invalid
from .play.inputs import label, whole
from .play.options import Option
from .play.state import Burst, CounterSpec, LastDraw, Player, RandBelow, TableState, Undo, clamp, name, player
from .play.tracker import Action, Data, Sent, Tracker
from .play.words import ARROW, and_, signed

MAX_DELTA = 10_000  # a larger typed amount on a counter with no bounds is taken for a typo
DICE_SIDES = (2, 100)
DICE_COUNT = (1, 20)

# A table of any game, as the reducer sees it: the game's own parts are its tracker's to read.
Table = TableState[object, object, object, object]
# The registry holds each game's tracker, typed on its own game's state: here it takes any table.
AnyTracker = Tracker[Any]


class Seat(TypedDict):
    name: str
    options: dict[str, str]


class Created(TypedDict):
    """The data of a table's first event."""

    game: str
    title: str
    max_players: int
    counters: list[CounterSpec]
    options: dict[str, str]
    players: list[Seat]
    ruleset: NotRequired[str]  # a game with a tracker: the rules it plays by, as the table started
    rules: NotRequired[object]


class Joined(TypedDict):
    """The data of a 'join' event."""

    player: int
    name: str
    new: bool
    options: NotRequired[dict[str, str]]  # a new player's


class LogEntry(TypedDict):
    seq: int
    type: str
    text: str
    by: int | None
    at: float
    undone: bool
    data: Data
    seqs: NotRequired[list[int]]  # a burst of taps shown as one entry: every tap's seq


@dataclass(frozen=True)
class Event:
    seq: int  # 1, 2, 3...: the table's version once the event is applied
    type: str
    data: Mapping[str, Any]
    by: int | None = None  # the player whose phone did it
    at: float = 0.0  # seconds since the epoch


# ---------------------------------------------------------------------------- options


def game_options(game: Game) -> tuple[Option, ...]:
    """The options a table of `game` starts with, read from its constants and decks."""
    return ruleset_of(game).options(game)


# ---------------------------------------------------------------------------- starting


def _choose(option: Option, given: Any, players: int) -> str:
    values = option.values(players)
    if given not in values:
        raise Invalid(f"{option.label.lower()} must be one of {', '.join(values)} for {players} players; got {given!r}"[:300])
    chosen: str = given
    return chosen


def start(game: Game, players: Any, options: Any = None) -> Created:
    """The data of a table's first event: its players, options and counters.

    `players` is a number of players, or a list of names or of {"name", "options"}; `options`
    maps the game's table options to a choice. Options left out take their defaults.
    """
    low, high = game.players.min, game.players.max
    if isinstance(players, int) and not isinstance(players, bool):
        players = [f"Player {i + 1}" for i in range(min(max(players, 0), high + 1))]
    if not isinstance(players, list):
        raise Invalid("players must be a list of names, or a number of players")
    if not low <= len(players) <= high:
        raise Invalid(f"{game.title} is for {low} to {high} players; got {len(players)}")
    entries = [p if isinstance(p, dict) else {"name": p} for p in players]
    names = [label(p.get("name")) for p in entries]
    seen: set[str] = set()
    for called in names:
        if called.casefold() in seen:
            raise Invalid(f"two players are called '{called}'; give each their own name")
        seen.add(called.casefold())
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise Invalid("options must be an object")
    specs = game_options(game)
    table_specs = {o.id: o for o in specs if o.scope == "table"}
    player_specs = {o.id: o for o in specs if o.scope == "player"}
    _known_keys(options, table_specs, "table option")
    n = len(names)
    chosen = {o.id: _choose(o, options[o.id], n) if o.id in options else o.default(n) for o in table_specs.values()}
    seats: list[Seat] = []
    for i, (entry, called) in enumerate(zip(entries, names)):
        given = entry.get("options") or {}
        if not isinstance(given, dict):
            raise Invalid(f"the options of player {i} must be an object")
        _known_keys(given, player_specs, "player option")
        seats.append({
            "name": called,
            "options": {o.id: _choose(o, given[o.id], n) if o.id in given else o.default(n, i) for o in player_specs.values()},
        })
    data: Created = {
        "game": game.slug,
        "title": game.title,
        "max_players": high,
        "counters": [{"id": c.id, "label": c.label, "scope": c.scope, "start": c.start, "min": c.min, "max": c.max, "step": c.step}
                     for c in game.counters],
        "options": chosen,
        "players": seats,
    }
    tracker = ruleset_of(game).tracker
    rules = tracker.rules(game, data) if tracker else None
    if rules is not None:
        data["ruleset"], data["rules"] = game.ruleset, rules
    return data


def _known_keys(given: dict[Any, Any], known: Mapping[str, Option], what: str) -> None:
    for key in given:
        if key not in known:
            names = ", ".join(known) or "none"
            raise Invalid(f"unknown {what} {key!r}; this game's are: {names}"[:300])


def join(game: Game, state: Table, typed: Any) -> Joined:
    """The data of a 'join' event: the seat of the player by the name typed, or a new player's."""
    wanted = label(typed)
    for i, seat in enumerate(state["players"]):
        if seat["name"].casefold() == wanted.casefold():
            return {"player": i, "name": seat["name"], "new": False}
    n = len(state["players"])
    names = ", ".join(p["name"] for p in state["players"])
    if n >= state["max_players"]:
        raise Conflict(f"the table is full; join as one of its players: {names}")
    tracker = _tracker_of(state)
    refusal = tracker.refuse_join(state) if tracker and tracker.refuse_join else None
    if refusal:
        raise Conflict(f"{refusal}; join as one of its players: {names}"[:300])
    options = {o.id: o.default(n + 1, n) for o in game_options(game) if o.scope == "player"}
    return {"player": n, "name": wanted, "new": True, "options": options}


# ---------------------------------------------------------------------------- deciding


def counter_spec(state: Table, counter_id: Any) -> CounterSpec:
    for spec in state["counter_specs"]:
        if spec["id"] == counter_id:
            return spec
    names = and_([s["label"] for s in state["counter_specs"]]) or "nothing"
    raise Invalid(f"this table keeps no such count; it counts {names}"[:300])


def finished(state: Table) -> bool:
    """Whether the game at the table is over (its tracker says so) and nobody has reopened it."""
    fields = state.get("tracker")
    return isinstance(fields, Mapping) and bool(fields.get("over")) and not state.get("reopened")


def _adjust(state: Table, action: Sent, randbelow: RandBelow) -> tuple[str, Data]:
    """A `−` or `+` on a counter: a plain change, or, on a counter the game's tracker governs, the
    tracker's own action that the change is (one door: no number moves around the rules)."""
    if finished(state):
        raise Conflict("the game is over, so its numbers stay as they ended; reopen it (under Table) to change them")
    spec = counter_spec(state, action.get("counter"))
    who = player(state, action.get("player")) if spec["scope"] == "player" else None
    if spec["scope"] == "table" and action.get("player") is not None:
        raise Invalid(f"{spec['label']} belongs to the whole table, not to one player")
    delta = whole(action.get("delta"), "delta")
    if delta == 0:
        raise Invalid("a delta of 0 changes nothing")
    if delta % spec["step"]:
        raise Invalid(f"{spec['label']} moves in steps of {spec['step']}; {delta} is not one")
    low, high = spec["min"], spec["max"]
    limit = high - low if low is not None and high is not None else MAX_DELTA
    if abs(delta) > limit:
        raise Invalid(f"a change of {delta} is more than {spec['label']} can move (at most {limit} at once)")
    tracker = _tracker_of(state)
    if tracker is not None and who is not None:
        gone = _gone(tracker, state, who)
        if gone and spec["id"] == _life(tracker, state) and delta > 0:
            raise Conflict(f"{name(state, who)} is {gone}, and a + does not bring them back: "
                           f"use Bring back on {name(state, who)}'s card, which asks first and writes it in the log")
    routed = tracker.govern(state, spec["id"], who, delta) if tracker is not None and tracker.govern else None
    if routed is not None:
        kind, sent = routed
        own = tracker.actions[kind] if tracker is not None else None
        assert own is not None, f"a tracker governs a counter with its own action, and has no {kind!r}"
        return kind, _run(state, kind, own, sent, randbelow)
    before = (state["players"][who]["counters"] if who is not None else state["counters"])[spec["id"]]
    return "adjust", {"player": who, "counter": spec["id"], "delta": delta, "from": before, "to": clamp(before + delta, spec)}


def _life(tracker: AnyTracker, state: Table) -> str | None:
    """The player counter that puts a player out of the game (the tracker's `life`); None if none does."""
    life = tracker.life
    named: str | None = life(state) if callable(life) else life
    return named


def _gone(tracker: AnyTracker, state: Table, who: int) -> str | None:
    """What a player out of the game is ("dead", "a ghost", "defeated"); None for one in it."""
    if tracker.gone is None:
        return None
    word: str | None = tracker.gone(state, who)
    return word


def _bring_back(state: Table, action: Sent, randbelow: RandBelow) -> Data:
    """A player out of the game (dead, a ghost, defeated) back in it, with the life typed: only
    this, never a `+`, and the log says who did it."""
    tracker = _tracker_of(state)
    life = _life(tracker, state) if tracker is not None else None
    if tracker is None or life is None:
        raise Invalid("in this game nobody is put out of it, so there is nobody to bring back")
    if finished(state):
        raise Conflict("the game is over: reopen it (under Table) first, then bring the player back")
    who = player(state, action.get("player"))
    gone = _gone(tracker, state, who)
    if gone is None:
        raise Conflict(f"{name(state, who)} is still in the game: there is nobody to bring back")
    spec = counter_spec(state, life)
    low = max(spec["step"], (spec["min"] or 0) + spec["step"])
    high = spec["max"] if spec["max"] is not None else spec["start"]
    to = whole(action.get("to", low), f"the {spec['label'].lower()} they come back with", low, high)
    before = state["players"][who]["counters"][spec["id"]]
    return {"player": who, "counter": spec["id"], "was": gone, "from": before, "to": to}


def _undo(state: Table, action: Sent, randbelow: RandBelow) -> Data:
    target = state["undo"]
    if target is None:
        raise Conflict("there is nothing to undo")
    data: Data = {"target": target["seq"], "text": target["text"], "of": target.get("by")}
    if target.get("seqs"):
        data["targets"] = target["seqs"]
    return data


def _new_game(state: Table, action: Sent, randbelow: RandBelow) -> Data:
    """A fresh game at the same table: the same players (and options), set up as a new table
    would be; the log keeps the games before it."""
    players: list[Seat] = [{"name": p["name"], "options": dict(p["options"])} for p in state["players"]]
    return {"game": state.get("games", 1) + 1, "players": players}


def _reopen(state: Table, action: Sent, randbelow: RandBelow) -> Data:
    if not finished(state):
        raise Conflict("the game is not over: there is nothing to reopen")
    return {}


def _roll(state: Table, action: Sent, randbelow: RandBelow) -> Data:
    sides = whole(action.get("sides"), "sides")
    count = whole(action.get("count", 1), "count")
    if not DICE_SIDES[0] <= sides <= DICE_SIDES[1]:
        raise Invalid(f"a die has {DICE_SIDES[0]} to {DICE_SIDES[1]} sides; got {sides}")
    if not DICE_COUNT[0] <= count <= DICE_COUNT[1]:
        raise Invalid(f"roll {DICE_COUNT[0]} to {DICE_COUNT[1]} dice at once; got {count}")
    return {"sides": sides, "count": count, "results": [randbelow(sides) + 1 for _ in range(count)]}


def _coin(state: Table, action: Sent, randbelow: RandBelow) -> Data:
    return {"result": ("heads", "tails")[randbelow(2)]}


def _first(state: Table, action: Sent, randbelow: RandBelow) -> Data:
    return {"player": randbelow(len(state["players"]))}


_DECIDE: dict[str, Callable[[Table, Sent, RandBelow], Data]] = {
    "bring_back": _bring_back, "undo": _undo, "reopen": _reopen, "roll": _roll, "coin": _coin, "first": _first,
    "new_game": _new_game,
}
ORDERED = ("undo", "new_game")  # actions that must carry the version they were made against
# An action no button of this table's page sends: a page from before the server's last update.
UNKNOWN = "this table cannot do that: reload the page to get its current buttons"
# A stale ordered action: someone changed the table while this player was deciding.
STALE = "someone changed the table while you were deciding: look again, then try once more"
ACTIONS = ("adjust", *_DECIDE)
DRAWS = ("roll", "coin", "first")


def actions(state: Table) -> tuple[str, ...]:
    """The action types a table takes: every table's, then its game's own."""
    tracker = _tracker_of(state)
    return ACTIONS + (tuple(tracker.actions) if tracker else ())


def ordered(state: Table) -> tuple[str, ...]:
    """The action types that must carry the version they were made against."""
    tracker = _tracker_of(state)
    return ORDERED + (tuple(k for k, a in tracker.actions.items() if a.ordered) if tracker else ())


def _tracker_of(state: Table | None) -> AnyTracker | None:
    """The tracker of a table; None for a table started before trackers (counters only)."""
    if not state or not state.get("rules"):
        return None
    ruleset = RULESETS.get(state.get("ruleset", ""))
    return ruleset.tracker if ruleset else None


def _tracker_action(state: Table, kind: str) -> Action[Any] | None:
    tracker = _tracker_of(state)
    return tracker.actions.get(kind) if tracker and kind not in ACTIONS else None


def decide(state: Table, version: int, action: Any, randbelow: RandBelow) -> tuple[str, Data]:
    """The event (type, data) that `action` makes at `version`, or TableError.

    An action that must carry a version is refused without one, and with a stale one; any other
    action may carry one too, and is then refused if it is stale."""
    if not isinstance(action, dict):
        raise Invalid("an action must be an object")
    kind = action.get("type")
    if not isinstance(kind, str):
        raise Invalid(UNKNOWN)
    own = _tracker_action(state, kind)
    if kind not in ACTIONS and own is None:
        raise Invalid(UNKNOWN)
    if kind in ORDERED or (own is not None and own.ordered) or action.get("version") is not None:
        made_at = action.get("version")
        if isinstance(made_at, bool) or not isinstance(made_at, int):
            raise Invalid("this phone did not say what it saw of the table: reload the page, look again and try once more")
        if made_at != version:
            raise Conflict(STALE)
    if kind == "adjust":
        return _adjust(state, action, randbelow)
    if own is None:
        return kind, _DECIDE[kind](state, action, randbelow)
    return kind, _run(state, kind, own, action, randbelow)


def _run(state: Table, kind: str, own: Action[Any], action: Sent, randbelow: RandBelow) -> Data:
    """A tracker action's event data: its inputs, its draws and its results."""
    inputs = own.parse(state, action)
    drawn = own.draw(state, inputs, randbelow) if own.draw else {}
    data = {**inputs, **drawn}
    _, results = own.apply(state, data, True)
    clash = (set(results) & set(data)) - {"hidden"}
    if clash:
        raise AssertionError(f"{kind}: results would overwrite its inputs: {sorted(clash)}")
    hidden = {**data.get("hidden", {}), **results.get("hidden", {})}
    data = {**data, **results}
    if hidden:
        data["hidden"] = hidden
    return data


# ---------------------------------------------------------------------------- evolving


def _new_player(called: str, options: Mapping[str, str], specs: list[CounterSpec]) -> Player[object]:
    counters = {s["id"]: s["start"] for s in specs if s["scope"] == "player"}
    return {"name": called, "counters": counters, "options": dict(options)}


def _on_create(state: Table | None, event: Event) -> Table:
    d = event.data
    specs = [cast(CounterSpec, dict(s)) for s in d["counters"]]  # as start() wrote them, read back from the log
    return _fresh(d["game"], d["title"], d["max_players"], specs, d["options"], d["players"], d.get("ruleset"), d.get("rules"))


def _fresh(game: str, title: str, max_players: int, specs: list[CounterSpec], options: Mapping[str, str],
           seats: Iterable[Mapping[str, Any]], ruleset: str | None, rules: object) -> Table:
    """A table at the start of a game: every counter at its start, set up by the game's tracker."""
    new: Table = {
        "game": game,
        "title": title,
        "max_players": max_players,
        "counter_specs": specs,
        "options": dict(options),
        "counters": {s["id"]: s["start"] for s in specs if s["scope"] == "table"},
        "players": [_new_player(p["name"], p["options"], specs) for p in seats],
        "first_player": None,
        "last_draw": None,
        "undo": None,
    }
    if rules is not None and ruleset is not None:
        new["ruleset"], new["rules"] = ruleset, rules
        tracker = _tracker_of(new)
        if tracker:
            new = tracker.initial(new)
    return new


def _on_new_game(state: Table | None, event: Event) -> Table:
    """The same table's next game: its counters, options and rules as they are, its players'
    names and options from the event; nothing of the game before."""
    assert state is not None
    rules = state.get("rules")
    new = _fresh(state["game"], state["title"], state["max_players"], state["counter_specs"], state["options"],
                 event.data["players"], state.get("ruleset"), rules)
    new["games"] = event.data["game"]
    new["undo"] = {"seq": event.seq, "text": describe(event, new), "by": event.by}
    return new


def _on_join(state: Table | None, event: Event) -> Table:
    assert state is not None  # a table has started before anyone joins
    if not event.data["new"]:
        return state
    seat = _new_player(event.data["name"], event.data["options"], state["counter_specs"])
    return {**state, "players": [*state["players"], seat]}


def _on_adjust(state: Table | None, event: Event) -> Table:
    assert state is not None
    d = event.data
    spec = counter_spec(state, d["counter"])
    if d["player"] is None:
        new: Table = {**state, "counters": _moved(state["counters"], spec, d["delta"])}
    else:
        who: int = d["player"]
        players = list(state["players"])
        players[who] = {**players[who], "counters": _moved(players[who]["counters"], spec, d["delta"])}
        new = {**state, "players": players}
    before = state["undo"]
    earlier = before.get("burst") if before else None
    burst: Burst
    if before is not None and earlier is not None and continues(earlier, event):
        seqs = [*before.get("seqs", [before["seq"]]), event.seq]
        burst = {**earlier, "at": event.at, "last": event.seq, "delta": earlier["delta"] + d["delta"]}
    else:
        seqs = [event.seq]
        burst = {"counter": d["counter"], "player": d["player"], "by": event.by, "at": event.at, "last": event.seq,
                 "from_": d["from"], "delta": d["delta"]}
    undo: Undo = {"seq": event.seq, "text": _adjust_text(new, event, burst["delta"], burst["from_"]), "by": event.by,
                  "burst": burst}
    if len(seqs) > 1:
        undo["seqs"] = seqs
    new["undo"] = undo
    return new


BURST_SECONDS = 2.0  # taps on one counter by one phone, each this soon after the last: one change


def continues(burst: Mapping[str, Any], event: Event) -> bool:
    """Whether the adjust `event` comes straight after the taps of `burst`, on the same counter,
    from the same phone, soon enough to be the same change (for undo and for the log alike)."""
    d = event.data
    return (event.type == "adjust" and burst["last"] == event.seq - 1 and burst["by"] == event.by
            and burst["counter"] == d["counter"] and burst["player"] == d["player"]
            and 0 <= event.at - burst["at"] <= BURST_SECONDS)


def undo_targets(data: Mapping[str, Any]) -> list[int]:
    """The seqs an undo event takes back: a burst of taps, or one change."""
    targets: list[int] = data.get("targets") or [data["target"]]
    return targets


def _on_bring_back(state: Table | None, event: Event) -> Table:
    assert state is not None
    d = event.data
    players = list(state["players"])
    who: int = d["player"]
    players[who] = {**players[who], "counters": {**players[who]["counters"], d["counter"]: d["to"]}}
    new: Table = {**state, "players": players}
    new["undo"] = {"seq": event.seq, "text": describe(event, new), "by": event.by}
    return new


def _moved(counters: Mapping[str, int], spec: CounterSpec, delta: int) -> dict[str, int]:
    return {**counters, spec["id"]: clamp(counters[spec["id"]] + delta, spec)}


def _on_draw(state: Table | None, event: Event) -> Table:
    assert state is not None
    # the draw's data is JSON from the log: a roll's, a coin's or who goes first
    drawn: dict[str, Any] = {"seq": event.seq, "type": event.type, "text": describe(event, state), **event.data,
                             "number": _draws(state) + 1}
    new: Table = {**state, "last_draw": cast(LastDraw, drawn)}
    if event.type == "first":
        new["first_player"] = event.data["player"]
    return new


def _draws(state: Table) -> int:
    """The draws of the game so far (dice, coins, a tracker's shown draws): each new one is numbered."""
    last = state["last_draw"]
    return last.get("number", 0) if last else 0


def _on_reopen(state: Table | None, event: Event) -> Table:
    assert state is not None  # a table is created by its first event
    return {**state, "reopened": True}


_EVOLVE: dict[str, Callable[[Table | None, Event], Table]] = {
    "create": _on_create,
    "join": _on_join,
    "adjust": _on_adjust,
    "bring_back": _on_bring_back,
    "reopen": _on_reopen,
    "roll": _on_draw,
    "coin": _on_draw,
    "first": _on_draw,
    "new_game": _on_new_game,
}


def evolve(state: Table | None, event: Event) -> Table:
    """The state after `event`. An undo is applied by `fold`, which sees the whole history."""
    if event.type == "undo":
        raise ValueError("an undo is applied by replaying the table's events: use fold()")
    own = _tracker_action(state, event.type) if state is not None else None
    if own is None:
        new = _EVOLVE[event.type](state, event)
    else:
        new, _ = own.apply(state, dict(event.data), False)
    tracker = _tracker_of(new)
    if tracker is None:
        return new
    new = _settled(tracker, new)
    life = _life(tracker, new)
    if life is not None and new.get("life") != life:
        new["life"] = life  # which counter a phone's "Bring back" raises
    fields = new.get("tracker")
    if new.get("reopened") and not (isinstance(fields, Mapping) and fields.get("over")):  # on again: the next end is final
        new = cast(Table, {k: v for k, v in new.items() if k != "reopened"})  # states are shared: never changed in place
    if own is not None and own.undoable:
        new["undo"] = {"seq": event.seq, "text": describe(event, new), "by": event.by}
    if own is not None and own.shown and state is not None:
        new["last_draw"] = {"seq": event.seq, "type": event.type, "text": describe(event, new), "number": _draws(state) + 1}
    return new


def _settled(tracker: AnyTracker, state: Table) -> Table:
    settled: Table = tracker.settle(state)
    return settled


def public(state: Table) -> Mapping[str, object]:
    """The state as every phone may see it: without what the tracker keeps hidden."""
    if "hidden" not in state:
        return state
    return {k: v for k, v in state.items() if k != "hidden"}


def json_text(value: object) -> str:
    """`value` as compact JSON text, as a table's state and its events are stored."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:  # what orjson does not write (an integer past 64 bits): the standard library writes it
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


_RULES_TEXT: dict[int, tuple[object, str]] = {}  # id(rules) -> (rules, its JSON): kept alive, so ids stay unique


def dumps(state: Table) -> str:
    """The state as compact JSON (UTF-8 text, not \\u escapes). A table's rules never change once
    it has started, and every state of the table shares one rules object, so their text is made
    once and reused; the rest is written by orjson, some ten times faster than the standard
    library on a table's state, which every action writes."""
    rules = state.get("rules")
    if not rules:
        return json_text(state)
    cached = _RULES_TEXT.get(id(rules))
    if cached is None or cached[0] is not rules:
        if len(_RULES_TEXT) > 512:
            _RULES_TEXT.clear()
        cached = _RULES_TEXT[id(rules)] = (rules, json_text(rules))
    head = json_text({k: v for k, v in state.items() if k != "rules"})
    return f'{head[:-1]},"rules":{cached[1]}}}' if len(head) > 2 else f'{{"rules":{cached[1]}}}'


def undone(events: Iterable[Event]) -> set[int]:
    return {seq for e in events if e.type == "undo" for seq in undo_targets(e.data)}


def fold(events: Iterable[Event], state: Table | None = None) -> Table:
    """The state that `events` lead to from `state` (from the table's first event when None),
    leaving out those that their undos take back. A stored state (a checkpoint) may stand for
    the events before it, as long as no undo among `events` reaches back past it."""
    events = list(events)
    skip = undone(events)
    for event in events:
        if event.type != "undo" and event.seq not in skip:
            state = evolve(state, event)
    assert state is not None, "a table's events start with its 'create'"
    return state


# ---------------------------------------------------------------------------- the log


def describe(event: Event, state: Table) -> str:
    """One line of the table's log, in words a player reads."""
    d, who = event.data, name(state, event.by)
    if event.type == "create":
        return f"{who} started {d['title']} for {and_([p['name'] for p in d['players']])}"
    if event.type == "join":
        return f"{d['name']} joined" + (" as a new player" if d["new"] else "")
    if event.type == "adjust":
        return _adjust_text(state, event, d["delta"], d["from"])
    if event.type == "undo":
        of = d.get("of")
        if of is not None and of != event.by:
            return f"{who} undid {name(state, of)}'s change: {d['text']}"
        return f"{who} undid: {d['text']}"
    if event.type == "new_game":
        return f"{who} started game {d['game']} of {state['title']} with the same players: {and_([p['name'] for p in d['players']])}"
    if event.type == "reopen":
        return f"{who} reopened the finished game to change its numbers"
    if event.type == "bring_back":
        spec = counter_spec(state, d["counter"])
        back = name(state, d["player"])
        whom = "themselves" if event.by == d["player"] else back
        return f"{who} brought {whom} back ({back} was {d['was']}): {spec['label']} {d['from']} {ARROW} {d['to']}"
    if event.type == "roll":
        dice = f"{d['count']}d{d['sides']}"
        total = " + ".join(map(str, d["results"])) + (f" = {sum(d['results'])}" if d["count"] > 1 else "")
        return f"{who} rolled {dice}: {total}"
    if event.type == "coin":
        return f"{who} flipped a coin: {d['result']}"
    if event.type == "first":
        return f"{who} drew who goes first: {name(state, d['player'])}"
    own = _tracker_action(state, event.type)
    if own is not None:
        return own.describe(d, state)
    return event.type


def _adjust_text(state: Table, event: Event, delta: int, start: int) -> str:
    """'Ann: Health −3 → 17': a tap, or a burst of them (`delta` in all, from `start`)."""
    d = event.data
    spec = counter_spec(state, d["counter"])
    owner = f"{name(state, d['player'])}: " if d["player"] is not None else ""
    text = f"{owner}{spec['label']} {signed(delta)} \N{RIGHTWARDS ARROW} {d['to']}"
    if d["to"] != start + delta:
        text += f" (stops at {d['to']})"
    return text + (f" (by {name(state, event.by)})" if event.by != d["player"] else "")


def log_entries(events: Iterable[Event], state: Table, undone_seqs: set[int]) -> list[LogEntry]:
    """The log's entries for `events` (in order), a burst of taps as one entry: its latest tap's,
    with the burst's text and `seqs`, every tap it stands for (some perhaps shown before)."""
    entries: list[LogEntry] = []
    burst: dict[str, Any] | None = None
    for event in events:
        entry = log_entry(event, state, undone_seqs)
        if event.type == "adjust":
            d = event.data
            if (burst is not None and continues(burst, event) and entries and entries[-1]["seq"] == event.seq - 1
                    and entries[-1]["undone"] == entry["undone"]):
                burst.update(at=event.at, last=event.seq, delta=burst["delta"] + d["delta"])
                seqs = [*entries[-1].get("seqs", [entries[-1]["seq"]]), event.seq]
                entries[-1] = {**entry, "text": _adjust_text(state, event, burst["delta"], burst["from_"]), "seqs": seqs}
                continue
            burst = {"counter": d["counter"], "player": d["player"], "by": event.by, "at": event.at, "last": event.seq,
                     "from_": d["from"], "delta": d["delta"]}
        else:
            burst = None
        entries.append(entry)
    return entries


def shown_data(event: Event, state: Table) -> Data:
    """An event's data as the log shows it: its hidden draws left out, unless the game's tracker
    says they may be shown now (a round's chamber, once the round is over)."""
    data = dict(event.data)
    hidden = data.pop("hidden", None)
    tracker = _tracker_of(state)
    if hidden and tracker:
        revealed = tracker.reveal(event.data, state)
        if revealed:
            data["revealed"] = revealed
    return data


def secret(event: Event, state: Table) -> Data | None:
    """What a private action (a look at the chamber) shows the phone that made it, and no other."""
    own = _tracker_action(state, event.type)
    return event.data.get("hidden") if own is not None and own.private else None


def log_entry(event: Event, state: Table, undone_seqs: set[int]) -> LogEntry:
    """An event as the log shows it."""
    return {
        "seq": event.seq,
        "type": event.type,
        "text": describe(event, state),
        "by": event.by,
        "at": event.at,
        "undone": event.seq in undone_seqs,
        "data": shown_data(event, state),
    }
