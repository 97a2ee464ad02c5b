"""Fixtures for the companion: an app on a fresh SQLite file, a real server, a real Chromium,
a throwaway PostgreSQL cluster, and a store of either kind."""

from __future__ import annotations

import itertools
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from pgcluster import Cluster

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
PHONE = {"width": 360, "height": 740}


@pytest.fixture
def make_app(tmp_path, cards_dir):
    from companion import create_app

    def make(**config):
        settings = {"TESTING": True, "DATABASE": tmp_path / "companion.db", "CARDS": cards_dir}
        return create_app({**settings, **config})

    return make


@pytest.fixture
def app(make_app):
    return make_app()


@pytest.fixture
def client(app):
    return app.test_client()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def postgres():
    """One PostgreSQL cluster for the whole session (initdb takes seconds); each test that uses
    it has a database of its own (`pg_database`)."""
    try:
        cluster = Cluster().start()
    except RuntimeError as err:
        pytest.fail(str(err))
    yield cluster
    cluster.stop()


_databases = itertools.count()


@pytest.fixture
def pg_database(postgres):
    """A fresh, empty database on the session's cluster: its postgresql:// address."""
    name = f"t{os.getpid()}_{next(_databases)}"
    yield postgres.create_database(name)
    postgres.drop_database(name)


@pytest.fixture(params=["sqlite", "postgresql"])
def make_store(request, tmp_path):
    """Makes stores of one kind on one database, as many as a test wants (each as a process of
    its own would have one); each test runs once with SQLite and once with PostgreSQL."""
    from companion.stores import open_store

    target = str(tmp_path / "companion.db") if request.param == "sqlite" else request.getfixturevalue("pg_database")
    made = []

    def make(**settings):
        store = open_store(target, **{"code_ttl": 3600, "join_failures": (10, 300), **settings})
        made.append(store)
        return store

    make.kind = request.param
    yield make
    for store in made:
        store.close()


class Server:
    """`spellpress serve` in a process of its own, on loopback."""

    def __init__(self, db: Path | str, cards: Path):
        self.db, self.cards = db, cards
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen | None = None
        # what the server says goes to a file, read when a test fails: a pipe nobody reads
        # would stop a server that says much once its buffer is full
        handle, name = tempfile.mkstemp(prefix="serve-", suffix=".log")
        os.close(handle)
        self.log = Path(name)

    def start(self) -> Server:
        command = [sys.executable, "-m", "spellpress.cli", "serve", "--host", "127.0.0.1",
                   "--port", str(self.port), "--db", str(self.db), "--cards", str(self.cards)]
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server stopped: {self.said()}")
            try:
                urllib.request.urlopen(self.url + "/api/games", timeout=1).read()
                return self
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.1)
        raise RuntimeError("the server did not answer within 20 s")

    def said(self, last: int = 4000) -> str:
        """The end of what the server wrote to its log."""
        return self.log.read_bytes()[-last:].decode(errors="replace") if self.log.exists() else ""

    def stop(self, sig: int = signal.SIGINT) -> None:
        if self.process and self.process.poll() is None:
            workers = _children(self.process.pid)
            os.kill(self.process.pid, sig)
            if sig == signal.SIGKILL:  # as if the machine died: the worker gets no word either
                for worker in workers:
                    os.kill(worker, signal.SIGKILL)
            self.process.wait(timeout=15)
        self.process = None
        self.log.unlink(missing_ok=True)

    def call(self, method: str, path: str, body=None, token: str | None = None) -> tuple[int, dict]:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, json.load(response)
        except urllib.error.HTTPError as err:
            return err.code, json.load(err)


def _children(pid: int) -> list[int]:
    children = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(child) for child in children.read_text().split()] if children.exists() else []


@pytest.fixture
def server(tmp_path, cards_dir):
    running = Server(tmp_path / "companion.db", cards_dir).start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def module_server(tmp_path_factory, cards_dir):
    """One server for a whole test file whose tests each play at tables of their own and never
    stop it (a start costs a second or two): such a file's own `server` fixture returns it."""
    running = Server(tmp_path_factory.mktemp("companion") / "companion.db", cards_dir).start()
    yield running
    running.stop()


@pytest.fixture(scope="session")
def chromium():
    """Debian's Chromium through Playwright. Missing, it fails the test: it never skips."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium (the browser tests never skip)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def phone(chromium):
    """A new phone each time it is called: its own storage, a 360 x 740 touch screen."""
    contexts = []

    def make(color_scheme: str = "light"):
        context = chromium.new_context(viewport=PHONE, has_touch=True, is_mobile=True, color_scheme=color_scheme)
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()
