"""Powers Combined: the party's shared lives, the challenge and its level, the rune pot, and the
spells of the turn.

The challenge counter runs from 1 to `challenges_per_game`; the YAML's `levels` say which level
each challenge is on and how many modifiers that level lays on it. Naming the face-up card with
the spell cards laid on it (`face`) sets the power to beat and the runes it pays (the ruleset's
`challenge_target`; a Wild Surge laid on it is rolled then, once). Each spell the party combines
(`cast`: its element, power and modifier cards) is summed against it by the ruleset's `cast`;
a Double Up! within the turn's limit, on a spell's card or flipped with a rune, lets the party
cast one more. A rune spent (`spend_rune`, at most `rune_spend_limit` a turn) may name the card
it flipped, whose modifier joins the spell cast last.

A beaten challenge adds its runes to the pot (the pot holds at most `rune_tokens`) and the party
moves on; beating the last one clears the caves. A failed challenge costs a shared life and
stays, with the same modifiers, to be tried again; with no lives left the party has lost. Each
turn ends when the challenge is beaten or failed (`resolve`: said by the party, or worked out
from the spells cast). A table that keeps no cards may still say only "beaten" or "failed".

One door: a `+` or `−` on the challenge counter while a card is face up moves the party to that
challenge (`go_to`), putting the card away, so the number and the card never disagree.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from itertools import chain
from typing import Any, Never, TypedDict

from ...models import Game
from ...play.errors import Conflict, Invalid
from ...play.inputs import card_of, choice, flag, whole
from ...play.state import Ending, RandBelow, TableState, move, pad_players, put, settled, value, with_tracker
from ...play.tracker import Action, Data, Sent, Tracker
from ...play.words import ARROW, and_, plural
from .ruleset import Challenge as Face
from .ruleset import Constants, Outcome, Spell, cast, challenge_reward, challenge_target, modifier

LIVES, RUNES, CHALLENGE = "lives", "runes", "challenge"  # the table counters of game.yaml
CHALLENGE_TYPE, SPELL_TYPE = "challenge", "spell"  # the card types of decks.yaml
SLOTS = ("element", "power", "modifier")  # what each of a spell's three cards gives it


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


class SpellCard(TypedDict):
    id: str
    name: str
    element: str
    power: int
    modifier: str
    count: int  # copies in the deck


class Matchup(TypedDict):
    weak_to: list[str]
    resists: list[str]


class Rules(TypedDict):
    levels: list[Level]
    challenges: list[Challenge]
    spells: list[SpellCard]
    last: int  # the number of the last challenge
    rune_limit: int
    rune_tokens: int
    double_up_on_challenge: int
    matchups: dict[str, Matchup]
    weakness_multiplier: int
    resistance_divisor: int
    submitted: int
    submitted_two_players: int
    constants: dict[str, Any]  # the game's constants as the table started with them: the sums read them


class Target(TypedDict):
    power: int  # what the spells' total must equal or beat
    runes: int  # what beating it pays into the pot


class Cast(TypedDict):
    """One spell of the turn: its three cards, the cards flipped onto it with runes, its dice."""

    element: str  # the spell card giving its element
    power: str
    modifier: str
    runes: list[str]  # spell cards flipped with runes, their modifiers applied after its own
    rolls: list[int]  # its Wild Surges' rolls, in order
    total: int  # after its modifiers and the Elemental Guide


class Fields(TypedDict):
    turns: int  # turns played: each ends with the challenge beaten or failed
    rounds: int  # challenges beaten
    spent: int  # runes spent this turn
    cleared: bool  # the last challenge is beaten: the party has won
    winner: None  # nobody wins alone
    outcome: str | None  # "won" or "lost"
    over: bool
    level: NumberedLevel | None
    card: str | None  # the face-up challenge card
    laid: list[str] | None  # the spell cards laid on it, in order (None: not said)
    rolls: list[int]  # its Wild Surges' rolls, made when they were laid
    target: Target | None  # its power and reward under what was laid on it (None: not known)
    matchup: Matchup | None
    spells: list[Cast]  # the spells cast this turn
    total: int | None  # their total (None: none cast)
    more: int  # spells the party may still cast this turn
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
    spells: list[SpellCard] = [
        {"id": card.id, "name": card.name, "element": card["element"], "power": card["power"], "modifier": card["modifier"],
         "count": card.count}
        for card in game.cards if card.type == SPELL_TYPE
    ]
    return {
        "levels": [{"name": lv.name, "first": lv.first, "last": lv.last, "modifiers": lv.modifiers} for lv in c.levels],
        "challenges": sorted(challenges, key=lambda card: (card["power"] or 0, card["name"])),
        "spells": spells,
        "last": c.challenges_per_game,
        "rune_limit": c.rune_spend_limit,
        "rune_tokens": c.rune_tokens,
        "double_up_on_challenge": c.double_up_on_challenge,
        "matchups": {k: {"weak_to": list(m.weak_to), "resists": list(m.resists)} for k, m in c.matchups.items()},
        "weakness_multiplier": c.weakness_multiplier,
        "resistance_divisor": c.resistance_divisor,
        "submitted": c.cards_submitted,
        "submitted_two_players": c.cards_submitted_two_players,
        "constants": c.model_dump(mode="json"),
    }


def initial(state: State) -> State:
    tracker: Fields = {
        "turns": 0, "rounds": 0, "spent": 0, "cleared": False, "winner": None, "outcome": None, "over": False,
        "level": None, "card": None, "laid": None, "rolls": [], "target": None, "matchup": None,
        "spells": [], "total": None, "more": 1, "submit": None, "last": None,
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
    outcome = "lost" if value(state, LIVES) <= 0 else "won" if t["cleared"] else None
    card = _face_card(r, t)
    matchup = r["matchups"].get(card["element"]) if card else None
    submit = r["submitted_two_players"] if len(state["players"]) == 2 else r["submitted"]
    return settled(state, lambda f: {
        **f, "outcome": outcome, "over": outcome is not None, "level": level_of(r, value(state, CHALLENGE)),
        "matchup": matchup, "submit": submit,
    })


# ---------------------------------------------------------------------------- the sums


@dataclass(frozen=True)
class Compiled:
    """A table's rules as its sums read them, made once per table."""

    c: Constants
    spells: dict[str, SpellCard]  # id -> card
    challenges: dict[str, Challenge]


