"""The JSON API through Flask's test client: tables, seats, codes, actions, the log, bad requests."""

from __future__ import annotations

import json
import posixpath
import re
import time

import pytest

from spellpress.core.games import RULESETS

SLUGS = ["magicka-mayhem", "powermage-54", "powers-combined", "sorcerer-duel", "spellchamber"]


def start(client, game="magicka-mayhem", players=("Ann", "Ben", "Cy"), options=None):
    response = client.post("/api/tables", json={"game": game, "players": list(players), "options": options or {}})
    assert response.status_code == 201, response.json
    return response.json


def auth(token):
    return {"Authorization": f"Bearer {token}"}


def act(client, t, action, token=None):
    return client.post(f"/api/tables/{t['id']}/actions", json=action, headers=auth(token or t["token"]))


def snapshot(client, t):
    response = client.get(f"/api/tables/{t['id']}")
    assert response.status_code == 200
    return response.json


@pytest.mark.parametrize("slug", SLUGS)
def test_a_table_for_each_game_starts_from_its_yaml(client, games, slug):
    game = games[slug]
    names = ["Ann", "Ben"]
    t = start(client, slug, names)
    assert t["version"] == 1 and t["player"] == 0
    assert len(t["token"]) >= 22 and len(t["code"]) == 6
    assert t["code_expires"] > time.time() + 3600
    for player in t["state"]["players"]:
        assert player["counters"] == {c.id: c.start for c in game.counters if c.scope == "player"}
    assert t["state"]["counters"] == {c.id: c.start for c in game.counters if c.scope == "table"}
    assert snapshot(client, t) == {"id": t["id"], "version": 1, "state": t["state"]}


def test_games_lists_counters_and_options(client, games):
    listed = {g["slug"]: g for g in client.get("/api/games").json["games"]}
    assert set(listed) == set(SLUGS)
    mm = listed["magicka-mayhem"]
    assert mm["counters"] == [c.__dict__ for c in games["magicka-mayhem"].counters]
    assert [o["id"] for o in mm["options"]] == ["mode", "mayhem"]


def test_a_second_phone_joins_by_code_and_both_keep_score(client):
    t = start(client)
    spaced = " " + t["code"][:3].lower() + "-" + t["code"][3:] + " "
    found = client.get(f"/api/codes/{spaced.strip()}")
    assert found.json == {"title": "Magicka Mayhem", "game": "magicka-mayhem", "players": ["Ann", "Ben", "Cy"], "room": True}
    joined = client.post("/api/tables/join", json={"code": spaced, "name": "ben"})
    assert joined.status_code == 200
    ben = joined.json
    assert ben["id"] == t["id"] and ben["player"] == 1 and ben["token"] != t["token"]

    assert act(client, t, {"type": "adjust", "player": 1, "counter": "health", "delta": -3}).status_code == 200
    answer = act(client, t, {"type": "adjust", "player": 0, "counter": "health", "delta": -4}, ben["token"])
    assert answer.json["event"]["text"] == "Ann: Health \N{MINUS SIGN}4 \N{RIGHTWARDS ARROW} 16 (by Ben)"
    state = snapshot(client, t)
    assert [p["counters"]["health"] for p in state["state"]["players"]] == [16, 17, 20]
    assert state["version"] == 4

    newcomer = client.post("/api/tables/join", json={"code": t["code"], "name": "Dee"}).json
    assert newcomer["player"] == 3 and newcomer["state"]["players"][3]["counters"] == {"health": 20}
    texts = [e["text"] for e in client.get(f"/api/tables/{t['id']}/log").json["events"]]
    assert texts == [
        "Ann started Magicka Mayhem for Ann, Ben and Cy",
        "Ben joined",
        "Ben: Health \N{MINUS SIGN}3 \N{RIGHTWARDS ARROW} 17 (by Ann)",
        "Ann: Health \N{MINUS SIGN}4 \N{RIGHTWARDS ARROW} 16 (by Ben)",
        "Dee joined as a new player",
    ]


