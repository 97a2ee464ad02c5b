"""The trackers through the JSON API: the issue's actions, stale versions (409), bad input (4xx
with a reason, the table untouched), and hidden draws that never leave the server."""

from __future__ import annotations

import json

import pytest


def start(client, game, players, options=None):
    response = client.post("/api/tables", json={"game": game, "players": players, "options": options or {}})
    assert response.status_code == 201, response.json
    return response.json


def act(client, t, action, token=None):
    return client.post(f"/api/tables/{t['id']}/actions", json=action, headers={"Authorization": f"Bearer {token or t['token']}"})


def now(client, t):
    return client.get(f"/api/tables/{t['id']}").json


def test_shoot_answers_with_the_revealed_card_and_its_effect(client, games):
    game = games["spellchamber"]
    t = start(client, "spellchamber", ["Ann", "Ben"])
    started = act(client, t, {"type": "start_round", "version": 1}).json
    assert started["event"]["data"]["scenario"]["id"] == t["state"]["options"]["scenario"]
    battle = started["state"]["tracker"]["turn"]["player"]
    shot = act(client, t, {"type": "shoot", "shooter": battle, "target": 1 - battle, "version": started["version"]})
    assert shot.status_code == 200
    data = shot.json["event"]["data"]
    assert data["card"] in game.constants.ammo and data["name"] == game.constants.ammo[data["card"]].name
    assert shot.json["event"]["text"].startswith(f"{['Ann', 'Ben'][battle]} shot {['Ann', 'Ben'][1 - battle]}: {data['name']}!")
    assert shot.json["state"]["tracker"]["chamber"]["spent"] == [data["card"]]
    assert shot.json["state"]["last_draw"]["text"] == shot.json["event"]["text"]


def test_a_third_phone_cannot_join_a_duels_round_and_is_told_why(client, games):
    """"For 2 Player games, use the Duel Scenario Cards": a duel's round is played out by its two
    wizards; a third phone is refused with the rule, and sits down once the chamber is empty."""
    game = games["spellchamber"]
    duel, group = (game.decks[game.constants.scenario_decks[k].deck].name for k in ("duel", "group"))
    t = start(client, "spellchamber", ["Ann", "Ben"])
    started = act(client, t, {"type": "start_round", "version": 1}).json
    before = now(client, t)
    refused = client.post("/api/tables/join", json={"code": t["code"], "name": "Cy"})
    assert refused.status_code == 409, refused.json
    said = refused.json["error"]
    assert f"being played with the {duel}" in said and "once its chamber is empty" in said and group in said
    assert "join as one of its players: Ann, Ben" in said
    assert now(client, t) == before, "nobody was seated"
    state, version = started["state"], started["version"]
    while state["tracker"]["phase"] == "battle":
        shooter = state["tracker"]["turn"]["player"]
        target = max((0, 1), key=lambda i: state["players"][i]["counters"]["life"])
        answer = act(client, t, {"type": "shoot", "shooter": shooter, "target": target, "version": version}).json
        state, version = answer["state"], answer["version"]
    cy = client.post("/api/tables/join", json={"code": t["code"], "name": "Cy"})
    assert cy.status_code == 200 and cy.json["player"] == 2
    second = act(client, t, {"type": "start_round", "version": now(client, t)["version"]}).json
    assert second["state"]["tracker"]["deck"] == "group"
    assert f"the scenarios come from the {group}" in second["state"]["last_draw"]["text"]


def test_a_stale_shot_gets_409_and_changes_nothing(client):
    t = start(client, "spellchamber", ["Ann", "Ben", "Cy"])
    started = act(client, t, {"type": "start_round", "version": 1}).json
    battle = started["state"]["tracker"]["turn"]["player"]
    act(client, t, {"type": "adjust", "player": 0, "counter": "life", "delta": -1})
    before = now(client, t)
    stale = act(client, t, {"type": "shoot", "shooter": battle, "target": 0, "version": started["version"]})
    assert stale.status_code == 409 and "changed the table while you were deciding" in stale.json["error"]
    assert now(client, t) == before
    missing = act(client, t, {"type": "shoot", "shooter": battle, "target": 0})
    assert missing.status_code == 422 and "did not say what it saw of the table" in missing.json["error"]
    assert now(client, t) == before


