"""A game played by its rules away from a phone: the balance lab's table, and the proof that the
lab and the companion play by one engine.

A game's rules are written once, as its tracker (`core/games/<game>/tracker.py`): its turns, legal
moves, card effects, deaths and end. A phone sends a move as JSON, and the companion's reducer
(`core/table.py`) turns it into an event and folds it into the table's state. The lab makes the
very same moves here, through a `Match`: each is parsed, drawn, applied and settled by the
tracker's own functions (strict: a move the rules refuse raises `Invalid` or `Conflict`, as it would
at the table), without the table's log, undo or JSON. What the lab knows that a table cannot (the
cards in each hand, the order of a deck) and its policies are the game's `lab.py`, its only
addition; every number a table shows lives in the match's state and nowhere else.

`replay` sends a recorded match's moves through the companion's path (`table.decide` and
`table.evolve`, each draw answered as it was in the lab) and says where the table and the lab
first disagree: the differential test of every game runs it (tests/test_one_engine.py).

`Lab` and `Outcome` are what a game's `lab.py` declares and returns; the lab package
(`spellpress.lab`) plays many of them and reports.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any

from . import table
from .games import ruleset_of
from .models import Game
from .play.errors import Invalid, TableError
from .play.state import RandBelow, mine, value
from .play.tracker import Data, Tracker
from .ruleset import Ruleset

# Keys of a table's state that the reducer keeps for the phones alone (the log's latest line, the
# undo button, the latest draw's banner, the counter "bring back" raises, the end in words at the
# top, said from the tracker's own `winner`): a match leaves them out.
TABLE_ONLY = ("undo", "last_draw", "life", "end")


@dataclass(frozen=True)
class Move:
    """One move as a phone would send it, and the answers its draws took."""

    type: str
    sent: Mapping[str, Any]  # the action's JSON, without its type and version
    drawn: tuple[int, ...]  # what each call of randbelow returned, in order
    by: int | None = None  # the seat whose phone made it


class Match:
    """One game's table, moved by the rules as phones would move it, and its moves recorded."""

    __slots__ = ("game", "tracker", "state", "created", "moves", "states", "version", "_randbelow", "_record")

    def __init__(self, game: Game, players: int | list[Any], randbelow: RandBelow,
                 options: Mapping[str, str] | None = None, record: bool = False) -> None:
        self.game = game
        tracker = ruleset_of(game).tracker
        if tracker is None:
            raise ValueError(f"{game.slug} has no tracker: the engine plays only games with one")
        self.tracker: Tracker[Any] = tracker
        self.created = table.start(game, players, dict(options or {}))
        self.state: Any = table.evolve(None, table.Event(1, "create", self.created))
        self.moves: list[Move] = []
        self.states: list[Any] = []  # the state after each recorded move
        self.version = 1  # the table's events so far: its create
        self._randbelow = randbelow
        self._record = record

    def act(self, kind: str, by: int | None = None, **sent: Any) -> Data:
        """Makes the move `kind` with `sent` as a phone would send it; returns its event's data
        (inputs, draws and results). A move the rules refuse raises, and changes nothing."""
        own = self.tracker.actions.get(kind)
        drawn: list[int] = []

        def randbelow(n: int) -> int:
            number = self._randbelow(n)
            drawn.append(number)
            return number

        if own is None:  # the table's own moves (a plain counter change, who goes first...): its reducer
            if kind not in table.ACTIONS:
                raise Invalid(f"{self.game.slug}: no move {kind!r}")
            event_type, data = table.decide(self.state, self.version, {**sent, "type": kind, "version": self.version},
                                            randbelow)
            self.state = table.evolve(self.state, table.Event(self.version + 1, event_type, data, by))
        else:
            inputs = own.parse(self.state, sent)
            data = {**inputs, **own.draw(self.state, inputs, randbelow)} if own.draw else inputs
            state, results = own.apply(self.state, data, True)
            self.state = self.tracker.settle(state)
            data = {**data, **results}
        self.version += 1
        if self._record:
            self.moves.append(Move(kind, dict(sent), tuple(drawn), by))
            self.states.append(self.state)
        return data

    @property
    def tracked(self) -> Any:
        """The table's own tracker fields (turn, round, winner...)."""
        return self.state["tracker"]

    def mine(self, seat: int) -> Any:
        """A seat's tracker fields."""
        return mine(self.state, seat)

    def counter(self, counter: str, seat: int | None = None) -> int:
        """A seat's counter, or the table's (seat None)."""
        return value(self.state, counter, seat)


def randbelow_of(rng: random.Random) -> RandBelow:
    """The lab's stand-in for the server's `secrets.randbelow`: seeded, so a game replays."""
    return rng.randrange


def comparable(state: Any) -> dict[str, Any]:
    """A state as both paths must agree on it: everything but what the reducer keeps for the phones."""
    return {k: v for k, v in state.items() if k not in TABLE_ONLY}


@dataclass(frozen=True)
class Divergence:
    move: int  # its index in the match's moves
    what: str

    def __str__(self) -> str:
        return self.what


def _first_difference(a: Any, b: Any, at: str = "") -> str | None:
    if a == b:  # the common case, compared at C speed: the walk below only finds where they differ
        return None
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        for key in sorted(set(a) | set(b), key=str):
            if key not in a or key not in b:
                return f"{at}.{key}: only in the {'lab' if key in a else 'table'}"
            found = _first_difference(a[key], b[key], f"{at}.{key}")
            if found:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f"{at}: the lab has {len(a)} items, the table {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            found = _first_difference(x, y, f"{at}[{i}]")
            if found:
                return found
        return None
    return None if a == b else f"{at}: lab {a!r}, table {b!r}"


