"""A sixth game's code is one folder and one line (README: "Add a ruleset").

The test does what the README says, in a copy of the package: it writes a game package under
`spellpress/core/games/` (its rules, its tracker, its lab and its phone renderer), adds its line
to the registry, and then, in a fresh interpreter, a game in YAML that names the new ruleset
loads, has its constants checked, is played at a table by the new tracker through the same
reducer as the five games, is played a hundred times by the balance lab through that same
engine (each game replayed at the table move for move), and its renderer reaches the phones.
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

RULESET = Ruleset(slug=SLUG, constants=Constants, check=check, tracker_module=f"{__name__}.tracker",
                  lab_module=f"{__name__}.lab", phone=__name__)
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
    return {"zapper": player(state, action.get("zapper")), "at": player(state, action.get("at"), "at"),
            "bolt": card_of(state["rules"]["bolts"], action.get("bolt"), "bolt")["id"]}


def apply(state, data, strict):
    bolt = card_of(state["rules"]["bolts"], data["bolt"], "bolt")
    state, before, after = move(state, "sparks", -bolt["power"], data["at"])
    return state, {"from": before, "to": after}


def describe(data, state):
    return f"{name(state, data['zapper'])} zaps {name(state, data['at'])}: {data['from']} to {data['to']}"


def initial(state):
    return {**state, "tracker": {"over": False, "winner": None}}


def settle(state):
    standing = [i for i, p in enumerate(state["players"]) if p["counters"]["sparks"] > 0]
    over = len(standing) <= 1
    return {**state, "tracker": {"over": over, "winner": standing[0] if over and standing else None}}


TRACKER = Tracker(rules=rules, initial=initial, settle=settle, actions={"zap": Action(parse, apply, describe)})
'''

LAB = '''
from ...engine import Lab, Match, Outcome, randbelow_of


def play(game, rng, k, policies, cap, record):
    m = Match(game, k, randbelow_of(rng), record=record)
    bolts = [b["id"] for b in m.state["rules"]["bolts"]]
    turns = 0
    while not m.tracked["over"] and turns < cap:
        me = turns % k
        m.act("zap", by=me, zapper=me, at=1 - me, bolt=rng.choice(bolts))
        turns += 1
    return Outcome(winner=m.tracked["winner"], finished=m.tracked["over"], first=0, turns=turns, rounds=0, match=m)


LAB = Lab(ruleset="spark-duel", policies={"random": "zaps with any bolt"}, prepare=lambda game: game, play=play,
          modelled=lambda game: ([c.id for c in game.cards], []), first_rule="seat 1 zaps first", turn_cap=100)
'''

PHONE = '''
"use strict";
(function ({ h, button }) {
  function sparks(ctx, panel) {
    panel.append(button("Zap", () => ctx.act({ type: "zap", zapper: ctx.me, at: 1 - ctx.me, bolt: "little-spark" })));
  }
  window.SpellpressTrackers.register("spark-duel", { render: sparks });
})(window.SpellpressTrackers.parts);
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
kind, data = table.decide(state, 1, {"type": "zap", "zapper": 0, "at": 1, "bolt": "big-spark"}, lambda n: 0)
event = Event(2, kind, data, by=0)
state = table.evolve(state, event)

from spellpress.core.engine import check
from spellpress.core.games import RULESETS
from spellpress.lab.engine import game_rng
from spellpress.lab.run import simulate
from companion import games_script

lab = RULESETS["spark-duel"].lab
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
    for name, text in {"__init__.py": INIT, "ruleset.py": RULESET, "tracker.py": TRACKER, "lab.py": LAB,
                       "phone.js": PHONE}.items():
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
