"""Sorcerer Duel in the lab, played through the game's tracker (a `Match`): every move is one a
phone could send, and every rule, effect and number is the tracker's.

Each seat plays a deck of its own (`player_decks`, in seat order) and a sorcerer dealt at random
(each seat a different one), told to the table as the seat's options; the table draws who goes
first. What the lab adds is what a table cannot know: each player's hand, the order of their deck
and their discard pile (a destroyed card goes there, or back into the deck when the tracker says
it is shuffled in; an empty deck is the discard pile shuffled), the cards the tracker says they
draw, as far as the hand limit lets them (`may_draw`), and the policies choosing the moves.

A card counts as modelled when the fields the tracker applies print the whole of its text (`said`).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ...engine import Lab, Match, Outcome, randbelow_of
from ...models import Game
from ...play.state import shuffled
from ...said import unsaid
from .ruleset import SORCERER_EFFECTS, Constants, may_draw
from .tracker import AREA, DeckCard, conversions_of, mendable, rules, summon_ways

SLUG = "sorcerer-duel"
CREATURE, BLOCKER, SPELL, SORCERER = "creature", "blocker", "attack-spell", "sorcerer"  # decks.yaml
PLAYED = (CREATURE, BLOCKER, SPELL)
# the effect fields the tracker applies, by card type (each prints its own sentence on the card)
APPLIED = {
    CREATURE: ("haste", "end_damage", "death_effect"),
    SPELL: ("draws",),
    BLOCKER: ("regains", "thorns", "death_effect"),
    SORCERER: SORCERER_EFFECTS,
}
POLICIES = {
    "random": "any legal move or the end of the turn, uniformly, one at a time; any target for an effect",
    "greedy": ("play the costliest card it can pay for (converting its cheapest), repeat; every spell, attack and "
               "effect at the sorcerer; a sorcerer's mending to its most wounded blocker"),
}

# A move: ("convert", card) | ("cast", card, target) | ("summon", card, sacrifice or None)
# | ("attack", unit, target) | ("end",). A target: a seat (its sorcerer, or a whole side) or a unit's id.
Move = tuple[Any, ...]
Data = dict[str, Any]


@dataclass(frozen=True)
class Prepared:
    game: Game
    decks: tuple[tuple[str, tuple[str, ...]], ...]  # per deck of player_decks: (its id, one card id per copy)
    card: dict[str, DeckCard]  # id -> the card as the table's rules copy it
    sorcerers: tuple[str, ...]  # the sorcerers' ids, in the YAML's order


def prepare(game: Game) -> Prepared:
    c = game.constants_as(Constants)
    copied = rules(game, {})
    assert copied is not None, "a game of this ruleset counts health and mana"
    cards: dict[str, DeckCard] = {x["id"]: x for deck in copied["decks"].values() for x in deck["cards"]}
    decks = tuple((d, tuple(card.id for card in game.decks[d].cards if card.type in PLAYED for _ in range(card.count)))
                  for d in c.player_decks)
    return Prepared(game, decks, cards, tuple(card.id for card in game.cards if card.type == SORCERER))


def modelled(game: Game) -> tuple[list[str], list[str]]:
    c = game.constants_as(Constants)
    cards = [card for card in game.cards if card.type == SORCERER]
    cards += [card for d in c.player_decks for card in game.decks[d].cards if card.type in PLAYED]
    whole = [card.id for card in cards if not unsaid(game, card, APPLIED[card.type], exempt=("requirement",))]
    return whole, [card.id for card in cards if card.id not in whole]


class Held:
    """A player's cards the table cannot see: their deck (in order, drawn from the end), hand and
    discard pile."""

    __slots__ = ("deck", "hand", "discard")

    def __init__(self, deck: list[str]) -> None:
        self.deck = deck
        self.hand: list[str] = []
        self.discard: list[str] = []


def _foe(m: Match, seat: int) -> int:
    return (seat + 1) % len(m.state["players"])


def _aims(m: Match, seat: int) -> list[Any]:
    """A one-target attack's or effect's targets: the opposing sorcerer, then their creatures."""
    foe = _foe(m, seat)
    return [foe, *(u["id"] for u in m.tracked["units"] if u["owner"] == foe and u["kind"] == CREATURE)]


def _ways(p: Prepared, m: Match, seat: int, card: str) -> list[str | None]:
    info = p.card[card]
    return [None] if info["type"] == SPELL else summon_ways(m.state, seat, info)


def _moves(p: Prepared, m: Match, seat: int, hand: list[str]) -> list[Move]:
    """Every move the rules allow the seat now, with the cards in its hand."""
    moves: list[Move] = [("end",)]
    cards = sorted(set(hand))
    if m.tracked["conversions"] < conversions_of(m.state, seat):
        moves += [("convert", x) for x in cards]
    aims, mana = _aims(m, seat), m.counter("mana", seat)
    for x in cards:
        info = p.card[x]
        if info.get("cost", 0) > mana:
            continue
        if info["type"] == SPELL:
            moves += [("cast", x, aims[0])] if info.get("target") == AREA else [("cast", x, aim) for aim in aims]
        else:
            moves += [("summon", x, way) for way in _ways(p, m, seat, x)]
    for u in m.tracked["units"]:
        if u["owner"] == seat and u["ready"]:
            moves += [("attack", u["id"], aim) for aim in aims]
    return moves


class Random:
    def act(self, p: Prepared, rng: random.Random, m: Match, seat: int, hand: list[str]) -> Move:
        moves = _moves(p, m, seat, hand)
        return moves[rng.randrange(len(moves))]

    def aim(self, rng: random.Random, aims: list[Any]) -> Any:
        """A death's damage: at the opposing sorcerer or one of their creatures."""
        return aims[rng.randrange(len(aims))]

    def mend(self, rng: random.Random, wounded: list[str]) -> str | None:
        """The blocker the sorcerer mends (None: the table's choice, the first of the most wounded)."""
        return wounded[rng.randrange(len(wounded))] if wounded else None


