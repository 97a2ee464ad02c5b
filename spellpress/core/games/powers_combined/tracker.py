"""Powers Combined: the party's shared lives, the challenge and its level, the rune pot.

The challenge counter runs from 1 to `challenges_per_game`; the YAML's `levels` say which level
each challenge is on and how many modifiers that level adds to it. A beaten challenge adds its
runes to the pot (times `double_up_on_challenge` under a Double Up!: the ruleset's
`challenge_reward`; the pot holds at most `rune_tokens`) and the party moves on; beating the
last one wins the game. A failed challenge costs a shared life and stays to be tried again;
with no lives left the party has lost. At most `rune_spend_limit` runes are spent a turn, and
each turn ends when the challenge is beaten or failed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Never, TypedDict

from ...models import Game
from ...play.errors import Conflict, Invalid
from ...play.inputs import card_of, choice, flag, whole
from ...play.state import TableState, move, pad_players, settled, value, with_tracker
from ...play.tracker import Action, Data, Sent, Tracker
from ...play.words import ARROW, plural
from .ruleset import Constants, challenge_reward

LIVES, RUNES, CHALLENGE = "lives", "runes", "challenge"  # the table counters of game.yaml
CHALLENGE_TYPE = "challenge"  # the card type of the challenge deck (decks.yaml)


class Level(TypedDict):
    name: str
    first: int  # its first challenge's number
    last: int
    modifiers: int


class NumberedLevel(Level):
    number: int  # from 1


class Challenge(TypedDict):
    id: str
    name: str
    element: str
    power: int | None
    runes: int


class Matchup(TypedDict):
    weak_to: list[str]
    resists: list[str]


class Rules(TypedDict):
    levels: list[Level]
    challenges: list[Challenge]
    last: int  # the number of the last challenge
    rune_limit: int
    rune_tokens: int
    double_up_on_challenge: int
    matchups: dict[str, Matchup]
    weakness_multiplier: int
    resistance_divisor: int
    submitted: int
    submitted_two_players: int


class Fields(TypedDict):
    turn: int
    spent: int  # runes spent this turn
    cleared: int
    won: bool
    outcome: str | None  # "won" or "lost"
    over: bool
    level: NumberedLevel | None
    card: str | None  # the face-up challenge card
    matchup: Matchup | None
    submit: int | None  # cards each player submits
    last: Data | None  # the latest challenge's result, as its event says it


class Mine(TypedDict):
    """A player has no fields of their own: the party plays together."""


State = TableState[Fields, Mine, Rules, Never]


def rules(game: Game, created: Mapping[str, Any]) -> Rules | None:
    c = game.constants_as(Constants)
    ids = {counter.id for counter in game.counters if counter.scope == "table"}
    if not {LIVES, RUNES, CHALLENGE} <= ids:
        return None
    challenges: list[Challenge] = [
        {"id": card.id, "name": card.name, "element": card.get("element"), "power": card.get("power"), "runes": card.get("runes", 0)}
        for card in game.cards if card.type == CHALLENGE_TYPE
    ]
    return {
        "levels": [{"name": lv.name, "first": lv.first, "last": lv.last, "modifiers": lv.modifiers} for lv in c.levels],
        "challenges": sorted(challenges, key=lambda card: (card["power"] or 0, card["name"])),
        "last": c.challenges_per_game,
        "rune_limit": c.rune_spend_limit,
        "rune_tokens": c.rune_tokens,
        "double_up_on_challenge": c.double_up_on_challenge,
        "matchups": {k: {"weak_to": list(m.weak_to), "resists": list(m.resists)} for k, m in c.matchups.items()},
        "weakness_multiplier": c.weakness_multiplier,
        "resistance_divisor": c.resistance_divisor,
        "submitted": c.cards_submitted,
        "submitted_two_players": c.cards_submitted_two_players,
    }


def initial(state: State) -> State:
    tracker: Fields = {
        "turn": 1, "spent": 0, "cleared": 0, "won": False, "outcome": None, "over": False,
        "level": None, "card": None, "matchup": None, "submit": None, "last": None,
    }
    return {**state, "tracker": tracker}


def level_of(rules: Rules, challenge: int) -> NumberedLevel:
    """The level that challenge number `challenge` is on, numbered from 1."""
    for number, level in enumerate(rules["levels"], start=1):
        if level["first"] <= challenge <= level["last"]:
            return {**level, "number": number}
    return {**rules["levels"][-1], "number": len(rules["levels"])}


def settle(state: State) -> State:
    r, t = state["rules"], state["tracker"]
    state = pad_players(state, {})
    outcome = "lost" if value(state, LIVES) <= 0 else "won" if t["won"] else None
    card = next((c for c in r["challenges"] if c["id"] == t["card"]), None)
    matchup = r["matchups"].get(card["element"]) if card else None
    submit = r["submitted_two_players"] if len(state["players"]) == 2 else r["submitted"]
    return settled(state, lambda f: {
        **f, "outcome": outcome, "over": outcome is not None, "level": level_of(r, value(state, CHALLENGE)),
        "matchup": matchup, "submit": submit,
    })


def _refuse_if_over(state: State) -> None:
    outcome = state["tracker"]["outcome"]
    if outcome:
        raise Conflict("the game is over: the party " + ("cleared the caves" if outcome == "won" else "has no lives left"))


def _parse_face(state: State, action: Sent) -> Data:
    if action.get("card") is None:
        return {"card": None}
    return {"card": card_of(state["rules"]["challenges"], action.get("card"), "challenge card")["id"]}


def _apply_face(state: State, data: Data, strict: bool) -> tuple[State, Data]:
    if strict:
        _refuse_if_over(state)
    return with_tracker(state, lambda f: {**f, "card": data["card"]}), {}


def _describe_face(data: Mapping[str, Any], state: State) -> str:
    card = next((c for c in state["rules"]["challenges"] if c["id"] == data["card"]), None)
    if card is None:
        return "The face-up challenge card was cleared"
    runes = plural(card["runes"], "rune")
    return f"Challenge {value(state, CHALLENGE)}: {card['name']} ({card['element']}, power {card['power']}, {runes})"


def _apply_spend(state: State, data: Data, strict: bool) -> tuple[State, Data]:
    r, t = state["rules"], state["tracker"]
    if strict:
        _refuse_if_over(state)
        if value(state, RUNES) <= 0:
            raise Invalid("the rune pot is empty")
        if t["spent"] >= r["rune_limit"]:
            raise Invalid(f"no more than {plural(r['rune_limit'], 'rune')} can be spent a turn, and {t['spent']} are spent")
    state, before, after = move(state, RUNES, -1)
    return with_tracker(state, lambda f: {**f, "spent": t["spent"] + 1}), {"from": before, "to": after, "spent": t["spent"] + 1}


def _describe_spend(data: Mapping[str, Any], state: State) -> str:
    limit = state["rules"]["rune_limit"]
    spent = f"{data.get('spent', 1)} of {limit} this turn"
    return f"A rune is spent to flip a modifier ({spent}): pot {data.get('from')} {ARROW} {data.get('to')}"


def _parse_resolve(state: State, action: Sent) -> Data:
    data: Data = {
        "result": choice(action.get("result"), "result", ("won", "lost")),
        "double_up": flag(action.get("double_up"), "Double Up"),
    }
    if action.get("runes") is not None:
        r = state["rules"]
        most = challenge_reward(r["rune_tokens"], 1, r["double_up_on_challenge"])  # a full pot's worth, doubled up
        data["runes"] = whole(action.get("runes"), "runes", 0, most)
    return data


def _card_reward(rules: Rules, card: Challenge | None, double_up: bool) -> int:
    """The face-up card's runes, under a Double Up! or not."""
    return challenge_reward(card["runes"], int(double_up), rules["double_up_on_challenge"]) if card else 0


