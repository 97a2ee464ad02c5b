"""Sorcerer Duel: turns, mana, conversions, creatures and blockers, and every effect field of the
cards and of the sorcerer each seat plays (its `sorcerer` option).

At the start of a player's turn their mana is set to the YAML's `mana_per_turn` and the other
player's to 0: mana never carries over. Up to `max_conversions` cards a turn (more with a
sorcerer's `extra_conversions`) turn into `mana_per_conversion` mana each. The first player does
not draw on the game's first turn. Creatures and blockers come from the player's own deck (their
cost paid in mana, their summoning requirement met: a unit of theirs destroyed for it, one on their
side, or a creature of theirs died since the start of their last turn), or are typed in. A
creature cannot attack in the turn it arrived, unless its card says it can (its `haste` field,
which also prints the words on the card; only a typed-in creature is said `ready` by the phone) or
the sorcerer's `haste_up_to` lets it, and attacks once a turn. Where an attack's damage lands is
the ruleset's sum (`one_target`, `whole_side`, as the rule helper works it): the side's blockers
take it first, in the order they were placed; what gets past them goes to the one target (a
sorcerer, or a creature, past whose health it is lost), or is shared as evenly as possible over
the side's creatures and sorcerer, a creature needing less than its share taking only that.

The cards' effect fields: a spell's `draws`; a creature's `end_damage` (at the end of its owner's
turn, at the opposing sorcerer); a blocker's `regains` (at the start of its owner's turn) and
`thorns` (pricking a creature whose attack hits it); a death effect (`death_effect`: damage to one
target, which its owner aims with `aim` before anything else is played; cards drawn; health the
sorcerer regains; the card shuffled back into its deck). The sorcerers' (`SORCERER_EFFECTS`):
a spell's bonus, a blocker mended at the turn's start, extra conversions, extra draws on a death,
haste for a cheap creature, a draw when a blocker falls. A creature that dies lets its owner draw
`draws_on_creature_death` cards. What a player draws is said in the log: the hands are theirs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any, Never, TypedDict

from ...models import Card, Game
from ...play import units
from ...play.errors import Conflict, Invalid
from ...play.inputs import MAX_AMOUNT, card_of, choice, flag, label, whole
from ...play.state import (
    Ending,
    TableState,
    mine,
    move,
    name,
    pad_players,
    player,
    put,
    settled,
    settled_players,
    value,
    with_mine,
    with_tracker,
    won_by,
)
from ...play.tracker import Action, Data, Sent, Tracker
from ...play.words import ARROW, and_, plain_text, plural
from .ruleset import (
    NO_SORCERER,
    SORCERER_EFFECTS,
    Constants,
    conversions_allowed,
    death_draws,
    died_lately,
    heralded,
    once_a_turn,
    one_target,
    regained,
    spell_bonus,
    summon_options,
    summoning_sick,
    turn_draws,
    whole_side,
)

HEALTH, MANA = "health", "mana"  # the counters of game.yaml
CREATURE, BLOCKER, SPELL, SORCERER = "creature", "blocker", "attack-spell", "sorcerer"  # card types of decks.yaml
AREA = "side"  # an attack spell's `target` that hits a whole side
# a card's numbers and effect fields, and its words, as the rules copy them
CARD_FIELDS = ("cost", "attack", "health", "damage", "target", "haste", "end_damage", "draws", "regains", "thorns",
               "death_effect", "death_amount", "needs", "needs_how")
CARD_WORDS = ("text", "death", "requirement")

# A card of a player's deck as the rules copy it: id, name, type, and those of CARD_FIELDS and
# CARD_WORDS that it has.
DeckCard = dict[str, Any]


class Deck(TypedDict):
    name: str
    cards: list[DeckCard]


class SorcererCard(TypedDict):
    name: str
    effects: dict[str, int]  # its effect fields (SORCERER_EFFECTS) that it has


class Rules(TypedDict):
    health: str
    mana: str
    mana_per_turn: int
    max_conversions: int
    mana_per_conversion: int
    first_skips_draw: bool
    draws_per_turn: int
    hand_limit: int
    death_draws: int
    decks: dict[str, Deck]
    sorcerers: dict[str, SorcererCard]


class Unit(units.Unit):
    card: str | None  # the deck's card, or None for one typed in
    haste: bool  # may attack in the turn it arrives


class Draw(TypedDict):
    count: int
    skipped: bool
    limit: int


class Pending(TypedDict):
    """A death effect's damage waiting for its owner to choose its one target."""

    owner: int
    damage: int
    source: str  # "Ann's Cinder Imp"


class Fields(TypedDict):
    turn: int  # the turn under way, numbered from 1
    turns: int  # turns started
    rounds: int  # rounds started: turns the first player started
    player: int | None  # whose turn it is
    first: int | None
    next: int | None
    conversions: int
    conversions_allowed: int  # to the player whose turn it is (their sorcerer's extra included)
    ended: bool  # the turn's end (its end-of-turn effects) has been played
    draw: Draw | None
    units: list[Unit]
    next_unit: int
    pending: list[Pending]
    winner: int | None
    over: bool


class Mine(TypedDict):
    out: bool
    used: dict[str, int]  # a once-a-turn effect of their sorcerer -> the turn it was last used in
    last_death: int | None  # the turn one of their creatures last died in


