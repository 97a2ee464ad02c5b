"""Colour never the only signal (issue 28): the colours that tell a game's card kinds apart,
seen by the three common colour-vision deficiencies.

What is measured. A box of a layout that says what its colour `tells` (card.yaml: the inner
frame tells the card's kind, the band its kind again; back.yaml: the ground tells the deck) is
drawn on every card that has it. For each card, the boxes of one `tells` name are rendered
together at DPI (the inner frame with the grain over it, a gradient with all its slices), and
their colour is the mean, in linear light, of the pixels they cover, as a person sees a fine
texture from a hand's length. The same pixels are seen through each deficiency (SIMULATIONS)
and averaged alike. A game's elements (game.yaml) are discs of their colours, seen the same way.

The simulation is Machado, Oliveira and Fernandes (2009), "A Physiologically-based Model for
Simulation of Color Vision Deficiency" (IEEE TVCG 15(6)), at severity 1: protanopia,
deuteranopia and tritanopia, the complete loss of the long, middle or short cones. Each is a
3 x 3 matrix applied to linear sRGB, clipped to the gamut and encoded back to 8 bits, as a
simulated image holds it. (Machado's tritanopia is the least certain of the three; its authors
say the model is best for the red-green deficiencies. It is the common one all the same.)

The difference is CIEDE2000 (CIE 142-2001) between the CIE L*a*b* (D65) of two colours; it is
checked against Sharma, Wu and Dalal's (2005) published test pairs (tests/test_press_vision.py).
Two colours of one `tells` closer than SAME in normal vision are one colour (two cards that
share it are not told apart by it). Every other two must be at least THRESHOLD apart in normal
vision and through each deficiency. THRESHOLD is 10: at that difference two flat colours side
by side read as different colours, not two shades of one, for a person who knows to compare
them (a difference of 1 to 2 is the smallest seen at all), and a kind's colour on a card seen on
its own, across a table, needs that margin.

Numbers only: no numpy in the press (the Machado matrices are nine numbers each; CIEDE2000 is
a formula), so nothing is added to the dependencies; the pixels go through Pillow's histogram.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .displaylist import Color, Drawing, Ellipse, Image, Path, Poly, Primitive, Rect

# Machado et al. (2009), severity 1.0, for linear sRGB: each row gives one output channel
SIMULATIONS: dict[str, tuple[tuple[float, float, float], ...]] = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}
VISIONS = ("normal vision", *SIMULATIONS)
THRESHOLD = 10.0  # CIEDE2000: the least difference between two colours that tell kinds apart, for every eye
SAME = 2.0  # CIEDE2000 in normal vision below which two colours are the same colour
DPI = 50  # the resolution the boxes are rendered at to be seen
EDGE = 2  # pixels at DPI (1 mm) left out inside the edge of what a box fills: its outline's

Lab = tuple[float, float, float]


def linear(v: float) -> float:
    """An 8-bit sRGB channel as linear light, 0 to 1."""
    c = v / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def encoded(v: float) -> float:
    """Linear light (clipped to 0..1) as an sRGB channel, 0 to 255, unrounded."""
    v = min(1.0, max(0.0, v))
    return 255 * (12.92 * v if v <= 0.0031308 else 1.055 * v ** (1 / 2.4) - 0.055)


def simulate(color: Color, vision: str) -> Color:
    """The colour as the deficiency sees it (Machado 2009), 8-bit as a simulated image holds it;
    'normal vision': the colour itself."""
    if vision not in SIMULATIONS:
        return color
    rgb = [linear(v) for v in color]
    red, green, blue = (round(encoded(sum(m * c for m, c in zip(row, rgb)))) for row in SIMULATIONS[vision])
    return red, green, blue


def lab(color: Sequence[float]) -> Lab:
    """sRGB (0 to 255 a channel) to CIE L*a*b*, D65 white."""
    r, g, b = (linear(v) for v in color)
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def delta_e(one: Lab, two: Lab) -> float:
    """CIEDE2000 between two CIE L*a*b* colours (kL = kC = kH = 1), as Sharma, Wu and Dalal
    (2005) write it out."""
    l1, a1, b1 = one
    l2, a2, b2 = two
    c_bar = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_bar ** 7 / (c_bar ** 7 + 25 ** 7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dl, dc = l2 - l1, c2p - c1p
    if c1p * c2p == 0:
        dh = 0.0
    else:
        dh = h2p - h1p
        dh = dh - 360 if dh > 180 else dh + 360 if dh < -180 else dh
    d_big_h = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    l_bar, cp_bar = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        h_bar = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_bar = (h1p + h2p) / 2
    else:
        h_bar = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(h_bar - 30)) + 0.24 * math.cos(math.radians(2 * h_bar))
         + 0.32 * math.cos(math.radians(3 * h_bar + 6)) - 0.20 * math.cos(math.radians(4 * h_bar - 63)))
    d_theta = 30 * math.exp(-(((h_bar - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(cp_bar ** 7 / (cp_bar ** 7 + 25 ** 7))
    s_l = 1 + 0.015 * (l_bar - 50) ** 2 / math.sqrt(20 + (l_bar - 50) ** 2)
    s_c = 1 + 0.045 * cp_bar
    s_h = 1 + 0.015 * cp_bar * t
    r_t = -math.sin(math.radians(2 * d_theta)) * r_c
    return math.sqrt((dl / s_l) ** 2 + (dc / s_c) ** 2 + (d_big_h / s_h) ** 2 + r_t * (dc / s_c) * (d_big_h / s_h))


Seen = dict[str, Lab]  # vision -> the colour's L*a*b* as that eye sees it


def seen_histogram(counts: Iterable[tuple[int, Color]]) -> Seen:
    """How each eye sees pixels of these colours (count, colour): the mean, in linear light,
    of each pixel as that eye sees it."""
    counts = list(counts)
    total = sum(n for n, _ in counts)
    out: Seen = {}
    for vision in VISIONS:
        sums = [0.0, 0.0, 0.0]
        for n, color in counts:
            for i, v in enumerate(simulate(color, vision)):
                sums[i] += n * linear(v)
        out[vision] = lab([encoded(s / total) for s in sums])
    return out


def seen_color(color: Color) -> Seen:
    """How each eye sees a flat colour."""
    return seen_histogram([(1, color)])


def _filled(item: Primitive) -> Primitive | None:
    """The area a primitive fills, in black (None if it fills none: a line, an outline, a text)."""
    if isinstance(item, (Rect, Ellipse, Poly, Path)) and item.fill is not None and getattr(item, "closed", True):
        return dataclasses.replace(item, fill=(0, 0, 0), stroke=None)
    return None


def _pixels(image) -> Iterable:
    """An image's pixels, row by row (Pillow 12.1 renamed getdata)."""
    flattened = getattr(image, "get_flattened_data", None)
    return flattened() if flattened is not None else image.getdata()


