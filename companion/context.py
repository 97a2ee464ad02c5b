"""What the companion's views share: the loaded games, the store and the hub of live streams."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from flask import current_app

from spellpress.core.models import Game

from .live import Hub
from .store import Store


@dataclass(frozen=True)
class Companion:
    games: Mapping[str, Game]
    store: Store
    hub: Hub


def companion() -> Companion:
    return current_app.extensions["spellpress"]