def test_a_stale_muster_gets_409_and_changes_nothing(client):
    t = start(client, "magicka-mayhem", ["Ann", "Ben"])
    act(client, t, {"type": "start_turn", "player": 0})
    act(client, t, {"type": "adjust", "player": 1, "counter": "health", "delta": -3})
    before = now(client, t)
    stale = act(client, t, {"type": "muster", "caster": 0, "target": 1, "version": 1})
    assert stale.status_code == 409 and "changed the table while you were deciding" in stale.json["error"]
    assert now(client, t) == before
    fresh = act(client, t, {"type": "muster", "caster": 0, "target": 1, "version": before["version"]})
    assert fresh.status_code == 200
    assert [m["player"] for m in fresh.json["event"]["data"]["musters"]] == [0]


def test_start_turn_as_the_issue_writes_it(client, games):
    c = games["sorcerer-duel"].constants
    t = start(client, "sorcerer-duel", ["Ann", "Ben"])
    first = act(client, t, {"type": "start_turn", "player": 1})
    assert first.status_code == 200
    assert first.json["event"]["data"] == {
        "player": 1, "turn": 1, "mana": {"from": 0, "to": c.mana_per_turn},  # no mana before the first turn
        "draws": 0 if c.first_player_skips_draw else c.draws_per_turn, "skipped_draw": c.first_player_skips_draw,
    }
    again = act(client, t, {"type": "start_turn", "player": 1})
    assert again.status_code == 409 and "Ben's turn already" in again.json["error"]
    second = act(client, t, {"type": "start_turn", "player": 0}).json
    assert [p["counters"]["mana"] for p in second["state"]["players"]] == [c.mana_per_turn, 0]


BAD = [
    ("spellchamber", ["Ann", "Ben"], {"type": "shoot", "shooter": 0, "target": 1, "version": 1}, 409, "no round is being played"),
    ("spellchamber", ["Ann", "Ben"], {"type": "shoot", "shooter": "Ann", "target": 1, "version": 1}, 422, "whole number"),
    ("spellchamber", ["Ann", "Ben"], {"type": "power", "player": 0, "up": False}, 422, "powered down already"),
    ("spellchamber", ["Ann", "Ben"], {"type": "peek", "player": 0, "version": 1}, 409, "no round"),
    ("magicka-mayhem", ["Ann", "Ben"], {"type": "muster", "caster": 0, "target": 1, "interaction": "disrupted", "version": 1},
     422, "not mustered"),
    ("magicka-mayhem", ["Ann", "Ben"], {"type": "summon", "owner": 0, "name": "Imp", "attack": 1, "health": 1000},
     422, "health must be 1 to 100"),
    ("magicka-mayhem", ["Ann", "Ben"], {"type": "heal", "target": "u1", "amount": 1}, 422, "no longer in play"),
    ("magicka-mayhem", ["Ann", "Ben"], {"type": "mayhem_level", "level": "standard"}, 422, "already"),
    ("sorcerer-duel", ["Ann", "Ben"], {"type": "convert", "player": 0}, 422, "no turn has started"),
    ("sorcerer-duel", ["Ann", "Ben"], {"type": "start_turn", "player": 5}, 422, "no such player"),
    ("sorcerer-duel", ["Ann", "Ben"], {"type": "cast", "player": 0, "damage": 2, "target": 1}, 422, "no turn has started"),
    ("powermage-54", ["Ann", "Ben"], {"type": "halve"}, 422, "did not say what it saw"),
    ("powermage-54", ["Ann", "Ben"], {"type": "attack", "attacker": 0, "target": 1, "attack": "nope"}, 422, "no such attack card"),
    ("powers-combined", ["Ann", "Ben"], {"type": "resolve", "result": "draw", "version": 1}, 422, "result must be one of"),
    ("powers-combined", ["Ann", "Ben"], {"type": "spend_rune"}, 422, "pot is empty"),
    ("powers-combined", ["Ann", "Ben"], {"type": "face", "card": "nope"}, 422, "no such challenge card"),
    ("powers-combined", ["Ann", "Ben"], {"type": "shoot", "shooter": 0, "target": 1, "version": 1}, 422, "reload the page"),
]


@pytest.mark.parametrize("game, players, action, status, reason", BAD, ids=[f"{b[0]}-{b[2]['type']}-{i}" for i, b in enumerate(BAD)])
def test_bad_tracker_actions_get_a_reason_and_change_nothing(client, game, players, action, status, reason):
    t = start(client, game, players, {"mode": "spell-vs-spell"} if game == "magicka-mayhem" else None)
    before = now(client, t)
    response = act(client, t, action)
    assert response.status_code == status, response.json
    assert reason in response.json["error"]
    assert now(client, t) == before


