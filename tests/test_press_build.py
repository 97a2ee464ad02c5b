"""`spellpress build` as a designer iterates with it: images, incremental rebuilds, failures."""

import json
import shutil

import pytest
from PIL import Image

from spellpress.core import ValidationFailed
from spellpress.press.model import kinds, libraries
from spellpress.press.model.manifest import Manifest
from spellpress.press.model.options import Options
from spellpress.press.outputs import images
from spellpress.press.outputs.build import build

GAME = "magicka-mayhem"


SMALL = "powermage-54"  # the fewest cards (37), for what any game shows as well as the largest


def _copy(tmp_path, cards_dir, game):
    shutil.copytree(cards_dir / game, tmp_path / "cards" / game)
    shutil.copytree(cards_dir.parent / "templates", tmp_path / "templates")
    return tmp_path


@pytest.fixture(scope="module")
def built(tmp_path_factory, cards_dir):
    """One game's cards and the layouts, with every default output built once (a cold build)."""
    base = _copy(tmp_path_factory.mktemp("built"), cards_dir, GAME)
    build(options(base))
    return base


@pytest.fixture()
def workspace(tmp_path, built):
    """A copy of that built game, its outputs and manifest included, to edit freely: the tests
    that start from it begin where a designer's second build does."""
    shutil.copytree(built, tmp_path, symlinks=True, dirs_exist_ok=True)
    return tmp_path


@pytest.fixture()
def fresh_workspace(tmp_path, cards_dir):
    """A copy of the game's cards and the layouts with nothing built yet."""
    return _copy(tmp_path, cards_dir, GAME)


@pytest.fixture()
def small_workspace(tmp_path, cards_dir):
    """The same, of the game with the fewest cards."""
    return _copy(tmp_path, cards_dir, SMALL)


def options(ws, **kw):
    return Options(cards=ws / "cards", templates=ws / "templates", out=ws / "build", progress=False, **kw)


def snapshot(out):
    """Every file's bytes, the cache's included; not the times the manifest last saw its files at
    (`.cache/seen.json`, manifest.py), which differ from one build to the next by design."""
    return {p.relative_to(out): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file() and p.relative_to(out).as_posix().split("/", 1)[-1] != Manifest.SEEN}


def edit(path, old, new):
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def test_images_have_the_print_and_tts_sizes(workspace, games):
    build(options(workspace, kinds=("png", "tts", "overview")))
    out = workspace / "build" / GAME
    game = games[GAME]
    for card in game.cards:
        with Image.open(out / "png" / f"{card.id}.png") as im:
            assert im.size == (825, 1125)
    for deck in game.decks:
        with Image.open(out / "png" / f"back-{deck}.png") as im:
            assert im.size == (825, 1125)
    index = json.loads((out / "tts" / "sheets.json").read_text())
    for entry in index["sheets"]:
        with Image.open(out / "tts" / entry["sheet"]) as im:
            assert im.size == (entry["width"] * 409, entry["height"] * 572)
            assert im.width <= 4096 and im.height <= 4096
        assert entry["width"] <= 10 and entry["height"] <= 7
        assert entry["cards"] <= 69 and entry["cards"] < entry["width"] * entry["height"]
    per_deck = {}
    for entry in index["sheets"]:
        per_deck[entry["deck"]] = per_deck.get(entry["deck"], 0) + entry["cards"]
    assert per_deck == {d.name: d.total for d in game.decks.values()}
    with Image.open(out / "overview.png") as im:
        assert im.width > 1000


def test_tts_sheets_split_at_69_cards():
    assert images.TTS_PER_SHEET == 69
    assert images.tts_grid(69) == (10, 7)
    assert images.tts_grid(9) == (10, 1)
    assert images.tts_grid(3) == (4, 1)


def test_the_same_input_gives_byte_identical_files(small_workspace):
    build(options(small_workspace, booklet=True))
    first = snapshot(small_workspace / "build")
    assert {p.name for p in first} >= {"cards-a4.pdf", "rulebook-letter-booklet.pdf", "playmat.pdf", "overview.png"}
    shutil.rmtree(small_workspace / "build")
    build(options(small_workspace, booklet=True, jobs=1))
    assert snapshot(small_workspace / "build") == first


