"""The games a companion offers, read again when their YAML changes: a designer who edits a card
or a constant sees it in the next table started, without restarting the server.

At most once a second a request notices it is time to look at the modification times of the
files under the cards directory (a few dozen stats); when they moved, the games are loaded again.
Both happen off the request path: the request answers with the games as they are, while the
look and the load run in a thread of their own (a native one under gevent, so that a load's work
never stops the worker's other greenlets), and the loaded games are swapped in whole once they are
checked. A table in play keeps the rules it was started with (the table's state holds its own
copy), so an edit never changes a game under the players. YAML that does not load (saved halfway,
a typo) leaves the last good games in place, and the problems are logged.
"""

from __future__ import annotations

import itertools
import logging
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path

from gevent import monkey

from spellpress.core import Game, ValidationFailed, load_games

log = logging.getLogger("spellpress.companion")

Snapshot = dict[str, tuple[int, int]]
# What a load in the background gives back: the games, or why the YAML does not load.
Loaded = dict[str, Game] | ValidationFailed | None


class Catalog:
    def __init__(self, cards: Path, games: Mapping[str, Game], every: float = 1.0):
        self.cards, self.every = cards, every
        self._games: Mapping[str, Game] = dict(games)
        self._seen = _snapshot(cards)
        self._checked = time.monotonic()
        # Held while a look (and maybe a load) is under way: a native lock, never waited on, so
        # that a request under gevent takes it as a thread elsewhere would.
        self._looking = monkey.get_original("_thread", "allocate_lock")()
        self.problems: list[str] = []  # why the YAML as it stands does not load, if it does not

    @property
    def games(self) -> Mapping[str, Game]:
        """The games as last loaded; a look for edits is started if one is due."""
        if time.monotonic() - self._checked >= self.every and self._looking.acquire(blocking=False):
            _start(self._reload)
        return self._games

    def _reload(self) -> None:
        try:
            loaded = _apart(self._load_if_changed)
            if isinstance(loaded, ValidationFailed):
                self.problems = loaded.said()
                log.warning("the games' YAML changed but does not load; new tables keep the last good games:\n%s",
                            "\n".join(self.problems[:20]))
            elif loaded is not None:
                self._games, self.problems = loaded, []  # one assignment: a request sees the old games or the new
                log.info("the games' YAML changed: new tables get %s as they are now", ", ".join(loaded))
        finally:
            self._checked = time.monotonic()
            self._looking.release()

    def _load_if_changed(self) -> Loaded:
        """The games loaded again if their files moved since the last look, else None."""
        seen = _snapshot(self.cards)
        if seen == self._seen:
            return None
        self._seen = seen
        try:
            return {g.slug: g for g in load_games(self.cards)}
        except ValidationFailed as failed:
            return failed


def _start(job: Callable[[], None]) -> None:
    """`job` begun beside the request: a greenlet under gevent (threading is patched), else a thread."""
    threading.Thread(target=job, daemon=True, name="spellpress-catalog").start()


def _apart(work: Callable[[], Loaded]) -> Loaded:
    """`work` done in a native thread and waited for: under gevent, in the hub's pool of threads,
    so that its reading and checking (seconds of CPU for a big deck) leave the greenlets serving
    the phones free to run; else, already in a thread of its own, it is just called."""
    if monkey.is_module_patched("threading"):
        import gevent

        result: Loaded = gevent.get_hub().threadpool.apply(work)
        return result
    return work()


def _snapshot(cards: Path) -> Snapshot:
    """Each entry's modification time and size; of every kind, so that a FIFO put there is a change too."""
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
        seen[str(path)] = (st.st_mtime_ns, st.st_size)
    return seen
