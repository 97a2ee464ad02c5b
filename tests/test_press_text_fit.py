"""Text set to fit (issue 28, defect 7 and build item 2), read back from every front of every game.

Each text box of a card is drawn alone (Layouter._box) and its Text items are found in the
card's display list, grouped into lines by their baselines:
- a title that breaks has first shrunk to its floor (its box's `min_size`, else 7 pt), and its
  ink keeps TITLE_PAD (1.5 mm) inside its box's left and right edges, and inside its top and bottom;
- no line of a paragraph (titles too) is a single word when the line before it, in the same
  box, has more than one word (a word that is a paragraph of its own excepted);
- a footer keeps FOOTER_CLEAR (1 mm) from the turned corner index at the bottom right;
- the checklist never cuts a card's name: a long one is set smaller, whole, in its column.
"""

from __future__ import annotations

from pathlib import Path as FilePath

import pytest

from spellpress.defaults import TEMPLATES as DEFAULTS
from spellpress.press.drawing import fonts, sheets
from spellpress.press.drawing.displaylist import Rect, Text
from spellpress.press.drawing.icons import IconSet
from spellpress.press.drawing.layout import PT, Layouter, _holds, turn
from spellpress.press.drawing.pdf import MM
from spellpress.press.drawing.templates import Templates
from spellpress.press.model.options import Options
from spellpress.press.model.plan import plan

ROOT = FilePath(__file__).resolve().parent.parent
FOOTER_CLEAR = 1.0  # mm between a footer's ink and the corner index
TITLE_PAD = 1.5  # mm between a title's ink and its box's left and right edges (layout.TITLE_PAD)
TITLE_FLOOR = 7.0  # pt: a title's floor when its box gives no min_size (layout.TITLE_FLOOR)
CHECK_MIN_SIZE = 7.0  # pt: the smallest a name is set on the checklist (CHECK_MIN_SIZE)
EPS = 1e-6


@pytest.fixture(scope="module")
def boxes():
    """(slug, card id, box name, box, area, its Text items) for every text box of every front."""
    options = Options(cards=ROOT / "cards", templates=ROOT / "templates", kinds=("png",), progress=False)
    plans, _ = plan(options)
    templates, icons = Templates(ROOT / "templates"), IconSet.load(DEFAULTS / "icons.yaml")
    out = []
    for p in plans:
        layouter = Layouter(p.game, icons)
        for card in p.game.cards:
            layout = templates.get(p.game.card_types[card.type].template)
            face = layouter.card_face(card)
            drawn = set(p.fronts[card.id].drawing.items)
            layouter.draw(face, layout)  # its ink's colours, as the plan drew it
            for name, box in layout.boxes:
                if box.kind not in ("text", "rect") or (box.when and not _holds(box.when, face.values)):
                    continue
                items = layouter._box(face, layout, box, name)
                assert set(items) <= drawn, f"{p.game.slug}/{card.id}: box {name} is not what the card shows"
                text = layouter.fill(box.text, face) if box.kind == "text" and box.text else ""
                out.append((p.game.slug, card.id, name, box, text, layout.area(box), items))
                if box.mirror:
                    out.append((p.game.slug, card.id, name + "~turned", box, text, layout.area(box),
                                [turn(i, layout.width, layout.height) for i in items]))
    return out


def ink(t: Text) -> tuple[float, float, float, float]:
    w = fonts.width(t.text, t.font, t.size)
    up, down = fonts.ascent(t.font) * t.size * PT, 0.25 * t.size * PT
    if t.turned:
        return t.x - w, t.y - down, t.x, t.y + up
    return t.x, t.y - up, t.x + w, t.y + down


def lines(items) -> list[list[Text]]:
    """The box's Text items as lines (by baseline), each left to right."""
    found: dict[float, list[Text]] = {}
    for t in items:
        if isinstance(t, Text):
            found.setdefault(round(t.y, 3), []).append(t)
    return [sorted(found[y], key=lambda t: t.x) for y in sorted(found)]


def words(line: list[Text]) -> list[str]:
    """A line's words: pieces that touch are one word ('**bold**' runs, a word after an icon)."""
    out: list[str] = []
    end = None
    for t in line:
        space = fonts.width(" ", t.font, t.size)
        if end is not None and t.x - end < space * 0.5:
            out[-1] += t.text
        else:
            out.append(t.text)
        end = t.x + fonts.width(t.text, t.font, t.size)
    return out


def test_a_title_breaks_only_at_its_floor(boxes):
    early = []
    for slug, card, name, box, _, _, items in boxes:
        if name != "title":
            continue
        rows = lines(items)
        floor = box.min_size if box.min_size is not None else TITLE_FLOOR
        if len(rows) > 1 and any(t.size > floor + EPS for row in rows for t in row):
            early.append(f"{slug}/{card}: {' / '.join(' '.join(words(r)) for r in rows)!r} at {rows[0][0].size:g} pt "
                         f"(floor {floor:g} pt)")
    assert not early, "\n".join(early[:30]) + f"\n({len(early)} in all)"


def test_a_title_keeps_its_padding_inside_its_box(boxes):
    tight = []
    for slug, card, name, _, _, (x, y, w, h), items in boxes:
        if name != "title":
            continue
        for t in items:
            if isinstance(t, Text):
                x0, y0, x1, y1 = ink(t)
                pad = min(x0 - x, x + w - x1)
                if pad < TITLE_PAD - 0.01 or y0 < y - 0.01 or y1 > y + h + 0.01:
                    tight.append(f"{slug}/{card}: {t.text!r} {pad:.2f} mm from its box's side")
    assert not tight, "\n".join(tight[:30]) + f"\n({len(tight)} in all)"


