"""Magicka Mayhem: paying for a spell, snap spells, a snap spell against a spell, and damage.

The pure rule functions come first; the tracker calls the ones it shares (a barrier absorbing
damage, what wetting, drying, zapping and freezing leave, which spells a snap spell can touch,
who musters). The helpers on top read their inputs from the YAML: element cards (`elements`,
`value`), spell cards (`cost`, `damage`, `wet`...), snap spells (`element`, `opposes`, `wet`)
and the constants.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Protocol, TypeVar

from ...models import Card, Game
from ...play.errors import Invalid
from ...play.helper import JSON, Field, Helper, Inputs, Option
from ...play.inputs import MAX_AMOUNT
from ...play.words import plain_text
from .ruleset import Constants, Mode, creature_name, opposite

SPELL_TYPES = ("spell", "summon")  # spell card spells: the card types of the spell deck
SUMMON_TYPE = "summon"
SNAP_TYPE = "snap"
# What a snap spell does to a spell card spell; the tracker's muster takes the same words.
INTERACTIONS = ("none", "countered", "reflected", "disrupted")
# Modes in which a snap spell may be cast at another spell. If none of the game's modes is named
# here, every mode allows it.
INTERACTIVE_MODES = ("spell-vs-spell",)
# Who draws on a Mayhem hit: as cast, the target flips and the caster draws; a countered spell
# musters for both; a reflected one for its new target, its caster; a disrupted one fails.
MUSTERS = {"none": ("caster",), "countered": ("caster", "target"), "reflected": ("caster",), "disrupted": ()}
WET_EFFECTS = {"wets": "made wet", "zaps": "zapped", "dries": "dried", "freezes": "frozen"}
# whom a creature's death reaches (decks.yaml's `death_to`)
DEATH_ITS_WIZARD, DEATH_OPPONENTS, DEATH_WIZARDS = "its wizard", "every opponent", "every wizard"
DEATH_WET_WIZARDS, DEATH_CREATURES = "every wet wizard", "every creature"
BARRIER_KEEPS = ("heal", "freeze", "wet", "zap")  # death effects a barrier keeps out

F = TypeVar("F")  # how frozen a target is: frozen or not here, for how many turns in the tracker


# ---------------------------------------------------------------------------- paying


Uses = tuple[tuple[Card, str], ...]  # each card spent, with the element it gives


@dataclass(frozen=True)
class Payment:
    uses: Uses
    missing: Mapping[str, int]  # elements the cost still lacks
    wasted: Mapping[str, int]  # elements given beyond the cost: they vanish

    @property
    def paid(self) -> bool:
        return not self.missing


def pay(hand: Sequence[Card], cost: Sequence[str]) -> Payment:
    """The best payment of `cost` from the element cards in `hand`.

    A card spent gives its whole worth (`value`) in ONE of the elements it shows: a combo or a
    wild card picks one, and no card is split. The search is exact, over how many copies of each
    card give each element; the best lacks least, then wastes least, then spends fewest cards
    that could have given another element (they are the handiest to keep), then fewest cards.
    """
    need = Counter(cost)
    wanted = tuple(need)
    by_id = {card.id: card for card in hand}
    # each group of copies of one card: the card, its copies, its worth, whether it could give
    # another element, and the wanted elements (their indices) it shows; read once, not per step
    groups = tuple((card, n, card["value"], len(card["elements"]) > 1,
                    tuple(j for j, element in enumerate(wanted) if element in card["elements"]))
                   for card, n in ((by_id[i], n) for i, n in Counter(card.id for card in hand).items()))
    last = len(groups)

    @cache
    def best(i: int, left: tuple[int, ...]) -> tuple[tuple[int, int, int, int], Uses]:
        """The best payment of `left` (of each wanted element) from the groups from the i-th on:
        (elements lacking, elements wasted, flexible cards spent, cards spent), and its cards."""
        if i == last:
            return (sum(left), 0, 0, 0), ()
        if not any(left):  # paid: every later group can only spend none (what the search finds, sooner)
            return (0, 0, 0, 0), ()
        card, copies, worth, flexible, gives = groups[i]
        found: tuple[tuple[int, int, int, int], Uses] | None = None
        for split in _splits(copies, [-(-left[j] // worth) for j in gives]):
            rest, waste = list(left), 0
            for j, k in zip(gives, split):
                covered = min(k * worth, rest[j])
                waste += k * worth - covered
                rest[j] -= covered
            (lack, wasted, handy, spent), plan = best(i + 1, tuple(rest))
            n = sum(split)
            key = (lack, wasted + waste, handy + n * flexible, spent + n)
            if found is None or key < found[0]:
                found = key, tuple((card, wanted[j]) for j, k in zip(gives, split) for _ in range(k)) + plan
        assert found is not None  # _splits yields at least once: spending none of the group
        return found

    _, uses = best(0, tuple(need.values()))
    given: Counter[str] = Counter()
    for card, element in uses:
        given[element] += card["value"]
    return Payment(
        uses,
        {e: need[e] - given[e] for e in wanted if given[e] < need[e]},
        {e: given[e] - need[e] for e in wanted if given[e] > need[e]},
    )


def _splits(copies: int, caps: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """Every way to spend at most `copies` cards, at most caps[j] of them on the j-th element."""
    if not caps:
        yield ()
        return
    if len(caps) == 1:  # the common case (a card showing one wanted element), without recursing
        for k in range(min(copies, caps[0]) + 1):
            yield (k,)
        return
    for k in range(min(copies, caps[0]) + 1):
        for rest in _splits(copies - k, caps[1:]):
            yield (k, *rest)


def most(hand: Sequence[Card], element: str) -> int:
    """The most of `element` the hand can give one spell (every card that shows it)."""
    return sum(card["value"] for card in hand if element in card["elements"])


def extra_paid(spent: Sequence[Card], cost: Sequence[str], element: str) -> int | None:
    """How many of `element` the cards spent give beyond `cost` (a combo or wild card giving it
    where it can), or None if they do not pay the cost at all."""
    if not pay(spent, cost).paid:
        return None
    extra = 0
    while extra < most(spent, element) and pay(spent, [*cost, *[element] * (extra + 1)]).paid:
        extra += 1
    return extra


def grown(attack: int, health: int, grows: str | None, extra: int, growth: int) -> tuple[int, int]:
    """A summoned creature's (attack, health): its card's, and `growth` more in what it `grows`
    for each extra element paid. The tracker's summon and the can-cast helper both use it."""
    if grows == "attack":
        return attack + extra * growth, health
    if grows == "health":
        return attack, health + extra * growth
    return attack, health


