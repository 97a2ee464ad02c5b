"""Print shops as targets, the Tabletop Simulator saved object, and the reprint of changed cards,
on one small game (tests/fixtures/games/tiny-chamber): each shop's files against the numbers in
spellpress/press/model/shops.yaml, the TTS object against the format's documented fields (listed in
spellpress/press/outputs/ttsobject.py), and the reprint against the cards edited since `printed`."""

import json
import shutil
from pathlib import Path

import pikepdf
import pytest
from PIL import Image, ImageChops, ImageStat
from pypdf import PdfReader

from spellpress.cli import main
from spellpress.core import load_games
from spellpress.press.drawing.papers import PAPER_NAMES
from spellpress.press.model import kinds, shops
from spellpress.press.model.options import Options
from spellpress.press.outputs.build import build

GAME = "tiny-chamber"
FIXTURE = Path(__file__).parent / "fixtures" / "games" / GAME
TEMPLATES = Path(__file__).parent.parent / "templates"
SHOP_KINDS = tuple(shops.SHOPS)


def workspace(root: Path) -> Path:
    """The fixture with two spells and one scenario of each kind: 18 faces to draw, not 27."""
    game = shutil.copytree(FIXTURE, root / "cards" / GAME)
    spells = game / "spells.yaml"
    spells.write_text(spells.read_text().split("  - id: scrying-glance")[0])
    for name in ("duel-scenarios.yaml", "group-scenarios.yaml"):
        lines = (game / name).read_text().splitlines(keepends=True)
        (game / name).write_text("".join(line for line in lines if not any(f"-{n}," in line for n in (2, 3))))
    return root


def options(ws: Path, **kw) -> Options:
    return Options(cards=ws / "cards", templates=TEMPLATES, out=ws / "build", progress=False, papers=("a4",), **kw)


def edit_fire(ws: Path, new: str) -> None:
    spells = ws / "cards" / GAME / "spells.yaml"
    text = spells.read_text()
    old = "Choose another wizard."
    assert old in text
    spells.write_text(text.replace(old, new))


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The game's card images (home), TTS sheets and every shop's files, built once."""
    ws = workspace(tmp_path_factory.mktemp("targets"))
    build(options(ws, kinds=("tts", *SHOP_KINDS)))
    game = load_games(ws / "cards", [GAME])[0]
    return ws, ws / "build" / GAME, game


def home(ws: Path, key: str) -> Image.Image:
    """A face as the home build's PNG draws it (300 dpi, 1/8 in bleed)."""
    from spellpress.press.drawing import raster
    from spellpress.press.model.plan import plan

    (p,), _ = plan(options(ws, kinds=("png",)))
    face = next(f for f in [*p.fronts.values(), *p.deck_backs.values()] if f.key == key)
    return raster.render(face.drawing)


def _decks(game):
    return [d for d in game.decks.values() if d.token is None]


def _near(a: Image.Image, b: Image.Image) -> float:
    """Mean difference per channel of two pictures of the same size, 0-255."""
    return sum(ImageStat.Stat(ImageChops.difference(a.convert("RGB"), b.convert("RGB"))).mean) / 3


def _inside(image: Image.Image, bleed_px: float, shift: float = 0, inset: float = 40) -> Image.Image:
    """The picture inside its cut line less `inset` px (sampled at fractions of a pixel), moved
    by `shift` px: what must agree whatever the bleed."""
    b = bleed_px + inset
    box = (b + shift, b + shift, image.width - b + shift, image.height - b + shift)
    size = (round(image.width - 2 * b), round(image.height - 2 * b))
    return image.convert("RGB").transform(size, Image.Transform.EXTENT, box, Image.Resampling.BILINEAR)


@pytest.mark.parametrize("key", [k for k, s in shops.SHOPS.items() if s.format == "png"])
def test_a_shops_images_have_its_numbers_and_names(built, key):
    ws, out, game = built
    shop = shops.SHOPS[key]
    expected = set()
    for deck in _decks(game):
        expected.add(shops.file_name(shop.files["back"], deck.id))
        for n, card in enumerate(deck.cards, start=1):
            expected.add(shops.file_name(shop.files["front"], deck.id, n, card.id))
    made = {p.relative_to(out / key).as_posix() for p in (out / key).rglob("*.png")}
    assert made == expected
    assert {kinds.owner(f"{key}/{rel}", PAPER_NAMES) for rel in [*made, "order.txt"]} == {(key, None)}  # the manifest knows them
    for rel in sorted(expected):
        with Image.open(out / key / rel) as im:
            assert im.size == shop.size_px and im.mode == shop.colour, rel
            assert im.info["dpi"] == pytest.approx((shop.dpi, shop.dpi), abs=0.01)
    # The trim is where the shop cuts: inside it, the same picture as the home PNG (1/8 in bleed)
    # to within half a pixel's shift; the bleed itself is painted, never paper white.
    card = _decks(game)[0].cards[0]
    reference = home(ws, card.id)
    with Image.open(out / key / shops.file_name(shop.files["front"], _decks(game)[0].id, 1, card.id)) as im:
        inner = _inside(im, shop.bleed_px)
        assert _near(inner, _inside(reference, 37.5).resize(inner.size)) < 3
        assert _near(inner, _inside(reference, 37.5, shift=3).resize(inner.size)) > 6  # a cut 3 px off would show
        edge = im.crop((0, 0, im.width, round(shop.bleed_px))).convert("L")
        assert ImageStat.Stat(edge).mean[0] < 200  # the back's and front's dark ground run into the bleed
    order = (out / key / "order.txt").read_text()
    for deck in _decks(game):
        assert f"{deck.name}: {sum(c.count for c in deck.cards)} cards" in order
        for n, card in enumerate(deck.cards, start=1):
            assert f"{card.count} x {shops.file_name(shop.files['front'], deck.id, n, card.id)}" in order