State = TableState[Fields, Mine, Rules, Never]


def rules(game: Game, created: Mapping[str, Any]) -> Rules | None:
    c = game.constants_as(Constants)
    ids = {counter.id for counter in game.counters if counter.scope == "player"}
    if not {HEALTH, MANA} <= ids:
        return None

    elements = [e.name for e in game.elements]

    def card(card: Card) -> DeckCard:
        fields = {k: card.get(k) for k in CARD_FIELDS if card.get(k) is not None}
        words = {k: plain_text(card[k], elements) for k in CARD_WORDS if card.get(k)}
        return {"id": card.id, "name": card.name, "type": card.type, **fields, **words}

    decks: dict[str, Deck] = {}
    for deck_id in c.player_decks:
        deck = game.decks.get(deck_id)
        if deck:
            decks[deck_id] = {"name": deck.name, "cards": [card(x) for x in deck.cards if x.type in (CREATURE, BLOCKER, SPELL)]}
    sorcerers: dict[str, SorcererCard] = {
        x.id: {"name": x.name, "effects": {f: int(x[f]) for f in SORCERER_EFFECTS if x.get(f) is not None}}
        for x in game.cards if x.type == SORCERER
    }
    return {
        "health": HEALTH,
        "mana": MANA,
        "mana_per_turn": c.mana_per_turn,
        "max_conversions": c.max_conversions,
        "mana_per_conversion": c.mana_per_conversion,
        "first_skips_draw": c.first_player_skips_draw,
        "draws_per_turn": c.draws_per_turn,
        "hand_limit": c.hand_limit,
        "death_draws": c.draws_on_creature_death,
        "decks": decks,
        "sorcerers": sorcerers,
    }


PLAYER: Mine = {"out": False, "used": {}, "last_death": None}


def initial(state: State) -> State:
    tracker: Fields = {
        "turn": 0, "turns": 0, "rounds": 0, "player": None, "first": None, "next": None, "conversions": 0,
        "conversions_allowed": state["rules"]["max_conversions"], "ended": False, "draw": None, "units": [],
        "next_unit": 1, "pending": [], "winner": None, "over": False,
    }
    return {**state, "tracker": tracker}


def settle(state: State) -> State:
    state = pad_players(state, PLAYER)
    state = settled_players(state, lambda i, p: {**p["tracker"], "out": p["counters"].get(HEALTH, 0) <= 0})
    n = len(state["players"])
    standing = [i for i, p in enumerate(state["players"]) if not p["tracker"]["out"]]
    t = state["tracker"]
    over = n >= 2 and len(standing) <= 1
    ready: list[Unit] = []
    moved = False
    for u in t["units"]:
        can = (
            u["kind"] == CREATURE and u["owner"] == t["player"] and (u["turn"] < t["turn"] or u.get("haste"))
            and u.get("attacked") != t["turn"]
        )
        moved |= u.get("ready") != can
        ready.append(u if u.get("ready") == can else {**u, "ready": can})
    following = (t["player"] + 1) % n if t["player"] is not None else state.get("first_player")
    return settled(state, lambda f: {
        **f, "units": ready if moved else t["units"], "over": over, "winner": standing[0] if over and standing else None,
        "next": None if over else following,
    })


def _the_end(state: State) -> Ending:
    """The end every phone shows at its top: the sorcerer left standing wins the duel."""
    return won_by(state, state["tracker"]["winner"], "Both sorcerers fell.", "{} wins the duel!")


def _refuse_if_over(state: State) -> None:
    t = state["tracker"]
    if t["over"]:
        won = f"{name(state, t['winner'])} has won" if t["winner"] is not None else "both sorcerers fell"
        raise Conflict(f"the duel is over: {won}")


def _refuse_if_waiting(state: State) -> None:
    """A death effect's damage is aimed before anything else is played."""
    pending = state["tracker"]["pending"]
    if pending:
        first = pending[0]
        raise Invalid(f"first {name(state, first['owner'])} aims the death damage of {first['source']} "
                      f"({first['damage']}) at one target")


def _own_turn(state: State, who: int, doing: str) -> None:
    _refuse_if_over(state)
    _refuse_if_waiting(state)
    t = state["tracker"]
    current = t["player"]
    if current is None:
        raise Invalid(f"no turn has started: start {name(state, who)}'s turn first")
    if current != who:
        raise Invalid(f"{name(state, who)} {doing} on their own turn; it is {name(state, current)}'s")
    if t["ended"]:
        raise Invalid(f"{name(state, who)}'s turn has ended: start {name(state, t['next'])}'s turn")


def _fallen(state: State) -> bool:
    """Whether a sorcerer has fallen in the move being played (settle then ends the duel)."""
    return any(p["counters"].get(HEALTH, 0) <= 0 for p in state["players"])


def _pay(state: State, who: int, cost: int, what: str, strict: bool) -> tuple[State, Data]:
    have = value(state, MANA, who)
    if strict and cost > have:
        raise Invalid(f"{what} costs {plural(cost, 'mana', 'mana')}; {name(state, who)} has {have}")
    state, before, after = move(state, MANA, -cost, who)
    return state, {"from": before, "to": after}


def _deck_cards(state: State, who: int, types: tuple[str, ...]) -> list[DeckCard]:
    deck = state["rules"]["decks"].get(state["players"][who]["options"].get("deck", ""))
    cards = deck["cards"] if deck else []
    return [c for c in cards if c["type"] in types]


