"""PowerMage 54 at the table: turns (issue 25: "one player attacked twice in a row"), and every
card effect on points and turns the lab plays, as tracker moves a phone sends.

From the rulebook: a player's turn is a draw (or an exchange, which ends it) and an "Action
Play: Player decides to do one of the following": one attack, health card, or card's ability.
A player at 0 points "has been defeated and is no longer in the game". Cards are found by
their YAML `effect`; every number comes from the YAML.
"""

from __future__ import annotations

import pytest

from spellpress.core.engine import Match
from spellpress.core.play.errors import Conflict, Invalid

SLUG = "powermage-54"
NAMES = ["Ann", "Ben", "Cy"]


def by_effect(game, effect):
    return next(card for card in game.cards if card.get("effect") == effect)


def of(game, kind, pick=min, key="value"):
    return pick((card for card in game.cards if card.type == kind), key=lambda card: card[key])


def table(game, players=NAMES, **options):
    return Match(game, list(players), lambda n: 0, options)


def points(m):
    return [m.counter("points", i) for i in range(len(m.state["players"]))]


def test_one_player_may_not_attack_twice_in_a_row(game):
    m = table(game)
    attack = of(game, "attack").id
    m.act("attack", attacker=0, target=1, attack=attack)
    with pytest.raises(Invalid, match="it is Ben's turn: Ann may attack only on their own turn, one action play a turn"):
        m.act("attack", attacker=0, target=1, attack=attack)
    with pytest.raises(Invalid, match="it is Ben's turn: Cy may play a Health card only on their own turn"):
        m.act("heal", player=2, health=of(game, "health").id)
    m.act("attack", attacker=1, target=2, attack=attack)
    assert (m.tracked["player"], m.tracked["turns"], m.tracked["rounds"]) == (2, 3, 1)
    m.act("end_turn", player=2)
    assert (m.tracked["player"], m.tracked["turns"], m.tracked["rounds"]) == (0, 4, 2), "round 2: Ann's turn again"


def test_the_turn_passes_over_a_defeated_player(game, c):
    m = table(game)
    attack = of(game, "attack")
    m.act("adjust", player=1, counter="points", delta=attack["value"] - c.starting_points)
    m.act("attack", attacker=0, target=1, attack=attack.id)
    assert m.mine(1)["defeated"] and m.tracked["player"] == 2
    with pytest.raises(Invalid, match="Ben is defeated and out of the game"):
        m.act("end_turn", player=1)
    m.act("end_turn", player=2)
    assert m.tracked["player"] == 0


def test_a_player_defeated_by_the_halving_on_their_own_turn_loses_the_turn(game, c):
    m = table(game)
    m.act("end_turn", player=0)
    m.act("adjust", player=1, counter="points", delta=1 - c.starting_points)  # halved to 0
    m.act("halve")  # Ben's draw found the deck empty
    assert m.mine(1)["defeated"] and m.tracked["player"] == 2 and m.tracked["turns"] == 3


def test_another_turn_is_the_same_players(game):
    m = table(game)
    m.act("play", player=0, card=by_effect(game, "extra-turn").id)
    assert (m.tracked["player"], m.tracked["turns"], m.tracked["rounds"]) == (0, 2, 1)
    m.act("end_turn", player=0)
    assert m.tracked["player"] == 1


def test_the_first_player_drawn_goes_first(game):
    m = Match(game, list(NAMES), lambda n: n - 1, {})
    m.act("first")  # the table draws who goes first: Cy
    with pytest.raises(Invalid, match="it is Cy's turn"):
        m.act("end_turn", player=0)
    m.act("end_turn", player=2)
    assert m.tracked["player"] == 0 and m.tracked["rounds"] == 2


def test_a_table_may_switch_turns_off(game):
    m = table(game, turns="off")
    attack = of(game, "attack").id
    m.act("attack", attacker=0, target=1, attack=attack)
    m.act("attack", attacker=0, target=1, attack=attack)
    assert m.tracked["player"] is None and m.tracked["turns"] == 0


def test_the_game_over_stops_the_turns(game, c):
    m = table(game, NAMES[:2])
    m.act("adjust", player=1, counter="points", delta=1 - c.starting_points)
    m.act("attack", attacker=0, target=1, attack=of(game, "attack").id)
    assert m.tracked["winner"] == 0 and m.tracked["player"] == 0
    with pytest.raises(Conflict, match="Ann has won"):
        m.act("end_turn", player=0)


# ---------------------------------------------------------------------------- the cards' effects


def test_annihilators_pair_is_multiplied_by_one_thump(game, c):
    m = table(game)
    small, big = of(game, "attack"), of(game, "attack", max)
    thump = of(game, "thump", max, "multiplier")
    pairing = by_effect(game, "two-cards")
    hit = m.act("attack", attacker=0, target=1, attack=big.id, second=small.id, thump=thump.id, powermage=pairing.id)
    assert hit["strength"] == (big["value"] + small["value"]) * thump["multiplier"]
    assert points(m)[1] == max(0, c.starting_points - hit["strength"])


