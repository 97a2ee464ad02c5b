"""PowerMage 54: turns, points, defeat at 0, the empty-deck halving, and the plays worked out from
the cards.

Turns (a table option, kept unless the table switches it off): a player's turn is their draw (or
exchange, hidden from the table) and one action play: an attack, a Health card, an action card
or a PowerMage's ability (`play`), or none (`end_turn`). The play ends the turn, and the turn
passes to the next player still in the game (the same player again after a card that gives
another turn; past a player defeated meanwhile). The first play of the game begins turn 1: the
table's drawn first player's, else whoever makes it (the rulebook names no first player). A play
out of turn is refused.

When the draw deck runs out, every player still in the game has their points divided by the
YAML's `empty_deck_divisor`, rounding down. A player at 0 points is defeated and out; the last
one standing wins. An attack is its card's value (two cards with a pairing PowerMage, or a
PowerMage played as a card at its worth), times a thump card's multiplier or a multiplying
PowerMage's, less the defense's (worked out the same way), never below 0; the attacked player
may instead turn it into a gain, or send it on to another player, who answers it in turn. A
health card adds its value, times a thump's. A thump needs a PowerMage shown (when the YAML says
so): the action names it, and is refused without it by the same function (the ruleset's
`attack`, `heal`) as the rule helper. The cards' effects come from their YAML `effect` fields.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Never, NotRequired, TypedDict, cast

from ...models import Game
from ...play.errors import Conflict, Invalid
from ...play.inputs import card_of
from ...play.state import Ending, TableState, move, name, pad_players, player, put, settled, settled_players, value, with_tracker, won_by
from ...play.tracker import Action, Data, Sent, Tracker
from ...play.words import ARROW, and_
from .options import KEPT, TURNS
from .ruleset import AIMED, AS_CARD, EFFECTS, MULTIPLY, ON_TURN, TWO_CARDS, Constants, defeated, halved, played
from .ruleset import attack as play_attack
from .ruleset import heal as play_heal

POINTS = "points"  # the counter of game.yaml
ATTACK, DEFENSE, HEALTH, THUMP, ACTION, POWERMAGE = "attack", "defense", "health", "thump", "action", "powermage"  # decks.yaml
GAIN, REDIRECT, UNBLOCKABLE, SWAP_POINTS, EXTRA_TURN = "gain", "redirect", "unblockable", "swap-points", "extra-turn"  # effects


class Card(TypedDict):
    id: str
    name: str
    count: NotRequired[int]  # copies in the deck (kept since thumps were checked against it)
    value: NotRequired[int]  # an attack, defense or health card's
    multiplier: NotRequired[int]  # a thump card's
    effect: NotRequired[str]  # an action card's or a PowerMage's (the ruleset's EFFECTS)
    timing: NotRequired[str]  # when its effect is played (EFFECTS): "on your turn" is an action play
    worth: NotRequired[int]  # a PowerMage played as an Attack or Defense card
    times: NotRequired[int]  # a PowerMage that multiplies in place of a thump
    forfeit: NotRequired[int]  # the points an unblockable attack takes
    holds: NotRequired[int]
    cancels_unblockable: NotRequired[bool]


class Rules(TypedDict):
    points: str
    divisor: int
    thump_needs_powermage: bool
    exchange: int  # the cards an exchange discards (and draws) in place of the turn's draw
    cards: dict[str, list[Card]]  # by type: attack, defense, health, thump, action, powermage


class Last(TypedDict):
    attacker: int
    target: int
    damage: int


class Fields(TypedDict):
    winner: int | None
    over: bool
    halvings: int
    last: Last | None
    player: int | None  # whose turn it is: None before the first play, or where turns are not kept
    turns: int  # turns begun
    rounds: int  # rounds begun: one more each time the turn comes round to an earlier seat


class Mine(TypedDict):
    defeated: bool


State = TableState[Fields, Mine, Rules, Never]


def rules(game: Game, created: Mapping[str, Any]) -> Rules | None:
    c = game.constants_as(Constants)
    if not any(counter.id == POINTS and counter.scope == "player" for counter in game.counters):
        return None
    cards: dict[str, list[Card]] = {ATTACK: [], DEFENSE: [], HEALTH: [], THUMP: [], ACTION: [], POWERMAGE: []}
    for card in game.cards:
        if ((card.type in (ATTACK, DEFENSE, HEALTH) and card.get("value") is not None)
                or (card.type == THUMP and card.get("multiplier") is not None)
                or (card.type == ACTION and card.get("effect") in EFFECTS) or card.type == POWERMAGE):
            cards[card.type].append(cast(Card, played(card)))
    for kind in cards:
        cards[kind].sort(key=lambda card: (card.get("value", card.get("multiplier", 0)), card["name"]))
    return {"points": POINTS, "divisor": c.empty_deck_divisor, "thump_needs_powermage": c.thump_needs_powermage,
            "exchange": c.exchange_discard, "cards": cards}


def _with(r: Rules, *effects: str) -> list[Card]:
    """The action cards and PowerMages with one of `effects`."""
    return [c for kind in (ACTION, POWERMAGE) for c in r["cards"].get(kind, []) if c.get("effect") in effects]


def _playing(r: Rules, kind: str) -> list[Card]:
    """The cards that attack (or defend): the cards of `kind`, and PowerMages played as one."""
    return r["cards"][kind] + _with(r, AS_CARD)


def _on_turn(r: Rules) -> list[Card]:
    """The action cards and PowerMage abilities played as a turn's action play."""
    return [c for c in _with(r, *EFFECTS) if EFFECTS[c["effect"]][0] == ON_TURN]


