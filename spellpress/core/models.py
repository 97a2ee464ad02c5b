"""The typed, immutable models of a game, and the schema of each file in `cards/<slug>/`.

A game directory holds:
- `game.yaml`: identity, elements, the ruleset's constants, the counters the companion tracks;
- `decks.yaml`: card types (template and fields) and decks (name, back, card types);
- one or more card files whose top-level keys are deck ids, each a list of cards;
- `rules.yaml`: rule text sections, whose numbers are jinja2 references to the constants;
- `glossary.yaml` (optional): terms and their meanings, for the rulebook.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal, Self, TypeVar

import pydantic
from pydantic import Field, StringConstraints

from .problems import describe
from .schema import Color, Flag, FrozenMap, Ident, Int, Model, PositiveInt, Range, Text

FieldName = Annotated[
    str, pydantic.Strict(), StringConstraints(pattern=r"^[a-z][a-z0-9_]*$", max_length=40)
]

# Keys every card may have, whatever its type; a card type cannot declare fields by these names.
CARD_KEYS = ("id", "name", "type", "count", "art", "flavor")


# ---------------------------------------------------------------------------- game.yaml


class Element(Model):
    name: Text
    color: Color

    @property
    def icon(self) -> str:
        """The name used for the element's icon, inline in text as `{fire}`."""
        return self.name.lower()


def _int_or_constant(value: Any) -> int | str:
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise ValueError(f"expected a whole number or the name of a constant, got {describe(value)}")
    return value


IntOrConstant = Annotated[int | str, pydantic.PlainValidator(_int_or_constant)]


class CounterSpec(Model):
    """A number the companion tracks, per player or for the whole table."""

    id: Ident
    label: Text
    scope: Literal["player", "table"]
    start: IntOrConstant
    min: IntOrConstant | None = 0
    max: IntOrConstant | None = None
    step: PositiveInt = 1


class GameFile(Model):
    title: Text
    ruleset: Ident
    pitch: Text
    players: Range
    play_minutes: Range | None = None
    elements: tuple[Element, ...] = ()
    constants: dict[str, Any]
    counters: tuple[CounterSpec, ...] = ()


# ---------------------------------------------------------------------------- decks.yaml

FieldType = Literal["int", "text", "line", "element", "elements", "choice", "flag"]


class FieldSpec(Model):
    """One field of a card type.

    int: a whole number (min/max bound it); text: rules text, rendered with the constants;
    line: one short line of text; element / elements: one or a list of the game's elements
    (min/max bound the list's length); choice: one of `choices`; flag: true or false.
    """

    type: FieldType
    label: Text | None = None
    required: Flag = False
    min: Int | None = None
    max: Int | None = None
    choices: tuple[Text, ...] | None = None

    @pydantic.model_validator(mode="after")
    def _consistent(self) -> Self:
        if (self.type == "choice") != (self.choices is not None):
            raise ValueError(
                "a 'choice' field needs 'choices', and only a 'choice' field may have them"
            )
        if (self.min is not None or self.max is not None) and self.type not in ("int", "elements"):
            raise ValueError("'min' and 'max' apply only to 'int' and 'elements' fields")
        if self.min is not None and self.max is not None and self.max < self.min:
            raise ValueError(f"max ({self.max}) is less than min ({self.min})")
        return self


class CardTypeSpec(Model):
    name: Text
    template: Text
    # A double-sided card type (a wizard whose back is its powered-up side) names the layout of
    # its back, drawn with the card's own fields; other cards show their deck's back.
    back: Text | None = None
    fields: FrozenMap[FieldName, FieldSpec] = Field(default_factory=dict)

    @pydantic.field_validator("fields")
    @classmethod
    def _not_reserved(cls, fields: Mapping[str, FieldSpec]) -> Mapping[str, FieldSpec]:
        clash = [name for name in fields if name in CARD_KEYS]
        if clash:
            raise ValueError(
                f"field '{clash[0]}' is a key every card has already; name it otherwise"
            )
        return fields


