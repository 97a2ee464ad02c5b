"""Spellchamber: rounds, the scenario deck, the Wizard Gun's chamber, battle turns, ghosts.

A round starts with the top card of the scenario deck (the duel or the group deck, by the number
of players; the card the table chose, by default the YAML's `beginner_scenario`, on top for the first
round). Its Live, Magic and Blank counts make the chamber, shuffled on the server; the order
stays hidden, and only each shot reveals a card. The battle player aims at anyone (themselves
included; ghosts cannot be aimed at) and shoots; the card's effect is the YAML's (`ammo`). A
shot ends the battle turn, unless a spell lets the player shoot again. The round ends the moment
the chamber is empty: every wizard powers down, and whoever would have taken the next turn is
the next round's battle player. With `ghosts_from_players` or more players a wizard at 0 life
becomes a ghost; the last wizard standing wins, and then nobody is named to play on.

Spells and powers are played on the battle player's turn before the shot (`cast`, `use_power`:
each seat's wizard is a player option), and applied from the cards' YAML fields: life drained or
gained, the chamber shuffled or its top card discarded, Double Tap's second shot, Borrowed Time's
extra turn. The spells kept in front of a wizard (Warding Charm, Ricochet, Blood Curse, Sleep
Magic) and Misdirection and Mind Control are public state, applied to the next shot or turn they
concern and discarded when spent or when the round ends; a spell or power that lets a player
look at the chamber is followed by `peek` (and `arrange`); a powered-up Ricochet waits for its
holder's choice once the card is turned up (`ricochet`).

The spells are face up at a table, and so here: the round's grid (`lay_out`, drafted from the
battle player's right, counter-clockwise, before the battle), the spells each wizard holds in
their slots (`draft`, by the slot rule: a Magic shot's and a ghost's drafts too), and the discard
pile (Graverobber's, and the new spell deck once the deck runs out: `reshuffle_spells`). Only
the spell deck's order is the players' own.

A new wizard sits down between rounds, never during one (`refuse_join`); the next round's
scenario comes from the deck for the new number of players.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from functools import lru_cache
from typing import Any, NotRequired, TypedDict

from ...models import Game
from ...play.errors import Conflict, Invalid
from ...play.inputs import flag, whole
from ...play.state import (
    Ending,
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
    won_by,
)
from ...play.tracker import Action, Data, Sent, Tracker
from ...play.words import ARROW, plural
from .helpers import next_shot
from .ruleset import Constants, deck_for, roll_off, roll_off_winner, shot_effect
from .spells import (
    SPELL_NUMBERS,
    borrowed_turn,
    draft_order,
    extra_turn_allowed,
    free_slots,
    live_loss,
    may_play,
    powered_part,
    rearranged,
    redirected,
)

LIFE = "life"  # the counter that holds a wizard's life (game.yaml's counters)
MOST_LAID = 60  # spells a draft's grid may hold: a bound on what a phone sends

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


class Spell(TypedDict):
    name: str
    kind: str  # regular, hybrid (its powered-up part while its caster is powered up) or powered
    slots: int
    effect: str | None  # spells.py's SPELL_EFFECTS
    numbers: dict[str, int]  # the effect's numbers (gains, drains, siphons, curses, arranges)


class Wizard(TypedDict):
    name: str
    power: str  # the power ability's name
    effect: str | None  # spells.py's POWER_EFFECTS
    mends: int


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
    spells: NotRequired[dict[str, Spell]]  # by card id
    wizards: NotRequired[dict[str, Wizard]]  # by card id


class Turn(TypedDict):
    player: int
    extra: bool  # an extra turn
    earned: int  # extra turns earned in this one
    owed: int  # extra turns still owed
    shots: int
    taps: NotRequired[int]  # more shots this turn (Double Tap)
    drafts: NotRequired[int]  # spells a ghost drafts from the spell deck as its battle turn begins


class Chamber(TypedDict):
    size: int
    left: dict[str, int]  # cards of each kind still in it
    spent: list[str]  # the kinds shot, in order


class Draft(TypedDict):
    first: int
    spells: int
    grid: NotRequired[list[str] | None]  # the spells laid out face up and not yet drafted (None: not laid out)
    picks: NotRequired[list[int]]  # who drafts each of them, in turn


class Shot(TypedDict):
    """A shot whose card is turned up, and whom it hits not yet known (a powered-up Ricochet)."""

    shooter: int
    target: int
    card: str
    again: bool
    discarded: list[str]


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
    turns: NotRequired[int]  # battle turns taken by wizards (a ghost's and a slept one are not)
    pending: NotRequired[Shot | None]  # a turned-up card a powered-up Ricochet's holder has yet to send
    discard: NotRequired[list[str]]  # the spell discard pile, face up
    odds: NotRequired[dict[str, float] | None]  # the next shot's chances in percent, once settled


class Kept(TypedDict):
    """A spell kept in front of a wizard until its effect ends (this round at most)."""

    spell: str
    red: bool  # played powered up: its powered-up part applies
    curses: NotRequired[int]  # a Blood Curse's extra life lost


class Mine(TypedDict):
    powered: bool
    alive: bool
    ghost: bool
    out: bool
    held: NotRequired[list[str]]  # the spells in front of them, face up, not yet played
    wards: NotRequired[list[Kept]]  # Warding Charms in front of them
    ricochets: NotRequired[list[Kept]]
    curses: NotRequired[list[Kept]]  # Blood Curses on them
    asleep: NotRequired[list[str]]  # Sleep Magic on them: a battle turn skipped for each
    misdirect: NotRequired[int | None]  # their Misdirection: whom the next shot aimed at them hits
    controlled: NotRequired[int | None]  # who aims for them on their next battle turn (Mind Control)


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
        "spells": {
            card.id: {"name": card.name, "kind": card.get("kind"), "slots": card.get("slots") or 0, "effect": card.get("effect"),
                      "numbers": {k: int(card.get(k)) for k in SPELL_NUMBERS if card.get(k) is not None}}
            for card in (game.decks[c.spell_deck].cards if c.spell_deck in game.decks else ())
        },
        "wizards": {
            card.id: {"name": card.name, "power": card.get("power_name") or card.name, "effect": card.get("effect"),
                      "mends": int(card.get("mends") or 0)}
            for card in game.cards if card.type == "wizard"
        },
    }


PLAYER: Mine = {"powered": False, "alive": True, "ghost": False, "out": False, "held": [], "wards": [], "ricochets": [], "curses": [],
                "asleep": [], "misdirect": None, "controlled": None}


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
        "turns": 0,
        "discard": [],
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
        return {**PLAYER, **p["tracker"], "alive": lives, "ghost": ghost, "out": not lives and not ghost, "powered": powered}

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
    return dict(_percent(tuple(left.items())))


@lru_cache(maxsize=1024)
def _percent(left: tuple[tuple[str, int], ...]) -> tuple[tuple[str, float], ...]:
    """The odds of a chamber's cards left, worked once: every event settles them again."""
    counts = dict(left)
    return tuple((k, round(float(f) * 100, 1)) for k, f in next_shot(counts, dict.fromkeys(counts, 0)).items())


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


