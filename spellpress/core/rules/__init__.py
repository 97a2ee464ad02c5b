"""Rule helpers: pure answers to the fiddly rules, one module per game (see `base`).

The companion shows them as calculators and serves them under /api/rules/<slug>/; the tests
hold them to the rulebooks' own examples. Every number comes from the game's YAML.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..models import Game
from ..trackers.base import Invalid
from .base import Helper

# ruleset -> its module in this package, imported when first asked for (the build never needs them)
MODULES: dict[str, str] = {
    "powermage-54": "powermage_54",
    "magicka-mayhem": "magicka_mayhem",
    "powers-combined": "powers_combined",
    "sorcerer-duel": "sorcerer_duel",
    "spellchamber": "spellchamber",
}


def helpers(game: Game) -> Mapping[str, Helper]:
    """The helpers of `game`'s ruleset, by id (none for a ruleset without any)."""
    name = MODULES.get(game.ruleset)
    if name is None:
        return {}
    from importlib import import_module

    return import_module(f"{__name__}.{name}").HELPERS


def ask(game: Game, helper: str, inputs) -> dict:
    """`helper`'s answer for `inputs`; Invalid for an unknown helper or bad inputs."""
    found = helpers(game)
    if helper not in found:
        raise Invalid(f"{game.title} has no helper {helper!r}; its helpers are: {', '.join(found) or 'none'}"[:300])
    return found[helper].ask(game, inputs)
