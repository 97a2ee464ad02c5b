"""The companion's SQLite schema, and the steps that bring an older file up to it."""

from __future__ import annotations

import sqlite3

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


def migrate(db: sqlite3.Connection) -> None:
    """Bring the file up to SCHEMA_VERSION. Version 1 kept request ids one per table rather than
    one per seat, had no checkpoints, archive or activity times, and counted wrong join codes in
    a table of their own."""
    db.execute("BEGIN IMMEDIATE")  # two servers starting on one file migrate it once
    version = db.execute("PRAGMA user_version").fetchone()[0]
    if version >= SCHEMA_VERSION:
        db.execute("COMMIT")
        return
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
