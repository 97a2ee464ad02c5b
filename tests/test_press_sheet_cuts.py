"""Sheets cut and folded off their lines (issue 28, defects 3 and 4), read from the rendered pages.

A hand cuts about 1 mm off its line (GUIDE, tolerances), and folds off it too. Whatever such a
cut or fold leaves at a card's edge must be that card's own colours: a sliver of a neighbour's
frame gives away PowerMage's card type and Powers Combined's element, and a sliver of the front
on the back gives away the card from its back.

The five games keep one outer frame a deck (the card type's colour in an inner frame: issue 28),
so their cards share their cuts; VARIANT is PowerMage 54 with its Attack cards framed to the
bleed in red, as they were, whose sheets take gutters (edges.py, sheets.apart): both ways must
cut clean.

Each sheet page is rendered (pypdfium2, RENDER_DPI); where each card lies is read from the PDF
(test_press_sheets.placements); a face's own colours are those of its print-shop PNG
(png/<face>.png, 300 dpi with its bleed) near its edges, and a pixel of the sheet is the face's
own when it is within TOLERANCE (largest channel difference, for anti-aliasing) of one of them.
"""

from __future__ import annotations

import shutil
from functools import cache
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image
from pypdf import PdfReader

from spellpress.press.drawing import papers
from spellpress.press.model.options import Options
from spellpress.press.outputs.build import build
from test_press_sheets import BLEED, CARD_H, CARD_W, is_back, placements, sheet_pages

GAMES = ("powermage-54", "powers-combined")  # the two the reviewer named: their card types' colours tell the cards apart
VARIANT = "typed-frames"  # PowerMage 54 with its Attack cards framed in their colour to the bleed (gutters)
CASES = (*GAMES, VARIANT)
RENDER_DPI = 150
PX = RENDER_DPI / 25.4  # pixels a mm on the rendered page
PNG_PX = 300 / 25.4  # and on a face's PNG
CUT = 1.0  # mm: the hand's cutting error (GUIDE)
MISFOLD = papers.MISFOLD  # mm: a fold this far off its line, what the fold sheets are made for (1.5875; the issue: 1 mm)
NEAR = 2.0  # mm: how much of a folded card's edge is looked at, on each face
TOLERANCE = 40  # largest channel difference from one of the face's own colours
DEPTH = 2 * MISFOLD + NEAR + 0.5  # mm inside the trim whose colours are a face's own, for the fold's check


@pytest.fixture(scope="module")
def built(tmp_path_factory, cards_dir, built_once):
    """Each case's build directory: the two games as they are, and VARIANT."""
    out = built_once
    kinds = ("sheets", "fold", "png")
    root = tmp_path_factory.mktemp("typed")
    shutil.copytree(cards_dir / "powermage-54", root / "cards" / "powermage-54")
    shutil.copytree(cards_dir.parent / "templates", root / "templates")
    attack = root / "templates" / "powermage-54" / "attack.yaml"
    attack.write_text(attack.read_text().replace("boxes:\n", "boxes:\n  background: {fill: kind}\n", 1))
    build(Options(cards=root / "cards", templates=root / "templates", out=root / "build", games=("powermage-54",),
                  kinds=kinds, progress=False))
    return {**{slug: out / slug for slug in GAMES}, VARIANT: root / "build" / "powermage-54"}


def most_fronts(pdf: Path) -> int:
    """The most fronts on a page of the file."""
    reader = PdfReader(pdf)
    return max(len([c for c in placements(page, reader) if not is_back(c[0])]) for page in sheet_pages(reader))


def test_the_games_share_their_cuts_and_a_frame_in_the_types_colour_takes_gutters(built):
    """PowerMage 54 and Powers Combined print 8 poker cards an A4 duplex sheet and 4 an A4 fold
    sheet, edge to edge; VARIANT's sheets take gutters: 4 and 2 (papers.py, docs/printing.md)."""
    expected = {"powermage-54": (8, 4), "powers-combined": (8, 4), VARIANT: (4, 2)}
    found = {case: (most_fronts(built[case] / "cards-a4.pdf"), most_fronts(built[case] / "cards-fold-a4.pdf"))
             for case in CASES}
    assert found == expected


@cache
def own_colours(png: Path) -> tuple[tuple[int, int, int], ...]:
    """The colours a face prints in its bleed and DEPTH mm inside its trim (each seen on at least
    1/2000 of that band: not the odd anti-aliased pixel)."""
    with Image.open(png) as opened:
        face = opened.convert("RGB")
    band = round((BLEED + DEPTH) * PNG_PX)
    w, h = face.size
    counts: dict[tuple[int, int, int], int] = {}
    for box in ((0, 0, w, band), (0, h - band, w, h), (0, band, band, h - band), (w - band, band, w, h - band)):
        for n, colour in face.crop(box).getcolors(w * h):
            counts[colour] = counts.get(colour, 0) + n
    least = sum(counts.values()) / 2000
    return tuple(c for c, n in counts.items() if n >= least)