def test_hidden_draws_never_leave_the_server(client, games):
    t = start(client, "spellchamber", ["Ann", "Ben"])
    ben = client.post("/api/tables/join", json={"code": t["code"], "name": "Ben"}).json
    started = act(client, t, {"type": "start_round", "version": 2}).json
    texts = [json.dumps(started), json.dumps(now(client, t)), json.dumps(client.get(f"/api/tables/{t['id']}/log").json)]
    stream = client.get(f"/api/tables/{t['id']}/stream", buffered=False)
    texts.append(next(iter(stream.response)).decode())
    stream.close()
    texts.append(client.get(f"/t/{t['id']}").data.decode())
    for text in texts:
        assert '"hidden"' not in text and '"scenarios"' not in text and '"revealed"' not in text

    battle = started["state"]["tracker"]["turn"]["player"]
    peek = {"type": "peek", "player": battle, "count": 1, "version": started["version"], "request_id": "peek-1"}
    looked = act(client, t, peek)
    assert looked.status_code == 200 and len(looked.json["secret"]["cards"]) == 1
    assert looked.json["secret"]["cards"][0] in games["spellchamber"].constants.ammo
    assert "secret" not in json.dumps(now(client, t)) and "cards" not in json.dumps(looked.json["event"])
    again = act(client, t, peek)
    assert again.json["repeated"] and again.json["secret"] == looked.json["secret"], "a retried look shows the same card"
    other = act(client, t, {**peek, "request_id": "peek-1"}, ben["token"])
    assert "secret" not in other.json, "another phone does not see what this one looked at"

    version = looked.json["version"]
    top = looked.json["secret"]["cards"][0]
    shot = act(client, t, {"type": "shoot", "shooter": battle, "target": 1 - battle, "version": version}).json
    assert shot["event"]["data"]["card"] == top, "the card looked at is the one shot"


def test_a_table_without_a_tracker_in_its_first_event_still_works(make_app):
    """Tables started before the trackers were in the core: counters only."""
    from spellpress.core import table
    from spellpress.core.table import Event

    app = make_app()
    store = app.extensions["spellpress"].store
    client = app.test_client()
    t = start(client, "powermage-54", ["Ann", "Ben"])
    with store.reading() as db:  # autocommit: each statement is written at once
        row = db.execute("SELECT data FROM events WHERE table_id = ? AND seq = 1", (t["id"],)).fetchone()
        data = json.loads(row["data"])
        del data["rules"], data["ruleset"]
        state = table.evolve(None, Event(1, "create", data))
        db.execute("UPDATE events SET data = ? WHERE table_id = ? AND seq = 1", (json.dumps(data), t["id"]))
        db.execute("UPDATE tables SET state = ? WHERE id = ?", (json.dumps(state), t["id"]))
    store.tables.snapshots.clear()
    assert act(client, t, {"type": "adjust", "player": 0, "counter": "points", "delta": -5}).status_code == 200
    refused = act(client, t, {"type": "halve", "version": 2})
    assert refused.status_code == 422 and "reload the page" in refused.json["error"]
    assert client.get(f"/t/{t['id']}").status_code == 200


# ---------------------------------------------------------------------------- one door


def test_a_plus_on_the_dead_is_refused_and_bring_back_is_logged(client, games):
    start_health = games["magicka-mayhem"].constants.starting_health
    t = start(client, "magicka-mayhem", ["Ann", "Ben", "Cy"])
    assert act(client, t, {"type": "damage", "target": 1, "amount": start_health}).status_code == 200
    before = now(client, t)
    plus = act(client, t, {"type": "adjust", "player": 1, "counter": "health", "delta": 2})
    assert plus.status_code == 409 and "use Bring back on Ben's card" in plus.json["error"]
    assert now(client, t) == before
    low = act(client, t, {"type": "bring_back", "player": 1, "to": 0})
    assert low.status_code == 422 and "must be 1 to" in low.json["error"]
    back = act(client, t, {"type": "bring_back", "player": 1, "to": 3})
    assert back.status_code == 200 and back.json["event"]["type"] == "bring_back"
    assert back.json["event"]["text"] == "Ann brought Ben back (Ben was dead): Health 0 \N{RIGHTWARDS ARROW} 3"
    assert back.json["state"]["players"][1]["counters"]["health"] == 3 and back.json["state"]["life"] == "health"
    log = client.get(f"/api/tables/{t['id']}/log").json
    entries = log["events"] if isinstance(log, dict) else log
    assert any(e["type"] == "bring_back" and e["by"] == 0 for e in entries)
    again = act(client, t, {"type": "bring_back", "player": 1, "to": 3})
    assert again.status_code == 409 and "still in the game" in again.json["error"]


