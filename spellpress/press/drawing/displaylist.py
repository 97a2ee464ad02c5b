"""Positioned drawing primitives: what a laid-out card is, before any backend draws it.

Coordinates are millimetres from the card's trim corner at the top left, y growing down; a card
with bleed spans -bleed .. width + bleed. Text arrives already broken into lines and placed on
its baseline, so the PDF and PNG backends only draw and cannot disagree about layout.
"""

from __future__ import annotations

from dataclasses import dataclass

Color = tuple[int, int, int]


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    fill: Color | None = None
    stroke: Color | None = None
    width: float = 0.0  # stroke width, mm
    radius: float = 0.0


@dataclass(frozen=True)
class Ellipse:
    cx: float
    cy: float
    rx: float
    ry: float
    fill: Color | None = None
    stroke: Color | None = None
    width: float = 0.0


@dataclass(frozen=True)
class Poly:
    points: tuple[tuple[float, float], ...]
    fill: Color | None = None
    stroke: Color | None = None
    width: float = 0.0
    closed: bool = True


@dataclass(frozen=True)
class Text:
    x: float  # left end of the baseline
    y: float  # baseline
    text: str
    font: str  # a face's key (press/drawing/fonts.py): a role of the package's faces, or a game's own file
    size: float  # points
    color: Color
    turned: bool = False  # upside down, turned half round (x, y): a playing card's lower index


@dataclass(frozen=True)
class Image:
    path: str
    x: float
    y: float
    w: float
    h: float
    # 'cover': scaled to fill the box, what overflows cropped; 'contain': scaled to show all of
    # it. The focus point of the picture (0..1 across and down) falls on the same point of the
    # box. Both backends place it with art.place, so they agree.
    fit: str = "cover"
    focus: tuple[float, float] = (0.5, 0.5)


# A piece of a path: (x, y), a straight line to there; (x1, y1, x2, y2, x, y), a cubic curve
# with two control points; a subpath's first is the point it starts from
Segment = tuple[float, ...]


@dataclass(frozen=True)
class Path:
    """An outline of lines and cubic curves, filled (its subpaths closed) and or stroked: a game
    icon, a shape of a designer's SVG. `evenodd`:
    a point is inside when the outline goes round it an odd number of times; else (SVG's default,
    nonzero) when it goes round it more times one way than the other. Both backends fill by the
    same rule: reportlab's fill modes, raster.py through vectors.fill_mask."""

    subpaths: tuple[tuple[Segment, ...], ...]
    fill: Color | None
    evenodd: bool = False
    stroke: Color | None = None  # a designer's SVG: its outline drawn too, `width` mm wide
    width: float = 0.0
    closed: bool = True  # False: its subpaths are lines (an SVG polyline or line), stroked, never filled
    clip: tuple[float, float, float, float] | None = None  # drawn only inside this box (x, y, w, h): a picture's art box


Primitive = Rect | Ellipse | Poly | Text | Image | Path


@dataclass(frozen=True)
class Mark:
    """Which items of a drawing one box of its layout drew: items[start:end]. `tells` is what
    the box's colour tells apart (its layout's `tells:`), else empty: the colour-vision check
    (vision.py) compares what such boxes draw on the cards of a game."""

    box: str  # the box's name; a medallion beside a text box's words is '<box>:flank'
    tells: str
    start: int
    end: int


@dataclass(frozen=True)
class Drawing:
    """One face of a card, laid out."""

    width: float  # trim size, mm
    height: float
    bleed: float
    items: tuple[Primitive, ...]
    marks: tuple[Mark, ...] = ()  # what each box of the layout drew (a card's face; none for other drawings)

    def drawn_by(self, box: str) -> tuple[Primitive, ...]:
        """The items the box of that name drew (nothing if it drew none)."""
        return tuple(item for mark in self.marks if mark.box == box for item in self.items[mark.start:mark.end])


Area = tuple[float, float, float, float]  # x, y, w, h in mm, y down


@dataclass(frozen=True)
class Part:
    """A box of a card's layout as a figure of the card sees it (a rulebook's labelled card):
    where its ink is, its turned copy's too, in mm. A figure points at a part just after one of
    its `lines`, or on one of its `glyphs` or `fills`."""

    name: str  # the box's name in its layout
    label: str | None  # what the figure calls it; None: a box the figure does not name
    area: Area  # the box, as laid out
    turned: bool = False  # drawn a second time, turned half round the card's centre (a corner index)
    lines: tuple[Area, ...] = ()  # its lines of text, inline icons and all
    glyphs: tuple[Area, ...] = ()  # the squares of its icons and shapes: inked about their middle, not to their corners
    fills: tuple[Area, ...] = ()  # what it fills edge to edge: a picture's box, a filled rectangle's
