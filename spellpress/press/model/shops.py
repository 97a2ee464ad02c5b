"""Print shops as build targets (`--target mpc|tgc|dtc`): their numbers, from shops.yaml.

A shop's files are the faces drawn again at its pixel size and bleed (the layouts keep text
1/8 in inside the trim, the safe zone of every shop here), named as it takes them, with an
`order.txt` that says which file to upload where and how many of each. The command line reads
this module for the shops' names, so what draws (Pillow, reportlab) is imported when it draws.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

import yaml

DATA = Path(__file__).with_name("shops.yaml")
HOME = "home"  # the plain build: sheets and card images (no shop)


@dataclass(frozen=True)
class Shop:
    key: str  # its --target name
    name: str
    upload: str
    dpi: int
    size_px: tuple[int, int]
    bleed_px: float
    safe_px: float
    colour: str  # 'RGB' or 'CMYK'
    format: str  # 'png' or 'pdf'
    files: dict[str, str]
    max_ink: int = 0  # CMYK only: the most total ink, per cent

    @property
    def bleed_mm(self) -> float:
        return self.bleed_px / self.dpi * 25.4

    @property
    def trim_px(self) -> tuple[float, float]:
        return self.size_px[0] - 2 * self.bleed_px, self.size_px[1] - 2 * self.bleed_px

    @property
    def fingerprint(self) -> str:
        """What of the shop shapes its files: joins their keys."""
        return repr((self.dpi, self.size_px, self.bleed_px, self.colour, self.format, self.max_ink))


def _load() -> dict[str, Shop]:
    data = yaml.safe_load(DATA.read_text(encoding="utf-8"))
    return {key: Shop(key=key, **{**spec, "size_px": tuple(spec["size_px"])}) for key, spec in data.items()}


SHOPS = _load()
TARGETS = (HOME, *SHOPS)


def misfit(shop: Shop, drawing) -> str | None:
    """Why the shop cannot take this face as laid out (another size of card, too little bleed),
    or None."""
    w, h = ((drawing.width + 2 * shop.bleed_mm) * shop.dpi / 25.4, (drawing.height + 2 * shop.bleed_mm) * shop.dpi / 25.4)
    if shop.bleed_mm > drawing.bleed + 1e-9:
        return f"{shop.name} wants {shop.bleed_mm:.2f} mm of bleed; the layout draws {drawing.bleed:g} mm"
    if (round(w), round(h)) != shop.size_px:
        tw, th = (px / shop.dpi * 25.4 for px in shop.trim_px)
        return (f"{shop.name}'s product here (shops.yaml) is {tw:.1f} x {th:.1f} mm cards, {shop.size_px[0]} x "
                f"{shop.size_px[1]} px ({shop.dpi} dpi with bleed); these cards, {drawing.width:g} x {drawing.height:g} mm, "
                f"come to {w:.0f} x {h:.0f} px: shops.yaml lists no product of that size for it")
    return None


def file_name(pattern: str, deck: str, n: int = 0, card: str = "") -> str:
    return pattern.format(deck=deck, n=n, card=card)


def cmyk(image):
    """An RGB image in CMYK with full grey replacement: K = 1 - max(R, G, B), and each of C, M, Y
    what is left of its complement. One of C, M, Y is then always 0, so the total ink is at most
    200 %, within any shop's limit; a grey prints with black ink alone."""
    from PIL import Image, ImageChops

    r, g, b = image.convert("RGB").split()
    top = ImageChops.lighter(ImageChops.lighter(r, g), b)  # max(R, G, B)
    k = ImageChops.invert(top)
    c, m, y = (ImageChops.subtract(top, channel) for channel in (r, g, b))  # (1 - R) - K = max - R
    return Image.merge("CMYK", (c, m, y, k))


def jpeg_bytes(image, dpi: int) -> bytes:
    out = io.BytesIO()
    image.save(out, "JPEG", quality=95, subsampling=0, dpi=(dpi, dpi))
    return out.getvalue()


def deck_pdf(pages: list[Path], shop: Shop, title: str) -> bytes:
    """One page a JPEG (a card's side), each the page's whole size: the JPEG's bytes go into
    the PDF as they are (reportlab passes a JPEG through), each picture once however often used."""
    from reportlab.pdfgen.canvas import Canvas

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

    drawing: object  # displaylist.Drawing
    shop: Shop

    def __call__(self, shared: dict) -> bytes:
        from ..outputs.images import png_bytes, shop_face

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
        from ..files import atomic_write
        from ..outputs.images import shop_face

        for drawing, jpeg in zip(self.faces, self.jpegs):
            if not Path(jpeg).is_file():
                atomic_write(Path(jpeg), jpeg_bytes(cmyk(shop_face(drawing, self.shop)), self.shop.dpi))
        return deck_pdf([Path(self.jpegs[i]) for i in self.pages], self.shop, self.title)
