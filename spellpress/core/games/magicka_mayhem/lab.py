"""Magicka Mayhem in the lab: Spellmageddon at the YAML's default Mayhem level.

Each turn a wizard draws (game.yaml's draw_per_turn), may trade cards in at the exchange rates, casts spell card spells, summons and snap
spells at wizards and creatures, and their creatures attack; a frozen wizard skips a turn; the
hand limit is kept at the end of the turn. Every spell card spell (not a summons) musters for
Mayhem, and a Mayhem card drawn changes the spell as its fields say (lands_on, times, fails...).
A card's effect is read from its fields (damage, wet, area, turns, heal, strength, splash,
discards...; a summon's attack, health, grows, death...), never from its text.

The rules are the core's: paying (`pay`, `extra_paid`), a spell or snap landing (`hit`), barriers
(`absorb`, `raised`, `repaired`), wetness (`after`), summoning (`grown`, `may_attack`), healing a
creature (`healed`), deaths (`reached`, `death_lands`, `death_barrier`) and the Muster (`mustered`),
the same the tracker and the helpers call.

Readings the lab takes where the cards are silent: a wizard at full starting health has no
damage to heal; a barrier raised on a barrier leaves the stronger (as a death's does); a beam
ends, and breaks the barrier, when its target has one (the rulebook's Helpful Info); harmful
spells are aimed at opponents and their creatures, helpful ones at the caster's side; the target
of Hot Potato throws the spell on at random; Mayhem's "every opponent" means the living wizards;
a splash reaches each wizard beside the target once (in a duel, the caster, beside it on both
sides); a card that grows at casting offers each dearer payment as a choice of its own.
The rulebook names no first player: a random seat starts.

Not modelled yet: Spell vs. Spell (snap spells cast at spells: counter, disrupt, reflect), and a
Mayhem card with no field the lab applies (Chicken Dance, a forfeit for the table); each report
names such cards.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ...engine import Lab, Outcome
from ...models import Card, Game
from ...play.state import shuffled
from .helpers import (
    DEATH_CREATURES,
    Attack,
    Hit,
    Target,
    absorb,
    after,
    death_barrier,
    death_lands,
    extra_paid,
    grown,
    healed,
    held,
    hit_unexplained,
    may_attack,
    mustered,
    pay,
    raised,
    reached,
    repaired,
)
from .ruleset import Constants

SLUG = "magicka-mayhem"
ELEMENTS, SPELLS, MAYHEM = "elements", "spells", "mayhem"  # decks.yaml's decks
SPELL, SUMMON, SNAP, REFERENCE = "spell", "summon", "snap", "reference"  # card types
SHIELD_SNAP, LIFE_SNAP = "barrier", "heal"  # what a snap spell of no damage and no wetness does
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


@dataclass(frozen=True)
class Prepared:
    c: Constants
    card: dict[str, Card]  # every card by id
    element_deck: tuple[str, ...]
    spell_deck: tuple[str, ...]
    mayhem_deck: tuple[str, ...]
    snaps: tuple[Card, ...]
    shows: dict[str, frozenset[str]]  # element card id -> the elements it shows
    worth: dict[str, int]  # element card id -> its value
    cost: dict[str, tuple[str, ...]]  # spell, summon and snap spell id -> its cost
    need: dict[str, tuple[tuple[str, int], ...]]  # ... as (element, how many)
    snap_needs: tuple[tuple[Card, str, int], ...]  # each snap spell, its element and how many
    gives: dict[str, tuple[tuple[str, int], ...]]  # element card id -> (element, value) for each it shows
    relevant: dict[tuple[str, ...], frozenset[str]]  # a cost -> the element cards that show any of its elements
    elements: tuple[str, ...]  # the game's elements
    level: tuple[int, int]  # the Muster's hits out_of
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
    level = next(lv for lv in c.mayhem_levels if lv.id == c.default_mayhem)
    cost = {card.id: tuple(card["cost"]) for card in game.decks[SPELLS].cards}
    cost.update({card.id: (card["element"],) * c.snap_cost for card in game.cards if card.type == SNAP})
    return Prepared(
        c=c, card={card.id: card for card in game.cards},
        element_deck=_copies(game, ELEMENTS), spell_deck=_copies(game, SPELLS), mayhem_deck=_copies(game, MAYHEM),
        snaps=tuple(card for card in game.cards if card.type == SNAP),
        shows={card.id: frozenset(card["elements"]) for card in game.decks[ELEMENTS].cards},
        worth={card.id: card["value"] for card in game.decks[ELEMENTS].cards},
        cost=cost, need={i: tuple(Counter(c_).items()) for i, c_ in cost.items()},
        snap_needs=tuple((card, card["element"], c.snap_cost) for card in game.cards if card.type == SNAP),
        gives={card.id: tuple((e, card["value"]) for e in card["elements"]) for card in game.decks[ELEMENTS].cards},
        relevant={x: frozenset(card.id for card in game.decks[ELEMENTS].cards if set(card["elements"]) & set(x))
                  for x in cost.values()},
        elements=tuple(e.name for e in game.elements),
        level=(level.hits, level.out_of),
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
    applied, not_applied = [], []
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


class Body:
    """A wizard or a creature: what spells, attacks and deaths land on."""

    __slots__ = ("seat", "owner", "card", "health", "most", "attack", "wet", "frozen", "barrier", "bmax", "mirror",
                 "chill", "weak", "immune", "arrived", "attacked", "held", "haste", "rooted")

    def __init__(self, seat: int | None, owner: int, health: int, card: str | None = None) -> None:
        self.seat, self.owner, self.card, self.health, self.most = seat, owner, card, health, health
        self.attack, self.wet, self.frozen, self.barrier, self.bmax = 0, False, 0, 0, 0
        self.mirror = self.chill = False
        self.weak: tuple[str, ...] = ()
        self.immune: tuple[str, ...] = ()
        self.arrived, self.attacked, self.held, self.haste, self.rooted = 0, False, False, False, 0


class Wizard(Body):
    __slots__ = ("elements", "spells", "beams", "burn", "pending")

    def __init__(self, seat: int, health: int) -> None:
        super().__init__(seat, seat, health)
        self.elements: list[str] = []
        self.spells: list[str] = []
        self.beams: list[list[Any]] = []  # [spell card, target, ticks left, scale]
        self.burn = (0, 0)  # damage at each turn's start, turns left
        self.pending: list[tuple[Card, Body]] = []  # slowed spells: they land at the start of the next turn


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
        self.below, self.deck, self.discard = below, shuffled(cards, below), []  # type: list[str]

    def draw(self) -> str | None:
        if not self.deck:
            self.deck, self.discard = shuffled(self.discard, self.below), []
            if not self.deck:
                return None
        return self.deck.pop()


Sides = tuple[list["Body"], list["Body"], list["Body"]]  # other living wizards, enemies, the caster's own side
Scale = tuple[int, int, int, bool]  # times, divided by, plus, inverted: what a Mayhem card does to amounts
PLAIN: Scale = (1, 1, 0, False)


def scaled(amount: int, scale: Scale) -> int:
    times, div, plus, _ = scale
    return amount * times // div + plus if amount > 0 else 0


class Table:
    """One game: the wizards, the creatures in play, the three decks, and the outcome so far."""

    def __init__(self, p: Prepared, rng: random.Random, k: int, policies: tuple[str, ...], out: Outcome) -> None:
        self.p, self.c, self.out = p, p.c, out
        self.below = below = randbelow_of(rng)
        self.wizards = [Wizard(s, p.c.starting_health) for s in range(k)]
        self.creatures: list[Body] = []
        self.order = list(range(k))  # seats in the order of play (Wizard Swap trades places)
        self.elements, self.spells, self.mayhem = Pile(p.element_deck, below), Pile(p.spell_deck, below), Pile(p.mayhem_deck, below)
        self.policies = policies
        self.turn = 0
        self.cast_this_turn: list[Card] = []  # spell card spells cast this turn (a boost looks at them)
        self.fallen: list[Body] = []
        self.resolving = False

    # -- who is where

    def standing(self) -> list[int]:
        owners = {u.owner for u in self.creatures}
        return [s for s in self.order if self.wizards[s].health > 0 or s in owners]

    def alive(self) -> list[Wizard]:
        return [self.wizards[s] for s in self.order if self.wizards[s].health > 0]

    def beside(self, seat: int, step: int) -> Wizard | None:
        """The living wizard `step` seats on from `seat` in the order of play (1: left, -1: right)."""
        i, n = self.order.index(seat), len(self.order)
        for d in range(1, n):
            w = self.wizards[self.order[(i + step * d) % n]]
            if w.health > 0:
                return w
        return None

    def besides(self, seat: int) -> list[Wizard]:
        """The living wizards seated beside `seat`, each once: in a duel the one other wizard is
        beside on both sides, and is one wizard beside it."""
        found = [self.beside(seat, 1), self.beside(seat, -1)]
        return [w for i, w in enumerate(found) if w is not None and w.seat != seat and w not in found[:i]]

    def side(self, seat: int) -> list[Body]:
        w = self.wizards[seat]
        return ([w] if w.health > 0 else []) + [u for u in self.creatures if u.owner == seat]

    def enemies(self, seat: int) -> list[Body]:
        return [b for s in self.order if s != seat for b in self.side(s)]

    # -- cards

    def draw(self, w: Wizard, elements: int, spells: int) -> None:
        for pile, hand, n in ((self.elements, w.elements, elements), (self.spells, w.spells, spells)):
            for _ in range(n):
                card = pile.draw()
                if card is None:
                    break
                hand.append(card)
                self.out.drawn[card] += 1

    def payment(self, hand: list[str] | tuple[str, ...], cost: tuple[str, ...], ordered: bool = False) -> Any:
        """The core's best payment of `cost` from `hand` (`ordered`: already sorted), or None if
        the hand cannot pay. Only the cards that show an element of the cost take part (the others
        could only be left out), so the answer is remembered by those cards and the cost; a hand
        short of an element's total is not searched."""
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
        """The core's `extra_paid`: how many of `element` the cards spent give beyond the cost
        (remembered by the cards and the cost)."""
        key = (tuple(sorted(card.id for card in spent)), cost, element)
        found = self.p.extras.get(key)
        if found is None:
            found = extra_paid(spent, cost, element) or 0
            if len(self.p.extras) < CACHED:
                self.p.extras[key] = found
        return found

    def spend(self, w: Wizard, payment: Any) -> list[Card]:
        spent = [card for card, _ in payment.uses]
        for card in spent:
            w.elements.remove(card.id)
            self.elements.discard.append(card.id)
            self.out.played[w.seat][card.id] += 1
        return spent

    def discard_random(self, w: Wizard, hand: list[str], pile: Pile, n: int) -> None:
        for _ in range(min(n, len(hand))):
            pile.discard.append(hand.pop(self.below(len(hand))))

    # -- landing

    def hurt(self, body: Body, amount: int, why: str) -> int:
        """Plain damage through the body's barrier first; a creature at 0 is destroyed and its
        card's death happens. Returns the damage that reached its health."""
        if body.barrier:
            _, amount, body.barrier = absorb(body.barrier, amount)
        return self.wound(body, amount, why)

    def wound(self, body: Body, amount: int, why: str) -> int:
        if amount <= 0 or body.health <= 0:
            return 0
        amount = min(amount, body.health) if body.seat is not None else amount
        body.health -= amount
        self.out.figures[f"damage: {why}"] += amount
        if body.seat is None and body.health <= 0:
            self.destroy(body)
        elif body.seat is not None and body.health <= 0:
            self.out.figures["wizards killed"] += 1
        return amount

    def heal(self, body: Body, amount: int) -> None:
        if amount <= 0 or body.barrier or body.health <= 0:
            return  # a barrier keeps healing out; dead is dead
        if body.seat is None:
            body.health = healed(body.health, body.most, amount)
        else:
            body.health += amount
        self.out.figures["healing"] += amount

    def status(self, body: Body, effect: str) -> None:
        """Wets, dries or freezes the body (a barrier keeps all of it out)."""
        if body.barrier or body.health <= 0:
            return
        body.wet, frozen = after(effect, body.wet, body.frozen, self.c.freeze_turns)
        if effect == "freezes":
            self.out.figures["frozen"] += 1
        body.frozen = frozen

    def shield(self, body: Body, strength: int, mirror: bool = False, chill: bool = False) -> None:
        """A barrier of `strength` rises around the body; over a barrier, the stronger stays."""
        if strength <= 0 or body.health <= 0:
            return
        if strength >= body.barrier:
            body.mirror, body.chill = mirror, chill
        body.barrier, body.bmax = death_barrier(body.barrier, body.bmax, strength)

    def land(self, body: Body, attack: Attack, caster: Wizard | None, why: str) -> Hit:
        """A spell or snap spell landing, by the core's `hit`."""
        h = hit_unexplained(self.c, attack, Target(body.wet, body.frozen > 0, body.barrier, body.weak, body.immune))
        mirrored = body.mirror and h.absorbed and caster is not None
        body.barrier = h.barrier
        if "freezes" in h.effects:
            self.out.figures["frozen"] += 1
            body.wet, body.frozen = after("freezes", body.wet, body.frozen, self.c.freeze_turns)
        elif h.effects:
            body.wet = h.wet
        if "zaps" in h.effects:
            self.out.figures["zaps"] += 1
        self.wound(body, h.damage, why)
        if mirrored and caster is not None:
            self.hurt(caster, h.absorbed, "mirrored")
        return h

    def destroy(self, unit: Body) -> None:
        """A creature is destroyed: it leaves play at once, and its card's death happens; the
        deaths of creatures a death destroys happen after, one after another."""
        self.creatures.remove(unit)
        self.spells.discard.append(unit.card or "")
        self.out.figures["creatures destroyed"] += 1
        self.fallen.append(unit)
        if self.resolving:
            return
        self.resolving = True
        while self.fallen:
            self.death(self.fallen.pop(0))
        self.resolving = False

    def death(self, u: Body) -> None:
        card = self.p.card[u.card or ""]
        does, to, amount = card.get("death"), card.get("death_to"), card.get("death_amount") or 0
        if not does:
            return
        if to == DEATH_CREATURES:
            targets: list[Body] = list(self.creatures)
        else:
            standing = [s for s in self.order if self.wizards[s].health > 0]
            wet = {s for s in standing if self.wizards[s].wet}
            targets = [self.wizards[s] for s in reached(to, u.owner, standing, wet)]
        for t in targets:
            if t.health > 0 and death_lands(does, t.barrier > 0, t.wet):
                self.death_effect(does, amount, t)
        self.out.figures[f"deaths: {does}"] += 1

    def death_effect(self, does: str, amount: int, t: Body) -> None:
        if does == "damage":
            self.hurt(t, amount, "deaths")
        elif does == "zap":
            t.wet, t.frozen = after("zaps", t.wet, t.frozen, self.c.freeze_turns)
            self.hurt(t, self.c.zap_damage, "deaths")
        elif does == "heal":
            self.heal(t, amount)
        elif does in ("freeze", "wet"):
            self.status(t, "freezes" if does == "freeze" else "wets")
        else:
            self.shield(t, amount)

    # -- spells

    def why(self, card: Card) -> str:
        """The element a spell's damage is counted under: the one its cost holds most."""
        return self.p.why[card.id]

    def sides(self, w: Wizard) -> Sides:
        """Whom the caster may aim at: the other living wizards, the enemies (those wizards and
        every creature not the caster's), the caster's own side."""
        wizards = [x for x in self.alive() if x is not w]
        theirs = [u for u in self.creatures if u.owner != w.seat]
        return wizards, [*wizards, *theirs], self.side(w.seat)

    def aims(self, card: Card, sides: Sides) -> list[Body | None]:
        """Whom a spell may be cast at: harm at opponents and their creatures, help at the caster's side."""
        return self.aimed(self.p.aim[card.id], sides)

    def aimed(self, aim: str, sides: Sides) -> list[Body | None]:
        wizards, enemies, mine = sides
        if aim == "enemies":
            return list(enemies)
        if aim == "no one":
            return [None]
        if aim == "enemy creatures":
            return [b for b in enemies if b.seat is None]
        if aim == "opponents":
            return list(wizards)
        if aim == "self":
            return mine[:1] if mine and mine[0].seat is not None else []
        return list(mine)

    def snap_aims(self, snap: Card, sides: Sides) -> list[Body]:
        return self.snap_aimed(self.p.snap_aim[snap.id], sides)

    def snap_aimed(self, aim: str, sides: Sides) -> list[Body]:
        _, enemies, mine = sides
        if aim == "enemies":
            return list(enemies)
        if aim == "hurt":
            return [b for b in mine if not b.barrier and b.health < (b.most if b.seat is None else self.c.starting_health)]
        if aim == "shieldable":
            return [b for b in mine if b.barrier < b.bmax or not b.barrier]
        if aim == "dry enemies":
            return [b for b in enemies if not b.wet and not b.barrier]
        return [b for b in enemies if b.wet and not b.barrier]  # drying or freezing: only a wet one

    def cast(self, w: Wizard, card: Card, target: Body | None, payment: Any) -> None:
        spent = self.spend(w, payment)
        w.spells.remove(card.id)
        self.out.played[w.seat][card.id] += 1
        if card.type == SUMMON:  # summons are never mustered
            self.summon(w, card, spent)
            return
        _, mayhem = mustered(*self.p.level, self.below)
        self.out.figures["Mayhem Muster: Mayhem" if mayhem else "Mayhem Muster: goes on as cast"] += 1
        drawn = self.mayhem.draw() if mayhem else None
        if drawn is not None:
            self.out.drawn[drawn] += 1
            self.out.played[w.seat][drawn] += 1
            self.mayhem.discard.append(drawn)
        self.resolve(w, card, target, self.p.card[drawn] if drawn else None)
        self.cast_this_turn.append(card)

    def summon(self, w: Wizard, card: Card, spent: list[Card]) -> None:
        grows, element = card.get("grows"), card.get("grows_with")
        extra = self.extra(spent, self.p.cost[card.id], element) if grows and element else 0
        attack, health = grown(card["attack"], card["health"], grows, extra, self.c.extra_element_growth or 0)
        u = Body(None, w.seat, health, card.id)
        u.attack, u.arrived, u.haste = attack, self.turn, bool(card.get("haste"))
        u.weak, u.immune = tuple(card.get("weak") or ()), tuple(card.get("immune") or ())
        self.creatures.append(u)
        self.out.figures["creatures summoned"] += 1

    def resolve(self, w: Wizard, card: Card, target: Body | None, m: Card | None) -> None:
        """The spell lands, as a Mayhem card `m` (if one was drawn) changes it."""
        g = m.get if m is not None else (lambda name, default=None: default)
        if g("fails"):
            w.spells.append(card.id)  # back to the hand; the elements are lost
            return
        if g("keeps"):
            w.spells.append(card.id)
        else:
            self.spells.discard.append(card.id)
        if g("delayed"):
            w.pending.append((card, target))
            return
        recipients, moved = self.redirect(w, target, g("lands_on"))
        scale: Scale = (g("times") or 1, g("divided_by") or 1, g("plus") or 0, bool(g("inverts")))
        if g("lands_on") == "every opponent" and not moved:
            scale = PLAIN  # "Cast at an opponent? Then it strikes EVERY opponent, with double effect": only then
        if target is not None and g("bubble") and not target.barrier:
            self.shield(target, self.c.barrier.strength)
        for r in recipients:
            self.effect(w, card, r, scale, moved)
        bounce = g("bounce_divided_by")
        if bounce and target is not None:
            onto = self.beside(target.owner, 1)
            if onto is not None:
                self.effect(w, card, onto, (1, bounce, 0, False), True)
        self.aftermath(w, target, g)

    def aftermath(self, w: Wizard, target: Body | None, g: Callable[..., Any]) -> None:
        """What a Mayhem card does besides the spell: to the caster, the hands, the table."""
        if g("caster"):
            self.status(w, "freezes" if g("caster") == "frozen" else "wets")
        if g("burns"):
            w.burn = (g("burns"), g("burn_turns"))
        self.draw(w, g("draws_elements") or 0, g("draws_spells") or 0)
        self.discard_random(w, w.elements, self.elements, g("discards_elements") or 0)
        self.discard_random(w, w.spells, self.spells, g("discards_spells") or 0)
        for o in self.alive():
            if o is not w:
                self.heal(o, g("others_heal") or 0)
        if g("swaps_elements") and isinstance(target, Wizard) and target is not w:
            w.elements, target.elements = target.elements, w.elements
        if g("downpour"):
            for b in [*self.alive(), *self.creatures]:
                self.status(b, "wets")
        if g("free_snap"):
            self.free_snap(w)
        if g("swaps_seats") and isinstance(target, Wizard) and target is not w:
            i, j = self.order.index(w.seat), self.order.index(target.seat)
            self.order[i], self.order[j] = self.order[j], self.order[i]

    def redirect(self, w: Wizard, target: Body | None, lands_on: str | None) -> tuple[list[Body], bool]:
        """Whom the spell lands on, and whether a Mayhem card moved it."""
        if target is None:
            return [], False
        if lands_on == "caster":
            return [w], True
        if lands_on == "every opponent" and target.owner != w.seat:
            return [x for x in self.alive() if x is not w], True
        if lands_on == "left of caster":
            onto = self.beside(w.seat, 1)
            if onto is target:
                onto = self.beside(w.seat, -1)
            return ([onto], True) if onto is not None else ([target], False)
        if lands_on == "another":  # the target throws it on, at random
            others = [b for b in [*self.alive(), *self.creatures] if b is not w and b is not target]
            return ([others[self.below(len(others))]], True) if others else ([target], False)
        if lands_on == "every wizard":
            return self.alive(), True
        if lands_on == "strongest creature":
            theirs = [u for u in self.creatures if u.owner == target.owner]
            return ([max(theirs, key=lambda u: u.attack)], True) if theirs else ([target], False)
        return [target], False

    def spread(self, w: Wizard, card: Card, r: Body, moved: bool) -> list[Body]:
        """The bodies a spell landing on `r` reaches: its area, around the caster or `r`."""
        area = card.get("area")
        if area == "opponents" and not moved:
            return self.enemies(w.seat)
        if area and r.seat is not None:
            return self.side(r.seat)
        return [r]

    def effect(self, w: Wizard, card: Card, r: Body, scale: Scale, moved: bool) -> None:
        for b in self.spread(w, card, r, moved):
            if card.get("turns"):
                beam = [card, b, card["turns"] - 1, scale]
                if self.tick(w, beam):
                    w.beams.append(beam)
            else:
                self.apply(w, card, b, scale)

    def tick(self, w: Wizard, beam: list[Any]) -> bool:
        """One turn of a beam; False once it has ended (its target gone, or a barrier broke it)."""
        card, b, _, scale = beam
        if b.health <= 0 or (b.seat is None and b not in self.creatures):
            return False
        if b.barrier and card.get("damage"):
            b.barrier = 0  # the barrier stops the beam, and breaks
            self.out.figures["beams stopped by a barrier"] += 1
            return False
        self.apply(w, card, b, scale)
        return True

    def apply(self, w: Wizard, card: Card, b: Body, scale: Scale) -> None:
        """A spell card's fields on one body."""
        g = card.get
        damage = g("damage") or 0
        boost = g("boost")
        if boost and any(g("boost_with") in held_of(prev, self.c) for prev in self.cast_this_turn):
            damage = boost
        thaw = bool(g("frozen_bonus") and b.frozen)
        damage += g("frozen_bonus") if thaw else 0
        heal = (g("heal") or 0) + ((g("wet_bonus") or 0) if g("heal") and b.wet else 0)
        damage, heal = scaled(damage, scale), scaled(heal, scale)
        if scale[3]:
            damage, heal = heal, damage
        if g("breaks_barrier"):
            b.barrier = 0
        if damage or g("wet"):
            h = self.land(b, Attack(damage, tuple(card["cost"]), g("wet"), wet_bonus=0 if g("heal") else g("wet_bonus") or 0,
                                    wet_multiplier=g("wet_multiplier") or 1, frozen_multiplier=g("frozen_multiplier") or 1),
                          w, self.why(card))
            if g("drains"):
                self.heal(w, h.damage)
            if g("chains"):
                for o in [*self.alive(), *self.creatures]:
                    if o is not b and o.wet:
                        self.land(o, Attack(0, (), "zaps", instead=True), w, "chained zaps")
            if g("splash"):
                for nb in self.besides(b.seat if b.seat is not None else b.owner):
                    self.hurt(nb, g("splash"), self.why(card))
            if thaw:
                b.frozen = 0
        if heal:
            had = b.barrier
            self.heal(b, heal)
            if g("thaws") and not had:
                b.frozen = 0
        if g("freezes"):
            self.status(b, "freezes")
        if g("strength"):
            self.shield(b, scaled(g("strength"), scale), bool(g("mirrors")), bool(g("chills")))
        if isinstance(b, Wizard):
            self.hex(w, card, b)
        elif g("roots"):
            b.attack, b.rooted = max(0, b.attack - g("roots")), 1

    def hex(self, w: Wizard, card: Card, b: Wizard) -> None:
        g = card.get
        self.discard_random(b, b.elements, self.elements, g("discards") or 0)
        for _ in range(min(g("steals") or 0, len(b.elements))):
            w.elements.append(b.elements.pop(self.below(len(b.elements))))
        if g("swaps_spells") and b is not w:
            w.spells, b.spells = b.spells, w.spells

    def snap(self, w: Wizard, snap: Card, aim: Body, payment: Any) -> None:
        """A snap spell at a wizard or a creature (paid, or free: `payment` None)."""
        spent = self.spend(w, payment) if payment is not None else []
        self.out.played[w.seat][snap.id] += 1
        element, cost = snap["element"], (snap["element"],) * self.c.snap_cost
        grows = spent and (snap.get("heal_per_extra") or snap.get("raises_barrier"))
        extra = self.extra(spent, cost, element) if grows else 0
        if snap.get("heal"):
            self.heal(aim, snap["heal"] + extra * (snap.get("heal_per_extra") or 0))
        elif snap.get("raises_barrier"):
            b, shields = self.c.barrier, self.c.snap_cost + extra
            if aim.barrier:
                aim.barrier = repaired(aim.barrier, aim.bmax, b.repair_per_shield, shields)
            else:
                self.shield(aim, raised(b.shield_cost, b.strength, b.per_extra_shield, shields))
        else:
            self.land(aim, Attack(snap["damage"], cost, snap.get("wet"), instead=True), w, element)

    def free_snap(self, w: Wizard) -> None:
        sides = self.sides(w)
        options = [(s, aim) for s in self.p.snaps for aim in self.snap_aims(s, sides)]
        if not options:
            return
        if self.policies[w.seat] == "greedy":
            snap, aim = max(options, key=lambda o: o[0]["damage"])
        else:
            snap, aim = options[self.below(len(options))]
        self.snap(w, snap, aim, None)

    def strike(self, u: Body, t: Body) -> None:
        """A creature attacks: its attack through the target's barrier."""
        u.attacked = True
        through, had = t.chill, t.barrier > 0
        self.hurt(t, u.attack, "creatures")
        if through and had:
            self.status(u, "freezes")
        if self.p.card[u.card or ""].get("soaks"):
            self.status(t, "wets")

    # -- turns

    def ready(self, w: Wizard) -> list[Body]:
        return [u for u in self.creatures if u.owner == w.seat and u.attack > 0 and not u.attacked and not u.held
                and may_attack(u.arrived, self.turn, u.haste)]

    def start(self, w: Wizard) -> None:
        """The start of a turn: creatures thaw, slowed spells land, beams burn, robes burn, treants tend, cards are drawn."""
        for u in self.creatures:
            if u.owner == w.seat:
                u.attacked, u.held = False, False
                if u.frozen > 0:
                    u.frozen, u.held = u.frozen - 1, True
                if u.rooted > 0:
                    u.rooted, u.held = u.rooted - 1, True
        pending, w.pending = w.pending, []
        for card, target in pending:
            if target is not None and target.health > 0 and (target.seat is not None or target in self.creatures):
                self.effect(w, card, target, PLAIN, False)
        beams, w.beams = w.beams, []
        for beam in beams:
            if beam[2] > 0 and self.tick(w, beam):
                beam[2] -= 1
                if beam[2] > 0:
                    w.beams.append(beam)
        amount, left = w.burn
        if left:
            w.burn = (0, 0) if w.wet else (amount, left - 1)
            if not w.wet:
                self.hurt(w, amount, "Mayhem burns")
        for u in [u for u in self.creatures if u.owner == w.seat]:
            tends = self.p.card[u.card or ""].get("tends")
            if tends:
                hurt = [b for b in self.side(w.seat) if not b.barrier
                        and b.health < (b.most if b.seat is None else self.c.starting_health)]
                if hurt:
                    self.heal(min(hurt, key=lambda b: b.health), tends)
        if w.health > 0:
            self.draw(w, *self.p.draw)

    def castable(self, w: Wizard) -> tuple[list[tuple[Card, Any]], list[tuple[Card, Any]]]:
        """The spell cards and the snap spells the hand can pay for, each with its payment."""
        p = self.p
        hand = tuple(sorted(w.elements))
        avail = dict.fromkeys(p.elements, 0)  # the most of each element the hand gives one spell (the core's `most`)
        gives = p.gives
        for i in hand:
            for e, v in gives[i]:
                avail[e] += v
        need, card = p.need, p.card
        spells = []
        for cid in sorted(set(w.spells)):
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

    def options(self, w: Wizard) -> tuple[list[tuple[str, Card, list[Any], Any]], list[Body], list[Body]]:
        """What the wizard may do, grouped: each castable spell and snap spell with whom it may be
        aimed at and its payment; the creatures ready to attack, and the enemies they may attack."""
        sides = self.sides(w)
        groups: list[tuple[str, Card, list[Any], Any]] = []
        if w.health > 0:
            spells, snaps = self.castable(w)
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
        return groups, self.ready(w), sides[1]

    def do(self, w: Wizard, act: tuple[Any, ...]) -> None:
        if act[0] in ("spell", "snap"):
            payment = act[3] if act[3] is not None else self.payment(w.elements, self.p.cost[act[1].id])
            (self.cast if act[0] == "spell" else self.snap)(w, act[1], act[2], payment)
        else:
            self.strike(act[1], act[2])

    def exchange(self, w: Wizard) -> None:
        """Step 2 of a Spellmageddon turn: the policy may trade cards in at one of the exchange
        rates; everything traded in is discarded before anything is drawn (no piecemeal exchanging)."""
        hands = {ELEMENTS: w.elements, SPELLS: w.spells}
        rates = [x for x in self.c.exchanges if all(len(hands[d]) >= n for d, n in x.give.items())]
        chosen = (exchange_greedy if self.policies[w.seat] == "greedy" else exchange_random)(self, w, rates)
        if chosen is None:
            return
        rate, given = chosen
        for deck, card in given:
            hands[deck].remove(card)
            (self.elements if deck == ELEMENTS else self.spells).discard.append(card)
        self.draw(w, rate.get.get(ELEMENTS, 0), rate.get.get(SPELLS, 0))
        self.out.figures["card exchanges"] += 1

    def keep_hand(self, w: Wizard) -> None:
        """The hand limit at the end of the turn: greedy lets go of its dearest spells first, random of any card."""
        excess = len(w.elements) + len(w.spells) - self.c.hand_limit
        if excess <= 0:
            return
        if self.policies[w.seat] == "greedy":
            for _ in range(excess):
                if w.spells:
                    dear = max(w.spells, key=lambda i: (len(self.p.card[i]["cost"]), i))
                    w.spells.remove(dear)
                    self.spells.discard.append(dear)
                else:
                    self.discard_random(w, w.elements, self.elements, 1)
            return
        for _ in range(excess):
            i = self.below(len(w.elements) + len(w.spells))
            if i < len(w.elements):
                self.elements.discard.append(w.elements.pop(i))
            else:
                self.spells.discard.append(w.spells.pop(i - len(w.elements)))