def _the_end(state: State) -> Ending:
    """The end every phone shows at its top: the last wizard standing wins (ghosts do not)."""
    return won_by(state, state["tracker"]["winner"], "No wizard is left standing.")


def _refuse_if_over(state: State) -> None:
    t = state["tracker"]
    if t["over"]:
        won = f"{name(state, t['winner'])} has won" if t["winner"] is not None else "no wizard is standing"
        raise Conflict(f"the game is over: {won}")


def _in_battle(state: State) -> None:
    _refuse_if_over(state)
    t = state["tracker"]
    picks = t["draft"].get("picks") if t["draft"] else None
    if picks:
        raise Conflict(f"the spell draft comes first: {name(state, picks[0])} picks a spell from the grid")
    shot = t.get("pending")
    if shot is not None:
        raise Conflict(f"{name(state, shot['target'])}'s powered-up Ricochet: {name(state, shot['target'])} first chooses "
                       f"whom the turned-up {state['rules']['ammo'][shot['card']]['name']} hits")
    if t["phase"] != "battle" or not state["hidden"]["chamber"]:
        raise Conflict(f"no round is being played: start round {t['round'] + 1}")


def turn_after(turn: Turn, n: int) -> Turn:
    """The battle turn after `turn`: the same player's if they are owed an extra turn."""
    owed = turn["owed"] + turn["earned"]
    if owed > 0:
        return {"player": turn["player"], "extra": True, "earned": 0, "owed": owed - 1, "shots": 0, "taps": 0}
    return {"player": (turn["player"] + 1) % n, "extra": False, "earned": 0, "owed": 0, "shots": 0, "taps": 0}


def _end_round(state: State, after: Turn) -> tuple[State, list[str]]:
    """The chamber is empty: every wizard powers down (ghosts stay powered up), and all ongoing
    spell effects end ("All ongoing spell effects are immediately canceled"): the spells kept in
    front of wizards are discarded. Returns the state and those spells."""
    discarded: list[str] = []
    for i in range(len(state["players"])):
        discarded += _kept(mine(state, i))
        state = with_mine(state, i, lambda m: {**m, "wards": [], "ricochets": [], "curses": [], "asleep": [], "misdirect": None,
                                               "controlled": None, "powered": bool(m.get("ghost"))})
    return with_tracker(state, lambda t: {**t, "phase": "ready", "turn": None, "next": after["player"]}), discarded


def _kept(m: Mine) -> list[str]:
    """The spells in front of a wizard, kept until their effects end."""
    return [k["spell"] for k in (*m.get("wards", []), *m.get("ricochets", []), *m.get("curses", []))] + list(m.get("asleep", []))


def _alive(state: State, i: int) -> bool:
    return state["players"][i]["counters"].get(LIFE, 0) > 0


def _begin(state: State, turn: Turn) -> State:
    """`turn` is the battle turn now; a wizard's turn that is not slept through counts as one
    taken, and a ghost's begins with its drafts ("At the beginning of a Ghost player's battle
    turn, they draft a spell")."""
    who = turn["player"]
    awake, alive = not mine(state, who).get("asleep"), _alive(state, who)
    if awake and not alive and len(state["players"]) >= state["rules"]["ghosts_from"]:
        turn = {**turn, "drafts": state["rules"]["ghost_drafts"]}
    taken = awake and alive
    return with_tracker(state, lambda t: {**t, "turn": turn, "turns": t.get("turns", 0) + taken})


def _pass_on(state: State, turn: Turn, slept: bool = False) -> State:
    """The battle turn `turn` is over: whoever aimed for its player (Mind Control) no longer
    does, unless the turn was slept through; the gun moves on."""
    if not slept:
        state = with_mine(state, turn["player"], lambda m: {**m, "controlled": None})
    return _begin(state, turn_after(turn, len(state["players"])))


def _after_move(state: State, turn: Turn, results: Data) -> State:
    """After a move that may have emptied the chamber or ended the game: the round ends at once
    with the chamber's last card, and whoever would have taken the next turn starts the next."""
    if _ended(state):
        standing = _standing(state)
        results.update(over=True, winner=standing[0] if standing else None)
    elif not state["hidden"]["chamber"]:
        after = turn_after(turn, len(state["players"]))
        state, gone = _end_round(state, after)
        results.update(round_over=True, next=after["player"])
        if gone:
            results["discarded"] = [*results.get("discarded", []), *gone]
    return state


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
        "next": None,
        "chamber": {"size": len(chamber), "left": _left(chamber, kinds), "spent": []},
        "draft": {"first": (battle - 1) % n, "spells": card.get("spells_per_player", 0) * n},
        "rolls": data.get("rolls") or t["rolls"],
        "last": None,
    })
    state = _begin(state, {"player": battle, "extra": False, "earned": 0, "owed": 0, "shots": 0, "taps": 0})
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


