"""Cross-reference checks that several rulesets share."""

from __future__ import annotations

from collections.abc import Iterable

from ..models import Game
from ..problems import did_you_mean, one_of
from ..ruleset import Loc, Report


def elements_exist(game: Game, names: Iterable[tuple[Loc, str]], report: Report) -> None:
    """Each (loc, name) in the constants must name one of the game's elements."""
    known = [e.name for e in game.elements]
    for loc, name in names:
        if name not in known:
            hint = did_you_mean(name, known) or f"; the elements are {one_of(known)}"
            report.constant(loc, f"unknown element '{name}'{hint}")


def decks_exist(game: Game, names: Iterable[tuple[Loc, str]], report: Report) -> None:
    """Each (loc, deck id) in the constants must name one of the game's decks."""
    known = list(game.decks)
    for loc, name in names:
        if name not in known:
            hint = did_you_mean(name, known) or f"; the decks are {one_of(known)}"
            report.constant(loc, f"unknown deck '{name}'{hint}", key=True)
