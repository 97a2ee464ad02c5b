"""Decks as spreadsheets: read with the card files' own checks, and exported so they read back the same."""

import shutil

import pytest

from spellpress.cli import main
from spellpress.core import ValidationFailed, load_games
from spellpress.core.loader import card_files

GAMES = ["magicka-mayhem", "spellchamber", "powermage-54", "powers-combined", "sorcerer-duel"]


def _same(card_a, card_b):
    keys = ("id", "name", "deck", "type", "count", "fields", "art", "flavor")
    return {k: getattr(card_a, k) for k in keys} == {k: getattr(card_b, k) for k in keys}


@pytest.mark.parametrize("slug", GAMES)
def test_every_deck_exported_as_csv_reads_back_as_the_same_cards(slug, cards_dir, tmp_path, capsys):
    assert main(["export", "csv", slug, "--cards", str(cards_dir), "--out", str(tmp_path / "out")]) == 0
    capsys.readouterr()
    game_dir = tmp_path / "cards" / slug
    shutil.copytree(cards_dir / slug, game_dir)
    for path in card_files(game_dir):
        path.unlink()
    for sheet in (tmp_path / "out" / slug).glob("*.csv"):
        shutil.copyfile(sheet, game_dir / sheet.name)
    (original,) = load_games(cards_dir, [slug])
    (again,) = load_games(tmp_path / "cards", [slug])
    assert list(again.decks) == list(original.decks)
    for deck in original.decks:
        a, b = original.decks[deck].cards, again.decks[deck].cards
        assert [c.id for c in a] == [c.id for c in b]
        for x, y in zip(a, b):
            assert _same(x, y), (x, y)
    assert again.rules == original.rules


def _one_deck_game(cards_dir, tmp_path, csv_text):
    game = tmp_path / "cards" / "spellchamber"
    shutil.copytree(cards_dir / "spellchamber", game)
    (game / "spells.yaml").unlink()
    (game / "spells.csv").write_text(csv_text, encoding="utf-8")
    return tmp_path / "cards"


SPELLS_HEADER = "id,name,count,kind,slots,text\n"


def test_a_spreadsheet_deck_loads_with_lists_numbers_and_quoted_cells(cards_dir, tmp_path):
    cards = _one_deck_game(cards_dir, tmp_path, SPELLS_HEADER.replace("\n", ",effect\n")  # a spell declares its effect
                           + 'mind-control,Mind Control,3,regular,2,"Choose a wizard, then: shoot.",mind-control\n'
                           + "sleep-magic,Sleep Magic,,regular,3,Sleep.,sleep\n\n")
    (game,) = load_games(cards, ["spellchamber"])
    spells = game.decks["spells"].cards
    assert [c.id for c in spells] == ["mind-control", "sleep-magic"]
    assert spells[0].count == 3 and spells[1].count == 1
    assert spells[0].fields["slots"] == 2 and spells[0].fields["text"] == "Choose a wizard, then: shoot."


def test_every_problem_in_a_spreadsheet_names_its_file_row_and_column(cards_dir, tmp_path):
    cards = _one_deck_game(cards_dir, tmp_path, "id,name,count,kind,slots,text,colour\n"
                           + "mind-control,Mind Control,three,regular,2,Shoot.,\n"
                           + "sleep-magic,Sleep Magic,1,regullar,x,Sleep.,red\n")
    with pytest.raises(ValidationFailed) as failed:
        load_games(cards, ["spellchamber"])
    said = [str(p) for p in failed.value.problems]
    shown = str(cards / "spellchamber" / "spells.csv")
    assert any(s.startswith(f"{shown}:2:27: ") and "count" in s and "'three'" in s for s in said), said
    assert any(s.startswith(f"{shown}:3:27: ") and "regullar" in s and "did you mean 'regular'" in s for s in said), said
    assert any(s.startswith(f"{shown}:3:36: ") and "slots" in s and "whole number" in s for s in said), said
    assert any(s.startswith(f"{shown}:1:31: ") and "unknown key 'colour'" in s for s in said), said


def test_a_spreadsheet_named_for_no_deck_and_a_broken_row_are_said_plainly(cards_dir, tmp_path):
    cards = _one_deck_game(cards_dir, tmp_path, SPELLS_HEADER + "a,b,1,regular,2,x,extra\n")
    with pytest.raises(ValidationFailed) as failed:
        load_games(cards, ["spellchamber"])
    assert any(":2:1: this row has 7 cells, the first row names 6 columns" in str(p) for p in failed.value.problems)
    shutil.move(cards / "spellchamber" / "spells.csv", cards / "spellchamber" / "spels.csv")
    (cards / "spellchamber" / "spels.csv").write_text(SPELLS_HEADER + "a,B,1,regular,2,x\n")
    with pytest.raises(ValidationFailed) as failed:
        load_games(cards, ["spellchamber"])
    assert any("unknown deck 'spels' (did you mean 'spells'?)" in str(p) and "file name is its deck's id" in str(p)
               for p in failed.value.problems)


def test_text_that_a_spreadsheet_would_run_as_a_formula_is_exported_inert_and_reads_back_the_same(tmp_path):
    from spellpress.core import csvsource

    cards = [{"id": "x", "name": "=HYPERLINK(\"http://evil\")", "count": 2, "text": "-2 health\n"}]
    table = csvsource.rows(cards, "game/deck")
    assert table[1][1].startswith("'=") and table[1][3].startswith("'-")
    path = tmp_path / "deck.csv"
    csvsource.write(path, table)
    doc, problems = csvsource.read(path, lambda type_id, column: "count" if column == "count" else "text")
    assert problems == [] and doc.data == {"deck": cards}


def test_a_list_cell_that_starts_like_a_formula_is_exported_inert_and_reads_back_the_same(tmp_path):
    from spellpress.core import csvsource

    cards = [{"id": "x", "name": "X", "elements": ['=HYPERLINK("http://evil")', "Fire"]},
             {"id": "y", "name": "Y", "elements": ["-1", "@me"]}]
    table = csvsource.rows(cards, "game/deck")
    assert table[1][2] == "'=HYPERLINK(\"http://evil\");Fire" and table[2][2] == "'-1;@me"
    path = tmp_path / "deck.csv"
    csvsource.write(path, table)
    doc, problems = csvsource.read(path, lambda type_id, column: "elements" if column == "elements" else "text")
    assert problems == [] and doc.data == {"deck": cards}


def test_text_that_starts_with_quotes_and_a_formula_keeps_its_quotes_on_the_way_back(tmp_path):
    from spellpress.core import csvsource

    cards = [{"id": "x", "name": "'=1+1", "text": "''-2 health"}, {"id": "y", "name": "'quoted'", "text": "'@"}]
    table = csvsource.rows(cards, "game/deck")
    assert table[1][1:] == ["''=1+1", "'''-2 health"] and table[2][1:] == ["'quoted'", "''@"]
    path = tmp_path / "deck.csv"
    csvsource.write(path, table)
    doc, problems = csvsource.read(path, lambda type_id, column: "text")
    assert problems == [] and doc.data == {"deck": cards}
    (path.parent / "typed.csv").write_text("id,name\nz,'=SUM(A1)\n")  # quoted by hand in a spreadsheet: still text
    doc, problems = csvsource.read(path.parent / "typed.csv", lambda type_id, column: "text")
    assert problems == [] and doc.data == {"typed": [{"id": "z", "name": "=SUM(A1)"}]}
