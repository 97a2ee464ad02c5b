"""The fonts every card uses, and their metrics.

The Bitstream Vera TrueType fonts ship inside reportlab, so a fresh machine has them; the PDF
embeds them and Pillow rasterises the same files, so both outputs measure text alike.
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

import reportlab
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

_DIR = Path(reportlab.__file__).parent / "fonts"
FONTS = {
    "regular": _DIR / "Vera.ttf",
    "bold": _DIR / "VeraBd.ttf",
    "italic": _DIR / "VeraIt.ttf",
    "bold-italic": _DIR / "VeraBI.ttf",
}


def pdf_name(font: str) -> str:
    """The font's name in reportlab, registered on first use."""
    name = f"Spellpress-{font}"
    if name not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont(name, str(FONTS[font])))
    return name


def registered(font: str) -> TTFont:
    """The font as reportlab holds it, registered on first use (its getFont is typed for any Font)."""
    found = pdfmetrics.getFont(pdf_name(font))
    assert isinstance(found, TTFont)
    return found


def width(text: str, font: str, size: float) -> float:
    """Width of `text` in millimetres at `size` points."""
    return _unit_width(text, font) * size


@functools.lru_cache(maxsize=65536)
def _unit_width(text: str, font: str) -> float:
    """A TrueType string's width grows in proportion to its size: measure each once."""
    return pdfmetrics.stringWidth(text, pdf_name(font), 1.0) * 25.4 / 72


@functools.cache
def ascent(font: str) -> float:
    """The font's ascent as a fraction of its size."""
    return registered(font).face.ascent / 1000


@functools.cache
def fingerprint() -> str:
    """A hash of the font files, part of every card's content hash."""
    h = hashlib.sha256()
    for name, path in sorted(FONTS.items()):
        h.update(name.encode() + path.read_bytes())
    return h.hexdigest()
