"""Words built from numbers, written one way everywhere: 1st, 2nd, 3rd, 11th; 1 card, 2 cards.

Rule texts, card texts and rulebook templates reach these as jinja2 filters
(`{{ n | ordinal }}`, `{{ n | plural("card") }}`, `{{ n | part }}`), so no text builds a
suffix by hand and gets 2th or 1 cards.
"""

from __future__ import annotations


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, 101st, 111th."""
    if n % 100 in (11, 12, 13):
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(abs(n) % 10, 'th') }"


def plural(n: int, word: str, many: str | None = None) -> str:
    """'1 card', '2 cards', '0 cards'; `many` for a word whose plural is not word + s.
    In a phrase ('element card') the last word takes the s."""
    if n == 1:
        return f"{n} {word}"
    if many is None:
        many = word + ("es" if word.endswith(("s", "sh", "ch", "x")) else "s")
    return f"{n} {many}"


def part(n: int) -> str:
    """The share one of `n` equal parts is, as a sentence says it: half, a third, a quarter, 1/5."""
    return {1: "all", 2: "half", 3: "a third", 4: "a quarter"}.get(n, f"1/{n}")


FILTERS = {"ordinal": ordinal, "plural": plural, "part": part}
