"""A designer's edit reaches the next table started, without a restart; tables in play keep their rules."""

from __future__ import annotations

import shutil


def _start(client, game="powermage-54"):
    made = client.post("/api/tables", json={"game": game, "players": ["Ann", "Bea"]})
    assert made.status_code == 201, made.json
    return made.json


def test_an_edited_constant_reaches_new_tables_and_not_the_ones_in_play(make_app, cards_dir, tmp_path):
    cards = tmp_path / "cards"
    shutil.copytree(cards_dir / "powermage-54", cards / "powermage-54")
    client = make_app(CARDS=cards, RELOAD_EVERY=0).test_client()
    before = _start(client)
    points = before["state"]["players"][0]["counters"]["points"]
    game = cards / "powermage-54" / "game.yaml"
    text = game.read_text()
    assert f"starting_points: {points}" in text
    game.write_text(text.replace(f"starting_points: {points}", f"starting_points: {points + 50}"))
    after = _start(client)
    assert after["state"]["players"][0]["counters"]["points"] == points + 50, "the new table has the edit"
    played = client.get(f"/api/tables/{before['id']}").json
    assert played["state"]["players"][0]["counters"]["points"] == points, "the table in play keeps its numbers"
    assert played["state"]["counter_specs"] == before["state"]["counter_specs"]

    game.write_text("title: [\n")  # saved halfway: the last good games stay
    again = _start(client)
    assert again["state"]["players"][0]["counters"]["points"] == points + 50
    assert client.get("/api/games").json["games"][0]["slug"] == "powermage-54"
