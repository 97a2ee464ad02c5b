"""One game in a build: what its kinds of output list their outputs from, and what becomes of
the files they make (written aside, moved into place, recorded in the game's manifest; the files
of an earlier build this one no longer makes removed). outputs/build.py runs the jobs.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar, cast

from ..drawing.faces import FaceOut
from ..drawing.papers import PAPER_NAMES
from ..model import changes, kinds, libraries
from ..model.changes import Changes
from ..model.kinds import Output
from ..model.manifest import Manifest
from ..model.options import Options, game_out
from ..model.plan import GamePlan
from ..model.shops import HOME, SHOPS
from .images import small_thumb
from .jobs import Thumbnails, Write

T = TypeVar("T")

STAGING = ".spellpress-staging"  # under a game's output folder: the files a build has made and not yet moved into place


@dataclass
class Report:
    written: list[Path] = field(default_factory=list)
    unchanged: list[Path] = field(default_factory=list)
    removed: list[Path] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    changes: dict[str, Changes] = field(default_factory=dict)  # game slug -> its cards changed since the last build
    notes: list[str] = field(default_factory=list)  # what a kind tells the terminal (the cards a reprint holds)


class GameBuild:
    """One game in a build: what its kinds of output read to list its outputs (listing.py), the
    job of each output not made already (`job`), and its files moved into place (`finish`)."""

    def __init__(self, plan: GamePlan, options: Options, shared: dict, versions: Callable[[tuple[str, ...]], str],
                 report: Report):
        self.plan, self.options, self.shared, self.versions, self.report = plan, options, shared, versions, report
        self.out = game_out(options, plan.game.slug, plan.ink)
        self.cache = self.out / ".cache"
        self.staging = self.out / STAGING
        self.discard()  # what a build killed before it moved its files into place left aside
        self.made: dict[str, str] = {}  # the outputs this build makes (written aside): file -> digest
        self.manifest = Manifest(self.out)
        report.warnings.extend(self.manifest.warnings)
        self.kinds = [k for k in kinds.REGISTRY.values() if k.name in options.kinds and self._targeted(k.name)]
        self.claimed: set[str] = set()  # the cache files this build's outputs are made with
        self._once: dict[str, object] = {}
        self._thumbs: dict[str, Path] = {}

    def _targeted(self, kind: str) -> bool:
        """Whether this game's build makes `kind`: with no --target, as its game.yaml's `targets:`
        say (a print shop's kind for the shop, the plain kinds for home)."""
        if not self.options.game_targets:
            return True
        wanted = self.plan.game.targets
        return kind in wanted if kind in SHOPS else HOME in wanted

    def faces(self) -> list[FaceOut]:
        """Every unique face once: fronts, own backs, deck backs."""
        seen, out = set(), []
        for face in [*self.plan.fronts.values(), *self.plan.backs.values(), *self.plan.deck_backs.values()]:
            if face.key not in seen:
                seen.add(face.key)
                out.append(face)
        return out

    def thumb(self, face: FaceOut) -> Path:
        """The face's thumbnail in the cache, named by its picture and what draws it."""
        if face.hash not in self._thumbs:  # asked for again for every copy of a card on a TTS sheet
            self._thumbs[face.hash] = self.cache / f"{_hash(f'{face.hash}:{self.versions(libraries.RASTER)}')[:32]}.png"
        return self._thumbs[face.hash]

    def form_key(self, face: FaceOut) -> str:
        """What names the face's cached PDF form: its picture and what writes it."""
        return _hash(f"{face.hash}:{self.versions(libraries.PDF)}")

    def once(self, name: str, make: Callable[[], T]) -> T:
        """What several kinds of this game list their outputs from (the sheets' cards), made once."""
        if name not in self._once:
            self._once[name] = make()
        return cast(T, self._once[name])  # what `make` made under this name: one type a name

    def job(self, output: Output) -> Write | None:
        """The job that makes `output`, written aside; None when the file its manifest records is
        made of what it would be made of now."""
        self.claimed.update(output.cache)
        path, digest = self.out / output.rel, _hash(f"{output.key}:{self.versions(output.libraries)}")
        if self.manifest.fresh(output.rel, digest):
            self.report.unchanged.append(path)
            return None
        self.report.written.append(path)
        self.made[output.rel] = digest
        return Write(str(self.staging / output.rel), output.job)

    def thumbnails(self) -> list[Thumbnails]:
        """The faces' thumbnails not in the cache, if a kind asked for is made of them."""
        if not any(k.thumbnails for k in self.kinds):
            return []
        thumbs = [(face, self.thumb(face)) for face in self.faces()]
        return [Thumbnails(face.drawing, str(thumb)) for face, thumb in thumbs
                if not (thumb.is_file() and small_thumb(thumb).is_file())]

    def finish(self) -> None:
        """Every job of the build made its file: move them into place, remove what this build
        made obsolete, and record what is on disk."""
        self._move_into_place()
        self._prune_cache()
        self._remove_stale()
        self.manifest.save()
        self.discard()
        if any(k.name in changes.CARD_KINDS for k in self.kinds):  # the cards were printed: say which changed
            self.report.changes[self.plan.game.slug], now = changes.compare(self.out, self.plan)
            changes.record(self.out, now)

    def _prune_cache(self) -> None:
        """Drop the cache files no output of this build is made with; a kind's files only when
        every kind that uses them was built (else some were not listed)."""
        asked = {k.name for k in self.kinds}
        users: dict[str, set[str]] = {}
        for k in kinds.REGISTRY.values():
            for pattern in k.cache:
                users.setdefault(pattern, set()).add(k.name)
        for pattern, names in users.items():
            if names <= asked:
                for path in self.cache.glob(pattern):
                    if path.relative_to(self.cache).as_posix() not in self.claimed:
                        path.unlink()

    def discard(self) -> None:
        """Remove the files written aside (by this build, or one killed before it moved them)."""
        shutil.rmtree(self.staging, ignore_errors=True)

    def _move_into_place(self) -> None:
        """Each file written aside replaces its output by one rename, and is recorded once there."""
        for rel, digest in sorted(self.made.items()):
            path = self.out / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            os.replace(self.staging / rel, path)
            self.manifest.record(rel, digest)

    def _remove_stale(self) -> None:
        """Outputs an earlier build made that this one owns and no longer makes (a deleted card's
        image), and the folders they leave empty; those of kinds, papers, targets or options
        (booklets, Letter 3 x 3) not asked for are kept as they are."""
        for rel in sorted(self.manifest.gone()):
            owner = kinds.owned_by(rel, PAPER_NAMES)
            if owner is None:  # no output of ours is called that: not ours to remove
                self.report.warnings.append(f"{self.out / rel}: left alone, though the manifest lists it: "
                                            "no output of a build is named so")
                continue
            if not self._owns(owner):
                self.manifest.keep(rel)
                continue
            if self.manifest.removable(rel):
                path = self.out / rel
                path.unlink()
                self.report.removed.append(path)
                self._remove_empty(path.parent)

    def _owns(self, owner: kinds.Owner) -> bool:
        """Whether this build makes files like `owner`'s: its kind (as this game's targets are),
        its paper and its option all asked for."""
        return (owner.kind in {k.name for k in self.kinds} and owner.paper in (None, *self.options.papers)
                and (owner.option is None or bool(getattr(self.options, owner.option))))

    def _remove_empty(self, folder: Path) -> None:
        """A folder of outputs left empty (a renamed deck's under a print shop's), and its own
        parents left empty, up to the game's folder."""
        while folder != self.out and self.out in folder.parents:
            with contextlib.suppress(OSError):  # not empty (or gone): it stays
                folder.rmdir()
            if folder.exists():
                return
            folder = folder.parent


def _hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()
