"""What a game's package declares: everything the code knows about one game's rules.

A game's `game.yaml` names its ruleset, so a variant of a game (a copy of its directory with
other numbers or cards) keeps the same rules. The loader needs every ruleset's constants and
checks; the companion also needs its tracker, helpers, table options and phone renderer; the
balance lab its `lab` (hidden hands and policies over the tracker's engine). The tracker, the
helpers and the lab are imported when first asked for, so that a build never pays for them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property
from importlib import import_module
from importlib.resources import files
from typing import Any, Protocol

from .models import Card, Game
from .play.errors import Invalid
from .play.helper import Helper
from .play.options import Option
from .play.tracker import Tracker
from .schema import Model

# A place in the constants or on a card, by keys and list indexes: ("levels", 2, "name").
Loc = tuple[str | int, ...]


class Report(Protocol):
    """Where a ruleset check files what it finds; positions are looked up for it."""

    def constant(self, loc: Loc, message: str, *, key: bool = False) -> None: ...

    def card(self, card: Card, loc: Loc, message: str) -> None: ...


def _no_options(game: Game) -> tuple[Option, ...]:
    return ()


def _no_die(game: Game) -> int | None:
    return None


@dataclass(frozen=True)
class Ruleset:
    slug: str  # what `ruleset:` in game.yaml says
    constants: type[Model]  # the schema of game.yaml's `constants`
    check: Callable[[Game, Report], None]  # cross-references between constants, decks and cards
    options: Callable[[Game], tuple[Option, ...]] = _no_options  # what a table is started with
    die: Callable[[Game], int | None] = _no_die  # the sides of the die the table's Dice offer first
    tracker_module: str | None = None  # the module whose TRACKER plays the game at the table
    helpers_module: str | None = None  # the module whose HELPERS answer the fiddly rules
    lab_module: str | None = None  # the module whose LAB plays the game in the balance lab (engine.lab_of)
    phone: str | None = None  # the package whose `phone.js` draws the tracker on the phones

    @property
    def phone_script(self) -> str | None:
        """The text of the game's phone renderer (None for a game whose table has no tracker panel)."""
        if self.phone is None:
            return None
        return files(self.phone).joinpath("phone.js").read_text(encoding="utf-8")

    @cached_property
    def tracker(self) -> Tracker[Any] | None:
        """The game's tracker, typed on the game's own state: Any here, where any game's may be."""
        if self.tracker_module is None:
            return None
        tracker: Tracker[Any] = import_module(self.tracker_module).TRACKER
        return tracker

    @cached_property
    def helpers(self) -> Mapping[str, Helper]:
        """The rule helpers, by id (none for a ruleset without any)."""
        if self.helpers_module is None:
            return {}
        helpers: Mapping[str, Helper] = import_module(self.helpers_module).HELPERS
        return helpers

    def ask(self, game: Game, helper: str, inputs: Any) -> dict[str, Any]:
        """`helper`'s answer for `inputs`; Invalid for an unknown helper or bad inputs."""
        found = self.helpers
        if helper not in found:
            raise Invalid(f"{game.title} has no helper {helper!r}; its helpers are: {', '.join(found) or 'none'}"[:300])
        return found[helper].ask(game, inputs)