class Greedy(Random):
    def act(self, p: Prepared, rng: random.Random, m: Match, seat: int, hand: list[str]) -> Move:
        moves = _moves(p, m, seat, hand)
        foe = _foe(m, seat)
        plays = [a for a in moves if a[0] == "summon" or a[0] == "cast" and a[2] == foe]
        if plays:  # the costliest, sacrificing the weakest unit a requirement allows
            def weight(a: Move) -> tuple[int, str, int]:
                victim = next((u for u in m.tracked["units"] if u["id"] == a[2]), None) if a[0] == "summon" else None
                return p.card[a[1]].get("cost", 0), a[1], -(victim["attack"] + victim["health"]) if victim else 0
            return max(plays, key=weight)
        allowed, done = conversions_of(m.state, seat), m.tracked["conversions"]
        if done < allowed and len(hand) > 1:
            mana = m.counter("mana", seat)
            afford = mana + m.state["rules"]["mana_per_conversion"] * min(allowed - done, len(hand) - 1)
            wanted = [x for x in hand if mana < p.card[x].get("cost", 0) <= afford and _ways(p, m, seat, x)]
            if wanted:
                rest = list(hand)
                rest.remove(max(wanted, key=lambda x: (p.card[x].get("cost", 0), x)))
                return ("convert", min(rest, key=lambda x: (p.card[x].get("cost", 0), x)))
        attacks = [a for a in moves if a[0] == "attack" and a[2] == foe]
        return attacks[0] if attacks else ("end",)

    def aim(self, rng: random.Random, aims: list[Any]) -> Any:
        return aims[0]

    def mend(self, rng: random.Random, wounded: list[str]) -> str | None:
        return None


BY_NAME: dict[str, Random] = {"random": Random(), "greedy": Greedy()}


def _destroyed(data: Data) -> Iterator[Data]:
    """The units a move destroyed (each as its hit says it), in the order they fell: in its blow,
    the thorns that pricked back, and the blows at a turn's end."""
    for hit in data.get("hits", ()):
        if hit.get("destroyed"):
            yield hit
    if "thorns" in data:
        yield from _destroyed(data["thorns"])
    for end in data.get("end", ()):
        yield from _destroyed(end)