_SEEN: dict[tuple, Seen | None] = {}


def seen_items(drawing: Drawing, items: Sequence[Primitive]) -> Seen | None:
    """How each eye sees what these items of a drawing draw: rendered on their own at DPI, over
    the pixels their fills cover whole, EDGE pixels in from their edges (an outline round a band
    is its edge, not its colour; lines over a fill, a grain, are seen with it). None if they
    fill nothing. A picture (Image) is left out."""
    from PIL import ImageFilter

    from . import raster  # here: only the check renders, once the faces are laid out

    items = tuple(item for item in items if not isinstance(item, Image))
    fills = tuple(f for f in map(_filled, items) if f is not None)
    if not fills:
        return None
    key = (drawing.width, drawing.height, drawing.bleed, items)  # faces of a kind draw these alike: seen once
    if key not in _SEEN:
        size = drawing.width, drawing.height, drawing.bleed
        cover = raster.render(Drawing(*size, fills), DPI).convert("L").filter(ImageFilter.MaxFilter(1 + 2 * EDGE))
        picture = raster.render(Drawing(*size, items), DPI)
        counts = Counter(color for color, ink in zip(_pixels(picture), _pixels(cover)) if ink == 0)
        if len(_SEEN) > 4096:
            _SEEN.clear()
        _SEEN[key] = seen_histogram((n, color) for color, n in counts.items()) if counts else None
    return _SEEN[key]


@dataclass
class Colour:
    """One colour of a `tells` name: as each eye sees it, and where it is written."""

    hex: str  # as drawn: its mean in normal vision, '#rrggbb'
    seen: Seen
    where: list[str]  # where the colour it is drawn from is written ('file:line'), first first
    shows: list[str]  # the cards or decks that show it, for the message
    written: str = ""  # the colour written there ('#rrggbb'), which drawing shades into `hex`


