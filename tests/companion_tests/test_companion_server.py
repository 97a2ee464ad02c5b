"""`spellpress serve` for real: concurrent phones, a killed server, live updates over HTTP."""

from __future__ import annotations

import http.client
import json
import signal
import threading
import time

from companion.stores.sqlite import SqliteStore
from spellpress.core import table


def test_two_phones_sending_100_deltas_each_at_once_lose_none(server):
    status, t = server.call("POST", "/api/tables", {"game": "powermage-54", "players": ["Ann", "Ben"]})
    assert status == 201
    status, ben = server.call("POST", "/api/tables/join", {"code": t["code"], "name": "Ben"})
    assert status == 200
    start = t["state"]["players"][0]["counters"]["points"]
    barrier = threading.Barrier(2)
    answers: dict[str, list[int]] = {}

    def phone(token: str, delta: int) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        body = json.dumps({"type": "adjust", "player": 0, "counter": "points", "delta": delta})
        headers = {"Content-Type": "application/json", "Authorization": f"Bearer {token}"}
        barrier.wait()
        versions = []
        for _ in range(100):
            connection.request("POST", f"/api/tables/{t['id']}/actions", body, headers)
            response = connection.getresponse()
            answer = json.loads(response.read())
            assert response.status == 200, answer
            versions.append(answer["version"])
        answers[token] = versions
        connection.close()

    threads = [threading.Thread(target=phone, args=(token, delta)) for token, delta in ((t["token"], 1), (ben["token"], 2))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    status, now = server.call("GET", f"/api/tables/{t['id']}")
    assert now["state"]["players"][0]["counters"]["points"] == start + 100 * 1 + 100 * 2
    assert now["version"] == 2 + 200
    every = sorted(v for versions in answers.values() for v in versions)
    assert every == list(range(3, 203)), "each delta got a version of its own"
    status, log = server.call("GET", f"/api/tables/{t['id']}/log?limit=500")
    # a phone's taps in quick succession are one entry of the log (a burst), each of them listed in it
    assert sum(len(e.get("seqs", [e["seq"]])) for e in log["events"] if e["type"] == "adjust") == 200


def test_a_killed_server_keeps_every_game(server):
    status, t = server.call("POST", "/api/tables", {"game": "magicka-mayhem", "players": ["Ann", "Ben", "Cy"]})
    for i in range(30):
        server.call("POST", f"/api/tables/{t['id']}/actions",
                    {"type": "adjust", "player": i % 3, "counter": "health", "delta": -1}, t["token"])
    server.call("POST", f"/api/tables/{t['id']}/actions", {"type": "undo", "version": 31}, t["token"])
    server.call("POST", f"/api/tables/{t['id']}/actions", {"type": "roll", "sides": 20}, t["token"])
    _, before = server.call("GET", f"/api/tables/{t['id']}")

    server.stop(signal.SIGKILL)
    server.start()
    _, after = server.call("GET", f"/api/tables/{t['id']}")
    assert after == before
    assert [p["counters"]["health"] for p in after["state"]["players"]] == [10, 10, 11]
    assert table.public(SqliteStore(server.db, code_ttl=60, join_failures=(10, 60)).replay(t["id"])) == before["state"]
    status, answer = server.call("POST", f"/api/tables/{t['id']}/actions",
                                 {"type": "adjust", "player": 2, "counter": "health", "delta": -1}, t["token"])
    assert status == 200 and answer["version"] == before["version"] + 1


def read_events(response: http.client.HTTPResponse, count: int) -> list[dict]:
    """The next `count` Server-Sent Events' data, read line by line off the socket."""
    found, data = [], None
    while len(found) < count:
        line = response.fp.readline().decode().rstrip("\n")
        if line.startswith("data: "):
            data = json.loads(line[6:])
        elif line == "" and data is not None:
            found.append(data)
            data = None
    return found


def test_a_change_reaches_listening_phones_within_a_second(server):
    _, t = server.call("POST", "/api/tables", {"game": "powers-combined", "players": ["Ann", "Ben"]})
    streams = []
    for _ in range(3):
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        connection.request("GET", f"/api/tables/{t['id']}/stream")
        response = connection.getresponse()
        assert response.status == 200 and response.getheader("Content-Type").startswith("text/event-stream")
        assert read_events(response, 1)[0]["version"] == 1
        streams.append((connection, response))

    began = time.monotonic()
    server.call("POST", f"/api/tables/{t['id']}/actions", {"type": "adjust", "counter": "challenge", "delta": 1}, t["token"])
    for connection, response in streams:
        message = read_events(response, 1)[0]
        assert message["base"] == 1 and message["set"]["counters"]["challenge"] == 2
        assert message["events"][0]["text"].startswith("Challenge +1")
        connection.close()
    assert time.monotonic() - began < 1.0
