"""Drawing a display list with Pillow, at a given resolution."""

from __future__ import annotations

import functools
import math

from PIL import Image as PILImage
from PIL import ImageDraw, ImageFont

from . import art, fonts, vectors
from .displaylist import Drawing, Ellipse, Image, Path, Poly, Rect, Text

PRINT_DPI = 300


@functools.lru_cache(maxsize=256)
def _font(name: str, px: float) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(fonts.path(name)), size=px, layout_engine=ImageFont.Layout.BASIC)


def size_px(drawing: Drawing, dpi: float = PRINT_DPI, *, bleed: bool = True) -> tuple[int, int]:
    b = drawing.bleed if bleed else 0
    return round((drawing.width + 2 * b) * dpi / 25.4), round((drawing.height + 2 * b) * dpi / 25.4)


def render(drawing: Drawing, dpi: float = PRINT_DPI, *, bleed: bool = True) -> PILImage.Image:
    """The face as an RGB image: with its bleed (825 x 1125 px for poker at 300 DPI), or trimmed."""
    image = PILImage.new("RGB", size_px(drawing, dpi, bleed=bleed), (255, 255, 255))
    draw = ImageDraw.Draw(image)
    k = dpi / 25.4
    off = drawing.bleed if bleed else 0.0

    def P(x, y):
        return (x + off) * k, (y + off) * k

    for item in drawing.items:
        if isinstance(item, Text) and item.turned:
            _turned_text(image, item, P(item.x, item.y), _font(item.font, item.size * dpi / 72))
        elif isinstance(item, Text):
            draw.text(P(item.x, item.y), item.text, font=_font(item.font, item.size * dpi / 72),
                      fill=item.color, anchor="ls")
        elif isinstance(item, Rect):
            box = [P(item.x, item.y), P(item.x + item.w, item.y + item.h)]
            width = max(1, round(item.width * k)) if item.stroke else 0
            if item.radius:
                draw.rounded_rectangle(box, radius=item.radius * k, fill=item.fill, outline=item.stroke, width=width)
            else:
                draw.rectangle(box, fill=item.fill, outline=item.stroke, width=width)
        elif isinstance(item, Ellipse):
            box = [P(item.cx - item.rx, item.cy - item.ry), P(item.cx + item.rx, item.cy + item.ry)]
            width = max(1, round(item.width * k)) if item.stroke else 0
            draw.ellipse(box, fill=item.fill, outline=item.stroke, width=width)
        elif isinstance(item, Poly):
            points = [P(x, y) for x, y in item.points]
            if item.closed and item.fill:
                draw.polygon(points, fill=item.fill)
            if item.stroke:
                if item.closed:
                    points.append(points[0])
                draw.line(points, fill=item.stroke, width=max(1, round(item.width * k)), joint="curve")
        elif isinstance(item, Image):
            _image(image, item, P, k)
        elif isinstance(item, Path):
            _path(image, item, k, off)
    return image


def _path(image: PILImage.Image, item: Path, k: float, off: float) -> None:
    """The outline filled by its rule and or stroked, anti-aliased (vectors.fill_mask,
    vectors.stroke_mask), over the pixels its bounds cover, cut to its clip box. Open straight
    lines and nothing else (a pattern's lattice) are drawn as a Poly's lines are."""
    if item.fill is None and not item.closed and item.clip is None and item.stroke is not None \
            and all(len(seg) == 2 for sub in item.subpaths for seg in sub):
        draw = ImageDraw.Draw(image)
        for sub in item.subpaths:
            draw.line([((x + off) * k, (y + off) * k) for x, y in sub], fill=item.stroke,
                      width=max(1, round(item.width * k)), joint="curve")
        return
    pad = item.width / 2 if item.stroke is not None else 0.0
    xs = [v for sub in item.subpaths for seg in sub for v in seg[0::2]]
    ys = [v for sub in item.subpaths for seg in sub for v in seg[1::2]]
    if not xs:
        return
    left, top, right, bottom = min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad
    if item.clip is not None:
        cx, cy, cw, ch = item.clip
        left, top, right, bottom = max(left, cx), max(top, cy), min(right, cx + cw), min(bottom, cy + ch)
    x0, y0 = max(0, math.floor((left + off) * k)), max(0, math.floor((top + off) * k))
    x1, y1 = min(image.width, math.ceil((right + off) * k) + 1), min(image.height, math.ceil((bottom + off) * k) + 1)
    if item.clip is not None:  # whole pixels of the box only, as the PDF's clip shows them
        x1, y1 = min(x1, round((item.clip[0] + item.clip[2] + off) * k)), min(y1, round((item.clip[1] + item.clip[3] + off) * k))
        x0, y0 = max(x0, round((item.clip[0] + off) * k)), max(y0, round((item.clip[1] + off) * k))
    if x1 <= x0 or y1 <= y0:
        return
    if item.fill is not None and item.closed:
        mask = vectors.fill_mask([item], k, x0 / k - off, y0 / k - off, x1 - x0, y1 - y0)
        image.paste(item.fill, (x0, y0, x1, y1), mask)
    if item.stroke is not None and item.width > 0:
        mask = vectors.stroke_mask(item, k, x0 / k - off, y0 / k - off, x1 - x0, y1 - y0)
        image.paste(item.stroke, (x0, y0, x1, y1), mask)


def _turned_text(image: PILImage.Image, item: Text, at: tuple[float, float], font: ImageFont.FreeTypeFont) -> None:
    """Text upside down: set on its own mask, turned half round, laid so its anchor falls at `at`."""
    left, top, right, bottom = font.getbbox(item.text, anchor="ls")
    mask = PILImage.new("L", (max(1, int(right - left)), max(1, int(bottom - top))))
    ImageDraw.Draw(mask).text((-left, -top), item.text, font=font, fill=255, anchor="ls")
    # turned half round, the anchor (-left, -top) of the mask lands at (width + left, height + top)
    x, y = round(at[0] - (mask.width + left)), round(at[1] - (mask.height + top))
    image.paste(item.color, (x, y, x + mask.width, y + mask.height), mask.rotate(180))


def _image(image: PILImage.Image, item: Image, P, k: float) -> None:
    """The picture placed in its box as its fit and focus say (art.place, as the PDF places it),
    cropped to the box."""
    x0, y0 = (round(v) for v in P(item.x, item.y))
    w, h = max(1, round(item.w * k)), max(1, round(item.h * k))
    with PILImage.open(item.path) as opened:
        pic = opened.convert("RGB")
        _, _, dw, dh = art.place(pic.width, pic.height, w, h, item.fit, item.focus)
        if item.fit == "contain":  # inside the box: drawn whole, the box's spare room left as it was
            sw, sh = min(w, max(1, round(dw))), min(h, max(1, round(dh)))
            at = x0 + math.floor((w - sw) * item.focus[0]), y0 + math.floor((h - sh) * item.focus[1])
            image.paste(pic.resize((sw, sh), PILImage.Resampling.LANCZOS), at)
            return
        pic = pic.resize((max(w, round(dw)), max(h, round(dh))), PILImage.Resampling.LANCZOS)
        left, top = math.floor((pic.width - w) * item.focus[0]), math.floor((pic.height - h) * item.focus[1])
        image.paste(pic.crop((left, top, left + w, top + h)), (x0, y0))
