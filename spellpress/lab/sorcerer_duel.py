"""Sorcerer Duel in the lab: each seat plays a deck of its own (`player_decks`, in seat order),
the first player by a coin flip skips the first draw, mana per turn and conversions, summoning
(cost, a requirement's sacrifice, summoning sickness, haste), attack spells at one target or a
whole side, creature attacks, blockers, draws on a creature's death and the hand limit on
drawing. The rules are the ruleset's (`turn_draws`, `may_draw`, `summoning_sick`, `sacrifices`,
`one_target`, `whole_side`), the same the tracker and the attack helper call.

Not modelled yet: the sorcerers' effects, and the printed `text` and `death` effects of cards
(their cost, attack, health, damage and haste are applied); each report names them.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

from ..core.games.sorcerer_duel.ruleset import (
    Blow,
    Constants,
    may_draw,
    one_target,
    sacrifices,
    summoning_sick,
    turn_draws,
    whole_side,
)
from ..core.models import Game
from ..core.play.state import shuffled
from .engine import Lab, Outcome

SLUG = "sorcerer-duel"
CREATURE, BLOCKER, SPELL = "creature", "blocker", "attack-spell"  # decks.yaml
PLAYED = (CREATURE, BLOCKER, SPELL)
POLICIES = {
    "random": "any legal action or the end of the turn, uniformly, one at a time",
    "greedy": "play the costliest card it can pay for (converting its cheapest), repeat; every spell and attack at the sorcerer",
}


@dataclass(frozen=True)
class Prepared:
    c: Constants
    decks: tuple[tuple[str, ...], ...]  # per deck of player_decks: one id per copy
    card: dict[str, dict[str, Any]]  # id -> type, cost, attack, health, damage, area, haste, needs
    most_health: int


def prepare(game: Game) -> Prepared:
    c = game.constants_as(Constants)
    cards = [card for d in c.player_decks for card in game.decks[d].cards if card.type in PLAYED]
    info = {card.id: {"type": card.type, "cost": int(card.get("cost") or 0), "attack": int(card.get("attack") or 0),
                      "health": int(card.get("health") or 0), "damage": int(card.get("damage") or 0),
                      "area": card.get("target") == "side", "haste": bool(card.get("haste")), "needs": card.get("needs")}
            for card in cards}
    health = next(x for x in game.counters if x.id == "health")
    return Prepared(c, tuple(tuple(card.id for card in game.decks[d].cards if card.type in PLAYED for _ in range(card.count))
                             for d in c.player_decks), info, health.max or c.starting_health)


def modelled(game: Game) -> tuple[list[str], list[str]]:
    c = game.constants_as(Constants)
    sorcerers = [card.id for card in game.cards if card.type == "sorcerer"]
    cards = [card for d in c.player_decks for card in game.decks[d].cards if card.type in PLAYED]
    return ([card.id for card in cards if not (card.get("text") or card.get("death"))],
            sorcerers + [card.id for card in cards if card.get("text") or card.get("death")])


class Unit:
    __slots__ = ("card", "kind", "attack", "health", "arrived", "attacked")

    def __init__(self, card: str, kind: str, attack: int, health: int, arrived: int) -> None:
        self.card, self.kind, self.attack, self.health, self.arrived, self.attacked = card, kind, attack, health, arrived, False


class Side:
    """A player's side: deck, hand, discard pile, units in play (in the order they came) and health."""

    def __init__(self, deck: list[str], health: int) -> None:
        self.deck = deck
        self.hand: list[str] = []
        self.discard: list[str] = []
        self.units: list[Unit] = []
        self.health = health

    def of(self, kind: str) -> list[Unit]:
        return [u for u in self.units if u.kind == kind]


# An action: ("convert", card) | ("play", card, target, sacrifice) | ("attack", unit, target) | ("end",)
# A target: None for the opposing sorcerer, a Unit (an opposing creature), or "side" for a whole-side spell.


def _actions(p: Prepared, me: Side, foe: Side, mana: int, conversions: int, now: int) -> list[tuple[Any, ...]]:
    acts: list[tuple[Any, ...]] = [("end",)]
    if conversions < p.c.max_conversions:
        acts += [("convert", x) for x in sorted(set(me.hand))]
    aims: list[Any] = [None, *foe.of(CREATURE)]
    own = [(u.card, u.kind) for u in me.units]
    for x in sorted(set(me.hand)):
        info = p.card[x]
        if info["cost"] > mana:
            continue
        if info["type"] == SPELL:
            acts += [("play", x, "side", None)] if info["area"] else [("play", x, aim, None) for aim in aims]
        elif info["needs"] is None:
            acts.append(("play", x, None, None))
        else:
            acts += [("play", x, None, me.units[i]) for i in sacrifices(info["needs"], own)]
    for u in me.of(CREATURE):
        if not u.attacked and not summoning_sick(u.arrived, now, p.card[u.card]["haste"]):
            acts += [("attack", u, aim) for aim in aims]
    return acts


def choose_random(p: Prepared, rng: random.Random, me: Side, foe: Side, mana: int, conversions: int, now: int) -> tuple[Any, ...]:
    acts = _actions(p, me, foe, mana, conversions, now)
    return acts[rng.randrange(len(acts))]


