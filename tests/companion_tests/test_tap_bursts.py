"""Taps go to the server at once, and a burst of them is still one change: one line in the log,
taken back by one undo (core/table.py's `Burst`)."""

from __future__ import annotations

from test_tracker_api import start

from spellpress.core import table

MINUS, ARROW = "\N{MINUS SIGN}", "\N{RIGHTWARDS ARROW}"


def _clocked(app):
    clock = [1_000_000.0]
    app.extensions["spellpress"].store.clock = lambda: clock[0]
    return clock


def _tap(client, t, delta, token=None, counter="health", player=0, rid=None):
    body = {"type": "adjust", "counter": counter, "player": player, "delta": delta}
    if rid:
        body["request_id"] = rid
    done = client.post(f"/api/tables/{t['id']}/actions", json=body, headers={"Authorization": f"Bearer {token or t['token']}"})
    assert done.status_code == 200, done.json
    return done.json


def _log(client, t, after=0):
    return client.get(f"/api/tables/{t['id']}/log?after={after}").json["events"]


def test_a_burst_of_taps_is_one_line_and_one_undo(app, client):
    clock = _clocked(app)
    t = start(client, "magicka-mayhem", ["Ann", "Bea"])
    health = t["state"]["players"][0]["counters"]["health"]
    for _ in range(3):
        clock[0] += 0.4
        last = _tap(client, t, -1)
    assert last["state"]["undo"]["text"] == f"Ann: Health {MINUS}3 {ARROW} {health - 3}"
    adjusts = [e for e in _log(client, t) if e["type"] == "adjust"]
    assert len(adjusts) == 1 and adjusts[0]["text"] == f"Ann: Health {MINUS}3 {ARROW} {health - 3}"
    assert len(adjusts[0]["seqs"]) == 3 and len(adjusts[0]["request_tags"]) <= 3
    undone = client.post(f"/api/tables/{t['id']}/actions", json={"type": "undo", "version": last["version"]},
                         headers={"Authorization": f"Bearer {t['token']}"}).json
    assert undone["state"]["players"][0]["counters"]["health"] == health, "one undo takes the whole burst back"
    entries = _log(client, t)
    assert [e["undone"] for e in entries if e["type"] == "adjust"] == [True]


def test_a_burst_ends_with_a_pause_another_phone_or_another_counter(app, client):
    clock = _clocked(app)
    t = start(client, "magicka-mayhem", ["Ann", "Bea"])
    bea = client.post("/api/tables/join", json={"code": t["code"], "name": "Bea"}).json
    clock[0] += 1
    _tap(client, t, -1)
    clock[0] += table.BURST_SECONDS + 0.5  # a pause: a new change
    _tap(client, t, -1)
    clock[0] += 0.3
    _tap(client, t, -1, token=bea["token"])  # another phone: a new change
    clock[0] += 0.3
    _tap(client, t, +1, player=1)  # another player's counter: a new change
    adjusts = [e for e in _log(client, t) if e["type"] == "adjust"]
    assert [len(e.get("seqs", [e["seq"]])) for e in adjusts] == [1, 1, 1, 1]


def test_a_burst_that_grows_after_the_phone_read_the_log_is_sent_whole(app, client):
    clock = _clocked(app)
    t = start(client, "magicka-mayhem", ["Ann", "Bea"])
    clock[0] += 1
    first = _tap(client, t, -1)
    seen = first["version"]
    clock[0] += 0.5
    _tap(client, t, -1)
    later = _log(client, t, after=seen)
    assert len(later) == 1 and later[0]["seqs"] == [seen, seen + 1], "the entry replaces the tap the phone has"
    assert MINUS + "2" in later[0]["text"]


def test_replaying_the_events_gives_the_stored_state_with_its_burst(app, client):
    clock = _clocked(app)
    t = start(client, "magicka-mayhem", ["Ann", "Bea"])
    for _ in range(4):
        clock[0] += 0.5
        _tap(client, t, -1)
    store = app.extensions["spellpress"].store
    assert store.replay(t["id"]) == store.read(t["id"]).state
