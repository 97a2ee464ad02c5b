"""Problems found in a game's YAML, and how they are reported to a designer.

Every check in the core appends a `Problem` instead of raising, so that one run reports
every mistake at once, each with its file, line, column and field path.
"""

from __future__ import annotations

import difflib
import functools
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, order=True)
class Problem:
    file: str  # path as shown to the user ('' for problems not tied to a file)
    line: int  # 1-based; 0 when not known
    column: int  # 1-based; 0 when not known
    path: str  # the field's path inside the file, e.g. "spells[3].cost[1]"
    message: str
    excerpt: str = ""  # the line quoted with a caret under the place, when that helps (syntax errors)

    def __str__(self) -> str:
        where = self.file
        if self.line:
            where += f":{self.line}:{self.column}"
        head = f"{where}: " if where else ""
        field = f"{self.path}: " if self.path else ""
        said = f"{head}{field}{self.message}"
        return f"{said}\n{self.excerpt}" if self.excerpt else said


MAX_PROBLEMS = 500  # problems said at once: past them a file is its own mistake, over and over


class ValidationFailed(Exception):
    """Raised once per load when any problem was found; carries them sorted, the first
    MAX_PROBLEMS of them, and how many `more` there were."""

    def __init__(self, problems: Iterable[Problem]):
        found = sorted(set(problems))
        self.problems, self.more = found[:MAX_PROBLEMS], max(0, len(found) - MAX_PROBLEMS)
        super().__init__("\n".join(self.said()))

    def said(self) -> list[str]:
        """Each problem as a line (with its excerpt, if any), then how many more were not said."""
        more = [f"... and {self.more:,} more problem{'s' if self.more != 1 else ''} (the first "
                f"{MAX_PROBLEMS} are said: fix those first)"] if self.more else []
        return [str(p) for p in self.problems] + more


def display_path(path: Path) -> str:
    """A path relative to the working directory when it lies below it, else absolute."""
    return _display(str(path), os.getcwd())


@functools.lru_cache(maxsize=4096)
def _display(path: str, cwd: str) -> str:
    try:
        return os.path.relpath(path) if Path(path).resolve().is_relative_to(Path(cwd)) else path
    except ValueError:
        return path


def format_path(parts: Iterable[object]) -> str:
    """('spells', 3, 'cost', 1) -> 'spells[3].cost[1]'."""
    out = ""
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


def did_you_mean(word: object, choices: Iterable[str]) -> str:
    """' (did you mean 'Fire'?)' when a choice is close to `word`, else ''."""
    choices = list(choices)
    if not isinstance(word, str) or not choices:
        return ""
    lowered = {c.lower(): c for c in choices}
    if word.lower() in lowered:
        return f" (did you mean '{lowered[word.lower()]}'?)"
    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    if not close:
        close = [lowered[c] for c in difflib.get_close_matches(word.lower(), list(lowered), n=1, cutoff=0.6)]
    return f" (did you mean '{close[0]}'?)" if close else ""


def one_of(choices: Iterable[str]) -> str:
    return ", ".join(f"'{c}'" for c in choices)


def describe(value: object) -> str:
    """How a YAML value is named in a message: its kind and, if short, the value itself."""
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return f"the boolean {'true' if value else 'false'}"
    if isinstance(value, int):
        return f"the number {value}"
    if isinstance(value, float):
        return f"the number {value:g}"
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "..."
        return f"the text '{shown}'"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


def quote_hint(value: object) -> str:
    """YAML reads `yes`, `no`, `on` and bare numbers as booleans and numbers, not text."""
    return " (put quotes around it to make it text)" if isinstance(value, (bool, int, float)) else ""
