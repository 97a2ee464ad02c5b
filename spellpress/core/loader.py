"""Loading `cards/`: the only code that reads it.

Each check appends to one list of problems rather than stopping, so a run reports every
mistake in every file at once; `ValidationFailed` carries them, sorted by file and line.
"""

from __future__ import annotations

import dataclasses
import os
import re
import types
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from . import csvsource, fontcheck, gameicons, paths, pictures, ruletext
from .games import RULESETS
from .models import (
    CARD_KEYS,
    FONT_ROLES,
    SAID_IN,
    Card,
    CardTypeSpec,
    Counter,
    Deck,
    DecksFile,
    DeckSpec,
    End,
    FieldSpec,
    FieldValue,
    Game,
    GameFile,
    GlossaryFile,
    RuleSection,
    RulesFile,
    Threshold,
    art_fit,
    art_focus,
    card_context,
    field_says,
)
from .problems import MAX_PROBLEMS, Problem, ValidationFailed, describe, did_you_mean, display_path, format_path, one_of, quote_hint
from .ruleset import Ruleset
from .schema import Model, unprintable, validate
from .yamlsource import Document, Loc, read

GAME_FILE, DECKS_FILE, RULES_FILE, GLOSSARY_FILE = "game.yaml", "decks.yaml", "rules.yaml", "glossary.yaml"
MAX_COUNT = 500  # copies of one card: a sanity bound, far above any real deck
MAX_CARDS = 10_000  # cards a game's files hold in all (the five games: a few hundred); each costs its checks
_IDENT_CHARS = set("abcdefghijklmnopqrstuvwxyz0123456789-")

M = TypeVar("M", bound=Model)
# A card as read, with the file and the place in it where it is written.
Placed = tuple[Card, Document, Loc]
_REFERENCED = re.compile(r"(?<![\w.])([a-z_][a-z0-9_]*)(?=[^{}]*\}\})")  # a name inside {{ ... }}


def game_dirs(cards_dir: Path) -> list[Path]:
    """The game directories under `cards_dir`: those holding a game.yaml, by name."""
    return sorted(p for p in Path(cards_dir).iterdir() if (p / GAME_FILE).is_file())


def card_files(root: Path) -> list[Path]:
    """A game's card files: every YAML file but the fixed ones, and every deck's spreadsheet."""
    fixed = {GAME_FILE, DECKS_FILE, RULES_FILE, GLOSSARY_FILE}
    return sorted(p for p in root.iterdir() if p.suffix in (".yaml", ".yml", ".csv") and p.name not in fixed)


def load_games(cards_dir: Path | str = "cards", slugs: list[str] | None = None) -> tuple[Game, ...]:
    """Every game in `cards_dir` (or those in `slugs`); raises ValidationFailed with all problems."""
    cards_dir = Path(cards_dir)
    if not cards_dir.is_dir():
        raise ValidationFailed([Problem(display_path(cards_dir), 0, 0, "", "no such directory of games")])
    dirs = game_dirs(cards_dir)
    if slugs:
        known = {d.name: d for d in dirs}
        missing = [s for s in slugs if s not in known]
        if missing:
            raise ValidationFailed(
                Problem(display_path(cards_dir), 0, 0, "", f"no game '{s}'{did_you_mean(s, known) or '; the games are ' + one_of(known)}")
                for s in missing
            )
        dirs = [known[s] for s in slugs]
    if not dirs:
        raise ValidationFailed([Problem(display_path(cards_dir), 0, 0, "", f"no game here: a game is a directory holding {GAME_FILE}")])
    games: list[Game] = []
    problems: list[Problem] = []
    for d in dirs:
        game, found = _GameLoader(d).load()
        if game is not None:  # a game that is not made comes with the problems why, raised below
            games.append(game)
        problems += found
    if problems:
        raise ValidationFailed(problems)
    return tuple(games)


def load_game(game_dir: Path | str) -> Game:
    game, problems = _GameLoader(Path(game_dir)).load()
    if problems:
        raise ValidationFailed(problems)
    assert game is not None  # a game that is not made comes with the problems why
    return game


