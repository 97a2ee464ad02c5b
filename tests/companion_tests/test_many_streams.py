"""Many open phones on one worker: a stream holds no thread, a change reaches every phone of its
table, and a phone that never reads its stream delays nobody (the server under gunicorn's gevent
worker, as `spellpress serve` runs it). test_hostile.py holds the other hostile sockets."""

from __future__ import annotations

import resource
import selectors
import socket
import time
from pathlib import Path

from conftest import _children

TABLES, PHONES = 10, 30  # 300 open streams


def _threads(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(status.split("Threads:", 1)[1].split()[0])


def _open_stream(port: int, table_id: str, source: str, receive_buffer: int | None = None) -> socket.socket:
    s = socket.socket()
    if receive_buffer:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    s.bind((source, 0))
    s.connect(("127.0.0.1", port))
    s.sendall(f"GET /api/tables/{table_id}/stream HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    return s


class Phones:
    """Streams read together: the latest version each has heard, and when it heard it."""

    def __init__(self, sockets: list[socket.socket]):
        self.selector = selectors.DefaultSelector()
        self.heard = {s: (0, 0.0) for s in sockets}
        self.rest = {s: b"" for s in sockets}
        for s in sockets:
            s.setblocking(False)
            self.selector.register(s, selectors.EVENT_READ)

    def read(self, timeout: float) -> None:
        for key, _ in self.selector.select(timeout):
            s = key.fileobj
            data = s.recv(65536)
            assert data, "a stream ended"
            lines = (self.rest[s] + data).split(b"\n")
            self.rest[s] = lines.pop()
            for line in lines:
                if line.startswith(b"id: "):
                    self.heard[s] = (int(line[4:]), time.monotonic())

    def until(self, phones: list[socket.socket], version: int, within: float) -> float:
        """Seconds until every one of `phones` has heard `version`, from now."""
        began = time.monotonic()
        while any(self.heard[s][0] < version for s in phones):
            assert time.monotonic() - began < within, (
                f"{sum(self.heard[s][0] < version for s in phones)} of {len(phones)} phones never heard version {version}")
            self.read(0.05)
        return max(self.heard[s][1] for s in phones) - began


def test_three_hundred_phones_hold_no_thread_and_one_that_never_reads_delays_nobody(server):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 1000:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 1000), hard))
    (worker,) = _children(server.process.pid)
    tables = [server.call("POST", "/api/tables", {"game": "magicka-mayhem", "players": ["Ann", "Ben"]})[1]
              for _ in range(TABLES)]
    idle_threads = _threads(worker)
    # Every phone from an address of its own, as on a real network (16 streams per address at most).
    streams = {t["id"]: [_open_stream(server.port, t["id"], f"127.5.{t_i}.{p + 1}") for p in range(PHONES)]
               for t_i, t in enumerate(tables)}
    phones = Phones([s for group in streams.values() for s in group])
    for t in tables:
        phones.until(streams[t["id"]], t["version"], within=10)
    assert _threads(worker) <= max(idle_threads, 4), "an open stream holds no thread of its own"

    # Five phones at the first table that never read, their receive buffers as small as can be
    # (whose writes, once the server's send buffer is full, wait on their own greenlets alone).
    hostile = [_open_stream(server.port, tables[0]["id"], f"127.6.0.{i + 1}", receive_buffer=1024) for i in range(5)]
    first = tables[0]
    for i in range(150):  # some 100 KB each that they never read, piled up in the server's socket buffers
        status, done = server.call("POST", f"/api/tables/{first['id']}/actions",
                                   {"type": "damage" if i % 2 == 0 else "heal", "target": 0, "amount": 1}, first["token"])
        assert status == 200, done
        phones.read(0)
    spans = [phones.until(streams[first["id"]], done["version"], within=5)]
    for t in tables[1:]:
        status, done = server.call("POST", f"/api/tables/{t['id']}/actions", {"type": "damage", "target": 1, "amount": 1},
                                   t["token"])
        assert status == 200, done
        spans.append(phones.until(streams[t["id"]], done["version"], within=5))
    assert max(spans) < 1.0, f"a change took {max(spans) * 1000:.0f} ms to reach every phone of its table"
    assert _threads(worker) <= max(idle_threads, 4)
    for s in [*phones.heard, *hostile]:
        s.close()