Given = list[tuple[str, str]]  # (deck, card id) traded in


def exchange_random(t: Table, w: Wizard, rates: list[Any]) -> tuple[Any, Given] | None:
    """No exchange or one of the rates the hand can pay, uniformly; the cards traded in at random."""
    i = t.below(len(rates) + 1)
    if i == 0:
        return None
    rate, hands = rates[i - 1], {ELEMENTS: list(w.elements), SPELLS: list(w.spells)}
    return rate, [(deck, hands[deck].pop(t.below(len(hands[deck])))) for deck, n in rate.give.items() for _ in range(n)]


def exchange_greedy(t: Table, w: Wizard, rates: list[Any]) -> tuple[Any, Given] | None:
    """Spell cards and none it can pay for: the dearest one for elements. No spell card at all:
    its least worth elements for one."""
    spells, _ = t.castable(w)
    if w.spells and not spells:
        rate = next((x for x in rates if set(x.give) == {SPELLS} and set(x.get) == {ELEMENTS}), None)
        if rate is not None:
            dear = sorted(w.spells, key=lambda i: (-len(t.p.cost[i]), i))[:rate.give[SPELLS]]
            return rate, [(SPELLS, i) for i in dear]
    if not w.spells:
        rate = next((x for x in rates if set(x.give) == {ELEMENTS} and set(x.get) == {SPELLS}), None)
        if rate is not None:
            cheap = sorted(w.elements, key=lambda i: (t.p.worth[i], len(t.p.shows[i]), i))[:rate.give[ELEMENTS]]
            return rate, [(ELEMENTS, i) for i in cheap]
    return None


