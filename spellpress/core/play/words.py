"""Words written one way everywhere: lists, plurals, ordinals and signed numbers, in the table's
log and (as jinja2 filters, `{{ n | ordinal }}`, `{{ n | plural("card") }}`, `{{ n | part }}`)
in every rule text, card text and rulebook template, so that no text builds a suffix by hand
and gets '2th' or '1 cards'."""

from __future__ import annotations

import re


def and_(words: list[str]) -> str:
    if not words:
        return ""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def plural(n: int, word: str, many: str | None = None) -> str:
    """'1 card', '2 cards', '0 cards'; `many` for a word whose plural is not word + s. In a
    phrase ('element card') the last word takes the s."""
    return f"{n} {word if n == 1 else many or word + 's'}"


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, 101st, 111th."""
    if n % 100 in (11, 12, 13):
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"


def part(n: int) -> str:
    """The share one of `n` equal parts is, as a sentence says it: half, a third, a quarter, 1/5."""
    return {1: "all", 2: "half", 3: "a third", 4: "a quarter"}.get(n, f"1/{n}")


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"\N{MINUS SIGN}{-n}"


ARROW = "\N{RIGHTWARDS ARROW}"
FILTERS = {"ordinal": ordinal, "plural": plural, "part": part}  # for texts and templates (core/ruletext.py)


def plain_text(text: str, elements: list[str]) -> str:
    """Card text for a phone: inline icons such as `{fire}` become the element's name."""
    known = {e.lower(): e for e in elements}
    return re.sub(r"\{([a-z]+)\}", lambda m: known.get(m.group(1), m.group(0)), " ".join(str(text).split()))
