"""What makes each file of a build, in a worker process.

A job is a small picklable value with `run(shared)`; `shared` is what the build handed its
workers when they forked (see workers.py). An output's job is `Write`: a maker of its bytes,
written whole.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..drawing import playmat, rulebook, sheets
from ..drawing.displaylist import Drawing
from ..files import atomic_write
from . import images


@dataclass(frozen=True)
class Write:
    """An output: its bytes, made by `make`, written whole to `path`."""

    path: str
    make: Callable[[dict], bytes]  # one of the makers below

    def run(self, shared: dict) -> None:
        atomic_write(Path(self.path), self.make(shared))


@dataclass(frozen=True)
class Thumbnails:
    """A face's thumbnails in the cache, which the TTS sheets and the overview are made of."""

    drawing: Drawing
    path: str

    def run(self, shared: dict) -> None:
        images.thumbnails(self.drawing, Path(self.path))


# -- makers of an output's bytes


@dataclass(frozen=True)
class SheetsPdf:
    """One PDF of card sheets."""

    layout: str  # 'duplex', 'fold', 'printshop' or 'nine' (Letter 3 x 3 duplex)
    paper: str
    cards: str  # the key of the game's sheet cards in what the build shared
    size: tuple[float, float, float]
    title: str
    back_offset: tuple[float, float]
    cache: str  # the directory of faces' cached PDF operators
    command: str  # the command that builds these sheets again, for the calibration page to quote
    listed: tuple = ()  # the checklist after the sheets (sheets.Listed): none when identity is off
    version: str = ""  # the game's version, on the checklist
    skeleton: str = ""  # where its skeleton is kept (skeleton.py), named by all but its faces' forms

    def __call__(self, shared: dict) -> bytes:
        cards, cache = shared[self.cards], Path(self.cache)
        keep = Path(self.skeleton) if self.skeleton else None
        if keep is not None:
            data = sheets.refill(keep, cards, cache)
            if data is not None:
                return data
        if self.layout == "printshop":
            return sheets.printshop_pdf(cards, self.size, self.title, cache, keep)
        # each size of card its own sheet (listing.py plans no file where a size has none), with
        # gutters where cards of that size differ at their edges (sheets.apart)
        apart = sheets.apart_by_size(cards)
        planned = {size: sheets.sheet_for(self.layout, self.paper, *size, apart=apart.get(size, False))
                   for size in dict.fromkeys([self.size, *map(sheets.size_of, cards)])}
        by_size = {size: sheet for size, sheet in planned.items() if sheet is not None}
        missing = [size for size in planned if size not in by_size]
        if missing:
            raise ValueError(f"no {self.layout} sheet of {missing[0][0]:g} x {missing[0][1]:g} mm cards on {self.paper}")
        sheet = by_size[self.size]
        if self.layout == "fold":
            return sheets.fold_pdf(cards, sheet, self.title, cache, self.listed, self.version, keep, by_size)
        return sheets.duplex_pdf(cards, sheet, self.title, self.back_offset, cache, self.command, self.listed,
                                 self.version, keep, by_size)


@dataclass(frozen=True)
class RulebookPdf:
    book: rulebook.Book
    paper: str
    booklet: bool
    contents: str  # where the contents page's entries are kept between builds
    skeleton: str = ""  # where its skeleton is kept (rulebook.pdf's `keep`)

    def __call__(self, shared: dict) -> bytes:
        data = rulebook.pdf(self.book, self.paper, booklet=self.booklet, contents=Path(self.contents),
                            keep=Path(self.skeleton) if self.skeleton else None)
        return rulebook.impose(data, self.paper) if self.booklet else data


@dataclass(frozen=True)
class PlaymatPdf:
    mat: playmat.Mat
    paper: str  # '' for the full-size mat

    def __call__(self, shared: dict) -> bytes:
        return playmat.tiled_pdf(self.mat, self.paper) if self.paper else playmat.full_pdf(self.mat)


@dataclass(frozen=True)
class FacePng:
    drawing: Drawing

    def __call__(self, shared: dict) -> bytes:
        return images.face_png(self.drawing)


@dataclass(frozen=True)
class Composed:
    """An image made of images drawn before it, by a function of module scope (which a worker
    can be sent)."""

    make: Callable[..., bytes]
    args: tuple

    def __call__(self, shared: dict) -> bytes:
        return self.make(*self.args)


@dataclass(frozen=True)
class Given:
    """Bytes known when the build is planned."""

    data: bytes

    def __call__(self, shared: dict) -> bytes:
        return self.data
