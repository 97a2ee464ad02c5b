"""Spellchamber: rounds, the scenario deck, the Wizard Gun's chamber, battle turns, ghosts.

A round starts with the top card of the scenario deck (the duel or the group deck, by the number
of players; the card the table chose, by default the YAML's `beginner_scenario`, on top for the first
round). Its Live, Magic and Blank counts make the chamber, shuffled on the server; the order
stays hidden, and only each shot reveals a card. The battle player aims at anyone (themselves
included; ghosts cannot be aimed at) and shoots; the card's effect is the YAML's (`ammo`). A
shot ends the battle turn, unless a spell lets the player shoot again. The round ends the moment
the chamber is empty: every wizard powers down, and whoever would have taken the next turn is
the next round's battle player. With `ghosts_from_players` or more players a wizard at 0 life
becomes a ghost; the last wizard standing wins.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any, NotRequired, TypedDict

from ...models import Game
from ...play.errors import Conflict, Invalid
from ...play.inputs import flag, whole
from ...play.state import (
    Player,
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
    with_hidden,
    with_mine,
    with_tracker,
)
from ...play.tracker import Action, Data, Sent, Tracker
from ...play.words import ARROW, plural
from .helpers import next_shot
from .ruleset import Constants, deck_for, roll_off, roll_off_winner, shot_effect
from .spells import rearranged

LIFE = "life"  # the counter that holds a wizard's life (game.yaml's counters)

# A scenario card as the rules copy it: id, name, number, count, spells_per_player, and how many
# cards of each ammo kind its chamber holds, by the kind's name (the YAML's `ammo`).
Scenario = dict[str, Any]


class ScenarioDeck(TypedDict):
    name: str
    players: list[int]  # [fewest, most]
    cards: list[Scenario]


class Ammo(TypedDict):
    name: str
    life_loss: int
    drafts: int
    extra_turn_if_self: bool


class Rules(TypedDict):
    life: str
    kinds: list[str]  # the ammo kinds, in the YAML's order
    ammo: dict[str, Ammo]
    max_extra_turns: int
    ghosts_from: int
    ghost_drafts: int
    spell_slots: int
    die_sides: int
    scenario_decks: dict[str, ScenarioDeck]


class Turn(TypedDict):
    player: int
    extra: bool  # an extra turn
    earned: int  # extra turns earned in this one
    owed: int  # extra turns still owed
    shots: int


class Chamber(TypedDict):
    size: int
    left: dict[str, int]  # cards of each kind still in it
    spent: list[str]  # the kinds shot, in order


class Draft(TypedDict):
    first: int
    spells: int


class Fields(TypedDict):
    round: int
    phase: str  # "ready" between rounds, "battle" while the chamber holds cards
    deck: str | None  # the scenario deck in use
    scenario: Scenario | None
    scenarios_left: int | None
    turn: Turn | None
    next: int | None  # the next round's battle player, once a round is over
    chamber: Chamber
    draft: Draft | None  # who drafts first, and how many spells are laid out
    rolls: list[list[list[int]]] | None  # the roll-off for the first battle player: rounds of [player, roll]
    last: Data | None  # the latest shot, as its event says it
    winner: int | None
    over: bool
    odds: NotRequired[dict[str, float] | None]  # the next shot's chances in percent, once settled


class Mine(TypedDict):
    powered: bool
    alive: bool
    ghost: bool
    out: bool


class Hidden(TypedDict):
    chamber: list[str]  # the shuffled chamber, top first
    scenarios: list[str]  # the scenario deck, top first


State = TableState[Fields, Mine, Rules, Hidden]


def rules(game: Game, created: Mapping[str, Any]) -> Rules | None:
    c = game.constants_as(Constants)
    if not any(counter.id == LIFE and counter.scope == "player" for counter in game.counters):
        return None
    kinds = list(c.ammo)
    decks: dict[str, ScenarioDeck] = {}
    for key, spec in c.scenario_decks.items():
        deck = game.decks.get(spec.deck)
        cards = sorted(deck.cards, key=lambda card: card.get("number") or 0) if deck else []
        decks[key] = {
            "name": deck.name if deck else key,
            "players": [spec.players.min, spec.players.max],
            "cards": [
                {
                    "id": card.id, "name": card.name, "number": card.get("number"), "count": card.count,
                    "spells_per_player": card.get("spells_per_player", 0), **{k: card.get(k, 0) for k in kinds},
                }
                for card in cards
            ],
        }
    return {
        "life": LIFE,
        "kinds": kinds,
        "ammo": {
            k: {"name": e.name, "life_loss": e.life_loss, "drafts": e.drafts, "extra_turn_if_self": e.extra_turn_if_self}
            for k, e in c.ammo.items()
        },
        "max_extra_turns": c.max_extra_turns_per_turn,
        "ghosts_from": c.ghosts_from_players,
        "ghost_drafts": c.ghost_drafts,
        "spell_slots": c.spell_slots,
        "die_sides": c.die_sides,
        "scenario_decks": decks,
    }


PLAYER: Mine = {"powered": False, "alive": True, "ghost": False, "out": False}



def initial(state: State) -> State:
    kinds = state["rules"]["kinds"]
    tracker: Fields = {
        "round": 0,
        "phase": "ready",
        "deck": None,
        "scenario": None,
        "scenarios_left": None,
        "turn": None,
        "next": None,
        "chamber": {"size": 0, "left": dict.fromkeys(kinds, 0), "spent": []},
        "draft": None,
        "rolls": None,
        "last": None,
        "winner": None,
        "over": False,
    }
    return {**state, "tracker": tracker, "hidden": {"chamber": [], "scenarios": []}}


# ---------------------------------------------------------------------------- settling


def _standing(state: State) -> list[int]:
    """The wizards still alive (life above 0), by their counters."""
    return [i for i, p in enumerate(state["players"]) if p["counters"].get(LIFE, 0) > 0]


def _ended(state: State) -> bool:
    """One wizard (or none) is left standing: the game is over."""
    return len(state["players"]) >= 2 and len(_standing(state)) <= 1


def settle(state: State) -> State:
    state = pad_players(state, PLAYER)
    n = len(state["players"])
    ghosts_from = state["rules"]["ghosts_from"]

    def derive(i: int, p: Player[Mine]) -> Mine:
        lives = p["counters"].get(LIFE, 0) > 0
        ghost = not lives and n >= ghosts_from
        powered = True if ghost else bool(p["tracker"].get("powered")) and lives
        return {**p["tracker"], "alive": lives, "ghost": ghost, "out": not lives and not ghost, "powered": powered}

    state = settled_players(state, derive)
    alive, over = _standing(state), _ended(state)
    winner = alive[0] if over and alive else None
    return settled(state, lambda t: _finished(t, winner) if over else {**t, "winner": None, "over": False, "odds": _odds(t)})


def _finished(t: Fields, winner: int | None) -> Fields:
    """A game that is over has no battle turn and no next battle player: nobody is named to play
    who can no longer play (bringing a wizard back after reopening it starts a new round)."""
    return {**t, "winner": winner, "over": True, "odds": None, "phase": "ready", "turn": None, "next": None}


def _odds(t: Fields) -> dict[str, float] | None:
    """The chance, in percent, that the next shot is each kind: what the rule helper says of
    the cards left (none outside a round)."""
    left = t["chamber"]["left"]
    if t["phase"] != "battle" or not sum(left.values()):
        return None
    return {k: round(float(f) * 100, 1) for k, f in next_shot(left, dict.fromkeys(left, 0)).items()}


# ---------------------------------------------------------------------------- helpers


def _deck_for(state: State) -> str:
    n = len(state["players"])
    key = deck_for({k: (d["players"][0], d["players"][1]) for k, d in state["rules"]["scenario_decks"].items()}, n)
    if key is None:
        raise Invalid(f"no scenario deck is for {n} players")
    return key


def _scenario(state: State, card_id: str) -> Scenario | None:
    for deck in state["rules"]["scenario_decks"].values():
        for card in deck["cards"]:
            if card["id"] == card_id:
                return card
    return None


def _refuse_if_over(state: State) -> None:
    t = state["tracker"]
    if t["over"]:
        won = f"{name(state, t['winner'])} has won" if t["winner"] is not None else "no wizard is standing"
        raise Conflict(f"the game is over: {won}")


def _in_battle(state: State) -> None:
    _refuse_if_over(state)
    t = state["tracker"]
    if t["phase"] != "battle" or not state["hidden"]["chamber"]:
        raise Conflict(f"no round is being played: start round {t['round'] + 1}")


def turn_after(turn: Turn, n: int) -> Turn:
    """The battle turn after `turn`: the same player's if they are owed an extra turn."""
    owed = turn["owed"] + turn["earned"]
    if owed > 0:
        return {"player": turn["player"], "extra": True, "earned": 0, "owed": owed - 1, "shots": 0}
    return {"player": (turn["player"] + 1) % n, "extra": False, "earned": 0, "owed": 0, "shots": 0}


