"""Each table's log: its events, the state they fold to, the stored states that an undo replays
from, and the log as the phones read it.

Every change is an event row written in the same transaction as the table's folded state
(folded by spellpress.core.table), so the state is always the fold of the events (and `replay`
proves it). A stored state (a checkpoint) every CHECKPOINT_EVERY events lets an undo replay a
few events rather than the whole log. A table's state is parsed from the database only when its
version has moved since this process last saw it (snapshots.py).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from spellpress.core import table
from spellpress.core.play.errors import Conflict, Invalid
from spellpress.core.table import Event, Table

from .database import Database, Db
from .errors import NotFound
from .jsontext import json_text
from .snapshots import CACHE_SIZE, Snapshot, Snapshots, snapshot

LOG_LIMIT = 500
MAX_STATE = 256 * 1024  # bytes of a table's stored state: an action that would pass it is refused
CHECKPOINT_EVERY = 16  # events between two stored states of a table, from which an undo replays
CHECKPOINTS_KEPT = 16  # per table, the latest: an undo that walks back past them is refused
UNDO_REACH = CHECKPOINT_EVERY * CHECKPOINTS_KEPT  # events an undo may read to rebuild the table; more is refused
BURST_LOOKBACK = 64  # events read before a log's window, for a burst of taps that began there
REQUEST_TAG = 8  # characters of a request id the log shows

EventRow = tuple[Any, ...]  # an event as the events table holds it (`row`)


@dataclass(frozen=True)
class Look:
    """A table's version asked of the database, and its state unless it is at the version of
    `known`, the snapshot this process had when it asked."""

    table_id: str
    cursor: Any
    known: Snapshot | None


class TableLog:
    """The tables' events, states and checkpoints. A store whose database takes a batch's rows in
    one statement says so by a subclass (stores/postgres.py)."""

    def __init__(self, database: Database):
        self.database = database
        self.snapshots = Snapshots()
        self._before: dict[str, Snapshot] = {}  # each table just before its latest event, for an undo of it

    # -- a table as it stands

    def look(self, db: Db, table_id: str) -> Look:
        """Ask for the table's version, and its state unless this process has that version."""
        known = self.snapshots.get(table_id)
        cursor = db.execute("SELECT version, CASE WHEN version = ? THEN NULL ELSE state END FROM tables WHERE id = ?",
                            (known.version if known else -1, table_id))
        return Look(table_id, cursor, known)

    def seen(self, look: Look, row: Any) -> Snapshot:
        """The table the look found, from its `row` (`look.cursor.fetchone()`); NotFound if none."""
        if row is None:
            raise NotFound("no such table")
        if row[1] is None:  # the version of the snapshot looked with: the database said so
            assert look.known is not None and look.known.version == row[0]
            return look.known
        return self.snapshots.put(look.table_id, snapshot(row[0], json.loads(row[1]), row[1]))

    def snapshot(self, db: Db, table_id: str) -> Snapshot:
        """The table as the database has it; its state is parsed only when the version has moved."""
        look = self.look(db, table_id)
        return self.seen(look, look.cursor.fetchone())

    def remember(self, table_id: str, now: Snapshot, before: Snapshot | None = None) -> Snapshot:
        """Keep the table's state once it is committed; `before`, the state just before its
        latest event, for an undo of that event."""
        if before is not None:
            if len(self._before) > CACHE_SIZE:
                self._before.clear()
            self._before[table_id] = before
        return self.snapshots.put(table_id, now)

    # -- writing

    def open(self, db: Db, table_id: str, game: str, created: Event, state: Table) -> Snapshot:
        """A new table, with its first event and the state it makes; remembered once committed.
        A game whose fresh table would pass MAX_STATE is refused here: every action on it would be."""
        now = snapshot(created.seq, state)
        if len(now.stored) > MAX_STATE:
            raise Invalid(f"a table of this game would be too large to send to every phone ({len(now.stored) // 1024} KiB; "
                          f"at most {MAX_STATE // 1024} KiB): its decks hold too many different cards; "
                          "ask whoever keeps the game's cards to trim them")
        db.execute("INSERT INTO tables (id, game, created, version, state, active) VALUES (?, ?, ?, 0, '', ?)",
                   (table_id, game, created.at, created.at))
        self.insert_events(db, [row(table_id, created)])
        self.database.set_state(db, table_id, now)
        return now

    def add(self, db: Db, table_id: str, event: Event, state: Table) -> Snapshot:
        """Write one event and the state it leads to."""
        self.insert_events(db, [row(table_id, event)])
        now = snapshot(event.seq, state)
        self.database.set_state(db, table_id, now)
        return now

    def append(self, db: Db, table_id: str, now: Snapshot, event: Event, pending: list[EventRow],
               request_id: str | None = None, seat: str | None = None) -> Snapshot:
        """The table after `event`, which nothing after this refuses: its row joins `pending`, for
        the batch to insert with the others (`insert_events`), and the batch stores the state."""
        undo = event.type == "undo"
        if undo:
            self.insert_events(db, pending)  # the batch's events so far, for the undo to read
            pending.clear()
            state = self._undo(db, table_id, event, now)
        else:
            state = table.evolve(now.state, event)
        after = snapshot(event.seq, state)
        if len(after.stored) > MAX_STATE and len(after.stored) > len(now.stored):
            raise Invalid(f"that would make the table too large to send to every phone ({len(after.stored) // 1024} KiB); "
                          "take something off the table first")
        pending.append(row(table_id, event, request_id, seat))
        if undo:  # the stored states that hold an undone event are stale from now on; those before it stay
            db.execute("DELETE FROM checkpoints WHERE table_id = ? AND seq >= ?", (table_id, min(table.undo_targets(event.data))))
        # No stored state inside a burst of taps (an undo takes the burst back whole, from its
        # first tap), and one where a burst ends, for an undo of whatever follows it.
        continues = _burst(after.state)[-1:] == [event.seq] and len(_burst(after.state)) > 1
        if not undo and not continues and _burst(now.state)[-1:] == [now.version] and len(_burst(now.state)) > 1:
            self.checkpoint(db, table_id, now)
        if event.seq % CHECKPOINT_EVERY == 0 and not continues:
            self.checkpoint(db, table_id, after)
        return after

    def _undo(self, db: Db, table_id: str, undo: Event, now: Snapshot) -> Table:
        """The table's state once `undo` (not yet written) takes its events back. Most often it
        takes back the latest event, and the state before it is still in memory; else the table is
        replayed from the latest stored state before the first event it takes back: the events
        between them, and after the last one it takes back only those that undo never takes back
        (draws, joins: every change after it has been undone, or it would be the one undone now).
        An undo that would read more than UNDO_REACH events is refused, so an undo costs the same
        at the 20,000th event as at the 20th, whatever the bursts and undos before it. (`append`
        then deletes the stored states that hold an undone event.)"""
        targets = table.undo_targets(undo.data)
        first, last = min(targets), max(targets)  # a burst: from its first tap to its last
        was = self._before.get(table_id)
        if first == now.version and was is not None and was.version == first - 1:
            return was.state
        found = db.execute(
            "SELECT seq, state FROM checkpoints WHERE table_id = ? AND seq < ? ORDER BY seq DESC LIMIT 1", (table_id, first)
        ).fetchone()
        base = found["seq"] if found is not None else 0
        kept = table.kept_by_undo(now.state)
        after = db.execute(f"SELECT * FROM events WHERE table_id = ? AND seq > ? AND type IN ({', '.join('?' * len(kept))}) "
                           "ORDER BY seq LIMIT ?", (table_id, last, *kept, UNDO_REACH + 1)).fetchall()
        reading = first - 1 - base + len(after)
        if reading > UNDO_REACH:
            raise Conflict(f"that change is too far back to undo (more than {UNDO_REACH} events would be read again): "
                           "change the numbers back by hand")
        before = db.execute("SELECT * FROM events WHERE table_id = ? AND seq > ? AND seq < ? ORDER BY seq", (table_id, base, first))
        return table.fold([*(event(one) for one in [*before, *after]), undo], json.loads(found["state"]) if found else None)

    def checkpoint(self, db: Db, table_id: str, now: Snapshot) -> None:
        """Store the table's state at its version, and keep the latest CHECKPOINTS_KEPT: counted,
        not by distance, so that after undos have deleted the newest ones, those before them are
        there for the next undo."""
        db.execute("INSERT INTO checkpoints (table_id, seq, state) VALUES (?, ?, ?) "
                   "ON CONFLICT (table_id, seq) DO UPDATE SET state = excluded.state", (table_id, now.version, now.stored))
        db.execute(PRUNE, (table_id, table_id, CHECKPOINTS_KEPT - 1))

    def insert_events(self, db: Db, rows: list[EventRow]) -> None:
        """Append the events (rows of `row`). Their request ids are known to be new (read under the
        tables' locks): one seen already fails the transaction rather than leave a state ahead of
        its log."""
        for one in rows:
            db.execute("INSERT INTO events (table_id, seq, type, data, by_player, at, request_id, seat) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                       one)

    def ask_seen(self, db: Db, keys: list[tuple[str, str, str]]) -> list[Any]:
        """The queries for the events that these (table, seat, request id) made already, if any:
        their cursors, whose rows are fetched later."""
        return [db.execute("SELECT * FROM events WHERE table_id = ? AND seat = ? AND request_id = ?", key) for key in keys]

    # -- reading the log

    def _events(self, db: Db, table_id: str, after: int = 0) -> list[Event]:
        rows = db.execute("SELECT * FROM events WHERE table_id = ? AND seq > ? ORDER BY seq", (table_id, after))
        return [event(one) for one in rows]

    def events(self, table_id: str) -> list[Event]:
        with self.database.reading() as db:
            return self._events(db, table_id)

    def replay(self, table_id: str) -> Table:
        """The state folded afresh from every event of the table."""
        return table.fold(self.events(table_id))

    def changes(self, table_id: str, after: int = 0, limit: int = LOG_LIMIT) -> tuple[Snapshot, list[dict[str, Any]]]:
        """The table now, and the log's entries after `after` (at most the latest `limit`, oldest
        first), read together. The three reads are all asked before any is answered (on
        PostgreSQL, one round trip)."""
        with self.database.reading(consistent=True) as db:  # one moment for the state and the events
            look = self.look(db, table_id)
            # A few events before `after` too: a burst of taps that began there is shown whole.
            window = (table_id, max(0, after - BURST_LOOKBACK), limit + BURST_LOOKBACK)
            read = db.execute("SELECT * FROM events WHERE table_id = ? AND seq > ? ORDER BY seq DESC LIMIT ?", window)
            # Only an undo later than the first event read can have taken one of those shown back.
            undos = db.execute("SELECT data FROM events WHERE table_id = ? AND type = 'undo' AND seq > (SELECT min(seq) FROM "
                               "(SELECT seq FROM events WHERE table_id = ? AND seq > ? ORDER BY seq DESC LIMIT ?) AS shown)",
                               (table_id, *window))
            now = self.seen(look, look.cursor.fetchone())
            rows = read.fetchall()[::-1]
            skip = {seq for one in undos.fetchall() for seq in table.undo_targets(json.loads(one["data"]))}
        events = _with_burst(rows, after)
        tags = {one["seq"]: one["request_id"] for one in rows}
        entries = table.log_entries(events, now.state, skip)
        return now, [_tagged(entry, tags) for entry in entries if entry["seq"] > after][-limit:]


# The checkpoints of a table older than its CHECKPOINTS_KEPT latest (the offset is one less).
PRUNE = ("DELETE FROM checkpoints WHERE table_id = ? AND seq < "
         "(SELECT seq FROM checkpoints WHERE table_id = ? ORDER BY seq DESC LIMIT 1 OFFSET ?)")


def _burst(state: Table) -> list[int]:
    """The seqs of the taps of the burst that undo would take back now; [] if it is no burst."""
    latest = state["undo"]
    return latest.get("seqs", []) if latest is not None else []


def _with_burst(rows: list[Any], after: int) -> list[Event]:
    """The events of `rows` (oldest first) after `after`, and before them only the taps of a burst
    that the first of them continues: a burst's entry is shown whole, and no other event of the
    lookback is parsed nor described."""
    first = next((i for i, one in enumerate(rows) if one["seq"] > after), len(rows))
    events = [event(one) for one in rows[first:]]
    while first > 0 and events and rows[first - 1]["type"] == "adjust":
        tap = event(rows[first - 1])
        if not table.Burst.of(tap).continues(events[0]):
            break
        events.insert(0, tap)
        first -= 1
    return events


def _tagged(entry: table.LogEntry, tags: Mapping[int, str | None]) -> dict[str, Any]:
    """A log entry, with the start of its request id: enough for a phone to know its own tap has
    landed, too little for anyone else to send it again as that phone. A burst's entry carries
    each of its taps' tags, so that every tap it stands for is known to have landed."""
    found = [tags.get(seq) for seq in entry.get("seqs", [entry["seq"]])]
    shown = [tag[:REQUEST_TAG] for tag in found if tag]
    return {**entry, "request_tag": shown[-1] if shown else None, "request_tags": shown}


def row(table_id: str, event: Event, request_id: str | None = None, seat: str | None = None) -> EventRow:
    """An event as the events table holds it."""
    return (table_id, event.seq, event.type, json_text(event.data), event.by, event.at, request_id, seat)


def event(found: Any) -> Event:
    """An event from its row."""
    return Event(found["seq"], found["type"], json.loads(found["data"]), found["by_player"], found["at"])
