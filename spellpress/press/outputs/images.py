"""Raster outputs: each card at 300 DPI with bleed, Tabletop Simulator deck sheets, the overview.

Tabletop Simulator (GUIDE section 2) takes a deck sheet of at most 10 x 7 cards and 4096 px a
side, whose last slot is the hidden card: so at most 69 cards a sheet. Cards there are trimmed,
in their own shape: 409 px wide (poker: 409 x 572 px), or 585 px high where a tall card would
pass 4096 px in seven rows (tarot: 341 x 585 px); the overview's cards are 180 px wide.

Every PNG says its resolution (pHYs), else tools take it for 72 dpi: the print shop's card
images 300 dpi; a TTS sheet and the overview cannot hold cards at 300 dpi, so they say the
density they have (409 px across a 63.5 mm poker card: 163.6 dpi; the overview's 180 px: 72).
"""

from __future__ import annotations

import functools
import io
import math
from dataclasses import replace
from pathlib import Path

from PIL import Image as PILImage
from PIL import ImageDraw, ImageFont

from ..drawing import fonts, raster
from ..drawing.displaylist import Drawing
from ..files import atomic_write
from . import bandpng

TTS_COLS, TTS_ROWS, TTS_MAX_PX = 10, 7, 4096
TTS_CARD = (409, 572)  # trimmed poker in a 10 x 7 grid within 4096 x 4096
TTS_CARD_MAX_H = TTS_MAX_PX // TTS_ROWS  # 585 px: seven rows of cards within 4096
TTS_PER_SHEET = TTS_COLS * TTS_ROWS - 1  # the last slot shows the hidden card
OVERVIEW_CARD = (180, 252)


PNG_VERSION = "pHYs-1"  # joins the PNG outputs' keys: bump when how they are written changes


def png_bytes(image: PILImage.Image, dpi: float, *, level: int = 6) -> bytes:
    """PNG data, tagged `dpi`. Lower zlib levels save faster for slightly larger files: a card
    at level 3 saves in about half the time of level 6 for a file a fifth larger."""
    out = io.BytesIO()
    image.save(out, "PNG", compress_level=level, dpi=(dpi, dpi))
    return out.getvalue()


def face_png(drawing: Drawing) -> bytes:
    """The face at 300 DPI with its bleed, for print shops."""
    return png_bytes(raster.render(drawing), raster.PRINT_DPI, level=3)


def tts_card(width: float, height: float) -> tuple[int, int]:
    """A card's pixels on a Tabletop Simulator sheet, for cards `width` x `height` mm: its own
    shape, 409 px wide, or 585 px high if that is less (ten across and seven down stay within
    4096 px)."""
    w, h = TTS_CARD[0], int(TTS_CARD[0] * height / width + 1e-6)
    if h > TTS_CARD_MAX_H:
        w, h = int(TTS_CARD_MAX_H * width / height + 1e-6), TTS_CARD_MAX_H
    return w, h


def overview_card(width: float, height: float) -> tuple[int, int]:
    """A card's pixels on the overview: 180 px wide, in its own shape."""
    return OVERVIEW_CARD[0], int(OVERVIEW_CARD[0] * height / width + 1e-6)


def tts_dpi(card_width: float, card_height: float = 0.0) -> float:
    """The resolution of a card (its size in mm) on a Tabletop Simulator sheet."""
    return tts_card(card_width, card_height or card_width * TTS_CARD[1] / TTS_CARD[0])[0] / card_width * 25.4


def overview_dpi(card_width: float) -> float:
    return OVERVIEW_CARD[0] / card_width * 25.4


def thumbnails(drawing: Drawing, thumb: Path) -> None:
    """The face trimmed at Tabletop Simulator's size into `thumb`, and the overview's beside it:
    what the TTS sheets and the overview are made of."""
    dpi = tts_dpi(drawing.width, drawing.height)
    image = raster.render(drawing, dpi, bleed=False).resize(tts_card(drawing.width, drawing.height), PILImage.Resampling.LANCZOS)
    atomic_write(thumb, png_bytes(image, dpi))
    atomic_write(small_thumb(thumb), png_bytes(image.resize(overview_card(drawing.width, drawing.height), PILImage.Resampling.LANCZOS),
                                               overview_dpi(drawing.width)))


def tagged_copy(source: Path, dpi: float) -> bytes:
    """A PNG's bytes, tagged `dpi` (a thumbnail cached before PNGs were tagged is not)."""
    return bandpng.with_phys(source.read_bytes(), dpi)


def small_thumb(thumb: Path) -> Path:
    return thumb.with_name(thumb.stem + "-small.png")


def tts_grid(n: int) -> tuple[int, int]:
    """Columns and rows for n cards plus the hidden-card slot."""
    cols = min(TTS_COLS, n + 1)
    return cols, math.ceil((n + 1) / cols)