_COMPILED: dict[int, tuple[Rules, Compiled]] = {}  # id(rules) -> (those rules, compiled)
_KEPT = 64  # tables remembered


def _compiled(rules: Rules) -> Compiled:
    """The constants a table started with, as the ruleset's sums take them, and its cards by id:
    made once per table (a table's states share one rules object, which the memo holds so
    that its id stays its own)."""
    kept = _COMPILED.get(id(rules))
    if kept is not None and kept[0] is rules:
        return kept[1]
    if len(_COMPILED) >= _KEPT:
        _COMPILED.clear()
    made = Compiled(Constants.model_validate(rules["constants"]), {card["id"]: card for card in rules["spells"]},
                    {card["id"]: card for card in rules["challenges"]})
    _COMPILED[id(rules)] = (rules, made)
    return made


def _constants(rules: Rules) -> Constants:
    return _compiled(rules).c


def _face_card(rules: Rules, t: Fields) -> Challenge | None:
    return _compiled(rules).challenges.get(t["card"]) if t["card"] is not None else None


def _spell_card(rules: Rules, card_id: Any) -> SpellCard:
    """The spell card `card_id` names (as a phone sent it, or as the table kept it)."""
    known = _compiled(rules).spells.get(card_id) if isinstance(card_id, str) else None
    found: SpellCard = known or card_of(rules["spells"], card_id, "spell card")  # card_of says what there is
    return found


@functools.lru_cache(maxsize=4096)
def _made_face(element: str, power: int, runes: int, modifiers: tuple[str, ...]) -> Face:
    """A challenge, built once (it is immutable) from cards the loader checked."""
    return Face.model_construct(element=element, power=power, runes=runes, modifiers=modifiers)


