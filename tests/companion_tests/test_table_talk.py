"""What the table says to players, through the JSON API: every refusal in words (no versions,
field names or action names), who undid whose change, draws that are new even when their result
repeats, "new game, same players" on every game, and Sorcerer Duel's mana before the first turn."""

from __future__ import annotations

import re

import pytest
from test_tracker_api import act, now, start

from spellpress.core import table

SLUGS = ["magicka-mayhem", "spellchamber", "powermage-54", "powers-combined", "sorcerer-duel"]
# What a player should never read: a snake_case name, a version, a quoted identifier ('target').
NOT_WORDS = re.compile(r"\b[a-z]+_[a-z0-9_]+\b|[Vv]ersion|'[a-z0-9_-]+'")
# Values a broken or outdated page might send in any field.
ODD = [None, "x", -1, 99, True, [], {}, 1.5]


def words(message: str) -> None:
    assert message and not NOT_WORDS.search(message), message


def test_every_refusal_a_phone_can_get_is_in_words(client, games):
    seen = 0
    for slug in SLUGS:
        t = start(client, slug, ["Ann", "Ben"])
        kinds = table.actions(t["state"])
        for kind in kinds:
            inputs = {"player", "target", "shooter", "caster", "attacker", "owner", "counter", "delta", "amount", "card",
                      "unit", "up", "count", "order", "bottom", "sides", "to", "level", "result", "attack", "thump",
                      "powermage", "kind", "name", "health", "cost", "again", "interaction", "runes", "double_up",
                      "ready", "spell", "shields", "hits", "out_of", "draw", "damage"}
            bodies = [{"type": kind}, {"type": kind, "version": 0}, {"type": kind, "version": "x"}]
            bodies += [{**dict.fromkeys(inputs, odd), "type": kind, "version": now(client, t)["version"]} for odd in ODD]
            bodies += [{"type": kind, "version": now(client, t)["version"], field: odd} for field in inputs for odd in ("x",)]
            for body in bodies:
                response = act(client, t, body)
                if response.status_code >= 400:
                    words(response.json["error"])
                    seen += 1
        for odd in ({"type": "cheat"}, {"type": 7}, {"type": "adjust", "counter": "nope", "player": 0, "delta": 1}):
            response = act(client, t, odd)
            assert response.status_code == 422
            words(response.json["error"])
        helpers = client.get(f"/api/rules/{slug}").json["helpers"]
        for helper in helpers:
            names = [f["name"] for f in helper["fields"]]
            bodies = [{}, {"bogus": 1}, *({name: odd for name in names} for odd in ODD),
                      *({name: odd} for name in names for odd in ODD)]
            for body in bodies:
                response = client.post(f"/api/rules/{slug}/{helper['id']}", json=body)
                if response.status_code >= 400:
                    words(response.json["error"])
                    seen += 1
        words(client.post(f"/api/rules/{slug}/nope", json={}).json["error"])
    # the companion's own refusals a phone can meet: a lost seat, a wrong code, an unknown game
    t = start(client, "spellchamber", ["Ann", "Ben"])
    for response in (
        act(client, t, {"type": "coin"}, token="not-a-seat"),
        client.post(f"/api/tables/{t['id']}/actions", json={"type": "coin"}),
        act(client, t, {"type": "coin", "request_id": ""}),
        client.get("/api/codes/AAAAAA"),
        client.post("/api/tables", json={"game": "chess", "players": ["Ann", "Ben"]}),
        client.post("/api/tables", json={"game": "spellchamber", "players": ["Ann", "Ann"]}),
    ):
        assert response.status_code >= 400
        words(response.json["error"])
    assert seen > 500, "the walk reached the refusals"


def test_a_stale_action_says_someone_changed_the_table(client):
    t = start(client, "spellchamber", ["Ann", "Ben"])
    act(client, t, {"type": "adjust", "player": 0, "counter": "life", "delta": -1})
    stale = act(client, t, {"type": "start_round", "version": 1})
    assert stale.status_code == 409
    assert stale.json["error"] == "someone changed the table while you were deciding: look again, then try once more"


def test_an_undo_names_whose_change_it_took_back(client):
    t = start(client, "magicka-mayhem", ["Ann", "Ben"])
    ben = client.post("/api/tables/join", json={"code": t["code"], "name": "Ben"}).json
    mine = act(client, t, {"type": "adjust", "player": 1, "counter": "health", "delta": -3}).json
    assert mine["state"]["undo"]["by"] == 0
    undone = act(client, t, {"type": "undo", "version": mine["version"]}, token=ben["token"]).json
    change = mine["event"]["text"]
    assert undone["event"]["data"] == {"target": mine["event"]["seq"], "text": change, "of": 0}
    assert undone["event"]["text"] == f"Ben undid Ann's change: {change}"
    # one's own undo says no more than before
    again = act(client, t, {"type": "adjust", "player": 0, "counter": "health", "delta": 2}, token=ben["token"]).json
    own = act(client, t, {"type": "undo", "version": again["version"]}, token=ben["token"]).json
    assert own["event"]["text"] == f"Ben undid: {again['event']['text']}"


