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

Every action is an `Action` (play/tracker.py): the table's own (`OWN`: a counter's change, bring
back, undo, reopen, dice, a coin, who goes first, a new game) and each game's tracker's
(`spellpress.core.games`) alike, found by one lookup (`_action`) that `decide`, `evolve` and
`describe` share. `decide` parses, draws and applies one; `evolve` applies it again, then notes
what undo would take back and the latest draw; a table's first event (`create`) and a player's
seat (`join`) are the two events that are not actions. A tracker governs its counters (one door): a `+` on a
player who is out of the game is refused, and only a logged `bring_back` brings them back; a
`−` or `+` that its rules say more about becomes its own action (the event is that action's).
What a tracker keeps secret (the order of a shuffled deck) is in the state's `hidden`, which
`public` leaves out, and in an event's `data["hidden"]`, which the log leaves out until the
tracker says it may be shown. A finished game's state says how it ended (`end`: the winner, or
the party's win or loss, in the words every phone shows at its top), as its tracker decides it.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any, NotRequired, TypedDict, cast

from .games import RULESETS, ruleset_of
from .models import Game
from .play.errors import Conflict, Invalid
from .play.inputs import label, look_alike, whole
from .play.options import Option
from .play.state import CounterSpec, Ending, LastDraw, Player, RandBelow, StoredBurst, TableState, Undo, clamp, name, player, won_by
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
    seen: dict[str, str] = {}  # what each name looks like: the name
    for called in names:
        twin = seen.get(look_alike(called))
        if twin is not None:
            same = twin.casefold() == called.casefold()
            raise Invalid(f"two players are called '{called}'; give each their own name" if same else
                          f"'{called}' looks like '{twin}'; give each player a name that looks like nobody else's")
        seen[look_alike(called)] = called
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
        if unicodedata.normalize("NFKC", seat["name"]).casefold() == wanted.casefold():  # a name from before NFKC too
            return {"player": i, "name": seat["name"], "new": False}
        if look_alike(seat["name"]) == look_alike(wanted):
            raise Conflict(f"'{wanted}' looks like {seat['name']}, who is at the table already: to sit as "
                           f"{seat['name']}, type the name as the table shows it; else choose a name of your own")
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


# ---------------------------------------------------------------------------- the table's own actions


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


def _parse_adjust(state: Table, action: Sent) -> Data:
    """A `−` or `+` on a counter. On a counter the game's tracker governs, `decide` makes it the
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
    before = (state["players"][who]["counters"] if who is not None else state["counters"])[spec["id"]]
    return {"player": who, "counter": spec["id"], "delta": delta, "from": before, "to": clamp(before + delta, spec)}


def _apply_adjust(state: Table, data: Data, strict: bool) -> tuple[Table, Data]:
    spec = counter_spec(state, data["counter"])
    if data["player"] is None:
        return {**state, "counters": _moved(state["counters"], spec, data["delta"])}, {}
    who: int = data["player"]
    players = list(state["players"])
    players[who] = {**players[who], "counters": _moved(players[who]["counters"], spec, data["delta"])}
    return {**state, "players": players}, {}


def _said_adjust(data: Mapping[str, Any], state: Table, by: int | None) -> str:
    return _adjust_text(state, data, by, data["delta"], data["from"])


def _moved(counters: Mapping[str, int], spec: CounterSpec, delta: int) -> dict[str, int]:
    return {**counters, spec["id"]: clamp(counters[spec["id"]] + delta, spec)}


def _governed(state: Table, kind: str, inputs: Data) -> tuple[str, Action[Any], Data] | None:
    """One door: the tracker's own action that a plain change of a counter it governs is (a `−`
    on a wizard behind a barrier is damage through it), as (its type, it, its inputs); None for
    a change it lets through as it is, and for any other action."""
    tracker = _tracker_of(state)
    if kind != "adjust" or tracker is None or tracker.govern is None:
        return None
    routed = tracker.govern(state, inputs["counter"], inputs["player"], inputs["delta"])
    if routed is None:
        return None
    kind, sent = routed
    own = tracker.actions.get(kind)
    assert own is not None, f"a tracker governs a counter with its own action, and has no {kind!r}"
    return kind, own, own.parse(state, sent)


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


def _parse_bring_back(state: Table, action: Sent) -> Data:
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


def _apply_bring_back(state: Table, data: Data, strict: bool) -> tuple[Table, Data]:
    players = list(state["players"])
    who: int = data["player"]
    players[who] = {**players[who], "counters": {**players[who]["counters"], data["counter"]: data["to"]}}
    return {**state, "players": players}, {}


def _said_bring_back(data: Mapping[str, Any], state: Table, by: int | None) -> str:
    spec = counter_spec(state, data["counter"])
    back = name(state, data["player"])
    whom = "themselves" if by == data["player"] else back
    return f"{name(state, by)} brought {whom} back ({back} was {data['was']}): {spec['label']} {data['from']} {ARROW} {data['to']}"


def _parse_undo(state: Table, action: Sent) -> Data:
    target = state["undo"]
    if target is None:
        raise Conflict("there is nothing to undo")
    data: Data = {"target": target["seq"], "text": target["text"], "of": target.get("by")}
    if target.get("seqs"):
        data["targets"] = target["seqs"]
    return data


def _apply_undo(state: Table, data: Data, strict: bool) -> tuple[Table, Data]:
    """Nothing: an undo is applied by `fold`, which replays the table without what it takes back
    (`evolve` refuses one)."""
    return state, {}


def _said_undo(data: Mapping[str, Any], state: Table, by: int | None) -> str:
    of = data.get("of")
    if of is not None and of != by:
        return f"{name(state, by)} undid {name(state, of)}'s change: {data['text']}"
    return f"{name(state, by)} undid: {data['text']}"


def _parse_new_game(state: Table, action: Sent) -> Data:
    """A fresh game at the same table: the same players (and options), set up as a new table
    would be; the log keeps the games before it."""
    players: list[Seat] = [{"name": p["name"], "options": dict(p["options"])} for p in state["players"]]
    return {"game": state.get("games", 1) + 1, "players": players}


def _apply_new_game(state: Table, data: Data, strict: bool) -> tuple[Table, Data]:
    """The same table's next game: its counters, options and rules as they are, its players'
    names and options from the event; nothing of the game before."""
    new = _fresh(state["game"], state["title"], state["max_players"], state["counter_specs"], state["options"],
                 data["players"], state.get("ruleset"), state.get("rules"))
    new["games"] = data["game"]
    return new, {}


def _said_new_game(data: Mapping[str, Any], state: Table, by: int | None) -> str:
    return (f"{name(state, by)} started game {data['game']} of {state['title']} with the same players: "
            f"{and_([p['name'] for p in data['players']])}")


def _parse_reopen(state: Table, action: Sent) -> Data:
    if not finished(state):
        raise Conflict("the game is not over: there is nothing to reopen")
    return {}


def _apply_reopen(state: Table, data: Data, strict: bool) -> tuple[Table, Data]:
    return {**state, "reopened": True}, {}


def _said_reopen(data: Mapping[str, Any], state: Table, by: int | None) -> str:
    return f"{name(state, by)} reopened the finished game to change its numbers"


def _parse_roll(state: Table, action: Sent) -> Data:
    sides = whole(action.get("sides"), "sides")
    count = whole(action.get("count", 1), "count")
    if not DICE_SIDES[0] <= sides <= DICE_SIDES[1]:
        raise Invalid(f"a die has {DICE_SIDES[0]} to {DICE_SIDES[1]} sides; got {sides}")
    if not DICE_COUNT[0] <= count <= DICE_COUNT[1]:
        raise Invalid(f"roll {DICE_COUNT[0]} to {DICE_COUNT[1]} dice at once; got {count}")
    return {"sides": sides, "count": count}


def _draw_roll(state: Table, inputs: Data, randbelow: RandBelow) -> Data:
    return {"results": [randbelow(inputs["sides"]) + 1 for _ in range(inputs["count"])]}


def _said_roll(data: Mapping[str, Any], state: Table, by: int | None) -> str:
    dice = f"{data['count']}d{data['sides']}"
    total = " + ".join(map(str, data["results"])) + (f" = {sum(data['results'])}" if data["count"] > 1 else "")
    return f"{name(state, by)} rolled {dice}: {total}"


def _draw_coin(state: Table, inputs: Data, randbelow: RandBelow) -> Data:
    return {"result": ("heads", "tails")[randbelow(2)]}


def _said_coin(data: Mapping[str, Any], state: Table, by: int | None) -> str:
    return f"{name(state, by)} flipped a coin: {data['result']}"


def _draw_first(state: Table, inputs: Data, randbelow: RandBelow) -> Data:
    return {"player": randbelow(len(state["players"]))}


def _apply_first(state: Table, data: Data, strict: bool) -> tuple[Table, Data]:
    return {**state, "first_player": data["player"]}, {}


def _said_first(data: Mapping[str, Any], state: Table, by: int | None) -> str:
    return f"{name(state, by)} drew who goes first: {name(state, data['player'])}"


def _nothing_sent(state: Table, action: Sent) -> Data:
    return {}


def _unchanged(state: Table, data: Data, strict: bool) -> tuple[Table, Data]:
    """The table as it was (a copy: the latest draw is noted on it, and states are shared)."""
    return {**state}, {}


def _own(parse: Callable[[Table, Sent], Data], apply: Callable[[Table, Data, bool], tuple[Table, Data]],
         said: Callable[[Mapping[str, Any], Table, int | None], str], **flags: Any) -> Action[Table]:
    """One of the table's own actions: its log line names the phone that made it (`said`)."""
    return Action(parse, apply, lambda data, state: said(data, state, None), said=said, **flags)


