"""A game's folder may come from a stranger: a FIFO, a device or a link out of the folder among
its files is refused at the file, never opened, read without end or followed."""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys

import pytest

from spellpress.core import ValidationFailed, load_games

GAME = "powermage-54"


@pytest.fixture
def cards(tmp_path, cards_dir):
    out = tmp_path / "cards"
    shutil.copytree(cards_dir / GAME, out / GAME)
    return out


def _validate(cards):
    """`spellpress validate` on `cards`, in 2 GB of memory and 30 s at most (a file read without
    end fails it either way), without the layouts."""

    def bounded() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))

    return subprocess.run([sys.executable, "-m", "spellpress.cli", "validate", "--cards", str(cards),
                           "--templates", str(cards / "no-layouts")],
                          capture_output=True, text=True, timeout=30, preexec_fn=bounded)


def test_a_fifo_among_the_card_files_is_a_problem_at_it_not_a_hang(cards):
    os.mkfifo(cards / GAME / "zz.yaml")
    done = _validate(cards)
    assert done.returncode == 1, done.stderr
    assert f"cards/{GAME}/zz.yaml: this is a FIFO (named pipe), not a file of text" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_fifo_in_place_of_game_yaml_is_said_too(cards):
    rules = cards / GAME / "rules.yaml"
    rules.unlink()
    os.mkfifo(rules)
    with pytest.raises(ValidationFailed) as failed:
        load_games(cards)
    assert [p.message for p in failed.value.problems if p.file.endswith("rules.yaml")] == [
        "this is a FIFO (named pipe), not a file of text; only plain files are read here: put a file in its place or take it away"]


def test_a_card_file_linked_to_dev_zero_is_refused_without_reading_it(cards):
    (cards / GAME / "zz.yaml").symlink_to("/dev/zero")
    done = _validate(cards)
    assert done.returncode == 1, done.stderr[-2000:]
    assert f"cards/{GAME}/zz.yaml: 'zz.yaml' leads out of the game's directory through a link" in done.stderr


def test_a_card_file_linked_out_of_the_game_is_not_followed(cards, tmp_path):
    outside = tmp_path / "elsewhere.yaml"
    outside.write_text((cards / GAME / "aids.yaml").read_text())
    (cards / GAME / "aids.yaml").unlink()
    (cards / GAME / "aids.yaml").symlink_to(outside)
    with pytest.raises(ValidationFailed) as failed:
        load_games(cards)
    said = [str(p) for p in failed.value.problems]
    assert any("aids.yaml: 'aids.yaml' leads out of the game's directory through a link; a game's files are kept "
               "in its directory" in s for s in said), said


def test_a_card_file_linked_within_the_game_is_read(cards):
    (cards / GAME / "kept").mkdir()
    (cards / GAME / "aids.yaml").rename(cards / GAME / "kept" / "aids.yaml")
    (cards / GAME / "aids.yaml").symlink_to("kept/aids.yaml")
    (game,) = load_games(cards)
    assert game.slug == GAME and game.cards
