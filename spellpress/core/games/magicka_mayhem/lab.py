"""Magicka Mayhem in the lab: Spellmageddon at the YAML's default Mayhem level, played through the
game's engine, its tracker (`core/engine.py`'s Match).

Every move is the table's: the first player drawn, each turn started (frozen wizards skip theirs;
slowed spells, beams and burning robes happen as it starts), each spell card spell cast (its
Mayhem Muster, the Mayhem card drawn, and its effects on health, wetness, frost, barriers,
creatures and the order of play, as the cards' fields say), each summons (paid with the element
cards spent, so it grows from the extra ones), each snap spell, each creature's attack, and each
creature's tending. Health, barriers, creatures, turns, rounds and the winner are
read from the table's state; the lab keeps only what a table cannot know: the hands, the element
and spell decks and their discards, and the policies choosing moves. What a card does to hands
(a hex's discards and thefts, a Mayhem card's draws, discards, swaps and kept or failed spell
cards, and its free snap spell, chosen by the policy) the lab does, where the table says the
spell landed.

Each turn a wizard draws (game.yaml's draw_per_turn), may trade cards in at the exchange rates
(step 2 of a Spellmageddon turn, all discarded before any is drawn), casts spell card spells,
summons and snap spells at wizards and creatures, and their creatures attack; the hand limit is
kept at the end of the turn. A card that grows at casting offers each dearer payment as a choice
of its own.

Readings the lab takes where the cards are silent (the tracker's, for the table): a barrier
raised on a barrier leaves the stronger; a beam ends, and breaks the barrier, when its target
has one (the rulebook's Helpful Info); harmful spells are aimed at opponents and their creatures,
helpful ones at the caster's side; the target of Hot Potato throws the spell on at random;
Mayhem's "every opponent" means the living wizards; a splash reaches each wizard beside the
target once (in a duel, the caster, beside it on both sides). The rulebook names no first
player: the table draws one.

Not modelled yet: Spell vs. Spell (snap spells cast at spells: counter, disrupt, reflect), and a
Mayhem card with no field the lab applies (Chicken Dance, a forfeit for the table); each report
names such cards.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ...engine import Lab, Match, Outcome
from ...models import Card, Game
from ...play.state import shuffled
from ...play.tracker import Data
from .helpers import Attack, extra_paid, grown, held, hit_unexplained, pay
from .helpers import Target as Struck
from .ruleset import Constants

SLUG = "magicka-mayhem"
ELEMENTS, SPELLS, MAYHEM = "elements", "spells", "mayhem"  # decks.yaml's decks
SPELL, SUMMON, SNAP, REFERENCE = "spell", "summon", "snap", "reference"  # card types
# the fields a Mayhem card changes a spell with (decks.yaml); one with none of them goes off as cast
MAYHEM_FIELDS = ("lands_on", "times", "divided_by", "plus", "inverts", "bounce_divided_by", "bubble", "fails", "keeps",
                 "caster", "burns", "draws_elements", "draws_spells", "discards_elements", "discards_spells",
                 "others_heal", "swaps_elements", "downpour", "delayed", "free_snap", "swaps_seats")
# the fields a spell card does something with; a spell with none of them is not modelled
SPELL_FIELDS = ("damage", "wet", "heal", "strength", "discards", "steals", "roots", "swaps_spells", "freezes")
POLICIES = {
    "random": "any castable spell, summons or snap spell at any fitting target (harm at opponents, help at its own "
              "side), any creature attack, or the end of the turn, uniformly, one at a time",
    "greedy": "heal or shield itself when low, summon, then the spell that does the most damage to the weakest "
              "opponent (paying with least waste), else a hex worth casting, snap spells from spare elements, "
              "every creature attacks it",
}
CACHED = 200_000  # payments remembered per process, at most
ACTION_CAP = 60  # actions in one turn: more is a policy looping, never a game
Ref = int | str  # a wizard's seat, or a creature's id: as the table names a target


@dataclass(frozen=True)
class Prepared:
    game: Game  # the game its tables are started for
    c: Constants
    card: dict[str, Card]  # every card by id
    element_deck: tuple[str, ...]
    spell_deck: tuple[str, ...]
    snaps: tuple[Card, ...]
    shows: dict[str, frozenset[str]]  # element card id -> the elements it shows
    worth: dict[str, int]  # element card id -> its value
    cost: dict[str, tuple[str, ...]]  # spell, summon and snap spell id -> its cost
    need: dict[str, tuple[tuple[str, int], ...]]  # ... as (element, how many)
    snap_needs: tuple[tuple[Card, str, int], ...]  # each snap spell, its element and how many
    gives: dict[str, tuple[tuple[str, int], ...]]  # element card id -> (element, value) for each it shows
    relevant: dict[tuple[str, ...], frozenset[str]]  # a cost -> the element cards that show any of its elements
    elements: tuple[str, ...]  # the game's elements
    deal: tuple[int, int]  # elements, spells
    draw: tuple[int, int]
    why: dict[str, str]  # spell id -> the element its cost holds most: what its damage is counted under
    aim: dict[str, str]  # spell and summon id -> whom it may be cast at (`aim_of`), read once from its fields
    snap_aim: dict[str, str]  # snap spell id -> whom it may be cast at (`snap_aim_of`)
    grows: dict[str, str]  # summons and snap spell id -> the element that upgrades it at casting, paid beyond its cost
    paid: dict[tuple[tuple[str, ...], tuple[str, ...]], Any] = field(default_factory=dict)  # pay() by hand and cost
    extras: dict[tuple[tuple[str, ...], tuple[str, ...], str], int] = field(default_factory=dict)  # extra_paid()
def aim_of(card: Card) -> str:
    """Whom a spell may be cast at (Table.aimed): harm at opponents and their creatures, help at the caster's side."""
    g = card.get
    if card.type == SUMMON:
        return "no one"
    if g("roots"):
        return "enemy creatures"
    if g("discards") or g("steals") or g("swaps_spells") or g("area") in ("target side", "opponents"):
        return "opponents"
    if g("area") == "own side":
        return "self"
    if not g("damage") and (g("heal") or g("strength")):
        return "own side"
    return "enemies"


