"""The balance lab's speed: games per second of each game the lab plays, for each of its random
and greedy policies, on one core and on two (forked workers), and the time 10,000 games would
take on two cores at that rate (issue 19 asks at most 60 s).

It also says the share of the time spent in the core's rule functions (spellpress/core), from a
profile of 200 greedy games of each game (the profiler slows everything, so the share is rough).

Run alone with `.venv/bin/python -m benchmarks.lab`; `make bench` runs it with the others.
"""

from __future__ import annotations

import cProfile
import pstats
import time
from pathlib import Path

from spellpress.core import load_games
from spellpress.lab.run import LABS, simulate

CARDS = Path(__file__).resolve().parent.parent / "cards"
GAMES = 2000
GOAL_SECONDS = 60.0  # for 10,000 games
PROFILED = 200
CORE = str(Path(__file__).resolve().parent.parent / "spellpress" / "core")


def core_share(game) -> float:
    """The share of the profiled time spent inside spellpress/core's functions (their own time)."""
    profile = cProfile.Profile()
    profile.runcall(simulate, game, PROFILED, 1, policies=["greedy"])
    stats = pstats.Stats(profile).stats  # (file, line, name) -> (calls, primitive calls, own time, cumulative, callers)
    total = sum(own for _, _, own, _, _ in stats.values())
    core = sum(own for (path, _, _), (_, _, own, _, _) in stats.items() if path.startswith(CORE))
    return core / total if total else 0.0


def main() -> bool:
    ok = True
    print(f"balance lab: {GAMES} games of each game and policy (2 players), seed 1")
    for game in load_games(CARDS):
        if game.ruleset not in LABS:
            print(f"  {game.slug:<15} not played by the lab yet")
            continue
        for policy in ("random", "greedy"):
            rates = []
            for workers in (1, 2):
                start = time.perf_counter()
                simulate(game, GAMES, 1, policies=[policy], workers=workers)
                rates.append(GAMES / (time.perf_counter() - start))
            projected = 10_000 / rates[1]
            met = projected <= GOAL_SECONDS
            ok = ok and met
            print(f"  {game.slug:<15} {policy:<7} {rates[0]:8.0f} games/s on 1 core, {rates[1]:8.0f} on 2: "
                  f"10,000 games in {projected:5.1f} s ({'met' if met else 'NOT met'}: at most {GOAL_SECONDS:.0f} s)")
        print(f"  {'':<15} time in the core's rule functions (profiled, greedy): {core_share(game) * 100:4.1f}%")
    return ok


if __name__ == "__main__":
    raise SystemExit(0 if main() else 1)
