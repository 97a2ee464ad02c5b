"""Sorcerer Duel, one engine (issue 25): the table applies every effect the cards and sorcerers
print, as the balance lab plays them, since the lab now plays through the table's own tracker.

Each test drives a table as the companion does (decide, then evolve; the fold of the log equal to
the state after every event) and reads its cards in the loaded game by the fields they carry,
quoting the words they print."""

from __future__ import annotations

from collections import Counter

import pytest

from spellpress.core import table
from spellpress.core.engine import check
from spellpress.core.games.sorcerer_duel import lab
from spellpress.core.play.errors import Conflict, Invalid
from spellpress.core.table import Event
from spellpress.lab.engine import game_rng

SLUG = "sorcerer-duel"


class Duel:
    """Ann (seat 0) against Ben (seat 1), each with the deck and sorcerer given."""

    def __init__(self, game, ann=None, ben=None):
        players = [{"name": who, "options": options or {}} for who, options in (("Ann", ann), ("Ben", ben))]
        self.events = [Event(1, "create", table.start(game, players), by=0)]
        self.state = table.evolve(None, self.events[0])

    def act(self, kind, /, **action):
        version = self.events[-1].seq
        made = table.decide(self.state, version, {**action, "type": kind, "version": version}, lambda n: 0)
        event = Event(version + 1, *made, by=0)
        self.events.append(event)
        self.state = table.evolve(self.state, event)
        assert table.fold(self.events) == self.state
        return event

    def refused(self, match, kind, /, error=Invalid, **action):
        before = self.state
        with pytest.raises(error, match=match):
            self.act(kind, **action)
        assert self.state is before

    def text(self, event):
        return table.describe(event, self.state)

    @property
    def t(self):
        return self.state["tracker"]

    def health(self, seat):
        return self.state["players"][seat]["counters"]["health"]

    def unit(self, uid):
        return next((u for u in self.t["units"] if u["id"] == uid), None)

    def summon(self, seat, card, **more):
        """A card of the seat's deck summoned, with the mana it costs added first."""
        if card["cost"]:
            self.act("adjust", player=seat, counter="mana", delta=card["cost"])
        return self.act("summon", player=seat, card=card.id, **more).data["unit"]

    def beast(self, seat, attack=1, health=1, ready=True):
        """A creature typed in, free."""
        return self.act("summon", player=seat, name="Beast", attack=attack, health=health, ready=ready).data["unit"]


def with_field(game, field, kind=None):
    return next(card for card in game.cards if card.get(field) is not None and (kind is None or card.type == kind))


def with_death(game, effect, kind="creature"):
    return next(card for card in game.cards if card.get("death_effect") == effect and card.type == kind)


def deck(card):
    return {"deck": card.deck}


def sorcerer(game, field):
    return {"sorcerer": with_field(game, field, "sorcerer").id}


# ---------------------------------------------------------------------------- Vessik


def test_vessik_converts_one_card_more_than_the_rule_at_the_table(game, c):
    vessik = with_field(game, "extra_conversions", "sorcerer")
    allowed = c.max_conversions + vessik["extra_conversions"]
    assert f"You may convert up to {allowed} cards to mana each turn instead of {c.max_conversions}." in vessik["text"]
    t = Duel(game, ann={"sorcerer": vessik.id})
    t.act("start_turn", player=0)
    assert t.t["conversions_allowed"] == allowed  # the phone's Convert button counts to it
    for n in range(1, allowed + 1):
        made = t.act("convert", player=0)
        assert made.data["conversions"] == n and t.text(made).startswith(f"Ann converted a card ({n} of {allowed})")
    assert t.state["players"][0]["counters"]["mana"] == c.mana_per_turn + allowed * c.mana_per_conversion
    t.refused("the most a turn allows", "convert", player=0)
    t.act("start_turn", player=1)
    for _ in range(c.max_conversions):
        t.act("convert", player=1)
    t.refused("the most a turn allows", "convert", player=1)  # Ben plays no Vessik


def test_the_lab_converts_as_vessik_allows_through_the_table(game, c):
    """Greedy lab games where Vessik is dealt: some turn converts one card more than the rule,
    and the companion's reducer accepts every move of them."""
    prepared = lab.prepare(game)
    most = 0
    for seed in range(30):
        outcome = lab.play(prepared, game_rng(seed, 2), 2, ("greedy", "greedy"), lab.LAB.turn_cap, True)
        vessik = [i for i, p in enumerate(outcome.match.state["players"]) if p["options"]["sorcerer"] == "vessik-the-mana-thief"]
        if not vessik:
            continue
        turns, seen = Counter(), None
        for move, state in zip(outcome.match.moves, outcome.match.states):
            seen = state["tracker"]["turn"] if move.type == "start_turn" else seen
            if move.type == "convert" and move.sent["player"] in vessik:
                turns[seen] += 1
        most = max(most, *turns.values(), 0)
        assert check(outcome.match) is None
    assert most == c.max_conversions + game.card("vessik-the-mana-thief")["extra_conversions"]