def snap_aim_of(snap: Card) -> str:
    """Whom a snap spell may be cast at (Table.snap_aimed)."""
    if snap.get("heal"):
        return "hurt"
    if snap.get("raises_barrier"):
        return "shieldable"
    wet = snap.get("wet")
    if snap["damage"] or wet == "zaps":
        return "enemies"
    return "dry enemies" if wet == "wets" else "wet enemies"


def _copies(game: Game, deck: str, types: tuple[str, ...] | None = None) -> tuple[str, ...]:
    return tuple(card.id for card in game.decks[deck].cards if types is None or card.type in types for _ in range(card.count))


def prepare(game: Game) -> Prepared:
    c = game.constants_as(Constants)
    cost = {card.id: tuple(card["cost"]) for card in game.decks[SPELLS].cards}
    cost.update({card.id: (card["element"],) * c.snap_cost for card in game.cards if card.type == SNAP})
    return Prepared(
        game=game, c=c, card={card.id: card for card in game.cards},
        element_deck=_copies(game, ELEMENTS), spell_deck=_copies(game, SPELLS),
        snaps=tuple(card for card in game.cards if card.type == SNAP),
        shows={card.id: frozenset(card["elements"]) for card in game.decks[ELEMENTS].cards},
        worth={card.id: card["value"] for card in game.decks[ELEMENTS].cards},
        cost=cost, need={i: tuple(Counter(c_).items()) for i, c_ in cost.items()},
        snap_needs=tuple((card, card["element"], c.snap_cost) for card in game.cards if card.type == SNAP),
        gives={card.id: tuple((e, card["value"]) for e in card["elements"]) for card in game.decks[ELEMENTS].cards},
        relevant={x: frozenset(card.id for card in game.decks[ELEMENTS].cards if set(card["elements"]) & set(x))
                  for x in cost.values()},
        elements=tuple(e.name for e in game.elements),
        why={card.id: Counter(card["cost"]).most_common(1)[0][0] for card in game.decks[SPELLS].cards},
        aim={card.id: aim_of(card) for card in game.decks[SPELLS].cards},
        snap_aim={card.id: snap_aim_of(card) for card in game.cards if card.type == SNAP},
        grows={**{card.id: card["grows_with"] for card in game.decks[SPELLS].cards if card.get("grows") and card.get("grows_with")},
               **{card.id: card["element"] for card in game.cards
                  if card.type == SNAP and (card.get("heal_per_extra") or card.get("raises_barrier"))}},
        deal=(c.deal.get(ELEMENTS, 0), c.deal.get(SPELLS, 0)),
        draw=(c.draw_per_turn.get(ELEMENTS, 0), c.draw_per_turn.get(SPELLS, 0)),
    )


def modelled(game: Game) -> tuple[list[str], list[str]]:
    """Element cards pay; spells, summons and snap spells act by their fields; a Mayhem card
    with none of MAYHEM_FIELDS (a forfeit for the table) is not applied. Reference aids are no
    cards of play."""
    applied: list[str] = []
    not_applied: list[str] = []
    for card in game.cards:
        if card.type == REFERENCE:
            continue
        if card.type == "mayhem":
            acts = any(card.get(f) for f in MAYHEM_FIELDS)
        elif card.type == SPELL:
            acts = any(card.get(f) for f in SPELL_FIELDS)
        elif card.type == SNAP:
            acts = bool(card.get("damage") or card.get("wet") or card.get("heal") or card.get("raises_barrier"))
        else:
            acts = True  # element and wild cards pay, summons summon
        (applied if acts else not_applied).append(card.id)
    return applied, not_applied


# ---------------------------------------------------------------------------- the table