class _GameLoader:
    def __init__(self, root: Path):
        self.root = root
        self.problems: list[Problem] = []
        self.unsaid: set[tuple[str, str]] = set()  # (card type, field) whose `says` names an unknown constant
        self.fields_in_text: set[tuple[str, str]] = set()  # (card type, field) a card's text prints as {{ field }}
        self.cards_written: dict[tuple[str, str], str] = {}  # (card id, field) -> its text as written
        self.glossary_written: tuple[str, ...] = ()  # each glossary text as written
        self.card_at: dict[str, tuple[Document, Loc]] = {}  # card id -> where it is written
        self.pictures: list[tuple[Document, Loc, str, Path]] = []  # each card's art inside the game: where it is named
        self.game_icons = gameicons.library(root)  # the icons of game-icons.net a card's art may name
        self.problems += self.game_icons.problems

    # -- files

    def _read(self, name: str) -> Document | None:
        path = self.root / name
        if not os.path.lexists(path):
            self.problems.append(Problem(display_path(path), 0, 0, "", f"missing file: every game needs {name}"))
            return None
        doc, found = _source(self.root, path)
        self.problems += found
        if doc is not None and not isinstance(doc.data, dict):
            self.problems.append(doc.problem((), f"expected a mapping (key: value lines), got {describe(doc.data)}"))
            return None
        return doc

    def _validate(self, model: type[M], doc: Document | None, data: object = None, prefix: Loc = ()) -> M | None:
        if doc is None:
            return None
        value, found = validate(model, doc.data if data is None else data, doc, prefix=prefix)
        self.problems += found
        return value

    def load(self) -> tuple[Game | None, list[Problem]]:
        game_doc = self._read(GAME_FILE)
        decks_doc = self._read(DECKS_FILE)
        rules_doc = self._read(RULES_FILE)
        spec: GameFile | None = self._validate(GameFile, game_doc)
        decks_spec: DecksFile | None = self._validate(DecksFile, decks_doc)
        rules_spec: RulesFile | None = self._validate(RulesFile, rules_doc)

        typed = self._constants(game_doc, spec)
        fonts = self._fonts(game_doc)
        # A spec is read from its document: where there is a spec, there is its document.
        if spec is not None and game_doc is not None:
            self._unique([e.name for e in spec.elements], game_doc, ("elements",), "name", "element")

        elements = _element_names(game_doc)
        if decks_spec is not None and decks_doc is not None:
            self._check_deck_types(decks_spec, decks_doc)
        cards = self._load_cards(decks_spec, decks_doc, elements)

        if (spec is None or game_doc is None or typed is None or decks_spec is None or rules_spec is None
                or rules_doc is None or cards is None):
            return None, self._with_pictures()

        ruleset, constants = typed
        context = self._context(spec, constants, cards)
        self.unsaid = self._check_says(decks_spec, decks_doc, context) if decks_doc is not None else set()
        decks = {d: self._deck(d, decks_spec, placed, context) for d, placed in cards.items()}
        rules = self._render_rules(rules_spec, rules_doc, context)
        glossary = self._glossary(context)
        counters = self._counters(spec, game_doc, context)
        end = self._end(spec, game_doc, context, counters)
        game = Game(
            slug=self.root.name,
            root=self.root,
            title=spec.title,
            ruleset=spec.ruleset,
            pitch=spec.pitch,
            players=spec.players,
            play_minutes=spec.play_minutes,
            elements=spec.elements,
            constants=constants,
            counters=counters,
            card_types=decks_spec.card_types,
            decks=types.MappingProxyType(decks),
            rules=rules,
            text_context=types.MappingProxyType(context),
            glossary=glossary,
            version=spec.version,
            identity=spec.identity,
            ink=spec.ink,
            fonts=types.MappingProxyType({role: path for role, (path, _) in fonts.items()}),
            fonts_at=types.MappingProxyType({role: at for role, (_, at) in fonts.items()}),
            targets=tuple(dict.fromkeys(spec.targets)),
            balance=spec.balance,
            end=end,
            balance_at=types.MappingProxyType({key: (game_doc.shown, *game_doc.position(("balance", key)))
                                               for key in spec.balance.model_fields_set}),
            layouts_named_at=types.MappingProxyType(_layouts_named_at(decks_spec, decks_doc) if decks_doc else {}),
            fields_at=types.MappingProxyType(_fields_at(decks_spec, decks_doc) if decks_doc else {}),
            fields_in_text=frozenset(self.fields_in_text),
            glossary_written=self.glossary_written,
            cards_written=types.MappingProxyType(self.cards_written),
        )
        if not self.problems:
            ruleset.check(game, _Report(self, game_doc))
        return (None if self.problems else game), self._with_pictures()

    def _with_pictures(self) -> list[Problem]:
        """The problems, with those of the cards' picture files when there are any: a game that
        loads has its pictures checked by the press before it draws (where a missing one may be
        allowed in a draft), one that does not would say a refused picture only once the rest
        is fixed. Their headers only: kind, bytes and pixels (issue 32); a picture whose body does
        not decode is said by the press."""
        if self.problems:
            for doc, loc, art, path in self.pictures:
                if path.exists():
                    try:
                        pictures.check(path, decode=False)
                    except pictures.Refused as exc:
                        self.problems.append(doc.problem(loc, f"art '{art}' {exc}"))
        return self.problems

    def _fonts(self, doc: Document | None) -> dict[str, tuple[Path, str]]:
        """game.yaml's `fonts:`, each file checked (core/fontcheck.py) even when the rest of the
        file is not: role -> (its file, 'file:line:column' where it is named). A key or value of
        the wrong kind is the GameFile schema's to say."""
        raw = _mapping(doc).get("fonts") if doc is not None else None
        if doc is None or not isinstance(raw, dict):
            return {}
        out = {}
        for role, named in raw.items():
            if role not in FONT_ROLES or not isinstance(named, str) or not named.strip():
                continue
            loc = ("fonts", role)
            at = "{}:{}:{}".format(doc.shown, *doc.position(loc))
            try:  # a file elsewhere on the machine is never read, nor is it said whether it exists
                path = paths.inside(self.root, named, _FONT_PATH)
            except paths.Outside as exc:
                self.problems.append(doc.problem(loc, f"font {exc}"))
                continue
            if not path.exists():
                self.problems.append(doc.problem(loc, f"font file '{named}' not found: looked for {display_path(path)}"
                                                      f"{paths.nearby(path)}; {_FONT_PATH.format(root=display_path(self.root))}"))
                continue
            try:
                fontcheck.check(path)
            except fontcheck.Refused as exc:
                self.problems.append(doc.problem(loc, f"font file '{named}' {exc}"))
                continue
            out[role] = (path, at)
        return out

    def _constants(self, doc: Document | None, spec: GameFile | None) -> tuple[Ruleset, Model] | None:
        """The ruleset and its typed constants, checked even when the rest of game.yaml is not;
        None if either cannot be told."""
        if doc is None:
            return None
        name = spec.ruleset if spec else _mapping(doc).get("ruleset", GameFile.model_fields["ruleset"].default)
        if not isinstance(name, str):
            return None
        ruleset = RULESETS.get(name)
        if ruleset is None:
            if spec is not None:  # a malformed name is reported by the GameFile schema already
                hint = did_you_mean(name, RULESETS) or f"; the rulesets are {one_of(RULESETS)}"
                self.problems.append(doc.problem(("ruleset",), f"unknown ruleset '{name}'{hint}"))
            return None
        raw = _mapping(doc).get("constants", {})
        if not isinstance(raw, dict):  # reported by the GameFile schema
            return None
        constants = self._validate(ruleset.constants, doc, raw, ("constants",))
        return None if constants is None else (ruleset, constants)

    def _unique(self, names: list[str], doc: Document, loc: Loc, field: str, what: str) -> None:
        seen: set[str] = set()
        for i, name in enumerate(names):
            if name in seen:
                self.problems.append(doc.problem(loc + (i, field), f"{what} '{name}' is given twice"))
            seen.add(name)

    def _check_deck_types(self, spec: DecksFile, doc: Document) -> None:
        for deck_id, deck in spec.decks.items():
            for i, t in enumerate(deck.types):
                if t not in spec.card_types:
                    hint = did_you_mean(t, spec.card_types) or f"; the card types are {one_of(spec.card_types)}"
                    self.problems.append(doc.problem(("decks", deck_id, "types", i), f"unknown card type '{t}'{hint}"))
            shows = deck.token.shows if deck.token else None
            for t in deck.types:
                ctype = spec.card_types.get(t)
                if shows and ctype is not None and shows not in ctype.fields:
                    hint = did_you_mean(shows, ctype.fields) or f"; its fields are {one_of(ctype.fields) or 'none'}"
                    self.problems.append(doc.problem(("decks", deck_id, "token", "shows"),
                                                     f"a token shows one of its card type's fields: '{t}' has no field '{shows}'{hint}"))

    # -- cards

    def _load_cards(
        self, spec: DecksFile | None, decks_doc: Document | None, elements: list[str] | None
    ) -> dict[str, list[Placed]] | None:
        """Deck id -> [(card, doc, loc)], validated against the card types; None if unusable."""
        by_deck: dict[str, list[Placed]] = {d: [] for d in (spec.decks if spec else ())}
        mentioned: set[str] = set()
        all_read = True
        names: dict[str, str] = {}
        files = card_files(self.root)
        if not files:
            self.problems.append(Problem(display_path(self.root), 0, 0, "", "no card files: add a YAML file whose keys are deck ids"))
        counted = 0  # cards read, of MAX_CARDS
        for path in files:
            if len(self.problems) > MAX_PROBLEMS:
                self.problems.append(Problem(display_path(path), 0, 0, "", f"not read: the game has over {MAX_PROBLEMS} "
                                             "problems already, in the files before this one; fix those first"))
                all_read = False
                break
            doc, found = _source(self.root, path, _column_kinds(spec, path.stem))
            self.problems += found
            if doc is None:
                all_read = False
                continue
            if not isinstance(doc.data, dict):
                self.problems.append(doc.problem((), f"expected deck ids, each with a list of cards; got {describe(doc.data)}"))
                continue
            if spec is None:
                continue
            for deck_id, cards in doc.data.items():
                if deck_id not in spec.decks:
                    hint = did_you_mean(deck_id, spec.decks) or f"; the decks (decks.yaml) are {one_of(spec.decks)}"
                    if path.suffix == ".csv":
                        hint += "; a spreadsheet's file name is its deck's id, like spells.csv"
                    self.problems.append(doc.problem((deck_id,), f"unknown deck '{deck_id}'{hint}", key=True))
                    continue
                mentioned.add(deck_id)
                if not isinstance(cards, list):
                    self.problems.append(doc.problem((deck_id,), f"expected a list of cards, got {describe(cards)}"))
                    continue
                if counted + len(cards) > MAX_CARDS:
                    self.problems.append(doc.problem((deck_id, MAX_CARDS - counted), f"a game may hold at most {MAX_CARDS:,} "
                                                     "cards in all its card files: this one and those after it are "
                                                     "not read (give a card a count rather than repeat it)"))
                    return None
                counted += len(cards)
                for i, raw in enumerate(cards):
                    card = self._card(raw, doc, (deck_id, i), deck_id, spec, elements, names)
                    if card is not None:
                        by_deck[deck_id].append((card, doc, (deck_id, i)))
        if spec is None or decks_doc is None:  # no spec without the document it is read from
            return None
        for deck_id in by_deck:
            if deck_id not in mentioned and all_read:
                empty = f"the deck has no cards: list them under '{deck_id}:' in a card file"
                self.problems.append(decks_doc.problem(("decks", deck_id), empty, key=True))
        return by_deck

    def _card(
        self, raw: Any, doc: Document, loc: Loc, deck_id: str, spec: DecksFile, elements: list[str] | None, names: dict[str, str]
    ) -> Card | None:
        """The card `raw` (as YAML gives it), or None and its problems added."""
        problems: list[Problem] = []

        def bad(field_loc: Loc, message: str, key: bool = False) -> None:
            problems.append(doc.problem(loc + field_loc, message, key=key))

        if not isinstance(raw, dict):
            bad((), f"expected a card (a mapping with id, name, count and its fields), got {describe(raw)}")
            self.problems += problems
            return None
        deck: DeckSpec = spec.decks[deck_id]
        type_id = raw.get("type", deck.types[0])  # a deck's first card type is its default
        if type_id in deck.types and type_id not in spec.card_types:
            type_id = None  # the deck names a type that does not exist: reported with decks.yaml
        elif type_id not in deck.types:
            hint = did_you_mean(type_id, deck.types) or f"; deck '{deck_id}' holds {one_of(deck.types)}"
            said = f"'{type_id}'" if isinstance(type_id, str) else describe(type_id)
            bad(("type",), f"unknown card type {said}{hint}")
            type_id = None
        ctype: CardTypeSpec | None = spec.card_types.get(type_id) if type_id else None

        card_id, name, count = raw.get("id"), raw.get("name"), raw.get("count", 1)
        if card_id is None:
            bad((), "missing required key 'id'")
        elif (not isinstance(card_id, str) or not card_id or set(card_id) - _IDENT_CHARS
              or card_id.startswith("-") or "--" in card_id or card_id.endswith("-")):
            bad(("id",), f"{describe(card_id)} is not a valid card id: use lowercase letters, digits and single dashes, like 'fire-bolt'")
        elif card_id in self.card_at:
            first_doc, first_loc = self.card_at[card_id]
            line = first_doc.position(first_loc + ("id",))[0]
            bad(("id",), f"card id '{card_id}' is used already ({first_doc.shown}:{line}); ids must be unique within a game")
        if name is None:
            bad((), "missing required key 'name'")
        elif not isinstance(name, str) or not name.strip():
            bad(("name",), f"expected the card's name as text, got {describe(name)}{quote_hint(name)}")
        elif why := unprintable(name):
            bad(("name",), f"the card's name {why}")
        elif name in names:
            bad(("name",), f"card name '{name}' is used already by '{names[name]}'; give each card its own name")
        if isinstance(count, bool) or not isinstance(count, int):
            bad(("count",), f"expected a whole number of copies, got {describe(count)}")
        elif count < 1:
            bad(("count",), f"a card's count must be a positive whole number, got {count}")
        elif count > MAX_COUNT:
            bad(("count",), f"a count of {count} is more copies than a deck holds; at most {MAX_COUNT}")
        for opt in ("art", "flavor"):
            if opt in raw and not (isinstance(raw[opt], str) and raw[opt].strip()):
                bad((opt,), f"expected text, got {describe(raw[opt])}")
            elif opt in raw and (why := unprintable(raw[opt])):
                bad((opt,), why)
        icon = gameicons.named(raw["art"]) if isinstance(raw.get("art"), str) else None
        if icon is not None:
            if icon not in self.game_icons.icons:
                bad(("art",), self.game_icons.unknown(icon))
        elif isinstance(raw.get("art"), str) and raw["art"].strip():
            try:  # a picture elsewhere on the machine is never read, nor is it said whether it exists
                self.pictures.append((doc, loc + ("art",), raw["art"], paths.inside(self.root, raw["art"])))
            except paths.Outside as exc:
                bad(("art",), str(exc))
        fit, focus = raw.get("art_fit"), raw.get("art_focus")
        for key, check in (("art_fit", art_fit), ("art_focus", art_focus)):
            if key in raw:
                try:
                    check(raw[key])
                except ValueError as exc:
                    bad((key,), str(exc))

        fields: dict[str, FieldValue] = {}
        if ctype is not None:
            accepted = list(CARD_KEYS) + list(ctype.fields)
            for key in raw:
                if key not in accepted:
                    hint = did_you_mean(key, accepted) or f"; a '{type_id}' card has {one_of(accepted)}"
                    bad((key,), f"unknown key '{key}'{hint}", key=True)
            for fname, fspec in ctype.fields.items():
                if fname not in raw:
                    if fspec.required:
                        bad((), f"missing required key '{fname}' (a '{type_id}' card needs it)")
                    continue
                value = _field_value(raw[fname], fspec, elements)
                if isinstance(value, _Misfit):
                    bad((fname,) + value.loc, value.message)
                else:
                    fields[fname] = value

        # An id or a name that is not text is reported above, as a problem.
        if problems or ctype is None or not isinstance(card_id, str) or not isinstance(name, str):
            self.problems += problems
            return None
        self.card_at[card_id] = (doc, loc)
        names[name] = card_id
        return Card(
            id=card_id,
            name=name,
            deck=deck_id,
            type=type_id,
            count=count,
            fields=types.MappingProxyType(fields),
            art=raw.get("art"),
            flavor=raw.get("flavor"),
            art_fit=art_fit(fit) if fit is not None else None,
            art_focus=art_focus(focus) if focus is not None else None,
            where="{}:{}:{}".format(doc.shown, *doc.position(loc)),
            art_where="{}:{}:{}".format(doc.shown, *doc.position(loc + ("art",))) if "art" in raw else "",
        )

    # -- rendering text with the constants

    def _context(self, spec: GameFile, constants: Model, decks: dict[str, list[Placed]]) -> dict[str, Any]:
        context = constants.model_dump()
        context["game"] = {
            "title": spec.title,
            "players": spec.players.model_dump(),
            "elements": [e.name for e in spec.elements],
        }
        context["decks"] = {
            d: {"unique": len(cards), "total": sum(c.count for c, _, _ in cards)} for d, cards in decks.items()
        }
        return context

    def _text_problem(self, doc: Document, loc: Loc, err: ruletext.TextError) -> Problem:
        line, column = doc.position(loc)
        if doc.is_block(loc):
            line += err.line
            column = doc.column_of(line, err.needle)
        return Problem(doc.shown, line, column, format_path(loc), err.message)

    def _check_says(self, spec: DecksFile, doc: Document, context: dict[str, Any]) -> set[tuple[str, str]]:
        """Each field's `says` sentence rendered once with the constants (and the card type's
        whole-number fields, which a card's own value fills in): a name that is neither is said
        at the line of decks.yaml where the sentence is written, not at every card that has the
        field (issue 26). Returns the fields whose sentence is left out of the cards for it."""
        unsaid = set()
        for tid, ctype in spec.card_types.items():
            numbers = {k: 0 for k, f in ctype.fields.items() if f.type == "int" and k not in context}
            card_context = {**context, **numbers} if numbers else context
            # a card of the type with every field: `{field}` in a sentence is filled in before its constants
            sample: dict[str, FieldValue] = {k: 1 if f.type == "int" else True if f.type == "flag" else k
                                             for k, f in ctype.fields.items()}
            for fname, fspec in ctype.fields.items():
                says = fspec.says
                sentences: list[tuple[Loc, str | None]] = (
                    [((), field_says(sample, ctype, fname))] if isinstance(says, str)
                    else [((key,), field_says({**sample, fname: key}, ctype, fname)) for key in says] if says else [])
                for sub, sentence in sentences:
                    _, errors = ruletext.render(sentence or "", card_context)
                    loc: Loc = ("card_types", tid, "fields", fname, "says", *sub)
                    self.problems += [self._at_needle(doc, self._text_problem(doc, loc, e), e) for e in errors]
                    if errors:
                        unsaid.add((tid, fname))
        return unsaid

    @staticmethod
    def _at_needle(doc: Document, problem: Problem, err: ruletext.TextError) -> Problem:
        """The problem's column moved to its name in a one-line sentence (`{{ zap_damag }}`)."""
        text = doc.lines[problem.line - 1] if 0 < problem.line <= len(doc.lines) else ""
        at = text.find(err.needle, problem.column - 1) if err.needle else -1
        return dataclasses.replace(problem, column=at + 1) if at >= 0 else problem

    def _said(self, card: Card, ctype: CardTypeSpec, doc: Document, loc: Loc) -> dict[str, FieldValue]:
        """The card's fields with its rules text (or the text field a field names `into`) holding
        what its other fields `say` (a field whose sentence the written text repeats is a
        problem: it would be printed twice)."""
        fields = dict(card.fields)
        said: dict[str, tuple[list[str], list[str]]] = {}  # text field -> (sentences before, after)
        for fname, fspec in ctype.fields.items():
            sentence = field_says(fields, ctype, fname)
            if sentence is None or (card.type, fname) in self.unsaid:  # said at its own line
                continue
            into = fspec.into or SAID_IN
            written = str(fields.get(into) or "").strip()
            if _words(sentence) in _words(written):
                self.problems.append(doc.problem(loc + (into,), f"the text repeats what '{fname}' says "
                                                 f"(\"{sentence}\"): the field prints it, so take it out of '{into}'"))
            before, after = said.setdefault(into, ([], []))
            (after if fspec.at == "end" else before).append(sentence)
        for into, (before, after) in said.items():
            written = str(fields.get(into) or "").strip()
            fields[into] = " ".join([*before, *([written] if written else []), *after])
        return fields

    def _deck(self, deck_id: str, spec: DecksFile, cards: list[Placed], context: dict[str, Any]) -> Deck:
        """The deck, with each card's text fields rendered with the constants and the card's own
        whole-number fields (`{{ heal }}` on a card with `heal: 3`; a constant of the same name
        wins), its rules text holding what its fields say."""
        rendered = []
        for card, doc, loc in cards:
            fields = self._said(card, spec.card_types[card.type], doc, loc)
            rendered_in = card_context(context, card.fields)
            for fname, fspec in spec.card_types[card.type].fields.items():
                source = fields.get(fname)
                if fspec.type in ("text", "line") and isinstance(source, str):  # a text field's value is text
                    self.fields_in_text |= {(card.type, name) for name in _REFERENCED.findall(source)
                                            if name in rendered_in and name not in context}
                    self.cards_written[(card.id, fname)] = source
                    text, errors = ruletext.render(source, rendered_in)
                    self.problems += [self._text_problem(doc, loc + (fname,), e) for e in errors]
                    fields[fname] = text or ""
            rendered.append(dataclasses.replace(card, fields=types.MappingProxyType(fields)))
        deck = spec.decks[deck_id]
        return Deck(deck_id, deck.name, deck.back, deck.types, tuple(rendered), deck.token, deck.hand)

    def _render_rules(self, spec: RulesFile, doc: Document, context: dict[str, Any]) -> tuple[RuleSection, ...]:
        self._unique([s.id for s in spec.rules], doc, ("rules",), "id", "section id")
        sections = []
        for i, section in enumerate(spec.rules):
            text, errors = ruletext.render(section.text, context)
            self.problems += [self._text_problem(doc, ("rules", i, "text"), e) for e in errors]
            sections.append(RuleSection(section.id, section.title, section.text, text or ""))
        return tuple(sections)

    def _glossary(self, context: dict[str, Any]) -> tuple[tuple[str, str], ...]:
        if not os.path.lexists(self.root / GLOSSARY_FILE):
            return ()
        doc = self._read(GLOSSARY_FILE)
        spec = self._validate(GlossaryFile, doc)
        if spec is None or doc is None:  # no spec without the document it is read from
            return ()
        self._unique([t.term for t in spec.glossary], doc, ("glossary",), "term", "term")
        out = []
        self.glossary_written = tuple(term.text for term in spec.glossary)
        for i, term in enumerate(spec.glossary):
            text, errors = ruletext.render(term.text, context)
            self.problems += [self._text_problem(doc, ("glossary", i, "text"), e) for e in errors]
            out.append((term.term, text or ""))
        return tuple(out)

    def _counters(self, spec: GameFile, doc: Document, context: dict[str, Any]) -> tuple[Counter, ...]:
        self._unique([c.id for c in spec.counters], doc, ("counters",), "id", "counter id")
        counters = []
        for i, c in enumerate(spec.counters):
            values = {bound: self._number(getattr(c, bound), doc, ("counters", i, bound), context)
                      for bound in ("start", "min", "max")}
            lo, hi, start = values["min"], values["max"], values["start"]
            if start is not None and ((lo is not None and start < lo) or (hi is not None and start > hi)):
                self.problems.append(doc.problem(("counters", i, "start"), f"start ({start}) lies outside min..max ({lo}..{hi})"))
            if start is None:  # its constant is not a whole number, reported above: the game is not made
                continue
            counters.append(Counter(c.id, c.label, c.scope, start, lo, hi, c.step))
        return tuple(counters)


    def _number(self, written: int | str | None, doc: Document, loc: Loc, context: dict[str, Any]) -> int | None:
        """A number written as itself or as the name of a whole-number constant; None (and a
        problem, for a name that is no such constant) if it cannot be told."""
        if not isinstance(written, str):
            return written
        value = _constant(written, context)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        hint = did_you_mean(written, [k for k, v in context.items() if isinstance(v, int)])
        self.problems.append(doc.problem(loc, f"'{written}' is not a whole-number constant{hint}"))
        return None

    def _end(self, spec: GameFile, doc: Document, context: dict[str, Any], counters: tuple[Counter, ...]) -> End | None:
        """game.yaml's `end:` with its numbers resolved, or None; a problem for each way it would
        not work (a counter the game lacks or that belongs to the table, a value nobody starts
        short of or can reach, the last one standing where nobody goes out)."""
        end = spec.end
        if end is None:
            return None
        generic = GameFile.model_fields["ruleset"].default
        if spec.ruleset != generic:
            self.problems.append(doc.problem(("end",), f"end says how a game of YAML alone ends; the ruleset "
                                             f"'{spec.ruleset}' has its own end in its rules: take end out", key=True))
            return None
        written = [c.id for c in spec.counters]
        out = self._threshold(end.out.counter, end.out.at_most, ("end", "out"), "at_most", doc, context, counters,
                              written) if end.out else None
        reach = None
        if end.win is not None and end.win.counter is not None and end.win.at_least is not None:
            reach = self._threshold(end.win.counter, end.win.at_least, ("end", "win"), "at_least", doc, context, counters,
                                    written)
        if end.win is not None and end.win.last_standing and end.out is None:
            self.problems.append(doc.problem(("end", "win"), "the last one standing wins only where players go out: "
                                             "say when with out: {counter: health, at_most: 0}"))
        for found, bound in ((out, "at_most"), (reach, "at_least")):
            counter = next((c for c in counters if found and c.id == found.counter), None)
            if found is None or counter is None:
                continue
            where = ("end", "out" if bound == "at_most" else "win", bound)
            never = _never(counter, found.value, bound)
            if never:
                self.problems.append(doc.problem(where, never))
        if (end.out and out is None) or (end.win and end.win.counter and reach is None):
            return None  # its problems are said above: the game is not made
        return End(out=out, reach=reach)

    def _threshold(self, counter_id: str, written: int | str, loc: Loc, bound: str, doc: Document,
                   context: dict[str, Any], counters: tuple[Counter, ...], ids: list[str]) -> Threshold | None:
        """A player's counter and its value in `end:`; None and a problem for a counter the game
        lacks (`ids`: those game.yaml writes), one that belongs to the table, or a name that is no
        whole-number constant (a counter written but not made has its own problem said)."""
        value = self._number(written, doc, loc + (bound,), context)
        counter = next((c for c in counters if c.id == counter_id), None)
        if counter is None and counter_id in ids:
            return None
        if counter is None:
            hint = did_you_mean(counter_id, ids) or (f"; its counters are {one_of(ids)}" if ids else "; it has no counters")
            self.problems.append(doc.problem(loc + ("counter",), f"the game counts no '{counter_id}'{hint}"))
            return None
        if counter.scope != "player":
            self.problems.append(doc.problem(loc + ("counter",), f"'{counter_id}' belongs to the whole table (scope: "
                                             f"{counter.scope}); a player goes out or wins by a counter of their own"))
            return None
        return None if value is None else Threshold(counter_id, value)