@dataclass(frozen=True)
class Clash:
    """Two colours of one `tells` name closer than THRESHOLD for one eye."""

    tells: str
    one: Colour
    two: Colour
    vision: str
    difference: float
    normal: float  # their difference in normal vision


def worst(one: Seen, two: Seen) -> tuple[str, float]:
    """The eye for which two colours are closest, and how close (CIEDE2000)."""
    return min(((v, delta_e(one[v], two[v])) for v in VISIONS), key=lambda pair: pair[1])


def clashes(colours: dict[str, dict[str, Colour]], threshold: float = THRESHOLD) -> list[Clash]:
    """Every two colours of a `tells` name that are different colours (SAME or more apart in
    normal vision) and closer than `threshold` for some eye; each two colours said once, under
    the first name that shows them."""
    out: list[Clash] = []
    said: set[frozenset[str]] = set()
    for tells, found in colours.items():
        for one, two in itertools.combinations(found.values(), 2):
            normal = delta_e(one.seen["normal vision"], two.seen["normal vision"])
            pair = frozenset((one.hex, two.hex))
            if normal < SAME or pair in said:
                continue
            vision, difference = worst(one.seen, two.seen)
            if difference < threshold:
                said.add(pair)
                out.append(Clash(tells, one, two, vision, difference, normal))
    return out


def hex_of(seen: Seen) -> str:
    """The colour seen in normal vision, as '#rrggbb'."""
    color = _from_lab(seen["normal vision"], clip=True)
    assert color is not None  # clipped
    return _hex(color)


def _hex(color: Sequence[float]) -> str:
    return "#" + "".join(f"{round(min(255, max(0, v))):02x}" for v in color)


def _from_lab(value: Lab, clip: bool = False) -> Color | None:
    """CIE L*a*b* (D65) to 8-bit sRGB; None outside the sRGB gamut (unless clipped to it)."""
    lightness, a, b = value
    fy = (lightness + 16) / 116
    fx, fz = fy + a / 500, fy - b / 200

    def inverse(t: float) -> float:
        return t ** 3 if t ** 3 > 216 / 24389 else (116 * t - 16) / (24389 / 27)

    x, y, z = inverse(fx) * 0.95047, inverse(fy), inverse(fz) * 1.08883
    rgb = (3.2404542 * x - 1.5371385 * y - 0.4985314 * z, -0.9692660 * x + 1.8760108 * y + 0.0415560 * z,
           0.0556434 * x - 0.2040259 * y + 1.0572252 * z)
    if not clip and any(c < -0.001 or c > 1.001 for c in rgb):
        return None
    red, green, blue = (round(encoded(c)) for c in rgb)
    return red, green, blue


def hex_color(value: str) -> Color:
    return int(value[1:3], 16), int(value[3:5], 16), int(value[5:7], 16)


def suggestion(clash: Clash, others: Iterable[Colour], threshold: float = THRESHOLD) -> str | None:
    """A colour to write instead of the second of the two: of its hue, lighter or darker (the
    difference every eye keeps: the deficiencies lose hues, not lightness), which, drawn as the
    second is drawn (its shading and grain darken it by the same share of light), is `threshold`
    from all the other colours of its name for every eye; None if none is."""
    drawn, written = hex_color(clash.two.hex), hex_color(clash.two.written or clash.two.hex)
    share = max(1e-6, _luminance(drawn)) / max(1e-6, _luminance(written))  # what the drawing keeps of its light
    l0, a0, b0 = lab(written)
    rest = [c.seen for c in others if c.hex != clash.two.hex]
    # white or black words on it (a title on a band) stay as readable as they were: 4.5 to 1
    keeps = [ink for ink in ((255, 255, 255), (0, 0, 0)) if contrast(written, ink) >= 4.5]
    for step in range(1, 60):
        for sign in (1, -1):
            for chroma in (1.0, 0.85, 0.7):
                candidate = _from_lab((l0 + sign * step, a0 * chroma, b0 * chroma))
                if candidate is None or any(contrast(candidate, ink) < 4.5 for ink in keeps):
                    continue
                seen = seen_color(_scaled(candidate, share))
                if all(worst(seen, other)[1] >= threshold for other in rest):
                    return _hex(candidate)
    return None