def test_a_minus_behind_a_barrier_is_answered_as_damage(client, games):
    c = games["magicka-mayhem"].constants
    t = start(client, "magicka-mayhem", ["Ann", "Ben"])
    act(client, t, {"type": "shield", "target": 1, "shields": c.barrier.shield_cost})
    hit = act(client, t, {"type": "adjust", "player": 1, "counter": "health", "delta": -1})
    assert hit.status_code == 200 and hit.json["event"]["type"] == "damage"
    state = hit.json["state"]
    assert state["players"][1]["counters"]["health"] == c.starting_health
    assert state["players"][1]["tracker"]["barrier"]["strength"] == c.barrier.strength - 1
    heal = act(client, t, {"type": "adjust", "player": 1, "counter": "health", "delta": 1})
    assert heal.status_code == 422 and "shield barrier keeps Ben from being healed" in heal.json["error"]


def test_a_thump_with_no_powermage_is_refused_at_the_table_as_by_the_helper(client, games):
    game = games["powermage-54"]
    attack = next(c for c in game.cards if c.type == "attack")
    thump = next(c for c in game.cards if c.type == "thump")
    t = start(client, "powermage-54", ["Ann", "Ben"])
    played = act(client, t, {"type": "attack", "attacker": 0, "target": 1, "attack": attack.id, "thump": thump.id})
    helped = client.post("/api/rules/powermage-54/attack", json={"attack": attack.id, "attack_thump": thump.id})
    assert (played.status_code, helped.status_code) == (422, 400)  # a table's refusal, a question's bad input
    assert played.json["error"] == helped.json["error"] == "the attack's thump needs a PowerMage shown first: say which PowerMage was shown"


def test_summons_follow_their_cards(client, games):
    game = games["magicka-mayhem"]
    c = game.constants
    golem = next(card for card in game.cards if card.type == "summon" and card.get("grows") == "attack")
    sprite = next(card for card in game.cards if card.type == "summon" and card.get("haste"))
    t = start(client, "magicka-mayhem", ["Ann", "Ben"])
    act(client, t, {"type": "start_turn", "player": 0})
    grown = act(client, t, {"type": "summon", "owner": 0, "card": golem.id, "extra": 2}).json
    unit = grown["state"]["tracker"]["units"][0]
    assert unit["name"] == golem.name.removeprefix(c.summon_prefix)
    assert unit["attack"] == golem["attack"] + 2 * c.extra_element_growth and unit["health"] == golem["health"]
    quick = act(client, t, {"type": "summon", "owner": 0, "card": sprite.id}).json["state"]["tracker"]["units"][1]
    assert quick["ready"] and not unit["ready"]
    hit = act(client, t, {"type": "attack", "unit": quick["id"], "target": 1})
    assert hit.status_code == 200 and hit.json["state"]["players"][1]["counters"]["health"] == c.starting_health - sprite["attack"]
    spells = grown["state"]["rules"]["spells"]
    assert next(s for s in spells if s["id"] == golem.id)["text"].startswith("Gains +")


def test_sorcerer_duel_summons_take_no_ready_flag_for_a_card(client, games):
    game = games["sorcerer-duel"]
    t = start(client, "sorcerer-duel", ["Ann", "Ben"])
    deck = t["state"]["players"][0]["options"]["deck"]
    card = next(c for c in game.decks[deck].cards if c.type == "creature" and c["cost"] <= game.constants.mana_per_turn)
    act(client, t, {"type": "start_turn", "player": 0})
    told = act(client, t, {"type": "summon", "player": 0, "card": card.id, "ready": True})
    assert told.status_code == 422 and "card says whether it may attack at once" in told.json["error"]
    made = act(client, t, {"type": "summon", "player": 0, "card": card.id})
    assert made.status_code == 200
    assert made.json["state"]["tracker"]["units"][0]["ready"] == bool(card.get("haste"))
