"""The games a companion offers, read again when their YAML changes: a designer who edits a card
or a constant sees it in the next table started, without restarting the server.

At most once a second a request looks at the modification times of the files under the cards
directory (a few dozen stats); when they moved, the games are loaded again. A table in play
keeps the rules it was started with (the table's state holds its own copy), so an edit never
changes a game under the players. YAML that does not load (saved halfway, a typo) leaves the
last good games in place, and the problems are logged.
"""

from __future__ import annotations

import itertools
import logging
import threading
import time
from collections.abc import Mapping
from pathlib import Path

from spellpress.core import Game, ValidationFailed, load_games

log = logging.getLogger("spellpress.companion")

Snapshot = dict[str, tuple[int, int]]


class Catalog:
    def __init__(self, cards: Path, games: Mapping[str, Game], every: float = 1.0):
        self.cards, self.every = cards, every
        self._games = dict(games)
        self._seen = _snapshot(cards)
        self._checked = time.monotonic()
        self._lock = threading.Lock()
        self.problems: list[str] = []  # why the YAML as it stands does not load, if it does not

    @property
    def games(self) -> Mapping[str, Game]:
        now = time.monotonic()
        if now - self._checked >= self.every and self._lock.acquire(blocking=False):
            try:
                self._checked = now
                self._reload_if_changed()
            finally:
                self._lock.release()
        return self._games

    def _reload_if_changed(self) -> None:
        seen = _snapshot(self.cards)
        if seen == self._seen:
            return
        self._seen = seen
        try:
            loaded = load_games(self.cards)
        except ValidationFailed as failed:
            self.problems = [str(p) for p in failed.problems]
            log.warning("the games' YAML changed but does not load; new tables keep the last good games:\n%s",
                        "\n".join(self.problems[:20]))
            return
        self._games, self.problems = {g.slug: g for g in loaded}, []
        log.info("the games' YAML changed: new tables get %s as they are now", ", ".join(self._games))


def _snapshot(cards: Path) -> Snapshot:
    seen: Snapshot = {}
    try:
        paths = list(itertools.islice(cards.rglob("*"), 10_000))  # it holds dozens: a bound against a stray folder
    except OSError:
        return seen
    for path in paths:
        try:
            st = path.stat()
        except OSError:
            continue
        if path.is_file():
            seen[str(path)] = (st.st_mtime_ns, st.st_size)
    return seen