# Every table's actions, before its game's own (a tracker's action of the same name is not the table's).
OWN: Mapping[str, Action[Table]] = {
    "adjust": _own(_parse_adjust, _apply_adjust, _said_adjust),
    "bring_back": _own(_parse_bring_back, _apply_bring_back, _said_bring_back),
    "undo": _own(_parse_undo, _apply_undo, _said_undo, ordered=True, undoable=False),
    "reopen": _own(_parse_reopen, _apply_reopen, _said_reopen, undoable=False),
    "roll": _own(_parse_roll, _unchanged, _said_roll, draw=_draw_roll, undoable=False, shown=True, shows_data=True),
    "coin": _own(_nothing_sent, _unchanged, _said_coin, draw=_draw_coin, undoable=False, shown=True, shows_data=True),
    "first": _own(_nothing_sent, _apply_first, _said_first, draw=_draw_first, undoable=False, shown=True, shows_data=True),
    "new_game": _own(_parse_new_game, _apply_new_game, _said_new_game, ordered=True),
}
ACTIONS = tuple(OWN)
ORDERED = tuple(kind for kind, own in OWN.items() if own.ordered)  # actions that must carry the version they were made against
# An action no button of this table's page sends: a page from before the server's last update.
UNKNOWN = "this table cannot do that: reload the page to get its current buttons"
# A stale ordered action: someone changed the table while this player was deciding.
STALE = "someone changed the table while you were deciding: look again, then try once more"