def play(p: Prepared, rng: random.Random, k: int, policies: tuple[str, ...], cap: int, record: bool = False) -> Outcome:
    c = p.game.constants_as(Constants)
    dealt = rng.sample(range(len(p.sorcerers)), k)  # each player's sorcerer, a different one each
    decks = [p.decks[s % len(p.decks)] for s in range(k)]
    seats = [{"name": f"Player {s + 1}", "options": {"deck": decks[s][0], "sorcerer": p.sorcerers[dealt[s]]}}
             for s in range(k)]
    m = Match(p.game, seats, randbelow_of(rng), record=record)
    held = [Held(shuffled(deck, rng.randrange)) for _, deck in decks]
    m.act("first")  # who goes first: the table's draw
    first: int = m.state["first_player"]
    out = Outcome(winner=None, finished=False, first=first, turns=0, rounds=0, played=[Counter() for _ in range(k)],
                  match=m)
    who = [BY_NAME[name] for name in policies]
    limit, rule_draws = m.state["rules"]["hand_limit"], m.state["rules"]["death_draws"]
    for s in range(k):
        sorcerer = p.sorcerers[dealt[s]]
        out.drawn[sorcerer] += 1  # dealt
        out.played[s][sorcerer] += 1

    def draw(s: int, n: int, effect: bool = False) -> None:
        """Draws n cards, as far as the hand limit allows; an empty deck is the discard pile
        shuffled (those an effect draws are counted apart)."""
        mine = held[s]
        for _ in range(n):
            if not may_draw(len(mine.hand), limit):
                return
            if not mine.deck:
                mine.deck, mine.discard = shuffled(mine.discard, rng.randrange), []
                if not mine.deck:
                    return
            card = mine.deck.pop()
            mine.hand.append(card)
            out.drawn[card] += 1
            if effect:
                out.figures["cards drawn by effects"] += 1

    def fell(data: Data) -> None:
        """Each destroyed unit's card to its owner's discard pile (or shuffled into their deck), and
        the cards its death draws them."""
        for hit in _destroyed(data):
            s, card = hit["owner"], hit["card"]
            if hit.get("reshuffled"):
                held[s].deck = shuffled([*held[s].deck, card], rng.randrange)
            else:
                held[s].discard.append(card)
            if p.card[card]["type"] == CREATURE:
                out.figures["creatures died"] += 1
                draw(s, rule_draws)
                draw(s, hit["draws"] - rule_draws, effect=True)
            else:
                draw(s, hit.get("draws", 0), effect=True)

    def act(kind: str, seat: int, **sent: Any) -> Data:
        """A move through the table, then each death's damage aimed by its owner's policy."""
        data = m.act(kind, by=seat, **sent)
        fell(data)
        while m.tracked["pending"] and not m.tracked["over"]:
            owner = m.tracked["pending"][0]["owner"]
            fell(m.act("aim", by=owner, target=who[owner].aim(rng, _aims(m, owner))))
        return data

    def over() -> bool:
        return bool(m.tracked["over"])

    for s in range(k):
        draw(s, c.starting_hand)
    seat = first
    while m.tracked["turn"] < cap:
        policy, hand = who[seat], held[seat].hand
        mend = policy.mend(rng, mendable(m.state, seat))
        started = act("start_turn", seat, player=seat, **({} if mend is None else {"mend": mend}))
        draw(seat, started["draws"])
        while not over():
            move = policy.act(p, rng, m, seat, hand)
            if move[0] == "end":
                break
            if move[0] == "convert":
                act("convert", seat, player=seat)
                hand.remove(move[1])
                held[seat].discard.append(move[1])
                out.figures["cards converted"] += 1
            elif move[0] == "attack":
                act("attack", seat, unit=move[1], target=move[2])
            else:
                hand.remove(move[1])
                out.played[seat][move[1]] += 1
                if move[0] == "cast":
                    held[seat].discard.append(move[1])
                    cast = act("cast", seat, player=seat, card=move[1], target=move[2])
                    draw(seat, cast.get("draws", 0), effect=True)
                else:
                    act("summon", seat, player=seat, card=move[1], **({} if move[2] is None else {"sacrifice": move[2]}))
        if not over():
            act("end_turn", seat, player=seat)
        if over():
            break
        seat = m.tracked["next"]
    t = m.tracked
    out.finished, out.winner, out.turns, out.rounds = bool(t["over"]), t["winner"], t["turns"], t["rounds"]
    return out


def seat_deck(game: Game, seat: int) -> str:
    """The deck a seat plays: player_decks in seat order, round again if there are more seats."""
    decks = game.constants_as(Constants).player_decks
    return decks[seat % len(decks)]


LAB = Lab(
    ruleset=SLUG,
    policies=POLICIES,
    prepare=prepare,
    play=play,
    modelled=modelled,
    first_rule="a coin flip; the first player skips the first draw",
    turn_cap=300,
    seat_plays=seat_deck,
)
