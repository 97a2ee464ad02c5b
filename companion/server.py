"""`spellpress serve`: the companion under gunicorn (settings in gunicorn_conf), on the local network."""

from __future__ import annotations

import os
import socket
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from flask import Flask
from gunicorn.app.base import BaseApplication

from spellpress.core import load_games

from . import create_app, gunicorn_conf, settings, store_for
from .store import StoreUnreachable
from .stores import describe, is_postgres

SETTINGS = (
    "worker_class", "workers", "worker_connections", "keepalive", "graceful_timeout", "control_socket_disable",
    "on_starting", "post_worker_init",
)


class _Gunicorn(BaseApplication):
    """gunicorn with the app made in the worker, after gevent has patched threads and sockets:
    the store's locks must be gevent's, or one waiting phone would stop them all."""

    def __init__(self, make: Callable[[], Flask], options: dict[str, Any]):
        self.make, self.options = make, options
        super().__init__()

    def load_config(self) -> None:
        for key, value in self.options.items():
            if key in self.cfg.settings:  # an older gunicorn lacks the newest settings
                self.cfg.set(key, value)

    # gunicorn's stubs want a WSGI app whose start_response returns None; Flask's returns write(), as PEP 3333 says
    def load(self) -> Flask:  # type: ignore[override]
        return self.make()


def lan_addresses() -> list[str]:
    """This computer's IPv4 addresses other than loopback, as far as its own name tells."""
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return []
    addresses = {info[4][0] for info in infos}  # an AF_INET address is a str
    return sorted(a for a in addresses if isinstance(a, str) and not a.startswith("127."))


def _store_ready(config: dict[str, Any]) -> bool:
    """Open the store once, so that a database that cannot be used stops us here, in words; its
    schema is brought up to date. PostgreSQL is opened in a forked child: psycopg and its pool
    must first be imported in the worker, after gevent's patching (stores/postgres.py)."""
    if not is_postgres(config["DATABASE"]):
        return _open_once(config)
    pid = os.fork()
    if pid == 0:  # the child: nothing but the check, then out without running the parent's exit handlers
        code = 1
        try:
            code = 0 if _open_once(config) else 1
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status) == 0


def _open_once(config: dict[str, Any]) -> bool:
    try:
        store_for(config).close()
    except StoreUnreachable as err:
        print(f"spellpress serve: {err}", file=sys.stderr, flush=True)
        return False
    return True


def run(host: str, port: int, db: str | None, cards: str) -> int:
    config: dict[str, Any] = {"CARDS": cards}
    if db:
        config["DATABASE"] = db
    addresses = lan_addresses() if host in ("0.0.0.0", "::", "") else [host]
    if addresses:
        config["LAN_URL"] = f"http://{addresses[0]}:{port}/"
    config = settings(config)
    games = load_games(Path(config["CARDS"]))  # a problem in the cards stops us here, with every reason
    if not _store_ready(config):
        return 1
    print(f"Spellpress companion: tables are kept in {describe(config['DATABASE'])}")
    print(f"  on this computer:     http://localhost:{port}/")
    for address in addresses:
        print(f"  on the same Wi-Fi:    http://{address}:{port}/")
    if not addresses:
        print(f"  on the same Wi-Fi:    http://<this computer's address>:{port}/")
    print("Stop with Ctrl+C.", flush=True)
    options = {key: getattr(gunicorn_conf, key) for key in SETTINGS}
    options.update(bind=f"[{host}]:{port}" if ":" in host else f"{host}:{port}", accesslog=None, errorlog="-", loglevel="warning")
    _Gunicorn(lambda: create_app(config, games), options).run()
    return 0
