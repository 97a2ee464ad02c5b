"""The table rules in the core: events in, state out, every number from the games' YAML."""

from __future__ import annotations

import itertools
import random

import pytest

from spellpress.core import table
from spellpress.core.games.spellchamber.options import SHUFFLED
from spellpress.core.play.errors import Conflict, Invalid
from spellpress.core.table import Event

SLUGS = ["magicka-mayhem", "powermage-54", "powers-combined", "sorcerer-duel", "spellchamber"]


class Table:
    """A table driven through decide and evolve, as the store drives it."""

    def __init__(self, game, players, options=None, rolls=None):
        self.events = [Event(1, "create", table.start(game, players, options), by=0)]
        self.state = table.evolve(None, self.events[0])
        self.rolls = rolls or random.Random(7).randrange

    @property
    def version(self):
        return self.events[-1].seq

    def act(self, action, by=0):
        kind, data = table.decide(self.state, self.version, action, self.rolls)
        event = Event(self.version + 1, kind, data, by=by)
        self.events.append(event)
        self.state = table.fold(self.events) if kind == "undo" else table.evolve(self.state, event)
        return event


def first_counter(game, scope):
    return next(c for c in game.counters if c.scope == scope)


@pytest.mark.parametrize("slug", SLUGS)
def test_a_new_table_counts_what_the_yaml_declares(games, slug):
    game = games[slug]
    names = [f"P{i}" for i in range(game.players.min)]
    state = Table(game, names).state
    assert state["counter_specs"] == [c.__dict__ for c in game.counters]
    for player in state["players"]:
        assert player["counters"] == {c.id: c.start for c in game.counters if c.scope == "player"}
    assert state["counters"] == {c.id: c.start for c in game.counters if c.scope == "table"}
    assert [p["name"] for p in state["players"]] == names


def test_numbers_follow_the_yaml_not_the_code(games):
    """A variant with other numbers starts and stops where its own YAML says."""
    import dataclasses

    game = games["spellchamber"]
    life = dataclasses.replace(first_counter(game, "player"), start=3, max=5)
    variant = dataclasses.replace(game, counters=(life,))
    t = Table(variant, ["Ann", "Ben"])
    assert t.state["players"][0]["counters"]["life"] == 3
    t.act({"type": "adjust", "player": 0, "counter": "life", "delta": 4})
    assert t.state["players"][0]["counters"]["life"] == 5


def test_deltas_commute_away_from_the_bounds(games):
    game = games["powermage-54"]
    deltas = [-7, 3, -12, 25, -1]
    finals = set()
    for order in itertools.permutations(deltas):
        t = Table(game, ["Ann", "Ben"])
        for delta in order:
            t.act({"type": "adjust", "player": 1, "counter": "points", "delta": delta})
        finals.add(t.state["players"][1]["counters"]["points"])
    assert finals == {game.constants.starting_points + sum(deltas)}


def test_a_delta_stops_at_the_counters_bounds_and_says_so(games):
    game = games["sorcerer-duel"]
    health = first_counter(game, "player")
    span = health.max - health.min
    t = Table(game, ["Ann", "Ben"])
    t.act({"type": "adjust", "player": 0, "counter": "health", "delta": -5})
    event = t.act({"type": "adjust", "player": 0, "counter": "health", "delta": -span})
    assert t.state["players"][0]["counters"]["health"] == health.min
    assert table.describe(event, t.state).endswith(f"(stops at {health.min})")
    t.act({"type": "reopen"})  # Ann's fall ended the duel: its numbers change only once it is reopened
    with pytest.raises(Conflict, match="Ann is fallen, and a \\+ does not bring them back: use Bring back"):
        t.act({"type": "adjust", "player": 0, "counter": "health", "delta": 3})
    t.act({"type": "bring_back", "player": 0, "to": 3}, by=1)  # only an explicit bring back raises her
    t.act({"type": "adjust", "player": 0, "counter": "health", "delta": span})
    assert t.state["players"][0]["counters"]["health"] == health.max


def test_table_counters_belong_to_nobody(games):
    game = games["powers-combined"]
    t = Table(game, ["Ann", "Ben"])
    event = t.act({"type": "adjust", "counter": "runes", "delta": 2}, by=1)
    assert t.state["counters"]["runes"] == 2
    assert table.describe(event, t.state) == "Rune pot +2 \N{RIGHTWARDS ARROW} 2 (by Ben)"
    with pytest.raises(Invalid, match="whole table"):
        t.act({"type": "adjust", "player": 0, "counter": "runes", "delta": 1})
    with pytest.raises(Invalid, match="keeps no such count; it counts"):
        t.act({"type": "adjust", "counter": "nope", "delta": 1})