def test_each_draw_is_numbered_so_a_repeat_is_new(client):
    t = start(client, "spellchamber", ["Ann", "Ben"])
    draws = []
    for action in ({"type": "coin"}, {"type": "coin"}, {"type": "roll", "sides": 6}):
        draws.append(act(client, t, action).json["state"]["last_draw"])
    started = act(client, t, {"type": "start_round", "version": now(client, t)["version"]}).json["state"]["last_draw"]
    assert [d["number"] for d in [*draws, started]] == [1, 2, 3, 4]
    assert len({d["seq"] for d in [*draws, started]}) == 4
    # a new game starts counting again
    fresh = act(client, t, {"type": "new_game", "version": now(client, t)["version"]}).json["state"]
    assert fresh["last_draw"] is None
    assert act(client, t, {"type": "coin"}).json["state"]["last_draw"]["number"] == 1


# One change of each game's own, then a plain one: a game that has begun.
PLAY = {
    "magicka-mayhem": [{"type": "start_turn", "player": 0}, {"type": "muster", "caster": 0, "target": 1, "version": None}],
    "spellchamber": [{"type": "start_round", "version": None}],
    "powermage-54": [{"type": "halve", "version": None}],
    "powers-combined": [{"type": "adjust", "counter": "runes", "delta": 2}, {"type": "spend_rune"}],
    "sorcerer-duel": [{"type": "start_turn", "player": 1}, {"type": "convert", "player": 1}],
}


@pytest.mark.parametrize("slug", SLUGS)
def test_new_game_same_players_is_a_fresh_table_with_the_same_players(app, client, slug, games):
    store = app.extensions["spellpress"].store
    game = games[slug]
    players = ["Ann", "Ben", "Cy"][: max(2, game.players.min)]
    t = start(client, slug, players)
    if slug == "magicka-mayhem":  # someone who joined later plays the next game too (its options fit any count)
        client.post("/api/tables/join", json={"code": t["code"], "name": "Dee"})
        players = [*players, "Dee"]
    spec = t["state"]["counter_specs"][0]
    plain = {"type": "adjust", "counter": spec["id"], "delta": -spec["step"], **({"player": 0} if spec["scope"] == "player" else {})}
    for action in [*PLAY[slug], plain, {"type": "coin"}]:
        if "version" in action:
            action = {**action, "version": now(client, t)["version"]}
        assert act(client, t, action).status_code == 200, action
    before = now(client, t)
    assert before["state"] != t["state"]

    stale = act(client, t, {"type": "new_game", "version": before["version"] - 1})
    assert stale.status_code == 409 and now(client, t) == before
    answer = act(client, t, {"type": "new_game", "version": before["version"]})
    assert answer.status_code == 200, answer.json
    after = answer.json["state"]
    assert answer.json["event"]["text"] == f"Ann started game 2 of {game.title} with the same players: " + (
        ", ".join(players[:-1]) + " and " + players[-1])

    # the same as a table started afresh for these players, but for the undo and the game's number
    fresh = start(client, slug, players, t["state"]["options"])
    stored, fresh_stored = store.read(t["id"]).state, store.read(fresh["id"]).state
    assert after["games"] == 2 and after["undo"]["seq"] == answer.json["version"]
    ignore = ("undo", "games")
    assert {k: v for k, v in stored.items() if k not in ignore} == {k: v for k, v in fresh_stored.items() if k not in ignore}
    assert [p["name"] for p in after["players"]] == players
    holders = after["players"] if spec["scope"] == "player" else [after]
    assert all(h["counters"][spec["id"]] == spec["start"] for h in holders)
    # every event folds to the stored state, and the old game's log stays readable
    assert store.replay(t["id"]) == stored
    log = client.get(f"/api/tables/{t['id']}/log").json["events"]
    assert [e["type"] for e in log][0] == "create" and log[-1]["type"] == "new_game"
    assert len(log) == before["version"] + 1 and not any(e["undone"] for e in log)

    # a new game started by mistake is undone like any change
    undone = act(client, t, {"type": "undo", "version": answer.json["version"]})
    assert undone.status_code == 200
    assert {k: v for k, v in undone.json["state"].items() if k != "undo"} == {
        k: v for k, v in before["state"].items() if k != "undo"}
    assert store.replay(t["id"]) == store.read(t["id"]).state


def test_a_finished_game_starts_again_and_a_third_is_numbered(client, games):
    c = games["spellchamber"].constants
    t = start(client, "spellchamber", ["Ann", "Ben"])
    won = act(client, t, {"type": "adjust", "player": 1, "counter": "life", "delta": -c.starting_life}).json
    assert won["state"]["tracker"]["over"] and won["state"]["tracker"]["winner"] == 0
    second = act(client, t, {"type": "new_game", "version": won["version"]}).json
    assert not second["state"]["tracker"]["over"] and second["state"]["players"][1]["counters"]["life"] == c.starting_life
    third = act(client, t, {"type": "new_game", "version": second["version"]}).json
    assert third["state"]["games"] == 3 and "started game 3" in third["event"]["text"]


def test_sorcerer_duel_mana_comes_with_a_turn(client, games):
    c = games["sorcerer-duel"].constants
    t = start(client, "sorcerer-duel", ["Ann", "Ben"])
    assert [p["counters"]["mana"] for p in t["state"]["players"]] == [0, 0], "nobody has mana before the first turn"
    first = act(client, t, {"type": "start_turn", "player": 0}).json["state"]
    assert [p["counters"]["mana"] for p in first["players"]] == [c.mana_per_turn, 0], "nor the player still waiting"
    second = act(client, t, {"type": "start_turn", "player": 1}).json["state"]
    assert [p["counters"]["mana"] for p in second["players"]] == [0, c.mana_per_turn]