def choose_greedy(p: Prepared, rng: random.Random, me: Side, foe: Side, mana: int, conversions: int, now: int) -> tuple[Any, ...]:
    acts = _actions(p, me, foe, mana, conversions, now)
    plays = [a for a in acts if a[0] == "play" and a[2] in (None, "side")]
    if plays:  # the costliest, sacrificing the weakest unit a requirement allows
        return max(plays, key=lambda a: (p.card[a[1]]["cost"], a[1], -(a[3].attack + a[3].health) if a[3] else 0))
    spare = conversions < p.c.max_conversions
    if spare and len(me.hand) > 1:
        afford = mana + p.c.mana_per_conversion * min(p.c.max_conversions - conversions, len(me.hand) - 1)
        own = [(u.card, u.kind) for u in me.units]
        wanted = [x for x in me.hand if mana < p.card[x]["cost"] <= afford
                  and (p.card[x]["needs"] is None or sacrifices(p.card[x]["needs"], own))]
        if wanted:
            rest = list(me.hand)
            rest.remove(max(wanted, key=lambda x: (p.card[x]["cost"], x)))
            return ("convert", min(rest, key=lambda x: (p.card[x]["cost"], x)))
    attacks = [a for a in acts if a[0] == "attack" and a[2] is None]
    return attacks[0] if attacks else ("end",)


BY_NAME = {"random": choose_random, "greedy": choose_greedy}


def play(p: Prepared, rng: random.Random, k: int, policies: tuple[str, ...], cap: int) -> Outcome:
    c = p.c
    sides = [Side(shuffled(p.decks[s % len(p.decks)], rng.randrange), c.starting_health) for s in range(k)]
    first = rng.randrange(k)  # a coin flip
    out = Outcome(winner=None, finished=False, first=first, turns=0, rounds=0, played=[Counter() for _ in range(k)])

    def draw(s: int, n: int) -> None:
        side = sides[s]
        for _ in range(n):
            if not may_draw(len(side.hand), c.hand_limit):
                return
            if not side.deck:  # deck out: the discard pile is shuffled into a new deck
                side.deck, side.discard = shuffled(side.discard, rng.randrange), []
                if not side.deck:
                    return
            card = side.deck.pop()
            side.hand.append(card)
            out.drawn[card] += 1

    def destroy(s: int, unit: Unit) -> None:
        sides[s].units.remove(unit)
        sides[s].discard.append(unit.card)
        if unit.kind == CREATURE:
            out.figures["creatures died"] += 1
            draw(s, c.draws_on_creature_death)

    def land(s: int, blow: Blow, blockers: list[Unit], creatures: list[Unit]) -> None:
        for unit, took in zip(blockers + creatures, blow.blockers + blow.creatures):
            unit.health -= took
            if unit.health <= 0:
                destroy(s, unit)
        side = sides[s]
        side.health = min(max(side.health - blow.sorcerer, 0), p.most_health)

    def strike(s: int, damage: int, aim: Any) -> None:
        blockers, creatures = sides[s].of(BLOCKER), sides[s].of(CREATURE)
        healths = [u.health for u in blockers], [u.health for u in creatures]
        if aim == "side":
            land(s, whole_side(damage, *healths), blockers, creatures)
        else:
            land(s, one_target(damage, *healths, None if aim is None else creatures.index(aim)), blockers, creatures)

    for s in range(k):
        draw(s, c.starting_hand)
    seat = first
    while out.turns < cap:
        out.turns += 1
        me, s_foe = sides[seat], (seat + 1) % k
        foe = sides[s_foe]
        draw(seat, turn_draws(c.first_player_skips_draw, out.turns == 1, c.draws_per_turn))
        mana, conversions = c.mana_per_turn, 0
        for u in me.units:
            u.attacked = False
        choose = BY_NAME[policies[seat]]
        while foe.health > 0:
            act = choose(p, rng, me, foe, mana, conversions, out.turns)
            if act[0] == "end":
                break
            if act[0] == "convert":
                me.hand.remove(act[1])
                me.discard.append(act[1])
                mana += c.mana_per_conversion
                conversions += 1
                out.figures["cards converted"] += 1
            elif act[0] == "attack":
                act[1].attacked = True
                strike(s_foe, act[1].attack, act[2])
            else:
                _, card, aim, sacrifice = act
                info = p.card[card]
                me.hand.remove(card)
                mana -= info["cost"]
                out.played[seat][card] += 1
                if sacrifice is not None:
                    destroy(seat, sacrifice)
                if info["type"] == SPELL:
                    me.discard.append(card)
                    strike(s_foe, info["damage"], aim)
                else:
                    me.units.append(Unit(card, info["type"], info["attack"], info["health"], out.turns))
        if foe.health <= 0:
            out.finished, out.winner = True, seat
            break
        seat = s_foe
        out.rounds += seat == first
    out.rounds += 1 if out.finished else 0
    return out


def seat_deck(game: Game, seat: int) -> str:
    """The deck a seat plays: player_decks in seat order, round again if there are more seats."""
    decks = game.constants_as(Constants).player_decks
    return decks[seat % len(decks)]


LAB = Lab(
    ruleset=SLUG,
    policies=POLICIES,
    prepare=prepare,
    play=play,
    modelled=modelled,
    first_rule="a coin flip; the first player skips the first draw",
    turn_cap=300,
    seat_plays=seat_deck,
)
