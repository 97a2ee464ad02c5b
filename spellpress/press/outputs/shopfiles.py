"""A print shop's files (`--target`, model/shops.py): each face at the shop's size, as a PNG,
or every side of a deck as a CMYK JPEG in one PDF (separated for the shop's press: cmyk.py).
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from ..drawing.displaylist import Drawing
from ..files import atomic_write
from ..model.shops import Shop
from .cmyk import separate
from .images import png_bytes, shop_face


def jpeg_bytes(image, dpi: int) -> bytes:
    """JPEG at quality 100: at 95 its ringing beside sharp edges put up to 10 % more ink on a
    pixel than the separation did (a face within 236 % came back at 245 %); at 100, under 2 %."""
    out = io.BytesIO()
    image.save(out, "JPEG", quality=100, subsampling=0, dpi=(dpi, dpi))
    return out.getvalue()


def deck_pdf(pages: list[Path], shop: Shop, title: str) -> bytes:
    """One page a JPEG (a card's side), each the page's whole size: the JPEG's bytes go into
    the PDF as they are (reportlab passes a JPEG through), each picture once however often used."""
    w, h = (px / shop.dpi * 72 for px in shop.size_px)
    out = io.BytesIO()
    c = Canvas(out, pagesize=(w, h), invariant=1)
    c.setTitle(title)
    bleed = shop.bleed_px / shop.dpi * 72
    for page in pages:
        c.setTrimBox((bleed, bleed, w - bleed, h - bleed))
        c.setBleedBox((0, 0, w, h))
        c.drawImage(str(page), 0, 0, w, h)
        c.showPage()
    c.save()
    return out.getvalue()


# -- the jobs that make a shop's files, in a worker (see jobs.py)


@dataclass(frozen=True)
class FaceImage:
    """One face at the shop's size and bleed, as a PNG."""

    drawing: Drawing
    shop: Shop

    def __call__(self, shared: dict) -> bytes:
        return png_bytes(shop_face(self.drawing, self.shop), self.shop.dpi, level=3)


@dataclass(frozen=True)
class DeckPdf:
    """A deck's PDF: `pages` index `faces`, whose JPEGs are kept in the cache (`jpegs`), so a
    one-card edit draws that card's sides again and the rest are read back."""

    faces: tuple  # of displaylist.Drawing
    jpegs: tuple[str, ...]  # each face's JPEG in the cache
    pages: tuple[int, ...]
    shop: Shop
    title: str

    def __call__(self, shared: dict) -> bytes:
        for drawing, jpeg in zip(self.faces, self.jpegs):
            if not Path(jpeg).is_file():
                atomic_write(Path(jpeg), jpeg_bytes(separate(shop_face(drawing, self.shop), self.shop), self.shop.dpi))
        return deck_pdf([Path(self.jpegs[i]) for i in self.pages], self.shop, self.title)