def _awake(state: State, who: int) -> None:
    """A wizard under Sleep Magic skips their next battle turn: they pass it, playing nothing."""
    if mine(state, who).get("asleep"):
        raise Invalid(f"{name(state, who)} is asleep (Sleep Magic) and skips this battle turn: pass it")


def _turn_of(state: State, who: int) -> Turn:
    """The battle turn, which must be `who`'s."""
    _in_battle(state)
    turn = state["tracker"]["turn"]
    assert turn is not None, "a round in battle has a battle turn"
    if who != turn["player"]:
        raise Invalid(f"it is {name(state, turn['player'])}'s battle turn, not {name(state, who)}'s")
    return turn


def _apply_shoot(state: State, data: Data, strict: bool) -> tuple[State, Data]:
    shooter, target = data["shooter"], data["target"]
    t = state["tracker"]
    if strict:
        _turn_of(state, shooter)
        if not mine(state, shooter).get("alive"):
            raise Invalid(f"{name(state, shooter)} is a ghost: ghosts cannot shoot the Wizard Gun")
        _awake(state, shooter)
        if not mine(state, target).get("alive"):
            raise Invalid(f"{name(state, target)} is a ghost and cannot be aimed at")
    chamber = state["hidden"]["chamber"]
    if not chamber or t["turn"] is None:
        return state, {}
    r = state["rules"]
    kind, rest = chamber[0], chamber[1:]
    results: Data = {"card": kind, "name": r["ammo"][kind]["name"], "round": t["round"]}
    if mine(state, shooter).get("controlled") is not None:
        results["aimed_by"] = mine(state, shooter).get("controlled")
    state, hit, discarded = _turned(state, shooter, target, results)
    chamber_now: Chamber = {"size": t["chamber"]["size"], "left": _left(rest, r["kinds"]), "spent": [*t["chamber"]["spent"], kind]}
    state = with_hidden(state, lambda h: {**h, "chamber": rest})  # the card is turned up
    state = with_tracker(state, lambda f: {**f, "chamber": chamber_now})
    shot: Shot = {"shooter": shooter, "target": target, "card": kind, "again": bool(data.get("again")), "discarded": discarded}
    if hit is None:  # a powered-up Ricochet: its holder chooses whom the turned-up card hits
        state = with_tracker(state, lambda f: {**f, "pending": shot})
        results["waits"] = target
        state = with_tracker(state, lambda f: {**f, "last": {"shooter": shooter, "target": target, **results}})
        return state, results
    return _land(state, shot, hit, results)


def _land(state: State, shot: Shot, hit: int, results: Data) -> tuple[State, Data]:
    """The turned-up card hits `hit`: its ammo's effect, powering up, extra turns, and the gun moves on."""
    shooter, target, kind = shot["shooter"], shot["target"], shot["card"]
    r, t = state["rules"], state["tracker"]
    assert t["turn"] is not None, "a shot lands in a battle turn"
    effect, discarded = r["ammo"][kind], list(shot["discarded"])
    if hit != target:
        results["hit"] = hit
    cursed_up = any(c["red"] for c in mine(state, shooter).get("curses", []))
    before = state["players"][hit]["counters"].get(LIFE, 0)
    if effect["life_loss"]:
        state, spent = _live(state, shooter, hit, effect["life_loss"], results)
        discarded += spent
    after = state["players"][hit]["counters"].get(LIFE, 0)
    if after != before:
        results["life"] = {"from": before, "to": after}
    if effect["drafts"] and after > 0:
        results["drafts"] = effect["drafts"]
    turn: Turn = {**t["turn"], "shots": t["turn"]["shots"] + 1}
    outcome = shot_effect(shooter == target, after != before, bool(mine(state, shooter).get("powered")),
                          extra_turn_allowed(effect["extra_turn_if_self"], cursed_up), turn["earned"], r["max_extra_turns"])
    if outcome.powered_up:
        state = with_mine(state, shooter, lambda m: {**m, "powered": True})
        results["powered_up"] = True
    if outcome.extra_turn is not None:
        results["extra_turn"] = outcome.extra_turn
        if outcome.extra_turn:
            turn["earned"] += 1
    state = with_tracker(state, lambda f: {**f, "turn": turn, "pending": None})
    if discarded:
        results["discarded"] = discarded
    state = _after_move(state, turn, results)
    if "over" in results or "round_over" in results:
        pass  # nobody takes another shot: the game or the round is over
    elif shot["again"] or (turn.get("taps", 0) > 0 and _alive(state, shooter)):
        again: Turn = {**turn, "taps": turn.get("taps", 0) - (not shot["again"])}
        state = with_tracker(state, lambda f: {**f, "turn": again})
        results["shoots_again"] = True
    else:
        state = _pass_on(state, turn)
        results["next"] = state["tracker"]["turn"]["player"] if state["tracker"]["turn"] else None
    state = with_tracker(state, lambda f: {**f, "last": {"shooter": shooter, "target": target, **results}})
    return _discard(state, results.get("discarded", [])), results


