"""`spellpress new`: a variant of a game, or a game of YAML alone, that validates and builds at once."""

import shutil

import pikepdf
import pytest

from spellpress.cli import main


@pytest.fixture
def project(tmp_path, cards_dir, monkeypatch):
    """A designer's folder: the five games and their layouts, as the repository has them."""
    shutil.copytree(cards_dir, tmp_path / "cards")
    shutil.copytree(cards_dir.parent / "templates", tmp_path / "templates")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_variant_keeps_every_part_of_its_game_under_its_own_name(project, capsys):
    assert main(["new", "magicka-frenzy", "--from", "magicka-mayhem", "--title", "Magicka Frenzy"]) == 0
    out = capsys.readouterr().out
    assert "ok: 1 games, " in out and "next: spellpress build magicka-frenzy" in out
    decks = (project / "cards" / "magicka-frenzy" / "decks.yaml").read_text()
    assert "magicka-mayhem/" not in decks and "template: magicka-frenzy/spell" in decks
    assert all("magicka-mayhem/" not in p.read_text() for p in (project / "templates" / "magicka-frenzy").glob("*.yaml"))
    assert (project / "templates" / "rulebook" / "magicka-frenzy.md.j2").is_file()
    assert (project / "templates" / "playmat" / "magicka-frenzy.yaml").is_file()
    assert "title: \"Magicka Frenzy\"" in (project / "cards" / "magicka-frenzy" / "game.yaml").read_text()
    assert main(["build", "magicka-frenzy", "magicka-mayhem", "--here", "--only", "rulebook", "playmat", "--paper", "a4"]) == 0
    pages = {g: len(pikepdf.open(project / "build" / g / "rulebook-a4.pdf").pages) for g in ("magicka-frenzy", "magicka-mayhem")}
    assert pages["magicka-frenzy"] == pages["magicka-mayhem"], "the variant's rulebook keeps every section"
    assert (project / "build" / "magicka-frenzy" / "playmat.pdf").is_file()


def test_nothing_is_overwritten_and_a_bad_name_is_refused(project, capsys):
    before = {p: p.read_bytes() for p in (project / "cards" / "spellchamber").iterdir()}
    assert main(["new", "spellchamber", "--from", "powermage-54"]) == 2
    assert "exists already" in capsys.readouterr().err
    assert {p: p.read_bytes() for p in (project / "cards" / "spellchamber").iterdir()} == before
    (project / "templates" / "rulebook" / "chamber-two.md.j2").write_text("kept")
    assert main(["new", "chamber-two", "--from", "spellchamber"]) == 2
    assert "chamber-two.md.j2 exists already" in capsys.readouterr().err
    assert not (project / "cards" / "chamber-two").exists(), "nothing is written when any part is taken"
    assert (project / "templates" / "rulebook" / "chamber-two.md.j2").read_text() == "kept"
    for bad in ("Bad_Name", "../escape", "x-", "a--b"):
        assert main(["new", bad]) == 2, bad
        assert "cannot name a game" in capsys.readouterr().err
    assert main(["new", "copy", "--from", "no-such-game"]) == 2
    assert "no game 'no-such-game'" in capsys.readouterr().err


def test_a_game_of_yaml_alone_from_nothing_validates_and_builds(project, capsys):
    assert main(["new", "goblin-market", "--title", "Goblin Market"]) == 0
    out = capsys.readouterr()
    assert "ok: 1 games, 1 decks, 3 unique cards" in out.out
    assert "laid out from the decks and counters" in out.err, "the fallback playmat is said"
    assert "ruleset" not in (project / "cards" / "goblin-market" / "game.yaml").read_text().split("\ntitle")[1]
    assert main(["build", "goblin-market", "--here", "--paper", "a4"]) == 0
    for name in ("cards-a4.pdf", "rulebook-a4.pdf", "playmat.pdf"):
        assert (project / "build" / "goblin-market" / name).is_file(), name