def _luminance(color: Color) -> float:
    """WCAG's relative luminance."""
    r, g, b = (linear(v) for v in color)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: Color, b: Color) -> float:
    """WCAG's contrast ratio of two colours, 1 to 21."""
    light, dark = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def _scaled(color: Color, share: float) -> Color:
    """The colour with its light scaled by `share`, as shading it darker does."""
    red, green, blue = (round(encoded(linear(v) * share)) for v in color)
    return red, green, blue


@dataclass(frozen=True)
class Drawn:
    """A face the check looks at: how messages name it, the layout that drew it, its drawing."""

    shows: str  # 'Ember Dart (Attack)', 'the back of the Spell deck'
    layout: str
    drawing: Drawing


WHO = {
    "normal vision": "even players with normal colour vision",
    "protanopia": "players without red-sensitive cones (protanopia)",
    "deuteranopia": "players without green-sensitive cones (deuteranopia)",
    "tritanopia": "players without blue-sensitive cones (tritanopia)",
}


def kind_colours(faces: Iterable[Drawn], where) -> dict[str, dict[str, Colour]]:
    """The colours each `tells` name takes on these faces: tells -> hex as drawn -> Colour.
    `where(layout, boxes)` says where the colour of the top one of those boxes is written
    ('file:line') and what it is ('#rrggbb')."""
    out: dict[str, dict[str, Colour]] = {}
    for face in faces:
        boxes: dict[str, list[Primitive]] = {}
        names: dict[str, list[str]] = {}
        for mark in face.drawing.marks:
            if mark.tells:
                boxes.setdefault(mark.tells, []).extend(face.drawing.items[mark.start:mark.end])
                names.setdefault(mark.tells, []).append(mark.box)
        for tells, items in boxes.items():
            seen = seen_items(face.drawing, items)
            if seen is None:
                continue
            hex_value = hex_of(seen)
            place, written = where(face.layout, names[tells])
            colour = out.setdefault(tells, {}).setdefault(hex_value, Colour(hex_value, seen, [], [], written))
            if place not in colour.where:
                colour.where.append(place)
            colour.shows.append(face.shows)
    return out


def element_colours(elements: Iterable[tuple[str, Color, str]]) -> dict[str, Colour]:
    """A game's elements (name, colour, where it is written), each a disc of its colour as the
    element icons draw it, seen by each eye."""
    out: dict[str, Colour] = {}
    for name, color, place in elements:
        disc = Drawing(10, 10, 0, (Ellipse(5, 5, 4, 4, fill=color),))
        seen = seen_items(disc, disc.items)
        assert seen is not None  # a disc covers pixels
        out[f"{name}:{_hex(color)}"] = Colour(_hex(color), seen, [place], [f"element {name}"], _hex(color))
    return out


def _names(colour: Colour) -> str:
    shown = list(dict.fromkeys(colour.shows))
    more = f" and {len(shown) - 2} more" if len(shown) > 2 else ""
    return ", ".join(shown[:2]) + more


def _as_written(colour: Colour) -> str:
    """A colour as the message names it: as written, and as drawn when drawing shades it."""
    if not colour.written or colour.written == colour.hex:
        return colour.hex
    return f"{colour.written}, drawn {colour.hex},"


def said(clash: Clash, others: Iterable[Colour], threshold: float = THRESHOLD) -> str:
    """A clash as a warning, at the line that writes the second colour: the two colours (as
    written, and as drawn) and what shows them, the eye, the difference, and a colour to write
    instead that would do."""
    one, two = clash.one, clash.two
    eye = clash.vision if clash.vision == "normal vision" else f"{clash.vision} (simulated, Machado 2009)"
    better = suggestion(clash, others, threshold)
    written = two.written or two.hex
    lighter = better is not None and lab(hex_color(better))[0] > lab(hex_color(written))[0]
    fix = (f"a {'lighter' if lighter else 'darker'} colour than {written}, such as {better}, keeps it {threshold:g} "
           f"from every other {clash.tells} colour for every eye" if better else
           "make the two differ more in lightness, or tell them apart by shape and give them one colour")
    return (f"{two.where[0]}: the {clash.tells} colours {_as_written(one)} ({_names(one)}) and {_as_written(two)} "
            f"({_names(two)}) are {clash.difference:.1f} apart (CIEDE2000) in {eye}, under {threshold:g}: "
            f"{WHO[clash.vision]} may not tell them apart (they are {clash.normal:.1f} apart in normal vision; "
            f"{one.written or one.hex} is written at {one.where[0]}). Colour is never the only signal: {fix}")
