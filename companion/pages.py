"""The phone pages: server-rendered HTML that a little JavaScript keeps live."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import segno
from flask import Blueprint, Response, abort, current_app, render_template, request, send_from_directory, url_for

from spellpress.core import table
from spellpress.core.games import ruleset_of

from .context import companion
from .errors import ApiError
from .seats import normal_code
from .snapshots import Snapshot

bp = Blueprint("pages", __name__)

# The phone's code: ES modules, served as they are (no build step), each under the assets' version.
MODULES = Path(__file__).parent / "static" / "modules"


def module_names() -> list[str]:
    """Every phone module, by its path under MODULES: the pages preload them all and the service worker keeps them."""
    return sorted(path.relative_to(MODULES).as_posix() for path in MODULES.rglob("*.js"))


@bp.app_context_processor
def _assets() -> dict[str, Callable[..., object]]:
    version = current_app.config["ASSET_VERSION"]
    return {"asset": lambda name: url_for("static", filename=name, v=version),
            "games_js": lambda: url_for("pages.games_script", v=version),
            "module": lambda name: url_for("pages.module", version=version, name=name),
            "modules": lambda: [url_for("pages.module", version=version, name=name) for name in current_app.config["MODULES"]]}


def _base_url() -> str:
    """The address other phones reach this server by: the page's own, unless that is localhost."""
    lan: str | None = current_app.config["LAN_URL"]
    if lan and urlsplit(request.host_url).hostname in ("localhost", "127.0.0.1", "::1"):
        return lan.rstrip("/") + "/"
    return request.host_url


@bp.get("/")
def home() -> str:
    return render_template("home.html", games=companion().games.values())


@bp.get("/new/<slug>")
def new_table(slug: str) -> str:
    game = companion().games.get(slug) or abort(404)
    return render_template("new.html", game=game, options=table.game_options(game), has_rules=bool(ruleset_of(game).helpers))


@bp.get("/join")
@bp.get("/join/<code>")
def join(code: str = "") -> str:
    return render_template("join.html", code=normal_code(code) or "")


@bp.get("/join/<code>/qr.svg")
def join_qr(code: str) -> Response:
    """A QR code of the join address: a phone's camera opens it straight away."""
    code = normal_code(code) or abort(404)
    svg = io.BytesIO()
    segno.make(f"{_base_url()}join/{code}", error="m").save(svg, kind="svg", scale=6, border=2, light="#fff")
    return Response(svg.getvalue(), mimetype="image/svg+xml", headers={"Cache-Control": "max-age=3600"})


def _table(table_id: str) -> Snapshot:
    try:
        return companion().store.read(table_id)
    except ApiError:
        abort(404)


def _board_context(now: Snapshot) -> dict[str, Any]:
    """What the board's template shows: the state as the phones see it, its options in words."""
    game = companion().games.get(now.state["game"])
    options = {o.id: o for o in table.game_options(game)} if game else {}

    def option_text(values: dict[str, str]) -> str:
        return " · ".join(options[k].label_of(v) if k in options else v for k, v in values.items())

    return {"state": now.public, "option_text": option_text, "max_delta": table.MAX_DELTA}


@bp.get("/t/<table_id>")
def table_page(table_id: str) -> str:
    now = _table(table_id)
    game = companion().games.get(now.state["game"])
    die = ruleset_of(game).die(game) if game else None
    return render_template(
        "table.html", table_id=table_id, version=now.version, die=die,
        dice_sides=table.DICE_SIDES, dice_count=table.DICE_COUNT, has_rules=bool(game and ruleset_of(game).helpers),
        ordered=list(table.ordered(now.state)), **_board_context(now),
    )


@bp.get("/rules/<slug>")
def rules_page(slug: str) -> str:
    """A game's rule helpers on a page of their own, for a question asked away from a table."""
    game = companion().games.get(slug) or abort(404)
    return render_template("rules.html", game=game)


@bp.get("/t/<table_id>/board")
def board(table_id: str) -> str:
    """The players and counters alone, for a page whose table gained a player."""
    now = _table(table_id)
    return render_template("_board.html", version=now.version, **_board_context(now))


@bp.get("/games.js")
def games_script() -> Response:
    """Every game's tracker renderer (each game folder's phone.js), made once when the app starts."""
    return Response(current_app.config["GAMES_JS"], mimetype="text/javascript", headers={"Cache-Control": "max-age=3600"})


@bp.get("/modules/<version>/<path:name>")
def module(version: str, name: str) -> Response:
    """A phone module, with the assets' version in its path rather than in a query string: its
    relative imports then carry the version too. Any version is served the files as they are,
    as a static file is whatever its `?v=`."""
    return send_from_directory(MODULES, name)


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    return current_app.response_class(
        render_template("manifest.webmanifest"), mimetype="application/manifest+json"
    )


@bp.get("/sw.js")
def service_worker() -> Response:
    response = current_app.response_class(render_template("sw.js"), mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    return response