# ---------------------------------------------------------------------------- snap spells at spells


def held(cost: Sequence[str], threshold: int) -> tuple[str, ...]:
    """The elements `cost` holds `threshold` times or more: the ones a snap spell can counter or
    disrupt, and the ones a creature is weak or immune to."""
    return tuple(e for e, n in Counter(cost).items() if n >= threshold)


def interaction(c: Constants, snap: str, shield: bool, cost: Sequence[str]) -> str:
    """What a snap spell of element `snap` (with a reflect element, if `shield`) does to a spell
    of `cost`. A snap spell that both opposes one element the spell holds and matches another
    counters it: opposition explodes."""
    strong = held(cost, c.interaction_threshold)
    if opposite(c, snap) in strong:
        return "reflected" if shield else "countered"
    return "disrupted" if snap in strong else "none"


def interactive_modes(c: Constants) -> list[Mode]:
    """The modes in which a snap spell may be cast at a spell."""
    return [m for m in c.modes if m.id in INTERACTIVE_MODES] or list(c.modes)


def counter_damage(c: Constants, damage: int) -> int:
    """The damage a countered spell deals each of its caster and its target."""
    share, odd = divmod(damage, c.counter_damage_divisor)
    return share + (1 if odd and c.counter_damage_rounding == "up" else 0)