PLAYER: Mine = {"defeated": False}


def initial(state: State) -> State:
    return {**state, "tracker": {"winner": None, "over": False, "halvings": 0, "last": None, "player": None, "turns": 0, "rounds": 0}}


def settle(state: State) -> State:
    state = pad_players(state, PLAYER)
    state = settled_players(state, lambda i, p: {**p["tracker"], "defeated": defeated(p["counters"].get(POINTS, 0))})
    standing = [i for i, p in enumerate(state["players"]) if not p["tracker"]["defeated"]]
    over = len(state["players"]) >= 2 and len(standing) <= 1
    state = settled(state, lambda t: {**t, "over": over, "winner": standing[0] if over and standing else None})
    current = state["tracker"].get("player")  # a table saved before turns were kept has none
    if current is not None and current not in standing:  # defeated on their own turn (a halving): it passes on
        state = _turn_after(state, current, False)
    return state


# ---------------------------------------------------------------------------- turns


def _kept(state: State) -> bool:
    """Whether this table keeps turns (a table option: tables started before it did not)."""
    return state["options"].get(TURNS) == KEPT


def _standing(state: State) -> list[int]:
    return [i for i in range(len(state["players"])) if not defeated(value(state, POINTS, i))]


def _own_turn(state: State, who: int, doing: str) -> None:
    """A play is made on its player's own turn, one a turn, where the table keeps turns."""
    if not _kept(state):
        return
    current = state["tracker"]["player"]
    if current is None:
        current = state["first_player"]  # the first play is the first player's, if the table drew one
    if current is not None and current != who:
        raise Invalid(f"it is {name(state, current)}'s turn: {name(state, who)} may {doing} only on their own turn, "
                      "one action play a turn")


def _begin(state: State, who: int) -> State:
    """The game's first play begins turn 1 and round 1, its player's."""
    if not _kept(state) or state["tracker"]["player"] is not None:
        return state
    return with_tracker(state, lambda t: {**t, "player": who, "turns": 1, "rounds": 1})


def _turn_after(state: State, seat: int, again: bool) -> State:
    """The turn after `seat`'s: its own again (another turn), else the next player's still in the
    game; none once the game is over."""
    standing = _standing(state)
    if not _kept(state) or len(standing) <= 1:
        return state
    n = len(state["players"])
    repeat = again and seat in standing
    following = seat if repeat else next(s for s in [*range(seat + 1, n), *range(seat + 1)] if s in standing)
    new_round = not repeat and following <= seat
    return with_tracker(state, lambda t: {**t, "player": following, "turns": t["turns"] + 1, "rounds": t["rounds"] + new_round})


def _ended(state: State, who: int, again: bool = False) -> tuple[State, Data]:
    """The state once `who`'s action play has ended their turn, and whose turn it is now (if it passed)."""
    if not _kept(state):
        return state, {}
    turns = state["tracker"]["turns"]
    state = _turn_after(state, who, again)
    return state, ({"next": state["tracker"]["player"]} if state["tracker"]["turns"] != turns else {})


def _next_text(data: Mapping[str, Any], state: State, who: int) -> str:
    following = data.get("next")
    if following is None:
        return ""
    return f"; {name(state, who)} takes another turn" if following == who else f"; {name(state, following)}'s turn"