def _card(state: State, card_id: str | None) -> DeckCard:
    """A unit's card as the rules copy it; nothing for a unit typed in."""
    if card_id is None:
        return {}
    return next((c for deck in state["rules"]["decks"].values() for c in deck["cards"] if c["id"] == card_id), {})


# ---------------------------------------------------------------------------- the sorcerers


def sorcerer_of(state: State, who: int) -> SorcererCard | None:
    """The sorcerer a seat plays, if the table was told it."""
    chosen = state["players"][who]["options"].get("sorcerer", NO_SORCERER)
    return state["rules"].get("sorcerers", {}).get(chosen)


def _effect(state: State, who: int, field: str) -> int | None:
    """The amount of an effect field of the seat's sorcerer; None if it has no such effect."""
    sorcerer = sorcerer_of(state, who)
    return sorcerer["effects"].get(field) if sorcerer else None


def _free(state: State, who: int, field: str) -> int | None:
    """The amount of a once-a-turn effect of the seat's sorcerer, if it is still free this turn."""
    amount = _effect(state, who, field)
    if amount is None or not once_a_turn(mine(state, who)["used"].get(field), state["tracker"]["turn"]):
        return None
    return amount


def _use(state: State, who: int, field: str) -> State:
    now = state["tracker"]["turn"]
    return with_mine(state, who, lambda m: {**m, "used": {**m["used"], field: now}})


def _sorcerer_name(state: State, who: int) -> str:
    sorcerer = sorcerer_of(state, who)
    return sorcerer["name"] if sorcerer else name(state, who)


def conversions_of(state: State, who: int) -> int:
    """Cards the seat may convert in a turn: the rule's, and their sorcerer's extra."""
    return conversions_allowed(state["rules"]["max_conversions"], _effect(state, who, "extra_conversions") or 0)


# ---------------------------------------------------------------------------- damage and deaths


def _units(state: State, uid: str, unit: Unit | None) -> State:
    """The state with unit `uid` changed to `unit`, or gone if `unit` is None."""
    return with_tracker(state, lambda f: {**f, "units": units.replaced(f["units"], uid, unit)})


def _hit(state: State, unit: Unit, amount: int) -> Data:
    return {"unit": unit["id"], "card": unit.get("card"), "owner": unit["owner"], "who": units.called(state, unit),
            "damage": amount, "from": unit["health"], "to": max(unit["health"] - amount, 0)}


def _destroy(state: State, unit: Unit, hit: Data) -> State:
    """A unit at 0 health leaves play; its death draws, its card's death effect and its owner's
    sorcerer's effects happen (`hit` says what they were)."""
    state = _units(state, unit["id"], None)
    hit["destroyed"] = True
    owner, card = unit["owner"], _card(state, unit.get("card"))
    effect, amount = card.get("death_effect"), card.get("death_amount", 0)
    if unit["kind"] == CREATURE:
        now = state["tracker"]["turn"]
        state = with_mine(state, owner, lambda m: {**m, "last_death": now})
        hit["draws"] = death_draws(state["rules"]["death_draws"], _effect(state, owner, "extra_death_draws") or 0,
                                   effect, amount)
    else:
        draws = death_draws(0, 0, effect, amount)
        warden = _free(state, owner, "blocker_draws")
        if warden is not None:
            state = _use(state, owner, "blocker_draws")
            draws += warden
        if draws:
            hit["draws"] = draws
    if card.get("death"):
        hit["death"] = card["death"]
    if effect == "heal":
        state, before, after = move(state, HEALTH, amount, owner)
        hit["heal"] = {"from": before, "to": after}
    elif effect == "reshuffle":
        hit["reshuffled"] = True
    elif effect == "damage":
        aimed: Pending = {"owner": owner, "damage": amount, "source": hit["who"]}
        state = with_tracker(state, lambda f: {**f, "pending": [*f["pending"], aimed]})
        hit["aim"] = amount
    return state


def _hit_unit(state: State, unit: Unit, amount: int, hits: list[Data]) -> State:
    hit = _hit(state, unit, amount)
    hits.append(hit)
    if unit["health"] <= amount:
        return _destroy(state, unit, hit)
    return _units(state, unit["id"], {**unit, "health": unit["health"] - amount})


