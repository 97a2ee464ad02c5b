"""A game of YAML alone can end (issue 25): `game.yaml`'s `end:` says when a player is out (a counter
at or below a value) and how the game is won (the last one standing, or a counter reaching a value);
the table applies it through the one door, `validate` checks it, and the lab plays it at random
through the same table.

The game is tests/fixtures/games/tiny-generic: health 5 (0 is out), points 0 (6 wins), a round.
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from spellpress.cli import main
from spellpress.core import load_game, table
from spellpress.core.engine import check, lab_of, outcome_agrees
from spellpress.core.games import RULESETS
from spellpress.core.play.errors import Conflict, Invalid
from spellpress.core.table import Event
from spellpress.lab.engine import LabError, game_rng
from spellpress.lab.run import simulate

TINY = Path(__file__).parent / "fixtures" / "games" / "tiny-generic"
LAB = lab_of(RULESETS["generic"])


@pytest.fixture(scope="module")
def game():
    return load_game(TINY)


class Table:
    """A table driven as the companion drives it: decide, then evolve."""

    def __init__(self, game, players=3):
        self.state = table.evolve(None, Event(1, "create", table.start(game, players)))
        self.version = 1

    def act(self, by=0, **action):
        kind, data = table.decide(self.state, self.version, {**action, "version": self.version}, random.Random(3).randrange)
        self.version += 1
        self.state = table.evolve(self.state, Event(self.version, kind, data, by))
        return kind, data

    def hit(self, who, counter, delta):
        return self.act(type="adjust", player=who, counter=counter, delta=delta)

    @property
    def t(self):
        return self.state["tracker"]

    def out(self, who):
        return self.state["players"][who]["tracker"]["out"]


def test_end_is_read_with_its_constants(game):
    assert (game.end.out.counter, game.end.out.value) == ("health", 0)
    assert (game.end.reach.counter, game.end.reach.value) == ("points", 6), "points_to_win, a constant's name"


def test_a_player_at_or_below_the_out_value_is_out_and_only_bring_back_returns_them(game):
    t = Table(game)
    assert not t.t["over"] and t.t["winner"] is None and not t.out(1)
    t.hit(1, "health", -5)
    assert t.out(1) and not t.t["over"], "two are still standing"
    assert t.state["life"] == "health", "the phone's Bring back raises the out counter"
    with pytest.raises(Conflict, match="is out of the game, and a \\+ does not bring them back"):
        t.hit(1, "health", 1)
    t.act(type="bring_back", player=1, to=2)
    assert not t.out(1) and t.state["players"][1]["counters"]["health"] == 2


def test_the_last_one_standing_wins_and_the_game_is_over(game):
    t = Table(game)
    t.hit(0, "health", -5)
    t.hit(2, "health", -5)
    assert t.t["over"] and t.t["winner"] == 1
    with pytest.raises(Conflict, match="the game is over"):
        t.hit(1, "points", 1)
    with pytest.raises(Conflict, match="the game is over \\(Player 2 has won\\)"):
        t.act(type="draw", deck="actions")
    t.act(type="reopen")
    t.act(type="draw", deck="actions")  # reopened: the table plays on
    t.act(type="new_game")
    assert not t.t["over"] and t.t["winner"] is None and not t.out(0)


def test_the_first_player_still_in_to_reach_the_win_value_wins(game):
    t = Table(game, 2)
    t.hit(0, "points", 5)
    assert not t.t["over"]
    t.hit(1, "health", -5)  # out: the other is the last one standing, and wins whatever their points
    assert t.t["over"] and t.t["winner"] == 0
    t = Table(game, 3)
    t.hit(2, "points", 6)
    assert t.t["over"] and t.t["winner"] == 2


def test_a_player_who_is_out_wins_nothing_by_points(game):
    t = Table(game, 3)
    t.hit(0, "health", -5)
    t.hit(0, "points", 6)
    assert t.out(0) and not t.t["over"] and t.t["winner"] is None


def _new(tmp_path, end=None, players="{min: 2, max: 4}"):
    """`spellpress new`'s game of YAML alone in tmp_path/cards/goblin; its end: replaced by `end`
    (none if empty) when given."""
    cards = tmp_path / "cards"
    assert main(["new", "goblin", "--cards", str(cards), "--templates", str(tmp_path / "templates")]) == 0
    if end is not None:
        path = cards / "goblin" / "game.yaml"
        text = path.read_text().split("\n# How the game ends")[0].replace("players: {min: 2, max: 4}", f"players: {players}")
        path.write_text(text + (f"\nend:\n{end}" if end else ""))
    return cards


def test_a_new_game_of_yaml_alone_ends_as_its_rules_say(tmp_path, capsys):
    """`spellpress new`'s rules: "A player at 0 health is out; the last one standing wins.\""""
    made = load_game(_new(tmp_path) / "goblin")
    assert "last one standing wins" in made.rule("turn").text
    assert made.end.out.counter == "health" and made.end.out.value == 0 and made.end.reach is None
    t = Table(made, 2)
    t.hit(0, "health", -10)
    assert t.t["over"] and t.t["winner"] == 1