@functools.lru_cache(maxsize=4096)
def _made_spell(element: str, power: int, modifier: str, runes: tuple[str, ...]) -> Spell:
    """A spell, built once (it is immutable) from cards the loader checked."""
    return Spell.model_construct(element=element, power=power, modifier=modifier, runes=runes)


def _face(rules: Rules, card_id: str | None, laid: list[str] | None) -> Face | None:
    """The face-up challenge with the modifiers laid on it, when the table has said both."""
    card = _compiled(rules).challenges.get(card_id) if card_id is not None else None
    if card is None or laid is None or card["power"] is None:
        return None
    return _made_face(card["element"], card["power"], card["runes"], tuple(_spell_card(rules, x)["modifier"] for x in laid))


def _spell(rules: Rules, spell: Cast) -> Spell:
    """A spell as the sums take it."""
    return _made_spell(_spell_card(rules, spell["element"])["element"], _spell_card(rules, spell["power"])["power"],
                       _spell_card(rules, spell["modifier"])["modifier"],
                       tuple(_spell_card(rules, x)["modifier"] for x in spell["runes"]))


def _rolling(randbelow: RandBelow, sides: int, drawn: list[int]) -> Iterator[int]:
    """The table's die, each roll kept in `drawn`: as many as the sums ask for."""
    while True:
        drawn.append(randbelow(sides) + 1)
        yield drawn[-1]


def _summed(rules: Rules, face: Face, challenge_rolls: list[int], spells: list[Cast], rolls: Iterable[int]) -> Outcome:
    """The turn's sum: the challenge's dice first, then each spell's in the order they were rolled."""
    try:
        return cast(_constants(rules), face, [_spell(rules, s) for s in spells], chain(challenge_rolls, rolls))
    except ValueError as err:
        raise Invalid(str(err)) from None


def _rolls(rules: Rules, card_id: str) -> bool:
    """Whether a card's modifier may roll the die: a roll, or a Double Up! that counts as one
    past the limit."""
    c = _constants(rules)
    m = modifier(c, _spell_card(rules, card_id)["modifier"])
    return m.op == "roll" or m.op == "double_up" and modifier(c, c.double_up_fallback).op == "roll"


def _spells_rolled(state: State, spells: list[Cast], randbelow: RandBelow, new: str) -> Data:
    """The dice the turn's spells roll beyond those already rolled (a Wild Surge on the modifier
    card `new`, of a new spell or flipped with a rune): rolled now, by the table."""
    r, t = state["rules"], state["tracker"]
    face = _face(r, t["card"], t["laid"])
    if face is None or not _rolls(r, new):
        return {"rolls": []}  # no die to roll, or nothing to sum against (`apply` says so)
    drawn: list[int] = []
    rolled = chain.from_iterable(s["rolls"] for s in spells)
    _summed(r, face, t["rolls"], spells, chain(rolled, _rolling(randbelow, _constants(r).die_sides, drawn)))
    return {"rolls": drawn}


def _with_sums(state: State, spells: list[Cast]) -> tuple[State, Data]:
    """The turn's spells, each with its total, their sum, and how many more may be cast: one, and
    one more for each Double Up! within the limit among their modifiers."""
    r, t = state["rules"], state["tracker"]
    face = _face(r, t["card"], t["laid"])
    assert face is not None, "spells are cast only against a challenge whose modifiers are known"
    outcome = _summed(r, face, t["rolls"], spells, chain.from_iterable(s["rolls"] for s in spells))
    more = 1 + sum(step.double_up for w in outcome.workings for step in w.steps) - len(spells)
    summed: list[Cast] = [{**s, "total": total} for s, total in zip(spells, outcome.totals)]
    state = with_tracker(state, lambda f: {**f, "spells": summed, "total": outcome.total, "more": more})
    return state, {"spell": len(spells), "total": summed[-1]["total"], "sum": outcome.total,
                   "target": outcome.target.power, "more": more}


