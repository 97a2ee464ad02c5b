"""PNG images written as horizontal bands, each compressed on its own and cached.

A Tabletop Simulator sheet or the overview is rows of cards. Each row of cards is a band: its
pixel rows (PNG filter "none", which card art flat in colour compresses well with: smaller and
faster than Pillow's adaptive filters) go through a deflate stream of their own that ends on a
byte boundary (a sync flush), so the bands' compressed bytes simply follow one another in the
image's one zlib stream, and the stream's Adler-32 is combined from theirs. An edit to one card
then re-encodes one band; the others come from the cache, keyed by what is drawn in them. The
same input gives the same bytes whether a band was cached or not.
"""

from __future__ import annotations

import hashlib
import struct
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from PIL import Image as PILImage

from ..files import atomic_write
from ..model import libraries

LEVEL = 6
VERSION = b"band-1"  # bump when the encoding of a band changes
_ADLER_BASE = 65521
_FINAL_BLOCK = b"\x03\x00"  # an empty, final, fixed-Huffman deflate block
_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@dataclass(frozen=True)
class Band:
    data: bytes  # raw deflate, ending with a sync flush
    adler: int  # Adler-32 of the band's filtered rows
    size: int  # bytes of filtered rows


def encode(image: PILImage.Image) -> Band:
    """One band: an RGB image's rows, each behind PNG's filter byte 0."""
    raw, stride = image.tobytes(), image.width * 3
    rows = b"".join(b"\x00" + raw[i:i + stride] for i in range(0, len(raw), stride))
    packer = zlib.compressobj(LEVEL, zlib.DEFLATED, -15)
    return Band(packer.compress(rows) + packer.flush(zlib.Z_SYNC_FLUSH), zlib.adler32(rows), len(rows))


def adler32_combine(first: int, second: int, second_size: int) -> int:
    """The Adler-32 of two byte strings joined, from theirs (zlib's adler32_combine)."""
    rem = second_size % _ADLER_BASE
    sum1 = first & 0xFFFF
    sum2 = rem * sum1 % _ADLER_BASE
    sum1 = (sum1 + (second & 0xFFFF) + _ADLER_BASE - 1) % _ADLER_BASE
    sum2 = (sum2 + (first >> 16) + (second >> 16) + _ADLER_BASE - rem) % _ADLER_BASE
    return sum1 | sum2 << 16


def png(width: int, bands: Sequence[tuple[int, Band]], dpi: float) -> bytes:
    """An 8-bit RGB PNG of the bands (height, band), top to bottom, tagged with its resolution."""
    adler, height = 1, 0
    for rows, band in bands:
        adler = adler32_combine(adler, band.adler, band.size)
        height += rows
    stream = b"\x78\x9c" + b"".join(b.data for _, b in bands) + _FINAL_BLOCK + struct.pack(">I", adler)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (_SIGNATURE + _chunk(b"IHDR", header) + phys(dpi) + _chunk(b"IDAT", stream)
            + _chunk(b"IEND", b""))


def phys(dpi: float) -> bytes:
    """The pHYs chunk of a resolution: pixels a metre, as Pillow rounds them (300 dpi: 11811)."""
    per_metre = int(dpi / 0.0254 + 0.5)
    return _chunk(b"pHYs", struct.pack(">IIB", per_metre, per_metre, 1))


def with_phys(data: bytes, dpi: float) -> bytes:
    """A PNG's bytes with its pHYs chunk (any it had is replaced) saying `dpi`."""
    assert data.startswith(_SIGNATURE)
    out, at = [_SIGNATURE], len(_SIGNATURE)
    while at < len(data):
        size, kind = struct.unpack(">I4s", data[at:at + 8])
        end = at + 12 + size
        if kind != b"pHYs":
            out.append(data[at:end])
        if kind == b"IHDR":
            out.append(phys(dpi))
        at = end
    return b"".join(out)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))


def key(*parts: object) -> str:
    """A band's cache key: a hash of what draws it (its cards' content-hashed file names) and
    of the zlib that compresses it."""
    return hashlib.sha256(VERSION + f"{libraries.versions(('zlib',))}{parts!r}".encode()).hexdigest()[:40]


def file_name(key: str) -> str:
    return f"{key}.band"


class BandCache:
    """Compressed bands on disk, under the hash of what draws them."""

    def __init__(self, root: Path):
        self.root = root

    def get(self, key: str, draw: Callable[[], PILImage.Image]) -> Band:
        """The band cached under `key`, or `draw()` encoded (and cached)."""
        path = self.root / file_name(key)
        try:
            blob = path.read_bytes()
            adler, size, crc = struct.unpack(">IQI", blob[:16])
            if zlib.crc32(blob[16:]) == crc:
                return Band(blob[16:], adler, size)
        except (OSError, struct.error):
            pass  # not cached, or torn: drawn again
        band = encode(draw())
        atomic_write(path, struct.pack(">IQI", band.adler, band.size, zlib.crc32(band.data)) + band.data)
        return band
