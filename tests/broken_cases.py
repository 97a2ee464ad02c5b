"""Building a broken fixture: a base game from tests/fixtures/games with the case's files over it.

Each case in tests/fixtures/broken/<case>/ holds a directory named after its base game with the
files that replace the base's (an empty `NAME.deleted` removes NAME), and `expected.txt`: what
`spellpress validate cards` prints.
"""

from __future__ import annotations

import shutil
from pathlib import Path

FIXTURES = Path(__file__).parent / "fixtures"
CASES = sorted(p for p in (FIXTURES / "broken").iterdir() if p.is_dir())


def build_case(case: Path, root: Path) -> Path:
    """Lay the case out as `root/cards/<base>/...`; returns `root/cards`."""
    cards = root / "cards"
    for overlay in (p for p in case.iterdir() if p.is_dir()):
        target = cards / overlay.name
        shutil.copytree(FIXTURES / "games" / overlay.name, target)
        for f in overlay.iterdir():
            if f.suffix == ".deleted":
                (target / f.stem).unlink()
            else:
                shutil.copyfile(f, target / f.name)
    return cards
