"""Powers Combined: its constants and checks (`ruleset`), its tracker at the table (`tracker`, drawn on
the phones by `phone.js`), its rule helpers (`helpers`) and its balance lab (`lab`)."""

from __future__ import annotations

from ...ruleset import Ruleset
from .ruleset import SLUG, Constants, check

RULESET = Ruleset(
    slug=SLUG,
    constants=Constants,
    check=check,
    die=lambda game: game.constants_as(Constants).die_sides,
    tracker_module=f"{__name__}.tracker",
    phone=__name__,
    helpers_module=f"{__name__}.helpers",
    lab_module=f"{__name__}.lab",
)
