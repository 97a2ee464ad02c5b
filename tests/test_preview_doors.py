"""`spellpress preview`'s doors (issue 32, row 9): a page of another site whose name points at this
machine (DNS rebinding) is refused; no other site may embed its images; half-open connections are
bounded per address and closed when idle, so one machine cannot hold every thread."""

from __future__ import annotations

import http.client
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from spellpress.preview import MOST_PER_ADDRESS

IDLE = 1.5  # seconds: the preview's IDLE_SECONDS, shortened

FIXTURES = Path(__file__).parent / "fixtures"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def preview(tmp_path_factory):
    project = tmp_path_factory.mktemp("preview")
    shutil.copytree(FIXTURES / "games" / "tiny-generic", project / "cards" / "tiny-generic")
    port = _free_port()
    log = open(project / "preview.log", "wb")
    # the preview as `spellpress preview` runs it, its idle limit shortened to IDLE s (the test waits it out)
    script = (f"import sys, spellpress.preview as p; p._Quiet.timeout = {IDLE}; from spellpress.cli import main; "
              f"sys.exit(main(['preview', 'tiny-generic', '--port', '{port}']))")
    process = subprocess.Popen([sys.executable, "-c", script], cwd=project, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while True:
        assert process.poll() is None, (project / "preview.log").read_text()
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/state", timeout=1).read()
            break
        except OSError:
            assert time.monotonic() < deadline, "the preview did not answer within 30 s"
            time.sleep(0.2)
    yield port
    process.terminate()
    process.wait(timeout=10)


def _get(port: int, path: str, host: str | None = None) -> tuple[int, dict[str, str], bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("GET", path, headers={"Host": host} if host else {})
    answer = connection.getresponse()
    body = answer.read()
    connection.close()
    return answer.status, dict(answer.getheaders()), body


def test_another_sites_name_is_refused_and_addresses_are_answered(preview):
    for host in (f"127.0.0.1:{preview}", f"localhost:{preview}", f"[::1]:{preview}", "192.168.1.20:8001"):
        status, headers, _ = _get(preview, "/state", host)
        assert status == 200, host
        assert headers["Cross-Origin-Resource-Policy"] == "same-origin"
    for host in (f"attacker.example:{preview}", "rebind.attacker.example", f"localhost.attacker.example:{preview}"):
        status, _, body = _get(preview, "/state", host)
        assert status == 421 and b"answers to an IP address or localhost" in body, host


def test_idle_connections_are_bounded_per_address_and_others_are_served(preview):
    held = []
    try:
        for _ in range(MOST_PER_ADDRESS + 8):  # half-open: connected, nothing sent
            held.append(socket.create_connection(("127.0.0.1", preview), timeout=5))
        time.sleep(0.3)
        # past the bound, the server closed the extra ones at once
        closed = 0
        for s in held:
            s.settimeout(0.2)
            try:
                closed += s.recv(1) == b""
            except TimeoutError:  # still open: one of those the server holds
                pass
        assert closed >= 8
        # another address is served meanwhile (127.0.0.2 is loopback too)
        with socket.create_connection(("127.0.0.1", preview), timeout=5, source_address=("127.0.0.2", 0)) as other:
            other.sendall(f"GET /state HTTP/1.1\r\nHost: 127.0.0.1:{preview}\r\nConnection: close\r\n\r\n".encode())
            assert other.recv(12) == b"HTTP/1.1 200"
        # the held ones are closed once idle past the limit, and this address is served again
        time.sleep(IDLE + 1)
        assert _get(preview, "/state")[0] == 200
    finally:
        for s in held:
            s.close()