def _never(counter: Counter, value: int, bound: str) -> str | None:
    """Why a counter held to `value` (at or below it for `at_most`, at or above for `at_least`)
    would end the game at once or never; None if it may end it in play."""
    c = f"'{counter.id}'"
    if bound == "at_most":
        if counter.start <= value:
            return f"every player would start out: {c} starts at {counter.start}, at most {value} is out"
        if counter.min is not None and counter.min > value:
            return f"nobody would ever be out: {c} stops at {counter.min} (its min), above {value}"
        return None
    if counter.start >= value:
        return f"every player would have won at the start: {c} starts at {counter.start}, at least {value} wins"
    if counter.max is not None and counter.max < value:
        return f"nobody could ever win: {c} stops at {counter.max} (its max), below {value}"
    return None


def _words(text: str) -> str:
    return " ".join(text.casefold().split())


def _mapping(doc: Document) -> dict[Any, Any]:
    """The data of a document that `_GameLoader._read` accepted: it refuses all but a mapping."""
    assert isinstance(doc.data, dict)
    return doc.data


def _constant(dotted: str, context: dict[str, Any]) -> object:
    value: Any = context
    for part in dotted.split("."):
        if not isinstance(value, dict) or part not in value:
            return None
        value = value[part]
    return value


def _element_names(doc: Document | None) -> list[str] | None:
    """The element names game.yaml declares, read leniently so that cards are checked even
    when game.yaml has problems of its own; None when they cannot be told."""
    raw = _mapping(doc).get("elements", []) if doc is not None else None
    if not isinstance(raw, list):
        return None
    return [e["name"] for e in raw if isinstance(e, dict) and isinstance(e.get("name"), str)]


