"""A designer's SVG picture (`art: art/bolt.svg`), checked before anything draws it.

The press draws an SVG as vectors (svglib reads it into shapes: press/drawing/vectors.py), so
what it may hold is what those shapes can say, and nothing that would make a reader open
something else: paths, rectangles, circles, ellipses, lines, polylines and polygons, in groups,
with transforms, solid fills and strokes, `<use>` of its own shapes. An `<image>`, text, a
gradient, a pattern, a mask, a clip path, a filter, a script, a link to another file or a DOCTYPE
(entities) is refused, saying which and what to do. Its bytes, elements and numbers are bounded:
a game's folder may come from anyone.
"""

from __future__ import annotations

import re
from typing import Any

MAX_BYTES = 4 * 1024 * 1024
MAX_ELEMENTS = 20_000
MAX_NUMBERS = 400_000  # numbers in its geometry: points, lengths, transforms
SHAPES = {"svg", "g", "defs", "path", "rect", "circle", "ellipse", "line", "polyline", "polygon", "use", "symbol",
          "title", "desc", "metadata", "style"}
_SAID = {"image": "an <image> (a picture inside the SVG): draw it as shapes, or save the art as PNG",
         "text": "text: turn it into paths (in Inkscape, Path > Object to Path), or save the art as PNG",
         "tspan": "text: turn it into paths (in Inkscape, Path > Object to Path), or save the art as PNG",
         "lineargradient": "a gradient: fill with solid colours, or save the art as PNG",
         "radialgradient": "a gradient: fill with solid colours, or save the art as PNG",
         "script": "a script", "foreignobject": "a foreignObject (HTML inside the SVG)",
         "pattern": "a pattern fill: fill with solid colours, or save the art as PNG",
         "mask": "a mask: save the art as PNG", "clippath": "a clip path: save the art as PNG",
         "filter": "a filter (blur, shadow): save the art as PNG"}
_NUMBER = re.compile(rb"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_LENGTH = re.compile(r"\s*([0-9.]+)\s*(px|pt|mm|cm|in)?\s*\Z")


class Refused(ValueError):
    """What is wrong with the SVG, in a designer's words."""


def looks_like_svg(start: bytes) -> bool:
    head = start.lstrip(b"\xef\xbb\xbf \t\r\n")
    return head.startswith((b"<svg", b"<?xml", b"<!--"))


def check(raw: bytes) -> tuple[float, float]:
    """The SVG's width and height in its own units (its viewBox, else its width and height);
    Refused with the reason when it holds what the press cannot draw, or is too big."""
    from lxml import etree  # type: ignore[import-untyped]  # lxml comes with svglib; only an SVG picture needs it

    if len(raw) > MAX_BYTES:
        raise Refused(f"is {len(raw) / 1024 / 1024:,.1f} MB; an SVG picture may be at most {MAX_BYTES // 1024 // 1024} MB")
    if b"<!DOCTYPE" in raw or b"<!ENTITY" in raw:
        raise Refused("holds a DOCTYPE or entities, which are not read: save it again without them (plain SVG)")
    if len(_NUMBER.findall(raw)) > MAX_NUMBERS:
        raise Refused(f"holds more than {MAX_NUMBERS:,} numbers: simplify it, or save it as PNG")
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False, remove_comments=True)
    try:
        root = etree.fromstring(raw, parser=parser)
    except etree.XMLSyntaxError as exc:
        raise Refused(f"is not well-formed SVG ({exc}); save it again") from None
    if _name(root) != "svg":
        raise Refused("is not an SVG: its outermost element is not <svg>")
    count = 0
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue  # a processing instruction
        count += 1
        if count > MAX_ELEMENTS:
            raise Refused(f"holds more than {MAX_ELEMENTS:,} elements: simplify it, or save it as PNG")
        name = _name(element)
        if _inside(element, "metadata"):
            continue
        if name not in SHAPES:
            raise Refused(f"holds {_SAID.get(name, f'a <{name}> element, which is not drawn: save the art as PNG')}")
        for key, value in element.attrib.items():
            if _name_of(key) == "href" and not value.startswith("#"):
                raise Refused(f"<{name}> links to '{value[:60]}': an SVG picture may use only its own shapes")
            if "url(" in value:
                raise Refused(f"<{name}> names '{value[:60]}' (a gradient, pattern or other file): use solid colours")
        if name == "style" and ("url(" in (element.text or "") or "@import" in (element.text or "")):
            raise Refused("its <style> reaches another file or a gradient (url, @import): use solid colours")
    return _size(root)


def _size(root: Any) -> tuple[float, float]:
    box = (root.get("viewBox") or "").replace(",", " ").split()
    if len(box) == 4:
        try:
            width, height = float(box[2]), float(box[3])
        except ValueError:
            raise Refused(f"its viewBox '{str(root.get('viewBox'))[:40]}' is not four numbers") from None
    else:
        lengths = [_LENGTH.match(root.get(key) or "") for key in ("width", "height")]
        if not all(lengths):
            raise Refused("gives no size: give the <svg> a viewBox (or a width and height in px)")
        width, height = (float(m.group(1)) for m in lengths if m)
    if not (0 < width < 1e6 and 0 < height < 1e6):
        raise Refused("its size is not a positive number")
    return width, height


def _name(element: Any) -> str:
    return _name_of(str(element.tag)).lower()


def _name_of(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _inside(element: Any, name: str) -> bool:
    parent = element.getparent()
    while parent is not None:
        if _name(parent) == name:
            return True
        parent = parent.getparent()
    return False
