"""Card layouts: declarative YAML in `templates/`, with named boxes and inheritance.

A layout's file is the project's own (`templates/<name>.yaml`) when it has one, else the
package's default of that name (spellpress/defaults/): the shared card, back and poker layouts.

A layout names the layout it `extends` (a path under templates/ without `.yaml`); its
`palette` and `boxes` are merged over the parent's, box by box and key by key, so a card type's
layout says only what differs from its game's. `poker.yaml` (a default) is the root: the card's
trim size, bleed and safe zone in millimetres, which every layout inherits.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Literal

import pydantic

from ... import defaults
from ...core.models import FontRole
from ...core.models import art_fit as read_fit
from ...core.models import art_focus as read_focus
from ...core.problems import Problem, ValidationFailed, did_you_mean, display_path
from ...core.schema import Color, FrozenMap, Model, Text, validate
from ...core.yamlsource import Document, read
from .papers import misfit

# Constrained numbers as pydantic's confloat and conint make them, spelled as types mypy reads
Number = Annotated[float, pydantic.Strict(False), pydantic.Field(ge=-50, le=200)]
Points = Annotated[float, pydantic.Field(ge=7, le=72)]  # never below 7 (issue 14: no card text too small to read at a table)
Font = FontRole  # the text face's four styles, or the display face of titles (press/drawing/fonts.py)
AREAS = ("bleed", "trim", "safe")


class Box(Model):
    """One named box of a layout, drawn in the layout's order."""

    kind: Literal["rect", "ellipse", "text", "icons", "icon", "stat", "track", "art", "pattern"]
    area: Literal["bleed", "trim", "safe"] | None = None  # instead of x, y, w, h
    x: Number | None = None
    y: Number | None = None
    w: Number | None = None
    h: Number | None = None
    when: Text | None = None  # 'field': when the card has it; 'field=value' / 'field!=value'; joined by ' & '
    before: Text | None = None  # draw this box before (under) that inherited one
    fill: Text | None = None  # a palette name, '#rrggbb', or 'element'
    stroke: Text | None = None
    width: Number = 0.3
    radius: Number = 0.0
    text: str | None = None  # for text: '{name}', '{text}', '{field}' ...
    font: Font = "regular"
    size: Points = 8.0
    min_size: Points | None = None
    color: Text = "ink"
    align: Literal["left", "center", "right"] = "left"
    valign: Literal["top", "middle", "bottom"] = "top"
    leading: Annotated[float, pydantic.Field(ge=0.8, le=3)] = 1.2
    field: Text | None = None  # for icons and stat: the card field shown
    icon: Text | None = None  # for icon: an icon's name; for art: the generated art's emblem for a card with no element
    shape: Literal["circle", "shield", "heart", "diamond", "burst", "hexagon"] = "circle"
    label: str | None = None
    # drawn again turned half round the card's centre, as a playing card's lower corner index
    mirror: bool = False
    # track: numbered shapes from `start` to `stop` (numbers or constants' names), the one equal
    # to `mark` ringed, then an `end` icon (a skull for 0), `per_row` to a row
    start: int | Text | None = None
    stop: int | Text | None = None
    mark: int | Text | None = None
    end: Text | None = None
    per_row: pydantic.PositiveInt = 4
    # pattern: 'rays' (count wedges in `fill` from the box's centre) or 'lattice' (diagonal
    # lines in `stroke`, `spacing` mm apart): nothing in either runs parallel to the trim
    pattern: Literal["rays", "lattice"] | None = None
    count: Annotated[int, pydantic.Field(ge=4, le=96)] = 24
    spacing: Annotated[float, pydantic.Field(ge=1, le=50)] = 6.0
    # art: how the card's picture fills the box (core/models.py ART_FITS), for every card of the
    # layout's type; a card's own art_fit and art_focus win. None: cover, centred.
    art_fit: Annotated[str, pydantic.BeforeValidator(read_fit)] | None = None
    art_focus: Annotated[tuple[float, float], pydantic.BeforeValidator(read_focus)] | None = None
    # rect: a gradient, from its fill at the top to that colour mixed with black (a share of 0
    # to 1) at the bottom; negative, with white: depth in a frame or a band (shading.py);
    # pattern: its lines in its stroke colour so mixed (a grain a shade darker than its ground)
    shade: Annotated[float, pydantic.Field(ge=-1, le=1)] = 0.0
    # text: a medallion at each end of its words, in `fill` (the card kind's colour), holding
    # an icon of icons.yaml, a `game-icons:` icon, or `element` (the card's first element's disc)
    flank: Text | None = None
    # what this box's colour tells apart on the game's cards (a name: kind, deck, element...):
    # `validate` checks that every two colours such boxes draw stay apart for colour-blind eyes
    tells: Text | None = None

    @pydantic.model_validator(mode="after")
    def _complete(self):
        if self.area is None and None in (self.x, self.y, self.w, self.h):
            raise ValueError("a box needs x, y, w and h (millimetres from the trim's top left), or an area")
        needs = {"text": "text", "icons": "field", "stat": "field", "icon": "icon", "track": "start",
                 "pattern": "pattern"}.get(self.kind)
        if needs and getattr(self, needs) is None:
            raise ValueError(f"a '{self.kind}' box needs '{needs}'")
        if self.kind != "art" and (self.art_fit or self.art_focus):
            raise ValueError(f"art_fit and art_focus are for the 'art' box, not a '{self.kind}' box")
        if self.shade and self.kind not in ("rect", "pattern"):
            raise ValueError(f"shade is for a 'rect' or a 'pattern' box, not a '{self.kind}' box")
        if self.flank is not None and self.kind != "text":
            raise ValueError(f"flank is for a 'text' box, not a '{self.kind}' box")
        if self.min_size is not None and self.min_size > self.size:
            raise ValueError(f"min_size ({self.min_size}) is more than size ({self.size})")
        return self