def test_undo_carries_its_version_and_a_stale_one_gets_409(client):
    t = start(client, "powermage-54", ["Ann", "Ben"])
    act(client, t, {"type": "adjust", "player": 0, "counter": "points", "delta": -30})
    seen = snapshot(client, t)
    act(client, t, {"type": "adjust", "player": 1, "counter": "points", "delta": -5})
    stale = act(client, t, {"type": "undo", "version": seen["version"]})
    assert stale.status_code == 409 and "changed the table while you were deciding" in stale.json["error"]
    assert snapshot(client, t)["version"] == 3

    undone = act(client, t, {"type": "undo", "version": 3})
    assert undone.status_code == 200 and undone.json["version"] == 4
    assert [p["counters"]["points"] for p in undone.json["state"]["players"]] == [70, 100]
    log = client.get(f"/api/tables/{t['id']}/log").json["events"]
    assert [e["undone"] for e in log] == [False, False, True, False]
    assert log[-1]["text"] == "Ann undid: Ben: Points \N{MINUS SIGN}5 \N{RIGHTWARDS ARROW} 95 (by Ann)"


def test_draws_are_made_on_the_server_and_logged(client):
    t = start(client, "spellchamber", ["Ann", "Ben"])
    rolled = act(client, t, {"type": "roll", "sides": 6, "count": 3}).json
    results = rolled["event"]["data"]["results"]
    assert len(results) == 3 and all(1 <= r <= 6 for r in results)
    assert rolled["state"]["last_draw"]["results"] == results
    coin = act(client, t, {"type": "coin"}).json
    assert coin["event"]["data"]["result"] in ("heads", "tails")
    first = act(client, t, {"type": "first"}).json
    assert first["state"]["first_player"] in (0, 1)
    log = client.get(f"/api/tables/{t['id']}/log?after=1").json["events"]
    assert [e["type"] for e in log] == ["roll", "coin", "first"]
    assert log[0]["data"]["results"] == results


def test_a_repeated_request_id_is_applied_once(client):
    t = start(client, "powermage-54", ["Ann", "Ben"])
    action = {"type": "adjust", "player": 0, "counter": "points", "delta": -7, "request_id": "tap-1"}
    first, again = act(client, t, action), act(client, t, action)
    assert first.json["repeated"] is False and again.json["repeated"] is True
    assert again.json["event"]["seq"] == first.json["event"]["seq"] == 2
    assert snapshot(client, t)["state"]["players"][0]["counters"]["points"] == 93
    assert act(client, t, {**action, "request_id": "x" * 65}).status_code == 400


def test_the_state_survives_a_new_app_on_the_same_file(make_app):
    first = make_app().test_client()
    t = start(first, "sorcerer-duel", ["Ann", "Ben"])
    act(first, t, {"type": "adjust", "player": 1, "counter": "mana", "delta": 3})
    act(first, t, {"type": "adjust", "player": 0, "counter": "health", "delta": -6})
    act(first, t, {"type": "undo", "version": 3})
    before = snapshot(first, t)

    app = make_app()
    again = app.test_client()
    assert snapshot(again, t) == before
    assert app.extensions["spellpress"].store.replay(t["id"]) == before["state"]
    assert act(again, t, {"type": "adjust", "player": 0, "counter": "health", "delta": -1}).status_code == 200


def test_codes_expire_and_any_seat_can_issue_a_new_one(make_app):
    clock = [1_000_000.0]
    app = make_app(CODE_TTL=60)
    store = app.extensions["spellpress"].store
    store.clock = lambda: clock[0]
    client = app.test_client()
    t = start(client)
    ben = client.post("/api/tables/join", json={"code": t["code"], "name": "Ben"}).json
    clock[0] += 61
    expired = client.post("/api/tables/join", json={"code": t["code"], "name": "Cy"})
    assert expired.status_code == 410 and "expired" in expired.json["error"]
    assert client.get(f"/api/tables/{t['id']}/code", headers=auth(ben["token"])).json == {"code": None, "expires": None}
    assert client.post(f"/api/tables/{t['id']}/code", json={}).status_code == 401
    renewed = client.post(f"/api/tables/{t['id']}/code", json={}, headers=auth(ben["token"])).json
    assert renewed["code"] != t["code"] and renewed["expires"] == clock[0] + 60
    assert client.get(f"/api/tables/{t['id']}/code", headers=auth(t["token"])).json == renewed
    assert client.post("/api/tables/join", json={"code": renewed["code"], "name": "Cy"}).status_code == 200
    assert snapshot(client, t)["state"]["players"][2]["name"] == "Cy"


def test_wrong_codes_are_rate_limited(make_app):
    app = make_app(JOIN_FAILURES=(3, 300))
    client = app.test_client()
    t = start(client)
    wrong = "222222" if t["code"] != "222222" else "333333"
    for _ in range(3):
        assert client.post("/api/tables/join", json={"code": wrong, "name": "Eve"}).status_code == 404
    refused = client.post("/api/tables/join", json={"code": t["code"], "name": "Eve"})
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
    assert client.get(f"/api/codes/{t['code']}").status_code == 429
    other = client.post("/api/tables/join", json={"code": t["code"], "name": "Eve"}, environ_base={"REMOTE_ADDR": "10.9.9.9"})
    assert other.status_code == 200, "another client is not held up"