def _end_round(state: State, after: Turn) -> State:
    """The chamber is empty: every wizard powers down (ghosts stay powered up)."""
    for i in range(len(state["players"])):
        if not mine(state, i).get("ghost"):
            state = with_mine(state, i, lambda m: {**m, "powered": False})
    return with_tracker(state, lambda t: {**t, "phase": "ready", "turn": None, "next": after["player"]})


def _left(chamber: list[str], kinds: list[str]) -> dict[str, int]:
    counts = Counter(chamber)
    return {k: counts.get(k, 0) for k in kinds}


# ---------------------------------------------------------------------------- start a round


def _parse_none(state: State, action: Sent) -> Data:
    return {}


def _draw_round(state: State, inputs: Data, randbelow: RandBelow) -> Data:
    _refuse_if_over(state)
    t = state["tracker"]
    if t["phase"] == "battle":
        raise Conflict(f"round {t['round']} is still being played: the chamber holds {plural(len(state['hidden']['chamber']), 'card')}")
    key = _deck_for(state)
    hidden: Data = {}
    order = state["hidden"]["scenarios"] if t["deck"] == key else []
    if not order:
        ids = [c["id"] for c in state["rules"]["scenario_decks"][key]["cards"] for _ in range(max(c["count"], 1))]
        first = state["options"].get("scenario")
        if t["round"] == 0 and first is not None and first in ids:
            ids.remove(first)
            order = [first, *shuffled(ids, randbelow)]
        else:
            order = shuffled(ids, randbelow)
        hidden["scenarios"] = order
    card = _scenario(state, order[0])
    assert card is not None, "the scenario deck holds the rules' scenario cards"
    kinds = state["rules"]["kinds"]
    hidden["chamber"] = shuffled([k for k in kinds for _ in range(card.get(k, 0))], randbelow)
    out: Data = {"hidden": hidden}
    if t["round"] == 0 and state.get("first_player") is None:
        sides = state["rules"]["die_sides"]
        contenders = [i for i in range(len(state["players"])) if mine(state, i).get("alive", True)]
        out["rolls"] = roll_off(contenders, sides, randbelow)
    return out


