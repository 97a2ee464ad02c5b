"""`spellpress preview`: a local page with every card, the rulebook's pages and the playmat of the
games, redrawn after every save (engine.py), with any problem shown with its file and line.

A Flask app like the companion, for the designer's own machine: it listens on 127.0.0.1 unless
told otherwise, and serves only the images of the games it builds, each found by its game and
card id (or page number), never by a path from the request.
"""

from __future__ import annotations

import re
import sys

from flask import Flask, Response, abort, jsonify, render_template, send_file
from werkzeug.serving import WSGIRequestHandler, make_server

from ..press.model.options import Options
from .engine import Previewer

_SLUG = re.compile(r"^[a-z0-9][a-z0-9-]{0,79}$")


def create_app(options: Options, previewer: Previewer | None = None) -> Flask:
    app = Flask(__name__)
    preview = previewer or Previewer(options)
    app.extensions["preview"] = preview

    @app.get("/")
    def home():
        return render_template("preview.html")

    @app.get("/state")
    def state():
        shown = preview.shown
        return jsonify(version=shown.version, building=shown.building, problems=shown.problems, at=shown.at,
                       games=shown.games)

    @app.get("/card/<slug>/<card_id>.png")
    def card(slug: str, card_id: str):
        if not (_SLUG.match(slug) and _SLUG.match(card_id)):
            abort(404)
        path = preview.card_png(slug, card_id)
        if path is None or not path.is_file():
            abort(404)
        return send_file(path, mimetype="image/png", max_age=0)

    @app.get("/page/<slug>/<which>/<int:page>.png")
    def page(slug: str, which: str, page: int):
        png = preview.page_png(slug, which, page) if _SLUG.match(slug) else None
        if png is None:
            abort(404)
        return Response(png, mimetype="image/png", headers={"Cache-Control": "no-cache"})

    @app.after_request
    def headers(response):
        response.headers["X-Content-Type-Options"] = "nosniff"
        if response.mimetype == "text/html":
            response.headers["Content-Security-Policy"] = (
                "default-src 'self'; img-src 'self'; style-src 'self'; script-src 'self'; "
                "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'")
        return response

    return app


class _Quiet(WSGIRequestHandler):
    """The page asks four times a second: a line per request would bury what the builds say."""

    def log_request(self, code="-", size="-"):
        pass


def run(options: Options, host: str, port: int) -> int:
    """Serve the preview until Ctrl-C (werkzeug's threaded server: one designer, one machine)."""
    app = create_app(options)
    preview = app.extensions["preview"]
    try:
        server = make_server(host, port, app, threaded=True, request_handler=_Quiet)
    except OSError as exc:
        print(f"spellpress preview: cannot listen on {host}:{port}: {exc.strerror or exc}; try --port", file=sys.stderr)
        return 1
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
