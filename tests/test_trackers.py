"""Each game's tracker through the core: decide and evolve, every number from the game's YAML.

Nothing here names a card or counts a deck: cards are read from the loaded games, which other
people are still filling in. Where a test needs the chamber or the Mayhem deck in a known order,
it writes that order into the event's recorded draw, as the server's shuffle would have.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest

from spellpress.core import table
from spellpress.core.games import RULESETS, ask, ruleset_of
from spellpress.core.games.magicka_mayhem.helpers import INTERACTIVE_MODES
from spellpress.core.games.spellchamber.options import SHUFFLED
from spellpress.core.play.errors import Conflict, Invalid
from spellpress.core.table import Event


class Table:
    """A table driven through decide and evolve as the store drives it; after every event the
    state must equal the fold of all events (so an undo's replay gives the same table)."""

    def __init__(self, game, players, options=None, rolls=None):
        self.game = game
        self.events = [Event(1, "create", table.start(game, players, options), by=0)]
        self.state = table.evolve(None, self.events[0])
        self.rolls = rolls or random.Random(7).randrange

    @property
    def version(self):
        return self.events[-1].seq

    @property
    def t(self):
        return self.state["tracker"]

    def decide(self, action, version=True):
        if version and "version" not in action:
            action = {**action, "version": self.version}
        return table.decide(self.state, self.version, action, self.rolls)

    def add(self, kind, data, by=0):
        event = Event(self.version + 1, kind, data, by=by)
        self.events.append(event)
        self.state = table.fold(self.events) if kind == "undo" else table.evolve(self.state, event)
        assert table.fold(self.events) == self.state
        return event

    def act(self, action, by=0, version=True):
        return self.add(*self.decide(action, version), by=by)

    def refused(self, action, error=Invalid, match=None, version=True):
        before, count = self.state, len(self.events)
        with pytest.raises(error, match=match):
            self.act(action, version=version)
        assert self.state == before and len(self.events) == count, "a refused action changes nothing"

    def text(self, event):
        return table.describe(event, self.state)

    def mine(self, i):
        return self.state["players"][i]["tracker"]

    def counter(self, name, i=None):
        return self.state["counters"][name] if i is None else self.state["players"][i]["counters"][name]

    def turn_of(self, who):
        """Plays on, turn by turn in order, until it is `who`'s turn (a Magicka spell card spell,
        a summons among them, is cast on its caster's turn)."""
        while self.t["player"] != who:
            self.act({"type": "start_turn", "player": who if self.t["player"] is None else self.t["next"]})


def rules(game):
    return ruleset_of(game).tracker.rules(game, {})


def names(n):
    return ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"][:n]


# ================================================================================ Spellchamber


def kind_where(game, test):
    """The ammo kind whose effect (from the YAML) passes `test`."""
    return next(k for k, e in game.constants.ammo.items() if test(e))


def live(game):
    return kind_where(game, lambda e: e.life_loss > 0)


def blank(game):
    return kind_where(game, lambda e: e.extra_turn_if_self)


def magic(game):
    return kind_where(game, lambda e: e.drafts > 0)


def scenarios(game, players):
    option = table.game_options(game)[0]
    return [game.card(v) for v in option.values(players) if v in {c.id for c in game.cards}]


def start_round(t, chamber=None):
    """Start a round; with `chamber`, the shuffle is recorded as having given that order."""
    kind, data = t.decide({"type": "start_round"})
    if chamber is not None:
        data = {**data, "hidden": {**data["hidden"], "chamber": list(chamber)}}
    return t.add(kind, data)


def shoot(t, target, again=False):
    shooter = t.t["turn"]["player"]
    return t.act({"type": "shoot", "shooter": shooter, "target": target, "again": again})


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_scenarios_chamber_yields_exactly_its_cards(games, players):
    game = games["spellchamber"]
    kinds = list(game.constants.ammo)
    for card in scenarios(game, players):
        t = Table(game, names(players), {"scenario": card.id})
        start_round(t)
        assert t.t["scenario"]["id"] == card.id, "the chosen scenario is the first round's"
        wanted = {k: card[k] for k in kinds}
        assert t.t["chamber"]["left"] == wanted and t.t["chamber"]["size"] == sum(wanted.values())
        revealed = []
        while t.t["phase"] == "battle":
            alive = [i for i in range(players) if t.mine(i)["alive"]]
            target = max(alive, key=lambda i: t.counter("life", i))  # nobody dies: the round ends by itself
            revealed.append(shoot(t, target).data["card"])
            assert sum(t.t["chamber"]["left"].values()) == sum(wanted.values()) - len(revealed)
        assert Counter(revealed) == Counter({k: n for k, n in wanted.items() if n}), card.id
        assert t.t["chamber"]["spent"] == revealed


def test_the_table_shows_the_odds_the_next_shot_helper_gives(games):
    from spellpress.core.games import ask

    game = games["spellchamber"]
    card = max(scenarios(game, 2), key=lambda c: len({k for k in game.constants.ammo if c[k]}))
    t = Table(game, names(2), {"scenario": card.id})
    assert t.t["odds"] is None  # no round yet
    start_round(t)
    shot = Counter()
    while t.t["phase"] == "battle":
        answer = ask(game, "next-shot", {"scenario": card.id, **{f"shot_{k}": n for k, n in shot.items()}})
        assert t.t["odds"] == {k: odds["percent"] for k, odds in answer["odds"].items()}
        shot[shoot(t, max((0, 1), key=lambda i: t.counter("life", i))).data["card"]] += 1
    assert t.t["odds"] is None


def test_the_chamber_is_shuffled_by_the_randomness_handed_in(games):
    game = games["spellchamber"]
    card = max(scenarios(game, 2), key=lambda c: len({k for k in game.constants.ammo if c[k]}))
    orders = set()
    for seed in range(12):
        t = Table(game, names(2), {"scenario": card.id}, rolls=random.Random(seed).randrange)
        event = start_round(t)
        orders.add(tuple(event.data["hidden"]["chamber"]))
        again = Table(game, names(2), {"scenario": card.id}, rolls=random.Random(seed).randrange)
        assert start_round(again).data == event.data, "the same draws give the same round"
    assert len(orders) > 1


def test_a_shuffled_table_starts_with_any_scenario(games):
    game = games["spellchamber"]
    firsts = set()
    for seed in range(30):
        t = Table(game, names(2), {"scenario": SHUFFLED}, rolls=random.Random(seed).randrange)
        start_round(t)
        firsts.add(t.t["scenario"]["id"])
    assert len(firsts) > 1 and firsts <= {c.id for c in scenarios(game, 2)}


def test_a_duel_joined_by_a_third_wizard_draws_from_the_group_deck(games):
    game = games["spellchamber"]
    t = Table(game, names(2))
    start_round(t)
    assert t.t["deck"] == "duel"
    while t.t["phase"] == "battle":
        shoot(t, max((0, 1), key=lambda i: t.counter("life", i)))
    t.add("join", table.join(game, t.state, "Cy"))
    assert t.mine(2)["alive"] and t.counter("life", 2) == game.constants.starting_life
    start_round(t)
    assert t.t["deck"] == "group" and game.card(t.t["scenario"]["id"]).deck == game.constants.scenario_decks["group"].deck


def test_a_third_wizard_cannot_sit_down_in_a_duels_round_and_joins_the_next_from_the_group_deck(games):
    """The rulebook: "For 2 Player games, use the Duel Scenario Cards. For 3+ Player Games, use the
    Group Scenario Cards." A round laid out for a duel is played out as a duel; the newcomer sits
    down once its chamber is empty, and the next round's start says the deck changed."""
    game = games["spellchamber"]
    decks = {k: game.decks[spec.deck].name for k, spec in game.constants.scenario_decks.items()}
    t = Table(game, names(2))
    start_round(t)
    with pytest.raises(Conflict, match=f"being played with the {decks['duel']}.*once its chamber is empty.*{decks['group']}"):
        table.join(game, t.state, "Cy")
    assert table.join(game, t.state, "Ben")["new"] is False, "a player of the duel may always come back"
    while t.t["phase"] == "battle":
        shoot(t, max((0, 1), key=lambda i: t.counter("life", i)))
    t.add("join", table.join(game, t.state, "Cy"))
    started = start_round(t)
    assert t.t["deck"] == "group" and f"With 3 players now, the scenarios come from the {decks['group']}." in t.text(started)
    assert t.state["last_draw"]["text"] == t.text(started), "every phone shows it"


def test_once_the_game_is_over_nobody_who_cannot_play_is_named_to_play(games):
    """The last Live of the chamber kills the other wizard of a duel: the round is over, and so
    is the game. The next round's battle player would have been the dead wizard: no field and
    no banner names them."""
    game = games["spellchamber"]
    t = Table(game, names(2))
    t.act({"type": "first"})
    ann = t.state["first_player"]
    ben = 1 - ann
    start_round(t, [live(game)])
    t.act({"type": "adjust", "player": ben, "counter": "life", "delta": -(t.counter("life", ben) - 1)})
    end = shoot(t, ben)
    assert t.t["over"] and t.t["winner"] == ann
    assert t.t["next"] is None and t.t["turn"] is None and "next" not in end.data
    banner = t.state["last_draw"]["text"]
    assert banner == t.text(end) and "battle player" not in banner and "turn" not in banner
    assert f"The game is over: {names(2)[ann]} is the last wizard standing and wins." in banner
    t.refused({"type": "pass", "player": ben}, Conflict, "game is over")


def test_a_game_ended_mid_round_names_no_dead_wizard_for_the_turn(games):
    game = games["spellchamber"]
    t = Table(game, names(2))
    t.act({"type": "first"})
    ann = t.state["first_player"]
    ben = 1 - ann
    start_round(t, [live(game), blank(game)])
    t.act({"type": "adjust", "player": ben, "counter": "life", "delta": -(t.counter("life", ben) - 1)})
    end = shoot(t, ben)
    assert t.t["over"] and t.t["turn"] is None and t.t["next"] is None and "next" not in end.data


def test_the_beginners_scenario_comes_first_unless_the_table_chooses(games):
    game = games["spellchamber"]
    for players, key in ((2, "duel"), (3, "group")):
        t = Table(game, names(players))
        start_round(t)
        deck = game.constants.scenario_decks[key].deck
        assert t.t["scenario"]["number"] == game.constants.beginner_scenario
        assert game.card(t.t["scenario"]["id"]).deck == deck
        assert t.t["scenarios_left"] == sum(c.count for c in game.decks[deck].cards) - 1


def test_a_shot_does_what_the_yaml_says(games):
    game = games["spellchamber"]
    effects = game.constants.ammo
    t = Table(game, names(3))
    t.act({"type": "first"})
    ann = t.state["first_player"]
    ben, cy = (ann + 1) % 3, (ann + 2) % 3
    start_round(t, [live(game), magic(game), blank(game), blank(game)])
    start = game.constants.starting_life

    hit = shoot(t, ben)
    assert t.counter("life", ben) == start - effects[live(game)].life_loss
    assert hit.data["life"] == {"from": start, "to": start - effects[live(game)].life_loss}
    assert t.t["turn"]["player"] == ben, "a shot ends the battle turn"

    drafted = shoot(t, cy)
    assert drafted.data["drafts"] == effects[magic(game)].drafts
    assert f"drafts {effects[magic(game)].drafts} spell" in t.text(drafted)

    shoot(t, ann)  # a Blank at someone else: nothing, no extra turn, no powering up
    assert not t.mine(cy)["powered"] and t.t["turn"]["player"] == ann
    assert all(t.counter("life", i) == start for i in (ann, cy))


def test_shooting_yourself_with_a_blank_gives_one_extra_turn_never_two_in_a_turn(games):
    game = games["spellchamber"]
    t = Table(game, names(3))
    t.act({"type": "first"})
    ann = t.state["first_player"]
    start_round(t, [blank(game)] * 3 + [live(game)] * 3)

    first = shoot(t, ann, again=True)  # a spell lets Ann shoot again this turn
    assert first.data["extra_turn"] is True and first.data["powered_up"] is True
    second = shoot(t, ann)
    assert second.data["extra_turn"] is False, "never a second extra turn in one turn"
    assert "No second extra turn" in t.text(second)
    assert t.t["turn"] == {"player": ann, "extra": True, "earned": 0, "owed": 0, "shots": 0, "taps": 0}

    third = shoot(t, ann)  # the extra turn is a turn of its own: a Blank earns one more
    assert third.data["extra_turn"] is True
    assert t.t["turn"]["player"] == ann
    shoot(t, (ann + 1) % 3)
    assert t.t["turn"]["player"] == (ann + 1) % 3, "then the gun moves on, once"


def test_shooting_yourself_without_losing_life_powers_you_up_and_the_round_powers_all_down(games):
    game = games["spellchamber"]
    t = Table(game, names(2))
    t.act({"type": "first"})
    ann = t.state["first_player"]
    ben = 1 - ann
    start_round(t, [live(game), magic(game), blank(game)])
    assert "powered_up" not in shoot(t, ben).data
    hurt = shoot(t, ben)  # Ben shoots himself with Magic: no life lost
    assert hurt.data["powered_up"] and t.mine(ben)["powered"]
    t.refused({"type": "power", "player": ben, "up": True}, match="powered up already")
    end = shoot(t, ann)  # the last card: a Blank Ann shot at herself
    assert end.data["round_over"] and end.data["extra_turn"]
    assert t.t["phase"] == "ready" and not t.mine(ann)["powered"] and not t.mine(ben)["powered"]
    assert end.data["next"] == ann, "a Blank at yourself as the last card: you start the next round"
    start_round(t)
    assert t.t["turn"]["player"] == ann and t.t["round"] == 2


def test_shooting_yourself_with_a_live_does_not_power_you_up(games):
    game = games["spellchamber"]
    t = Table(game, names(2))
    t.act({"type": "first"})
    ann = t.state["first_player"]
    start_round(t, [live(game), blank(game)])
    event = shoot(t, ann)
    assert "powered_up" not in event.data and not t.mine(ann)["powered"]


def test_the_next_round_starts_with_whoever_would_have_shot_next(games):
    game = games["spellchamber"]
    t = Table(game, names(4))
    t.act({"type": "first"})
    ann = t.state["first_player"]
    start_round(t, [magic(game), magic(game)])
    shoot(t, (ann + 2) % 4)
    end = shoot(t, ann)
    assert end.data["round_over"] and end.data["next"] == (ann + 2) % 4
    start_round(t)
    assert t.t["turn"]["player"] == (ann + 2) % 4


def test_ghosts_in_a_group_game_cannot_be_aimed_at_nor_shoot_and_the_last_wizard_wins(games):
    game = games["spellchamber"]
    assert game.constants.ghosts_from_players <= 3
    t = Table(game, names(3))
    t.act({"type": "first"})
    a = t.state["first_player"]
    b, c = (a + 1) % 3, (a + 2) % 3
    start_round(t, [live(game)] * 4 + [blank(game)] * 4)
    t.act({"type": "adjust", "player": c, "counter": "life", "delta": -(t.counter("life", c) - 1)})
    shoot(t, c)
    assert t.mine(c)["ghost"] and t.mine(c)["powered"], "a dead wizard with 3 or more players is a ghost"
    t.refused({"type": "shoot", "shooter": b, "target": c}, match="ghost and cannot be aimed at")
    shoot(t, a)
    t.refused({"type": "shoot", "shooter": c, "target": a}, match="ghosts cannot shoot")
    t.refused({"type": "power", "player": c, "up": False}, match="always powered up")
    passed = t.act({"type": "pass", "player": c})
    assert passed.data["ghost"] and t.t["turn"]["player"] == a
    t.act({"type": "adjust", "player": b, "counter": "life", "delta": -(t.counter("life", b) - 1)})
    shoot(t, b)
    assert t.t["over"] and t.t["winner"] == a
    t.refused({"type": "shoot", "shooter": b, "target": a}, Conflict, "the game is over: Ann has won".replace("Ann", names(3)[a]))
    t.refused({"type": "start_round"}, Conflict, "game is over")


def test_in_a_duel_the_fallen_wizard_is_no_ghost_and_the_other_wins(games):
    game = games["spellchamber"]
    t = Table(game, names(2))
    t.act({"type": "first"})
    a = t.state["first_player"]
    start_round(t, [live(game)] * 2)
    t.act({"type": "adjust", "player": 1 - a, "counter": "life", "delta": -(t.counter("life", 1 - a) - 1)})
    shoot(t, 1 - a)
    assert t.mine(1 - a)["out"] and not t.mine(1 - a)["ghost"]
    assert t.t["winner"] == a
    t.act({"type": "undo", "version": t.version})  # the adjust was a mistake: the duel goes on
    assert t.t["winner"] is None and t.mine(1 - a)["alive"]


def test_order_dependent_spellchamber_actions_need_a_fresh_version(games):
    t = Table(games["spellchamber"], names(2))
    t.refused({"type": "start_round"}, Invalid, "did not say what it saw of the table", version=False)
    t.refused({"type": "start_round", "version": 0}, Conflict, "changed the table while you were deciding")
    start_round(t)
    seen = t.version
    t.act({"type": "adjust", "player": 0, "counter": "life", "delta": -1})
    shooter = t.t["turn"]["player"]
    t.refused({"type": "shoot", "shooter": shooter, "target": 0, "version": seen}, Conflict, "look again")
    t.refused({"type": "start_round"}, Conflict, "still being played")


def test_the_chamber_order_is_hidden_until_its_round_is_over(games):
    game = games["spellchamber"]
    t = Table(game, names(2))
    t.act({"type": "first"})
    event = start_round(t, [live(game), blank(game)])
    public = table.public(t.state)
    assert "hidden" not in public and "hidden" in t.state
    assert "hidden" not in table.log_entry(event, t.state, set())["data"]
    assert "revealed" not in table.log_entry(event, t.state, set())["data"]
    peek = t.act({"type": "peek", "player": t.t["turn"]["player"], "count": 1})
    assert table.secret(peek, t.state) == {"cards": [live(game)]}
    assert "hidden" not in table.log_entry(peek, t.state, set())["data"]
    t.act({"type": "arrange", "player": t.t["turn"]["player"], "order": [0], "bottom": 1})
    assert shoot(t, 0).data["card"] == blank(game), "the top card went to the bottom"
    shoot(t, 0)
    assert table.log_entry(event, t.state, set())["data"]["revealed"] == {"chamber": [live(game), blank(game)]}


def test_a_shuffle_of_the_chamber_keeps_its_cards(games):
    game = games["spellchamber"]
    t = Table(game, names(2))
    start_round(t)
    before = Counter(t.state["hidden"]["chamber"])
    t.act({"type": "shuffle_chamber", "player": 0})
    assert Counter(t.state["hidden"]["chamber"]) == before
    assert t.t["chamber"]["left"] == {k: before.get(k, 0) for k in game.constants.ammo}


@pytest.mark.parametrize(
    "action, message",
    [
        ({"type": "shoot", "shooter": 9, "target": 0}, "no such player"),
        ({"type": "shoot", "shooter": 0, "target": "1"}, "whole number"),
        ({"type": "shoot", "shooter": 0, "target": 1, "again": "yes"}, "yes or no"),
        ({"type": "power", "player": 0}, "up must be"),
        ({"type": "peek", "player": 0, "count": 0}, "count must be"),
        ({"type": "arrange", "player": 0, "order": [0, 0]}, "each of 0 to 1 once"),
        ({"type": "arrange", "player": 0, "order": "01"}, "order must list"),
    ],
)
def test_bad_spellchamber_actions_are_refused(games, action, message):
    t = Table(games["spellchamber"], names(2))
    start_round(t)
    t.refused(action, Invalid, message)


def test_only_the_battle_player_shoots(games):
    t = Table(games["spellchamber"], names(3))
    start_round(t)
    other = (t.t["turn"]["player"] + 1) % 3
    t.refused({"type": "shoot", "shooter": other, "target": 0}, Invalid, "battle turn, not")
    t.refused({"type": "pass", "player": other}, Invalid, "battle turn, not")


# ================================================================================ Magicka Mayhem


def level(game, method):
    return next(lv for lv in game.constants.mayhem_levels if lv.method == method)


def mayhem_deck(game):
    return [card.id for card in game.decks["mayhem"].cards for _ in range(card.count)]


def test_maximum_mayhem_always_hits(games):
    game = games["magicka-mayhem"]
    always = level(game, "always")
    for seed in range(20):
        t = Table(game, names(2), {"mayhem": always.id}, rolls=random.Random(seed).randrange)
        t.act({"type": "start_turn", "player": 0})
        event = t.act({"type": "muster", "caster": 0, "target": 1})
        assert [m["hit"] for m in event.data["musters"]] == [True]
        assert event.data["musters"][0]["card"]["id"] in mayhem_deck(game)


@pytest.mark.parametrize("method", ["coin", "die", "custom"])
def test_a_levels_chance_is_the_yamls(games, method):
    game = games["magicka-mayhem"]
    chosen = level(game, method)
    hits = Counter()
    for roll in range(chosen.out_of):
        t = Table(game, names(2), {"mayhem": chosen.id}, rolls=lambda n, roll=roll: roll % n)
        t.act({"type": "start_turn", "player": 0})
        event = t.act({"type": "muster", "caster": 0, "target": 1, "draw": False})
        muster = event.data["musters"][0]
        hits[muster["hit"]] += 1
        assert muster["roll"] == roll + 1
        if method == "coin":
            assert muster["face"] == ("heads" if muster["hit"] else "tails")
    assert hits[True] == chosen.hits and hits[False] == chosen.out_of - chosen.hits


def test_the_table_can_set_its_own_chance(games):
    game = games["magicka-mayhem"]
    custom = level(game, "custom")
    t = Table(game, names(2), rolls=lambda n: n - 1)
    t.act({"type": "mayhem_level", "level": custom.id, "hits": 3, "out_of": 4})
    assert t.t["level"] == {"id": custom.id, "name": custom.name, "method": "custom", "hits": 3, "out_of": 4}
    t.act({"type": "start_turn", "player": 0})
    event = t.act({"type": "muster", "caster": 0, "target": 1, "draw": False})
    assert event.data["musters"][0] == {"player": 0, "roll": 4, "hit": False}
    t.refused({"type": "mayhem_level", "level": level(game, "coin").id, "hits": 1}, Invalid, "own chance")
    t.refused({"type": "mayhem_level", "level": custom.id, "hits": 5, "out_of": 4}, Invalid, "the chances out of which must be")


def test_the_mayhem_deck_is_drawn_through_and_reshuffled_when_empty(games):
    game = games["magicka-mayhem"]
    deck = mayhem_deck(game)
    t = Table(game, names(2), {"mayhem": level(game, "always").id})
    drawn = []
    for i in range(len(deck)):
        t.act({"type": "start_turn", "player": i % 2})
        event = t.act({"type": "muster", "caster": i % 2, "target": (i + 1) % 2})
        drawn.append(event.data["musters"][0]["card"]["id"])
        assert t.t["deck"] == {"size": len(deck), "left": len(deck) - i - 1, "discard": i + 1}
        assert t.t["last_muster"]["musters"][0]["card"]["text"]
    assert Counter(drawn) == Counter(deck), "each card as often as the YAML counts it"
    t.act({"type": "start_turn", "player": len(deck) % 2})
    again = t.act({"type": "muster", "caster": len(deck) % 2, "target": 1 - len(deck) % 2})
    assert again.data["shuffled"] == 1 and "shuffled" in t.text(again)
    assert t.t["deck"] == {"size": len(deck), "left": len(deck) - 1, "discard": 1}
    assert "hidden" not in table.public(t.state) and "hidden" not in table.log_entry(again, t.state, set())["data"]


def counterable(game, ok=True):
    """A spell card spell that holds two or more of one element (or, with ok=False, one that does not)."""
    for card in game.cards:
        if card.type == "spell":
            most = max(Counter(card["cost"]).values())
            if (most >= game.constants.interaction_threshold) == ok:
                return card
    pytest.fail("the spell deck has no such spell")


def test_countered_spells_muster_for_both_reflected_for_the_caster_disrupted_not_at_all(games):
    game = games["magicka-mayhem"]
    vs = next(m.id for m in game.constants.modes if m.id in INTERACTIVE_MODES)
    t = Table(game, names(3), {"mode": vs, "mayhem": level(game, "always").id})
    spell = counterable(game).id
    t.act({"type": "start_turn", "player": 0})
    countered = t.act({"type": "muster", "caster": 0, "target": 2, "interaction": "countered", "spell": spell})
    assert [m["player"] for m in countered.data["musters"]] == [0, 2]
    reflected = t.act({"type": "muster", "caster": 0, "target": 2, "interaction": "reflected", "spell": spell})
    assert [m["player"] for m in reflected.data["musters"]] == [0]
    t.refused({"type": "muster", "caster": 0, "target": 2, "interaction": "disrupted"}, Invalid, "not mustered")
    t.refused({"type": "muster", "caster": 0, "target": 2, "interaction": "countered", "spell": counterable(game, False).id},
              Invalid, "cannot be countered")
    summon = next(c for c in game.cards if c.type == "summon")
    t.refused({"type": "muster", "caster": 0, "target": 1, "spell": summon.id}, Invalid, "summons are never mustered")


def test_in_spellmageddon_no_spell_is_countered(games):
    game = games["magicka-mayhem"]
    simple = next(m.id for m in game.constants.modes if m.id not in INTERACTIVE_MODES)
    t = Table(game, names(2), {"mode": simple})
    t.refused({"type": "muster", "caster": 0, "target": 1, "interaction": "countered"}, Invalid, "nothing is countered")


def test_a_stale_muster_is_refused(games):
    t = Table(games["magicka-mayhem"], names(2))
    seen = t.version
    t.act({"type": "adjust", "player": 1, "counter": "health", "delta": -2})
    t.refused({"type": "muster", "caster": 0, "target": 1, "version": seen}, Conflict, "look again")


def summon_card(game):
    """A summon whose creature waits a turn before it attacks, as most do."""
    return next(c for c in game.cards if c.type == "summon" and not c.get("haste"))


def test_creatures_keep_their_yaml_stats_and_wait_a_turn_to_attack(games):
    game = games["magicka-mayhem"]
    card = summon_card(game)
    t = Table(game, names(2))
    t.act({"type": "start_turn", "player": 0})
    made = t.act({"type": "summon", "owner": 0, "card": card.id})
    unit = t.t["units"][0]
    called = card.name.removeprefix(game.constants.summon_prefix)
    assert (unit["id"], unit["name"], unit["attack"], unit["health"]) == (made.data["unit"], called, card["attack"], card["health"])
    assert unit["turn"] == 1 and not unit["ready"]
    t.refused({"type": "attack", "unit": unit["id"], "target": 1}, Invalid, "arrived this turn")
    t.act({"type": "start_turn", "player": 1})
    t.refused({"type": "attack", "unit": unit["id"], "target": 1}, Invalid, "attacks on Ann's turns")
    t.act({"type": "start_turn", "player": 0})
    assert t.t["units"][0]["ready"]
    hit = t.act({"type": "attack", "unit": unit["id"], "target": 1})
    assert t.counter("health", 1) == game.constants.starting_health - card["attack"]
    assert hit.data["damage"] == card["attack"]
    t.refused({"type": "attack", "unit": unit["id"], "target": 1}, Invalid, "attacked this turn")


def test_a_dead_wizards_creatures_stay_and_fight_on(games):
    game = games["magicka-mayhem"]
    t = Table(game, names(3))
    t.act({"type": "start_turn", "player": 0})
    t.act({"type": "summon", "owner": 0, "name": "Pet Rock", "attack": 2, "health": 3})
    t.act({"type": "damage", "target": 0, "amount": game.constants.starting_health})
    assert t.mine(0)["dead"] and len(t.t["units"]) == 1
    t.refused({"type": "heal", "target": 0, "amount": 1}, Invalid, "dead is dead")
    t.refused({"type": "summon", "owner": 0, "name": "Imp", "attack": 1, "health": 1}, Invalid, "dead wizards summon")
    t.act({"type": "damage", "target": 2, "amount": game.constants.starting_health})
    assert not t.t["over"], "Ann's creature still stands for her"
    t.act({"type": "start_turn", "player": 1})
    assert t.t["next"] == 0, "a dead wizard with a creature still takes turns"
    t.act({"type": "start_turn", "player": 0})
    t.refused({"type": "start_turn", "player": 2}, Invalid, "dead and has no creatures")
    t.act({"type": "damage", "target": 1, "amount": game.constants.starting_health})
    assert t.t["over"] and t.t["winner"] == 0


def test_a_barrier_absorbs_up_to_its_strength_and_blocks_healing_and_freezing(games):
    game = games["magicka-mayhem"]
    b = game.constants.barrier
    t = Table(game, names(2))
    t.refused({"type": "shield", "target": 1, "shields": b.shield_cost - 1}, Invalid, "at least") if b.shield_cost > 1 else None
    t.act({"type": "shield", "target": 1, "shields": b.shield_cost + 1})
    strength = b.strength + b.per_extra_shield
    assert t.mine(1)["barrier"] == {"strength": strength, "max": strength}
    t.refused({"type": "heal", "target": 1, "amount": 1}, Invalid, "barrier keeps Ben from being healed")
    t.refused({"type": "freeze", "target": 1}, Invalid, "barrier")
    t.refused({"type": "wet", "target": 1}, Invalid, "barrier")
    t.act({"type": "damage", "target": 1, "amount": 1})
    assert t.mine(1)["barrier"]["strength"] == strength - 1 and t.counter("health", 1) == game.constants.starting_health
    t.act({"type": "shield", "target": 1, "shields": 1})
    assert t.mine(1)["barrier"]["strength"] == min(strength, strength - 1 + b.repair_per_shield)
    hit = t.act({"type": "damage", "target": 1, "amount": strength + 3})
    assert hit.data["absorbed"] == strength and t.mine(1)["barrier"] is None
    assert t.counter("health", 1) == game.constants.starting_health - 3
    assert "collapses" in t.text(hit)


def test_a_creature_can_hold_a_barrier_and_dies_at_zero(games):
    game = games["magicka-mayhem"]
    t = Table(game, names(2))
    t.act({"type": "start_turn", "player": 1})
    uid = t.act({"type": "summon", "owner": 1, "name": "Golem", "attack": 1, "health": 2}).data["unit"]
    t.act({"type": "shield", "target": uid, "shields": game.constants.barrier.shield_cost})
    t.act({"type": "damage", "target": uid, "amount": game.constants.barrier.strength + 1})
    assert t.t["units"][0]["health"] == 1
    gone = t.act({"type": "damage", "target": uid, "amount": 5})
    assert gone.data["destroyed"] and t.t["units"] == []
    assert "Ben's Golem is destroyed" in t.text(gone)


def test_wet_frozen_and_zapped(games):
    game = games["magicka-mayhem"]
    c = game.constants
    t = Table(game, names(3))
    t.refused({"type": "zap", "target": 1}, Invalid, "only a wet target")
    t.act({"type": "wet", "target": 1})
    zapped = t.act({"type": "zap", "target": 1})
    assert zapped.data["damage"] == c.zap_damage and t.counter("health", 1) == c.starting_health - c.zap_damage
    assert not t.mine(1)["wet"], "zapping dries"
    t.act({"type": "wet", "target": 1})
    t.act({"type": "freeze", "target": 1})
    assert t.mine(1)["frozen"] == c.freeze_turns and not t.mine(1)["wet"]
    t.act({"type": "start_turn", "player": 0})
    assert t.t["next"] == 1
    started = t.act({"type": "start_turn", "player": 1})
    assert started.data["skipped"] == [1] * c.freeze_turns and t.t["player"] == 2, "a frozen wizard skips a turn"
    assert "Ben is frozen and skips a turn" in t.text(started)
    assert t.mine(1)["frozen"] == 0


def test_magicka_undo_takes_back_a_change_but_never_a_muster(games):
    t = Table(games["magicka-mayhem"], names(2))
    t.act({"type": "start_turn", "player": 0})
    t.act({"type": "summon", "owner": 0, "name": "Imp", "attack": 1, "health": 1})
    muster = t.act({"type": "muster", "caster": 0, "target": 1})
    assert t.state["undo"]["text"].startswith("Ann summoned Imp")
    t.act({"type": "undo", "version": t.version})
    assert t.t["units"] == [] and t.t["last_muster"]["musters"] == muster.data["musters"]


@pytest.mark.parametrize(
    "action, message",
    [
        ({"type": "muster", "caster": 0, "target": 7}, "no such player"),
        ({"type": "muster", "caster": 0, "target": 1, "interaction": "bounced"}, "interaction must be one of"),
        ({"type": "muster", "caster": 0, "target": 1, "spell": "nope"}, "no such spell"),
        ({"type": "muster", "caster": 0, "target": 1, "draw": 1}, "yes or no"),
        ({"type": "summon", "owner": 0, "card": "nope"}, "no such summon"),
        ({"type": "summon", "owner": 0, "name": "<b>x</b>", "attack": 1, "health": 1}, "markup"),
        ({"type": "summon", "owner": 0, "name": "Imp", "attack": 1, "health": 0}, "health must be"),
        ({"type": "damage", "target": "u9", "amount": 1}, "no longer in play"),
        ({"type": "damage", "target": 0, "amount": 0}, "amount must be"),
        ({"type": "damage", "target": 0.5, "amount": 1}, "choose a player, a creature or a blocker"),
        ({"type": "shield", "target": 0}, "shields must be"),
        ({"type": "mayhem_level", "level": "extreme"}, "level must be one of"),
        ({"type": "wet", "target": 0, "on": "yes"}, "on must be"),
        ({"type": "start_turn"}, "whole number"),
    ],
)
def test_bad_magicka_actions_are_refused(games, action, message):
    Table(games["magicka-mayhem"], names(2)).refused(action, Invalid, message)


# ================================================================================ Sorcerer Duel


def deck_card(game, deck, kind):
    return next(c for c in game.decks[deck].cards if c.type == kind)


def test_mana_resets_to_the_yamls_value_each_turn_and_never_carries_over(games):
    game = games["sorcerer-duel"]
    c = game.constants
    t = Table(game, names(2))
    first = t.act({"type": "start_turn", "player": 0}, version=False)
    assert t.counter("mana", 0) == c.mana_per_turn and t.counter("mana", 1) == 0
    assert first.data["skipped_draw"] is c.first_player_skips_draw
    assert t.t["draw"]["skipped"] is c.first_player_skips_draw
    for _ in range(c.max_conversions):
        t.act({"type": "convert", "player": 0}, version=False)
    assert t.counter("mana", 0) == c.mana_per_turn + c.max_conversions * c.mana_per_conversion
    t.refused({"type": "convert", "player": 0}, Invalid, "the most a turn allows", version=False)
    t.refused({"type": "convert", "player": 1}, Invalid, "on their own turn", version=False)
    t.act({"type": "start_turn", "player": 1}, version=False)
    assert t.counter("mana", 1) == c.mana_per_turn and t.counter("mana", 0) == 0
    assert t.t["draw"] == {"count": c.draws_per_turn, "skipped": False, "limit": c.hand_limit}
    t.act({"type": "adjust", "player": 0, "counter": "mana", "delta": 5})
    t.act({"type": "start_turn", "player": 0}, version=False)
    assert t.counter("mana", 0) == c.mana_per_turn, "what was left is gone"
    t.refused({"type": "start_turn", "player": 0}, Conflict, "Ann's turn already", version=False)


def test_a_variants_numbers_come_from_its_own_yaml(games):
    game = games["sorcerer-duel"]
    variant = dataclasses.replace(game, constants=game.constants.model_copy(update={"mana_per_turn": 5, "max_conversions": 0}))
    t = Table(variant, names(2))
    t.act({"type": "start_turn", "player": 1}, version=False)
    assert t.counter("mana", 1) == 5
    t.refused({"type": "convert", "player": 1}, Invalid, "the most a turn allows", version=False)


def test_creatures_pay_their_cost_wait_a_turn_and_attack_once(games):
    game = games["sorcerer-duel"]
    t = Table(game, names(2))
    deck = t.state["players"][0]["options"]["deck"]
    creature = min((c for c in game.decks[deck].cards if c.type == "creature"), key=lambda c: c["cost"])
    t.act({"type": "start_turn", "player": 0}, version=False)
    if creature["cost"]:
        t.act({"type": "adjust", "player": 0, "counter": "mana", "delta": creature["cost"]})
    made = t.act({"type": "summon", "player": 0, "card": creature.id})
    uid = made.data["unit"]
    assert made.data["mana"]["to"] == made.data["mana"]["from"] - creature["cost"]
    unit = t.t["units"][0]
    assert (unit["attack"], unit["health"], unit["kind"]) == (creature["attack"], creature["health"], "creature")
    t.refused({"type": "attack", "unit": uid, "target": 1}, Invalid, "arrived this turn")
    t.act({"type": "start_turn", "player": 1}, version=False)
    t.act({"type": "start_turn", "player": 0}, version=False)
    t.refused({"type": "attack", "unit": uid, "target": 0}, Invalid, "other side")
    t.act({"type": "attack", "unit": uid, "target": 1})
    assert t.counter("health", 1) == game.constants.starting_health - creature["attack"]
    t.refused({"type": "attack", "unit": uid, "target": 1}, Invalid, "attacked this turn")


def test_a_summon_needs_the_mana_and_a_ready_creature_attacks_at_once(games):
    game = games["sorcerer-duel"]
    t = Table(game, names(2))
    t.act({"type": "start_turn", "player": 0}, version=False)
    mana = t.counter("mana", 0)
    t.refused({"type": "summon", "player": 0, "name": "Titan", "attack": 9, "health": 9, "cost": mana + 1},
              Invalid, f"costs {mana + 1} mana; Ann has {mana}")
    t.refused({"type": "summon", "player": 1, "name": "Imp", "attack": 1, "health": 1}, Invalid, "on their own turn")
    uid = t.act({"type": "summon", "player": 0, "name": "Hound", "attack": 2, "health": 2, "ready": True}).data["unit"]
    t.act({"type": "attack", "unit": uid, "target": 1})
    assert t.counter("health", 1) == game.constants.starting_health - 2


def duel(game, *side):
    """A duel with Ben's side holding `side` ((kind, name, health), in the order placed), Ann to play."""
    t = Table(game, names(2))
    t.act({"type": "start_turn", "player": 1}, version=False)
    for kind, unit, health in side:
        t.act({"type": "summon", "player": 1, "kind": kind, "name": unit, "health": health})
    t.act({"type": "start_turn", "player": 0}, version=False)
    return t


def taken(event):
    """Who took what, in the order the blow landed."""
    return [(h["who"], h["damage"]) for h in event.data["hits"]]


def test_blockers_take_the_blow_first_and_the_excess_goes_through(games):
    game = games["sorcerer-duel"]
    t = duel(game, ("blocker", "Wall", 2), ("creature", "Imp", 1))
    hit = t.act({"type": "cast", "player": 0, "damage": 3, "target": 1})
    assert taken(hit) == [("Ben's Wall", 2), ("Ben", 1)]
    assert hit.data["hits"][0]["destroyed"] and "draws" not in hit.data["hits"][0], "a blocker is no creature"
    assert t.counter("health", 1) == game.constants.starting_health - 1
    assert [u["name"] for u in t.t["units"]] == ["Imp"]
    assert "Ben's Wall takes 2 (2 → 0, destroyed); Ben takes 1" in t.text(hit)


def test_a_whole_side_attack_is_one_pool_shared_evenly_the_weak_taking_only_what_they_need(games):
    game = games["sorcerer-duel"]
    t = duel(game, ("creature", "Imp", 1), ("creature", "Ogre", 5))
    side = t.act({"type": "cast", "player": 0, "damage": 7, "area": True})
    assert taken(side) == [("Ben's Imp", 1), ("Ben's Ogre", 3), ("Ben", 3)], "no blocker: the pool is shared, not dealt to each"
    assert side.data["hits"][0]["draws"] == game.constants.draws_on_creature_death
    assert (side.data["lost"], side.data["odd"]) == (0, 0)
    assert t.counter("health", 1) == game.constants.starting_health - 3


def test_a_side_attack_against_a_blocker_is_absorbed_and_the_rest_shared(games):
    game = games["sorcerer-duel"]
    t = duel(game, ("blocker", "Wall", 3), ("creature", "Imp", 5))
    absorbed = t.act({"type": "cast", "player": 0, "damage": 2, "area": True})
    assert taken(absorbed) == [("Ben's Wall", 2)], "the rulebook's example: the blocker takes it all"
    side = t.act({"type": "cast", "player": 0, "damage": 4, "area": True})
    assert taken(side) == [("Ben's Wall", 1), ("Ben's Imp", 1), ("Ben", 2)]
    assert side.data["odd"] == 1
    assert t.text(side).endswith("; 1 odd point did not share evenly: Ben took it (the attacker may place it elsewhere)")


def test_a_one_target_attack_on_a_creature_goes_through_the_blockers_and_past_its_health_is_lost(games):
    game = games["sorcerer-duel"]
    t = duel(game, ("blocker", "Wall", 2), ("creature", "Imp", 3))
    wall, imp = (u["id"] for u in t.t["units"])
    t.refused({"type": "cast", "player": 0, "damage": 1, "target": wall}, Invalid, "Ben's Wall is a blocker")
    first = t.act({"type": "cast", "player": 0, "damage": 4, "target": imp})
    assert taken(first) == [("Ben's Wall", 2), ("Ben's Imp", 2)]
    assert t.text(first).startswith("Ann cast an attack spell at Ben's Imp for 4: Ben's Wall takes 2")
    second = t.act({"type": "cast", "player": 0, "damage": 5, "target": imp})
    assert taken(second) == [("Ben's Imp", 1)] and second.data["lost"] == 4
    assert t.text(second).endswith("; 4 damage past the creature's health is lost")
    assert t.counter("health", 1) == game.constants.starting_health and t.t["units"] == []


def test_a_creatures_attack_takes_the_same_road_as_a_spell(games):
    game = games["sorcerer-duel"]
    t = duel(game, ("blocker", "Wall", 2), ("creature", "Imp", 3))
    imp = t.t["units"][1]["id"]
    hound = t.act({"type": "summon", "player": 0, "name": "Hound", "attack": 4, "health": 2, "ready": True}).data["unit"]
    bite = t.act({"type": "attack", "unit": hound, "target": imp})
    assert taken(bite) == [("Ben's Wall", 2), ("Ben's Imp", 2)]
    assert t.text(bite).startswith("Ann's Hound attacked Ben's Imp for 4: ")


def test_the_tracker_lands_every_attack_where_the_rule_helper_does(games):
    game = games["sorcerer-duel"]
    ann_deck, ben_deck = (game.decks[p["options"]["deck"]] for p in Table(game, names(2)).state["players"])
    blocker = min((card for card in ben_deck.cards if card.type == "blocker"), key=lambda card: card["health"])
    creatures = sorted((card for card in ben_deck.cards if card.type == "creature"), key=lambda card: card["health"])[:3]
    attacks = [card for card in ann_deck.cards if card.type == "attack-spell" or card.type == "creature" and card["attack"]]
    for attack in attacks:
        area = attack.type == "attack-spell" and attack["target"] == "side"
        for aim in [None] if area else [None, *range(len(creatures))]:
            t = duel(game, *((card.type, card.name, card["health"]) for card in [blocker, *creatures]))
            target = 1 if aim is None else t.t["units"][1 + aim]["id"]
            if attack.type == "creature":
                unit = t.act({"type": "summon", "player": 0, "name": attack.name, "attack": attack["attack"],
                              "health": attack["health"], "ready": True}).data["unit"]
                event = t.act({"type": "attack", "unit": unit, "target": target})
            else:
                aimed = {} if area else {"target": target}
                event = t.act({"type": "cast", "player": 0, "damage": attack["damage"], "area": area, **aimed})
            answer = ask(game, "attack", {"attack": attack.id, "target": None if aim is None else creatures[aim].id,
                                          "blockers": [blocker.id], "creatures": [card.id for card in creatures]})
            helper = [(f"Ben's {h['name']}", h["damage"]) for h in answer["blockers"] + answer["creatures"] if h["damage"]]
            helper += [("Ben", answer["sorcerer"]["damage"])] if answer["sorcerer"]["damage"] else []
            assert taken(event) == helper, (attack.id, aim)
            assert (event.data["lost"], event.data["odd"]) == (answer["lost"], answer["odd"]), (attack.id, aim)


def test_casting_a_card_from_the_players_deck(games):
    game = games["sorcerer-duel"]
    t = Table(game, names(2))
    deck = t.state["players"][0]["options"]["deck"]
    spell = next(c for c in game.decks[deck].cards if c.type == "attack-spell" and c["target"] == "one")
    t.act({"type": "start_turn", "player": 0}, version=False)
    if spell["cost"]:
        t.act({"type": "adjust", "player": 0, "counter": "mana", "delta": spell["cost"]})
    cast = t.act({"type": "cast", "player": 0, "card": spell.id, "target": 1})
    assert t.counter("health", 1) == game.constants.starting_health - spell["damage"]
    assert cast.data["name"] == spell.name
    other = next(c for c in game.decks[deck].cards if c.type == "attack-spell")
    t.refused({"type": "cast", "player": 1, "card": other.id, "target": 0}, Invalid)


def test_the_duel_ends_at_zero_health(games):
    game = games["sorcerer-duel"]
    t = Table(game, names(2))
    t.act({"type": "adjust", "player": 0, "counter": "health", "delta": -game.constants.starting_health})
    assert t.t["over"] and t.t["winner"] == 1
    t.refused({"type": "start_turn", "player": 1}, Conflict, "duel is over", version=False)


@pytest.mark.parametrize(
    "action, message",
    [
        ({"type": "start_turn", "player": 2}, "no such player"),
        ({"type": "summon", "player": 0, "card": "nope"}, "no such creature or blocker"),
        ({"type": "summon", "player": 0, "kind": "dragon", "name": "x", "health": 1}, "kind must be one of"),
        ({"type": "cast", "player": 0, "damage": 0, "target": 1}, "damage must be"),
        ({"type": "unit", "unit": "u1", "delta": -1}, "no longer in play"),
        ({"type": "attack", "unit": "u1", "target": 1}, "no longer in play"),
    ],
)
def test_bad_sorcerer_actions_are_refused(games, action, message):
    t = Table(games["sorcerer-duel"], names(2))
    t.refused(action, Invalid, message, version=False)


# ================================================================================ PowerMage 54


def test_the_empty_deck_halves_everyone_rounding_down(games):
    game = games["powermage-54"]
    divisor = game.constants.empty_deck_divisor
    t = Table(game, names(4))
    start = game.constants.starting_points
    t.act({"type": "adjust", "player": 0, "counter": "points", "delta": 1 - start + 2 * divisor})  # an odd number
    t.act({"type": "adjust", "player": 1, "counter": "points", "delta": -start})  # defeated
    t.act({"type": "adjust", "player": 2, "counter": "points", "delta": 1 - start})  # 1 point
    before = [t.counter("points", i) for i in range(4)]
    event = t.act({"type": "halve"})
    assert [t.counter("points", i) for i in range(4)] == [before[0] // divisor, 0, 0, start // divisor]
    assert [c["player"] for c in event.data["points"]] == [0, 2, 3], "a defeated player is out of it"
    assert t.mine(1)["defeated"] and t.mine(2)["defeated"]
    t.refused({"type": "halve", "version": t.version - 1}, Conflict, "look again")
    t.act({"type": "undo", "version": t.version})
    assert [t.counter("points", i) for i in range(4)] == before


def test_attacks_and_healing_use_the_cards_values(games):
    game = games["powermage-54"]
    cards = {k: sorted((c for c in game.cards if c.type == k), key=lambda c: c.get("value", c.get("multiplier")))
             for k in ("attack", "defense", "health", "thump")}
    mages = [c for c in game.cards if c.type == "powermage"]
    attack, thump, defense = cards["attack"][-1], cards["thump"][-1], cards["defense"][0]
    t = Table(game, names(2))
    assert game.constants.thump_needs_powermage
    t.refused({"type": "attack", "attacker": 0, "target": 1, "attack": attack.id, "thump": thump.id}, Invalid,
              "the attack's thump needs a PowerMage shown first")
    hit = t.act({"type": "attack", "attacker": 0, "target": 1, "attack": attack.id, "thump": thump.id, "powermage": mages[0].id,
                 "defense": defense.id}, version=False)
    assert f"thumped by {thump.name}, {mages[0].name} shown" in t.text(hit)
    damage = max(0, attack["value"] * thump["multiplier"] - defense["value"])
    assert hit.data["damage"] == damage and t.counter("points", 1) == max(0, game.constants.starting_points - damage)
    t.refused({"type": "attack", "attacker": 1, "target": 0, "attack": attack.id, "thump": thump.id, "powermage": mages[0].id,
               "defense": defense.id, "defense_thump": thump.id, "defense_powermage": mages[0].id}, Invalid,
              f"{mages[0].name} is used 2 times here, but the deck holds one")
    blocked = t.act({"type": "attack", "attacker": 1, "target": 0, "attack": cards["attack"][0].id,
                     "defense": cards["defense"][-1].id, "defense_thump": thump.id, "defense_powermage": mages[1].id}, version=False)
    assert blocked.data["damage"] == max(0, cards["attack"][0]["value"] - cards["defense"][-1]["value"] * thump["multiplier"])
    healed = t.act({"type": "heal", "player": 0, "health": cards["health"][0].id}, version=False)  # Ann's turn again
    assert healed.data["amount"] == cards["health"][0]["value"]
    t.refused({"type": "attack", "attacker": 0, "target": 0, "attack": attack.id}, Invalid, "attack themselves")
    t.refused({"type": "attack", "attacker": 0, "target": 1, "attack": defense.id}, Invalid, "no such attack card")


def test_the_last_player_standing_wins_powermage(games):
    game = games["powermage-54"]
    t = Table(game, names(3))
    for i in (0, 2):
        t.act({"type": "adjust", "player": i, "counter": "points", "delta": -game.constants.starting_points})
    assert t.t["winner"] == 1
    t.refused({"type": "halve"}, Conflict, "Ben has won")


# ================================================================================ Powers Combined


def test_each_challenge_has_its_yaml_level_and_modifiers(games):
    game = games["powers-combined"]
    t = Table(game, names(3))
    seen = []
    for number in range(1, game.constants.challenges_per_game + 1):
        assert t.counter("challenge") == number
        lvl = t.t["level"]
        yaml = next(lv for lv in game.constants.levels if lv.first <= number <= lv.last)
        assert (lvl["name"], lvl["modifiers"]) == (yaml.name, yaml.modifiers)
        seen.append(lvl["number"])
        if number < game.constants.challenges_per_game:
            t.act({"type": "resolve", "result": "won", "runes": 0})
    assert sorted(set(seen)) == list(range(1, len(game.constants.levels) + 1))
    assert t.t["submit"] == game.constants.cards_submitted
    assert Table(game, names(2)).t["submit"] == game.constants.cards_submitted_two_players


def test_beating_the_last_challenge_wins_and_losing_every_life_loses(games):
    game = games["powers-combined"]
    c = game.constants
    card = max(game.decks["challenges"].cards, key=lambda card: card["runes"])
    t = Table(game, names(2))
    t.act({"type": "face", "card": card.id}, version=False)
    assert t.t["matchup"] == {"weak_to": list(c.matchups[card["element"]].weak_to), "resists": list(c.matchups[card["element"]].resists)}
    won = t.act({"type": "resolve", "result": "won", "double_up": True})
    assert won.data["reward"] == card["runes"] * c.double_up_on_challenge
    assert t.counter("runes") == min(won.data["reward"], c.rune_tokens) and t.counter("challenge") == 2
    assert t.t["card"] is None
    t.refused({"type": "resolve", "result": "won"}, Invalid, "how many runes")
    t.act({"type": "adjust", "counter": "challenge", "delta": c.challenges_per_game - t.counter("challenge")})
    last = t.act({"type": "resolve", "result": "won", "runes": 1})
    assert last.data["cleared"] and t.t["outcome"] == "won"
    t.refused({"type": "resolve", "result": "lost"}, Conflict, "cleared the caves")

    t = Table(game, names(4))
    for life in range(c.lives, 0, -1):
        lost = t.act({"type": "resolve", "result": "lost"})
        assert lost.data["lives"] == {"from": life, "to": life - 1}
        assert t.counter("challenge") == 1, "a failed challenge stays"
    assert t.t["outcome"] == "lost" and "no lives are left" in t.text(lost).lower()


def test_runes_spent_a_turn_stop_at_the_limit(games):
    game = games["powers-combined"]
    c = game.constants
    t = Table(game, names(3))
    t.refused({"type": "spend_rune"}, Invalid, "pot is empty", version=False)
    t.act({"type": "adjust", "counter": "runes", "delta": c.rune_tokens})
    for spent in range(1, c.rune_spend_limit + 1):
        t.act({"type": "spend_rune"}, version=False)
        assert t.t["spent"] == spent
    t.refused({"type": "spend_rune"}, Invalid, f"no more than {c.rune_spend_limit} runes", version=False)
    t.act({"type": "resolve", "result": "lost"})
    assert t.t["spent"] == 0
    t.act({"type": "spend_rune"}, version=False)
    assert t.counter("runes") == c.rune_tokens - c.rune_spend_limit - 1


def test_a_double_up_multiplies_the_reward_by_the_yamls_number(games):
    game = games["powers-combined"]
    triple = dataclasses.replace(game, constants=game.constants.model_copy(update={"double_up_on_challenge": 3}))
    card = min((card for card in game.decks["challenges"].cards if card["runes"]), key=lambda card: card["runes"])
    t = Table(triple, names(2))
    t.act({"type": "face", "card": card.id}, version=False)
    assert t.act({"type": "resolve", "result": "won", "double_up": True}).data["reward"] == card["runes"] * 3
    most = game.constants.rune_tokens * 3
    t.act({"type": "resolve", "result": "won", "runes": most})
    t.refused({"type": "resolve", "result": "won", "runes": most + 1}, Invalid, f"runes must be 0 to {most}")


# ================================================================================ every tracker


@pytest.mark.parametrize("slug", ["magicka-mayhem", "powermage-54", "powers-combined", "sorcerer-duel", "spellchamber"])
def test_every_game_has_a_tracker_and_every_action_is_known(games, slug):
    game = games[slug]
    t = Table(game, names(game.players.min))
    tracker = RULESETS[t.state["ruleset"]].tracker
    assert tracker is not None and t.state["rules"] == tracker.rules(game, {})
    assert table.actions(t.state) == ("adjust", "bring_back", "undo", "reopen", "roll", "coin", "first", "new_game", *tracker.actions)
    with pytest.raises(Invalid, match="reload the page"):
        t.act({"type": "cheat"})
    public = table.public(t.state)
    assert "hidden" not in public and public["tracker"] == t.state["tracker"]


def test_a_table_from_before_the_trackers_still_counts(games):
    game = games["sorcerer-duel"]
    data = table.start(game, ["Ann", "Ben"])
    for key in ("rules", "ruleset"):
        data.pop(key)
    state = table.evolve(None, Event(1, "create", data))
    assert "tracker" not in state
    with pytest.raises(Invalid, match="reload the page"):
        table.decide(state, 1, {"type": "start_turn", "player": 0}, random.randrange)
    kind, data = table.decide(state, 1, {"type": "adjust", "player": 0, "counter": "mana", "delta": 1}, random.randrange)
    assert table.evolve(state, Event(2, kind, data))["players"][0]["counters"]["mana"] == state["players"][0]["counters"]["mana"] + 1
