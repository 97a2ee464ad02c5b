"""A draw pile for each deck: draw (face up, for the table), discard, reshuffle, and how many are left.

The order of a pile is drawn on the server when the pile is first drawn from or reshuffled, and
kept hidden; each draw reveals its top card. Drawn cards lie face up until discarded; a reshuffle
gathers every card of the deck (face up and discarded ones too) and shuffles them anew. The cards
are the deck's as the table was started, so editing the YAML changes new tables, not this one.

A game whose `game.yaml` says how it ends (`end:`, models.EndSpec) is played to that end: a player
whose `out` counter is at or below its value is out of the game (a + on it is refused, the table's
"bring back" revives them); the first player still in whose `win` counter reaches its value wins,
and where players go out the last one standing wins. Then the game is over, and its piles rest.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NotRequired, TypedDict

from ...models import Game
from ...play.errors import Conflict, Invalid
from ...play.inputs import choice
from ...play.state import (
    Ending,
    RandBelow,
    TableState,
    name,
    pad_players,
    player,
    settled,
    settled_players,
    shuffled,
    value,
    with_hidden,
    with_tracker,
    won_by,
)
from ...play.tracker import Action, Data, Sent, Tracker
from ...play.words import plain_text, plural

MAX_PILE = 2000  # cards in one pile: a table's state stays small (the YAML caps a card at 99 copies)


class Card(TypedDict):
    id: str
    name: str
    text: str


class DeckRules(TypedDict):
    name: str
    cards: list[Card]  # each card once
    pile: list[str]  # every copy's card id, in the YAML's order: what a shuffle shuffles


class Threshold(TypedDict):
    counter: str  # a player counter's id
    value: int


class End(TypedDict):
    out: Threshold | None  # a player with this counter at or below its value is out
    reach: Threshold | None  # the first player still in with this counter at or above its value wins


class Rules(TypedDict):
    decks: dict[str, DeckRules]
    end: NotRequired[End]  # a game whose YAML says how it ends (a table started before ends never did)


class Pile(TypedDict):
    left: int  # cards still to draw
    shuffled: bool  # drawn from or reshuffled yet (the first draw shuffles)
    face_up: list[str]  # drawn, not yet discarded (the latest last)
    discard: list[str]


class Fields(TypedDict):
    piles: dict[str, Pile]
    over: bool
    winner: int | None


class Mine(TypedDict):
    out: bool  # out of the game: the `out` counter at or below its value


class Hidden(TypedDict):
    piles: dict[str, list[str]]  # each pile's order, top first


State = TableState[Fields, Mine, Rules, Hidden]
PLAYER: Mine = {"out": False}


def rules(game: Game, created: Mapping[str, Any]) -> Rules | None:
    decks: dict[str, DeckRules] = {}
    for deck in game.decks.values():
        elements = [e.name for e in game.elements]
        cards: list[Card] = [{"id": c.id, "name": c.name, "text": plain_text(str(c.get("text") or ""), elements)}
                             for c in deck.cards]
        pile = [c.id for c in deck.cards for _ in range(c.count)][:MAX_PILE]
        decks[deck.id] = {"name": deck.name, "cards": cards, "pile": pile}
    if game.end is None:
        return {"decks": decks}
    out, reach = game.end.out, game.end.reach
    return {"decks": decks, "end": {"out": {"counter": out.counter, "value": out.value} if out else None,
                                     "reach": {"counter": reach.counter, "value": reach.value} if reach else None}}


def initial(state: State) -> State:
    piles: dict[str, Pile] = {d: {"left": len(r["pile"]), "shuffled": False, "face_up": [], "discard": []}
                              for d, r in state["rules"]["decks"].items()}
    return {**state, "tracker": {"piles": piles, "over": False, "winner": None}, "hidden": {"piles": {}}}


def _end(state: State) -> End:
    return state["rules"].get("end") or {"out": None, "reach": None}


def _is_out(state: State, i: int) -> bool:
    out = _end(state)["out"]
    return out is not None and value(state, out["counter"], i) <= out["value"]


def settle(state: State) -> State:
    """Who is out, and whether the game is over and who won, from the counters as they stand."""
    state = pad_players(state, PLAYER)
    state = settled_players(state, lambda i, p: {**p["tracker"], "out": _is_out(state, i)})
    end = _end(state)
    standing = [i for i, p in enumerate(state["players"]) if not p["tracker"]["out"]]
    reach = end["reach"]
    reached = [i for i in standing if reach is not None and value(state, reach["counter"], i) >= reach["value"]]
    # one left of two or more is the last one standing; at a table of one, being out ends it
    last = end["out"] is not None and len(standing) < min(2, len(state["players"]))
    winner = reached[0] if reached else (standing[0] if last and standing else None)
    return settled(state, lambda t: {**t, "over": bool(reached) or last, "winner": winner})


def _gone(state: State, i: int) -> str | None:
    return "out of the game" if _is_out(state, i) else None


def _life(state: State) -> str | None:
    out = _end(state)["out"]
    return out["counter"] if out else None


def _the_end(state: State) -> Ending:
    """The end every phone shows at its top: the first to the YAML's goal, or the last one standing, wins."""
    return won_by(state, state["tracker"]["winner"], "Nobody is left standing.")


def _refuse_if_over(state: State) -> None:
    t = state["tracker"]
    if t.get("over") and not state.get("reopened"):
        won = f"{name(state, t['winner'])} has won" if t["winner"] is not None else "nobody is left standing"
        raise Conflict(f"the game is over ({won}), so its piles rest; reopen it (under Table) to play on")


def _deck(state: State, action: Sent) -> str:
    return choice(action.get("deck"), "the deck", state["rules"]["decks"])