def _the_end(state: State) -> Ending:
    """The end every phone shows at its top: the last player with points wins."""
    return won_by(state, state["tracker"]["winner"], "Everyone is defeated.")


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


def _optional_of(cards: Callable[[], list[Card]], action: Sent, key: str, what: str) -> Card | None:
    """The card `key` names among `cards()` (listed only when a card is named), or None."""
    return None if action.get(key) is None else card_of(cards(), action.get(key), what)


def _pair(state: State, action: Sent, key: str, kind: str) -> Card | None:
    """The second card of a pair, where the game has a card that lets two attack (or defend) at once."""
    second = _optional_of(lambda: _playing(state["rules"], kind), action, key, f"{kind} card")
    if second is not None and not _with(state["rules"], TWO_CARDS):
        raise Invalid(f"no card of this game lets two {kind} cards be played at once")
    return second


def _redirects(state: State, action: Sent, target: int) -> list[Data]:
    """Each time the attack is sent on: the card that sends it, who sends it and to whom."""
    sent = action.get("redirects") or []
    if not isinstance(sent, list):
        raise Invalid("redirects must be a list of {card, to}")
    out: list[Data] = []
    holder = target
    for hop in sent:
        if not isinstance(hop, Mapping):
            raise Invalid("each redirect is {card, to}: the card that sends the attack on, and to whom")
        card = card_of(_with(state["rules"], REDIRECT), hop.get("card"), "card that sends an attack on")
        to = player(state, hop.get("to"), "player the attack is sent on to")
        if to == holder:
            raise Invalid(f"{card['name']} sends the attack on to another player: {name(state, holder)} cannot send it to themselves")
        out.append({"card": card["id"], "by": holder, "to": to})
        holder = to
    return out


def _parse_attack(state: State, action: Sent) -> Data:
    r = state["rules"]
    attacker = player(state, action.get("attacker"), "attacker")
    target = player(state, action.get("target"), "target")
    if attacker == target:
        raise Invalid("a player does not attack themselves")
    attack = card_of(_playing(r, ATTACK), action.get("attack"), "attack card")
    second = _pair(state, action, "second", ATTACK)

    def multipliers() -> list[Card]:
        return r["cards"][THUMP] + _with(r, MULTIPLY)

    thump = _optional_of(multipliers, action, "thump", "thump card")
    mage = _optional(state, action, "powermage", POWERMAGE)
    defense = _optional_of(lambda: _playing(r, DEFENSE), action, "defense", "defense card")
    defense_second = _pair(state, action, "defense_second", DEFENSE)
    guard = _optional_of(multipliers, action, "defense_thump", "thump card")
    guard_mage = _optional(state, action, "defense_powermage", POWERMAGE)
    gain = _optional_of(lambda: _with(r, GAIN), action, "gain", "card that turns an attack into a gain")
    if gain is not None and defense is not None:
        raise Invalid(f"{gain['name']} is played in place of a Defense card: name one or the other")
    redirects = _redirects(state, action, target)
    returned = bool(redirects) and redirects[-1]["to"] == attacker
    sums = play_attack(r["thump_needs_powermage"], attack, thump, mage, defense, guard, guard_mage, second, defense_second, returned)
    data: Data = {
        "attacker": attacker, "target": target, "attack": attack["id"], "thump": thump and thump["id"],
        "defense": defense and defense["id"], "defense_thump": guard and guard["id"],
        "strength": sums.strength, "block": sums.block, "damage": 0 if gain else sums.damage,
    }
    if mage or guard_mage:
        data.update(powermage=mage and mage["id"], defense_powermage=guard_mage and guard_mage["id"])
    extra = {"second": second, "defense_second": defense_second, "gain": gain}
    data.update({key: card["id"] for key, card in extra.items() if card is not None})
    if redirects:
        data["redirects"] = redirects
    return data


def _hit(data: Mapping[str, Any]) -> int:
    """Who the attack reaches in the end: its target, or the last player it was sent on to."""
    hops = data.get("redirects") or []
    hit: int = hops[-1]["to"] if hops else data["target"]
    return hit