def randbelow_of(rng: random.Random) -> Callable[[int], int]:
    """`rng.randrange(n)` for n of 1 or more, drawing the very same numbers (CPython's `randrange`
    calls `_randbelow_with_getrandbits`, which this repeats) without its argument checks: the
    lab draws over half a million of them a thousand games."""
    getrandbits = rng.getrandbits

    def randbelow(n: int) -> int:
        if n <= 0:
            raise ValueError(f"randbelow({n}): there is nothing to choose from")
        k = n.bit_length()
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        return r

    return randbelow


class Pile:
    """A deck drawn from the top; its discards are shuffled into it when it runs out."""

    def __init__(self, cards: tuple[str, ...], below: Callable[[int], int]) -> None:
        self.below, self.deck, self.discard = below, shuffled(cards, below), []  # type: Callable[[int], int], list[str], list[str]

    def draw(self) -> str | None:
        if not self.deck:
            self.deck, self.discard = shuffled(self.discard, self.below), []
            if not self.deck:
                return None
        return self.deck.pop()


class Hand:
    """What a wizard holds: hidden from the table."""

    __slots__ = ("elements", "spells")

    def __init__(self) -> None:
        self.elements: list[str] = []
        self.spells: list[str] = []


Sides = tuple[list[int], list[Ref], list[Ref]]  # other living wizards, enemies, the caster's own side
Act = tuple[Any, ...]  # ("spell" | "snap", card, target, payment) or ("attack", creature, target) or ("end",)


