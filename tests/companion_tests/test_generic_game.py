"""A game made of YAML alone (no `ruleset:`, no Python): it validates, builds and is played at a
table with its counters, dice, coin and a shuffled draw pile per deck."""

from __future__ import annotations

import collections

import pytest

from conftest import ROOT, Server

GAME = {
    "game.yaml": """title: Goblin Market
pitch: Haggle with goblins for the shiniest junk.
players: {min: 2, max: 4}
constants:
  starting_gold: 5
counters:
  - {id: gold, label: Gold, scope: player, start: starting_gold, min: 0, max: 30}
  - {id: round, label: Round, scope: table, start: 1, min: 1, max: 10}
""",
    "decks.yaml": """card_types:
  junk:
    name: Junk
    template: card
    fields:
      text: {type: text}
      price: {type: int, min: 0, max: 9}
decks:
  junk:
    name: Junk
    back: back
    types: [junk]
""",
    "junk.yaml": """junk:
  - {id: rusty-spoon, name: Rusty Spoon, count: 3, price: 1, text: "Worth {{ starting_gold }} gold to a goblin."}
  - {id: cracked-crown, name: Cracked Crown, count: 1, price: 5, text: Everyone pays you 1 gold.}
""",
    "rules.yaml": """rules:
  - id: setup
    title: Setup
    text: Each player starts with {{ starting_gold }} gold. Shuffle the junk deck.
""",
}


@pytest.fixture
def goblin_cards(tmp_path):
    game = tmp_path / "cards" / "goblin-market"
    game.mkdir(parents=True)
    for name, text in GAME.items():
        (game / name).write_text(text)
    return tmp_path / "cards"


def test_a_game_of_yaml_alone_loads_with_the_generic_ruleset(goblin_cards):
    from spellpress.core import load_games

    (game,) = load_games(goblin_cards)
    assert game.ruleset == "generic" and game.text_context["starting_gold"] == 5
    assert game.card("rusty-spoon").get("text") == "Worth 5 gold to a goblin."


def test_a_game_of_yaml_alone_validates_and_builds_every_kind(goblin_cards, tmp_path, capsys):
    from spellpress.cli import main

    templates = str(ROOT / "templates")
    assert main(["validate", str(goblin_cards), "--templates", templates]) == 0, capsys.readouterr().err
    said = capsys.readouterr().err
    assert "no playmat layout" in said and "laid out from the decks and counters" in said, "a fallback is said"
    assert "no rulebook template" in said and "base.md.j2" in said
    out = tmp_path / "build"
    code = main(["build", "--here", "--cards", str(goblin_cards), "--templates", templates, "--out", str(out),
                 "--paper", "a4"])
    assert code == 0, capsys.readouterr().err
    built = out / "goblin-market"
    for name in ("cards-a4.pdf", "rulebook-a4.pdf", "playmat.pdf", "playmat-tiled-a4.pdf", "overview.png"):
        assert (built / name).stat().st_size > 0, name
    assert {p.name for p in (built / "png").glob("*.png")} >= {"cracked-crown.png", "rusty-spoon.png"}


def test_the_mat_laid_out_for_a_game_of_yaml_alone_has_its_decks_and_a_seat_per_player(goblin_cards):
    from spellpress.core import load_games
    from spellpress.press.drawing import matlayout, playmat
    from spellpress.press.model.session import BuildSession

    (game,) = load_games(goblin_cards)
    data = matlayout.generated(game)
    assert [z["deck"] for z in data["zones"] if z["kind"] == "deck"] == ["junk"]
    assert [z["label"] for z in data["seat"]["zones"]] == ["Gold"]
    assert [z["label"] for z in data["zones"] if z["kind"] == "track"] == ["Round"]
    _, icons = BuildSession().layouts(ROOT / "templates")
    mat = playmat.load(game, ROOT / "templates", icons)
    assert len(mat.seats) == game.players.max and mat.note


