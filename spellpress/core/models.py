"""The typed, immutable models of a game, and the schema of each file in `cards/<slug>/`.

A game directory holds:
- `game.yaml`: identity, elements, the ruleset's constants, the counters the companion tracks (and,
  for a game of YAML alone, how it ends);
- `decks.yaml`: card types (template and fields) and decks (name, back, card types);
- one or more card files whose top-level keys are deck ids, each a list of cards;
- `rules.yaml`: rule text sections, whose numbers are jinja2 references to the constants;
- `glossary.yaml` (optional): terms and their meanings, for the rulebook.
"""

from __future__ import annotations

import re
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal, Self, TypeVar

import pydantic
from pydantic import Field, StringConstraints

from .problems import describe, did_you_mean
from .schema import Color, Flag, FrozenMap, Ident, Int, Model, PositiveInt, Range, Text

FieldName = Annotated[
    str, pydantic.Strict(), StringConstraints(pattern=r"^[a-z][a-z0-9_]*$", max_length=40)
]

# Keys every card may have, whatever its type; a card type cannot declare fields by these names.
CARD_KEYS = ("id", "name", "type", "count", "art", "art_fit", "art_focus", "flavor")
# The field that holds a card's rules text, where what its other fields `say` is written.
SAID_IN = "text"


# How a picture fills its art box: `cover` fills the box and crops what overflows, `contain`
# shows all of it and leaves the box's spare room bare. The focus, a point of the picture (0,0 its
# top left, 1,1 its bottom right), is put at the same point of the box: what stays in view when
# cover crops, where the picture sits when contain leaves room.
ART_FITS = ("cover", "contain")
ART_FOCUS = (0.5, 0.5)


def art_fit(value: object) -> str:
    """A card's or a layout's `art_fit`; ValueError in the designer's words."""
    if value not in ART_FITS:
        raise ValueError(f"art_fit is one of {', '.join(ART_FITS)}, got {describe(value)}{did_you_mean(value, ART_FITS)}")
    return str(value)


def art_focus(value: object) -> tuple[float, float]:
    """A card's or a layout's `art_focus`, written `x,y` like 0.5,0.3; ValueError in the designer's words."""
    parts = value.split(",") if isinstance(value, str) else []
    try:
        x, y = (float(part) for part in parts)
    except ValueError:
        x = y = -1.0
    if not (0 <= x <= 1 and 0 <= y <= 1):  # also NaN
        raise ValueError(f"art_focus is two numbers from 0 to 1, like 0.5,0.3 (the point of the picture kept in "
                         f"view: 0,0 its top left, 1,1 its bottom right), got {describe(value)}")
    return x, y


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


# How much ink a build lays down (spellpress/press/model/options.py INKS): `full` colour, `saver` (light
# grounds, outline icons) or `mono` (greys; everything told apart by shape and label).
Ink = Literal["full", "saver", "mono"]
# What a build is for (spellpress/press/model/shops.py TARGETS): `home` (the sheets and images for a
# home printer), or a print shop's files (`mpc`, `tgc`, `dtc`; their numbers in press/model/shops.yaml).
Target = Literal["home", "mpc", "tgc", "dtc"]
# The faces a layout's text is set in (a box's `font:`): the text face in its four styles, and the
# display face of titles. The package ships one of each (spellpress/defaults/fonts/); a game may
# name its own file for any of them in game.yaml's `fonts:` (press/drawing/fonts.py).
FontRole = Literal["regular", "bold", "italic", "bold-italic", "display"]
FONT_ROLES: tuple[str, ...] = typing.get_args(FontRole)


def _share(value: float) -> float:
    if not 0 <= value <= 1:  # also NaN
        raise ValueError(f"a share from 0 to 1 (0.1 is ten points of a hundred), got {value:g}")
    return value


Share = Annotated[float, pydantic.Strict(), pydantic.AfterValidator(_share)]