# ---------------------------------------------------------------- bad requests change nothing


@pytest.fixture
def seated(client):
    t = start(client, "sorcerer-duel", ["Ann", "Ben"])
    other = start(client, "powermage-54", ["Cy", "Dee"])
    before = snapshot(client, t)
    yield t, other
    assert snapshot(client, t) == before, "a refused request left the table as it was"


def raw_post(client, path, data, **headers):
    return client.post(path, data=data, headers={"Content-Type": "application/json", **headers})


@pytest.mark.parametrize(
    "body, status, reason",
    [
        (b"{not json", 400, "not valid JSON"),
        (b"[" * 7000 + b"]" * 7000, 400, "nests too deeply"),
        (b'{"type": "adjust", "player": 0, "counter": "health", "delta": NaN}', 400, "NaN is not a JSON value"),
        (b'{"type": "adjust", "player": 0, "counter": "health", "delta": -Infinity}', 400, "not a JSON value"),
        (b"[1, 2]", 400, "JSON object"),
        (b"", 400, "JSON object"),
        (b'{"type": "adjust", "player": 9, "counter": "health", "delta": -1}', 422, "no such player"),
        (b'{"type": "adjust", "player": 0, "counter": "health", "delta": -21}', 422, "at most 20"),
        (b'{"type": "adjust", "player": 0, "counter": "health", "delta": 1e3}', 422, "whole number"),
        (b'{"type": "adjust", "player": 0, "counter": "points", "delta": 1}', 422, "keeps no such count"),
        (b'{"type": "roll", "sides": 1000}', 422, "sides"),
        (b'{"type": "undo", "version": 99}', 409, "changed the table while you were deciding"),
        (b'{"type": "launch"}', 422, "reload the page"),
    ],
)
def test_bad_actions_get_a_reason(client, seated, body, status, reason):
    t, _ = seated
    response = raw_post(client, f"/api/tables/{t['id']}/actions", body, **auth(t["token"]))
    assert response.status_code == status
    assert reason in response.json["error"]


def test_writes_need_this_tables_seat_token(client, seated):
    t, other = seated
    path = f"/api/tables/{t['id']}/actions"
    body = json.dumps({"type": "adjust", "player": 0, "counter": "health", "delta": -1})
    for headers in ({}, {"Authorization": "Basic abc"}, auth(""), auth("not-a-token"), auth(other["token"])):
        response = raw_post(client, path, body, **headers)
        assert response.status_code == 401, headers
        assert response.json["error"] and response.headers["WWW-Authenticate"].startswith("Bearer")


def test_an_oversized_body_is_refused(client, seated):
    t, _ = seated
    huge = json.dumps({"type": "adjust", "player": 0, "counter": "health", "delta": -1, "pad": "x" * 20_000})
    response = raw_post(client, f"/api/tables/{t['id']}/actions", huge, **auth(t["token"]))
    assert response.status_code == 413 and "larger than" in response.json["error"]
    response = raw_post(client, "/api/tables", json.dumps({"game": "powermage-54", "players": ["x" * 20_000]}))
    assert response.status_code == 413


def test_unknown_tables_and_games(client, seated):
    t, _ = seated
    for path in ("/api/tables/nope", "/api/tables/nope/log", "/api/tables/nope/stream"):
        response = client.get(path)
        assert response.status_code == 404 and response.json == {"error": "no such table"}
    response = raw_post(client, "/api/tables/nope/actions", b"{}", **auth(t["token"]))
    assert response.status_code == 401
    response = client.post("/api/tables", json={"game": "chess", "players": ["A", "B"]})
    assert response.status_code == 404 and "no such game" in response.json["error"]
    assert client.get("/t/nope").status_code == 404
    assert client.get("/new/chess").status_code == 404


@pytest.mark.parametrize(
    "body, reason",
    [
        ({"game": "magicka-mayhem", "players": ["Ann", "<img src=x onerror=alert(1)>"]}, "markup"),
        ({"game": "magicka-mayhem", "players": ["Ann"]}, "2 to 6 players"),
        ({"game": "magicka-mayhem", "players": ["Ann", "Ben"], "options": {"mayhem": "extreme"}}, "mayhem must be one of"),
        ({"game": "magicka-mayhem", "players": ["Ann", "Ben"], "options": []}, "options must be an object"),
    ],
)
def test_bad_tables_are_not_started(client, body, reason):
    response = client.post("/api/tables", json=body)
    assert response.status_code == 422 and reason in response.json["error"]


