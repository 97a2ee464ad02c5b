"""Waking the phones that watch a table when its version moves, and counting who watches.

A write in this process publishes the table's new version at once. Writes by other processes
are heard of by a watcher thread, while anyone is listening, in the store's own way (its
`watch`): SQLite's `data_version` asked a few times a second (several workers on one file), or
PostgreSQL's LISTEN/NOTIFY (several instances on one database, each told at its commit).

An open phone costs no thread and no timer of its own: its stream waits, without a timeout, on
its table's condition, and one ticker per process beats the tables whose phones have heard
nothing for `beat` seconds (the phone calls 4 s of silence offline). Under gunicorn's gevent
worker a waiting stream is a parked greenlet: some kilobytes, no CPU. Tables start their beats
spread over the interval, so that a thousand phones opened at once do not beat at once.
"""

from __future__ import annotations

import threading
import time
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar, cast

from .errors import TooManyRequests, Unavailable
from .store import Store

STREAM_RETRY = 30  # seconds a refused phone polls before it asks for a stream again


TICK = 0.1  # seconds between the ticker's looks at which tables are due a beat

T = TypeVar("T")


class _Watched:
    """A table that phones listen to: its latest version, its phones' condition, when they last
    heard anything, and the message each version they may have seen moves them on with."""

    __slots__ = ("cond", "version", "listeners", "heard", "beats", "made")

    def __init__(self, cond: threading.Condition, version: int, heard: float):
        self.cond, self.version, self.listeners, self.heard = cond, version, 0, heard
        self.beats = 0
        self.made: dict[int, _Made] = {}


class _Made:
    """A message that one stream makes for every stream of its table: `ready` once made or failed."""

    __slots__ = ("ready", "value", "made")

    def __init__(self) -> None:
        self.ready = threading.Event()
        self.value: object = None
        self.made = False


class Hub:
    def __init__(self, store: Store, poll: float = 0.2, beat: float = 2.0):
        self.store, self.poll, self.beat = store, poll, beat
        self._lock = threading.Lock()
        self._tables: dict[str, _Watched] = {}
        self._watcher: threading.Thread | None = None
        self._ticker: threading.Thread | None = None
        self._streams: dict[str, int] = {}  # open streams by client address
        self._open = 0
        self.closed = False

    def admit(self, client: str, per_client: int, total: int) -> Callable[[], None]:
        """Count a new stream of `client`'s, or refuse it: a client past its share (counted by
        every instance on the database together: the store's slots), or a server past its total,
        is told to poll for a while instead. Returns what ends the stream's count."""
        with self._lock:
            mine = self._streams.get(client, 0)
            if mine >= per_client:
                raise self._too_many(mine)
            if self._open >= total:
                raise Unavailable("the server is watching as many tables as it can; the page reads the table every few "
                                  "seconds instead", STREAM_RETRY)
            self._streams[client] = mine + 1
            self._open += 1
        done = False

        def release() -> None:
            nonlocal done
            with self._lock:
                if not done:
                    done = True
                    self._open -= 1
                    self._streams[client] -= 1
                    if not self._streams[client]:
                        del self._streams[client]

        give_back = self.store.stream_slot(client, per_client)
        if give_back is None:
            release()
            raise self._too_many(per_client)

        def end() -> None:
            release()
            give_back()

        return end

    @staticmethod
    def _too_many(open_already: int) -> TooManyRequests:
        return TooManyRequests(f"this device has {open_already} live streams open already; the page reads the table "
                               "every few seconds instead", STREAM_RETRY)

    def streams(self) -> int:
        with self._lock:
            return self._open

    def publish(self, table_id: str, version: int) -> None:
        with self._lock:
            watched = self._tables.get(table_id)
            if watched is not None and version > watched.version:
                watched.version, watched.heard = version, time.monotonic()
                watched.cond.notify_all()

    def once(self, table_id: str, seen: int, make: Callable[[], T]) -> T:
        """What `make()` returns, made by the first stream of the table's that asks after version
        `seen`, and shared by the others: they all want the same message, and wait while it is
        made (a store whose reads give way to other streams, as PostgreSQL's do under gevent,
        would otherwise read once for every phone). Kept for the latest few versions of each
        table listened to, and gone with its last listener; a failed making is not kept, and the
        streams that waited for it each try for themselves. Every stream of a table asks with a
        `make` of one type (api.py's patch), so what another made is what this one would have."""
        with self._lock:
            watched = self._tables.get(table_id)
            slot = watched.made.get(seen) if watched is not None else None
            mine = watched if watched is not None and slot is None else None  # this stream makes it
            if mine is not None:
                if len(mine.made) >= 4:
                    del mine.made[min(mine.made)]
                slot = mine.made[seen] = _Made()
        if slot is None:  # nobody listens to this table (not through listen())
            return make()
        if mine is None:
            slot.ready.wait()
            return cast(T, slot.value) if slot.made else make()
        try:
            value = make()
            slot.value, slot.made = value, True
        finally:
            if not slot.made:
                with self._lock:
                    if mine.made.get(seen) is slot:
                        del mine.made[seen]
            slot.ready.set()
        return value

    def close(self) -> None:
        """End every stream (the server is stopping): the phones reconnect to the next one."""
        with self._lock:
            self.closed = True
            for watched in self._tables.values():
                watched.cond.notify_all()

    @contextmanager
    def listen(self, table_id: str, version: int) -> Iterator[Callable[[int], int]]:
        """While open, `wait(seen)` returns the table's latest version once it passes `seen`, or
        `seen` at the table's next beat or once the hub is closed."""
        with self._lock:
            watched = self._tables.get(table_id)
            first = watched is None
            if watched is None:
                spread = zlib.crc32(table_id.encode()) % 1000 / 1000 * self.beat
                watched = self._tables[table_id] = _Watched(threading.Condition(self._lock), version,
                                                            time.monotonic() - spread)
            watched.listeners += 1
            if self._watcher is None:
                self._watcher = threading.Thread(target=self._watch, name="spellpress-watcher", daemon=True)
                self._watcher.start()
            if self._ticker is None:
                self._ticker = threading.Thread(target=self._tick, name="spellpress-beats", daemon=True)
                self._ticker.start()

        def wait(seen: int) -> int:
            with self._lock:
                beats = watched.beats
                watched.cond.wait_for(lambda: self.closed or watched.version > seen or watched.beats != beats)
                return max(seen, watched.version)

        try:
            if first:  # a change another process made before this table was listened to is not missed
                self.publish(table_id, self.store.read(table_id).version)
            yield wait
        finally:
            with self._lock:
                watched.listeners -= 1
                if not watched.listeners:
                    del self._tables[table_id]

    def _tick(self) -> None:
        """Beat every table whose phones have heard nothing for `beat` seconds; ends when nobody
        listens any more."""
        while True:
            time.sleep(min(TICK, self.beat / 4))
            with self._lock:
                if not self._tables or self.closed:
                    self._ticker = None
                    return
                due = time.monotonic() - self.beat
                for watched in self._tables.values():
                    if watched.heard <= due:
                        watched.heard += self.beat * (1 + (due - watched.heard) // self.beat)
                        watched.beats += 1
                        watched.cond.notify_all()

    def _watch(self) -> None:
        """Publish what other processes wrote; ends when nobody listens any more."""
        self.store.watch(self._listened, self.publish, self.poll)

    def _listened(self) -> list[str] | None:
        """The tables listened to; None once there are none, and the watcher then ends."""
        with self._lock:
            if not self._tables:
                self._watcher = None
                return None
            return list(self._tables)
