"""The balance lab's speed (issue 19): 10,000 games of each game the lab plays (whatever
`spellpress.lab.run.LABS` holds), for each of its policies, on both cores (`--workers 2`):
games per second, and the wall time against the bound of 60 s.

And the share of the time spent in the core's rule functions (every function defined under
spellpress/core: the rulesets, trackers, helpers and play state the lab calls), from cProfile
over 500 games of each game and policy in one process: those functions' own time over the
profile's total. The profiler slows small functions most, so the share is rough.

Run alone with `.venv/bin/python -m benchmarks.lab`; `make bench` runs it with the others.
"""

from __future__ import annotations

import cProfile
import pstats
import time
from pathlib import Path

import spellpress.core
from spellpress.core import load_games
from spellpress.core.models import Game
from spellpress.lab.run import LABS, simulate

CARDS = Path(__file__).resolve().parent.parent / "cards"
GAMES = 10_000
WORKERS = 2
BOUND_SECONDS = 60.0
PROFILED = 500
SEED = 1
CORE = str(Path(spellpress.core.__file__).resolve().parent)


def core_share(game: Game, policy: str) -> float:
    """The share of the profiled time spent inside spellpress/core's functions (their own time)."""
    profile = cProfile.Profile()
    profile.runcall(simulate, game, PROFILED, SEED, policies=[policy])
    # (file, line, name) -> (calls, primitive, own, cumulative, callers): pstats' own table, which typeshed leaves out
    stats = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    total = sum(own for _, _, own, _, _ in stats.values())
    core = sum(own for (path, _, _), (_, _, own, _, _) in stats.items() if path.startswith(CORE))
    return core / total if total else 0.0


def main() -> bool:
    ok = True
    print(f"balance lab: {GAMES:,} games of each game and policy, seed {SEED}, --workers {WORKERS}, "
          f"bound {BOUND_SECONDS:.0f} s; time in the core's rule functions from cProfile over {PROFILED} games")
    for game in load_games(CARDS):
        lab = LABS.get(game.ruleset)
        if lab is None:
            print(f"  {game.slug:<15} not played by the lab yet")
            continue
        for policy in lab.policies:
            start = time.perf_counter()
            simulate(game, GAMES, SEED, policies=[policy], workers=WORKERS)
            wall = time.perf_counter() - start
            met = wall <= BOUND_SECONDS
            ok = ok and met
            print(f"  {game.slug:<15} {policy:<7} {GAMES / wall:7.0f} games/s  {wall:6.1f} s  "
                  f"{'ok' if met else 'OVER':<4}  core {core_share(game, policy) * 100:4.1f}%")
    return ok


if __name__ == "__main__":
    raise SystemExit(0 if main() else 1)