def _apply_round(state: State, data: Data, strict: bool) -> tuple[State, Data]:
    t = state["tracker"]
    hidden = data.get("hidden", {})
    order = hidden.get("scenarios") or state["hidden"]["scenarios"]
    if not order or "chamber" not in hidden:
        return state, {}
    card = _scenario(state, order[0]) or {}
    key = _deck_for(state) if "scenarios" in hidden else t["deck"]
    n = len(state["players"])
    if t["round"] == 0:
        won, first = roll_off_winner(data.get("rolls") or []), state.get("first_player")
        battle = won if won is not None else first if first is not None else 0
    else:
        battle = t["next"] if t["next"] is not None else 0
    battle %= n
    chamber = list(hidden["chamber"])
    kinds = state["rules"]["kinds"]
    summary = {k: card.get(k, 0) for k in ("id", "name", "number", "spells_per_player", *kinds)}
    state = with_hidden(state, lambda h: {**h, "scenarios": order[1:], "chamber": chamber})
    state = with_tracker(state, lambda f: {
        **f,
        "round": t["round"] + 1,
        "phase": "battle",
        "deck": key,
        "scenario": summary,
        "scenarios_left": len(order) - 1,
        "turn": {"player": battle, "extra": False, "earned": 0, "owed": 0, "shots": 0},
        "next": None,
        "chamber": {"size": len(chamber), "left": _left(chamber, kinds), "spent": []},
        "draft": {"first": (battle - 1) % n, "spells": card.get("spells_per_player", 0) * n},
        "rolls": data.get("rolls") or t["rolls"],
        "last": None,
    })
    results = {"round": t["round"] + 1, "scenario": summary, "battle": battle, "reshuffled": "scenarios" in hidden}
    if t["deck"] is not None and key != t["deck"]:
        results.update(deck=key, players=n)  # the players' number changed between rounds: so did the scenario deck
    return state, results