class Balance(Model):
    """What `spellpress validate --balance` holds the game to (spellpress/lab/balance.py), over a
    few hundred seeded games: a seat, or the first player, winning more than its fair share
    (1 / players) by over `max_seat_edge` is a problem; so is a share over `max_unfinished` of the
    games still going at the lab's turn cap (a game that cannot end).

    The defaults: with 300 games the 95% interval of a fair duel's win rate is about 6 points
    either side of 50%, so an edge of 10 points is past the noise of the quick check (a fair
    game is flagged about once in a thousand runs) and still catches a 60/40 duel. The lab's turn
    caps are far past any real game's length: more than 1 in 100 games reaching one is a game
    that does not end."""

    max_seat_edge: Share = 0.1
    max_unfinished: Share = 0.01


LAST_STANDING = "last_standing"


class OutSpec(Model):
    """When a player is out of the game: their own counter `counter` at or below `at_most`."""

    counter: Ident
    at_most: IntOrConstant


class WinSpec(Model):
    """Who wins: the last player standing (written `win: last_standing`), or the first player still
    in whose own counter `counter` reaches `at_least` (`win: {counter: points, at_least: 10}`)."""

    last_standing: Flag = False
    counter: Ident | None = None
    at_least: IntOrConstant | None = None

    @pydantic.model_validator(mode="before")
    @classmethod
    def _written_short(cls, value: Any) -> Any:
        if value == LAST_STANDING:
            return {LAST_STANDING: True}
        if not isinstance(value, dict):
            raise ValueError(f"win is '{LAST_STANDING}', or a counter to reach, like {{counter: points, at_least: 10}}; "
                             f"got {describe(value)}{did_you_mean(value, [LAST_STANDING])}")
        return value

    @pydantic.model_validator(mode="after")
    def _one_way(self) -> Self:
        if self.last_standing == (self.counter is not None):
            raise ValueError(f"win is '{LAST_STANDING}', or a counter to reach, like {{counter: points, at_least: 10}}: "
                             "one of the two")
        if (self.counter is None) != (self.at_least is None):
            raise ValueError("a counter to reach needs both: {counter: points, at_least: 10}")
        return self


class EndSpec(Model):
    """How a game of YAML alone (the generic ruleset) ends: when a player is out, who wins, or both.
    Where players go out, the last one standing wins whatever `win` says (nobody plays on alone);
    at a table of one, being out ends the game with no winner."""

    out: OutSpec | None = None
    win: WinSpec | None = None

    @pydantic.model_validator(mode="after")
    def _says_something(self) -> Self:
        if self.out is None and self.win is None:
            raise ValueError("say how the game ends: when a player is out (out: {counter: health, at_most: 0}), "
                             f"who wins (win: {LAST_STANDING}, or win: {{counter: points, at_least: 10}}), or both")
        return self


class GameFile(Model):
    title: Text
    ruleset: Ident = "generic"  # a game of YAML alone (core/games/generic) unless it names one
    pitch: Text
    players: Range
    play_minutes: Range | None = None
    elements: tuple[Element, ...] = ()
    constants: dict[str, Any] = Field(default_factory=dict)
    counters: tuple[CounterSpec, ...] = ()
    # printed small in each card's footer with its number (`12/106 · v1.2`), so that a reprint
    # is told from an old card; `identity: false` leaves number and version off the cards
    version: Annotated[str, pydantic.Strict(), StringConstraints(min_length=1, max_length=12)] | None = None
    identity: Flag = True
    ink: Ink = "full"  # what `spellpress build` prints in unless --ink says otherwise
    # the game's own faces: role -> a TrueType file in the game's directory (core/fontcheck.py);
    # a role it does not name is set in the package's face
    fonts: FrozenMap[FontRole, Text] = Field(default_factory=dict)
    targets: Annotated[tuple[Target, ...], pydantic.Field(min_length=1)] = ("home",)  # unless --target says otherwise
    balance: Balance = Balance()  # what `validate --balance` holds the game to
    end: EndSpec | None = None  # a game of YAML alone: when a player is out, and who wins


# ---------------------------------------------------------------------------- decks.yaml

FieldType = Literal["int", "text", "line", "element", "elements", "choice", "flag"]


