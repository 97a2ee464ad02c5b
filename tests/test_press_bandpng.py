"""Banded PNGs: valid files whose bytes do not depend on which bands came from the cache."""

from __future__ import annotations

import io
import random
import struct
import zlib

from PIL import Image

from spellpress.press.outputs import bandpng


def test_adler32_combine_matches_zlib():
    rng = random.Random(7)
    for _ in range(50):
        a = rng.randbytes(rng.randrange(0, 70_000))
        b = rng.randbytes(rng.randrange(0, 70_000))
        assert bandpng.adler32_combine(zlib.adler32(a), zlib.adler32(b), len(b)) == zlib.adler32(a + b)


def _picture(width: int, height: int, seed: int) -> Image.Image:
    rng = random.Random(seed)
    image = Image.new("RGB", (width, height), (rng.randrange(256), 40, 90))
    for _ in range(30):
        x, y = rng.randrange(width), rng.randrange(height)
        image.paste((rng.randrange(256), rng.randrange(256), rng.randrange(256)), (x, y, x + 9, y + 5))
    return image


def _idat(data: bytes) -> bytes:
    at, out = 8, b""
    while at < len(data):
        (size,), kind = struct.unpack(">I", data[at:at + 4]), data[at + 4:at + 8]
        body, crc = data[at + 8:at + 8 + size], data[at + 8 + size:at + 12 + size]
        assert struct.unpack(">I", crc)[0] == zlib.crc32(kind + body), kind
        out += body if kind == b"IDAT" else b""
        at += 12 + size
    return out


def test_bands_make_one_valid_png_with_the_pixels_of_the_whole(tmp_path):
    whole = Image.new("RGB", (37, 61))
    heights = [20, 1, 40]
    parts, y = [], 0
    for n, h in enumerate(heights):
        part = _picture(37, h, n)
        whole.paste(part, (0, y))
        parts.append((h, bandpng.encode(part)))
        y += h
    data = bandpng.png(37, parts, 300)
    rows = zlib.decompress(_idat(data))  # checks the stream's combined Adler-32 too
    assert len(rows) == 61 * (1 + 37 * 3)
    with Image.open(io.BytesIO(data)) as back:
        assert back.size == (37, 61) and back.mode == "RGB"
        assert back.tobytes() == whole.tobytes()
        assert [round(v, 2) for v in back.info["dpi"]] == [300, 300]  # pHYs: 11811 px/m


def test_with_phys_tags_a_png_once_and_keeps_its_pixels():
    out = io.BytesIO()
    _picture(20, 10, 4).save(out, "PNG", dpi=(72, 72))
    tagged = bandpng.with_phys(bandpng.with_phys(out.getvalue(), 163.6), 163.6)
    assert tagged.count(b"pHYs") == 1
    with Image.open(io.BytesIO(tagged)) as image, Image.open(out) as before:
        assert round(image.info["dpi"][0], 1) == 163.6 and image.tobytes() == before.tobytes()


def test_a_cached_band_gives_the_same_bytes_as_a_fresh_one(tmp_path):
    cache = bandpng.BandCache(tmp_path)
    drawn = []

    def draw(seed):
        drawn.append(seed)
        return _picture(50, 10, seed)

    first = bandpng.png(50, [(10, cache.get(bandpng.key(s), lambda s=s: draw(s))) for s in (1, 2, 3)], 300)
    again = bandpng.png(50, [(10, cache.get(bandpng.key(s), lambda s=s: draw(s))) for s in (1, 2, 3)], 300)
    assert drawn == [1, 2, 3] and first == again
    (tmp_path / bandpng.file_name(bandpng.key(2))).write_bytes(b"torn")  # damaged entries are drawn again
    entry = tmp_path / bandpng.file_name(bandpng.key(3))
    entry.write_bytes(entry.read_bytes()[:-1] + b"?")
    assert bandpng.png(50, [(10, cache.get(bandpng.key(s), lambda s=s: draw(s))) for s in (1, 2, 3)], 300) == first
    assert drawn == [1, 2, 3, 2, 3]