def _turned(state: State, shooter: int, aimed: int, results: Data) -> tuple[State, int | None, list[str]]:
    """Whom a shot aimed at `aimed` hits: a Ricochet in front of them sends it back at the shooter
    (powered up, its holder chooses once the card is turned up: None); else their Misdirection
    sends it to the wizard they chose, if still standing. Returns the state without the spent
    Ricochet or Misdirection, the wizard hit and the spells discarded."""
    if aimed == shooter:
        return state, aimed, []
    theirs = mine(state, aimed)
    ricochets = theirs.get("ricochets", [])
    if ricochets:
        spent = ricochets[0]
        state = with_mine(state, aimed, lambda m: {**m, "ricochets": ricochets[1:]})
        results["ricochet"] = {"red": spent["red"]}
        return state, None if spent["red"] else redirected(aimed, shooter, True, None), [spent["spell"]]
    to = theirs.get("misdirect")
    if to is not None:
        state = with_mine(state, aimed, lambda m: {**m, "misdirect": None})
        results["misdirected"] = True
        return state, redirected(aimed, shooter, False, to if _alive(state, to) else None), []
    return state, aimed, []


def _parse_ricochet(state: State, action: Sent) -> Data:
    return {"player": player(state, action.get("player")), "back": flag(action.get("back"), "back")}


def _apply_ricochet(state: State, data: Data, strict: bool) -> tuple[State, Data]:
    """A powered-up Ricochet: "Wait until the ammo card is turned up, then choose whether it hits
    them or you": its holder sends the card back at the shooter, or takes it."""
    shot = state["tracker"].get("pending")
    if strict:
        _refuse_if_over(state)
        if shot is None:
            raise Conflict("no turned-up card waits for a Ricochet's choice")
        if data["player"] != shot["target"]:
            raise Invalid(f"{name(state, shot['target'])} chooses whom their Ricochet's card hits, not {name(state, data['player'])}")
    if shot is None:
        return state, {}
    kind = shot["card"]
    results: Data = {"shooter": shot["shooter"], "target": shot["target"], "card": kind, "name": state["rules"]["ammo"][kind]["name"],
                     "round": state["tracker"]["round"], "ricochet": {"red": True, "back": data["back"]}}
    return _land(state, shot, shot["shooter"] if data["back"] else shot["target"], results)


def _describe_ricochet(data: Mapping[str, Any], state: State) -> str:
    who = name(state, data["player"])
    if "card" not in data:
        return f"{who} chose whom their Ricochet's card hits"
    whom = f"sends the {data['name']} back at {name(state, data['shooter'])}" if data["back"] else f"takes the {data['name']}"
    return f"{who}'s powered-up Ricochet: {who} {whom}." + _landed(data, state)


def _live(state: State, shooter: int, hit: int, loss: int, results: Data) -> tuple[State, list[str]]:
    """A Live hits `hit`: every Blood Curse on them adds its loss, and is spent; a Warding Charm
    in front of them stops it all, and is spent (powered up: a shooter who is another wizard
    loses the life instead). Returns the state and the spells discarded."""
    theirs = mine(state, hit)
    wards, curses = theirs.get("wards", []), theirs.get("curses", [])
    ward = wards[0] if wards else None
    total = live_loss(loss, sum(c.get("curses", 0) for c in curses), ward is not None)
    state = with_mine(state, hit, lambda m: {**m, "curses": [], "wards": wards[1:]})
    state, _, _ = move(state, LIFE, -total, hit)
    spent = [c["spell"] for c in curses]
    if curses:
        results["cursed"] = total if ward is None else 0
    if ward is not None:
        spent.append(ward["spell"])
        results["warded"] = True
        if ward["red"] and shooter != hit:
            state, was, now = move(state, LIFE, -loss, shooter)
            results["returned"] = {"from": was, "to": now}
    return state, spent


def _describe_shoot(data: Mapping[str, Any], state: State) -> str:
    shooter, target = name(state, data["shooter"]), name(state, data["target"])
    if "card" not in data:
        return f"{shooter} shot {target}"
    text = f"{shooter} shot {target}: {data['name']}!"
    if "aimed_by" in data:
        text = f"{shooter}, aimed by {name(state, data['aimed_by'])} (Mind Control), shot {target}: {data['name']}!"
    if "waits" in data:
        return text + f" {target}'s powered-up Ricochet: {target} chooses whom it hits."
    if "ricochet" in data:
        text += f" {target}'s Ricochet sends it back."
    elif data.get("misdirected"):
        sent = f"sends it to {name(state, data['hit'])}" if "hit" in data else "finds nobody"
        text += f" {target}'s Misdirection {sent}."
    return text + _landed(data, state)


def _landed(data: Mapping[str, Any], state: State) -> str:
    """What a shot's card did where it landed, in words."""
    shooter, hit = name(state, data["shooter"]), name(state, data.get("hit", data["target"]))
    text = ""
    if data.get("warded"):
        text += f" {hit}'s Warding Charm stops it."
    if "returned" in data:
        text += f" {shooter} loses the life instead {ARROW} {data['returned']['to']}."
    if "life" in data:
        text += f" {hit} loses {data['life']['from'] - data['life']['to']} life {ARROW} {data['life']['to']}."
    if data.get("drafts"):
        text += f" {hit} drafts {plural(data['drafts'], 'spell')} from the spell deck."
    if data.get("powered_up"):
        text += f" {shooter} powers up."
    if data.get("extra_turn") is True:
        text += f" {shooter} takes another battle turn."
    elif data.get("extra_turn") is False:
        text += " (No second extra turn this turn.)"
    if data.get("shoots_again"):
        text += f" {shooter} may shoot again."
    return text + _ending(data, state)


# ---------------------------------------------------------------------------- passing, powering


def _parse_player(state: State, action: Sent) -> Data:
    return {"player": player(state, action.get("player"))}


