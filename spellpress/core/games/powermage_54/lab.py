"""PowerMage 54 in the lab: the game played through its tracker (core/engine.py's `Match`), with
what a table cannot know: the hands, the draw deck's order, the discard pile, and the policies.

Every play is a tracker move, as a phone would send it: an attack (Annihilator's pair,
Spellblade played as a card, a thump or Magnifier, and the answer: a block, Turnabout's or
Lifeweaver's gain, Mirror Warden sending it on), a Health card, an action card or a PowerMage's
ability (`play`: Soul Swap's trade of points, Blister's unblockable attack and its answer,
another turn, and the cards whose effect is on hands alone, logged as played), the end of a turn
with no action play (an exchange names its shown cards), and the halving when a card must be
drawn from an empty draw deck (then the discard pile becomes the draw deck). The tracker keeps
the points, the defeated, whose turn it is, the turns and rounds, and the winner; the lab reads
them from the table. It applies only the effects on hidden cards (taking, swapping, discarding,
reshuffling, a fresh hand, Hoarder's larger hand) and the hand limit, kept at the end of a
player's own turn (game.yaml).

The lab's players see every hand, so Scrying Glass (`see-hand`) changes nothing they know: it
is played and discarded, its whole effect. The rulebook states no first-player rule: seat 1
plays first, and the first player's edge is seat 1's.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from ...engine import Lab, Match, Outcome, randbelow_of
from ...models import Game
from ...play.state import shuffled
from .ruleset import AIMED, EFFECTS, Constants, keep_limit, may_thump, over_hand_limit, strength

SLUG = "powermage-54"
ATTACK, DEFENSE, HEALTH, THUMP, ACTION, POWERMAGE = "attack", "defense", "health", "thump", "action", "powermage"
POINTS = "points"  # the tracker's counter
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


@dataclass(frozen=True)
class Prepared:
    game: Game
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
        game=game,
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
    out: list[Play | None]
    if unblockable:
        out = [("cancel", x) for x in v.of(POWERMAGE) if x in p.cancels]
        return out + [("give", x) for x in v.of(POWERMAGE)] + [("take",)]
    out = [None]
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


def _shown(p: Prepared, hand: list[str], cards: tuple[str, ...], mult: str | None) -> str | None:
    """The PowerMage a player shows for a thump (one held and not played; rather not the one that
    pairs the cards), where the rules ask for one."""
    if mult is None or p.effect.get(mult) == "multiply" or not p.c.thump_needs_powermage:
        return None
    if len(cards) == 1 and p.effect.get(cards[0]) == "as-card":
        return None  # thumped alone (Spellblade)
    held = [x for x in hand if p.kind[x] == POWERMAGE and x not in cards]
    return min(held, key=lambda x: (p.effect.get(x) == "two-cards", x))


def _played(prefix: str, cards: tuple[str, ...], mult: str | None, shown: str | None) -> dict[str, Any]:
    """An attack's cards (`prefix` "") or a block's ("defense") as the tracker's `attack` names them."""
    def key(part: str) -> str:
        return f"{prefix}_{part}" if prefix else part

    sent = {prefix or "attack": cards[0], key("second"): cards[1] if len(cards) > 1 else None, key("thump"): mult, key("powermage"): shown}
    return {name: x for name, x in sent.items() if x is not None}


