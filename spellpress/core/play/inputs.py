"""Checks for what a phone sends: each returns the value it accepts, or raises `Invalid` with a
reason a player can read."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Hashable, Mapping, Sequence
from typing import Any, TypeVar

from .errors import Invalid

NAME_MAX = 24  # characters in a name typed on a phone: it has to fit on a phone's row
MAX_AMOUNT = 100  # damage, healing or a stat typed on a phone: more is taken for a typo

_MARKUP = re.compile(r"<\s*[a-zA-Z/!?]|&#?[a-zA-Z0-9]+;")
# Characters that are printable yet show nothing: Hangul fillers, the blank Braille pattern, the
# combining grapheme joiner, Khmer's inherent vowels, variation selectors. A name holding one
# could pass for a blank or for another player's name.
_BLANK = re.compile("[\u115f\u1160\u3164\uffa0\u2800\u034f\u17b4\u17b5\u180b-\u180f\ufe00-\ufe0f\U000e0100-\U000e01ef]")
# Cyrillic and Greek letters drawn as a Latin one: two names that differ only by these look the same.
_LOOK_ALIKES = str.maketrans(
    "\u0410\u0412\u0415\u0405\u0406\u0408\u041a\u041c\u041d\u041e\u0420\u0421\u0422\u0423\u0425\u04ae\u051a\u051c\u04c0"
    "\u0430\u0435\u0455\u0456\u0458\u043e\u0440\u0441\u0443\u0445\u04bb\u0501\u051b\u051d\u04cf\u04af"
    "\u0391\u0392\u0395\u0396\u0397\u0399\u039a\u039c\u039d\u039f\u03a1\u03a4\u03a5\u03a7"
    "\u03bf\u03bd\u03b9\u03b1\u03c1\u03c5\u03ba",
    "ABESIJKMHOPCTYXYQWI"
    "aesijopcyxhdqwly"
    "ABEZHIKMNOPTYX"
    "oviapuk",
)

T = TypeVar("T")


def whole(value: Any, what: str, low: int | None = None, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise Invalid(f"{what} must be a whole number"[:200])
    if low is not None and value < low or high is not None and value > high:
        span = f"{low} to {high}" if high is not None else f"at least {low}"
        raise Invalid(f"{what} must be {span}; got {value}")
    return value


def flag(value: Any, what: str, default: bool = False) -> bool:
    if value is None:
        return default
    if not isinstance(value, bool):
        raise Invalid(f"{what} must be yes or no"[:200])
    return value


def choice(value: Any, what: str, allowed: Sequence[T] | Mapping[T, Any]) -> T:
    known = isinstance(value, Hashable) and value in allowed  # a list or a mapping sent is no key of a mapping
    if not known:
        raise Invalid(f"{what} must be one of {', '.join(map(str, allowed))}"[:300])
    chosen: T = value
    return chosen


def label(value: Any, what: str = "a name") -> str:
    """A short name typed on a phone (a player's, a creature's): normalised (NFKC: a full-width
    or ligature letter becomes the plain one), its spaces tidied; markup, control characters and
    characters that show nothing are refused, so no phone can show another one HTML or a blank."""
    if not isinstance(value, str):
        raise Invalid(f"{what} must be text")
    text = " ".join(unicodedata.normalize("NFKC", value).split())
    if not text:
        raise Invalid(f"{what} cannot be empty")
    if any(not ch.isprintable() for ch in text):
        raise Invalid(f"{what} cannot hold control characters")
    blank = _BLANK.search(text)
    if blank or not any(unicodedata.category(ch)[0] in "LNPS" for ch in text):
        shown = f" (U+{ord(blank.group()):04X})" if blank else ""
        raise Invalid(f"{what} cannot be seen: it holds a character that shows as nothing{shown}; type letters")
    if _MARKUP.search(text):
        raise Invalid(f"{what} cannot hold markup such as <b> or &amp;")
    if len(text) > NAME_MAX:
        raise Invalid(f"{what} has at most {NAME_MAX} characters; '{text[:NAME_MAX]}…' is longer")
    return text


def look_alike(name: str) -> str:
    """What a name looks like, to compare names by: normalised, its Cyrillic and Greek letters that
    are drawn as Latin ones made Latin, its case folded ("\u0410nn" in Cyrillic looks like "ann")."""
    return unicodedata.normalize("NFKC", name).translate(_LOOK_ALIKES).casefold()


C = TypeVar("C", bound=Mapping[str, Any])


def card_of(cards: Sequence[C], value: Any, what: str) -> C:
    """The card of `cards` (as a game's rules copy them: each with its "id") that `value` names."""
    for card in cards:
        if card["id"] == value:
            return card
    names = ", ".join(str(c.get("name", c["id"])) for c in cards) or "none"
    raise Invalid(f"there is no such {what}; the choices are: {names}"[:300])