def held_of(card: Card, c: Constants) -> tuple[str, ...]:
    """The elements a spell's cost holds interaction_threshold times or more (the core's `held`)."""
    return held(card["cost"], c.interaction_threshold)


# ---------------------------------------------------------------------------- policies


def choose_random(t: Table, w: Wizard) -> tuple[Any, ...]:
    """One action, uniformly, in the order: the end of the turn, each spell and snap spell at each
    of its aims, each ready creature at each enemy. The actions are counted and only the one drawn
    is made."""
    groups, ready, enemies = t.options(w)
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


def _focus(t: Table, w: Wizard) -> Body | None:
    """The weakest opponent: the living wizard with least health, else the weakest enemy creature."""
    wizards = [x for x in t.alive() if x is not w]
    if wizards:
        return min(wizards, key=lambda x: (x.health, t.order.index(x.seat or 0)))
    enemies = t.enemies(w.seat)
    return min(enemies, key=lambda b: b.health) if enemies else None


def _preview(t: Table, card: Card, b: Body) -> int:
    """The damage a spell would do to `b` now, by the core's `hit` (times its turns, for a beam)."""
    attack = Attack(card.get("damage") or 0, tuple(card["cost"]), card.get("wet"), wet_bonus=card.get("wet_bonus") or 0,
                    wet_multiplier=card.get("wet_multiplier") or 1, frozen_multiplier=card.get("frozen_multiplier") or 1)
    return hit_unexplained(t.c, attack, Target(b.wet, b.frozen > 0, b.barrier, b.weak, b.immune)).damage * (card.get("turns") or 1)


