"""`spellpress db`: create or upgrade the companion's schema, and move tables between stores.

The file is JSON lines: one table a line, packed as the archive packs one (archive.py): its
row, its events and its seats. An SQLite file's tables go into PostgreSQL with
`db export tables.jsonl --db old.db` then `db import tables.jsonl --db postgresql://...`, and
back the same way. Join codes are not moved (any seat asks for a new one); a table already in
the database it is imported into is left as it is there. An import reads the file twice: once
to check every table (importfile.py), reporting every problem with its line, then, if there is
none, to write them all in one transaction: all of the file or nothing of it.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from spellpress.core import ValidationFailed, load_games

from . import settings, store_for
from .archive import Refused
from .importfile import Checker, Lines, parse
from .store import Store, StoreUnreachable

PROBLEMS_SHOWN = 200  # problem lines printed; past them, how many more


def run(action: str, file: str | None, db: str | None, cards: str | None = None) -> int:
    config = settings({key: value for key, value in (("DATABASE", db), ("CARDS", cards)) if value})
    if action in ("export", "import") and not file:
        print(f"spellpress db {action}: say which file, as in: spellpress db {action} tables.jsonl", file=sys.stderr)
        return 2
    if action == "import" and file:
        with _readable(file) as path:
            return _import(config, file, path)
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


def _import(config: dict[str, Any], file: str, path: Path) -> int:
    """Check the whole file, then write every table in one transaction: all or nothing."""
    try:
        games = {game.slug for game in load_games(Path(config["CARDS"]))}
    except ValidationFailed as err:
        print(f"spellpress db import: the games in {config['CARDS']} cannot be loaded ({len(err.problems)} problem(s)); "
              "say where they are with --cards; nothing imported", file=sys.stderr)
        return 1
    lines = Lines(path)
    checker, problems = Checker(games), 0
    shown: list[str] = []
    for number, line in lines:
        packed, unreadable = parse(line)
        found = [unreadable] if unreadable else checker.check(packed)
        problems += len(found)
        shown += [f"{file}:{number}: {problem}" for problem in found][:PROBLEMS_SHOWN - len(shown)]
    if problems:
        more = f"\n... and {problems - len(shown)} more" if problems > len(shown) else ""
        print("\n".join(shown) + more, file=sys.stderr)
        print(f"spellpress db import: nothing imported ({problems} problem(s))", file=sys.stderr)
        return 1
    try:
        store = store_for(config)
    except StoreUnreachable as err:
        print(f"spellpress db import: {err}", file=sys.stderr)
        return 1
    try:
        added, kept = store.import_tables(_tables(path, lines.digest.digest()))
    except Exception as err:
        if not isinstance(err, (Refused, *store.errors)):
            raise
        reason = str(err) if isinstance(err, Refused) else f"the database refused it ({type(err).__name__})"
        print(f"spellpress db import: {reason}; nothing imported", file=sys.stderr)
        return 1
    finally:
        store.close()
    kept_too = f"; {kept} were there already and were left as they are" if kept else ""
    print(f"Imported {added} table(s) into {store.describe()}{kept_too}.")
    return 0


def _tables(path: Path, checked: bytes) -> Iterator[dict[str, Any]]:
    """The file's tables, read again to be written; the file must be as it was when checked
    (else Refused, and the transaction that writes them is rolled back)."""
    lines = Lines(path)
    for _, line in lines:
        packed, _ = parse(line)
        yield packed
    if lines.digest.digest() != checked:
        raise Refused("the file changed while it was being imported")


@contextmanager
def _readable(file: str) -> Iterator[Path]:
    """The file to read twice: standard input is copied to a private file first."""
    if file != "-":
        yield Path(file)
        return
    with tempfile.NamedTemporaryFile(prefix="spellpress-import-") as copy:  # 0600, and gone afterwards
        shutil.copyfileobj(sys.stdin.buffer, copy)
        copy.flush()
        yield Path(copy.name)