class InkSpec(Model):
    """How a layout prints in an ink mode other than `full` (`inks: {saver: ..., mono: ...}`):
    `lighten` mixes each named colour towards white by that share (0 to 1) where it fills a
    ground (a rect, an ellipse, a pattern; `element` for a box filled with the card's element),
    so every card keeps its own hue while text and lines in that colour stay strong; `palette`
    sets colours outright, each a '#rrggbb' or the name of a colour of the full palette
    (`band-ink: ink`: dark text on a band made light); `icons: outline` draws element discs,
    numbers' shapes and icons as outlines; `grey: true` turns every colour into its grey;
    `elements` draws every element in that one colour (mono: each told by its glyph alone)."""

    lighten: FrozenMap[Text, Annotated[float, pydantic.Field(ge=0, le=1)]] = pydantic.Field(default_factory=dict)
    palette: FrozenMap[Text, Text] = pydantic.Field(default_factory=dict)
    icons: Literal["solid", "outline"] = "solid"
    grey: bool = False
    elements: Color | None = None


INK_MODES = ("saver", "mono")  # besides `full`, which is the palette itself


class LayoutSpec(Model):
    extends: Text | None = None
    size: tuple[pydantic.PositiveFloat, pydantic.PositiveFloat] | None = None
    # the card size this file's boxes are drawn at, where it gives no size of its own: on a card
    # of another size (a project's poker.yaml, a layout's size:) they are refitted to it
    designed_at: tuple[pydantic.PositiveFloat, pydantic.PositiveFloat] | None = None
    bleed: pydantic.NonNegativeFloat | None = None
    safe: pydantic.NonNegativeFloat | None = None
    palette: FrozenMap[Text, Color] = pydantic.Field(default_factory=dict)
    boxes: FrozenMap[Text, Box] = pydantic.Field(default_factory=dict)
    inks: FrozenMap[Literal[INK_MODES], InkSpec] = pydantic.Field(default_factory=dict)  # type: ignore[valid-type]


@dataclass(frozen=True)
class Ink:
    """A layout's colours in one ink mode, resolved."""

    palette: dict
    grounds: tuple[tuple[str, float], ...] = ()  # colour name -> how much lighter it fills a ground
    outline: bool = False
    grey: bool = False
    elements: str | None = None  # every element's colour, instead of its own

    def hex(self, name: str, default: str, ground: bool = False) -> str:
        """A colour of the palette as '#rrggbb' (the rulebook's), lighter as a `ground`, grey in mono."""
        color = _mix_white(self.palette.get(name, default), dict(self.grounds).get(name, 0.0) if ground else 0.0)
        return _grey(color) if self.grey else color

    def element(self, color: str) -> str:
        """An element's colour (game.yaml's) in this ink."""
        return self.elements or (_grey(color) if self.grey else color)


