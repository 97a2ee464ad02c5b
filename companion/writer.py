"""The group writer: every write of this process, one at a time, and the players' actions many
to a transaction.

While one thread writes, the others queue their actions; the next thread to write gives way
once, then takes every action queued by then, its own among them, into one transaction, and each
thread answers once its own action is committed. Under load one commit then serves many taps,
and the write is not handed from thread to thread for every one (under the GIL each hand-over
can wait a whole switch interval, and SQLite's own busy wait between threads would sleep in
whole milliseconds). Within the transaction, everything an action reads comes first (one look
at its tables' versions and at the request ids already seen), then its rules in memory, then
its writes, which nothing after them can refuse: an action the rules refuse has written
nothing, so it needs no savepoint, and PostgreSQL gets a batch's writes and its commit in one
round trip (`transaction(pipelined=True)`). A retried action (the same request id from the same
seat) is answered as before rather than applied again.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from spellpress.core import table
from spellpress.core.table import Event

from .database import Database, Db
from .errors import BadRequest
from .snapshots import CACHE_SIZE, Snapshot
from .tablelog import EventRow, TableLog, event

REQUEST_ID_MAX = 64
CONTENDED_FOR = 30.0  # seconds a table that another instance wrote is read before each batch

Seen = tuple[str, str, str]  # an action's (table, seat, request id): the key of a retry


@dataclass(frozen=True)
class Outcome:
    """A table after an action: the event the action became, and whether it was a repeat."""

    event: Event
    table: Snapshot
    repeated: bool = False  # the seat sent this request_id before: this is the event it made then


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


class GroupWriter:
    def __init__(self, database: Database, log: TableLog):
        self.database, self.log = database, log
        self._lock = threading.Lock()  # held by the one thread of the process that writes
        self._contended: dict[str, float] = {}  # tables another instance wrote lately: read first until then
        self._queue: list[_Job] = []
        self._jobs = threading.Lock()  # guards the queue and whether a thread is writing it
        self._writing = False
        monkey = sys.modules.get("gevent.monkey")  # the store is made after gunicorn's worker patched threads
        self._cooperative = monkey is not None and monkey.is_module_patched("threading")

    @contextmanager
    def write(self, lock: Sequence[str] = ()) -> Iterator[Db]:
        """A transaction of one write (a table started, a seat added, a code drawn), its
        tables `lock` held till it commits."""
        with self._lock, self.database.transaction(lock) as db:
            yield db

    def act(self, table_id: str, player: int, seat: str, action: object, randbelow: Callable[[int], int]) -> Outcome:
        """Apply the action of `player` (from the seat whose token hashes to `seat`) once it is
        committed; an action whose request_id this seat sent already is not applied again."""
        request_id = action.get("request_id") if isinstance(action, dict) else None
        if request_id is not None and not (isinstance(request_id, str) and 0 < len(request_id) <= REQUEST_ID_MAX
                                           and request_id.isprintable()):
            # printable: PostgreSQL keeps no NUL in text, and a batch's writes must not fail
            raise BadRequest(f"a tap's id is printable text of 1 to {REQUEST_ID_MAX} characters: reload the page")
        job = _Job(table_id, player, seat, action, request_id, randbelow, threading.Event())
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
                with self._lock:
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
            raise self.database.unavailable(job.error) if isinstance(job.error, self.database.errors) else job.error
        assert job.outcome is not None
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
            if not self.database.read_first:
                known = {table_id: self.log.snapshots.get(table_id) for table_id in ids}
                if all(known.values()) and all(self._contended.get(t, 0) < time.monotonic() for t in ids):
                    try:
                        self._write_batch(jobs, ids, {t: now for t, now in known.items() if now is not None})
                        return
                    except self.database.conflicts:
                        for table_id in ids:
                            self._contended[table_id] = time.monotonic() + CONTENDED_FOR
                        if len(self._contended) > CACHE_SIZE:
                            self._contended.clear()
                        for job in jobs:
                            job.outcome = job.error = None
            self._write_batch(jobs, ids, None)
        except Exception as err:  # the transaction failed: nothing in it was written
            for job in jobs:
                job.outcome, job.error = None, job.error or err
        finally:
            for job in jobs:
                job.done = True

    def _write_batch(self, jobs: list[_Job], ids: list[str], known: dict[str, Snapshot] | None) -> None:
        """The batch in one transaction, its tables as `known`, or else as read first."""
        tables: dict[str, Snapshot] = dict(known or {})  # the tables as this transaction has left them so far
        before: dict[str, Snapshot] = {}  # each table just before the latest event written to it
        with self.database.transaction(ids, pipelined=True) as db:
            seen = self._read_ahead(db, jobs, tables) if known is None else {}
            pending: list[EventRow] = []  # the events of the batch not yet inserted
            for job in jobs:
                # An action that the rules refuse (or that fails in memory otherwise) has
                # written nothing yet, and is refused alone; a failing database fails the batch.
                try:
                    now = tables.get(job.table_id) or self.log.snapshot(db, job.table_id)
                    job.outcome = self._apply(db, job, now, tables, seen, pending)
                    if not job.outcome.repeated:
                        before[job.table_id] = now
                except self.database.errors:
                    raise
                except Exception as err:
                    job.error = err
            self.log.insert_events(db, pending)
            for table_id, now in tables.items():
                if table_id in before:
                    self.database.set_state(db, table_id, now)
        for table_id, was in before.items():
            self.log.remember(table_id, tables[table_id], was)

    def _read_ahead(self, db: Db, jobs: list[_Job], tables: dict[str, Snapshot]) -> dict[Seen, Event]:
        """What a batch reads, asked all at once (on PostgreSQL, in the round trip that locks the
        tables): each table as it stands, into `tables`; and the events that the batch's request
        ids made already, by (table, seat, request id)."""
        looks = [self.log.look(db, table_id) for table_id in dict.fromkeys(job.table_id for job in jobs)]
        keys = dict.fromkeys((job.table_id, job.seat, rid) for job in jobs if (rid := job.request_id) is not None)
        asks = self.log.ask_seen(db, list(keys))
        for look in looks:
            row = look.cursor.fetchone()
            if row is not None:  # else each of its actions is told there is no such table
                tables[look.table_id] = self.log.seen(look, row)
        return {(row["table_id"], row["seat"], row["request_id"]): event(row) for ask in asks for row in ask.fetchall()}

    def _apply(self, db: Db, job: _Job, now: Snapshot, tables: dict[str, Snapshot], seen: dict[Seen, Event],
               pending: list[EventRow]) -> Outcome:
        """The action's outcome on the table `now`; its writes come last, once nothing in the
        action can be refused (its event joins `pending`, for the batch to insert). A request id
        that this seat sent already (`seen`, or earlier in this batch) is answered with the event
        it made then, though the table has moved on since."""
        key = (job.table_id, job.seat, job.request_id) if job.request_id is not None else None
        if key is not None and key in seen:
            return Outcome(seen[key], now, repeated=True)
        kind, data = table.decide(now.state, now.version, job.action, job.randbelow)
        made = Event(now.version + 1, kind, data, by=job.player, at=self.database.clock())
        after = self.log.append(db, job.table_id, now, made, pending, job.request_id, job.seat)
        if key is not None:
            seen[key] = made
        tables[job.table_id] = after
        return Outcome(made, after)