def _apply_resolve(state: State, data: Data, strict: bool) -> tuple[State, Data]:
    r, t = state["rules"], state["tracker"]
    challenge = value(state, CHALLENGE)
    card = next((c for c in r["challenges"] if c["id"] == t["card"]), None)
    if strict:
        _refuse_if_over(state)
        if data["result"] == "won" and "runes" not in data and card is None:
            raise Invalid("say how many runes the challenge gives (runes), or name its card first")
    results: Data = {"challenge": challenge}
    if data["result"] == "won":
        reward = data["runes"] if "runes" in data else _card_reward(r, card, data["double_up"])
        state, before, after = move(state, RUNES, reward)
        results.update(reward=reward, pot={"from": before, "to": after}, card=card and card["name"])
        if challenge >= r["last"]:
            state = with_tracker(state, lambda f: {**f, "won": True})
            results["cleared"] = True
        else:
            state, _, _ = move(state, CHALLENGE, 1)
            results["next"] = challenge + 1
        state = with_tracker(state, lambda f: {**f, "cleared": t["cleared"] + 1, "card": None})
    else:
        state, before, after = move(state, LIVES, -1)
        results.update(lives={"from": before, "to": after}, card=card and card["name"])
    state = with_tracker(state, lambda f: {**f, "spent": 0, "turn": t["turn"] + 1, "last": {"result": data["result"], **results}})
    return state, results


def _describe_resolve(data: Mapping[str, Any], state: State) -> str:
    what = f"challenge {data.get('challenge', '?')}" + (f" ({data['card']})" if data.get("card") else "")
    if data["result"] == "won":
        text = f"The party beat {what}: +{plural(data.get('reward', 0), 'rune')}"
        if "pot" in data:
            text += f", pot {data['pot']['from']} {ARROW} {data['pot']['to']}"
        if data.get("cleared"):
            text += ". That was the last one: the caves are cleared, and the party wins!"
        elif "next" in data:
            text += f". On to challenge {data['next']}."
        return text
    lives = data.get("lives", {})
    text = f"The party failed {what}: lives {lives.get('from')} {ARROW} {lives.get('to')}"
    if lives.get("to") == 0:
        text += ". No lives are left: the party has lost."
    return text


def _parse_nothing(state: State, action: Sent) -> Data:
    return {}


TRACKER: Tracker[State] = Tracker(
    rules=rules,
    initial=initial,
    settle=settle,
    actions={
        "face": Action(_parse_face, _apply_face, _describe_face),
        "spend_rune": Action(_parse_nothing, _apply_spend, _describe_spend),
        "resolve": Action(_parse_resolve, _apply_resolve, _describe_resolve, ordered=True),
    },
)
