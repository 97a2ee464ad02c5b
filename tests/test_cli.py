"""The `spellpress` command as a designer runs it."""

import json
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
    listed = [line.split()[0] for line in done.stdout.splitlines() if line.startswith("    ")]
    assert listed == ["validate", "build", "watch", "resident", "list", "serve"]


def test_a_missing_cards_directory_is_one_clear_line(tmp_path):
    done = run("validate", "nowhere", cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr.splitlines()[0] == "nowhere: no such directory of games"
    assert "Traceback" not in done.stderr
