"""One build, its problems or its summary printed: what `spellpress build` runs in its own
process, `watch` after every edit, and the resident builder for each command it serves."""

from __future__ import annotations

import sys
import time

from ...core import ValidationFailed
from ..model import changes
from ..model.options import Options
from ..model.session import BuildSession
from ..outputs.build import build


def run_once(o: Options, session: BuildSession | None = None) -> int:
    """One build, its problems or its summary printed; `session`: see model/session.py."""
    start = time.perf_counter()
    try:
        report = build(o, session)
    except ValidationFailed as failed:
        for problem in failed.problems:
            print(problem, file=sys.stderr)
        print(f"{len(failed.problems)} problem(s); nothing was written, the last good outputs are as they were",
              file=sys.stderr)
        return 1
    except OSError as exc:  # a full disk, a read-only output directory...
        where = f" {exc.filename}" if exc.filename else ""
        print(f"cannot write{where}: {exc.strerror or exc}; the files already written are whole, the rest "
              "are as they were", file=sys.stderr)
        return 1
    for warning in report.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    at = time.strftime("%H:%M:%S")
    for slug, found in report.changes.items():
        line = changes.said(slug, found, at)
        if line:
            print(line)
    for note in report.notes:
        print(f"{at} {note}")
    print(f"built in {time.perf_counter() - start:.2f} s: {len(report.written)} written, "
          f"{len(report.unchanged)} unchanged, {len(report.removed)} removed, in {o.out}")
    return 0
