"""PowerMage 54 in the lab: draw (or exchange), one action play, defense, the hand limit and the
halving on an empty draw deck, with the number cards (attack, defense, health, thump) and a
PowerMage shown to thump. The sums are the ruleset's (`attack`, `heal`, `halved`, `points_after`,
`defeated`, `over_hand_limit`), the same the tracker and the rule helper call.

Not modelled yet: the action cards and the PowerMages' own abilities (a PowerMage here only
enables a thump); they sit in the hand until exchanged or discarded, and each report names them.
The rulebook states no first-player rule: seat 1 plays first, and the first player's edge is seat 1's.
The halving is applied when a card must be drawn from an empty draw deck (then the discard pile
becomes the draw deck); the hand limit is kept at the end of a player's own turn (game.yaml).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from itertools import product
from typing import Any

from ..core.games.powermage_54.ruleset import (
    Constants,
    attack,
    defeated,
    halved,
    heal,
    over_hand_limit,
    played,
    points_after,
)
from ..core.models import Game
from ..core.play.state import shuffled
from .engine import Lab, Outcome

SLUG = "powermage-54"
ATTACK, DEFENSE, HEALTH, THUMP, POWERMAGE = "attack", "defense", "health", "thump", "powermage"  # decks.yaml
APPLIED = (ATTACK, DEFENSE, HEALTH, THUMP)  # the card types whose effect the lab applies
POLICIES = {
    "random": "any legal choice, uniformly: draw or exchange, any play or none, any defense or none",
    "greedy": "attack the weakest opponent with the strongest thumped attack, else heal; block with least waste",
    "idle": "never plays nor defends (draws, keeps to the hand limit at random): how long the halving alone takes",
}


@dataclass(frozen=True)
class Prepared:
    c: Constants
    deck: tuple[str, ...]  # the draw deck, one id per copy, in the YAML's order
    kind: dict[str, str]  # card id -> type
    card: dict[str, dict[str, Any]]  # card id -> the card as the ruleset's plays read it
    worth: dict[str, int]  # card id -> value or multiplier (0 for a card the lab does not apply)


def prepare(game: Game) -> Prepared:
    c = game.constants_as(Constants)
    cards = game.decks[c.draw_deck].cards
    return Prepared(
        c=c,
        deck=tuple(card.id for card in cards for _ in range(card.count)),
        kind={card.id: card.type for card in cards},
        card={card.id: played(card) for card in cards},
        worth={card.id: int(card.get("value") or card.get("multiplier") or 0) if card.type in APPLIED else 0 for card in cards},
    )


def modelled(game: Game) -> tuple[list[str], list[str]]:
    cards = game.decks[game.constants_as(Constants).draw_deck].cards
    return [c.id for c in cards if c.type in APPLIED], [c.id for c in cards if c.type not in APPLIED]


# A play: (what, target, card, thump) with what in "attack", "heal", "pass".
Play = tuple[str, int, str | None, str | None]
Guard = tuple[str, str | None] | None  # (defense card, thump) or no defense


def _thumps(p: Prepared, hand: list[str]) -> list[str | None]:
    """The thumps a hand may use: every thump held, if a PowerMage is shown (when one must be)."""
    if p.c.thump_needs_powermage and not any(p.kind[x] == POWERMAGE for x in hand):
        return [None]
    return [None, *sorted({x for x in hand if p.kind[x] == THUMP})]


def _mage(p: Prepared, hand: list[str], thump: str | None) -> dict[str, Any] | None:
    if thump is None or not p.c.thump_needs_powermage:
        return None
    return p.card[min(x for x in hand if p.kind[x] == POWERMAGE)]


def _plays(p: Prepared, hand: list[str], me: int, alive: list[int]) -> list[Play]:
    thumps = _thumps(p, hand)
    attacks = sorted({x for x in hand if p.kind[x] == ATTACK})
    heals = sorted({x for x in hand if p.kind[x] == HEALTH})
    out: list[Play] = [("pass", me, None, None)]
    out += [("heal", me, h, t) for h, t in product(heals, thumps)]
    out += [("attack", q, a, t) for q in alive if q != me for a, t in product(attacks, thumps)]
    return out


def _guards(p: Prepared, hand: list[str]) -> list[Guard]:
    defenses = sorted({x for x in hand if p.kind[x] == DEFENSE})
    return [None, *((d, t) for d, t in product(defenses, _thumps(p, hand)))]


def _strength(p: Prepared, hand: list[str], card: str, thump: str | None) -> int:
    return p.worth[card] * (p.worth[thump] if thump else 1)


class Random:
    def exchange(self, p: Prepared, rng: random.Random, hand: list[str]) -> list[str] | None:
        if len(hand) < p.c.exchange_discard or rng.randrange(2):
            return None
        return rng.sample(sorted(hand), p.c.exchange_discard)

    def play(self, p: Prepared, rng: random.Random, hand: list[str], me: int, points: list[int], alive: list[int]) -> Play:
        plays = _plays(p, hand, me, alive)
        return plays[rng.randrange(len(plays))]

    def guard(self, p: Prepared, rng: random.Random, hand: list[str], strength: int) -> Guard:
        guards = _guards(p, hand)
        return guards[rng.randrange(len(guards))]

    def trim(self, p: Prepared, rng: random.Random, hand: list[str], n: int) -> list[str]:
        return rng.sample(sorted(hand), n)


class Greedy(Random):
    @staticmethod
    def _keep(p: Prepared, card: str) -> tuple[int, int, str]:
        """How much a card is worth keeping: PowerMages first, then the number cards by worth."""
        rank = {POWERMAGE: 3, THUMP: 2, ATTACK: 1, DEFENSE: 1, HEALTH: 1}.get(p.kind[card], 0)
        return rank, p.worth[card], card

    def exchange(self, p: Prepared, rng: random.Random, hand: list[str]) -> list[str] | None:
        useful = any(p.kind[x] in (ATTACK, DEFENSE, HEALTH) for x in hand)
        if useful or len(hand) < p.c.exchange_discard:
            return None
        return sorted(hand, key=lambda x: self._keep(p, x))[: p.c.exchange_discard]

    def play(self, p: Prepared, rng: random.Random, hand: list[str], me: int, points: list[int], alive: list[int]) -> Play:
        plays = _plays(p, hand, me, alive)
        attacks = [x for x in plays if x[0] == "attack"]
        if attacks:
            k = len(points)  # ties go to the next opponent in turn order, so no seat is everyone's target
            weakest = min((q for q in alive if q != me), key=lambda q: (points[q], (q - me) % k))
            mine = [x for x in attacks if x[1] == weakest]
            return max(mine, key=lambda x: (_strength(p, hand, x[2] or "", x[3]), x[3] is None, x[2] or ""))
        heals = [x for x in plays if x[0] == "heal"]
        if heals:
            return max(heals, key=lambda x: (_strength(p, hand, x[2] or "", x[3]), x[3] is None, x[2] or ""))
        return plays[0]

    def guard(self, p: Prepared, rng: random.Random, hand: list[str], strength: int) -> Guard:
        options = [g for g in _guards(p, hand) if g is not None]
        if not options:
            return None

        def waste(g: tuple[str, str | None]) -> tuple[int, int, bool, str]:
            block = _strength(p, hand, g[0], g[1])
            return -min(block, strength), block, g[1] is not None, g[0]  # most stopped, then least spent

        return min(options, key=waste)

    def trim(self, p: Prepared, rng: random.Random, hand: list[str], n: int) -> list[str]:
        return sorted(hand, key=lambda x: self._keep(p, x))[:n]


class Idle(Random):
    def exchange(self, p: Prepared, rng: random.Random, hand: list[str]) -> list[str] | None:
        return None

    def play(self, p: Prepared, rng: random.Random, hand: list[str], me: int, points: list[int], alive: list[int]) -> Play:
        return ("pass", me, None, None)

    def guard(self, p: Prepared, rng: random.Random, hand: list[str], strength: int) -> Guard:
        return None


BY_NAME: dict[str, Random] = {"random": Random(), "greedy": Greedy(), "idle": Idle()}


def play(p: Prepared, rng: random.Random, k: int, policies: tuple[str, ...], cap: int) -> Outcome:
    c = p.c
    who = [BY_NAME[name] for name in policies]
    deck, discard = shuffled(p.deck, rng.randrange), list[str]()
    hands: list[list[str]] = [[] for _ in range(k)]
    points = [c.starting_points] * k
    out = Outcome(winner=None, finished=False, first=0, turns=0, rounds=0, played=[Counter() for _ in range(k)])

    def alive() -> list[int]:
        return [s for s in range(k) if not defeated(points[s])]

    def draw(seat: int) -> None:
        nonlocal deck, discard
        if not deck:  # the draw deck ran out: everyone's points are halved, the discard pile is shuffled in
            for s in alive():
                points[s] = halved(points[s], c.empty_deck_divisor)
            out.figures["halvings"] += 1
            deck, discard = shuffled(discard, rng.randrange), []
            if not deck:
                return
        card = deck.pop()
        hands[seat].append(card)
        out.drawn[card] += 1

    def discard_from(seat: int, cards: list[str]) -> None:
        for card in cards:
            hands[seat].remove(card)
            discard.append(card)

    for seat in range(k):
        for _ in range(c.starting_hand):
            draw(seat)
    seat = 0
    while len(alive()) > 1 and out.turns < cap:
        out.turns += 1
        me, hand = who[seat], hands[seat]
        swap = me.exchange(p, rng, hand)
        if swap is not None:
            discard_from(seat, swap)
            for _ in swap:
                draw(seat)
        else:
            for _ in range(c.draws_per_turn):
                draw(seat)
        standing = alive()
        if swap is None and seat in standing and len(standing) > 1:
            what, target, card, thump = me.play(p, rng, hand, seat, points, standing)
            used = [x for x in (card, thump) if x]
            if what == "heal":
                points[seat] = points_after(points[seat], heal(c.thump_needs_powermage, p.card[card or ""],
                                                              p.card[thump] if thump else None, _mage(p, hand, thump)))
            elif what == "attack":
                strength = _strength(p, hand, card or "", thump)
                guard = who[target].guard(p, rng, hands[target], strength)
                d, dt = guard if guard else (None, None)
                sums = attack(c.thump_needs_powermage, p.card[card or ""], p.card[thump] if thump else None, _mage(p, hand, thump),
                              p.card[d] if d else None, p.card[dt] if dt else None, _mage(p, hands[target], dt))
                points[target] = points_after(points[target], -sums.damage)
                blocked = [x for x in (d, dt) if x]
                out.played[target].update(blocked)
                discard_from(target, blocked)
            out.played[seat].update(used)
            discard_from(seat, used)
        extra = over_hand_limit(len(hand), c.hand_limit)
        if extra:
            discard_from(seat, me.trim(p, rng, hand, extra))
        for s in range(k):
            if defeated(points[s]) and hands[s]:
                discard_from(s, list(hands[s]))
        standing = alive()
        if len(standing) <= 1:
            break
        nxt = next(s for s in [*range(seat + 1, k), *range(seat + 1)] if s in standing)
        if nxt <= seat:
            out.rounds += 1
        seat = nxt
    standing = alive()
    out.finished = len(standing) <= 1
    out.winner = standing[0] if len(standing) == 1 else None
    out.rounds += out.finished
    return out


LAB = Lab(
    ruleset=SLUG,
    policies=POLICIES,
    prepare=prepare,
    play=play,
    modelled=modelled,
    first_rule="the rulebook states none: seat 1 plays first",
    turn_cap=2000,
)