def test_drivethru_gets_one_cmyk_pdf_a_deck_back_then_front(built):
    ws, out, game = built
    shop = shops.SHOPS["dtc"]
    deck = _decks(game)[3]  # ammo: cards with several copies
    pdf = pikepdf.open(out / "dtc" / shops.file_name(shop.files["deck"], deck.id))
    assert len(pdf.pages) == 2 * sum(c.count for c in deck.cards)
    w, h = (px / shop.dpi * 72 for px in shop.size_px)
    first = deck.cards[0]
    for n, page in enumerate(pdf.pages[:2]):
        assert [float(v) for v in page.MediaBox] == pytest.approx([0, 0, w, h])
        (image,) = page.get_images().values()
        picture = pikepdf.PdfImage(image)
        assert (picture.width, picture.height) == shop.size_px
        assert picture.colorspace == "/DeviceCMYK" and "/DCTDecode" in str(image.Filter)
        cmyk = picture.as_pil_image()
        ink = max(sum(px) for px in cmyk.resize((165, 225)).get_flattened_data()) / 255 * 100
        assert ink <= shop.max_ink
        # back, then front; the colours as drawn (K = 1 - max(R, G, B) turned back into RGB)
        c, m, y, k = cmyk.split()
        rgb = Image.merge("RGB", [ImageChops.invert(ImageChops.add(ch, k)) for ch in (c, m, y)])
        side = f"back-{deck.id}" if n == 0 else first.id
        assert _near(rgb, home(ws, side)) < 4, side
    assert "order.txt" in {p.name for p in (out / "dtc").iterdir()}


def test_tts_object_holds_every_deck_with_the_documented_fields(built):
    ws, out, game = built
    obj = json.loads((out / "tts" / f"{GAME}.json").read_text())
    sheets = json.loads((out / "tts" / "sheets.json").read_text())["sheets"]
    for field in ("SaveName", "Date", "VersionNumber", "GameMode", "GameType", "GameComplexity", "Table", "Sky", "Note",
                  "LuaScript", "LuaScriptState", "XmlUI"):
        assert isinstance(obj[field], str)
    assert obj["Tags"] == [] and obj["TabStates"] == {}
    decks = _decks(game)
    assert len(obj["ObjectStates"]) == len(decks)
    keys = set()
    for o, deck in zip(obj["ObjectStates"], decks):
        assert o["Transform"]["rotZ"] == 180  # face down
        names = [c.name for c in deck.cards for _ in range(c.count)]
        if len(names) == 1:  # a deck of one card is a card, with its sheet
            assert o["Name"] == "Card" and o["Nickname"] == names[0]
            o = {"CustomDeck": o["CustomDeck"], "ContainedObjects": [o]}
        else:
            assert o["Name"] == "DeckCustom" and o["Nickname"] == deck.name
            assert o["DeckIDs"] == [c["CardID"] for c in o["ContainedObjects"]]
        assert [c["Nickname"] for c in o["ContainedObjects"]] == names
        by_name = {c.name: c for c in deck.cards}
        for contained in o["ContainedObjects"]:
            assert contained["Name"] == "Card"
            (key, sheet), = contained["CustomDeck"].items()
            assert sheet == o["CustomDeck"][key]
            assert contained["CardID"] // 100 == int(key)
            assert contained["CardID"] % 100 < sheet["NumWidth"] * sheet["NumHeight"] - 1  # the hidden card's slot stays free
            text = by_name[contained["Nickname"]].get("text")
            assert text is None or text.split(".")[0] in contained["Description"]
        own = [s for s in sheets if s["deck"] == deck.name]
        assert len(o["CustomDeck"]) == len(own)
        for key, entry in zip(o["CustomDeck"], own):
            keys.add(key)
            sheet = o["CustomDeck"][key]
            assert (sheet["NumWidth"], sheet["NumHeight"]) == (entry["width"], entry["height"])
            assert sheet["BackIsHidden"] is True and sheet["UniqueBack"] == ("backs" in entry)
            face = Path(sheet["FaceURL"].removeprefix("file://"))
            assert face == (out / "tts" / entry["sheet"]).resolve() and face.is_file()
            with Image.open(face) as im:
                assert im.size == (409 * entry["width"], 572 * entry["height"])
            assert Path(sheet["BackURL"].removeprefix("file://")).is_file()
    assert len(keys) == len(sheets)  # a sheet's number is its own in the whole object

    # From a web address given at build time: only the object is made again.
    report = build(options(ws, kinds=("tts",), tts_url="https://example.org/pnp/"))
    assert report.written == [out / "tts" / f"{GAME}.json"]
    obj = json.loads((out / "tts" / f"{GAME}.json").read_text())
    urls = [s[u] for o in obj["ObjectStates"] for s in o["CustomDeck"].values() for u in ("FaceURL", "BackURL")]
    assert urls and all(u.startswith(f"https://example.org/pnp/{GAME}/tts/") for u in urls)


