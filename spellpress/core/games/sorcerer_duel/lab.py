"""Sorcerer Duel in the lab: each seat plays a deck of its own (`player_decks`, in seat order)
and a sorcerer dealt at random (each seat a different one), the first player by a coin flip skips
the first draw, mana per turn and conversions, summoning (cost, a requirement met by destroying,
having or a recent death, summoning sickness, haste), attack spells at one target or a whole
side, creature attacks, blockers, draws on a creature's death and the hand limit on drawing;
and every effect field of the cards and sorcerers: death effects (damage, draws, health
regained, back into the deck), end-of-turn damage, a spell's draws, blockers that regain health
or prick an attacker, and the six sorcerers' effects. The rules are the ruleset's (`turn_draws`,
`may_draw`, `summoning_sick`, `summon_options`, `died_lately`, `death_draws`, `regained`,
`spell_bonus`, `heralded`, `once_a_turn`, `conversions_allowed`, `one_target`, `whole_side`).

A card counts as modelled when the fields the lab applies print the whole of its text (`said`).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

from ...engine import Lab, Outcome
from ...models import Game
from ...play.state import shuffled
from ...said import unsaid
from .ruleset import (
    SORCERER_EFFECTS,
    Blow,
    Constants,
    conversions_allowed,
    death_draws,
    died_lately,
    heralded,
    may_draw,
    once_a_turn,
    one_target,
    regained,
    spell_bonus,
    summon_options,
    summoning_sick,
    turn_draws,
    whole_side,
)

SLUG = "sorcerer-duel"
CREATURE, BLOCKER, SPELL, SORCERER = "creature", "blocker", "attack-spell", "sorcerer"  # decks.yaml
PLAYED = (CREATURE, BLOCKER, SPELL)
# the effect fields the lab applies, by card type (each prints its own sentence on the card)
APPLIED = {
    CREATURE: ("haste", "end_damage", "death_effect"),
    SPELL: ("draws",),
    BLOCKER: ("regains", "thorns", "death_effect"),
    SORCERER: SORCERER_EFFECTS,
}
POLICIES = {
    "random": "any legal action or the end of the turn, uniformly, one at a time; any target for an effect",
    "greedy": ("play the costliest card it can pay for (converting its cheapest), repeat; every spell, attack and "
               "effect at the sorcerer; a sorcerer's mending to its most wounded blocker"),
}


@dataclass(frozen=True)
class Prepared:
    c: Constants
    decks: tuple[tuple[str, ...], ...]  # per deck of player_decks: one id per copy
    card: dict[str, dict[str, Any]]  # id -> type, cost, attack, health, damage, area and the effect fields
    sorcerers: tuple[tuple[str, dict[str, int]], ...]  # (id, effect field -> value), in the YAML's order
    most_health: int


def prepare(game: Game) -> Prepared:
    c = game.constants_as(Constants)
    cards = [card for d in c.player_decks for card in game.decks[d].cards if card.type in PLAYED]
    info = {card.id: {"type": card.type, "cost": int(card.get("cost") or 0), "attack": int(card.get("attack") or 0),
                      "health": int(card.get("health") or 0), "damage": int(card.get("damage") or 0),
                      "area": card.get("target") == "side", "haste": bool(card.get("haste")), "needs": card.get("needs"),
                      "how": card.get("needs_how"), "death": card.get("death_effect"),
                      "amount": int(card.get("death_amount") or 0), "end_damage": int(card.get("end_damage") or 0),
                      "draws": int(card.get("draws") or 0), "regains": int(card.get("regains") or 0),
                      "thorns": int(card.get("thorns") or 0)}
            for card in cards}
    sorcerers = tuple((card.id, {f: int(card[f]) for f in SORCERER_EFFECTS if card.get(f) is not None})
                      for card in game.cards if card.type == SORCERER)
    health = next(x for x in game.counters if x.id == "health")
    return Prepared(c, tuple(tuple(card.id for card in game.decks[d].cards if card.type in PLAYED for _ in range(card.count))
                             for d in c.player_decks), info, sorcerers, health.max or c.starting_health)


def modelled(game: Game) -> tuple[list[str], list[str]]:
    c = game.constants_as(Constants)
    cards = [card for card in game.cards if card.type == SORCERER]
    cards += [card for d in c.player_decks for card in game.decks[d].cards if card.type in PLAYED]
    whole = [card.id for card in cards if not unsaid(game, card, APPLIED[card.type], exempt=("requirement",))]
    return whole, [card.id for card in cards if card.id not in whole]


class Unit:
    __slots__ = ("card", "kind", "attack", "health", "most", "arrived", "attacked", "haste")

    def __init__(self, card: str, kind: str, attack: int, health: int, arrived: int, haste: bool) -> None:
        self.card, self.kind, self.attack, self.health, self.arrived = card, kind, attack, health, arrived
        self.most, self.attacked, self.haste = health, False, haste


class Side:
    """A player's side: sorcerer and its effects, deck, hand, discard pile, units in play (in the
    order they came), health, the turn a creature of theirs last died, and the turn each of the
    sorcerer's once-a-turn effects was last used."""

    def __init__(self, deck: list[str], health: int, sorcerer: str, fx: dict[str, int]) -> None:
        self.deck = deck
        self.hand: list[str] = []
        self.discard: list[str] = []
        self.units: list[Unit] = []
        self.health = health
        self.sorcerer, self.fx = sorcerer, fx
        self.last_death: int | None = None
        self.used: dict[str, int] = {}

    def of(self, kind: str) -> list[Unit]:
        return [u for u in self.units if u.kind == kind]