# ---------------------------------------------------------------------------- deciding


def actions(state: Table) -> tuple[str, ...]:
    """The action types a table takes: every table's, then its game's own."""
    tracker = _tracker_of(state)
    return ACTIONS + (tuple(tracker.actions) if tracker else ())


def kept_by_undo(state: Table) -> tuple[str, ...]:
    """The event types that undo never takes back and that change the table: joins, draws, a
    reopening (not undos themselves)."""
    tracker = _tracker_of(state)
    own = tuple(kind for kind, action in OWN.items() if not action.undoable and kind != "undo")
    return ("join", *own, *(tuple(k for k, a in tracker.actions.items() if not a.undoable) if tracker else ()))


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


def _action(state: Table, kind: str) -> Action[Any] | None:
    """The action `kind` at this table: every table's own, else its game's (None if neither)."""
    own = OWN.get(kind)
    if own is not None:
        return own
    tracker = _tracker_of(state)
    return tracker.actions.get(kind) if tracker else None


def decide(state: Table, version: int, action: Any, randbelow: RandBelow) -> tuple[str, Data]:
    """The event (type, data) that `action` makes at `version`, or TableError.

    An action that must carry a version is refused without one, and with a stale one; any other
    action may carry one too, and is then refused if it is stale."""
    if not isinstance(action, dict):
        raise Invalid("an action must be an object")
    kind = action.get("type")
    if not isinstance(kind, str):
        raise Invalid(UNKNOWN)
    own = _action(state, kind)
    if own is None:
        raise Invalid(UNKNOWN)
    if own.ordered or action.get("version") is not None:
        made_at = action.get("version")
        if isinstance(made_at, bool) or not isinstance(made_at, int):
            raise Invalid("this phone did not say what it saw of the table: reload the page, look again and try once more")
        if made_at != version:
            raise Conflict(STALE)
    inputs = own.parse(state, action)
    door = _governed(state, kind, inputs)
    if door is not None:
        kind, own, inputs = door
    return kind, _run(state, kind, own, inputs, randbelow)