def _the_end(state: State) -> Ending:
    """The end every phone shows at its top: the party wins or loses together, nobody alone."""
    won = state["tracker"]["outcome"] == "won"
    return {"text": "The caves are cleared: the party wins!" if won else "No lives left: the party has lost.",
            "winner": None, "won": won}


def _refuse_if_over(state: State) -> None:
    outcome = state["tracker"]["outcome"]
    if outcome:
        raise Conflict("the game is over: the party " + ("cleared the caves" if outcome == "won" else "has no lives left"))


def _said_sum(data: Mapping[str, Any]) -> str:
    """A cast's or a flip's sum, as the table reads it aloud."""
    text = f"total {data['sum']} against {data['target']}"
    if data.get("more"):
        text += ". Double Up!: the party may cast " + ("a second spell" if data["spell"] == 1 else "one more spell")
    return text


# ---------------------------------------------------------------------------- the face-up challenge


def _parse_face(state: State, action: Sent) -> Data:
    if action.get("card") is None:
        return {"card": None}
    r = state["rules"]
    data: Data = {"card": card_of(r["challenges"], action.get("card"), "challenge card")["id"]}
    laid = action.get("modifiers")
    if laid is not None:
        if not isinstance(laid, list) or len(laid) > max(level["modifiers"] for level in r["levels"]):
            raise Invalid("modifiers must list the spell cards laid on the challenge, in the order they were laid")
        data["modifiers"] = [_spell_card(r, x)["id"] for x in laid]
    return data


def _draw_face(state: State, data: Data, randbelow: RandBelow) -> Data:
    """A Wild Surge laid on a challenge is rolled as it is laid, once ("the result stays for as
    long as the challenge does")."""
    r = state["rules"]
    face = _face(r, data["card"], data.get("modifiers"))
    if face is None:
        return {}
    drawn: list[int] = []
    try:
        challenge_target(_constants(r), face, _rolling(randbelow, _constants(r).die_sides, drawn))
    except ValueError as err:
        raise Invalid(str(err)) from None
    return {"rolls": drawn}


def _apply_face(state: State, data: Data, strict: bool) -> tuple[State, Data]:
    r = state["rules"]
    laid: list[str] | None = data.get("modifiers")
    level = level_of(r, value(state, CHALLENGE))
    if strict:
        _refuse_if_over(state)
        if laid is not None and len(laid) != level["modifiers"]:
            lays = f"{plural(level['modifiers'], 'modifier')} on each of its challenges, from the top of the spell deck" \
                if level["modifiers"] else "no modifiers on its challenges"
            raise Invalid(f"challenge {value(state, CHALLENGE)} is in {level['name']}, which lays {lays}; {len(laid)} were named")
    rolls: list[int] = data.get("rolls", [])
    face = _face(r, data["card"], laid)
    target: Target | None = None
    if face is not None:
        try:
            reached = challenge_target(_constants(r), face, rolls)
        except ValueError as err:
            raise Invalid(str(err)) from None
        target = {"power": reached.power, "runes": reached.runes}
    state = with_tracker(state, lambda f: {**f, "card": data["card"], "laid": laid, "rolls": rolls, "target": target,
                                           "spells": [], "total": None, "more": 1})
    return state, {"target": target} if target else {}


def _describe_face(data: Mapping[str, Any], state: State) -> str:
    r = state["rules"]
    card = next((c for c in r["challenges"] if c["id"] == data["card"]), None)
    if card is None:
        return "The face-up challenge card was cleared"
    runes = plural(card["runes"], "rune")
    text = f"Challenge {value(state, CHALLENGE)}: {card['name']} ({card['element']}, power {card['power']}, {runes})"
    laid = [_spell_card(r, x) for x in data.get("modifiers") or ()]
    if laid:
        text += "; laid on it: " + and_([f"{x['modifier']} ({x['name']})" for x in laid])
        if data.get("rolls"):
            text += ", rolled " + and_([str(n) for n in data["rolls"]])
    if data.get("target"):
        text += f": power {data['target']['power']} to beat, for {plural(data['target']['runes'], 'rune')}"
    return text


