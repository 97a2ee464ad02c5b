"""What every game's tracker is made of.

A tracker is a set of actions, as the table's own actions are (`table.OWN`: a counter's change,
undo, dice...). Each action is four pure functions:

- `parse(state, action)`: the action's inputs, checked for type and range (`Invalid` if not);
- `draw(state, inputs, randbelow)`: the randomness it needs, drawn from `randbelow` (optional);
- `apply(state, data, strict)`: the new state and the results, from the inputs and the draws;
- `describe(data, state)`: the log's line for it.

`table.decide` runs parse, draw and apply (strict: the action must make sense now, or it is
refused and nothing changes) and writes inputs, draws and results into the event's data;
`table.evolve` runs apply again on that data (not strict: when an undo replays a table, an
action that was fine when it was made is replayed as it was). The same code thus decides and
replays, and the results in the log are the ones the players saw.

The state an action reads and returns is described in `state`; the API never sends its
`hidden`, and events keep their secret draws under `data["hidden"]`, left out of the log.

One door: a tracker governs the counters its rules are about. `life` names the player counter
that puts a player out of the game at 0 (or at the value the game's YAML says), and `gone` says
what they are then ("dead", "a ghost"): a `+` on it is refused, and only the table's logged
"bring back" raises it again. `govern` turns a plain `−` or `+` on a counter into the tracker's
own action (a `−` on a wizard behind a barrier is damage through the barrier), so no number it
keeps moves around its rules.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from ..models import Game
from .state import Ending, RandBelow

S = TypeVar("S")  # the state of the game's table: its `TableState[...]`

# An event's data: the action's inputs, draws and results, kept as JSON in the table's log and
# read back from it on every replay. Each action has its own shape; its functions read it.
Data = dict[str, Any]
# What a phone sent: JSON, checked by `parse`.
Sent = Mapping[str, Any]


def _nothing_revealed(data: Mapping[str, Any], state: Any) -> Mapping[str, Any]:
    return {}


@dataclass(frozen=True)
class Action(Generic[S]):
    parse: Callable[[S, Sent], Data]
    apply: Callable[[S, Data, bool], tuple[S, Data]]
    describe: Callable[[Mapping[str, Any], S], str]
    draw: Callable[[S, Data, RandBelow], Data] | None = None
    ordered: bool = False  # must carry the version it was made against
    undoable: bool = True  # a change that undo can take back; draws and turns of the gun are not
    shown: bool = False  # shown to every phone as the latest draw
    shows_data: bool = False  # shown with its data, which is the draw itself (a roll's dice, a coin's side)
    private: bool = False  # its hidden results go back to the phone that asked, and to no other
    # the log's line where it names the phone that made the action, which its data does not (the
    # table's own actions: "Ann rolled 2d6"): (data, state, that phone's player) -> the line,
    # said in place of `describe`'s
    said: Callable[[Mapping[str, Any], S, int | None], str] | None = None


@dataclass(frozen=True)
class Tracker(Generic[S]):
    rules: Callable[[Game, Mapping[str, Any]], Mapping[str, object] | None]  # (game, the create event's data) -> rules
    initial: Callable[[S], S]  # the state with the table's tracker (and hidden) added
    settle: Callable[[S], S]  # derived fields, after every event of every kind
    actions: Mapping[str, Action[S]]
    # what an event kept hidden that the log may show now
    reveal: Callable[[Mapping[str, Any], S], Mapping[str, Any]] = field(default=_nothing_revealed)
    # the player counter at whose 0 a player is out of the game; or (state) -> it, where the
    # game's YAML names it (a game of YAML alone), None where nobody goes out
    life: str | Callable[[S], str | None] | None = None
    gone: Callable[[S, int], str | None] | None = None  # (state, player) -> "dead", "a ghost"...; None if in the game
    # (state, counter, player or None, delta) -> the tracker action (type, what a phone would send)
    # that a plain change of the counter is, or None to let it through as it is; a refusal raises
    govern: Callable[[S, str, int | None, int], tuple[str, dict[str, Any]] | None] | None = None
    # (state) -> why no new player may sit down now (a duel under way), or None to let them join
    refuse_join: Callable[[S], str | None] | None = None
    # (state of a finished game) -> how it ended, in the words every phone shows at its top; None:
    # the table says it from the fields every tracker keeps ("Ann wins!" for `winner`, else "Nobody won.")
    end: Callable[[S], Ending] | None = None
