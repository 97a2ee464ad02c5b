"""A sixth game's code is one folder and one line (README: "Add a ruleset").

The test does what the README says, in a copy of the package: it writes a game package under
`spellpress/core/games/`, adds its line to the registry, and then, in a fresh interpreter, a game
in YAML that names the new ruleset loads, has its constants checked, and is played at a table by
the new tracker through the same reducer as the five games.
"""

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import spellpress

PACKAGE = Path(spellpress.__file__).parent

INIT = '''
from ...ruleset import Ruleset
from .ruleset import SLUG, Constants, check

RULESET = Ruleset(slug=SLUG, constants=Constants, check=check, tracker_module=f"{__name__}.tracker")
'''

RULESET = '''
from ...schema import Ident, Model, PositiveInt
from ..checks import decks_exist

SLUG = "spark-duel"


class Constants(Model):
    starting_sparks: PositiveInt
    bolt_deck: Ident


def check(game, report):
    decks_exist(game, [(("bolt_deck",), game.constants.bolt_deck)], report)
'''

TRACKER = '''
from ...play.inputs import card_of
from ...play.state import move, name, player
from ...play.tracker import Action, Tracker


def rules(game, created):
    deck = game.decks[game.constants.bolt_deck]
    return {"bolts": [{"id": c.id, "name": c.name, "power": c["power"]} for c in deck.cards]}


def parse(state, action):
    return {"by": player(state, action.get("by")), "at": player(state, action.get("at"), "at"),
            "bolt": card_of(state["rules"]["bolts"], action.get("bolt"), "bolt")["id"]}


def apply(state, data, strict):
    bolt = card_of(state["rules"]["bolts"], data["bolt"], "bolt")
    state, before, after = move(state, "sparks", -bolt["power"], data["at"])
    return state, {"from": before, "to": after}


def describe(data, state):
    return f"{name(state, data['by'])} zaps {name(state, data['at'])}: {data['from']} to {data['to']}"


TRACKER = Tracker(rules=rules, initial=lambda state: state, settle=lambda state: state,
                  actions={"zap": Action(parse, apply, describe)})
'''

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
kind, data = table.decide(state, 1, {"type": "zap", "by": 0, "at": 1, "bolt": "big-spark"}, lambda n: 0)
event = Event(2, kind, data, by=0)
state = table.evolve(state, event)
print(json.dumps({"sparks": [p["counters"]["sparks"] for p in state["players"]],
                  "log": table.describe(event, state), "actions": table.actions(state)}))
"""


def _new_game_package(root: Path, registered: bool) -> None:
    shutil.copytree(PACKAGE, root / "spellpress", ignore=shutil.ignore_patterns("__pycache__"))
    games = root / "spellpress" / "core" / "games"
    folder = games / "spark_duel"
    folder.mkdir()
    for name, text in {"__init__.py": INIT, "ruleset.py": RULESET, "tracker.py": TRACKER}.items():
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


def test_without_its_line_the_ruleset_is_unknown_and_validation_says_so(tmp_path):
    cards = _cards(tmp_path)
    _new_game_package(tmp_path / "code", registered=False)
    done = _run(tmp_path / "code", cards)
    assert done.returncode != 0
    assert "ruleset: unknown ruleset 'spark-duel'" in done.stderr
