"""The PostgreSQL store: tables shared by several instances of the companion (psycopg 3).

The same tables and SQL as the SQLite store (companion/store.py and the parts it puts together hold
the logic both share; PostgresLog writes a batch's rows in one statement each).
What differs: connections come from a bounded pool, each with a statement timeout; a
transaction that writes locks its tables' rows (SELECT ... FOR UPDATE, in the order of their
ids, so two instances' batches cannot deadlock) before it reads them, so no two writers fold the
same version; a commit tells every instance which table moved with NOTIFY, and `watch` LISTENs
for it, so a phone streaming from one instance hears of a tap made through another at once.

Under gunicorn's gevent worker psycopg waits cooperatively on its own (3.1.14 on): a query
holds its greenlet, not the worker. That holds only if psycopg and its pool are first imported
after gevent has patched the standard library (both bind to select and threading as they are
imported): `spellpress serve` checks the database in a process of its own for that reason, and
a store made in a process where they were imported too early refuses to start. A failure of the database reaches a phone as 503 with a
plain reason; the connection string (which may hold a password) is never logged nor shown.
"""

from __future__ import annotations

import functools
import logging
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from typing import Any, SupportsIndex, TypeVar, cast

import psycopg
from psycopg.abc import PQGen
from psycopg_pool import ConnectionPool, _acompat

from ..database import Db
from ..jsontext import json_text
from ..schema import migrate_postgres
from ..snapshots import Snapshot
from ..store import Store, StoreUnreachable
from ..tablelog import CHECKPOINTS_KEPT, EventRow, TableLog
from . import describe
from .streamslots import StreamSlots

log = logging.getLogger("companion.store")
RV = TypeVar("RV")

CHANNEL = "spellpress_tables"  # NOTIFY's channel: the payload is "<table id> <version>"
POOL_SIZE = 10  # connections an instance may hold (besides the one that listens)
# A phone is answered within 5 s whatever the database does (a balancer's health check within 1 s):
POOL_WAIT = 2  # seconds a request waits for a free connection before it is told to try again
STATEMENT_TIMEOUT = 3  # seconds one statement, or the wait for a row's lock, may take on the server
ANSWER_WAIT = 4  # seconds the companion waits for any answer of the server: a hung server or network
HEALTH_WAIT = 1  # seconds /healthz waits for a connection, and then for the server's answer
CONNECT_TIMEOUT = 5
RETRY_LISTEN = 1.0  # seconds before listening again once the listening connection is lost


class Row(tuple[Any, ...]):
    """A row that answers to a column's name as well as its index, as sqlite3.Row does."""

    names: dict[str, int]

    def __getitem__(self, key: SupportsIndex | slice | str) -> Any:
        return super().__getitem__(self.names[key] if isinstance(key, str) else key)

    def keys(self) -> list[str]:
        return list(self.names)


def _rows(cursor: psycopg.Cursor) -> Callable[[Any], Row]:
    names = {column.name: i for i, column in enumerate(cursor.description or ())}

    def make(values: Any) -> Row:
        row = Row(values)
        row.names = names
        return row

    return make


@functools.lru_cache(maxsize=256)
def _dialect(sql: str) -> str:
    """The store's SQL, `?` for a parameter, as psycopg takes it (no `%` is in any statement that
    comes through here)."""
    return sql.replace("?", "%s")


class PgDb:
    """A psycopg connection as the store uses one: `?` parameters, rows by name or index."""

    __slots__ = ("conn",)

    def __init__(self, conn: psycopg.Connection):
        self.conn = conn

    def execute(self, sql: str, params: Iterable[Any] = ()) -> psycopg.Cursor:
        values = tuple(params)
        return self.conn.execute(_dialect(sql), values or None)


class PostgresLog(TableLog):
    """The tables' log with a batch's rows each in one statement: the same rows as the shared
    SQL writes, in a round trip's worth of statements rather than one a row."""

    def checkpoint(self, db: Db, table_id: str, now: Snapshot) -> None:
        """The stored state, and those past the latest CHECKPOINTS_KEPT let go: one statement (the
        same as the shared log's two; the deletion sees the rows as they were before the insert,
        so one more is kept)."""
        db.execute(
            "WITH gone AS (DELETE FROM checkpoints WHERE table_id = ? AND seq < "
            "(SELECT seq FROM checkpoints WHERE table_id = ? ORDER BY seq DESC LIMIT 1 OFFSET ?)) "
            "INSERT INTO checkpoints (table_id, seq, state) VALUES (?, ?, ?) "
            "ON CONFLICT (table_id, seq) DO UPDATE SET state = excluded.state",
            (table_id, table_id, CHECKPOINTS_KEPT - 1, table_id, now.version, now.stored),
        )

    def insert_events(self, db: Db, rows: list[EventRow]) -> None:
        """The batch's events in one statement, the rows one JSON array: a parameter written in
        one call (psycopg's arrays, a column each, cost the worker 30 us an event against 20),
        parsed once by the server as jsonb (json's ->> parses its element again for every
        column: 70 us of the server's CPU an event against 50). A statement per event cost the
        worker a send each."""
        if rows:
            db.execute("INSERT INTO events (table_id, seq, type, data, by_player, at, request_id, seat) "
                       "SELECT e->>0, (e->>1)::bigint, e->>2, e->>3, (e->>4)::integer, (e->>5)::double precision, "
                       "e->>6, e->>7 FROM jsonb_array_elements(?::jsonb) AS e", (json_text(rows),))

    def ask_seen(self, db: Db, keys: list[tuple[str, str, str]]) -> list[Any]:
        """The events these (table, seat, request id) made already: one query for them all."""
        if not keys:
            return []
        return [db.execute("SELECT * FROM events WHERE request_id IS NOT NULL AND (table_id, seat, request_id) IN "
                           "(SELECT k->>0, k->>1, k->>2 FROM jsonb_array_elements(?::jsonb) AS k)", (json_text(keys),))]


