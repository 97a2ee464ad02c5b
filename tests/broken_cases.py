"""Building a broken fixture: a base game from tests/fixtures/games with the case's files over it.

Each case in tests/fixtures/broken/<case>/ holds a directory named after its base game with the
files that replace the base's (an empty `NAME.deleted` removes NAME; a folder is copied whole, as a
game's `fonts/`), and `expected.txt`: what
`spellpress validate cards` prints. A case's `templates/` holds the layouts that replace those of
tests/fixtures/templates (the tiny games' layouts), which it is then laid out with; a case of
layouts alone is the game tiny-mayhem drawn with them; a case of a game's files whose mistake only
shows once its cards are laid out (a font without a glyph they use) holds an empty `templates/.keep`,
so that it is laid out with the tiny games' layouts as they are.
"""

from __future__ import annotations

import shutil
from pathlib import Path

FIXTURES = Path(__file__).parent / "fixtures"
CASES = sorted(p for p in (FIXTURES / "broken").iterdir() if p.is_dir())


def build_case(case: Path, root: Path) -> Path:
    """Lay the case out as `root/cards/<base>/...`; returns `root/cards`."""
    cards = root / "cards"
    overlays = [p for p in case.iterdir() if p.is_dir()]
    if [p.name for p in overlays] == ["templates"]:
        shutil.copytree(FIXTURES / "games" / "tiny-mayhem", cards / "tiny-mayhem")
    for overlay in overlays:
        if overlay.name == "templates":
            shutil.copytree(FIXTURES / "templates", root / "templates")
            shutil.copytree(overlay, root / "templates", dirs_exist_ok=True)
            continue
        target = cards / overlay.name
        shutil.copytree(FIXTURES / "games" / overlay.name, target)
        for f in overlay.iterdir():
            if f.suffix == ".deleted":
                (target / f.stem).unlink()
            elif f.is_dir():  # a folder of the game's own files (fonts/, art/)
                shutil.copytree(f, target / f.name, dirs_exist_ok=True)
            else:
                shutil.copyfile(f, target / f.name)
    return cards