class FieldSpec(Model):
    """One field of a card type.

    int: a whole number (min/max bound it); text: rules text, rendered with the constants;
    line: one short line of text; element / elements: one or a list of the game's elements
    (min/max bound the list's length); choice: one of `choices`; flag: true or false.

    `says`: what the card's rules text says when the card has this field (a flag: when it is
    true), so that a field the rules apply (a creature that attacks at once) is printed from the
    field itself and never written twice. `{field}` is a field's value (an element as its inline
    icon), `{{ constant }}` a constant's; the sentence goes before the card's own `text` (or the
    text field named by `into`, such as a creature's death effect), or after it with `at: end`.
    A choice field may say one sentence for each of its choices.
    """

    type: FieldType
    label: Text | None = None
    required: Flag = False
    min: Int | None = None
    max: Int | None = None
    choices: tuple[Text, ...] | None = None
    says: Text | FrozenMap[Text, Text] | None = None
    at: Literal["start", "end"] | None = None
    into: FieldName | None = None  # the text field the sentence goes in, if not `text`

    @pydantic.model_validator(mode="after")
    def _consistent(self) -> Self:
        if self.at is not None and self.says is None:
            raise ValueError("'at' places what a field 'says': give it 'says' too")
        if self.into is not None and self.says is None:
            raise ValueError("'into' names where what a field 'says' goes: give it 'says' too")
        if isinstance(self.says, Mapping):
            if self.choices is None or set(self.says) != set(self.choices):
                raise ValueError("a field that says a sentence for each choice is a 'choice' field, and says one for "
                                 "every choice it has, and for no other")
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
        for name, spec in fields.items():
            if not spec.says:
                continue
            into = spec.into or SAID_IN
            text = fields.get(into)
            if text is None or text.type != "text":
                raise ValueError(
                    f"field '{name}' says something in the card's '{into}': the card type needs a "
                    f"'{into}' field of type text"
                )
        return fields


TOKEN_MM = (16.0, 25.0)  # the size of a punch-out token, across (GUIDE section 2)


class TokenSpec(Model):
    """A deck whose cards are tokens (counters, chits): small punch-out pieces of `size_mm`
    across, round or square, not poker cards. `shows`: the card field printed large on each
    piece (a health token's value), if any."""

    size_mm: Annotated[float, pydantic.Strict()]
    shape: Literal["round", "square"]
    shows: FieldName | None = None

    @pydantic.field_validator("size_mm")
    @classmethod
    def _token_sized(cls, size: float) -> float:
        low, high = TOKEN_MM
        if not low <= size <= high:
            raise ValueError(f"a token is {low:g} to {high:g} mm across (a piece to punch out, GUIDE section 2), "
                             f"got {size:g}: write a size from {low:g} to {high:g}, 20 for instance")
        return size


class DeckSpec(Model):
    """A deck; its cards are of `types`, the first being the default for a card with no `type`.
    A deck with `token` prints as punch-out pieces instead of cards."""

    name: Text
    back: Text
    types: tuple[Ident, ...] = Field(min_length=1)
    token: TokenSpec | None = None
    # its cards are held fanned in a player's hand, so each shows a corner index (GUIDE, section 2)
    hand: Flag = False


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


# ---------------------------------------------------------------------------- what a field says


def field_says(fields: Mapping[str, FieldValue], ctype: CardTypeSpec, name: str) -> str | None:
    """What field `name` of a card (its `fields`, of card type `ctype`) says in the card's text,
    before its constants are rendered; None if it says nothing (the card lacks it, or a flag is
    false)."""
    spec, value = ctype.fields[name], fields.get(name)
    if spec.says is None or value in (None, False, "", ()):
        return None
    says = spec.says if isinstance(spec.says, str) else spec.says.get(str(value))
    if says is None:
        return None
    return _PLACEHOLDER.sub(lambda m: _shown_in_text(fields, ctype, m.group(1), m.group(0)), says)


_PLACEHOLDER = re.compile(r"(?<!\{)\{([a-z][a-z0-9_]*)\}(?!\})")  # {field}, not {{ constant }}


