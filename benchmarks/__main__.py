"""Runs every benchmark and prints medians and ratios against their baselines.

The machines are shared and noisy: each measurement and its baseline are run interleaved,
several times, and compared by median.
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

import yaml

from spellpress.core import load_games

CARDS = Path("cards")
ROUNDS = 21


def _time(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def interleaved(a, b, rounds: int = ROUNDS) -> tuple[float, float]:
    """Median seconds of `a` and of `b`, run turn about so that both see the same noise."""
    ta, tb = [], []
    for _ in range(rounds):
        ta.append(_time(a))
        tb.append(_time(b))
    return statistics.median(ta), statistics.median(tb)


def bench_load() -> None:
    files = sorted(CARDS.glob("*/*.yaml"))
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

    def baseline():  # plain parsing of the same files, no positions, no validation
        for f in files:
            yaml.load(f.read_text(encoding="utf-8"), Loader=loader)

    ours, base = interleaved(lambda: load_games(CARDS), baseline)
    cards = sum(len(g.cards) for g in load_games(CARDS))
    print(f"load + validate all games ({len(files)} files, {cards} unique cards)")
    print(f"  spellpress  median {ours * 1000:8.1f} ms")
    print(f"  baseline    median {base * 1000:8.1f} ms   (yaml.load of the same files, libyaml)")
    print(f"  ratio       {ours / base:8.2f} x")


def main() -> int:
    bench_load()
    from . import companion, engine, hostile, incremental, lab, live, press

    ok = press.main()
    ok = incremental.main() and ok
    ok = companion.main() and ok
    ok = live.main() and ok
    ok = hostile.main() and ok
    ok = lab.main() and ok
    ok = engine.main() and ok
    print("all bounds met" if ok else "SOME BOUNDS NOT MET")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
