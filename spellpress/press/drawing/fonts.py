"""The faces every card uses, and their metrics.

A face is named by a *key*. The package's faces (spellpress/defaults/fonts/, under the SIL Open
Font License) are keyed by their role, the name a layout's `font:` gives: 'display' (Cinzel, for
titles) and the text face in 'regular', 'bold', 'italic' and 'bold-italic' (Literata). A game
that names its own files in game.yaml (`fonts:`) has them keyed by their resolved path and a
digest of their bytes (`faces`), so that a face edited on disk is a new key: every measure and
every content hash made with the old one is left behind. The PDF embeds a subset of each face
it uses and Pillow rasterises the same file, and the layout measures every word with these
metrics, so both outputs set text alike.
"""

from __future__ import annotations

import functools
import hashlib
import os
from collections.abc import Mapping
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from ... import defaults
from . import rlinternals

_DIR = defaults.FONTS
FONTS = {
    "regular": _DIR / "Literata-Regular.ttf",
    "bold": _DIR / "Literata-Bold.ttf",
    "italic": _DIR / "Literata-Italic.ttf",
    "bold-italic": _DIR / "Literata-BoldItalic.ttf",
    "display": _DIR / "Cinzel-Bold.ttf",
}
ROLES = tuple(FONTS)  # what a layout's `font:` and game.yaml's `fonts:` name (core.models.FONT_ROLES): one face each
# the package's faces as the rulebook's credits name them (spellpress/defaults/fonts/CREDITS.md)
CREDITS = {"display": "Cinzel by Natanael Gama", "text": "Literata by TypeTogether"}
OFL_URL = "https://openfontlicense.org"


class Unreadable(Exception):
    """A font file reportlab cannot read or embed: the message says why."""


def path(font: str) -> Path:
    """The file of a face, by its key."""
    return FONTS[font] if font in FONTS else Path(font.rpartition("#")[0] or font)


def own(font: str) -> bool:
    """Whether the key names a game's own file rather than a face of the package."""
    return font not in FONTS


def faces(own_files: Mapping[str, Path]) -> dict[str, str]:
    """Each role's key for a game that names `own_files` (role -> file, game.yaml's `fonts:`):
    its own file where it names one, else the package's face."""
    out = {}
    for role in ROLES:
        if role in own_files:
            file = Path(own_files[role]).resolve()
            st = os.stat(file)
            out[role] = f"{file}#{_digest(str(file), st.st_mtime_ns, st.st_size)[:16]}"
        else:
            out[role] = role
    return out


def pdf_name(font: str) -> str:
    """The face's name in reportlab, registered on first use."""
    name = f"Spellpress-{font}" if font in FONTS else f"Spellpress-own-{hashlib.sha256(font.encode()).hexdigest()[:16]}"
    if name not in pdfmetrics.getRegisteredFontNames():
        try:
            pdfmetrics.registerFont(TTFont(name, str(path(font))))
        except Exception as exc:  # reportlab's TTFError, or a struct or index error on a damaged file
            raise Unreadable(_why(exc)) from None
    return name


def _why(exc: Exception) -> str:
    text = str(exc)
    if "postscript outlines" in text.lower():
        return "holds PostScript (CFF) outlines, which the PDF writer cannot embed"
    if "subsetting/embedding" in text:
        return "does not allow embedding (its licence flags forbid it)"
    return f"cannot be read as a TrueType font ({text.strip() or type(exc).__name__})"


def registered(font: str) -> TTFont:
    """The face as reportlab holds it, registered on first use (its getFont is typed for any Font)."""
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


ASCENDERS, DESCENDERS = "bdfhklHT", "gjpqy"  # the letters whose ink sets a line's height


@functools.cache
def ascent(font: str) -> float:
    """How far the face's letters reach above the baseline, as a share of its size: the tallest
    of its capitals and ascenders. Not the ascent its header gives, which many faces make room
    for stacked accents in (Literata's is 1.18, its 'd' 0.77 tall): a line is placed by the ink
    of its letters, so that a box's text sits where its layout says whatever its face."""
    heights = rlinternals.glyph_heights(registered(font), ASCENDERS)
    return max(top for _, top in heights) if heights else registered(font).face.ascent / 1000


@functools.cache
def descent(font: str) -> float:
    """How far the face's letters reach below the baseline, as a share of its size: its deepest
    descender (0 for a face of capitals and small capitals, as Cinzel)."""
    heights = rlinternals.glyph_heights(registered(font), DESCENDERS)
    return max([0.0] + [-bottom for bottom, _ in heights]) if heights else -registered(font).face.descent / 1000


@functools.cache
def characters(font: str) -> frozenset[str]:
    """Every character the face has a glyph for."""
    return frozenset(map(chr, registered(font).face.charToGlyph))


def missing(text: str, font: str) -> set[str]:
    """The characters of `text` (but line breaks) that the face has no glyph for: they would
    print as its empty box."""
    return set(text) - characters(font) - {"\n"}


def name(font: str) -> str:
    """The face's own full name, as its file gives it ('Literata Regular')."""
    full = getattr(registered(font).face, "fullName", b"") or b""
    return (full.decode("latin-1") if isinstance(full, bytes) else str(full)) or path(font).stem


@functools.cache
def fingerprint() -> str:
    """A hash of the package's font files, part of every card's content hash."""
    h = hashlib.sha256()
    for role, file in sorted(FONTS.items()):
        h.update(role.encode() + file.read_bytes())
    return h.hexdigest()


@functools.lru_cache(maxsize=64)
def _digest(file: str, mtime_ns: int, size: int) -> str:
    """A hash of a font file's bytes, made again only when the file changes."""
    return hashlib.sha256(Path(file).read_bytes()).hexdigest()
