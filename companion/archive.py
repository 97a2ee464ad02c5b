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
from typing import Any

BATCH = 200  # tables archived in one transaction, so a sweep never holds the writers up for long
PARTS = ("table", "events", "seats")


def pack(db: Any, table_id: str) -> dict:
    """The table's row, its events and its seats, as plain JSON-ready data."""
    row = db.execute("SELECT * FROM tables WHERE id = ?", (table_id,)).fetchone()
    return {
        "table": dict(row),
        "events": [dict(r) for r in db.execute("SELECT * FROM events WHERE table_id = ? ORDER BY seq", (table_id,))],
        "seats": [dict(r) for r in db.execute("SELECT * FROM seats WHERE table_id = ?", (table_id,))],
    }


def unpack(data: bytes) -> dict:
    return json.loads(zlib.decompress(data))


def archive_idle(db: Any, idle_since: float, now: float, claim: str = "") -> int:
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


def restore(db: Any, table_id: str, now: float) -> bool:
    """Bring an archived table back, its activity time now; False if none is archived by that id."""
    row = db.execute("SELECT data FROM archive WHERE id = ?", (table_id,)).fetchone()
    if row is None:
        return False
    packed = unpack(bytes(row[0]))
    insert(db, {**packed, "table": {**packed["table"], "active": now}})
    db.execute("DELETE FROM archive WHERE id = ?", (table_id,))
    return True


def insert(db: Any, packed: dict) -> None:
    """Write a packed table back: its row, then its events and seats."""
    _insert(db, "tables", [packed["table"]])
    _insert(db, "events", packed["events"])
    _insert(db, "seats", packed["seats"])


COLUMNS = {  # what a packed table's rows may hold: names from a file being imported go into SQL
    "tables": {"id", "game", "created", "version", "state", "active"},
    "events": {"table_id", "seq", "type", "data", "by_player", "at", "request_id", "seat"},
    "seats": {"token_hash", "table_id", "player", "created"},
}


def _insert(db: Any, kind: str, rows: list[dict]) -> None:
    for row in rows:
        unknown = set(row) - COLUMNS[kind]
        if unknown:
            raise ValueError(f"{kind} have no column {', '.join(sorted(unknown))} (they have {', '.join(sorted(COLUMNS[kind]))})")
        columns = ", ".join(row)
        db.execute(f"INSERT INTO {kind} ({columns}) VALUES ({', '.join('?' * len(row))})", tuple(row.values()))
