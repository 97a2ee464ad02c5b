"""A file of tables for `spellpress db import`, read a line at a time and checked whole before
anything is written (transfer.py).

Each line is one table as `db export` writes it (archive.py packs it). A line is read up to
MAX_LINE bytes, parsed by orjson (strict UTF-8 and JSON: no NaN, no number past a double, at most
1,024 levels deep), and checked as the server would need it: every column of a known kind and
in range, its events numbered 1 to its version with none missing or twice, their fold its stored
state, its game one of this server's, each seat a player of the table's, no id or seat twice in
the file. The file is read twice: once to check it, once to write it (in one transaction), and
the second reading must find the same bytes (`Lines.digest`), so nothing but a line is ever held.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Collection, Iterator
from pathlib import Path
from typing import Any

import orjson

from spellpress.core import table
from spellpress.core.table import Event

from .archive import COLUMNS
from .jsontext import json_text

MAX_LINE = 64 * 1024 * 1024  # bytes of one table's line (a table of some 200,000 events)
PROBLEMS_PER_TABLE = 10  # past these, a table's line is said to have more
NUMBER_MAX = 2**53  # a version, seq or player: JSON's numbers hold it exactly
TIME_MAX = 1e11  # seconds since 1970: some 3,000 years ahead
TEXT_MAX = 64  # characters of an event's type, a request id or a table's id
SEAT_HASH = re.compile(r"[0-9a-f]{64}")
REQUIRED = {"tables": {"id", "game", "created", "version", "state"}, "events": {"table_id", "seq", "type", "data", "at"},
            "seats": {"token_hash", "table_id", "player", "created"}}


class Lines:
    """The file's lines that hold something, as (number, bytes), or (number, None) for a line
    longer than MAX_LINE (skipped unread); `digest` is the hash of every byte read so far."""

    def __init__(self, path: Path):
        self.path = path
        self.digest = hashlib.sha256()

    def __iter__(self) -> Iterator[tuple[int, bytes | None]]:
        with open(self.path, "rb") as stream:
            number = 0
            while line := stream.readline(MAX_LINE + 1):
                number += 1
                self.digest.update(line)
                if len(line) > MAX_LINE and not line.endswith(b"\n"):
                    while line and not line.endswith(b"\n"):
                        line = stream.readline(1 << 20)
                        self.digest.update(line)
                    yield number, None
                elif line.strip():
                    yield number, line


def parse(line: bytes | None) -> tuple[Any, str | None]:
    """The line's JSON, or why it is none."""
    if line is None:
        return None, f"longer than {MAX_LINE // (1024 * 1024)} MiB; no table is"
    try:
        return orjson.loads(line), None
    except orjson.JSONDecodeError as err:
        return None, f"not JSON ({err}); each line is one table, as `spellpress db export` writes it"


class Checker:
    """Checks the file's tables one by one, remembering the ids and seats seen in it so far."""

    def __init__(self, games: Collection[str]):
        self.games = games
        self.ids: set[str] = set()
        self.seats: set[str] = set()

    def check(self, packed: object) -> list[str]:
        """The problems of one table's line; [] if it can be imported as it is."""
        problems = _shape(packed)
        if problems:
            return problems
        assert isinstance(packed, dict)
        row, events, seats = packed["table"], packed["events"], packed["seats"]
        problems += _row(row, self.games)
        table_id = row["id"]
        if isinstance(table_id, str):
            if table_id in self.ids:
                problems.append(f"table {table_id!r} is on an earlier line too")
            self.ids.add(table_id)
        for i, one in enumerate(events):
            problems += [f"event {i + 1}: {p}" for p in _event(one, table_id)]
        for i, one in enumerate(seats):
            found = _seat(one, table_id)
            if not found and one["token_hash"] in self.seats:
                found = ["its token_hash is an earlier seat's"]
            self.seats.add(str(one["token_hash"]))
            problems += [f"seat {i + 1}: {p}" for p in found]
        if not problems:
            problems += _history(row, events, seats)
        if len(problems) > PROBLEMS_PER_TABLE:
            problems[PROBLEMS_PER_TABLE:] = [f"and {len(problems) - PROBLEMS_PER_TABLE} more problem(s) in this table"]
        return problems


def _shape(packed: object) -> list[str]:
    if not isinstance(packed, dict) or set(packed) != {"table", "events", "seats"}:
        return ['a table is an object with "table", "events" and "seats", as `spellpress db export` writes it']
    rows = {"tables": [packed["table"]], "events": packed["events"], "seats": packed["seats"]}
    problems = []
    for kind, found in rows.items():
        if not isinstance(found, list) or not all(isinstance(row, dict) for row in found):
            problems.append(f"{kind}: a list of objects")
            continue
        for row in found:
            missing, unknown = REQUIRED[kind] - set(row), set(row) - COLUMNS[kind]
            if missing or unknown:
                problems.append(f"{kind}: " + "; ".join(
                    part for part in (f"missing {', '.join(sorted(missing))}" if missing else "",
                                      f"no column {', '.join(sorted(unknown))}" if unknown else "") if part)
                    + f" (the columns are {', '.join(sorted(COLUMNS[kind]))})")
                break
    return problems