def _splash(t: Table, w: Wizard, card: Card, aim: Body) -> int:
    """What a spell's splash is worth: its damage to each enemy wizard beside the target, less
    its damage to the caster if the caster is one of them (in a duel, always)."""
    splash = card.get("splash") or 0
    if not splash:
        return 0
    beside = t.besides(aim.seat if aim.seat is not None else aim.owner)
    return sum(splash if nb is not w else -splash for nb in beside)


def _creature_worth(t: Table, w: Wizard, a: tuple[Any, ...]) -> int:
    """A summons' attack and health as this payment grows it: an upgrade is worth its growth."""
    card, payment = a[1], a[3]
    grows, element = card.get("grows"), card.get("grows_with")
    extra = t.extra([c for c, _ in payment.uses], t.p.cost[card.id], element) if grows and element else 0
    attack, health = grown(card["attack"], card["health"], grows, extra, t.c.extra_element_growth or 0)
    return attack + health


def _heals(t: Table, w: Wizard, a: tuple[Any, ...]) -> int:
    """The damage a healing snap spell would heal on its caster with this payment: no more than
    the caster lacks, so an upgrade is paid only when it heals more."""
    snap = a[1]
    if not snap.get("heal"):
        return 0
    payment = a[3] if a[3] is not None else t.payment(w.elements, t.p.cost[snap.id])
    extra = t.extra([c for c, _ in payment.uses], t.p.cost[snap.id], snap["element"]) if snap.get("heal_per_extra") else 0
    return min(snap["heal"] + extra * (snap.get("heal_per_extra") or 0), t.c.starting_health - w.health)