# ---------------------------------------------------------------------------- the cards' effects


def test_thorns_prick_the_creature_whose_attack_hits_the_blocker(game):
    thicket = with_field(game, "thorns", "blocker")
    assert f"When a creature's attack hits it, deal {thicket['thorns']} damage to that creature." in thicket["text"]
    t = Duel(game, ben=deck(thicket))
    t.act("start_turn", player=1)
    t.summon(1, thicket)
    t.act("start_turn", player=0)
    hound = t.beast(0, attack=1, health=3)
    bite = t.act("attack", unit=hound, target=1)
    assert t.unit(hound)["health"] == 3 - thicket["thorns"]
    assert f"thorns prick it for {thicket['thorns']}: Ann's Beast takes {thicket['thorns']}" in t.text(bite)
    spell = t.act("cast", player=0, damage=1, target=1)  # a spell is no creature's attack
    assert "thorns" not in spell.data and t.unit(hound)["health"] == 3 - thicket["thorns"]


def test_a_blocker_regains_health_at_the_start_of_its_owners_turn_never_above_its_card(game):
    palisade = with_field(game, "regains", "blocker")
    assert f"At the start of your turn, it regains {palisade['regains']} lost health." in palisade["text"]
    t = Duel(game, ben=deck(palisade))
    t.act("start_turn", player=1)
    wall = t.summon(1, palisade)
    t.act("start_turn", player=0)
    t.act("unit", unit=wall, delta=-(palisade["regains"] + 1))
    turn = t.act("start_turn", player=1)
    assert t.unit(wall)["health"] == palisade["health"] - 1
    assert f"Ben's {palisade.name} regains health" in t.text(turn)
    t.act("start_turn", player=0)
    t.act("start_turn", player=1)
    assert t.unit(wall)["health"] == palisade["health"]


def test_end_of_turn_damage_hits_the_opposing_sorcerer_once_a_turn(game, c):
    adept = with_field(game, "end_damage", "creature")
    assert f"At the end of your turn, deal {adept['end_damage']} damage to the opposing sorcerer." in adept["text"]
    t = Duel(game, ann=deck(adept))
    t.act("start_turn", player=0)
    t.summon(0, adept)
    turn = t.act("start_turn", player=1)  # a phone that starts the next turn ends this one
    assert t.health(1) == c.starting_health - adept["end_damage"]
    assert t.text(turn).startswith(f"The turn ends: Ann's {adept.name} deals {adept['end_damage']} to Ben")
    t.act("start_turn", player=0)
    ended = t.act("end_turn", player=0)
    assert t.health(1) == c.starting_health - 2 * adept["end_damage"]
    assert t.text(ended).startswith("Ann's turn ends: ")
    t.refused("turn has ended", "convert", player=0)
    t.refused("not its own|ended", "end_turn", player=0)
    t.act("start_turn", player=1)
    assert t.health(1) == c.starting_health - 2 * adept["end_damage"], "a turn ends once"


def test_end_of_turn_damage_can_end_the_duel(game):
    adept = with_field(game, "end_damage", "creature")
    t = Duel(game, ann=deck(adept))
    t.act("start_turn", player=0)
    t.summon(0, adept)
    t.act("adjust", player=1, counter="health", delta=adept["end_damage"] - t.health(1))
    last = t.act("start_turn", player=1)
    assert t.t["over"] and t.t["winner"] == 0 and t.t["player"] == 0 and "turn" not in last.data


def test_a_phoenix_is_shuffled_into_its_deck(game):
    phoenix = with_death(game, "reshuffle")
    assert "Shuffle it into your deck instead of your discard pile." in phoenix["death"]
    t = Duel(game, ann=deck(phoenix))
    t.act("start_turn", player=0)
    bird = t.summon(0, phoenix)
    t.act("start_turn", player=1)
    burn = t.act("cast", player=1, damage=phoenix["health"], target=bird)
    assert burn.data["hits"][0]["reshuffled"] and "it is shuffled into Ann's deck" in t.text(burn)


