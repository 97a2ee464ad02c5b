"""A path a game's YAML names (a card's `art:`), and each file of the game, stays inside the game's directory.

A game directory may be shared with people its owner does not know: a path they write must not
reach a file elsewhere on the machine, nor tell whether one exists. So a path is relative, has
no `..` in it, and does not lead out through a symbolic link; it is checked before anything is
opened, and the same check is made again where the file is read.
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path, PurePosixPath, PureWindowsPath

from .problems import display_path


class Outside(ValueError):
    """A path that is not inside its game's directory; the message says why and what is allowed."""


PICTURE = "a picture's path starts at the game's directory ({root}/) and stays inside it, like art/picture.png"


def inside(root: Path, relative: str, allowed: str = PICTURE) -> Path:
    """`root / relative`, when it is inside `root` and stays there once symbolic links are
    followed; raises Outside with the reason otherwise, ending with `allowed` (what is). Nothing
    is opened, and whether the file exists is not told: a path that does not exist is returned
    like one that does."""
    allowed = allowed.format(root=display_path(root))
    if "\0" in relative:
        raise Outside(f"the path holds a NUL character; {allowed}")
    if PurePosixPath(relative).is_absolute() or PureWindowsPath(relative).is_absolute():
        raise Outside(f"'{relative}' is an absolute path; {allowed}")
    if ".." in PurePosixPath(relative).parts or ".." in PureWindowsPath(relative).parts:
        raise Outside(f"'{relative}' climbs out with '..'; {allowed}")
    path = root / relative
    try:
        real, base = Path(os.path.realpath(path)), Path(os.path.realpath(root))
    except (OSError, ValueError):  # a loop of links, a name too long
        raise Outside(f"'{relative}' cannot be followed (a loop of links?); {allowed}") from None
    if not real.is_relative_to(base):
        raise Outside(f"'{relative}' leads out of the game's directory through a link; {allowed} "
                      "(keep the file itself there)")
    return path


def nearby(path: Path) -> str:
    """' (did you mean 'Bolt.png'?)' when a file beside where it looked is likely the one meant:
    its name in other capitals, another extension, or a close spelling of its stem."""
    try:
        names = [p.name for p in path.parent.iterdir() if p.is_file()] if path.parent.is_dir() else []
    except OSError:
        return ""
    stems: dict[str, str] = {}
    for name in sorted(names):
        stems.setdefault(Path(name).stem.lower(), name)
    close = difflib.get_close_matches(path.stem.lower(), list(stems), n=1, cutoff=0.8)
    return f" (did you mean '{stems[close[0]]}'?)" if close else ""
