"""The JSON API that the phone pages use (documented in docs/api.md)."""

from __future__ import annotations

import functools
import json
import secrets
import time
from collections.abc import Iterator
from typing import Any, NoReturn

from flask import Blueprint, Response, current_app, jsonify, request

from spellpress.core import table
from spellpress.core.games import ruleset_of
from spellpress.core.models import Game
from spellpress.core.play.errors import Invalid

from .context import companion
from .errors import SEAT_LOST, BadRequest, Forbidden, NotFound, Unauthorized, UnsupportedMediaType
from .snapshots import Snapshot
from .store import Store

bp = Blueprint("api", __name__, url_prefix="/api")
VERSION_MAX = 2**53  # a version a client may name: a table would take ages to reach it, and JSON's numbers hold it


@bp.before_request
def _same_site_json() -> None:
    """A POST must be JSON from one of the companion's own pages (or from a script, which sends
    no browser headers). A form or a `text/plain` fetch from another web site that a phone at
    the table happens to open is refused before it can start a table or play a move."""
    if request.method != "POST":
        return
    if request.mimetype != "application/json":
        raise UnsupportedMediaType(f"send the body as JSON, with Content-Type: application/json (not {request.mimetype or 'none'})")
    site = request.headers.get("Sec-Fetch-Site")
    if site is not None and site not in ("same-origin", "none"):
        raise Forbidden(f"a request from another site ({site}) may not change a table")
    origin = request.headers.get("Origin")
    if origin is not None and origin.rstrip("/") != request.host_url.rstrip("/"):
        raise Forbidden(f"a request from {origin[:100]} may not change a table: only this server's own pages may")


def _body() -> dict[str, Any]:
    """The request's JSON object; an oversized body was refused (413) before it was read."""
    raw = request.get_data() or b"null"
    try:
        data = _DECODER.decode(raw.decode())
    except ValueError as err:
        raise BadRequest(f"the body is not valid JSON: {err}") from None
    except RecursionError:
        raise BadRequest("the body is not valid JSON: it nests too deeply") from None
    if not isinstance(data, dict):
        raise BadRequest("the body must be a JSON object")
    if b"\\u" in raw or not raw.isascii():  # ASCII without escapes holds no half pair: not walked
        _check_text(data)
    return data


def _check_text(data: object) -> None:
    """Every string in a body (keys too) must be text the store can keep: JSON lets a body hold
    half a surrogate pair, which no UTF-8 file can store."""
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                raise BadRequest(f"the body holds text that is not valid Unicode: {item[:40]!r}") from None


def _not_json(name: str) -> NoReturn:
    """NaN and Infinity, which Python's reader takes and JSON does not."""
    raise ValueError(f"{name} is not a JSON value")


_DECODER = json.JSONDecoder(parse_constant=_not_json)  # made once: json.loads with an option makes one a call


def _with_state(fields: dict[str, Any], now: Snapshot, status: int = 200) -> Response:
    """`fields` with the table's version and state, the state's stored JSON used as it is."""
    head = json.dumps({**fields, "version": now.version}, separators=(",", ":"))
    return Response(f'{head[:-1]},"state":{now.json}}}', status, mimetype="application/json")


def _token() -> str:
    """The seat token the request carries; 401 without one."""
    kind, _, token = request.headers.get("Authorization", "").partition(" ")
    if kind.lower() != "bearer" or not token.strip():
        raise Unauthorized("join this table with its code first (a script sends its seat as Authorization: Bearer <token>)")
    return token.strip()


def _seat(table_id: str) -> int:
    """The player whose seat token the request carries; 401 without a valid one."""
    player = companion().store.seat(table_id, _token())
    if player is None:
        raise Unauthorized(SEAT_LOST)
    return player


def _game(slug: object) -> Game:
    games = companion().games
    if not isinstance(slug, str) or slug not in games:
        titles = ", ".join(g.title for g in games.values())
        raise NotFound(f"there is no such game here; the games are: {titles}"[:300])
    return games[slug]


def game_json(game: Game) -> dict[str, Any]:
    return {
        "slug": game.slug,
        "title": game.title,
        "players": {"min": game.players.min, "max": game.players.max},
        "counters": [c.__dict__ for c in game.counters],
        "options": [
            {
                "id": o.id,
                "label": o.label,
                "scope": o.scope,
                "choices": [{"value": c.value, "label": c.label, "players": c.players} for c in o.choices],
            }
            for o in table.game_options(game)
        ],
    }


@bp.get("/games")
def games() -> Response:
    return jsonify(games=[game_json(g) for g in companion().games.values()])


@bp.post("/tables")
def create_table() -> Response:
    body = _body()
    game = _game(body.get("game"))
    seat, code, expires, now = companion().store.create(game, body.get("players"), body.get("options"), request.remote_addr or "")
    fields = {"id": seat.table_id, "code": code, "code_expires": expires, "token": seat.token, "player": seat.player}
    return _with_state(fields, now, 201)


@bp.get("/codes/<code>")
def look_up_code(code: str) -> Response:
    """Who sits at the table a code leads to, so that a phone can pick its player."""
    store = companion().store
    state = store.read(store.resolve(code, request.remote_addr or "")).state
    return jsonify(
        title=state["title"], game=state["game"], players=[p["name"] for p in state["players"]],
        room=len(state["players"]) < state["max_players"],
    )


@bp.post("/tables/join")
def join_table() -> Response:
    body = _body()
    store = companion().store
    table_id = store.resolve(body.get("code"), request.remote_addr or "")
    game = _game(store.read(table_id).state["game"])
    seat, now = store.join(table_id, game, body.get("name"))
    companion().hub.publish(table_id, now.version)
    return _with_state({"id": table_id, "token": seat.token, "player": seat.player}, now)