@dataclass(frozen=True)
class _Misfit:
    """Why a card's value does not fit its field, and where inside the value."""

    loc: Loc
    message: str


def _field_value(value: Any, spec: FieldSpec, elements: list[str] | None) -> FieldValue | _Misfit:
    """The value (as YAML gives it) if it fits the field, else where and why it does not."""
    t = spec.type
    if t == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            return _Misfit((), f"expected a whole number, got {describe(value)}")
        if spec.min is not None and value < spec.min:
            return _Misfit((), f"must be at least {spec.min}, got {value}")
        if spec.max is not None and value > spec.max:
            return _Misfit((), f"must be at most {spec.max}, got {value}")
        return value
    if t == "flag":
        if not isinstance(value, bool):
            return _Misfit((), f"expected true or false, got {describe(value)}")
        return value
    if t in ("text", "line", "choice", "element"):
        if not isinstance(value, str) or not value.strip():
            return _Misfit((), f"expected text, got {describe(value)}{quote_hint(value)}")
        if why := unprintable(value):
            return _Misfit((), why)
        if t == "choice":
            assert spec.choices is not None  # FieldSpec: a 'choice' field has choices
            if value not in spec.choices:
                return _Misfit((), f"unknown value '{value}'{did_you_mean(value, spec.choices) or '; expected ' + one_of(spec.choices)}")
        if t == "element":
            return _element(value, elements, ())
        return value
    # elements: a list of element names
    if not isinstance(value, list):
        return _Misfit((), f"expected a list of elements, got {describe(value)}")
    for i, item in enumerate(value):
        misfit = _element(item, elements, (i,))
        if isinstance(misfit, _Misfit):
            return misfit
    if spec.min is not None and len(value) < spec.min:
        return _Misfit((), f"must list at least {spec.min} element(s), got {len(value)}")
    if spec.max is not None and len(value) > spec.max:
        return _Misfit((), f"must list at most {spec.max} element(s), got {len(value)}")
    return tuple(value)