# ---------------------------------------------------------------------------- the spells


def _parse_cast(state: State, action: Sent) -> Data:
    return {slot: _spell_card(state["rules"], action.get(slot))["id"] for slot in SLOTS}


def _new_spell(data: Mapping[str, Any], rolls: list[int]) -> Cast:
    return {"element": data["element"], "power": data["power"], "modifier": data["modifier"], "runes": [], "rolls": rolls,
            "total": 0}


def _draw_cast(state: State, data: Data, randbelow: RandBelow) -> Data:
    """A Wild Surge on the spell's modifier card is rolled as its total is worked out."""
    if state["tracker"]["more"] <= 0:
        return {"rolls": []}  # no spell may be cast: `apply` says why
    return _spells_rolled(state, [*state["tracker"]["spells"], _new_spell(data, [])], randbelow, data["modifier"])


def _apply_cast(state: State, data: Data, strict: bool) -> tuple[State, Data]:
    r, t = state["rules"], state["tracker"]
    spells = [*t["spells"], _new_spell(data, data["rolls"])]
    if _face(r, t["card"], t["laid"]) is None:
        if strict:
            raise Invalid("name the face-up challenge and the spell cards laid on it first: a spell's total is worked out against it")
        return state, {}
    if strict:
        _refuse_if_over(state)
        if t["more"] <= 0:
            raise Invalid("a further spell needs a Double Up! (it \"means you get to cast a second spell\"), "
                          "and this turn's spells have none left to use")
        slots = Counter(card for s in spells for card in (s["element"], s["power"], s["modifier"]))
        for card_id, n in slots.items():
            card = _spell_card(r, card_id)
            if n > card["count"]:
                held = "once" if card["count"] == 1 else f"{card['count']} times"
                raise Invalid(f"{card['name']} is in {n} slots this turn, but the deck holds it {held}: each card counts for one slot only")
    return _with_sums(state, spells)


def _describe_cast(data: Mapping[str, Any], state: State) -> str:
    r = state["rules"]
    element, power, mod = (_spell_card(r, data[slot]) for slot in SLOTS)
    text = (f"Spell {data.get('spell', '?')}: {element['element']} ({element['name']}), power {power['power']} ({power['name']}), "
            f"{mod['modifier']} ({mod['name']})")
    if data.get("rolls"):
        text += ", rolled " + and_([str(n) for n in data["rolls"]])
    if "sum" not in data:
        return text
    return f"{text}: {data['total']}; {_said_sum(data)}"


# ---------------------------------------------------------------------------- runes


def _parse_spend(state: State, action: Sent) -> Data:
    if action.get("card") is None:
        return {}
    return {"card": _spell_card(state["rules"], action.get("card"))["id"]}


def _flipped_onto(spells: list[Cast], card: str, rolls: list[int]) -> list[Cast]:
    """The turn's spells with a flipped card's modifier on the one cast last."""
    last = spells[-1]
    return [*spells[:-1], {**last, "runes": [*last["runes"], card], "rolls": [*last["rolls"], *rolls]}]


def _draw_spend(state: State, data: Data, randbelow: RandBelow) -> Data:
    """A Wild Surge flipped with a rune is rolled as the total is worked out again."""
    spells = state["tracker"]["spells"]
    if "card" not in data or not spells:
        return {}
    return _spells_rolled(state, _flipped_onto(spells, data["card"], []), randbelow, data["card"])


