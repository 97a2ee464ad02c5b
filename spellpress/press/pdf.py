"""Drawing a display list with reportlab, as a reusable PDF form (one per unique card face)."""

from __future__ import annotations

from PIL import Image as PILImage
from reportlab import rl_config
from reportlab.pdfgen.canvas import Canvas

from . import fonts
from .displaylist import Drawing, Ellipse, Image, Poly, Rect, Text

MM = 72 / 25.4  # points per millimetre
rl_config.useA85 = 0  # streams stay binary: smaller files, and no time spent encoding them


def define_form(canvas: Canvas, name: str, drawing: Drawing) -> None:
    """Record `drawing` as form `name`; its origin is the bleed box's lower left corner."""
    b = drawing.bleed
    canvas.beginForm(name, 0, 0, (drawing.width + 2 * b) * MM, (drawing.height + 2 * b) * MM)
    draw(canvas, drawing)
    canvas.endForm()


def draw(canvas: Canvas, drawing: Drawing) -> None:
    b, top = drawing.bleed, drawing.height + drawing.bleed

    def X(x):
        return (x + b) * MM

    def Y(y):
        return (top - y) * MM

    canvas.setLineJoin(1)
    canvas.setLineCap(1)
    for item in drawing.items:
        if isinstance(item, Text):
            canvas.setFillColorRGB(*(c / 255 for c in item.color))
            canvas.setFont(fonts.pdf_name(item.font), item.size)
            canvas.drawString(X(item.x), Y(item.y), item.text)
            continue
        fill = getattr(item, "fill", None)
        stroke = getattr(item, "stroke", None)
        if fill:
            canvas.setFillColorRGB(*(c / 255 for c in fill))
        if stroke:
            canvas.setStrokeColorRGB(*(c / 255 for c in stroke))
            canvas.setLineWidth(item.width * MM)
        if isinstance(item, Rect):
            x, y, w, h = X(item.x), Y(item.y + item.h), item.w * MM, item.h * MM
            if item.radius:
                canvas.roundRect(x, y, w, h, item.radius * MM, stroke=bool(stroke), fill=bool(fill))
            else:
                canvas.rect(x, y, w, h, stroke=bool(stroke), fill=bool(fill))
        elif isinstance(item, Ellipse):
            canvas.ellipse(X(item.cx - item.rx), Y(item.cy + item.ry), X(item.cx + item.rx), Y(item.cy - item.ry),
                           stroke=bool(stroke), fill=bool(fill))
        elif isinstance(item, Poly):
            path = canvas.beginPath()
            path.moveTo(X(item.points[0][0]), Y(item.points[0][1]))
            for px, py in item.points[1:]:
                path.lineTo(X(px), Y(py))
            if item.closed:
                path.close()
            canvas.drawPath(path, stroke=bool(stroke), fill=bool(fill) and item.closed)
        elif isinstance(item, Image):
            _image(canvas, item, X, Y)


def _image(canvas: Canvas, item: Image, X, Y) -> None:
    """The picture scaled to cover its box, cropped to it."""
    with PILImage.open(item.path) as im:
        iw, ih = im.size
    scale = max(item.w / iw, item.h / ih)
    w, h = iw * scale, ih * scale
    canvas.saveState()
    clip = canvas.beginPath()
    clip.rect(X(item.x), Y(item.y + item.h), item.w * MM, item.h * MM)
    canvas.clipPath(clip, stroke=0, fill=0)
    canvas.drawImage(item.path, X(item.x + (item.w - w) / 2), Y(item.y + (item.h + h) / 2), w * MM, h * MM)
    canvas.restoreState()