def test_editing_one_card_rerenders_that_card_only(workspace):
    build(options(workspace))
    out = workspace / "build" / GAME
    before = {p: p.stat().st_mtime_ns for p in (out / "png").glob("*.png")}
    edit(workspace / "cards" / GAME / "spells.yaml", "Double damage to wet or frozen targets.", "Double damage to wet targets.")
    report = build(options(workspace))
    written = {p.relative_to(out).as_posix() for p in report.written}
    # the rulebooks too: they show Fire Bolt as their sample card; the playmat names no card; the TTS
    # object holds the card's text as its description
    assert written == {"png/fire-bolt.png", "cards-a4.pdf", "cards-letter.pdf", "cards-fold-a4.pdf",
                       "cards-fold-letter.pdf", "cards-printshop.pdf", "tts/spells-1.png", "overview.png",
                       "rulebook-a4.pdf", "rulebook-letter.pdf", f"tts/{GAME}.json"}
    after = {p: p.stat().st_mtime_ns for p in (out / "png").glob("*.png")}
    changed = {p.name for p in before if before[p] != after[p]}
    assert changed == {"fire-bolt.png"}
    assert build(options(workspace)).written == []  # and nothing when nothing changed


def test_a_failed_build_leaves_the_last_good_files(workspace):
    some = {"kinds": ("png", "sheets"), "papers": ("a4",)}  # every kind is written the same way
    build(options(workspace, **some))
    good = snapshot(workspace / "build")
    edit(workspace / "cards" / GAME / "spells.yaml", "Double damage to wet or frozen targets.",
         "Double damage to wet or frozen targets. " + "Very long text indeed. " * 60)
    with pytest.raises(ValidationFailed) as failed:
        build(options(workspace, **some))
    assert snapshot(workspace / "build") == good
    [problem] = failed.value.problems
    assert problem.file.endswith(f"{GAME}/spells.yaml") and problem.line == 3
    assert "card 'fire-bolt', box 'body'" in problem.message and "does not fit" in problem.message


def test_a_deleted_card_loses_its_image(workspace):
    build(options(workspace, kinds=("png",)))
    path = workspace / "cards" / GAME / "mayhem.yaml"
    text = path.read_text()
    start = text.index("  - id: backfire")
    end = text.index("  - id: lucky-sneeze")
    path.write_text(text[:start] + text[end:])
    report = build(options(workspace, kinds=("png",)))
    assert [p.name for p in report.removed] == ["backfire.png"]
    assert not (workspace / "build" / GAME / "png" / "backfire.png").exists()


def test_only_one_kind_and_one_paper(fresh_workspace):
    report = build(options(fresh_workspace, kinds=("sheets",), papers=("letter",)))
    out = fresh_workspace / "build" / GAME
    assert sorted(p.relative_to(out).as_posix() for p in report.written) == ["cards-letter.pdf"]
    assert not (out / "png").exists()


def test_missing_art_in_a_draft_warns_and_draws_a_placeholder(workspace):
    """Without allow_missing_art it stops the build: tests/test_art_checks.py."""
    edit(workspace / "cards" / GAME / "mayhem.yaml", "    art: game-icons:boomerang\n", "    art: art/backfire.png\n")
    report = build(options(workspace, kinds=("png",), allow_missing_art=True))
    assert any("art file art/backfire.png not found" in w for w in report.warnings)
    assert (workspace / "build" / GAME / "png" / "backfire.png").is_file()


def test_art_is_drawn_when_the_file_exists(workspace):
    art = workspace / "cards" / GAME / "art"
    art.mkdir()
    Image.new("RGB", (1200, 1000), (10, 200, 30)).save(art / "backfire.png")  # sharp at 300 dpi
    edit(workspace / "cards" / GAME / "mayhem.yaml", "    art: game-icons:boomerang\n", "    art: art/backfire.png\n")
    report = build(options(workspace, kinds=("png", "sheets"), papers=("a4",)))
    assert report.warnings == []
    with Image.open(workspace / "build" / GAME / "png" / "backfire.png") as im:
        assert im.getpixel((412, 380)) == (10, 200, 30)  # the middle of the art box


def test_pdfs_from_cached_face_forms_equal_freshly_drawn_ones(fresh_workspace):
    build(options(fresh_workspace, kinds=("sheets", "fold"), jobs=1))  # one process: the first PDF draws every face
    out = fresh_workspace / "build" / GAME
    drawn = {p.name: p.read_bytes() for p in out.glob("*.pdf")}
    assert list((out / ".cache" / "pdf").glob("*.form"))
    for pdf in out.glob("*.pdf"):
        pdf.unlink()
    report = build(options(fresh_workspace, kinds=("sheets", "fold")))
    assert len(report.written) == 4
    assert {p.name: p.read_bytes() for p in out.glob("*.pdf")} == drawn


