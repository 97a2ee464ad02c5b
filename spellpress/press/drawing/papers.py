"""The papers the home sheets are laid out for, and the grid of cards each paper takes.

A grid keeps, beside it on every side, the cards' outer bleed, crop marks (GUIDE section 2: at
least 5 mm long, starting 1 mm beyond the bleed) and the home printer's unprintable edge
(6.35 mm): 15.525 mm with 1/8 in bleed. Of the grids that leave that room, upright on a
portrait or a landscape page, the sheets take the one of most cards (the landscape page when
both hold as many). Cards keep their own way up: a landscape card is simply a wide size.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Paper:
    name: str
    width: float  # mm, portrait
    height: float


PAPERS = {"a4": Paper("A4", 210.0, 297.0), "letter": Paper("Letter", 215.9, 279.4)}
PAPER_NAMES = tuple(PAPERS)
UNPRINTABLE = 6.35  # a home printer's unprintable edge, mm (GUIDE section 2)
MARK_GAP = 1.0  # crop marks start this far beyond the bleed, mm
MARK_LENGTH = 5.0  # and are this long, mm


@dataclass(frozen=True)
class Grid:
    cols: int
    rows: int
    landscape: bool
    fold: str = ""  # fold sheets: 'columns' (a fold between the column halves) or 'rows'
    # a grid for a printer that reaches this near the paper's edge (mm), where the margins are
    # too narrow for the full bleed and marks: the outer bleed shrinks, and then the marks
    reach: float | None = None


def margin(bleed: float) -> float:
    """The room a grid needs beside it on every side, mm: bleed, the marks' gap and length,
    and the printer's unprintable edge."""
    return bleed + MARK_GAP + MARK_LENGTH + UNPRINTABLE


def room(paper: Paper, landscape: bool, bleed: float) -> tuple[float, float]:
    """The width and height, mm, that a grid of cards may fill on the paper turned this way."""
    w, h = (paper.height, paper.width) if landscape else (paper.width, paper.height)
    return w - 2 * margin(bleed), h - 2 * margin(bleed)


def _count(length: float, card: float) -> int:
    return max(0, math.floor(length / card + 1e-9))


def grids(paper: Paper, width: float, height: float, bleed: float) -> list[Grid]:
    """The largest grid of cards `width` x `height` mm on each way of the paper, landscape first."""
    out = []
    for landscape in (True, False):
        across, down = room(paper, landscape, bleed)
        out.append(Grid(_count(across, width), _count(down, height), landscape))
    return out


def duplex_grid(paper: Paper, width: float, height: float, bleed: float) -> Grid | None:
    """The grid of most cards on the paper (landscape when both ways hold as many); None when
    not one card fits."""
    best = max(grids(paper, width, height, bleed), key=lambda g: g.cols * g.rows)  # max keeps the first of equals
    return best if best.cols * best.rows else None


def fold_grid(paper: Paper, width: float, height: float, bleed: float) -> Grid | None:
    """The grid of most cards folded: its fronts in one half, the backs in the other, so an even
    number of columns (folded between the halves) or of rows; None when a sheet cannot hold a
    front beside its back. Equals: landscape first, then a fold between columns."""
    options = []
    for g in grids(paper, width, height, bleed):
        options.append(Grid(g.cols - g.cols % 2, g.rows, g.landscape, "columns"))
        options.append(Grid(g.cols, g.rows - g.rows % 2, g.landscape, "rows"))
    best = max(options, key=lambda g: g.cols * g.rows)
    return best if best.cols * best.rows else None


def largest(paper: Paper, bleed: float) -> tuple[float, float]:
    """The largest card, mm (upright on a portrait page, or turned), one sheet of the paper holds."""
    return room(paper, False, bleed)


def misfit(width: float, height: float, bleed: float) -> str:
    """'' if cards of this size fit every paper; else a sentence saying what fits."""
    missing = [p for p in PAPERS.values() if duplex_grid(p, width, height, bleed) is None]
    if not missing:
        return ""
    most = "; ".join(f"{p.name} holds at most {largest(p, bleed)[0]:g} x {largest(p, bleed)[1]:g} mm (or "
                     f"{largest(p, bleed)[1]:g} x {largest(p, bleed)[0]:g})" for p in missing)
    return (f"cards of {width:g} x {height:g} mm do not fit on {' or '.join(p.name for p in missing)}: with "
            f"{bleed:g} mm of bleed and crop marks a card needs {margin(bleed):g} mm of paper beside it on every side; "
            f"{most}")