def _element(value: Any, elements: list[str] | None, loc: Loc) -> str | _Misfit:
    if not isinstance(value, str):
        return _Misfit(loc, f"expected an element's name, got {describe(value)}")
    if elements is not None and value not in elements:
        known = f"; the elements are {one_of(elements)}" if elements else "; this game declares no elements"
        hint = did_you_mean(value, elements) or known
        return _Misfit(loc, f"unknown element '{value}'{hint}")
    return value


class _Report:
    """Positions for the ruleset checks' findings."""

    def __init__(self, loader: _GameLoader, game_doc: Document):
        self.loader, self.game_doc = loader, game_doc

    def constant(self, loc: Loc, message: str, *, key: bool = False) -> None:
        self.loader.problems.append(self.game_doc.problem(("constants",) + loc, message, key=key))

    def card(self, card: Card, loc: Loc, message: str) -> None:
        doc, card_loc = self.loader.card_at[card.id]
        self.loader.problems.append(doc.problem(card_loc + loc, message))


def _layouts_named_at(spec: DecksFile, doc: Document) -> dict[str, str]:
    """Each layout decks.yaml names (card types' fronts and backs, decks' backs), with where it
    first names it: a missing layout is reported there, not at the file that is not there."""
    named = [(t.template, ("card_types", tid, "template")) for tid, t in spec.card_types.items()]
    named += [(t.back, ("card_types", tid, "back")) for tid, t in spec.card_types.items() if t.back]
    named += [(d.back, ("decks", did, "back")) for did, d in spec.decks.items()]
    out: dict[str, str] = {}
    for name, loc in named:
        out.setdefault(name, "{}:{}:{}".format(doc.shown, *doc.position(loc)))
    return out


