"""What every game's tracker is made of.

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

The state an action reads and returns is described in `state`; the API never sends its
`hidden`, and events keep their secret draws under `data["hidden"]`, left out of the log.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .state import RandBelow


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
    rules: Callable[[Any, dict], dict | None]  # (game, the create event's data) -> rules
    player: Callable[[dict], dict]  # a player's tracker fields as they sit down
    initial: Callable[[dict], dict]  # the state with the table's tracker (and hidden) added
    settle: Callable[[dict], dict]  # derived fields, after every event of every kind
    actions: Mapping[str, Action]
    reveal: Callable[[Mapping, dict], bool] = field(default=lambda data, state: False)
