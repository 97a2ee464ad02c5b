"""`spellpress preview`: a local page with every card, the rulebook's pages and the playmat of the
games, redrawn after every save (engine.py), with any problem shown with its file and line.

A Flask app like the companion, for the designer's own machine: it listens on 127.0.0.1 unless
told otherwise, and serves only the images of the games it builds, each found by its game and
card id (or page number), never by a path from the request.
"""

from __future__ import annotations

import ipaddress
import re
import sys
import threading
from collections import Counter
from typing import Any

from flask import Flask, Response, abort, jsonify, render_template, request, send_file
from werkzeug.serving import WSGIRequestHandler, make_server

from ..press.model.options import Options
from .engine import Previewer

_SLUG = re.compile(r"^[a-z0-9][a-z0-9-]{0,79}$")


MOST_CONNECTIONS = 256  # open at once, in all
MOST_PER_ADDRESS = 16  # from one address: a browser opens six; one machine cannot take every slot
IDLE_SECONDS = 10.0  # a connection that sends nothing this long is closed (a half-open one held a thread for ever)


def _host_allowed(host: str, named: str) -> bool:
    """Whether a request's Host may be answered: an IP address, localhost, or the name the preview
    was told to listen on. A web page of another site whose name an attacker points at this
    machine (DNS rebinding) sends its own name, and is refused: it cannot read /state or a card."""
    name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
    name = name.strip("[]").lower()
    if name in ("localhost", named.lower()):
        return True
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def create_app(options: Options, previewer: Previewer | None = None, host: str = "127.0.0.1") -> Flask:
    app = Flask(__name__)
    preview = previewer or Previewer(options)
    app.extensions["preview"] = preview

    @app.before_request
    def known_host() -> Response | None:
        if not _host_allowed(request.host, host):
            return Response(f"this preview answers to an IP address or localhost, not to '{request.host}'\n",
                            status=421, mimetype="text/plain")
        return None

    @app.get("/")
    def home() -> str:
        return render_template("preview.html")

    @app.get("/state")
    def state() -> Response:
        shown = preview.shown
        return jsonify(version=shown.version, building=shown.building, problems=shown.problems, at=shown.at,
                       games=shown.games)

    @app.get("/card/<slug>/<card_id>.png")
    def card(slug: str, card_id: str) -> Response:
        if not (_SLUG.match(slug) and _SLUG.match(card_id)):
            abort(404)
        path = preview.card_png(slug, card_id)
        if path is None or not path.is_file():
            abort(404)
        return send_file(path, mimetype="image/png", max_age=0)

    @app.get("/page/<slug>/<which>/<int:page>.png")
    def page(slug: str, which: str, page: int) -> Response:
        png = preview.page_png(slug, which, page) if _SLUG.match(slug) else None
        if png is None:
            abort(404)
        return Response(png, mimetype="image/png", headers={"Cache-Control": "no-cache"})

    @app.after_request
    def headers(response: Response) -> Response:
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Cross-Origin-Resource-Policy"] = "same-origin"  # no other site's page may embed a card
        if response.mimetype == "text/html":
            response.headers["Content-Security-Policy"] = (
                "default-src 'self'; img-src 'self'; style-src 'self'; script-src 'self'; "
                "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'")
        return response

    return app


class _Quiet(WSGIRequestHandler):
    """The page asks four times a second: a line per request would bury what the builds say."""

    timeout = IDLE_SECONDS  # socketserver sets it on each connection's socket

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        pass


def _bounded(server: Any, most: int, per_address: int) -> None:
    """At most `most` connections served at once, and `per_address` from one address, each on its
    thread; one more is closed at once (werkzeug's threaded server starts a thread for any number)."""
    lock, open_from = threading.Lock(), Counter[str]()
    serve = server.process_request_thread

    def process_request(request: Any, client_address: Any) -> None:
        address = str(client_address[0])
        with lock:
            room = open_from.total() < most and open_from[address] < per_address
            if room:
                open_from[address] += 1
        if not room:
            server.shutdown_request(request)
            return
        threading.Thread(target=served, args=(request, client_address, address), daemon=True).start()

    def served(request: Any, client_address: Any, address: str) -> None:
        try:
            serve(request, client_address)
        finally:
            with lock:
                open_from[address] -= 1
                if not open_from[address]:
                    del open_from[address]

    server.process_request = process_request


def run(options: Options, host: str, port: int) -> int:
    """Serve the preview until Ctrl-C (werkzeug's threaded server: one designer, one machine)."""
    app = create_app(options, host=host)
    preview: Previewer = app.extensions["preview"]
    try:
        server = make_server(host, port, app, threaded=True, request_handler=_Quiet)
    except OSError as exc:
        print(f"spellpress preview: cannot listen on {host}:{port}: {exc.strerror or exc}; try --port", file=sys.stderr)
        return 1
    _bounded(server, MOST_CONNECTIONS, MOST_PER_ADDRESS)
    preview.start()
    print(f"Spellpress preview: http://{'localhost' if host in ('127.0.0.1', 'localhost') else host}:{port}/ "
          "(redrawn after every save; Ctrl-C to stop)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        preview.stop()
        server.server_close()
    return 0
