"""Spellchamber's spells and wizards' powers at the table (issue 25): each applied by the tracker
as its card's words say, from the card's YAML fields, and refused with the rule in plain words
where the rules do not allow it. The chamber is set by hand as the server's shuffle would have
drawn it; cards are found in the loaded game by the effect they carry."""

from __future__ import annotations

import random

import pytest

from spellpress.core import table
from spellpress.core.play.errors import Conflict, Invalid
from spellpress.core.table import Event

NAMES = ["Ann", "Ben", "Cy", "Dee"]


@pytest.fixture(scope="module")
def game(games):
    return games["spellchamber"]


def kind(game, test):
    return next(k for k, e in game.constants.ammo.items() if test(e))


def live(game):
    return kind(game, lambda e: e.life_loss > 0)


def blank(game):
    return kind(game, lambda e: e.extra_turn_if_self)


def spell(game, effect, kind=None):
    return next(c for c in game.decks[game.constants.spell_deck].cards if c["effect"] == effect and (kind is None or c["kind"] == kind))


def wizard(game, effect):
    return next(c for c in game.cards if c.type == "wizard" and c.get("effect") == effect)


class Table:
    """A table moved as phones move it (decide, then evolve), the first battle player seat 0."""

    def __init__(self, game, players=2, wizards=None, chamber=None):
        wizards = wizards or {}
        seats = [{"name": NAMES[i], "options": {"wizard": wizards[i]}} if i in wizards else NAMES[i] for i in range(players)]
        self.game = game
        self.state = table.evolve(None, Event(1, "create", table.start(game, seats, {}), by=0))
        self.seq = 1
        self.rolls = random.Random(3).randrange
        self.act({"type": "first"})
        while self.state["first_player"] != 0:
            self.act({"type": "first"})
        kind_, data = self.decide({"type": "start_round"})
        if chamber is not None:
            data = {**data, "hidden": {**data["hidden"], "chamber": list(chamber)}}
        self.add(kind_, data)

    def decide(self, action):
        return table.decide(self.state, self.seq, {**action, "version": self.seq}, self.rolls)

    def add(self, kind_, data):
        self.seq += 1
        self.state = table.evolve(self.state, Event(self.seq, kind_, data, by=0))
        return data

    def act(self, action):
        return self.add(*self.decide(action))

    def refused(self, action, match, error=Invalid):
        before = self.state
        with pytest.raises(error, match=match):
            self.act(action)
        assert self.state == before

    @property
    def t(self):
        return self.state["tracker"]

    def life(self, i):
        return self.state["players"][i]["counters"]["life"]

    def mine(self, i):
        return self.state["players"][i]["tracker"]

    def cast(self, who, card, target=None):
        """`who` drafts the spell, then plays it."""
        self.act({"type": "draft", "player": who, "spell": card.id})
        return self.act({"type": "cast", "player": who, "spell": card.id, **({"target": target} if target is not None else {})})

    def shoot(self, shooter, target, **more):
        return self.act({"type": "shoot", "shooter": shooter, "target": target, **more})

    def power_up(self, who):
        self.act({"type": "power", "player": who, "up": True})


def test_a_warding_charm_stops_the_next_live(game):
    """"The next time a Live hits you this round, you lose no life; then discard this spell." A
    wizard who shot themselves and lost no life powers up, a Live stopped by the charm too."""
    ward = spell(game, "ward")
    t = Table(game, chamber=[blank(game), live(game), live(game)])
    t.shoot(0, 1)  # a Blank: Ben's turn
    t.cast(1, ward)
    assert t.mine(1)["wards"] == [{"spell": ward.id, "red": False}]
    shot = t.shoot(1, 1)
    assert shot["warded"] and shot["discarded"] == [ward.id] and "life" not in shot
    assert t.life(1) == game.constants.starting_life and t.mine(1)["wards"] == [] and t.mine(1)["powered"]


def test_a_powered_ward_sends_another_wizards_live_back(game):
    ward, loss = spell(game, "ward"), game.constants.ammo[live(game)].life_loss
    t = Table(game, chamber=[blank(game), live(game)])
    t.shoot(0, 1)
    t.power_up(1)
    t.cast(1, ward)
    t.act({"type": "pass", "player": 1})
    shot = t.shoot(0, 1)
    assert shot["warded"] and t.life(1) == game.constants.starting_life
    assert shot["returned"]["to"] == t.life(0) == game.constants.starting_life - loss
    assert ward.id in shot["discarded"]


