"""A build session: what a long-lived process keeps from one build to the next.

The resident builder and `watch` build again after every edit, and hold one session for it: the
layouts and icons they read (read again only when a file of the templates changed) and the
faces they laid out (see faces.FaceMemo). A build given no session starts a new one, and is
as cold as a build in a new process.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from ... import defaults
from ..drawing.displaylist import Drawing
from ..drawing.icons import IconSet
from ..drawing.templates import Templates
from .options import snapshot


class BuildSession:
    def __init__(self) -> None:
        self._layouts: dict[Path, tuple[dict, Templates, IconSet]] = {}  # templates dir -> (its files' digests, ...)
        self.faces: dict[str, dict[str, tuple[Drawing, str]]] = {}  # game slug -> memo key -> (drawing, hash)

    def layouts(self, root: Path) -> tuple[Templates, IconSet]:
        """The layouts and icons of a templates directory (and the package's defaults), as read by an earlier build of this
        session unless one of its files changed since (layouts are immutable once read)."""
        files = _contents([root, defaults.TEMPLATES])  # the defaults too: in a checkout they are edited
        kept = self._layouts.get(root.resolve())
        if kept is not None and kept[0] == files:
            return kept[1], kept[2]
        templates, icons = Templates(root), IconSet.load(defaults.find(root, "icons.yaml"))
        self._layouts[root.resolve()] = (files, templates, icons)
        return templates, icons


def _contents(roots: list[Path]) -> dict[Path, str]:
    """Each file's digest: a layout saved twice within one tick of the file system's clock, at the
    same size, has the same size and time, which a build would have taken for unchanged (found by
    tests/test_press_incremental.py). Layouts are small: reading them all takes a millisecond or two."""
    found = {}
    for path in snapshot(roots):
        try:
            found[path] = hashlib.blake2b(path.read_bytes(), digest_size=16).hexdigest()
        except OSError:  # removed while we looked
            continue
    return found