def test_a_one_card_edit_draws_one_cards_images_per_shop(built):
    ws, out, game = built
    edit_fire(ws, "Choose one other wizard.")
    report = build(options(ws, kinds=SHOP_KINDS))
    written = sorted(p.relative_to(out).as_posix() for p in report.written)
    assert written == ["dtc/spells.pdf", "mpc/spells/front-001-mind-control.png", "tgc/spells/001-mind-control.png"]
    assert len(list((out / ".cache" / "dtc").glob("*.jpg"))) == len({f.hash for f in _faces(ws)})  # the old side let go


def _faces(ws):
    from spellpress.press.model.plan import plan

    (p,), _ = plan(options(ws, kinds=("png",)))
    return [*p.fronts.values(), *p.backs.values()]


def test_reprint_holds_only_the_cards_changed_since_printed(tmp_path, capsys):
    ws = workspace(tmp_path)
    out = ws / "build" / GAME
    report = build(options(ws, kinds=("reprint",)))
    assert report.written == [] and any(f"spellpress printed {GAME}" in n for n in report.notes)
    argv = ["--cards", str(ws / "cards"), "--out", str(ws / "build")]
    assert main(["printed", GAME, *argv]) == 1  # nothing built yet
    assert "no cards built" in capsys.readouterr().err
    build(options(ws, kinds=("sheets",)))
    assert main(["printed", GAME, *argv]) == 0
    report = build(options(ws, kinds=("reprint",)))
    assert report.written == [] and any("no card to reprint" in n for n in report.notes)

    edit_fire(ws, "Choose any other wizard.")
    report = build(options(ws, kinds=("reprint",)))
    assert sorted(p.name for p in report.written) == ["cards-reprint-a4.pdf", "cards-reprint-fold-a4.pdf"]
    assert {kinds.owner(p.name, PAPER_NAMES) for p in report.written} == {("reprint", "a4")}
    assert any("1 changed (Mind Control)" in n for n in report.notes)
    duplex = PdfReader(out / "cards-reprint-a4.pdf")
    assert len(duplex.pages) == 4  # the calibration pair, one page of fronts and its backs
    fronts = " ".join(duplex.pages[2].extract_text().split())
    assert "Mind Control" in fronts and "Sleep Magic" not in fronts
    fold = PdfReader(out / "cards-reprint-fold-a4.pdf")
    assert len(fold.pages) == 1 and "Mind Control" in " ".join(fold.pages[0].extract_text().split())
    assert not (out / "cards-letter.pdf").exists()  # nothing else made


def test_a_games_own_targets_say_what_its_build_makes_unless_target_is_given(tmp_path, monkeypatch, capsys):
    ws = workspace(tmp_path)
    game_yaml = ws / "cards" / GAME / "game.yaml"
    plain = game_yaml.read_text()
    monkeypatch.chdir(ws)
    out = ws / "build" / GAME
    common = ["build", GAME, "--here", "--templates", str(TEMPLATES), "--paper", "a4"]

    game_yaml.write_text(plain + "targets: [tgc]\n")  # the shop alone: no home sheets
    assert main([*common, "--only", "png"]) == 0
    assert (out / "tgc").is_dir() and not (out / "png").exists()
    assert main([*common, "--only", "png", "--target", "home"]) == 0  # --target wins over the game's own
    assert (out / "png").is_dir()

    game_yaml.write_text(plain + "targets: [home, tgx]\n")
    assert main(["validate", GAME, "--templates", str(TEMPLATES)]) == 1
    err = capsys.readouterr().err
    assert f"game.yaml:{len(plain.splitlines()) + 1}:" in err and "tgx" in err and "tgc" in err


def test_the_targets_a_game_yaml_may_name_are_the_shops_file_ones():
    import typing

    from spellpress.core.models import Target

    assert typing.get_args(Target) == shops.TARGETS