def _apply_pass(state: State, data: Data, strict: bool) -> tuple[State, Data]:
    t = state["tracker"]
    if strict:
        _turn_of(state, data["player"])
    if t["turn"] is None:
        return state, {}
    who = data["player"]
    asleep = mine(state, who).get("asleep", [])
    results: Data = {"ghost": bool(mine(state, who).get("ghost"))}
    if asleep:
        state = with_mine(state, who, lambda m: {**m, "asleep": asleep[1:]})
        results.update(slept=True, discarded=[asleep[0]])
    state = _pass_on(state, t["turn"], slept=bool(asleep))
    turn = state["tracker"]["turn"]
    assert turn is not None, "a pass moves the gun on to a battle turn"
    results["next"] = turn["player"]
    return _discard(state, results.get("discarded", [])), results


def _describe_pass(data: Mapping[str, Any], state: State) -> str:
    who = name(state, data["player"])
    if "next" not in data:
        return f"{who} ended the battle turn"
    why = " (a ghost)" if data.get("ghost") else ""
    if data.get("slept"):
        text = f"{who}{why} sleeps through the battle turn (Sleep Magic): {name(state, data['next'])}'s turn"
    else:
        text = f"{who}{why} ended the battle turn without a shot: {name(state, data['next'])}'s turn"
    return text


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


# ---------------------------------------------------------------------------- spells and powers


TARGETED = ("mind-control", "sleep", "curse", "bolt", "siphon")  # spell effects that choose another wizard
LOOKS = ("peek",)  # spell effects that let the caster look at the chamber's top card (then `peek`)


def _spell_sent(state: State, action: Sent) -> str:
    """The id of the spell a phone names, one of the game's spells."""
    spells = state["rules"].get("spells", {})
    spell = action.get("spell")
    if not isinstance(spell, str) or spell not in spells:
        names = ", ".join(s["name"] for s in spells.values()) or "none"
        raise Invalid(f"there is no such spell; the spells are: {names}"[:300])
    return spell


def _parse_cast(state: State, action: Sent) -> Data:
    spell = _spell_sent(state, action)
    target = action.get("target")
    return {"player": player(state, action.get("player")), "spell": spell,
            "target": None if target is None else player(state, target, "target")}


def _own_step(state: State, who: int) -> Turn:
    """Spells and powers are played on your own battle turn, before you shoot, and not in a turn
    you sleep through."""
    turn = _turn_of(state, who)
    _awake(state, who)
    if turn["shots"]:
        raise Invalid(f"{name(state, who)} has shot this turn: spells and powers are played before the shot")
    return turn


def _another(state: State, who: int, target: int | None, what: str, wizard: bool = True) -> int:
    """The other wizard (or, not `wizard`, player) a spell or power chooses: standing, not a
    ghost, and not its own player."""
    if target is None:
        raise Invalid(f"{what} chooses another wizard: say which (target)")
    if target == who:
        raise Invalid(f"{what} chooses another wizard, not {name(state, who)}")
    if wizard and not _alive(state, target):
        raise Invalid(f"{name(state, target)} is no longer a wizard: {what} cannot choose them")
    return target


def _draw_cast(state: State, inputs: Data, randbelow: RandBelow) -> Data:
    """Spin the Chamber played powered down shuffles the chamber on the server."""
    spell = state["rules"].get("spells", {})[inputs["spell"]]
    if spell["effect"] == "shuffle" and not powered_part(spell["kind"], bool(mine(state, inputs["player"]).get("powered"))):
        return {"hidden": {"chamber": shuffled(state["hidden"]["chamber"], randbelow)}}
    return {}


def _apply_cast(state: State, data: Data, strict: bool) -> tuple[State, Data]:
    who, spell_id, target = data["player"], data["spell"], data["target"]
    spell = state["rules"].get("spells", {})[spell_id]
    effect, powered = spell["effect"], bool(mine(state, who).get("powered"))
    if strict:
        _own_step(state, who)
        if not may_play(spell["kind"], powered):
            raise Invalid(f"{spell['name']} is a powered-up spell, and {name(state, who)} is not powered up")
        if effect in TARGETED:
            _another(state, who, target, spell["name"])
        if spell_id not in mine(state, who).get("held", []):
            raise Invalid(f"{name(state, who)} holds no {spell['name']}: a spell is drafted before it is played")
    turn = state["tracker"]["turn"]
    if turn is None or not state["hidden"]["chamber"]:
        return state, {}
    state = _unheld(state, who, spell_id)
    red = powered_part(spell["kind"], powered)
    n = spell["numbers"]
    results: Data = {"round": state["tracker"]["round"]}
    if red:
        results["red"] = True
    kept: Kept = {"spell": spell_id, "red": red}
    if effect == "mind-control" and target is not None:
        state = with_mine(state, target, lambda m: {**m, "controlled": who})
    elif effect == "sleep" and target is not None:
        state = with_mine(state, target, lambda m: {**m, "asleep": [*m.get("asleep", []), spell_id]})
    elif effect == "curse" and target is not None:
        state = with_mine(state, target, lambda m: {**m, "curses": [*m.get("curses", []), {**kept, "curses": n["curses"]}]})
    elif effect == "ward":
        state = with_mine(state, who, lambda m: {**m, "wards": [*m.get("wards", []), kept]})
    elif effect == "ricochet":
        state = with_mine(state, who, lambda m: {**m, "ricochets": [*m.get("ricochets", []), kept]})
    elif effect in LOOKS:
        results["looks"] = 1
    elif effect == "shuffle":
        chamber = data.get("hidden", {}).get("chamber")
        if red:
            results["looks"] = n["arranges"]
        elif chamber is not None and sorted(chamber) == sorted(state["hidden"]["chamber"]):
            state = with_hidden(state, lambda h: {**h, "chamber": list(chamber)})
            results["shuffled"] = True
    elif effect == "discard-top":
        state, results["card"] = _vanish(state)
    elif effect == "heal":
        state, results["life"] = _heal(state, who, n["gains"])
    elif effect in ("bolt", "siphon") and target is not None:
        state, was, now = move(state, LIFE, -n["drains"], target)
        results["drained"] = {"from": was, "to": now}
        if effect == "siphon":
            state, results["life"] = _heal(state, who, n["siphons"])
    elif effect == "double-tap":
        state = with_tracker(state, lambda f: {**f, "turn": {**turn, "taps": turn.get("taps", 0) + 1}})
    if effect not in ("sleep", "curse", "ward", "ricochet"):
        results["discarded"] = [spell_id]
    state = _after_move(state, state["tracker"]["turn"] or turn, results)
    return _discard(state, results.get("discarded", [])), results