class DeckSpec(Model):
    """A deck; its cards are of `types`, the first being the default for a card with no `type`."""

    name: Text
    back: Text
    types: tuple[Ident, ...] = Field(min_length=1)


class DecksFile(Model):
    card_types: FrozenMap[Ident, CardTypeSpec]
    decks: FrozenMap[Ident, DeckSpec]


# ---------------------------------------------------------------------------- rules.yaml


class RuleSectionSpec(Model):
    id: Ident
    title: Text
    text: Text


class RulesFile(Model):
    rules: tuple[RuleSectionSpec, ...] = Field(min_length=1)


class Term(Model):
    term: Text
    text: Text


class GlossaryFile(Model):
    """glossary.yaml, optional: the words a rulebook explains, its text rendered like rules."""

    glossary: tuple[Term, ...] = Field(min_length=1)


# ---------------------------------------------------------------------------- the loaded game

FieldValue = int | str | bool | tuple[str, ...]
M = TypeVar("M", bound=Model)


@dataclass(frozen=True)
class Card:
    id: str
    name: str
    deck: str
    type: str
    count: int
    fields: Mapping[str, FieldValue]  # the card type's fields; text fields already rendered
    art: str | None = None  # path relative to the game's directory
    flavor: str | None = None
    where: str = field(default="", compare=False)  # 'file:line:column' of the card, for messages
    art_where: str = field(default="", compare=False)  # 'file:line:column' of its art's path, if it has one

    def get(self, name: str, default: Any = None) -> Any:
        return self.fields.get(name, default)

    def __getitem__(self, name: str) -> Any:
        """A field, of the type its card type declares in the game's YAML (so not known here)."""
        return self.fields[name]


@dataclass(frozen=True)
class Deck:
    id: str
    name: str
    back: str
    types: tuple[str, ...]
    cards: tuple[Card, ...]

    @property
    def unique(self) -> int:
        return len(self.cards)

    @property
    def total(self) -> int:
        return sum(card.count for card in self.cards)


@dataclass(frozen=True)
class RuleSection:
    id: str
    title: str
    source: str  # as written in rules.yaml, with its {{ references }}
    text: str  # rendered with the game's constants


@dataclass(frozen=True)
class Counter:
    """A counter with its constant references resolved to numbers."""

    id: str
    label: str
    scope: str
    start: int
    min: int | None
    max: int | None
    step: int


@dataclass(frozen=True)
class Game:
    slug: str
    root: Path
    title: str
    ruleset: str
    pitch: str
    players: Range
    play_minutes: Range | None
    elements: tuple[Element, ...]
    constants: Model  # the ruleset's own typed constants model
    counters: tuple[Counter, ...]
    card_types: Mapping[str, CardTypeSpec]
    decks: Mapping[str, Deck]
    rules: tuple[RuleSection, ...]
    text_context: Mapping[str, Any]
    # what `{{ references }}` in rule and card text resolve to
    glossary: tuple[tuple[str, str], ...] = ()  # (term, rendered text), in the file's order

    def constants_as(self, schema: type[M]) -> M:
        """The constants as the ruleset's schema, which the loader read them with, types them."""
        if not isinstance(self.constants, schema):
            raise TypeError(f"{self.slug}'s constants are {type(self.constants).__name__}, not {schema.__name__}")
        return self.constants

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(card for deck in self.decks.values() for card in deck.cards)

    def card(self, card_id: str) -> Card:
        for card in self.cards:
            if card.id == card_id:
                return card
        raise KeyError(card_id)

    def element(self, name: str) -> Element:
        for element in self.elements:
            if element.name == name:
                return element
        raise KeyError(name)

    def rule(self, section_id: str) -> RuleSection:
        for section in self.rules:
            if section.id == section_id:
                return section
        raise KeyError(section_id)
