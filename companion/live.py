"""Waking the phones that watch a table when its version moves, and counting who watches.

A write in this process publishes the table's new version at once. Writes by other processes
are heard of by a watcher thread, while anyone is listening, in the store's own way (its
`watch`): SQLite's `data_version` asked a few times a second (several workers on one file), or
PostgreSQL's LISTEN/NOTIFY (several instances on one database, each told at its commit).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from .errors import TooManyRequests, Unavailable
from .store import Store

STREAM_RETRY = 30  # seconds a refused phone polls before it asks for a stream again


class Hub:
    def __init__(self, store: Store, poll: float = 0.2):
        self.store, self.poll = store, poll
        self._lock = threading.Lock()
        self._waiting: dict[str, threading.Condition] = {}
        self._listeners: dict[str, int] = {}
        self._versions: dict[str, int] = {}
        self._watcher: threading.Thread | None = None
        self._made: dict[tuple, object] = {}
        self._streams: dict[str, int] = {}  # open streams by client address
        self.closed = False

    def admit(self, client: str, per_client: int, total: int) -> Callable[[], None]:
        """Count a new stream of `client`'s, or refuse it: a client past its share, or a server
        past its total, is told to poll for a while instead. Returns what ends the stream's count."""
        with self._lock:
            mine = self._streams.get(client, 0)
            if mine >= per_client:
                raise TooManyRequests(f"this device has {mine} live streams open already; the page reads the table "
                                      "every few seconds instead", STREAM_RETRY)
            if sum(self._streams.values()) >= total:
                raise Unavailable("the server is watching as many tables as it can; the page reads the table every few "
                                  "seconds instead", STREAM_RETRY)
            self._streams[client] = mine + 1
        done = False

        def release() -> None:
            nonlocal done
            with self._lock:
                if not done:
                    done = True
                    self._streams[client] -= 1
                    if not self._streams[client]:
                        del self._streams[client]

        return release

    def streams(self) -> int:
        with self._lock:
            return sum(self._streams.values())

    def publish(self, table_id: str, version: int) -> None:
        with self._lock:
            if table_id in self._waiting and version > self._versions.get(table_id, 0):
                self._versions[table_id] = version
                self._waiting[table_id].notify_all()

    def once(self, key: tuple, make: Callable[[], object]) -> object:
        """What `make()` returns, made by the first stream that asks and shared by the others:
        the phones watching a table all want the same message after the same version."""
        with self._lock:
            made = self._made.get(key)
        if made is None:
            made = make()
            with self._lock:
                if len(self._made) > 1000:
                    self._made.clear()
                made = self._made.setdefault(key, made)
        return made

    def close(self) -> None:
        """End every stream (the server is stopping): the phones reconnect to the next one."""
        with self._lock:
            self.closed = True
            for cond in self._waiting.values():
                cond.notify_all()

    @contextmanager
    def listen(self, table_id: str, version: int) -> Iterator[Callable[[int, float], int]]:
        """While open, `wait(seen, timeout)` returns the table's latest version once it passes
        `seen`, or `seen` after `timeout` seconds or once the hub is closed."""
        with self._lock:
            if table_id not in self._waiting:
                self._waiting[table_id] = threading.Condition(self._lock)
                self._versions[table_id] = version
                first = True
            else:
                first = False
            self._listeners[table_id] = self._listeners.get(table_id, 0) + 1
            cond = self._waiting[table_id]
            if self._watcher is None:
                self._watcher = threading.Thread(target=self._watch, name="spellpress-watcher", daemon=True)
                self._watcher.start()

        def wait(seen: int, timeout: float) -> int:
            with self._lock:
                cond.wait_for(lambda: self.closed or self._versions[table_id] > seen, timeout)
                return max(seen, self._versions[table_id])

        try:
            if first:  # a change another process made before this table was listened to is not missed
                self.publish(table_id, self.store.read(table_id).version)
            yield wait
        finally:
            with self._lock:
                self._listeners[table_id] -= 1
                if not self._listeners[table_id]:
                    del self._listeners[table_id], self._waiting[table_id], self._versions[table_id]

    def _watch(self) -> None:
        """Publish what other processes wrote; ends when nobody listens any more."""
        self.store.watch(self._listened, self.publish, self.poll)

    def _listened(self) -> list[str] | None:
        """The tables listened to; None once there are none, and the watcher then ends."""
        with self._lock:
            if not self._listeners:
                self._watcher = None
                return None
            return list(self._listeners)