def test_a_ricochet_sends_the_shot_back_and_powered_up_its_holder_chooses(game):
    """"The next time another wizard aims the Wizard Gun at you this round, the shot hits them
    instead." Powered up: "Wait until the ammo card is turned up, then choose whether it hits them or you.\""""
    ricochet, start, loss = spell(game, "ricochet"), game.constants.starting_life, game.constants.ammo[live(game)].life_loss
    t = Table(game, chamber=[blank(game), live(game), live(game), live(game)])
    t.shoot(0, 1)
    t.cast(1, ricochet)
    t.act({"type": "pass", "player": 1})
    back = t.shoot(0, 1)
    assert back["hit"] == 0 and t.life(0) == start - loss and t.life(1) == start
    t.power_up(1)
    t.cast(1, ricochet)
    t.act({"type": "pass", "player": 1})
    turned = t.shoot(0, 1)
    assert turned["waits"] == 1 and "life" not in turned and t.t["pending"]["card"] == live(game)
    assert "Ben chooses whom it hits" in table.describe(Event(t.seq, "shoot", turned), t.state)
    t.refused({"type": "pass", "player": 0}, "first chooses whom the turned-up", Conflict)
    t.refused({"type": "ricochet", "player": 0, "back": True}, "Ben chooses whom their Ricochet's card hits, not Ann")
    kept = t.act({"type": "ricochet", "player": 1, "back": False})  # Ben takes the Live himself
    assert "hit" not in kept and t.life(1) == start - loss and kept["ricochet"] == {"red": True, "back": False}
    assert t.t["pending"] is None and t.t["turn"]["player"] == 1


def test_a_blood_curse_adds_to_the_next_live_and_powered_up_forbids_a_blanks_extra_turn(game):
    """"The next Live that hits them this round costs them {curses} more life; then discard this
    spell." Powered up: "Until then, a Blank they shoot at themselves gives them no extra turn.\""""
    curse, start = spell(game, "curse"), game.constants.starting_life
    loss = game.constants.ammo[live(game)].life_loss
    t = Table(game, chamber=[blank(game), live(game), blank(game), live(game)])
    t.shoot(0, 1)
    t.cast(1, curse, target=0)
    shot = t.shoot(1, 0)
    assert shot["life"]["to"] == start - loss - curse["curses"] and t.mine(0)["curses"] == []
    t.power_up(1)
    t.act({"type": "pass", "player": 0})
    t.cast(1, curse, target=0)
    t.act({"type": "pass", "player": 1})
    selfshot = t.shoot(0, 0)  # a Blank at herself, under a powered Blood Curse
    assert "extra_turn" not in selfshot and t.t["turn"]["player"] == 1


def test_sleep_magic_skips_the_next_battle_turn(game):
    """"Choose another wizard: they skip their next battle turn this round.\""""
    sleep = spell(game, "sleep")
    t = Table(game, players=3, chamber=[blank(game)] * 6)
    t.cast(0, sleep, target=1)
    t.shoot(0, 2)
    assert t.t["turn"]["player"] == 1
    t.refused({"type": "shoot", "shooter": 1, "target": 2}, "asleep .*skips this battle turn")
    t.refused({"type": "cast", "player": 1, "spell": spell(game, "peek").id}, "asleep")
    slept = t.act({"type": "pass", "player": 1})
    assert slept["slept"] and slept["discarded"] == [sleep.id] and t.mine(1)["asleep"] == []
    assert t.t["turns"] == 1 + 0 + 1, "a slept turn is not a turn taken: Ann's, then Cy's"


def test_spells_are_played_on_your_own_turn_before_you_shoot_and_powered_ones_powered_up(game):
    bolt = spell(game, "bolt")
    t = Table(game, chamber=[blank(game)] * 4)
    t.refused({"type": "cast", "player": 1, "spell": spell(game, "peek").id}, "Ann's battle turn, not Ben's")
    t.refused({"type": "cast", "player": 0, "spell": bolt.id, "target": 1}, "powered-up spell.*not powered up")
    t.refused({"type": "cast", "player": 0, "spell": spell(game, "sleep").id}, "chooses another wizard")
    t.refused({"type": "cast", "player": 0, "spell": spell(game, "sleep").id, "target": 0}, "another wizard, not Ann")
    t.shoot(0, 0)  # a Blank at herself: powered up, another turn
    t.shoot(0, 1)
    t.refused({"type": "cast", "player": 0, "spell": spell(game, "peek").id}, "Ben's battle turn")


def test_arcane_bolt_and_soul_siphon_drain_and_second_wind_heals_within_the_die(game):
    start, sides = game.constants.starting_life, game.constants.die_sides
    bolt, siphon, heal = spell(game, "bolt"), spell(game, "siphon"), spell(game, "heal")
    t = Table(game, chamber=[blank(game)] * 4)
    t.power_up(0)
    t.cast(0, bolt, target=1)
    assert t.life(1) == start - bolt["drains"]
    t.cast(0, siphon, target=1)
    assert t.life(1) == start - bolt["drains"] - siphon["drains"] and t.life(0) == min(sides, start + siphon["siphons"])
    for _ in range(sides):
        t.cast(0, heal)
    assert t.life(0) == sides, "never more than the die's highest face"


