"""A designer's edit reaches the next table started, without a restart; tables in play keep their
rules; and the games are read again off the request path, so a big or hostile edit never stops
the other tables."""

from __future__ import annotations

import os
import shutil
import time
import urllib.request

from conftest import Server


def _start(client, game="powermage-54"):
    made = client.post("/api/tables", json={"game": game, "players": ["Ann", "Bea"]})
    assert made.status_code == 201, made.json
    return made.json


def _until(what, seconds=30.0):
    """Wait for `what()` to hold: the catalog reloads in the background."""
    deadline = time.monotonic() + seconds
    while not what():
        assert time.monotonic() < deadline, "the catalog did not reload in time"
        time.sleep(0.05)


def test_an_edited_constant_reaches_new_tables_and_not_the_ones_in_play(make_app, cards_dir, tmp_path):
    cards = tmp_path / "cards"
    shutil.copytree(cards_dir / "powermage-54", cards / "powermage-54")
    app = make_app(CARDS=cards, RELOAD_EVERY=0)
    client, catalog = app.test_client(), app.extensions["spellpress"].catalog
    before = _start(client)
    points = before["state"]["players"][0]["counters"]["points"]
    game = cards / "powermage-54" / "game.yaml"
    text = game.read_text()
    assert f"starting_points: {points}" in text
    game.write_text(text.replace(f"starting_points: {points}", f"starting_points: {points + 50}"))
    _until(lambda: catalog.games["powermage-54"].constants.starting_points == points + 50)
    after = _start(client)
    assert after["state"]["players"][0]["counters"]["points"] == points + 50, "the new table has the edit"
    played = client.get(f"/api/tables/{before['id']}").json
    assert played["state"]["players"][0]["counters"]["points"] == points, "the table in play keeps its numbers"
    assert played["state"]["counter_specs"] == before["state"]["counter_specs"]

    game.write_text("title: [\n")  # saved halfway: the last good games stay
    _until(lambda: catalog.games is not None and catalog.problems)
    again = _start(client)
    assert again["state"]["players"][0]["counters"]["points"] == points + 50
    assert client.get("/api/games").json["games"][0]["slug"] == "powermage-54"


def _timed(url: str) -> float:
    started = time.monotonic()
    with urllib.request.urlopen(url, timeout=20) as response:
        assert response.status == 200
        response.read()
    return time.monotonic() - started


def _copied(cards_dir, tmp_path):
    cards = tmp_path / "cards"
    shutil.copytree(cards_dir / "powermage-54", cards / "powermage-54")
    shutil.copytree(cards_dir / "spellchamber", cards / "spellchamber")
    return cards


def _big_game(cards, name, rows):
    """A copy of powermage-54 whose aids deck is a spreadsheet of `rows` valid cards."""
    game = cards / name
    shutil.copytree(cards / "powermage-54", game)
    (game / "aids.yaml").unlink()
    (game / "aids.csv").write_text("id,name,text\n" + "".join(f"a{i},Aid {i},Gain 1.\n" for i in range(rows)))
    return game


def test_a_reload_of_big_games_runs_beside_the_requests_not_in_front_of_them(tmp_path, cards_dir):
    cards = _copied(cards_dir, tmp_path)
    server = Server(tmp_path / "companion.db", cards).start()
    try:
        for i in range(4):  # 4 games of nearly 10,000 cards: some seconds of checking
            _big_game(cards, f"big-{i}", 9_900)
        slowest, seen = 0.0, False
        deadline = time.monotonic() + 90
        while not seen:
            assert time.monotonic() < deadline, "the new games never arrived"
            slowest = max(slowest, _timed(server.url + "/healthz"))
            started = time.monotonic()
            status, body = server.call("GET", "/api/games")
            slowest = max(slowest, time.monotonic() - started)
            seen = status == 200 and {g["slug"] for g in body["games"]} >= {f"big-{i}" for i in range(4)}
            time.sleep(0.05)
        assert slowest < 1.0, f"a request waited {slowest:.2f} s behind the reload"
    finally:
        server.stop()


def test_a_fifo_named_like_a_card_file_stops_nothing(tmp_path, cards_dir):
    cards = _copied(cards_dir, tmp_path)
    server = Server(tmp_path / "companion.db", cards).start()
    try:
        fifo = cards / "powermage-54" / "zz.yaml"
        os.mkfifo(fifo)
        (cards / "powermage-54" / "aids.yaml").touch()
        time.sleep(1.5)  # past RELOAD_EVERY: the next request looks, and finds the FIFO
        for _ in range(3):
            for path in ("/api/games", "/healthz", "/"):
                assert _timed(server.url + path) < 2.0, path
            time.sleep(0.7)
        status, body = server.call("GET", "/api/games")
        assert status == 200 and {g["slug"] for g in body["games"]} == {"powermage-54", "spellchamber"}
    finally:
        try:  # a server that hangs reading the FIFO is let go before it is stopped
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        except OSError:  # nobody reads it
            pass
        server.stop()
