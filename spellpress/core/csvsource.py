"""A deck as a spreadsheet: `<deck id>.csv`, one card a row, one field a column.

The first row names the columns: the card keys (`id`, `name`, `count`, `type`, `art`, ...) and
the card type's fields. A cell is text; it becomes what the field holds: a whole number for an
`int` field and for `count`, true or false for a `flag`, a list split at `;` for `elements`.
An empty cell leaves the field out. The rows are read into the same values, with the same
positions (the row's line, the cell's column), as a YAML card file gives, so every check and
every message is the card files' own. `spellpress export csv` writes them (`rows` and `write`, called by cli.py).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable, Mapping
from pathlib import Path

from .problems import Problem, display_path
from .yamlsource import Document, Loc, card_file, utf8

LIST_SEPARATOR = ";"
LIST_FIELDS = ("elements",)  # field types whose value is a list
_WHOLE = re.compile(r"^[+-]?\d+$")
_TRUE, _FALSE = ("true", "yes"), ("false", "no")
# A cell a spreadsheet would run, or one already kept from running by quotes: such a cell is
# written after one more quote, and read with one quote less (see _inert).
_GUARDED = re.compile(r"'*[=+\-@\t\r]")
# Work bounds: 4 MB of short rows is a million cards, and each costs its checks.
MAX_ROWS = 10_000  # a deck's rows, blank ones too (MAX_CARDS in loader.py: a game's cards in all)
MAX_COLUMNS = 100  # a card type has a dozen fields at most

# What a card's column holds, by card type ('' for a column no type of the deck knows): the
# field's type ('int', 'elements', 'flag', ...), or 'count' / 'text' for the card keys.
Kinds = Callable[[str | None, str], str]


def read(path: Path, kinds: Kinds) -> tuple[Document | None, list[Problem]]:
    """The deck in `path` as {deck id: [card, ...]}, or no document and why not."""
    shown = display_path(path)

    def fail(message: str, line: int = 0, column: int = 0) -> tuple[None, list[Problem]]:
        return None, [Problem(shown, line, column, "", message)]

    raw, problems = card_file(path, shown)
    if raw is None:
        return None, problems
    text, problems = utf8(raw, shown, "as 'CSV UTF-8' from the spreadsheet")
    if text is None:
        return None, problems
    lines = text.splitlines()
    deck = path.stem
    doc = Document(path, None, lines=lines)
    doc.value_at[(deck,)] = (1, 1)
    doc.key_at[(deck,)] = (1, 1)
    rows = csv.reader(io.StringIO(text, newline=""), strict=True)
    try:
        header = next(rows, None)
    except csv.Error as exc:
        return fail(f"the first row cannot be read as CSV: {exc}", 1, 1)
    if not header or not any(h.strip() for h in header):
        return fail("the first row must name the columns: id, name, count and the card's fields", 1, 1)
    if len(header) > MAX_COLUMNS:
        return fail(f"the first row names {len(header):,} columns; a spreadsheet may have at most {MAX_COLUMNS}: "
                    "the card keys and the card type's fields", 1, 1)
    names = [h.strip() for h in header]
    problems = _header_problems(doc, names)
    if problems:
        return None, problems
    header_columns = _columns(lines[0], len(names))
    cards: list[dict[str, object]] = []
    start, read = 2, 0
    while True:
        try:
            cells = next(rows)
        except StopIteration:
            break
        except csv.Error as exc:
            return fail(f"this row cannot be read as CSV: {exc}; a cell holding a comma, a quote or a line "
                        "break must be in double quotes, with a quote inside written twice", start, 1)
        line, start, read = start, rows.line_num + 1, read + 1
        if read > MAX_ROWS:
            problems.append(Problem(shown, line, 1, "", f"a spreadsheet may hold at most {MAX_ROWS:,} rows below the "
                                    "first, one card a row: the rows from here on are not read (a deck needs far fewer: "
                                    "give a card a count rather than repeat its row)"))
            break
        if not any(c.strip() for c in cells):
            continue  # a blank row, as spreadsheets leave at the end
        loc: Loc = (deck, len(cards))
        if len(cells) > len(names):
            problems.append(Problem(shown, line, 1, "", f"this row has {len(cells)} cells, the first row names "
                                    f"{len(names)} columns; name the extra column or remove its cells"))
            continue
        columns = _columns(lines[line - 1] if line <= len(lines) else "", len(cells))
        doc.value_at[loc] = (line, 1)
        card = _card(dict(zip(names, cells)), kinds)
        for i, name in enumerate(names[: len(cells)]):
            if name in card:
                doc.value_at[loc + (name,)] = (line, columns[i])
                doc.key_at[loc + (name,)] = (1, header_columns[i])
                value = card[name]
                if isinstance(value, list):
                    for k in range(len(value)):
                        doc.value_at[loc + (name, k)] = (line, columns[i])
        cards.append(card)
    if problems:
        return None, problems
    doc.data = {deck: cards}
    return doc, []


def _header_problems(doc: Document, names: list[str]) -> list[Problem]:
    problems = []
    columns = _columns(doc.lines[0] if doc.lines else "", len(names))
    seen: set[str] = set()
    for i, name in enumerate(names):
        if not name:
            problems.append(Problem(doc.shown, 1, columns[i], "", f"column {i + 1} has no name in the first row"))
        elif name in seen:
            problems.append(Problem(doc.shown, 1, columns[i], "", f"column '{name}' is named twice in the first row"))
        seen.add(name)
    return problems


def _card(cells: Mapping[str, str], kinds: Kinds) -> dict[str, object]:
    """A row as the values a YAML card would hold."""
    type_id = cells.get("type", "").strip() or None
    card: dict[str, object] = {}
    for name, cell in cells.items():
        if not cell.strip():
            continue
        card[name] = _value(cell, kinds(type_id, name))
    return card


def _value(cell: str, kind: str) -> object:
    """A cell as its field's value; one that does not fit stays text, for the checks to name."""
    if cell[:1] == "'" and _GUARDED.match(cell):
        cell = cell[1:]  # kept from being a formula when exported (see _inert)
    bare = cell.strip()
    if kind in ("int", "count") and _WHOLE.match(bare):
        return int(bare)
    if kind == "flag" and bare.lower() in _TRUE + _FALSE:
        return bare.lower() in _TRUE
    if kind in LIST_FIELDS:
        return [item.strip() for item in bare.split(LIST_SEPARATOR) if item.strip()]
    if kind in ("text", "line"):
        return cell  # as written: rules text may end in a line break, as a YAML block keeps it
    return bare