# An action: ("convert", card) | ("play", card, target, sacrifice) | ("attack", unit, target) | ("end",)
# A target: None for the opposing sorcerer, a Unit (an opposing creature), or "side" for a whole-side spell.


def _actions(p: Prepared, me: Side, foe: Side, mana: int, conversions: int, now: int, k: int) -> list[tuple[Any, ...]]:
    acts: list[tuple[Any, ...]] = [("end",)]
    hand = sorted(set(me.hand))
    if conversions < conversions_allowed(p.c.max_conversions, me.fx.get("extra_conversions", 0)):
        acts += [("convert", x) for x in hand]
    aims: list[Any] = [None, *(u for u in foe.units if u.kind == CREATURE)]
    own: list[tuple[str, str]] | None = None
    for x in hand:
        info = p.card[x]
        if info["cost"] > mana:
            continue
        if info["type"] == SPELL:
            acts += [("play", x, "side", None)] if info["area"] else [("play", x, aim, None) for aim in aims]
        elif info["needs"] is None:
            acts.append(("play", x, None, None))
        else:
            own = own if own is not None else [(u.card, u.kind) for u in me.units]
            acts += [("play", x, None, None if i is None else me.units[i])
                     for i in summon_options(info["how"], info["needs"], own, died_lately(me.last_death, now, k))]
    for u in me.units:
        if u.kind == CREATURE and not u.attacked and not summoning_sick(u.arrived, now, u.haste):
            acts += [("attack", u, aim) for aim in aims]
    return acts


class Random:
    def act(self, p: Prepared, rng: random.Random, me: Side, foe: Side, mana: int, conversions: int, now: int,
            k: int) -> tuple[Any, ...]:
        acts = _actions(p, me, foe, mana, conversions, now, k)
        return acts[rng.randrange(len(acts))]

    def aim(self, rng: random.Random, foe: Side) -> Unit | None:
        """An effect's one target: the opposing sorcerer (None) or one of their creatures."""
        aims: list[Unit | None] = [None, *foe.of(CREATURE)]
        return aims[rng.randrange(len(aims))]

    def mend(self, rng: random.Random, wounded: list[Unit]) -> Unit:
        return wounded[rng.randrange(len(wounded))]


