"""The balance lab's speed: games per second of each game the lab plays, for each of its random
and greedy policies, on one core and on two (forked workers), and the time 10,000 games would
take on two cores at that rate (issue 19 asks at most 60 s).

Run alone with `.venv/bin/python -m benchmarks.lab`; `make bench` runs it with the others.
"""

from __future__ import annotations

import time
from pathlib import Path

from spellpress.core import load_games
from spellpress.lab.run import LABS, simulate

CARDS = Path(__file__).resolve().parent.parent / "cards"
GAMES = 2000
GOAL_SECONDS = 60.0  # for 10,000 games


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
    return ok


if __name__ == "__main__":
    raise SystemExit(0 if main() else 1)
