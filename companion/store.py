"""The companion's store: each table's events and state, its seats and join code, its archive.

A store is made of parts, each its own module with one job: the tables' log with its
checkpoints and the cache of their states (tablelog.py, snapshots.py), the group writer that
writes actions many to a transaction (writer.py), the seats with their tokens, join codes and
limits (seats.py), and the archive of idle tables, which also moves tables between stores
(archive.py). `Store` puts them together and is what the API, the live streams and the command
line use. The two stores (companion/stores/) say only how a transaction is begun, how its
tables are locked, how a table's new state is stored and how other processes' changes are heard
of: SQLite, one file on this machine, the default; PostgreSQL, for several instances sharing
tables. The SQL is the dialect both understand, with `?` for parameters.
"""

from __future__ import annotations

import abc
import logging
import secrets
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any, ClassVar

from spellpress.core import table
from spellpress.core.models import Game
from spellpress.core.table import Event, Table

from .archive import Archive
from .database import Db
from .errors import SEAT_LOST, NotFound, TooManyRequests, Unauthorized, Unavailable
from .seats import Seat, Seats, attempted, limit, token_hash
from .snapshots import CACHE_SIZE, Snapshot
from .tablelog import LOG_LIMIT, TableLog
from .writer import GroupWriter, Outcome

log = logging.getLogger("companion.store")
UNREACHABLE = "the tables' database is not answering; try again in a moment"


class StoreUnreachable(Exception):
    """The database cannot be used at all (a wrong address or password, no server): said at start."""