def test_a_table_of_one_ends_when_its_player_is_out_with_no_winner(tmp_path):
    cards = _new(tmp_path, "  out: {counter: health, at_most: 0}\n", "{min: 1, max: 2}")
    t = Table(load_game(cards / "goblin"), 1)
    assert not t.t["over"]
    t.hit(0, "health", -10)
    assert t.t["over"] and t.t["winner"] is None


def test_a_game_that_says_not_how_it_ends_never_ends_and_the_lab_says_so(tmp_path, capsys):
    cards = _new(tmp_path, "")
    endless = load_game(cards / "goblin")
    assert endless.end is None
    t = Table(endless, 2)
    t.hit(0, "health", -10)
    assert not t.t["over"] and not t.out(0) and "life" not in t.state
    with pytest.raises(Invalid, match="nobody is put out"):
        t.act(type="bring_back", player=0)
    with pytest.raises(LabError, match="the lab cannot play goblin never ends: its game.yaml says nobody is out"):
        simulate(endless, 10, 1)
    assert main(["simulate", "goblin", "--cards", str(cards), "--games", "5"]) == 2
    assert "add an end: section" in capsys.readouterr().err
    assert main(["validate", str(cards), "--balance"]) == 0
    assert "note: goblin: not checked for balance: goblin never ends" in capsys.readouterr().out


def test_a_table_started_before_end_was_read_plays_on_as_it_did(game):
    created = table.start(game, 2)
    del created["rules"]["end"]  # what such a table's first event holds
    state = table.evolve(None, Event(1, "create", created))
    state = table.evolve(state, Event(2, *table.decide(state, 1, {"type": "adjust", "player": 0, "counter": "health",
                                                                  "delta": -5}, random.Random(1).randrange)))
    assert state["tracker"]["over"] is False and not state["players"][0]["tracker"]["out"]


def test_the_lab_plays_it_to_its_end_and_the_table_agrees_move_for_move(game):
    prepared = LAB.prepare(game)
    for players in range(game.players.min, game.players.max + 1):
        for seed in range(6):
            outcome = LAB.play(prepared, game_rng(seed, players), players, ("random",) * players, LAB.turn_cap, True)
            case = f"{players} players, seed {seed}"
            assert outcome.finished and outcome.match.moves, case
            assert check(outcome.match) is None, case
            assert outcome_agrees(outcome) is None, case
            kinds = {m.type for m in outcome.match.moves}
            assert {"first", "draw", "adjust"} <= kinds, case


def test_a_new_game_with_an_end_replays_at_the_table_at_every_player_count(tmp_path):
    """The differential test's check on `spellpress new`'s game (no game of cards/ is of YAML
    alone); a low cap, so that games stopped short are compared too."""
    made = load_game(_new(tmp_path) / "goblin")
    prepared = LAB.prepare(made)
    ends = set()
    for players in range(made.players.min, made.players.max + 1):
        for seed in range(4):
            outcome = LAB.play(prepared, game_rng(seed, players), players, ("random",) * players, 150, True)
            assert check(outcome.match) is None and outcome_agrees(outcome) is None, f"{players} players, seed {seed}"
            ends.add(outcome.finished)
    assert ends == {True, False}, "both a finished game and one stopped at the cap were compared"


def test_simulate_and_validate_balance_play_it(tmp_path, capsys):
    cards = tmp_path / "cards"
    shutil.copytree(TINY, cards / "tiny-generic")
    assert main(["simulate", "tiny-generic", "--cards", str(cards), "--games", "40", "--players", "3"]) == 0
    said = capsys.readouterr().out
    assert "finished 40, unfinished (turn cap 3000) 0" in said and "policy random" in said
    assert main(["validate", str(cards), "--balance"]) == 0
    assert "balance: tiny-generic: 300 games, 2 players, policy random" in capsys.readouterr().out