def _who(state: State, action: Sent) -> int | None:
    return None if action.get("player") is None else player(state, action.get("player"))


def _card_name(state: State, deck: str, card_id: str) -> str:
    return next((c["name"] for c in state["rules"]["decks"][deck]["cards"] if c["id"] == card_id), card_id)


def _by(state: State, data: Mapping[str, Any]) -> str:
    return name(state, data["player"]) if data.get("player") is not None else "The table"


# -- draw


def _parse_draw(state: State, action: Sent) -> Data:
    return {"deck": _deck(state, action), "player": _who(state, action)}


def _draw_order(state: State, inputs: Data, randbelow: RandBelow) -> Data:
    """A pile never drawn from is shuffled by its first draw."""
    deck = inputs["deck"]
    if state["tracker"]["piles"][deck]["shuffled"]:
        return {}
    return {"hidden": {"order": shuffled(state["rules"]["decks"][deck]["pile"], randbelow)}}


def _apply_draw(state: State, data: Data, strict: bool) -> tuple[State, Data]:
    if strict:
        _refuse_if_over(state)
    deck = data["deck"]
    order = data.get("hidden", {}).get("order") or state["hidden"]["piles"].get(deck, [])
    if not order:
        if strict:
            raise Conflict(f"{state['rules']['decks'][deck]['name']} has no cards left to draw: reshuffle it first")
        return state, {}
    top, rest = order[0], list(order[1:])
    state = with_hidden(state, lambda h: {**h, "piles": {**h["piles"], deck: rest}})
    state = _with_pile(state, deck, lambda p: {**p, "left": len(rest), "shuffled": True, "face_up": [*p["face_up"], top]})
    return state, {"card": top, "left": len(rest), "shuffled": "order" in data.get("hidden", {})}


def _describe_draw(data: Mapping[str, Any], state: State) -> str:
    deck = data["deck"]
    if "card" not in data:
        return f"{_by(state, data)} drew from {state['rules']['decks'][deck]['name']}"
    first = "shuffled and " if data.get("shuffled") else ""
    return (f"{_by(state, data)} {first}drew {_card_name(state, deck, data['card'])} from "
            f"{state['rules']['decks'][deck]['name']} ({plural(data['left'], 'card')} left)")


# -- discard


def _parse_discard(state: State, action: Sent) -> Data:
    deck = _deck(state, action)
    card = action.get("card")
    if card is not None and card not in state["tracker"]["piles"][deck]["face_up"]:
        raise Invalid(f"that card is not face up from {state['rules']['decks'][deck]['name']}")
    return {"deck": deck, "card": card, "player": _who(state, action)}


def _apply_discard(state: State, data: Data, strict: bool) -> tuple[State, Data]:
    if strict:
        _refuse_if_over(state)
    deck, card = data["deck"], data["card"]
    face_up = state["tracker"]["piles"][deck]["face_up"]
    if strict and not face_up:
        raise Conflict(f"no card of {state['rules']['decks'][deck]['name']} is face up to discard")
    gone = [card] if card in face_up else ([] if card is not None else list(face_up))
    kept = list(face_up)
    for c in gone:
        kept.remove(c)
    state = _with_pile(state, deck, lambda p: {**p, "face_up": kept, "discard": [*p["discard"], *gone]})
    return state, {"discarded": gone}


def _describe_discard(data: Mapping[str, Any], state: State) -> str:
    deck = data["deck"]
    gone = data.get("discarded", [])
    what = ", ".join(_card_name(state, deck, c) for c in gone) or "nothing"
    return f"{_by(state, data)} discarded {what} from {state['rules']['decks'][deck]['name']}"


# -- reshuffle


def _parse_reshuffle(state: State, action: Sent) -> Data:
    return {"deck": _deck(state, action), "player": _who(state, action)}


def _reshuffle_order(state: State, inputs: Data, randbelow: RandBelow) -> Data:
    return {"hidden": {"order": shuffled(state["rules"]["decks"][inputs["deck"]]["pile"], randbelow)}}


def _apply_reshuffle(state: State, data: Data, strict: bool) -> tuple[State, Data]:
    if strict:
        _refuse_if_over(state)
    deck = data["deck"]
    order = list(data.get("hidden", {}).get("order", []))
    state = with_hidden(state, lambda h: {**h, "piles": {**h["piles"], deck: order}})
    state = _with_pile(state, deck, lambda p: {"left": len(order), "shuffled": True, "face_up": [], "discard": []})
    return state, {"left": len(order)}


def _describe_reshuffle(data: Mapping[str, Any], state: State) -> str:
    deck = state["rules"]["decks"][data["deck"]]["name"]
    return f"{_by(state, data)} gathered and shuffled {deck} ({plural(data.get('left', 0), 'card')})"


def _with_pile(state: State, deck: str, change: Any) -> State:
    return with_tracker(state, lambda t: {**t, "piles": {**t["piles"], deck: change(t["piles"][deck])}})


TRACKER: Tracker[State] = Tracker(
    rules=rules,
    end=_the_end,
    initial=initial,
    settle=settle,
    life=_life,
    gone=_gone,
    actions={
        # A draw reveals a card: it is shown to every phone, and undo does not take it back.
        "draw": Action(_parse_draw, _apply_draw, _describe_draw, draw=_draw_order, ordered=True, undoable=False, shown=True),
        "discard": Action(_parse_discard, _apply_discard, _describe_discard),
        "reshuffle": Action(_parse_reshuffle, _apply_reshuffle, _describe_reshuffle, draw=_reshuffle_order,
                            ordered=True, undoable=False),
    },
)
