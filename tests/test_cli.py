"""The `spellpress` command as a designer runs it."""

import json
import shutil
import subprocess
import sys

from spellpress.cli import main


def run(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "spellpress.cli", *args], capture_output=True,
                          text=True, cwd=cwd, timeout=60)


def test_validate_passes_on_the_real_cards(cards_dir):
    done = run("validate", str(cards_dir))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ok: 5 games, ") and done.stderr == ""


def test_list_json_shows_every_game_with_its_decks(cards_dir, games):
    done = run("list", "--json", "--cards", str(cards_dir))
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert [g["slug"] for g in data["games"]] == sorted(games)
    for entry in data["games"]:
        game = games[entry["slug"]]
        assert entry["title"] == game.title
        assert entry["players"] == {"min": game.players.min, "max": game.players.max}
        assert [d["id"] for d in entry["decks"]] == list(game.decks)
        for d in entry["decks"]:
            deck = game.decks[d["id"]]
            assert (d["name"], d["unique"], d["total"]) == (deck.name, len(deck.cards), sum(c.count for c in deck.cards))
        assert entry["unique"] == sum(d["unique"] for d in entry["decks"])
        assert entry["total"] == sum(d["total"] for d in entry["decks"])


def test_list_as_text_names_each_deck(cards_dir, capsys):
    assert main(["list", "--cards", str(cards_dir)]) == 0
    out = capsys.readouterr().out
    assert "Spellchamber (spellchamber), 2-4 players" in out and "[duel-scenarios]" in out


def test_help_lists_only_commands_that_work():
    done = run("--help")
    assert done.returncode == 0
    listed = [line.split()[0] for line in done.stdout.splitlines() if line.startswith("    ") and line[4] != " "]
    assert listed == ["validate", "build", "watch", "resident", "list", "new", "preview", "export", "printed", "icons", "simulate",
                      "serve", "db"]


def test_a_missing_cards_directory_is_one_clear_line(tmp_path):
    done = run("validate", "nowhere", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "spellpress validate: nowhere: no such game or directory (and no directory of games 'cards' here)"]
    done = run("validate", "--cards", "nowhere", cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr.splitlines()[0] == "nowhere: no such directory of games"
    assert "Traceback" not in done.stderr


def test_a_layout_that_does_not_exist_is_said_at_the_line_of_decks_yaml_that_names_it(cards_dir, tmp_path, capsys):
    game = tmp_path / "cards" / "magicka-mayhem"
    shutil.copytree(cards_dir / "magicka-mayhem", game)
    decks = game / "decks.yaml"
    text = decks.read_text()
    line = next(n for n, row in enumerate(text.splitlines(), 1) if "template: magicka-mayhem/element" in row)
    decks.write_text(text.replace("template: magicka-mayhem/element", "template: magicka-mayhem/elemnt", 1))
    templates = cards_dir.parent / "templates"
    assert main(["validate", str(tmp_path / "cards"), "--templates", str(templates)]) == 1
    err = capsys.readouterr().err
    assert f"decks.yaml:{line}:" in err
    assert "no such layout 'magicka-mayhem/elemnt'" in err and "did you mean 'magicka-mayhem/element'" in err
    assert "Traceback" not in err and "KeyError" not in err


def test_validate_takes_slugs_game_directories_and_a_directory_of_games(cards_dir, tmp_path, monkeypatch, capsys):
    cards = tmp_path / "cards"
    shutil.copytree(cards_dir / "spellchamber", cards / "spellchamber")
    shutil.copytree(cards_dir / "powermage-54", cards / "powermage-54")
    (cards / "powermage-54" / "game.yaml").write_text("title: [\n")  # a broken game beside a sound one
    monkeypatch.chdir(tmp_path)
    for words in (["spellchamber"], ["cards/spellchamber"], [str(cards / "spellchamber")],
                  ["--cards", "cards", "spellchamber"]):
        assert main(["validate", *words, "--templates", "nowhere"]) == 0, words
        assert capsys.readouterr().out.startswith("ok: 1 games, "), words
    for words in (["cards"], [], ["powermage-54"], ["cards/powermage-54", "spellchamber"]):
        assert main(["validate", *words, "--templates", "nowhere"]) == 1, words
        assert "powermage-54/game.yaml:1:8: YAML syntax error: the '[' opened on line 1 is not closed" in capsys.readouterr().err, words
    assert main(["validate", "cards/spellchamber", str(cards_dir / "spellchamber")]) == 2
    assert "different directories" in capsys.readouterr().err
    assert main(["validate", "cards/nothing-here"]) == 2
    assert "no such directory" in capsys.readouterr().err
