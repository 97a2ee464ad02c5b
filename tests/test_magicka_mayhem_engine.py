"""Magicka Mayhem played by one engine: the table keeps the rulebook's turns (spell card spells,
summons and musters on their caster's turn; play proceeds clockwise, past the frozen only), the
table counts rounds, and the lab plays the cards as their words say."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from spellpress.core import table
from spellpress.core.play.errors import Invalid
from spellpress.core.table import Event

SLUG = "magicka-mayhem"


class Phones:
    """A table moved as the phones move it: decide, then evolve."""

    def __init__(self, game, players):
        self.state = table.evolve(None, Event(1, "create", table.start(game, players)))
        self.version = 1
        self.rolls = random.Random(3).randrange

    def act(self, kind, **sent):
        event_type, data = table.decide(self.state, self.version, {**sent, "type": kind, "version": self.version}, self.rolls)
        self.version += 1
        self.state = table.evolve(self.state, Event(self.version, event_type, data))
        return data

    def refused(self, kind, match, **sent):
        before = self.state
        with pytest.raises(Invalid, match=match):
            self.act(kind, **sent)
        assert self.state == before

    @property
    def t(self):
        return self.state["tracker"]


ANN, BEN, CAT, DEE = 0, 1, 2, 3


def test_spell_card_spells_summons_and_musters_are_cast_on_their_casters_turn(game):
    """"Spell Card Spells must be Cast during the Casting Wizard's Turn": three phones got a
    Mayhem Muster of Ben's Fire Bolt during Ann's turn and a summons on another wizard's turn."""
    p = Phones(game, ["Ann", "Ben", "Cat"])
    p.refused("muster", "no turn has started", caster=BEN, target=ANN, spell="fire-bolt")
    p.act("start_turn", player=ANN)
    p.refused("muster", "must be cast during the casting wizard's turn: Ben musters a spell on their own turn, and it is Ann's",
              caster=BEN, target=ANN, spell="fire-bolt")
    p.refused("summon", "Ben summons on their own turn, and it is Ann's", owner=BEN, card="summon-storm-sprite")
    p.act("muster", caster=ANN, target=BEN, spell="fire-bolt")
    p.act("summon", owner=ANN, card="summon-storm-sprite")
    # snap spells stay playable at any time: the table takes them as their effects
    p.act("wet", target=ANN)
    p.act("zap", target=ANN)


def test_play_proceeds_clockwise_and_skips_only_the_frozen(game):
    """"Play proceeds to Wizard's left (clockwise)": Cat's turn started straight after Ann's,
    skipping a living Ben. A frozen wizard skips their next turn, so then it may."""
    p = Phones(game, ["Ann", "Ben", "Cat", "Dee"])
    p.act("start_turn", player=ANN)
    p.refused("start_turn", "play proceeds clockwise: after Ann's turn comes Ben's, not Cat's", player=CAT)
    p.act("freeze", target=BEN, on=True)
    p.refused("start_turn", "after Ann's turn comes Cat's \\(Ben is frozen and skips it\\), not Dee's", player=DEE)
    started = p.act("start_turn", player=CAT)
    assert started["skipped"] == [BEN] and p.t["player"] == CAT and not p.state["players"][BEN]["tracker"]["frozen"]
    p.act("freeze", target=DEE, on=True)
    started = p.act("start_turn", player=DEE)  # the phone names the next wizard: frozen, Dee skips
    assert started["skipped"] == [DEE] and p.t["player"] == ANN


def test_rounds_are_counted_by_the_table_even_when_the_first_wizard_is_dead(game):
    """Rounds were counted only when seat 1 played: with the first wizard dead, every later round
    went uncounted. A round begins whenever play comes round to the first seat, or past it."""
    p = Phones(game, ["Ann", "Ben", "Cat", "Dee"])
    for who in (ANN, BEN, CAT, DEE):
        p.act("start_turn", player=who)
    assert (p.t["turns"], p.t["rounds"]) == (4, 1)
    p.act("damage", target=ANN, amount=game.constants.starting_health)
    for who in (BEN, CAT, DEE, BEN, CAT, DEE):
        p.act("start_turn", player=who)
    assert (p.t["turns"], p.t["rounds"]) == (10, 3)
    p.act("freeze", target=BEN, on=True)
    p.act("start_turn", player=BEN)  # Ben is frozen and skips: Cat's turn, in round 4
    assert (p.t["player"], p.t["turns"], p.t["rounds"]) == (CAT, 11, 4)


# ---------------------------------------------------------------------------- the lab plays the cards' words


def _lab_table(game, players=2, policy="greedy", seed=1):
    from spellpress.core.engine import Outcome
    from spellpress.core.games.magicka_mayhem import lab

    p = lab.prepare(game)
    out = Outcome(winner=None, finished=False, first=0, turns=0, rounds=0, played=[Counter() for _ in range(players)])
    return lab, lab.Table(p, random.Random(seed), players, (policy,) * players, out)