def _fields_at(spec: DecksFile, doc: Document) -> dict[tuple[str, str], str]:
    """Where decks.yaml declares each card type's fields: a field no layout draws is warned of there."""
    return {(tid, fname): "{}:{}:{}".format(doc.shown, *doc.position(("card_types", tid, "fields", fname), key=True))
            for tid, ctype in spec.card_types.items() for fname in ctype.fields}


def _column_kinds(spec: DecksFile | None, deck_id: str) -> csvsource.Kinds:
    """What each column of a deck's spreadsheet holds, by the row's card type (csvsource.py)."""
    deck = spec.decks.get(deck_id) if spec else None
    return _kinds(spec.card_types if spec else {}, deck.types[0] if deck else None)


def _kinds(card_types: Mapping[str, CardTypeSpec], default: str | None) -> csvsource.Kinds:
    def kind(type_id: str | None, column: str) -> str:
        if column == "count":
            return "count"
        ctype = card_types.get(type_id or default or "")
        field = ctype.fields.get(column) if ctype else None
        return field.type if field else ("text" if column in CARD_KEYS else "")

    return kind


_FONT_PATH = "a font's path starts at the game's directory ({root}/) and stays inside it, like fonts/Title.ttf"
_OWN_FILE = "a game's files are kept in its directory ({root}/); a link to a file elsewhere in the game is fine"


