"""Drawing a display list with reportlab, as a reusable PDF form (one per unique card face)."""

from __future__ import annotations

import io
import zlib
from pathlib import Path
from typing import IO

from PIL import Image as PILImage
from reportlab import rl_config
from reportlab.pdfgen.canvas import FILL_EVEN_ODD, FILL_NON_ZERO, Canvas  # type: ignore[attr-defined]  # reportlab's, not in its stubs

from ..files import atomic_write
from . import art, displaylist, fonts, rlinternals
from .displaylist import Drawing, Ellipse, Image, Poly, Rect, Text

MM = 72 / 25.4  # points per millimetre
rl_config.useA85 = 0  # streams stay binary: smaller files, and no time spent encoding them


# Characters beyond ASCII that card text may use, given fixed codes in every PDF (see prepare).
EXTRA_CHARS = "·–—…‘’“”•×÷±°²³½¼¾€£©®™éèêëáàâäíìîïóòôöúùûüçñÉÈÁÀÖÜÇÑßæøåÆØÅ"
_STABLE = set(map(chr, range(32, 127))) | set(EXTRA_CHARS)
FORM_CODE_VERSION = f"2:{EXTRA_CHARS}"


def prepare(canvas: Canvas) -> None:
    """Give every character a card may use the same font subset and code in every document.

    reportlab numbers a TrueType font's characters in the order a document first uses them;
    naming ASCII and EXTRA_CHARS first, in a fixed order, makes a face's drawing operators the
    same in every PDF, so they can be cached on disk and reused (define_form's `cache`), and
    the fonts' embedded data is the same too, kept once made (rlinternals.remember_font_data).
    """
    rlinternals.remember_font_data()
    for font in fonts.FONTS:
        rlinternals.number_characters(canvas, fonts.registered(font), EXTRA_CHARS)


def warm() -> None:
    """Make the fonts' embedded data once in this process, before it forks its workers: each
    worker then starts with it made."""
    canvas = new_canvas(io.BytesIO())
    prepare(canvas)
    canvas.save()


def new_canvas(out: IO[bytes], pagesize: tuple[float, float] | None = None, page_compression: int | None = None) -> Canvas:
    """A canvas as every PDF of the press begins: invariant (no time or random id in the file), and
    its first font ours, embedded (else Helvetica, unembedded)."""
    return Canvas(out, pagesize=pagesize, invariant=1, pageCompression=page_compression,
                  initialFontName=fonts.pdf_name("regular"))  # type: ignore[arg-type]  # the stubs have it a float: a font's name


def define_form(canvas: Canvas, name: str, drawing: Drawing, cache: Path | None = None) -> bytes | None:
    """Record `drawing` as form `name`; its origin is the bleed box's lower left corner.

    With `cache` (a file for this face's content hash) the form's stream is read from it,
    compressed as the PDF holds it, when it exists, and written to it when drawn: a face then
    costs neither drawing nor compressing again. Faces with pictures or unusual characters are
    always drawn, since their operators name per-document resources. Returns the form's stream
    as the PDF holds it when it is cached (a function of the drawing alone), else None.
    """
    b = drawing.bleed
    canvas.beginForm(name, 0, 0, (drawing.width + 2 * b) * MM, (drawing.height + 2 * b) * MM)
    if cache is not None and not cacheable(drawing):
        cache = None
    stored = _read(cache) if cache is not None else None
    if stored is None:
        draw(canvas, drawing)
    canvas.endForm()
    if stored is None and cache is not None:
        # as reportlab would: compressed once, kept for next time
        stored = zlib.compress(rlinternals.form_operators(canvas, name))
        atomic_write(cache, stored)
    if stored is not None:
        rlinternals.set_form_operators(canvas, name, stored)
    return stored


def _read(cache: Path) -> bytes | None:
    try:
        return cache.read_bytes()
    except OSError:
        return None


def stable(text: str) -> bool:
    """Whether every character of `text` has the code prepare gives it, in any PDF."""
    return set(text) <= _STABLE


def cacheable(drawing: Drawing) -> bool:
    """Whether the drawing's form names no resource of its document (no picture, no character
    outside those every PDF numbers alike, no face but the package's), so that its stream can be
    kept and reused."""
    for item in drawing.items:
        if isinstance(item, Image) or (isinstance(item, Text) and (not set(item.text) <= _STABLE or fonts.own(item.font))):
            return False  # a game's own face is not numbered by prepare: its codes are its document's
    return True


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
            if item.turned:
                canvas.saveState()
                canvas.translate(X(item.x), Y(item.y))
                canvas.rotate(180)
                canvas.drawString(0, 0, item.text)
                canvas.restoreState()
            else:
                canvas.drawString(X(item.x), Y(item.y), item.text)
            continue
        if isinstance(item, Image):
            _image(canvas, item, X, Y)
            continue
        if isinstance(item, displaylist.Path):
            _path(canvas, item, X, Y)
            continue
        fill, stroke = item.fill, item.stroke
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


def _path(canvas: Canvas, item: displaylist.Path, X, Y) -> None:
    """The outline as PDF path operators, its curves as curves, filled by its rule and or stroked;
    cut to its clip box if it has one."""
    if item.clip is not None:
        canvas.saveState()
        cx, cy, cw, ch = item.clip
        box = canvas.beginPath()
        box.rect(X(cx), Y(cy + ch), cw * MM, ch * MM)
        canvas.clipPath(box, stroke=0, fill=0)
    fill = item.fill is not None and item.closed
    if item.fill is not None:
        canvas.setFillColorRGB(*(c / 255 for c in item.fill))
    if item.stroke is not None:
        canvas.setStrokeColorRGB(*(c / 255 for c in item.stroke))
        canvas.setLineWidth(item.width * MM)
    path = canvas.beginPath()
    for sub in item.subpaths:
        path.moveTo(X(sub[0][0]), Y(sub[0][1]))
        for seg in sub[1:]:
            if len(seg) == 2:
                path.lineTo(X(seg[0]), Y(seg[1]))
            else:
                path.curveTo(X(seg[0]), Y(seg[1]), X(seg[2]), Y(seg[3]), X(seg[4]), Y(seg[5]))
        if item.closed:
            path.close()
    canvas.drawPath(path, stroke=int(item.stroke is not None), fill=int(fill),
                    fillMode=FILL_EVEN_ODD if item.evenodd else FILL_NON_ZERO)
    if item.clip is not None:
        canvas.restoreState()


def _image(canvas: Canvas, item: Image, X, Y) -> None:
    """The picture placed in its box as its fit and focus say (art.place), cropped to the box."""
    with PILImage.open(item.path) as im:
        iw, ih = im.size
    ox, oy, w, h = art.place(iw, ih, item.w, item.h, item.fit, item.focus)
    canvas.saveState()
    clip = canvas.beginPath()
    clip.rect(X(item.x), Y(item.y + item.h), item.w * MM, item.h * MM)
    canvas.clipPath(clip, stroke=0, fill=0)
    canvas.drawImage(item.path, X(item.x + ox), Y(item.y + oy + h), w * MM, h * MM)
    canvas.restoreState()
