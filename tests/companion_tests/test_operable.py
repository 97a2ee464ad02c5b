"""Running the companion for many tables: `spellpress db upgrade/export/import`, the health
check a load balancer asks, the request log, and what a phone is told when PostgreSQL fails."""

from __future__ import annotations

import json

import psycopg
from test_companion_api import act, start

from conftest import ROOT
from spellpress import cli


def _db(capsys, *args: str) -> tuple[int, str, str]:
    code = cli.main(["db", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_db_upgrade_creates_then_finds_the_schema_up_to_date(tmp_path, pg_database, capsys):
    for target in (str(tmp_path / "new.db"), pg_database):
        code, out, _ = _db(capsys, "upgrade", "--db", target)
        assert code == 0 and "created at version 2" in out
        code, out, _ = _db(capsys, "upgrade", "--db", target)
        assert code == 0 and "at version 2 already" in out
    assert "postgres@" not in out, "the address is described, never printed whole"


def test_tables_move_from_sqlite_to_postgresql_through_a_file(make_app, tmp_path, pg_database, capsys):
    client = make_app().test_client()
    t = start(client, "powermage-54", ["Ann", "Ben"])
    for delta in (-5, -3):
        assert act(client, t, {"type": "adjust", "player": 1, "counter": "points", "delta": delta}).status_code == 200
    before = client.get(f"/api/tables/{t['id']}").json
    dump = tmp_path / "tables.jsonl"
    code, out, _ = _db(capsys, "export", str(dump), "--db", str(tmp_path / "companion.db"))
    assert code == 0 and "Exported 1 table(s)" in out and len(dump.read_text().splitlines()) == 1
    code, out, _ = _db(capsys, "import", str(dump), "--db", pg_database, "--cards", str(ROOT / "cards"))
    assert code == 0 and "Imported 1 table(s)" in out

    on_pg = make_app(DATABASE=pg_database).test_client()
    assert on_pg.get(f"/api/tables/{t['id']}").json == before
    assert act(on_pg, t, {"type": "adjust", "player": 1, "counter": "points", "delta": -1}).json["version"] == 4


def test_a_broken_import_file_is_refused_whole_with_its_lines_named(tmp_path, pg_database, capsys):
    good = {"table": {"id": "x", "game": "powermage-54", "created": 1.0, "version": 0, "state": "{}"}, "events": [], "seats": []}
    bad = {**good, "table": {**good["table"], "id": "y", "colour": "red"}}
    dump = tmp_path / "tables.jsonl"
    dump.write_text(json.dumps(good) + "\n{not json\n" + json.dumps(bad) + "\n")
    code, _, err = _db(capsys, "import", str(dump), "--db", pg_database, "--cards", str(ROOT / "cards"))
    assert code == 1 and "nothing imported" in err
    assert f"{dump}:2: not JSON" in err and f"{dump}:3: tables: no column colour" in err
    with psycopg.connect(pg_database) as conn:  # the file is read whole before the database is touched
        assert conn.execute("SELECT to_regclass('tables')").fetchone()[0] is None


def test_health_answers_200_while_the_store_answers_and_503_when_it_does_not(make_app, pg_database, postgres, capsys):
    assert make_app().test_client().get("/healthz").json == {"ok": True, "store": "sqlite"}
    app = make_app(DATABASE=pg_database)
    client = app.test_client()
    assert client.get("/healthz").status_code == 200
    t = start(client, "powermage-54", ["Ann", "Ben"])
    postgres.drop_database(pg_database.rsplit("/", 1)[1])  # the database gone, its connections cut
    down = client.get("/healthz")
    assert down.status_code == 503 and down.json["ok"] is False
    failed = act(client, t, {"type": "adjust", "player": 0, "counter": "points", "delta": -1})
    assert failed.status_code == 503 and failed.json == {"error": "the tables' database is not answering; try again in a moment"}
    assert "Retry-After" in failed.headers
    logged = capsys.readouterr().err
    assert "postgresql://" not in logged and "Traceback" not in logged
    app.extensions["spellpress"].store.close()


def test_each_request_is_one_json_line_with_its_route_and_latency_and_no_ids(make_app, capsys, monkeypatch):
    monkeypatch.setenv("SPELLPRESS_REQUEST_LOG", "1")
    client = make_app().test_client()
    t = start(client, "powermage-54", ["Ann", "Ben"])
    act(client, t, {"type": "adjust", "player": 0, "counter": "points", "delta": -1})
    client.get("/healthz")
    lines = [json.loads(line) for line in capsys.readouterr().err.splitlines() if line.startswith("{")]
    assert [(line["method"], line["route"], line["status"]) for line in lines] == [
        ("POST", "/api/tables", 201), ("POST", "/api/tables/<table_id>/actions", 200)]
    assert all(line["ms"] >= 0 for line in lines)
    text = json.dumps(lines)
    assert t["id"] not in text and t["code"] not in text and t["token"] not in text