class Greedy(Random):
    def act(self, p: Prepared, rng: random.Random, me: Side, foe: Side, mana: int, conversions: int, now: int,
            k: int) -> tuple[Any, ...]:
        acts = _actions(p, me, foe, mana, conversions, now, k)
        plays = [a for a in acts if a[0] == "play" and a[2] in (None, "side")]
        if plays:  # the costliest, sacrificing the weakest unit a requirement allows
            return max(plays, key=lambda a: (p.card[a[1]]["cost"], a[1], -(a[3].attack + a[3].health) if a[3] else 0))
        allowed = conversions_allowed(p.c.max_conversions, me.fx.get("extra_conversions", 0))
        if conversions < allowed and len(me.hand) > 1:
            afford = mana + p.c.mana_per_conversion * min(allowed - conversions, len(me.hand) - 1)
            own = [(u.card, u.kind) for u in me.units]
            lately = died_lately(me.last_death, now, k)
            wanted = [x for x in me.hand if mana < p.card[x]["cost"] <= afford
                      and summon_options(p.card[x]["how"], p.card[x]["needs"], own, lately)]
            if wanted:
                rest = list(me.hand)
                rest.remove(max(wanted, key=lambda x: (p.card[x]["cost"], x)))
                return ("convert", min(rest, key=lambda x: (p.card[x]["cost"], x)))
        attacks = [a for a in acts if a[0] == "attack" and a[2] is None]
        return attacks[0] if attacks else ("end",)

    def aim(self, rng: random.Random, foe: Side) -> Unit | None:
        return None

    def mend(self, rng: random.Random, wounded: list[Unit]) -> Unit:
        return max(wounded, key=lambda u: u.most - u.health)  # the first of the most wounded


BY_NAME: dict[str, Random] = {"random": Random(), "greedy": Greedy()}


