"""The SQLite store: every table in one file on this machine, the default (no server to run).

WAL mode: readers never wait on the writer. `synchronous=NORMAL` keeps every committed event
through a killed server; only a power cut can take the last ones. A transaction that may write
starts with BEGIN IMMEDIATE, which takes the file's write lock before it reads, so no two
writers fold the same version. Other processes' writes (a server run with several workers on one
file) are noticed by asking SQLite's `data_version` a few times a second.

Connections are lent from a small pool of the store's own, not kept one per thread: under
gunicorn's gevent worker every HTTP connection is a greenlet, which `threading.local` follows,
and a connection each would cost every open phone's stream three open files (the database, its
-wal and -shm) and a page cache of its own. A greenlet never gives way inside an SQLite call, so
one or two connections serve a whole worker.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..schema import migrate
from ..store import Store
from . import describe

WATCH_MARGIN = 1.0  # seconds: a write stamped this long before a look, but committed after it, is still seen
IDLE_KEPT = 8  # connections the pool keeps open between uses; more are made when threads need them


def _create_private(path: Path) -> None:
    """The database file, readable by its owner alone (it holds every table's join code), in a
    folder of the owner's if we make one. SQLite gives its -wal and -shm files the same mode."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        pass


class SqliteStore(Store):
    kind = "sqlite"
    errors = (sqlite3.Error,)

    def __init__(self, path: Path | str, *, upgrade: bool = True, **settings: Any):
        super().__init__(**settings)
        self.path = str(path)
        self._idle: list[sqlite3.Connection] = []  # open, not in use (list.pop and append are atomic)
        self._owner = os.getpid()
        _create_private(Path(self.path))
        if upgrade:
            self.migrate()

    def migrate(self) -> tuple[int, int]:
        db = self.open()
        try:
            return migrate(db)
        finally:
            db.close()

    def describe(self) -> str:
        return describe(self.path)

    def open(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=10)
        db.row_factory = sqlite3.Row
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = NORMAL")
        db.execute("PRAGMA foreign_keys = ON")
        return db

    @contextmanager
    def _lease(self) -> Iterator[sqlite3.Connection]:
        """A connection of the pool's, back in it afterwards; a forked worker opens its own rather
        than share its parent's."""
        if self._owner != os.getpid():
            self._idle, self._owner = [], os.getpid()
        try:
            db = self._idle.pop()
        except IndexError:
            db = self.open()
        try:
            yield db
        finally:
            if db.in_transaction or len(self._idle) >= IDLE_KEPT or self._owner != os.getpid():
                db.close()  # a transaction left open (the process is going down) is not lent again
            else:
                self._idle.append(db)

    def close(self) -> None:
        while self._idle:
            self._idle.pop().close()

    @contextmanager
    def reading(self, consistent: bool = False) -> Iterator[sqlite3.Connection]:
        with self._lease() as db:
            if not consistent:
                yield db
                return
            db.execute("BEGIN")
            try:
                yield db
            finally:
                db.execute("COMMIT")

    @contextmanager
    def transaction(self, lock: Sequence[str] = (), pipelined: bool = False) -> Iterator[sqlite3.Connection]:
        """BEGIN IMMEDIATE takes the file's write lock, every table's at once. Every statement
        runs at once, pipelined or not: the database is in this process."""
        with self._lease() as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    def watch(self, listened: Callable[[], list[str] | None], publish: Callable[[str, int], None], poll: float) -> None:
        """Once the file has changed (`data_version`), the tables written since the last look (by
        their `active` stamp, with WATCH_MARGIN seconds to spare) that are listened to: a look costs
        the same whether ten tables are listened to or a thousand."""
        db = self.open()
        seen, since = None, self.clock()
        try:
            while (tables := listened()) is not None:
                changed = db.execute("PRAGMA data_version").fetchone()[0]
                if changed != seen:
                    seen, looked = changed, self.clock()
                    wanted = set(tables)
                    for row in db.execute("SELECT id, version FROM tables WHERE active >= ?", (since - WATCH_MARGIN,)):
                        if row[0] in wanted:
                            publish(row[0], row[1])
                    since = looked
                time.sleep(poll)
        finally:
            db.close()