def _shown_in_text(fields: Mapping[str, FieldValue], ctype: CardTypeSpec, name: str, as_written: str) -> str:
    """A field's value as a sentence in a card's text shows it: an element as its inline icon.
    A name that is no field of the card is left as written (an inline icon such as {skull})."""
    if name not in ctype.fields:
        return as_written
    value = fields.get(name, "")
    if ctype.fields[name].type in ("element", "elements"):
        names = [value] if isinstance(value, str) else list(value) if isinstance(value, tuple) else []
        return " ".join("{" + n.lower() + "}" for n in names)
    return str(value)


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
    art: str | None = None  # a path relative to the game's directory, or `game-icons:<name>` (core/gameicons.py)
    flavor: str | None = None
    art_fit: str | None = None  # one of ART_FITS; None: as its layout's art box says
    art_focus: tuple[float, float] | None = None  # None: as its layout's art box says
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
    token: TokenSpec | None = None  # set: its cards print as punch-out tokens, not as cards
    hand: bool = False  # held fanned in a hand: its cards show a corner index

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
class Threshold:
    """A player's counter and a value it is held to, its constant references resolved."""

    counter: str
    value: int


@dataclass(frozen=True)
class End:
    """How a game of YAML alone ends (models.EndSpec): a player is out with `out`'s counter at or
    below its value; the first player still in with `reach`'s counter at or above its value wins;
    where players go out, the last one standing wins."""

    out: Threshold | None
    reach: Threshold | None


def card_context(context: Mapping[str, Any], fields: Mapping[str, Any]) -> Mapping[str, Any]:
    """The game's text context with the card's own whole-number fields (`{{ heal }}` on a card
    with `heal: 3`; a constant of the same name wins): what a card's text is rendered in."""
    own = {k: v for k, v in fields.items() if type(v) is int and k not in context}
    return {**context, **own} if own else context


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
    version: str | None = None  # game.yaml's `version:`, printed on the cards
    identity: bool = True  # each card printed with its number and the game's version
    ink: str = "full"  # the game's own ink mode (models.Ink)
    # game.yaml's `fonts:`, checked (core/fontcheck.py): role (FONT_ROLES) -> its file, in the game's directory
    fonts: Mapping[str, Path] = field(default_factory=dict)
    fonts_at: Mapping[str, str] = field(default_factory=dict, compare=False)  # role -> 'file:line:column' naming it
    targets: tuple[str, ...] = ("home",)  # what a build makes of it when --target is not given (models.Target)
    balance: Balance = Balance()  # game.yaml's `balance:` (validate --balance)
    end: End | None = None  # game.yaml's `end:`: how a game of YAML alone ends (None: it never does)
    # where game.yaml writes each of balance's keys: key -> (file, line, column); a default is written nowhere
    balance_at: Mapping[str, tuple[str, int, int]] = field(default_factory=dict, compare=False)
    # layout name -> 'file:line:column' where decks.yaml first names it, for a layout that is missing
    layouts_named_at: Mapping[str, str] = field(default_factory=dict, compare=False)
    # (card type, field) -> 'file:line:column' where decks.yaml declares it, for a field no layout draws
    fields_at: Mapping[tuple[str, str], str] = field(default_factory=dict, compare=False)
    # (card type, field): a whole-number field some card's text of that type prints as `{{ field }}`
    fields_in_text: frozenset[tuple[str, str]] = field(default=frozenset(), compare=False)
    # The texts as written, with their {{ references }}, for a reader that renders them again its
    # own way (the rulebook prints what a reference renders as literal text: press/drawing/markup.py):
    # each glossary term's text, in the glossary's order; (card id, field) -> a card's text field
    # (with the sentences its other fields say), for each text field a card has.
    glossary_written: tuple[str, ...] = field(default=(), compare=False)
    cards_written: Mapping[tuple[str, str], str] = field(default_factory=dict, compare=False)

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

    def context_of(self, card: Card) -> Mapping[str, Any]:
        """What the `{{ references }}` of the card's text resolve to (card_context)."""
        return card_context(self.text_context, card.fields)

    def rule(self, section_id: str) -> RuleSection:
        for section in self.rules:
            if section.id == section_id:
                return section
        raise KeyError(section_id)
