"""Vector icons from `icons.yaml` (the project's templates/, else spellpress/defaults/), placed as display-list primitives."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

import yaml

from ...core.problems import Problem, ValidationFailed, display_path
from ...core.yamlsource import FastLoader
from . import fonts
from .displaylist import Color, Ellipse, Poly, Primitive, Text


@dataclass(frozen=True)
class IconSet:
    shapes: dict  # name -> list of {poly|circle|line, w, cut}
    fingerprint: str

    @classmethod
    def load(cls, path: Path) -> IconSet:
        """Thousands of coordinates: read with libyaml's own loader, which is several times
        faster than the position-keeping reader cards need; a broken file still says where."""
        raw = path.read_bytes()
        try:
            shapes = yaml.load(raw, Loader=FastLoader)
        except yaml.MarkedYAMLError as exc:
            mark = exc.problem_mark or exc.context_mark  # as core/yamlsyntax.py finds it; 0: unknown
            line, column = (mark.line + 1, mark.column + 1) if mark else (0, 0)
            problem = Problem(display_path(path), line, column, "", f"YAML syntax error: {exc.problem}")
            raise ValidationFailed([problem]) from None
        problems, parsed = [], {}
        if not isinstance(shapes, dict):
            shapes, problems = {}, [Problem(display_path(path), 1, 1, "", "expected icon names, each with a list of shapes")]
        for name, parts in shapes.items():
            try:
                parsed[name] = [_part(part) for part in parts]
            except (TypeError, ValueError, AttributeError) as exc:
                problems.append(Problem(display_path(path), 0, 0, str(name), f"{exc}; a shape is {{poly: 'x,y x,y ...'}}, "
                                        "{line: 'x,y x,y', w: width} or {circle: [cx, cy, r]}"))
        if problems:
            raise ValidationFailed(problems)
        return cls(parsed, hashlib.sha256(raw).hexdigest())

    def __contains__(self, name: str) -> bool:
        return name in self.shapes

    def glyph(self, name: str, x: float, y: float, size: float, color: Color, cut: Color,
              outline: bool = False) -> list[Primitive]:
        """The icon `name` in the square (x, y, size); 'cut' parts in the colour `cut`. As an
        `outline` (the ink saver's), every shape is its edge in `color`, filled with nothing."""
        out: list[Primitive] = []
        edge = size * OUTLINE
        for part in self.shapes[name]:
            c = cut if part.get("cut") else color
            if "poly" in part:
                points = tuple((x + px * size, y + py * size) for px, py in part["poly"])
                out.append(Poly(points, stroke=color, width=edge) if outline else Poly(points, fill=c))
            elif "circle" in part:
                cx, cy, r = part["circle"]
                if outline:
                    out.append(Ellipse(x + cx * size, y + cy * size, r * size, r * size, stroke=color, width=edge))
                else:
                    out.append(Ellipse(x + cx * size, y + cy * size, r * size, r * size, fill=c))
            elif "line" in part:
                pts = tuple((x + px * size, y + py * size) for px, py in part["line"])
                # a line is already an edge: as an outline, a cut line (drawn in the ground) keeps the icon's colour
                out.append(Poly(pts, stroke=color if outline else c, width=part.get("w", 0.08) * size, closed=False))
        return out

    def element(self, name: str, x: float, y: float, size: float, color: Color, outline: bool = False) -> list[Primitive]:
        """An element's icon: a disc in its colour with its glyph, or its initial, in white; as an
        `outline`, a ring in its colour round its glyph in that colour."""
        r = size / 2
        ring = size * 0.06  # a pale ring sets the disc off from art and dark frames
        if outline:
            out: list[Primitive] = [Ellipse(x + r, y + r, r - ring, r - ring, fill=WHITE, stroke=color, width=ring * 1.4)]
        else:
            out = [Ellipse(x + r, y + r, r, r, fill=RING), Ellipse(x + r, y + r, r - ring, r - ring, fill=color)]
        mark = color if outline else WHITE
        key = name.lower()
        if key in self.shapes:
            inset = size * 0.16
            out += self.glyph(key, x + inset, y + inset, size - 2 * inset, mark, WHITE if outline else color)
        else:
            pt = size * 0.62 * 72 / 25.4
            w = fonts.width(name[0].upper(), "bold", pt)
            out.append(Text(x + r - w / 2, y + r + pt * 0.36 * 25.4 / 72, name[0].upper(), "bold", pt, mark))
        return out


def _part(part: dict) -> dict:
    """One shape of an icon, its 'x,y x,y' points read into pairs of numbers."""
    kinds = [k for k in ("poly", "line", "circle") if k in part]
    if len(kinds) != 1:
        raise ValueError(f"a shape needs one of poly, line or circle, got {sorted(part)}")
    out = dict(part)
    for key in ("poly", "line"):
        if key in out:
            out[key] = tuple(tuple(float(v) for v in point.split(",")) for point in out[key].split())
            if any(len(point) != 2 for point in out[key]):
                raise ValueError(f"{key} points are written x,y")
    return out


WHITE = (255, 255, 255)
OUTLINE = 0.05  # an outline icon's edge, as a share of its size
RING = (250, 246, 236)
