"""`spellpress db import` checks the whole file before it writes (issue 32): every problem is
reported with its line, nothing is written unless every table can be, and then all of them are
written in one transaction. Into a real SQLite file and the session's real PostgreSQL."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import tracemalloc

import psycopg
import pytest
from test_companion_api import act, start

from conftest import ROOT
from spellpress import cli


@pytest.fixture(params=["sqlite", "postgresql"])
def target(request, tmp_path):
    return str(tmp_path / "into.db") if request.param == "sqlite" else request.getfixturevalue("pg_database")


def _count(target: str) -> int:
    """The tables in the database (none if its schema was never made)."""
    if target.startswith("postgresql://"):
        with psycopg.connect(target) as conn:
            if conn.execute("SELECT to_regclass('tables')").fetchone()[0] is None:
                return 0
            return conn.execute("SELECT count(*) FROM tables").fetchone()[0]
    with sqlite3.connect(target) as conn:
        if conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'tables'").fetchone() is None:
            return 0
        return conn.execute("SELECT count(*) FROM tables").fetchone()[0]


@pytest.fixture(scope="module")
def exported(tmp_path_factory, cards_dir):
    """One real table, played a little and exported: a line to copy."""
    from companion import create_app

    folder = tmp_path_factory.mktemp("export")
    client = create_app({"TESTING": True, "DATABASE": folder / "from.db", "CARDS": cards_dir}).test_client()
    t = start(client, "powermage-54", ["Ann", "Ben"])
    client.post("/api/tables/join", json={"code": client.get(f"/api/tables/{t['id']}/code",
                                                             headers={"Authorization": f"Bearer {t['token']}"}).json["code"],
                                          "name": "Cy"})
    for delta in (-5, -3, 2):
        assert act(client, t, {"type": "adjust", "player": 1, "counter": "points", "delta": delta}).status_code == 200
    dump = folder / "one.jsonl"
    assert cli.main(["db", "export", str(dump), "--db", str(folder / "from.db")]) == 0
    return json.loads(dump.read_text())


def _copy(packed: dict, n: int) -> dict:
    """The table again, as table `n`: its own id and seats."""
    table_id = f"t{n:05d}"
    return {"table": {**packed["table"], "id": table_id},
            "events": [{**e, "table_id": table_id} for e in packed["events"]],
            "seats": [{**s, "table_id": table_id, "token_hash": hashlib.sha256(f"{n}-{i}".encode()).hexdigest()}
                      for i, s in enumerate(packed["seats"])]}


def _line(packed: dict) -> bytes:
    return json.dumps(packed).encode() + b"\n"


def _import(capsys, dump, target) -> tuple[int, str, str]:
    code = cli.main(["db", "import", str(dump), "--db", target, "--cards", str(ROOT / "cards")])  # whatever the cwd
    out, err = capsys.readouterr()
    return code, out, err


def test_a_duplicate_event_in_table_251_of_260_imports_nothing(exported, tmp_path, target, capsys):
    tables = [_copy(exported, n) for n in range(260)]
    bad = tables[250]
    bad["events"].insert(2, bad["events"][1])
    dump = tmp_path / "tables.jsonl"
    dump.write_bytes(b"".join(map(_line, tables)))
    code, _, err = _import(capsys, dump, target)
    assert code == 1 and "Traceback" not in err, err
    assert f"{dump}:251: its events are numbered 1 to its version (5), each once, in order; they are numbered 1-2, 2-5" in err
    assert "nothing imported (1 problem(s))" in err and _count(target) == 0

    del bad["events"][2]
    dump.write_bytes(b"".join(map(_line, tables)))
    code, out, _ = _import(capsys, dump, target)
    assert code == 0 and "Imported 260 table(s)" in out and _count(target) == 260


def test_every_problem_of_a_hostile_file_is_reported_with_its_line_and_nothing_is_written(exported, tmp_path, target, capsys):
    good = [_copy(exported, n) for n in range(3)]
    state = json.loads(exported["table"]["state"])

    def changed(n: int, part: str, **values) -> bytes:
        packed = _copy(exported, n)
        packed[part] = {**packed[part], **values}
        return _line(packed)

    def event(n: int, index: int, **values) -> bytes:
        packed = _copy(exported, n)
        packed["events"][index] = {**packed["events"][index], **values}
        return _line(packed)

    gap = _copy(exported, 40)
    del gap["events"][3]
    gap["table"]["version"] -= 1
    twin = _copy(exported, 41)
    twin["seats"][1]["token_hash"] = good[0]["seats"][0]["token_hash"]
    player_99 = _copy(exported, 42)
    player_99["seats"][0]["player"] = 99
    lines = [
        *map(_line, good),
        b"[" * 200_000 + b"\n",  # 4
        b'{"table": "caf\xe9"}\n',  # 5: Latin-1, not UTF-8
        changed(10, "table", state=state),  # 6: an object, not JSON text
        _line(_copy(exported, 11)).replace(b'"created": ', b'"created": NaN, "x": ', 1),  # 7
        changed(12, "table", version=2**4000),  # 8
        _line(twin),  # 9
        changed(13, "table", id="nul\x00id"),  # 10
        changed(14, "table", version=exported["table"]["version"] + 1),  # 11
        _line(gap),  # 12
        changed(15, "table", state=json.dumps({**state, "first_player": 1})),  # 13
        changed(16, "table", game="no-such-game"),  # 14
        _line(player_99),  # 15
        event(17, 2, data='{"counter": "points"}'),  # 16: an event the table cannot apply
    ]
    dump = tmp_path / "tables.jsonl"
    dump.write_bytes(b"".join(lines))
    code, _, err = _import(capsys, dump, target)
    assert code == 1 and "Traceback" not in err, err
    said = {int(line.split(":")[1]) for line in err.splitlines() if line.startswith(f"{dump}:")}
    assert said == set(range(4, 17)), err
    for number, words in [(4, "depth limit"), (5, "not valid UTF-8"), (6, "its state is JSON text (a string)"),
                          (7, "not JSON"), (8, "not JSON"), (9, "an earlier seat's"), (10, "the table's id is printable text"),
                          (11, "numbered 1 to its version"), (12, "they are numbered 1-3, 5"), (13, "not what its events fold to"),
                          (14, "not one of this server's games"), (15, "player 99 is not at the table"),
                          (16, "event 3 (adjust) cannot be applied")]:
        assert any(line.startswith(f"{dump}:{number}: ") and words in line for line in err.splitlines()), (number, err)
    assert "nothing imported" in err and _count(target) == 0


def test_a_file_is_read_a_line_at_a_time_not_held(exported, tmp_path, capsys):
    """Some 20 MB of tables: the import's peak of Python memory is a small part of it (it held the
    whole file parsed before, several times its size)."""
    dump = tmp_path / "tables.jsonl"
    with open(dump, "wb") as out:
        for n in range(2000):
            out.write(_line(_copy(exported, n)))
    size = dump.stat().st_size
    tracemalloc.start()
    try:
        code, out_text, _ = _import(capsys, dump, str(tmp_path / "into.db"))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert code == 0 and "Imported 2000 table(s)" in out_text
    assert peak < size / 2, f"{peak / 1e6:.1f} MB at the peak for a file of {size / 1e6:.1f} MB"


def test_standard_input_is_imported_too(exported, tmp_path, monkeypatch, capsys):
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"".join(_line(_copy(exported, n)) for n in range(3)))))
    code, out, _ = _import(capsys, "-", str(tmp_path / "into.db"))
    assert code == 0 and "Imported 3 table(s)" in out