# ---------------------------------------------------------------------------- damage


def absorb(strength: int, amount: int) -> tuple[int, int, int]:
    """(absorbed, passed on, strength left) when `amount` hits a barrier of `strength`; a
    barrier left at 0 has collapsed."""
    absorbed = min(strength, amount)
    return absorbed, amount - absorbed, strength - absorbed


def after(effect: str, wet: bool, frozen: F, freeze: F) -> tuple[bool, F]:
    """A target's (wet, frozen) after `effect` lands on it: freezing sets `frozen` to `freeze`,
    and freezing, zapping and drying all leave it dry."""
    if effect == "wets":
        return True, frozen
    return False, freeze if effect == "freezes" else frozen


@dataclass(frozen=True)
class Attack:
    damage: int
    elements: tuple[str, ...] = ()  # what weak and immune look at: a spell's cost, a snap's pair
    wet: str | None = None  # what it does to wetness (WET_EFFECTS)
    instead: bool = False  # a snap spell: zapping, drying or freezing replaces its damage
    wet_bonus: int = 0
    wet_multiplier: int = 1
    frozen_multiplier: int = 1


@dataclass(frozen=True)
class Target:
    wet: bool = False
    frozen: bool = False
    barrier: int = 0  # strength of its shield barrier, 0 for none
    weak: tuple[str, ...] = ()
    immune: tuple[str, ...] = ()


@dataclass(frozen=True)
class Hit:
    damage: int  # what reaches the target's health
    absorbed: int
    barrier: int  # the barrier's strength after
    wet: bool
    frozen: bool
    effects: tuple[str, ...]  # WET_EFFECTS that landed
    spared: tuple[str, ...]  # WET_EFFECTS the barrier kept off
    steps: tuple[str, ...]  # the working, for a player


class HitRules(Protocol):
    """The numbers an attack landing needs: the game's constants, or the table's rules."""

    @property
    def zap_damage(self) -> int: ...
    @property
    def interaction_threshold(self) -> int: ...
    @property
    def weak_multiplier(self) -> int: ...
    @property
    def freeze_turns(self) -> int: ...


def hit(c: HitRules, attack: Attack, target: Target) -> Hit:
    """An attack landing on a target: wet bonus and wet effects (none through a barrier), the
    wet or frozen multiplier (once), weak or immune, then the barrier."""
    return _hit(c, attack, target, True)


def hit_unexplained(c: HitRules, attack: Attack, target: Target) -> Hit:
    """`hit` without its working (no steps): the lab lands hundreds of thousands of them."""
    return _hit(c, attack, target, False)


@cache
def _held(cost: tuple[str, ...], threshold: int) -> tuple[str, ...]:
    return held(cost, threshold)


def _hit(c: HitRules, attack: Attack, target: Target, explain: bool) -> Hit:
    damage, steps = attack.damage, [f"Damage: {attack.damage}."] if explain else []
    if target.wet and attack.wet_bonus:
        damage += attack.wet_bonus
        if explain:
            steps.append(f"Wet target: {attack.wet_bonus} more, {damage}.")
    effect = attack.wet if attack.wet == "wets" or (attack.wet and target.wet) else None
    wet, frozen = target.wet, target.frozen
    effects: tuple[str, ...] = ()
    spared: tuple[str, ...] = ()
    if effect and target.barrier:
        spared = (effect,)
        if explain:
            steps.append(f"The barrier keeps the target from being {WET_EFFECTS[effect]}.")
    elif effect:
        effects = (effect,)
        wet, frozen = after(effect, wet, frozen, True)
        damage = _wet_damage(c, attack, effect, damage)
        if explain:
            dry = "" if wet or effect == "dries" else "; it is dry now"
            steps.append(f"{_effect(c, effect).capitalize()}: {damage} damage{dry}.")
    times = max([1, attack.wet_multiplier if target.wet else 1, attack.frozen_multiplier if target.frozen else 1])
    if times > 1 and damage:
        damage *= times
        if explain:
            state = "wet" if target.wet and attack.wet_multiplier == times else "frozen"
            steps.append(f"Against a {state} target: times {times}, {damage}.")
    strong = _held(tuple(attack.elements), c.interaction_threshold)
    immune = [e for e in strong if e in target.immune]
    weak = [e for e in strong if e in target.weak]
    if immune and damage:
        damage = 0
        if explain:
            steps.append(f"Immune to {', '.join(immune)}: no damage.")
    elif weak and damage:
        damage *= c.weak_multiplier
        if explain:
            steps.append(f"Weak to {', '.join(weak)}: times {c.weak_multiplier}, {damage}.")
    absorbed, damage, left = absorb(target.barrier, damage)
    if absorbed and explain:
        steps.append(f"The barrier absorbs {absorbed}" + (f" and holds at {left}." if left else " and breaks."))
    return Hit(damage, absorbed, left, wet, frozen, effects, spared, tuple(steps))


