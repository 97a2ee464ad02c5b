"""Magicka Mayhem played by one engine: the table keeps the rulebook's turns (spell card spells,
summons and musters on their caster's turn; play proceeds clockwise, past the frozen only), the
table counts rounds, and the lab plays the cards as their words say."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from spellpress.core import table
from spellpress.core.engine import check, lab_of
from spellpress.core.games import RULESETS
from spellpress.core.play.errors import Invalid
from spellpress.core.table import Event
from spellpress.lab.engine import game_rng

SLUG = "magicka-mayhem"


class Phones:
    """A table moved as the phones move it: decide, then evolve."""

    def __init__(self, game, players, options=None):
        self.state = table.evolve(None, Event(1, "create", table.start(game, players, options)))
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
    p.refused("cast", "Ben casts spell card spells on their own turn, and it is Ann's", caster=BEN, spell="fire-bolt", target=ANN)
    p.act("muster", caster=ANN, target=BEN, spell="fire-bolt")
    p.act("summon", owner=ANN, card="summon-storm-sprite")
    # snap spells stay playable at any time: the table takes them as their effects
    p.act("wet", target=ANN)
    p.act("zap", target=ANN)


def test_an_area_spell_passes_over_a_creature_destroyed_as_it_spreads(game):
    """Tidal Wave "hits every opponent and each of their creatures": when it destroys a Magma Golem,
    whose death deals 2 to every creature, a creature that eruption destroys is not there to be hit
    when the wave reaches it, and the cast goes on (the table refused the whole spell: "that
    creature or blocker is no longer in play", found by make bench's 10,000 six-player games)."""
    p = Phones(game, ["Ann", "Ben"])
    p.act("start_turn", player=BEN)
    p.act("summon", owner=BEN, card="summon-magma-golem", extra=0)
    p.act("summon", owner=BEN, card="summon-storm-sprite", extra=0)
    golem, sprite = (u["id"] for u in p.t["units"])
    p.act("damage", target=golem, amount=3)
    p.act("damage", target=sprite, amount=1)
    p.act("start_turn", player=ANN)
    p.rolls = lambda n: n - 1  # the Muster's flip comes up tails: no Mayhem card changes the wave
    cast = p.act("cast", caster=ANN, spell="tidal-wave", target=BEN)
    assert not cast.get("mayhem")
    assert p.t["units"] == []
    assert p.state["players"][BEN]["counters"]["health"] < game.constants.starting_health


@pytest.mark.parametrize("players,number", [(6, 7168), (4, 7954)])
def test_a_wizard_killed_on_their_own_turn_makes_no_more_moves(game, players, number):
    """"Dead wizards cast no spells": in two of make bench's 10,000 games a wizard killed by their
    own spell card spell still cast the free snap spell its Mayhem card gave, which the table
    refused. (A dead wizard's creatures fight on: the wizard still stands while they do.) Those
    games, replayed at the table, now agree."""
    lab = lab_of(RULESETS[SLUG])
    outcome = lab.play(lab.prepare(game), game_rng(1, number), players, ("greedy",) * players, lab.turn_cap, True)
    assert check(outcome.match) is None


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


# ---------------------------------------------------------------------------- the cards' words, at the table and in the lab


def _with_mayhem(game, card_id):
    """The game with a Mayhem deck of that one card."""
    deck = game.decks["mayhem"]
    return replace(game, decks={**game.decks, "mayhem": replace(deck, cards=tuple(c for c in deck.cards if c.id == card_id))})


def _at_maximum(game, card_id, players):
    """A table at Maximum Mayhem whose every Mayhem card is `card_id`."""
    rigged = _with_mayhem(game, card_id)
    always = next(lv.id for lv in game.constants.mayhem_levels if lv.method == "always")
    p = Phones(rigged, players, {"mayhem": always})
    p.rolls = lambda n: 0
    return p


def _lab_table(game, players=2, policy="greedy", seed=1):
    from spellpress.core.engine import Outcome
    from spellpress.core.games.magicka_mayhem import lab

    p = lab.prepare(game)
    out = Outcome(winner=None, finished=False, first=0, turns=0, rounds=0, played=[Counter() for _ in range(players)])
    t = lab.Table(p, random.Random(seed), players, (policy,) * players, out, False)
    t.act("start_turn", player=ANN)
    return lab, t


def test_meteors_splash_hits_each_wizard_beside_the_target_once(game):
    """Meteor: "The splash deals 1 damage to each wizard seated beside the target." In a duel the
    caster is the one wizard beside the target (on both sides), and is one wizard: hit once, 20 -> 19
    (the lab hit it twice, 20 -> 18). Greedy counts the splash on the caster against the spell."""
    meteor, start = game.card("meteor"), game.constants.starting_health
    p = _at_maximum(game, "chicken-dance", ["Ann", "Ben"])  # a Mayhem card that changes no spell
    p.act("start_turn", player=ANN)
    p.act("cast", caster=ANN, spell="meteor", target=BEN)
    health = [pl["counters"]["health"] for pl in p.state["players"]]
    assert health == [start - meteor["splash"], start - meteor["damage"]]
    four = _at_maximum(game, "chicken-dance", ["Ann", "Ben", "Cat", "Dee"])
    four.act("start_turn", player=ANN)
    four.act("cast", caster=ANN, spell="meteor", target=CAT)
    health = [pl["counters"]["health"] for pl in four.state["players"]]
    assert health == [start, start - meteor["splash"], start - meteor["damage"], start - meteor["splash"]]
    lab, t = _lab_table(game, 2)
    assert lab._splash(t, ANN, meteor, BEN) == -meteor["splash"]
    lab4, t4 = _lab_table(game, 4)
    assert lab4._splash(t4, ANN, meteor, CAT) == 2 * meteor["splash"]  # Ben and Dee beside Cat: enemies both
    assert lab4._splash(t4, ANN, meteor, BEN) == 0  # Ann and Cat beside Ben: one enemy, and the caster


def test_staff_doubles_only_a_spell_cast_at_an_opponent(game):
    """"Gonna Need a Bigger... STAFF!": "Cast at an opponent? Then it strikes EVERY opponent, with
    double effect." Healing Rain cast at its caster heals 3, not 6 (the lab healed 6)."""
    rain, fury, start = game.card("healing-rain"), game.card("fury-of-the-wizard"), game.constants.starting_health
    p = _at_maximum(game, "gonna-need-a-bigger-staff", ["Ann", "Ben", "Cat"])
    p.act("start_turn", player=ANN)
    p.act("damage", target=ANN, amount=10)
    p.act("cast", caster=ANN, spell="healing-rain", target=ANN)
    assert p.state["players"][ANN]["counters"]["health"] == start - 10 + rain["heal"]
    p = _at_maximum(game, "gonna-need-a-bigger-staff", ["Ann", "Ben", "Cat"])
    p.act("start_turn", player=ANN)
    p.act("cast", caster=ANN, spell="fury-of-the-wizard", target=BEN)
    health = [pl["counters"]["health"] for pl in p.state["players"]]
    assert health == [start, start - 2 * fury["damage"], start - 2 * fury["damage"]]  # at an opponent: every one, doubled
    assert p.state["players"][ANN]["tracker"]["frozen"] == game.constants.freeze_turns


def test_upgrades_at_casting_are_choices_and_greedy_takes_them_when_worth_it(game):
    """Summon Frigid Elemental "gains +1 Health for each additional Fire Element used in Cast";
    Vitality Tonic: "Each extra Life added to the cast heals 1 more". Each dearer payment is a
    choice of its own (payment was always the cheapest, so nothing ever grew)."""
    lab, t = _lab_table(game, 2)
    hand = t.hands[ANN]
    frigid = game.card("summon-frigid-elemental")
    hand.spells, hand.elements = [frigid.id], ["cold", "cold", "water", "fire", "fire"]
    spells, _ = t.castable(ANN)
    assert [sum(card["value"] for card, _ in pay.uses) for card_, pay in spells] == [3, 4, 5]
    t.do(ANN, lab.choose_greedy(t, ANN))
    (creature,) = t.t["units"]
    assert creature["health"] == frigid["health"] + 2 * game.constants.extra_element_growth
    tonic = game.card("vitality-tonic")
    hand.elements = ["life", "life", "life", "life"]
    t.act("damage", target=ANN, amount=5)
    _, snaps = t.castable(ANN)
    offered = [pay for snap, pay in snaps if snap.id == tonic.id]
    assert len(offered) == 3  # the cheapest (chosen when cast), and 1 or 2 Life more
    t.snap(ANN, tonic, ANN, offered[-1])
    assert t.hp(ANN) == game.constants.starting_health - 5 + tonic["heal"] + 2 * tonic["heal_per_extra"]


def test_a_treant_tends_its_side_once_in_each_of_its_wizards_turns(game):
    """Summon Verdant Treant: "At the start of your turn, heal 1 damage from you or one of your
    creatures." The lab healed with it; now the table tends, and refuses a second tending."""
    tends = game.card("summon-verdant-treant")["tends"]
    p = Phones(game, ["Ann", "Ben"])
    p.act("start_turn", player=ANN)
    uid = p.act("summon", owner=ANN, card="summon-verdant-treant")["unit"]
    p.act("damage", target=ANN, amount=3)
    p.refused("tend", "tends only Ann or one of their creatures", unit=uid, target=BEN)
    p.act("start_turn", player=BEN)
    p.refused("tend", "it is not their turn", unit=uid, target=ANN)
    p.act("start_turn", player=ANN)
    p.act("tend", unit=uid, target=ANN)
    assert p.state["players"][ANN]["counters"]["health"] == game.constants.starting_health - 3 + tends
    p.refused("tend", "has tended this turn already", unit=uid, target=ANN)


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


def _health(p):
    return [pl["counters"]["health"] for pl in p.state["players"]]


def test_a_beam_burns_on_its_casters_next_turns_until_a_barrier_breaks_it(game):
    """Arcane Beam: "Lasts 3 turns, this one included." The rulebook: "A Beam Spell is disrupted
    (thereby stopping FUTURE Damage) by a Shield Barrier. However, the Barrier is destroyed in the
    process." The table burns it as its caster's turns start."""
    beam, start = game.card("arcane-beam"), game.constants.starting_health
    p = _at_maximum(game, "chicken-dance", ["Ann", "Ben"])
    p.act("start_turn", player=ANN)
    p.act("cast", caster=ANN, spell="arcane-beam", target=BEN)
    for turn in range(1, beam["turns"] + 2):
        assert _health(p)[BEN] == start - beam["damage"] * min(turn, beam["turns"])
        p.act("start_turn", player=BEN)
        p.act("start_turn", player=ANN)
    p = _at_maximum(game, "chicken-dance", ["Ann", "Ben"])
    p.act("start_turn", player=ANN)
    p.act("cast", caster=ANN, spell="arcane-beam", target=BEN)
    p.act("start_turn", player=BEN)
    p.act("snap", caster=BEN, snap="shoddy-shield", target=BEN)
    p.act("start_turn", player=ANN)
    assert _health(p)[BEN] == start - beam["damage"] and p.state["players"][BEN]["tracker"]["barrier"] is None
    assert p.t["beams"] == []


def test_a_mirror_ward_deals_what_it_absorbs_to_the_spells_caster(game):
    """Mirror Ward: "Damage it absorbs from a spell is dealt to that spell's caster." """
    ward, fury, start = game.card("mirror-ward"), game.card("fury-of-the-wizard"), game.constants.starting_health
    p = _at_maximum(game, "chicken-dance", ["Ann", "Ben"])
    p.act("start_turn", player=BEN)
    p.act("cast", caster=BEN, spell="mirror-ward", target=BEN)
    p.act("start_turn", player=ANN)
    p.act("cast", caster=ANN, spell="fury-of-the-wizard", target=BEN)
    assert _health(p) == [start - ward["strength"], start - (fury["damage"] - ward["strength"])]


def test_slow_motion_lands_the_spell_as_its_casters_next_turn_starts(game):
    """Slow Motion: "The spell crawls across the table and lands at the start of the caster's next turn." """
    fury, start = game.card("fury-of-the-wizard"), game.constants.starting_health
    p = _at_maximum(game, "slow-motion", ["Ann", "Ben"])
    p.act("start_turn", player=ANN)
    p.act("cast", caster=ANN, spell="fury-of-the-wizard", target=BEN)
    p.act("start_turn", player=BEN)
    assert _health(p) == [start, start] and p.t["pending"]
    started = p.act("start_turn", player=ANN)
    assert _health(p) == [start, start - fury["damage"]] and not p.t["pending"]
    assert started["changes"]["health"] == [[BEN, start, start - fury["damage"]]]


def test_wizard_swap_trades_places_in_the_order_of_play(game):
    """Wizard Swap: "the caster and the target trade places at the table, and with them their turns
    in the order of play." """
    p = _at_maximum(game, "wizard-swap", ["Ann", "Ben", "Cat", "Dee"])
    p.act("start_turn", player=ANN)
    p.act("cast", caster=ANN, spell="fury-of-the-wizard", target=CAT)
    assert p.t["order"] == [CAT, BEN, ANN, DEE] and p.t["next"] == DEE
    p.refused("start_turn", "after Ann's turn comes Dee's, not Ben's", player=BEN)