def _columns(line: str, count: int) -> list[int]:
    """The 1-based column where each of the first `count` cells of `line` starts."""
    starts, quoted, at = [1], False, 0
    while at < len(line) and len(starts) < count:
        char = line[at]
        if char == '"':
            quoted = not quoted
        elif char == "," and not quoted:
            starts.append(at + 2)
        at += 1
    return starts + [starts[-1]] * (count - len(starts))


class Unwritable(ValueError):
    """A card value a spreadsheet cell cannot hold so that it reads back the same."""


def rows(cards: list[dict[str, object]], where: str) -> list[list[str]]:
    """A deck's cards (as their card files hold them) as CSV rows, the column names first:
    id, name, type, count, then every other key in the order the cards first use it."""
    names = [k for k in ("id", "name", "type", "count") if any(k in c for c in cards)]
    for card in cards:
        names += [k for k in card if k not in names]
    out = [names]
    for card in cards:
        out.append([_cell(card[k], f"{where}, card '{card.get('id')}', {k}") if k in card else "" for k in names])
    return out


def _cell(value: object, where: str) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        if not value.strip():
            raise Unwritable(f"{where}: an empty text reads back as no value")
        return _inert(value)
    if isinstance(value, list) and all(isinstance(v, (str, int)) and not isinstance(v, bool) for v in value):
        items = [str(v) for v in value]
        if any(LIST_SEPARATOR in item or not item.strip() for item in items):
            raise Unwritable(f"{where}: a list item holds '{LIST_SEPARATOR}' or nothing, which a cell cannot keep apart")
        if not items:
            raise Unwritable(f"{where}: an empty list reads back as no value")
        return _inert(LIST_SEPARATOR.join(items))
    raise Unwritable(f"{where}: a {type(value).__name__} does not fit in a spreadsheet cell")


def _inert(text: str) -> str:
    """A spreadsheet runs a cell that starts like a formula: a card file from a stranger must not
    run anything on the designer's machine, so such text is written after a quote. Text that
    starts with quotes before a formula's character gets one more, as reading takes one away."""
    return "'" + text if _GUARDED.match(text) else text


def write(path: Path, table: list[list[str]]) -> None:
    """The rows as CSV, UTF-8 with the mark spreadsheets look for, written whole or not at all."""
    buffer = io.StringIO(newline="")
    csv.writer(buffer, lineterminator="\r\n").writerows(table)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    partial.write_text(buffer.getvalue(), encoding="utf-8-sig", newline="")
    partial.replace(path)
