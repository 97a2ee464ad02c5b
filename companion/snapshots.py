"""A table's state at a version, as this process keeps it, and the cache of each table's latest.

A snapshot is never changed, so any number of threads share one. The cache is read in one step:
a reader keeps the snapshot it found (`Snapshots.get`) and compares the database's version with
that one, never with what the cache holds by the time the database answers. Another thread may
empty the cache (past CACHE_SIZE tables) or put a newer version in it meanwhile; the reader's
answer is the same either way.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from spellpress.core import table
from spellpress.core.table import Table

from .jsontext import dumps, json_text

CACHE_SIZE = 2_000  # tables' states (and seats, and other per-table notes) kept in memory


@dataclass(frozen=True)
class Snapshot:
    """A table's state at a version. Never changed: shared.

    `state` is the whole state, as stored (`stored`, its JSON text); `public` is what the phones
    see (without what the game's tracker keeps hidden), and `json` its JSON text."""

    version: int
    state: Table
    json: str
    public: Mapping[str, object]
    stored: str


def snapshot(version: int, state: Table, stored: str | None = None) -> Snapshot:
    """The snapshot of `state`; its stored text, when not given, is the public text with the
    hidden part added, so that the state is encoded once, not twice."""
    if "hidden" not in state:
        stored = stored if stored is not None else dumps(state)
        return Snapshot(version, state, stored, state, stored)
    public = table.public(state)
    shown = dumps(public)
    if stored is None:
        hidden = json_text(state["hidden"])
        stored = f'{shown[:-1]},"hidden":{hidden}}}' if shown != "{}" else f'{{"hidden":{hidden}}}'
    return Snapshot(version, state, shown, public, stored)


class Snapshots:
    """The latest snapshot this process has seen of each table, for CACHE_SIZE tables at most
    (past that it starts again, empty)."""

    def __init__(self) -> None:
        self._by_table: dict[str, Snapshot] = {}

    def get(self, table_id: str) -> Snapshot | None:
        return self._by_table.get(table_id)

    def put(self, table_id: str, now: Snapshot) -> Snapshot:
        if len(self._by_table) > CACHE_SIZE:
            self._by_table.clear()
        self._by_table[table_id] = now
        return now

    def clear(self) -> None:
        self._by_table.clear()
