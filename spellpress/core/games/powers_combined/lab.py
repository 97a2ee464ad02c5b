"""Powers Combined in the lab (co-operative), played through the game's engine: its tracker
(`tracker.py`) keeps every number the table shows (lives, the challenge and its level, the power
to beat, the spells' totals, the rune pot, the turns) and moves them as a phone would, by its
`face`, `cast`, `spend_rune` and `resolve`. The lab adds only what a table cannot know: the
spell deck's order and discards, each wizard's hand, the challenge piles' order, and the
policies choosing what to submit, how to combine and whether to spend a rune.

Each wizard submits by their seat's policy; the party's shared choices (which three cards make
the spell, how many runes to spend) follow the first seat's policy. The party casts every spell
a Double Up! allows it, whether on a card or flipped with a rune.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from dataclasses import dataclass, field
from itertools import permutations

from ...engine import Lab, Match, randbelow_of
from ...engine import Outcome as Played
from ...models import Game
from ...play.state import shuffled
from .ruleset import Constants, Spell, modifier, spell_totals
from .tracker import RUNES

SLUG = "powers-combined"
POLICIES = {
    "random": "submit any cards, combine any three; spend each further rune the pot and the limit allow on a coin flip",
    "greedy": "submit the strongest cards for this challenge; combine the best expected spell; spend runes only to reach the target",
}
SPELL_DICE = 24  # mean rolls the greedy party's sums may take: more than a turn's spells and runes can use
MEMO = 100_000  # sums the greedy party remembers before it starts again


@dataclass(frozen=True)
class Prepared:
    game: Game
    c: Constants
    spells: tuple[str, ...]  # the spell deck, one id per copy
    spell: dict[str, tuple[str, int, str]]  # id -> element, power, modifier
    piles: tuple[tuple[str, ...], ...]  # challenge ids by level, one per copy
    challenge: dict[str, str]  # id -> element
    middle: int  # the die's rounded-up mean, which the greedy party expects of a roll
    expected: dict[tuple[object, ...], int] = field(default_factory=dict, compare=False)  # the greedy party's sums, memoised


def prepare(game: Game) -> Prepared:
    c = game.constants_as(Constants)
    spells, challenges = game.decks[c.spell_deck].cards, game.decks[c.challenge_deck].cards
    return Prepared(
        game=game,
        c=c,
        spells=tuple(s.id for s in spells for _ in range(s.count)),
        spell={s.id: (s["element"], int(s["power"]), s["modifier"]) for s in spells},
        piles=tuple(tuple(x.id for x in challenges if x.get("level") == i + 1 for _ in range(x.count)) for i in range(len(c.levels))),
        challenge={x.id: x["element"] for x in challenges},
        middle=c.die_sides // 2 + 1,
    )


def modelled(game: Game) -> tuple[list[str], list[str]]:
    c = game.constants_as(Constants)
    applied = [card.id for d in (c.spell_deck, c.challenge_deck) for card in game.decks[d].cards]
    return applied, []  # the rune tokens are the pot's counter, the reference cards have no effect


def _score(p: Prepared, card: str, foe: str) -> int:
    """How much a card is worth submitting against a challenge of element `foe`."""
    element, power, mod = p.spell[card]
    m = modifier(p.c, mod)
    bonus = {"add": m.amount or 0, "multiply": power * ((m.amount or 1) - 1) + 3, "roll": p.middle, "double_up": 4}[m.op]
    matchup = p.c.matchups[foe]
    return power + bonus + (5 if element in matchup.weak_to else -3 if element in matchup.resists else 0)


@functools.lru_cache(maxsize=4096)
def _made(element: str, power: int, mod: str, runes: tuple[str, ...]) -> Spell:
    """A spell, built once (Spell is immutable) and without validating again what the loader did."""
    return Spell.model_construct(element=element, power=power, modifier=mod, runes=runes)


def _spell(p: Prepared, trio: tuple[str, str, str], runes: tuple[str, ...] = ()) -> Spell:
    """The spell of three cards (element, power, modifier), with the cards flipped onto it."""
    return _made(p.spell[trio[0]][0], p.spell[trio[1]][1], p.spell[trio[2]][2], tuple(p.spell[x][2] for x in runes))


def _cast(p: Prepared, m: Match) -> list[Spell]:
    """The spells the table shows cast this turn, as the party's policy weighs them."""
    return [_spell(p, (s["element"], s["power"], s["modifier"]), tuple(s["runes"])) for s in m.tracked["spells"]]


class Random:
    def submit(self, p: Prepared, rng: random.Random, hand: list[str], n: int, foe: str) -> list[str]:
        return rng.sample(sorted(hand), min(n, len(hand)))

    def combine(self, p: Prepared, rng: random.Random, cards: list[str], foe: str, cast_so_far: list[Spell]) -> tuple[str, str, str]:
        trios = list(permutations(sorted(cards), 3))
        return trios[rng.randrange(len(trios))]

    def another_rune(self, p: Prepared, rng: random.Random, beaten: bool) -> bool:
        """Spend one more rune (the pot and the turn's limit allowing), the spells' total reaching
        the challenge's or not?"""
        return bool(rng.randrange(2))


class Greedy(Random):
    def submit(self, p: Prepared, rng: random.Random, hand: list[str], n: int, foe: str) -> list[str]:
        return sorted(hand, key=lambda x: (-_score(p, x, foe), x))[:n]

    def combine(self, p: Prepared, rng: random.Random, cards: list[str], foe: str, cast_so_far: list[Spell]) -> tuple[str, str, str]:
        return max(permutations(sorted(cards), 3), key=lambda t: _expected(p, (*cast_so_far, _spell(p, t)), foe))

    def another_rune(self, p: Prepared, rng: random.Random, beaten: bool) -> bool:
        return not beaten


