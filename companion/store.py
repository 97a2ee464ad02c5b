"""The companion's store: each table's events, its state, its seats and its join code.

What every store does, whatever database holds the tables, is here, once: every change is an
event row written in the same transaction as the table's folded state (folded by
spellpress.core.table), so the state is always the fold of the events (and `replay` proves it);
a retried action (the same request id from the same seat) is answered as before rather than
applied again; a stored state every CHECKPOINT_EVERY events lets an undo replay a few events
rather than the whole log. The two stores (companion/stores/) say only how a transaction is
begun, how its tables are locked and how other processes' changes are heard of: SQLite, one
file on this machine, the default; PostgreSQL, for several instances sharing tables. The SQL is
the dialect both understand, with `?` for parameters.

Actions are written by group commit: while one thread writes, the others queue their actions;
the next thread to write gives way once, then takes every action queued by then, its own among
them, into one transaction, and each thread answers once its own action is committed. Under load one commit
then serves many taps, and the write is not handed from thread to thread for every one (under
the GIL each hand-over can wait a whole switch interval, and SQLite's own busy wait between
threads would sleep in whole milliseconds). Within the transaction, everything an action reads
comes first (one look at its tables' versions and at the request ids already seen), then its
rules in memory, then its writes, which nothing after them can refuse: an action the rules
refuse has written nothing, so it needs no savepoint, and PostgreSQL gets a batch's writes and
its commit in one round trip (`_transaction(pipelined=True)`).
"""

from __future__ import annotations

import abc
import hashlib
import json
import logging
import secrets
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from typing import Any, Protocol

from spellpress.core import table
from spellpress.core.models import Game
from spellpress.core.play.errors import Invalid
from spellpress.core.table import Event

from . import archive
from .errors import SEAT_LOST, BadRequest, Gone, NotFound, TooManyRequests, Unauthorized, Unavailable

# Join codes: no 0/O, 1/I/L, so a code read aloud across the table is typed right.
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 6
REQUEST_ID_MAX = 64
LOG_LIMIT = 500
CACHE_SIZE = 2_000  # tables' states and seats kept parsed in memory
MAX_STATE = 256 * 1024  # bytes of a table's stored state: an action that would pass it is refused
CONTENDED_FOR = 30.0  # seconds a table that another instance wrote is read before each batch
CHECKPOINT_EVERY = 16  # events between two stored states of a table, from which an undo replays
CHECKPOINTS_KEPT = 16  # per table: an undo reaching further back replays from the first event


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normal_code(raw: object) -> str | None:
    """The code as stored, whatever case and spacing it was typed with; None if it cannot be one."""
    if not isinstance(raw, str):
        return None
    code = "".join(ch for ch in raw.upper() if ch not in " -")
    if len(code) != CODE_LENGTH or any(ch not in CODE_ALPHABET for ch in code):
        return None
    return code


log = logging.getLogger("companion.store")
UNREACHABLE = "the tables' database is not answering; try again in a moment"


class StoreUnreachable(Exception):
    """The database cannot be used at all (a wrong address or password, no server): said at start."""


class Db(Protocol):
    """A connection as the store uses it: sqlite3's, or the PostgreSQL store's wrapper of psycopg's.
    Rows answer to a column's name and to its index."""

    def execute(self, sql: str, params: Iterable[Any] = ..., /) -> Any: ...


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class Seat:
    table_id: str
    player: int
    token: str


@dataclass(frozen=True)
class Snapshot:
    """A table's state at a version. Never changed: shared.

    `state` is the whole state, as stored (`stored`, its JSON text); `public` is what the phones
    see (without what the game's tracker keeps hidden), and `json` its JSON text."""

    version: int
    state: dict
    json: str
    public: dict
    stored: str


def snapshot(version: int, state: dict, stored: str | None = None) -> Snapshot:
    """The snapshot of `state`; its stored text, when not given, is the public text with the
    hidden part added, so that the state is encoded once, not twice."""
    if "hidden" not in state:
        stored = stored if stored is not None else table.dumps(state)
        return Snapshot(version, state, stored, state, stored)
    public = table.public(state)
    shown = table.dumps(public)
    if stored is None:
        hidden = table.json_text(state["hidden"])
        stored = f'{shown[:-1]},"hidden":{hidden}}}' if shown != "{}" else f'{{"hidden":{hidden}}}'
    return Snapshot(version, state, shown, public, stored)