def _strike(state: State, side: int, damage: int, aim: str | None = None, area: bool = False,
            spell_of: int | None = None) -> tuple[State, Data]:
    """`damage` dealt to player `side`'s side where the ruleset's sums put it: through the blockers
    (in the order they were placed) to the sorcerer, or to creature `aim`, or over the whole side
    (`area`). Each unit and the sorcerer take what the sums give them at once; then the units at
    0 are destroyed, in order. An attack spell of player `spell_of` that reaches the sorcerer takes
    their sorcerer's once-a-turn `spell_bonus`."""
    in_play = state["tracker"]["units"]
    blockers, creatures = units.owned(in_play, side, BLOCKER), units.owned(in_play, side, CREATURE)
    guards, health = [u["health"] for u in blockers], [u["health"] for u in creatures]
    if area:
        blow = whole_side(damage, guards, health)
    else:
        index = None if aim is None else [u["id"] for u in creatures].index(aim)
        blow = one_target(damage, guards, health, index)
    results: Data = {}
    bonus = _free(state, spell_of, "spell_bonus") if spell_of is not None else None
    if spell_of is not None and bonus is not None and spell_bonus(blow.sorcerer, bonus, True) != blow.sorcerer:
        state = _use(state, spell_of, "spell_bonus")
        results["bonus"] = bonus
        blow = replace(blow, sorcerer=spell_bonus(blow.sorcerer, bonus, True))
    hits: list[Data] = []
    dead: list[tuple[Unit, Data]] = []
    for unit, took in zip(blockers + creatures, blow.blockers + blow.creatures):
        if took:
            hit = _hit(state, unit, took)
            hits.append(hit)
            if unit["health"] <= took:
                dead.append((unit, hit))
            else:
                state = _units(state, unit["id"], {**unit, "health": unit["health"] - took})
    if blow.sorcerer:
        state, before, after = move(state, HEALTH, -blow.sorcerer, side)
        hits.append({"player": side, "who": name(state, side), "damage": blow.sorcerer, "from": before, "to": after})
    for unit, hit in dead:
        state = _destroy(state, unit, hit)
    return state, {**results, "hits": hits, "lost": blow.lost, "odd": blow.odd}


def _strike_one(state: State, target: int | str, damage: int, spell_of: int | None = None) -> tuple[State, Data]:
    """A one-target attack at a sorcerer (a player's number) or a creature (a unit's id)."""
    if isinstance(target, int):
        state, results = _strike(state, target, damage, spell_of=spell_of)
        return state, {"at": name(state, target), **results}
    unit = units.get(state["tracker"]["units"], target)
    if unit is None or unit["kind"] != CREATURE:  # gone since: an undo replayed the log under it
        return state, {}
    state, results = _strike(state, unit["owner"], damage, aim=target, spell_of=spell_of)
    return state, {"at": units.called(state, unit), **results}


def _death_words(hit: Mapping[str, Any], state: State) -> str:
    """What a unit's death did, beyond its draws: health regained, a card back in its deck, a
    death damage waiting to be aimed."""
    owner = name(state, hit.get("owner"))
    if hit.get("heal"):
        return f"; {owner} regains {hit['heal']['to'] - hit['heal']['from']} ({hit['heal']['from']} {ARROW} {hit['heal']['to']})"
    if hit.get("reshuffled"):
        return f"; it is shuffled into {owner}'s deck"
    if hit.get("aim"):
        return f"; {owner} aims its {hit['aim']} damage at one target"
    return ""


def _hits_text(hits: list[Data], state: State) -> str:
    parts = []
    for hit in hits:
        change = f"{hit['from']} {ARROW} {hit['to']}"
        if hit.get("destroyed"):
            change += ", destroyed" + (f": draws {plural(hit['draws'], 'card')}" if hit.get("draws") else "")
            change += _death_words(hit, state)
            change += f"; when it dies: {hit['death']}" if hit.get("death") else ""
        parts.append(f"{hit['who']} takes {hit['damage']} ({change})" if "damage" in hit else f"{hit['who']} {change}")
    return "; ".join(parts) if parts else "no effect"


def _blow_text(data: Mapping[str, Any], state: State) -> str:
    """Who took what, and where damage went that nobody took."""
    text = _hits_text(data.get("hits", []), state)
    if data.get("lost"):
        text += f"; {data['lost']} damage past the creature's health is lost"
    odd = data.get("odd")
    if odd:
        sorcerer = name(state, data["target"])
        placed = (f"{sorcerer} took it (the attacker may place it elsewhere)" if odd == 1 else
                  f"{sorcerer} took one, the creatures the others in the order they arrived "
                  "(the attacker may place them elsewhere)")
        text += f"; {plural(odd, 'odd point')} did not share evenly: {placed}"
    return text


def _aimed_at(data: Mapping[str, Any], state: State) -> str:
    """What a one-target attack aimed at (an event logged before `at` was kept names a sorcerer by number)."""
    if "at" in data:
        at: str = data["at"]
        return at
    return name(state, data["target"]) if isinstance(data["target"], int) else "a creature"


def _target(state: State, action: Sent) -> int | str:
    """A one-target attack's target: a sorcerer (a player's number) or a creature (a unit's id)."""
    kind, ref = units.target(state, state["tracker"]["units"], action.get("target"))
    unit = units.get(state["tracker"]["units"], ref) if isinstance(ref, str) else None
    if unit and unit["kind"] == BLOCKER:
        raise Invalid(f"{units.called(state, unit)} is a blocker: aim at a sorcerer or a creature "
                      "(the blockers on that side take the damage first)")
    return ref


def _side_of(state: State, target: int | str) -> int:
    return units.find(state["tracker"]["units"], target)["owner"] if isinstance(target, str) else target


# ---------------------------------------------------------------------------- a death's damage


def _parse_aim(state: State, action: Sent) -> Data:
    return {"target": _target(state, action)}


def _apply_aim(state: State, data: Data, strict: bool) -> tuple[State, Data]:
    pending = state["tracker"]["pending"]
    if strict:
        _refuse_if_over(state)
        if not pending:
            raise Invalid("no death effect is waiting for a target")
        if _side_of(state, data["target"]) == pending[0]["owner"]:
            raise Invalid(f"the death damage of {pending[0]['source']} goes to the other side: aim at the opposing "
                          "sorcerer or one of their creatures")
    if not pending:
        return state, {}
    first = pending[0]
    state = with_tracker(state, lambda f: {**f, "pending": f["pending"][1:]})
    state, blow = _strike_one(state, data["target"], first["damage"])
    return state, {"source": first["source"], "owner": first["owner"], "damage": first["damage"], **blow}