def _apply_spend(state: State, data: Data, strict: bool) -> tuple[State, Data]:
    r, t = state["rules"], state["tracker"]
    flipped = "card" in data and bool(t["spells"])
    if strict:
        _refuse_if_over(state)
        if value(state, RUNES) <= 0:
            raise Invalid("the rune pot is empty")
        if t["spent"] >= r["rune_limit"]:
            raise Invalid(f"no more than {plural(r['rune_limit'], 'rune')} can be spent a turn, and {t['spent']} are spent")
        if "card" in data and not flipped:
            raise Invalid("runes are spent \"after the total power of your spell has been calculated\": cast a spell first, "
                          "and the flipped card's modifier joins it")
    state, before, after = move(state, RUNES, -1)
    state = with_tracker(state, lambda f: {**f, "spent": t["spent"] + 1})
    results: Data = {"from": before, "to": after, "spent": t["spent"] + 1}
    if flipped:
        state, sums = _with_sums(state, _flipped_onto(t["spells"], data["card"], data.get("rolls", [])))
        results.update(sums)
    return state, results


def _describe_spend(data: Mapping[str, Any], state: State) -> str:
    limit = state["rules"]["rune_limit"]
    spent = f"{data.get('spent', 1)} of {limit} this turn"
    pot = f"pot {data.get('from')} {ARROW} {data.get('to')}"
    if "sum" not in data:
        return f"A rune is spent to flip a modifier ({spent}): {pot}"
    card = _spell_card(state["rules"], data["card"])
    rolled = ", rolled " + and_([str(n) for n in data["rolls"]]) if data.get("rolls") else ""
    return (f"A rune is spent ({spent}, {pot}) to flip {card['name']}: {card['modifier']}{rolled} on spell {data['spell']}, "
            f"now {data['total']}; {_said_sum(data)}")


# ---------------------------------------------------------------------------- beaten or failed


def _parse_resolve(state: State, action: Sent) -> Data:
    data: Data = {"double_up": flag(action.get("double_up"), "Double Up")}
    if action.get("result") is not None or state["tracker"]["total"] is None:
        data["result"] = choice(action.get("result"), "result", ("won", "lost"))
    if action.get("runes") is not None:
        r = state["rules"]
        most = challenge_reward(r["rune_tokens"], 1, r["double_up_on_challenge"])  # a full pot's worth, doubled up
        data["runes"] = whole(action.get("runes"), "runes", 0, most)
    return data


def _card_reward(rules: Rules, card: Challenge | None, double_up: bool) -> int:
    """The face-up card's runes, under a Double Up! or not."""
    return challenge_reward(card["runes"], int(double_up), rules["double_up_on_challenge"]) if card else 0


def _worked_out(t: Fields) -> str | None:
    """What the spells cast this turn say: "won" if their total reaches the target."""
    if t["total"] is None or t["target"] is None:
        return None
    return "won" if t["total"] >= t["target"]["power"] else "lost"


def _apply_resolve(state: State, data: Data, strict: bool) -> tuple[State, Data]:
    r, t = state["rules"], state["tracker"]
    challenge = value(state, CHALLENGE)
    card = _face_card(r, t)
    worked = _worked_out(t)
    result = data.get("result") or worked
    if strict:
        _refuse_if_over(state)
        if worked and result != worked and t["target"] is not None:
            reached = "reaches" if worked == "won" else "falls short of"
            raise Invalid(f"the spells come to {t['total']}, which {reached} the challenge's {t['target']['power']}: "
                          f"the challenge is {'beaten' if worked == 'won' else 'failed'}")
        if result == "won" and "runes" not in data and card is None:
            raise Invalid("say how many runes the challenge gives (runes), or name its card first")
    results: Data = {"challenge": challenge} if "result" in data else {"challenge": challenge, "result": result}
    if worked and t["target"] is not None:
        results.update(sum=t["total"], target=t["target"]["power"])
    if result == "won":
        reward = data["runes"] if "runes" in data else t["target"]["runes"] if t["target"] else _card_reward(r, card, data["double_up"])
        state, before, after = move(state, RUNES, reward)
        results.update(reward=reward, pot={"from": before, "to": after}, card=card and card["name"])
        if challenge >= r["last"]:
            state = with_tracker(state, lambda f: {**f, "cleared": True})
            results["cleared"] = True
        else:
            state, _, _ = move(state, CHALLENGE, 1)
            results["next"] = challenge + 1
        state = with_tracker(state, lambda f: {**f, "rounds": t["rounds"] + 1, "card": None, "laid": None, "rolls": [],
                                               "target": None})
    else:
        state, before, after = move(state, LIVES, -1)
        results.update(lives={"from": before, "to": after}, card=card and card["name"])
    state = with_tracker(state, lambda f: {**f, "spent": 0, "spells": [], "total": None, "more": 1, "turns": t["turns"] + 1,
                                           "last": {**results, "result": result}})
    return state, results