def _apply_attack(state: State, data: Data, strict: bool) -> tuple[State, Data]:
    attacker, hit = data["attacker"], _hit(data)
    if strict:
        _refuse_if_over(state)
        _in_game(state, attacker)
        for who in (data["target"], *(hop["to"] for hop in data.get("redirects", []))):
            _in_game(state, who)
        _own_turn(state, attacker, "attack")
    state = _begin(state, attacker)
    state, before, after = move(state, POINTS, data["strength"] if data.get("gain") else -data["damage"], hit)
    state = with_tracker(state, lambda t: {**t, "last": {"attacker": attacker, "target": hit, "damage": data["damage"]}})
    state, turn = _ended(state, attacker)
    return state, {"from": before, "to": after, **turn}


def _card_name(state: State, kind: str, card_id: str | None) -> str:
    return next((c["name"] for c in state["rules"]["cards"].get(kind, []) if c["id"] == card_id), card_id or "")


def _named(state: State, card_id: str | None) -> str:
    """A card's name, whatever its type."""
    return next((c["name"] for cards in state["rules"]["cards"].values() for c in cards if c["id"] == card_id), card_id or "")


def _thump_text(state: State, thump: str | None, powermage: str | None) -> str:
    if not thump:
        return ""
    shown = f", {_card_name(state, POWERMAGE, powermage)} shown" if powermage else ""
    return f" thumped by {_named(state, thump)}{shown}"


def _cards_text(state: State, first: str, second: str | None) -> str:
    if second is None:
        return _named(state, first)
    pairing = and_([c["name"] for c in _with(state["rules"], TWO_CARDS)])
    return f"{_named(state, first)} and {_named(state, second)} ({pairing}'s pair)"


def _describe_attack(data: Mapping[str, Any], state: State) -> str:
    attack = _cards_text(state, data["attack"], data.get("second")) + _thump_text(state, data["thump"], data.get("powermage"))
    text = f"{name(state, data['attacker'])} attacked {name(state, data['target'])} with {attack} ({data['strength']})"
    for hop in data.get("redirects", []):
        text += f"; {name(state, hop['by'])} sent it on to {name(state, hop['to'])} with {_named(state, hop['card'])}"
    hit = _hit(data)
    if data.get("gain"):
        text += f"; {name(state, hit)} played {_named(state, data['gain'])}: +{data['strength']} instead"
    else:
        if data["defense"]:
            guard = _thump_text(state, data["defense_thump"], data.get("defense_powermage"))
            text += f"; {_cards_text(state, data['defense'], data.get('defense_second'))}{guard} blocks {data['block']}"
        text += f": {data['damage']} damage"
    if "to" in data:
        text += f", {name(state, hit)} {data['from']} {ARROW} {data['to']}"
    return text + _next_text(data, state, data["attacker"])


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
    who = data["player"]
    if strict:
        _refuse_if_over(state)
        _in_game(state, who)
        _own_turn(state, who, "play a Health card")
    state = _begin(state, who)
    state, before, after = move(state, POINTS, data["amount"], who)
    state, turn = _ended(state, who)
    return state, {"from": before, "to": after, **turn}


def _describe_heal(data: Mapping[str, Any], state: State) -> str:
    card = _card_name(state, HEALTH, data["health"]) + _thump_text(state, data["thump"], data.get("powermage"))
    text = f"{name(state, data['player'])} played {card}: +{data['amount']}"
    return text + (f", {data['from']} {ARROW} {data['to']}" if "to" in data else "") + _next_text(data, state, data["player"])


# ---------------------------------------------------------------------------- action cards and abilities


def _parse_play(state: State, action: Sent) -> Data:
    """An action card or a PowerMage's ability played as the turn's action play; one aimed at a
    player names them, and an unblockable attack names its target's answer."""
    r = state["rules"]
    who = player(state, action.get("player"))
    card = card_of(_on_turn(r), action.get("card"), "card played as an action play")
    effect = card["effect"]
    data: Data = {"player": who, "card": card["id"], "effect": effect}
    if effect not in AIMED:
        return data
    target = player(state, action.get("target"), "target")
    if target == who:
        raise Invalid(f"{card['name']} is aimed at another player")
    data["target"] = target
    if effect == UNBLOCKABLE:
        cancel = _optional_of(lambda: [c for c in r["cards"][POWERMAGE] if c.get("cancels_unblockable")], action, "cancel",
                              f"card that cancels {card['name']}")
        given = _optional(state, action, "give_up", POWERMAGE)
        if cancel and given:
            raise Invalid(f"{name(state, target)} answers {card['name']} one way: cancel it, give up a PowerMage, "
                          f"or lose {card['forfeit']} points")
        data.update(forfeit=card["forfeit"], cancel=cancel and cancel["id"], give_up=given and given["id"])
    return data