def _vanish(state: State) -> tuple[State, str]:
    """The chamber's top card discarded face up, doing nothing (Vanishing Bullet)."""
    chamber, t = state["hidden"]["chamber"], state["tracker"]
    kind, rest = chamber[0], chamber[1:]
    state = with_hidden(state, lambda h: {**h, "chamber": rest})
    spent: Chamber = {"size": t["chamber"]["size"], "left": _left(rest, state["rules"]["kinds"]), "spent": [*t["chamber"]["spent"], kind]}
    return with_tracker(state, lambda f: {**f, "chamber": spent}), kind


def _heal(state: State, who: int, gains: int) -> tuple[State, dict[str, int]]:
    """Life gained by a wizard (not by a ghost), never past the counter's top."""
    if not _alive(state, who):
        life = state["players"][who]["counters"].get(LIFE, 0)
        return state, {"from": life, "to": life}
    state, was, now = move(state, LIFE, gains, who)
    return state, {"from": was, "to": now}


def _describe_cast(data: Mapping[str, Any], state: State) -> str:
    who = name(state, data["player"])
    spells = state["rules"].get("spells", {})
    spell = spells.get(data["spell"])
    called = spell["name"] if spell else data["spell"]
    target = f" on {name(state, data['target'])}" if data.get("target") is not None and spell and spell["effect"] in TARGETED else ""
    text = f"{who} plays {called}{target}" + (" powered up" if data.get("red") else "") + "."
    if "looks" in data:
        text += f" {who} may look at the top {plural(data['looks'], 'card')} of the chamber" + (
            " and put them back in any order." if data["looks"] > 1 else ".")
    if data.get("shuffled"):
        text += " The chamber is shuffled."
    if "card" in data:
        text += f" The chamber's top card is discarded: {state['rules']['ammo'][data['card']]['name']}."
    if "drained" in data:
        was, now = data["drained"]["from"], data["drained"]["to"]
        text += f" {name(state, data['target'])} loses {was - now} life {ARROW} {now}."
    return text + _gains(who, data.get("life")) + _ending(data, state)


def _gains(who: str, life: Mapping[str, int] | None) -> str:
    if life is None or life["to"] == life["from"]:
        return ""
    return f" {who} gains {life['to'] - life['from']} life {ARROW} {life['to']}."


def _ending(data: Mapping[str, Any], state: State) -> str:
    """What a spell or power that ended the round or the game says of it."""
    if data.get("over"):
        won = "no wizard is left standing"
        if data.get("winner") is not None:
            won = f"{name(state, data['winner'])} is the last wizard standing and wins"
        return f" The game is over: {won}."
    if data.get("round_over"):
        return f" The chamber is empty: round {data['round']} is over, and {name(state, data['next'])} will be the battle player."
    return ""


def _parse_use_power(state: State, action: Sent) -> Data:
    target, taken = action.get("target"), action.get("spell")
    if taken is not None and (not isinstance(taken, str) or taken not in state["rules"].get("spells", {})):
        raise Invalid("spell must be the id of the spell the power takes")
    return {"player": player(state, action.get("player")), "target": None if target is None else player(state, target, "target"),
            "spell": taken, **_parse_place(state, action)}


def _wizard_of(state: State, who: int) -> Wizard | None:
    chosen = state["players"][who].get("options", {}).get("wizard")
    return state["rules"].get("wizards", {}).get(chosen) if isinstance(chosen, str) else None


def _apply_use_power(state: State, data: Data, strict: bool) -> tuple[State, Data]:
    who, target = data["player"], data["target"]
    wizard = _wizard_of(state, who)
    if strict:
        _own_step(state, who)
        if not _alive(state, who):
            raise Invalid(f"{name(state, who)} is a ghost: only a wizard has a power ability")
        if wizard is None or wizard["effect"] is None:
            raise Invalid(f"{name(state, who)} plays no wizard with a power the table applies: choose one when starting the table")
        if not mine(state, who).get("powered"):
            raise Invalid(f"{name(state, who)} is not powered up: a power ability is used only while powered up")
        if wizard["effect"] in ("misdirect", "pickpocket"):  # a ghost holds spells too: a pickpocket's victim
            _another(state, who, target, wizard["power"], wizard["effect"] == "misdirect")
        elif wizard["effect"] == "mend" and target is not None:
            _another(state, who, target, wizard["power"])
        _takes(state, wizard, target, data["spell"])
    turn = state["tracker"]["turn"]
    if turn is None or wizard is None or not mine(state, who).get("powered"):
        return state, {}
    state = with_mine(state, who, lambda m: {**m, "powered": False})
    effect = wizard["effect"]
    results: Data = {"round": state["tracker"]["round"], "power": wizard["power"]}
    if effect == "chamber-sight":
        results["looks"] = 1
    elif effect == "borrowed-time":
        results["extra_turn"] = borrowed_turn(turn["earned"], state["rules"]["max_extra_turns"])
        if results["extra_turn"]:
            state = with_tracker(state, lambda f: {**f, "turn": {**turn, "earned": turn["earned"] + 1}})
    elif effect == "mend":
        state, results["life"] = _heal(state, who, wizard["mends"])
        if target is not None:
            state, results["mended"] = _heal(state, target, wizard["mends"])
    elif effect == "misdirect" and target is not None:
        state = with_mine(state, who, lambda m: {**m, "misdirect": target})
    elif effect in ("pickpocket", "graverobber") and data["spell"] is not None:
        if effect == "pickpocket" and target is not None:
            state = _unheld(state, target, data["spell"])
        else:
            pile = list(state["tracker"].get("discard", []))
            if data["spell"] in pile:
                pile.remove(data["spell"])
            state = with_tracker(state, lambda t: {**t, "discard": pile})
        state, gone = _place(state, who, data["spell"], data["drop"], data["keep"], strict)
        state = _discard(state, gone)
        if gone:
            results["discarded"] = gone
    return state, results


