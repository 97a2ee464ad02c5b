"""What a rule helper is made of: its inputs, described for a phone and checked, and its answer.

A helper answers one question the players argue about ("can I cast it?"). It declares its
inputs as fields, built from the game's YAML (a spell is one of the game's spells), so the same
declaration checks a request and tells the phone which form to draw. `read` checks every input
at once and refuses with every reason (`Invalid`), so a phone or a script learns all that is
wrong in one answer.

An answer is a JSON-ready dict with at least `verdict` (one line a player reads first) and
`details` (the lines that show the working); the rest is structured data for scripts.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..models import Game
from .errors import Invalid

MISSING = object()  # an input the request left out, as against one it sent as null
MAX_ITEMS = 60  # cards or values in one list input: more is not a hand, it is a mistake

# The checked inputs, by field: each value's type is its field's kind (text, a tuple of texts,
# a whole number, true or false, or None), so it is read as the field declares it.
Inputs = dict[str, Any]
# An answer or a form for a phone, JSON-ready: each helper's answer has its own data.
JSON = dict[str, Any]


@dataclass(frozen=True)
class Option:
    value: str
    label: str
    sub: str = ""  # a second line: a card's cost, an element's opposite

    def json(self) -> JSON:
        return {"value": self.value, "label": self.label, **({"sub": self.sub} if self.sub else {})}


@dataclass(frozen=True)
class Field:
    """One input. kind: choice (one option), many (options, repeats up to `each`), number, flag."""

    name: str
    label: str
    kind: str
    options: tuple[Option, ...] = ()
    default: Any = None
    required: bool = True  # a choice that is not required may be null: "none"
    low: int | None = None
    high: int | None = None
    each: int = 1  # many: how often one option may appear
    hint: str = ""
    group: str = ""  # fields that are seldom needed, shown together under this title, folded

    def __post_init__(self) -> None:
        if self.kind == "number" and (self.low is None or self.high is None):
            raise ValueError(f"number input {self.name!r} needs low and high: a phone can type anything")

    def json(self) -> JSON:
        out: JSON = {"name": self.name, "label": self.label, "kind": self.kind, "required": self.required}
        if self.options:
            out["options"] = [o.json() for o in self.options]
        if self.kind == "many":
            out["each"], out["most"] = self.each, self.high
        if self.kind == "number":
            out["min"], out["max"] = self.low, self.high
        if self.hint:
            out["hint"] = self.hint
        if self.group:
            out["group"] = self.group
        out["default"] = self.default
        return out

    def read(self, value: Any = MISSING) -> Any:
        """The checked value, or Invalid with the reason. An input left out takes the default;
        null takes it too, but for an input that may be none (null is then "none")."""
        what = self.label
        if value is None and not self.required:
            return () if self.kind == "many" else None
        if value is None or value is MISSING:
            if self.kind == "many":
                return ()
            if self.default is not None or not self.required:
                return self.default
            raise Invalid(f"{what}: choose one" if self.kind == "choice" else f"{what}: fill it in")
        if self.kind == "flag":
            if not isinstance(value, bool):
                raise Invalid(f"{what}: yes or no")
            return value
        if self.kind == "number":
            if isinstance(value, bool) or not isinstance(value, int):
                raise Invalid(f"{what}: a whole number")
            assert self.low is not None and self.high is not None  # a number's bounds: see __post_init__
            if not self.low <= value <= self.high:
                raise Invalid(f"{what}: {self.low} to {self.high}, not {value}")
            return value
        values = {o.value for o in self.options}
        if self.kind == "choice":
            if not isinstance(value, str) or value not in values:
                raise Invalid(f"{what}: choose one of {_listed(self.options)}")
            return value
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise Invalid(f"{what}: choose from {_listed(self.options)}")
        if len(value) > min(self.high or MAX_ITEMS, MAX_ITEMS):
            raise Invalid(f"{what}: at most {min(self.high or MAX_ITEMS, MAX_ITEMS)}, not {len(value)}")
        unknown = [v for v in value if v not in values]
        if unknown:
            raise Invalid(f"{what}: choose from {_listed(self.options)}")
        over = [v for v, n in Counter(value).items() if n > self.each]
        if over:
            held = next(o.label for o in self.options if o.value == over[0])
            raise Invalid(f"{what}: {held} at most {'once' if self.each == 1 else f'{self.each} times'}")
        return tuple(value)


@dataclass(frozen=True)
class Helper:
    id: str
    title: str
    question: str  # the question it answers, as a player would ask it
    fields: Callable[[Game], Sequence[Field]]
    answer: Callable[[Game, Inputs], JSON]
    cache: dict[int, tuple[Game, tuple[Field, ...]]] = field(default_factory=dict, compare=False, repr=False)

    def inputs(self, game: Game) -> Sequence[Field]:
        """The fields for `game`; a game is immutable, so they are made once per game."""
        key = id(game)
        if key not in self.cache or self.cache[key][0] is not game:
            self.cache[key] = (game, tuple(self.fields(game)))
        return self.cache[key][1]

    def json(self, game: Game) -> JSON:
        return {"id": self.id, "title": self.title, "question": self.question,
                "fields": [f.json() for f in self.inputs(game)]}

    def ask(self, game: Game, inputs: Any) -> JSON:
        return self.answer(game, read(self.inputs(game), inputs))


def read(fields: Sequence[Field], inputs: Any) -> Inputs:
    """Every field's checked value; every problem at once in one Invalid."""
    if not isinstance(inputs, Mapping):
        raise Invalid("this question's answers could not be read: reload the page and ask again")
    names = [f.name for f in fields]
    problems = ["this page asks something the question does not: reload the page" for k in inputs if k not in names][:1]
    values: Inputs = {}
    for f in fields:
        try:
            values[f.name] = f.read(inputs.get(f.name, MISSING))
        except Invalid as err:
            problems.append(str(err))
    if problems:
        raise Invalid("; ".join(problems)[:1000])
    return values


def _listed(opts: Sequence[Option]) -> str:
    text = ", ".join(o.label for o in opts)
    return text if len(text) <= 300 else text[:297] + "..."