def _start(client, players=("Ann", "Bea")):
    made = client.post("/api/tables", json={"game": "goblin-market", "players": list(players)})
    assert made.status_code == 201, made.json
    return made.json


def _act(client, t, action):
    return client.post(f"/api/tables/{t['id']}/actions", json=action, headers={"Authorization": f"Bearer {t['token']}"})


def test_the_table_draws_discards_and_reshuffles_each_deck(make_app, goblin_cards):
    client = make_app(CARDS=goblin_cards).test_client()
    t = _start(client)
    state = t["state"]
    assert state["players"][0]["counters"]["gold"] == 5 and state["counters"]["round"] == 1
    assert state["tracker"]["piles"]["junk"] == {"left": 4, "shuffled": False, "face_up": [], "discard": []}
    version, drawn = t["version"], []
    for _ in range(4):
        done = _act(client, t, {"type": "draw", "deck": "junk", "player": 0, "version": version})
        assert done.status_code == 200, done.json
        version, state = done.json["version"], done.json["state"]
        drawn.append(done.json["event"]["data"]["card"])
        assert done.json["event"]["text"].startswith("Ann ") and "from Junk" in done.json["event"]["text"]
    assert collections.Counter(drawn) == {"rusty-spoon": 3, "cracked-crown": 1}, "every copy is drawn once"
    assert state["tracker"]["piles"]["junk"]["left"] == 0 and state["last_draw"]["text"].startswith("Ann drew")
    empty = _act(client, t, {"type": "draw", "deck": "junk", "version": version})
    assert empty.status_code == 409 and "reshuffle" in empty.json["error"]
    kept = _act(client, t, {"type": "discard", "deck": "junk", "card": "cracked-crown", "version": version}).json
    assert kept["state"]["tracker"]["piles"]["junk"]["discard"] == ["cracked-crown"]
    assert kept["state"]["tracker"]["piles"]["junk"]["face_up"] == ["rusty-spoon"] * 3
    again = _act(client, t, {"type": "reshuffle", "deck": "junk", "version": kept["version"]}).json
    assert again["state"]["tracker"]["piles"]["junk"] == {"left": 4, "shuffled": True, "face_up": [], "discard": []}
    for bad, status in (({"type": "draw", "deck": "nope"}, 422), ({"type": "discard", "deck": "junk", "card": "rusty-spoon"}, 422)):
        refused = _act(client, t, {**bad, "version": again["version"]})
        assert refused.status_code == status and refused.json["error"], bad
    for hostile in ({"type": "draw", "deck": []}, {"type": "draw", "deck": {"junk": 1}}, {"type": "discard", "deck": "junk", "card": []},
                    {"type": "reshuffle", "deck": None}, {"type": "draw", "deck": "junk", "player": "0"}):
        refused = _act(client, t, {**hostile, "version": again["version"]})
        assert refused.status_code == 422 and refused.json["error"], hostile
    assert _act(client, t, {"type": "draw", "deck": "junk", "version": again["version"]}).status_code == 200, "nothing was lost"
    body = client.get(f"/api/tables/{t['id']}").get_data(as_text=True)
    assert '"hidden"' not in body, "the pile's order never leaves the server"
    rolled = _act(client, t, {"type": "roll", "sides": 6, "count": 1}).json
    assert 1 <= rolled["event"]["data"]["results"][0] <= 6


def test_a_game_of_yaml_alone_is_served(goblin_cards, tmp_path):
    server = Server(tmp_path / "companion.db", goblin_cards).start()
    try:
        status, games = server.call("GET", "/api/games")
        assert status == 200 and [g["slug"] for g in games["games"]] == ["goblin-market"]
        status, made = server.call("POST", "/api/tables", {"game": "goblin-market", "players": ["Ann", "Bea"]})
        assert status == 201
        status, drawn = server.call("POST", f"/api/tables/{made['id']}/actions",
                                    {"type": "draw", "deck": "junk", "version": made["version"]}, made["token"])
        assert status == 200 and drawn["event"]["data"]["card"] in ("rusty-spoon", "cracked-crown")
    finally:
        server.stop()