class PostgresStore(Store):
    kind = "postgresql"
    errors = (psycopg.Error,)
    claim = " FOR UPDATE SKIP LOCKED"
    # A batch whose tables this process knows is written in one round trip, its row locks taken
    # in the same pipeline; an event number or request id already taken rolls it back.
    read_first = False
    conflicts = (psycopg.errors.UniqueViolation, psycopg.errors.ForeignKeyViolation)
    table_log = PostgresLog

    def __init__(self, dsn: str, *, pool_size: int = POOL_SIZE, upgrade: bool = True, **settings: Any):
        if _acompat.Lock is not threading.RLock:
            raise StoreUnreachable("psycopg_pool was imported before gevent patched threading; import the companion after "
                                   "the patching (gunicorn without --preload), or one query would stop every phone")
        super().__init__(**settings)
        self.dsn = dsn
        self.where = describe(dsn)
        try:  # once directly, so that a wrong address or password is told plainly at start
            with psycopg.connect(dsn, autocommit=True, row_factory=_rows, connect_timeout=CONNECT_TIMEOUT) as conn:
                if upgrade:
                    migrate_postgres(PgDb(conn))
        except psycopg.Error as err:
            raise StoreUnreachable(f"cannot use {self.where}: {_reason(err)}") from None
        self._pool = ConnectionPool(
            dsn, min_size=1, max_size=pool_size, timeout=POOL_WAIT, open=True, name="spellpress",
            connection_class=_connection_class(),
            kwargs={"autocommit": True, "row_factory": _rows, "connect_timeout": CONNECT_TIMEOUT},
            configure=_configure,
        )
        self._slots = StreamSlots(self._slots_connection)

    def migrate(self) -> tuple[int, int]:
        with self._connection() as db:
            return migrate_postgres(db)

    def describe(self) -> str:
        return self.where

    def healthy(self) -> bool:
        """Whether the database answers within HEALTH_WAIT, for a load balancer whose own
        timeout is a few seconds: a free connection, and the server's answer, each that soon."""
        try:
            with self._pool.connection(timeout=HEALTH_WAIT) as conn:
                cast(_Bounded, conn).answer_wait = HEALTH_WAIT
                try:
                    conn.execute("SELECT 1").fetchone()
                finally:
                    cast(_Bounded, conn).answer_wait = ANSWER_WAIT
            return True
        except psycopg.Error:  # the pool's timeout too
            return False

    def close(self) -> None:
        self._slots.close()
        self._pool.close()

    def stream_slot(self, client: str, limit: int) -> Callable[[], None] | None:
        """A slot among every instance's: streamslots.py."""
        return self._slots.take(client, limit)

    def _slots_connection(self) -> psycopg.Connection:
        return _connection_class().connect(self.dsn, autocommit=True, connect_timeout=CONNECT_TIMEOUT)

    @contextmanager
    def _connection(self) -> Iterator[PgDb]:
        try:
            with self._pool.connection() as conn:
                yield PgDb(conn)
        except self.conflicts:  # rolled back; the batch is written again, reading first
            raise
        except psycopg.Error as err:  # the pool's timeout too
            raise self.unavailable(err) from None

    @contextmanager
    def reading(self, consistent: bool = False) -> Iterator[PgDb]:
        """`consistent`: a read-only transaction in pipeline mode, so that the reads asked before
        the first fetch go in one round trip with its BEGIN."""
        with self._connection() as db:
            if not consistent:
                yield db
                return
            with db.conn.pipeline():
                db.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
                yield db  # a failure leaves the transaction open: the pool rolls it back
                db.execute("COMMIT")

    @contextmanager
    def transaction(self, lock: Sequence[str] = (), pipelined: bool = False) -> Iterator[PgDb]:
        """BEGIN and the tables' row locks, sent together (one round trip): in the order of their
        ids, so that two instances' batches cannot deadlock. `pipelined`: the whole transaction in
        psycopg's pipeline mode, each statement sent without waiting for its answer: a fetch
        waits for every statement before it, and the commit for the rest, so a batch of
        actions costs a round trip to read (with the locks) and one to write and commit."""
        with self._connection() as db:
            with db.conn.pipeline():
                self._begin(db, lock)
                if pipelined:
                    yield db  # a failure leaves the transaction open: the pool rolls it back
                    db.execute("COMMIT")
                    return
            yield db
            db.execute("COMMIT")

    @staticmethod
    def _begin(db: PgDb, lock: Sequence[str]) -> None:
        db.execute("BEGIN")
        if lock:
            db.execute("SELECT id FROM tables WHERE id = ANY(?) ORDER BY id FOR UPDATE", (list(lock),))

    def set_state(self, db: Db, table_id: str, now: Snapshot) -> None:
        """The state, and a NOTIFY that every instance hears at the commit: one statement."""
        db.execute(
            "WITH moved AS (UPDATE tables SET version = ?, state = ?, active = ? WHERE id = ? RETURNING id, version) "
            "SELECT pg_notify(?, id || ' ' || version) FROM moved",
            (now.version, now.stored, self.clock(), table_id, CHANNEL),
        )

    def watch(self, listened: Callable[[], list[str] | None], publish: Callable[[str, int], None], poll: float) -> None:
        """LISTEN on a connection of its own; on (re)connecting, read the versions of the tables
        listened to, for what was written while nobody listened. Ends when nobody listens."""
        while listened() is not None:
            try:
                with psycopg.connect(self.dsn, autocommit=True, connect_timeout=CONNECT_TIMEOUT) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    self._catch_up(conn, listened, publish)
                    while listened() is not None:
                        for note in conn.notifies(timeout=max(poll, 0.5)):
                            table_id, _, version = note.payload.partition(" ")
                            publish(table_id, int(version))
                    return
            except psycopg.Error as err:
                log.error("the %s store stopped listening: %s; listening again", self.kind, _reason(err))
                time.sleep(RETRY_LISTEN)

    @staticmethod
    def _catch_up(conn: psycopg.Connection, listened: Callable[[], list[str] | None], publish: Callable[[str, int], None]) -> None:
        tables = listened() or []
        for table_id, version in conn.execute("SELECT id, version FROM tables WHERE id = ANY(%s)", (tables,)):
            publish(table_id, version)


