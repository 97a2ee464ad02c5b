"""Which games a command means: `validate` and `build` take game slugs, game directories
(`cards/magicka-mayhem`) and a directory of games (`cards`), as a designer types them."""

from __future__ import annotations

import os
from pathlib import Path

GAME_FILE = "game.yaml"  # what makes a directory a game (core/loader.py reads it)


class Unclear(ValueError):
    """The words do not name games of one directory of games: the message says why."""


def resolve(words: list[str], cards: str) -> tuple[str, tuple[str, ...]]:
    """(directory of games, slugs) for the words; no slugs means every game in it. A word is a
    game directory if it holds game.yaml, a directory of games if it is another directory, else
    a slug of a game in the directory of games (`--cards`, unless one is named)."""
    folders: list[str] = []
    slugs: list[str] = []
    for word in words:
        path = Path(word)
        if (path / GAME_FILE).is_file():
            folders.append(_shown(path.resolve().parent))
            slugs.append(path.resolve().name)
        elif path.is_dir():
            folders.append(_shown(path.resolve()))
        elif os.sep in word or "/" in word:
            raise Unclear(f"{word}: no such directory (a game is a directory holding {GAME_FILE})")
        elif not Path(cards).is_dir():
            raise Unclear(f"{word}: no such game or directory (and no directory of games '{cards}' here)")
        else:
            slugs.append(word)
    if len(set(folders)) > 1:
        raise Unclear(f"the games named lie in different directories ({', '.join(sorted(set(folders)))}): "
                      "name the games of one directory at a time")
    return (folders[0] if folders else cards), tuple(dict.fromkeys(slugs))


def _shown(path: Path) -> str:
    """A directory as the user would type it: relative to here when it lies below."""
    try:
        return str(path.relative_to(Path.cwd().resolve())) or "."
    except ValueError:
        return str(path)
