"""Each game's ruleset: the typed schema of its constants and the checks that need them.

A game's `game.yaml` names its ruleset, so a variant of a game (a copy of its directory with
other numbers or cards) keeps the same rules core.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Protocol

from ..models import Card, Game
from ..schema import Model
from . import magicka_mayhem, powermage_54, powers_combined, sorcerer_duel, spellchamber


class Report(Protocol):
    """Where a ruleset check files what it finds; positions are looked up for it."""

    def constant(self, loc: tuple, message: str, *, key: bool = False) -> None: ...

    def card(self, card: Card, loc: tuple, message: str) -> None: ...


@dataclass(frozen=True)
class Ruleset:
    slug: str
    constants: type[Model]
    check: Callable[[Game, Report], None]


RULESETS = {
    module.SLUG: Ruleset(module.SLUG, module.Constants, module.check)
    for module in (magicka_mayhem, spellchamber, powermage_54, powers_combined, sorcerer_duel)
}