def test_a_one_card_edit_fills_the_kept_sheets_and_equals_a_cold_build(small_workspace):
    """After an edit to a card's text, its sheets are their kept skeleton with the new form put
    in (skeleton.py), not drawn again: byte for byte what a build with no cache makes."""
    from spellpress.press.drawing import skeleton

    some = {"kinds": ("sheets", "fold", "printshop"), "papers": ("a4",)}
    out = small_workspace / "build" / SMALL
    build(options(small_workspace, **some))
    first = {p.name: p.read_bytes() for p in out.glob("*.pdf")}
    assert sorted(first) == ["cards-a4.pdf", "cards-fold-a4.pdf", "cards-printshop.pdf"]
    kept = {p: p.stat().st_mtime_ns for p in (out / ".cache" / "pdf").glob("*.skeleton")}
    assert len(kept) == 3
    draw = small_workspace / "cards" / SMALL / "draw.yaml"
    edit(draw, "Look at the hand of any one player.", "Look at the hand of one player.")
    assert len(build(options(small_workspace, **some)).written) == 3
    assert {p: p.stat().st_mtime_ns for p in kept} == kept  # filled, not made again
    cold = options(small_workspace, **some)
    build(Options(**{**cold.__dict__, "out": small_workspace / "cold"}))
    for name in first:
        assert (out / name).read_bytes() == (small_workspace / "cold" / SMALL / name).read_bytes() != first[name], name
    # a damaged skeleton is not used: the sheets are drawn whole, and right
    path = next(iter(kept))
    data = path.read_bytes()
    with pytest.raises(ValueError):
        skeleton.fill(data[:-10], lambda form: b"")
    path.write_bytes(data[:-10])
    edit(draw, "Look at the hand of one player.", "Look at the hand of any one player.")
    build(options(small_workspace, **some))
    assert {p.name: p.read_bytes() for p in out.glob("*.pdf")} == first


def test_watch_rebuilds_when_a_card_is_saved(workspace):
    import threading
    import time

    from spellpress.press.runners.once import run_once
    from spellpress.press.runners.watch import watch

    stop = threading.Event()
    o = options(workspace, kinds=("png",))
    thread = threading.Thread(target=watch, args=(o, run_once, stop), daemon=True)
    thread.start()
    png = workspace / "build" / GAME / "png" / "fire-bolt.png"
    deadline = time.monotonic() + 60
    while not png.exists():
        assert time.monotonic() < deadline, "the first build did not finish"
        time.sleep(0.05)
    first = png.read_bytes()
    time.sleep(0.2)
    edit(workspace / "cards" / GAME / "spells.yaml", "Double damage to wet or frozen targets.", "Double damage to wet targets.")
    while png.read_bytes() == first:
        assert time.monotonic() < deadline, "watch did not rebuild the edited card"
        time.sleep(0.05)
    stop.set()
    thread.join(timeout=10)
    assert not thread.is_alive()


def test_a_new_version_of_a_library_makes_stale_what_it_draws_and_only_that(small_workspace, monkeypatch):
    o = options(small_workspace, kinds=("sheets", "png", "tts", "rulebook"), papers=("a4",), booklet=True)
    out = small_workspace / "build" / SMALL
    made = {p.relative_to(out).as_posix() for p in build(o).written}
    drawn = snapshot(out)

    def upgrade(library):
        monkeypatch.setitem(libraries.READERS, library, lambda: "99.0")
        return {p.relative_to(out).as_posix() for p in build(o).written}

    assert upgrade("reportlab") == {rel for rel in made if rel.endswith(".pdf")}
    assert upgrade("Pillow's zlib") == {rel for rel in made if rel.endswith(".png")}  # faces, TTS sheets and backs
    assert upgrade("pypdf") == {"rulebook-a4-booklet.pdf"}
    assert upgrade("zlib") == {rel for rel in made if rel.endswith(".pdf") or rel.startswith("tts/") and "back" not in rel
                               and rel.endswith(".png")}  # reportlab's streams and the banded sheets
    def outputs(files):
        return {rel: data for rel, data in files.items() if ".cache" not in rel.parts and rel.name != Manifest.NAME}

    assert outputs(snapshot(out)) == outputs(drawn)  # drawn again, to the same bytes