@dataclass(frozen=True)
class Layout:
    name: str
    width: float
    height: float
    bleed: float
    safe: float
    palette: dict
    boxes: tuple[tuple[str, Box], ...]
    fingerprint: str  # hash of everything that shapes it, for incremental builds
    inks: tuple[tuple[str, Ink], ...] = ()  # the modes other than 'full' its layout declares

    def ink(self, mode: str) -> Ink:
        """Its colours in `mode`: the palette itself for 'full' (or a mode it does not declare)."""
        return dict(self.inks).get(mode) or Ink(self.palette)

    def area(self, box: Box) -> tuple[float, float, float, float]:
        if box.area == "bleed":
            return -self.bleed, -self.bleed, self.width + 2 * self.bleed, self.height + 2 * self.bleed
        if box.area == "trim":
            return 0.0, 0.0, self.width, self.height
        if box.area == "safe":
            return self.safe, self.safe, self.width - 2 * self.safe, self.height - 2 * self.safe
        assert box.x is not None and box.y is not None and box.w is not None and box.h is not None  # Box._complete
        return box.x, box.y, box.w, box.h


class Templates:
    """Loads layouts by name from a templates directory, each once."""

    def __init__(self, root: Path):
        self.root = Path(root)
        self._layouts: dict[str, Layout] = {}
        self._docs: dict[Path, tuple] = {}  # layouts share parents: read each file once
        self._chains: dict[str, list[tuple[str, Document]]] = {}  # layout name -> its files, child first
        self._colours: dict[str, list[Problem]] = {}  # layout name -> its boxes' unknown colours

    def get(self, name: str) -> Layout:
        """The named layout; raises ValidationFailed with every problem in its chain."""
        if name not in self._layouts:
            self._layouts[name] = self._load(name)
        return self._layouts[name]

    def unknown_colours(self, name: str) -> list[Problem]:
        """The loaded layout's boxes' colours that are neither its palette's nor '#rrggbb': a
        box drawn with one prints black, so plan.py refuses them before any drawing."""
        return self._colours.get(name, [])

    def problem(self, name: str, loc: tuple, message: str) -> Problem:
        """A problem at `loc` of the loaded layout `name`, in the file of its chain that wrote it."""
        chain = self._chains[name]
        return _owner(loc, chain).problem(loc, message)

    def _chain(self, name: str, problems: list[Problem]) -> list[tuple[str, Document]]:
        """[(name, doc)] from the named layout up to its root."""
        chain: list[tuple[str, Document]] = []
        next_name: str | None = name
        while next_name is not None:
            name = next_name
            if name in (n for n, _ in chain):
                cycle = " -> ".join([n for n, _ in chain] + [name])
                problems.append(chain[-1][1].problem(("extends",), f"layouts extend each other in a circle: {cycle}"))
                break
            path = defaults.find(self.root, f"{name}.yaml")
            if not path.is_file():
                known = defaults.names(self.root, str(Path(name).parent), ".yaml")
                where = f"extended by {chain[-1][0]}" if chain else "named in decks.yaml"
                problems.append(Problem(display_path(path), 0, 0, "", f"no such layout '{name}' ({where}){did_you_mean(name, known)}"))
                break
            if path not in self._docs:
                self._docs[path] = read(path)
            doc, found = self._docs[path]
            problems += found
            if doc is None:
                break
            if not isinstance(doc.data, dict):
                problems.append(doc.problem((), "expected a mapping (key: value lines)"))
                break
            chain.append((name, doc))
            parent = doc.data.get("extends")
            next_name = parent if isinstance(parent, str) else None
        return chain

    def _load(self, name: str) -> Layout:
        problems: list[Problem] = []
        chain = self._chain(name, problems)
        if problems:
            raise ValidationFailed(problems)
        self._chains[name] = chain
        merged: dict = {}
        frame = None  # the card size the boxes merged so far are drawn at
        for _, doc in reversed(chain):  # root first
            assert isinstance(doc.data, dict)  # as _chain took it
            drawn = _drawn_at(doc.data)
            if drawn and frame and drawn != frame:
                merged = _refit(merged, frame, drawn)
            frame = drawn or frame
            merged = _merge(merged, doc.data)
        final = _drawn_at({"size": merged.get("size")})
        if frame and final and frame != final:
            merged = _refit(merged, frame, final)
        merged.pop("extends", None)
        problems += _layer(merged, chain)
        spec, found = validate(LayoutSpec, merged, chain[0][1])
        # Each problem belongs in the file that last wrote the field.
        problems += [_relocate(p, chain) for p in found]
        if spec is None:
            raise ValidationFailed(problems)
        size, bleed, safe = spec.size, spec.bleed, spec.safe
        if size is None or bleed is None or safe is None:
            missing = [k for k in ("size", "bleed", "safe") if getattr(spec, k) is None]
            raise ValidationFailed([Problem(chain[-1][1].shown, 1, 1, "", f"the root layout must give {', '.join(missing)}")])
        layout = Layout(
            name=name,
            width=size[0],
            height=size[1],
            bleed=bleed,
            safe=safe,
            palette=dict(spec.palette),
            boxes=tuple(spec.boxes.items()),
            inks=tuple((mode, ink_style(dict(spec.palette), ink)) for mode, ink in spec.inks.items()),
            # designed_at only moves boxes, whose places are in it: a file that gives it says
            # nothing more (the five games' cards are the bytes they were)
            fingerprint=hashlib.sha256(json.dumps({k: v for k, v in merged.items() if k != "designed_at"},
                                                  sort_keys=True, default=str).encode()).hexdigest(),
        )
        problems += _outside_safe(layout, chain)
        problems += _unprintable_size(layout, chain)
        problems += _unknown_colours(spec, chain)
        self._colours[name] = _unknown_box_colours(spec, chain)  # said with the game's names: plan.py
        if problems:
            raise ValidationFailed(problems)
        return layout