def _describe_round(data: Mapping[str, Any], state: State) -> str:
    if "scenario" not in data:
        return "a round began"
    card, kinds, ammo = data["scenario"], state["rules"]["kinds"], state["rules"]["ammo"]
    text = ""
    for rolled in data.get("rolls") or []:
        text += "Rolls: " + ", ".join(f"{name(state, i)} {r}" for i, r in rolled) + ". "
    chamber = ", ".join(f"{card[k]} {ammo[k]['name']}" for k in kinds)
    if data.get("deck"):
        deck = state["rules"]["scenario_decks"][data["deck"]]["name"]
        text += f"With {plural(data['players'], 'player')} now, the scenarios come from the {deck}. "
    text += (
        f"Round {data['round']}: {card['name']}, {plural(card['spells_per_player'], 'spell')} each; "
        f"the chamber holds {chamber}, shuffled. {name(state, data['battle'])} is the battle player."
    )
    if data.get("reshuffled") and data["round"] > 1:
        text = "The scenario deck was shuffled. " + text
    return text


# ---------------------------------------------------------------------------- shooting


def _parse_shoot(state: State, action: Sent) -> Data:
    return {
        "shooter": player(state, action.get("shooter"), "shooter"),
        "target": player(state, action.get("target"), "target"),
        "again": flag(action.get("again"), "again"),
    }


