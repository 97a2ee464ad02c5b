"""The table companion: a Flask app that every phone at the table shares (docs/api.md).

`create_app()` reads its settings from `config`, else from the environment
(SPELLPRESS_DB, SPELLPRESS_CARDS, SPELLPRESS_PROXY_HOPS), so a production WSGI server can
build it as `companion:create_app()`. SPELLPRESS_DB (or DATABASE) is an SQLite file's path, or
a postgresql:// address for tables shared by several instances (companion/stores/).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

from flask import Flask, Response, g, jsonify, request
from werkzeug.middleware.proxy_fix import ProxyFix

from spellpress.core import Game, load_games
from spellpress.core.games import RULESETS

from . import api, errors, pages
from .catalog import Catalog
from .context import Companion
from .live import Hub
from .store import Store
from .stores import is_postgres, open_store


def default_database() -> Path:
    """Where a table's events live when nobody says: the user's data directory."""
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "spellpress" / "companion.db"


DEFAULTS = {
    "CARDS": "cards",
    "CODE_TTL": 12 * 3600,  # seconds a join code works; any seat can ask for a new one
    "JOIN_FAILURES": (10, 300),  # wrong codes a client may try within so many seconds
    "CREATIONS": (30, 3600),  # tables a client may start within so many seconds
    "UNDOS": (8, 1.0),  # undos one seat may send within so many seconds
    "ARCHIVE_AFTER": 30 * 86400,  # seconds without play after which a table is archived
    "MAX_CONTENT_LENGTH": 16 * 1024,
    "STREAM_KEEPALIVE": 2,  # seconds between beats: a phone calls 4 s of silence offline
    "STREAM_SECONDS": 300,  # a stream ends now and then; the phone reconnects at once
    "STREAMS_PER_CLIENT": 16,  # live streams one address may hold open (a phone needs one)
    "STREAMS_TOTAL": 5000,  # live streams the server holds open in all
    "PROXY_HOPS": 0,  # proxies in front whose X-Forwarded-* headers are to be trusted
    "LAN_URL": None,  # what a QR code points at when the page was opened on localhost
    "RELOAD_EVERY": 1.0,  # seconds between looks at the cards' files for edits (catalog.py)
    "DB_POOL": 10,  # connections to PostgreSQL one instance may hold (an SQLite file takes none)
    "REQUEST_LOG": False,  # one JSON line per request on the companion.requests logger (SPELLPRESS_REQUEST_LOG=1)
}


def _days(text: str) -> float:
    return float(text) * 86400


def _yes(text: str) -> bool:
    return text.strip().lower() not in ("0", "no", "false", "off", "")


def settings(config: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The companion's settings: the defaults, then the environment, then `config`."""
    chosen: dict[str, Any] = {**DEFAULTS, "DATABASE": default_database()}
    for key, env, kind in (("DATABASE", "SPELLPRESS_DB", str), ("CARDS", "SPELLPRESS_CARDS", str),
                           ("PROXY_HOPS", "SPELLPRESS_PROXY_HOPS", int), ("ARCHIVE_AFTER", "SPELLPRESS_ARCHIVE_DAYS", _days),
                           ("DB_POOL", "SPELLPRESS_DB_POOL", int), ("REQUEST_LOG", "SPELLPRESS_REQUEST_LOG", _yes)):
        if os.environ.get(env):
            chosen[key] = kind(os.environ[env])
    return {**chosen, **(config or {})}


