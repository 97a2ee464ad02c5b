"""PowerMage 54: points, defeat at 0, the empty-deck halving, and attacks worked out from the cards.

When the draw deck runs out, every player still in the game has their points divided by the
YAML's `empty_deck_divisor`, rounding down. A player at 0 points is defeated and out; the last
one standing wins. An attack is its card's value, times a thump card's multiplier, less the
defense card's value times its own thump, never below 0; a health card adds its value, times a
thump's. A thump needs a PowerMage shown (when the YAML says so): the action names it, and is
refused without it by the same function (the ruleset's `attack`, `heal`) as the rule helper.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Never, NotRequired, TypedDict, cast

from ...models import Game
from ...play.errors import Conflict, Invalid
from ...play.inputs import card_of
from ...play.state import TableState, move, name, pad_players, player, put, settled, settled_players, value, with_tracker
from ...play.tracker import Action, Data, Sent, Tracker
from ...play.words import ARROW
from .ruleset import Constants, defeated, halved, played
from .ruleset import attack as play_attack
from .ruleset import heal as play_heal

POINTS = "points"  # the counter of game.yaml
ATTACK, DEFENSE, HEALTH, THUMP, POWERMAGE = "attack", "defense", "health", "thump", "powermage"  # card types of decks.yaml


class Card(TypedDict):
    id: str
    name: str
    count: NotRequired[int]  # copies in the deck (kept since thumps were checked against it)
    value: NotRequired[int]  # an attack, defense or health card's
    multiplier: NotRequired[int]  # a thump card's


class Rules(TypedDict):
    points: str
    divisor: int
    thump_needs_powermage: bool
    cards: dict[str, list[Card]]  # by type: attack, defense, health, thump, powermage


class Last(TypedDict):
    attacker: int
    target: int
    damage: int


class Fields(TypedDict):
    winner: int | None
    over: bool
    halvings: int
    last: Last | None


class Mine(TypedDict):
    defeated: bool


State = TableState[Fields, Mine, Rules, Never]


def rules(game: Game, created: Mapping[str, Any]) -> Rules | None:
    c = game.constants_as(Constants)
    if not any(counter.id == POINTS and counter.scope == "player" for counter in game.counters):
        return None
    cards: dict[str, list[Card]] = {ATTACK: [], DEFENSE: [], HEALTH: [], THUMP: [], POWERMAGE: []}
    for card in game.cards:
        if ((card.type in (ATTACK, DEFENSE, HEALTH) and card.get("value") is not None)
                or (card.type == THUMP and card.get("multiplier") is not None) or card.type == POWERMAGE):
            cards[card.type].append(cast(Card, played(card)))
    for kind in cards:
        cards[kind].sort(key=lambda card: (card.get("value", card.get("multiplier", 0)), card["name"]))
    return {"points": POINTS, "divisor": c.empty_deck_divisor, "thump_needs_powermage": c.thump_needs_powermage, "cards": cards}


PLAYER: Mine = {"defeated": False}


def initial(state: State) -> State:
    return {**state, "tracker": {"winner": None, "over": False, "halvings": 0, "last": None}}


def settle(state: State) -> State:
    state = pad_players(state, PLAYER)
    state = settled_players(state, lambda i, p: {**p["tracker"], "defeated": defeated(p["counters"].get(POINTS, 0))})
    standing = [i for i, p in enumerate(state["players"]) if not p["tracker"]["defeated"]]
    over = len(state["players"]) >= 2 and len(standing) <= 1
    return settled(state, lambda t: {**t, "over": over, "winner": standing[0] if over and standing else None})


def _refuse_if_over(state: State) -> None:
    t = state["tracker"]
    if t["over"]:
        won = f"{name(state, t['winner'])} has won" if t["winner"] is not None else "everyone is defeated"
        raise Conflict(f"the game is over: {won}")


def _in_game(state: State, who: int) -> None:
    if state["players"][who]["tracker"].get("defeated"):
        raise Invalid(f"{name(state, who)} is defeated and out of the game")


def _apply_halve(state: State, data: Data, strict: bool) -> tuple[State, Data]:
    if strict:
        _refuse_if_over(state)
    divisor = state["rules"]["divisor"]
    changes = []
    for i in range(len(state["players"])):
        if state["players"][i]["tracker"].get("defeated"):
            continue
        state, before, after = put(state, POINTS, halved(value(state, POINTS, i), divisor), i)
        changes.append({"player": i, "from": before, "to": after})
    state = with_tracker(state, lambda t: {**t, "halvings": t["halvings"] + 1})
    return state, {"points": changes, "divisor": divisor}


def _describe_halve(data: Mapping[str, Any], state: State) -> str:
    changes = ", ".join(f"{name(state, c['player'])} {c['from']} {ARROW} {c['to']}" for c in data.get("points", []))
    return f"The draw deck ran out: everyone's points are divided by {data['divisor']}, rounding down: {changes}"


def _optional(state: State, action: Sent, key: str, kind: str) -> Card | None:
    if action.get(key) is None:
        return None
    what = "PowerMage" if kind == POWERMAGE else f"{kind} card"
    return card_of(state["rules"]["cards"].get(kind, []), action.get(key), what)


def _parse_attack(state: State, action: Sent) -> Data:
    attacker = player(state, action.get("attacker"), "attacker")
    target = player(state, action.get("target"), "target")
    if attacker == target:
        raise Invalid("a player does not attack themselves")
    attack = card_of(state["rules"]["cards"][ATTACK], action.get("attack"), "attack card")
    thump = _optional(state, action, "thump", THUMP)
    mage = _optional(state, action, "powermage", POWERMAGE)
    defense = _optional(state, action, "defense", DEFENSE)
    guard = _optional(state, action, "defense_thump", THUMP)
    guard_mage = _optional(state, action, "defense_powermage", POWERMAGE)
    sums = play_attack(state["rules"]["thump_needs_powermage"], attack, thump, mage, defense, guard, guard_mage)
    data: Data = {
        "attacker": attacker, "target": target, "attack": attack["id"], "thump": thump and thump["id"],
        "defense": defense and defense["id"], "defense_thump": guard and guard["id"],
        "strength": sums.strength, "block": sums.block, "damage": sums.damage,
    }
    if mage or guard_mage:
        data.update(powermage=mage and mage["id"], defense_powermage=guard_mage and guard_mage["id"])
    return data


def _apply_attack(state: State, data: Data, strict: bool) -> tuple[State, Data]:
    if strict:
        _refuse_if_over(state)
        _in_game(state, data["attacker"])
        _in_game(state, data["target"])
    state, before, after = move(state, POINTS, -data["damage"], data["target"])
    state = with_tracker(state, lambda t: {**t, "last": {"attacker": data["attacker"], "target": data["target"], "damage": data["damage"]}})
    return state, {"from": before, "to": after}


def _card_name(state: State, kind: str, card_id: str | None) -> str:
    return next((c["name"] for c in state["rules"]["cards"].get(kind, []) if c["id"] == card_id), card_id or "")


def _thump_text(state: State, thump: str | None, powermage: str | None) -> str:
    if not thump:
        return ""
    shown = f", {_card_name(state, POWERMAGE, powermage)} shown" if powermage else ""
    return f" thumped by {_card_name(state, THUMP, thump)}{shown}"


def _describe_attack(data: Mapping[str, Any], state: State) -> str:
    attack = _card_name(state, ATTACK, data["attack"]) + _thump_text(state, data["thump"], data.get("powermage"))
    text = f"{name(state, data['attacker'])} attacked {name(state, data['target'])} with {attack} ({data['strength']})"
    if data["defense"]:
        guard = _thump_text(state, data["defense_thump"], data.get("defense_powermage"))
        text += f"; {_card_name(state, DEFENSE, data['defense'])}{guard} blocks {data['block']}"
    text += f": {data['damage']} damage"
    if "to" in data:
        text += f", {name(state, data['target'])} {data['from']} {ARROW} {data['to']}"
    return text


def _parse_heal(state: State, action: Sent) -> Data:
    who = player(state, action.get("player"))
    card = card_of(state["rules"]["cards"][HEALTH], action.get("health"), "health card")
    thump = _optional(state, action, "thump", THUMP)
    mage = _optional(state, action, "powermage", POWERMAGE)
    data: Data = {"player": who, "health": card["id"], "thump": thump and thump["id"],
                  "amount": play_heal(state["rules"]["thump_needs_powermage"], card, thump, mage)}
    if mage:
        data["powermage"] = mage["id"]
    return data


def _apply_heal(state: State, data: Data, strict: bool) -> tuple[State, Data]:
    if strict:
        _refuse_if_over(state)
        _in_game(state, data["player"])
    state, before, after = move(state, POINTS, data["amount"], data["player"])
    return state, {"from": before, "to": after}


def _describe_heal(data: Mapping[str, Any], state: State) -> str:
    card = _card_name(state, HEALTH, data["health"]) + _thump_text(state, data["thump"], data.get("powermage"))
    text = f"{name(state, data['player'])} played {card}: +{data['amount']}"
    return text + (f", {data['from']} {ARROW} {data['to']}" if "to" in data else "")


def _parse_nothing(state: State, action: Sent) -> Data:
    return {}


def _gone(state: State, i: int) -> str | None:
    return "defeated" if defeated(value(state, POINTS, i)) else None


TRACKER: Tracker[State] = Tracker(
    rules=rules,
    initial=initial,
    settle=settle,
    life=POINTS,
    gone=_gone,
    actions={
        "halve": Action(_parse_nothing, _apply_halve, _describe_halve, ordered=True),
        "attack": Action(_parse_attack, _apply_attack, _describe_attack),
        "heal": Action(_parse_heal, _apply_heal, _describe_heal),
    },
)