def play(p: Prepared, rng: random.Random, k: int, policies: tuple[str, ...], cap: int, record: bool = False) -> Outcome:
    c = p.c
    who = [BY_NAME[name] for name in policies]
    m = Match(p.game, k, randbelow_of(rng), None, record)
    deck, discard = shuffled(p.deck, rng.randrange), list[str]()
    hands: list[list[str]] = [[] for _ in range(k)]
    out = Outcome(winner=None, finished=False, first=0, turns=0, rounds=0, played=[Counter() for _ in range(k)], match=m)

    def points() -> list[int]:
        return [m.counter(POINTS, s) for s in range(k)]

    def alive() -> list[int]:
        return [s for s in range(k) if not m.mine(s)["defeated"]]

    def draw(seat: int) -> None:
        nonlocal deck, discard
        if m.tracked["over"]:
            return
        if not deck:  # the draw deck ran out: everyone's points are halved, the discard pile is shuffled in
            m.act("halve", by=seat)
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

    def attack(seat: int, target: int, cards: tuple[str, ...], mult: str | None) -> None:
        """An attack reaches `target`, who answers it once (and may send it on), then the table plays it."""
        amount = _value(p, cards, mult)
        sent: dict[str, Any] = {"attacker": seat, "target": target, **_played("", cards, mult, _shown(p, hands[seat], cards, mult))}
        spend(seat, _spent(p, hands[seat], cards, mult))
        reached, redirects = [target], list[dict[str, Any]]()
        while True:
            ans = who[target].answer(p, rng, hands, target, points(), alive(), reached, amount, False)
            if ans is None or ans[0] != "redirect":
                break
            spend(target, [ans[1]])  # the whole attack goes on to another player
            redirects.append({"card": ans[1], "to": ans[2]})
            target = ans[2]
            reached.append(target)
        if redirects:
            sent["redirects"] = redirects
        if ans is not None and ans[0] == "block":
            sent.update(_played("defense", ans[1], ans[2], _shown(p, hands[target], ans[1], ans[2])))
            spend(target, _spent(p, hands[target], ans[1], ans[2]))
        elif ans is not None and ans[0] == "gain":
            sent["gain"] = ans[1]
            spend(target, [ans[1]])
        m.act("attack", by=seat, **sent)

    def use(seat: int, card: str, target: int | None) -> None:
        """An action card or a PowerMage's ability played on a seat's turn: the table plays its
        effect on points and turns; the lab, its effect on hidden cards."""
        nonlocal deck, discard
        effect, hand = p.effect[card], hands[seat]
        spend(seat, [card])
        out.figures["effects played"] += 1
        sent: dict[str, Any] = {"player": seat, "card": card}
        if target is not None:
            sent["target"] = target
        if effect == "unblockable" and target is not None:
            ans = who[target].answer(p, rng, hands, target, points(), alive(), [target], p.number[card], True)
            if ans is not None and ans[0] == "give":
                sent["give_up"] = ans[1]
                lose(target, [ans[1]])
            elif ans is not None and ans[0] == "cancel":  # Annihilator cancels it and stays in hand
                sent["cancel"] = ans[1]
        m.act("play", by=seat, **sent)
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
        elif target is not None:
            hidden(seat, effect, target)

    def hidden(seat: int, effect: str, target: int) -> None:
        """An aimed card's effect on the hands."""
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

    def turn(seat: int) -> None:
        """A seat's turn: its draw or exchange, then its action play, then the hand limit."""
        me = who[seat]
        swap = me.exchange(p, rng, hands[seat])
        if swap is not None:
            lose(seat, swap)
            for _ in swap:
                draw(seat)
        else:
            for _ in range(c.draws_per_turn):
                draw(seat)
        if m.tracked["over"] or m.mine(seat)["defeated"]:
            return  # the halving ended the game, or this player's part in it: the turn has passed
        if swap is not None:
            m.act("end_turn", by=seat, player=seat, exchanged=swap)
        else:
            act = me.play(p, rng, hands, seat, points(), alive(), discard, deck)
            if act[0] == "heal":
                shown = _shown(p, hands[seat], (act[1],), act[2])
                spend(seat, [act[1], *([act[2]] if act[2] else [])])
                sent = {"player": seat, "health": act[1], "thump": act[2], "powermage": shown}
                m.act("heal", by=seat, **{key: x for key, x in sent.items() if x is not None})
            elif act[0] == "attack":
                attack(seat, act[1], act[2], act[3])
            elif act[0] == "card":
                use(seat, act[1], act[2])
            else:
                m.act("end_turn", by=seat, player=seat)
        hand = hands[seat]
        holds = me.holds(p, hand)
        if holds is not None and over_hand_limit(len(hand), c.hand_limit):  # the card that holds more is at work
            out.played[seat][next(x for x in sorted(hand) if p.effect.get(x) == "hold-more" and p.number[x] == holds)] += 1
        extra = over_hand_limit(len(hand), keep_limit(c.hand_limit, holds))
        if extra:
            lose(seat, me.trim(p, rng, hand, extra))

    for seat in range(k):
        for _ in range(c.starting_hand):
            draw(seat)
    for _ in range(cap):
        current = m.tracked["player"]
        turn(out.first if current is None else current)
        for s in range(k):  # the defeated are out of the game, and so are their cards
            if m.mine(s)["defeated"] and hands[s]:
                lose(s, list(hands[s]))
        if m.tracked["over"]:
            break
    t = m.tracked
    out.finished, out.winner, out.turns, out.rounds = t["over"], t["winner"], t["turns"], t["rounds"]
    if t["halvings"]:
        out.figures["halvings"] = t["halvings"]
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
