"""A game of YAML alone in the lab, played through its table (core/engine.py's Match).

Its rules are text the lab cannot read, so it knows no move better than another: the `random`
policy makes random legal table moves, each seat on its own turn in seat order from the first
player drawn, as phones would send them (a card drawn, a number changed). The table keeps every
number, who is out and who won, by the `end:` of the game's YAML; a game that says not how it
ends never ends, and the lab refuses it. The lab keeps nothing of its own but the turn order it
plays in (the table has none) and its policy's choices.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from ...engine import Lab, Match, Outcome, randbelow_of
from ...models import Game

SLUG = "generic"
POLICIES = {
    "random": "on its turn a seat may discard a card face up, then draws from a random deck (reshuffling it once "
              "empty) and makes one random change of one step to a counter: its own, another player's still in "
              "the game, or the table's",
}
TURN_CAP = 3000  # far past a game whose YAML ends it and whose counters move a step a turn


@dataclass(frozen=True)
class Prepared:
    game: Game


def refuses(game: Game) -> str | None:
    """Why the lab cannot play `game`: a game of YAML alone that says not how it ends never does."""
    if game.end is None:
        return (f"{game.slug} never ends: its game.yaml says nobody is out and nobody wins; add an end: section "
                "(docs/designing.md, \"A new game of YAML alone\") and the lab plays it")
    return None


def prepare(game: Game) -> Prepared:
    return Prepared(game)


def modelled(game: Game) -> tuple[list[str], list[str]]:
    """No card is applied: what a card does is its text, which players read and the table does not."""
    return [], [card.id for card in game.cards]


def _cards(m: Match, rng: random.Random, seat: int, out: Outcome) -> None:
    """A card from a random deck: one face up of it discarded first, at random; drawn, or the
    deck reshuffled once every card is out of its pile."""
    piles = m.tracked["piles"]
    if not piles:
        return
    deck = sorted(piles)[rng.randrange(len(piles))]
    pile = piles[deck]
    if pile["face_up"] and rng.randrange(2):
        m.act("discard", by=seat, deck=deck, card=pile["face_up"][rng.randrange(len(pile["face_up"]))], player=seat)
    if m.tracked["piles"][deck]["shuffled"] and not m.tracked["piles"][deck]["left"]:
        m.act("reshuffle", by=seat, deck=deck, player=seat)
        return
    drawn = m.act("draw", by=seat, deck=deck, player=seat)
    out.drawn[drawn["card"]] += 1


def _changes(m: Match) -> list[tuple[str, int | None, int]]:
    """Every one-step change that moves a number: (counter, player or None for the table's, delta);
    a player who is out of the game is left alone (a + on them is refused)."""
    state = m.state
    found: list[tuple[str, int | None, int]] = []
    holders: list[int | None] = [i for i, p in enumerate(state["players"]) if not p["tracker"]["out"]]
    for spec in state["counter_specs"]:
        for who in (holders if spec["scope"] == "player" else [None]):
            now = m.counter(spec["id"], who)
            for delta in (-spec["step"], spec["step"]):
                low, high = spec["min"], spec["max"]
                if (low is None or now + delta >= low) and (high is None or now + delta <= high):
                    found.append((spec["id"], who, delta))
    return found


def _turn(m: Match, rng: random.Random, seat: int, out: Outcome) -> None:
    _cards(m, rng, seat, out)
    if m.tracked["over"]:
        return
    changes = _changes(m)
    if changes:
        counter, who, delta = changes[rng.randrange(len(changes))]
        m.act("adjust", by=seat, counter=counter, player=who, delta=delta)


def play(p: Prepared, rng: random.Random, k: int, policies: tuple[str, ...], cap: int, record: bool = False) -> Outcome:
    m = Match(p.game, k, randbelow_of(rng), record=record)
    m.act("first")
    first = m.state["first_player"]
    out = Outcome(winner=None, finished=False, first=first, turns=0, rounds=0, played=[Counter() for _ in range(k)],
                  match=m if record else None)
    seat = first
    while not m.tracked["over"] and out.turns < cap:
        if seat == first:
            out.rounds += 1
        if not m.mine(seat)["out"]:
            out.turns += 1
            _turn(m, rng, seat, out)
        seat = (seat + 1) % k
    out.finished, out.winner = m.tracked["over"], m.tracked["winner"]
    return out


LAB = Lab(
    ruleset=SLUG,
    policies=POLICIES,
    prepare=prepare,
    play=play,
    modelled=modelled,
    first_rule="drawn at the table",
    turn_cap=TURN_CAP,
    refuses=refuses,
)
