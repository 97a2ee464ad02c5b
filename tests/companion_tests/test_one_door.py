"""One door, and the cards' own words: through the core, every number from the loaded games.

Every change to a number a tracker governs goes through the tracker: a `−` on a wizard behind a
barrier is damage through it, a `+` never brings back the dead, a ghost or a defeated player
(only a logged "bring back" does, and not in a finished game until it is reopened). What a card
lets a creature do is a field of the card, applied by the tracker: attacking on arrival, growing
from extra elements paid, its death effect; and healing never makes a creature grow.
"""

from __future__ import annotations

import pytest

from spellpress.core import table
from spellpress.core.games import ask
from spellpress.core.play.errors import Conflict, Invalid
from spellpress.core.table import Event
from test_trackers import Table, names

# ================================================================================ one door


def _shielded(game, target=1):
    b = game.constants.barrier
    t = Table(game, names(2))
    t.act({"type": "shield", "target": target, "shields": b.shield_cost})
    return t, b.strength


def test_a_minus_on_a_wizard_behind_a_barrier_is_damage_through_it(games):
    game = games["magicka-mayhem"]
    start = game.constants.starting_health
    t, strength = _shielded(game)
    event = t.act({"type": "adjust", "player": 1, "counter": "health", "delta": -(strength + 1)}, by=0)
    assert event.type == "damage" and event.data["absorbed"] == strength
    assert t.counter("health", 1) == start - 1 and t.mine(1)["barrier"] is None
    assert t.text(event).startswith(f"Ben takes {strength + 1} damage. The barrier absorbs {strength} and collapses.")
    # the damage action itself gives the same: one function
    same, _ = _shielded(game)
    same.act({"type": "damage", "target": 1, "amount": strength + 1})
    assert same.state["players"] == t.state["players"]
    # with no barrier, a − is what the rules would do: a plain change
    plain = t.act({"type": "adjust", "player": 1, "counter": "health", "delta": -1})
    assert plain.type == "adjust" and t.counter("health", 1) == start - 2


def test_a_plus_on_a_wizard_behind_a_barrier_is_healing_which_it_keeps_out(games):
    game = games["magicka-mayhem"]
    t, _ = _shielded(game)
    t.act({"type": "adjust", "player": 1, "counter": "health", "delta": -1})  # through the barrier first
    t.refused({"type": "adjust", "player": 1, "counter": "health", "delta": 1}, Invalid, "a shield barrier keeps Ben from being healed")


def test_a_plus_never_brings_back_the_dead_only_a_logged_bring_back_does(games):
    game = games["magicka-mayhem"]
    start = game.constants.starting_health
    t = Table(game, names(3))
    t.act({"type": "damage", "target": 1, "amount": start})
    assert t.mine(1)["dead"]
    t.refused({"type": "adjust", "player": 1, "counter": "health", "delta": 1}, Conflict,
              "Ben is dead, and a \\+ does not bring them back: use Bring back on Ben's card")
    t.refused({"type": "heal", "target": 1, "amount": 1}, Invalid, "dead is dead")
    t.refused({"type": "bring_back", "player": 0, "to": 3}, Conflict, "Ann is still in the game")
    t.refused({"type": "bring_back", "player": 1, "to": 0}, Invalid, "must be 1 to")
    back = t.act({"type": "bring_back", "player": 1, "to": 5}, by=2)
    assert t.text(back) == "Cy brought Ben back (Ben was dead): Health 0 \N{RIGHTWARDS ARROW} 5"
    assert t.counter("health", 1) == 5 and not t.mine(1)["dead"]
    assert t.state["undo"]["seq"] == back.seq  # undo takes it back like any change
    t.act({"type": "undo", "version": t.version})
    assert t.mine(1)["dead"] and t.counter("health", 1) == 0


def test_a_finished_game_takes_no_bring_back_until_it_is_reopened(games):
    game = games["powermage-54"]
    t = Table(game, names(2))
    t.act({"type": "adjust", "player": 1, "counter": "points", "delta": -game.constants.starting_points})
    assert t.t["over"] and t.mine(1)["defeated"]
    t.refused({"type": "bring_back", "player": 1, "to": 10}, Conflict, "reopen it \\(under Table\\) first")
    t.act({"type": "reopen"})
    t.refused({"type": "adjust", "player": 1, "counter": "points", "delta": 10}, Conflict, "Ben is defeated, and a \\+")
    back = t.act({"type": "bring_back", "player": 1, "to": 10})
    assert t.text(back) == "Ann brought Ben back (Ben was defeated): Points 0 \N{RIGHTWARDS ARROW} 10"
    assert not t.t["over"] and "reopened" not in t.state
    t.refused({"type": "bring_back", "player": 1, "to": game.constants.starting_points + 1}, Conflict, "still in the game")


