"""`spellpress serve`: the companion under gunicorn, on the local network.

Gunicorn's threaded worker serves many phones at once, each holding a live stream open on a
thread of its own, while idle keep-alive connections wait in its poller without one. One
worker process: SQLite takes one writer at a time anyway, and one process wakes its phones
at once rather than through the watcher's polling.
"""

from __future__ import annotations

import signal
import socket
from pathlib import Path

from flask import Flask
from gunicorn.app.base import BaseApplication

from . import create_app

THREADS = 64


class _Gunicorn(BaseApplication):
    def __init__(self, app: Flask, options: dict):
        self.app, self.options = app, options
        super().__init__()

    def load_config(self) -> None:
        for key, value in self.options.items():
            self.cfg.set(key, value)

    def load(self) -> Flask:
        return self.app


def _close_streams_on_stop(app: Flask):
    """A gunicorn hook: a stopping worker ends its live streams rather than wait on them."""
    hub = app.extensions["spellpress"].hub

    def hook(worker) -> None:
        for sig in (signal.SIGTERM, signal.SIGQUIT, signal.SIGINT):
            handler = signal.getsignal(sig)
            if callable(handler):
                signal.signal(sig, lambda s, frame, handler=handler: (hub.close(), handler(s, frame)))

    return hook


def lan_addresses() -> list[str]:
    """This computer's IPv4 addresses other than loopback, as far as its own name tells."""
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return []
    return sorted({info[4][0] for info in infos if not info[4][0].startswith("127.")})


def run(host: str, port: int, db: str | None, cards: str) -> int:
    config = {"CARDS": cards}
    if db:
        config["DATABASE"] = db
    addresses = lan_addresses() if host in ("0.0.0.0", "::", "") else [host]
    if addresses:
        config["LAN_URL"] = f"http://{addresses[0]}:{port}/"
    app = create_app(config)
    print(f"Spellpress companion: tables are kept in {Path(app.config['DATABASE']).resolve()}")
    print(f"  on this computer:     http://localhost:{port}/")
    for address in addresses:
        print(f"  on the same Wi-Fi:    http://{address}:{port}/")
    if not addresses:
        print(f"  on the same Wi-Fi:    http://<this computer's address>:{port}/")
    print("Stop with Ctrl+C.", flush=True)
    options = {
        "bind": f"[{host}]:{port}" if ":" in host else f"{host}:{port}",
        "workers": 1,
        "worker_class": "gthread",
        "threads": THREADS,
        "graceful_timeout": 3,  # open live streams would otherwise hold a stop for 30 s
        "keepalive": 5,
        "accesslog": None,
        "errorlog": "-",
        "loglevel": "warning",
        "post_worker_init": _close_streams_on_stop(app),
    }
    _Gunicorn(app, options).run()
    return 0