def test_double_tap_shoots_once_more_and_vanishing_bullet_empties_the_chamber_at_once(game):
    """Double Tap: "After your shot this turn, aim the Wizard Gun again and shoot once more."
    Vanishing Bullet: "If it was the last card, the round ends at once.\""""
    tap, vanish = spell(game, "double-tap"), spell(game, "discard-top")
    t = Table(game, chamber=[blank(game), blank(game), live(game), blank(game)])
    t.power_up(0)
    t.cast(0, tap)
    first = t.shoot(0, 1)
    assert first["shoots_again"] and t.t["turn"]["player"] == 0
    second = t.shoot(0, 1)
    assert "shoots_again" not in second and t.t["turn"]["player"] == 1
    t.cast(1, vanish)
    last = t.cast(1, vanish)
    assert last["card"] == blank(game) and last["round_over"] and last["next"] == 0 and t.t["phase"] == "ready"


def test_mind_control_is_said_and_ends_with_the_controlled_turn(game):
    control = spell(game, "mind-control")
    t = Table(game, players=3, chamber=[blank(game)] * 6)
    t.cast(0, control, target=1)
    t.shoot(0, 2)
    shot = t.shoot(1, 1)
    assert shot["aimed_by"] == 0 and "aimed by Ann (Mind Control)" in table.describe(Event(t.seq, "shoot", shot), t.state)
    assert t.mine(1)["controlled"] is None


def test_spin_the_chamber_shuffles_on_the_server_and_powered_up_lets_its_caster_arrange(game):
    spin = spell(game, "shuffle")
    t = Table(game, chamber=[live(game), blank(game), blank(game)])
    shuffled = t.cast(0, spin)
    assert shuffled["shuffled"] and sorted(t.state["hidden"]["chamber"]) == sorted([live(game), blank(game), blank(game)])
    t.power_up(0)
    looked = t.cast(0, spin)
    assert looked["looks"] == spin["arranges"] and "hidden" not in looked


def test_the_rounds_end_discards_every_spell_kept_in_front_of_a_wizard(game):
    ward, curse = spell(game, "ward"), spell(game, "curse")
    t = Table(game, chamber=[blank(game)])
    t.cast(0, ward)
    t.cast(0, curse, target=1)
    end = t.shoot(0, 1)
    assert end["round_over"] and sorted(end["discarded"]) == sorted([ward.id, curse.id])
    assert t.mine(0)["wards"] == [] and t.mine(1)["curses"] == []


def test_powers_need_the_seats_wizard_and_power_up_and_power_it_down(game):
    mend, borrowed, misdirect = (wizard(game, e) for e in ("mend", "borrowed-time", "misdirect"))
    t = Table(game, players=3, wizards={0: mend.id, 1: borrowed.id, 2: misdirect.id}, chamber=[live(game)] * 6)
    t.refused({"type": "use_power", "player": 0}, "not powered up")
    t.act({"type": "adjust", "player": 0, "counter": "life", "delta": -2})
    t.act({"type": "adjust", "player": 2, "counter": "life", "delta": -1})
    t.power_up(0)
    used = t.act({"type": "use_power", "player": 0, "target": 2})
    start = game.constants.starting_life
    assert t.life(0) == start - 2 + mend["mends"] and t.life(2) == start - 1 + mend["mends"] and not t.mine(0)["powered"]
    t.shoot(0, 1)
    t.power_up(1)
    extra = t.act({"type": "use_power", "player": 1})
    assert extra["extra_turn"] and t.t["turn"]["earned"] == 1
    t.shoot(1, 0)
    assert t.t["turn"]["player"] == 1 and t.t["turn"]["extra"], "Borrowed Time: another battle turn after this one"
    t.shoot(1, 0)
    t.power_up(2)
    t.refused({"type": "use_power", "player": 2}, "chooses another wizard")
    t.act({"type": "use_power", "player": 2, "target": 0})
    t.act({"type": "pass", "player": 2})
    assert t.t["turn"]["player"] == 0
    sent = t.shoot(0, 2)
    assert sent["hit"] == 0 and sent["misdirected"], "Misdirection: the shot hits the wizard chosen, even the shooter"
    assert used["power"] == mend["power_name"]


