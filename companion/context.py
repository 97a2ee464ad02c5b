"""What the companion's views share: the loaded games, the store and the hub of live streams."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from flask import current_app

from spellpress.core.models import Game

from .catalog import Catalog
from .live import Hub
from .store import Store


@dataclass(frozen=True)
class Companion:
    catalog: Catalog
    store: Store
    hub: Hub

    @property
    def games(self) -> Mapping[str, Game]:
        """The games as their YAML stands (catalog.py): what new tables are started with."""
        return self.catalog.games


def companion() -> Companion:
    shared: Companion = current_app.extensions["spellpress"]  # put there by create_app
    return shared