def test_meteors_splash_hits_each_wizard_beside_the_target_once(game):
    """Meteor: "The splash deals 1 damage to each wizard seated beside the target." In a duel the
    caster is the one wizard beside the target (on both sides), and is one wizard: hit once, 20 -> 19
    (it was hit twice, 20 -> 18). Greedy counts the splash on the caster against the spell."""
    lab, t = _lab_table(game, 2)
    meteor = game.card("meteor")
    ann, ben = t.wizards
    t.resolve(ann, meteor, ben, None)
    start = game.constants.starting_health
    assert (ann.health, ben.health) == (start - meteor["splash"], start - meteor["damage"])
    assert lab._splash(t, ann, meteor, ben) == -meteor["splash"]
    lab4, t4 = _lab_table(game, 4)
    ann, ben, cat, dee = t4.wizards
    assert lab4._splash(t4, ann, meteor, cat) == 2 * meteor["splash"]  # Ben and Dee beside Cat: enemies both
    assert lab4._splash(t4, ann, meteor, ben) == 0  # Ann and Cat beside Ben: one enemy, and the caster


def test_staff_doubles_only_a_spell_cast_at_an_opponent(game):
    """"Gonna Need a Bigger... STAFF!": "Cast at an opponent? Then it strikes EVERY opponent, with
    double effect." Healing Rain cast at its caster heals 3, not 6."""
    lab, t = _lab_table(game, 3)
    staff, rain = game.card("gonna-need-a-bigger-staff"), game.card("healing-rain")
    ann = t.wizards[0]
    ann.health = 10
    t.resolve(ann, rain, ann, staff)
    assert ann.health == 10 + rain["heal"]
    bolt = game.card("fury-of-the-wizard")
    t.resolve(ann, bolt, t.wizards[1], staff)
    start = game.constants.starting_health
    assert [w.health for w in t.wizards[1:]] == [start - 2 * bolt["damage"]] * 2  # at an opponent: every one, doubled


def test_upgrades_at_casting_are_choices_and_greedy_takes_them_when_worth_it(game):
    """Summon Frigid Elemental "gains +1 Health for each additional Fire Element used in Cast";
    Vitality Tonic: "Each extra Life added to the cast heals 1 more". Each dearer payment is a
    choice of its own (payment was always the cheapest, so nothing ever grew)."""
    lab, t = _lab_table(game, 2)
    ann = t.wizards[0]
    frigid = game.card("summon-frigid-elemental")
    ann.spells, ann.elements = [frigid.id], ["cold", "cold", "water", "fire", "fire"]
    spells, _ = t.castable(ann)
    assert [sum(card["value"] for card, _ in pay.uses) for card_, pay in spells] == [3, 4, 5]
    act = lab.choose_greedy(t, ann)
    t.do(ann, act)
    (creature,) = t.creatures
    assert creature.health == frigid["health"] + 2 * game.constants.extra_element_growth
    tonic = game.card("vitality-tonic")
    ann.elements, ann.health = ["life", "life", "life", "life"], 15
    _, snaps = t.castable(ann)
    offered = [pay for snap, pay in snaps if snap.id == tonic.id]
    assert len(offered) == 3  # the cheapest (chosen when cast), and 1 or 2 Life more
    t.snap(ann, tonic, ann, offered[-1])
    assert ann.health == 15 + tonic["heal"] + 2 * tonic["heal_per_extra"]


def test_the_lab_counts_rounds_as_the_table_does(game):
    """70 of 200 four-player games reported fewer rounds than turns / 4: rounds were counted
    only when seat 1 played. A round has at most one turn a wizard."""
    from spellpress.core.games.magicka_mayhem import lab
    from spellpress.lab.engine import game_rng

    p = lab.prepare(game)
    for seed in range(40):
        out = lab.play(p, game_rng(seed, 4), 4, ("greedy",) * 4, 400)
        assert out.rounds * 4 >= out.turns, (seed, out.turns, out.rounds)


def test_wizards_exchange_cards_at_the_start_of_a_turn(game):
    """Step 2 (optional) of a Spellmageddon turn: "Wizard can choose to discard cards in exchange
    for new Element and / or Spell cards" at the exchange rates. Both policies do, sometimes."""
    from spellpress.core.games.magicka_mayhem import lab
    from spellpress.lab.engine import game_rng

    p = lab.prepare(game)
    for policy in ("greedy", "random"):
        made = sum(lab.play(p, game_rng(seed, 2), 2, (policy,) * 2, 400).figures["card exchanges"] for seed in range(10))
        assert made > 0, policy
