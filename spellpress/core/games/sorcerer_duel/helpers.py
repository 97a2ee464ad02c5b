"""Sorcerer Duel: where an attack's damage lands on a side with blockers and creatures.

The sums are the ruleset's (`one_target`, `whole_side`), following the printed rules: blockers
take damage first, in their owner's order; what is left goes to a one-target attack's target
(past a creature's health it is lost), or is shared as evenly as possible over the side.

A card on the side is named by its id at full health, or `id@n` with n health left.
"""

from __future__ import annotations

from collections import Counter
from typing import TypedDict

from ...models import Card, Game
from ...play.errors import Invalid
from ...play.helper import JSON, Field, Helper, Inputs, Option
from .ruleset import Blow, Constants, one_target, whole_side

CREATURE, BLOCKER, SPELL = "creature", "blocker", "attack-spell"  # card types of decks.yaml
AREA = "side"  # an attack spell's `target` that hits a whole side
SORCERER = "sorcerer"  # the target that is the sorcerer
WOUNDED = "@"  # id@n: the card with n health left

# What an attack did to a card on the side, and to the sorcerer, as the answer gives them.
Hit = TypedDict("Hit", {"card": str, "name": str, "kind": str, "from": int, "to": int, "damage": int, "destroyed": bool})
Sorcerer = TypedDict("Sorcerer", {"from": int, "to": int, "damage": int})
Unit = tuple[Card, int]  # a card on the side, with the health it has left


def _deck_cards(game: Game, kind: str) -> list[Card]:
    return [card for deck in game.constants_as(Constants).player_decks if deck in game.decks
            for card in game.decks[deck].cards if card.type == kind]


def _deck_name(game: Game, card: Card) -> str:
    return game.decks[card.deck].name


def _units(game: Game, kind: str) -> tuple[Option, ...]:
    """Each card of `kind` at full health, then with each health it can have left."""
    options = []
    for card in _deck_cards(game, kind):
        stats = f"attack {card['attack']} · " if kind == CREATURE else ""
        options.append(Option(card.id, card.name, f"{_deck_name(game, card)} · {stats}health {card['health']}"))
        options += [Option(f"{card.id}{WOUNDED}{n}", f"{card.name}, {n} health left", _deck_name(game, card))
                    for n in range(card["health"] - 1, 0, -1)]
    return tuple(options)


def _attacks(game: Game) -> tuple[Option, ...]:
    spells = [Option(card.id, card.name, f"{_deck_name(game, card)} · spell · {card['damage']} to "
                     + ("the whole side" if card["target"] == AREA else "one target"))
              for card in _deck_cards(game, SPELL)]
    creatures = [Option(card.id, card.name, f"{_deck_name(game, card)} · creature · attack {card['attack']}")
                 for card in _deck_cards(game, CREATURE) if card["attack"] > 0]
    return tuple(spells + creatures)


def _fields(game: Game) -> list[Field]:
    c = game.constants_as(Constants)
    creatures, blockers = _units(game, CREATURE), _units(game, BLOCKER)
    most = max((card.count for kind in (CREATURE, BLOCKER) for card in _deck_cards(game, kind)), default=1)
    return [
        Field("attack", "Attack spell or attacking creature", "choice", _attacks(game)),
        Field("target", "Target", "choice", (Option(SORCERER, "The sorcerer"), *creatures), required=False,
              hint="A one-target attack's target: the sorcerer if left out. None for a whole-side spell."),
        Field("blockers", "Blockers on the side", "many", blockers, each=most,
              hint="In the order their owner puts them in the way."),
        Field("creatures", "Creatures on the side", "many", creatures, each=most),
        Field("health", "The sorcerer's health", "number", default=c.starting_health, low=1, high=c.starting_health),
    ]


def _unit(game: Game, value: str) -> Unit:
    """(card, health left) for `id` or `id@n`."""
    card_id, _, left = value.partition(WOUNDED)
    card = game.card(card_id)
    return card, int(left) if left else card["health"]


def _one_deck(game: Game, attack: Card, side: list[Unit]) -> None:
    decks = {card.deck for card, _ in side}
    if len(decks) > 1:
        names = " and ".join(sorted(game.decks[d].name for d in decks))
        raise Invalid(f"a side holds one player's cards, from one deck; these come from the {names}")
    if attack.deck in decks:
        raise Invalid(f"{attack.name} is a card of the {_deck_name(game, attack)}, and so is the side it hits: "
                      "each player plays their own deck")
    for card_id, n in Counter(card.id for card, _ in side).items():
        card = game.card(card_id)
        if n > card.count:
            raise Invalid(f"the side holds {n} {card.name}, but the {_deck_name(game, card)} has {card.count}")


