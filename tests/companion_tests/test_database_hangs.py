"""A PostgreSQL server that stops answering (issue 32, row 8): `spellpress serve` tells a phone
503 within 5 s, a request already in flight included, and a load balancer's health check within
2 s; once the server answers again, the tap the phone sends again is applied once.

The server hangs behind a gate: a TCP relay to the session's cluster that, closed, keeps every
connection open and passes nothing (what a stopped server or a lost network looks like to the
companion), and opened again delivers what it held, as the stopped server's kernel would."""

from __future__ import annotations

import socket
import threading
import time

import pytest

from conftest import Server


class Gate:
    """A relay on loopback to PostgreSQL's port that can stop passing bytes."""

    def __init__(self, upstream_port: int):
        self.upstream_port = upstream_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.open = threading.Event()
        self.open.set()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                near, _ = self.listener.accept()
            except OSError:  # closed at the end
                return
            far = socket.create_connection(("127.0.0.1", self.upstream_port))
            for source, sink in ((near, far), (far, near)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                self.open.wait()
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for end in (source, sink):
                end.close()

    def close(self) -> None:
        self.listener.close()


@pytest.fixture
def gated(postgres):
    """A database reached through a gate: (the gate, its postgresql:// address)."""
    address = postgres.create_database("hangs")
    gate = Gate(postgres.port)
    yield gate, address.replace(f":{postgres.port}/", f":{gate.port}/")
    gate.open.set()
    gate.close()
    postgres.drop_database("hangs")


def timed(call, *args):
    start = time.monotonic()
    answer = call(*args)
    return time.monotonic() - start, answer


def test_a_hung_database_is_told_within_five_seconds_and_nothing_is_applied_twice(gated, cards_dir):
    gate, address = gated
    server = Server(address, cards_dir).start()
    try:
        _, t = server.call("POST", "/api/tables", {"game": "powermage-54", "players": ["Ann", "Ben"]})
        tap = {"type": "adjust", "player": 1, "counter": "points", "delta": -3, "request_id": "tap-1"}
        path = f"/api/tables/{t['id']}/actions"

        gate.open.clear()  # the server stops answering; the tap's statements wait on the wire
        took, (status, answer) = timed(server.call, "POST", path, tap, t["token"])
        assert status == 503 and answer == {"error": "the tables' database is not answering; try again in a moment"}
        assert took < 5, f"a request in flight waited {took:.1f} s"
        took, (status, _) = timed(server.call, "GET", "/healthz")
        assert status == 503 and took < 2, f"/healthz answered {status} in {took:.1f} s"
        took, (status, _) = timed(server.call, "POST", path, tap, t["token"])  # the phone tries again
        assert status == 503 and took < 5, f"a request waiting for a connection waited {took:.1f} s"

        gate.open.set()  # the server answers again; what the gate held reaches it
        deadline = time.monotonic() + 15
        while server.call("GET", "/healthz")[0] != 200:
            assert time.monotonic() < deadline, "the companion did not find the database again within 15 s"
            time.sleep(0.2)
        status, answer = server.call("POST", path, tap, t["token"])
        assert status == 200 and answer["version"] == 2
        status, table = server.call("GET", f"/api/tables/{t['id']}")
        assert table["version"] == 2 and table["state"]["players"][1]["counters"]["points"] == table["state"]["players"][0][
            "counters"]["points"] - 3
    finally:
        server.stop()