class Table:
    """One game: its table (a Match: every public number), the hands and the element and spell
    decks, and the outcome so far."""

    def __init__(self, p: Prepared, rng: random.Random, k: int, policies: tuple[str, ...], out: Outcome, record: bool) -> None:
        self.p, self.c, self.out, self.k = p, p.c, out, k
        self.below = below = randbelow_of(rng)
        self.m = Match(p.game, k, below, None, record)
        self.hands = [Hand() for _ in range(k)]
        self.elements, self.spells = Pile(p.element_deck, below), Pile(p.spell_deck, below)
        self.policies = policies

    # -- the table's state

    @property
    def t(self) -> Any:
        return self.m.tracked

    def act(self, kind: str, by: int | None = None, why: str | None = None, **sent: Any) -> Data:
        """A move at the table; the cards of the creatures it destroyed go to the spell discards.
        The wizards' health it took is counted as damage under `why`, what it gave as healing."""
        before = {u["id"]: u["card"] for u in self.t["units"]}
        healths = [self.hp(s) for s in range(self.k)]
        data = self.m.act(kind, by=by, **sent)
        for s, health in enumerate(healths):
            after = self.hp(s)
            if after != health:
                self.out.figures[f"damage: {why or kind}" if after < health else "healing"] += abs(after - health)
                self.out.figures["wizards killed"] += health > 0 >= after
        if len(self.t["units"]) < len(before) + (kind == "summon"):
            now = {u["id"] for u in self.t["units"]}
            for uid, card in before.items():
                if uid not in now:
                    self.out.figures["creatures destroyed"] += 1
                    if card:
                        self.spells.discard.append(card)
        return data

    def hp(self, ref: Ref) -> int:
        if isinstance(ref, int):
            return self.m.counter("health", ref)
        health: int = self.unit(ref)["health"]
        return health

    def unit(self, uid: str) -> Any:
        return next(u for u in self.t["units"] if u["id"] == uid)

    def status(self, ref: Ref) -> Any:
        """A wizard's or a creature's wet, frozen and barrier."""
        return self.m.mine(ref) if isinstance(ref, int) else self.unit(ref)

    def barrier(self, ref: Ref) -> int:
        b = self.status(ref).get("barrier")
        return b["strength"] if b else 0

    def most(self, ref: Ref) -> int:
        """The health it cannot be healed above, for the policies: a creature's on arrival, a wizard's at the start."""
        return self.c.starting_health if isinstance(ref, int) else int(self.unit(ref)["max"])

    def order(self) -> list[int]:
        return list(self.t.get("order") or range(self.k))

    def alive(self) -> list[int]:
        return [s for s in self.order() if self.hp(s) > 0]

    def side(self, seat: int) -> list[Ref]:
        mine: list[Ref] = [seat] if self.hp(seat) > 0 else []
        return mine + [u["id"] for u in self.t["units"] if u["owner"] == seat]

    def enemies(self, seat: int) -> list[Ref]:
        return [b for s in self.order() if s != seat for b in self.side(s)]

    def besides(self, seat: int) -> list[int]:
        """The living wizards seated beside `seat`, each once (the tracker's splash reaches them)."""
        order, alive = self.order(), set(self.alive())
        at, n = order.index(seat), len(order)
        found = [next((order[(at + step * d) % n] for d in range(1, n) if order[(at + step * d) % n] in alive), None)
                 for step in (1, -1)]
        return [i for j, i in enumerate(found) if i is not None and i != seat and i not in found[:j]]

    def owner(self, ref: Ref) -> int:
        return ref if isinstance(ref, int) else int(self.unit(ref)["owner"])

    def struck(self, ref: Ref) -> Struck:
        """What a spell landing on it looks at (the tracker's, read for a policy's preview)."""
        s = self.status(ref)
        card = self.p.card.get(s.get("card") or "") if isinstance(ref, str) else None
        weak = tuple(card.get("weak") or ()) if card else ()
        immune = tuple(card.get("immune") or ()) if card else ()
        return Struck(bool(s.get("wet")), s.get("frozen", 0) > 0, self.barrier(ref), weak, immune)

    # -- cards

    def draw(self, seat: int, elements: int, spells: int) -> None:
        hand = self.hands[seat]
        for pile, held_, n in ((self.elements, hand.elements, elements), (self.spells, hand.spells, spells)):
            for _ in range(n):
                card = pile.draw()
                if card is None:
                    break
                held_.append(card)
                self.out.drawn[card] += 1

    def payment(self, hand: list[str] | tuple[str, ...], cost: tuple[str, ...], ordered: bool = False) -> Any:
        """The core's best payment of `cost` from `hand` (`ordered`: already sorted), or None if
        the hand cannot pay. Only the cards that show an element of the cost take part (the others
        could only be left out), so the answer is remembered by those cards and the cost."""
        relevant = self.p.relevant.get(cost)
        if relevant is None:  # a dearer payment, for an upgrade
            relevant = self.p.relevant[cost] = frozenset(i for i, shows in self.p.shows.items() if shows & set(cost))
        useful = tuple(i for i in hand if i in relevant) if ordered else tuple(sorted(i for i in hand if i in relevant))
        key = (useful, cost)
        found = self.p.paid.get(key, False)
        if found is False:
            paid = pay([self.p.card[i] for i in useful], cost)
            found = paid if paid.paid else None
            if len(self.p.paid) < CACHED:
                self.p.paid[key] = found
        return found

    def extra(self, spent: list[Card], cost: tuple[str, ...], element: str) -> int:
        """The core's `extra_paid`: how many of `element` the cards spent give beyond the cost."""
        key = (tuple(sorted(card.id for card in spent)), cost, element)
        found = self.p.extras.get(key)
        if found is None:
            found = extra_paid(spent, cost, element) or 0
            if len(self.p.extras) < CACHED:
                self.p.extras[key] = found
        return found

    def spend(self, seat: int, payment: Any) -> list[Card]:
        spent = [card for card, _ in payment.uses]
        for card in spent:
            self.hands[seat].elements.remove(card.id)
            self.elements.discard.append(card.id)
            self.out.played[seat][card.id] += 1
        return spent

    def discard_random(self, hand: list[str], pile: Pile, n: int) -> None:
        for _ in range(min(n, len(hand))):
            pile.discard.append(hand.pop(self.below(len(hand))))

    # -- moves

    def cast(self, seat: int, card: Card, target: Ref | None, payment: Any) -> None:
        spent = self.spend(seat, payment)
        hand = self.hands[seat]
        hand.spells.remove(card.id)
        self.out.played[seat][card.id] += 1
        if card.type == SUMMON:  # summons are never mustered
            made = self.act("summon", by=seat, owner=seat, card=card.id, paid=[c.id for c in spent])
            self.out.figures["creatures summoned"] += 1
            self.out.figures["creatures grown at casting"] += bool(made.get("extra"))
            return
        data = self.act("cast", by=seat, why=self.p.why[card.id], caster=seat, spell=card.id, target=target)
        hit = any(m["hit"] for m in data["musters"])
        self.out.figures["Mayhem Muster: Mayhem" if hit else "Mayhem Muster: goes on as cast"] += 1
        mayhem = self.p.card[data["mayhem"]] if data["mayhem"] else None
        g = mayhem.get if mayhem is not None else (lambda name, default=None: default)
        if mayhem is not None:
            self.out.drawn[mayhem.id] += 1
            self.out.played[seat][mayhem.id] += 1
        (hand.spells if g("fails") or g("keeps") else self.spells.discard).append(card.id)
        for on in data["landed"]:
            self.hex(seat, card, on)
        self.aftermath(seat, target, g)

    def hex(self, seat: int, card: Card, on: int) -> None:
        """What a spell that landed on a wizard does to their hand."""
        g, hand, theirs = card.get, self.hands[seat], self.hands[on]
        self.discard_random(theirs.elements, self.elements, g("discards") or 0)
        for _ in range(min(g("steals") or 0, len(theirs.elements))):
            hand.elements.append(theirs.elements.pop(self.below(len(theirs.elements))))
        if g("swaps_spells") and on != seat:
            hand.spells, theirs.spells = theirs.spells, hand.spells

    def aftermath(self, seat: int, target: Ref | None, g: Callable[..., Any]) -> None:
        """What a Mayhem card does to hands (the table did the rest), and its free snap spell."""
        hand = self.hands[seat]
        self.draw(seat, g("draws_elements") or 0, g("draws_spells") or 0)
        self.discard_random(hand.elements, self.elements, g("discards_elements") or 0)
        self.discard_random(hand.spells, self.spells, g("discards_spells") or 0)
        if g("swaps_elements") and isinstance(target, int) and target != seat:
            hand.elements, self.hands[target].elements = self.hands[target].elements, hand.elements
        if g("free_snap") and not self.t["over"] and self.hp(seat) > 0:  # a caster the spell killed casts nothing
            self.free_snap(seat)

    def snap(self, seat: int, snap: Card, aim: Ref, payment: Any) -> None:
        """A snap spell at a wizard or a creature (paid, or free: `payment` None)."""
        spent = self.spend(seat, payment) if payment is not None else []
        self.out.played[seat][snap.id] += 1
        grows = spent and snap.id in self.p.grows
        extra = self.extra(spent, self.p.cost[snap.id], snap["element"]) if grows else 0
        self.act("snap", by=seat, why=f"snap spells ({snap['element']})", caster=seat, snap=snap.id, target=aim, extra=extra)

    def free_snap(self, seat: int) -> None:
        sides = self.sides(seat)
        options = [(s, aim) for s in self.p.snaps for aim in self.snap_aimed(self.p.snap_aim[s.id], sides)]
        if not options:
            return
        if self.policies[seat] == "greedy":
            snap, aim = max(options, key=lambda o: o[0]["damage"])
        else:
            snap, aim = options[self.below(len(options))]
        self.snap(seat, snap, aim, None)

    def tend(self, seat: int) -> None:
        """Each creature that tends heals its wizard or one of their creatures at the start of their turn: the most hurt."""
        for u in [u for u in self.t["units"] if u["owner"] == seat]:
            if u["card"] and self.p.card[u["card"]].get("tends") and not self.t["over"]:
                hurt = [b for b in self.side(seat) if not self.barrier(b) and self.hp(b) < self.most(b)]
                if hurt:
                    self.act("tend", by=seat, unit=u["id"], target=min(hurt, key=self.hp))

    # -- whom a spell may be cast at

    def sides(self, seat: int) -> Sides:
        """Whom the caster may aim at: the other living wizards, the enemies (those wizards and
        every creature not the caster's), the caster's own side."""
        wizards = [s for s in self.alive() if s != seat]
        theirs: list[Ref] = [u["id"] for u in self.t["units"] if u["owner"] != seat]
        return wizards, [*wizards, *theirs], self.side(seat)

    def aimed(self, aim: str, sides: Sides) -> list[Ref | None]:
        wizards, enemies, mine = sides
        found: list[Ref | None]
        if aim == "enemies":
            return list(enemies)
        if aim == "no one":
            return [None]
        if aim == "enemy creatures":
            return [b for b in enemies if isinstance(b, str)]
        if aim == "opponents":
            return list(wizards)
        if aim == "self":
            found = [mine[0]] if mine and isinstance(mine[0], int) else []
        else:
            found = list(mine)
        return found

    def snap_aimed(self, aim: str, sides: Sides) -> list[Ref]:
        _, enemies, mine = sides
        if aim == "enemies":
            return list(enemies)
        if aim == "hurt":
            return [b for b in mine if not self.barrier(b) and self.hp(b) < self.most(b)]
        if aim == "shieldable":
            return [b for b in mine if not self.barrier(b) or self.barrier(b) < self.status(b)["barrier"]["max"]]
        if aim == "dry enemies":
            return [b for b in enemies if not self.status(b).get("wet") and not self.barrier(b)]
        return [b for b in enemies if self.status(b).get("wet") and not self.barrier(b)]  # drying or freezing: only a wet one

    # -- turns

    def ready(self, seat: int) -> list[str]:
        return [u["id"] for u in self.t["units"] if u["owner"] == seat and u["ready"] and u["attack"] > 0]

    def castable(self, seat: int) -> tuple[list[tuple[Card, Any]], list[tuple[Card, Any]]]:
        """The spell cards and the snap spells the hand can pay for, each with its payment (and
        each dearer payment a card that grows at casting may take)."""
        p, hand_ = self.p, self.hands[seat]
        hand = tuple(sorted(hand_.elements))
        avail = dict.fromkeys(p.elements, 0)  # the most of each element the hand gives one spell (the core's `most`)
        gives = p.gives
        for i in hand:
            for e, v in gives[i]:
                avail[e] += v
        need, card = p.need, p.card
        spells = []
        for cid in sorted(set(hand_.spells)):
            for e, n in need[cid]:
                if avail[e] < n:
                    break
            else:  # the hand has enough of each element: can its cards pay, unsplit?
                payment = self.payment(hand, p.cost[cid], ordered=True)
                if payment is not None:
                    spells.append((card[cid], payment))
                    spells += [(card[cid], up) for up in self.upgrades(hand, card[cid], avail)]
        # a snap spell's cost is one element: the hand's `most` of it is what it can give, so it
        # pays; which cards the core's `pay` spends is asked when it is cast
        snaps: list[tuple[Card, Any]] = []
        for snap, e, n in p.snap_needs:
            if avail[e] >= n:
                snaps.append((snap, None))
                snaps += [(snap, up) for up in self.upgrades(hand, snap, avail)]
        return spells, snaps

    def upgrades(self, hand: tuple[str, ...], card: Card, avail: dict[str, int]) -> list[Any]:
        """The dearer payments a card that grows at casting may take, a choice each: its cost and
        1, 2... more of the element it grows with ("each additional element adds +1"), as far as
        the hand can pay."""
        element = self.p.grows.get(card.id)
        if element is None:
            return []
        cost, found = self.p.cost[card.id], []
        for extra in range(1, avail[element] - cost.count(element) + 1):
            payment = self.payment(hand, (*cost, *[element] * extra), ordered=True)
            if payment is None:
                break
            found.append(payment)
        return found

    def options(self, seat: int) -> tuple[list[tuple[str, Card, list[Any], Any]], list[str], list[Ref]]:
        """What the wizard may do, grouped: each castable spell and snap spell with whom it may be
        aimed at and its payment; the creatures ready to attack, and the enemies they may attack."""
        sides = self.sides(seat)
        groups: list[tuple[str, Card, list[Any], Any]] = []
        if self.hp(seat) > 0:
            spells, snaps = self.castable(seat)
            p, found = self.p, {}  # type: Prepared, dict[str, list[Any]]  # whom each kind of aim may hit, found once
            for card, payment in spells:
                aim = p.aim[card.id]
                bodies = found.get(aim)
                if bodies is None:
                    bodies = found[aim] = self.aimed(aim, sides)
                groups.append(("spell", card, bodies, payment))
            for snap, payment in snaps:
                aim = "snap " + p.snap_aim[snap.id]
                bodies = found.get(aim)
                if bodies is None:
                    bodies = found[aim] = self.snap_aimed(p.snap_aim[snap.id], sides)
                groups.append(("snap", snap, bodies, payment))
        return groups, self.ready(seat), sides[1]

    def do(self, seat: int, act: Act) -> None:
        if act[0] in ("spell", "snap"):
            payment = act[3] if act[3] is not None else self.payment(self.hands[seat].elements, self.p.cost[act[1].id])
            (self.cast if act[0] == "spell" else self.snap)(seat, act[1], act[2], payment)
        else:
            self.act("attack", by=seat, why="creatures", unit=act[1], target=act[2])

    def exchange(self, seat: int) -> None:
        """Step 2 of a Spellmageddon turn: the policy may trade cards in at one of the exchange
        rates; everything traded in is discarded before anything is drawn (no piecemeal exchanging)."""
        hand = self.hands[seat]
        hands = {ELEMENTS: hand.elements, SPELLS: hand.spells}
        rates = [x for x in self.c.exchanges if all(len(hands[d]) >= n for d, n in x.give.items())]
        chosen = (exchange_greedy if self.policies[seat] == "greedy" else exchange_random)(self, seat, rates)
        if chosen is None:
            return
        rate, given = chosen
        for deck, card in given:
            hands[deck].remove(card)
            (self.elements if deck == ELEMENTS else self.spells).discard.append(card)
        self.draw(seat, rate.get.get(ELEMENTS, 0), rate.get.get(SPELLS, 0))
        self.out.figures["card exchanges"] += 1

    def keep_hand(self, seat: int) -> None:
        """The hand limit at the end of the turn: greedy lets go of its dearest spells first, random of any card."""
        hand = self.hands[seat]
        excess = len(hand.elements) + len(hand.spells) - self.c.hand_limit
        if excess <= 0:
            return
        if self.policies[seat] == "greedy":
            for _ in range(excess):
                if hand.spells:
                    dear = max(hand.spells, key=lambda i: (len(self.p.card[i]["cost"]), i))
                    hand.spells.remove(dear)
                    self.spells.discard.append(dear)
                else:
                    self.discard_random(hand.elements, self.elements, 1)
            return
        for _ in range(excess):
            i = self.below(len(hand.elements) + len(hand.spells))
            if i < len(hand.elements):
                self.elements.discard.append(hand.elements.pop(i))
            else:
                self.spells.discard.append(hand.spells.pop(i - len(hand.elements)))

    def turn(self, seat: int, started: Data) -> None:
        """A wizard's turn, once the table has started it: slowed hexes land on hands, creatures
        tend, cards are drawn and exchanged, the policy moves until it ends the turn, the hand limit."""
        self.out.figures["turns skipped frozen"] += len(started.get("skipped", []))
        for spell, on in started.get("landed", []):
            self.hex(seat, self.p.card[spell], on)
        self.tend(seat)
        alive = self.hp(seat) > 0
        if alive:
            self.draw(seat, *self.p.draw)
            self.exchange(seat)
        choose = BY_NAME[self.policies[seat]]
        for _ in range(ACTION_CAP):
            if self.t["over"]:
                break
            act = choose(self, seat)
            if act[0] == "end":
                break
            self.do(seat, act)
        self.keep_hand(seat)