def test_ignaras_bonus_once_a_turn_on_a_spell_that_damages_the_sorcerer(game, c):
    ignara = with_field(game, "spell_bonus", "sorcerer")
    bonus = ignara["spell_bonus"]
    assert f"Once per turn, when one of your attack spells damages the opposing sorcerer, it deals {bonus} more damage." \
        in ignara["text"]
    t = Duel(game, ann={"sorcerer": ignara.id})
    t.act("start_turn", player=1)
    imp = t.beast(1, health=5)
    t.act("start_turn", player=0)
    t.act("cast", player=0, damage=1, target=imp)  # at a creature: no bonus, and it stays free
    first = t.act("cast", player=0, damage=1, target=1)
    t.act("cast", player=0, damage=1, target=1)
    assert first.data["bonus"] == bonus and t.health(1) == c.starting_health - 2 - bonus
    assert f"for 1 (+{bonus}: {ignara.name})" in t.text(first)
    hound = t.beast(0)
    t.act("start_turn", player=1)
    t.act("start_turn", player=0)
    t.act("attack", unit=hound, target=1)  # a creature's attack is no spell
    t.act("cast", player=0, damage=1, target=1)
    assert t.health(1) == c.starting_health - 2 - bonus - 1 - 1 - bonus


def test_a_spell_that_draws_says_so(game):
    dart = with_field(game, "draws", "attack-spell")
    t = Duel(game, ann=deck(dart))
    t.act("start_turn", player=0)
    t.act("adjust", player=0, counter="mana", delta=dart["cost"])
    cast = t.act("cast", player=0, card=dart.id, target=1)
    assert cast.data["draws"] == dart["draws"] and t.text(cast).endswith(f"Ann draws {dart['draws']} card")


# ---------------------------------------------------------------------------- deaths


def test_a_death_damage_is_aimed_by_its_owner_before_anything_else(game, c):
    imp = with_death(game, "damage")
    assert f"Deal {imp['death_amount']} damage to one target." in imp["death"]
    t = Duel(game, ann=deck(imp))
    t.act("start_turn", player=0)
    mine = t.summon(0, imp)
    t.act("start_turn", player=1)
    wolf = t.beast(1, health=3)
    kill = t.act("cast", player=1, damage=imp["health"], target=mine)
    assert t.t["pending"] == [{"owner": 0, "damage": imp["death_amount"], "source": f"Ann's {imp.name}"}]
    assert f"Ann aims its {imp['death_amount']} damage at one target" in t.text(kill)
    t.refused("first Ann aims the death damage", "cast", player=1, damage=1, target=0)
    t.refused("first Ann aims", "start_turn", player=0)
    t.refused("goes to the other side", "aim", target=0)
    aimed = t.act("aim", target=wolf)
    assert t.unit(wolf)["health"] == 3 - imp["death_amount"] and t.t["pending"] == []
    assert t.text(aimed).startswith(f"Ann aimed the death damage of Ann's {imp.name} ({imp['death_amount']}) at Ben's Beast")
    t.refused("no death effect is waiting", "aim", target=1)
    assert t.health(1) == c.starting_health


def test_a_death_heals_and_draws(game, c):
    spore, moss = with_death(game, "heal"), with_death(game, "draw")
    t = Duel(game, ben=deck(spore))
    t.act("start_turn", player=1)
    heals, draws = t.summon(1, spore), t.summon(1, moss)
    t.act("adjust", player=1, counter="health", delta=-5)
    t.act("start_turn", player=0)
    healed = t.act("cast", player=0, damage=spore["health"], target=heals)
    assert t.health(1) == c.starting_health - 5 + spore["death_amount"]
    assert f"Ben regains {spore['death_amount']}" in t.text(healed)
    drew = t.act("remove", unit=draws)
    assert drew.data["hits"][0]["draws"] == c.draws_on_creature_death + moss["death_amount"]


def test_morrow_draws_more_on_a_death_and_oswin_once_a_turn_on_a_blocker(game, c):
    morrow, oswin = with_field(game, "extra_death_draws", "sorcerer"), with_field(game, "blocker_draws", "sorcerer")
    t = Duel(game, ann={"sorcerer": morrow.id}, ben={"sorcerer": oswin.id})
    t.act("start_turn", player=0)
    died = t.act("remove", unit=t.beast(0))
    assert died.data["hits"][0]["draws"] == c.draws_on_creature_death + morrow["extra_death_draws"]
    t.act("start_turn", player=1)
    walls = [t.act("summon", player=1, kind="blocker", name=f"Wall {i}", health=1).data["unit"] for i in range(3)]
    first, second = (t.act("remove", unit=wall) for wall in walls[:2])
    assert first.data["hits"][0]["draws"] == oswin["blocker_draws"] and "draws" not in second.data["hits"][0]
    t.act("start_turn", player=0)
    assert t.act("remove", unit=walls[2]).data["hits"][0]["draws"] == oswin["blocker_draws"], "a new turn"