def _apply_shoot(state: State, data: Data, strict: bool) -> tuple[State, Data]:
    shooter, target = data["shooter"], data["target"]
    t = state["tracker"]
    if strict:
        _in_battle(state)
        assert t["turn"] is not None, "a round in battle has a battle turn"
        battle = t["turn"]["player"]
        if shooter != battle:
            raise Invalid(f"it is {name(state, battle)}'s battle turn, not {name(state, shooter)}'s")
        if not mine(state, shooter).get("alive"):
            raise Invalid(f"{name(state, shooter)} is a ghost: ghosts cannot shoot the Wizard Gun")
        if not mine(state, target).get("alive"):
            raise Invalid(f"{name(state, target)} is a ghost and cannot be aimed at")
    chamber = state["hidden"]["chamber"]
    if not chamber or t["turn"] is None:
        return state, {}
    r = state["rules"]
    kind, rest = chamber[0], chamber[1:]
    effect = r["ammo"][kind]
    results: Data = {"card": kind, "name": effect["name"], "round": t["round"]}
    state = with_hidden(state, lambda h: {**h, "chamber": rest})
    state, before, after = move(state, LIFE, -effect["life_loss"], target)
    if effect["life_loss"]:
        results["life"] = {"from": before, "to": after}
    if effect["drafts"]:
        results["drafts"] = effect["drafts"]
    itself = shooter == target
    turn: Turn = {**t["turn"], "shots": t["turn"]["shots"] + 1}
    outcome = shot_effect(itself, after != before, bool(mine(state, shooter).get("powered")),
                          effect["extra_turn_if_self"], turn["earned"], r["max_extra_turns"])
    if outcome.powered_up:
        state = with_mine(state, shooter, lambda m: {**m, "powered": True})
        results["powered_up"] = True
    if outcome.extra_turn is not None:
        results["extra_turn"] = outcome.extra_turn
        if outcome.extra_turn:
            turn["earned"] += 1
    chamber_now: Chamber = {
        "size": t["chamber"]["size"],
        "left": _left(rest, r["kinds"]),
        "spent": [*t["chamber"]["spent"], kind],
    }
    state = with_tracker(state, lambda f: {**f, "chamber": chamber_now})
    if _ended(state):  # the last wizard standing: nobody takes another turn
        standing = _standing(state)
        results.update(round_over=not rest, over=True, winner=standing[0] if standing else None)
    elif not rest:
        after_turn = turn_after(turn, len(state["players"]))
        state = _end_round(state, after_turn)
        results.update(round_over=True, next=after_turn["player"])
    elif data.get("again"):
        state = with_tracker(state, lambda f: {**f, "turn": turn})
        results["shoots_again"] = True
    else:
        turn = turn_after(turn, len(state["players"]))
        state = with_tracker(state, lambda f: {**f, "turn": turn})
        results["next"] = turn["player"]
    state = with_tracker(state, lambda f: {**f, "last": {"shooter": shooter, "target": target, **results}})
    return state, results


def _describe_shoot(data: Mapping[str, Any], state: State) -> str:
    shooter, target = name(state, data["shooter"]), name(state, data["target"])
    if "card" not in data:
        return f"{shooter} shot {target}"
    text = f"{shooter} shot {target}: {data['name']}!"
    if "life" in data:
        text += f" {target} loses {data['life']['from'] - data['life']['to']} life {ARROW} {data['life']['to']}."
    if data.get("drafts"):
        text += f" {target} drafts {plural(data['drafts'], 'spell')} from the spell deck."
    if data.get("powered_up"):
        text += f" {shooter} powers up."
    if data.get("extra_turn") is True:
        text += f" {shooter} takes another battle turn."
    elif data.get("extra_turn") is False:
        text += " (No second extra turn this turn.)"
    if data.get("over"):
        won = "no wizard is left standing"
        if data.get("winner") is not None:
            won = f"{name(state, data['winner'])} is the last wizard standing and wins"
        text += f" The game is over: {won}."
    elif data.get("round_over"):
        text += f" The chamber is empty: round {data['round']} is over, and {name(state, data['next'])} will be the battle player."
    elif data.get("shoots_again"):
        text += f" {shooter} may shoot again."
    return text


# ---------------------------------------------------------------------------- passing, powering


def _parse_player(state: State, action: Sent) -> Data:
    return {"player": player(state, action.get("player"))}


def _apply_pass(state: State, data: Data, strict: bool) -> tuple[State, Data]:
    t = state["tracker"]
    if strict:
        _in_battle(state)
        assert t["turn"] is not None, "a round in battle has a battle turn"
        if data["player"] != t["turn"]["player"]:
            raise Invalid(f"it is {name(state, t['turn']['player'])}'s battle turn, not {name(state, data['player'])}'s")
    if t["turn"] is None:
        return state, {}
    turn = turn_after(t["turn"], len(state["players"]))
    ghost = bool(mine(state, data["player"]).get("ghost"))
    return with_tracker(state, lambda f: {**f, "turn": turn}), {"next": turn["player"], "ghost": ghost}


