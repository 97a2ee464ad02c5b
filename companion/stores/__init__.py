"""The companion's two stores, and the choice between them: a postgresql:// address selects
PostgreSQL (several instances sharing tables), anything else is an SQLite file (the default)."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from ..store import Store


def is_postgres(target: object) -> bool:
    return isinstance(target, str) and target.startswith(("postgresql://", "postgres://"))


def describe(target: Path | str) -> str:
    """Where the tables are kept, in words: a file's path, or a database's name, host and port
    (never its user or password). Needs no database driver."""
    if not is_postgres(target):
        return f"the SQLite file {Path(target).resolve()}"
    try:
        url = urlsplit(str(target))
        host, port = url.hostname or "localhost", url.port or 5432
    except ValueError:
        return "a PostgreSQL database (its address could not be read)"
    return f"the PostgreSQL database {url.path.lstrip('/') or '?'} at {host}:{port}"


def open_store(target: Path | str, **settings: Any) -> Store:
    """The store `target` names: `postgresql://user:password@host:port/dbname`, or a file's path."""
    if is_postgres(target):
        from .postgres import PostgresStore

        return PostgresStore(str(target), **settings)
    from .sqlite import SqliteStore

    return SqliteStore(target, **settings)
