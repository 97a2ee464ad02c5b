"""Sorcerer Duel: turns, mana, conversions, creatures and blockers.

At the start of a player's turn their mana is set to the YAML's `mana_per_turn` and the other
player's to 0: mana never carries over. Up to `max_conversions` cards a turn turn into
`mana_per_conversion` mana each. The first player does not draw on the game's first turn.
Creatures and blockers come from the player's own deck (their cost paid in mana), or are typed
in. A creature cannot attack in the turn it arrived, unless its card says it can (its `haste`
field, which also prints the words on the card; only a typed-in creature is said `ready` by the
phone), and attacks once a turn; its card's death effect is shown when it dies. Where an
attack's damage lands is the ruleset's sum (`one_target`, `whole_side`, as the rule helper
works it): the side's blockers take it first, in the order they
were placed; what gets past them goes to the one target (a sorcerer, or a creature, past whose
health it is lost), or is shared as evenly as possible over the side's creatures and sorcerer,
a creature needing less than its share taking only that. A creature that dies lets its owner
draw `draws_on_creature_death` cards.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Never, TypedDict

from ...models import Card, Game
from ...play import units
from ...play.errors import Conflict, Invalid
from ...play.inputs import MAX_AMOUNT, card_of, choice, flag, label, whole
from ...play.state import TableState, move, name, pad_players, player, put, settled, settled_players, value, with_tracker
from ...play.tracker import Action, Data, Sent, Tracker
from ...play.words import ARROW, plain_text, plural
from .ruleset import Constants, one_target, summoning_sick, turn_draws, whole_side

HEALTH, MANA = "health", "mana"  # the counters of game.yaml
CREATURE, BLOCKER, SPELL = "creature", "blocker", "attack-spell"  # card types of decks.yaml
AREA = "side"  # an attack spell's `target` that hits a whole side

# A card of a player's deck as the rules copy it: id, name, type, and those of cost, attack,
# health, damage and target that its type has.
DeckCard = dict[str, Any]


class Deck(TypedDict):
    name: str
    cards: list[DeckCard]


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


class Unit(units.Unit):
    card: str | None  # the deck's card, or None for one typed in
    haste: bool  # may attack in the turn it arrives


class Draw(TypedDict):
    count: int
    skipped: bool
    limit: int


class Fields(TypedDict):
    turn: int
    player: int | None  # whose turn it is
    first: int | None
    next: int | None
    conversions: int
    draw: Draw | None
    units: list[Unit]
    next_unit: int
    winner: int | None
    over: bool


class Mine(TypedDict):
    out: bool


State = TableState[Fields, Mine, Rules, Never]


def rules(game: Game, created: Mapping[str, Any]) -> Rules | None:
    c = game.constants_as(Constants)
    ids = {counter.id for counter in game.counters if counter.scope == "player"}
    if not {HEALTH, MANA} <= ids:
        return None

    elements = [e.name for e in game.elements]

    def card(card: Card) -> DeckCard:
        fields = {k: card.get(k) for k in ("cost", "attack", "health", "damage", "target", "haste") if card.get(k) is not None}
        words = {k: plain_text(card[k], elements) for k in ("text", "death") if card.get(k)}
        return {"id": card.id, "name": card.name, "type": card.type, **fields, **words}

    decks: dict[str, Deck] = {}
    for deck_id in c.player_decks:
        deck = game.decks.get(deck_id)
        if deck:
            decks[deck_id] = {"name": deck.name, "cards": [card(x) for x in deck.cards if x.type in (CREATURE, BLOCKER, SPELL)]}
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
    }


PLAYER: Mine = {"out": False}


def initial(state: State) -> State:
    tracker: Fields = {
        "turn": 0, "player": None, "first": None, "next": None, "conversions": 0, "draw": None,
        "units": [], "next_unit": 1, "winner": None, "over": False,
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


def _refuse_if_over(state: State) -> None:
    t = state["tracker"]
    if t["over"]:
        won = f"{name(state, t['winner'])} has won" if t["winner"] is not None else "both sorcerers fell"
        raise Conflict(f"the duel is over: {won}")


def _own_turn(state: State, who: int, doing: str) -> None:
    _refuse_if_over(state)
    current = state["tracker"]["player"]
    if current is None:
        raise Invalid(f"no turn has started: start {name(state, who)}'s turn first")
    if current != who:
        raise Invalid(f"{name(state, who)} {doing} on their own turn; it is {name(state, current)}'s")


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


# ---------------------------------------------------------------------------- damage


def _units(state: State, uid: str, unit: Unit | None) -> State:
    """The state with unit `uid` changed to `unit`, or gone if `unit` is None."""
    return with_tracker(state, lambda f: {**f, "units": units.replaced(f["units"], uid, unit)})


def _hit_unit(state: State, unit: Unit, amount: int, hits: list[Data]) -> State:
    health = unit["health"] - amount
    hit: Data = {"unit": unit["id"], "who": units.called(state, unit), "damage": amount, "from": unit["health"], "to": max(health, 0)}
    if health <= 0:
        state = _units(state, unit["id"], None)
        hit["destroyed"] = True
        if unit["kind"] == CREATURE:
            hit["draws"] = state["rules"]["death_draws"]
        death = _death(state, unit)
        if death:
            hit["death"] = death
    else:
        state = _units(state, unit["id"], {**unit, "health": health})
    hits.append(hit)
    return state


def _death(state: State, unit: Unit) -> str | None:
    """What the card of a creature says happens when it dies (its `death`)."""
    if unit.get("card") is None:
        return None
    card = next((c for deck in state["rules"]["decks"].values() for c in deck["cards"] if c["id"] == unit["card"]), None)
    death: str | None = card.get("death") if card else None
    return death


def _strike(state: State, side: int, damage: int, aim: str | None = None, area: bool = False) -> tuple[State, Data]:
    """`damage` dealt to player `side`'s side where the ruleset's sums put it: through the blockers
    (in the order they were placed) to the sorcerer, or to creature `aim`, or over the whole side
    (`area`). Each unit and the sorcerer take what the sums give them."""
    in_play = state["tracker"]["units"]
    blockers, creatures = units.owned(in_play, side, BLOCKER), units.owned(in_play, side, CREATURE)
    guards, health = [u["health"] for u in blockers], [u["health"] for u in creatures]
    if area:
        blow = whole_side(damage, guards, health)
    else:
        index = None if aim is None else [u["id"] for u in creatures].index(aim)
        blow = one_target(damage, guards, health, index)
    hits: list[Data] = []
    for unit, took in zip(blockers + creatures, blow.blockers + blow.creatures):
        if took:
            state = _hit_unit(state, unit, took, hits)
    if blow.sorcerer:
        state, before, after = move(state, HEALTH, -blow.sorcerer, side)
        hits.append({"player": side, "who": name(state, side), "damage": blow.sorcerer, "from": before, "to": after})
    return state, {"hits": hits, "lost": blow.lost, "odd": blow.odd}


def _strike_one(state: State, target: int | str, damage: int) -> tuple[State, Data]:
    """A one-target attack at a sorcerer (a player's number) or a creature (a unit's id)."""
    if isinstance(target, int):
        state, results = _strike(state, target, damage)
        return state, {"at": name(state, target), **results}
    unit = units.get(state["tracker"]["units"], target)
    if unit is None or unit["kind"] != CREATURE:  # gone since: an undo replayed the log under it
        return state, {}
    state, results = _strike(state, unit["owner"], damage, aim=target)
    return state, {"at": units.called(state, unit), **results}


def _hits_text(hits: list[Data]) -> str:
    parts = []
    for hit in hits:
        change = f"{hit['from']} {ARROW} {hit['to']}"
        if hit.get("destroyed"):
            change += ", destroyed" + (f": draws {plural(hit['draws'], 'card')}" if hit.get("draws") else "")
            change += f"; when it dies: {hit['death']}" if hit.get("death") else ""
        parts.append(f"{hit['who']} takes {hit['damage']} ({change})" if "damage" in hit else f"{hit['who']} {change}")
    return "; ".join(parts) if parts else "no effect"


def _blow_text(data: Mapping[str, Any], state: State) -> str:
    """Who took what, and where damage went that nobody took."""
    text = _hits_text(data.get("hits", []))
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


# ---------------------------------------------------------------------------- turns and mana


def _parse_player(state: State, action: Sent) -> Data:
    return {"player": player(state, action.get("player"))}


def _apply_turn(state: State, data: Data, strict: bool) -> tuple[State, Data]:
    t, r, who = state["tracker"], state["rules"], data["player"]
    if strict:
        _refuse_if_over(state)
        if t["player"] == who:
            raise Conflict(f"it is {name(state, who)}'s turn already")
    first = t["first"] if t["first"] is not None else who
    skipped = bool(r["first_skips_draw"] and t["turn"] == 0)
    draws = turn_draws(r["first_skips_draw"], t["turn"] == 0, r["draws_per_turn"])
    state, before, after = put(state, MANA, r["mana_per_turn"], who)
    for other in range(len(state["players"])):
        if other != who:
            state, _, _ = put(state, MANA, 0, other)
    turn = t["turn"] + 1
    state = with_tracker(state, lambda f: {
        **f, "turn": turn, "player": who, "first": first, "conversions": 0,
        "draw": {"count": draws, "skipped": skipped, "limit": r["hand_limit"]},
    })
    return state, {"turn": turn, "mana": {"from": before, "to": after}, "draws": draws, "skipped_draw": skipped}


def _describe_turn(data: Mapping[str, Any], state: State) -> str:
    who = name(state, data["player"])
    if "turn" not in data:
        return f"{who}'s turn"
    mana = data["mana"]["to"]
    if data["skipped_draw"]:
        return f"Turn {data['turn']}: {who} goes first with {mana} mana, and draws no card this first turn"
    limit = state["rules"]["hand_limit"]
    return f"Turn {data['turn']}: {who}, {mana} mana; draw {plural(data['draws'], 'card')} (none with {limit} in hand)"


def _apply_convert(state: State, data: Data, strict: bool) -> tuple[State, Data]:
    t, r, who = state["tracker"], state["rules"], data["player"]
    if strict:
        _own_turn(state, who, "converts cards")
        if t["conversions"] >= r["max_conversions"]:
            raise Invalid(
                f"{name(state, who)} has converted {plural(t['conversions'], 'card')} this turn, the most a turn allows"
            )
    state, before, after = move(state, MANA, r["mana_per_conversion"], who)
    state = with_tracker(state, lambda f: {**f, "conversions": t["conversions"] + 1})
    return state, {"mana": {"from": before, "to": after}, "conversions": t["conversions"] + 1}


def _describe_convert(data: Mapping[str, Any], state: State) -> str:
    who = name(state, data["player"])
    if "mana" not in data:
        return f"{who} converted a card to mana"
    limit = state["rules"]["max_conversions"]
    return f"{who} converted a card ({data['conversions']} of {limit}): mana {data['mana']['from']} {ARROW} {data['mana']['to']}"


# ---------------------------------------------------------------------------- summoning, casting


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
    return data


def _apply_summon(state: State, data: Data, strict: bool) -> tuple[State, Data]:
    who = data["player"]
    if strict:
        _own_turn(state, who, "summons")
    state, mana = _pay(state, who, data["cost"], data["name"], strict)
    t = state["tracker"]
    unit: Unit = {
        "id": units.new_id(t["units"], t["next_unit"]),
        "owner": who, "kind": data["kind"], "name": data["name"], "card": data["card"], "attack": data["attack"],
        "health": data["health"], "max": data["health"], "turn": t["turn"], "attacked": None,
        "haste": data["ready"], "ready": False,
    }
    state = with_tracker(state, lambda f: {**f, "units": [*f["units"], unit], "next_unit": f["next_unit"] + 1})
    return state, {"unit": unit["id"], "mana": mana}


def _describe_summon(data: Mapping[str, Any], state: State) -> str:
    who = name(state, data["player"])
    stats = f"attack {data['attack']}, health {data['health']}" if data["kind"] == CREATURE else f"health {data['health']}"
    paid = f" for {data['cost']} mana" if data["cost"] else ""
    return f"{who} summoned {data['name']} ({stats}){paid}"


def _parse_cast(state: State, action: Sent) -> Data:
    who = player(state, action.get("player"))
    data: Data = {"player": who}
    if action.get("card") is not None:
        card = card_of(_deck_cards(state, who, (SPELL,)), action.get("card"), f"attack spell of {name(state, who)}'s deck")
        data.update(card=card["id"], name=card["name"], damage=card["damage"], area=card.get("target") == AREA,
                    cost=card.get("cost", 0))
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
        state, blow = _strike(state, data["target"], data["damage"], area=True)
    else:
        state, blow = _strike_one(state, data["target"], data["damage"])
    return state, {"mana": mana, **blow}


def _describe_cast(data: Mapping[str, Any], state: State) -> str:
    who = name(state, data["player"])
    where = f"{name(state, data['target'])}'s whole side" if data["area"] else _aimed_at(data, state)
    return f"{who} cast {data['name']} at {where} for {data['damage']}: {_blow_text(data, state)}"


def _parse_attack(state: State, action: Sent) -> Data:
    return {"unit": units.find(state["tracker"]["units"], action.get("unit"))["id"], "target": _target(state, action)}


def _apply_attack(state: State, data: Data, strict: bool) -> tuple[State, Data]:
    t = state["tracker"]
    unit = units.get(state["tracker"]["units"], data["unit"])
    target = data["target"]
    if strict:
        _refuse_if_over(state)
        assert unit is not None, "parse found it"
        if unit["kind"] != CREATURE:
            raise Invalid(f"{unit['name']} is a blocker, and blockers do not attack")
        if unit["owner"] != t["player"]:
            whose = f"{name(state, t['player'])}'s" if t["player"] is not None else "nobody's (start a turn)"
            raise Invalid(f"it is {whose} turn: {units.called(state, unit)} attacks on its owner's turns")
        if summoning_sick(unit["turn"], t["turn"], bool(unit.get("haste"))):
            raise Invalid(f"{unit['name']} arrived this turn and cannot attack until its owner's next turn")
        if unit.get("attacked") == t["turn"]:
            raise Invalid(f"{unit['name']} has attacked this turn already")
        owner = units.find(state["tracker"]["units"], target)["owner"] if isinstance(target, str) else target
        if owner == unit["owner"]:
            raise Invalid(f"{unit['name']} attacks the other side, not its own")
    if unit is None:
        return state, {}
    attacker = units.called(state, unit)
    state = _units(state, unit["id"], {**unit, "attacked": t["turn"]})
    state, blow = _strike_one(state, target, unit["attack"])
    return state, {"attacker": attacker, "damage": unit["attack"], **blow}


def _describe_attack(data: Mapping[str, Any], state: State) -> str:
    where = _aimed_at(data, state)
    return f"{data.get('attacker', 'A creature')} attacked {where} for {data.get('damage', 0)}: {_blow_text(data, state)}"


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
    return _hits_text(data.get("hits", []))


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
    return f"{hit['who']} was destroyed{draws}{death}"


def _gone(state: State, i: int) -> str | None:
    return "fallen" if value(state, HEALTH, i) <= 0 else None


TRACKER: Tracker[State] = Tracker(
    rules=rules,
    initial=initial,
    settle=settle,
    life=HEALTH,
    gone=_gone,
    actions={
        "start_turn": Action(_parse_player, _apply_turn, _describe_turn),
        "convert": Action(_parse_player, _apply_convert, _describe_convert),
        "summon": Action(_parse_summon, _apply_summon, _describe_summon),
        "cast": Action(_parse_cast, _apply_cast, _describe_cast),
        "attack": Action(_parse_attack, _apply_attack, _describe_attack),
        "unit": Action(_parse_unit_delta, _apply_unit_delta, _describe_unit_delta),
        "remove": Action(_parse_unit, _apply_remove, _describe_remove),
    },
)