def foreign(page: Image.Image, box: tuple[float, float, float, float], palette) -> list[tuple[tuple[int, int, int], int]]:
    """The colours (and how many pixels of each) in `box` (mm: left, top, right, bottom) of the
    rendered page that are none of `palette`'s."""
    left, top, right, bottom = box
    pixels = page.crop((round(left * PX), round(top * PX), round(right * PX), round(bottom * PX)))
    out = []
    for n, colour in pixels.getcolors(pixels.width * pixels.height + 1) or []:
        if not any(max(abs(a - b) for a, b in zip(colour, own)) <= TOLERANCE for own in palette):
            out.append((colour, n))
    return sorted(out, key=lambda found: -found[1])


def rendered(pdf: Path):
    """(page number, rendered page, cards placed on it) of each page of cards (the calibration
    pair and the checklist left out)."""
    reader, doc = PdfReader(pdf), pdfium.PdfDocument(pdf)
    pages = sheet_pages(reader)
    first = 0 if "fold" in pdf.name else 2
    for n in range(first, len(pages)):
        yield n, doc[n].render(scale=RENDER_DPI / 72).to_pil().convert("RGB"), placements(pages[n], reader)


@pytest.mark.parametrize("case", CASES)
def test_a_cut_1_mm_off_any_cut_line_shows_only_the_cards_own_colours(built, case):
    """Defect 4: every card on every page of the duplex and fold sheets, cut 1 mm outside any of
    its four cut lines, keeps a strip of its own print: its bleed, not a neighbour's frame."""
    wrong = []
    for name in ("cards-a4.pdf", "cards-letter.pdf", "cards-fold-a4.pdf", "cards-fold-letter.pdf"):
        for n, page, cards in rendered(built[case] / name):
            for form, x, y, _ in cards:
                palette = own_colours(built[case] / "png" / f"{form}.png")
                edge = 0.3  # mm: the anti-aliased pixel on the cut line itself left out
                strips = {"left": (x - CUT, y, x - edge, y + CARD_H), "right": (x + CARD_W + edge, y, x + CARD_W + CUT, y + CARD_H),
                          "top": (x, y - CUT, x + CARD_W, y - edge), "bottom": (x, y + CARD_H + edge, x + CARD_W, y + CARD_H + CUT)}
                for side, box in strips.items():
                    found = foreign(page, box, palette)
                    if found:
                        wrong.append((name, n + 1, form, side, found[:2]))
    print(f"{case}: {len(wrong)} card edges show another card's colours 1 mm beyond the cut; first: {wrong[:3]}")
    assert wrong == []


@pytest.mark.parametrize("case", CASES)
def test_a_fold_up_to_misfold_off_shows_each_side_only_its_own_colours(built, case):
    """Defect 3: each front and its back on every fold page, folded d mm off the fold line (0.5,
    1 and papers.MISFOLD, 1.5875 mm, either way) and cut along the front's marks. The pair's
    edge at the fold is the front's cut line there, or the fold itself where that comes first;
    within NEAR mm of that edge the front face shows the sheet beside it on the front's side, and
    the back face shows what the fold lays behind that: the sheet mirrored about the fold as
    folded. Each must be its own face's colours. (Folded d mm towards the front, the back's edge
    lies 2d mm beyond its cut line, in its own bleed up to d = half the bleed: MISFOLD.)"""
    wrong = []
    for name in ("cards-fold-a4.pdf", "cards-fold-letter.pdf"):
        for n, page, cards in rendered(built[case] / name):
            fronts = [c for c in cards if not is_back(c[0])]
            backs = [c for c in cards if is_back(c[0])]
            assert len(fronts) == len(backs), (name, n)
            by_columns = min(b[1] for b in backs) > max(f[1] for f in fronts)
            for front in fronts:
                form, x, y, _ = front
                if by_columns:  # the back at the same height, across the fold
                    back = min((b for b in backs if abs(b[2] - y) < 0.05), key=lambda b: b[1])
                    cut, other = x + CARD_W, back[1]  # the front's cut line at the fold, the back's
                else:  # the back below, across the fold
                    back = min((b for b in backs if abs(b[1] - x) < 0.05), key=lambda b: b[2])
                    cut, other = y + CARD_H, back[2]
                fold = (cut + other) / 2
                fronts_colours = own_colours(built[case] / "png" / f"{form}.png")
                backs_colours = own_colours(built[case] / "png" / f"{back[0]}.png")
                for d in (-MISFOLD, -1.0, -0.5, 0.5, 1.0, MISFOLD):
                    folded = fold + d  # where it is folded
                    edge = min(cut, folded)  # the pair's edge: the cut along the front's mark, or the fold
                    front_side = (edge - NEAR, edge - 0.3)
                    back_side = (2 * folded - edge + 0.3, 2 * folded - edge + NEAR)  # behind it, mirrored about the fold
                    for face, (a, b), colours in (("front", front_side, fronts_colours), ("back", back_side, backs_colours)):
                        box = (a, y, b, y + CARD_H) if by_columns else (x, a, x + CARD_W, b)
                        found = foreign(page, box, colours)
                        if found:
                            wrong.append((name, n + 1, form, f"folded {d:+g} mm", face, found[:2]))
    print(f"{case}: {len(wrong)} folded edges show the other side's colours; first: {wrong[:3]}")
    assert wrong == []