def test_bad_joins_change_nothing(client):
    t = start(client, "magicka-mayhem", ["Ann", "Ben"])
    before = snapshot(client, t)
    for body, status in (
        ({"code": t["code"], "name": "<b>Mallory</b>"}, 422),
        ({"code": t["code"], "name": ""}, 422),
        ({"code": t["code"]}, 422),
        ({"code": "!!", "name": "Eve"}, 404),
        ({"name": "Eve"}, 404),
    ):
        response = client.post("/api/tables/join", json=body)
        assert response.status_code == status and response.json["error"], body
    assert snapshot(client, t) == before


def test_names_are_escaped_wherever_they_are_shown(client):
    t = start(client, "magicka-mayhem", ["Tom & <3 Jerry", "\"Quote\" 'Mark'"])
    act(client, t, {"type": "roll", "sides": 6})
    for path in (f"/t/{t['id']}", f"/t/{t['id']}/board"):
        html = client.get(path).data.decode()
        assert "Tom &amp; &lt;3 Jerry" in html and "Tom & <3" not in html
        assert "&#34;Quote&#34; &#39;Mark&#39;" in html or "&quot;Quote&quot;" in html
    page = client.get(f"/t/{t['id']}")
    assert "script-src 'self'" in page.headers["Content-Security-Policy"]
    embedded = page.data.decode().split('<script id="state" type="application/json">')[1]
    assert "<3" not in embedded.split("</script>")[0], "the state inside the page is escaped JSON"


def test_the_pages_and_install_files_are_served(client):
    t = start(client, "spellchamber", ["Ann", "Ben", "Cy"])
    for path in ("/", "/new/spellchamber", "/join", f"/join/{t['code']}", f"/t/{t['id']}"):
        assert client.get(path).status_code == 200, path
    manifest = client.get("/manifest.webmanifest")
    assert manifest.mimetype == "application/manifest+json"
    icons = json.loads(manifest.data)["icons"]
    assert {i["sizes"] for i in icons} >= {"192x192", "512x512"}
    for icon in icons:
        assert client.get(icon["src"]).status_code == 200
    worker = client.get("/sw.js")
    assert worker.mimetype == "text/javascript" and b"/api/" in worker.data
    qr = client.get(f"/join/{t['code']}/qr.svg")
    assert qr.mimetype == "image/svg+xml" and qr.data.startswith(b"<?xml") and b"<svg" in qr.data
    assert client.get("/join/!!/qr.svg").status_code == 404


def test_each_games_phone_renderer_comes_from_its_folder_to_every_page(client):
    """A game's folder holds its phone renderer (phone.js); the pages load them all as one
    versioned script, which the service worker keeps for offline use."""
    t = start(client, "sorcerer-duel", ["Ann", "Ben"])
    page = client.get(f"/t/{t['id']}").data.decode()
    src = page.split('<script src="/games.js')[1].split('"')[0]
    script = client.get("/games.js" + src)
    assert script.status_code == 200 and script.mimetype == "text/javascript"
    text = script.data.decode()
    for ruleset in RULESETS.values():
        assert (f'register("{ruleset.slug}"' in text) == (ruleset.phone is not None), ruleset.slug
    assert "/games.js" + src in client.get("/sw.js").data.decode()


def test_the_phones_modules_are_served_under_the_assets_version_and_kept_offline(client):
    """The page's code is ES modules served as they are: the version is in their path, so that a
    module's relative imports carry it too; every page preloads them all, and the service worker
    keeps them all, so that each import is found offline. They import no circle."""
    t = start(client, "sorcerer-duel", ["Ann", "Ben"])
    page = client.get(f"/t/{t['id']}").data.decode()
    entry = re.search(r'<script type="module" src="(/modules/(\w+)/app\.js)"></script>', page)
    assert entry, "app.js is loaded as a module"
    base = f"/modules/{entry[2]}/"
    preloaded = re.findall(r'<link rel="modulepreload" href="([^"]+)">', page)
    worker = client.get("/sw.js").data.decode()
    imports = {}
    for url in preloaded:
        assert url.startswith(base) and url in worker, url
        response = client.get(url)
        assert response.status_code == 200 and response.mimetype == "text/javascript", url
        name = url.removeprefix(base)
        imports[name] = {posixpath.normpath(posixpath.join(posixpath.dirname(name), path))
                         for path in re.findall(r'^import .* from "(\.[^"]+)";$', response.data.decode(), re.MULTILINE)}
    assert "app.js" in imports and "table/page.js" in imports["app.js"]
    assert set().union(*imports.values()) <= set(imports), "every import is preloaded and kept by the service worker"

    def reach(name, path):
        for imported in imports[name]:
            assert imported not in path, " -> ".join([*path, imported])
            reach(imported, [*path, imported])

    reach("app.js", ["app.js"])
    assert client.get(base + "../app.css").status_code == 404, "only the modules are served there"
    assert client.get(base + "nothing.js").status_code == 404


