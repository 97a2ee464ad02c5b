"""Vector icons from `templates/icons.yaml`, placed as display-list primitives."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

import yaml

from ..core.problems import Problem, ValidationFailed, display_path
from .displaylist import Color, Ellipse, Poly, Primitive, Text
from . import fonts


@dataclass(frozen=True)
class IconSet:
    shapes: dict  # name -> list of {poly|circle|line, w, cut}
    fingerprint: str

    @classmethod
    def load(cls, path: Path) -> "IconSet":
        """Thousands of coordinates: read with libyaml's own loader, which is several times
        faster than the position-keeping reader cards need; a broken file still says where."""
        raw = path.read_bytes()
        try:
            shapes = yaml.load(raw, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
        except yaml.MarkedYAMLError as exc:
            mark = exc.problem_mark
            raise ValidationFailed([Problem(display_path(path), mark.line + 1, mark.column + 1, "", f"YAML syntax error: {exc.problem}")]) from None
        if not isinstance(shapes, dict):
            raise ValidationFailed([Problem(display_path(path), 1, 1, "", "expected icon names, each with a list of shapes")])
        return cls(shapes, hashlib.sha256(raw).hexdigest())

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