def _waste(t: Table, w: Wizard, act: tuple[Any, ...]) -> int:
    payment = act[3] if act[3] is not None else t.payment(w.elements, t.p.cost[act[1].id])
    return sum(payment.wasted.values()) + len(payment.uses)


def choose_greedy(t: Table, w: Wizard) -> tuple[Any, ...]:
    groups, ready, enemies = t.options(w)
    spells = [("spell", card, b, payment) for kind, card, bodies, payment in groups if kind == "spell" for b in bodies]
    low = w.health <= t.c.starting_health // 3
    helps = [a for a in spells if a[2] is w and not a[1].get("damage") and (a[1].get("heal") or (a[1].get("strength") and not w.barrier))]
    if low and helps:
        return max(helps, key=lambda a: ((a[1].get("heal") or 0) + (a[1].get("strength") or 0), -_waste(t, w, a), a[1].id))
    summons = [a for a in spells if a[1].type == SUMMON]
    if summons:
        return max(summons, key=lambda a: (_creature_worth(t, w, a), -_waste(t, w, a), a[1].id))
    focus = _focus(t, w)
    if focus is None:
        return ("end",)
    scored = []
    for a in spells:
        card, aim = a[1], a[2]
        if not card.get("damage"):
            continue
        if card.get("area") == "opponents":
            score = sum(_preview(t, card, b) for b in t.enemies(w.seat))
        elif aim is focus:
            score = _preview(t, card, aim) + _splash(t, w, card, aim)
        else:
            continue
        if score > 0:
            scored.append((score, -_waste(t, w, a), card.id, a))
    if scored:
        return max(scored, key=lambda x: x[:3])[3]
    hexes = [a for a in spells if _hexes(t, w, a, focus)]
    if hexes:
        return min(hexes, key=lambda a: (_waste(t, w, a), a[1].id))
    if len(w.elements) > t.p.deal[0]:  # snap spells only from a hand with elements to spare
        snaps = [a for a in (("snap", card, b, payment) for kind, card, bodies, payment in groups if kind == "snap" for b in bodies)
                 if a[2] is focus and (a[1]["damage"] or a[1].get("wet")) or a[2] is w and a[1].get("heal")]
        if snaps:
            return min(snaps, key=lambda a: (-a[1]["damage"], -_heals(t, w, a), _waste(t, w, a), a[1].id))
    return ("attack", ready[0], focus) if ready and any(b is focus for b in enemies) else ("end",)


