"""Hostile neighbours: nobody on the Wi-Fi or at the table can stop, spoil or read what is not theirs.

One test (or a few) per attack the companion was found open to; each uses a real server or a
real SQLite file, and failed before the companion was hardened against it.
"""

from __future__ import annotations

import json
import os
import resource
import socket
import stat
import threading
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest
from test_companion_api import act, auth, snapshot, start

from companion.stores.sqlite import SqliteStore
from companion.tablelog import MAX_STATE


def _room_for(sockets: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < sockets + 200:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, sockets + 200), hard))


def _raw(port: int, request: bytes, source: str = "127.0.0.1") -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))
    if request:
        s.sendall(request)
    return s


def _status(s: socket.socket) -> tuple[int, bytes]:
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = s.recv(4096)
        if not chunk:
            break
        head += chunk
    return int(head.split(b" ", 2)[1]), head


# ---------------------------------------------------------------------------- 1. connections


def test_a_thousand_hostile_sockets_do_not_delay_the_other_phones(server):
    _room_for(1100)
    _, t = server.call("POST", "/api/tables", {"game": "powermage-54", "players": ["Ann", "Ben"]})
    stream = f"GET /api/tables/{t['id']}/stream HTTP/1.1\r\nHost: x\r\n\r\n".encode()
    hostile = []
    for i in range(1000):  # from another loopback address than the phone's
        kind = i % 5
        request = b"GET /api/ga" if kind < 2 else b"" if kind < 4 else stream
        hostile.append(_raw(server.port, request, source="127.0.0.2"))
    latencies = []
    for _ in range(30):
        began = time.perf_counter()
        status, _ = server.call("POST", f"/api/tables/{t['id']}/actions",
                                {"type": "adjust", "player": 0, "counter": "points", "delta": -1}, t["token"])
        latencies.append(time.perf_counter() - began)
        assert status == 200
    # The median says the phone is served as if the sockets were not there; the worst case only that
    # none of them holds it, with room for a loaded machine (512 ms seen beside two busy processes)
    latencies.sort()
    assert latencies[len(latencies) // 2] <= 0.1, f"the phone waited {latencies[len(latencies) // 2] * 1000:.0f} ms in the median"
    assert latencies[-1] <= 2.0, f"the phone waited {latencies[-1] * 1000:.0f} ms"
    for s in hostile:
        s.close()


def test_a_half_sent_request_is_dropped_after_its_header_time(server):
    s = _raw(server.port, b"GET /api/games HTTP/1.1\r\nHost: x\r\n")
    began = time.monotonic()
    s.settimeout(15)
    assert s.recv(100) == b"", "the server closes the connection without answering"
    assert 4 <= time.monotonic() - began <= 9
    s.close()


def test_streams_are_capped_per_address_and_the_next_one_is_told_when_to_come_back(server):
    _, t = server.call("POST", "/api/tables", {"game": "powermage-54", "players": ["Ann", "Ben"]})
    request = f"GET /api/tables/{t['id']}/stream HTTP/1.1\r\nHost: x\r\n\r\n".encode()
    held = [_raw(server.port, request, source="127.0.0.3") for _ in range(16)]
    assert all(_status(s)[0] == 200 for s in held)
    status, head = _status(_raw(server.port, request, source="127.0.0.3"))
    assert status == 429 and b"Retry-After: 30" in head
    status, _ = _status(_raw(server.port, request, source="127.0.0.4"))  # another phone still gets one
    assert status == 200
    for s in held:
        s.close()


def test_past_the_servers_total_a_stream_is_refused_with_503(make_app):
    client = make_app(STREAMS_TOTAL=1).test_client()
    t = start(client, "powermage-54", ["Ann", "Ben"])
    first = client.get(f"/api/tables/{t['id']}/stream", buffered=False)
    assert first.status_code == 200
    second = client.get(f"/api/tables/{t['id']}/stream", buffered=False)
    assert second.status_code == 503 and second.headers["Retry-After"] == "30" and "every few seconds" in second.json["error"]
    first.close()
    again = client.get(f"/api/tables/{t['id']}/stream", buffered=False)
    assert again.status_code == 200
    again.close()


# ---------------------------------------------------------------------------- 3. one fault, its own


def test_one_bad_request_fails_alone_while_other_tables_write(server):
    _, good = server.call("POST", "/api/tables", {"game": "powermage-54", "players": ["Ann", "Ben"]})
    _, bad = server.call("POST", "/api/tables", {"game": "powermage-54", "players": ["Ann", "Ben"]})
    bodies = [b'{"type": ["x"]}', b'{"type": {"a": 1}}',
              b'{"type": "adjust", "player": 0, "counter": "points", "delta": 1, "request_id": "\\ud800"}',
              b'{"type": "adjust", "player": 0, "counter": "points", "delta": 1, "x": "\\udfff\\ud800"}']

    def post(table_id: str, token: str, body: bytes) -> int:
        request = urllib.request.Request(f"{server.url}/api/tables/{table_id}/actions", data=body, method="POST",
                                         headers={"Content-Type": "application/json", **auth(token)})
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status
        except urllib.error.HTTPError as err:
            return err.code

    good_body = json.dumps({"type": "adjust", "player": 1, "counter": "points", "delta": -1}).encode()
    with ThreadPoolExecutor(16) as pool:
        goods = [pool.submit(post, good["id"], good["token"], good_body) for _ in range(60)]
        bads = [pool.submit(post, bad["id"], bad["token"], bodies[i % len(bodies)]) for i in range(60)]
        good_statuses = [f.result() for f in goods]
        bad_statuses = [f.result() for f in bads]
    assert good_statuses == [200] * 60
    assert set(bad_statuses) <= {400, 422}, bad_statuses
    _, now = server.call("GET", f"/api/tables/{good['id']}")
    assert now["state"]["players"][1]["counters"]["points"] == 40 and now["version"] == 61


# ---------------------------------------------------------------------------- 4. undo: test_store.py


# ---------------------------------------------------------------------------- 6. limits


def test_table_creation_is_rate_limited_per_client(make_app):
    client = make_app(CREATIONS=(3, 3600)).test_client()
    for _ in range(3):
        start(client, "powermage-54", ["Ann", "Ben"])
    refused = client.post("/api/tables", json={"game": "powermage-54", "players": ["Ann", "Ben"]})
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 3000
    assert "started many tables" in refused.json["error"]
    other = client.post("/api/tables", json={"game": "powermage-54", "players": ["Ann", "Ben"]},
                        environ_base={"REMOTE_ADDR": "10.0.0.9"})
    assert other.status_code == 201


@pytest.mark.parametrize("headers, status, reason", [
    ({"Content-Type": "text/plain"}, 415, "JSON"),
    ({"Content-Type": "application/x-www-form-urlencoded"}, 415, "JSON"),
    ({"Content-Type": "application/json", "Origin": "http://evil.example"}, 403, "evil.example"),
    ({"Content-Type": "application/json", "Sec-Fetch-Site": "cross-site"}, 403, "another site"),
    ({"Content-Type": "application/json", "Sec-Fetch-Site": "same-site"}, 403, "another site"),
])
def test_a_post_from_another_web_site_changes_nothing(client, headers, status, reason):
    body = json.dumps({"game": "powermage-54", "players": ["Ann", "Ben"]})
    response = client.post("/api/tables", data=body, headers=headers)
    assert response.status_code == status and reason in response.json["error"]
    t = start(client, "powermage-54", ["Ann", "Ben"])
    moved = client.post(f"/api/tables/{t['id']}/actions", headers={**headers, **auth(t["token"])},
                        data=json.dumps({"type": "adjust", "player": 0, "counter": "points", "delta": -50}))
    assert moved.status_code == status
    assert snapshot(client, t)["version"] == 1


def test_the_companions_own_pages_may_post(client):
    same = {"Origin": "http://localhost", "Sec-Fetch-Site": "same-origin"}
    response = client.post("/api/tables", json={"game": "powermage-54", "players": ["Ann", "Ben"]}, headers=same)
    assert response.status_code == 201


# idle tables archived: test_store.py


# ---------------------------------------------------------------------------- 7. secrets


def test_a_peek_is_shown_to_the_seat_that_asked_and_its_request_id_to_nobody(client):
    t = start(client, "spellchamber", ["Ann", "Ben"])
    thief = client.post("/api/tables/join", json={"code": t["code"], "name": "Ann"}).json  # joins as Ann
    started = act(client, t, {"type": "start_round", "version": 2}).json
    battle = started["state"]["tracker"]["turn"]["player"]
    peek = {"type": "peek", "player": battle, "count": 1, "version": started["version"], "request_id": "peek-ann-0123456789"}
    looked = act(client, t, peek)
    assert looked.status_code == 200 and looked.json["secret"]["cards"]
    log = client.get(f"/api/tables/{t['id']}/log").json["events"]
    assert "peek-ann-0123456789" not in json.dumps(log) and log[-1]["request_tag"] == "peek-ann"
    replay = act(client, t, peek, thief["token"])
    assert "secret" not in (replay.json or {}), "the same request id from another seat shows nothing"
    again = act(client, t, peek)
    assert again.json["repeated"] and again.json["secret"] == looked.json["secret"]


# ---------------------------------------------------------------------------- 9. bounded state


def test_a_tables_state_is_bounded(client):
    t = start(client, "sorcerer-duel", ["Ann", "Ben"])
    assert act(client, t, {"type": "start_turn", "player": 0, "version": 1}).status_code == 200
    codes = []
    for i in range(61):
        body = {"type": "summon", "player": 0, "name": f"Imp {i}", "attack": 1, "health": 1}
        codes.append(act(client, t, body).status_code)
    assert codes[:60] == [200] * 60 and codes[60] == 422
    assert len(client.get(f"/api/tables/{t['id']}").data) < MAX_STATE


# ---------------------------------------------------------------------------- 10. finished games


def test_a_finished_game_refuses_plain_changes_until_it_is_reopened(client):
    t = start(client, "powermage-54", ["Ann", "Ben"])
    act(client, t, {"type": "adjust", "player": 1, "counter": "points", "delta": -100})
    over = snapshot(client, t)["state"]["tracker"]
    assert over["over"] and over["winner"] == 0
    refused = act(client, t, {"type": "adjust", "player": 1, "counter": "points", "delta": 5})
    assert refused.status_code == 409 and "reopen" in refused.json["error"]
    assert snapshot(client, t)["state"]["tracker"]["winner"] == 0, "the winner stays the winner"
    reopened = act(client, t, {"type": "reopen"})
    assert reopened.status_code == 200 and reopened.json["event"]["text"] == "Ann reopened the finished game to change its numbers"
    plus = act(client, t, {"type": "adjust", "player": 1, "counter": "points", "delta": 5})
    assert plus.status_code == 409 and "use Bring back" in plus.json["error"], "reopened, a + still brings nobody back"
    assert act(client, t, {"type": "bring_back", "player": 1, "to": 5}).status_code == 200
    state = snapshot(client, t)["state"]
    assert not state["tracker"]["over"] and "reopened" not in state
    assert act(client, t, {"type": "reopen"}).status_code == 409


# ---------------------------------------------------------------------------- 11. the file


def test_the_database_file_is_readable_by_its_owner_alone(tmp_path, games):
    store = SqliteStore(tmp_path / "private" / "companion.db", code_ttl=3600, join_failures=(10, 300))
    store.create(games["powermage-54"], ["Ann", "Ben"], None, "phone")
    for name in ("companion.db", "companion.db-wal", "companion.db-shm"):
        mode = stat.S_IMODE(os.stat(tmp_path / "private" / name).st_mode)
        assert mode == 0o600, f"{name} is {oct(mode)}"
    assert stat.S_IMODE(os.stat(tmp_path / "private").st_mode) == 0o700


def test_a_slow_writer_does_not_hold_others(server):
    """A body sent a byte at a time holds its own connection, nobody else's."""
    _, t = server.call("POST", "/api/tables", {"game": "powermage-54", "players": ["Ann", "Ben"]})
    slow = _raw(server.port, f"POST /api/tables/{t['id']}/actions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                             f"Content-Length: 5000\r\nAuthorization: Bearer {t['token']}\r\n\r\n{{".encode())
    stop = threading.Event()

    def trickle():
        while not stop.wait(0.2):
            try:
                slow.sendall(b" ")
            except OSError:
                return

    threading.Thread(target=trickle, daemon=True).start()
    began = time.perf_counter()
    status, _ = server.call("POST", f"/api/tables/{t['id']}/actions",
                            {"type": "adjust", "player": 0, "counter": "points", "delta": -1}, t["token"])
    assert status == 200 and time.perf_counter() - began < 0.5
    stop.set()
    slow.close()


# ---------------------------------------------------------------------------- 12. issue 32: a deck too big to play


def test_a_game_whose_fresh_table_passes_the_state_limit_is_refused_when_the_table_is_made(make_app, tmp_path):
    """A generic deck of 4,000 different cards: its table would be some 400 KiB, so every action
    on it would be refused. The table is not made: 422, with the reason."""
    game = tmp_path / "cards" / "big-deck"
    game.mkdir(parents=True)
    (game / "game.yaml").write_text("title: Big Deck\npitch: Too many cards.\nplayers: {min: 2, max: 4}\n"
                                    "counters:\n  - {id: gold, label: Gold, scope: player, start: 5, min: 0, max: 30}\n")
    (game / "decks.yaml").write_text("card_types:\n  junk:\n    name: Junk\n    template: card\n    fields:\n"
                                     "      text: {type: text}\ndecks:\n  junk:\n    name: Junk\n    back: back\n    types: [junk]\n")
    cards = "".join(f"  - {{id: junk-{i}, name: Junk number {i}, text: A piece of junk with a long name {i}.}}\n"
                    for i in range(4000))
    (game / "junk.yaml").write_text("junk:\n" + cards)
    (game / "rules.yaml").write_text("rules:\n  - {id: setup, title: Setup, text: Shuffle the junk.}\n")
    client = make_app(CARDS=tmp_path / "cards").test_client()
    made = client.post("/api/tables", json={"game": "big-deck", "players": ["Ann", "Ben"]})
    assert made.status_code == 422, made.status_code
    assert "too large" in made.json["error"] and f"{MAX_STATE // 1024} KiB" in made.json["error"]
    assert client.get("/api/games").status_code == 200


# ---------------------------------------------------------------------------- 13. issue 32: names and numbers


@pytest.mark.parametrize("invisible", ["\u3164", "\u2800", "\u3164\u2800", "\uffa0", "\u115f"])
def test_an_invisible_name_is_refused(client, invisible):
    t = start(client, "powermage-54", ["Ann", "Ben"])
    code = client.get(f"/api/tables/{t['id']}/code", headers=auth(t["token"])).json["code"]
    for body in ({"game": "powermage-54", "players": ["Ann", invisible]}, ):
        made = client.post("/api/tables", json=body)
        assert made.status_code == 422 and "cannot be seen" in made.json["error"], made.json
    joined = client.post("/api/tables/join", json={"code": code, "name": invisible})
    assert joined.status_code == 422 and "cannot be seen" in joined.json["error"], joined.json
    joined = client.post("/api/tables/join", json={"code": code, "name": f"Cy{invisible}"})
    assert joined.status_code == 422, "an invisible character beside visible ones is refused too"
    assert [p["name"] for p in snapshot(client, t)["state"]["players"]] == ["Ann", "Ben"]


def test_a_name_is_normalised_and_a_look_alike_of_a_seated_name_is_refused(client):
    t = start(client, "magicka-mayhem", ["Ann", "Ben"])
    code = client.get(f"/api/tables/{t['id']}/code", headers=auth(t["token"])).json["code"]
    wide = client.post("/api/tables/join", json={"code": code, "name": "\uff21nn"})  # a full-width A
    assert wide.status_code == 200 and wide.json["player"] == 0, "NFKC: the same name, so Ann's seat"
    for look_alike in ("\u0410nn", "\u0391nn", "B\u0435n"):  # Cyrillic A, Greek Alpha, Cyrillic e
        joined = client.post("/api/tables/join", json={"code": code, "name": look_alike})
        assert joined.status_code == 409 and "looks like" in joined.json["error"], joined.json
    made = client.post("/api/tables", json={"game": "powermage-54", "players": ["Ann", "\u0410nn"]})
    assert made.status_code == 422 and "look" in made.json["error"], made.json
    assert client.post("/api/tables/join", json={"code": code, "name": "\u0410\u043d\u044f"}).status_code == 200, \
        "a Cyrillic name that looks like nobody's is welcome"
    assert [p["name"] for p in snapshot(client, t)["state"]["players"]] == ["Ann", "Ben", "\u0410\u043d\u044f"]


@pytest.mark.parametrize("after", [str(10**23), "-1", "1e5", "x", " 3"])
def test_a_log_asked_after_a_version_out_of_range_is_400(client, after):
    t = start(client, "powermage-54", ["Ann", "Ben"])
    answer = client.get(f"/api/tables/{t['id']}/log?after={after}")
    assert answer.status_code == 400 and "after" in answer.json["error"], (answer.status_code, answer.data[:200])


@pytest.mark.parametrize("last", [str(10**30), "-5", "abc"])
def test_a_stream_resumed_from_an_event_id_out_of_range_is_400(client, last):
    t = start(client, "powermage-54", ["Ann", "Ben"])
    answer = client.get(f"/api/tables/{t['id']}/stream", headers={"Last-Event-ID": last}, buffered=False)
    try:
        assert answer.status_code == 400 and "Last-Event-ID" in answer.json["error"], answer.status_code
    finally:
        answer.close()
