"""Which cards changed since the last build of a game's directory: what `build` and `watch` say.

A game's output directory keeps `.spellpress-cards.json`: each card's name and the hashes of its
front and back as the last build that printed cards drew them. A card whose front or back hash
moved has changed (its text, a constant it shows, its picture, its layout); one not there before
was added; one no longer there was removed. The file is read as a hint only: a missing, damaged
or foreign one means "nothing to compare with", never a failed build.

`spellpress printed` copies that record, with the time, to `.spellpress-printed.json`: the cards
as the user printed them. `build --reprint` prints the cards whose faces moved since (outputs/listing.py).
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..files import atomic_write
from .shops import SHOPS

if TYPE_CHECKING:
    from .plan import GamePlan

NAME = ".spellpress-cards.json"
PRINTED = ".spellpress-printed.json"  # the cards as they were when marked printed (`spellpress printed`)
CARD_KINDS = ("sheets", "fold", "printshop", "png", "tts", "overview", *SHOPS)  # the outputs that print the cards
_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,79}$")


@dataclass
class Changes:
    first: bool = False  # no earlier build to compare with
    changed: list[str] = field(default_factory=list)  # names
    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)  # ids (the card is gone, and its name with it)

    def __bool__(self) -> bool:
        return bool(self.changed or self.added or self.removed)


def faces(plan: GamePlan) -> dict[str, list[str]]:
    return {card.id: [card.name, plan.fronts[card.id].hash, plan.backs[card.id].hash if card.id in plan.backs else ""]
            for card in plan.game.cards if card.id in plan.fronts}


def compare(out: Path, plan: GamePlan) -> tuple[Changes, dict[str, list[str]]]:
    """What changed since the cards were last built into `out`, and the record to keep now."""
    now = faces(plan)
    try:
        old = json.loads((out / NAME).read_text(encoding="utf-8"))
        if not isinstance(old, dict):
            raise ValueError
    except (OSError, ValueError):
        return Changes(first=True), now
    changes, _ = _between(old, now)
    return changes, now


def _between(old: dict, now: dict[str, list[str]]) -> tuple[Changes, set[str]]:
    """What changed from the record `old` to `now`, and the ids of the cards changed or added."""
    changes, ids = Changes(), set()
    for card_id, (name, *drawn) in now.items():
        before = old.get(card_id)
        if not isinstance(before, list):
            changes.added.append(name)
        elif before[1:] != drawn:
            changes.changed.append(name)
        else:
            continue
        ids.add(card_id)
    changes.removed = sorted(k for k in old if k not in now and isinstance(k, str) and _ID.match(k))
    return changes, ids


def record(out: Path, now: dict[str, list[str]]) -> None:
    atomic_write(out / NAME, json.dumps(now, sort_keys=True).encode())


def said(slug: str, changes: Changes, at: str) -> str | None:
    """One line for the terminal, or None when nothing changed."""
    if changes.first or not changes:
        return None
    return f"{at} {slug}: cards {listed(changes)}"


def listed(changes: Changes) -> str:
    """'1 changed (Sleep Magic); 2 added (...)'."""
    parts = []
    for what, names in (("changed", changes.changed), ("added", changes.added), ("removed", changes.removed)):
        if names:
            shown = ", ".join(names[:8]) + (f" and {len(names) - 8} more" if len(names) > 8 else "")
            parts.append(f"{len(names)} {what} ({shown})")
    return "; ".join(parts)


def mark_printed(out: Path) -> int | None:
    """Record the cards of the last build into `out` as printed; their number, or None when no
    build that printed cards left a record there."""
    try:
        cards = json.loads((out / NAME).read_text(encoding="utf-8"))
        if not isinstance(cards, dict):
            raise ValueError
    except (OSError, ValueError):
        return None
    atomic_write(out / PRINTED, json.dumps({"at": time.strftime("%Y-%m-%d %H:%M"), "cards": cards}, sort_keys=True).encode())
    return len(cards)


def since_printed(out: Path, plan: GamePlan) -> tuple[str, Changes, set[str]] | None:
    """When the cards were marked printed, what changed since, and the ids of the cards to print
    again (changed or added); None when none were marked printed in `out`."""
    try:
        record = json.loads((out / PRINTED).read_text(encoding="utf-8"))
        at, old = record["at"], record["cards"]
        if not isinstance(old, dict) or not isinstance(at, str):
            raise ValueError
    except (OSError, ValueError, KeyError, TypeError):
        return None
    changes, ids = _between(old, faces(plan))
    return at, changes, ids
