"""What every project starts from, shipped inside the package: the poker card, the card and back
layouts every game shares, the icons and the base rulebook template (in `templates/` here),
the game-icons.net icons the five games name as their cards' art (in `game-icons/`), and the
faces every card and book is set in (in `fonts/`: Cinzel and Literata, under the SIL Open Font
License; press/drawing/fonts.py).

A project's own `templates/` is looked at first, file by file: `templates/card.yaml` there wins
over this one, and a game's layouts, rulebook and playmat live only there. So a folder made by
`spellpress new` after `pip install spellpress` builds with no `templates/` at all, and a
designer who wants another look copies one file of these into it and edits the copy.
(The fonts need no copy in a project: a game names its own in game.yaml, `fonts:`.)
"""

from __future__ import annotations

from pathlib import Path

TEMPLATES = Path(__file__).resolve().parent / "templates"
# the icons of game-icons.net the five games use (CC BY 3.0, credited in CREDITS.md there):
# spellpress/core/gameicons.py
GAME_ICONS = Path(__file__).resolve().parent / "game-icons"
# the display and text faces (SIL Open Font License, credited in CREDITS.md there): press/drawing/fonts.py
FONTS = Path(__file__).resolve().parent / "fonts"


def find(root: Path, name: str) -> Path:
    """The file `name` (a path under templates/, like `rulebook/base.md.j2`): the project's own
    under `root` when it has one, else the package's default; `root / name` when neither has
    it, which is where a problem about it should point."""
    own = root / name
    if own.is_file():
        return own
    default = TEMPLATES / name
    return default if default.is_file() else own


def is_default(path: Path) -> bool:
    """Whether `path` is one of the package's defaults rather than a file of the project."""
    return path.resolve().is_relative_to(TEMPLATES)


def names(root: Path, folder: str, suffix: str) -> list[str]:
    """Every file name ending with `suffix` in `folder` of the project or of the defaults,
    without the suffix, as a layout name (for 'did you mean')."""
    found = set()
    for base in (root, TEMPLATES):
        where = base / folder
        if where.is_dir():
            found |= {str(p.relative_to(base))[: -len(suffix)] for p in where.glob(f"*{suffix}")}
    return sorted(found)