def _describe_pass(data: Mapping[str, Any], state: State) -> str:
    who = name(state, data["player"])
    if "next" not in data:
        return f"{who} ended the battle turn"
    why = " (a ghost)" if data.get("ghost") else ""
    return f"{who}{why} ended the battle turn without a shot: {name(state, data['next'])}'s turn"


def _parse_power(state: State, action: Sent) -> Data:
    up = action.get("up")
    if not isinstance(up, bool):
        raise Invalid("up must be true (power up) or false (power down)")
    return {"player": player(state, action.get("player")), "up": up}


def _apply_power(state: State, data: Data, strict: bool) -> tuple[State, Data]:
    who, up = data["player"], data["up"]
    mine_now = mine(state, who)
    if strict:
        _refuse_if_over(state)
        if mine_now.get("ghost"):
            raise Invalid(f"{name(state, who)} is a ghost, and ghosts are always powered up")
        if not mine_now.get("alive", True):
            raise Invalid(f"{name(state, who)} is out of the game")
        if mine_now.get("powered") == up:
            raise Invalid(f"{name(state, who)} is powered {'up' if up else 'down'} already")
    if mine_now.get("ghost"):
        return state, {}
    return with_mine(state, who, lambda m: {**m, "powered": up}), {}


def _describe_power(data: Mapping[str, Any], state: State) -> str:
    return f"{name(state, data['player'])} powers {'up' if data['up'] else 'down'}"


# ---------------------------------------------------------------------------- chamber spells


def _draw_shuffle(state: State, inputs: Data, randbelow: RandBelow) -> Data:
    _in_battle(state)
    return {"hidden": {"chamber": shuffled(state["hidden"]["chamber"], randbelow)}}


def _apply_shuffle(state: State, data: Data, strict: bool) -> tuple[State, Data]:
    chamber = data.get("hidden", {}).get("chamber")
    if chamber is None or sorted(chamber) != sorted(state["hidden"]["chamber"]):
        return state, {}
    return with_hidden(state, lambda h: {**h, "chamber": list(chamber)}), {"cards": len(chamber), "round": state["tracker"]["round"]}


def _describe_shuffle(data: Mapping[str, Any], state: State) -> str:
    return f"{name(state, data['player'])} shuffled the chamber ({plural(data.get('cards', 0), 'card')})"


def _parse_peek(state: State, action: Sent) -> Data:
    return {"player": player(state, action.get("player")), "count": whole(action.get("count", 1), "count", 1, 10)}


def _apply_peek(state: State, data: Data, strict: bool) -> tuple[State, Data]:
    chamber = state["hidden"]["chamber"]
    if strict:
        _in_battle(state)
        if data["count"] > len(chamber):
            raise Invalid(f"the chamber holds only {plural(len(chamber), 'card')}")
    return state, {"round": state["tracker"]["round"], "hidden": {"cards": chamber[: data["count"]]}}


def _describe_peek(data: Mapping[str, Any], state: State) -> str:
    top = "the top card" if data["count"] == 1 else f"the top {data['count']} cards"
    return f"{name(state, data['player'])} looked at {top} of the chamber"


def _parse_arrange(state: State, action: Sent) -> Data:
    order = action.get("order")
    if not isinstance(order, list) or not 1 <= len(order) <= 10:
        raise Invalid("order must list the top cards' places, such as [1, 0]")
    order = [whole(i, "a place in order") for i in order]
    if sorted(order) != list(range(len(order))):
        raise Invalid(f"order must hold each of 0 to {len(order) - 1} once; got {order}")
    bottom = whole(action.get("bottom", 0), "bottom", 0, len(order))
    return {"player": player(state, action.get("player")), "order": order, "bottom": bottom}


