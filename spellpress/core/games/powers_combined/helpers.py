"""Powers Combined: a combined spell's power against the challenge in front of the party.

The sums are the ruleset's (`cast`): the challenge's power under the modifiers its level laid on
it, each spell's power under its modifier card and the runes' flipped modifiers, then weakness
or resistance. This module only picks the cards, checks that they go together, and tries every
face of the die for a Wild Surge whose roll was not given.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from fractions import Fraction
from itertools import product
from typing import TypeVar

from ...models import Card, Game
from ...play.errors import Invalid
from ...play.helper import JSON, Field, Helper, Inputs, Option
from .ruleset import Challenge, Constants, Outcome, Spell, Step, Working, cast, challenge_target, spell_totals

CHALLENGE_TYPE, SPELL_TYPE = "challenge", "spell"  # the card types of decks.yaml
SPELLS = ("", "second_")  # the first spell's fields, then the second's (cast with a Double Up!)
SLOTS = ("element", "power", "modifier")

T = TypeVar("T")


def _cards(game: Game, kind: str) -> list[Card]:
    return [card for card in game.cards if card.type == kind]


def _most_rolls(game: Game) -> tuple[int, int]:
    """The most dice a challenge's modifiers and a turn's spells can ask for."""
    c = game.constants_as(Constants)
    per = max((m.amount for m in c.modifiers if m.op == "roll" and m.amount is not None), default=0)  # every roll has one
    laid = max(level.modifiers for level in c.levels)
    spells = 1 + c.double_up_limit
    return laid * per, (spells + c.rune_spend_limit) * per


def _fields(game: Game) -> list[Field]:
    c = game.constants_as(Constants)
    challenges = tuple(
        Option(card.id, card.name, f"{card['element']} · power {card['power']} · {_runes(card['runes'])} · level {card['level']}")
        for card in _cards(game, CHALLENGE_TYPE)
    )
    spells = tuple(
        Option(card.id, card.name, f"{card['element']} · {card['power']} · {card['modifier']}")
        for card in _cards(game, SPELL_TYPE)
    )
    modifiers = tuple(Option(m.name, m.name) for m in c.modifiers)
    laid = max(level.modifiers for level in c.levels)
    challenge_dice, spell_dice = _most_rolls(game)
    # a fresh form answers at once: a challenge its level lays nothing on, three different cards
    bare = next((card.id for card in _cards(game, CHALLENGE_TYPE) if not c.levels[card["level"] - 1].modifiers), None)
    fields = [
        Field("challenge", "Challenge", "choice", challenges, default=bare),
        Field("challenge_modifiers", "Modifiers laid on the challenge", "many", modifiers, high=laid, each=laid,
              hint="In the order they were laid; its level says how many."),
    ]
    for prefix in SPELLS:
        first = prefix == SPELLS[0]
        spell = "" if first else "Second spell: "
        group = "" if first else "A second spell (Double Up!)"
        for i, slot in enumerate(SLOTS):
            default = spells[i].value if first and i < len(spells) else None
            fields.append(Field(f"{prefix}{slot}", f"{spell}{slot} card".capitalize(), "choice", spells,
                                default=default, required=first, group=group))
        fields.append(Field(f"{prefix}runes", f"{spell}modifiers flipped with runes".capitalize(), "many", modifiers,
                            high=c.rune_spend_limit, each=c.rune_spend_limit, group=group,
                            hint=f"At most {c.rune_spend_limit} a turn, in the order they were flipped."))
    rolls = f"Wild Surge rolls (d{c.die_sides})"
    fields += [Field(f"challenge_roll_{i}", f"Challenge's roll {i}", "number", low=1, high=c.die_sides, required=False,
                     hint="The roll of a Wild Surge on the challenge, made when it was laid.", group=rolls)
               for i in range(1, challenge_dice + 1)]
    fields += [Field(f"roll_{i}", f"Spell's roll {i}", "number", low=1, high=c.die_sides, required=False,
                     hint="For a Wild Surge on a spell; leave out to try every face.", group=rolls)
               for i in range(1, spell_dice + 1)]
    return fields


def _challenge(game: Game, inputs: Inputs) -> tuple[Card, Challenge]:
    c = game.constants_as(Constants)
    card = game.card(inputs["challenge"])
    level = c.levels[card["level"] - 1]
    laid = inputs["challenge_modifiers"]
    if len(laid) != level.modifiers:
        raise Invalid(f"{card.name} is a challenge of {level.name}, which lays {level.modifiers} modifier(s) on it; got {len(laid)}")
    return card, Challenge(element=card["element"], power=card["power"], runes=card["runes"], modifiers=laid)


def _spells(game: Game, inputs: Inputs) -> list[Spell]:
    given = [p for p in SPELLS if any(inputs[f"{p}{slot}"] is not None for slot in SLOTS)]
    if SPELLS[1] in given and not all(inputs[f"second_{slot}"] is not None for slot in SLOTS):
        raise Invalid("a second spell needs all three of its cards: its element, power and modifier")
    if inputs["second_runes"] and SPELLS[1] not in given:
        raise Invalid("the second spell's runes need the second spell's cards too, or put them with the first spell's")
    used = Counter(inputs[f"{p}{slot}"] for p in given for slot in SLOTS)
    for card_id, n in used.items():
        card = game.card(card_id)
        if n > card.count:
            held = "once" if card.count == 1 else f"{card.count} times"
            raise Invalid(f"{card.name} is in {n} slots, but the deck holds it {held}: each card counts for one slot only")
    return [
        Spell(element=game.card(inputs[f"{p}element"])["element"], power=game.card(inputs[f"{p}power"])["power"],
              modifier=game.card(inputs[f"{p}modifier"])["modifier"], runes=inputs[f"{p}runes"])
        for p in given
    ]


def _count_rolls(run: Callable[[Iterable[int]], object]) -> int:
    """How many rolls `run` draws from the die, by handing it ones and counting."""
    drawn = 0

    def ones() -> Iterator[int]:
        nonlocal drawn
        while True:
            drawn += 1
            yield 1

    _checked(run, ones())
    return drawn


def _checked(run: Callable[[Iterable[int]], T], rolls: Iterable[int]) -> T:
    try:
        return run(rolls)
    except ValueError as err:
        raise Invalid(str(err)) from None


def _rolls(inputs: Inputs, prefix: str, count: int, needed: int, what: str) -> list[int]:
    """The rolls given under `prefix`, in order; Invalid for a gap or for more than `needed`."""
    given: list[int | None] = [inputs[f"{prefix}{i}"] for i in range(1, count + 1)]
    while given and given[-1] is None:
        given.pop()
    rolls = [roll for roll in given if roll is not None]
    if len(rolls) < len(given):
        raise Invalid(f"give the {what} rolls in order, from the first: roll {given.index(None) + 1} is missing")
    if len(rolls) > needed:
        raise Invalid(f"{len(rolls)} roll(s) given for the {what} modifiers, which take {needed or 'none'}")
    return rolls


def _spell_power(game: Game, inputs: Inputs) -> JSON:
    c = game.constants_as(Constants)
    card, challenge = _challenge(game, inputs)
    spells = _spells(game, inputs)
    faces = range(1, c.die_sides + 1)

    def target(rolls: Iterable[int]) -> int:
        return challenge_target(c, challenge, rolls).power

    def total(rolls: Iterable[int]) -> int:
        return sum(spell_totals(c, spells, challenge.element, rolls))

    most_laid, most_cast = _most_rolls(game)
    laid_dice, cast_dice = _count_rolls(target), _count_rolls(total)
    laid = _rolls(inputs, "challenge_roll_", most_laid, laid_dice, "challenge's")
    rolled = _rolls(inputs, "roll_", most_cast, cast_dice, "spells'")
    laid_open, cast_open = laid_dice - len(laid), cast_dice - len(rolled)
    # the challenge's dice and the spells' are independent: count each side's results once
    targets = Counter(_checked(target, [*laid, *tries]) for tries in product(faces, repeat=laid_open))
    totals = Counter(_checked(total, [*rolled, *tries]) for tries in product(faces, repeat=cast_open))
    cleared = sum(nt * ns for t, nt in targets.items() for s, ns in totals.items() if s >= t)
    chance = Fraction(cleared, c.die_sides ** (laid_open + cast_open))
    worst = _checked(lambda r: cast(c, challenge, spells, r),
                     [*laid, *[c.die_sides] * laid_open, *rolled, *[1] * cast_open])
    best = _checked(lambda r: cast(c, challenge, spells, r),
                    [*laid, *[1] * laid_open, *rolled, *[c.die_sides] * cast_open])
    return {
        "verdict": _verdict(worst, best, chance, laid_open + cast_open, c.die_sides),
        "details": _details(game, card, spells, inputs, worst, best),
        "target": _span(worst.target.power, best.target.power),
        "runes": worst.target.runes,
        "spells": [_spell_json(lo, hi) for lo, hi in zip(worst.workings, best.workings)],
        "total": _span(worst.total, best.total),
        "cleared": chance == 1,
        "chance": {"numerator": chance.numerator, "denominator": chance.denominator, "percent": round(float(chance) * 100, 1)},
        "unknown_rolls": laid_open + cast_open,
        "second_spell_open": _second_open(spells, worst),
    }


def _runes(n: int) -> str:
    return f"{n} rune" + ("" if n == 1 else "s")


def _span(a: int, b: int) -> dict[str, int]:
    return {"low": min(a, b), "high": max(a, b)}


def _shown(a: int, b: int) -> str:
    return str(a) if a == b else f"{min(a, b)} to {max(a, b)}"


def _second_open(spells: list[Spell], outcome: Outcome) -> bool:
    """A Double Up! lets a second spell be cast, and none was given."""
    return len(spells) == 1 and any(s.double_up for s in outcome.workings[0].steps)


def _verdict(worst: Outcome, best: Outcome, chance: Fraction, unknown: int, sides: int) -> str:
    against = f"{_shown(worst.total, best.total)} against {_shown(worst.target.power, best.target.power)}"
    if chance == 1:
        return f"Cleared: {against}, {_runes(worst.target.runes)} to the pot"
    if chance == 0:
        if unknown:
            return f"Short whatever the die shows: {against}"
        return f"Short by {worst.target.power - worst.total}: {against}"
    tries = sides ** unknown
    dice = f"faces of the d{sides}" if unknown == 1 else f"throws of {unknown} d{sides}"
    return f"Cleared on {chance * tries} of the {tries} {dice} ({float(chance) * 100:.0f}%): {against}"


def _step_line(lo: Step, hi: Step) -> str:
    name = lo.name if lo.name == lo.counts_as else f"{lo.name} (past the limit: {lo.counts_as})"
    if lo.double_up:
        return f"{name}, power {_shown(lo.power, hi.power)}"
    rolled = f", rolled {_shown(lo.rolled, hi.rolled)}" if lo.rolled is not None and hi.rolled is not None else ""
    return f"{name}{rolled}: {_shown(lo.power, hi.power)}"


def _details(game: Game, card: Card, spells: list[Spell], inputs: Inputs, low: Outcome, high: Outcome) -> list[str]:
    c = game.constants_as(Constants)
    lines = [f"Challenge {card.name}: {card['element']}, power {card['power']}, {_runes(card['runes'])}"]
    for step_lo, step_hi in zip(low.target.steps, high.target.steps):
        extra = f", its reward ×{c.double_up_on_challenge}" if step_lo.double_up else ""
        lines.append(f"  {_step_line(step_lo, step_hi)}{extra}")
    lines.append(f"  To beat: {_shown(low.target.power, high.target.power)}, for {_runes(low.target.runes)}")
    for i, (spell, prefix, lo, hi) in enumerate(zip(spells, SPELLS, low.workings, high.workings)):
        names = {slot: game.card(inputs[f"{prefix}{slot}"]).name for slot in SLOTS}
        lines.append(f"{'Second spell' if i else 'Spell'}: {spell.element} ({names['element']}), power {spell.power} "
                     f"({names['power']}), {spell.modifier} ({names['modifier']})")
        for j, (s_lo, s_hi) in enumerate(zip(lo.steps, hi.steps)):
            rune = "rune: " if j else ""
            extra = ": a second spell may be cast" if s_lo.double_up else ""
            lines.append(f"  {rune}{_step_line(s_lo, s_hi)}{extra}")
        lines.append(f"  {_matchup_line(c, spell.element, card['element'], lo, hi)}")
    lines.append(f"Total {_shown(low.total, high.total)} against {_shown(low.target.power, high.target.power)}")
    if _second_open(spells, low):
        lines.append("Double Up!: cast a second spell and add its total (give the second spell's element, power and modifier).")
    return lines


def _matchup_line(c: Constants, element: str, foe: str, lo: Working, hi: Working) -> str:
    total = _shown(lo.total, hi.total)
    if lo.relation == "weak":
        return f"{foe} is weak to {element}: ×{c.weakness_multiplier} = {total}"
    if lo.relation == "resists":
        return f"{foe} resists {element}: ÷{c.resistance_divisor}, rounding down = {total}"
    return f"{foe} is neither weak to {element} nor resists it: {total}"


def _spell_json(lo: Working, hi: Working) -> JSON:
    return {
        "steps": [{"modifier": a.name, "counts_as": a.counts_as, "power": _span(a.power, b.power),
                   **({"rolled": _span(a.rolled, b.rolled)} if a.rolled is not None and b.rolled is not None else {}),
                   "double_up": a.double_up} for a, b in zip(lo.steps, hi.steps)],
        "modified": _span(lo.modified, hi.modified),
        "matchup": lo.relation or "none",
        "total": _span(lo.total, hi.total),
    }


HELPERS = {
    "spell-power": Helper(
        "spell-power", "Spell power",
        "What does our combined spell come to against this challenge, and does it clear it?",
        _fields, _spell_power,
    ),
}