def test_a_spellchamber_ghost_is_not_made_alive_by_a_plus(games):
    game = games["spellchamber"]
    n = game.constants.ghosts_from_players
    t = Table(game, names(n))
    t.act({"type": "adjust", "player": 1, "counter": "life", "delta": -game.constants.starting_life})
    assert t.mine(1)["ghost"]
    t.refused({"type": "adjust", "player": 1, "counter": "life", "delta": 1}, Conflict, "Ben is a ghost, and a \\+")
    t.act({"type": "bring_back", "player": 1, "to": 1})
    assert t.mine(1)["alive"] and not t.mine(1)["ghost"]
    assert t.state["life"] == "life"  # the phone's Bring back knows which counter it raises


def test_an_adjust_stored_before_the_door_still_replays_as_it_did(games):
    """A − logged as a plain change on a wizard behind a barrier (as phones did before) folds to
    what it did then: the barrier untouched."""
    game = games["magicka-mayhem"]
    t, strength = _shielded(game)
    start = game.constants.starting_health
    t.add("adjust", {"player": 1, "counter": "health", "delta": -3, "from": start, "to": start - 3})
    assert t.counter("health", 1) == start - 3 and t.mine(1)["barrier"]["strength"] == strength
    assert table.fold(t.events) == t.state


# ================================================================================ the cards' own words


def test_a_hasty_creature_attacks_on_the_turn_it_is_summoned(games):
    game = games["magicka-mayhem"]
    hasty = [c for c in game.cards if c.type == "summon" and c.get("haste")]
    assert hasty, "the YAML gives some creature haste"
    for card in hasty:
        t = Table(game, names(2))
        t.act({"type": "start_turn", "player": 0})
        t.act({"type": "summon", "owner": 0, "card": card.id})
        unit = t.t["units"][0]
        assert unit["ready"] and unit["name"] == card.name.removeprefix(game.constants.summon_prefix)
        hit = t.act({"type": "attack", "unit": unit["id"], "target": 1})
        assert hit.data["damage"] == card["attack"]
        assert card["text"].startswith("May attack on the turn it is summoned.")


def test_sorcerer_duels_hasty_creatures_arrive_ready_without_being_told(games):
    game = games["sorcerer-duel"]
    for deck in game.constants.player_decks:
        hasty = [c for c in game.decks[deck].cards if c.get("haste")]
        slow = [c for c in game.decks[deck].cards if c.type == "creature" and not c.get("haste")]
        for card in hasty + slow[:1]:
            t = Table(game, [{"name": "Ann", "options": {"deck": deck}}, "Ben"])
            t.act({"type": "start_turn", "player": 0})
            if card.get("needs_how") == "died":  # its requirement: one of your creatures has died lately
                t.act({"type": "summon", "player": 0, "name": "Imp", "attack": 1, "health": 1})
                t.act({"type": "remove", "unit": t.t["units"][0]["id"]})
            if card["cost"]:
                t.act({"type": "adjust", "player": 0, "counter": "mana", "delta": card["cost"]})
            t.act({"type": "summon", "player": 0, "card": card.id})
            assert t.t["units"][0]["ready"] == bool(card.get("haste")), card.id
            if card.get("haste"):
                assert "Can attack on the turn it is summoned." in card["text"]
            t.refused({"type": "summon", "player": 0, "card": card.id, "ready": True}, Invalid, "card says whether it may attack")
    assert sum(1 for c in game.cards if c.get("haste")) >= 3


def test_a_growing_summon_grows_from_the_extra_elements_paid(games):
    game = games["magicka-mayhem"]
    growth = game.constants.extra_element_growth
    singles = {c["elements"][0]: c for c in game.cards if c.get("value") == 1 and len(c.get("elements") or ()) == 1}
    growing = [c for c in game.cards if c.type == "summon" and c.get("grows")]
    assert {c["grows"] for c in growing} == {"attack", "health"}
    for card in growing:
        paid = [singles[e].id for e in card["cost"]] + [singles[card["grows_with"]].id] * 2
        t = Table(game, names(2))
        t.turn_of(0)
        made = t.act({"type": "summon", "owner": 0, "card": card.id, "paid": paid})
        unit = t.t["units"][0]
        more = {"attack": 0, "health": 0, card["grows"]: 2 * growth}
        assert (unit["attack"], unit["health"]) == (card["attack"] + more["attack"], card["health"] + more["health"])
        assert unit["max"] == unit["health"] and made.data["extra"] == 2
        assert f"2 extra {card['grows_with']} paid" in t.text(made)
        typed = Table(game, names(2))
        typed.turn_of(0)
        typed.act({"type": "summon", "owner": 0, "card": card.id, "extra": 2})
        assert typed.t["units"][0]["attack"] == unit["attack"] and typed.t["units"][0]["health"] == unit["health"]
        t.refused({"type": "summon", "owner": 0, "card": card.id, "paid": paid[1:-2]}, Invalid, "short")
        t.refused({"type": "summon", "owner": 0, "card": card.id, "health_bonus": 1}, Invalid, "from what was paid")
    still = next(c for c in game.cards if c.type == "summon" and not c.get("grows"))
    Table(game, names(2)).refused({"type": "summon", "owner": 0, "card": still.id, "extra": 1}, Invalid, "does not grow")


