"""Magicka Mayhem played by one engine: the table keeps the rulebook's turns (spell card spells,
summons and musters on their caster's turn; play proceeds clockwise, past the frozen only), the
table counts rounds, and the lab plays the cards as their words say."""

from __future__ import annotations

import random

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