Given = list[tuple[str, str]]  # (deck, card id) traded in


def exchange_random(t: Table, seat: int, rates: list[Any]) -> tuple[Any, Given] | None:
    """No exchange or one of the rates the hand can pay, uniformly; the cards traded in at random."""
    i = t.below(len(rates) + 1)
    if i == 0:
        return None
    hand = t.hands[seat]
    rate, hands = rates[i - 1], {ELEMENTS: list(hand.elements), SPELLS: list(hand.spells)}
    return rate, [(deck, hands[deck].pop(t.below(len(hands[deck])))) for deck, n in rate.give.items() for _ in range(n)]


def exchange_greedy(t: Table, seat: int, rates: list[Any]) -> tuple[Any, Given] | None:
    """Spell cards and none it can pay for: the dearest one for elements. No spell card at all:
    its least worth elements for one."""
    hand = t.hands[seat]
    spells, _ = t.castable(seat)
    if hand.spells and not spells:
        rate = next((x for x in rates if set(x.give) == {SPELLS} and set(x.get) == {ELEMENTS}), None)
        if rate is not None:
            dear = sorted(hand.spells, key=lambda i: (-len(t.p.cost[i]), i))[:rate.give[SPELLS]]
            return rate, [(SPELLS, i) for i in dear]
    if not hand.spells:
        rate = next((x for x in rates if set(x.give) == {ELEMENTS} and set(x.get) == {SPELLS}), None)
        if rate is not None:
            cheap = sorted(hand.elements, key=lambda i: (t.p.worth[i], len(t.p.shows[i]), i))[:rate.give[ELEMENTS]]
            return rate, [(ELEMENTS, i) for i in cheap]
    return None