@pytest.mark.parametrize(
    "action, message",
    [
        ({"type": "adjust", "player": 5, "counter": "health", "delta": 1}, "no such player"),
        ({"type": "adjust", "player": -1, "counter": "health", "delta": 1}, "no such player"),
        ({"type": "adjust", "player": True, "counter": "health", "delta": 1}, "whole number"),
        ({"type": "adjust", "counter": "health", "delta": 1}, "whole number"),
        ({"type": "adjust", "player": 0, "counter": "life", "delta": 1}, "keeps no such count"),
        ({"type": "adjust", "player": 0, "counter": "health", "delta": "3"}, "whole number"),
        ({"type": "adjust", "player": 0, "counter": "health", "delta": 1.5}, "whole number"),
        ({"type": "adjust", "player": 0, "counter": "health", "delta": 0}, "changes nothing"),
        ({"type": "adjust", "player": 0, "counter": "health", "delta": 21}, "at most 20"),
        ({"type": "adjust", "player": 0, "counter": "mana", "delta": table.MAX_DELTA + 1}, "at most"),
        ({"type": "roll", "sides": 1}, "sides"),
        ({"type": "roll", "sides": 6, "count": 0}, "dice"),
        ({"type": "roll", "sides": 10**9}, "sides"),
        ({"type": "cheat"}, "reload the page"),
        ({"type": "undo"}, "did not say what it saw"),
        ([], "object"),
    ],
)
def test_bad_actions_are_refused_and_change_nothing(games, action, message):
    t = Table(games["sorcerer-duel"], ["Ann", "Ben"])
    before = t.state
    with pytest.raises(Invalid, match=message):
        t.act(action)
    assert t.state == before and t.version == 1


def test_undo_takes_back_the_latest_change_still_standing(games):
    t = Table(games["magicka-mayhem"], ["Ann", "Ben", "Cy"])
    start = t.state
    t.act({"type": "adjust", "player": 0, "counter": "health", "delta": -3})
    after_first = t.state
    t.act({"type": "adjust", "player": 2, "counter": "health", "delta": -5}, by=2)
    t.act({"type": "roll", "sides": 20})
    assert t.state["undo"]["text"] == "Cy: Health \N{MINUS SIGN}5 \N{RIGHTWARDS ARROW} 15"
    t.act({"type": "undo", "version": t.version}, by=1)
    assert t.state["players"] == after_first["players"]
    assert t.state["last_draw"]["type"] == "roll", "a draw is never undone"
    t.act({"type": "undo", "version": t.version})
    assert t.state["players"] == start["players"]
    with pytest.raises(Conflict, match="nothing to undo"):
        t.act({"type": "undo", "version": t.version})


def test_a_stale_undo_is_refused(games):
    t = Table(games["powermage-54"], ["Ann", "Ben"])
    t.act({"type": "adjust", "player": 0, "counter": "points", "delta": -10})
    seen = t.version
    t.act({"type": "adjust", "player": 1, "counter": "points", "delta": -20}, by=1)
    before = t.state
    with pytest.raises(Conflict, match="changed the table while you were deciding"):
        t.act({"type": "undo", "version": seen})
    assert t.state == before


def test_fold_of_the_events_is_the_state_step_by_step(games):
    rng = random.Random(3)
    game = games["powers-combined"]
    t = Table(game, ["Ann", "Ben", "Cy"])
    for _ in range(300):
        roll = rng.random()
        if roll < 0.6:
            counter = rng.choice(game.counters)
            try:
                t.act({"type": "adjust", "counter": counter.id, "delta": rng.choice([-2, -1, 1, 3])})
            except Invalid:
                pass
            except Conflict:  # the party lost: reopened to go on
                t.act({"type": "reopen"})
        elif roll < 0.8 and t.state["undo"]:
            t.act({"type": "undo", "version": t.version})
        else:
            t.act({"type": rng.choice(["coin", "first"])})
        assert table.fold(t.events) == t.state
        for counter in game.counters:
            assert counter.min <= t.state["counters"][counter.id] <= counter.max


