"""The companion's schema in SQLite and in PostgreSQL, and the steps that bring an older one up
to date. Both hold the same tables and columns, so a table moves between them as it is
(`spellpress db export/import`); the version is SQLite's user_version, and PostgreSQL's
schema_version table."""

from __future__ import annotations

import sqlite3
from typing import Any

SCHEMA_VERSION = 2
SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    created REAL NOT NULL,
    version INTEGER NOT NULL,
    state TEXT NOT NULL,
    active REAL NOT NULL DEFAULT 0  -- when its latest event happened: idle tables are archived
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS tables_by_activity ON tables (active);
CREATE TABLE IF NOT EXISTS events (
    table_id TEXT NOT NULL REFERENCES tables (id),
    seq INTEGER NOT NULL,
    type TEXT NOT NULL,
    data TEXT NOT NULL,
    by_player INTEGER,
    at REAL NOT NULL,
    request_id TEXT,
    seat TEXT,  -- the hash of the seat token that sent it: request ids are one per seat
    PRIMARY KEY (table_id, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS seats (
    token_hash TEXT PRIMARY KEY,
    table_id TEXT NOT NULL REFERENCES tables (id),
    player INTEGER NOT NULL,
    created REAL NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS seats_by_table ON seats (table_id);
CREATE TABLE IF NOT EXISTS codes (
    code TEXT PRIMARY KEY,
    table_id TEXT NOT NULL UNIQUE REFERENCES tables (id),
    expires REAL NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS checkpoints (
    table_id TEXT NOT NULL REFERENCES tables (id),
    seq INTEGER NOT NULL,
    state TEXT NOT NULL,
    PRIMARY KEY (table_id, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS archive (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    archived REAL NOT NULL,
    data BLOB NOT NULL  -- the table, its events and seats as compressed JSON
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS attempts (kind TEXT NOT NULL, client TEXT NOT NULL, at REAL NOT NULL);
CREATE INDEX IF NOT EXISTS attempts_by_client ON attempts (kind, client, at);
"""


def migrate(db: sqlite3.Connection) -> tuple[int, int]:
    """Bring the file up to SCHEMA_VERSION: (the version it was at, the version it is at).
    Version 1 kept request ids one per table rather than one per seat, had no checkpoints,
    archive or activity times, and counted wrong join codes in a table of their own."""
    db.execute("BEGIN IMMEDIATE")  # two servers starting on one file migrate it once
    version = db.execute("PRAGMA user_version").fetchone()[0]
    if version >= SCHEMA_VERSION:
        db.execute("COMMIT")
        return version, version
    if version == 1:
        db.execute("ALTER TABLE events ADD COLUMN seat TEXT")
        db.execute("ALTER TABLE tables ADD COLUMN active REAL NOT NULL DEFAULT 0")
        db.execute("UPDATE tables SET active = (SELECT max(at) FROM events WHERE table_id = tables.id)")
        db.execute("DROP INDEX IF EXISTS events_request")
        db.execute("DROP TABLE IF EXISTS join_failures")
    for statement in SCHEMA.split(";"):
        if statement.strip():
            db.execute(statement)
    db.execute("CREATE UNIQUE INDEX IF NOT EXISTS events_request ON events (table_id, seat, request_id) WHERE request_id IS NOT NULL")
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    db.execute("COMMIT")
    return version, SCHEMA_VERSION


# PostgreSQL began at version 2: the same tables, in its own types (bytea for a blob, double
# precision for a time in seconds, bigint for a count that grows).
POSTGRES_SCHEMA = """
CREATE TABLE IF NOT EXISTS schema_version (version integer NOT NULL);
CREATE TABLE IF NOT EXISTS tables (
    id text PRIMARY KEY,
    game text NOT NULL,
    created double precision NOT NULL,
    version bigint NOT NULL,
    state text NOT NULL,
    active double precision NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS tables_by_activity ON tables (active);
CREATE TABLE IF NOT EXISTS events (
    table_id text NOT NULL REFERENCES tables (id),
    seq bigint NOT NULL,
    type text NOT NULL,
    data text NOT NULL,
    by_player integer,
    at double precision NOT NULL,
    request_id text,
    seat text,
    PRIMARY KEY (table_id, seq)
);
CREATE UNIQUE INDEX IF NOT EXISTS events_request ON events (table_id, seat, request_id) WHERE request_id IS NOT NULL;
CREATE TABLE IF NOT EXISTS seats (
    token_hash text PRIMARY KEY,
    table_id text NOT NULL REFERENCES tables (id),
    player integer NOT NULL,
    created double precision NOT NULL
);
CREATE INDEX IF NOT EXISTS seats_by_table ON seats (table_id);
CREATE TABLE IF NOT EXISTS codes (
    code text PRIMARY KEY,
    table_id text NOT NULL UNIQUE REFERENCES tables (id),
    expires double precision NOT NULL
);
CREATE TABLE IF NOT EXISTS checkpoints (
    table_id text NOT NULL REFERENCES tables (id),
    seq bigint NOT NULL,
    state text NOT NULL,
    PRIMARY KEY (table_id, seq)
);
CREATE TABLE IF NOT EXISTS archive (
    id text PRIMARY KEY,
    game text NOT NULL,
    archived double precision NOT NULL,
    data bytea NOT NULL
);
CREATE TABLE IF NOT EXISTS attempts (kind text NOT NULL, client text NOT NULL, at double precision NOT NULL);
CREATE INDEX IF NOT EXISTS attempts_by_client ON attempts (kind, client, at);
"""
MIGRATION_LOCK = 0x5350454C  # an advisory lock's key: instances starting together migrate once


def migrate_postgres(db: Any) -> tuple[int, int]:
    """Bring the database up to SCHEMA_VERSION (as `migrate`), in one transaction."""
    db.execute("BEGIN")
    try:
        db.execute("SELECT pg_advisory_xact_lock(?)", (MIGRATION_LOCK,))
        exists = db.execute("SELECT to_regclass('schema_version') IS NOT NULL").fetchone()[0]
        row = db.execute("SELECT max(version) FROM schema_version").fetchone() if exists else None
        version = row[0] if row and row[0] is not None else 0
        if version < SCHEMA_VERSION:
            for statement in POSTGRES_SCHEMA.split(";"):
                if statement.strip():
                    db.execute(statement)
            db.execute("DELETE FROM schema_version")
            db.execute("INSERT INTO schema_version (version) VALUES (?)", (SCHEMA_VERSION,))
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")
    return version, max(version, SCHEMA_VERSION)