def _hexes(t: Table, w: Wizard, a: tuple[Any, ...], focus: Body) -> bool:
    """A hex worth casting: a discard, a theft or a freeze at the weakest opponent; a soaking when
    it is dry; roots on the strongest enemy creature; a swap for more spell cards."""
    card, aim = a[1], a[2]
    if card.get("roots"):
        return aim is max((b for b in t.creatures if b.owner != w.seat), key=lambda b: b.attack)
    if aim is not focus:
        return False
    if card.get("swaps_spells"):
        return isinstance(aim, Wizard) and len(aim.spells) > len(w.spells)
    return bool(card.get("discards") or card.get("steals") or card.get("freezes") or (card.get("wet") == "wets" and not aim.wet))


BY_NAME = {"random": choose_random, "greedy": choose_greedy}


def play(p: Prepared, rng: random.Random, k: int, policies: tuple[str, ...], cap: int, record: bool = False) -> Outcome:
    first = rng.randrange(k)  # the rulebook names no first player
    out = Outcome(winner=None, finished=False, first=first, turns=0, rounds=0, played=[Counter() for _ in range(k)])
    t = Table(p, rng, k, policies, out)
    for w in t.wizards:
        t.draw(w, *p.deal)
    pos, last = first, None  # type: int, int | None
    while out.turns < cap:
        standing = t.standing()
        if len(standing) <= 1:
            out.finished, out.winner = True, standing[0] if standing else None
            break
        w = t.wizards[t.order[pos]]
        if w.seat in standing:
            if w.frozen > 0:
                w.frozen -= 1
                out.figures["turns skipped frozen"] += 1
            else:
                t.turn += 1
                out.turns += 1
                out.rounds += last is None or (pos - first) % k <= (last - first) % k  # as the table counts them
                last = pos
                t.cast_this_turn = []
                t.start(w)
                if w.health > 0:
                    t.exchange(w)
                choose = BY_NAME[policies[w.seat]]
                for _ in range(ACTION_CAP):
                    act = choose(t, w)
                    if act[0] == "end":
                        break
                    t.do(w, act)
                    if len(t.standing()) <= 1:
                        break
                t.keep_hand(w)
        pos = (pos + 1) % k
    return out


LAB = Lab(
    ruleset=SLUG,
    policies=POLICIES,
    prepare=prepare,
    play=play,
    modelled=modelled,
    first_rule="a random seat (the rulebook names no first player)",
    turn_cap=400,
)
