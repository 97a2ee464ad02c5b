"""`spellpress watch`: build, then build again whenever a card, a layout or a picture changes.

It polls modification times twenty times a second: a few hundred small files cost nothing to
stat, and polling behaves the same on every filesystem and editor (some save by renaming).
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

from ..model.options import snapshot

POLL_SECONDS = 0.05


def saved(before: dict[Path, tuple[int, int]], now: dict[Path, tuple[int, int]]) -> str:
    """Which files were saved, added or removed, in a few words."""
    moved = sorted(p for p in now.keys() | before.keys() if now.get(p) != before.get(p))
    said = [f"{p} {'removed' if p not in now else 'added' if p not in before else 'saved'}" for p in moved[:3]]
    return ", ".join(said) + (f" and {len(moved) - 3} more" if len(moved) > 3 else "")


def watch(options, run: Callable, stop: threading.Event | None = None) -> int:
    roots = options.watched
    before = snapshot(roots)  # taken before each build, so that a save during it is not missed
    run(options)
    print(f"watching {', '.join(map(str, roots))}; Ctrl-C to stop", file=sys.stderr)
    try:
        while stop is None or not stop.is_set():
            time.sleep(POLL_SECONDS)
            now = snapshot(roots)
            if now != before:
                print(f"{time.strftime('%H:%M:%S')} {saved(before, now)}: building", file=sys.stderr)
                before = now
                run(options)
    except KeyboardInterrupt:
        pass
    return 0
