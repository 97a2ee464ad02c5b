"""What the store's parts (tablelog, writer, seats, archive) use of a database: a connection
(`Db`), and the store that lends connections and knows its database (`Database`). Each part
holds the store as a `Database` and reads its clock at every use (a test may set another)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol

from .errors import Unavailable
from .snapshots import Snapshot


class Db(Protocol):
    """A connection as the store uses it: sqlite3's, or the PostgreSQL store's wrapper of psycopg's.
    Rows answer to a column's name and to its index; the SQL has `?` for a parameter."""

    def execute(self, sql: str, params: Sequence[Any] = ..., /) -> Any: ...


class Database(Protocol):
    errors: tuple[type[Exception], ...]  # what the database raises when it fails
    conflicts: tuple[type[Exception], ...]  # what it raises when a batch met another instance's write
    read_first: bool  # a batch reads its tables before writing (else: see writer.GroupWriter)
    claim: str  # how a sweep claims the idle tables it archives (archive.archive_idle)
    clock: Callable[[], float]

    def reading(self, consistent: bool = False) -> AbstractContextManager[Db]: ...

    def transaction(self, lock: Sequence[str] = (), pipelined: bool = False) -> AbstractContextManager[Db]: ...

    def set_state(self, db: Db, table_id: str, now: Snapshot) -> None: ...

    def unavailable(self, err: Exception) -> Unavailable: ...
