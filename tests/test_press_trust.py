"""Builds you can trust (issue 26): a failed or killed build changes nothing, the next good one
makes what a clean build makes, byte for byte, and builds with different options keep each
other's files. On a game of YAML alone (`spellpress new`), which builds in a second."""

import os
import shutil
import signal

import pytest
from PIL import Image

from spellpress import defaults
from spellpress.cli import main
from spellpress.press.model.manifest import Manifest
from spellpress.press.model.options import Options
from spellpress.press.outputs import jobs
from spellpress.press.outputs.build import build
from spellpress.press.outputs.gamebuild import STAGING

SLUG = "goblin-market"
TALL = "extends: poker\nsize: [70, 120]\n"  # the tarot size of the report


@pytest.fixture
def goblin(tmp_path, monkeypatch):
    """A new game of YAML alone, with the shared card layout copied into its templates to edit."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SPELLPRESS_RESIDENT", "0")
    assert main(["new", SLUG]) == 0
    (tmp_path / "templates").mkdir(exist_ok=True)
    shutil.copy(defaults.TEMPLATES / "card.yaml", tmp_path / "templates" / "card.yaml")
    shutil.copy(defaults.TEMPLATES / "back.yaml", tmp_path / "templates" / "back.yaml")
    return tmp_path


def options(ws, **kw):
    return Options(cards=ws / "cards", templates=ws / "templates", out=ws / "build", progress=False, **kw)


def files(out, cache=False):
    """Every file under `out` and its bytes; the cache only if asked (a failed build may add to it:
    its files are named by what they hold)."""
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file() and (cache or ".cache" not in p.relative_to(out).parts)}


def outputs(out):
    """The outputs, without the manifest (which records the files' times)."""
    return {rel: data for rel, data in files(out).items() if not rel.endswith(Manifest.NAME)}


def clean(o):
    """The outputs of a clean build of `o` into an empty folder: the same path, so that what names
    the folder (the TTS object's file:/// addresses) is the same; the build there is put back."""
    kept = o.out.with_name(o.out.name + ".kept")
    o.out.rename(kept)
    try:
        build(o)
        return outputs(o.out)
    finally:
        shutil.rmtree(o.out)
        kept.rename(o.out)


def _fail(self, shared):
    raise ValueError("a job that fails after others were written")


def test_a_build_that_fails_part_way_changes_nothing_and_the_next_is_clean(goblin, monkeypatch):
    """The issue's report: a layout made 70 x 120 mm, a build that fails after it drew the PNGs;
    the layout put back, `build` said '0 written, 19 unchanged' and the PNGs stayed 902 x 1492.
    (The sheets fail on purpose here, so that the case stays one when any size builds.)"""
    o = options(goblin)
    build(o)
    before = files(goblin / "build")
    card, back = goblin / "templates" / "card.yaml", goblin / "templates" / "back.yaml"
    good, good_back = card.read_text(), back.read_text()
    card.write_text(good.replace("extends: poker\n", TALL))
    back.write_text(good_back.replace("extends: poker\n", TALL))  # the backs their size too: it builds
    monkeypatch.setattr(jobs.SheetsPdf, "__call__", _fail)
    with pytest.raises(ValueError):
        build(o)
    assert files(goblin / "build") == before, "a failed build changed the outputs or the manifest"
    monkeypatch.undo()
    card.write_text(good)
    back.write_text(good_back)
    build(o)
    assert outputs(goblin / "build") == clean(o)
    with Image.open(goblin / "build" / SLUG / "png" / "gather.png") as im:
        assert im.size == (825, 1125)


def test_the_next_good_build_after_a_failure_of_one_process_is_clean(goblin, monkeypatch):
    """The same in one process (jobs=1), the edit this time a card's text, and a build that then
    succeeds with the edit: it makes what a clean build makes."""
    o = options(goblin, jobs=1)
    build(o)
    before = files(goblin / "build")
    actions = goblin / "cards" / SLUG / "actions.yaml"
    actions.write_text(actions.read_text().replace("loses 2 health", "loses 3 health"))
    monkeypatch.setattr(jobs.SheetsPdf, "__call__", _fail)
    with pytest.raises(ValueError):
        build(o)
    assert files(goblin / "build") == before
    monkeypatch.undo()
    report = build(o)
    assert "png/quick-strike.png" in {p.relative_to(goblin / "build" / SLUG).as_posix() for p in report.written}
    assert outputs(goblin / "build") == clean(o)


def test_files_moved_into_place_by_a_build_that_never_saved_its_manifest_are_not_called_unchanged(goblin, monkeypatch):
    """A build killed after it moved its files into place but before it saved the manifest: the
    manifest then names files that are not on disk as it says. It is believed only about what is."""
    o = options(goblin)
    build(o)
    actions = goblin / "cards" / SLUG / "actions.yaml"
    good = actions.read_text()
    actions.write_text(good.replace("loses 2 health", "loses 3 health"))

    def killed(self):
        raise KeyboardInterrupt

    monkeypatch.setattr(Manifest, "save", killed)
    with pytest.raises(KeyboardInterrupt):
        build(o)
    monkeypatch.undo()
    actions.write_text(good)
    report = build(o)
    assert "png/quick-strike.png" in {p.relative_to(goblin / "build" / SLUG).as_posix() for p in report.written}
    assert outputs(goblin / "build") == clean(o)


def test_a_build_killed_mid_way_changes_nothing(goblin):
    """SIGKILL during the PDFs, after the PNGs were drawn: nothing moved, and the next build
    clears what the killed one left aside."""
    o = options(goblin, jobs=1)
    build(o)
    before = files(goblin / "build")
    actions = goblin / "cards" / SLUG / "actions.yaml"
    actions.write_text(actions.read_text().replace("loses 2 health", "loses 3 health"))
    pid = os.fork()
    if pid == 0:  # the build to kill
        try:
            jobs.SheetsPdf.__call__ = lambda self, shared: os.kill(os.getpid(), signal.SIGKILL)
            build(o)
        finally:
            os._exit(3)
    _, status = os.waitpid(pid, 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
    left = {rel: data for rel, data in files(goblin / "build").items() if STAGING not in rel.split("/")}
    assert left == before, "a killed build changed the outputs or the manifest"
    build(o)
    assert outputs(goblin / "build") == clean(o)
    hidden = {p.name for p in (goblin / "build" / SLUG).iterdir() if p.name.startswith(".")}
    assert hidden == {".cache", Manifest.NAME, ".spellpress-cards.json"}


# -- builds with different options, side by side


def _cli(*args):
    assert main(["build", "--here", *args]) == 0


def test_builds_with_different_options_keep_each_others_files(goblin):
    """The issue's report: `build --booklet` removed every file of an earlier `--target` build,
    and a later `--letter-3x3` build removed the booklets."""
    out = goblin / "build" / SLUG
    _cli("--target", "mpc", "--target", "tgc", "--target", "dtc")
    shops = {rel: data for rel, data in files(out).items() if rel.split("/")[0] in ("mpc", "tgc", "dtc")}
    assert len(shops) > 10
    _cli("--booklet")
    assert {rel: files(out)[rel] for rel in shops} == shops, "a plain build removed the print shops' files"
    booklets = {rel: data for rel, data in files(out).items() if "booklet" in rel}
    assert sorted(booklets) == ["rulebook-a4-booklet.pdf", "rulebook-letter-booklet.pdf"]
    _cli("--letter-3x3")
    now = files(out)
    assert {rel: now.get(rel) for rel in booklets} == booklets, "a build without --booklet removed the booklets"
    assert {rel: now.get(rel) for rel in shops} == shops
    _cli("--paper", "a4", "--only", "sheets")
    now = files(out)
    assert "cards-letter-3x3.pdf" in now and "cards-letter.pdf" in now and "overview.png" in now
    _cli("--ink", "mono")
    _cli()
    assert (out / "ink-mono" / "cards-a4.pdf").is_file(), "a build in full colour removed the mono build's files"
    kept = {**shops, **booklets, "cards-letter-3x3.pdf": now["cards-letter-3x3.pdf"]}
    assert {rel: files(out).get(rel) for rel in kept} == kept


def test_a_build_removes_what_it_made_obsolete_and_leaves_no_empty_folder(goblin):
    """A deck renamed: its print shop's folder of the old name goes whole, folder and all; another
    shop's, not asked for this time, stays."""
    out = goblin / "build" / SLUG
    _cli("--target", "mpc", "--target", "tgc")
    assert (out / "mpc" / "actions" / "back.png").is_file()
    decks = goblin / "cards" / SLUG / "decks.yaml"
    decks.write_text(decks.read_text().replace("decks:\n  actions:", "decks:\n  moves:"))
    cards = goblin / "cards" / SLUG / "actions.yaml"
    cards.write_text(cards.read_text().replace("\nactions:\n", "\nmoves:\n"))
    _cli("--target", "mpc")
    assert not (out / "mpc" / "actions").exists(), "the renamed deck's folder stayed (empty or not)"
    assert (out / "mpc" / "moves" / "back.png").is_file()
    assert (out / "tgc" / "actions" / "back.png").is_file(), "a build for mpc removed tgc's files"
    _cli("--target", "tgc", "--target", "home", "--only", "png")  # home's png and tgc's files
    assert not (out / "tgc" / "actions").exists() and (out / "tgc" / "moves").is_dir()
    empty = [p for p in out.rglob("*") if p.is_dir() and not any(p.iterdir())]
    assert empty == []


def test_the_manifest_believes_the_bytes_on_disk_not_their_times(goblin):
    """A file whose time moved but not its bytes (a copy that lost its times) is not made again;
    one changed by hand to the same size is, and comes back as a clean build makes it."""
    o = options(goblin)
    build(o)
    out = goblin / "build" / SLUG
    png = out / "png" / "gather.png"
    os.utime(png, ns=(1, 1))
    assert build(o).written == []
    data = bytearray(png.read_bytes())
    data[-20] ^= 0xFF
    png.write_bytes(bytes(data))
    assert build(o).written == [png]
    assert outputs(goblin / "build") == clean(o)


def test_a_second_build_into_the_same_folder_waits_for_the_first(goblin):
    """Two builds at once (the resident builder's and a `--here`, two terminals) would share a
    game's staging folder and manifest: the second waits while the first holds the folder."""
    import fcntl
    import subprocess
    import sys

    lock = goblin / "build" / ".cache" / "build.lock"
    lock.parent.mkdir(parents=True)
    with open(lock, "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)  # a build under way
        second = subprocess.Popen([sys.executable, "-m", "spellpress.cli", "build", "--here", "--only", "png"],
                                  cwd=goblin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert second.stdout.readline().startswith("waiting for another build into build to finish")
        assert not (goblin / "build" / SLUG).exists()  # nothing touched while it waits
    out, err = second.communicate(timeout=120)
    assert second.returncode == 0, err
    assert "written" in out
    assert outputs(goblin / "build") == clean(options(goblin, kinds=("png",)))
