"""Each game's manifest: what every output in its directory was made from.

The manifest maps each output's file name (relative to the game's output directory) to its
digest, the hash of all it is made of and the versions of the libraries that drew it. A build
makes a file again only when its digest changed or the file is gone, and removes the files an
earlier build made that this one no longer makes.

A manifest is a file anyone with the folder can edit (a shared folder, a synced one, a
stranger's project), so what it names is not trusted: an entry that is not a plain relative
path inside the directory is dropped with a warning, and nothing outside the directory, or
not named like one of the build's outputs, is ever removed because a manifest says so.
"""

from __future__ import annotations

import json
import os
from pathlib import Path, PurePosixPath

from .files import atomic_write


class Manifest:
    NAME = ".spellpress-manifest.json"

    def __init__(self, out: Path):
        self.out = out
        self.warnings: list[str] = []
        self.old = self._trusted(_read(out / self.NAME))  # as the last build left it
        self.new: dict[str, str] = {}  # as this build leaves it

    def _trusted(self, entries: dict[str, str]) -> dict[str, str]:
        kept = {}
        for rel, digest in entries.items():
            if _plain(rel) and isinstance(digest, str):
                kept[rel] = digest
            else:
                self.warnings.append(f"{self.out / self.NAME}: ignored the entry {rel[:120]!r}: not a file of this directory")
        return kept

    def removable(self, rel: str) -> bool:
        """Whether the file `rel` of an earlier build may be removed: it lies in this directory,
        through no link that leads out of it."""
        path = self.out / rel
        inside = os.path.realpath(self.out)
        return os.path.commonpath([inside, os.path.realpath(path.parent)]) == inside and path.is_file()

    def fresh(self, rel: str, digest: str) -> bool:
        """Record `rel` as made from `digest`; True when it already is, and is on disk."""
        self.new[rel] = digest
        return self.old.get(rel) == digest and (self.out / rel).is_file()

    def gone(self) -> set[str]:
        """Outputs the last build made and this one has not (yet) recorded."""
        return set(self.old) - set(self.new)

    def keep(self, rel: str) -> None:
        """Carry an output of the last build over as it is."""
        self.new[rel] = self.old[rel]

    def save(self) -> None:
        atomic_write(self.out / self.NAME, json.dumps(self.new, indent=1, sort_keys=True).encode())


def _plain(rel: object) -> bool:
    """A relative path that stays where it is: no root, no '..', no backslash, no empty part."""
    if not isinstance(rel, str) or not rel or "\\" in rel or "\0" in rel:
        return False
    path = PurePosixPath(rel)
    return not path.is_absolute() and ".." not in path.parts and path.as_posix() == rel


def _read(path: Path) -> dict[str, str]:
    try:
        data = json.loads(path.read_text())
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}