class Store(abc.ABC):
    """A store of tables in one database. A store says how to begin a transaction that locks its
    tables (`transaction`), how to read (`reading`), how to store a table's new state and tell
    other processes of it (`set_state`) and how to hear of theirs (`watch`)."""

    kind = ""  # "sqlite" or "postgresql"
    errors: tuple[type[Exception], ...] = ()  # what the database raises when it fails
    claim = ""  # how a sweep claims the idle tables it archives (archive.archive_idle)
    read_first = True  # a batch reads its tables before writing (else: see writer.GroupWriter)
    conflicts: tuple[type[Exception], ...] = ()  # what the database raises when a batch met another's write
    table_log: ClassVar[type[TableLog]] = TableLog

    def __init__(
        self,
        *,
        code_ttl: float = 12 * 3600,
        join_failures: tuple[int, float] = (10, 300),
        creations: tuple[int, float] = (30, 3600),
        undos: tuple[int, float] = (8, 1.0),
        archive_after: float = 30 * 86400,
        clock: Callable[[], float] = time.time,
    ):
        self.clock = clock
        self.creations, self.undos = creations, undos
        self._undos: dict[str, list[float]] = {}  # each seat's latest undos, by the time they came
        self._undo_lock = threading.Lock()
        self.tables = self.table_log(self)
        self.writer = GroupWriter(self, self.tables)
        self.archive = Archive(self, self.writer.write, archive_after=archive_after)
        self.seats = Seats(self, self.writer.write, self.archive.restore, code_ttl=code_ttl, join_failures=join_failures)

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
    def transaction(self, lock: Sequence[str] = (), pipelined: bool = False) -> AbstractContextManager[Db]:
        """A connection in a transaction that may write, committed on leaving; the tables `lock`
        names (in order) are held till then, so no two writers fold the same version.
        `pipelined`: a statement may be sent without waiting for its answer until a row is
        fetched or the transaction ends (a write's rowcount is then unknown); a store whose
        database is in this process may run each at once. Only the group writer begins one
        (writer.py): one at a time in a process."""
        raise NotImplementedError

    def set_state(self, db: Db, table_id: str, now: Snapshot) -> None:
        """Store the table's new state; a store with other instances tells them at the commit."""
        db.execute("UPDATE tables SET version = ?, state = ?, active = ? WHERE id = ?", (now.version, now.stored, self.clock(), table_id))

    @abc.abstractmethod
    def watch(self, listened: Callable[[], list[str] | None], publish: Callable[[str, int], None], poll: float) -> None:
        """Publish the versions that other processes write to the tables `listened()` names, until
        it names none (None). Runs in a thread of its own."""
        raise NotImplementedError

    def stream_slot(self, client: str, limit: int) -> Callable[[], None] | None:
        """One of `limit` live-stream slots of the address `client`, shared with every process on
        this database, as what gives it back; None when all are held. Here: the processes on one
        SQLite file are one instance's workers, each counting its own (live.Hub)."""
        return lambda: None

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
        failures: tuple[type[Exception], ...] = (Unavailable, *self.errors)
        try:
            with self.reading() as db:
                db.execute("SELECT 1").fetchone()
            return True
        except failures:
            return False

    def unavailable(self, err: Exception) -> Unavailable:
        """A database's failure as the phones are told it: a plain reason. The log gets its kind,
        not its text (which can hold a join code or a seat's data)."""
        log.error("the %s store failed: %s %s", self.kind, type(err).__name__, getattr(err, "sqlstate", "") or "")
        return Unavailable(UNREACHABLE, 5)

    # -- tables

    def create(self, game: Game, players: object, options: object, client: str) -> tuple[Seat, str, float, Snapshot]:
        """A new table with its first event: (the creator's seat, code, the code's expiry, table).
        A client that starts tables faster than a table could be played is asked to wait."""
        event = Event(1, "create", table.start(game, players, options), by=0, at=self.clock())
        state = table.evolve(None, event)
        table_id = secrets.token_urlsafe(12)
        self.archive.sweep()
        with self.writer.write() as db:
            limit(db, "create", client, self.creations, self.clock(), "this device has started many tables lately; "
                  "try again in {wait} seconds, or join one of them")
            attempted(db, "create", client, event.at)
            after = self.tables.open(db, table_id, game.slug, event, state)
            seat = self.seats.add(db, table_id, 0)
            code, expires = self.seats.issue_code(db, table_id)
        return seat, code, expires, self.tables.remember(table_id, after)

    def read(self, table_id: str) -> Snapshot:
        try:
            with self.reading() as db:
                return self.tables.snapshot(db, table_id)
        except NotFound:
            if not self.archive.restore(table_id):
                raise
            with self.reading() as db:
                return self.tables.snapshot(db, table_id)

    def join(self, table_id: str, game: Game, name: object) -> tuple[Seat, Snapshot]:
        """A seat for the player called `name` (a new player if none is and the table has room)."""
        with self.writer.write([table_id]) as db:
            now = self.tables.snapshot(db, table_id)
            data = table.join(game, now.state, name)
            event = Event(now.version + 1, "join", data, by=data["player"], at=self.clock())
            after = self.tables.add(db, table_id, event, table.evolve(now.state, event))
            seat = self.seats.add(db, table_id, data["player"])
        return seat, self.tables.remember(table_id, after)

    def act(self, table_id: str, token: str, action: object, randbelow: Callable[[int], int]) -> Outcome:
        """Apply the action of the seat whose token is `token` once it is committed (writer.py);
        an action whose request_id this seat sent already is not applied again."""
        key = token_hash(token)
        player = self.seats.player(table_id, key)
        if player is None:
            raise Unauthorized(SEAT_LOST)
        if isinstance(action, dict) and action.get("type") == "undo":
            self._chained_undo(key)
        return self.writer.act(table_id, player, key, action, randbelow)

    def _chained_undo(self, key: str) -> None:
        """Count an undo of the seat whose token hashes to `key`, or refuse it with 429: a seat
        may send `undos[0]` within `undos[1]` seconds. Counted by this process, whose work an
        undo is (each instance bounds its own)."""
        allowed, window = self.undos
        now = self.clock()
        with self._undo_lock:
            recent = [at for at in self._undos.get(key, ()) if at > now - window]
            if len(recent) >= allowed:
                wait = max(1, int(recent[0] + window - now) + 1)
                raise TooManyRequests(f"at most {allowed} undos in {window:g} second(s) from one phone; "
                                      f"try again in {wait} seconds", wait)
            if len(self._undos) > CACHE_SIZE:
                self._undos.clear()
            self._undos[key] = [*recent, now]

    def events(self, table_id: str) -> list[Event]:
        return self.tables.events(table_id)

    def replay(self, table_id: str) -> Table:
        """The state folded afresh from every event of the table."""
        return self.tables.replay(table_id)

    def log(self, table_id: str, after: int = 0, limit: int = LOG_LIMIT) -> tuple[int, Mapping[str, object], list[dict[str, Any]]]:
        """(version, the public state, the log's entries after `after`: at most the latest `limit`,
        oldest first)."""
        now, entries = self.changes(table_id, after, limit)
        return now.version, now.public, entries

    def changes(self, table_id: str, after: int = 0, limit: int = LOG_LIMIT) -> tuple[Snapshot, list[dict[str, Any]]]:
        """The table now, and the log's entries after `after` (as `log`), read together."""
        return self.tables.changes(table_id, after, limit)

    # -- seats and codes

    def seat(self, table_id: str, token: str) -> int | None:
        """The player whose seat `token` is at this table, or None. Seats never change: cached."""
        return self.seats.player(table_id, token_hash(token))

    def new_code(self, table_id: str) -> tuple[str, float]:
        return self.seats.new_code(table_id)

    def code(self, table_id: str) -> tuple[str, float] | None:
        return self.seats.code(table_id)

    def resolve(self, raw_code: object, client: str) -> str:
        """The table a join code leads to (seats.Seats.resolve)."""
        return self.seats.resolve(raw_code, client)

    # -- moving tables from one store to another

    def export(self) -> Iterator[dict[str, Any]]:
        """Every table, the archived ones too, packed as the archive packs one (archive.py)."""
        return self.archive.export()

    def import_tables(self, packed: Iterable[dict[str, Any]]) -> tuple[int, int]:
        """Add the packed tables (archive.Archive.import_tables): (added, already here and left alone)."""
        return self.archive.import_tables(packed)