def _text(value: object, what: str, most: int = TEXT_MAX, optional: bool = False) -> list[str]:
    if value is None and optional:
        return []
    if not isinstance(value, str) or not 0 < len(value) <= most or not value.isprintable():
        return [f"{what} is printable text of 1 to {most} characters; got {_shown(value)}"]
    return []


def _whole(value: object, what: str, low: int = 0, optional: bool = False) -> list[str]:
    if value is None and optional:
        return []
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= NUMBER_MAX:
        return [f"{what} is a whole number from {low} to {NUMBER_MAX}; got {_shown(value)}"]
    return []


def _time(value: object, what: str, optional: bool = False) -> list[str]:
    if value is None and optional:
        return []
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not (math.isfinite(value) and 0 <= value <= TIME_MAX):
        return [f"{what} is a time in seconds since 1970 (0 to {TIME_MAX:.0e}); got {_shown(value)}"]
    return []


def _json_text(value: object, what: str) -> list[str]:
    """A column that holds JSON text of an object (a state, an event's data)."""
    if not isinstance(value, str):
        return [f"{what} is JSON text (a string), as the database holds it; got {type(value).__name__}"]
    try:
        parsed = orjson.loads(value)
    except orjson.JSONDecodeError as err:
        return [f"{what} is not JSON text ({err})"]
    return [] if isinstance(parsed, dict) else [f"{what} is the JSON text of an object"]


def _shown(value: object) -> str:
    return repr(value)[:40]


def _row(row: dict[str, Any], games: Collection[str]) -> list[str]:
    problems = [*_text(row["id"], "the table's id"), *_text(row["game"], "its game"), *_time(row["created"], "created"),
                *_whole(row["version"], "its version", 1), *_json_text(row["state"], "its state"),
                *_time(row.get("active"), "active", optional=True)]
    if isinstance(row["game"], str) and row["game"].isprintable() and row["game"] not in games:
        problems.append(f"its game {row['game']!r} is not one of this server's games ({', '.join(sorted(games)) or 'none'}); "
                        "say where its cards are with --cards")
    return problems


def _event(row: dict[str, Any], table_id: object) -> list[str]:
    return [*([] if row["table_id"] == table_id else [f"belongs to table {table_id!r}, the line's own"]),
            *_whole(row["seq"], "seq", 1), *_text(row["type"], "type"), *_json_text(row["data"], "data"),
            *_whole(row.get("by_player"), "by_player", optional=True), *_time(row["at"], "at"),
            *_text(row.get("request_id"), "request_id", optional=True),
            *([] if row.get("seat") is None or SEAT_HASH.fullmatch(str(row["seat"])) else ["seat is a token's hash (64 hex digits)"])]


def _seat(row: dict[str, Any], table_id: object) -> list[str]:
    return [*([] if row["table_id"] == table_id else [f"belongs to table {table_id!r}, the line's own"]),
            *([] if isinstance(row["token_hash"], str) and SEAT_HASH.fullmatch(row["token_hash"])
              else ["token_hash is a token's hash (64 hex digits)"]),
            *_whole(row["player"], "player"), *_time(row["created"], "created")]


def _history(row: dict[str, Any], rows: list[dict[str, Any]], seats: list[dict[str, Any]]) -> list[str]:
    """Whether the events are numbered 1 to the version and fold to the stored state, and each
    seat is a player of the table's."""
    seqs = [one["seq"] for one in rows]
    if seqs != list(range(1, len(seqs) + 1)) or len(seqs) != row["version"]:
        return [f"its events are numbered 1 to its version ({row['version']}), each once, in order; "
                f"they are numbered {_runs(seqs)}"]
    events = [Event(one["seq"], one["type"], orjson.loads(one["data"]), one.get("by_player"), one["at"]) for one in rows]
    if events[0].type != "create":
        return ["its first event is its 'create'"]
    state: table.Table | None = None
    try:
        skip = table.undone(events)
    except Exception as err:  # noqa: BLE001 - hostile data may fail any way: said, not raised
        return [f"an undo among its events cannot be read ({type(err).__name__})"]
    for one in events:
        if one.type == "undo" or one.seq in skip:
            continue
        try:
            state = table.evolve(state, one)
        except Exception as err:  # noqa: BLE001 - as above
            return [f"event {one.seq} ({one.type[:20]}) cannot be applied to the table before it ({type(err).__name__}: {str(err)[:80]})"]
    if state is None or orjson.loads(json_text(state)) != orjson.loads(row["state"]):
        return ["its state is not what its events fold to; export the table again"]
    if state["game"] != row["game"]:
        return [f"its events are a table of {state['game']!r}, not of {row['game']!r}"]
    players = len(state["players"])
    return [f"seat {i + 1}: player {one['player']} is not at the table (it has players 0 to {players - 1})"
            for i, one in enumerate(seats) if one["player"] >= players]


def _runs(seqs: list[int]) -> str:
    """'1-40, 42, 42-50': how events are numbered, for a problem's line."""
    runs: list[list[int]] = []
    for seq in seqs:
        if runs and seq == runs[-1][1] + 1:
            runs[-1][1] = seq
        else:
            runs.append([seq, seq])
    shown = ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in runs[:6])
    return shown + (", ..." if len(runs) > 6 else "") if runs else "none"
