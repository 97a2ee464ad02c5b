"""A load of the games is bounded in work, not only in bytes: a big file that looks valid is
refused at the row or card past the bound within a second or so, and no more problems are said
than anyone reads."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from spellpress.core import ValidationFailed, load_games
from spellpress.core.csvsource import MAX_COLUMNS, MAX_ROWS
from spellpress.core.loader import MAX_CARDS
from spellpress.core.problems import MAX_PROBLEMS


@pytest.fixture
def game(tmp_path):
    """A game of YAML alone, as `spellpress new` writes it, its one deck `actions`."""
    done = subprocess.run([sys.executable, "-m", "spellpress.cli", "new", "goblin-market"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return tmp_path / "cards" / "goblin-market"


def _load(cards):
    started = time.monotonic()
    with pytest.raises(ValidationFailed) as failed:
        load_games(cards)
    return failed.value, time.monotonic() - started


def test_a_spreadsheet_of_150000_valid_rows_under_4_mb_is_refused_at_the_row_past_the_bound(game):
    (game / "actions.yaml").unlink()
    sheet = game / "actions.csv"
    sheet.write_text("id,name,text\n" + "".join(f"c{i},C{i},Gain gold.\n" for i in range(150_000)))
    assert sheet.stat().st_size < 4_000_000
    failed, took = _load(game.parent)
    assert took < 30, f"{took:.1f} s"  # a ceiling for a busy machine: the bound itself is counted in work
    assert [str(p) for p in failed.problems] == [
        f"{sheet}:{MAX_ROWS + 2}:1: a spreadsheet may hold at most {MAX_ROWS:,} rows below the first, one card a row: the "
        "rows from here on are not read (a deck needs far fewer: give a card a count rather than repeat its row)"]


def test_a_million_short_rows_cost_a_second_and_one_problem_not_a_million(game):
    (game / "actions.yaml").unlink()
    (game / "actions.csv").write_text("id,name,text\n" + "x\n" * 1_000_000)
    failed, took = _load(game.parent)
    assert took < 30, f"{took:.1f} s"  # a ceiling for a busy machine: the bound itself is counted in work
    assert len(failed.problems) == 1 and failed.more == 0
    assert failed.problems[0].line == MAX_ROWS + 2


def test_a_first_row_of_thousands_of_columns_is_one_problem(game):
    (game / "actions.csv").write_text(",".join(f"c{i}" for i in range(5_000)) + "\n")
    failed, _ = _load(game.parent)
    said = [str(p) for p in failed.problems if p.file.endswith("actions.csv")]
    assert said == [f"{game / 'actions.csv'}:1:1: the first row names 5,000 columns; a spreadsheet may have "
                    f"at most {MAX_COLUMNS}: the card keys and the card type's fields"]


def test_a_game_past_its_cards_in_all_files_is_refused_at_the_card_past_the_bound(game):
    yaml_cards = 6_000
    (game / "actions.yaml").write_text("actions:\n" + "".join(f"  - {{id: y{i}, name: Y{i}, text: Go.}}\n"
                                                              for i in range(yaml_cards)))
    (game / "more.csv").write_text("id,name,text\n" + "".join(f"c{i},C{i},Go.\n" for i in range(6_000)))
    (game / "decks.yaml").write_text((game / "decks.yaml").read_text() + "  more:\n    name: More\n    back: back\n"
                                     "    types: [action]\n")
    failed, took = _load(game.parent)
    assert took < 60, f"{took:.1f} s"  # a ceiling for a busy machine: the bound itself is counted in work
    past = MAX_CARDS - yaml_cards  # the card of more.csv past the bound: its row is one below it, after the header
    assert [str(p) for p in failed.problems] == [
        f"{game / 'more.csv'}:{past + 2}:1: more[{past}]: a game may hold at most {MAX_CARDS:,} cards in all "
        "its card files: this one and those after it are not read (give a card a count rather than repeat it)"]


def test_past_500_problems_the_rest_are_counted_not_said(game, capsys):
    from spellpress.cli import main

    (game / "actions.yaml").write_text("actions:\n" + "  - {id: same, name: Same, text: Go.}\n" * 2_000)
    failed, _ = _load(game.parent)
    found = 2 * (2_000 - 1)  # every card but the first: its id and its name are used already
    assert len(failed.problems) == MAX_PROBLEMS and failed.more == found - MAX_PROBLEMS
    assert main(["validate", "--cards", str(game.parent), "--templates", str(game / "none")]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[-2:] == [f"... and {failed.more:,} more problems (the first {MAX_PROBLEMS} are said: fix those first)",
                        f"{found} problems found in {game.parent}"]
