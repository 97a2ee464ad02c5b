"""Laid-out faces (a card's front, a back) and their content hashes.

A face's display list holds everything that shapes its picture, so its hash, with the art's
bytes, the font files and the renderer's version, identifies the picture: every output made
of faces is made again only when one of their hashes changes.
"""

from __future__ import annotations

import hashlib
import io
import json
import pickle
from dataclasses import dataclass
from pathlib import Path

from ...core import Game
from .displaylist import Drawing, Image
from .icons import IconSet
from .layout import Layouter

# bump when a change to the drawing code changes pictures (6: Cinzel and Literata; 7: frames with depth;
# 8: gradients in fewer slices)
RENDERER_VERSION = "8"


@dataclass
class FaceOut:
    """A laid-out face and what identifies its picture."""

    key: str  # file-name stem: the card id, 'back-<deck>' or '<card id>-back'
    drawing: Drawing
    hash: str


def value_bytes(value) -> bytes:
    """Bytes that depend only on a value, for hashing it."""
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, protocol=5)
    pickler.fast = True  # no memo: equal values give equal bytes, whatever objects they share
    pickler.dump(value)
    return buffer.getvalue()


class FaceMemo:
    """Faces laid out by an earlier plan in this build session, under what shapes them.

    A long-lived process (the resident builder, `watch`) plans again after every edit; most
    faces are as they were, and laying them out was most of a plan. A face's key holds all its
    layout reads: the face's own values and picture, its layout, and the game's side (the text
    context its references resolve in, the elements, the placeholders, the icons, the faces each
    role is set in: a game's own face by its file's digest).
    A face whose layout reported a problem or a warning is never kept, so it is reported again.
    """

    def __init__(self, kept: dict[str, tuple[Drawing, str]], game: Game, layouter: Layouter, icons: IconSet, base: str):
        self.layouter, self.base = layouter, base
        self.before: dict[str, tuple[Drawing, str]] = kept
        self.now: dict[str, tuple[Drawing, str]] = {}
        side = (base, layouter.ink, game.title, json.dumps(game.text_context, sort_keys=True, default=str),
                [(e.name, e.color, e.icon) for e in game.elements], sorted(layouter.placeholders), icons.fingerprint,
                layouter.game_icons.fingerprint, sorted(layouter.faces.items()))
        self.game_key = hashlib.sha256(value_bytes(side)).digest()
        self.layout_keys: dict[int, bytes] = {}

    def draw(self, key: str, face, layout) -> FaceOut:
        if id(layout) not in self.layout_keys:
            self.layout_keys[id(layout)] = hashlib.sha256(value_bytes(layout)).digest()
        art = face.art.stat() if face.art else None
        own = (face.values, face.elements, str(face.art), art and (art.st_mtime_ns, art.st_size), face.art_fit, face.art_focus,
               face.seed, face.label, face.icon)
        memo = hashlib.sha256(self.game_key + self.layout_keys[id(layout)] + value_bytes(own)).hexdigest()
        found = self.before.get(memo) or self.now.get(memo)
        if found is None:
            problems, warnings = len(self.layouter.problems), len(self.layouter.warnings)
            out = _face(key, self.layouter.draw(face, layout), self.base)
            if len(self.layouter.problems) > problems or len(self.layouter.warnings) > warnings:
                return out  # laid out again next time, so that its problem or warning is told again
            found = (out.drawing, out.hash)
        self.now[memo] = found
        return FaceOut(key, *found)


def _face(key: str, drawing: Drawing, base: str) -> FaceOut:
    h = hashlib.sha256(base.encode())
    h.update(value_bytes(drawing))
    for item in drawing.items:
        if isinstance(item, Image):
            h.update(Path(item.path).read_bytes())
    return FaceOut(key, drawing, h.hexdigest())