def test_two_phones_play_the_draw_pile_of_a_game_of_yaml_alone(goblin_cards, tmp_path, phone):
    from playwright.sync_api import expect
    from test_tracker_browser import fits_the_phone, seated

    server = Server(tmp_path / "companion.db", goblin_cards).start()
    try:
        _, t = server.call("POST", "/api/tables", {"game": "goblin-market", "players": ["Ann", "Bea"]})
        _, bea_seat = server.call("POST", "/api/tables/join", {"code": t["code"], "name": "Bea"})
        ann = seated(phone(), server, t["id"], t["token"], 0)
        bea = seated(phone("dark"), server, t["id"], bea_seat["token"], 1)
        draw = ann.locator('#tracker [data-act="draw"]')
        expect(draw).to_have_accessible_name("Draw from Junk, 4 cards left")
        draw.click()
        expect(bea.locator('#tracker [data-act="face-up"]')).to_have_count(1)
        expect(bea.locator('#tracker [data-act="draw"]')).to_have_accessible_name("Draw from Junk, 3 cards left")
        drawn = server.call("GET", f"/api/tables/{t['id']}")[1]["state"]["tracker"]["piles"]["junk"]["face_up"][0]
        name = {"rusty-spoon": "Rusty Spoon", "cracked-crown": "Cracked Crown"}[drawn]
        expect(bea.locator('#tracker [data-act="face-up"]')).to_have_text(name)
        fits_the_phone(ann)
        bea.locator('#tracker [data-act="face-up"]').click()
        bea.locator("#ask-sheet .btn.pick").filter(has_text="Discard it").click()
        expect(ann.locator('#tracker [data-act="face-up"]')).to_have_count(0)
        expect(ann.locator("#tracker")).to_contain_text("3 cards left · 1 discarded")
    finally:
        server.stop()


def test_the_phones_show_who_is_out_and_name_the_winner(goblin_cards, tmp_path, phone):
    """A game of YAML alone that says how it ends (`end:`): its phones say how, mark who is out
    (with Bring back), name the winner and rest the piles."""
    from playwright.sync_api import expect
    from test_tracker_browser import fits_the_phone, seated

    game = goblin_cards / "goblin-market" / "game.yaml"
    game.write_text(game.read_text() + "end:\n  out: {counter: gold, at_most: 0}\n  win: {counter: gold, at_least: 12}\n")
    server = Server(tmp_path / "companion.db", goblin_cards).start()
    try:
        _, t = server.call("POST", "/api/tables", {"game": "goblin-market", "players": ["Ann", "Bea", "Cy"]})
        ann = seated(phone(), server, t["id"], t["token"], 0)
        expect(ann.locator('#tracker [data-act="how-it-ends"]')).to_have_text(
            "Out at Gold 0 or less \u00b7 first to 12 Gold wins \u00b7 the last one standing wins")
        call = lambda action: server.call("POST", f"/api/tables/{t['id']}/actions", action, t["token"])  # noqa: E731
        assert call({"type": "adjust", "player": 1, "counter": "gold", "delta": -5})[0] == 200
        bea = ann.locator('.player[data-index="1"]')
        expect(bea.locator(".chip")).to_have_text("out")
        expect(bea.locator('[data-act="bring-back"]')).to_be_visible()
        assert call({"type": "adjust", "player": 1, "counter": "gold", "delta": 1})[0] == 409, "a + does not bring Bea back"
        fits_the_phone(ann)
        assert call({"type": "adjust", "player": 2, "counter": "gold", "delta": 7})[0] == 200
        # the winner at the top, in the rules core's words, and the next game beside it
        expect(ann.locator("#end .end-text")).to_have_text("Cy wins!")
        expect(ann.locator('#tracker [data-act="draw"]')).to_have_count(0)
        expect(ann.locator('#end [data-act="new-game"]')).to_be_visible()
    finally:
        server.stop()
