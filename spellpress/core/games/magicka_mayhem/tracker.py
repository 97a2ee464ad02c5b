"""Magicka Mayhem: turns, creatures, shield barriers, wet and frozen, and the Mayhem Muster.

The Mayhem Muster of a spell card spell is flipped on the server at the table's Mayhem level
(the YAML's `mayhem_levels`: always, a coin, a die, or a chance of the table's own); on a hit
the wizard who musters may draw the top card of the YAML's Mayhem deck, shuffled on the server
(and again from the discards whenever it runs out), its order hidden from every phone. A
countered spell musters for its caster and its target, a reflected one for its new target (its
caster) alone, a disrupted one and summons not at all.

Creatures belong to the wizard who summoned them and stay in play when that wizard dies: a dead
wizard with creatures still takes turns, and wins if only they (or their creatures) stand. A
creature is named for its card's creature (the card's name less the YAML's `summon_prefix`). It
cannot attack in the turn it arrived, unless its card says so (`haste`); a card that `grows`
adds to its attack or health for each extra element paid into it (the cards paid are checked,
and the extra found, by the can-cast helper's own functions); healing never takes it above the
health it arrived with. When it is destroyed, its card's `death` happens to its `death_to`
(damage, healing, freezing, wetting, a zap or a barrier, by the rules of each), and a creature
that destroys in turn has its own death happen after. A shield barrier, on any wizard or creature,
absorbs damage up to its strength; a target behind one cannot be healed, frozen, zapped, dried
or made wet. A frozen wizard skips their next turn.

Turns go clockwise in the order of play (a start of turn that skips a living, unfrozen wizard is
refused); a round begins when play comes round to the first player's seat, or past it. Spell
card spells, summons and musters are made on their caster's turn alone; snap spells at any time.
A spell card spell may be cast whole (`cast`): its Muster, the Mayhem card drawn, and what the
card's fields do (decks.yaml: damage and the wet effects by the helpers' `hit`, weak and immune
creatures, areas, splashes, chains, drains, boosts, beams that burn on the caster's next turns,
barriers that mirror or chill, roots), changed as the Mayhem card's fields say (whom it lands on,
times, divided, plus, inverted, a bounce, a bubble, failing, slowed to the caster's next turn,
the caster frozen or wet or burning, others healed, a downpour, seats traded). A snap spell
(`snap`) deals its damage and wet effect, heals (more for each extra element paid), or raises or
repairs a barrier. What cards do to hands is the players' own: the table keeps no hands.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, NotRequired, TypedDict, cast

from ... import ruletext
from ...models import Card, Game, field_says
from ...play import units
from ...play.errors import Conflict, Invalid
from ...play.inputs import MAX_AMOUNT, card_of, choice, flag, label, whole
from ...play.state import (
    Ending,
    RandBelow,
    TableState,
    mine,
    move,
    name,
    pad_players,
    player,
    settled,
    settled_players,
    shuffled,
    value,
    with_mine,
    with_tracker,
    won_by,
)
from ...play.tracker import Action, Data, Sent, Tracker
from ...play.words import ARROW, and_, plain_text, plural
from .helpers import (
    DEATH_CREATURES,
    DEATH_ITS_WIZARD,
    INTERACTIONS,
    MUSTERS,
    SNAP_TYPE,
    SPELL_TYPES,
    SUMMON_TYPE,
    Attack,
    Hit,
    absorb,
    after,
    death_barrier,
    death_lands,
    extra_paid,
    grown,
    healed,
    held,
    hit_unexplained,
    interactive_modes,
    may_attack,
    mustered,
    pay,
    raised,
    reached,
    repaired,
)
from .helpers import Target as Struck
from .ruleset import Constants, creature_name

HEALTH = "health"  # the counter that holds a wizard's health (game.yaml's counters)
ITS_WIZARD, CREATURES = DEATH_ITS_WIZARD, DEATH_CREATURES
MAYHEM_DECK = MAYHEM_TYPE = "mayhem"  # the deck of Mayhem cards, and their card type (decks.yaml)


class Level(TypedDict):
    id: str
    name: str
    method: str  # always, coin, die or custom
    hits: int  # a hit is a roll of `hits` or less out of `out_of`
    out_of: int


class MayhemCard(TypedDict):
    id: str
    name: str
    text: str
    count: int


class Spell(TypedDict):
    id: str
    name: str
    summon: bool
    cost: list[str]
    text: NotRequired[str]  # its card's text, as a phone shows it
    attack: NotRequired[int]  # a summon's
    health: NotRequired[int]
    creature: NotRequired[str]  # a summon's creature, as it is called in play
    haste: NotRequired[bool]  # it may attack on the turn it arrives
    grows: NotRequired[str | None]  # attack or health: what each extra `grows_with` paid adds to
    grows_with: NotRequired[str | None]
    death: NotRequired[Death | None]  # what happens when it is destroyed
    weak: NotRequired[list[str]]  # a summon's creature takes weak_multiplier times from spells holding these
    immune: NotRequired[list[str]]  # ... and nothing from spells holding these
    soaks: NotRequired[bool]  # whatever its creature attacks becomes wet
    tends: NotRequired[int]  # its creature heals this much from its wizard or one of their creatures, once a turn


class Death(TypedDict):
    """What a creature's card does when it is destroyed (decks.yaml's summon fields)."""

    does: str  # damage, heal, freeze, wet, zap or barrier
    to: str  # its wizard, every opponent, every wizard, every wet wizard or every creature
    amount: int | None  # damage, healing, a barrier's strength
    text: str  # as its card says it


class ElementCard(TypedDict):
    id: str
    name: str
    value: int
    elements: list[str]
    count: int


class BarrierRules(TypedDict):
    shield_cost: int
    strength: int
    per_extra_shield: int
    repair_per_shield: int


class Rules(TypedDict):
    health: str
    levels: list[Level]
    mayhem: list[MayhemCard]
    spells: list[Spell]
    threshold: int
    barrier: BarrierRules
    freeze_turns: int
    zap_damage: int
    interactive_modes: list[str]
    elements: NotRequired[list[ElementCard]]  # the element cards a summons is paid with
    growth: NotRequired[int]  # what a growing creature gains for each extra element paid
    weak_multiplier: NotRequired[int]
    snap_cost: NotRequired[int]
    # what each spell card spell, snap spell and Mayhem card does, as its card's fields say (the
    # fields of SPELL_EFFECTS, SNAP_EFFECTS and MAYHEM_EFFECTS): a cast and a snap apply them
    effects: NotRequired[dict[str, dict[str, Any]]]


class Barrier(TypedDict):
    strength: int
    max: int
    mirrors: NotRequired[bool]  # damage it absorbs from a spell is dealt to that spell's caster
    chills: NotRequired[bool]  # a creature attacking through it is frozen


class Status(TypedDict, total=False):
    """What a wizard and a creature both may be: wet, frozen (for turns) and behind a barrier."""

    wet: bool
    frozen: int
    barrier: Barrier | None


class Creature(units.Unit):
    card: str | None  # the summon's card, or None for one typed in
    haste: NotRequired[bool]  # may attack in the turn it arrives (its card says so)
    held: int | None  # the turn it was frozen in, and could not attack
    wet: bool
    frozen: int
    barrier: Barrier | None
    rooted: NotRequired[int]  # turns of its wizard it is held by roots
    tended: NotRequired[int]  # the turn it last tended its side


class DeckCount(TypedDict):
    size: int
    left: int
    discard: int


class Fields(TypedDict):
    turn: int  # the number of the turn being played
    player: int | None  # whose turn it is
    next: int | None
    first: NotRequired[int | None]  # who played the game's first turn: a round begins with them
    turns: NotRequired[int]  # turns played (a frozen wizard's skipped turn is none)
    rounds: NotRequired[int]  # rounds begun: play came round to the first player's seat again (or past it)
    order: NotRequired[list[int]]  # the seats in the order of play (a Mayhem card may trade two places)
    cast: NotRequired[list[str]]  # the spell card spells cast this turn (a boost looks at them)
    beams: NotRequired[list[Beam]]  # beams still burning, ticked at the start of their caster's turns
    pending: NotRequired[list[Pending]]  # slowed spells: they land at the start of their caster's next turn
    level: Level  # the table's Mayhem level
    units: list[Creature]
    next_unit: int
    deck: DeckCount  # the Mayhem deck
    last_muster: Data | None  # the latest Mayhem Muster, as its event says it
    winner: int | None
    over: bool


class Beam(TypedDict):
    caster: int
    spell: str
    target: int | str  # a seat or a creature's id
    left: int  # turns it has still to burn
    scale: list[int]  # times, divided by, plus, inverted (0 or 1): as a Mayhem card changed it


class Pending(TypedDict):
    caster: int
    spell: str
    target: int | str


class Burn(TypedDict):
    amount: int
    left: int


class Mine(TypedDict):
    dead: bool
    wet: bool
    frozen: int
    barrier: Barrier | None
    burn: NotRequired[Burn | None]  # damage at the start of each of their next turns, unless wet


class Hidden(TypedDict):
    pile: list[str]  # the Mayhem cards not shuffled yet
    deck: list[str]  # the shuffled deck, top first
    discard: list[str]


State = TableState[Fields, Mine, Rules, Hidden]
Target = tuple[Literal["player"], int] | tuple[Literal["unit"], str]


def _death_of(game: Game, card: Card, elements: list[str]) -> Death | None:
    said = field_says(card.fields, game.card_types[card.type], "death") if card.get("death") else None
    if said is None:
        return None
    text, _ = ruletext.render(said, game.text_context)  # its card's text rendered the same sentence already
    return {"does": card["death"], "to": card.get("death_to") or ITS_WIZARD, "amount": card.get("death_amount"),
            "text": plain_text(text or "", elements)}


def _spell(game: Game, c: Constants, card: Card, elements: list[str]) -> Spell:
    spell: Spell = {"id": card.id, "name": card.name, "summon": card.type == SUMMON_TYPE, "cost": list(card.get("cost", ())),
                    "text": plain_text(card.get("text", ""), elements)}
    if card.type == SUMMON_TYPE:
        spell["weak"], spell["immune"] = list(card.get("weak") or ()), list(card.get("immune") or ())
        spell["soaks"] = bool(card.get("soaks"))
        if card.get("tends"):
            spell["tends"] = card["tends"]
        spell["attack"], spell["health"] = card.get("attack", 0), card.get("health", 1)
        spell["creature"], spell["haste"] = creature_name(c, card.name), bool(card.get("haste"))
        spell["grows"], spell["grows_with"] = card.get("grows"), card.get("grows_with")
        spell["death"] = _death_of(game, card, elements)
    return spell


def _json(field: Any) -> Any:
    """A card's field as the table's JSON state keeps it (a cost's tuple as a list)."""
    return list(field) if isinstance(field, tuple) else field


_READ: dict[str, tuple[Game, Rules | None]] = {}  # each game's rules, as last read from it (by its slug)


def rules(game: Game, created: Mapping[str, Any]) -> Rules | None:
    """The game's rules for a table: read once from a loaded game (the lab starts thousands of
    tables of it; a state is never changed in place, so they may share them), again when it is
    loaded anew."""
    found = _READ.get(game.slug)
    if found is None or found[0] is not game:
        found = _READ[game.slug] = (game, _rules(game))
    return found[1]


def _rules(game: Game) -> Rules | None:
    c = game.constants_as(Constants)
    if not any(counter.id == HEALTH and counter.scope == "player" for counter in game.counters):
        return None
    elements = [e.name for e in game.elements]
    deck = game.decks.get(MAYHEM_DECK)
    spells = [card for card in game.cards if card.type in SPELL_TYPES]
    return {
        "health": HEALTH,
        "levels": [{"id": lv.id, "name": lv.name, "method": lv.method, "hits": lv.hits, "out_of": lv.out_of} for lv in c.mayhem_levels],
        "mayhem": [
            {"id": card.id, "name": card.name, "text": plain_text(card.get("text", ""), elements), "count": card.count}
            for card in (deck.cards if deck else ())
        ],
        "spells": [_spell(game, c, card, elements) for card in spells],
        "elements": [{"id": card.id, "name": card.name, "value": card["value"], "elements": list(card["elements"]), "count": card.count}
                     for card in game.cards if card.get("elements") and card.get("value")],
        "growth": c.extra_element_growth or 0,
        "weak_multiplier": c.weak_multiplier,
        "snap_cost": c.snap_cost,
        "effects": {card.id: {"name": card.name, **{f: _json(card[f]) for f in fields if card.get(f) is not None}}
                    for card in game.cards for fields in [_EFFECTS.get(card.type, ())] if fields},
        "threshold": c.interaction_threshold,
        "barrier": {
            "shield_cost": c.barrier.shield_cost, "strength": c.barrier.strength,
            "per_extra_shield": c.barrier.per_extra_shield, "repair_per_shield": c.barrier.repair_per_shield,
        },
        "freeze_turns": c.freeze_turns,
        "zap_damage": c.zap_damage,
        "interactive_modes": [m.id for m in interactive_modes(c)],
    }


PLAYER: Mine = {"dead": False, "wet": False, "frozen": 0, "barrier": None}
# The fields a cast or a snap applies, by card type (decks.yaml says what each does). A Mayhem
# card's fields on hands (draws, discards, keeps, swaps_elements) and its free snap spell are the
# players' own to play: a table keeps no hands.
SPELL_EFFECTS = ("cost", "damage", "wet", "wet_bonus", "wet_multiplier", "frozen_multiplier", "area", "turns", "heal",
                 "strength", "boost", "boost_with", "splash", "chains", "drains", "frozen_bonus", "breaks_barrier",
                 "mirrors", "chills", "thaws", "freezes", "roots")
SNAP_EFFECTS = ("element", "damage", "wet", "heal", "heal_per_extra", "raises_barrier")
MAYHEM_EFFECTS = ("lands_on", "times", "divided_by", "plus", "inverts", "bounce_divided_by", "bubble", "fails",
                  "delayed", "caster", "burns", "burn_turns", "others_heal", "downpour", "swaps_seats")
_EFFECTS = {"spell": SPELL_EFFECTS, SNAP_TYPE: SNAP_EFFECTS, MAYHEM_TYPE: MAYHEM_EFFECTS}



def _level(rules: Rules, level_id: str | None) -> Level:
    return next((lv.copy() for lv in rules["levels"] if lv["id"] == level_id), rules["levels"][0].copy())


def initial(state: State) -> State:
    r = state["rules"]
    cards = [card["id"] for card in r["mayhem"] for _ in range(card["count"])]
    tracker: Fields = {
        "turn": 0,
        "player": None,
        "next": None,
        "first": None,
        "turns": 0,
        "rounds": 0,
        "order": list(range(len(state["players"]))),
        "cast": [],
        "beams": [],
        "pending": [],
        "level": _level(r, state["options"].get("mayhem")),
        "units": [],
        "next_unit": 1,
        "deck": {"size": len(cards), "left": len(cards), "discard": 0},
        "last_muster": None,
        "winner": None,
        "over": False,
    }
    # Cards not yet shuffled ("pile"), the shuffled deck, and the discards: the first draw shuffles.
    return {**state, "tracker": tracker, "hidden": {"pile": cards, "deck": [], "discard": []}}


# ---------------------------------------------------------------------------- settling


def _standing(state: State, i: int) -> bool:
    return value(state, HEALTH, i) > 0 or bool(units.owned(state["tracker"]["units"], i))


def _order(state: State) -> list[int]:
    """The seats in the order of play: round the table, unless a Mayhem card traded places."""
    order = state["tracker"].get("order") or []
    n = len(state["players"])
    return order + list(range(len(order), n)) if len(order) < n else order


def _next_after(state: State, current: int | None) -> int | None:
    order = _order(state)
    n = len(order)
    at = order.index(current) + 1 if current is not None else order.index(state.get("first_player") or 0)
    for step in range(n):
        i = order[(at + step) % n]
        if _standing(state, i):
            return i
    return None


def settle(state: State) -> State:
    state = pad_players(state, PLAYER)
    state = settled_players(state, lambda i, p: {**p["tracker"], "dead": p["counters"].get(HEALTH, 0) <= 0})
    n = len(state["players"])
    t = state["tracker"]
    standing = [i for i in range(n) if _standing(state, i)]
    over = n >= 2 and len(standing) <= 1
    turn = t["turn"]
    ready: list[Creature] = []
    moved = False
    for u in t["units"]:
        can = (u["owner"] == t["player"] and may_attack(u["turn"], turn, bool(u.get("haste")))
               and u.get("attacked") != turn and u.get("held") != turn)
        moved |= u.get("ready") != can
        ready.append(u if u.get("ready") == can else {**u, "ready": can})
    return settled(state, lambda f: {
        **f, "units": ready if moved else t["units"], "over": over, "winner": standing[0] if over and standing else None,
        "next": None if over else _next_after(state, t["player"]),
    })


def _the_end(state: State) -> Ending:
    """The end every phone shows at its top: the last wizard standing wins."""
    return won_by(state, state["tracker"]["winner"], "Nobody is left standing.")


def _refuse_if_over(state: State) -> None:
    t = state["tracker"]
    if t["over"]:
        won = f"{name(state, t['winner'])} has won" if t["winner"] is not None else "nobody is standing"
        raise Conflict(f"the game is over: {won}")


def _own_turn(state: State, who: int, doing: str) -> None:
    """Spell card spells (summons among them) are cast during their caster's turn alone; snap
    spells, which the tracker takes as their effects, may be cast at any time."""
    current = state["tracker"]["player"]
    if current is None:
        raise Invalid(f"no turn has started: start {name(state, who)}'s turn first")
    if current != who:
        raise Invalid(f"spell card spells must be cast during the casting wizard's turn: {name(state, who)} {doing} "
                      f"on their own turn, and it is {name(state, current)}'s")


def _alive(state: State, i: int, doing: str) -> None:
    if mine(state, i).get("dead"):
        raise Invalid(f"{name(state, i)} is dead, and dead wizards {doing}")


# ---------------------------------------------------------------------------- targets


def _units(state: State, uid: str, unit: Creature | None) -> State:
    """The state with unit `uid` changed to `unit`, or gone if `unit` is None."""
    return with_tracker(state, lambda f: {**f, "units": units.replaced(f["units"], uid, unit)})


def _holder(state: State, target: Target) -> Mine | Creature:
    """The status fields (wet, frozen, barrier) of a wizard or a creature."""
    if target[0] == "player":
        return mine(state, target[1])
    return units.find(state["tracker"]["units"], target[1])


def _set(state: State, target: Target, status: Status) -> State:
    if target[0] == "player":
        return with_mine(state, target[1], lambda m: {**m, **status})
    unit = units.get(state["tracker"]["units"], target[1])
    return _units(state, target[1], {**unit, **status}) if unit else state


def _called(state: State, target: Target) -> str:
    if target[0] == "player":
        return name(state, target[1])
    unit = units.get(state["tracker"]["units"], target[1])
    return units.called(state, unit) if unit else "a creature"


def _target(state: State, action: Sent, key: str = "target") -> Data:
    kind, ref = units.target(state, state["tracker"]["units"], action.get(key), key)
    return {key: ref}


def _ref(data: Mapping[str, Any], key: str = "target") -> Target:
    ref = data[key]
    return ("unit", ref) if isinstance(ref, str) else ("player", ref)


def _exists(state: State, target: Target) -> bool:
    return target[0] == "player" or units.get(state["tracker"]["units"], target[1]) is not None


def _hurt(state: State, target: Target, amount: int, deaths: bool = False) -> tuple[State, Data]:
    """Damage through the target's barrier first; a creature at 0 health is destroyed, and its
    card's death happens (`deaths`: false for an action logged before deaths were the tracker's)."""
    holder = _holder(state, target)
    result: Data = {}
    barrier = holder.get("barrier")
    if barrier:
        absorbed, amount, left = absorb(barrier["strength"], amount)
        state = _set(state, target, {"barrier": {**barrier, "strength": left} if left else None})
        result.update(absorbed=absorbed, barrier=left)
    state, wounded = _wound(state, target, amount, deaths)
    return state, {**result, **wounded}


def _wound(state: State, target: Target, amount: int, deaths: bool = True) -> tuple[State, Data]:
    """Damage past any barrier: a wizard's health falls (never below 0); a creature at 0 health is
    destroyed, and its card's death happens (`deaths`)."""
    result: Data = {}
    if target[0] == "player":
        state, before, after = move(state, HEALTH, -amount, target[1])
        result.update({"from": before, "to": after})
    else:
        ref = target[1]
        unit = units.find(state["tracker"]["units"], ref)
        health = unit["health"] - amount
        result.update({"from": unit["health"], "to": max(health, 0)})
        if health <= 0:
            state = _units(state, ref, None)
            result["destroyed"] = True
            if deaths:
                state, happened = _deaths(state, [unit])
                if happened:
                    result["deaths"] = happened
        else:
            state = _units(state, ref, {**unit, "health": health})
    return state, result


def _hurt_text(state: State, data: Mapping[str, Any], target: Target, who: str) -> str:
    text = ""
    if data.get("absorbed"):
        text += f" The barrier absorbs {data['absorbed']}" + ("." if data.get("barrier") else " and collapses.")
    if "to" in data and data["to"] != data["from"]:
        text += f" {who}: health {data['from']} {ARROW} {data['to']}."
    if data.get("destroyed"):
        text += f" {who} is destroyed."
    for i, death in enumerate(data.get("deaths", [])):
        text += f" {death['text']}" if i == 0 else f" {death['creature']}: {death['text']}"
        for effect in death["effects"]:
            text += _effect_text(effect)
    return text


# ---------------------------------------------------------------------------- deaths


def _deaths(state: State, fallen: list[Creature]) -> tuple[State, list[Data]]:
    """What the cards of the creatures destroyed say happens, one after another: a creature that
    a death destroys in turn has its own death happen after."""
    queue, happened = list(fallen), []
    while queue:
        unit = queue.pop(0)
        spell = next((s for s in state["rules"]["spells"] if s["id"] == unit.get("card")), None)
        death = spell.get("death") if spell else None
        if not death:
            continue
        effects: list[Data] = []
        for target in _reached(state, unit["owner"], death["to"]):
            if _exists(state, target):
                state, effect = _death_effect(state, death, target, queue)
                if effect:
                    effects.append(effect)
        happened.append({"creature": units.called(state, unit), "text": death["text"], "effects": effects})
    return state, happened


def _reached(state: State, owner: int, to: str) -> list[Target]:
    """Whom a death reaches: wizards still standing, or every creature in play."""
    if to == CREATURES:
        return [("unit", u["id"]) for u in state["tracker"]["units"]]
    standing = [i for i in range(len(state["players"])) if value(state, HEALTH, i) > 0]
    wet = [i for i in standing if mine(state, i).get("wet")]
    return [("player", i) for i in reached(to, owner, standing, wet)]


def _death_effect(state: State, death: Death, target: Target, fallen: list[Creature]) -> tuple[State, Data | None]:
    """A death's effect on one target, by the rules of damage, healing, wetness and barriers;
    creatures it destroys are added to `fallen`."""
    r, who, holder = state["rules"], _called(state, target), _holder(state, target)
    does, amount = death["does"], death.get("amount") or 0
    lands = death_lands(does, bool(holder.get("barrier")), bool(holder.get("wet")))
    if lands is None:
        return state, {"who": who, "kept": True}
    if not lands:
        return state, None
    unit = units.get(state["tracker"]["units"], target[1]) if target[0] == "unit" else None
    if does in ("damage", "zap"):
        if does == "zap":
            wet, frozen = after("zaps", bool(holder.get("wet")), holder.get("frozen", 0), r["freeze_turns"])
            state = _set(state, target, {"wet": wet, "frozen": frozen})
            amount = r["zap_damage"]
        state, result = _hurt(state, target, amount)
        if unit is not None and result.get("destroyed"):
            fallen.append(unit)
        return state, {"who": who, "damage": amount, **result}
    if does == "heal":
        if unit is not None:
            health = healed(unit["health"], unit["max"], amount)
            return _units(state, unit["id"], {**unit, "health": health}), {"who": who, "from": unit["health"], "to": health}
        assert target[0] == "player"  # a creature was healed above
        state, before, now = move(state, HEALTH, amount, target[1])
        return state, {"who": who, "from": before, "to": now}
    if does in ("freeze", "wet"):
        effect = "freezes" if does == "freeze" else "wets"
        wet, frozen = after(effect, bool(holder.get("wet")), holder.get("frozen", 0), r["freeze_turns"])
        return _set(state, target, {"wet": wet, "frozen": frozen}), {"who": who, does: True}
    old = holder.get("barrier") or {"strength": 0, "max": 0}
    strength, most = death_barrier(old["strength"], old["max"], amount)
    barrier: Barrier = {"strength": strength, "max": most}
    return _set(state, target, {"barrier": barrier}), {"who": who, "barrier": barrier["strength"], "raised": True}


def _effect_text(effect: Mapping[str, Any]) -> str:
    who = effect["who"]
    if effect.get("kept"):
        return f" A barrier keeps it from {who}."
    if effect.get("raised"):
        return f" {who} has a barrier of strength {effect['barrier']}."
    if effect.get("freeze"):
        return f" {who} is frozen."
    if effect.get("wet"):
        return f" {who} is wet."
    text = ""
    if effect.get("absorbed"):
        text += f" {who}'s barrier absorbs {effect['absorbed']}" + ("." if effect.get("barrier") else " and collapses.")
    if "to" in effect and effect["to"] != effect["from"]:
        text += f" {who}: health {effect['from']} {ARROW} {effect['to']}."
    if effect.get("destroyed"):
        text += f" {who} is destroyed."
    return text


# ---------------------------------------------------------------------------- the Mayhem Muster


def _parse_muster(state: State, action: Sent) -> Data:
    data: Data = {
        "caster": player(state, action.get("caster"), "caster"),
        "target": player(state, action.get("target", action.get("caster")), "target"),
        "interaction": choice(action.get("interaction", "none"), "interaction", INTERACTIONS),
        "draw": flag(action.get("draw"), "draw", default=True),
    }
    if action.get("spell") is not None:
        data["spell"] = card_of(state["rules"]["spells"], action.get("spell"), "spell")["id"]
    return data


def _subjects(data: Mapping[str, Any]) -> list[int]:
    """Who musters: the caster for a spell that goes as cast (the target flips, the caster draws);
    both for a countered one; the caster alone, as its new target, for a reflected one."""
    return list(dict.fromkeys(data[role] for role in MUSTERS[data["interaction"]]))


def _check_muster(state: State, data: Mapping[str, Any]) -> None:
    _refuse_if_over(state)
    r = state["rules"]
    if data["interaction"] == "disrupted":
        raise Invalid("a disrupted spell fails with no effect, so it is not mustered")
    spell = next((s for s in r["spells"] if s["id"] == data.get("spell")), None)
    if spell and spell["summon"]:
        raise Invalid(f"{spell['name']} is a summoning spell, and summons are never mustered")
    if data["interaction"] != "none":
        mode = state["options"].get("mode")
        if mode not in r["interactive_modes"]:
            raise Invalid(f"in this mode no snap spell is cast at a spell, so nothing is {data['interaction']}")
        if spell and not held(spell["cost"], r["threshold"]):
            raise Invalid(
                f"{spell['name']} holds no {r['threshold']} of the same element, so it cannot be {data['interaction']}"
            )
    _alive(state, data["caster"], "cast no spells")
    _own_turn(state, data["caster"], "musters a spell")


def _draw_cards(hidden: Hidden, hits: int, shuffle: Callable[[list[str]], Sequence[str]]) -> tuple[Hidden, list[str], list[list[str]]]:
    """Draw `hits` cards from the Mayhem deck; an empty deck is shuffled again from the pile of
    unshuffled cards, or else from the discards. `shuffle(cards)` gives the new order."""
    deck, pile, discard = list(hidden["deck"]), list(hidden["pile"]), list(hidden["discard"])
    drawn: list[str] = []
    shuffles: list[list[str]] = []
    for _ in range(hits):
        if not deck:
            source = pile or discard
            if not source:
                break
            deck = list(shuffle(source))
            shuffles.append(list(deck))
            if pile:
                pile = []
            else:
                discard = []
        card = deck.pop(0)
        discard.append(card)
        drawn.append(card)
    return {"deck": deck, "pile": pile, "discard": discard}, drawn, shuffles


def _draw_muster(state: State, inputs: Data, randbelow: RandBelow) -> Data:
    _check_muster(state, inputs)
    level = state["tracker"]["level"]
    flips: list[Data] = []
    for who in _subjects(inputs):
        roll, hits_it = mustered(level["hits"], level["out_of"], randbelow)
        flip: Data = {"player": who, "roll": roll, "hit": hits_it}
        if level["method"] == "coin":
            flip["face"] = "heads" if flip["hit"] else "tails"
        flips.append(flip)
    hits = sum(f["hit"] for f in flips) if inputs["draw"] else 0
    _, _, shuffles = _draw_cards(state["hidden"], hits, lambda cards: shuffled(cards, randbelow))
    out: Data = {"flips": flips}
    if shuffles:
        out["hidden"] = {"shuffles": shuffles}
    return out


def _apply_muster(state: State, data: Data, strict: bool) -> tuple[State, Data]:
    r = state["rules"]
    flips = data.get("flips", [])
    recorded = list(data.get("hidden", {}).get("shuffles", []))
    hits = sum(f["hit"] for f in flips) if data["draw"] else 0
    hidden, drawn, _ = _draw_cards(state["hidden"], hits, lambda cards: recorded.pop(0) if recorded else list(cards))
    cards = {c["id"]: c for c in r["mayhem"]}
    musters: list[Data] = []
    queue: Iterator[str | None] = iter(drawn)
    for flip in flips:
        entry = dict(flip)
        if flip["hit"] and data["draw"]:
            drawn_id = next(queue, None)
            card = cards.get(drawn_id) if drawn_id is not None else None
            entry["card"] = {"id": card["id"], "name": card["name"], "text": card["text"]} if card else None
        musters.append(entry)
    level = state["tracker"]["level"]
    results: Data = {"musters": musters, "level": level["name"], "shuffled": len(data.get("hidden", {}).get("shuffles", []))}
    spell = next((s for s in r["spells"] if s["id"] == data.get("spell")), None)
    last = {
        "caster": data["caster"], "target": data["target"], "interaction": data["interaction"],
        "spell": spell["name"] if spell else None, **results,
    }
    size = state["tracker"]["deck"]["size"]
    state = {**state, "hidden": {**state["hidden"], **hidden}}
    state = with_tracker(state, lambda f: {
        **f, "last_muster": last,
        "deck": {"size": size, "left": len(hidden["deck"]) + len(hidden["pile"]), "discard": len(hidden["discard"])},
    })
    return state, results


def _describe_muster(data: Mapping[str, Any], state: State) -> str:
    caster, target = name(state, data["caster"]), name(state, data["target"])
    spell = next((s["name"] for s in state["rules"]["spells"] if s["id"] == data.get("spell")), "spell")
    what = f"{caster}'s {spell}" + (f" at {target}" if data["target"] != data["caster"] else "")
    head = {
        "none": f"Mayhem Muster for {what}",
        "countered": f"{what} was countered: Mayhem Muster for both",
        "reflected": f"{what} was reflected back: Mayhem Muster for {caster}",
    }.get(data["interaction"], f"Mayhem Muster for {what}")
    parts = []
    for m in data.get("musters", []):
        who = name(state, m["player"])
        level = state["tracker"]["level"]
        if level["method"] == "always":
            rolled = "every spell is Mayhemified"
        elif "face" in m:
            rolled = m["face"]
        else:
            rolled = f"rolled {m['roll']} of {level['out_of']}"
        part = f"{who}: {rolled}" + (", Mayhem!" if m["hit"] else ", the spell goes on as cast.")
        if m.get("card"):
            card = m["card"]["name"]
            part += f" {who} draws {card}" + ("" if card[-1:] in ".!?" else ".")
        elif m["hit"] and data["draw"] and "card" in m:
            part += " The Mayhem deck is empty."
        parts.append(part)
    shuffled_note = " (The Mayhem deck was shuffled.)" if data.get("shuffled") else ""
    return f"{head}. " + " ".join(parts) + shuffled_note


def _parse_level(state: State, action: Sent) -> Data:
    r = state["rules"]
    level = _level(r, choice(action.get("level"), "level", [lv["id"] for lv in r["levels"]]))
    if level["method"] == "custom":
        hits = whole(action.get("hits", level["hits"]), "the chances of Mayhem", 1, 100)
        out_of = whole(action.get("out_of", level["out_of"]), "the chances out of which", hits, 100)
        level["hits"], level["out_of"] = hits, out_of
    elif "hits" in action or "out_of" in action:
        raise Invalid(f"{level['name']} has its own chance; only a custom level takes one of yours")
    return {"level": level}


def _apply_level(state: State, data: Data, strict: bool) -> tuple[State, Data]:
    if strict and data["level"] == state["tracker"]["level"]:
        raise Invalid(f"the table plays {data['level']['name']} already")
    level = cast(Level, dict(data["level"]))  # the level as the event's data keeps it
    return with_tracker(state, lambda f: {**f, "level": level}), {}


def _describe_level(data: Mapping[str, Any], state: State) -> str:
    level = data["level"]
    chance = f": {level['hits']} in {level['out_of']}" if level["method"] == "custom" else ""
    return f"The table now plays {level['name']}{chance}"


# ---------------------------------------------------------------------------- turns


def _parse_player(state: State, action: Sent) -> Data:
    return {"player": player(state, action.get("player"))}


def _next_or_same(state: State, who: int) -> int:
    following = _next_after(state, who)
    return following if following is not None else who


def _walk(state: State, who: int) -> tuple[State, int, list[int]]:
    """From `who` on, clockwise: each frozen wizard skips their turn (and thaws by one), and the
    turn goes to the first standing wizard who is not frozen. Returns the state, that wizard and
    those who skipped."""
    skipped: list[int] = []
    for _ in range(len(state["players"]) * 20):  # all frozen at once thaw in turn
        if not _standing(state, who):
            who = _next_or_same(state, who)
            continue
        frozen = mine(state, who).get("frozen", 0)
        if frozen <= 0:
            break
        state = _set(state, ("player", who), {"frozen": frozen - 1})
        skipped.append(who)
        who = _next_or_same(state, who)
    return state, who, skipped


def _in_order(state: State, who: int) -> None:
    """Play proceeds clockwise: the turn after the current one is the next standing wizard's,
    or, past wizards who are frozen and skip it, the first one who is not."""
    current = state["tracker"]["player"]
    if current is None:
        return
    expected = _next_or_same(state, current)
    _, lands, skipped = _walk(state, expected)
    if who != lands and who not in skipped:
        frozen = "".join(f" ({name(state, i)} is frozen and skips it)" for i in skipped)
        raise Invalid(f"play proceeds clockwise: after {name(state, current)}'s turn comes {name(state, lands)}'s{frozen}, "
                      f"not {name(state, who)}'s")


def _new_round(state: State, first: int, before: int | None, now: int) -> bool:
    """A round begins when play comes round to the first player's seat again, or past it (the
    first player dead, or frozen): the turn's seat, counted from the first player's, is not
    after the turn before's."""
    order = _order(state)
    n, at = len(order), order.index
    return before is None or (at(now) - at(first)) % n <= (at(before) - at(first)) % n


def _apply_turn(state: State, data: Data, strict: bool) -> tuple[State, Data]:
    t = state["tracker"]
    who: int = data["from"] if "from" in data else data["player"]  # where the walk began (logged before: the player)
    if strict:
        _refuse_if_over(state)
        if not _standing(state, who):
            raise Invalid(f"{name(state, who)} is dead and has no creatures, so takes no turns")
        if t["player"] == who:
            raise Conflict(f"it is {name(state, who)}'s turn already")
        _in_order(state, who)
        if t["player"] is not None:
            who = _next_or_same(state, t["player"])  # the frozen on the way skip their turns too
    start = who
    state, who, skipped = _walk(state, who)
    turn = t["turn"] + 1
    for unit in units.owned(state["tracker"]["units"], who):
        if unit.get("frozen", 0) > 0 or unit.get("rooted", 0) > 0:  # frozen or rooted: it skips this turn's attack
            held_: Creature = {**unit, "frozen": max(0, unit["frozen"] - 1), "held": turn}
            if unit.get("rooted"):
                held_["rooted"] = unit["rooted"] - 1
            state = _units(state, unit["id"], held_)
    first = t.get("first")
    first = who if first is None else first
    rounds = t.get("rounds", 0) + _new_round(state, first, t["player"], who)
    state = with_tracker(state, lambda f: {**f, "turn": turn, "player": who, "first": first, "turns": f.get("turns", 0) + 1,
                                           "rounds": rounds, "cast": []})
    landed: list[list[Any]] = []
    begun = state
    state = _start_of_turn(state, who, landed)
    changes = _changes(begun, state)
    said = {"landed": landed, "changes": changes} if landed or any(changes.values()) else {}
    return state, {"turn": turn, "started": who, "skipped": skipped, "from": start, **said}


def _describe_turn(data: Mapping[str, Any], state: State) -> str:
    if "started" not in data:
        return f"{name(state, data['player'])}'s turn"
    skipped = "".join(f"{name(state, i)} is frozen and skips a turn. " for i in data["skipped"])
    began = _changes_text(data.get("changes", {}), state)  # slowed spells, beams and burning robes, as the turn starts
    return f"{skipped}Turn {data['turn']}: {name(state, data['started'])}" + ("" if not began else ". " + _sentences(began))


# ---------------------------------------------------------------------------- creatures


def _element_cards(state: State, value: Any) -> list[Card]:
    """The element cards a phone says were paid (ids, a card once for each copy), as `pay` reads them."""
    known = {e["id"]: e for e in state["rules"].get("elements", [])}
    if not isinstance(value, list) or len(value) > units.MAX_UNITS:
        raise Invalid("paid must be a list of the element cards paid, such as [\"fire\", \"earth\"]")
    cards: list[Card] = []
    for card_id, n in Counter(value).items():
        entry = card_of(list(known.values()), card_id, "element card")
        if n > entry["count"]:
            copies = "1 copy" if entry["count"] == 1 else f"{entry['count']} copies"
            raise Invalid(f"{n} {entry['name']} are paid, but the deck has only {copies}")
        card = Card(entry["id"], entry["name"], "", "", entry["count"], {"value": entry["value"], "elements": tuple(entry["elements"])})
        cards += [card] * n
    return cards


def _parse_summon(state: State, action: Sent) -> Data:
    data: Data = {"owner": player(state, action.get("owner"), "owner")}
    if action.get("card") is not None:
        card = card_of([s for s in state["rules"]["spells"] if s["summon"]], action.get("card"), "summon")
        called = card.get("creature", card["name"])
        grows, element = card.get("grows"), card.get("grows_with")
        if "attack_bonus" in action or "health_bonus" in action:
            raise Invalid(f"{called} grows only by what its card says, from what was paid: send the element cards paid ('paid')"
                          + (f", or how many extra {element} ('extra')" if element else ""))
        extra = 0
        if action.get("paid") is not None:
            if action.get("extra") is not None:
                raise Invalid("send the element cards paid ('paid') or how many extra were paid ('extra'), not both")
            spent = _element_cards(state, action.get("paid"))
            payment = pay(spent, card["cost"])
            if not payment.paid:
                short = and_([f"{n} {e}" for e, n in payment.missing.items()])
                raise Invalid(f"those cards do not pay for {card['name']}: {short} short")
            extra = (extra_paid(spent, card["cost"], element) or 0) if grows and element else 0
        elif action.get("extra") is not None:
            extra = whole(action.get("extra"), "extra", 0, MAX_AMOUNT)
            if extra and not (grows and element):
                raise Invalid(f"{called} does not grow from extra elements: its card says nothing of it")
        attack, health = grown(card["attack"], card["health"], grows, extra, state["rules"].get("growth", 0))
        data.update(card=card["id"], name=called, attack=attack, health=health, haste=bool(card.get("haste")))
        if extra:
            data.update(extra=extra, grows=grows, grows_with=element)
    else:
        data.update(
            card=None, name=label(action.get("name"), "a creature's name"),
            attack=whole(action.get("attack"), "attack", 0, MAX_AMOUNT),
            health=whole(action.get("health"), "health", 1, MAX_AMOUNT),
        )
    return data


def _apply_summon(state: State, data: Data, strict: bool) -> tuple[State, Data]:
    if strict:
        _refuse_if_over(state)
        _alive(state, data["owner"], "summon no creatures")
        _own_turn(state, data["owner"], "summons")
    t = state["tracker"]
    unit: Creature = {
        "id": units.new_id(t["units"], t["next_unit"]),
        "owner": data["owner"], "kind": "creature", "name": data["name"], "card": data["card"],
        "attack": data["attack"], "health": data["health"], "max": data["health"],
        "turn": t["turn"], "attacked": None, "held": None,
        "wet": False, "frozen": 0, "barrier": None, "ready": False,
    }
    if data.get("haste"):
        unit["haste"] = True
    state = with_tracker(state, lambda f: {**f, "units": [*f["units"], unit], "next_unit": f["next_unit"] + 1})
    return state, {"unit": unit["id"]}


def _describe_summon(data: Mapping[str, Any], state: State) -> str:
    grew = f"; {data['extra']} extra {data['grows_with']} paid: it grows in {data['grows']}" if data.get("extra") else ""
    haste = "; it may attack at once" if data.get("haste") else ""
    return f"{name(state, data['owner'])} summoned {data['name']} (attack {data['attack']}, health {data['health']}{grew}){haste}"


def _parse_attack(state: State, action: Sent) -> Data:
    unit = units.find(state["tracker"]["units"], action.get("unit"))
    return {"unit": unit["id"], **_target(state, action)}


def _apply_attack(state: State, data: Data, strict: bool) -> tuple[State, Data]:
    t = state["tracker"]
    unit = units.get(state["tracker"]["units"], data["unit"])
    target = _ref(data)
    if strict:
        _refuse_if_over(state)
        assert unit is not None, "parse found it"
        if unit["owner"] != t["player"]:
            whose = f"{name(state, t['player'])}'s" if t["player"] is not None else "nobody's (start a turn)"
            raise Invalid(f"it is {whose} turn: {units.called(state, unit)} attacks on {name(state, unit['owner'])}'s turns")
        if not may_attack(unit["turn"], t["turn"], bool(unit.get("haste"))):
            raise Invalid(f"{unit['name']} arrived this turn and cannot attack until its summoner's next turn")
        if unit.get("held") == t["turn"]:
            raise Invalid(f"{unit['name']} is frozen this turn")
        if unit.get("attacked") == t["turn"]:
            raise Invalid(f"{unit['name']} has attacked this turn already")
        if target == ("unit", unit["id"]):
            raise Invalid(f"{unit['name']} cannot attack itself")
        if target[0] == "player":
            _alive(state, target[1], "cannot be hurt any more")
    if unit is None or not _exists(state, target):
        return state, {}
    who, attacker = _called(state, target), units.called(state, unit)
    state = _units(state, unit["id"], {**unit, "attacked": t["turn"]})
    shielded = _holder(state, target).get("barrier")
    chills = bool(shielded and shielded.get("chills"))
    state, result = _hurt(state, target, unit["attack"], bool(data.get("death_effects")))
    if data.get("card_effects"):  # an attack logged before the cards' own effects were the tracker's had none
        if chills:
            state = _become(state, ("unit", unit["id"]), "freezes")
        card = _spell_of(state, unit.get("card"))
        if card and card.get("soaks"):
            state = _become(state, target, "wets")
    return state, {"damage": unit["attack"], "who": who, "attacker": attacker, **result}


def _describe_attack(data: Mapping[str, Any], state: State) -> str:
    target = _ref(data)
    who = data.get("who") or _called(state, target)
    return f"{data.get('attacker', 'A creature')} attacked {who} for {data.get('damage', 0)}." + _hurt_text(state, data, target, who)


def _parse_unit(state: State, action: Sent) -> Data:
    return {"unit": units.find(state["tracker"]["units"], action.get("unit"))["id"]}


def _apply_remove(state: State, data: Data, strict: bool) -> tuple[State, Data]:
    unit = units.get(state["tracker"]["units"], data["unit"])
    if unit is None:
        return state, {}
    return _units(state, unit["id"], None), {"name": unit["name"], "owner": unit["owner"]}


def _describe_remove(data: Mapping[str, Any], state: State) -> str:
    return f"{name(state, data.get('owner'))}'s {data.get('name', 'creature')} left play"


# ---------------------------------------------------------------------------- damage, healing, statuses


def _parse_amount(state: State, action: Sent) -> Data:
    return {**_target(state, action), "amount": whole(action.get("amount"), "amount", 1, MAX_AMOUNT)}


def _apply_damage(state: State, data: Data, strict: bool) -> tuple[State, Data]:
    target = _ref(data)
    if strict and target[0] == "player":
        _alive(state, target[1], "cannot be hurt any more")
    if not _exists(state, target):
        return state, {}
    who = _called(state, target)
    state, result = _hurt(state, target, data["amount"], bool(data.get("death_effects")))
    return state, {"who": who, **result}


def _describe_damage(data: Mapping[str, Any], state: State) -> str:
    target = _ref(data)
    who = data.get("who") or _called(state, target)
    return f"{who} takes {data['amount']} damage." + _hurt_text(state, data, target, who)


def _no_barrier(state: State, target: Target, doing: str) -> None:
    if _holder(state, target).get("barrier"):
        raise Invalid(f"a shield barrier keeps {_called(state, target)} from being {doing}")


def _apply_heal(state: State, data: Data, strict: bool) -> tuple[State, Data]:
    target = _ref(data)
    if strict:
        if target[0] == "player":
            _alive(state, target[1], "cannot be healed: dead is dead")
        _no_barrier(state, target, "healed")
    if not _exists(state, target):
        return state, {}
    who = _called(state, target)
    if target[0] == "player":
        state, before, after = move(state, HEALTH, data["amount"], target[1])
        return state, {"who": who, "from": before, "to": after}
    unit = units.find(state["tracker"]["units"], target[1])
    if strict and unit["health"] >= unit["max"]:
        raise Invalid(f"{who} has its full health of {unit['max']}: healing never takes a creature above the health "
                      "it arrived with")
    # a heal logged before the cap (no "capped" in its data) replays as it was made
    health = unit["health"] + data["amount"]
    if data.get("capped"):
        health = healed(unit["health"], unit["max"], data["amount"])
    return _units(state, unit["id"], {**unit, "health": health}), {"who": who, "from": unit["health"], "to": health}


def _describe_heal(data: Mapping[str, Any], state: State) -> str:
    text = f"{data.get('who') or _called(state, _ref(data))} is healed by {data['amount']}"
    return text + (f": health {data['from']} {ARROW} {data['to']}" if "to" in data else "")


def _parse_switch(state: State, action: Sent, default: bool | None = None) -> Data:
    on = action.get("on", default)
    if not isinstance(on, bool):
        raise Invalid("on must be true or false")
    return {**_target(state, action), "on": on}


def _apply_wet(state: State, data: Data, strict: bool) -> tuple[State, Data]:
    target = _ref(data)
    if strict:
        if target[0] == "player":
            _alive(state, target[1], "stay as they are")
        _no_barrier(state, target, "made wet or dried")
        if bool(_holder(state, target).get("wet")) == data["on"]:
            raise Invalid(f"{_called(state, target)} is {'wet' if data['on'] else 'dry'} already")
    if not _exists(state, target):
        return state, {}
    return _set(state, target, {"wet": data["on"]}), {"who": _called(state, target)}


def _describe_wet(data: Mapping[str, Any], state: State) -> str:
    return f"{data.get('who') or _called(state, _ref(data))} is {'wet' if data['on'] else 'dried'}"


def _apply_freeze(state: State, data: Data, strict: bool) -> tuple[State, Data]:
    target = _ref(data)
    turns = state["rules"]["freeze_turns"]
    if strict:
        if target[0] == "player":
            _alive(state, target[1], "stay as they are")
        if data["on"]:
            _no_barrier(state, target, "frozen")
        elif not _holder(state, target).get("frozen"):
            raise Invalid(f"{_called(state, target)} is not frozen")
    if not _exists(state, target):
        return state, {}
    who = _called(state, target)
    if data["on"]:
        holder = _holder(state, target)
        wet, frozen = after("freezes", holder.get("wet"), holder.get("frozen"), turns)
        return _set(state, target, {"frozen": frozen, "wet": wet}), {"who": who, "turns": turns}
    return _set(state, target, {"frozen": 0}), {"who": who}


def _describe_freeze(data: Mapping[str, Any], state: State) -> str:
    who = data.get("who") or _called(state, _ref(data))
    if data["on"]:
        return f"{who} is frozen for {plural(data.get('turns', 1), 'turn')}"
    return f"{who} thaws"


def _apply_zap(state: State, data: Data, strict: bool) -> tuple[State, Data]:
    target = _ref(data)
    if strict:
        if target[0] == "player":
            _alive(state, target[1], "cannot be hurt any more")
        _no_barrier(state, target, "zapped")
        if not _holder(state, target).get("wet"):
            raise Invalid(f"only a wet target can be zapped, and {_called(state, target)} is dry")
    if not _exists(state, target):
        return state, {}
    who = _called(state, target)
    holder = _holder(state, target)
    wet, frozen = after("zaps", holder.get("wet"), holder.get("frozen"), state["rules"]["freeze_turns"])
    state = _set(state, target, {"wet": wet, "frozen": frozen})
    state, result = _hurt(state, target, state["rules"]["zap_damage"], bool(data.get("death_effects")))
    return state, {"damage": state["rules"]["zap_damage"], "who": who, **result}


def _describe_zap(data: Mapping[str, Any], state: State) -> str:
    target = _ref(data)
    who = data.get("who") or _called(state, target)
    return f"{who} is zapped for {data.get('damage', 0)}." + _hurt_text(state, data, target, who)


def _parse_shield(state: State, action: Sent) -> Data:
    return {**_target(state, action), "shields": whole(action.get("shields"), "shields", 1, MAX_AMOUNT)}


def _apply_shield(state: State, data: Data, strict: bool) -> tuple[State, Data]:
    target = _ref(data)
    b = state["rules"]["barrier"]
    if not _exists(state, target):
        return state, {}
    barrier = _holder(state, target).get("barrier")
    if strict and target[0] == "player":
        _alive(state, target[1], "need no barrier")
    if barrier is None:
        if strict and data["shields"] < b["shield_cost"]:
            raise Invalid(f"a barrier takes at least {b['shield_cost']} Shield elements")
        strength = raised(b["shield_cost"], b["strength"], b["per_extra_shield"], data["shields"])
        return _set(state, target, {"barrier": {"strength": strength, "max": strength}}), {
            "raised": True, "strength": strength, "who": _called(state, target)}
    if strict and barrier["strength"] >= barrier["max"]:
        raise Invalid(f"{_called(state, target)}'s barrier is at its full strength of {barrier['max']}")
    strength = repaired(barrier["strength"], barrier["max"], b["repair_per_shield"], data["shields"])
    return _set(state, target, {"barrier": {**barrier, "strength": strength}}), {
        "raised": False, "strength": strength, "who": _called(state, target)}


def _describe_shield(data: Mapping[str, Any], state: State) -> str:
    who = data.get("who") or _called(state, _ref(data))
    if data.get("raised"):
        return f"A shield barrier of strength {data['strength']} rises around {who}"
    return f"{who}'s barrier is repaired to {data.get('strength')}"


def _apply_unshield(state: State, data: Data, strict: bool) -> tuple[State, Data]:
    target = _ref(data)
    if strict and not _holder(state, target).get("barrier"):
        raise Invalid(f"{_called(state, target)} has no barrier")
    if not _exists(state, target):
        return state, {}
    return _set(state, target, {"barrier": None}), {"who": _called(state, target)}


def _describe_unshield(data: Mapping[str, Any], state: State) -> str:
    return f"{data.get('who') or _called(state, _ref(data))}'s barrier is destroyed"


def _dying(parse: Callable[[State, Sent], Data]) -> Callable[[State, Sent], Data]:
    """An action that may destroy a creature: its event says that the creature's death is the
    tracker's to carry out (one logged before did not, and replays without it)."""
    return lambda state, action: {**parse(state, action), "death_effects": True}


# ---------------------------------------------------------------------------- spells cast at the table


@dataclass(frozen=True)
class _Numbers:
    """The numbers a spell landing needs (helpers' HitRules), from the table's rules."""

    zap_damage: int
    interaction_threshold: int
    weak_multiplier: int
    freeze_turns: int


Scale = tuple[int, int, int, bool]  # times, divided by, plus, inverted: what a Mayhem card does to amounts
PLAIN: Scale = (1, 1, 0, False)


def _numbers(state: State) -> _Numbers:
    r = state["rules"]
    return _Numbers(r["zap_damage"], r["threshold"], r.get("weak_multiplier", 1), r["freeze_turns"])


def _effects(state: State, card: str) -> Mapping[str, Any]:
    """What a card does, as its fields say (the rules' `effects`)."""
    return state["rules"].get("effects", {}).get(card, {})


def scaled(amount: int, scale: Sequence[int | bool]) -> int:
    """An amount as a Mayhem card changes it: times, divided by (rounding down), plus; nothing stays nothing."""
    times, div, plus = int(scale[0]), int(scale[1]), int(scale[2])
    return amount * times // div + plus if amount > 0 else 0


def _living(state: State, i: int) -> bool:
    return value(state, HEALTH, i) > 0


def _alive_wizards(state: State) -> list[int]:
    return [i for i in _order(state) if _living(state, i)]


def _beside(state: State, seat: int, step: int) -> int | None:
    """The living wizard `step` seats on from `seat` in the order of play (1: left, -1: right)."""
    order = _order(state)
    at, n = order.index(seat), len(order)
    for d in range(1, n):
        i = order[(at + step * d) % n]
        if _living(state, i):
            return i
    return None


def _besides(state: State, seat: int) -> list[int]:
    """The living wizards seated beside `seat`, each once: in a duel the one other wizard is beside
    it on both sides, and is one wizard beside it."""
    found = [_beside(state, seat, 1), _beside(state, seat, -1)]
    return [i for k, i in enumerate(found) if i is not None and i != seat and i not in found[:k]]


def _owner(state: State, target: Target) -> int:
    if target[0] == "player":
        return target[1]
    return units.find(state["tracker"]["units"], target[1])["owner"]


def _side(state: State, seat: int) -> list[Target]:
    """A wizard, while living, and every creature they control."""
    mine_: list[Target] = [("player", seat)] if _living(state, seat) else []
    return mine_ + [("unit", u["id"]) for u in state["tracker"]["units"] if u["owner"] == seat]


def _enemies(state: State, seat: int) -> list[Target]:
    return [b for i in _order(state) if i != seat for b in _side(state, i)]


def _present(state: State, target: Target) -> bool:
    """A living wizard, or a creature still in play."""
    return _living(state, target[1]) if target[0] == "player" else _exists(state, target)


def _struck(state: State, target: Target) -> Struck:
    """What a spell landing on the target looks at: wet, frozen, its barrier, a creature's weak and immune."""
    holder = _holder(state, target)
    barrier = holder.get("barrier")
    weak: tuple[str, ...] = ()
    immune: tuple[str, ...] = ()
    if target[0] == "unit":
        card = _spell_of(state, units.find(state["tracker"]["units"], target[1]).get("card"))
        if card:
            weak, immune = tuple(card.get("weak", ())), tuple(card.get("immune", ()))
    return Struck(bool(holder.get("wet")), holder.get("frozen", 0) > 0, barrier["strength"] if barrier else 0, weak, immune)


def _spell_of(state: State, card: str | None) -> Spell | None:
    return next((s for s in state["rules"]["spells"] if s["id"] == card), None) if card else None


def _land(state: State, target: Target, attack: Attack, caster: int | None) -> tuple[State, Hit]:
    """A spell or snap spell landing, by the helpers' `hit`: its wet effect, the barrier, the
    damage; a mirroring barrier deals what it absorbed to the spell's caster."""
    h = hit_unexplained(_numbers(state), attack, _struck(state, target))
    barrier = _holder(state, target).get("barrier")
    status: Status = {"barrier": {**barrier, "strength": h.barrier} if barrier and h.barrier else None}
    if "freezes" in h.effects:
        status["wet"], status["frozen"] = False, state["rules"]["freeze_turns"]
    elif h.effects:
        status["wet"] = h.wet
    state = _set(state, target, status)
    if h.damage:
        state, _ = _wound(state, target, h.damage)
    if barrier and barrier.get("mirrors") and h.absorbed and caster is not None:
        state, _ = _hurt(state, ("player", caster), h.absorbed, True)
    return state, h


def _harm(state: State, target: Target, amount: int) -> State:
    """Plain damage, through the target's barrier first."""
    if amount <= 0 or not _present(state, target):
        return state
    state, _ = _hurt(state, target, amount, True)
    return state


def _cure(state: State, target: Target, amount: int) -> State:
    """Healing: none through a barrier, none for the dead; a creature never above the health it arrived with."""
    if amount <= 0 or not _present(state, target) or _holder(state, target).get("barrier"):
        return state
    if target[0] == "player":
        state, _, _ = move(state, HEALTH, amount, target[1])
        return state
    unit = units.find(state["tracker"]["units"], target[1])
    return _units(state, unit["id"], {**unit, "health": healed(unit["health"], unit["max"], amount)})


def _become(state: State, target: Target, effect: str) -> State:
    """Wets, dries or freezes the target (a barrier keeps all of it out)."""
    if not _present(state, target) or _holder(state, target).get("barrier"):
        return state
    holder = _holder(state, target)
    wet, frozen = after(effect, bool(holder.get("wet")), holder.get("frozen", 0), state["rules"]["freeze_turns"])
    return _set(state, target, {"wet": wet, "frozen": frozen})


def _raise(state: State, target: Target, strength: int, mirrors: bool = False, chills: bool = False) -> State:
    """A barrier of `strength` rises around the target; over a barrier, the stronger stays (as a death's does)."""
    if strength <= 0 or not _present(state, target):
        return state
    old = _holder(state, target).get("barrier") or {"strength": 0, "max": 0}
    now, most = death_barrier(old["strength"], old["max"], strength)
    barrier: Barrier = {"strength": now, "max": most}
    flags = {"mirrors": mirrors, "chills": chills} if strength >= old["strength"] else old
    if flags.get("mirrors"):
        barrier["mirrors"] = True
    if flags.get("chills"):
        barrier["chills"] = True
    return _set(state, target, {"barrier": barrier})


def _boosted(state: State, e: Mapping[str, Any]) -> bool:
    """A boost: another spell cast this turn holds interaction_threshold of its `boost_with`."""
    threshold = state["rules"]["threshold"]
    return any(e["boost_with"] in held(_effects(state, prev).get("cost", ()), threshold)
               for prev in state["tracker"].get("cast", []))


def _on(state: State, caster: int, spell: str, target: Target, scale: Sequence[int | bool], landed: list[int]) -> State:
    """A spell card's fields on one wizard or creature (a wizard's seat is added to `landed`: what
    the spell does to hands is the players' to do)."""
    e = _effects(state, spell)
    if target[0] == "player":
        landed.append(target[1])
    holder = _holder(state, target)
    damage = e["boost"] if e.get("boost") and _boosted(state, e) else e.get("damage") or 0
    thaw = bool(e.get("frozen_bonus") and holder.get("frozen"))
    damage += e["frozen_bonus"] if thaw else 0
    heal = (e.get("heal") or 0) + ((e.get("wet_bonus") or 0) if e.get("heal") and holder.get("wet") else 0)
    damage, heal = scaled(damage, scale), scaled(heal, scale)
    if scale[3]:
        damage, heal = heal, damage
    if e.get("breaks_barrier"):
        state = _set(state, target, {"barrier": None})
    if damage or e.get("wet"):
        attack = Attack(damage, tuple(e.get("cost", ())), e.get("wet"), wet_bonus=0 if e.get("heal") else e.get("wet_bonus") or 0,
                        wet_multiplier=e.get("wet_multiplier") or 1, frozen_multiplier=e.get("frozen_multiplier") or 1)
        state, h = _land(state, target, attack, caster)
        if e.get("drains"):
            state = _cure(state, ("player", caster), h.damage)
        if e.get("chains"):
            for other in [*(("player", i) for i in _alive_wizards(state)), *(("unit", u["id"]) for u in state["tracker"]["units"])]:
                o = cast(Target, other)
                if o != target and _present(state, o) and _holder(state, o).get("wet"):
                    state, _ = _land(state, o, Attack(0, (), "zaps", instead=True), caster)
        if e.get("splash"):
            for seat in _besides(state, _owner_of(state, target, caster)):
                state = _harm(state, ("player", seat), e["splash"])
        if thaw and _present(state, target):
            state = _set(state, target, {"frozen": 0})
    if heal:
        had = bool(_holder(state, target).get("barrier")) if _exists(state, target) else True
        state = _cure(state, target, heal)
        if e.get("thaws") and not had and _present(state, target):
            state = _set(state, target, {"frozen": 0})
    if e.get("freezes"):
        state = _become(state, target, "freezes")
    if e.get("strength"):
        state = _raise(state, target, scaled(e["strength"], scale), bool(e.get("mirrors")), bool(e.get("chills")))
    if e.get("roots") and target[0] == "unit" and _exists(state, target):
        unit = units.find(state["tracker"]["units"], target[1])
        state = _units(state, unit["id"], {**unit, "attack": max(0, unit["attack"] - e["roots"]), "rooted": 1})
    return state


def _owner_of(state: State, target: Target, fallback: int) -> int:
    """Whose seat a target is at: a wizard's own, a creature's wizard's (one destroyed: `fallback`'s)."""
    if target[0] == "player":
        return target[1]
    unit = units.get(state["tracker"]["units"], target[1])
    return unit["owner"] if unit else fallback


def _spread(state: State, caster: int, spell: str, landed: Target, moved: bool) -> list[Target]:
    """Whom a spell landing on `landed` reaches: its area, around the caster or the one it landed on."""
    area = _effects(state, spell).get("area")
    if area == "opponents" and not moved:
        return _enemies(state, caster)
    if area and landed[0] == "player":
        return _side(state, landed[1])
    return [landed]


def _tick(state: State, beam: Beam, landed: list[int]) -> tuple[State, bool]:
    """One turn of a beam; False once it has ended: its target gone, or a barrier that broke it
    (the rulebook: a beam is disrupted by a shield barrier, which is destroyed in the process)."""
    target = _ref(beam)
    if not _present(state, target):
        return state, False
    if _holder(state, target).get("barrier") and _effects(state, beam["spell"]).get("damage"):
        return _set(state, target, {"barrier": None}), False
    return _on(state, beam["caster"], beam["spell"], target, beam["scale"], landed), True


def _effect(state: State, caster: int, spell: str, at: Target, scale: Scale, moved: bool, landed: list[int]) -> State:
    """A spell landing: on each it reaches, at once, or as a beam that burns this turn and the
    caster's next ones."""
    turns = _effects(state, spell).get("turns")
    for target in _spread(state, caster, spell, at, moved):
        if not _exists(state, target):  # destroyed as the spell spread (a Magma Golem's eruption): nothing to hit
            continue
        if not turns:
            state = _on(state, caster, spell, target, scale, landed)
            continue
        beam: Beam = {"caster": caster, "spell": spell, "target": target[1], "left": turns - 1,
                      "scale": [scale[0], scale[1], scale[2], int(scale[3])]}
        state, burning = _tick(state, beam, landed)
        if burning:
            state = _burning(state, beam)
    return state


def _burning(state: State, beam: Beam) -> State:
    """The state with `beam` among the beams still burning."""
    return with_tracker(state, lambda f: {**f, "beams": [*f.get("beams", []), beam]})


def _candidates(state: State, caster: int, target: Target) -> list[Target]:
    """Whom the target of a spell may throw it on (Hot Potato): any other wizard or creature, not the caster."""
    found: list[Target] = [("player", i) for i in _alive_wizards(state)]
    found += [("unit", u["id"]) for u in state["tracker"]["units"]]
    return [b for b in found if b != ("player", caster) and b != target]


def _redirect(state: State, caster: int, target: Target, lands_on: str | None, pick: int | None) -> tuple[list[Target], bool]:
    """Whom the spell lands on, as the Mayhem card's `lands_on` says, and whether it moved."""
    if lands_on == "caster":
        return [("player", caster)], True
    if lands_on == "every opponent" and _owner(state, target) != caster:
        return [("player", i) for i in _alive_wizards(state) if i != caster], True
    if lands_on == "left of caster":
        onto = _beside(state, caster, 1)
        if onto is not None and ("player", onto) == target:
            onto = _beside(state, caster, -1)
        return ([("player", onto)], True) if onto is not None else ([target], False)
    if lands_on == "another":
        others = _candidates(state, caster, target)
        return ([others[pick]], True) if others and pick is not None else ([target], False)
    if lands_on == "every wizard":
        return [("player", i) for i in _alive_wizards(state)], True
    if lands_on == "strongest creature":
        theirs = [u for u in state["tracker"]["units"] if u["owner"] == _owner(state, target)]
        return ([("unit", max(theirs, key=lambda u: u["attack"])["id"])], True) if theirs else ([target], False)
    return [target], False


def _resolve(state: State, caster: int, spell: str, target: Target, mayhem: str | None, pick: int | None,
             landed: list[int]) -> State:
    """The spell lands, as the Mayhem card drawn (if one was) changes it, and what else the card does."""
    g = _effects(state, mayhem) if mayhem else {}
    if g.get("fails"):
        return state
    if g.get("delayed"):
        slowed: Pending = {"caster": caster, "spell": spell, "target": target[1]}
        return with_tracker(state, lambda f: {**f, "pending": [*f.get("pending", []), slowed]})
    recipients, moved = _redirect(state, caster, target, g.get("lands_on"), pick)
    scale: Scale = (g.get("times") or 1, g.get("divided_by") or 1, g.get("plus") or 0, bool(g.get("inverts")))
    if g.get("lands_on") == "every opponent" and not moved:
        scale = PLAIN  # "Cast at an opponent? Then it strikes EVERY opponent, with double effect": only then
    if g.get("bubble") and _present(state, target) and not _holder(state, target).get("barrier"):
        state = _raise(state, target, state["rules"]["barrier"]["strength"])
    for at in recipients:
        state = _effect(state, caster, spell, at, scale, moved, landed)
    if g.get("bounce_divided_by") and _exists(state, target):
        onto = _beside(state, _owner(state, target), 1)
        if onto is not None:
            state = _effect(state, caster, spell, ("player", onto), (1, g["bounce_divided_by"], 0, False), True, landed)
    return _aftermath(state, caster, target, g)


def _aftermath(state: State, caster: int, target: Target, g: Mapping[str, Any]) -> State:
    """What a Mayhem card does besides the spell, at the table: to the caster, the others, the order of play."""
    if g.get("caster"):
        state = _become(state, ("player", caster), "freezes" if g["caster"] == "frozen" else "wets")
    if g.get("burns") and _living(state, caster):
        burn: Burn = {"amount": g["burns"], "left": g["burn_turns"]}
        state = with_mine(state, caster, lambda m: {**m, "burn": burn})
    for other in _alive_wizards(state):
        if other != caster:
            state = _cure(state, ("player", other), g.get("others_heal") or 0)
    if g.get("downpour"):
        for seat in _alive_wizards(state):
            state = _become(state, ("player", seat), "wets")
        for u in state["tracker"]["units"]:
            state = _become(state, ("unit", u["id"]), "wets")
    if g.get("swaps_seats") and target[0] == "player" and target[1] != caster:
        order = list(_order(state))
        i, j = order.index(caster), order.index(target[1])
        order[i], order[j] = order[j], order[i]
        state = with_tracker(state, lambda f: {**f, "order": order})
    return state


def _changes(before: State, now: State) -> Data:
    """What a move did to health, as the log says it: each wizard's and creature's health that
    moved (from, to), and the creatures it destroyed."""
    health = [[i, value(before, HEALTH, i), value(now, HEALTH, i)] for i in range(len(now["players"]))
              if value(before, HEALTH, i) != value(now, HEALTH, i)]
    after_ = {u["id"]: u for u in now["tracker"]["units"]}
    creatures = [[units.called(before, u), u["health"], after_[u["id"]]["health"]] for u in before["tracker"]["units"]
                 if u["id"] in after_ and after_[u["id"]]["health"] != u["health"]]
    gone = [units.called(before, u) for u in before["tracker"]["units"] if u["id"] not in after_]
    return {"health": health, "creatures": creatures, "destroyed": gone}


def _changes_text(data: Mapping[str, Any], state: State) -> list[str]:
    moved = [f"{name(state, i)}: health {a} {ARROW} {b}" for i, a, b in data.get("health", [])]
    moved += [f"{who}: health {a} {ARROW} {b}" for who, a, b in data.get("creatures", [])]
    return moved + [f"{who} is destroyed" for who in data.get("destroyed", [])]


def _sentences(parts: list[str]) -> str:
    """Parts as sentences, each ended once (a card's name may end in its own "!")."""
    return " ".join(part if part[-1:] in ".!?" else part + "." for part in parts)


def _parse_cast(state: State, action: Sent) -> Data:
    spell = card_of([s for s in state["rules"]["spells"] if not s["summon"]], action.get("spell"), "spell")
    return {"caster": player(state, action.get("caster"), "caster"), "spell": spell["id"], **_target(state, action)}


def _check_cast(state: State, data: Mapping[str, Any]) -> None:
    _refuse_if_over(state)
    _alive(state, data["caster"], "cast no spells")
    _own_turn(state, data["caster"], "casts spell card spells")
    target = _ref(data)
    if target[0] == "player":
        _alive(state, target[1], "are no target any more")


def _muster_of(state: State, data: Mapping[str, Any]) -> Data:
    """The cast's Mayhem Muster, as the muster action takes it: the target's wizard flips, the caster draws."""
    return {"caster": data["caster"], "target": _owner(state, _ref(data)), "interaction": "none", "draw": True,
            "spell": data["spell"], "flips": data.get("flips", []), "hidden": data.get("hidden", {})}


def _draw_cast(state: State, inputs: Data, randbelow: RandBelow) -> Data:
    _check_cast(state, inputs)
    drawn = _draw_muster(state, {**_muster_of(state, inputs)}, randbelow)
    mustered_, _ = _apply_muster(state, {**_muster_of(state, inputs), **drawn}, False)
    card = (mustered_["tracker"]["last_muster"] or {}).get("musters", [{}])[0].get("card")
    if card and _effects(state, card["id"]).get("lands_on") == "another":
        others = _candidates(state, inputs["caster"], _ref(inputs))
        if others:
            drawn["pick"] = randbelow(len(others))
    return drawn


def _apply_cast(state: State, data: Data, strict: bool) -> tuple[State, Data]:
    if strict:
        _check_cast(state, data)
    caster, target, before = data["caster"], _ref(data), state
    state, mustered_ = _apply_muster(state, _muster_of(state, data), strict)
    card = mustered_["musters"][0].get("card") if mustered_["musters"] else None
    mayhem = card["id"] if card else None
    landed: list[int] = []
    if _exists(state, target):
        state = _resolve(state, caster, data["spell"], target, mayhem, data.get("pick"), landed)
    state = with_tracker(state, lambda f: {**f, "cast": [*f.get("cast", []), data["spell"]]})
    return state, {"musters": mustered_["musters"], "mayhem": mayhem, "landed": landed, "changes": _changes(before, state)}


def _describe_cast(data: Mapping[str, Any], state: State) -> str:
    spell = next((s["name"] for s in state["rules"]["spells"] if s["id"] == data["spell"]), data["spell"])
    target = _ref(data)
    at = f" at {_called(state, target)}" if target != ("player", data["caster"]) else ""
    parts = [f"{name(state, data['caster'])} cast {spell}{at}"]
    for m in data.get("musters", []):
        parts.append("Mayhem Muster: " + (f"Mayhem! {m['card']['name']}" if m.get("card") else "Mayhem, and the deck is empty"
                                          if m["hit"] else "the spell goes on as cast"))
    return _sentences(parts + _changes_text(data.get("changes", {}), state))


def _parse_snap(state: State, action: Sent) -> Data:
    effects, sent = state["rules"].get("effects", {}), action.get("snap")
    snap = effects.get(sent) if isinstance(sent, str) else None
    if snap is None or "element" not in snap:  # not a snap spell: refused with the choices
        snap = card_of([{"id": i, **e} for i, e in effects.items() if "element" in e], sent, "snap spell")
    snap = {"id": sent, **snap}
    extra = whole(action.get("extra", 0), "extra", 0, MAX_AMOUNT)
    if extra and not (snap.get("heal_per_extra") or snap.get("raises_barrier")):
        raise Invalid(f"{snap['id']} takes no extra elements: its card says nothing of it")
    return {"caster": player(state, action.get("caster"), "caster"), "snap": snap["id"], "extra": extra, **_target(state, action)}


def _apply_snap(state: State, data: Data, strict: bool) -> tuple[State, Data]:
    """A snap spell at a wizard or a creature: its damage and wet effect, its healing (more for each
    extra Life), or a barrier raised (stronger for each extra Shield) or repaired. Snap spells may
    be cast at any time."""
    target, e = _ref(data), _effects(state, data["snap"])
    if strict:
        _refuse_if_over(state)
        _alive(state, data["caster"], "cast no spells")
        if target[0] == "player":
            _alive(state, target[1], "are no target any more")
    if not _exists(state, target):
        return state, {}
    now = _snapped(state, data, e)
    return now, {"changes": _changes(state, now)}


def _snapped(state: State, data: Data, e: Mapping[str, Any]) -> State:
    target, r = _ref(data), state["rules"]
    extra, cost = data["extra"], r.get("snap_cost", r["barrier"]["shield_cost"])
    if e.get("heal"):
        return _cure(state, target, e["heal"] + extra * (e.get("heal_per_extra") or 0))
    if e.get("raises_barrier"):
        b, shields = r["barrier"], cost + extra
        barrier = _holder(state, target).get("barrier")
        if barrier:
            strength = repaired(barrier["strength"], barrier["max"], b["repair_per_shield"], shields)
            return _set(state, target, {"barrier": {**barrier, "strength": strength}})
        return _raise(state, target, raised(b["shield_cost"], b["strength"], b["per_extra_shield"], shields))
    state, _ = _land(state, target, Attack(e.get("damage") or 0, (e["element"],) * cost, e.get("wet"), instead=True), data["caster"])
    return state


def _describe_snap(data: Mapping[str, Any], state: State) -> str:
    extra = f" with {data['extra']} extra" if data.get("extra") else ""
    snap = _effects(state, data["snap"]).get("name", data["snap"])
    said = f"{name(state, data['caster'])} cast the snap spell {snap}{extra} at {_called(state, _ref(data))}"
    return _sentences([said, *_changes_text(data.get("changes", {}), state)])


def _parse_tend(state: State, action: Sent) -> Data:
    return {"unit": units.find(state["tracker"]["units"], action.get("unit"))["id"], **_target(state, action)}


def _apply_tend(state: State, data: Data, strict: bool) -> tuple[State, Data]:
    """A creature whose card tends ("At the start of your turn, heal 1 damage from you or one of
    your creatures") heals its wizard or one of their creatures, once in each of their turns."""
    t, target = state["tracker"], _ref(data)
    unit = units.get(t["units"], data["unit"])
    if unit is None:
        return state, {}
    card = _spell_of(state, unit.get("card"))
    amount = card.get("tends", 0) if card else 0
    if strict:
        _refuse_if_over(state)
        called = units.called(state, unit)
        if not amount:
            raise Invalid(f"{called} tends nobody: its card says nothing of it")
        if t["player"] != unit["owner"]:
            raise Invalid(f"{called} tends at the start of {name(state, unit['owner'])}'s turn, and it is not their turn")
        if unit.get("tended") == t["turn"]:
            raise Invalid(f"{called} has tended this turn already")
        if not _exists(state, target) or _owner(state, target) != unit["owner"]:
            raise Invalid(f"{called} tends only {name(state, unit['owner'])} or one of their creatures")
        if target[0] == "player":
            _alive(state, target[1], "cannot be healed: dead is dead")
        _no_barrier(state, target, "healed")
    before = state
    state = _units(state, unit["id"], {**unit, "tended": t["turn"]})
    state = _cure(state, target, amount)
    return state, {"amount": amount, "changes": _changes(before, state)}


def _describe_tend(data: Mapping[str, Any], state: State) -> str:
    unit = units.get(state["tracker"]["units"], data["unit"])
    who = units.called(state, unit) if unit else "A creature"
    return _sentences([f"{who} tends {_called(state, _ref(data))} for {data.get('amount', 0)}",
                       *_changes_text(data.get("changes", {}), state)])


def _start_of_turn(state: State, who: int, landed: list[list[Any]]) -> State:
    """What happens as a wizard's turn starts: their slowed spells land, their beams burn, their robes burn (unless wet)."""
    t = state["tracker"]
    pending = [p for p in t.get("pending", []) if p["caster"] == who]
    if pending:
        state = with_tracker(state, lambda f: {**f, "pending": [p for p in f.get("pending", []) if p["caster"] != who]})
        for p in pending:
            if _present(state, _ref(p)):
                seats: list[int] = []
                state = _effect(state, who, p["spell"], _ref(p), PLAIN, False, seats)
                landed += [[p["spell"], seat] for seat in seats]
    beams = [b for b in state["tracker"].get("beams", []) if b["caster"] == who]
    if beams:
        state = with_tracker(state, lambda f: {**f, "beams": [b for b in f.get("beams", []) if b["caster"] != who]})
        for beam in beams:
            if beam["left"] <= 0:
                continue
            state, burning = _tick(state, beam, [])
            if burning and beam["left"] > 1:
                state = _burning(state, {**beam, "left": beam["left"] - 1})
    burn = mine(state, who).get("burn")
    if burn and burn["left"]:
        wet = bool(mine(state, who).get("wet"))
        left: Burn | None = None if wet or burn["left"] <= 1 else {"amount": burn["amount"], "left": burn["left"] - 1}
        state = with_mine(state, who, lambda m: {**m, "burn": left})
        if not wet:
            state, _ = _hurt(state, ("player", who), burn["amount"], True)
    return state


# ---------------------------------------------------------------------------- one door


def _gone(state: State, i: int) -> str | None:
    return "dead" if value(state, HEALTH, i) <= 0 else None


def _govern(state: State, counter: str, who: int | None, delta: int) -> tuple[str, dict[str, Any]] | None:
    """A wizard's health moves by the rules alone. Behind a barrier, a `−` is damage, which the
    barrier absorbs first, and a `+` is healing, which the barrier keeps out; with no barrier, a
    plain change is what the rules would do, and stays one."""
    if counter != HEALTH or who is None or not mine(state, who).get("barrier"):
        return None
    return ("damage", {"target": who, "amount": -delta}) if delta < 0 else ("heal", {"target": who, "amount": delta})


TRACKER: Tracker[State] = Tracker(
    rules=rules,
    end=_the_end,
    initial=initial,
    settle=settle,
    life=HEALTH,
    gone=_gone,
    govern=_govern,
    actions={
        "muster": Action(_parse_muster, _apply_muster, _describe_muster, draw=_draw_muster, ordered=True, undoable=False, shown=True),
        "mayhem_level": Action(_parse_level, _apply_level, _describe_level),
        "start_turn": Action(_parse_player, _apply_turn, _describe_turn),
        "summon": Action(_parse_summon, _apply_summon, _describe_summon),
        "cast": Action(_parse_cast, _apply_cast, _describe_cast, draw=_draw_cast, ordered=True, undoable=False, shown=True),
        "snap": Action(_parse_snap, _apply_snap, _describe_snap),
        "tend": Action(_parse_tend, _apply_tend, _describe_tend),
        "attack": Action(lambda s, a: {**_dying(_parse_attack)(s, a), "card_effects": True}, _apply_attack, _describe_attack),
        "remove": Action(_parse_unit, _apply_remove, _describe_remove),
        "damage": Action(_dying(_parse_amount), _apply_damage, _describe_damage),
        "heal": Action(lambda s, a: {**_parse_amount(s, a), "capped": True}, _apply_heal, _describe_heal),
        "wet": Action(lambda s, a: _parse_switch(s, a, True), _apply_wet, _describe_wet),
        "freeze": Action(lambda s, a: _parse_switch(s, a, True), _apply_freeze, _describe_freeze),
        "zap": Action(_dying(_target), _apply_zap, _describe_zap),
        "shield": Action(_parse_shield, _apply_shield, _describe_shield),
        "unshield": Action(lambda s, a: _target(s, a), _apply_unshield, _describe_unshield),
    },
)