def _describe_aim(data: Mapping[str, Any], state: State) -> str:
    if "source" not in data:
        return "a death's damage was aimed"
    return (f"{name(state, data['owner'])} aimed the death damage of {data['source']} ({data['damage']}) at "
            f"{_aimed_at(data, state)}: {_blow_text(data, state)}")


# ---------------------------------------------------------------------------- turns and mana


def _parse_player(state: State, action: Sent) -> Data:
    return {"player": player(state, action.get("player"))}


def _parse_turn(state: State, action: Sent) -> Data:
    data = _parse_player(state, action)
    if action.get("mend") is not None:
        data["mend"] = units.find(state["tracker"]["units"], action.get("mend"))["id"]
    return data


def _end_of_turn(state: State) -> tuple[State, list[Data]]:
    """The end of the current player's turn: each of their creatures with `end_damage` deals it to
    the opposing sorcerer (through the blockers), in the order they arrived, while both stand."""
    who = state["tracker"]["player"]
    assert who is not None, "a turn is under way"
    foe = (who + 1) % len(state["players"])
    ends: list[Data] = []
    for unit in units.owned(state["tracker"]["units"], who, CREATURE):
        damage = _card(state, unit.get("card")).get("end_damage")
        if not damage or _fallen(state) or units.get(state["tracker"]["units"], unit["id"]) is None:
            continue
        state, blow = _strike(state, foe, damage)
        ends.append({"source": units.called(state, unit), "target": foe, "damage": damage, **blow})
    return with_tracker(state, lambda f: {**f, "ended": True}), ends


def _ends_text(ends: list[Data], state: State) -> str:
    return "; ".join(f"{end['source']} deals {end['damage']} to {name(state, end['target'])}: {_blow_text(end, state)}"
                     for end in ends)


def _regained(state: State, who: int) -> list[tuple[Unit, int]]:
    """The seat's blockers whose cards regain health at the start of their turn, with the health
    each then has (never above what is printed)."""
    out = []
    for unit in units.owned(state["tracker"]["units"], who, BLOCKER):
        regains = _card(state, unit.get("card")).get("regains")
        if regains and unit["health"] < unit["max"]:
            out.append((unit, regained(unit["health"], regains, unit["max"])))
    return out


def mendable(state: State, who: int) -> list[str]:
    """The blockers the seat's sorcerer may mend (`blocker_regains`) as their turn starts: their
    own, still wounded once the cards' own regaining is done."""
    if _effect(state, who, "blocker_regains") is None:
        return []
    after = {unit["id"]: health for unit, health in _regained(state, who)}
    return [u["id"] for u in units.owned(state["tracker"]["units"], who, BLOCKER) if after.get(u["id"], u["health"]) < u["max"]]


def _start_of_turn(state: State, who: int, chosen: str | None, strict: bool) -> tuple[State, Data]:
    """The blockers that regain health, then the one the sorcerer mends (`chosen`, or the first of
    the most wounded)."""
    results: Data = {}
    wounded = mendable(state, who)
    regains = _regained(state, who)
    for unit, health in regains:
        state = _units(state, unit["id"], {**unit, "health": health})
    if regains:
        results["regained"] = [{"who": units.called(state, u), "from": u["health"], "to": h} for u, h in regains]
    if strict and chosen is not None and chosen not in wounded:
        raise Invalid(f"{_sorcerer_name(state, who)} mends none but one of {name(state, who)}'s own wounded blockers"
                      if _effect(state, who, "blocker_regains") is not None else
                      f"{name(state, who)}'s sorcerer mends no blocker")
    if wounded:
        blockers = [u for u in units.owned(state["tracker"]["units"], who, BLOCKER) if u["id"] in wounded]
        unit = next((u for u in blockers if u["id"] == chosen), None) or max(blockers, key=lambda u: u["max"] - u["health"])
        health = regained(unit["health"], _effect(state, who, "blocker_regains") or 0, unit["max"])
        state = _units(state, unit["id"], {**unit, "health": health})
        results["mended"] = {"unit": unit["id"], "who": units.called(state, unit), "from": unit["health"], "to": health}
    return state, results


def _apply_turn(state: State, data: Data, strict: bool) -> tuple[State, Data]:
    t, r, who = state["tracker"], state["rules"], data["player"]
    if strict:
        _refuse_if_over(state)
        _refuse_if_waiting(state)
        if t["player"] == who:
            raise Conflict(f"it is {name(state, who)}'s turn already")
    results: Data = {}
    if t["player"] is not None and not t["ended"]:
        state, ends = _end_of_turn(state)
        results["end"] = ends
        if _fallen(state):  # the end of the turn ended the duel
            return state, results
    state, started = _start_of_turn(state, who, data.get("mend"), strict)
    first = t["first"] if t["first"] is not None else who
    skipped = bool(r["first_skips_draw"] and t["turn"] == 0)
    draws = turn_draws(r["first_skips_draw"], t["turn"] == 0, r["draws_per_turn"])
    state, before, after = put(state, MANA, r["mana_per_turn"], who)
    for other in range(len(state["players"])):
        if other != who:
            state, _, _ = put(state, MANA, 0, other)
    turn, allowed = t["turn"] + 1, conversions_of(state, who)
    state = with_tracker(state, lambda f: {
        **f, "turn": turn, "turns": turn, "rounds": f["rounds"] + (who == first), "player": who, "first": first,
        "conversions": 0, "conversions_allowed": allowed, "ended": False,
        "draw": {"count": draws, "skipped": skipped, "limit": r["hand_limit"]},
    })
    return state, {**results, **started, "turn": turn, "mana": {"from": before, "to": after}, "draws": draws,
                   "skipped_draw": skipped}