def _describe_resolve(data: Mapping[str, Any], state: State) -> str:
    what = f"challenge {data.get('challenge', '?')}" + (f" ({data['card']})" if data.get("card") else "")
    summed = f" with {data['sum']} against {data['target']}" if "sum" in data else ""
    if data["result"] == "won":
        text = f"The party beat {what}{summed}: +{plural(data.get('reward', 0), 'rune')}"
        if "pot" in data:
            text += f", pot {data['pot']['from']} {ARROW} {data['pot']['to']}"
        if data.get("cleared"):
            text += ". That was the last one: the caves are cleared, and the party wins!"
        elif "next" in data:
            text += f". On to challenge {data['next']}."
        return text
    lives = data.get("lives", {})
    text = f"The party failed {what}{summed}: lives {lives.get('from')} {ARROW} {lives.get('to')}"
    if lives.get("to") == 0:
        text += ". No lives are left: the party has lost."
    return text


# ---------------------------------------------------------------------------- one door


def _parse_go_to(state: State, action: Sent) -> Data:
    return {"to": whole(action.get("to"), "challenge", 1, state["rules"]["last"])}


def _apply_go_to(state: State, data: Data, strict: bool) -> tuple[State, Data]:
    """The party moves to another challenge: the face-up card belongs to the one it leaves."""
    r, t = state["rules"], state["tracker"]
    if strict and not state.get("reopened"):  # a reopened game is there to have its numbers changed
        _refuse_if_over(state)
    card = _face_card(r, t)
    state, before, _ = put(state, CHALLENGE, data["to"])
    state = with_tracker(state, lambda f: {**f, "card": None, "laid": None, "rolls": [], "target": None,
                                           "spells": [], "total": None, "more": 1})
    return state, {"from": before, "card": card and card["name"]}


def _describe_go_to(data: Mapping[str, Any], state: State) -> str:
    text = f"The party moves from challenge {data.get('from')} to challenge {data['to']}"
    if data.get("card"):
        text += f"; {data['card']}, face up for challenge {data.get('from')}, is put away"
    return text + ": turn up its card"


def _govern(state: State, counter: str, who: int | None, delta: int) -> tuple[str, dict[str, Any]] | None:
    """A `+` or `−` on the challenge counter, with a card face up, takes the party to that challenge,
    and the card goes with the number it was turned up for. With none face up (nor any spell,
    which needs one) a change leaves nothing behind and stays a plain one; so does one that
    moves nothing."""
    if counter != CHALLENGE or state["tracker"]["card"] is None:
        return None
    to = min(max(value(state, CHALLENGE) + delta, 1), state["rules"]["last"])
    return None if to == value(state, CHALLENGE) else ("go_to", {"to": to})


TRACKER: Tracker[State] = Tracker(
    rules=rules,
    end=_the_end,
    initial=initial,
    settle=settle,
    govern=_govern,
    actions={
        "face": Action(_parse_face, _apply_face, _describe_face, draw=_draw_face),
        "cast": Action(_parse_cast, _apply_cast, _describe_cast, draw=_draw_cast, ordered=True),
        "spend_rune": Action(_parse_spend, _apply_spend, _describe_spend, draw=_draw_spend),
        "resolve": Action(_parse_resolve, _apply_resolve, _describe_resolve, ordered=True),
        "go_to": Action(_parse_go_to, _apply_go_to, _describe_go_to, ordered=True),
    },
)
