"""Card identity (issue 17, part 2) and Letter 3 x 3 (part 6): each card's number, the total and
the game's version, small and clear in its footer on every face of the five games; the checklist
after the sheets; the copies on the overview; nine cards a Letter sheet within a 5 mm reach."""

from __future__ import annotations

import io
import shutil

import pytest
from PIL import Image as PILImage
from pypdf import PdfReader

from spellpress.core import ValidationFailed, load_game
from spellpress.press.drawing import fonts, sheets
from spellpress.press.drawing.displaylist import Text
from spellpress.press.drawing.layout import MIN_TEXT_SIZE, PT
from spellpress.press.drawing.papers import PAPERS
from spellpress.press.model.options import Options
from spellpress.press.model.plan import plan
from spellpress.press.outputs import images
from spellpress.press.outputs.build import build

GAME = "powermage-54"  # the smallest set of sheets


@pytest.fixture(scope="module")
def plans(cards_dir):
    found, _ = plan(Options(cards=cards_dir, templates=cards_dir.parent / "templates", kinds=("png",)))
    return found


def _box(t: Text) -> tuple[float, float, float, float]:
    """The text's extent, mm: (left, top, right, bottom)."""
    ascent, descent = fonts.ascent(t.font) * t.size * PT, 0.25 * t.size * PT
    return t.x, t.y - ascent, t.x + fonts.width(t.text, t.font, t.size), t.y + descent


def _meet(a, b) -> bool:
    return a[0] < b[2] - 1e-6 and b[0] < a[2] - 1e-6 and a[1] < b[3] - 1e-6 and b[1] < a[3] - 1e-6


def test_every_card_of_every_game_carries_its_number_total_and_version(plans):
    assert len(plans) == 5
    for p in plans:
        game, total = p.game, len(p.game.cards)
        assert game.version
        for n, card in enumerate(game.cards, start=1):
            drawing = p.fronts[card.id].drawing
            texts = [t for t in drawing.items if isinstance(t, Text)]
            stamps = [t for t in texts if f"{n}/{total}" in t.text or t.text == f"v{game.version}"
                      or f"· v{game.version}" in t.text]
            assert any(f"{n}/{total}" in t.text for t in stamps), (game.slug, card.id, [t.text for t in texts])
            assert any(f"v{game.version}" in t.text for t in stamps), (game.slug, card.id)
            safe = 3.175
            for stamp in stamps:
                assert stamp.size >= MIN_TEXT_SIZE and not stamp.turned
                box = _box(stamp)
                assert safe - 1e-6 <= box[0] and box[2] <= drawing.width - safe + 1e-6, (game.slug, card.id, stamp.text)
                assert box[3] <= drawing.height - safe + 1e-6, (game.slug, card.id, stamp.text)
                others = [t for t in texts if t not in stamps]
                clash = [t.text for t in others if _meet(box, _box(t))]
                assert not clash, (game.slug, card.id, stamp.text, clash)


def test_identity_is_switched_off(cards_dir, tmp_path):
    (p,), _ = plan(Options(cards=cards_dir, templates=cards_dir.parent / "templates", games=(GAME,), kinds=("png",),
                           identity=False))
    total = len(p.game.cards)
    assert not [t.text for f in p.fronts.values() for t in f.drawing.items if isinstance(t, Text) and f"/{total}" in t.text]
    game = tmp_path / GAME  # and by the game's own `identity: false`
    shutil.copytree(cards_dir / GAME, game)
    text = (game / "game.yaml").read_text()
    (game / "game.yaml").write_text(text.replace("\ntitle:", "\nidentity: false\ntitle:", 1))
    (p,), _ = plan(Options(cards=tmp_path, templates=cards_dir.parent / "templates", kinds=("png",)))
    assert not p.identity
    (game / "game.yaml").write_text(text.replace('version: "1.0"', "version: 1.0", 1))
    with pytest.raises(ValidationFailed) as failed:
        load_game(game)
    assert [(pr.path, "quotes" in pr.message) for pr in failed.value.problems] == [("version", True)]


@pytest.fixture(scope="module")
def sheeted(tmp_path_factory, cards_dir):
    out = tmp_path_factory.mktemp("identity")
    build(Options(cards=cards_dir, templates=cards_dir.parent / "templates", out=out, games=(GAME,),
                  kinds=("sheets", "fold"), papers=("letter",), letter_3x3=True, progress=False))
    return out / GAME