def test_healing_never_takes_a_creature_above_the_health_it_arrived_with(games):
    game = games["magicka-mayhem"]
    card = next(c for c in game.cards if c.type == "summon" and c["health"] > 2)
    t = Table(game, names(2))
    t.turn_of(0)
    t.act({"type": "summon", "owner": 0, "card": card.id})
    uid = t.t["units"][0]["id"]
    t.act({"type": "damage", "target": uid, "amount": 2})
    healed = t.act({"type": "heal", "target": uid, "amount": card["health"] + 3})
    assert t.t["units"][0]["health"] == card["health"] and healed.data["to"] == card["health"]
    t.refused({"type": "heal", "target": uid, "amount": 1}, Invalid, "full health")


def test_a_heal_logged_before_the_cap_replays_as_it_was(games):
    game = games["magicka-mayhem"]
    card = next(c for c in game.cards if c.type == "summon")
    t = Table(game, names(2))
    t.turn_of(0)
    t.act({"type": "summon", "owner": 0, "card": card.id})
    uid = t.t["units"][0]["id"]
    t.add("heal", {"target": uid, "amount": 3, "who": "Ann's creature", "from": card["health"], "to": card["health"] + 3})
    assert t.t["units"][0]["health"] == card["health"] + 3


def _death(game, does, to):
    return next(c for c in game.cards if c.type == "summon" and c.get("death") == does and c.get("death_to") == to)


def _destroy(t, card, owner=0):
    t.turn_of(owner)
    t.act({"type": "summon", "owner": owner, "card": card.id})
    uid = t.t["units"][-1]["id"]
    return t.act({"type": "damage", "target": uid, "amount": t.t["units"][-1]["health"]})


def test_a_destroyed_creature_does_what_its_card_says(games):
    game = games["magicka-mayhem"]
    c = game.constants
    start = c.starting_health
    # every summon says its death in its text, from the same field the tracker reads
    for card in (card for card in game.cards if card.type == "summon" and card.get("death")):
        t = Table(game, names(3))
        gone = _destroy(t, card)
        sentence = " ".join(card["text"].split()).split("When destroyed, ")[1]
        assert f"is destroyed. When destroyed, {sentence}" in t.text(gone), card.id
    # freezing every opponent, not through a barrier
    frigid = _death(game, "freeze", "every opponent")
    t = Table(game, names(3))
    t.act({"type": "shield", "target": 2, "shields": c.barrier.shield_cost})
    gone = _destroy(t, frigid)
    assert t.mine(1)["frozen"] == c.freeze_turns and not t.mine(2)["frozen"] and not t.mine(0)["frozen"]
    assert "A barrier keeps it from Cy." in t.text(gone)
    # damage to its own wizard, and healing of its own wizard
    horror, treant = _death(game, "damage", "its wizard"), _death(game, "heal", "its wizard")
    t = Table(game, names(2))
    _destroy(t, horror)
    assert t.counter("health", 0) == start - horror["death_amount"]
    _destroy(t, treant)
    assert t.counter("health", 0) == start - horror["death_amount"] + treant["death_amount"]
    # a barrier around its wizard; every wizard made wet
    guardian, bubble = _death(game, "barrier", "its wizard"), _death(game, "wet", "every wizard")
    t = Table(game, names(2))
    _destroy(t, guardian)
    assert t.mine(0)["barrier"] == {"strength": guardian["death_amount"], "max": guardian["death_amount"]}
    _destroy(t, bubble, owner=1)
    assert t.mine(1)["wet"] and not t.mine(0)["wet"], "the barrier keeps the wet out"


