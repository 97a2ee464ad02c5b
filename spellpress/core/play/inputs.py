"""Checks for what a phone sends: each returns the value it accepts, or raises `Invalid` with a
reason a player can read."""

from __future__ import annotations

import re
from collections.abc import Hashable, Mapping, Sequence
from typing import Any, TypeVar

from .errors import Invalid

NAME_MAX = 24  # characters in a name typed on a phone: it has to fit on a phone's row
MAX_AMOUNT = 100  # damage, healing or a stat typed on a phone: more is taken for a typo

_MARKUP = re.compile(r"<\s*[a-zA-Z/!?]|&#?[a-zA-Z0-9]+;")

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
    """A short name typed on a phone (a player's, a creature's): its spaces tidied; markup and
    control characters are refused, so no phone can show another one HTML."""
    if not isinstance(value, str):
        raise Invalid(f"{what} must be text")
    text = " ".join(value.split())
    if not text:
        raise Invalid(f"{what} cannot be empty")
    if any(not ch.isprintable() for ch in text):
        raise Invalid(f"{what} cannot hold control characters")
    if _MARKUP.search(text):
        raise Invalid(f"{what} cannot hold markup such as <b> or &amp;")
    if len(text) > NAME_MAX:
        raise Invalid(f"{what} has at most {NAME_MAX} characters; '{text[:NAME_MAX]}…' is longer")
    return text


C = TypeVar("C", bound=Mapping[str, Any])


def card_of(cards: Sequence[C], value: Any, what: str) -> C:
    """The card of `cards` (as a game's rules copy them: each with its "id") that `value` names."""
    for card in cards:
        if card["id"] == value:
            return card
    names = ", ".join(str(c.get("name", c["id"])) for c in cards) or "none"
    raise Invalid(f"there is no such {what}; the choices are: {names}"[:300])
