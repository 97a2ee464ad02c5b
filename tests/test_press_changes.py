"""`build` and `watch` say which cards changed, and when."""

import re
import shutil
from pathlib import Path

import pytest

from spellpress.cli import main
from spellpress.press.runners.watch import saved


@pytest.fixture
def project(tmp_path, cards_dir, monkeypatch):
    shutil.copytree(cards_dir / "spellchamber", tmp_path / "cards" / "spellchamber")
    shutil.copytree(cards_dir.parent / "templates", tmp_path / "templates")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _build(capsys):
    assert main(["build", "--here", "--only", "png"]) == 0
    return capsys.readouterr().out


def test_a_build_names_the_cards_that_changed_since_the_last(project, capsys):
    first = _build(capsys)
    assert "cards" not in first.split("built in")[0], "a first build has nothing to compare with"
    assert "cards" not in _build(capsys).split("built in")[0], "nothing changed, nothing said"
    spells = project / "cards" / "spellchamber" / "spells.yaml"
    spells.write_text(spells.read_text().replace("they skip their next battle turn", "they skip two battle turns"))
    game = project / "cards" / "spellchamber" / "game.yaml"
    said = _build(capsys)
    assert re.search(r"^\d\d:\d\d:\d\d spellchamber: cards 1 changed \(Sleep Magic\)$", said, re.M), said
    text = spells.read_text()
    start = text.index("  - id: sleep-magic")
    end = text.index("  - id:", start + 5)
    spells.write_text(text[:start] + text[end:])
    # the cards after it move up a number, and every card's total drops (the identity stamp): they change too
    assert "; 1 removed (sleep-magic)" in _build(capsys)
    assert game.is_file()


def test_a_damaged_record_is_no_reason_to_fail(project, capsys):
    _build(capsys)
    (project / "build" / "spellchamber" / ".spellpress-cards.json").write_text('{"\\u001b[31mx": 1, "ok": [1]}')
    said = _build(capsys)
    assert "\x1b" not in said and "removed (ok)" in said, said


def test_watch_says_which_file_was_saved():
    before = {Path("cards/a.yaml"): (1, 10), Path("cards/b.yaml"): (1, 10)}
    now = {Path("cards/a.yaml"): (2, 11), Path("cards/c.yaml"): (1, 5)}
    assert saved(before, now) == "cards/a.yaml saved, cards/b.yaml removed, cards/c.yaml added"