def test_the_sheets_end_with_a_checklist_of_every_card(sheeted, games):
    game = games[GAME]
    for name in ("cards-letter.pdf", "cards-fold-letter.pdf", "cards-letter-3x3.pdf"):
        text = " ".join(PdfReader(sheeted / name).pages[-1].extract_text().split())
        assert f"{game.title} · checklist · version {game.version}" in text
        assert f"{len(game.cards)} cards, {sum(c.count for c in game.cards)} copies" in text
        for n, card in enumerate(game.cards, start=1):
            assert f"{n} {card.name[:12]}" in text, (name, card.name)
        assert text.count("×") == len(game.cards)


def test_the_overview_shows_each_cards_copies_under_it(tmp_path, plans):
    face = plans[0].fronts[plans[0].game.cards[0].id]
    thumb = tmp_path / "face.png"
    images.thumbnails(face.drawing, thumb)
    w, h = images.OVERVIEW_CARD
    plain = PILImage.open(io.BytesIO(images.overview([[thumb, thumb]], tmp_path / "b1", 72)))
    counted = PILImage.open(io.BytesIO(images.overview([[thumb, thumb]], tmp_path / "b2", 72, [[3, 0]])))
    assert counted.height == plain.height + images.OVERVIEW_COUNT
    gap = images.OVERVIEW_GAP
    under = [counted.crop((gap + i * (w + gap), gap + h, gap + i * (w + gap) + w, gap + h + images.OVERVIEW_COUNT))
             .convert("L") for i in (0, 1)]
    assert under[0].getextrema()[1] > 200  # '×3' in light type under the first card
    assert under[1].getextrema()[1] < 80  # nothing under the second (0: a back)


def test_letter_3x3_keeps_marks_within_a_5_mm_reach_and_off_the_bleed(sheeted):
    s = sheets.Sheet(PAPERS["letter"], sheets.NINE_GRID, 63.5, 88.9, 3.175)
    assert s.per_page == 9 and (s.pw, s.ph) == (215.9, 279.4)
    # beside the grid: bleed, then a 1 mm gap, then a 5 mm mark ending at the printer's reach
    assert s.outer_x == pytest.approx(1.7) and (s.gap_x, s.mark_x) == (1.0, 5.0)
    assert s.x0 - s.outer_x - s.gap_x - s.mark_x == pytest.approx(5.0)
    # above and below: no bleed, ticks from the cards' edge to the reach
    assert (s.outer_y, s.gap_y) == (0.0, 0.0) and s.y0 - s.mark_y == pytest.approx(5.0)
    reader = PdfReader(sheeted / "cards-letter-3x3.pdf")
    assert [round(float(v) / 72 * 25.4, 1) for v in reader.pages[2].mediabox[2:]] == [215.9, 279.4]
    note = " ".join(reader.pages[2].extract_text().split())
    assert "print to 5 mm of the edge" in note and "none above and below" in note
    assert "--letter-3x3" in " ".join(reader.pages[0].extract_text().split())


def test_the_3x3_file_is_made_only_when_asked(sheeted, tmp_path, cards_dir):
    assert (sheeted / "cards-letter-3x3.pdf").is_file()
    build(Options(cards=cards_dir, templates=cards_dir.parent / "templates", out=tmp_path, games=(GAME,),
                  kinds=("sheets",), papers=("letter",), progress=False))
    assert not (tmp_path / GAME / "cards-letter-3x3.pdf").exists() and (tmp_path / GAME / "cards-letter.pdf").exists()


def test_flags_reach_the_options():
    from spellpress.cli import parser
    from spellpress.press.cli import options

    args = parser().parse_args(["build", "--ink", "saver", "--no-identity", "--letter-3x3", "--here"])
    o = options(args)
    assert (o.ink, o.identity, o.letter_3x3) == ("saver", False, True)
    o = options(parser().parse_args(["build", "--here"]))
    assert (o.ink, o.identity, o.letter_3x3) == (None, None, False)


def test_the_ink_names_agree_with_the_schema():
    import typing

    from spellpress.core.models import Ink
    from spellpress.press.model.options import INKS

    assert typing.get_args(Ink) == INKS

