"""The long run of the differential test (tests/test_one_engine.py, issue 25): 10,000 seeded lab
games of each game the lab plays, spread over every player count its YAML allows and every policy,
each replayed move by move through the companion's reducer and compared after every move. Any
divergence fails the run, named by game, players, policy, seed and move; it also prints how long a
game takes to play (recorded) and to replay at the table.

Run alone with `.venv/bin/python -m benchmarks.engine`; `make bench` runs it with the others.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from itertools import product
from pathlib import Path

from spellpress.core import load_games
from spellpress.core.engine import check, lab_of, outcome_agrees
from spellpress.core.games import RULESETS
from spellpress.core.play.errors import TableError
from spellpress.lab.engine import game_rng

CARDS = Path(__file__).resolve().parent.parent / "cards"
FIXTURES = CARDS.parent / "tests" / "fixtures" / "games"
GAMES = int(os.environ.get("SPELLPRESS_ENGINE_GAMES", 10_000))
WORKERS = 2
SHOWN = 5  # divergences printed a game
SEED = 1


def _cases(slug: str, low: int, high: int, policies: list[str]) -> list[tuple[str, int, str, int]]:
    """GAMES (slug, players, policy, game number) cases, as even as may be over player counts and policies."""
    kinds = list(product(range(low, high + 1), policies))
    return [(slug, *kinds[i % len(kinds)], i) for i in range(GAMES)]


def _one(case: tuple[str, int, str, int]) -> tuple[float, float, str | None]:
    slug, players, policy, i = case
    lab = lab_of(RULESETS[slug])
    assert lab is not None
    case_name = f"{slug}, {players} players, policy {policy}, game {i} of seed {SEED}"
    start = time.perf_counter()
    try:
        outcome = lab.play(_PREPARED[slug], game_rng(SEED, i), players, (policy,) * players, lab.turn_cap, True)
    except TableError as refused:  # the lab chose a move its own table refuses
        return time.perf_counter() - start, 0.0, f"{case_name}: the lab made a move the table refuses: {refused}"
    played = time.perf_counter() - start
    if outcome.match is None:
        return played, 0.0, f"{slug}: the lab did not play through the engine"
    found = check(outcome.match)
    replayed = time.perf_counter() - start - played
    wrong = str(found) if found else outcome_agrees(outcome)
    where = f"{case_name}: {wrong}" if wrong else None
    return played, replayed, where


def _one_game_a_ruleset() -> dict:
    """cards/'s game of each ruleset, else the tests' small one (no game of cards/ is of YAML alone)."""
    found = {g.ruleset: g for g in load_games(CARDS)}
    for g in load_games(FIXTURES):
        found.setdefault(g.ruleset, g)
    return found


_GAMES = _one_game_a_ruleset()
_PREPARED = {slug: lab.prepare(g) for slug, g in _GAMES.items() if (lab := lab_of(RULESETS[slug]))}


def main() -> bool:
    ok = True
    print(f"one engine: {GAMES:,} lab games of each game over its player counts and policies, each replayed "
          f"at the table move by move ({WORKERS} processes)")
    with multiprocessing.get_context("fork").Pool(WORKERS) as pool:
        for slug, game in _GAMES.items():
            lab = lab_of(RULESETS[slug])
            if lab is None:
                continue
            start = time.perf_counter()
            results = pool.map(_one, _cases(slug, game.players.min, game.players.max, sorted(lab.policies)), chunksize=50)
            wall = time.perf_counter() - start
            wrong = [where for _, _, where in results if where]
            ok = ok and not wrong
            play = sum(r[0] for r in results) / len(results) * 1000
            replay = sum(r[1] for r in results) / len(results) * 1000
            print(f"  {game.slug:<15} {len(results):>6} games  {len(wrong):>4} divergences  play {play:6.2f} ms/game "
                  f"(recorded), replay {replay:6.2f} ms/game  {wall:6.1f} s")
            for where in wrong[:SHOWN]:
                print(f"    {where}")
    return ok


if __name__ == "__main__":
    raise SystemExit(0 if main() else 1)