def create_app(config: Mapping[str, Any] | None = None, games: Sequence[Game] | None = None) -> Flask:
    """The app; `games`, if given, are the games already loaded from the settings' CARDS."""
    app = Flask(__name__)
    app.config.update(settings(config))
    loaded = load_games(Path(app.config["CARDS"])) if games is None else games
    store = store_for(app.config)
    catalog = Catalog(Path(app.config["CARDS"]), {g.slug: g for g in loaded}, app.config["RELOAD_EVERY"])
    app.extensions["spellpress"] = Companion(catalog, store, Hub(store, beat=app.config["STREAM_KEEPALIVE"]))
    app.config["GAMES_JS"] = games_script()
    app.config["MODULES"] = pages.module_names()
    assert app.static_folder is not None, "Flask's default: the package's static/"
    app.config["ASSET_VERSION"] = _asset_version(Path(app.static_folder), app.config["GAMES_JS"])

    errors.register(app)
    app.register_blueprint(api.bp)
    app.register_blueprint(pages.bp)
    app.add_url_rule("/healthz", "healthz", _health)
    app.after_request(_headers)
    if app.config["REQUEST_LOG"]:
        app.before_request(_started)
        app.after_request(_logged)
    if app.config["PROXY_HOPS"]:
        hops = app.config["PROXY_HOPS"]
        # Flask's own way to put middleware in front of it, which mypy takes for replacing a method
        proxied = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops, x_port=hops)
        app.wsgi_app = proxied  # type: ignore[method-assign]
    return app


def store_for(config: Mapping[str, Any], upgrade: bool = True) -> Store:
    """The store the settings name, with their limits."""
    limits: dict[str, Any] = {"code_ttl": config["CODE_TTL"], "join_failures": tuple(config["JOIN_FAILURES"]),
                              "creations": tuple(config["CREATIONS"]), "undos": tuple(config["UNDOS"]),
                              "archive_after": config["ARCHIVE_AFTER"], "upgrade": upgrade}
    if is_postgres(config["DATABASE"]):
        limits["pool_size"] = int(config["DB_POOL"])
    return open_store(config["DATABASE"], **limits)


def _health() -> Response | tuple[Response, int]:
    """For a load balancer: 200 while the store answers, 503 when it does not."""
    from .context import companion

    store = companion().store
    if store.healthy():
        return jsonify(ok=True, store=store.kind)
    return jsonify(ok=False, store=store.kind, error="the tables' database is not answering"), 503


requests_log = logging.getLogger("companion.requests")


class _Stderr(logging.StreamHandler[TextIO]):
    """To whatever sys.stderr is when a line is written (gunicorn's, or a test's capture)."""

    @property
    def stream(self) -> TextIO:
        return sys.stderr

    @stream.setter
    def stream(self, _value: TextIO) -> None:
        pass


def _request_log() -> None:
    """The request log on stderr, one JSON object a line, whatever the root logger does."""
    if not requests_log.handlers:
        handler = _Stderr()
        handler.setFormatter(logging.Formatter("%(message)s"))
        requests_log.addHandler(handler)
        requests_log.setLevel(logging.INFO)
        requests_log.propagate = False


def _started() -> None:
    g.started = time.perf_counter()


def _logged(response: Response) -> Response:
    """One line a request: its route (the pattern, never a table's id, a code or a token), its
    status and how long it took to answer (a live stream: until its first byte)."""
    rule = request.url_rule.rule if request.url_rule is not None else "(no route)"
    if rule != "/healthz" and "started" in g:
        _request_log()
        requests_log.info(json.dumps({
            "at": round(time.time(), 3), "method": request.method, "route": rule, "status": response.status_code,
            "ms": round((time.perf_counter() - g.started) * 1000, 2), "bytes": response.content_length,
        }, separators=(",", ":")))
    return response


def _asset_version(static: Path, games_js: str) -> str:
    """A digest of the static files and the games' renderers, so that phones fetch them again after an upgrade."""
    digest = hashlib.sha256()
    for path in sorted(p for p in static.rglob("*") if p.is_file()):
        digest.update(path.relative_to(static).as_posix().encode() + path.read_bytes())
    digest.update(games_js.encode())
    return digest.hexdigest()[:12]


def games_script() -> str:
    """Every registered game's phone renderer (its folder's phone.js), as one script: made once, at start."""
    return "\n".join(script for ruleset in RULESETS.values() if (script := ruleset.phone_script) is not None)


CSP = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "connect-src 'self'; manifest-src 'self'; worker-src 'self'; object-src 'none'; "
    "base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
)


def _headers(response: Response) -> Response:
    response.headers["X-Content-Type-Options"] = "nosniff"
    if response.mimetype == "text/html":
        response.headers["Content-Security-Policy"] = CSP
        response.headers["Referrer-Policy"] = "no-referrer"  # a table's address is its key to read it
    return response