class _Answers:
    """A randbelow that gives the table the draws the lab made for a move, and fails on any other."""

    def __init__(self, move: Move) -> None:
        self.move = move
        self.left = iter(move.drawn)

    def __call__(self, n: int) -> int:
        number = next(self.left, None)
        if number is None or not 0 <= number < n:
            raise AssertionError(f"the table drew below {n} where the lab drew {list(self.move.drawn)}")
        return number


def replay(game: Game, created: Mapping[str, Any], moves: list[Move],
           states: Iterator[Any] | None = None) -> tuple[Any, Divergence | None]:
    """Sends `moves` through the companion's reducer, as phones would (each carrying the version
    it was made against), their draws answered as recorded. Returns the table's final state and
    the first divergence: a move the table refuses, a draw it asks for differently, or (when
    `states` yields the lab's state after each move) a state that differs from the lab's."""
    state: Any = table.evolve(None, table.Event(1, "create", created))
    for i, move in enumerate(moves):
        randbelow = _Answers(move)
        version = i + 1
        try:
            kind, data = table.decide(state, version, {**move.sent, "type": move.type, "version": version}, randbelow)
        except (TableError, AssertionError) as refused:
            return state, Divergence(i, f"move {i} ({move.type} {dict(move.sent)}): the table refused it: {refused}")
        if next(randbelow.left, None) is not None:
            return state, Divergence(i, f"move {i} ({move.type}): the table drew less than the lab ({list(move.drawn)})")
        state = table.evolve(state, table.Event(version + 1, kind, data, move.by))
        if states is not None:
            lab = next(states)
            found = _first_difference(comparable(lab), comparable(state))
            if found:
                return state, Divergence(i, f"after move {i} ({move.type} {dict(move.sent)}): {found}")
    return state, None


def check(match: Match) -> Divergence | None:
    """Where a recorded match and the companion's table first disagree (None: nowhere)."""
    _, found = replay(match.game, match.created, match.moves, iter(match.states))
    return found


def outcome_agrees(outcome: Outcome) -> str | None:
    """Where a recorded game's outcome differs from what its table shows at the end (None: nowhere).

    Every tracker keeps `over` and `winner`; a co-operative one `cleared`; one whose game has
    turns or rounds counts them as `turns` and `rounds`, and the lab reports the table's count."""
    assert outcome.match is not None, "a recorded game"
    shown = outcome.match.tracked
    said = {"over": outcome.finished, "winner": outcome.winner if outcome.finished else shown.get("winner")}
    if "cleared" in shown:
        said["cleared"] = outcome.cleared
    if "turns" in shown:
        said["turns"] = outcome.turns
    if "rounds" in shown:
        said["rounds"] = outcome.rounds
    wrong = [f"{key}: lab {value!r}, table {shown.get(key)!r}" for key, value in said.items() if shown.get(key) != value]
    return "; ".join(wrong) or None


# ---------------------------------------------------------------------------- the lab's contract


@dataclass
class Outcome:
    """One game as played: who won (a seat, None for nobody), who went first, how long it took."""

    winner: int | None
    finished: bool  # False: stopped at the turn cap
    first: int  # the seat that played first
    turns: int
    rounds: int
    drawn: Counter[str] = field(default_factory=Counter)  # card id -> times it came into play (dealt, drawn, revealed)
    played: list[Counter[str]] = field(default_factory=list)  # per seat: card id -> times that seat played it
    figures: Counter[str] = field(default_factory=Counter)  # the game's own figures (halvings, deaths by kind...)
    cleared: bool = False  # a co-operative game: the party won together
    match: Match | None = None  # the game's table and moves, when the lab was asked to record them


# (prepared, rng, players, policy per seat, turn cap, record the moves) -> the outcome
Play = Callable[[Any, random.Random, int, tuple[str, ...], int, bool], Outcome]


@dataclass(frozen=True)
class Lab:
    """One game's model for the lab, declared in the game's folder (`lab.py`, its LAB): its
    policies (name -> one line saying what it does), how to compile a loaded game once
    (`prepare`), which cards it applies, and how to play a game through the game's engine."""

    ruleset: str
    policies: Mapping[str, str]
    prepare: Callable[[Game], Any]
    play: Play
    modelled: Callable[[Game], tuple[list[str], list[str]]]  # (card ids applied, card ids not applied)
    first_rule: str  # how the first player is chosen, as the report says it
    turn_cap: int
    seat_plays: Callable[[Game, int], str] | None = None  # what seat s plays with, where seats differ (a deck)
    coop: bool = False  # the party wins or loses together: the report gives a clear rate, not seats' win rates
    unmodelled_rules: tuple[str, ...] = ()  # rules of the rulebook the lab does not play (said in the report)
    refuses: Callable[[Game], str | None] | None = None  # why it cannot play a game of its ruleset (None: it can)


def lab_of(ruleset: Ruleset) -> Lab | None:
    """The game's model for the lab (its ruleset's `lab_module`'s LAB), or None if the lab cannot
    play it. Here, not a property of the Ruleset: the Lab is declared here, and this module
    imports the rulesets."""
    if ruleset.lab_module is None:
        return None
    lab: Lab = import_module(ruleset.lab_module).LAB
    return lab
