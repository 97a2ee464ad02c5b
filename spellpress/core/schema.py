"""The declared schema's building blocks, and pydantic's errors turned into designer's words.

Models are pydantic (frozen, unknown keys forbidden, scalars strict so that `"3"` is not taken
for 3 nor `yes` for text). `validate` runs a model over a YAML document's data and maps each
error back to the line and column where the value, or the offending key, is written.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Mapping
from typing import Annotated, Any, Self, Union

import pydantic
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints
from pydantic_core import ErrorDetails

from .problems import Problem, describe, did_you_mean, format_path, one_of, quote_hint
from .yamlsource import Document, Loc


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=False, defer_build=True)


Int = Annotated[int, pydantic.Strict()]
PositiveInt = Annotated[int, pydantic.Strict(), Field(gt=0)]
NonNegativeInt = Annotated[int, pydantic.Strict(), Field(ge=0)]
Flag = Annotated[bool, pydantic.Strict()]
def unprintable(value: str) -> str | None:
    """Why `value` may not be a game's text, or None. Text shows on cards and in terminals: a
    control character (NUL, ESC, ...) prints as nothing on a card and, in a terminal that shows
    a card's name (a problem, the lab's report), can command it."""
    for ch in value:
        if (ord(ch) < 0x20 and ch not in "\n\t") or 0x7F <= ord(ch) <= 0x9F:
            return (f"holds a control character (U+{ord(ch):04X}), which prints as nothing on a card and can command "
                    "a terminal; remove it")
    return None


def _printable(value: str) -> str:
    why = unprintable(value)
    if why:
        raise ValueError(why)
    return value


Text = Annotated[str, pydantic.Strict(), StringConstraints(min_length=1), AfterValidator(_printable)]
Ident = Annotated[
    str, pydantic.Strict(), StringConstraints(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$", max_length=60)
]
Color = Annotated[str, pydantic.Strict(), StringConstraints(pattern=r"^#[0-9a-fA-F]{6}$")]

K = typing.TypeVar("K")
V = typing.TypeVar("V")


def _freeze(value: dict[K, V]) -> Mapping[K, V]:
    return types.MappingProxyType(value)


# A read-only mapping: YAML mappings keep their order, and models stay immutable.
FrozenMap = Annotated[
    Mapping[K, V],
    AfterValidator(_freeze),
    pydantic.WrapSerializer(lambda value, handler: handler(dict(value))),
]


class Range(Model):
    min: PositiveInt
    max: PositiveInt

    @pydantic.model_validator(mode="after")
    def _ordered(self) -> Self:
        if self.max < self.min:
            raise ValueError(f"max ({self.max}) is less than min ({self.min})")
        return self


B = typing.TypeVar("B", bound=BaseModel)


def validate(model: type[B], data: object, doc: Document, *, prefix: Loc = ()) -> tuple[B | None, list[Problem]]:
    """Validate `data` (found at `prefix` in `doc`) as `model`: (instance or None, problems)."""
    try:
        return model.model_validate(data), []
    except pydantic.ValidationError as exc:
        errors = exc.errors()
        locs = [e["loc"] for e in errors]
        # A list whose items failed is also said to be too short; the items' errors suffice.
        errors = [
            e for e in errors
            if e["type"] != "too_short" or not any(loc[: len(e["loc"])] == e["loc"] and loc != e["loc"] for loc in locs)
        ]
        return None, [_problem(model, err, doc, prefix) for err in errors]


_IDENT_HINT = "use lowercase letters, digits and single dashes, like 'fire-bolt'"


def _problem(model: type[BaseModel], err: ErrorDetails, doc: Document, prefix: Loc) -> Problem:
    loc = tuple(p for p in err["loc"] if p != "[key]")
    kind, value, ctx = err["type"], err.get("input"), err.get("ctx") or {}
    full = prefix + loc
    if kind == "extra_forbidden":
        parent = _model_at(model, loc[:-1])
        accepted = list(parent.model_fields) if parent else []
        hint = did_you_mean(loc[-1], accepted)
        if not hint and accepted:
            hint = f"; expected one of: {one_of(accepted)}"
        return doc.problem(full, f"unknown key '{loc[-1]}'{hint}", key=True)
    if kind == "missing":
        # Said at the key of the mapping that lacks it: the line where it belongs, not the next key's.
        holder = full[:-1]
        line, column = doc.position(holder, key=True) if holder else (1, 1)
        under = f" under '{holder[-1]}'" if holder and isinstance(holder[-1], str) else (" here" if holder else " as a top-level key")
        return Problem(doc.shown, line, column, format_path(full), f"missing required key '{loc[-1]}': add it{under}")
    return doc.problem(full, _message(kind, value, ctx, err["msg"]))


# pydantic's error kinds, in a designer's words; formatted with got, quote, value and ctx.
_MESSAGES = {
    "int_type": "expected a whole number, got {got}",
    "int_parsing": "expected a whole number, got {got}",
    "int_from_float": "expected a whole number, got {got}",
    "string_type": "expected text, got {got}{quote}",
    "float_type": "expected a number, got {got}{quote}",
    "bool_type": "expected true or false, got {got}",
    "model_type": "expected a mapping (key: value lines), got {got}",
    "model_attributes_type": "expected a mapping (key: value lines), got {got}",
    "dict_type": "expected a mapping (key: value lines), got {got}",
    "mapping_type": "expected a mapping (key: value lines), got {got}",
    "list_type": "expected a list, got {got}",
    "tuple_type": "expected a list, got {got}",
    "greater_than": "must be more than {ctx[gt]}, got {value}",
    "greater_than_equal": "must be at least {ctx[ge]}, got {value}",
    "less_than_equal": "must be at most {ctx[le]}, got {value}",
    "too_short": "must hold at least {ctx[min_length]} item(s), got {ctx[actual_length]}",
    "too_long": "must hold at most {ctx[max_length]} item(s), got {ctx[actual_length]}",
    "string_too_short": "must not be empty",
    "string_too_long": "must be at most {ctx[max_length]} characters long",
}


def _message(kind: str, value: Any, ctx: dict[str, Any], fallback: str) -> str:
    got = describe(value)
    if kind in _MESSAGES:
        return _MESSAGES[kind].format(got=got, quote=quote_hint(value), value=value, ctx=ctx)
    if kind == "string_pattern_mismatch":
        if "#" in ctx.get("pattern", ""):
            return f"expected a colour like '#d9480f', got {got}"
        return f"{got} is not a valid id: {_IDENT_HINT}"
    if kind in ("literal_error", "enum"):
        expected = ctx.get("expected", "")
        choices = [c.strip().strip("'") for c in expected.replace(" or ", ",").split(",") if c.strip()]
        hint = did_you_mean(value, choices)  # the closest, and what would be right
        return f"unknown value {repr(value) if isinstance(value, str) else got}{hint}; expected {expected}"
    if kind == "value_error":
        return str(ctx.get("error", fallback))
    return fallback


def _unwrap(t: object) -> object:
    while True:
        origin = typing.get_origin(t)
        if origin is Annotated:
            t = typing.get_args(t)[0]
        elif origin in (Union, types.UnionType):
            t = next(a for a in typing.get_args(t) if a is not type(None))
        else:
            return t


def _model_at(root: type[BaseModel], loc: tuple[int | str, ...]) -> type[BaseModel] | None:
    """The model class that validates the value at `loc`, for listing its accepted keys."""
    t: object = root
    for part in loc:
        t = _unwrap(t)
        origin = typing.get_origin(t)
        if isinstance(t, type) and issubclass(t, BaseModel) and isinstance(part, str):
            field = t.model_fields.get(part)
            if field is None:
                return None
            t = field.annotation
        elif origin in (tuple, list):
            t = typing.get_args(t)[0]
        elif origin in (Mapping, dict, typing.Mapping, Mapping.__class__) or (
            origin is not None and issubclass(origin, Mapping)
        ):
            t = typing.get_args(t)[1]
        else:
            return None
    t = _unwrap(t)
    return t if isinstance(t, type) and issubclass(t, BaseModel) else None
