"""Powers Combined in the lab (co-operative): the challenge piles by level, the modifiers a
level lays on each challenge, submitting cards, combining three of them into a spell, a Double
Up!'s second spell, spending runes, lives, the rune pot and refilling hands. Every sum is the
ruleset's `cast` and `challenge_target` (with `level_of`), the same the tracker's table and the
spell-power helper use; dice are rolled as the rules say (a challenge's once, when laid).

Each wizard submits by their seat's policy; the party's shared choices (which three cards make
the spell, how many runes to spend) follow the first seat's policy.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import permutations

from ...engine import Lab
from ...engine import Outcome as Played
from ...models import Game
from ...play.state import shuffled
from .ruleset import (
    Challenge,
    Constants,
    Outcome,
    Spell,
    cast,
    challenge_target,
    level_of,
    modifier,
    spell_totals,
)

SLUG = "powers-combined"
POLICIES = {
    "random": "submit any cards, combine any three; spend each further rune the pot and the limit allow on a coin flip",
    "greedy": "submit the strongest cards for this challenge; combine the best expected spell; spend runes only to reach the target",
}
SPELL_DICE = 24  # dice rolled ahead for a turn's spells: more than its spells and runes can use
MEMO = 100_000  # sums the greedy party remembers before it starts again


@dataclass(frozen=True)
class Prepared:
    c: Constants
    spells: tuple[str, ...]  # the spell deck, one id per copy
    spell: dict[str, tuple[str, int, str]]  # id -> element, power, modifier
    piles: tuple[tuple[str, ...], ...]  # challenge ids by level, one per copy
    challenge: dict[str, tuple[str, int, int]]  # id -> element, power, runes
    middle: int  # the die's rounded-up mean, which the greedy party expects of a roll
    expected: dict[tuple[object, ...], int] = field(default_factory=dict, compare=False)  # the greedy party's sums, memoised


def prepare(game: Game) -> Prepared:
    c = game.constants_as(Constants)
    spells, challenges = game.decks[c.spell_deck].cards, game.decks[c.challenge_deck].cards
    return Prepared(
        c=c,
        spells=tuple(s.id for s in spells for _ in range(s.count)),
        spell={s.id: (s["element"], int(s["power"]), s["modifier"]) for s in spells},
        piles=tuple(tuple(x.id for x in challenges if x.get("level") == i + 1 for _ in range(x.count)) for i in range(len(c.levels))),
        challenge={x.id: (x["element"], int(x["power"]), int(x.get("runes") or 0)) for x in challenges},
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
    return _made(p.spell[trio[0]][0], p.spell[trio[1]][1], p.spell[trio[2]][2], runes)


class Random:
    def submit(self, p: Prepared, rng: random.Random, hand: list[str], n: int, foe: str) -> list[str]:
        return rng.sample(sorted(hand), min(n, len(hand)))

    def combine(self, p: Prepared, rng: random.Random, cards: list[str], face: Challenge, rolls: list[int],
                cast_so_far: list[Spell]) -> tuple[str, str, str]:
        trios = list(permutations(sorted(cards), 3))
        return trios[rng.randrange(len(trios))]

    def another_rune(self, p: Prepared, rng: random.Random, outcome: Outcome) -> bool:
        """Spend one more rune (the pot and the turn's limit allowing)?"""
        return bool(rng.randrange(2))


class Greedy(Random):
    def submit(self, p: Prepared, rng: random.Random, hand: list[str], n: int, foe: str) -> list[str]:
        return sorted(hand, key=lambda x: (-_score(p, x, foe), x))[:n]

    def combine(self, p: Prepared, rng: random.Random, cards: list[str], face: Challenge, rolls: list[int],
                cast_so_far: list[Spell]) -> tuple[str, str, str]:
        return max(permutations(sorted(cards), 3), key=lambda t: _expected(p, (*cast_so_far, _spell(p, t)), face.element))

    def another_rune(self, p: Prepared, rng: random.Random, outcome: Outcome) -> bool:
        return not outcome.cleared


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


def _dice(rng: random.Random, sides: int, seen: list[int]) -> Iterator[int]:
    while True:
        seen.append(rng.randrange(sides) + 1)
        yield seen[-1]


def play(p: Prepared, rng: random.Random, k: int, policies: tuple[str, ...], cap: int, record: bool = False) -> Played:
    c = p.c
    who = [BY_NAME[name] for name in policies]
    party = who[0]
    deck, discard = shuffled(p.spells, rng.randrange), list[str]()
    piles = [shuffled(pile, rng.randrange) for pile in p.piles]
    hands: list[list[str]] = [[] for _ in range(k)]
    out = Played(winner=None, finished=False, first=0, turns=0, rounds=0, played=[Counter() for _ in range(k)])
    submit = c.cards_submitted_two_players if k == 2 else c.cards_submitted

    def draw() -> str | None:
        nonlocal deck, discard
        if not deck:  # the spell deck ran out: the discards are shuffled into a new one
            deck, discard = shuffled(discard, rng.randrange), []
        return deck.pop() if deck else None

    def refill() -> None:
        for hand in hands:
            while len(hand) < c.hand_size and (card := draw()) is not None:
                hand.append(card)
                out.drawn[card] += 1

    refill()
    lives, pot, number = c.lives, 0, 1
    while out.turns < cap:
        level = level_of(c, number)
        card = piles[c.levels.index(level)].pop()
        out.drawn[card] += 1
        laid = [x for x in (draw() for _ in range(level.modifiers)) if x is not None]
        element, power, runes = p.challenge[card]
        face = Challenge(element=element, power=power, runes=runes, modifiers=tuple(p.spell[x][2] for x in laid))
        face_rolls: list[int] = []
        challenge_target(c, face, _dice(rng, c.die_sides, face_rolls))  # a challenge's dice are rolled once, when laid
        cleared = False
        while not cleared and lives > 0 and out.turns < cap:
            out.turns += 1
            rolls = face_rolls + [rng.randrange(c.die_sides) + 1 for _ in range(SPELL_DICE)]
            spells: list[Spell] = []
            used: list[str] = []
            owner: dict[str, int] = {}
            while True:  # a spell, and another for each Double Up! within the limit
                cards = []
                for s in range(k):
                    chosen = who[s].submit(p, rng, hands[s], submit, element)
                    for x in chosen:
                        hands[s].remove(x)
                        owner.setdefault(x, s)
                    cards += chosen
                used += cards
                if len(cards) < 3:
                    break
                trio = party.combine(p, rng, cards, face, face_rolls, spells)
                spells.append(_spell(p, trio))
                for x in trio:
                    out.played[owner[x]][x] += 1
                so_far = cast(c, face, spells, rolls)
                if len(spells) > sum(step.double_up for w in so_far.workings for step in w.steps):
                    break
            outcome: Outcome | None = None
            if not spells:
                out.figures["turns without three cards to combine"] += 1
            else:
                outcome = cast(c, face, spells, rolls)
                flipped: list[str] = []
                while pot and len(flipped) < c.rune_spend_limit and party.another_rune(p, rng, outcome):
                    top = draw()
                    if top is None:
                        break
                    flipped.append(top)
                    pot -= 1
                    last = spells[-1]
                    spells[-1] = _made(last.element, last.power, last.modifier, (*last.runes, p.spell[top][2]))
                    outcome = cast(c, face, spells, rolls)
                out.figures["runes spent"] += len(flipped)
                discard += flipped
            discard += used
            if outcome is not None and outcome.cleared:
                cleared = True
                pot += min(outcome.target.runes, c.rune_tokens - pot)
                out.figures[f"challenge {number:02d} cleared"] += 1
                if number == level.last:
                    out.figures[f"level {c.levels.index(level) + 1} cleared ({level.name})"] += 1
            else:
                lives -= 1
                out.figures["lives lost"] += 1
            refill()
        discard += laid
        if not cleared:
            break
        out.rounds += 1
        if number == c.challenges_per_game:
            out.cleared = True
            break
        number += 1
    out.finished = out.cleared or lives == 0
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