def _source(root: Path, path: Path, kinds: csvsource.Kinds | None = None) -> tuple[Document | None, list[Problem]]:
    """The file of the game in `root` at `path` read: a spreadsheet if it ends in .csv (its
    columns' `kinds`), else YAML; never a file a link leads to out of the game's directory."""
    try:
        paths.inside(root, path.name, _OWN_FILE)
    except paths.Outside as outside:
        return None, [Problem(display_path(path), 0, 0, "", str(outside))]
    if path.suffix == ".csv":
        return csvsource.read(path, kinds or _kinds({}, None))
    return read(path)


def written_cards(game: Game) -> dict[str, list[dict[str, Any]]]:
    """Each deck's cards as its card files write them (text before the constants are filled in),
    in the order the loader reads them: what `spellpress export csv` writes."""
    decks: dict[str, list[dict[str, Any]]] = {d: [] for d in game.decks}
    for path in card_files(game.root):
        default = game.decks[path.stem].types[0] if path.stem in game.decks else None
        doc, _ = _source(game.root, path, _kinds(game.card_types, default))
        if doc is None or not isinstance(doc.data, dict):
            raise ValueError(f"{display_path(path)} changed since the game was loaded; validate it again")
        for deck_id, cards in doc.data.items():
            decks[deck_id] += cards
    return decks
