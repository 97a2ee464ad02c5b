"""Tables nobody has played for a long while, moved out of the tables the server works on.

An archived table is one row: its table row, events and seats as compressed JSON. Nothing is
thrown away: the first time anyone opens the table again (its page, or a phone with its seat),
it comes back as it was, and its join code is made anew by any seat. The codes and checkpoints
of an archived table go: a code has long expired, and a checkpoint is made again by play.
"""

from __future__ import annotations

import json
import sqlite3
import zlib

BATCH = 200  # tables archived in one transaction, so a sweep never holds the writers up for long


def archive_idle(db: sqlite3.Connection, idle_since: float, now: float) -> int:
    """Archive up to BATCH tables whose latest event is older than `idle_since`; how many."""
    ids = [row[0] for row in db.execute("SELECT id FROM tables WHERE active < ? LIMIT ?", (idle_since, BATCH))]
    for table_id in ids:
        row = db.execute("SELECT * FROM tables WHERE id = ?", (table_id,)).fetchone()
        packed = {
            "table": dict(row),
            "events": [dict(r) for r in db.execute("SELECT * FROM events WHERE table_id = ? ORDER BY seq", (table_id,))],
            "seats": [dict(r) for r in db.execute("SELECT * FROM seats WHERE table_id = ?", (table_id,))],
        }
        data = zlib.compress(json.dumps(packed, separators=(",", ":")).encode(), 6)
        db.execute("INSERT OR REPLACE INTO archive (id, game, archived, data) VALUES (?, ?, ?, ?)", (table_id, row["game"], now, data))
        for kind in ("checkpoints", "codes", "seats", "events"):
            db.execute(f"DELETE FROM {kind} WHERE table_id = ?", (table_id,))
        db.execute("DELETE FROM tables WHERE id = ?", (table_id,))
    return len(ids)


def restore(db: sqlite3.Connection, table_id: str, now: float) -> bool:
    """Bring an archived table back, its activity time now; False if none is archived by that id."""
    row = db.execute("SELECT data FROM archive WHERE id = ?", (table_id,)).fetchone()
    if row is None:
        return False
    packed = json.loads(zlib.decompress(row[0]))
    _insert(db, "tables", [{**packed["table"], "active": now}])
    _insert(db, "events", packed["events"])
    _insert(db, "seats", packed["seats"])
    db.execute("DELETE FROM archive WHERE id = ?", (table_id,))
    return True


def _insert(db: sqlite3.Connection, kind: str, rows: list[dict]) -> None:
    for row in rows:
        columns = ", ".join(row)
        db.execute(f"INSERT INTO {kind} ({columns}) VALUES ({', '.join('?' * len(row))})", tuple(row.values()))