def test_the_stream_sends_the_state_then_each_change(client):
    t = start(client, "powers-combined", ["Ann", "Ben"])
    response = client.get(f"/api/tables/{t['id']}/stream", buffered=False)
    assert response.mimetype == "text/event-stream"
    chunks = iter(response.response)
    first = next(chunks).decode()
    assert first.startswith("retry: 1000\nid: 1\nevent: state\n")
    act(client, t, {"type": "adjust", "counter": "lives", "delta": -1})
    message = next(chunks).decode()
    while message.startswith("event: beat"):  # the process's heartbeat may come first: not the change
        message = next(chunks).decode()
    assert message.startswith("id: 2\nevent: patch\n")
    data = json.loads(message.split("data: ", 1)[1])
    assert data["base"] == 1 and data["set"]["counters"]["lives"] == 2
    assert "rules" not in data["set"] and "players" not in data["set"], "what did not change is not sent again"
    assert [e["text"] for e in data["events"]] == ["Lives \N{MINUS SIGN}1 \N{RIGHTWARDS ARROW} 2 (by Ann)"]
    whole = json.loads(first.split("data: ", 1)[1])["state"]
    assert {**whole, **data["set"]} == snapshot(client, t)["state"], "the patch on the first state is the table now"
    response.close()


def test_a_reconnecting_stream_catches_up_from_its_last_event(client):
    t = start(client, "powers-combined", ["Ann", "Ben"])
    act(client, t, {"type": "adjust", "counter": "runes", "delta": 2})
    act(client, t, {"type": "coin"})
    response = client.get(f"/api/tables/{t['id']}/stream", headers={"Last-Event-ID": "1"}, buffered=False)
    first = next(iter(response.response)).decode()
    data = json.loads(first.split("data: ", 1)[1])
    assert data["version"] == 3 and [e["seq"] for e in data["events"]] == [2, 3]
    response.close()


def test_another_process_writing_the_file_reaches_the_stream(make_app):
    """Two workers on one SQLite file: the watcher carries one's writes to the other's phones."""
    writer, reader = make_app().test_client(), make_app().test_client()
    t = start(writer, "powermage-54", ["Ann", "Ben"])
    response = reader.get(f"/api/tables/{t['id']}/stream", buffered=False)
    chunks = iter(response.response)
    next(chunks)
    began = time.monotonic()
    act(writer, t, {"type": "adjust", "player": 1, "counter": "points", "delta": 5})
    message = next(chunks).decode()
    while message.startswith("event: beat"):  # the process's heartbeat may come first: not the change
        message = next(chunks).decode()
    assert time.monotonic() - began < 1
    assert json.loads(message.split("data: ", 1)[1])["set"]["players"][1]["counters"]["points"] == 105
    response.close()


def test_a_form_the_script_sends_cannot_be_sent_before_the_script_is_there(client):
    """A tap on 'Start the table' before the page's module had run sent the form as a plain page
    load: the page came back empty and nothing was started (found by a run beside busy CPUs).
    Such buttons come disabled in the page; the module enables them once it handles the form
    (the browser tests press each of them, so an enabled one is shown there)."""
    for path, buttons in (("/new/magicka-mayhem", ["Start the table"]), ("/join", ["Find", "Join"])):
        html = client.get(path).get_data(as_text=True)
        for form in re.findall(r"<form(?![^>]*method=\"dialog\")(?![^>]*action=)[^>]*>.*?</form>", html, re.S):
            for button in re.findall(r"<button[^>]*type=\"submit\"[^>]*>", form):
                assert "data-script" in button and "disabled" in button, f"{path}: {button}"
        for label in buttons:
            assert re.search(rf"<button[^>]*data-script disabled>{label}</button>", html), f"{path}: {label}"