def _takes(state: State, wizard: Wizard, target: int | None, spell: str | None) -> None:
    """Pickpocket takes a spell another player holds; Graverobber one from the discard pile."""
    spells = state["rules"].get("spells", {})
    if wizard["effect"] == "pickpocket":
        if spell is None or target is None or spell not in mine(state, target).get("held", []):
            raise Invalid(f"{wizard['power']} takes a spell {name(state, target)} holds: say which (spell)")
    elif wizard["effect"] == "graverobber":
        if spell is None or spell not in state["tracker"].get("discard", []):
            pile = ", ".join(spells[i]["name"] for i in state["tracker"].get("discard", [])) or "none"
            raise Invalid(f"{wizard['power']} takes a spell from the discard pile: say which (spell); it holds: {pile}"[:300])


def _describe_use_power(data: Mapping[str, Any], state: State) -> str:
    who = name(state, data["player"])
    text = f"{who} uses {data.get('power', 'their power')} and powers down."
    if "looks" in data:
        text += f" {who} may look at the top card of the chamber, and put it back on top or at the bottom."
    if data.get("extra_turn") is True:
        text += f" {who} takes another battle turn after this one."
    elif data.get("extra_turn") is False:
        text += " (No second extra turn this turn.)"
    text += _gains(who, data.get("life"))
    if data.get("target") is not None:
        text += _gains(name(state, data["target"]), data.get("mended"))
    spells = state["rules"].get("spells", {})
    if data.get("spell") in spells:
        source = f"from {name(state, data['target'])}" if data.get("target") is not None else "from the discard pile"
        text += f" {who} takes{_placed(data, state)}, {source}."
    elif data.get("target") is not None and "mended" not in data:
        text += f" The next shot aimed at {who} hits {name(state, data['target'])} instead."
    return text


# ---------------------------------------------------------------------------- the spells held


def _discard(state: State, spells: list[str]) -> State:
    """Spells onto the discard pile, face up (Graverobber takes from it; an empty spell deck is
    remade from it)."""
    if not spells:
        return state
    return with_tracker(state, lambda t: {**t, "discard": [*t.get("discard", []), *spells]})


def _unheld(state: State, who: int, spell: str) -> State:
    """`who` no longer holds one copy of `spell` (played, stolen)."""
    held = list(mine(state, who).get("held", []))
    if spell in held:
        held.remove(spell)
    return with_mine(state, who, lambda m: {**m, "held": held})


def _parse_place(state: State, action: Sent) -> Data:
    spells = state["rules"].get("spells", {})
    drop = action.get("drop", [])
    if not isinstance(drop, list) or len(drop) > len(spells) or any(not isinstance(d, str) or d not in spells for d in drop):
        raise Invalid("drop must list the ids of held spells discarded to make room")
    return {"drop": drop, "keep": flag(action.get("keep"), "keep", True)}


def _place(state: State, who: int, spell: str, drop: list[str], keep: bool, strict: bool) -> tuple[State, list[str]]:
    """A spell drafted by `who` ("If a player doesn't have enough empty slots to draft a spell,
    they can either discard spells they already have to make room, or just discard the spell
    they were going to draft"): `drop` held spells discarded, and the new one kept, or discarded
    itself (`keep` false). Returns the state and the spells discarded."""
    rules = state["rules"]
    spells = rules.get("spells", {})
    held, dropped = list(mine(state, who).get("held", [])), []
    for gone in drop:
        if gone not in held:
            if strict:
                raise Invalid(f"{name(state, who)} holds no {spells[gone]['name']} to discard")
            continue
        held.remove(gone)
        dropped.append(gone)
    if strict and not keep and drop:
        raise Invalid(f"{name(state, who)} discards the new spell: no held spell needs to go to make room")
    if keep:
        room, needs = free_slots([spells[i]["slots"] for i in held], rules["spell_slots"]), spells[spell]["slots"]
        if strict and room < needs:
            raise Invalid(f"{spells[spell]['name']} takes {plural(needs, 'spell slot')} and {name(state, who)} has "
                          f"{plural(room, 'empty slot')}: discard held spells to make room, or discard the new spell")
        held.append(spell)
    state = with_mine(state, who, lambda m: {**m, "held": held})
    return state, dropped + ([] if keep else [spell])


def _parse_draft(state: State, action: Sent) -> Data:
    spell = _spell_sent(state, action)
    return {"player": player(state, action.get("player")), "spell": spell, **_parse_place(state, action)}


