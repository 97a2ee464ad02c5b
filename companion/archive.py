"""Tables nobody has played for a long while, moved out of the tables the server works on.

An archived table is one row: its table row, events and seats as compressed JSON. Nothing is
thrown away: the first time anyone opens the table again (its page, or a phone with its seat),
it comes back as it was, and its join code is made anew by any seat. The codes and checkpoints
of an archived table go: a code has long expired, and a checkpoint is made again by play.
The same packing of a table moves it from one store to another (`spellpress db export/import`).
The SQL is what SQLite and PostgreSQL both understand.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from typing import Any

from .database import Database, Db

BATCH = 200  # tables archived in one transaction, so a sweep never holds the writers up for long
SWEEP_EVERY = 3600  # seconds between two sweeps of a process at most


class Archive:
    """A store's archive: idle tables swept into it, brought back when opened, and every table
    packed to move to another store. `write` is the process's one writer (writer.GroupWriter)."""

    def __init__(self, database: Database, write: Callable[[Sequence[str]], AbstractContextManager[Db]], *,
                 archive_after: float):
        self.database, self._write = database, write
        self.archive_after = archive_after
        self._swept = 0.0  # when idle tables were last archived

    def sweep(self) -> None:
        """Archive the tables idle for longer than `archive_after`, once an hour at most."""
        now = self.database.clock()
        if now - self._swept < SWEEP_EVERY:
            return
        self._swept = now
        while True:
            with self._write(()) as db:
                if archive_idle(db, now - self.archive_after, now, self.database.claim) < BATCH:
                    return

    def restore(self, table_id: str) -> bool:
        """Bring back an archived table that someone opens again; False if there is none."""
        with self.database.reading() as db:
            if db.execute("SELECT 1 FROM archive WHERE id = ?", (table_id,)).fetchone() is None:
                return False
        with self._write(()) as db:
            return restore(db, table_id, self.database.clock())

    def export(self) -> Iterator[dict[str, Any]]:
        """Every table, the archived ones too, packed as the archive packs one."""
        with self.database.reading(consistent=True) as db:
            for (table_id,) in db.execute("SELECT id FROM tables ORDER BY id").fetchall():
                yield pack(db, table_id)
            for (data,) in db.execute("SELECT data FROM archive ORDER BY id").fetchall():
                yield unpack(bytes(data))

    def import_tables(self, packed: Iterable[dict[str, Any]]) -> tuple[int, int]:
        """Add the packed tables, all in one transaction: (added, already here and left alone).
        A seat that is another table's in this database refuses the whole import (Refused).
        Their join codes are not moved: any seat asks for a new one."""
        added = kept = 0
        with self._write(()) as db:
            for one in packed:
                table_id = one["table"]["id"]
                if (db.execute("SELECT 1 FROM tables WHERE id = ?", (table_id,)).fetchone()
                        or db.execute("SELECT 1 FROM archive WHERE id = ?", (table_id,)).fetchone()):
                    kept += 1
                    continue
                for seat in one["seats"]:
                    if db.execute("SELECT 1 FROM seats WHERE token_hash = ?", (seat["token_hash"],)).fetchone():
                        raise Refused(f"a seat of table {table_id!r} is another table's in this database")
                insert(db, one)
                added += 1
        return added, kept


class Refused(Exception):
    """An import that cannot be written as it is: nothing of it is."""


def pack(db: Db, table_id: str) -> dict[str, Any]:
    """The table's row, its events and its seats, as plain JSON-ready data."""
    row = db.execute("SELECT * FROM tables WHERE id = ?", (table_id,)).fetchone()
    return {
        "table": dict(row),
        "events": [dict(r) for r in db.execute("SELECT * FROM events WHERE table_id = ? ORDER BY seq", (table_id,))],
        "seats": [dict(r) for r in db.execute("SELECT * FROM seats WHERE table_id = ?", (table_id,))],
    }


def unpack(data: bytes) -> dict[str, Any]:
    packed: dict[str, Any] = json.loads(zlib.decompress(data))
    return packed


def archive_idle(db: Db, idle_since: float, now: float, claim: str = "") -> int:
    """Archive up to BATCH tables whose latest event is older than `idle_since`; how many.
    `claim` ends the query that picks them (PostgreSQL's FOR UPDATE SKIP LOCKED: two instances
    sweeping at once archive different tables)."""
    ids = [row[0] for row in db.execute(f"SELECT id FROM tables WHERE active < ? LIMIT ?{claim}", (idle_since, BATCH))]
    for table_id in ids:
        packed = pack(db, table_id)
        data = zlib.compress(json.dumps(packed, separators=(",", ":")).encode(), 6)
        db.execute("INSERT INTO archive (id, game, archived, data) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO UPDATE "
                   "SET game = excluded.game, archived = excluded.archived, data = excluded.data",
                   (table_id, packed["table"]["game"], now, data))
        for kind in ("checkpoints", "codes", "seats", "events"):
            db.execute(f"DELETE FROM {kind} WHERE table_id = ?", (table_id,))
        db.execute("DELETE FROM tables WHERE id = ?", (table_id,))
    return len(ids)


def restore(db: Db, table_id: str, now: float) -> bool:
    """Bring an archived table back, its activity time now; False if none is archived by that id."""
    row = db.execute("SELECT data FROM archive WHERE id = ?", (table_id,)).fetchone()
    if row is None:
        return False
    packed = unpack(bytes(row[0]))
    insert(db, {**packed, "table": {**packed["table"], "active": now}})
    db.execute("DELETE FROM archive WHERE id = ?", (table_id,))
    return True


def insert(db: Db, packed: dict[str, Any]) -> None:
    """Write a packed table back: its row, then its events and seats."""
    _insert(db, "tables", [packed["table"]])
    _insert(db, "events", packed["events"])
    _insert(db, "seats", packed["seats"])


COLUMNS = {  # what a packed table's rows may hold: names from a file being imported go into SQL
    "tables": {"id", "game", "created", "version", "state", "active"},
    "events": {"table_id", "seq", "type", "data", "by_player", "at", "request_id", "seat"},
    "seats": {"token_hash", "table_id", "player", "created"},
}


def _insert(db: Db, kind: str, rows: list[dict[str, Any]]) -> None:
    for row in rows:
        unknown = set(row) - COLUMNS[kind]
        if unknown:
            raise ValueError(f"{kind} have no column {', '.join(sorted(unknown))} (they have {', '.join(sorted(COLUMNS[kind]))})")
        columns = ", ".join(row)
        db.execute(f"INSERT INTO {kind} ({columns}) VALUES ({', '.join('?' * len(row))})", tuple(row.values()))