def _wet_damage(c: HitRules, attack: Attack, effect: str, damage: int) -> int:
    """The damage once `effect` has landed on a wet target: a snap spell's zap replaces its
    damage and its drying or freezing deals none; a spell card's zap adds to its damage."""
    if effect == "zaps":
        return c.zap_damage if attack.instead else damage + c.zap_damage
    return 0 if attack.instead and effect != "wets" else damage


def _effect(c: HitRules, effect: str) -> str:
    turns = f" for {c.freeze_turns} turn{'s' * (c.freeze_turns != 1)}" if effect == "freezes" else ""
    return WET_EFFECTS[effect] + turns


# ---------------------------------------------------------------------------- the table's rules


def mustered(hits: int, out_of: int, randbelow: Callable[[int], int]) -> tuple[int, bool]:
    """A Mayhem Muster: the roll (1 to `out_of`) and whether it is a hit (`hits` or less)."""
    roll = randbelow(out_of) + 1
    return roll, roll <= hits


def may_attack(arrived: int, now: int, haste: bool) -> bool:
    """A creature that arrived in turn `arrived` may attack in turn `now`: not in the turn it
    arrived, unless its card says so."""
    return arrived < now or haste


def raised(shield_cost: int, strength: int, per_extra_shield: int, shields: int) -> int:
    """The strength of a barrier raised with `shields` Shield elements (shield_cost or more)."""
    return strength + (shields - shield_cost) * per_extra_shield


def repaired(strength: int, most: int, repair_per_shield: int, shields: int) -> int:
    """A barrier's strength once `shields` Shield elements repair it, never above its cast maximum."""
    return min(most, strength + shields * repair_per_shield)


def healed(health: int, most: int, amount: int) -> int:
    """A creature's health healed by `amount`: never above the health it arrived with `most`
    (and never lowered, if it is above that already)."""
    return max(health, min(most, health + amount))


def death_lands(does: str, barrier: bool, wet: bool) -> bool | None:
    """Whether a creature's death effect `does` lands on a target: None when the target's
    barrier keeps it out (healing, freezing, wetting, zapping), False when a zap finds it dry."""
    if does in BARRIER_KEEPS and barrier:
        return None
    return not (does == "zap" and not wet)


def death_barrier(strength: int, most: int, amount: int) -> tuple[int, int]:
    """(strength, maximum) of a target's barrier after a death raises one of `amount` around it:
    the stronger of the two."""
    return max(strength, amount), max(most, amount)


def reached(to: str, owner: int, standing: Sequence[int], wet: Collection[int]) -> list[int]:
    """The wizards (seats still standing, in order) a creature's death reaches; `to` is its card's
    `death_to`. Every creature (DEATH_CREATURES) is no wizard: the caller takes those."""
    return {
        DEATH_ITS_WIZARD: [i for i in standing if i == owner],
        DEATH_OPPONENTS: [i for i in standing if i != owner],
        DEATH_WIZARDS: list(standing),
        DEATH_WET_WIZARDS: [i for i in standing if i in wet],
    }.get(to, [])