def held_of(card: Card, c: Constants) -> tuple[str, ...]:
    """The elements a spell's cost holds interaction_threshold times or more (the core's `held`)."""
    return held(card["cost"], c.interaction_threshold)


# ---------------------------------------------------------------------------- policies


def choose_random(t: Table, seat: int) -> Act:
    """One action, uniformly, in the order: the end of the turn, each spell and snap spell at each
    of its aims, each ready creature at each enemy. The actions are counted and only the one drawn
    is made."""
    groups, ready, enemies = t.options(seat)
    i = t.below(1 + sum(len(bodies) for _, _, bodies, _ in groups) + len(ready) * len(enemies))
    if i == 0:
        return ("end",)
    i -= 1
    for kind, card, bodies, payment in groups:
        if i < len(bodies):
            return (kind, card, bodies[i], payment)
        i -= len(bodies)
    u, j = divmod(i, len(enemies))
    return ("attack", ready[u], enemies[j])


def _focus(t: Table, seat: int) -> Ref | None:
    """The weakest opponent: the living wizard with least health, else the weakest enemy creature."""
    order = t.order()
    wizards = [s for s in t.alive() if s != seat]
    if wizards:
        return min(wizards, key=lambda s: (t.hp(s), order.index(s)))
    enemies = t.enemies(seat)
    return min(enemies, key=t.hp) if enemies else None


