"""A sixth game's code is one folder and one line (docs/rulesets.md, "Add a ruleset").

The test does what that page says, in a copy of the package: it writes the game package the page
shows, file by file, under `spellpress/core/games/` (its rules, its tracker, its lab and its
phone renderer: the page's code blocks, read from it here), adds its line to the registry, and
then, in a fresh interpreter, a game in YAML that names the new ruleset loads, has its constants
checked, is played at a table by the new tracker through the same reducer as the five games, is
played a hundred times by the balance lab through that same engine (each game replayed at the
table move for move), and its renderer reaches the phones.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import spellpress

PACKAGE = Path(spellpress.__file__).parent

DOC = Path(__file__).parent.parent / "docs" / "rulesets.md"


def _files_of_the_page() -> dict[str, str]:
    """The game's files as docs/rulesets.md shows them: each fenced block whose first line is a
    comment naming `spark_duel/<file>` is that file, whole."""
    files = {}
    for block in re.findall(r"^```(?:python|js)\n(.*?)^```", DOC.read_text(), re.S | re.M):
        first, _, rest = block.partition("\n")
        named = re.fullmatch(r"(?:#|//) spark_duel/(\S+)", first.strip())
        if named:
            files[named.group(1)] = rest
    return files


FILES = _files_of_the_page()


def test_the_page_shows_every_file_of_the_game():
    assert sorted(FILES) == ["__init__.py", "lab.py", "phone.js", "ruleset.py", "tracker.py"]


GAME = {
    "game.yaml": """
        title: Spark Duel
        ruleset: spark-duel
        pitch: Two wizards throw sparks.
        players: {min: 2, max: 2}
        constants: {starting_sparks: 10, bolt_deck: bolts}
        counters:
          - {id: sparks, label: Sparks, scope: player, start: starting_sparks, min: 0}
    """,
    "decks.yaml": """
        card_types:
          bolt:
            name: Bolt
            template: poker
            fields:
              power: {type: int, required: true, min: 1, max: 5}
        decks:
          bolts: {name: Bolt deck, back: poker, types: [bolt]}
    """,
    "bolts.yaml": """
        bolts:
          - {id: little-spark, name: Little Spark, power: 1, count: 6}
          - {id: big-spark, name: Big Spark, power: 3, count: 2}
    """,
    "rules.yaml": """
        rules:
          - id: play
            title: Play
            text: Each wizard starts with {{ starting_sparks }} sparks.
    """,
}

PLAY = """
import json, sys
from pathlib import Path
from spellpress.core import load_game, table
from spellpress.core.table import Event

game = load_game(Path(sys.argv[1]))
state = table.fold([Event(1, "create", table.start(game, ["Ann", "Ben"]))])
kind, data = table.decide(state, 1, {"type": "zap", "zapper": 0, "at": 1, "bolt": "big-spark"}, lambda n: 0)
event = Event(2, kind, data, by=0)
state = table.evolve(state, event)

from spellpress.core.engine import check, lab_of
from spellpress.core.games import RULESETS
from spellpress.lab.engine import game_rng
from spellpress.lab.run import simulate
from companion import games_script

lab = lab_of(RULESETS["spark-duel"])
replayed = [check(lab.play(game, game_rng(seed, 0), 2, ("random", "random"), 100, True).match) for seed in range(20)]
print(json.dumps({"sparks": [p["counters"]["sparks"] for p in state["players"]],
                  "log": table.describe(event, state), "actions": table.actions(state),
                  "lab": simulate(game, 100, 1)["games"], "divergences": [str(d) for d in replayed if d],
                  "phone": 'register("spark-duel"' in games_script()}))
"""


def _new_game_package(root: Path, registered: bool) -> None:
    shutil.copytree(PACKAGE, root / "spellpress", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(PACKAGE.parent / "companion", root / "companion", ignore=shutil.ignore_patterns("__pycache__"))
    games = root / "spellpress" / "core" / "games"
    folder = games / "spark_duel"
    folder.mkdir()
    for name, text in FILES.items():
        (folder / name).write_text(text)
    if registered:
        registry = games / "__init__.py"
        source = registry.read_text()
        assert source.count('    "sorcerer_duel",\n') == 1
        registry.write_text(source.replace('    "sorcerer_duel",\n', '    "sorcerer_duel",\n    "spark_duel",\n'))


def _run(root: Path, cards: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run([sys.executable, "-c", PLAY, str(cards)], capture_output=True, text=True, env=env, cwd=root)


def _cards(tmp_path: Path) -> Path:
    cards = tmp_path / "cards" / "spark-duel"
    cards.mkdir(parents=True)
    for name, text in GAME.items():
        (cards / name).write_text(textwrap.dedent(text))
    return cards


def test_a_new_game_is_one_folder_and_one_line(tmp_path):
    cards = _cards(tmp_path)
    _new_game_package(tmp_path / "code", registered=True)
    done = _run(tmp_path / "code", cards)
    assert done.returncode == 0, done.stderr
    played = json.loads(done.stdout)
    assert played["sparks"] == [10, 7]
    assert played["log"] == "Ann zaps Ben: 10 to 7"
    assert "zap" in played["actions"]
    assert played["lab"] == 100 and played["divergences"] == []
    assert played["phone"]


def test_without_its_line_the_ruleset_is_unknown_and_validation_says_so(tmp_path):
    cards = _cards(tmp_path)
    _new_game_package(tmp_path / "code", registered=False)
    done = _run(tmp_path / "code", cards)
    assert done.returncode != 0
    assert "ruleset: unknown ruleset 'spark-duel'" in done.stderr
