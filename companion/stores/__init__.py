"""The companion's two stores, and the choice between them: a postgresql:// address selects
PostgreSQL (several instances sharing tables), anything else is an SQLite file (the default)."""

from __future__ import annotations

from pathlib import Path

from ..store import Store


def is_postgres(target: object) -> bool:
    return isinstance(target, str) and target.startswith(("postgresql://", "postgres://"))


def open_store(target: Path | str, **settings) -> Store:
    """The store `target` names: `postgresql://user:password@host:port/dbname`, or a file's path."""
    if is_postgres(target):
        from .postgres import PostgresStore

        return PostgresStore(str(target), **settings)
    from .sqlite import SqliteStore

    return SqliteStore(target, **settings)
