"""A card's picture file, checked before anything draws it.

Its path is confined to the game's directory (core/paths.py); here the file itself is looked at:
by the loader when a game has other problems (so that every problem is said at once), and by the
press before it draws. Its header is read first and says its size, so a picture past the
pixel budget is refused without being decoded (a PNG of a few kilobytes can claim 400 million
pixels, which would take gigabytes and minutes to open). One within the budget is decoded once,
so a file that does not decode is a problem naming the card, not a worker's traceback later.
"""

from __future__ import annotations

import functools
import math
import os
import warnings
from dataclasses import dataclass
from pathlib import Path

from PIL import Image as PILImage

from . import svgcheck

FORMATS = ("PNG", "JPEG", "WEBP")  # what a picture may be; Pillow reads many more, each a decoder to trust
MAX_PIXELS = 50_000_000  # width x height: a 48-megapixel photo passes; it decodes in a second or two
MAX_BYTES = 200 * 1024 * 1024  # a file is read whole to see whether it changed
PRINT_DPI = 300  # what a picture needs for its box to print sharp


class Refused(Exception):
    """A picture that cannot be drawn: the message says why and what would do."""


@dataclass(frozen=True)
class Picture:
    path: Path
    width: float  # pixels; an SVG's own units
    height: float
    vector: bool = False  # an SVG, drawn as vectors (core/svgcheck.py): sharp at any size

    def needed(self, w_mm: float, h_mm: float, fit: str = "cover") -> tuple[int, int] | None:
        """The pixels its box needs at PRINT_DPI, when the picture has fewer. Scaled to cover the
        box, it must be as wide and as tall as the box is at that resolution; scaled to be
        contained, it must fill the box's width or its height, so it is said in its own proportions."""
        if self.vector:
            return None
        box_w, box_h = w_mm / 25.4 * PRINT_DPI, h_mm / 25.4 * PRINT_DPI
        if fit == "contain":
            k = min(box_w / self.width, box_h / self.height)  # the enlargement it would be drawn at
            need = math.ceil(self.width * k - 1e-6), math.ceil(self.height * k - 1e-6)
        else:
            need = math.ceil(box_w - 1e-6), math.ceil(box_h - 1e-6)
        return need if self.width < need[0] or self.height < need[1] else None


def check(path: Path, decode: bool = True) -> Picture:
    """The picture at `path` (inside its game's directory, existing) with its size; Refused
    when it is not a regular file, is over a budget, is not a PNG, JPEG or WebP, or (`decode`)
    does not decode. Checked once per version of the file in a process. Without `decode`
    only its header is read: what the loader asks of a game that has other problems, whose
    pictures the press does not decode (a companion reloading a stranger's game never does)."""
    try:
        st = os.stat(path)
    except OSError as exc:
        raise Refused(f"cannot be read: {exc.strerror}") from None
    if not (st.st_mode & 0o170000 == 0o100000):  # a regular file: a pipe or a device would never end
        raise Refused("is not a regular file")
    found = _inspect(str(path), st.st_dev, st.st_ino, st.st_mtime_ns, st.st_size, decode)
    if isinstance(found, str):
        raise Refused(found)
    width, height, vector = found
    return Picture(path, width, height, vector)


@functools.lru_cache(maxsize=1024)
def _inspect(path: str, device: int, inode: int, mtime_ns: int, size: int, decode: bool) -> tuple[float, float, bool] | str:
    """The picture's width and height and whether it is an SVG, or why it is refused (kept like
    a size: a refused file is not decoded again until it changes)."""
    try:
        if _is_svg(path):
            return (*_svg(path, size), True)
        return (*_size(path, size, decode), False)
    except Refused as exc:
        return str(exc)


def _is_svg(path: str) -> bool:
    try:
        with open(path, "rb") as file:
            return svgcheck.looks_like_svg(file.read(64))
    except OSError:
        return False


def _svg(path: str, size: int) -> tuple[float, float]:
    """An SVG picture's size in its own units, once it is checked (svgcheck: what it may hold)."""
    if size > svgcheck.MAX_BYTES:
        raise Refused(f"is {size / 1024 / 1024:,.1f} MB; an SVG picture may be at most {svgcheck.MAX_BYTES // 1024 // 1024} MB")
    try:
        with open(path, "rb") as file:
            return svgcheck.check(file.read(svgcheck.MAX_BYTES + 1))
    except OSError as exc:
        raise Refused(f"cannot be read: {exc.strerror}") from None
    except svgcheck.Refused as exc:
        raise Refused(str(exc)) from None


def _size(path: str, size: int, decode: bool) -> tuple[int, int]:
    if size > MAX_BYTES:
        raise Refused(f"is {size / 1024 / 1024:,.0f} MB; a picture may be at most {MAX_BYTES // 1024 // 1024} MB")
    with warnings.catch_warnings():
        # Pillow warns of pictures over its own limit (about 89 Mpx) and refuses those over
        # twice it; ours is lower, and said in our words.
        warnings.simplefilter("ignore", PILImage.DecompressionBombWarning)
        try:
            with PILImage.open(path, formats=FORMATS) as image:  # reads the header only
                width, height = image.size
                if width * height > MAX_PIXELS:
                    raise Refused(_too_big(f"{width} x {height} px ({width * height / 1e6:,.0f} megapixels)"))
                if decode:
                    image.load()  # within the budget, this takes at most a second or so
        except PILImage.DecompressionBombError:
            raise Refused(_too_big(f"over {2 * (PILImage.MAX_IMAGE_PIXELS or 0) / 1e6:,.0f} megapixels")) from None
        except PILImage.UnidentifiedImageError:
            raise Refused(_not_ours(path)) from None
        except Refused:
            raise
        except OSError as exc:
            if exc.errno is not None:  # the file itself, not its contents: no permission, a disk error...
                raise Refused(f"cannot be read: {exc.strerror}") from None
            raise Refused(f"is damaged or cut short ({exc}); save it again as PNG or JPEG") from None
        except Exception as exc:  # Pillow's decoders raise OSError, SyntaxError, ValueError, EOFError...
            raise Refused(f"does not decode: {exc or type(exc).__name__}; save it again as PNG or JPEG") from None
    return width, height


# how other kinds of file start: named, so that a wrong one is said in plain words
_OTHERS = ((b"GIF8", "a GIF"), (b"BM", "a BMP"), (b"II*\x00", "a TIFF"), (b"MM\x00*", "a TIFF"), (b"%PDF", "a PDF"),
           (b"8BPS", "a Photoshop (PSD)"))


def _not_ours(path: str) -> str:
    """Why a file Pillow did not take for a PNG, JPEG or WebP is refused, from its first bytes."""
    try:
        with open(path, "rb") as file:
            start = file.read(16)
    except OSError as exc:
        return f"cannot be read: {exc.strerror}"
    if not start:
        return "is an empty file, not a picture"
    kind = next((name for magic, name in _OTHERS if start.startswith(magic)), None)
    if kind:
        return f"is {kind} file; a picture must be PNG, JPEG, WebP or SVG: save it as one of those"
    if start.startswith((b"\x89PNG", b"\xff\xd8", b"RIFF")):
        return "starts like a picture but its header is damaged; save it again as PNG or JPEG"
    return "is not a picture: a picture must be a PNG, JPEG, WebP or SVG file"


def _too_big(size: str) -> str:
    return (f"is {size}; a picture may have at most {MAX_PIXELS / 1e6:,.0f} megapixels (a whole card at "
            f"{PRINT_DPI} dpi is under 1): scale it down")