def _describe_turn(data: Mapping[str, Any], state: State) -> str:
    who = name(state, data["player"])
    ended = f"The turn ends: {_ends_text(data['end'], state)}. " if data.get("end") else ""
    if "turn" not in data:
        return f"{ended}The duel is over" if ended else f"{who}'s turn"
    mana = data["mana"]["to"]
    if data["skipped_draw"]:
        return f"{ended}Turn {data['turn']}: {who} goes first with {mana} mana, and draws no card this first turn"
    limit = state["rules"]["hand_limit"]
    text = f"{ended}Turn {data['turn']}: {who}, {mana} mana; draw {plural(data['draws'], 'card')} (none with {limit} in hand)"
    for back in data.get("regained", []):
        text += f"; {back['who']} regains health ({back['from']} {ARROW} {back['to']})"
    if data.get("mended"):
        mended = data["mended"]
        text += f"; {_sorcerer_name(state, data['player'])} mends {mended['who']} ({mended['from']} {ARROW} {mended['to']})"
    return text


def _apply_end(state: State, data: Data, strict: bool) -> tuple[State, Data]:
    t = state["tracker"]
    if strict:
        _own_turn(state, data["player"], "ends a turn")
    if t["player"] != data["player"] or t["ended"]:
        return state, {}
    state, ends = _end_of_turn(state)
    return state, {"end": ends}


def _describe_end(data: Mapping[str, Any], state: State) -> str:
    ends = data.get("end")
    return f"{name(state, data['player'])}'s turn ends" + (f": {_ends_text(ends, state)}" if ends else "")


def _apply_convert(state: State, data: Data, strict: bool) -> tuple[State, Data]:
    t, r, who = state["tracker"], state["rules"], data["player"]
    allowed = conversions_of(state, who)
    if strict:
        _own_turn(state, who, "converts cards")
        if t["conversions"] >= allowed:
            raise Invalid(
                f"{name(state, who)} has converted {plural(t['conversions'], 'card')} this turn, the most a turn allows"
            )
    state, before, after = move(state, MANA, r["mana_per_conversion"], who)
    state = with_tracker(state, lambda f: {**f, "conversions": t["conversions"] + 1})
    return state, {"mana": {"from": before, "to": after}, "conversions": t["conversions"] + 1, "allowed": allowed}


def _describe_convert(data: Mapping[str, Any], state: State) -> str:
    who = name(state, data["player"])
    if "mana" not in data:
        return f"{who} converted a card to mana"
    limit = data.get("allowed", state["rules"]["max_conversions"])
    return f"{who} converted a card ({data['conversions']} of {limit}): mana {data['mana']['from']} {ARROW} {data['mana']['to']}"


# ---------------------------------------------------------------------------- summoning, casting


def summon_ways(state: State, who: int, card: Mapping[str, Any]) -> list[str | None]:
    """The ways the seat may summon `card` now, by its summoning requirement (`summon_options`):
    None for as it is, or the id of a unit of theirs destroyed for a `destroy` requirement; none
    at all while the requirement is unmet."""
    own = units.owned(state["tracker"]["units"], who)
    lately = died_lately(mine(state, who)["last_death"], state["tracker"]["turn"], len(state["players"]))
    ways = summon_options(card.get("needs_how"), card.get("needs"), [(u["card"] or "", u["kind"]) for u in own], lately)
    return [None if i is None else own[i]["id"] for i in ways]


def _parse_summon(state: State, action: Sent) -> Data:
    who = player(state, action.get("player"))
    data: Data = {"player": who}
    if action.get("card") is not None:
        what = f"creature or blocker of {name(state, who)}'s deck"
        card = card_of(_deck_cards(state, who, (CREATURE, BLOCKER)), action.get("card"), what)
        if action.get("ready") is not None:
            raise Invalid(f"{card['name']}'s card says whether it may attack at once: it need not be said")
        data.update(card=card["id"], kind=card["type"], name=card["name"], attack=card.get("attack", 0),
                    health=card["health"], cost=card.get("cost", 0), ready=bool(card.get("haste")))
    else:
        data["ready"] = flag(action.get("ready"), "ready")
        kind = choice(action.get("kind", CREATURE), "kind", (CREATURE, BLOCKER))
        data.update(
            card=None, kind=kind, name=label(action.get("name"), f"a {kind}'s name"),
            attack=whole(action.get("attack", 0), "attack", 0, MAX_AMOUNT) if kind == CREATURE else 0,
            health=whole(action.get("health"), "health", 1, MAX_AMOUNT),
            cost=whole(action.get("cost", 0), "cost", 0, MAX_AMOUNT),
        )
    if action.get("sacrifice") is not None:
        data["sacrifice"] = units.find(state["tracker"]["units"], action.get("sacrifice"))["id"]
    return data


