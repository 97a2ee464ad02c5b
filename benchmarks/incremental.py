"""The long run of tests/test_press_incremental.py (issue 26, part 1): many random sequences of
edits, broken inputs, failed and killed builds and option changes, each build compared byte for
byte with a clean one. `make test` runs a few sequences, the same each time; this runs many,
new ones each time, and fails with the shortest sequence that finds a difference."""

from __future__ import annotations

import os
import subprocess
import sys
import time

EXAMPLES, STEPS = 60, 20


def main() -> bool:
    start = time.perf_counter()
    env = {**os.environ, "SPELLPRESS_INCREMENTAL_EXAMPLES": str(EXAMPLES), "SPELLPRESS_INCREMENTAL_STEPS": str(STEPS)}
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "0",
                           "tests/test_press_incremental.py"],
                          env=env)
    ok = done.returncode == 0
    print(f"incremental equals clean: {EXAMPLES} sequences of up to {STEPS} steps in {time.perf_counter() - start:.0f} s: "
          + ("no difference" if ok else "A DIFFERENCE (the sequence is above)"))
    return ok
