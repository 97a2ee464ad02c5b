"""Each game's manifest: what every output in its directory was made from, and what it is.

The manifest maps each output's file name (relative to the game's output directory) to its
digest, the hash of all it is made of and the versions of the libraries that drew it, and to
the file it recorded on disk: its size and the SHA-256 of its bytes. A build makes a file again
when its digest changed, or when the file on disk is not the one recorded (a build killed
between moving its files into place and saving this, a file edited or replaced by hand): the
manifest is believed only about what is really on disk.

So as not to read every output at every build, `.cache/seen.json` keeps each file's size and
modification time beside the SHA-256 they were seen with: a file whose size and time are as
seen is not read again. It is a hint only (the manifest stays the same bytes from one clean
build to the next): a file whose time moved (a copy that lost its times) is read once, and a
missing or damaged hint costs only that.

A manifest is a file anyone with the folder can edit (a shared folder, a synced one, a
stranger's project), so what it names is not trusted: an entry that is not a plain relative
path inside the directory is dropped with a warning, and nothing outside the directory, or
not named like one of the build's outputs, is ever removed because a manifest says so.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from ..files import atomic_write


@dataclass(frozen=True)
class Entry:
    digest: str  # what the output is made from (outputs/gamebuild.py)
    size: int = -1  # the file as it was recorded; -1: never seen (a manifest of an older Spellpress)
    sha256: str = ""

    def as_json(self) -> list:
        return [self.digest, self.size, self.sha256]


class Manifest:
    NAME = ".spellpress-manifest.json"
    SEEN = ".cache/seen.json"  # the hint: each file's [size, mtime_ns, sha256] when last seen

    def __init__(self, out: Path):
        self.out = out
        self.warnings: list[str] = []
        self.old = self._trusted(_read(out / self.NAME))  # as the last build left it
        self.seen: dict[str, list] = {rel: v for rel, v in _read(out / self.SEEN).items() if isinstance(v, list)}
        self.new: dict[str, Entry] = {}  # as this build leaves it: only files on disk
        self.listed: set[str] = set()  # every output this build lists, made now or already

    def _trusted(self, entries: dict) -> dict[str, Entry]:
        kept = {}
        for rel, value in entries.items():
            entry = _entry(value)
            if _plain(rel) and entry is not None:
                kept[rel] = entry
            else:
                self.warnings.append(f"{self.out / self.NAME}: ignored the entry {str(rel)[:120]!r}: not a file of this directory")
        return kept

    def removable(self, rel: str) -> bool:
        """Whether the file `rel` of an earlier build may be removed: it lies in this directory,
        through no link that leads out of it."""
        path = self.out / rel
        inside = os.path.realpath(self.out)
        return os.path.commonpath([inside, os.path.realpath(path.parent)]) == inside and path.is_file()

    def fresh(self, rel: str, digest: str) -> bool:
        """True when `rel` is made from `digest` already and is on disk as recorded (then it is
        recorded as it is); False when it must be made (recorded once made: `record`)."""
        self.listed.add(rel)
        old = self.old.get(rel)
        if old is None or old.digest != digest:
            return False
        seen = self._on_disk(rel, old)
        if seen is not None:
            self.new[rel] = seen
        return seen is not None

    def _on_disk(self, rel: str, entry: Entry) -> Entry | None:
        """The entry if the file on disk is the one it records: by its size and time as last
        seen, else by its bytes (then seen again)."""
        path = self.out / rel
        try:
            st = path.stat()
        except OSError:
            return None
        if not path.is_file() or st.st_size != entry.size or not entry.sha256:
            return None
        if self.seen.get(rel) == [st.st_size, st.st_mtime_ns, entry.sha256]:
            return entry
        sha = _sha256(path)
        self.seen[rel] = [st.st_size, st.st_mtime_ns, sha]
        return entry if sha == entry.sha256 else None

    def record(self, rel: str, digest: str) -> None:
        """Record the file `rel`, just made from `digest` and moved into place, as it is on disk."""
        self.listed.add(rel)
        path = self.out / rel
        st, sha = path.stat(), _sha256(path)
        self.seen[rel] = [st.st_size, st.st_mtime_ns, sha]
        self.new[rel] = Entry(digest, st.st_size, sha)

    def gone(self) -> set[str]:
        """Outputs the last build made and this one does not list."""
        return set(self.old) - self.listed

    def keep(self, rel: str) -> None:
        """Carry an output of the last build over as it is, if it is still there."""
        if (self.out / rel).is_file():
            self.new[rel] = self.old[rel]

    def save(self) -> None:
        entries = {rel: entry.as_json() for rel, entry in self.new.items()}
        atomic_write(self.out / self.NAME, json.dumps(entries, indent=1, sort_keys=True).encode())
        seen = {rel: self.seen[rel] for rel in self.new if rel in self.seen}
        atomic_write(self.out / self.SEEN, json.dumps(seen, sort_keys=True).encode())


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _entry(value: object) -> Entry | None:
    """An entry as saved: [digest, size, sha256], or a digest alone (an older Spellpress's,
    which said nothing of the file: it is made again once)."""
    if isinstance(value, str):
        return Entry(value)
    if (isinstance(value, list) and len(value) == 3 and isinstance(value[0], str) and isinstance(value[2], str)
            and isinstance(value[1], int) and not isinstance(value[1], bool)):
        return Entry(*value)
    return None


def _plain(rel: object) -> bool:
    """A relative path that stays where it is: no root, no '..', no backslash, no empty part."""
    if not isinstance(rel, str) or not rel or "\\" in rel or "\0" in rel:
        return False
    path = PurePosixPath(rel)
    return not path.is_absolute() and ".." not in path.parts and path.as_posix() == rel


def _read(path: Path) -> dict:
    try:
        data = json.loads(path.read_text())
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}