def test_draws_come_from_the_randomness_handed_in(games):
    t = Table(games["spellchamber"], ["Ann", "Ben", "Cy"], rolls=lambda n: n - 1)
    roll = t.act({"type": "roll", "sides": 6, "count": 3})
    assert roll.data["results"] == [6, 6, 6]
    assert table.describe(roll, t.state) == "Ann rolled 3d6: 6 + 6 + 6 = 18"
    coin = t.act({"type": "coin"}, by=1)
    assert coin.data["result"] == "tails" and t.state["last_draw"]["text"] == "Ben flipped a coin: tails"
    t.act({"type": "first"})
    assert t.state["first_player"] == 2
    assert t.state["last_draw"]["text"] == "Ann drew who goes first: Cy"


def test_options_come_from_each_games_constants(games):
    mm = games["magicka-mayhem"]
    options = {o.id: o for o in table.game_options(mm)}
    assert options["mayhem"].values(2) == [level.id for level in mm.constants.mayhem_levels]
    assert options["mayhem"].default(2) == mm.constants.default_mayhem
    assert Table(mm, ["A", "B"], {"mode": "spell-vs-spell"}).state["options"] == {
        "mode": "spell-vs-spell", "mayhem": mm.constants.default_mayhem}

    sc = games["spellchamber"]
    scenario = table.game_options(sc)[0]
    duel, group = (sc.constants.scenario_decks[k].deck for k in ("duel", "group"))
    assert {sc.card(v).deck for v in scenario.values(2) if v != SHUFFLED} == {duel}
    assert {sc.card(v).deck for v in scenario.values(4) if v != SHUFFLED} == {group}
    assert SHUFFLED in scenario.values(3)
    state = Table(sc, ["A", "B", "C"]).state
    assert sc.card(state["options"]["scenario"])["number"] == sc.constants.beginner_scenario
    with pytest.raises(Invalid, match="scenario must be one of"):
        Table(sc, ["A", "B", "C"], {"scenario": scenario.values(2)[-1]})

    sd = games["sorcerer-duel"]
    decks = sd.constants.player_decks
    state = Table(sd, ["A", {"name": "B", "options": {"deck": decks[0]}}]).state
    assert [p["options"]["deck"] for p in state["players"]] == [decks[0], decks[0]]
    assert [p["options"]["deck"] for p in Table(sd, ["A", "B"]).state["players"]] == list(decks[:2])
    with pytest.raises(Invalid, match="unknown table option"):
        Table(sd, ["A", "B"], {"mayhem": "standard"})


@pytest.mark.parametrize(
    "players, message",
    [
        (["Solo"], "2 to 6 players"),
        ([f"P{i}" for i in range(7)], "2 to 6 players"),
        ("Ann, Ben", "list of names"),
        (["Ann", "ann"], "two players are called"),
        (["Ann", ""], "empty"),
        (["Ann", "x" * 25], "at most 24"),
        (["Ann", "<script>x()</script>"], "markup"),
        (["Ann", "<b>Ben</b>"], "markup"),
        (["Ann", "Ben&amp;"], "markup"),
        (["Ann", "Be\x00n"], "control"),
        (["Ann", 7], "text"),
    ],
)
def test_bad_setups_are_refused(games, players, message):
    with pytest.raises(Invalid, match=message):
        table.start(games["magicka-mayhem"], players)


def test_names_may_hold_what_merely_looks_like_markup(games):
    state = Table(games["magicka-mayhem"], ["Tom & Jerry", "  <3   Ann ", "1<2"]).state
    assert [p["name"] for p in state["players"]] == ["Tom & Jerry", "<3 Ann", "1<2"]
    assert Table(games["powermage-54"], 3).state["players"][2]["name"] == "Player 3"


def test_joining_takes_a_named_seat_or_adds_a_player(games):
    game = games["sorcerer-duel"]
    t = Table(games["magicka-mayhem"], ["Ann", "Ben"])
    assert table.join(games["magicka-mayhem"], t.state, " ben ") == {"player": 1, "name": "Ben", "new": False}
    data = table.join(games["magicka-mayhem"], t.state, "Cy")
    state = table.evolve(t.state, Event(2, "join", data, by=2))
    cy = state["players"][2]
    assert (cy["name"], cy["counters"], cy["options"]) == ("Cy", {"health": 20}, {})
    assert cy["tracker"] == state["players"][0]["tracker"], "a newcomer gets the tracker's fields too"
    full = Table(game, ["Ann", "Ben"]).state
    with pytest.raises(Conflict, match="full; join as one of its players: Ann, Ben"):
        table.join(game, full, "Cy")