def test_selka_lets_one_cheap_creature_a_turn_attack_at_once(game):
    selka = with_field(game, "haste_up_to", "sorcerer")
    cheap = [card for card in game.decks["ember"].cards if card.type == "creature" and not card.get("haste")
             and not card.get("needs") and card["cost"] <= selka["haste_up_to"]]
    t = Duel(game, ann={"deck": "ember", "sorcerer": selka.id})
    t.act("start_turn", player=0)
    herald = t.act("summon", player=0, card=cheap[0].id)  # the turn's mana pays for it
    assert t.unit(herald.data["unit"])["ready"] and f"{selka.name} lets it attack this turn" in t.text(herald)
    t.act("adjust", player=0, counter="mana", delta=cheap[1]["cost"])
    second = t.act("summon", player=0, card=cheap[1].id).data["unit"]
    assert not t.unit(second)["ready"], "once per turn"


def test_mother_bramble_mends_a_blocker_of_the_players_choice_or_the_most_wounded(game):
    bramble = with_field(game, "blocker_regains", "sorcerer")
    amount = bramble["blocker_regains"]
    t = Duel(game, ben={"sorcerer": bramble.id})
    t.act("start_turn", player=1)
    low, lower = (t.act("summon", player=1, kind="blocker", name=n, health=5).data["unit"] for n in ("Low", "Lower"))
    t.act("start_turn", player=0)
    t.act("unit", unit=low, delta=-2)
    t.act("unit", unit=lower, delta=-3)
    t.refused("mends none but one of Ben's own wounded blockers", "start_turn", player=1, mend=t.beast(0))
    chosen = t.act("start_turn", player=1, mend=low)
    assert t.unit(low)["health"] == 3 + amount and t.unit(lower)["health"] == 2
    assert f"{bramble.name} mends Ben's Low" in t.text(chosen)
    t.act("start_turn", player=0)
    t.act("start_turn", player=1)  # no choice sent: the most wounded
    assert t.unit(lower)["health"] == 2 + amount
    t.refused("sorcerer mends no blocker", "start_turn", player=0, mend=low)


# ---------------------------------------------------------------------------- summoning requirements


def test_a_summon_meets_its_cards_requirement(game):
    rootwalker = next(card for card in game.cards if card.get("needs_how") == "destroy" and card["needs"] == "blocker")
    warden = next(card for card in game.cards if card.get("needs_how") == "have")
    wolf = next(card for card in game.cards if card.get("needs_how") == "died")
    t = Duel(game, ann=deck(rootwalker))
    t.act("start_turn", player=0)
    t.act("adjust", player=0, counter="mana", delta=10)
    t.refused("cannot be summoned now", "summon", player=0, card=rootwalker.id)
    t.refused("cannot be summoned now", "summon", player=0, card=warden.id)
    t.refused("cannot be summoned now", "summon", player=0, card=wolf.id)
    wall = t.act("summon", player=0, kind="blocker", name="Wall", health=2).data["unit"]
    beast = t.beast(0)
    t.refused("Choose which: Ann's Wall", "summon", player=0, card=rootwalker.id)
    t.refused("Choose which", "summon", player=0, card=rootwalker.id, sacrifice=beast)
    made = t.act("summon", player=0, card=rootwalker.id, sacrifice=wall)
    assert t.unit(wall) is None and "destroying Ann's Wall takes 2" in t.text(made)
    t.act("remove", unit=beast)  # a creature of Ann's died this turn
    t.act("summon", player=0, card=wolf.id)
    t.refused("without destroying anything", "summon", player=0, card=wolf.id, sacrifice=made.data["unit"])


# ---------------------------------------------------------------------------- turns


def test_turns_and_rounds_are_counted_as_the_table_sees_them(game):
    t = Duel(game)
    for who in (1, 0, 1, 0, 1):
        t.act("start_turn", player=who)
    assert (t.t["turn"], t.t["turns"], t.t["rounds"], t.t["first"]) == (5, 5, 3, 1)
    t.refused("turn already", "start_turn", error=Conflict, player=1)
