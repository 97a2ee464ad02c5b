"""A game of YAML alone: decks, cards, counters and rules text, with no rules written in Python.

The ruleset of a game whose `game.yaml` names none. Its constants are whatever the designer
writes (for `{{ references }}` in the text); its table keeps the counters, the dice and the coin
every table has, and a shuffled draw pile for each deck (`tracker`); where its `end:` says how
the game ends, the table plays to that end and the lab plays it at random (`lab`).
"""

from __future__ import annotations

from ...ruleset import Ruleset
from .ruleset import SLUG, Constants, check

RULESET = Ruleset(
    slug=SLUG,
    constants=Constants,
    check=check,
    tracker_module=f"{__name__}.tracker",
    lab_module=f"{__name__}.lab",
    phone=__name__,
)
