"""`spellpress db`: create or upgrade the companion's schema, and move tables between stores.

The file is JSON lines: one table a line, packed as the archive packs one (archive.py): its
row, its events and its seats. An SQLite file's tables go into PostgreSQL with
`db export tables.jsonl --db old.db` then `db import tables.jsonl --db postgresql://...`, and
back the same way. Join codes are not moved (any seat asks for a new one); a table already in
the database it is imported into is left as it is there.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from . import settings, store_for
from .archive import COLUMNS
from .store import Store, StoreUnreachable

REQUIRED = {"tables": {"id", "game", "created", "version", "state"}, "events": {"table_id", "seq", "type", "data", "at"},
            "seats": {"token_hash", "table_id", "player", "created"}}


def run(action: str, file: str | None, db: str | None) -> int:
    config = settings({"DATABASE": db} if db else None)
    if action in ("export", "import") and not file:
        print(f"spellpress db {action}: say which file, as in: spellpress db {action} tables.jsonl", file=sys.stderr)
        return 2
    problems: list[str] = []
    tables = _read(file, problems) if action == "import" and file else []
    if problems:
        print("\n".join(problems[:20]), file=sys.stderr)
        print(f"spellpress db import: nothing imported ({len(problems)} problem(s))", file=sys.stderr)
        return 1
    try:
        store = store_for(config, upgrade=action != "upgrade")
    except StoreUnreachable as err:
        print(f"spellpress db {action}: {err}", file=sys.stderr)
        return 1
    try:
        if action == "upgrade":
            return _upgrade(store)
        if action == "export" and file:
            return _export(store, file)
        if action == "import":
            return _import(store, tables)
        raise ValueError(f"no such action: {action!r}")
    finally:
        store.close()


def _upgrade(store: Store) -> int:
    was, now = store.migrate()
    told = (f"created at version {now}" if was == 0 else f"upgraded from version {was} to {now}" if was < now
            else f"at version {now} already")
    print(f"The schema of {store.describe()}: {told}.")
    return 0


def _export(store: Store, file: str) -> int:
    count = 0
    if file == "-":
        for packed in store.export():
            sys.stdout.write(json.dumps(packed, separators=(",", ":")) + "\n")
            count += 1
    else:  # written beside, then moved: a failed export leaves an earlier file as it was
        path = Path(file)
        fd, temp = tempfile.mkstemp(dir=path.parent if str(path.parent) else ".", prefix=path.name, suffix=".part")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                for packed in store.export():
                    out.write(json.dumps(packed, separators=(",", ":")) + "\n")
                    count += 1
            os.chmod(temp, 0o600)  # seats' token hashes: the owner's alone, as the database is
            os.replace(temp, path)
        except BaseException:
            os.unlink(temp)
            raise
    print(f"Exported {count} table(s) from {store.describe()}.", file=sys.stderr if file == "-" else sys.stdout)
    return 0


def _import(store: Store, tables: list[dict[str, Any]]) -> int:
    added, kept = store.import_tables(tables)
    kept_too = f"; {kept} were there already and were left as they are" if kept else ""
    print(f"Imported {added} table(s) into {store.describe()}{kept_too}.")
    return 0


def _read(file: str, problems: list[str]) -> list[dict[str, Any]]:
    """Every table in the file, or the problems found (file, line and what would be right)."""
    tables = []
    for number, line in _lines(file, problems):
        where = f"{file}:{number}"
        try:
            packed = json.loads(line)
        except json.JSONDecodeError as err:
            problems.append(f"{where}: not JSON ({err.msg}); each line is one table, as `spellpress db export` writes it")
            continue
        found = _check(packed)
        problems.extend(f"{where}: {problem}" for problem in found)
        if not found:
            tables.append(packed)
    return tables


def _lines(file: str, problems: list[str]) -> Iterator[tuple[int, str]]:
    try:
        stream = sys.stdin if file == "-" else open(file, encoding="utf-8")
    except OSError as err:
        problems.append(f"{file}: cannot be read ({err.strerror})")
        return
    with stream:
        for number, line in enumerate(stream, 1):
            if line.strip():
                yield number, line


def _check(packed: object) -> list[str]:
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
    if not problems:
        table_id = packed["table"]["id"]
        if any(row["table_id"] != table_id for row in packed["events"] + packed["seats"]):
            problems.append(f"events and seats: each belongs to table {table_id!r}, the line's own")
    return problems