def test_no_word_alone_on_a_line_when_the_line_before_can_give_it_a_companion(boxes):
    alone = []
    for slug, card, name, _, text, _, items in boxes:
        rows = [words(r) for r in lines(items)]
        for before, row in zip(rows, rows[1:]):
            if len(row) == 1 and len(before) > 1:
                whole = {p.strip().replace("**", "") for p in text.split("\n")}
                if row[0] not in whole:  # a paragraph of one word is no widow
                    alone.append(f"{slug}/{card} {name}: {' '.join(before)!r} / {row[0]!r}")
    assert not alone, "\n".join(alone[:40]) + f"\n({len(alone)} in all)"


def test_a_footer_keeps_clear_of_the_corner_index(boxes):
    by_card: dict[tuple[str, str], dict] = {}
    for slug, card, name, _, _, _, items in boxes:
        by_card.setdefault((slug, card), {})[name] = items
    touching = []
    for (slug, card), named in by_card.items():
        corner = [r for r in named.get("index-tab~turned", []) if isinstance(r, Rect)]
        for name, items in named.items():
            if not name.startswith("footer"):
                continue
            for t in items:
                if not isinstance(t, Text):
                    continue
                x0, y0, x1, y1 = ink(t)
                for r in corner:
                    if (x0 < r.x + r.w + FOOTER_CLEAR and r.x - FOOTER_CLEAR < x1
                            and y0 < r.y + r.h + FOOTER_CLEAR and r.y - FOOTER_CLEAR < y1):
                        touching.append(f"{slug}/{card}: {name} {t.text!r} ends at x={x1:.2f}, "
                                        f"{r.x - x1:.2f} mm from the corner index at x={r.x:.2f}")
    assert not touching, "\n".join(touching[:30]) + f"\n({len(touching)} in all)"


class _Canvas:
    """Records what the checklist writes: (text, font size, x in mm, right-aligned)."""

    def __init__(self):
        self.size, self.written = 8.0, []

    def setFont(self, font, size):
        self.size = size

    def drawString(self, x, y, text):
        self.written.append((text, self.size, x / MM, y / MM, False))

    def drawRightString(self, x, y, text):
        self.written.append((text, self.size, x / MM, y / MM, True))

    def __getattr__(self, name):
        return lambda *args, **kwargs: None


class _Writer:
    def __init__(self, sheet):
        self.sheet, self.canvas = sheet, _Canvas()

    def margin_note(self, *args, **kwargs):
        pass

    def next_page(self):
        pass


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_checklist_prints_every_name_whole(games, paper):
    from spellpress.press.drawing.papers import PAPERS, Grid

    cut = []
    for slug, game in games.items():
        writer = _Writer(sheets.Sheet(PAPERS[paper], Grid(3, 3, False), 63.5, 88.9, 3.175, check_marks=False))
        listed = sheets.checklist_of(game)
        sheets.checklist(writer, game.title, listed)
        texts = [w[0] for w in writer.canvas.written]
        joined = " ".join(texts)
        for card in listed:
            if card.name not in texts and card.name not in joined:
                cut.append(f"{slug}: {card.name!r} not whole on the checklist")
        cut += [f"{slug}: {t!r} cut short" for t in texts if "…" in t]
        small = [f"{slug}: {t!r} at {s:g} pt" for t, s, *_ in writer.canvas.written if s < CHECK_MIN_SIZE - EPS]
        cut += small
    assert not cut, "\n".join(cut[:30])


def test_a_long_name_in_a_narrow_column_is_set_smaller_or_in_two_lines_never_cut():
    """Three columns of a long checklist: 'Gonna Need a Bigger... STAFF!' was cut to
    'Gonna Need a Bigger...…' (issue 28, defect 7); now whole, and clear of the deck's column."""
    from spellpress.press.drawing.papers import PAPERS, Grid

    names = ["Gonna Need a Bigger... STAFF!", "Limitless Lightning / Epic Earth", "Fire"]
    listed = [sheets.Listed(n, names[n % 3], "Mayhem deck", 1) for n in range(1, 181)]
    writer = _Writer(sheets.Sheet(PAPERS["a4"], Grid(3, 3, False), 63.5, 88.9, 3.175, check_marks=False))
    sheets.checklist(writer, "Test", listed)
    written = writer.canvas.written
    assert not [t for t, *_ in written if "…" in t]
    decks = [(x, y) for t, _, x, y, right in written if t in ("Mayhem deck", "Mayhem")]  # a deck's name may wrap too
    cards: list[list[str]] = []  # what each row says after its number, in the order written
    for t, size, x, y, right in written:
        if right and t.isdigit():
            cards.append([])
        elif cards and not right and t not in ("No.", "Card", "Deck") and not t.startswith("Test"):
            cards[-1].append(t)
            if t not in ("Mayhem deck", "Mayhem", "deck"):
                assert size >= CHECK_MIN_SIZE - EPS
                deck_x = min(dx for dx, dy in decks if dx > x and abs(dy - y) < 3.0)
                assert x + fonts.width(t, "regular", size) < deck_x - 0.5, (t, size)
    joined = [" ".join(words) for words in cards]
    assert [j.startswith(listed[n].name + " Mayhem") for n, j in enumerate(joined)] == [True] * 180