def _run(state: Table, kind: str, own: Action[Any], inputs: Data, randbelow: RandBelow) -> Data:
    """An action's event data: its inputs, its draws and its results."""
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


def _on_create(event: Event) -> Table:
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


def _on_join(state: Table, event: Event) -> Table:
    if not event.data["new"]:
        return state
    seat = _new_player(event.data["name"], event.data["options"], state["counter_specs"])
    return {**state, "players": [*state["players"], seat]}


BURST_SECONDS = 2.0  # taps on one counter by one phone, each this soon after the last: one change


@dataclass(frozen=True)
class Burst:
    """Taps (adjust events) on one counter by one phone, each soon after the last: one change, for
    undo and for the log alike. Made from its first tap (`of`) and grown by each that continues
    it (`then`); a table's undo keeps its latest burst as `stored()`, read back by `read`."""

    counter: str
    player: int | None
    by: int | None
    at: float  # its latest tap's time
    last: int  # its latest tap's seq
    from_: int  # the counter before its first tap
    delta: int  # its taps' sum

    @classmethod
    def of(cls, tap: Event) -> Burst:
        d = tap.data
        return cls(d["counter"], d["player"], tap.by, tap.at, tap.seq, d["from"], d["delta"])

    @classmethod
    def read(cls, stored: StoredBurst) -> Burst:
        return cls(**stored)

    def continues(self, event: Event) -> bool:
        """Whether `event` is a tap straight after this burst's, on the same counter, from the same
        phone, soon enough to be the same change."""
        d = event.data
        return (event.type == "adjust" and self.last == event.seq - 1 and self.by == event.by
                and self.counter == d["counter"] and self.player == d["player"]
                and 0 <= event.at - self.at <= BURST_SECONDS)

    def then(self, tap: Event) -> Burst:
        """The burst with `tap`, which continues it, added."""
        return replace(self, at=tap.at, last=tap.seq, delta=self.delta + tap.data["delta"])

    def stored(self) -> StoredBurst:
        return {"counter": self.counter, "player": self.player, "by": self.by, "at": self.at, "last": self.last,
                "from_": self.from_, "delta": self.delta}

    def text(self, state: Table, tap: Event) -> str:
        """The log's line for the burst, whose latest tap is `tap`."""
        return _adjust_text(state, tap.data, tap.by, self.delta, self.from_)


def undo_targets(data: Mapping[str, Any]) -> list[int]:
    """The seqs an undo event takes back: a burst of taps, or one change."""
    targets: list[int] = data.get("targets") or [data["target"]]
    return targets


def _undo_entry(before: Table, new: Table, event: Event) -> Undo:
    """What undo takes back once `event` is made: the change it made, or, for a tap, the burst
    of taps it makes or continues."""
    if event.type != "adjust":
        return {"seq": event.seq, "text": describe(event, new), "by": event.by}
    was = before["undo"]
    stored = was.get("burst") if was is not None else None
    earlier = Burst.read(stored) if stored is not None else None
    if was is not None and earlier is not None and earlier.continues(event):
        burst, seqs = earlier.then(event), [*was.get("seqs", [was["seq"]]), event.seq]
    else:
        burst, seqs = Burst.of(event), [event.seq]
    undo: Undo = {"seq": event.seq, "text": burst.text(new, event), "by": event.by, "burst": burst.stored()}
    if len(seqs) > 1:
        undo["seqs"] = seqs
    return undo


def _latest_draw(own: Action[Any], before: Table, new: Table, event: Event) -> LastDraw:
    """The draw every phone shows once `event`, a shown action's, is made: numbered after the
    game's draws before it, with its data when that is the draw itself (dice, a coin)."""
    drawn: dict[str, Any] = {"seq": event.seq, "type": event.type, "text": describe(event, new),
                             **(event.data if own.shows_data else {}), "number": _draws(before) + 1}
    return cast(LastDraw, drawn)  # the draw's data is JSON from the log: a roll's, a coin's or who goes first


def _draws(state: Table) -> int:
    """The draws of the game so far (dice, coins, a tracker's shown draws): each new one is numbered."""
    last = state["last_draw"]
    return last.get("number", 0) if last else 0