def _refuse_unmet(state: State, who: int, data: Data) -> None:
    """A summon must meet its card's requirement, with a unit destroyed for it only where it says so."""
    card = _card(state, data["card"])
    ways = summon_ways(state, who, card)
    sacrifice = data.get("sacrifice")
    if sacrifice in ways:
        return
    if not ways:
        raise Invalid(f"{card['name']} cannot be summoned now; to summon it: {card.get('requirement', card.get('needs'))}")
    if ways == [None]:
        raise Invalid(f"{data['name']} is summoned without destroying anything")
    called = [units.called(state, units.find(state["tracker"]["units"], uid)) for uid in ways if uid]
    raise Invalid(f"to summon {card['name']}: {card.get('requirement', card.get('needs'))} Choose which: {and_(called)}"[:300])


def _apply_summon(state: State, data: Data, strict: bool) -> tuple[State, Data]:
    who = data["player"]
    if strict:
        _own_turn(state, who, "summons")
        _refuse_unmet(state, who, data)
    state, mana = _pay(state, who, data["cost"], data["name"], strict)
    results: Data = {"mana": mana}
    sacrificed = units.get(state["tracker"]["units"], data["sacrifice"]) if data.get("sacrifice") else None
    if sacrificed is not None:
        hits: list[Data] = []
        state = _hit_unit(state, sacrificed, sacrificed["health"], hits)
        results["hits"] = hits
    haste = data["ready"]
    herald = _free(state, who, "haste_up_to") if data["kind"] == CREATURE else None
    if heralded(data["cost"], herald, herald is not None, haste):
        state = _use(state, who, "haste_up_to")
        haste = results["heralded"] = True
    t = state["tracker"]
    unit: Unit = {
        "id": units.new_id(t["units"], t["next_unit"]),
        "owner": who, "kind": data["kind"], "name": data["name"], "card": data["card"], "attack": data["attack"],
        "health": data["health"], "max": data["health"], "turn": t["turn"], "attacked": None,
        "haste": haste, "ready": False,
    }
    state = with_tracker(state, lambda f: {**f, "units": [*f["units"], unit], "next_unit": f["next_unit"] + 1})
    return state, {"unit": unit["id"], **results}


def _describe_summon(data: Mapping[str, Any], state: State) -> str:
    who = name(state, data["player"])
    stats = f"attack {data['attack']}, health {data['health']}" if data["kind"] == CREATURE else f"health {data['health']}"
    paid = f" for {data['cost']} mana" if data["cost"] else ""
    text = f"{who} summoned {data['name']} ({stats}){paid}"
    if data.get("hits"):
        text += f", destroying {_hits_text(data['hits'], state)}"
    if data.get("heralded"):
        text += f"; {_sorcerer_name(state, data['player'])} lets it attack this turn"
    return text


def _parse_cast(state: State, action: Sent) -> Data:
    who = player(state, action.get("player"))
    data: Data = {"player": who}
    if action.get("card") is not None:
        card = card_of(_deck_cards(state, who, (SPELL,)), action.get("card"), f"attack spell of {name(state, who)}'s deck")
        data.update(card=card["id"], name=card["name"], damage=card["damage"], area=card.get("target") == AREA,
                    cost=card.get("cost", 0))
        if card.get("draws"):
            data["draws"] = card["draws"]
    else:
        data.update(card=None, name="an attack spell", damage=whole(action.get("damage"), "damage", 1, MAX_AMOUNT),
                    area=flag(action.get("area"), "area"), cost=whole(action.get("cost", 0), "cost", 0, MAX_AMOUNT))
    if data["area"]:
        side = action.get("target", (who + 1) % len(state["players"]))
        data["target"] = player(state, side, "target (the side it hits)")
    else:
        data["target"] = _target(state, action)
    return data


def _apply_cast(state: State, data: Data, strict: bool) -> tuple[State, Data]:
    who = data["player"]
    if strict:
        _own_turn(state, who, "casts spells")
    state, mana = _pay(state, who, data["cost"], data["name"], strict)
    if data["area"]:
        state, blow = _strike(state, data["target"], data["damage"], area=True, spell_of=who)
    else:
        state, blow = _strike_one(state, data["target"], data["damage"], spell_of=who)
    return state, {"mana": mana, **blow}


def _describe_cast(data: Mapping[str, Any], state: State) -> str:
    who = name(state, data["player"])
    where = f"{name(state, data['target'])}'s whole side" if data["area"] else _aimed_at(data, state)
    bonus = f" (+{data['bonus']}: {_sorcerer_name(state, data['player'])})" if data.get("bonus") else ""
    draws = f"; {who} draws {plural(data['draws'], 'card')}" if data.get("draws") else ""
    return f"{who} cast {data['name']} at {where} for {data['damage']}{bonus}: {_blow_text(data, state)}{draws}"


def _parse_attack(state: State, action: Sent) -> Data:
    return {"unit": units.find(state["tracker"]["units"], action.get("unit"))["id"], "target": _target(state, action)}