def test_a_new_deck_back_remakes_the_tts_sheets_that_show_it(workspace):
    build(options(workspace, kinds=("tts",)))
    edit(workspace / "templates" / "magicka-mayhem" / "back-mayhem.yaml", "{icon: burst}", "{icon: fire}")
    report = build(options(workspace, kinds=("tts",)))
    written = {p.name for p in report.written}
    assert written == {"mayhem-back.png", *(entry["sheet"] for entry in json.loads(
        (workspace / "build" / GAME / "tts" / "sheets.json").read_text())["sheets"] if entry["deck"] == "Mayhem deck")}


def test_every_file_a_kind_lists_is_known_as_its_own(fresh_workspace):
    """The manifest tells whose an old file is by the kinds' file names: what each lists must match."""
    from spellpress.press.drawing.papers import PAPER_NAMES
    from spellpress.press.model.plan import plan
    from spellpress.press.outputs.gamebuild import GameBuild, Report
    from spellpress.press.outputs.listing import LISTS

    o = options(fresh_workspace, booklet=True)
    [game_plan], _ = plan(o)
    game = GameBuild(game_plan, o, {}, libraries.versions, Report())
    # the game has no tokens (test_press_tokens.py), and a reprint lists nothing until cards are marked printed
    # (test_press_targets.py)
    for kind in [k for k in kinds.REGISTRY.values() if k.name not in ("tokens", "reprint")]:
        listed = LISTS[kind.name](game)
        assert listed and {kinds.owner(output.rel, PAPER_NAMES)[0] for output in listed} == {kind.name}
    assert kinds.owner("cards-fold-letter.pdf", PAPER_NAMES) == ("fold", "letter")
    assert kinds.owner("cards-a3.pdf", PAPER_NAMES) is None and kinds.owner("notes.txt", PAPER_NAMES) is None


def test_outputs_of_kinds_and_papers_not_asked_for_are_kept(workspace):
    build(options(workspace, kinds=("sheets", "printshop", "playmat")))
    out = workspace / "build" / GAME
    before = Manifest(out).old
    report = build(options(workspace, kinds=("sheets",), papers=("a4",)))
    assert report.removed == [] and [p.name for p in report.unchanged] == ["cards-a4.pdf"]
    assert Manifest(out).old == before and all((out / rel).is_file() for rel in before)


def test_a_manifest_from_a_stranger_removes_nothing_outside_the_outputs(workspace, tmp_path):
    """Entries naming files elsewhere, climbing out, or named like no output are left alone, with a
    warning; so is an output reached through a link that leads out of the directory."""
    build(options(workspace, kinds=("png",)))
    out = workspace / "build" / GAME
    precious = tmp_path / "thesis.odt"
    precious.write_text("four years of work")
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "fire-bolt.png").write_text("not ours")
    (out / "notes.txt").write_text("the designer's notes")
    manifest = json.loads((out / Manifest.NAME).read_text())
    strangers = {str(precious): "x", "png/../../../thesis.odt": "x", "notes.txt": "x", "tts/../notes.txt": "x",
                 "linked/fire-bolt.png": "x"}
    manifest.update(strangers)
    (out / "linked").symlink_to(outside)
    (out / Manifest.NAME).write_text(json.dumps(manifest))
    report = build(options(workspace, kinds=("png",)))
    assert precious.read_text() == "four years of work"
    assert (out / "notes.txt").read_text() == "the designer's notes"
    assert (outside / "fire-bolt.png").read_text() == "not ours"
    assert report.removed == []
    warned = "\n".join(report.warnings)
    for entry in (str(precious), "png/../../../thesis.odt", "tts/../notes.txt"):
        assert repr(entry) in warned, entry
    assert "notes.txt: left alone" in warned and "linked/fire-bolt.png: left alone" in warned
    kept = set(json.loads((out / Manifest.NAME).read_text()))
    assert kept.isdisjoint(strangers) and all((out / rel).is_file() for rel in kept)


def test_an_output_reached_through_a_link_out_of_the_directory_is_never_removable(tmp_path):
    out, elsewhere = tmp_path / "out", tmp_path / "elsewhere"
    out.mkdir()
    elsewhere.mkdir()
    (elsewhere / "fire-bolt.png").write_text("not ours")
    (out / "png").symlink_to(elsewhere)
    (out / "tts").mkdir()
    (out / "tts" / "spells-1.png").write_text("ours")
    manifest = Manifest(out)
    assert not manifest.removable("png/fire-bolt.png")
    assert manifest.removable("tts/spells-1.png")