def evolve(state: Table | None, event: Event) -> Table:
    """The state after `event`. An undo is applied by `fold`, which sees the whole history."""
    if event.type == "undo":
        raise ValueError("an undo is applied by replaying the table's events: use fold()")
    own: Action[Any] | None = None
    if event.type == "create":
        new = _on_create(event)
    else:
        assert state is not None, "a table's events start with its 'create'"
        if event.type == "join":
            new = _on_join(state, event)
        else:
            own = _action(state, event.type)
            if own is None:
                raise ValueError(f"this table has no action {event.type!r}")
            new, _ = own.apply(state, dict(event.data), False)
    tracker = _tracker_of(new)
    if tracker is not None:
        new = _settled(tracker, new)
        life = _life(tracker, new)
        if life is not None and new.get("life") != life:
            new["life"] = life  # which counter a phone's "Bring back" raises
        fields = new.get("tracker")
        if new.get("reopened") and not (isinstance(fields, Mapping) and fields.get("over")):  # on again: the next end is final
            new = cast(Table, {k: v for k, v in new.items() if k != "reopened"})  # states are shared: never changed in place
        ended = _ended(tracker, new)
        if ended != new.get("end"):
            new = cast(Table, {**{k: v for k, v in new.items() if k != "end"}, **({"end": ended} if ended else {})})
    if own is not None and state is not None:
        if own.undoable:
            new["undo"] = _undo_entry(state, new, event)
        if own.shown:
            new["last_draw"] = _latest_draw(own, state, new, event)
    return new


def _ended(tracker: AnyTracker, state: Table) -> Ending | None:
    """How the game at the table ended, once it is finished (over, and nobody has reopened it):
    in its tracker's words, else from the `winner` every tracker keeps; None while it goes on."""
    if not finished(state):
        return None
    if tracker.end is not None:
        said: Ending = tracker.end(state)
        return said
    fields = state.get("tracker")
    winner = fields.get("winner") if isinstance(fields, Mapping) else None
    return won_by(state, winner if isinstance(winner, int) and not isinstance(winner, bool) else None, "Nobody won.")


def _settled(tracker: AnyTracker, state: Table) -> Table:
    settled: Table = tracker.settle(state)
    return settled


def public(state: Table) -> Mapping[str, object]:
    """The state as every phone may see it: without what the tracker keeps hidden."""
    if "hidden" not in state:
        return state
    return {k: v for k, v in state.items() if k != "hidden"}


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
    d = event.data
    if event.type == "create":
        return f"{name(state, event.by)} started {d['title']} for {and_([p['name'] for p in d['players']])}"
    if event.type == "join":
        return f"{d['name']} joined" + (" as a new player" if d["new"] else "")
    own = _action(state, event.type)
    if own is not None:
        return own.said(d, state, event.by) if own.said is not None else own.describe(d, state)
    return event.type


def _adjust_text(state: Table, data: Mapping[str, Any], by: int | None, delta: int, start: int) -> str:
    """'Ann: Health −3 → 17': a tap, or a burst of them (`delta` in all, from `start`)."""
    spec = counter_spec(state, data["counter"])
    owner = f"{name(state, data['player'])}: " if data["player"] is not None else ""
    text = f"{owner}{spec['label']} {signed(delta)} \N{RIGHTWARDS ARROW} {data['to']}"
    if data["to"] != start + delta:
        text += f" (stops at {data['to']})"
    return text + (f" (by {name(state, by)})" if by != data["player"] else "")


def log_entries(events: Iterable[Event], state: Table, undone_seqs: set[int]) -> list[LogEntry]:
    """The log's entries for `events` (in order), a burst of taps as one entry: its latest tap's,
    with the burst's text and `seqs`, every tap it stands for (some perhaps shown before)."""
    entries: list[LogEntry] = []
    burst: Burst | None = None
    for event in events:
        entry = log_entry(event, state, undone_seqs)
        if event.type == "adjust":
            if (burst is not None and burst.continues(event) and entries and entries[-1]["seq"] == event.seq - 1
                    and entries[-1]["undone"] == entry["undone"]):
                burst = burst.then(event)
                seqs = [*entries[-1].get("seqs", [entries[-1]["seq"]]), event.seq]
                entries[-1] = {**entry, "text": burst.text(state, event), "seqs": seqs}
                continue
            burst = Burst.of(event)
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
    own = _action(state, event.type)
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
