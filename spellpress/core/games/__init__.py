"""Every game's rules, one package a game, registered here: a new game is one folder and one line.

A game's package holds `ruleset.py` (its constants' schema, the checks that need them and the
pure sums of its rules) and, as it needs them, `tracker.py` (its one engine, at the table and in
the lab), `lab.py`, `phone.js`, `helpers.py` and `options.py`; its `__init__.py` declares what it
has as a `Ruleset` named RULESET (docs/rulesets.md).
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from ..models import Game
from ..ruleset import Ruleset

PACKAGES = (
    "magicka_mayhem",
    "spellchamber",
    "powermage_54",
    "powers_combined",
    "sorcerer_duel",
    "generic",
)

RULESETS: dict[str, Ruleset] = {
    ruleset.slug: ruleset for ruleset in (import_module(f"{__name__}.{package}").RULESET for package in PACKAGES)
}


def ruleset_of(game: Game) -> Ruleset:
    """The ruleset `game` plays by (the loader has checked that it names one)."""
    return RULESETS[game.ruleset]


def ask(game: Game, helper: str, inputs: Any) -> dict[str, Any]:
    """The answer of `game`'s rule helper `helper` for `inputs`; Invalid with every reason if
    the helper is unknown or the inputs are wrong."""
    return ruleset_of(game).ask(game, helper, inputs)