def test_a_death_that_destroys_sets_off_the_next(games):
    """Magma Golem's eruption hits every creature; a Storm Sprite it destroys zaps the wet wizards."""
    game = games["magicka-mayhem"]
    c = game.constants
    golem, sprite = _death(game, "damage", "every creature"), _death(game, "zap", "every wet wizard")
    assert sprite["health"] <= golem["death_amount"] + 1
    t = Table(game, names(2))
    t.turn_of(1)
    t.act({"type": "summon", "owner": 1, "card": sprite.id})
    sprite_id = t.t["units"][-1]["id"]
    if sprite["health"] > golem["death_amount"]:
        t.act({"type": "damage", "target": sprite_id, "amount": sprite["health"] - golem["death_amount"]})
    t.act({"type": "wet", "target": 0})
    gone = _destroy(t, golem)
    assert t.t["units"] == [], "the eruption destroyed the sprite"
    assert t.counter("health", 0) == c.starting_health - c.zap_damage and not t.mine(0)["wet"]
    text = t.text(gone)
    assert f"Ben's {sprite.name.removeprefix(c.summon_prefix)} is destroyed." in text
    assert f"Ben's {sprite.name.removeprefix(c.summon_prefix)}: When destroyed, it zaps every wet wizard" in text


def test_a_creature_destroyed_in_an_older_log_replays_without_its_death(games):
    game = games["magicka-mayhem"]
    golem = _death(game, "damage", "every creature")
    t = Table(game, names(2))
    t.turn_of(0)
    t.act({"type": "summon", "owner": 0, "card": golem.id})
    t.turn_of(1)
    t.act({"type": "summon", "owner": 1, "name": "Pet Rock", "attack": 1, "health": 1})
    uid = t.t["units"][0]["id"]
    t.add("damage", {"target": uid, "amount": golem["health"]})  # as logged before deaths were the tracker's
    assert [u["name"] for u in t.t["units"]] == ["Pet Rock"]


def test_a_sorcerer_duel_creatures_death_is_shown(games):
    duel = games["sorcerer-duel"]
    deck = next(d for d in duel.constants.player_decks if any(c.get("death") for c in duel.decks[d].cards))
    creature = next(c for c in duel.decks[deck].cards if c.get("death"))
    s = Table(duel, [{"name": "Ann", "options": {"deck": deck}}, "Ben"])
    s.act({"type": "start_turn", "player": 0})
    s.act({"type": "adjust", "player": 0, "counter": "mana", "delta": creature["cost"]})
    s.act({"type": "summon", "player": 0, "card": creature.id})
    died = s.act({"type": "remove", "unit": s.t["units"][0]["id"]})
    assert s.text(died).endswith(f"When it dies: {creature['death']}")


@pytest.mark.parametrize("slug", ["magicka-mayhem", "sorcerer-duel"])
def test_the_summon_and_cast_lists_carry_each_cards_text(games, slug):
    game = games[slug]
    rules = Table(game, names(2)).state["rules"]
    copied = rules["spells"] if slug == "magicka-mayhem" else [c for d in rules["decks"].values() for c in d["cards"]]
    texts = {c["id"]: c.get("text", "") for c in copied}
    for card in game.cards:
        if card.id in texts and card.get("text"):
            assert texts[card.id] and "{" not in texts[card.id], card.id  # inline icons as words for a phone


def test_the_old_summons_bonus_is_refused_through_the_api(client, games):
    card = next(c for c in games["magicka-mayhem"].cards if c.type == "summon")
    t = client.post("/api/tables", json={"game": "magicka-mayhem", "players": ["Ann", "Ben"]}).json
    answer = client.post(f"/api/tables/{t['id']}/actions", json={"type": "summon", "owner": 0, "card": card.id, "health_bonus": 2},
                         headers={"Authorization": f"Bearer {t['token']}"})
    assert answer.status_code == 422 and "from what was paid" in answer.json["error"]


def test_old_events_of_a_table_still_fold(games):
    """A log written before this change (a bring back did not exist, a plain adjust of a dead
    wizard's health raised him) folds as it did."""
    game = games["magicka-mayhem"]
    start = game.constants.starting_health
    events = [Event(1, "create", table.start(game, names(2)), by=0),
              Event(2, "adjust", {"player": 1, "counter": "health", "delta": -start, "from": start, "to": 0}),
              Event(3, "adjust", {"player": 1, "counter": "health", "delta": 4, "from": 0, "to": 4})]
    state = table.fold(events)
    assert state["players"][1]["counters"]["health"] == 4 and not state["players"][1]["tracker"]["dead"]


def test_the_can_cast_helper_says_what_a_growing_creature_becomes(games):
    game = games["magicka-mayhem"]
    card = next(c for c in game.cards if c.type == "summon" and c.get("grows") == "attack")
    singles = {c["elements"][0]: c for c in game.cards if c.get("value") == 1 and len(c.get("elements") or ()) == 1}
    hand = [singles[e].id for e in card["cost"]] + [singles[card["grows_with"]].id]
    answer = ask(game, "can-cast", {"spell": card.id, "hand": hand})
    growth = game.constants.extra_element_growth
    assert answer["creature"]["attack"] == card["attack"] + growth and answer["creature"]["extra"] == 1
    assert any(f"1 extra {card['grows_with']}" in line for line in answer["details"])
