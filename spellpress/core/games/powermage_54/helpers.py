"""PowerMage 54: what an attack, a health card or an empty draw deck does to a player's points.

The sums are the ruleset's (`clash`, `thumped`, `halved`); this module picks the cards, checks
that a thump has its PowerMage shown (when the YAML's `thump_needs_powermage` says so) and that
no card is played more often than the deck holds it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from ...models import Card, Game
from ...play.errors import Invalid
from ...play.helper import JSON, Field, Helper, Inputs, Option
from .ruleset import Constants, clash, halved, points_after, thumped

ATTACK, DEFENSE, HEALTH, THUMP, POWERMAGE = "attack", "defense", "health", "thump", "powermage"  # decks.yaml
MOST_POINTS = 10_000  # points typed on a phone: there is no upper limit, but more is a typo


def _options(game: Game, kind: str) -> tuple[Option, ...]:
    def sub(card: Card) -> str:
        if kind == THUMP:
            return f"×{card['multiplier']}"
        return f"{card['value']}" if kind in (ATTACK, DEFENSE, HEALTH) else card.get("timing", "")

    return tuple(Option(card.id, card.name, sub(card)) for card in game.cards if card.type == kind)


def _points(name: str, label: str, default: int | None = None, required: bool = True) -> Field:
    return Field(name, label, "number", default=default, low=1, high=MOST_POINTS, required=required,
                 hint="A player at 0 points is out of the game.")


def _thump_fields(game: Game, who: str, label: str) -> list[Field]:
    prefix = f"{who}_" if who else ""
    hint = "Shown to every player before the thump; it goes back to the hand." if game.constants_as(Constants).thump_needs_powermage else ""
    return [
        Field(f"{prefix}thump", f"{label} thump card", "choice", _options(game, THUMP), required=False),
        Field(f"{prefix}powermage", f"{label} PowerMage shown", "choice", _options(game, POWERMAGE), required=False, hint=hint),
    ]


def _attack_fields(game: Game) -> list[Field]:
    return [
        Field("attack", "Attack card", "choice", _options(game, ATTACK)),
        *_thump_fields(game, "attack", "Attacker's"),
        Field("defense", "Defense card", "choice", _options(game, DEFENSE), required=False,
              hint="One, played by the attacked player; a Health card never defends."),
        *_thump_fields(game, "defense", "Defender's"),
        _points("points", "Attacked player's points", game.constants_as(Constants).starting_points),
    ]


def _heal_fields(game: Game) -> list[Field]:
    return [
        Field("health", "Health card", "choice", _options(game, HEALTH)),
        *_thump_fields(game, "", "Your"),
        _points("points", "Your points", game.constants_as(Constants).starting_points),
    ]


def _empty_deck_fields(game: Game) -> list[Field]:
    return [_points(f"points_{i}", f"Player {i}'s points", game.constants_as(Constants).starting_points if i <= game.players.min else None,
                    required=i <= game.players.min)
            for i in range(1, game.players.max + 1)]


def _multiplier(game: Game, inputs: Inputs, prefix: str, what: str) -> int | None:
    """The thump's multiplier, refused without the PowerMage the YAML asks for."""
    thump = inputs[f"{prefix}thump"]
    if thump is None:
        return None
    if game.constants_as(Constants).thump_needs_powermage and inputs[f"{prefix}powermage"] is None:
        field = f"{prefix}powermage"
        raise Invalid(f"the {what} thump needs a PowerMage shown first: say which in '{field}'")
    multiplier: int = game.card(thump)["multiplier"]  # an int field of a thump card (decks.yaml)
    return multiplier


def _within_the_deck(game: Game, cards: Iterable[str | None]) -> None:
    """No card is played more often than the deck holds it (each PowerMage is one of a kind)."""
    for card_id, n in Counter(c for c in cards if c is not None).items():
        card = game.card(card_id)
        if n > card.count:
            held = "one" if card.count == 1 else f"{card.count}"
            raise Invalid(f"{card.name} is used {n} times here, but the deck holds {held}")