def _mix_white(color: str, share: float) -> str:
    rgb = [int(color[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(v + (255 - v) * share):02x}" for v in rgb)


def _grey(color: str) -> str:
    r, g, b = (int(color[i:i + 2], 16) for i in (1, 3, 5))
    return "#" + f"{round(0.299 * r + 0.587 * g + 0.114 * b):02x}" * 3


def ink_style(palette: dict, spec: InkSpec) -> Ink:
    """A palette's colours in an ink mode, as `spec` gives them."""
    out = dict(palette)
    for name, value in spec.palette.items():
        out[name] = value if value.startswith("#") else palette.get(value, "#000000")
    return Ink(out, tuple(spec.lighten.items()), spec.icons == "outline", spec.grey, spec.elements)


def _unknown_colours(spec: LayoutSpec, chain) -> list[Problem]:
    """An ink's colour is '#rrggbb' or the name of one of the palette's colours."""
    problems = []
    for mode, ink in spec.inks.items():
        for name, value in ink.palette.items():
            if not _is_hex(value) and value not in spec.palette:
                loc = ("inks", mode, "palette", name)
                problems.append(_owner(loc, chain).problem(loc, f"'{value}' is neither a colour '#rrggbb' nor a colour of "
                                                                f"the palette{did_you_mean(value, sorted(spec.palette))}"))
    return problems


def _is_hex(value: str) -> bool:
    return len(value) == 7 and value.startswith("#") and all(c in "0123456789abcdefABCDEF" for c in value[1:])


def _unknown_box_colours(spec: LayoutSpec, chain) -> list[Problem]:
    """A box's `fill`, `stroke` or `color` is '#rrggbb', `element` or a colour of the palette:
    any other name printed black (issue 26: `fill: gld` made a cost circle black)."""
    problems = []
    known = sorted(spec.palette)
    for name, box in spec.boxes.items():
        for key in ("fill", "stroke", "color"):
            value = getattr(box, key)
            if key not in box.model_fields_set or value is None or value == "element" or _is_hex(value) or value in spec.palette:
                continue
            loc = ("boxes", name, key)
            hint = did_you_mean(value, known)
            problems.append(_owner(loc, chain).problem(loc, f"unknown colour '{value}'{hint}: a {key} is a colour of the "
                                                            f"palette ({', '.join(known) or 'none'}), '#rrggbb' or "
                                                            "'element' (the card's element)"))
    return problems


def _merge(base: dict, over: dict) -> dict:
    """`over` on top of `base`, mappings merged key by key; a null box removes it."""
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        elif value is None and key in out and isinstance(out[key], dict):
            del out[key]
        else:
            out[key] = value
    return out


def _drawn_at(data: dict) -> tuple[float, float] | None:
    """The card size a layout file's boxes are drawn at: the size it gives, else the size it says
    it was `designed_at`, else None (its parent's). A malformed value is left to the schema."""
    for key in ("size", "designed_at"):
        value = data.get(key)
        if (isinstance(value, list | tuple) and len(value) == 2
                and all(isinstance(v, int | float) and not isinstance(v, bool) and v > 0 for v in value)):
            return float(value[0]), float(value[1])
    return None


def _refit(merged: dict, frm: tuple[float, float], to: tuple[float, float]) -> dict:
    """The boxes merged so far, drawn for a card of size `frm`, moved onto a card of size `to`:
    each axis maps the safe zone onto the safe zone (a box inside it stays inside it), and a
    square box (a disc, an icon, a stat) stays square at the smaller scale, centred where it was.
    Text keeps its point size; a box grown or shrunk wraps and fits its text anew."""
    boxes = merged.get("boxes")
    safe = merged.get("safe")
    if not isinstance(boxes, dict) or not isinstance(safe, int | float):
        return merged
    scale = [(t - 2 * safe) / (f - 2 * safe) if f > 2 * safe and t > 2 * safe else t / f for f, t in zip(frm, to, strict=True)]
    out = {}
    for name, box in boxes.items():
        numbers = isinstance(box, dict) and all(
            isinstance(box.get(k), int | float) and not isinstance(box.get(k), bool) for k in ("x", "y", "w", "h"))
        if not numbers:
            out[name] = box
            continue
        placed = dict(box)
        for axis, (at, length) in enumerate((("x", "w"), ("y", "h"))):
            placed[at] = safe + (box[at] - safe) * scale[axis]
            placed[length] = box[length] * scale[axis]
        if box["w"] == box["h"]:
            side = box["w"] * min(scale)
            placed["x"] += (placed["w"] - side) / 2
            placed["y"] += (placed["h"] - side) / 2
            placed["w"] = placed["h"] = side
        if box.get("kind") == "text":
            _keep_a_line(placed, to[1], safe)
        out[name] = {k: round(v, 3) if k in ("x", "y", "w", "h") else v for k, v in placed.items()}
    return {**merged, "boxes": out}


def _keep_a_line(box: dict, height: float, safe: float) -> None:
    """A text box made shorter than one line of its smallest text grows back to that line about
    its centre, kept inside the safe zone: a footer on a mini card still holds its one line."""
    size, least, leading = box.get("size", 8.0), box.get("min_size"), box.get("leading", 1.2)
    if not all(isinstance(v, int | float) for v in (size, least or 0, leading)):
        return  # the schema says what is wrong with it
    line = (least or min(7.0, size)) * leading * 25.4 / 72 + 0.01
    if box["h"] >= line:
        return
    box["y"] -= (line - box["h"]) / 2
    box["h"] = line
    box["y"] = min(max(box["y"], safe), height - safe - line)


def _layer(merged: dict, chain) -> list[Problem]:
    """Move each box that names another in `before` to just ahead of it (under it)."""
    boxes = merged.get("boxes")
    if not isinstance(boxes, dict):
        return []
    problems, order = [], list(boxes)
    for name, box in list(boxes.items()):
        target = box.get("before") if isinstance(box, dict) else None
        if target is None:
            continue
        if target not in boxes or target == name:
            doc = _owner(("boxes", name, "before"), chain)
            problems.append(doc.problem(("boxes", name, "before"), f"no box '{target}' to draw under{did_you_mean(target, order)}"))
            continue
        order.remove(name)
        order.insert(order.index(target), name)
    merged["boxes"] = {name: boxes[name] for name in order}
    return problems


def _owner(loc: tuple, chain: list[tuple[str, Document]]) -> Document:
    for _, doc in chain:  # child first: the last writer wins
        value = doc.data
        for part in loc:
            if isinstance(value, dict) and part in value:
                value = value[part]
            else:
                break
        else:
            return doc
    return chain[0][1]


def _relocate(problem: Problem, chain) -> Problem:
    loc = tuple(int(p) if p.isdigit() else p for p in problem.path.replace("[", ".").replace("]", "").split(".") if p)
    doc = _owner(loc, chain)
    key = "unknown key" in problem.message
    fresh = doc.problem(loc, problem.message, key=key)
    return fresh


def _unprintable_size(layout: Layout, chain) -> list[Problem]:
    """A card size no paper's sheet can hold with its bleed and crop marks (papers.py), at the
    line that gives the size, saying what fits: else `build` would have no grid to lay it out."""
    found = misfit(layout.width, layout.height, layout.bleed)
    return [_owner(("size",), chain).problem(("size",), found)] if found else []


def _outside_safe(layout: Layout, chain) -> list[Problem]:
    """Text and rule icons must lie inside the safe zone (GUIDE: 1/8 in inside the trim)."""
    problems = []
    s, eps = layout.safe, 1e-6
    for name, box in layout.boxes:
        if box.kind not in ("text", "icons", "icon", "stat", "track"):
            continue
        x, y, w, h = layout.area(box)
        if x < s - eps or y < s - eps or x + w > layout.width - s + eps or y + h > layout.height - s + eps:
            doc = _owner(("boxes", name), chain)
            problems.append(doc.problem(("boxes", name), (
                f"the '{name}' box ({x:g}, {y:g}, {w:g} x {h:g} mm) reaches outside the safe zone "
                f"({s:g} .. {layout.width - s:g} x {s:g} .. {layout.height - s:g} mm)")))
    return problems