def _apply_attack(state: State, data: Data, strict: bool) -> tuple[State, Data]:
    t = state["tracker"]
    unit = units.get(state["tracker"]["units"], data["unit"])
    target = data["target"]
    if strict:
        _refuse_if_over(state)
        _refuse_if_waiting(state)
        assert unit is not None, "parse found it"
        if unit["kind"] != CREATURE:
            raise Invalid(f"{unit['name']} is a blocker, and blockers do not attack")
        if unit["owner"] != t["player"] or t["ended"]:
            whose = f"{name(state, t['player'])}'s" if t["player"] is not None and not t["ended"] else "nobody's (start a turn)"
            raise Invalid(f"it is {whose} turn: {units.called(state, unit)} attacks on its owner's turns")
        if summoning_sick(unit["turn"], t["turn"], bool(unit.get("haste"))):
            raise Invalid(f"{unit['name']} arrived this turn and cannot attack until its owner's next turn")
        if unit.get("attacked") == t["turn"]:
            raise Invalid(f"{unit['name']} has attacked this turn already")
        if _side_of(state, target) == unit["owner"]:
            raise Invalid(f"{unit['name']} attacks the other side, not its own")
    if unit is None:
        return state, {}
    attacker = units.called(state, unit)
    state = _units(state, unit["id"], {**unit, "attacked": t["turn"]})
    state, blow = _strike_one(state, target, unit["attack"])
    results: Data = {"attacker": attacker, "damage": unit["attack"], **blow}
    thorns = sum(_card(state, hit.get("card")).get("thorns", 0) for hit in blow.get("hits", []) if "unit" in hit)
    if thorns and units.get(state["tracker"]["units"], unit["id"]) is not None:
        state, pricked = _strike(state, unit["owner"], thorns, aim=unit["id"])
        results["thorns"] = {"damage": thorns, **pricked}
    return state, results


def _describe_attack(data: Mapping[str, Any], state: State) -> str:
    where = _aimed_at(data, state)
    text = f"{data.get('attacker', 'A creature')} attacked {where} for {data.get('damage', 0)}: {_blow_text(data, state)}"
    if data.get("thorns"):
        text += f"; thorns prick it for {data['thorns']['damage']}: {_blow_text(data['thorns'], state)}"
    return text


def _parse_unit_delta(state: State, action: Sent) -> Data:
    unit = units.find(state["tracker"]["units"], action.get("unit"))
    delta = whole(action.get("delta"), "delta", -MAX_AMOUNT, MAX_AMOUNT)
    if delta == 0:
        raise Invalid("a delta of 0 changes nothing")
    return {"unit": unit["id"], "delta": delta}


def _apply_unit_delta(state: State, data: Data, strict: bool) -> tuple[State, Data]:
    unit = units.get(state["tracker"]["units"], data["unit"])
    if unit is None:
        return state, {}
    if data["delta"] > 0:
        if strict and unit["health"] >= unit["max"]:
            raise Invalid(f"{unit['name']} has its full health of {unit['max']}")
        health = min(unit["max"], unit["health"] + data["delta"])
        hit = {"unit": unit["id"], "who": units.called(state, unit), "from": unit["health"], "to": health}
        return _units(state, unit["id"], {**unit, "health": health}), {"hits": [hit]}
    hits: list[Data] = []
    state = _hit_unit(state, unit, -data["delta"], hits)
    return state, {"hits": hits}


def _describe_unit_delta(data: Mapping[str, Any], state: State) -> str:
    return _hits_text(data.get("hits", []), state)


def _parse_unit(state: State, action: Sent) -> Data:
    return {"unit": units.find(state["tracker"]["units"], action.get("unit"))["id"]}


def _apply_remove(state: State, data: Data, strict: bool) -> tuple[State, Data]:
    unit = units.get(state["tracker"]["units"], data["unit"])
    if unit is None:
        return state, {}
    hits: list[Data] = []
    state = _hit_unit(state, unit, unit["health"], hits)
    return state, {"hits": hits}


def _describe_remove(data: Mapping[str, Any], state: State) -> str:
    hits = data.get("hits") or []
    if not hits:
        return "a unit left play"
    hit = hits[0]
    draws = f": {plural(hit['draws'], 'card')} to draw" if hit.get("draws") else ""
    death = f". When it dies: {hit['death']}" if hit.get("death") else ""
    return f"{hit['who']} was destroyed{draws}{_death_words(hit, state)}{death}"


def _gone(state: State, i: int) -> str | None:
    return "fallen" if value(state, HEALTH, i) <= 0 else None


TRACKER: Tracker[State] = Tracker(
    rules=rules,
    end=_the_end,
    initial=initial,
    settle=settle,
    life=HEALTH,
    gone=_gone,
    actions={
        "start_turn": Action(_parse_turn, _apply_turn, _describe_turn),
        "end_turn": Action(_parse_player, _apply_end, _describe_end),
        "convert": Action(_parse_player, _apply_convert, _describe_convert),
        "summon": Action(_parse_summon, _apply_summon, _describe_summon),
        "cast": Action(_parse_cast, _apply_cast, _describe_cast),
        "attack": Action(_parse_attack, _apply_attack, _describe_attack),
        "aim": Action(_parse_aim, _apply_aim, _describe_aim),
        "unit": Action(_parse_unit_delta, _apply_unit_delta, _describe_unit_delta),
        "remove": Action(_parse_unit, _apply_remove, _describe_remove),
    },
)
