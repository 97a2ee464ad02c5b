"""PowerMage 54 in the lab: draw (or exchange), one action play, the answer to an attack, the
hand limit and the halving on an empty draw deck, with the number cards (attack, defense,
health, thump), and every action card and PowerMage by its declared `effect` (the ruleset's
EFFECTS): Annihilator's pair, Spellblade played as a card, Magnifier's multiplier, Blister's
unblockable attack (and Annihilator cancelling it), Turnabout's and Lifeweaver's gain, Mirror
Warden's redirection, Hoarder's larger hand, another turn, and the cards that take, swap,
discard or reshuffle. The sums are the ruleset's (`strength`, `answered`, `may_thump`,
`keep_limit`, `halved`, `points_after`, `defeated`, `over_hand_limit`).

The lab's players see every hand, so Scrying Glass (`see-hand`) changes nothing they know: it
is played and discarded, its whole effect. The rulebook states no first-player rule: seat 1
plays first, and the first player's edge is seat 1's. The halving is applied when a card must be
drawn from an empty draw deck (then the discard pile becomes the draw deck); the hand limit is
kept at the end of a player's own turn (game.yaml).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from ...engine import Lab, Outcome
from ...models import Game
from ...play.state import shuffled
from .ruleset import (
    EFFECTS,
    Constants,
    answered,
    defeated,
    halved,
    keep_limit,
    may_thump,
    over_hand_limit,
    points_after,
    strength,
)

SLUG = "powermage-54"
ATTACK, DEFENSE, HEALTH, THUMP, ACTION, POWERMAGE = "attack", "defense", "health", "thump", "action", "powermage"
NUMBERED = (ATTACK, DEFENSE, HEALTH, THUMP)  # decks.yaml's number cards, applied by their value
POLICIES = {
    "random": "any legal choice, uniformly: draw or exchange, any play or none, any answer or none, any card to give",
    "greedy": ("trade points with a leader far ahead; else attack the weakest opponent with the strongest attack "
               "(pairs, Magnifier, thumps); else Blister the weakest, then take, ruin or silence the leader's cards, "
               "heal, take another turn, trade for a richer hand, reshuffle to put off a halving when leading; "
               "answer by gaining, then redirecting to the weakest, then blocking with least waste; give up a "
               "PowerMage to Blister"),
    "idle": ("never plays nor defends, nor holds more than the hand limit (draws, keeps to it at random): how long "
             "the halving alone takes"),
}
TAKE = ("take-attack-or-defense", "take-from-discard", "take-powermage", "take-blind", "ruin", "discard-powermage")
AIMED = ("take-blind", "discard-powermage", "swap-hands", "swap-points", "take-powermage", "unblockable",
         "take-attack-or-defense", "ruin")  # effects aimed at another player


@dataclass(frozen=True)
class Prepared:
    c: Constants
    deck: tuple[str, ...]  # the draw deck, one id per copy, in the YAML's order
    kind: dict[str, str]  # card id -> type
    worth: dict[str, int]  # card id -> value, multiplier, or what a PowerMage is worth as a card (0 otherwise)
    effect: dict[str, str]  # action card or PowerMage id -> its effect
    number: dict[str, int]  # card id -> the number its effect needs (forfeit, worth, times, holds)
    cancels: tuple[str, ...]  # the cards that cancel an unblockable attack


def prepare(game: Game) -> Prepared:
    c = game.constants_as(Constants)
    cards = game.decks[c.draw_deck].cards
    number = {}
    for card in cards:
        need = EFFECTS[card["effect"]][1] if card.get("effect") else None
        if need is not None:
            number[card.id] = int(card[need])
    return Prepared(
        c=c,
        deck=tuple(card.id for card in cards for _ in range(card.count)),
        kind={card.id: card.type for card in cards},
        worth={card.id: int(card.get("value") or card.get("multiplier") or card.get("worth") or 0) for card in cards},
        effect={card.id: card["effect"] for card in cards if card.get("effect")},
        number=number,
        cancels=tuple(card.id for card in cards if card.get("cancels_unblockable")),
    )


def modelled(game: Game) -> tuple[list[str], list[str]]:
    cards = game.decks[game.constants_as(Constants).draw_deck].cards
    whole = [c.id for c in cards if c.type in NUMBERED or c.get("effect") in EFFECTS]
    return whole, [c.id for c in cards if c.id not in whole]


# A play: ("pass",) | ("heal", card, multiplier) | ("attack", target, cards, multiplier) | ("card", card, target)
# An answer: None | ("block", cards, multiplier) | ("gain", card) | ("redirect", card, target)
#   | against an unblockable attack: ("give", powermage) | ("cancel", card) | ("take",)
Play = tuple[Any, ...]


class View:
    """A hand sorted once for a decision: its different cards of each type and of each effect."""

    __slots__ = ("hand", "kinds", "effects")

    def __init__(self, p: Prepared, hand: list[str]) -> None:
        self.hand = hand
        self.kinds: dict[str, list[str]] = {}
        self.effects: dict[str, list[str]] = {}
        kind, effect = p.kind, p.effect
        for x in sorted(set(hand)):
            if x in effect:
                self.effects.setdefault(effect[x], []).append(x)
            if kind[x] in self.kinds:
                self.kinds[kind[x]].append(x)
            else:
                self.kinds[kind[x]] = [x]

    def of(self, kind: str) -> list[str]:
        return self.kinds.get(kind, [])

    def with_(self, effect: str) -> list[str]:
        return self.effects.get(effect, [])


def _multipliers(p: Prepared, v: View, cards: tuple[str, ...], magnify: bool) -> list[str | None]:
    """What may multiply `cards`: nothing, a thump (with a PowerMage shown, unless the card may be
    thumped alone), or a multiplying PowerMage (Magnifier) for one card."""
    out: list[str | None] = [None]
    thumps = v.of(THUMP)
    if thumps:
        shown = any(x not in cards for x in v.of(POWERMAGE))
        alone = len(cards) == 1 and p.effect.get(cards[0]) == "as-card"
        if may_thump(p.c.thump_needs_powermage, shown, alone):
            out += thumps
    if magnify and len(cards) == 1:
        out += [m for m in v.with_("multiply") if m not in cards]
    return out


def _sets(p: Prepared, v: View, kind: str) -> list[tuple[str, ...]]:
    """The cards that may attack (or block) together: one card of `kind` or a PowerMage played
    as one, or two of them with Annihilator (`two-cards`)."""
    single = v.of(kind) + v.with_("as-card")
    sets: list[tuple[str, ...]] = [(x,) for x in single]
    if v.with_("two-cards") and single:
        copies = sorted(x for x in v.hand if x in single)
        sets += sorted(set(combinations(copies, 2)))
    return sets


def _value(p: Prepared, cards: tuple[str, ...], mult: str | None) -> int:
    times = None if mult is None else p.number.get(mult, p.worth[mult])
    return strength(tuple(p.worth[x] for x in cards), times)


def _spent(p: Prepared, hand: list[str], cards: tuple[str, ...], mult: str | None) -> list[str]:
    """The cards an attack or block uses up: its cards, its multiplier, and Annihilator for a pair."""
    used = [*cards, *([mult] if mult else [])]
    if len(cards) == 2:
        used.append(min(x for x in hand if p.effect.get(x) == "two-cards"))
    return used


def _plays(p: Prepared, v: View, me: int, alive: list[int]) -> list[Play]:
    others = [q for q in alive if q != me]
    out: list[Play] = [("pass",)]
    out += [("heal", h, m) for h in v.of(HEALTH) for m in _multipliers(p, v, (h,), False)]
    out += [("attack", q, s, m) for s in _sets(p, v, ATTACK) for m in _multipliers(p, v, s, True) for q in others]
    for x in v.of(ACTION) + v.of(POWERMAGE):
        effect = p.effect[x]
        if EFFECTS[effect][0] != "on your turn":
            continue
        out += [("card", x, q) for q in others] if effect in AIMED else [("card", x, None)]
    return out


def _answers(p: Prepared, v: View, me: int, alive: list[int], reached: list[int], unblockable: bool) -> list[Play | None]:
    if unblockable:
        return [("cancel", x) for x in v.of(POWERMAGE) if x in p.cancels] + [
            ("give", x) for x in v.of(POWERMAGE)] + [("take",)]
    out: list[Play | None] = [None]
    out += [("block", s, m) for s in _sets(p, v, DEFENSE) for m in _multipliers(p, v, s, True)]
    out += [("gain", x) for x in v.with_("gain")]
    out += [("redirect", x, q) for x in v.with_("redirect") for q in alive if q != me and q not in reached]
    return out


class Random:
    def exchange(self, p: Prepared, rng: random.Random, hand: list[str]) -> list[str] | None:
        if len(hand) < p.c.exchange_discard or rng.randrange(2):
            return None
        return rng.sample(sorted(hand), p.c.exchange_discard)

    def play(self, p: Prepared, rng: random.Random, hands: list[list[str]], me: int, points: list[int], alive: list[int],
             discard: list[str], deck: list[str]) -> Play:
        plays = _plays(p, View(p, hands[me]), me, alive)
        return plays[rng.randrange(len(plays))]

    def answer(self, p: Prepared, rng: random.Random, hands: list[list[str]], me: int, points: list[int], alive: list[int],
               reached: list[int], attack: int, unblockable: bool) -> Play | None:
        answers = _answers(p, View(p, hands[me]), me, alive, reached, unblockable)
        return answers[rng.randrange(len(answers))]

    def pick(self, p: Prepared, rng: random.Random, cards: list[str], mine: bool) -> str:
        """A card to take (`mine` False: from another hand or the discard pile) or to give up."""
        options = sorted(set(cards))
        return options[rng.randrange(len(options))]

    def trim(self, p: Prepared, rng: random.Random, hand: list[str], n: int) -> list[str]:
        return rng.sample(sorted(hand), n)

    def holds(self, p: Prepared, hand: list[str]) -> int | None:
        """How many cards a card held (Hoarder) lets this player keep, if it uses it: it may."""
        return max((p.number[x] for x in hand if p.effect.get(x) == "hold-more"), default=None)


def _keep(p: Prepared, card: str) -> tuple[int, int, str]:
    """How much a card is worth keeping: PowerMages and answers first, then thumps, then the
    number cards by worth, then the other actions."""
    effect = p.effect.get(card)
    rank = 3 if p.kind[card] == POWERMAGE or effect == "gain" else {THUMP: 2, ACTION: 0}.get(p.kind[card], 1)
    return rank, p.worth[card], card


class Greedy(Random):
    def exchange(self, p: Prepared, rng: random.Random, hand: list[str]) -> list[str] | None:
        useful = any(p.kind[x] in (ATTACK, DEFENSE, HEALTH, ACTION) or x in p.effect and EFFECTS[p.effect[x]][0] == "on your turn"
                     for x in hand)  # a card it may play
        if useful or len(hand) < p.c.exchange_discard:
            return None
        return sorted(hand, key=lambda x: _keep(p, x))[: p.c.exchange_discard]

    def play(self, p: Prepared, rng: random.Random, hands: list[list[str]], me: int, points: list[int], alive: list[int],
             discard: list[str], deck: list[str]) -> Play:
        hand, k = hands[me], len(points)
        v = View(p, hand)
        others = [q for q in alive if q != me]
        weakest = min(others, key=lambda q: (points[q], (q - me) % k))  # ties: the next in turn order
        leader = max(others, key=lambda q: (points[q], -((q - me) % k)))
        cards = {effect: xs[0] for effect, xs in v.effects.items()}
        if "swap-points" in cards and points[leader] >= points[me] + 40:
            return ("card", cards["swap-points"], leader)
        attacks = [(s, m) for s in _sets(p, v, ATTACK) for m in _multipliers(p, v, s, True)]
        if attacks:  # the strongest; of equals, the one using the fewest cards
            s, m = max(attacks, key=lambda a: (_value(p, *a), -len(a[0]) - (a[1] is not None), a[0], a[1] or ""))
            return ("attack", weakest, s, m)
        if "unblockable" in cards:
            return ("card", cards["unblockable"], weakest)
        for effect in TAKE:
            if effect in cards:
                return ("card", cards[effect], leader)
        thumps = sum(p.kind[x] == THUMP for q in others for x in hands[q])
        if "silence" in cards and thumps > sum(p.kind[x] == THUMP for x in hand):
            return ("card", cards["silence"], None)
        if "take-thump" in cards and any(p.kind[x] == THUMP for x in discard):
            return ("card", cards["take-thump"], None)
        heals = [(h, m) for h in v.of(HEALTH) for m in _multipliers(p, v, (h,), False)]
        if heals:
            h, m = max(heals, key=lambda a: (_value(p, (a[0],), a[1]), a[1] is None, a[0]))
            return ("heal", h, m)
        if "extra-turn" in cards:
            return ("card", cards["extra-turn"], None)
        if "new-hand" in cards and not any(p.kind[x] in NUMBERED for x in hand):
            return ("card", cards["new-hand"], None)
        if "swap-hands" in cards:  # trade for the hand with the most cards worth keeping, if it has 2 more
            rest = [x for x in hand if x != cards["swap-hands"]]
            richest = max(others, key=lambda q: (sum(_keep(p, x)[0] for x in hands[q]), -((q - me) % k)))
            if sum(_keep(p, x)[0] for x in hands[richest]) >= sum(_keep(p, x)[0] for x in rest) + 2:
                return ("card", cards["swap-hands"], richest)
        if "reshuffle" in cards and len(deck) <= len(alive) and points[me] >= points[leader]:
            return ("card", cards["reshuffle"], None)  # the leader puts off the halving
        if "see-hand" in cards:
            return ("card", cards["see-hand"], None)  # nothing to learn, but a card less to hold
        return ("pass",)

    def answer(self, p: Prepared, rng: random.Random, hands: list[list[str]], me: int, points: list[int], alive: list[int],
               reached: list[int], attack: int, unblockable: bool) -> Play | None:
        v = View(p, hands[me])
        answers = _answers(p, v, me, alive, reached, unblockable)
        if unblockable:  # cancel it, else give up the PowerMage least worth keeping, else take the loss
            gives = [a for a in answers if a and a[0] == "give"]
            return answers[0] if answers[0] and answers[0][0] == "cancel" or not gives else min(
                gives, key=lambda a: _keep(p, a[1]))
        gains = [a for a in answers if a and a[0] == "gain"]
        if gains:
            return gains[0]
        redirects = [a for a in answers if a and a[0] == "redirect"]
        if redirects:
            k = len(points)
            return min(redirects, key=lambda a: (points[a[2]], (a[2] - me) % k))
        blocks = [a for a in answers if a and a[0] == "block"]
        if not blocks:
            return None

        def waste(a: Play) -> tuple[int, int, int, str, str]:
            block = _value(p, a[1], a[2])
            return -min(block, attack), len(a[1]) + (a[2] is not None), block, ",".join(a[1]), a[2] or ""

        return min(blocks, key=waste)  # most stopped, then fewest cards and least spent

    def pick(self, p: Prepared, rng: random.Random, cards: list[str], mine: bool) -> str:
        ranked = sorted(set(cards), key=lambda x: _keep(p, x))
        return ranked[0] if mine else ranked[-1]

    def trim(self, p: Prepared, rng: random.Random, hand: list[str], n: int) -> list[str]:
        return sorted(hand, key=lambda x: _keep(p, x))[:n]


class Idle(Random):
    def exchange(self, p: Prepared, rng: random.Random, hand: list[str]) -> list[str] | None:
        return None

    def play(self, p: Prepared, rng: random.Random, hands: list[list[str]], me: int, points: list[int], alive: list[int],
             discard: list[str], deck: list[str]) -> Play:
        return ("pass",)

    def answer(self, p: Prepared, rng: random.Random, hands: list[list[str]], me: int, points: list[int], alive: list[int],
               reached: list[int], attack: int, unblockable: bool) -> Play | None:
        return ("take",) if unblockable else None

    def holds(self, p: Prepared, hand: list[str]) -> int | None:
        return None


BY_NAME: dict[str, Random] = {"random": Random(), "greedy": Greedy(), "idle": Idle()}


def play(p: Prepared, rng: random.Random, k: int, policies: tuple[str, ...], cap: int, record: bool = False) -> Outcome:
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

    def spend(seat: int, cards: list[str]) -> None:
        """Cards a seat plays: counted as played, and discarded."""
        out.played[seat].update(cards)
        lose(seat, cards)

    def lose(seat: int, cards: list[str]) -> None:
        for card in cards:
            hands[seat].remove(card)
            discard.append(card)

    def take(seat: int, source: list[str], card: str) -> None:
        source.remove(card)
        hands[seat].append(card)

    def attack_with(seat: int, target: int, amount: int) -> None:
        """An attack of `amount` reaches `target`, who answers it once (and may send it on)."""
        reached: list[int] = []
        while True:
            reached.append(target)
            ans = who[target].answer(p, rng, hands, target, points, alive(), reached, amount, False)
            if ans is None:
                points[target] = answered(points[target], amount, 0, False)
            elif ans[0] == "block":
                points[target] = answered(points[target], amount, _value(p, ans[1], ans[2]), False)
                spend(target, _spent(p, hands[target], ans[1], ans[2]))
            elif ans[0] == "gain":
                points[target] = answered(points[target], amount, 0, True)
                spend(target, [ans[1]])
            else:  # redirect: the whole attack goes on to another player
                spend(target, [ans[1]])
                target = ans[2]
                if target in reached:
                    points[target] = answered(points[target], amount, 0, False)
                    return
                continue
            return

    def use(seat: int, card: str, target: int | None) -> bool:
        """An action card or a PowerMage's ability played on a seat's turn; True: it takes another turn."""
        nonlocal deck, discard
        effect, hand = p.effect[card], hands[seat]
        spend(seat, [card])
        out.figures["effects played"] += 1
        if effect == "reshuffle":
            deck, discard = shuffled(deck + discard, rng.randrange), []
        elif effect == "new-hand":
            lose(seat, list(hand))
            for _ in range(c.starting_hand):
                draw(seat)
        elif effect == "take-thump":
            thumps = [x for x in discard if p.kind[x] == THUMP]
            if thumps:
                take(seat, discard, who[seat].pick(p, rng, thumps, False))
        elif effect == "take-from-discard":
            found = [x for x in discard if p.kind[x] in (ATTACK, DEFENSE)]
            if found:
                take(seat, discard, who[seat].pick(p, rng, found, False))
        elif effect == "silence":
            for s in range(k):
                lose(s, [x for x in hands[s] if p.kind[x] == THUMP])
        elif effect == "extra-turn":
            return True
        elif target is not None:
            aimed(seat, effect, card, target)
        return False

    def aimed(seat: int, effect: str, card: str, target: int) -> None:
        theirs = hands[target]
        if effect == "take-blind" and theirs:  # chosen face down: any card, as likely as any other
            take(seat, theirs, theirs[rng.randrange(len(theirs))])
        elif effect == "take-powermage":
            mages = [x for x in theirs if p.kind[x] == POWERMAGE]
            if mages:
                take(seat, theirs, mages[rng.randrange(len(mages))])
        elif effect == "discard-powermage":
            mages = [x for x in theirs if p.kind[x] == POWERMAGE]
            if mages:
                lose(target, [who[target].pick(p, rng, mages, True)])
        elif effect == "take-attack-or-defense":
            found = [x for x in theirs if p.kind[x] in (ATTACK, DEFENSE)]
            if found:
                take(seat, theirs, who[seat].pick(p, rng, found, False))
        elif effect == "ruin":
            lose(target, [x for x in theirs if p.kind[x] in (ATTACK, DEFENSE)])
        elif effect == "swap-hands":
            hands[seat], hands[target] = theirs, hands[seat]
        elif effect == "swap-points":
            points[seat], points[target] = points[target], points[seat]
        elif effect == "unblockable":
            ans = who[target].answer(p, rng, hands, target, points, alive(), [target], p.number[card], True)
            if ans is not None and ans[0] == "give":
                lose(target, [ans[1]])
            elif ans is None or ans[0] != "cancel":  # Annihilator cancels it and stays in hand
                points[target] = points_after(points[target], -p.number[card])

    for seat in range(k):
        for _ in range(c.starting_hand):
            draw(seat)
    seat, standing = 0, alive()
    while len(standing) > 1 and out.turns < cap:
        out.turns += 1
        me = who[seat]
        swap = me.exchange(p, rng, hands[seat])
        again = False
        if swap is not None:
            lose(seat, swap)
            for _ in swap:
                draw(seat)
        else:
            for _ in range(c.draws_per_turn):
                draw(seat)
        standing = alive()
        if swap is None and seat in standing and len(standing) > 1:
            act = me.play(p, rng, hands, seat, points, standing, discard, deck)
            hand = hands[seat]
            if act[0] == "heal":
                points[seat] = points_after(points[seat], _value(p, (act[1],), act[2]))
                spend(seat, [act[1], *([act[2]] if act[2] else [])])
            elif act[0] == "attack":
                amount = _value(p, act[2], act[3])
                spend(seat, _spent(p, hand, act[2], act[3]))
                attack_with(seat, act[1], amount)
            elif act[0] == "card":
                again = use(seat, act[1], act[2])
        hand = hands[seat]
        holds = me.holds(p, hand)
        if holds is not None and over_hand_limit(len(hand), c.hand_limit):  # the card that holds more is at work
            out.played[seat][next(x for x in sorted(hand) if p.effect.get(x) == "hold-more" and p.number[x] == holds)] += 1
        extra = over_hand_limit(len(hand), keep_limit(c.hand_limit, holds))
        if extra:
            lose(seat, me.trim(p, rng, hand, extra))
        for s in range(k):
            if defeated(points[s]) and hands[s]:
                lose(s, list(hands[s]))
        standing = alive()
        if len(standing) <= 1:
            break
        if again and seat in standing:
            continue
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
