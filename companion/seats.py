"""Who sits at a table, and how one gets there: seats and their tokens, join codes, and the
limits on a client that guesses codes or starts tables faster than they could be played.

A seat's token is given to its phone once; the database keeps only its hash. Seats never
change, so this process keeps each one it has read (CACHE_SIZE tokens at most).
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any

from .database import Database, Db
from .errors import Gone, NotFound, TooManyRequests
from .snapshots import CACHE_SIZE

# Join codes: no 0/O, 1/I/L, so a code read aloud across the table is typed right.
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 6


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normal_code(raw: object) -> str | None:
    """The code as stored, whatever case and spacing it was typed with; None if it cannot be one."""
    if not isinstance(raw, str):
        return None
    code = "".join(ch for ch in raw.upper() if ch not in " -")
    if len(code) != CODE_LENGTH or any(ch not in CODE_ALPHABET for ch in code):
        return None
    return code


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class Seat:
    table_id: str
    player: int
    token: str


class Seats:
    """The tables' seats and join codes. `write` is the process's one writer (writer.GroupWriter);
    `restore` brings back an archived table that a phone comes back to (archive.Archive)."""

    def __init__(self, database: Database, write: Callable[[Sequence[str]], AbstractContextManager[Db]],
                 restore: Callable[[str], bool], *, code_ttl: float, join_failures: tuple[int, float]):
        self.database, self._write, self._restore = database, write, restore
        self.code_ttl, self.join_failures = code_ttl, join_failures
        self._seats: dict[str, tuple[str, int]] = {}  # token hash -> (table, player)

    def add(self, db: Db, table_id: str, player: int) -> Seat:
        """A new seat for `player`, its token for its phone alone."""
        token = secrets.token_urlsafe(18)
        db.execute(
            "INSERT INTO seats (token_hash, table_id, player, created) VALUES (?, ?, ?, ?)",
            (token_hash(token), table_id, player, self.database.clock()),
        )
        return Seat(table_id, player, token)

    def player(self, table_id: str, key: str) -> int | None:
        """The player whose seat's token hashes to `key` at this table, or None."""
        seat = self._seats.get(key)
        if seat is None:
            row = self._row(key)
            if row is None and self._restore(table_id):  # a phone back at a table archived meanwhile
                row = self._row(key)
            if row is None:
                return None
            if len(self._seats) > CACHE_SIZE:
                self._seats.clear()
            seat = self._seats[key] = (row["table_id"], row["player"])
        return seat[1] if seat[0] == table_id else None

    def _row(self, key: str) -> Any:
        with self.database.reading() as db:
            return db.execute("SELECT table_id, player FROM seats WHERE token_hash = ?", (key,)).fetchone()

    # -- join codes

    def issue_code(self, db: Db, table_id: str) -> tuple[str, float]:
        """A new join code for the table, in place of its last: (code, expiry)."""
        now = self.database.clock()
        db.execute("DELETE FROM codes WHERE table_id = ? OR expires < ?", (table_id, now))
        while True:
            code = new_code()
            cursor = db.execute("INSERT INTO codes (code, table_id, expires) VALUES (?, ?, ?) ON CONFLICT (code) DO NOTHING",
                                (code, table_id, now + self.code_ttl))
            if cursor.rowcount == 1:  # else the code is another table's: draw again
                return code, now + self.code_ttl

    def new_code(self, table_id: str) -> tuple[str, float]:
        with self._write(()) as db:
            return self.issue_code(db, table_id)

    def code(self, table_id: str) -> tuple[str, float] | None:
        with self.database.reading() as db:
            row = db.execute("SELECT code, expires FROM codes WHERE table_id = ?", (table_id,)).fetchone()
        return (row["code"], row["expires"]) if row is not None and row["expires"] > self.database.clock() else None

    def resolve(self, raw_code: object, client: str) -> str:
        """The table a join code leads to. A wrong or expired code counts against the client,
        and a client with too many wrong guesses lately is turned away before the code is read."""
        now = self.database.clock()
        with self._write(()) as db:
            limit(db, "join", client, self.join_failures, self.database.clock(), "too many wrong codes; try again in {wait} seconds")
            code = normal_code(raw_code)
            row = db.execute("SELECT table_id, expires FROM codes WHERE code = ?", (code,)).fetchone() if code else None
            if row is not None and row["expires"] > now:
                table_id: str = row["table_id"]
                return table_id
            attempted(db, "join", client, now)
        if row is not None:
            raise Gone("that code has expired: ask someone at the table for a new one")
        raise NotFound("no table has that code: check it with someone at the table")


# -- limits


def limit(db: Db, kind: str, client: str, rate: tuple[int, float], now: float, refusal: str) -> None:
    """Refuse with 429 a client that has made `rate[0]` attempts of this kind within the last
    `rate[1]` seconds; `refusal` says so, with {wait} for the seconds until the next one counts."""
    allowed, window = rate
    db.execute("DELETE FROM attempts WHERE kind = ? AND at < ?", (kind, now - window))
    count, first = db.execute("SELECT count(*), min(at) FROM attempts WHERE kind = ? AND client = ?", (kind, client)).fetchone()
    if count >= allowed:
        wait = max(1, int(first + window - now) + 1)
        raise TooManyRequests(refusal.format(wait=wait), wait)


def attempted(db: Db, kind: str, client: str, at: float) -> None:
    """Count an attempt of this kind against the client."""
    db.execute("INSERT INTO attempts (kind, client, at) VALUES (?, ?, ?)", (kind, client, at))