def tts_bands(thumbs: list[Path], hidden: Path, card: tuple[int, int] = TTS_CARD) -> list[tuple[str, list[Path | None]]]:
    """A sheet's rows of cards (`card` px each, tts_card), each with its band's cache key: cards
    left to right, top to bottom, the hidden card in the grid's last slot."""
    cols, rows = tts_grid(len(thumbs))
    assert cols * card[0] <= TTS_MAX_PX and rows * card[1] <= TTS_MAX_PX
    slots = thumbs + [None] * (cols * rows - 1 - len(thumbs)) + [hidden]
    lines = [slots[r * cols:(r + 1) * cols] for r in range(rows)]
    return [(bandpng.key("tts", card, [p.name if p else None for p in line]), line) for line in lines]


def tts_sheet(thumbs: list[Path], hidden: Path, bands: Path, dpi: float, card: tuple[int, int] = TTS_CARD) -> bytes:
    cache = bandpng.BandCache(bands)
    out = [(card[1], cache.get(key, functools.partial(_tts_row, line, card))) for key, line in tts_bands(thumbs, hidden, card)]
    return bandpng.png(tts_grid(len(thumbs))[0] * card[0], out, dpi)


def _tts_row(row: list[Path | None], card: tuple[int, int] = TTS_CARD) -> PILImage.Image:
    w, h = card
    band = PILImage.new("RGB", (len(row) * w, h), (0, 0, 0))
    for i, path in enumerate(row):
        if path is not None:
            with PILImage.open(path) as thumb:
                band.paste(thumb.convert("RGB"), (i * w, 0))
    return band


OVERVIEW_GAP = 12
OVERVIEW_COUNT = 28  # px under a line of cards for their copies ('×3')
OVERVIEW_BACKGROUND = (40, 36, 48)


Counts = list[list[int]]  # beside each row of thumbnails: each card's copies, 0 for none shown (a back)


def overview_bands(rows_of_thumbs: list[list[Path]], counts: Counts | None = None, card: tuple[int, int] = OVERVIEW_CARD
                   ) -> tuple[int, list[tuple[str, int, list[tuple[Path, int]]]]]:
    """The overview's width, and its lines of cards (a deck's row wrapped at ten), each card
    with the copies to show on it (`counts`: the cards' identity), each line with its band's
    cache key and height: a gap above each line, and below the last. `card`: a card's pixels (overview_card)."""
    w, h, gap = *card, OVERVIEW_GAP
    cols = max(1, min(10, max(len(r) for r in rows_of_thumbs)))
    cells = [list(zip(row, numbers)) for row, numbers in zip(rows_of_thumbs, counts or [[0] * len(r) for r in rows_of_thumbs])]
    lines = [row[i:i + cols] for row in cells for i in range(0, len(row), cols)]
    width = gap + cols * (w + gap)
    out = []
    for n, line in enumerate(lines):
        shown = [[c for _, c in line]] if any(c for _, c in line) else []  # a line without counts keeps its old key
        height = h + gap + (gap if n == len(lines) - 1 else 0) + (OVERVIEW_COUNT if shown else 0)
        out.append((bandpng.key("overview", width, height, card, OVERVIEW_BACKGROUND, [p.name for p, _ in line],
                                *shown), height, line))
    return width, out


def overview(rows_of_thumbs: list[list[Path]], bands: Path, dpi: float, counts: Counts | None = None,
             card: tuple[int, int] = OVERVIEW_CARD) -> bytes:
    """Every unique face small, a row per deck; on each card its copies ('×3') if counts are given."""
    width, lines = overview_bands(rows_of_thumbs, counts, card)
    cache = bandpng.BandCache(bands)
    out = [(height, cache.get(key, functools.partial(_overview_line, line, width, height, card)))
           for key, height, line in lines]
    return bandpng.png(width, out, dpi)


def _overview_line(line: list[tuple[Path, int]], width: int, height: int,
                   card: tuple[int, int] = OVERVIEW_CARD) -> PILImage.Image:
    w, h = card
    gap = OVERVIEW_GAP
    band = PILImage.new("RGB", (width, height), OVERVIEW_BACKGROUND)
    draw = ImageDraw.Draw(band)
    font = ImageFont.truetype(str(fonts.FONTS["bold"]), size=22)
    for i, (path, count) in enumerate(line):
        x = gap + i * (w + gap)
        with PILImage.open(small_thumb(path)) as small:
            band.paste(small.convert("RGB"), (x, gap))
        if count:  # the copies, under the card
            text = f"×{count}"
            draw.text((x + (w - draw.textlength(text, font=font)) / 2, gap + h + 2), text, font=font, fill=(236, 230, 214))
    return band


def shop_face(drawing: Drawing, shop) -> PILImage.Image:
    """The face at a print shop's resolution and bleed (model/shops.py): the trim where the shop puts
    it, the picture's own bleed cut down to the shop's (shops.misfit says when it cannot be)."""
    return raster.render(replace(drawing, bleed=shop.bleed_mm), shop.dpi)