def _preview(t: Table, card: Card, b: Ref) -> int:
    """The damage a spell would do to `b` now, by the core's `hit` (times its turns, for a beam)."""
    attack = Attack(card.get("damage") or 0, tuple(card["cost"]), card.get("wet"), wet_bonus=card.get("wet_bonus") or 0,
                    wet_multiplier=card.get("wet_multiplier") or 1, frozen_multiplier=card.get("frozen_multiplier") or 1)
    damage: int = hit_unexplained(t.c, attack, t.struck(b)).damage
    return damage * (card.get("turns") or 1)


def _splash(t: Table, seat: int, card: Card, aim: Ref) -> int:
    """What a spell's splash is worth: its damage to each enemy wizard beside the target, less
    its damage to the caster if the caster is one of them (in a duel, always)."""
    splash: int = card.get("splash") or 0
    if not splash:
        return 0
    return sum(splash if nb != seat else -splash for nb in t.besides(t.owner(aim)))


def _creature_worth(t: Table, seat: int, a: Act) -> int:
    """A summons' attack and health as this payment grows it: an upgrade is worth its growth."""
    card, payment = a[1], a[3]
    grows, element = card.get("grows"), card.get("grows_with")
    extra = t.extra([c for c, _ in payment.uses], t.p.cost[card.id], element) if grows and element else 0
    attack, health = grown(card["attack"], card["health"], grows, extra, t.c.extra_element_growth or 0)
    return attack + health


def _heals(t: Table, seat: int, a: Act) -> int:
    """The damage a healing snap spell would heal on its caster with this payment: no more than
    the caster lacks, so an upgrade is paid only when it heals more."""
    snap = a[1]
    if not snap.get("heal"):
        return 0
    payment = a[3] if a[3] is not None else t.payment(t.hands[seat].elements, t.p.cost[snap.id])
    extra = t.extra([c for c, _ in payment.uses], t.p.cost[snap.id], snap["element"]) if snap.get("heal_per_extra") else 0
    heals: int = snap["heal"] + extra * (snap.get("heal_per_extra") or 0)
    return min(heals, t.c.starting_health - t.hp(seat))