def test_a_ghosts_battle_turn_begins_with_its_drafts(game):
    """"At the beginning of a Ghost player's battle turn, they draft a spell.\""""
    t = Table(game, players=3, chamber=[live(game), blank(game), blank(game), blank(game)])
    t.act({"type": "adjust", "player": 1, "counter": "life", "delta": 1 - t.life(1)})
    t.shoot(0, 1)
    assert t.mine(1)["ghost"] and t.t["turn"]["player"] == 1
    assert t.t["turn"]["drafts"] == game.constants.ghost_drafts
    t.act({"type": "pass", "player": 1})
    assert "drafts" not in t.t["turn"], "a wizard's turn has none"


def test_the_spells_in_front_of_a_wizard_keep_the_slot_rule(game):
    """"Each player has {spell_slots} total spell slots ... If a player doesn't have enough empty
    slots to draft a spell, they can either discard spells they already have to make room, or
    just discard the spell they were going to draft.\""""
    slots = game.constants.spell_slots
    small = min(game.decks[game.constants.spell_deck].cards, key=lambda c: c["slots"])
    big = max(game.decks[game.constants.spell_deck].cards, key=lambda c: c["slots"])
    t = Table(game, chamber=[blank(game)] * 2)
    for _ in range(slots // small["slots"]):
        t.act({"type": "draft", "player": 0, "spell": small.id})
    assert t.mine(0)["held"] == [small.id] * (slots // small["slots"])
    t.refused({"type": "draft", "player": 0, "spell": big.id}, "discard held spells to make room, or discard the new spell")
    made = t.act({"type": "draft", "player": 0, "spell": big.id, "drop": [small.id] * big["slots"]})
    assert made["discarded"] == [small.id] * big["slots"] and t.mine(0)["held"].count(big.id) == 1
    t.act({"type": "draft", "player": 0, "spell": big.id, "keep": False})
    assert t.t["discard"] == [small.id] * big["slots"] + [big.id]
    heal = spell(game, "heal")
    t.refused({"type": "cast", "player": 0, "spell": heal.id}, f"holds no {heal.name}: a spell is drafted before it is played")
    t.act({"type": "reshuffle_spells"})
    assert t.t["discard"] == []
    t.refused({"type": "reshuffle_spells"}, "discard pile is empty")


def test_pickpocket_and_graverobber_take_a_spell_into_their_slots(game):
    """Pickpocket: "Take one spell another player holds and put it in front of you (slot rules
    apply)." Graverobber: "Take any spell from the spell discard pile and put it in front of you.\""""
    thief, robber = wizard(game, "pickpocket"), wizard(game, "graverobber")
    ward, peek = spell(game, "ward"), spell(game, "peek")
    t = Table(game, wizards={0: thief.id, 1: robber.id}, chamber=[blank(game)] * 4)
    t.act({"type": "draft", "player": 1, "spell": ward.id})
    t.power_up(0)
    t.refused({"type": "use_power", "player": 0, "target": 1, "spell": peek.id}, "takes a spell Ben holds")
    t.act({"type": "use_power", "player": 0, "target": 1, "spell": ward.id})
    assert t.mine(0)["held"] == [ward.id] and t.mine(1)["held"] == []
    t.cast(0, peek)
    t.shoot(0, 1)
    t.power_up(1)
    t.act({"type": "use_power", "player": 1, "spell": peek.id})
    assert t.mine(1)["held"] == [peek.id] and peek.id not in t.t["discard"]


def test_the_draft_is_picked_from_the_battle_players_right_counter_clockwise_before_the_battle(game):
    """"The player to the right of the battle player will draft (pick a card) first. Players then
    take turns drafting in counter-clockwise order ... until there are no spells left in the grid.\""""
    ward, peek, heal = spell(game, "ward"), spell(game, "peek"), spell(game, "heal")
    t = Table(game, players=3, chamber=[blank(game)] * 3)  # Ann (seat 0) is the battle player
    laid = t.act({"type": "lay_out", "spells": [ward.id, peek.id, heal.id]})
    assert laid["first"] == 2 and t.t["draft"]["picks"] == [2, 1, 0]
    t.refused({"type": "shoot", "shooter": 0, "target": 1}, "the spell draft comes first: Cy picks", Conflict)
    t.refused({"type": "draft", "player": 1, "spell": ward.id}, "Cy's pick in the spell draft, not Ben's")
    t.refused({"type": "draft", "player": 2, "spell": spell(game, "bolt").id}, "the draft's grid holds")
    for who, card in ((2, ward), (1, peek), (0, heal)):
        t.act({"type": "draft", "player": who, "spell": card.id})
    assert [t.mine(i)["held"] for i in range(3)] == [[heal.id], [peek.id], [ward.id]] and t.t["draft"]["grid"] == []
    t.shoot(0, 1)
    t.refused({"type": "lay_out", "spells": [ward.id]}, "laid out once", Conflict)