@dataclass
class _Job:
    """An action waiting to be written, and then what became of it."""

    table_id: str
    player: int
    seat: str  # the hash of the seat token that sent it
    action: object
    request_id: str | None
    randbelow: Callable[[int], int]
    woken: threading.Event  # set once its job is done, or once it is its turn to write
    done: bool = False
    outcome: Outcome | None = None
    error: Exception | None = None


@dataclass(frozen=True)
class Outcome:
    """A table after an action: the event the action became, and whether it was a repeat."""

    event: Event
    table: Snapshot
    repeated: bool = False  # the seat sent this request_id before: this is the event it made then


class Store(abc.ABC):
    """What both stores share; a store says how to begin a transaction that locks its tables
    (`_transaction`), how to read (`reading`), how to store a table's new state and tell other
    processes of it (`_set_state`) and how to hear of theirs (`watch`)."""

    kind = ""  # "sqlite" or "postgresql"
    errors: tuple[type[Exception], ...] = ()  # what the database raises when it fails
    claim = ""  # how a sweep claims the idle tables it archives (archive.archive_idle)
    read_first = True  # a batch reads its tables before writing (else: see _write_jobs)
    conflicts: tuple[type[Exception], ...] = ()  # what the database raises when a batch met another's write

    def __init__(
        self,
        *,
        code_ttl: float = 12 * 3600,
        join_failures: tuple[int, float] = (10, 300),
        creations: tuple[int, float] = (30, 3600),
        archive_after: float = 30 * 86400,
        clock: Callable[[], float] = time.time,
    ):
        self.code_ttl = code_ttl
        self.join_failures, self.creations = join_failures, creations
        self.archive_after = archive_after
        self._swept = 0.0  # when idle tables were last archived
        self.clock = clock
        self._write_lock = threading.Lock()
        # Parsed once per version, and seats once per token: checked against the database each time.
        self._snapshots: dict[str, Snapshot] = {}
        self._before: dict[str, Snapshot] = {}  # each table just before its latest event, for an undo of it
        self._seats: dict[str, tuple[str, int]] = {}
        self._contended: dict[str, float] = {}  # tables another instance wrote lately: read first until then
        self._queue: list[_Job] = []
        self._jobs = threading.Lock()  # guards the queue and whether a thread is writing it
        self._writing = False
        monkey = sys.modules.get("gevent.monkey")  # the store is made after gunicorn's worker patched threads
        self._cooperative = monkey is not None and monkey.is_module_patched("threading")

    # -- what each store says for itself

    @abc.abstractmethod
    def migrate(self) -> tuple[int, int]:
        """Create or bring the schema up to date: (the version it was at, the version it is at)."""
        raise NotImplementedError

    @abc.abstractmethod
    def reading(self, consistent: bool = False) -> AbstractContextManager[Db]:
        """A connection to read with; `consistent`: every read through it sees one moment."""
        raise NotImplementedError

    @abc.abstractmethod
    def _transaction(self, lock: Sequence[str] = (), pipelined: bool = False) -> AbstractContextManager[Db]:
        """A connection in a transaction that may write, committed on leaving; the tables `lock`
        names (in order) are held till then, so no two writers fold the same version.
        `pipelined`: a statement may be sent without waiting for its answer until a row is
        fetched or the transaction ends (a write's rowcount is then unknown); a store whose
        database is in this process may run each at once."""
        raise NotImplementedError

    def _set_state(self, db: Db, table_id: str, now: Snapshot) -> None:
        """Store the table's new state; a store with other instances tells them at the commit."""
        db.execute("UPDATE tables SET version = ?, state = ?, active = ? WHERE id = ?", (now.version, now.stored, self.clock(), table_id))

    @abc.abstractmethod
    def watch(self, listened: Callable[[], list[str] | None], publish: Callable[[str, int], None], poll: float) -> None:
        """Publish the versions that other processes write to the tables `listened()` names, until
        it names none (None). Runs in a thread of its own."""
        raise NotImplementedError

    @abc.abstractmethod
    def describe(self) -> str:
        """Where the tables are kept, in words, with no password in them."""
        raise NotImplementedError

    @abc.abstractmethod
    def close(self) -> None:
        """Let go of the database's connections."""

    # -- failures

    def healthy(self) -> bool:
        """Whether the database answers now (for a load balancer's health check)."""
        try:
            with self.reading() as db:
                db.execute("SELECT 1").fetchone()
            return True
        except (Unavailable, *self.errors):
            return False

    def _unavailable(self, err: Exception) -> Unavailable:
        """A database's failure as the phones are told it: a plain reason. The log gets its kind,
        not its text (which can hold a join code or a seat's data)."""
        log.error("the %s store failed: %s %s", self.kind, type(err).__name__, getattr(err, "sqlstate", "") or "")
        return Unavailable(UNREACHABLE, 5)

    @contextmanager
    def _write(self, lock: Sequence[str] = ()) -> Iterator[Db]:
        with self._write_lock, self._transaction(lock) as db:
            yield db

    # -- tables

    def create(self, game: Game, players: object, options: object, client: str) -> tuple[Seat, str, float, Snapshot]:
        """A new table with its first event: (the creator's seat, code, the code's expiry, table).
        A client that starts tables faster than a table could be played is asked to wait."""
        event = Event(1, "create", table.start(game, players, options), by=0, at=self.clock())
        state = table.evolve(None, event)
        table_id = secrets.token_urlsafe(12)
        self._sweep()
        with self._write() as db:
            self._limit(db, "create", client, self.creations, "this device has started many tables lately; "
                        "try again in {wait} seconds, or join one of them")
            db.execute("INSERT INTO attempts (kind, client, at) VALUES ('create', ?, ?)", (client, event.at))
            db.execute(
                "INSERT INTO tables (id, game, created, version, state, active) VALUES (?, ?, ?, 0, '', ?)",
                (table_id, game.slug, event.at, event.at),
            )
            self._insert_event(db, table_id, event)
            after = self._update(db, table_id, event.seq, state)
            seat = self._new_seat(db, table_id, 0)
            code, expires = self._issue_code(db, table_id)
        return seat, code, expires, self._remember(table_id, after)

    def read(self, table_id: str) -> Snapshot:
        try:
            with self.reading() as db:
                return self._snapshot(db, table_id)
        except NotFound:
            if not self._restore(table_id):
                raise
            with self.reading() as db:
                return self._snapshot(db, table_id)

    def _restore(self, table_id: str) -> bool:
        """Bring back an archived table that someone opens again; False if there is none."""
        with self.reading() as db:
            if db.execute("SELECT 1 FROM archive WHERE id = ?", (table_id,)).fetchone() is None:
                return False
        with self._write() as db:
            return archive.restore(db, table_id, self.clock())

    def _sweep(self) -> None:
        """Archive the tables idle for longer than `archive_after`, once an hour at most."""
        now = self.clock()
        if now - self._swept < 3600:
            return
        self._swept = now
        while True:
            with self._write() as db:
                if archive.archive_idle(db, now - self.archive_after, now, self.claim) < archive.BATCH:
                    return

    def _snapshot(self, db: Db, table_id: str) -> Snapshot:
        """The table as the database has it; its state is parsed only when the version has moved."""
        return self._snapshot_of(table_id, self._look(db, table_id).fetchone())

    def _look(self, db: Db, table_id: str) -> Any:
        """The query for a table's version, and its state unless this process has that version."""
        cached = self._snapshots.get(table_id)
        return db.execute("SELECT version, CASE WHEN version = ? THEN NULL ELSE state END FROM tables WHERE id = ?",
                          (cached.version if cached else -1, table_id))

    def _snapshot_of(self, table_id: str, row: Any) -> Snapshot:
        cached = self._snapshots.get(table_id)
        if row is None:
            raise NotFound("no such table")
        if row[1] is None:
            return cached
        return self._remember(table_id, snapshot(row[0], json.loads(row[1]), row[1]))

    def _remember(self, table_id: str, snapshot: Snapshot) -> Snapshot:
        if len(self._snapshots) > CACHE_SIZE:
            self._snapshots.clear()
        self._snapshots[table_id] = snapshot
        return snapshot

    def act(self, table_id: str, token: str, action: object, randbelow: Callable[[int], int]) -> Outcome:
        """Apply the action of the seat whose token is `token` once it is committed; an action whose
        request_id this seat sent already is not applied again."""
        key = _hash(token)
        player = self._seat_of(table_id, key)
        if player is None:
            raise Unauthorized(SEAT_LOST)
        request_id = action.get("request_id") if isinstance(action, dict) else None
        if request_id is not None and not (isinstance(request_id, str) and 0 < len(request_id) <= REQUEST_ID_MAX
                                           and request_id.isprintable()):
            # printable: PostgreSQL keeps no NUL in text, and a batch's writes must not fail
            raise BadRequest(f"a tap's id is printable text of 1 to {REQUEST_ID_MAX} characters: reload the page")
        job = _Job(table_id, player, key, action, request_id, randbelow, threading.Event())
        with self._jobs:
            self._queue.append(job)
            leader = not self._writing  # nobody is writing: write this job, and all queued with it
            self._writing = True
        if not leader:
            job.woken.wait()
            leader = not job.done  # not written: the writing was handed on to it
        if leader:
            jobs: list[_Job] = []
            try:
                # Under gevent, give way once, so that the actions that have arrived meanwhile
                # join this transaction: no other greenlet runs until this one waits, and without
                # it every action would be a transaction of its own. (Threads queue meanwhile.)
                if self._cooperative:
                    time.sleep(0)
                with self._jobs:
                    jobs, self._queue = self._queue, []
                with self._write_lock:
                    self._write_jobs(jobs)
            finally:
                with self._jobs:
                    self._queue = [queued for queued in self._queue if queued is not job]  # a leader stopped early
                    following = self._queue[0] if self._queue else None  # the first still queued writes next
                    self._writing = following is not None
                for done in jobs:
                    done.woken.set()
                if following is not None:
                    following.woken.set()
        if job.error is not None:
            raise self._unavailable(job.error) if isinstance(job.error, self.errors) else job.error
        return job.outcome

    def _write_jobs(self, jobs: list[_Job]) -> None:
        """Write a batch in one transaction. A store whose reads cost a round trip (`read_first`
        false) writes a batch whose tables this process knows without reading them first: the
        whole transaction goes in one round trip, and a table that another instance moved
        meanwhile (or a request id sent before) is caught by the events' keys, which refuse a
        second event of one number; then the transaction is rolled back and the batch written
        again, reading first, and that table is read first for a while."""
        try:
            ids = sorted({job.table_id for job in jobs})
            if not self.read_first and all(self._snapshots.get(t) and self._contended.get(t, 0) < time.monotonic() for t in ids):
                try:
                    self._write_batch(jobs, ids, read=False)
                    return
                except self.conflicts:
                    for table_id in ids:
                        self._contended[table_id] = time.monotonic() + CONTENDED_FOR
                    if len(self._contended) > CACHE_SIZE:
                        self._contended.clear()
                    for job in jobs:
                        job.outcome = job.error = None
            self._write_batch(jobs, ids, read=True)
        except Exception as err:  # the transaction failed: nothing in it was written
            for job in jobs:
                job.outcome, job.error = None, job.error or err
        finally:
            for job in jobs:
                job.done = True

    def _write_batch(self, jobs: list[_Job], ids: list[str], read: bool) -> None:
        tables: dict[str, Snapshot] = {}  # the tables as this transaction has left them so far
        before: dict[str, Snapshot] = {}  # each table just before the latest event written to it
        with self._transaction(ids, pipelined=True) as db:
            if read:
                seen = self._read_ahead(db, jobs, tables)
            else:
                seen, tables = {}, {table_id: self._snapshots[table_id] for table_id in ids}
            written: list[tuple] = []  # the events of the batch not yet inserted
            for job in jobs:
                # An action that the rules refuse (or that fails in memory otherwise) has
                # written nothing yet, and is refused alone; a failing database fails the batch.
                try:
                    was = tables.get(job.table_id)
                    job.outcome = self._apply(db, job, tables, seen, written)
                    if not job.outcome.repeated:
                        before[job.table_id] = was or self._snapshots[job.table_id]
                except self.errors:
                    raise
                except Exception as err:
                    job.error = err
            self._insert_events(db, written)
            for table_id, now in tables.items():
                if table_id in before:
                    self._set_state(db, table_id, now)
        for table_id in before:
            self._remember(table_id, tables[table_id])
            if len(self._before) > CACHE_SIZE:
                self._before.clear()
            self._before[table_id] = before[table_id]

    def _read_ahead(self, db: Db, jobs: list[_Job], tables: dict[str, Snapshot]) -> dict[tuple, Event]:
        """What a batch reads, asked all at once (on PostgreSQL, in the round trip that locks the
        tables): each table as it stands, into `tables`; and the events that the batch's request
        ids made already, by (table, seat, request id)."""
        looks = {table_id: self._look(db, table_id) for table_id in dict.fromkeys(job.table_id for job in jobs)}
        keys = dict.fromkeys((job.table_id, job.seat, job.request_id) for job in jobs if job.request_id is not None)
        asks = self._ask_seen(db, list(keys))  # type: ignore[arg-type]  # (the seat and request id are str)
        for table_id, look in looks.items():
            row = look.fetchone()
            if row is not None:  # else each of its actions is told there is no such table
                tables[table_id] = self._snapshot_of(table_id, row)
        return {(row["table_id"], row["seat"], row["request_id"]): _event(row) for ask in asks for row in ask.fetchall()}

    def _apply(self, db: Db, job: _Job, tables: dict[str, Snapshot], seen: dict[tuple, Event], written: list[tuple]) -> Outcome:
        """The action's outcome; its writes come last, once nothing in the action can be refused
        (its event is added to `written`, for the batch to insert). A request id that this seat
        sent already (`seen`, or earlier in this batch) is answered with the event it made then,
        though the table has moved on since."""
        now = tables.get(job.table_id) or self._snapshot(db, job.table_id)
        key = (job.table_id, job.seat, job.request_id)
        if job.request_id is not None and key in seen:
            return Outcome(seen[key], now, repeated=True)
        kind, data = table.decide(now.state, now.version, job.action, job.randbelow)
        event = Event(now.version + 1, kind, data, by=job.player, at=self.clock())
        if kind == "undo":
            self._insert_events(db, written)  # the batch's events so far, for the undo to read
            written.clear()
            state = self._undo(db, job.table_id, event, now)
        else:
            state = table.evolve(now.state, event)
        after = snapshot(event.seq, state)
        if len(after.stored) > MAX_STATE and len(after.stored) > len(now.stored):
            raise Invalid(f"that would make the table too large to send to every phone ({len(after.stored) // 1024} KiB); "
                          "take something off the table first")
        written.append(_row(job.table_id, event, job.request_id, job.seat))
        if kind == "undo":  # the stored states that hold an undone event are stale from now on
            db.execute("DELETE FROM checkpoints WHERE table_id = ? AND seq >= ?", (job.table_id, min(table.undo_targets(data))))
        if event.seq % CHECKPOINT_EVERY == 0:
            self._checkpoint(db, job.table_id, after)
        if job.request_id is not None:
            seen[key] = event
        tables[job.table_id] = after
        return Outcome(event, after)

    def _undo(self, db: Db, table_id: str, undo: Event, now: Snapshot) -> dict:
        """The table's state once `undo` (not yet written) takes its events back. Most often it
        takes back the latest event, and the state before it is still in memory; else the table is
        replayed from the latest stored state before the first event it takes back. Either way an
        undo costs the same at the 20,000th event as at the 20th. (The caller then deletes the
        stored states that hold an undone event.)"""
        target = min(table.undo_targets(undo.data))  # a burst: from its first tap
        was = self._before.get(table_id)
        if target == now.version and was is not None and was.version == target - 1:
            return was.state
        row = db.execute(
            "SELECT seq, state FROM checkpoints WHERE table_id = ? AND seq < ? ORDER BY seq DESC LIMIT 1", (table_id, target)
        ).fetchone()
        if row is None:
            return table.fold([*self._events(db, table_id), undo])
        return table.fold([*self._events(db, table_id, after=row["seq"]), undo], json.loads(row["state"]))

    def _checkpoint(self, db: Db, table_id: str, now: Snapshot) -> None:
        db.execute("INSERT INTO checkpoints (table_id, seq, state) VALUES (?, ?, ?) "
                   "ON CONFLICT (table_id, seq) DO UPDATE SET state = excluded.state", (table_id, now.version, now.stored))
        db.execute(
            "DELETE FROM checkpoints WHERE table_id = ? AND seq <= ?", (table_id, now.version - CHECKPOINT_EVERY * CHECKPOINTS_KEPT)
        )

    def _update(self, db: Db, table_id: str, version: int, state: dict) -> Snapshot:
        """Store the table's new state; the caller remembers it once it is committed."""
        now = snapshot(version, state)
        self._set_state(db, table_id, now)
        return now

    def _insert_event(self, db: Db, table_id: str, event: Event) -> None:
        self._insert_events(db, [_row(table_id, event)])

    def _insert_events(self, db: Db, rows: list[tuple]) -> None:
        """Append the events (rows of `_row`). Their request ids are known to be new (read under the
        tables' locks): one seen already fails the transaction rather than leave a state ahead of
        its log. (A store with a server sends them in one statement.)"""
        for row in rows:
            db.execute("INSERT INTO events (table_id, seq, type, data, by_player, at, request_id, seat) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                       row)

    def _ask_seen(self, db: Db, keys: list[tuple[str, str, str]]) -> list[Any]:
        """The queries for the events that these (table, seat, request id) made already, if any:
        their cursors, whose rows are fetched later. (A store with a server asks in one statement.)"""
        return [db.execute("SELECT * FROM events WHERE table_id = ? AND seat = ? AND request_id = ?", key) for key in keys]

    def _events(self, db: Db, table_id: str, after: int = 0) -> list[Event]:
        rows = db.execute("SELECT * FROM events WHERE table_id = ? AND seq > ? ORDER BY seq", (table_id, after))
        return [_event(row) for row in rows]

    def events(self, table_id: str) -> list[Event]:
        with self.reading() as db:
            return self._events(db, table_id)

    def replay(self, table_id: str) -> dict:
        """The state folded afresh from every event of the table."""
        return table.fold(self.events(table_id))

    def log(self, table_id: str, after: int = 0, limit: int = LOG_LIMIT) -> tuple[int, dict, list[dict]]:
        """(version, the public state, the log's entries after `after`: at most the latest `limit`,
        oldest first)."""
        now, entries = self.changes(table_id, after, limit)
        return now.version, now.public, entries

    def changes(self, table_id: str, after: int = 0, limit: int = LOG_LIMIT) -> tuple[Snapshot, list[dict]]:
        """The table now, and the log's entries after `after` (as `log`), read together. The three
        reads are all asked before any is answered (on PostgreSQL, one round trip)."""
        with self.reading(consistent=True) as db:  # one moment for the state and the events
            look = self._look(db, table_id)
            # A few events before `after` too: a burst of taps that began there is shown whole.
            window = (table_id, max(0, after - BURST_LOOKBACK), limit + BURST_LOOKBACK)
            read = db.execute("SELECT * FROM events WHERE table_id = ? AND seq > ? ORDER BY seq DESC LIMIT ?", window)
            # Only an undo later than the first event read can have taken one of those shown back.
            undos = db.execute("SELECT data FROM events WHERE table_id = ? AND type = 'undo' AND seq > (SELECT min(seq) FROM "
                               "(SELECT seq FROM events WHERE table_id = ? AND seq > ? ORDER BY seq DESC LIMIT ?) AS shown)",
                               (table_id, *window))
            now = self._snapshot_of(table_id, look.fetchone())
            rows = read.fetchall()[::-1]
            skip = {seq for row in undos.fetchall() for seq in table.undo_targets(json.loads(row["data"]))}
        events = _with_burst(rows, after)
        tags = {row["seq"]: row["request_id"] for row in rows}
        entries = table.log_entries(events, now.state, skip)
        return now, [_tagged(entry, tags) for entry in entries if entry["seq"] > after][-limit:]

    # -- seats and codes

    def _new_seat(self, db: Db, table_id: str, player: int) -> Seat:
        token = secrets.token_urlsafe(18)
        db.execute(
            "INSERT INTO seats (token_hash, table_id, player, created) VALUES (?, ?, ?, ?)",
            (_hash(token), table_id, player, self.clock()),
        )
        return Seat(table_id, player, token)

    def seat(self, table_id: str, token: str) -> int | None:
        """The player whose seat `token` is at this table, or None. Seats never change: cached."""
        return self._seat_of(table_id, _hash(token))

    def _seat_of(self, table_id: str, key: str) -> int | None:
        seat = self._seats.get(key)
        if seat is None:
            row = self._seat_row(key)
            if row is None and self._restore(table_id):  # a phone back at a table archived meanwhile
                row = self._seat_row(key)
            if row is None:
                return None
            if len(self._seats) > CACHE_SIZE:
                self._seats.clear()
            seat = self._seats[key] = (row["table_id"], row["player"])
        return seat[1] if seat[0] == table_id else None

    def _seat_row(self, key: str) -> Any:
        with self.reading() as db:
            return db.execute("SELECT table_id, player FROM seats WHERE token_hash = ?", (key,)).fetchone()

    def _issue_code(self, db: Db, table_id: str) -> tuple[str, float]:
        now = self.clock()
        db.execute("DELETE FROM codes WHERE table_id = ? OR expires < ?", (table_id, now))
        while True:
            code = new_code()
            cursor = db.execute("INSERT INTO codes (code, table_id, expires) VALUES (?, ?, ?) ON CONFLICT (code) DO NOTHING",
                                (code, table_id, now + self.code_ttl))
            if cursor.rowcount == 1:  # else the code is another table's: draw again
                return code, now + self.code_ttl

    def _limit(self, db: Db, kind: str, client: str, rate: tuple[int, float], refusal: str) -> None:
        """Refuse with 429 a client that has made `rate[0]` attempts of this kind within the last
        `rate[1]` seconds; `refusal` says so, with {wait} for the seconds until the next one counts."""
        allowed, window = rate
        now = self.clock()
        db.execute("DELETE FROM attempts WHERE kind = ? AND at < ?", (kind, now - window))
        count, first = db.execute("SELECT count(*), min(at) FROM attempts WHERE kind = ? AND client = ?", (kind, client)).fetchone()
        if count >= allowed:
            wait = max(1, int(first + window - now) + 1)
            raise TooManyRequests(refusal.format(wait=wait), wait)

    def new_code(self, table_id: str) -> tuple[str, float]:
        with self._write() as db:
            return self._issue_code(db, table_id)

    def code(self, table_id: str) -> tuple[str, float] | None:
        with self.reading() as db:
            row = db.execute("SELECT code, expires FROM codes WHERE table_id = ?", (table_id,)).fetchone()
        return (row["code"], row["expires"]) if row is not None and row["expires"] > self.clock() else None

    def resolve(self, raw_code: object, client: str) -> str:
        """The table a join code leads to. A wrong or expired code counts against the client,
        and a client with too many wrong guesses lately is turned away before the code is read."""
        now = self.clock()
        with self._write() as db:
            self._limit(db, "join", client, self.join_failures, "too many wrong codes; try again in {wait} seconds")
            code = normal_code(raw_code)
            row = db.execute("SELECT table_id, expires FROM codes WHERE code = ?", (code,)).fetchone() if code else None
            if row is not None and row["expires"] > now:
                return row["table_id"]
            db.execute("INSERT INTO attempts (kind, client, at) VALUES ('join', ?, ?)", (client, now))
        if row is not None:
            raise Gone("that code has expired: ask someone at the table for a new one")
        raise NotFound("no table has that code: check it with someone at the table")

    def join(self, table_id: str, game: Game, name: object) -> tuple[Seat, Snapshot]:
        """A seat for the player called `name` (a new player if none is and the table has room)."""
        with self._write([table_id]) as db:
            now = self._snapshot(db, table_id)
            data = table.join(game, now.state, name)
            event = Event(now.version + 1, "join", data, by=data["player"], at=self.clock())
            self._insert_event(db, table_id, event)
            after = self._update(db, table_id, event.seq, table.evolve(now.state, event))
            seat = self._new_seat(db, table_id, data["player"])
        return seat, self._remember(table_id, after)

    # -- moving tables from one store to another

    def export(self) -> Iterator[dict]:
        """Every table, the archived ones too, packed as the archive packs one (archive.py)."""
        with self.reading(consistent=True) as db:
            for (table_id,) in db.execute("SELECT id FROM tables ORDER BY id").fetchall():
                yield archive.pack(db, table_id)
            for (data,) in db.execute("SELECT data FROM archive ORDER BY id").fetchall():
                yield archive.unpack(bytes(data))

    def import_tables(self, packed: Iterable[dict]) -> tuple[int, int]:
        """Add the packed tables, ARCHIVE.BATCH in a transaction: (added, already here and left alone).
        Their join codes are not moved: any seat asks for a new one."""
        added = kept = 0
        batch: list[dict] = []

        def write() -> None:
            nonlocal added, kept
            with self._write() as db:
                for one in batch:
                    table_id = one["table"]["id"]
                    if (db.execute("SELECT 1 FROM tables WHERE id = ?", (table_id,)).fetchone()
                            or db.execute("SELECT 1 FROM archive WHERE id = ?", (table_id,)).fetchone()):
                        kept += 1
                    else:
                        archive.insert(db, one)
                        added += 1
            batch.clear()

        for one in packed:
            batch.append(one)
            if len(batch) >= archive.BATCH:
                write()
        if batch:
            write()
        return added, kept


REQUEST_TAG = 8  # characters of a request id the log shows


BURST_LOOKBACK = 64  # events read before a log's window, for a burst of taps that began there


def _with_burst(rows: list[Any], after: int) -> list[Event]:
    """The events of `rows` (oldest first) after `after`, and before them only the taps of a burst
    that the first of them continues: a burst's entry is shown whole, and no other event of the
    lookback is parsed nor described."""
    first = next((i for i, row in enumerate(rows) if row["seq"] > after), len(rows))
    events = [_event(row) for row in rows[first:]]
    while first > 0 and events and rows[first - 1]["type"] == "adjust":
        tap = _event(rows[first - 1])
        burst = {"last": tap.seq, "by": tap.by, "counter": tap.data["counter"], "player": tap.data["player"], "at": tap.at}
        if not table.continues(burst, events[0]):
            break
        events.insert(0, tap)
        first -= 1
    return events


def _tagged(entry: table.LogEntry, tags: dict[int, str | None]) -> dict:
    """A log entry, with the start of its request id: enough for a phone to know its own tap has
    landed, too little for anyone else to send it again as that phone. A burst's entry carries
    each of its taps' tags, so that every tap it stands for is known to have landed."""
    found = [tags.get(seq) for seq in entry.get("seqs", [entry["seq"]])]
    shown = [tag[:REQUEST_TAG] for tag in found if tag]
    return {**entry, "request_tag": shown[-1] if shown else None, "request_tags": shown}


def _row(table_id: str, event: Event, request_id: str | None = None, seat: str | None = None) -> tuple:
    """An event as the events table holds it."""
    return (table_id, event.seq, event.type, table.json_text(event.data), event.by, event.at, request_id, seat)


def _event(row: Any) -> Event:
    return Event(row["seq"], row["type"], json.loads(row["data"]), row["by_player"], row["at"])
