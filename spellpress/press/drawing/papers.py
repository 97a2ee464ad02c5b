"""The papers the home sheets are laid out for, and the grid of cards each paper takes.

A grid keeps, beside it on every side, the cards' outer bleed, crop marks (GUIDE section 2: at
least 5 mm long, starting 1 mm beyond the bleed) and the home printer's unprintable edge
(6.35 mm): 15.525 mm with 1/8 in bleed. Of the grids that leave that room, upright on a
portrait or a landscape page, the sheets take the one of most cards (the landscape page when
both hold as many). Cards keep their own way up: a landscape card is simply a wide size.

Cards whose edges differ in colour (edges.py) do not share a cut: a gutter of twice the bleed
lies between neighbours, each card's own bleed filling its half, so a cut 1 mm off its line
shows the card's own colours, not its neighbour's. A fold sheet's fronts and backs never share
a cut: between them lies the fold's gap, each side's bleed reaching the fold line from its own
side (see fold_reach).
"""

from __future__ import annotations

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
# a fold sheet folded this far off its line still shows, once glued and cut along the fronts'
# marks, each side only its own colours (see fold_reach), mm. Half the 1/8 in bleed: each side's
# print then reaches its bleed beyond its cut line, the fold line 6.35 mm from the nearer cut
# line of the other side, and Letter keeps 3 poker cards a fold sheet (2 x 88.9 + 6.35 =
# 184.15 of the 184.85 mm beside the margins, folded between the rows; 2.0 mm made the gap 8 mm
# and the sheet 2 cards). The issue asked for 1 mm; any value up to 1.7625 would keep the 3.
MISFOLD = 1.5875


@dataclass(frozen=True)
class Grid:
    cols: int
    rows: int
    landscape: bool
    fold: str = ""  # fold sheets: 'columns' (a fold between the column halves) or 'rows'
    # a grid for a printer that reaches this near the paper's edge (mm), where the margins are
    # too narrow for the full bleed and marks: the outer bleed shrinks, and then the marks
    reach: float | None = None
    gutter: float = 0.0  # between neighbouring cards, mm: 0 (one cut between two) or twice the bleed
    fold_gap: float = 0.0  # fold sheets: between the fronts' half and the backs', mm, the fold in its middle


def fold_reach(bleed: float) -> float:
    """How far each side's print reaches beyond its cut line towards the fold, mm: to the fold
    line, which is this far from both sides' cut lines. Folded `d` mm off the line, the back
    lies 2d mm off its front (the fold mirrors it), so after the cut along the fronts' marks
    the back's edge at the fold shows its own print up to 2d mm beyond its cut line: 2 x
    MISFOLD, and never less than the bleed."""
    return max(bleed, 2 * MISFOLD)


def gutter(bleed: float, apart: bool) -> float:
    """The gutter between neighbouring cards: each card's bleed twice where they must not share
    a cut (`apart`: their edges differ, edges.py), else none."""
    return 2 * bleed if apart else 0.0


def span(n: int, card: float, gutter: float = 0.0, fold_gap: float = 0.0, folded: bool = False) -> float:
    """The length, mm, of `n` cards in a line with the gutter between each two; `folded`: the
    middle gap is the fold's (`fold_gap`) instead."""
    if n <= 0:
        return 0.0
    middle = fold_gap - gutter if folded and n >= 2 else 0.0
    return n * card + (n - 1) * gutter + middle


def margin(bleed: float) -> float:
    """The room a grid needs beside it on every side, mm: bleed, the marks' gap and length,
    and the printer's unprintable edge."""
    return bleed + MARK_GAP + MARK_LENGTH + UNPRINTABLE


def room(paper: Paper, landscape: bool, bleed: float) -> tuple[float, float]:
    """The width and height, mm, that a grid of cards may fill on the paper turned this way."""
    w, h = (paper.height, paper.width) if landscape else (paper.width, paper.height)
    return w - 2 * margin(bleed), h - 2 * margin(bleed)


def _count(length: float, card: float, gutter: float = 0.0, fold_gap: float = 0.0, folded: bool = False) -> int:
    """The most cards that fit in `length` mm (an even number of them when `folded`)."""
    step, n = (2 if folded else 1), 0
    while span(n + step, card, gutter, fold_gap, folded) <= length + 1e-9:
        n += step
    return n


def grids(paper: Paper, width: float, height: float, bleed: float, apart: bool = False) -> list[Grid]:
    """The largest grid of cards `width` x `height` mm on each way of the paper, landscape first;
    `apart`: with a gutter between neighbours."""
    out, gap = [], gutter(bleed, apart)
    for landscape in (True, False):
        across, down = room(paper, landscape, bleed)
        out.append(Grid(_count(across, width, gap), _count(down, height, gap), landscape, gutter=gap))
    return out


def duplex_grid(paper: Paper, width: float, height: float, bleed: float, apart: bool = False) -> Grid | None:
    """The grid of most cards on the paper (landscape when both ways hold as many); None when
    not one card fits. `apart`: with a gutter between neighbours."""
    best = max(grids(paper, width, height, bleed, apart), key=lambda g: g.cols * g.rows)  # max keeps the first of equals
    return best if best.cols * best.rows else None


def fold_grid(paper: Paper, width: float, height: float, bleed: float, apart: bool = False) -> Grid | None:
    """The grid of most cards folded: its fronts in one half, the backs in the other, so an even
    number of columns (folded between the halves) or of rows, the fold's gap between the halves;
    None when a sheet cannot hold a front beside its back. Equals: landscape first, then a fold
    between columns. `apart`: with a gutter between neighbours in each half."""
    gap, folding = gutter(bleed, apart), 2 * fold_reach(bleed)
    options = []
    for landscape in (True, False):
        across, down = room(paper, landscape, bleed)
        options.append(Grid(_count(across, width, gap, folding, True), _count(down, height, gap), landscape, "columns",
                            gutter=gap, fold_gap=folding))
        options.append(Grid(_count(across, width, gap), _count(down, height, gap, folding, True), landscape, "rows",
                            gutter=gap, fold_gap=folding))
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