def _expected(p: Prepared, spells: tuple[Spell, ...], foe: str) -> int:
    """The spells' totals against a challenge of element `foe`, every die rolling its mean: the
    challenge's target is the same whatever the party chooses, so only the spells are summed. A
    pure function of its arguments, so it is remembered (and forgotten when it grows large)."""
    key = (*((s.element, s.power, s.modifier, s.runes) for s in spells), foe)
    total = p.expected.get(key)
    if total is None:
        if len(p.expected) > MEMO:
            p.expected.clear()
        total = p.expected[key] = sum(spell_totals(p.c, spells, foe, [p.middle] * SPELL_DICE))
    return total


BY_NAME = {"random": Random(), "greedy": Greedy()}


@dataclass
class Hidden:
    """What only the lab knows of a game: the spell deck's order, its discards and each hand."""

    rng: random.Random
    deck: list[str]
    hands: list[list[str]]
    discard: list[str] = field(default_factory=list)

    def draw(self) -> str | None:
        if not self.deck:  # the spell deck ran out: the discards are shuffled into a new one
            self.deck, self.discard = shuffled(self.discard, self.rng.randrange), []
        return self.deck.pop() if self.deck else None

    def refill(self, size: int, out: Played) -> None:
        for hand in self.hands:
            while len(hand) < size and (card := self.draw()) is not None:
                hand.append(card)
                out.drawn[card] += 1


def _submitted(p: Prepared, m: Match, h: Hidden, who: list[Random], foe: str, owner: dict[str, int]) -> list[str]:
    """Every wizard's cards for a spell, out of their hands and turned face up."""
    cards: list[str] = []
    for s, policy in enumerate(who):
        chosen = policy.submit(p, h.rng, h.hands[s], m.tracked["submit"], foe)
        for x in chosen:
            h.hands[s].remove(x)
            owner.setdefault(x, s)
        cards += chosen
    return cards


def _turn(p: Prepared, m: Match, h: Hidden, who: list[Random], out: Played) -> None:
    """One turn at the face-up challenge: a spell, one more for each Double Up! the party may use
    (on a card or flipped with a rune), runes as the party's policy spends them, then the result."""
    party, foe = who[0], p.challenge[m.tracked["card"]]
    owner: dict[str, int] = {}
    used: list[str] = []  # the turn's cards on the playmat (submitted, flipped): discarded at its end
    stuck = flipped_double = False  # too few cards for another spell; a rune's Double Up! opened one
    while True:
        t = m.tracked
        if t["more"] > 0 and not stuck:
            cards = _submitted(p, m, h, who, foe, owner)
            used += cards
            if len(cards) < 3:
                stuck = True
                continue
            trio = party.combine(p, h.rng, cards, foe, _cast(p, m))
            m.act("cast", element=trio[0], power=trio[1], modifier=trio[2])
            for x in trio:
                out.played[owner[x]][x] += 1
            if flipped_double:
                out.figures["spells cast by a Double Up! flipped with a rune"] += 1
                flipped_double = False
            continue
        beaten = t["target"] is not None and t["total"] is not None and t["total"] >= t["target"]["power"]
        if not t["spells"] or m.counter(RUNES) <= 0 or t["spent"] >= p.c.rune_spend_limit or not party.another_rune(p, h.rng, beaten):
            break
        top = h.draw()
        if top is None:
            break
        used.append(top)
        flipped_double = m.act("spend_rune", card=top)["more"] > 0
        out.figures["runes spent"] += 1
    h.discard += used
    level, cast = m.tracked["level"], bool(m.tracked["spells"])
    if not cast:
        out.figures["turns without three cards to combine"] += 1
    done = m.act("resolve") if cast else m.act("resolve", result="lost")  # spells: the tracker sums them
    if done["result"] == "won":
        out.figures[f"challenge {done['challenge']:02d} cleared"] += 1
        if level is not None and done["challenge"] == level["last"]:
            out.figures[f"level {level['number']} cleared ({level['name']})"] += 1
    else:
        out.figures["lives lost"] += 1


def play(p: Prepared, rng: random.Random, k: int, policies: tuple[str, ...], cap: int, record: bool = False) -> Played:
    who = [BY_NAME[name] for name in policies]
    m = Match(p.game, k, randbelow_of(rng), record=record)
    h = Hidden(rng, shuffled(p.spells, rng.randrange), [[] for _ in range(k)])
    piles = [shuffled(pile, rng.randrange) for pile in p.piles]
    out = Played(winner=None, finished=False, first=0, turns=0, rounds=0, played=[Counter() for _ in range(k)], match=m)
    h.refill(p.c.hand_size, out)
    laid: list[str] = []  # the spell cards laid on the face-up challenge
    while not m.tracked["over"] and m.tracked["turns"] < cap:
        level = m.tracked["level"]
        if m.tracked["card"] is None and level is not None:  # turn up the next challenge, and lay its level's modifiers
            h.discard += laid
            card = piles[level["number"] - 1].pop()
            out.drawn[card] += 1
            laid = [x for x in (h.draw() for _ in range(level["modifiers"])) if x is not None]
            m.act("face", card=card, modifiers=laid)
        _turn(p, m, h, who, out)
        h.refill(p.c.hand_size, out)
    t = m.tracked
    out.finished, out.cleared, out.turns, out.rounds = t["over"], t["cleared"], t["turns"], t["rounds"]
    return out


LAB = Lab(
    ruleset=SLUG,
    policies=POLICIES,
    prepare=prepare,
    play=play,
    modelled=modelled,
    first_rule="co-operative: no first player",
    turn_cap=200,
    coop=True,
)
