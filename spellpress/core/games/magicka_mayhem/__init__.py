"""Magicka Mayhem: its constants and checks (`ruleset`), the options a table starts with (`options`),
its tracker at the table (`tracker`, drawn on the phones by `phone.js`), its rule helpers
(`helpers`) and its balance lab (`lab`)."""

from __future__ import annotations

from ...ruleset import Ruleset
from .options import options
from .ruleset import SLUG, Constants, check

RULESET = Ruleset(
    slug=SLUG,
    constants=Constants,
    check=check,
    options=options,
    tracker_module=f"{__name__}.tracker",
    phone=__name__,
    helpers_module=f"{__name__}.helpers",
    lab_module=f"{__name__}.lab",
)