def _worth(game: Game, card: Card, thump: str | None, total: int) -> str:
    """A card's value, and its thump's working if it had one."""
    if thump is None:
        return f"{card.name}: {total}"
    return f"{card.name}: {card['value']} ×{game.card(thump)['multiplier']} ({game.card(thump).name}) = {total}"


def _after(points: int, to: int) -> str:
    return f"{points} → {to} points" + (": defeated, out of the game" if to == 0 else "")


def _attack(game: Game, inputs: Inputs) -> JSON:
    _within_the_deck(game, (inputs["attack_thump"], inputs["defense_thump"], inputs["attack_powermage"], inputs["defense_powermage"]))
    attack = game.card(inputs["attack"])
    defense = game.card(inputs["defense"]) if inputs["defense"] else None
    if inputs["defense_thump"] and defense is None:
        raise Invalid("a defense thump multiplies a defense card: name the defense card too")
    sums = clash(attack["value"], _multiplier(game, inputs, "attack_", "attack's"),
                 defense["value"] if defense else 0, _multiplier(game, inputs, "defense_", "defense's"))
    points = inputs["points"]
    to = points_after(points, -sums.damage)
    details = [_worth(game, attack, inputs["attack_thump"], sums.strength)]
    if defense:
        details.append(_worth(game, defense, inputs["defense_thump"], sums.block) + " blocked")
        floor = ", never below 0" if sums.block > sums.strength else ""
        details.append(f"{sums.strength} − {sums.block} = {sums.strength - sums.block}{floor}")
    details.append(_after(points, to))
    return {
        "verdict": f"{sums.damage} damage: {_after(points, to)}",
        "details": details,
        "strength": sums.strength,
        "block": sums.block,
        "damage": sums.damage,
        "points": {"from": points, "to": to},
        "defeated": to == 0,
    }


def _heal(game: Game, inputs: Inputs) -> JSON:
    card = game.card(inputs["health"])
    amount = thumped(card["value"], _multiplier(game, inputs, "", "health card's"))
    points = inputs["points"]
    to = points_after(points, amount)
    return {
        "verdict": f"+{amount}: {points} → {to} points",
        "details": [_worth(game, card, inputs["thump"], amount), f"{points} + {amount} = {to} (no upper limit)"],
        "amount": amount,
        "points": {"from": points, "to": to},
    }


def _empty_deck(game: Game, inputs: Inputs) -> JSON:
    divisor = game.constants_as(Constants).empty_deck_divisor
    players = [(i, inputs[f"points_{i}"]) for i in range(1, game.players.max + 1) if inputs[f"points_{i}"] is not None]
    after = [{"player": i, "from": p, "to": halved(p, divisor)} for i, p in players]
    out = [a["player"] for a in after if a["to"] == 0]
    verdict = "Halved: " + ", ".join(f"{a['from']} → {a['to']}" for a in after)
    if out:
        verdict += f"; player {' and '.join(map(str, out))} defeated"
    return {
        "verdict": verdict,
        "details": [f"Every player's points ÷ {divisor}, rounding down:"]
        + [f"Player {a['player']}: {a['from']} ÷ {divisor} = {a['to']}" + (" (defeated)" if a["to"] == 0 else "") for a in after]
        + ["Then the discard pile is shuffled into the new draw deck (Grand Reshuffle halves nobody)."],
        "points": after,
    }


HELPERS = {
    "attack": Helper(
        "attack", "Attack and defense",
        "How many points does this attack take, thumps and defense included?", _attack_fields, _attack,
    ),
    "heal": Helper("heal", "Health card", "How many points does this Health card give?", _heal_fields, _heal),
    "empty-deck": Helper(
        "empty-deck", "Empty draw deck", "The draw deck ran out: what is everyone's score now?", _empty_deck_fields, _empty_deck,
    ),
}
