"""Spellchamber in the lab: the roll-off for the first battle player, rounds of scenario cards,
the shuffled chamber, aiming and shooting, ammo effects as the YAML declares them (life lost,
the power-up, one extra turn for a self-shot Blank), ghosts, and the next round's battle player.
Every rule is the core's: `deck_for`, `roll_off`, `shot_effect`, the tracker's `turn_after`, the
counter's `clamp`, and the rule helper's `next_shot` odds for the greedy policy.

Not modelled yet: the spells (the draft, and playing them) and the wizards' power abilities; a
Magic shot's draft is counted but gives nothing. Each report names them.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from ..core.games.spellchamber.helpers import next_shot
from ..core.games.spellchamber.ruleset import AMMO_KINDS, AmmoEffect, Constants, deck_for, roll_off, roll_off_winner, shot_effect
from ..core.games.spellchamber.tracker import LIFE, Turn, turn_after
from ..core.models import Game
from ..core.play.state import CounterSpec, clamp, shuffled
from .engine import Lab, Outcome

SLUG = "spellchamber"
POLICIES = {
    "random": "aim at any wizard standing, yourself included, uniformly",
    "greedy": "shoot yourself only when no card left can take life, else the opponent with the least life",
}


@dataclass(frozen=True)
class Prepared:
    c: Constants
    life: CounterSpec
    ammo_card: dict[str, str]  # ammo kind -> the ammo card's id
    decks: dict[str, tuple[int, int]]  # scenario deck key -> [fewest, most] players
    scenarios: dict[str, list[tuple[str, int, dict[str, int]]]]  # deck key -> (card id, count, chamber by kind)


def prepare(game: Game) -> Prepared:
    c = game.constants_as(Constants)
    life = next(x for x in game.counters if x.id == LIFE)
    spec: CounterSpec = {"id": life.id, "label": life.label, "scope": life.scope, "start": life.start,
                         "min": life.min, "max": life.max, "step": life.step}
    scenarios = {key: [(card.id, card.count, {k: int(card.get(k, 0)) for k in AMMO_KINDS})
                       for card in game.decks[s.deck].cards] for key, s in c.scenario_decks.items()}
    return Prepared(
        c=c, life=spec,
        ammo_card={card.get("kind"): card.id for card in game.decks[c.ammo_deck].cards},
        decks={key: (s.players.min, s.players.max) for key, s in c.scenario_decks.items()},
        scenarios=scenarios,
    )


NO_EFFECT = ("gun", "life-tracker", "aid")  # card types that are components or reminders, with no effect to apply
APPLIED_TYPES = ("scenario", "ammo", "ghost")  # the ghost: cannot shoot or be aimed at, takes its turns


def modelled(game: Game) -> tuple[list[str], list[str]]:
    cards = [card for card in game.cards if card.type not in NO_EFFECT]
    return [c.id for c in cards if c.type in APPLIED_TYPES], [c.id for c in cards if c.type not in APPLIED_TYPES]


def _takes_life(effect: AmmoEffect) -> bool:
    return effect.life_loss > 0


def aim_random(p: Prepared, rng: random.Random, me: int, life: list[int], standing: list[int], left: dict[str, int]) -> int:
    return standing[rng.randrange(len(standing))]


def aim_greedy(p: Prepared, rng: random.Random, me: int, life: list[int], standing: list[int], left: dict[str, int]) -> int:
    odds = next_shot(left, dict.fromkeys(left, 0))
    if not any(odds[k] for k in left if _takes_life(p.c.ammo[k])):
        return me
    return min((q for q in standing if q != me), key=lambda q: (life[q], (q - me) % len(life)))  # ties: the next in turn


BY_NAME = {"random": aim_random, "greedy": aim_greedy}


def play(p: Prepared, rng: random.Random, k: int, policies: tuple[str, ...], cap: int) -> Outcome:
    c = p.c
    aim = [BY_NAME[name] for name in policies]
    key = deck_for(p.decks, k)
    assert key is not None, "players are checked against the game's range before play"
    order: list[str] = []
    chambers = {card: (count, chamber) for card, count, chamber in p.scenarios[key]}
    life = [p.life["start"]] * k
    powered = [False] * k
    battle = roll_off_winner(roll_off(range(k), c.die_sides, rng.randrange)) or 0
    out = Outcome(winner=None, finished=False, first=battle, turns=0, rounds=0, played=[Counter() for _ in range(k)])
    ghosts = k >= c.ghosts_from_players

    def standing() -> list[int]:
        return [s for s in range(k) if life[s] > 0]

    while len(standing()) > 1 and out.rounds < cap:
        if not order:
            order = shuffled([card for card, (count, _) in chambers.items() for _ in range(max(count, 1))], rng.randrange)
        scenario = order.pop(0)
        out.rounds += 1
        out.drawn[scenario] += 1
        chamber = shuffled([kind for kind, n in chambers[scenario][1].items() for _ in range(n)], rng.randrange)
        turn: Turn = {"player": battle, "extra": False, "earned": 0, "owed": 0, "shots": 0}
        while chamber and len(standing()) > 1:
            me = turn["player"]
            if life[me] > 0:  # a ghost's battle turn: its spells are not modelled, so it passes
                left = Counter(chamber)
                target = aim[me](p, rng, me, life, standing(), {kind: left[kind] for kind in AMMO_KINDS})
                kind = chamber.pop(0)
                effect = c.ammo[kind]
                out.turns += 1
                out.drawn[p.ammo_card[kind]] += 1
                out.played[me][p.ammo_card[kind]] += 1
                before = life[target]
                life[target] = clamp(before - effect.life_loss, p.life)
                shot = shot_effect(me == target, life[target] != before, powered[me], effect.extra_turn_if_self,
                                   turn["earned"], c.max_extra_turns_per_turn)
                powered[me] = powered[me] or shot.powered_up
                turn = {**turn, "shots": turn["shots"] + 1, "earned": turn["earned"] + bool(shot.extra_turn)}
                out.figures[f"shots {kind}"] += 1
                if out.turns == 1:
                    out.figures[f"first shot of the game {kind}"] += 1
                if effect.drafts:
                    out.figures["spells drafted (not played: spells are not modelled)"] += effect.drafts
                if before > 0 and life[target] == 0:
                    out.figures[f"deaths by {kind}"] += 1
                    out.figures["self-inflicted deaths"] += me == target
            turn = turn_after(turn, k)
        battle = turn["player"]
        powered = [ghosts and life[s] == 0 for s in range(k)]  # the round is over: every wizard powers down
    alive = standing()
    out.finished = len(alive) <= 1
    out.winner = alive[0] if len(alive) == 1 else None
    return out


LAB = Lab(
    ruleset=SLUG,
    policies=POLICIES,
    prepare=prepare,
    play=play,
    modelled=modelled,
    first_rule="a die roll-off: the highest roll is the first battle player",
    turn_cap=500,
)
