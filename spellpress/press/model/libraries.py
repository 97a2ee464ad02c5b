"""The libraries that draw the outputs, and their versions: part of every output's digest.

A new Pillow may resample or compress an image differently, a new reportlab may write another
PDF: so an output counts as current only if the versions of the libraries that draw it are
those it was drawn with. Each version is read from the module the build draws with (pypdf's
from its installed metadata: importing it only to ask would cost a booklet-less build 0.15 s).
"""

from __future__ import annotations

import zlib
from collections.abc import Callable

import PIL
import reportlab
from PIL import features

try:
    import _rl_accel as accelerator
except ImportError:  # reportlab runs without its C accelerator
    accelerator = None


def _reportlab() -> str:
    return reportlab.Version


def _rl_accel() -> str:
    """reportlab's C accelerator, which formats the numbers in every PDF when it is there."""
    return "absent" if accelerator is None else accelerator.version


def _pillow() -> str:
    return PIL.__version__


def _pillow_zlib() -> str:
    """The zlib Pillow compresses PNGs with (zlib-ng, where Pillow has it, takes over)."""
    return f"{features.version('zlib')} ng {features.version('zlib_ng')}"


def _installed(distribution: str) -> str:
    from importlib import metadata  # imported here: 0.06 s to import, and only builds that impose booklets ask

    return metadata.version(distribution)


READERS: dict[str, Callable[[], str]] = {
    "reportlab": _reportlab,
    "rl_accel": _rl_accel,
    "Pillow": _pillow,
    "Pillow's zlib": _pillow_zlib,
    "zlib": lambda: zlib.ZLIB_RUNTIME_VERSION,  # Python's: reportlab's streams, the banded PNGs
    "pypdf": lambda: _installed("pypdf"),
}

RASTER = ("Pillow", "Pillow's zlib")  # a face's images: drawn by Pillow, compressed by its zlib
BANDED = (*RASTER, "zlib")  # sheets of those images, compressed band by band by Python's zlib
PDF = ("reportlab", "rl_accel", "zlib", "Pillow")  # Pillow reads the cards' pictures for reportlab
IMPOSED = (*PDF, "pypdf")  # a PDF's pages rearranged by pypdf: the rulebook booklets


def versions(names: tuple[str, ...]) -> str:
    """'reportlab 5.1.0, Pillow 13.0.0, ...' for the libraries named."""
    return ", ".join(f"{name} {READERS[name]()}" for name in names)