def _hits(units: list[Unit], taken: tuple[int, ...]) -> list[Hit]:
    return [{"card": card.id, "name": card.name, "kind": card.type, "from": health, "to": health - took, "damage": took,
             "destroyed": took >= health} for (card, health), took in zip(units, taken)]


def _upper(text: str) -> str:
    return text[:1].upper() + text[1:]


def _called(hit: Hit) -> str:
    return f"the {hit['name']} blocker" if hit["kind"] == BLOCKER else f"the {hit['name']}"


def _attack(game: Game, inputs: Inputs) -> JSON:
    c = game.constants_as(Constants)
    attack = game.card(inputs["attack"])
    area = attack.type == SPELL and attack["target"] == AREA
    damage: int = attack["damage"] if attack.type == SPELL else attack["attack"]
    blockers = [_unit(game, v) for v in inputs["blockers"]]
    creatures = [_unit(game, v) for v in inputs["creatures"]]
    _one_deck(game, attack, blockers + creatures)
    target = inputs["target"]
    if area and target is not None:
        raise Invalid(f"{attack.name} hits the whole side: choose no target")
    index: int | None = None
    if target not in (None, SORCERER):
        if target not in inputs["creatures"]:
            raise Invalid(f"the target, {_unit(game, target)[0].name}, is not among the side's creatures: add it to them")
        index = inputs["creatures"].index(target)
    health = [h for _, h in creatures]
    guards = [h for _, h in blockers]
    blow = whole_side(damage, guards, health) if area else one_target(damage, guards, health, index)
    blocked, hit = _hits(blockers, blow.blockers), _hits(creatures, blow.creatures)
    sorcerer: Sorcerer = {"from": inputs["health"], "to": max(0, inputs["health"] - blow.sorcerer), "damage": blow.sorcerer}
    dead = sum(h["destroyed"] for h in hit if h["damage"])
    return {
        "verdict": _verdict(damage, blocked + hit, sorcerer, blow),
        "details": _details(attack, damage, area, blocked, hit, sorcerer, blow, dead * c.draws_on_creature_death),
        "damage": damage,
        "area": area,
        "blockers": blocked,
        "creatures": hit,
        "sorcerer": sorcerer,
        "lost": blow.lost,
        "odd": blow.odd,
        "draws": dead * c.draws_on_creature_death,
        "won": sorcerer["to"] == 0,
    }


def _verdict(damage: int, hits: list[Hit], sorcerer: Sorcerer, blow: Blow) -> str:
    parts = [f"{h['damage']} to {_called(h)}" + (" (destroyed)" if h["destroyed"] else "") for h in hits if h["damage"]]
    if sorcerer["damage"]:
        parts.append(f"{sorcerer['damage']} to the sorcerer" + (": the duel is won" if sorcerer["to"] == 0 else ""))
    if blow.lost:
        parts.append(f"{blow.lost} lost")
    return f"{damage} damage: " + (", ".join(parts) if parts else "nothing is hit")


def _details(attack: Card, damage: int, area: bool, blocked: list[Hit], hit: list[Hit], sorcerer: Sorcerer, blow: Blow,
             draws: int) -> list[str]:
    lines = [f"{attack.name}: {damage} damage to " + ("the whole side" if area else "one target")]
    left = damage
    for h in blocked:
        if h["damage"]:
            left -= h["damage"]
            lines.append(f"{_upper(_called(h))}, {h['from']} health, takes {h['damage']}"
                         + (f": destroyed, {left} left" if h["destroyed"] else ": it holds"))
    if area and left and hit:
        lines.append(f"{left} shared as evenly as possible among {len(hit)} creature(s) and the sorcerer; "
                     "a creature needing less than its share takes only what it needs")
    if blow.odd:
        lines.append(f"{blow.odd} odd point(s): the attacker chooses who takes them (here the sorcerer first)")
    lines += [f"{h['name']}: {h['from']} → {h['to']}" + (" (destroyed)" if h["destroyed"] else "")
              for h in hit if h["damage"]]
    if blow.lost:
        lines.append(f"{blow.lost} damage past the creature's health is lost")
    if sorcerer["damage"]:
        lines.append(f"Sorcerer: {sorcerer['from']} → {sorcerer['to']}" + (": the duel is won" if sorcerer["to"] == 0 else ""))
    if draws:
        lines.append(f"Their owner draws {draws} card(s) for the creatures that died (a full hand draws none)")
    return lines


HELPERS = {
    "attack": Helper(
        "attack", "Attack",
        "Where does this attack's damage go, through the blockers and over the side?", _fields, _attack,
    ),
}