def test_magnifier_multiplies_one_card_in_place_of_a_thump(game, c):
    m = table(game)
    magnifier, attack = by_effect(game, "multiply"), of(game, "attack")
    hit = m.act("attack", attacker=0, target=1, attack=attack.id, thump=magnifier.id)
    assert hit["strength"] == attack["value"] * magnifier["times"], "no PowerMage shown: Magnifier is one"
    with pytest.raises(Invalid, match=f"{magnifier.name} multiplies one Attack or Defense card, not two"):
        m.act("attack", attacker=1, target=2, attack=attack.id, second=attack.id, thump=magnifier.id)


def test_spellblade_attacks_and_blocks_at_its_worth_and_is_thumped_alone(game, c):
    m = table(game)
    blade, thump = by_effect(game, "as-card"), of(game, "thump", key="multiplier")
    hit = m.act("attack", attacker=0, target=1, attack=blade.id, thump=thump.id)
    assert hit["strength"] == blade["worth"] * thump["multiplier"]
    attack = of(game, "attack", max)
    blocked = m.act("attack", attacker=1, target=2, attack=attack.id, defense=blade.id)
    assert blocked["damage"] == max(0, attack["value"] - blade["worth"])


def test_turnabout_and_lifeweaver_turn_the_attack_into_a_gain(game, c):
    m = table(game)
    attack = of(game, "attack", max)
    gains = [card for card in game.cards if card.get("effect") == "gain"]
    assert len(gains) == 2
    for seat, card in enumerate(gains):  # Ann attacks Ben, then Ben attacks Cy
        hit = m.act("attack", attacker=seat, target=seat + 1, attack=attack.id, gain=card.id)
        assert points(m)[seat + 1] == c.starting_points + attack["value"] and hit["damage"] == 0
    with pytest.raises(Invalid, match="in place of a Defense card"):
        m.act("attack", attacker=2, target=0, attack=attack.id, gain=gains[0].id, defense=of(game, "defense").id)


def test_mirror_warden_sends_the_attack_on_and_the_last_player_answers_it(game, c):
    m = table(game)
    warden, attack, defense = by_effect(game, "redirect"), of(game, "attack", max), of(game, "defense")
    hit = m.act("attack", attacker=0, target=1, attack=attack.id, redirects=[{"card": warden.id, "to": 0}], defense=defense.id)
    assert points(m) == [c.starting_points - (attack["value"] - defense["value"]), c.starting_points, c.starting_points]
    assert hit["redirects"] == [{"card": warden.id, "by": 1, "to": 0}] and m.tracked["last"]["target"] == 0
    with pytest.raises(Invalid, match="Cy cannot send it to themselves"):
        m.act("attack", attacker=1, target=2, attack=attack.id, redirects=[{"card": warden.id, "to": 2}])


def test_blister_cannot_be_defended_its_target_loses_the_forfeit_or_answers(game, c):
    blister, cancel = by_effect(game, "unblockable"), next(x for x in game.cards if x.get("cancels_unblockable"))
    given = next(x for x in game.cards if x.type == "powermage" and x.id not in (blister.id, cancel.id))
    m = table(game)
    m.act("play", player=0, card=blister.id, target=1)
    assert points(m)[1] == c.starting_points - blister["forfeit"]
    m.act("play", player=1, card=blister.id, target=2, cancel=cancel.id)
    m.act("play", player=2, card=blister.id, target=0, give_up=given.id)
    assert points(m) == [c.starting_points, c.starting_points - blister["forfeit"], c.starting_points]
    with pytest.raises(Invalid, match="one way"):
        m.act("play", player=0, card=blister.id, target=1, cancel=cancel.id, give_up=given.id)
    with pytest.raises(Invalid, match="aimed at another player"):
        m.act("play", player=0, card=blister.id, target=0)


def test_soul_swap_trades_points(game, c):
    m = table(game)
    m.act("adjust", player=2, counter="points", delta=-30)
    m.act("play", player=0, card=by_effect(game, "swap-points").id, target=2)
    assert points(m) == [c.starting_points - 30, c.starting_points, c.starting_points]


def test_a_card_on_hands_alone_is_logged_as_played_and_ends_the_turn(game):
    m = table(game)
    m.act("play", player=0, card=by_effect(game, "take-blind").id, target=1)
    assert m.tracked["player"] == 1
    with pytest.raises(Invalid, match="no such card played as an action play"):
        m.act("play", player=1, card=by_effect(game, "gain").id)


def test_an_exchange_shows_its_cards_and_ends_the_turn(game, c):
    m = table(game)
    two = [of(game, "attack").id, of(game, "defense").id]
    with pytest.raises(Invalid, match=f"an exchange discards {c.exchange_discard} cards"):
        m.act("end_turn", player=0, exchanged=two[:1])
    m.act("end_turn", player=0, exchanged=two)
    assert m.tracked["player"] == 1


def test_a_table_saved_before_turns_were_kept_plays_on_without_them(game):
    m = table(game)
    old = {key: value for key, value in m.tracked.items() if key not in ("player", "turns", "rounds")}
    m.state = {**m.state, "options": {}, "tracker": old}
    attack = of(game, "attack").id
    m.act("attack", attacker=0, target=1, attack=attack)
    m.act("attack", attacker=0, target=1, attack=attack)
    assert "player" not in m.tracked