def _apply_arrange(state: State, data: Data, strict: bool) -> tuple[State, Data]:
    chamber = state["hidden"]["chamber"]
    k = len(data["order"])
    if strict:
        _in_battle(state)
        if k > len(chamber):
            raise Invalid(f"the chamber holds only {plural(len(chamber), 'card')}")
    if k > len(chamber):
        return state, {}
    now = rearranged(chamber, data["order"], data["bottom"])
    return with_hidden(state, lambda h: {**h, "chamber": now}), {"round": state["tracker"]["round"]}


def _describe_arrange(data: Mapping[str, Any], state: State) -> str:
    who = name(state, data["player"])
    k, bottom = len(data["order"]), data["bottom"]
    top = "the top card" if k == 1 else f"the top {k} cards"
    if bottom == k:
        return f"{who} put {top} of the chamber at the bottom"
    if bottom:
        return f"{who} put back {top} of the chamber, {bottom} of them at the bottom"
    return f"{who} put back {top} of the chamber in an order of their choosing"


def reveal(data: Mapping[str, Any], state: State) -> Data:
    """What a chamber action kept hidden, once its round is over: the chamber's order, the peek."""
    hidden = data.get("hidden") or {}
    t = state["tracker"]
    if "round" not in data or (data["round"] == t["round"] and t["phase"] == "battle" and not t["over"]):
        return {}
    return {k: v for k, v in hidden.items() if k in ("chamber", "cards")}


def _gone(state: State, i: int) -> str | None:
    if state["players"][i]["counters"].get(LIFE, 0) > 0:
        return None
    return "a ghost" if len(state["players"]) >= state["rules"]["ghosts_from"] else "out of the game"


def refuse_join(state: State) -> str | None:
    """A new wizard sits down between rounds, never during one: the round's scenario, chamber and
    draft were laid out for the wizards at the table, and a duel's come from the duel deck. From
    the next round, the scenario is drawn from the deck for the new number of players."""
    t = state["tracker"]
    if t["phase"] != "battle" or t["over"] or t["deck"] is None:
        return None
    decks = state["rules"]["scenario_decks"]
    n = len(state["players"])
    now = decks[t["deck"]]
    key = deck_for({k: (d["players"][0], d["players"][1]) for k, d in decks.items()}, n + 1)
    if key == t["deck"]:
        return f"round {t['round']} is being played: a new wizard sits down once its chamber is empty"
    low, high = now["players"]
    players = f"{low}" if low == high else f"{low} to {high}"
    then = f"the next round's scenario comes from the {decks[key]['name']}" if key else f"no scenario deck is for {n + 1} players"
    return (f"round {t['round']} of this game of {plural(n, 'player')} is being played with the {now['name']} "
            f"(the rules give it to {players} players): a new wizard sits down once its chamber is empty, and {then}")


TRACKER: Tracker[State] = Tracker(
    rules=rules,
    initial=initial,
    settle=settle,
    life=LIFE,
    gone=_gone,
    reveal=reveal,
    refuse_join=refuse_join,
    actions={
        "start_round": Action(_parse_none, _apply_round, _describe_round, draw=_draw_round, ordered=True, undoable=False, shown=True),
        "shoot": Action(_parse_shoot, _apply_shoot, _describe_shoot, ordered=True, undoable=False, shown=True),
        "pass": Action(_parse_player, _apply_pass, _describe_pass, ordered=True, undoable=False),
        "power": Action(_parse_power, _apply_power, _describe_power),
        "shuffle_chamber": Action(_parse_player, _apply_shuffle, _describe_shuffle, draw=_draw_shuffle, ordered=True, undoable=False),
        "peek": Action(_parse_peek, _apply_peek, _describe_peek, ordered=True, undoable=False, private=True),
        "arrange": Action(_parse_arrange, _apply_arrange, _describe_arrange, ordered=True, undoable=False),
    },
)