def _swap_points(state: State, a: int, b: int) -> tuple[State, Data]:
    """Two players trade points: each takes the other's total."""
    mine, theirs = value(state, POINTS, a), value(state, POINTS, b)
    state, a_from, a_to = put(state, POINTS, theirs, a)
    state, b_from, b_to = put(state, POINTS, mine, b)
    return state, {"points": [{"player": a, "from": a_from, "to": a_to}, {"player": b, "from": b_from, "to": b_to}]}


def _apply_play(state: State, data: Data, strict: bool) -> tuple[State, Data]:
    who, effect, target = data["player"], data["effect"], data.get("target")
    if strict:
        _refuse_if_over(state)
        _in_game(state, who)
        if target is not None:
            _in_game(state, target)
        _own_turn(state, who, "play a card")
    state = _begin(state, who)
    results: Data = {}
    if effect == SWAP_POINTS:
        state, results = _swap_points(state, who, data["target"])
    elif effect == UNBLOCKABLE and not data["cancel"] and not data["give_up"]:
        state, before, after = move(state, POINTS, -data["forfeit"], target)
        results = {"from": before, "to": after}
    state, turn = _ended(state, who, effect == EXTRA_TURN)
    return state, {**results, **turn}


def _describe_play(data: Mapping[str, Any], state: State) -> str:
    who = name(state, data["player"])
    text = f"{who} played {_named(state, data['card'])}"
    target = data.get("target")
    if target is not None:
        text += f" at {name(state, target)}"
    if data["effect"] == SWAP_POINTS and "points" in data:
        text += ": " + ", ".join(f"{name(state, c['player'])} {c['from']} {ARROW} {c['to']}" for c in data["points"])
    elif data["effect"] == UNBLOCKABLE:
        if data["cancel"]:
            text += f"; {name(state, target)} cancelled it with {_named(state, data['cancel'])}"
        elif data["give_up"]:
            text += f"; {name(state, target)} gave up {_named(state, data['give_up'])}"
        else:
            text += f", which cannot be defended: {name(state, target)} loses {data['forfeit']}"
            text += f", {data['from']} {ARROW} {data['to']}" if "to" in data else ""
    return text + _next_text(data, state, data["player"])


def _parse_end_turn(state: State, action: Sent) -> Data:
    """A turn with no action play; an exchange names the cards it discarded (they are shown)."""
    who = player(state, action.get("player"))
    shown = action.get("exchanged") or []
    if not isinstance(shown, list):
        raise Invalid("exchanged must be a list of the cards discarded")
    if shown and len(shown) != state["rules"]["exchange"]:
        raise Invalid(f"an exchange discards {state['rules']['exchange']} cards and draws as many; got {len(shown)}")
    every = [c for cards in state["rules"]["cards"].values() for c in cards]
    return {"player": who, "exchanged": [card_of(every, x, "card")["id"] for x in shown]}


def _apply_end_turn(state: State, data: Data, strict: bool) -> tuple[State, Data]:
    who = data["player"]
    if strict:
        _refuse_if_over(state)
        _in_game(state, who)
        _own_turn(state, who, "end a turn")
    state, turn = _ended(_begin(state, who), who)
    return state, turn


def _describe_end_turn(data: Mapping[str, Any], state: State) -> str:
    who = name(state, data["player"])
    if data["exchanged"]:
        text = f"{who} exchanged {and_([_named(state, x) for x in data['exchanged']])} for as many new cards, ending their turn"
    else:
        text = f"{who} ended their turn with no action play"
    return text + _next_text(data, state, data["player"])


def _parse_nothing(state: State, action: Sent) -> Data:
    return {}


def _gone(state: State, i: int) -> str | None:
    return "defeated" if defeated(value(state, POINTS, i)) else None


TRACKER: Tracker[State] = Tracker(
    rules=rules,
    end=_the_end,
    initial=initial,
    settle=settle,
    life=POINTS,
    gone=_gone,
    actions={
        "halve": Action(_parse_nothing, _apply_halve, _describe_halve, ordered=True),
        "attack": Action(_parse_attack, _apply_attack, _describe_attack),
        "heal": Action(_parse_heal, _apply_heal, _describe_heal),
        "play": Action(_parse_play, _apply_play, _describe_play),
        "end_turn": Action(_parse_end_turn, _apply_end_turn, _describe_end_turn),
    },
)
