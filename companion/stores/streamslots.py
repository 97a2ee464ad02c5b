"""An address's live streams counted across every instance on one PostgreSQL database.

Each instance counts its own streams (live.Hub); a phone's address behind a balancer may reach
any instance, so the per-address limit must be one count for all of them. Each stream holds a
slot: one of the address's `limit` session advisory locks, (hash of the address, slot number),
taken on a connection of this instance's own. Whoever holds the lock holds the slot; an instance
that dies (kill -9 included) ends its session and its slots are free at once: no counts to
expire, no table written. Advisory locks taken with two keys live apart from the one-key lock
that migrations take.

If that connection fails, its slots are gone with it: the streams it counted go on, counted by
their instance alone, until they end (a database outage does not cut the phones' streams), and
the next stream opens a new connection.
"""

from __future__ import annotations

import logging
import threading
import zlib
from collections.abc import Callable

import psycopg

log = logging.getLogger("companion.store")


def address_key(client: str) -> int:
    """The address as a lock's first key: a signed 32-bit hash (the address itself is never sent)."""
    return zlib.crc32(b"spellpress-stream:" + client.encode()) - 2**31


class StreamSlots:
    def __init__(self, connect: Callable[[], psycopg.Connection]):
        self._connect = connect
        self._conn: psycopg.Connection | None = None
        self._lock = threading.Lock()  # one statement at a time on the connection (gevent patches it)
        self._held: dict[int, set[int]] = {}  # address key -> the slots this connection holds

    def take(self, client: str, limit: int) -> Callable[[], None] | None:
        """A slot of the address's `limit`, as what gives it back; None when every slot is held
        (here or by another instance). A database that cannot be asked admits the stream, counted
        by this instance alone (its own limit still holds)."""
        key = address_key(client)
        with self._lock:
            try:
                conn = self._connection()
                held = self._held.get(key, set())
                # CASE, not AND: PostgreSQL may evaluate AND's sides in either order, and a lock this
                # session holds already would be taken twice (and then outlive one unlock)
                row = conn.execute(
                    "SELECT s FROM generate_series(0, %s) s "
                    "WHERE CASE WHEN s = ANY(%s) THEN false ELSE pg_try_advisory_lock(%s, s) END LIMIT 1",
                    (limit - 1, sorted(held), key),
                ).fetchone()
            except psycopg.Error as err:
                self._lost(err)
                return lambda: None
            if row is None:
                return None
            slot = row[0]
            self._held[key] = held | {slot}
            conn_then = conn
        done = False

        def give_back() -> None:
            nonlocal done
            with self._lock:
                if done:
                    return
                done = True
                if self._conn is not conn_then:  # that connection is gone, and its locks with it
                    return
                self._held[key].discard(slot)
                if not self._held[key]:
                    del self._held[key]
                try:
                    conn_then.execute("SELECT pg_advisory_unlock(%s, %s)", (key, slot))
                except psycopg.Error as err:
                    self._lost(err)

        return give_back

    def _connection(self) -> psycopg.Connection:
        if self._conn is None or self._conn.closed:
            self._held.clear()
            self._conn = self._connect()
        return self._conn

    def _lost(self, err: psycopg.Error) -> None:
        log.error("the stream slots' connection failed: %s; this instance counts its streams alone until it is back",
                  type(err).__name__)
        if self._conn is not None:
            self._conn.close()
        self._conn = None
        self._held.clear()

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
            self._conn = None
            self._held.clear()
