"""Spellchamber: the odds of the next shot, from the scenario's chamber and what has been shot.

The chamber deck is the scenario's Live, Magic and Blank cards shuffled face-down; every shot
reveals the top card. With nothing else known, each card left is equally likely to be next.
"""

from __future__ import annotations

from fractions import Fraction

from ...models import Card, Game
from ...play.errors import Invalid
from ...play.helper import JSON, Field, Helper, Inputs, Option
from .ruleset import AMMO_KINDS, Constants

MOST_AMMO = 60  # ammo of one kind typed for a chamber of one's own


def _scenarios(game: Game) -> list[Card]:
    c = game.constants_as(Constants)
    return [card for spec in c.scenario_decks.values() if spec.deck in game.decks for card in game.decks[spec.deck].cards]


def _fields(game: Game) -> list[Field]:
    c = game.constants_as(Constants)
    scenarios = tuple(
        Option(card.id, card.name, " · ".join(f"{card.get(k, 0)} {c.ammo[k].name}" for k in AMMO_KINDS))
        for card in _scenarios(game)
    )
    first = next((card.id for card in _scenarios(game) if card.get("number") == c.beginner_scenario), None)
    fields = [Field("scenario", "Scenario", "choice", scenarios, default=first, required=False,
                    hint="Its chamber; or choose none and type the chamber below.")]
    for kind in AMMO_KINDS:
        name = c.ammo[kind].name
        fields.append(Field(f"shot_{kind}", f"{name} shot so far", "number", default=0, low=0, high=MOST_AMMO))
    for kind in AMMO_KINDS:
        name = c.ammo[kind].name
        fields.append(Field(f"chamber_{kind}", f"{name} in the chamber", "number", low=0, high=MOST_AMMO,
                            required=False, group="A chamber of your own (choose no scenario)"))
    return fields


def next_shot(chamber: dict[str, int], shot: dict[str, int]) -> dict[str, Fraction]:
    """The chance of each kind being the next shot; Invalid if more was shot than was loaded."""
    left = {k: chamber[k] - shot[k] for k in chamber}
    if any(n < 0 for n in left.values()):
        raise Invalid("more of a kind was shot than the chamber held")
    total = sum(left.values())
    if total == 0:
        raise Invalid("the chamber is empty: the round is over")
    return {k: Fraction(n, total) for k, n in left.items()}


def _odds(game: Game, inputs: Inputs) -> JSON:
    c = game.constants_as(Constants)
    typed = {k: inputs[f"chamber_{k}"] for k in AMMO_KINDS}
    if inputs["scenario"] is not None:
        if any(n is not None for n in typed.values()):
            raise Invalid("choose a scenario or type the chamber's counts, not both")
        card = next(s for s in _scenarios(game) if s.id == inputs["scenario"])
        chamber, source = {k: card.get(k, 0) for k in AMMO_KINDS}, card.name
    elif all(n is not None for n in typed.values()):
        chamber, source = typed, "the chamber"
    else:
        raise Invalid("choose a scenario, or type how many cards of each kind the chamber held")
    shot = {k: inputs[f"shot_{k}"] for k in AMMO_KINDS}
    try:
        odds = next_shot(chamber, shot)
    except Invalid as err:
        names = ", ".join(f"{chamber[k]} {c.ammo[k].name}" for k in AMMO_KINDS)
        raise Invalid(f"{err} ({source} held {names})") from None
    left = {k: chamber[k] - shot[k] for k in AMMO_KINDS}
    total = sum(left.values())
    likeliest = max(odds.values())
    top = [c.ammo[k].name for k in AMMO_KINDS if odds[k] == likeliest]
    details = [f"{c.ammo[k].name}: {left[k]} of the {total} cards left, {_percent(odds[k])}" for k in AMMO_KINDS]
    if total == 1:
        details.append("It is the last card: the round ends with this shot.")
    verdict = " · ".join(f"{c.ammo[k].name} {_percent(odds[k])}" for k in AMMO_KINDS)
    return {
        "verdict": verdict,
        "details": [f"Most likely: {' or '.join(top)}.", *details],
        "left": left,
        "odds": {k: {"numerator": f.numerator, "denominator": f.denominator, "percent": round(float(f) * 100, 1)}
                 for k, f in odds.items()},
    }


def _percent(f: Fraction) -> str:
    return f"{float(f) * 100:.0f}%"


HELPERS = {
    "next-shot": Helper(
        "next-shot", "Next shot", "What are the odds that the next shot is Live, Magic or Blank?", _fields, _odds,
    ),
}
