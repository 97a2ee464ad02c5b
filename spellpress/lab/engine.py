"""Plays N games of one game in independent seeded batches and adds up what happened.

Game i of a run with seed S is played with its own `random.Random(S * 2**32 + i)`, whatever the
batch or the process it runs in: so a run is the same, byte for byte, with one worker or many.
Every total is a sum of integers (Counters), so the order batches come back in cannot change it.
"""

from __future__ import annotations

import math
import multiprocessing
import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..core.engine import Lab, Outcome


class LabError(ValueError):
    """Bad input to the lab (unknown game or policy, players out of range): said, never a traceback."""


@dataclass
class Tally:
    """The sums of many outcomes (adding two tallies adds their games)."""

    players: int
    games: int = 0
    unfinished: int = 0
    nobody: int = 0  # finished with no winner (every player out at once)
    cleared: int = 0  # co-operative games the party won
    wins: Counter[int] = field(default_factory=Counter)  # seat -> wins
    first: Counter[int] = field(default_factory=Counter)  # seat -> games it played first
    first_wins: int = 0
    turns: Counter[int] = field(default_factory=Counter)  # turns -> finished games that long
    rounds: Counter[int] = field(default_factory=Counter)
    drawn: Counter[str] = field(default_factory=Counter)
    played: Counter[str] = field(default_factory=Counter)  # card -> times played
    sides: Counter[str] = field(default_factory=Counter)  # card -> (game, seat) pairs that played it
    side_wins: Counter[str] = field(default_factory=Counter)  # ... of which that seat won
    figures: Counter[str] = field(default_factory=Counter)

    def add(self, o: Outcome) -> None:
        self.games += 1
        self.first[o.first] += 1
        if not o.finished:
            self.unfinished += 1
        else:
            self.turns[o.turns] += 1
            self.rounds[o.rounds] += 1
            self.cleared += o.cleared
            if o.winner is not None:
                self.wins[o.winner] += 1
                self.first_wins += o.winner == o.first
            elif not o.cleared:
                self.nobody += 1  # nobody won: every player out at once, or the party lost
        self.drawn.update(o.drawn)
        for seat, cards in enumerate(o.played):
            self.played.update(cards)
            for card in cards:
                self.sides[card] += 1
                self.side_wins[card] += o.cleared or (o.finished and o.winner == seat)
        self.figures.update(o.figures)

    def merge(self, other: Tally) -> None:
        self.games += other.games
        self.unfinished += other.unfinished
        self.nobody += other.nobody
        self.cleared += other.cleared
        self.first_wins += other.first_wins
        for seats, more in ((self.wins, other.wins), (self.first, other.first), (self.turns, other.turns),
                            (self.rounds, other.rounds)):
            seats.update(more)
        for cards, extra in ((self.drawn, other.drawn), (self.played, other.played), (self.sides, other.sides),
                             (self.side_wins, other.side_wins), (self.figures, other.figures)):
            cards.update(extra)


@dataclass(frozen=True)
class Plan:
    lab: Lab
    prepared: Any
    seed: int
    players: int
    policies: tuple[str, ...]  # one per seat


def game_rng(seed: int, i: int) -> random.Random:
    """Game i's own generator: independent of batches and processes (seed and i are 0 or more,
    and i below 2**32, so no two (seed, i) share one)."""
    return random.Random(seed * 2**32 + i)


def play_batch(plan: Plan, start: int, stop: int) -> Tally:
    tally = Tally(plan.players)
    for i in range(start, stop):
        tally.add(plan.lab.play(plan.prepared, game_rng(plan.seed, i), plan.players, plan.policies, plan.lab.turn_cap, False))
    return tally


_PLAN: Plan | None = None  # the plan a forked worker inherits


def _forked_batch(bounds: tuple[int, int]) -> Tally:
    assert _PLAN is not None, "set before the pool forks"
    return play_batch(_PLAN, *bounds)


def batches(games: int, workers: int) -> list[tuple[int, int]]:
    """Games 0..games-1 cut into about four batches a worker, so a slow batch does not hold the rest up."""
    size = max(1, math.ceil(games / (workers * 4)))
    return [(a, min(a + size, games)) for a in range(0, games, size)]


def merged(players: int, parts: Iterable[Tally]) -> Tally:
    total = Tally(players)
    for part in parts:
        total.merge(part)
    return total


def run(plan: Plan, games: int, workers: int = 1) -> Tally:
    """Plays games 0..games-1 of the plan, in one process or over `workers` forked ones."""
    global _PLAN
    if workers <= 1 or games < 2:
        return play_batch(plan, 0, games)
    _PLAN = plan
    try:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            parts = pool.map(_forked_batch, batches(games, workers))
    finally:
        _PLAN = None
    return merged(plan.players, parts)