def _apply_draft(state: State, data: Data, strict: bool) -> tuple[State, Data]:
    """A spell drafted from the round's grid or the top of the spell deck (a Magic shot's, a
    ghost's), into the drafter's spell slots by the slot rule. The deck's order is the players'."""
    who, spell = data["player"], data["spell"]
    draft = state["tracker"]["draft"] or {"first": 0, "spells": 0}
    grid, picks = list(draft.get("grid") or []), list(draft.get("picks") or [])
    if strict:
        _refuse_if_over(state)
        if picks and who != picks[0]:
            raise Invalid(f"it is {name(state, picks[0])}'s pick in the spell draft, not {name(state, who)}'s")
        if picks and spell not in grid:
            laid = ", ".join(state["rules"].get("spells", {})[i]["name"] for i in grid)
            raise Invalid(f"the draft's grid holds {laid}: pick one of them"[:300])
    if picks and spell in grid:
        grid.remove(spell)
        state = with_tracker(state, lambda t: {**t, "draft": {**draft, "grid": grid, "picks": picks[1:]}})
    state, gone = _place(state, who, spell, data["drop"], data["keep"], strict)
    return _discard(state, gone), {"discarded": gone} if gone else {}


def _parse_lay_out(state: State, action: Sent) -> Data:
    spells, laid = state["rules"].get("spells", {}), action.get("spells")
    if not isinstance(laid, list) or not laid or len(laid) > MOST_LAID or any(not isinstance(i, str) or i not in spells for i in laid):
        raise Invalid("spells must list the ids of the spells laid out face up for the draft")
    return {"spells": laid}


def _apply_lay_out(state: State, data: Data, strict: bool) -> tuple[State, Data]:
    """"Take that many spells from the spell deck and place them ... in a side-by-side grid":
    the grid the table drafts from, "the player to the right of the battle player" first, then
    counter-clockwise (`draft_order`); the battle waits until it is drafted."""
    t, n = state["tracker"], len(state["players"])
    draft = t["draft"]
    if strict:
        _in_battle(state)
        if draft is None or draft.get("grid") is not None or t["chamber"]["spent"] or (t["turn"] and t["turn"]["shots"]):
            raise Conflict("the spell draft is laid out once, as its round begins, before anything else is played")
        if len(data["spells"]) > draft["spells"]:
            raise Invalid(f"this round's scenario lays out {plural(draft['spells'], 'spell')}, not {len(data['spells'])}")
    if draft is None:
        return state, {}
    picks = draft_order((draft["first"] + 1) % n, n, len(data["spells"]))
    return with_tracker(state, lambda f: {**f, "draft": {**draft, "grid": list(data["spells"]), "picks": picks}}), {"first": picks[0]}


def _describe_lay_out(data: Mapping[str, Any], state: State) -> str:
    spells = state["rules"].get("spells", {})
    laid = ", ".join(spells[i]["name"] if i in spells else i for i in data["spells"])
    first = f"; {name(state, data['first'])} drafts first" if "first" in data else ""
    return f"The spell draft is laid out: {laid}{first}."


def _describe_draft(data: Mapping[str, Any], state: State) -> str:
    return f"{name(state, data['player'])} drafts" + _placed(data, state) + "."


def _placed(data: Mapping[str, Any], state: State) -> str:
    """How a drafted or taken spell went into its player's slots, in words."""
    spells = state["rules"].get("spells", {})

    def called(i: str) -> str:
        return spells[i]["name"] if i in spells else i
    if not data.get("keep", True):
        return f" {called(data['spell'])} and discards it (no room in the spell slots)"
    text = f" {called(data['spell'])}"
    if data.get("drop"):
        text += ", discarding " + " and ".join(called(i) for i in data["drop"]) + " to make room"
    return text


def _apply_reshuffle(state: State, data: Data, strict: bool) -> tuple[State, Data]:
    """"If the spell deck runs out, reshuffle its discard pile together to recreate the Spell
    Deck": the pile leaves the table's view (the shuffle is the players')."""
    pile = state["tracker"].get("discard", [])
    if strict and not pile:
        raise Invalid("the spell discard pile is empty: there is nothing to shuffle into a spell deck")
    return with_tracker(state, lambda t: {**t, "discard": []}), {"spells": len(pile)}


def _describe_reshuffle(data: Mapping[str, Any], state: State) -> str:
    return f"The spell deck ran out: its discard pile ({plural(data.get('spells', 0), 'spell')}) is shuffled into a new spell deck."


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
    end=_the_end,
    initial=initial,
    settle=settle,
    life=LIFE,
    gone=_gone,
    reveal=reveal,
    refuse_join=refuse_join,
    actions={
        "start_round": Action(_parse_none, _apply_round, _describe_round, draw=_draw_round, ordered=True, undoable=False, shown=True),
        "shoot": Action(_parse_shoot, _apply_shoot, _describe_shoot, ordered=True, undoable=False, shown=True),
        "ricochet": Action(_parse_ricochet, _apply_ricochet, _describe_ricochet, ordered=True, undoable=False, shown=True),
        "pass": Action(_parse_player, _apply_pass, _describe_pass, ordered=True, undoable=False),
        "power": Action(_parse_power, _apply_power, _describe_power),
        "lay_out": Action(_parse_lay_out, _apply_lay_out, _describe_lay_out, ordered=True),
        "draft": Action(_parse_draft, _apply_draft, _describe_draft, ordered=True),
        "reshuffle_spells": Action(_parse_none, _apply_reshuffle, _describe_reshuffle, ordered=True),
        "cast": Action(_parse_cast, _apply_cast, _describe_cast, draw=_draw_cast, ordered=True, undoable=False),
        "use_power": Action(_parse_use_power, _apply_use_power, _describe_use_power, ordered=True, undoable=False),
        "shuffle_chamber": Action(_parse_player, _apply_shuffle, _describe_shuffle, draw=_draw_shuffle, ordered=True, undoable=False),
        "peek": Action(_parse_peek, _apply_peek, _describe_peek, ordered=True, undoable=False, private=True),
        "arrange": Action(_parse_arrange, _apply_arrange, _describe_arrange, ordered=True, undoable=False),
    },
)