def play(p: Prepared, rng: random.Random, k: int, policies: tuple[str, ...], cap: int, record: bool = False) -> Outcome:
    c = p.c
    dealt = rng.sample(range(len(p.sorcerers)), k)  # each player's sorcerer, a different one each
    sides = [Side(shuffled(p.decks[s % len(p.decks)], rng.randrange), c.starting_health, *p.sorcerers[dealt[s]])
             for s in range(k)]
    first = rng.randrange(k)  # a coin flip
    out = Outcome(winner=None, finished=False, first=first, turns=0, rounds=0, played=[Counter() for _ in range(k)])
    who = [BY_NAME[name] for name in policies]
    for s, side in enumerate(sides):
        out.drawn[side.sorcerer] += 1  # dealt
        out.played[s][side.sorcerer] += 1

    def draw(s: int, n: int, effect: bool = False) -> None:
        """Draws n cards, as far as the hand limit allows (those a card's or sorcerer's `effect`
        draws are counted apart)."""
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
            if effect:
                out.figures["cards drawn by effects"] += 1

    def free(side: Side, effect: str) -> bool:
        """The sorcerer has this once-a-turn effect and has not used it this turn: it is used now."""
        if effect not in side.fx or not once_a_turn(side.used.get(effect), out.turns):
            return False
        side.used[effect] = out.turns
        return True

    def destroy(s: int, unit: Unit) -> None:
        side, info = sides[s], p.card[unit.card]
        side.units.remove(unit)
        if info["death"] == "reshuffle":
            side.deck = shuffled([*side.deck, unit.card], rng.randrange)
        else:
            side.discard.append(unit.card)
        if unit.kind == CREATURE:
            out.figures["creatures died"] += 1
            side.last_death = out.turns
            draw(s, c.draws_on_creature_death)
            draw(s, death_draws(c.draws_on_creature_death, side.fx.get("extra_death_draws", 0), info["death"], info["amount"])
                 - c.draws_on_creature_death, effect=True)
        else:
            draw(s, death_draws(0, 0, info["death"], info["amount"]), effect=True)
            if free(side, "blocker_draws"):
                draw(s, side.fx["blocker_draws"], effect=True)
        if info["death"] == "damage":
            foe = (s + 1) % k
            strike(foe, info["amount"], who[s].aim(rng, sides[foe]))
        elif info["death"] == "heal":
            side.health = regained(side.health, info["amount"], p.most_health)

    def land(s: int, blow: Blow, blockers: list[Unit], creatures: list[Unit], attacker: Unit | None) -> None:
        """The blow's damage on every unit and the sorcerer at once, then what it destroyed, in order."""
        units = blockers + creatures
        thorns = 0
        for unit, took in zip(units, blow.blockers + blow.creatures):
            unit.health -= took
            if took and attacker is not None:
                thorns += p.card[unit.card]["thorns"]
        side = sides[s]
        side.health = min(max(side.health - blow.sorcerer, 0), p.most_health)
        for unit in units:
            if unit.health <= 0 and unit in side.units:
                destroy(s, unit)
        if thorns and attacker is not None and attacker in sides[(s + 1) % k].units:
            strike((s + 1) % k, thorns, attacker)

    def strike(s: int, damage: int, aim: Any, attacker: Unit | None = None, spell: bool = False) -> None:
        blockers, creatures = sides[s].of(BLOCKER), sides[s].of(CREATURE)
        healths = [u.health for u in blockers], [u.health for u in creatures]
        if aim == "side":
            blow = whole_side(damage, *healths)
        else:
            blow = one_target(damage, *healths, None if aim is None else creatures.index(aim))
        if spell and blow.sorcerer and "spell_bonus" in sides[(s + 1) % k].fx:
            caster = sides[(s + 1) % k]
            bonus = spell_bonus(blow.sorcerer, caster.fx["spell_bonus"], once_a_turn(caster.used.get("spell_bonus"), out.turns))
            if bonus != blow.sorcerer:
                caster.used["spell_bonus"] = out.turns
                blow = Blow(blow.blockers, blow.creatures, bonus, blow.lost, blow.odd)
        land(s, blow, blockers, creatures, attacker)

    def over() -> bool:
        for side in sides:
            if side.health <= 0:
                return True
        return False

    for s in range(k):
        draw(s, c.starting_hand)
    seat = first
    while out.turns < cap:
        out.turns += 1
        me, s_foe = sides[seat], (seat + 1) % k
        foe, policy = sides[s_foe], who[seat]
        for u in me.of(BLOCKER):  # the start of the turn: blockers that regain health, then the sorcerer's mending
            u.health = regained(u.health, p.card[u.card]["regains"], u.most)
        wounded = [u for u in me.of(BLOCKER) if u.health < u.most]
        if wounded and "blocker_regains" in me.fx:
            u = policy.mend(rng, wounded)
            u.health = regained(u.health, me.fx["blocker_regains"], u.most)
        draw(seat, turn_draws(c.first_player_skips_draw, out.turns == 1, c.draws_per_turn))
        mana, conversions = c.mana_per_turn, 0
        for u in me.units:
            u.attacked = False
        while not over():
            act = policy.act(p, rng, me, foe, mana, conversions, out.turns, k)
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
                strike(s_foe, act[1].attack, act[2], attacker=act[1])
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
                    if aim is None or aim == "side" or aim in foe.units:  # a target the sacrifice's effect killed is gone
                        strike(s_foe, info["damage"], aim, spell=True)
                    draw(seat, info["draws"], effect=True)
                else:
                    haste = info["haste"] or (info["type"] == CREATURE and heralded(
                        info["cost"], me.fx.get("haste_up_to"), once_a_turn(me.used.get("haste_up_to"), out.turns), info["haste"]))
                    if haste and not info["haste"]:
                        me.used["haste_up_to"] = out.turns
                    me.units.append(Unit(card, info["type"], info["attack"], info["health"], out.turns, haste))
        for u in me.of(CREATURE):  # the end of the turn
            if p.card[u.card]["end_damage"] and u in me.units and not over():
                strike(s_foe, p.card[u.card]["end_damage"], None)  # at the opposing sorcerer
        if over():
            standing = [s for s in range(k) if sides[s].health > 0]
            out.finished, out.winner = True, standing[0] if len(standing) == 1 else None
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
