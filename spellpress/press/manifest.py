"""Each game's manifest: what every output in its directory was made from.

The manifest maps each output's file name (relative to the game's output directory) to its
digest, the hash of all it is made of and the versions of the libraries that drew it. A build
makes a file again only when its digest changed or the file is gone.
"""

from __future__ import annotations

import json
from pathlib import Path

from .files import atomic_write


class Manifest:
    NAME = ".spellpress-manifest.json"

    def __init__(self, out: Path):
        self.out = out
        self.old = _read(out / self.NAME)  # as the last build left it
        self.new: dict[str, str] = {}  # as this build leaves it

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


def _read(path: Path) -> dict[str, str]:
    try:
        data = json.loads(path.read_text())
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}
