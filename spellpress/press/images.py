"""Raster outputs: each card at 300 DPI with bleed, Tabletop Simulator deck sheets, the overview.

Tabletop Simulator (GUIDE section 2) takes a deck sheet of at most 10 x 7 cards and 4096 px a
side, whose last slot is the hidden card: so at most 69 cards a sheet. Cards there are trimmed,
409 x 572 px, which is poker's shape within the size limit.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from pathlib import Path

from PIL import Image as PILImage

from .displaylist import Drawing
from .files import atomic_write
from . import raster

TTS_COLS, TTS_ROWS, TTS_MAX_PX = 10, 7, 4096
TTS_CARD = (409, 572)  # trimmed poker in a 10 x 7 grid within 4096 x 4096
TTS_PER_SHEET = TTS_COLS * TTS_ROWS - 1  # the last slot shows the hidden card
OVERVIEW_CARD = (180, 252)


def png_bytes(image: PILImage.Image, *, level: int = 6) -> bytes:
    """PNG data. Lower zlib levels save faster for slightly larger files: a card at level 3
    saves in about half the time of level 6 for a file a fifth larger."""
    out = io.BytesIO()
    image.save(out, "PNG", compress_level=level)
    return out.getvalue()


@dataclass(frozen=True)
class RenderJob:
    """Draw one face: its print PNG (with bleed) and/or its trimmed thumbnail."""

    drawing: Drawing
    png: str | None  # where the 300 DPI image goes, or None
    thumb: str | None  # where the trimmed TTS-size image goes (and, beside it, the overview's)


    def run(self) -> None:
        """Runs in a worker process: everything it needs travels in the job."""
        if self.png:
            atomic_write(Path(self.png), png_bytes(raster.render(self.drawing), level=3))
        if self.thumb:
            dpi = TTS_CARD[0] / self.drawing.width * 25.4
            image = raster.render(self.drawing, dpi, bleed=False).resize(TTS_CARD, PILImage.LANCZOS)
            atomic_write(Path(self.thumb), png_bytes(image))
            atomic_write(small_thumb(Path(self.thumb)), png_bytes(image.resize(OVERVIEW_CARD, PILImage.LANCZOS)))


def small_thumb(thumb: Path) -> Path:
    return thumb.with_name(thumb.stem + "-small.png")


def tts_grid(n: int) -> tuple[int, int]:
    """Columns and rows for n cards plus the hidden-card slot."""
    cols = min(TTS_COLS, n + 1)
    return cols, math.ceil((n + 1) / cols)


def tts_sheet(thumbs: list[Path], hidden: Path) -> bytes:
    """Cards left to right, top to bottom; the hidden card in the grid's last slot."""
    cols, rows = tts_grid(len(thumbs))
    w, h = TTS_CARD
    sheet = PILImage.new("RGB", (cols * w, rows * h), (0, 0, 0))
    cache: dict[Path, PILImage.Image] = {}
    for i, path in enumerate(thumbs + [None] * (cols * rows - 1 - len(thumbs)) + [hidden]):
        if path is None:
            continue
        if path not in cache:
            cache[path] = PILImage.open(path).convert("RGB")
        sheet.paste(cache[path], ((i % cols) * w, (i // cols) * h))
    assert sheet.width <= TTS_MAX_PX and sheet.height <= TTS_MAX_PX
    return png_bytes(sheet, level=1)


def overview(rows_of_thumbs: list[list[Path]], background=(40, 36, 48)) -> bytes:
    """Every unique face small, a row per deck."""
    w, h = OVERVIEW_CARD
    gap = 12
    cols = max(1, min(10, max(len(r) for r in rows_of_thumbs)))
    lines = sum(math.ceil(len(r) / cols) for r in rows_of_thumbs)
    image = PILImage.new("RGB", (gap + cols * (w + gap), gap + lines * (h + gap)), background)
    line = 0
    for row in rows_of_thumbs:
        for i, path in enumerate(row):
            with PILImage.open(small_thumb(path)) as small:
                image.paste(small.convert("RGB"), (gap + (i % cols) * (w + gap), gap + (line + i // cols) * (h + gap)))
        line += math.ceil(len(row) / cols)
    return png_bytes(image, level=1)