# ---------------------------------------------------------------------------- reading the YAML


def _element_cards(game: Game) -> list[Card]:
    return [card for card in game.cards if card.get("elements") and card.get("value")]


def _spells(game: Game) -> list[Card]:
    return [card for card in game.cards if card.type in SPELL_TYPES and card.get("cost")]


def _snaps(game: Game) -> list[Card]:
    return [card for card in game.cards if card.type == SNAP_TYPE]


def _worth(card: Card) -> str:
    return f"worth {card['value']}: {' or '.join(card['elements'])}"


def _cost(card: Card) -> str:
    return ", ".join(card["cost"])


def _hand_field(game: Game) -> Field:
    cards = _element_cards(game)
    return Field("hand", "Element cards in hand", "many", tuple(Option(c.id, c.name, _worth(c)) for c in cards),
                 each=max((c.count for c in cards), default=1), hint="Pick a card again for each copy.")


def _spell_field(game: Game, label: str = "Spell") -> Field:
    return Field("spell", label, "choice", tuple(Option(c.id, c.name, _cost(c)) for c in _spells(game)))


def _hand(game: Game, ids: Sequence[str]) -> list[Card]:
    """The hand's cards; Invalid if it holds more copies of a card than the deck does."""
    cards = [game.card(i) for i in ids]
    for card_id, n in Counter(ids).items():
        card = game.card(card_id)
        if n > card.count:
            copies = "1 copy" if card.count == 1 else f"{card.count} copies"
            raise Invalid(f"the hand holds {n} {card.name}, but the deck has only {copies}")
    return cards


