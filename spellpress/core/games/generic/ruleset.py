"""The generic ruleset's constants: any the designer writes, each a number, a text or a list
or mapping of them, so that rules and card text can refer to them by name."""

from __future__ import annotations

from pydantic import ConfigDict

from ...models import Game
from ...ruleset import Report
from ...schema import Model

SLUG = "generic"


class Constants(Model):
    model_config = ConfigDict(extra="allow")  # a game of YAML alone names its own constants


def check(game: Game, report: Report) -> None:
    """Nothing to cross-check: no rule here reads a constant."""
