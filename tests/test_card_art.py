"""Cards worth printing (issue 28, build item 1): a picture per card that says what it is.

In every deck of the five games no two different cards share a picture (copies of a card are one
card), every icon a card names ships with the package, and the rulebooks credit them as CC BY 3.0
asks. A card's art is its icon over a ground of its own: two cards of one colour differ in their
ground as well as their icon."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pytest

from spellpress.core import gameicons
from spellpress.press.drawing import layout as layout_module
from spellpress.press.drawing import markup
from spellpress.press.drawing.displaylist import Path as Outline
from spellpress.press.drawing.icons import IconSet
from spellpress.press.drawing.layout import Layouter
from spellpress.press.drawing.templates import Templates
from spellpress.press.model.options import Options
from spellpress.press.model.plan import plan

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def pictures(games):
    """slug -> deck id -> [(card id, what its art box shows)], for every card whose layout has one."""
    templates = Templates(ROOT / "templates")
    icons = IconSet.load(ROOT / "spellpress" / "defaults" / "templates" / "icons.yaml")
    found: dict = defaultdict(lambda: defaultdict(list))
    for slug, game in games.items():
        layouter = Layouter(game, icons)
        for deck in game.decks.values():
            for card in deck.cards:
                art = [box for _, box in templates.get(game.card_types[card.type].template).boxes if box.kind == "art"]
                if art:
                    face = layouter.card_face(card)
                    shown = str(face.art) if face.art else layouter.emblem(face, art[0])
                    found[slug][deck.id].append((card.id, shown))
    return found


def test_no_two_different_cards_of_a_deck_share_a_picture(pictures):
    shared = []
    for slug, decks in pictures.items():
        for deck, cards in decks.items():
            by_picture = defaultdict(list)
            for card, shown in cards:
                by_picture[shown].append(card)
            shared += [f"{slug}/{deck}: {', '.join(ids)} all show {shown}" for shown, ids in by_picture.items() if len(ids) > 1]
    assert not shared, "\n".join(shared)


def test_every_card_with_art_shows_an_icon_of_its_own(pictures):
    """Every picture of the five games is a game icon its card names (none left the type's emblem)."""
    plain = [f"{slug}/{card}: {shown}" for slug, decks in pictures.items() for cards in decks.values()
             for card, shown in cards if not str(shown).startswith(gameicons.PREFIX)]
    assert not plain
    assert sum(len(cards) for decks in pictures.values() for cards in decks.values()) == 233


def test_every_icon_the_games_name_ships_with_the_package_and_nothing_more(games, pictures):
    shipped = json.loads(gameicons.SHIPPED.read_text())["icons"]
    named = {gameicons.named(shown) for decks in pictures.values() for cards in decks.values() for _, shown in cards}
    named |= {gameicons.named(card.art) for game in games.values() for card in game.cards if card.art}
    named.discard(None)
    assert named <= set(shipped), sorted(named - set(shipped))
    assert set(shipped) <= named, f"shipped but named by no card: {sorted(set(shipped) - named)}"
    assert all(entry.get("author") for entry in shipped.values()), "each shipped icon names its author"
    for game in games.values():  # the five games need no icons file of their own
        assert not (game.root / gameicons.FILE).exists()


def test_the_credits_name_the_source_the_authors_and_the_licence():
    credits = (ROOT / "spellpress" / "defaults" / "game-icons" / "CREDITS.md").read_text()
    readme = (ROOT / "README.md").read_text()
    for text in (credits, readme):
        assert "game-icons.net" in text and "Lorc" in text and "Delapouite" in text
        assert "CC BY 3.0" in text and "https://creativecommons.org/licenses/by/3.0/" in text


def test_each_rulebook_ends_with_the_credits_of_its_icons(games):
    plans, _ = plan(Options(cards=ROOT / "cards", templates=ROOT / "templates", kinds=("rulebook",), progress=False))
    for p in plans:
        assert p.book is not None
        headings = [i for i, block in enumerate(p.book.blocks) if isinstance(block, markup.HeadingBlock)]
        last = p.book.blocks[headings[-1]]
        assert last.text == "Credits", (p.game.slug, last)
        said = " ".join(getattr(block, "text", "") or " ".join(getattr(block, "items", ())) for block in p.book.blocks[headings[-1]:])
        assert "game-icons.net" in said and "CC BY 3.0" in said and "https://creativecommons.org/licenses/by/3.0/" in said
        icons = {gameicons.named(card.art) for card in p.game.cards} - {None}
        assert all(name in said for name in icons), p.game.slug
        assert "Lorc" in said and "Delapouite" in said


def test_a_game_without_icons_has_no_credits(tmp_path, monkeypatch):
    from spellpress.cli import main

    monkeypatch.chdir(tmp_path)
    assert main(["new", "goblin-market"]) == 0
    plans, _ = plan(Options(cards=tmp_path / "cards", templates=tmp_path / "templates", kinds=("rulebook",), progress=False))
    assert plans[0].book is not None
    assert not any(getattr(block, "text", None) == "Credits" for block in plans[0].book.blocks)


def test_two_cards_of_one_colour_differ_in_their_ground_as_well_as_their_icon(games):
    """Spellchamber's spells have no element: one colour for the deck. Their art, icons left out,
    still differs card to card: the ground's gradient and motif come from each card's id."""
    plans, _ = plan(Options(cards=ROOT / "cards", templates=ROOT / "templates", games=("spellchamber",), kinds=("png",),
                            progress=False))
    grounds = {}
    for card in games["spellchamber"].decks["spells"].cards:
        items = plans[0].fronts[card.id].drawing.items
        grounds[card.id] = tuple(item for item in items if not isinstance(item, Outline))
    assert len(set(grounds.values())) == len(grounds)
    assert layout_module.MOTIFS  # several motifs to choose from