def _listed(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _elements(counts: Mapping[str, int]) -> str:
    return _listed([f"{n} {e}" for e, n in counts.items()])


def _spent(payment: Payment) -> list[JSON]:
    return [{"card": card.id, "name": card.name, "element": element, "worth": card["value"]}
            for card, element in payment.uses]


def _as(card: Card, element: str) -> str:
    return card.name if len(card["elements"]) == 1 else f"{card.name} as {element}"


# ---------------------------------------------------------------------------- can-cast


def _can_cast_fields(game: Game) -> list[Field]:
    return [_spell_field(game), _hand_field(game)]


def _can_cast(game: Game, inputs: Inputs) -> JSON:
    hand, spell = _hand(game, inputs["hand"]), game.card(inputs["spell"])
    payment = pay(hand, spell["cost"])
    details = [f"{spell.name} costs {_cost(spell)}."]
    details += [f"{_as(card, element)}: {card['value']} {element}" for card, element in payment.uses]
    names = _listed([_as(card, element) for card, element in payment.uses]) if payment.uses else ""
    if payment.paid:
        wasted = f"{_elements(payment.wasted)} wasted" if payment.wasted else "nothing wasted"
        verdict = f"Yes: pay with {names}; {wasted}."
        if payment.wasted:
            details.append(f"Wasted: {_elements(payment.wasted)} (excess elements vanish; no card is split between spells).")
    else:
        verdict = f"No: {_elements(payment.missing)} short" + (f" after {names}." if names else ".")
        details.append(f"Missing: {_elements(payment.missing)}.")
    left = Counter(card.id for card in hand)
    left.subtract(card.id for card, _ in payment.uses)
    kept = [card_id for card_id, n in left.items() for _ in range(n)]
    answer: JSON = {
        "verdict": verdict, "details": details, "spell": spell.id, "paid": payment.paid,
        "pay": _spent(payment), "wasted": dict(payment.wasted), "missing": dict(payment.missing), "kept": kept,
    }
    if spell.type == SUMMON_TYPE and payment.paid:
        answer["creature"] = _creature(game, spell, hand)
        details.append(answer["creature"]["line"])
    return answer


def _creature(game: Game, spell: Card, spent: Sequence[Card]) -> JSON:
    """The creature a summons brings when every card of `spent` is paid into it."""
    c = game.constants_as(Constants)
    grows, element = spell.get("grows"), spell.get("grows_with")
    extra = (extra_paid(spent, spell["cost"], element) or 0) if grows and element else 0
    growth = c.extra_element_growth or 0  # a card that grows has it: the ruleset's check says so
    attack, health = grown(spell["attack"], spell["health"], grows, extra, growth)
    name = creature_name(c, spell.name)
    line = f"{name} arrives with attack {attack} and health {health}"
    if grows and element:
        line += (f": the whole hand spent gives {extra} extra {element}, +{extra * growth} {grows}" if extra
                 else f"; each extra {element} paid gives it +{growth} {grows}")
    return {"name": name, "attack": attack, "health": health, "extra": extra, "line": line + "."}


# ---------------------------------------------------------------------------- snap-spells


def _snap_spells_fields(game: Game) -> list[Field]:
    return [_hand_field(game)]


def _snap_spells(game: Game, inputs: Inputs) -> JSON:
    c = game.constants_as(Constants)
    hand = _hand(game, inputs["hand"])
    snaps: list[JSON] = []
    details: list[str] = []
    for card in _snaps(game):
        element = card["element"]
        payment = pay(hand, [element] * c.snap_cost)
        counters = card.get("opposes")
        reflect = bool(counters) and payment.paid and pay(hand, [element] * c.snap_cost + [c.reflect_element]).paid
        snaps.append({"snap": card.id, "name": card.name, "element": element, "castable": payment.paid,
                      "pay": _spent(payment) if payment.paid else [], "wasted": dict(payment.wasted),
                      "most": most(hand, element), "reflect": reflect})
        if payment.paid:
            line = f"{card.name} ({c.snap_cost} {element}): pay with {_listed([_as(k, e) for k, e in payment.uses])}"
            line += f"; up to {snaps[-1]['most']} {element} in all" if snaps[-1]["most"] > c.snap_cost else ""
            line += f"; with a {c.reflect_element} too, it reflects a spell it counters" if reflect else ""
            details.append(line + ".")
    can = [s["name"] for s in snaps if s["castable"]]
    verdict = f"You can cast {_listed(can)}." if can else f"No snap spell: no {c.snap_cost} of one element."
    return {"verdict": verdict, "details": details or [f"A snap spell takes {c.snap_cost} of one element."], "snaps": snaps}


# ---------------------------------------------------------------------------- snap-vs-spell


def _snap_vs_spell_fields(game: Game) -> list[Field]:
    c = game.constants_as(Constants)
    snaps = tuple(Option(s.id, s.name, f"{c.snap_cost} {s['element']}" + (f" · counters {s['opposes']}" if s.get("opposes") else ""))
                  for s in _snaps(game))
    return [
        Field("snap", "Snap spell", "choice", snaps),
        Field("shield", f"With a {c.reflect_element} element", "flag", default=False,
              hint=f"A counter with one {c.reflect_element} reflects the spell at its caster."),
        _spell_field(game, "Spell it is cast at"),
    ]


def _snap_vs_spell(game: Game, inputs: Inputs) -> JSON:
    c = game.constants_as(Constants)
    snap, spell = game.card(inputs["snap"]), game.card(inputs["spell"])
    summon = spell.type == SUMMON_TYPE
    outcome = interaction(c, snap["element"], inputs["shield"], spell["cost"])
    details = [f"{spell.name} costs {_cost(spell)}.", _why(c, snap, spell, outcome)]
    if inputs["shield"] and outcome != "reflected":
        details.append(f"The {c.reflect_element} adds nothing: only a spell that is countered can be reflected.")
    if summon and outcome == "reflected":
        outcome = "countered"
        details.append("A summons is cast at no one, so there is no one to reflect it at: it is countered.")
    damage = spell.get("damage", 0)
    hits = {"none": {"target": damage}, "countered": {"caster": counter_damage(c, damage), "target": counter_damage(c, damage)},
            "reflected": {"caster": damage}, "disrupted": {}}[outcome]
    musters = () if summon else MUSTERS[outcome]
    parties = {role: {"damage": hits.get(role, 0), "effects": role in hits, "mayhem": role in musters}
               for role in ("caster", "target")}
    if outcome == "countered" and damage:
        details.append(f"Caster and target each take all its effects and {damage} ÷ {c.counter_damage_divisor} = "
                       f"{hits['caster']} damage (rounded {c.counter_damage_rounding}).")
    if outcome == "reflected":
        details.append("Its caster may snap back at it in turn, like any spell.")
    details.append("Summons are never mustered for Mayhem." if summon else {
        "none": "Mayhem Muster as usual: the target flips, the caster draws.",
        "countered": "Caster and target both muster for Mayhem.",
        "reflected": "Only its new target, the caster, musters for Mayhem.",
        "disrupted": "A disrupted spell fails, so it is not mustered for Mayhem.",
    }[outcome])
    if outcome != "none":
        details.append(f"Cast at a spell, {snap.name} deals no damage of its own.")
    details.append(f"Snap spells are cast at spells only in {_listed([m.name for m in interactive_modes(c)])}.")
    return {"verdict": _snap_verdict(c, snap, spell, outcome, hits.get("caster", 0)), "details": details,
            "outcome": outcome, "damage": damage, **parties, "mayhem": list(musters)}


def _why(c: Constants, snap: Card, spell: Card, outcome: str) -> str:
    strong = held(spell["cost"], c.interaction_threshold)
    n, element = c.interaction_threshold, snap["element"]
    if not strong:
        return f"Only a spell that holds {n} or more of one element can be countered, disrupted or reflected."
    if outcome == "none":
        return f"It holds {_listed([f'{n}+ {e}' for e in strong])}; {snap.name}'s {element} neither opposes nor matches that."
    if outcome == "disrupted":
        return f"{snap.name}'s {element} matches the {n}+ {element} it holds."
    return f"{snap.name}'s {element} opposes the {n}+ {opposite(c, element)} it holds."


def _snap_verdict(c: Constants, snap: Card, spell: Card, outcome: str, each: int) -> str:
    name = spell.name
    if outcome == "none" and not held(spell["cost"], c.interaction_threshold):
        return f"Nothing: {name} holds no element {c.interaction_threshold} times, so it cannot be countered, disrupted or reflected."
    if outcome == "none":
        return f"Nothing: {snap.name} does not touch {name}; it goes on as cast."
    if spell.type == SUMMON_TYPE:
        return f"{outcome.capitalize()}: {name} {'explodes' if outcome == 'countered' else 'fails'}, and no creature arrives."
    taken = f"{each} damage and all its effects" if each else "all its effects"
    return {
        "countered": f"Countered: {name} explodes; its caster and its target each take {taken}, and both muster for Mayhem.",
        "reflected": f"Reflected: {name} turns back on its caster, who takes {taken} and alone musters for Mayhem; "
                     "the target is untouched.",
        "disrupted": f"Disrupted: {name} fails with no effect, and no Mayhem.",
    }[outcome]


# ---------------------------------------------------------------------------- damage


def _sources(game: Game) -> list[Card]:
    spells = [s for s in _spells(game) if s.type != SUMMON_TYPE and (s.get("damage") or s.get("wet"))]
    return spells + [s for s in _snaps(game) if s.get("damage") or s.get("wet")]


def _damage_fields(game: Game) -> list[Field]:
    c = game.constants_as(Constants)
    sources = tuple(
        Option(s.id, s.name, f"{s.get('damage', 0)} damage · " + (_cost(s) if s.get("cost") else f"{c.snap_cost} {s['element']}"))
        for s in _sources(game)
    )
    creatures = tuple(
        Option(s.id, s.name, " · ".join(f"{k} {', '.join(s.get(k))}" for k in ("weak", "immune") if s.get(k)))
        for s in _spells(game) if s.type == SUMMON_TYPE
    )
    return [
        Field("source", "Spell or snap spell", "choice", sources, required=False,
              hint="Or choose none and type plain damage below (a creature's attack, a Mayhem card)."),
        Field("amount", "Plain damage", "number", default=0, low=0, high=MAX_AMOUNT, hint="Only with no spell chosen."),
        Field("creature", "Target creature", "choice", creatures, required=False, hint="None: the target is a wizard."),
        Field("wet", "Target is wet", "flag", default=False),
        Field("frozen", "Target is frozen", "flag", default=False),
        Field("barrier", "Target's barrier strength", "number", default=0, low=0, high=MAX_AMOUNT, hint="0 for no barrier."),
    ]


def _attack(game: Game, inputs: Inputs) -> tuple[Attack, str]:
    c = game.constants_as(Constants)
    if inputs["source"] is not None and inputs["amount"]:
        raise Invalid("choose a spell or snap spell, or type plain damage, not both")
    if inputs["source"] is None:
        return Attack(inputs["amount"]), "Plain damage"
    card = game.card(inputs["source"])
    if card.type == SNAP_TYPE:
        return Attack(card["damage"], (card["element"],) * c.snap_cost, card.get("wet"), instead=True), card.name
    return Attack(card.get("damage", 0), tuple(card["cost"]), card.get("wet"), wet_bonus=card.get("wet_bonus", 0),
                  wet_multiplier=card.get("wet_multiplier", 1), frozen_multiplier=card.get("frozen_multiplier", 1)), card.name


def _damage(game: Game, inputs: Inputs) -> JSON:
    c = game.constants_as(Constants)
    attack, source = _attack(game, inputs)
    creature = game.card(inputs["creature"]) if inputs["creature"] else None
    who = creature.name if creature else "the wizard"
    target = Target(inputs["wet"], inputs["frozen"], inputs["barrier"],
                    tuple(creature.get("weak") or ()) if creature else (), tuple(creature.get("immune") or ()) if creature else ())
    result = hit(c, attack, target)
    done = [_effect(c, e) for e in result.effects]
    verdict = f"{result.damage} damage to {who}" if result.damage else f"No damage to {who}"
    if result.absorbed:
        verdict += f"; the barrier absorbs {result.absorbed} and " + (f"holds at {result.barrier}" if result.barrier else "breaks")
    if done:
        verdict += f"; {who} is {_listed(done)}"
    if result.spared:
        verdict += f"; the barrier spares {who} from being {_listed([WET_EFFECTS[e] for e in result.spared])}"
    traits = f" (weak to {', '.join(target.weak)}; immune to {', '.join(target.immune) or 'nothing'})" if creature else ""
    details = [f"{source} against {who}{traits}.", *result.steps]
    if target.barrier:
        details.append("A target behind a barrier cannot be healed, frozen, zapped, dried or made wet.")
    if inputs["source"] and game.card(inputs["source"]).type != SNAP_TYPE:
        text = plain_text(game.card(inputs["source"])["text"], [e.name for e in game.elements])
        details.append(f"Its card says (only the wet and frozen parts are counted here): {text}")
    return {
        "verdict": verdict + ".", "details": details, "damage": result.damage, "absorbed": result.absorbed,
        "barrier": result.barrier, "broken": bool(target.barrier) and not result.barrier,
        "wet": result.wet, "frozen": result.frozen, "effects": list(result.effects), "spared": list(result.spared),
    }


HELPERS = {
    "can-cast": Helper("can-cast", "Can I cast it?", "Can my element cards pay for this spell, and what is wasted?",
                       _can_cast_fields, _can_cast),
    "snap-spells": Helper("snap-spells", "Snap spells", "Which snap spells can my hand make?",
                          _snap_spells_fields, _snap_spells),
    "snap-vs-spell": Helper("snap-vs-spell", "Snap spell at a spell",
                            "Does my snap spell counter, disrupt or reflect that spell, and who takes what?",
                            _snap_vs_spell_fields, _snap_vs_spell),
    "damage": Helper("damage", "Damage", "How much damage gets through, and what else happens to the target?",
                     _damage_fields, _damage),
}
