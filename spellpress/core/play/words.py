"""The words of the table's log: lists, plurals and signed numbers written one way everywhere."""

from __future__ import annotations

import re


def and_(words: list[str]) -> str:
    if not words:
        return ""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word if n == 1 else many or word + 's'}"


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"\N{MINUS SIGN}{-n}"


ARROW = "\N{RIGHTWARDS ARROW}"


def plain_text(text: str, elements: list[str]) -> str:
    """Card text for a phone: inline icons such as `{fire}` become the element's name."""
    known = {e.lower(): e for e in elements}
    return re.sub(r"\{([a-z]+)\}", lambda m: known.get(m.group(1), m.group(0)), " ".join(str(text).split()))
