"""Vector icons from `templates/icons.yaml`, placed as display-list primitives."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from ..core.problems import ValidationFailed
from ..core.yamlsource import read
from .displaylist import Color, Ellipse, Poly, Primitive, Text
from . import fonts


@dataclass(frozen=True)
class IconSet:
    shapes: dict  # name -> list of {poly|circle|line, w, cut}
    fingerprint: str

    @classmethod
    def load(cls, path: Path) -> "IconSet":
        doc, problems = read(path)
        if doc is None:
            raise ValidationFailed(problems)
        return cls(doc.data, hashlib.sha256(path.read_bytes()).hexdigest())

    def __contains__(self, name: str) -> bool:
        return name in self.shapes

    def glyph(self, name: str, x: float, y: float, size: float, color: Color, cut: Color) -> list[Primitive]:
        """The icon `name` in the square (x, y, size); 'cut' parts in the colour `cut`."""
        out: list[Primitive] = []
        for part in self.shapes[name]:
            c = cut if part.get("cut") else color
            if "poly" in part:
                out.append(Poly(tuple((x + px * size, y + py * size) for px, py in part["poly"]), fill=c))
            elif "circle" in part:
                cx, cy, r = part["circle"]
                out.append(Ellipse(x + cx * size, y + cy * size, r * size, r * size, fill=c))
            elif "line" in part:
                pts = tuple((x + px * size, y + py * size) for px, py in part["line"])
                out.append(Poly(pts, stroke=c, width=part.get("w", 0.08) * size, closed=False))
        return out

    def element(self, name: str, x: float, y: float, size: float, color: Color) -> list[Primitive]:
        """An element's icon: a disc in its colour with its glyph, or its initial, in white."""
        r = size / 2
        ring = size * 0.06  # a pale ring sets the disc off from art and dark frames
        out: list[Primitive] = [Ellipse(x + r, y + r, r, r, fill=RING), Ellipse(x + r, y + r, r - ring, r - ring, fill=color)]
        key = name.lower()
        if key in self.shapes:
            inset = size * 0.16
            out += self.glyph(key, x + inset, y + inset, size - 2 * inset, WHITE, color)
        else:
            pt = size * 0.62 * 72 / 25.4
            w = fonts.width(name[0].upper(), "bold", pt)
            out.append(Text(x + r - w / 2, y + r + pt * 0.36 * 25.4 / 72, name[0].upper(), "bold", pt, WHITE))
        return out


WHITE = (255, 255, 255)
RING = (250, 246, 236)