def _waste(t: Table, seat: int, act: Act) -> int:
    payment = act[3] if act[3] is not None else t.payment(t.hands[seat].elements, t.p.cost[act[1].id])
    waste: int = sum(payment.wasted.values()) + len(payment.uses)
    return waste


def choose_greedy(t: Table, seat: int) -> Act:
    groups, ready, enemies = t.options(seat)
    spells = [("spell", card, b, payment) for kind, card, bodies, payment in groups if kind == "spell" for b in bodies]
    low = t.hp(seat) <= t.c.starting_health // 3
    helps = [a for a in spells if a[2] == seat and not a[1].get("damage")
             and (a[1].get("heal") or (a[1].get("strength") and not t.barrier(seat)))]
    if low and helps:
        return max(helps, key=lambda a: ((a[1].get("heal") or 0) + (a[1].get("strength") or 0), -_waste(t, seat, a), a[1].id))
    summons = [a for a in spells if a[1].type == SUMMON]
    if summons:
        return max(summons, key=lambda a: (_creature_worth(t, seat, a), -_waste(t, seat, a), a[1].id))
    focus = _focus(t, seat)
    if focus is None:
        return ("end",)
    scored = []
    for a in spells:
        card, aim = a[1], a[2]
        if not card.get("damage"):
            continue
        if card.get("area") == "opponents":
            score = sum(_preview(t, card, b) for b in t.enemies(seat))
        elif aim == focus:
            score = _preview(t, card, aim) + _splash(t, seat, card, aim)
        else:
            continue
        if score > 0:
            scored.append((score, -_waste(t, seat, a), card.id, a))
    if scored:
        return max(scored, key=lambda x: x[:3])[3]
    hexes = [a for a in spells if _hexes(t, seat, a, focus)]
    if hexes:
        return min(hexes, key=lambda a: (_waste(t, seat, a), a[1].id))
    if len(t.hands[seat].elements) > t.p.deal[0]:  # snap spells only from a hand with elements to spare
        snaps = [a for a in (("snap", card, b, payment) for kind, card, bodies, payment in groups if kind == "snap" for b in bodies)
                 if a[2] == focus and (a[1]["damage"] or a[1].get("wet")) or a[2] == seat and a[1].get("heal")]
        if snaps:
            return min(snaps, key=lambda a: (-a[1]["damage"], -_heals(t, seat, a), _waste(t, seat, a), a[1].id))
    return ("attack", ready[0], focus) if ready and focus in enemies else ("end",)


def _hexes(t: Table, seat: int, a: Act, focus: Ref) -> bool:
    """A hex worth casting: a discard, a theft or a freeze at the weakest opponent; a soaking when
    it is dry; roots on the strongest enemy creature; a swap for more spell cards."""
    card, aim = a[1], a[2]
    if card.get("roots"):
        theirs = [u for u in t.t["units"] if u["owner"] != seat]
        return bool(theirs) and aim == max(theirs, key=lambda u: u["attack"])["id"]
    if aim != focus:
        return False
    if card.get("swaps_spells"):
        return isinstance(aim, int) and len(t.hands[aim].spells) > len(t.hands[seat].spells)
    return bool(card.get("discards") or card.get("steals") or card.get("freezes")
                or (card.get("wet") == "wets" and not t.status(aim).get("wet")))


BY_NAME: Mapping[str, Callable[[Table, int], Act]] = {"random": choose_random, "greedy": choose_greedy}


def play(p: Prepared, rng: random.Random, k: int, policies: tuple[str, ...], cap: int, record: bool = False) -> Outcome:
    """One game at a table of its engine: the table draws the first player (the rulebook names
    none) and starts each turn; its state says who won, and after how many turns and rounds."""
    out = Outcome(winner=None, finished=False, first=0, turns=0, rounds=0, played=[Counter() for _ in range(k)])
    t = Table(p, rng, k, policies, out, record)
    for seat in range(k):
        t.draw(seat, *p.deal)
    t.act("first")
    first = t.m.state["first_player"]
    started = t.act("start_turn", player=first)
    while True:
        t.turn(t.t["player"], started)
        if t.t["over"] or t.t["turns"] >= cap or t.t["next"] is None:
            break
        started = t.act("start_turn", why="beams, burns and slowed spells", player=t.t["next"])
    tracked = t.t
    out.first, out.turns, out.rounds = tracked["first"], tracked["turns"], tracked["rounds"]
    out.finished, out.winner, out.match = tracked["over"], tracked["winner"], t.m
    return out


LAB = Lab(
    ruleset=SLUG,
    policies=POLICIES,
    prepare=prepare,
    play=play,
    modelled=modelled,
    first_rule="a random seat, drawn by the table (the rulebook names no first player)",
    turn_cap=400,
    unmodelled_rules=("Spell vs. Spell: snap spells cast at spells (counter, disrupt, reflect)",),
)