@functools.cache
def _connection_class() -> type[psycopg.Connection]:
    """psycopg's connection, or under gevent's worker one whose waits look before they park;
    either way one that waits at most `answer_wait` seconds for the server (see _Bounded)."""
    monkey = sys.modules.get("gevent.monkey")
    if monkey is not None and monkey.is_module_patched("select"):
        from .greenwait import GreenConnection

        return type("BoundedGreenConnection", (_Bounded, GreenConnection), {})
    return _Bounded


class _Bounded(psycopg.Connection):
    """A connection that waits at most `answer_wait` seconds for the server's answer, then closes
    (the pool replaces it) and says the database is not answering. The server's statement
    timeout bounds a query the server runs; this bounds a server or a network that has stopped,
    where nothing answers at all (a request in flight used to wait as long as the server hung)."""

    answer_wait: float = ANSWER_WAIT

    def wait(self, gen: PQGen[RV], interval: float = 0.1, timeout: float | None = None) -> RV:
        try:
            return super().wait(gen, interval, self.answer_wait if timeout is None else timeout)
        except psycopg.errors._WaitTimeout:  # psycopg's own, raised by its waits and ours (greenwait)
            self.close()  # mid-statement: it cannot be used again
            raise psycopg.OperationalError(f"the server did not answer within {self.answer_wait:g} s") from None


def _configure(conn: psycopg.Connection) -> None:
    """Bounds on every pooled connection: no statement, and no wait for a lock, runs for ever.
    And lz4 for the states it stores: a table's state is rewritten at every batch (Magicka
    Mayhem's is 18 KB), and PostgreSQL's default compression (pglz) took 0.82 ms of the server's
    CPU per write of it against lz4's 0.19 ms. A server without lz4 (before 14, or built
    without it) keeps its default."""
    millis = STATEMENT_TIMEOUT * 1000
    conn.execute(f"SET statement_timeout = {millis}")
    conn.execute(f"SET lock_timeout = {millis}")
    conn.execute(f"SET idle_in_transaction_session_timeout = {millis * 12}")
    with suppress(psycopg.Error):  # no lz4 here: the server's default stays
        conn.execute("SET default_toast_compression = lz4")


def _reason(err: psycopg.Error) -> str:
    """What went wrong, in the server's or libpq's words (which hold no password)."""
    return " ".join(line.strip() for line in str(err).splitlines() if line.strip()) or type(err).__name__