@bp.get("/tables/<table_id>")
def get_table(table_id: str) -> Response:
    return _with_state({"id": table_id}, companion().store.read(table_id))


@bp.post("/tables/<table_id>/actions")
def act(table_id: str) -> Response:
    token = _token()
    shared = companion()
    outcome = shared.store.act(table_id, token, _body(), secrets.randbelow)
    if not outcome.repeated:
        shared.hub.publish(table_id, outcome.table.version)
    entry = table.log_entry(outcome.event, outcome.table.state, set())
    fields = {"event": entry, "repeated": outcome.repeated}
    secret = table.secret(outcome.event, outcome.table.state)
    if secret is not None:  # a look at hidden cards, made (or repeated) by this very seat: for it alone
        fields["secret"] = secret
    return _with_state(fields, outcome.table)


def _version(text: str | None, what: str) -> int | None:
    """A version a client names (`log?after=`, a stream's `Last-Event-ID`): a whole number from 0
    to VERSION_MAX, else 400 (a larger one no table reaches, and no database column holds)."""
    if text is None:
        return None
    if not (text.isascii() and text.isdigit() and len(text) <= 16 and int(text) <= VERSION_MAX):
        raise BadRequest(f"{what} is a table's version: a whole number from 0 to {VERSION_MAX}; got {text[:40]!r}")
    return int(text)


@bp.get("/tables/<table_id>/log")
def log(table_id: str) -> Response:
    after = _version(request.args.get("after"), "after") or 0
    limit = max(1, min(request.args.get("limit", 200, type=int), 500))
    version, _, entries = companion().store.log(table_id, after, limit)
    return jsonify(version=version, events=entries)


@bp.get("/tables/<table_id>/code")
def get_code(table_id: str) -> Response:
    _seat(table_id)
    current = companion().store.code(table_id)
    if current is None:
        return jsonify(code=None, expires=None)
    return jsonify(code=current[0], expires=current[1])


@bp.post("/tables/<table_id>/code")
def renew_code(table_id: str) -> Response:
    _seat(table_id)
    code, expires = companion().store.new_code(table_id)
    return jsonify(code=code, expires=expires)


def _patch(store: Store, table_id: str, seen: Snapshot) -> tuple[Snapshot, str]:
    """The table now, and one message of the stream taking a phone from `seen` to it: the parts
    of the state that changed (a table's rules and most of its players stay as they were) and
    the log's entries since. Every phone that saw `seen` gets the same message, made once."""
    now, entries = store.changes(table_id, after=seen.version)
    changed = {key: value for key, value in now.public.items() if seen.public.get(key) != value}
    removed = [key for key in seen.public if key not in now.public]
    body = {"version": now.version, "base": seen.version, "set": changed, "unset": removed, "events": entries}
    return now, f"id: {now.version}\nevent: patch\ndata: {json.dumps(body, separators=(',', ':'))}\n\n"


def _sse(kind: str, now: Snapshot, entries: list[dict[str, Any]]) -> str:
    """The stream's first message: the whole state; its JSON text is the snapshot's own."""
    events = json.dumps(entries, separators=(",", ":"))
    return f'id: {now.version}\nevent: {kind}\ndata: {{"version":{now.version},"state":{now.json},"events":{events}}}\n\n'


@bp.get("/tables/<table_id>/stream")
def stream(table_id: str) -> Response:
    """Server-Sent Events: the whole state at once, then what changed, with the new log entries,
    each time the table changes; a beat when the phones have heard nothing for STREAM_KEEPALIVE
    seconds (live.py), so that a vanished phone is noticed by the server and a phone notices within
    seconds when the server has gone silent. A waiting stream holds no thread and no timer."""
    store, hub = companion().store, companion().hub
    now = store.read(table_id)
    last_seen = _version(request.headers.get("Last-Event-ID"), "Last-Event-ID")
    lifetime = current_app.config["STREAM_SECONDS"]

    def events() -> Iterator[str]:
        with hub.listen(table_id, now.version) as wait:
            first = store.changes(table_id, after=last_seen) if last_seen is not None else (now, [])
            yield "retry: 1000\n" + _sse("state", *first)
            seen, ends = first[0], time.monotonic() + lifetime
            while time.monotonic() < ends and not hub.closed:
                if wait(seen.version) == seen.version:
                    yield "event: beat\ndata: 1\n\n"  # an event, not a comment: the page hears it
                    continue
                seen, message = hub.once(table_id, seen.version, functools.partial(_patch, store, table_id, seen))
                yield message

    headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
    config = current_app.config
    release = hub.admit(request.remote_addr or "", config["STREAMS_PER_CLIENT"], config["STREAMS_TOTAL"])
    response = Response(events(), mimetype="text/event-stream", headers=headers)
    response.call_on_close(release)  # the server closes every response it began, sent or not
    return response


@bp.get("/rules/<slug>")
def rule_helpers(slug: str) -> Response:
    """A game's rule helpers, each with the inputs it takes: a phone draws its forms from them."""
    game = _game(slug)
    return jsonify(game=game.slug, helpers=[h.json(game) for h in ruleset_of(game).helpers.values()])


@bp.post("/rules/<slug>/<helper>")
def ask_rules(slug: str, helper: str) -> Response:
    """One helper's answer; inputs it cannot make sense of get 400 with every reason."""
    game = _game(slug)
    found = ruleset_of(game).helpers
    if helper not in found:
        titles = ", ".join(h.title for h in found.values()) or "none"
        raise NotFound(f"{game.title} has no such rule helper; its helpers are: {titles}"[:300])
    try:
        return jsonify(found[helper].ask(game, _body()))
    except Invalid as err:
        raise BadRequest(str(err)) from None
