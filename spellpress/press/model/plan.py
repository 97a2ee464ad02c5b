"""Planning a build: every game loaded, every face laid out, each rulebook's markup rendered
and read, each playmat laid out; and every problem found on the way, reported at once.

`spellpress validate` plans without building, so whatever would stop a build (a text that does
not fit, a rulebook directive the markup does not know) is reported by both alike.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import jinja2

from ... import defaults
from ...core import Game, ValidationFailed, gameicons, load_games
from ...core.problems import Problem, did_you_mean, display_path
from ...core.yamlsource import read
from ..drawing import fonts, markup, playmat, rulebook, templatelines, tokens, vision
from ..drawing.displaylist import Text
from ..drawing.faces import RENDERER_VERSION, FaceMemo, FaceOut
from ..drawing.layout import Layouter
from ..drawing.templates import Layout, Templates
from .options import Options
from .session import BuildSession


@dataclass
class GamePlan:
    game: Game
    fronts: dict[str, FaceOut] = field(default_factory=dict)  # card id -> front
    backs: dict[str, FaceOut] = field(default_factory=dict)  # card id -> its back (shared or own)
    deck_backs: dict[str, FaceOut] = field(default_factory=dict)  # deck id -> the deck's back
    book: rulebook.Book | None = None
    mat: playmat.Mat | None = None
    tokens: tuple[tokens.TokenDeck, ...] = ()  # the decks that print as punch-out pieces
    ink: str = "full"  # the ink mode it is laid out in (options.INKS)
    identity: bool = True  # its cards carry their number and the game's version


def plan(options: Options, session: BuildSession | None = None,
         games: Sequence[Game] | None = None) -> tuple[list[GamePlan], list[str]]:
    """Load (unless the caller has: `games`, as options name them) and lay out every face;
    raises ValidationFailed with every problem of every game."""
    session = session or BuildSession()
    if games is None:
        games = load_games(options.cards, list(options.games) or None)
    templates, icons = session.layouts(options.templates)
    problems: list[Problem] = []
    warnings: list[str] = []
    plans = []
    base = hashlib.sha256(f"{RENDERER_VERSION}:{fonts.fingerprint()}".encode()).hexdigest()

    for game in games:
        ink = options.ink or game.ink
        identity = game.identity if options.identity is None else options.identity
        layouter = Layouter(game, icons, ink, identity, options.allow_missing_art)
        found = len(problems)
        layouts = _checked_layouts(game, templates, layouter, options.templates, problems)
        layout = layouts.get
        warnings += _undrawn_fields(game, layouts, layouter)
        memo = f"{game.slug}:{ink}"  # each ink's faces kept apart: a session may build several
        faces = FaceMemo(session.faces.get(memo, {}), game, layouter, icons, base)
        p = GamePlan(game, ink=ink, identity=identity)
        seen: set[tuple[str, str]] = set()  # (front layout, back layout) pairs whose sizes were compared
        for deck in game.decks.values():
            back = layout(deck.back)
            if back is not None:
                p.deck_backs[deck.id] = faces.draw(f"back-{deck.id}", layouter.deck_face(deck), back)
            for card in deck.cards:
                ctype = game.card_types[card.type]
                front = layout(ctype.template)
                if front is not None:
                    p.fronts[card.id] = faces.draw(card.id, layouter.card_face(card), front)
                if ctype.back:
                    own = layout(ctype.back)
                    if own is not None:
                        p.backs[card.id] = faces.draw(f"{card.id}-back", layouter.card_face(card), own)
                    if front is not None and own is not None:
                        problems.extend(_sizes_differ(game, front, own, ctype.back, seen))
                elif deck.id in p.deck_backs:
                    p.backs[card.id] = p.deck_backs[deck.id]
                if not ctype.back and front is not None and back is not None:
                    problems.extend(_sizes_differ(game, front, back, deck.back, seen))
        session.faces[memo] = faces.now  # only this plan's faces: an edited card's old face is let go
        problems += _missing_glyphs(game, layouter, p)
        if ink == "full" and not layouter.problems and len(problems) == found:  # every face drawn, in colour
            warnings += colour_vision(game, p, templates, layouts)
        if "rulebook" in options.kinds and not layouter.problems and len(problems) == found:  # every face drawn
            p.book = _book(game, options.templates, templates, layouter, p, problems)
            book = options.templates / "rulebook" / f"{game.slug}.md.j2"
            if not book.is_file():  # a fallback is said (issue: a copied game lost its Reference with no word)
                base = display_path(defaults.find(options.templates, "rulebook/base.md.j2"))
                warnings.append(f"{game.slug}: no rulebook template {display_path(book)}: the rulebook is the shared "
                                f"{base} (copy it to that name to lay the book out yourself)")
        if "playmat" in options.kinds:
            try:
                p.mat = playmat.load(game, options.templates, icons, ink)
                warnings += [p.mat.note] if p.mat.note else []
            except ValidationFailed as failed:
                problems += failed.problems
        try:  # a token deck whose back has problems of its own is said once, above
            if all(d.back in layouts for d in game.decks.values() if d.token is not None):
                p.tokens = tokens.lay_out(game, templates, icons, ink)
        except ValidationFailed as failed:
            problems += failed.problems
        problems += layouter.problems
        warnings += layouter.warnings
        plans.append(p)
    if problems:
        raise ValidationFailed(list(dict.fromkeys(problems)))  # a layout two games share: its problem once
    return plans, list(dict.fromkeys(warnings))


def colour_vision(game: Game, p: GamePlan, templates: Templates, layouts: dict[str, Layout]) -> list[str]:
    """Every two colours that tell the game's kinds apart (its layouts' `tells` boxes as the cards
    draw them, and its elements) that some eye cannot tell apart (vision.py), each a warning at
    the line that writes the colour."""
    faces = []
    for deck in game.decks.values():
        if deck.id in p.deck_backs:
            faces.append(vision.Drawn(f"the back of the {deck.name}", deck.back, p.deck_backs[deck.id].drawing))
        for card in deck.cards:
            ctype = game.card_types[card.type]
            if card.id in p.fronts:
                faces.append(vision.Drawn(f"{card.name} ({ctype.name})", ctype.template, p.fronts[card.id].drawing))
            if ctype.back and card.id in p.backs:
                faces.append(vision.Drawn(f"the back of {card.name}", ctype.back, p.backs[card.id].drawing))

    def where(layout: str, boxes: list[str]) -> tuple[str, str]:
        """Where the colour of the top box that fills is written, and that colour."""
        spec = dict(layouts[layout].boxes)
        filled = [name for name in boxes if (box := spec.get(name)) is not None and box.fill is not None]
        name = (filled or boxes)[-1]
        fill = spec[name].fill if name in spec else None
        if fill == "element":
            return f"{display_path(game.root / 'game.yaml')}: elements", ""
        palette = layouts[layout].palette
        loc = ("palette", fill) if fill in palette else ("boxes", name, "fill")
        problem = templates.problem(layout, loc, "")
        place = f"{problem.file}:{problem.line}" if problem.line else problem.file
        return place, palette.get(fill, fill if fill and fill.startswith("#") else "")

    colours = vision.kind_colours(faces, where)
    doc, _ = read(game.root / "game.yaml")
    elements = []
    for i, element in enumerate(game.elements):
        place = display_path(game.root / "game.yaml")
        if doc is not None:
            found = doc.problem(("elements", i, "color"), "")
            place = f"{found.file}:{found.line}"
        elements.append((element.name, vision.hex_color(element.color), place))
    if elements:
        colours = {"element": vision.element_colours(elements), **colours}
    return [f"{game.slug}: {vision.said(clash, colours[clash.tells].values())}" for clash in vision.clashes(colours)]


def _checked_layouts(game: Game, templates: Templates, layouter: Layouter, root: Path,
                     problems: list[Problem]) -> dict[str, Layout]:
    """Every layout the game's cards and decks are drawn with, loaded and its names checked
    before any drawing (issue 26: `validate` knows what `build` would refuse); a layout with a
    problem is left out, so that no card drawn with it says the problem again."""
    names = [deck.back for deck in game.decks.values()]
    for ctype in (game.card_types[t] for t in dict.fromkeys(card.type for card in game.cards)):
        names += [ctype.template, *([ctype.back] if ctype.back else [])]
    out = {}
    for name in dict.fromkeys(names):
        try:
            layout = templates.get(name)
        except ValidationFailed as failed:
            problems.extend(_where_named(game, name, root, failed.problems))
            continue
        unknown = templates.unknown_colours(name)
        unknown += [templates.problem(name, loc, message) for loc, message in layouter.unknown_names(layout)]
        problems += unknown
        if not unknown:
            out[name] = layout
    return out


def _missing_glyphs(game: Game, layouter: Layouter, p: GamePlan) -> list[Problem]:
    """Every character a card's text sets in a face that has no glyph for it (it would print as
    the face's empty box, in the PDF and the PNG alike): for a game's own face, one problem at the
    line of game.yaml that names it, listing the characters and the first cards that set them;
    for the package's faces, one at each card."""
    shown = [(f"card '{key}'", face, _card_at(game, key)) for key, face in p.fronts.items()]
    backs = {face.key: face for face in (*p.backs.values(), *p.deck_backs.values())}
    for key, face in backs.items():
        card = key[:-len("-back")] if key.endswith("-back") else None
        label = f"the back of card '{card}'" if card else f"the back of deck '{key[len('back-'):]}'"
        shown.append((label, face, _card_at(game, card) if card else (display_path(game.root / "decks.yaml"), 0, 0)))
    own: dict[str, dict[str, str]] = {}  # a game's face -> character -> the first face that sets it there
    problems = []
    for label, face, (file, line, column) in shown:
        lacking: dict[str, set[str]] = {}
        for item in face.drawing.items:
            if isinstance(item, Text) and (gone := fonts.missing(item.text, item.font)):
                lacking.setdefault(item.font, set()).update(gone)
        for font, chars in sorted(lacking.items()):
            if fonts.own(font):
                for ch in sorted(chars):
                    own.setdefault(font, {}).setdefault(ch, label)
                continue
            problems.append(Problem(file, line, column, "", (
                f"{label}: the package's {'display' if font == 'display' else 'text'} face ({fonts.name(font)}) has no "
                f"glyph for {_chars(chars)}, which would print as an empty box: write the text without it, or name a "
                f"face that has it in game.yaml (fonts: {{{font}: fonts/Face.ttf}})")))
    for font, first in own.items():
        for role in [r for r, k in layouter.faces.items() if k == font]:
            named, at, col = game.fonts_at[role].rsplit(":", 2)
            cards = list(dict.fromkeys(first.values()))
            more = f" and {len(cards) - 3} more" if len(cards) > 3 else ""
            problems.append(Problem(named, int(at), int(col), f"fonts.{role}", (
                f"the font '{game.fonts[role].relative_to(game.root).as_posix()}' ({fonts.name(font)}) has no glyph for "
                f"{_chars(set(first))}, which the cards set in it ({', '.join(cards[:3])}{more}) and which would print "
                "as an empty box: name a face that has them, or write the text without them")))
    return problems


def _chars(chars: set[str]) -> str:
    """Characters as a designer can find them: each itself and its code point."""
    said = [f"'{ch}' (U+{ord(ch):04X})" for ch in sorted(chars)]
    return ", ".join(said[:8]) + (f" and {len(said) - 8} more" if len(said) > 8 else "")


def _card_at(game: Game, card_id: str) -> tuple[str, int, int]:
    """Where a card is written: its file, line and column."""
    file, line, column = (game.card(card_id).where or f"{display_path(game.root)}:0:0").rsplit(":", 2)
    return file, int(line), int(column)


def _undrawn_fields(game: Game, layouts: dict[str, Layout], layouter: Layouter) -> list[str]:
    """A warning at each field a card type declares in decks.yaml that no layout of that type
    draws; none for a type whose layouts have problems of their own (said already). Only in a
    game of YAML alone (the generic ruleset), where a field does nothing unless it is printed:
    a ruleset's engine reads its fields (a spell's `wet_multiplier`), which the card's text
    tells in words."""
    if game.ruleset != "generic":
        return []
    out = []
    for tid, ctype in game.card_types.items():
        names = [ctype.template, *([ctype.back] if ctype.back else [])]
        if not all(n in layouts for n in names):
            continue
        for key in layouter.undrawn_fields(tid, [layouts[n] for n in names]):
            where = game.fields_at.get((tid, key), display_path(game.root / "decks.yaml"))
            out.append(f"{where}: card_types.{tid}.fields.{key}: no layout of card type '{tid}' draws '{key}' "
                       f"({', '.join(names)}): show it in a box (`field: {key}` for a number or elements, "
                       f"'{{{key}}}' in a text), or take it out if the cards need it not")
    return out


def _sizes_differ(game: Game, front, back, named: str, seen: set[tuple[str, str]]) -> list[Problem]:
    """A card's back is printed behind its front, on the same grid: a back layout of another
    size than its front's is a problem where decks.yaml names the back (once a pair)."""
    if (front.name, back.name) in seen:
        return []
    seen.add((front.name, back.name))
    if (front.width, front.height) == (back.width, back.height):
        return []
    file, line, column = (game.layouts_named_at.get(named) or f"{display_path(Path('decks.yaml'))}:0:0").rsplit(":", 2)
    return [Problem(file, int(line), int(column), "", (
        f"the back '{named}' is {back.width:g} x {back.height:g} mm, but the cards of '{front.name}' it backs are "
        f"{front.width:g} x {front.height:g} mm: a back is printed behind its front, so give both layouts one size"))]


def _where_named(game: Game, name: str, root: Path, problems: list[Problem]) -> list[Problem]:
    """A layout that does not exist is a mistake in decks.yaml: said at the line that names it."""
    named = game.layouts_named_at.get(name)
    if named is None or defaults.find(root, f"{name}.yaml").is_file():
        return problems
    file, line, column = named.rsplit(":", 2)
    missing = display_path(root / f"{name}.yaml")
    return [replace(p, file=file, line=int(line), column=int(column), message=f"{p.message}; looked for {missing}")
            if p.file == missing else p for p in problems]


def _icons_shown(game: Game, templates: Templates) -> list[str]:
    """The game-icons.net icons its cards show: their own `art:`, else their layout's art box's;
    and those its layouts draw in icon boxes and medallions (`flank`), its backs' too."""
    shown = []
    for card in game.cards:
        own = gameicons.named(card.art)
        if own is not None:
            shown.append(own)
        elif not card.art and not card.get("icon"):
            layout = templates.get(game.card_types[card.type].template)
            shown += [name for _, box in layout.boxes if box.kind == "art" and (name := gameicons.named(box.icon)) is not None]
    names = [deck.back for deck in game.decks.values()]
    for ctype in (game.card_types[t] for t in dict.fromkeys(card.type for card in game.cards)):
        names += [ctype.template, *([ctype.back] if ctype.back else [])]
    for layout in map(templates.get, dict.fromkeys(names)):
        shown += [name for _, box in layout.boxes for icon in (box.icon if box.kind == "icon" else None, box.flank)
                  if (name := gameicons.named(icon)) is not None]
    return sorted(set(shown))


def _book(game: Game, root: Path, templates: Templates, layouter: Layouter, p: GamePlan,
          problems: list[Problem]) -> rulebook.Book | None:
    """The rulebook's markup, read, and the card drawings it shows; a problem in it is
    reported at the line of its template, like a problem in a card."""
    try:
        rendered = rulebook.render_markup(game, root)
    except jinja2.TemplateSyntaxError as exc:
        where = display_path(Path(exc.filename or root / "rulebook"))
        problems.append(Problem(where, exc.lineno or 0, 1, "", f"rulebook template: {exc.message}"))
        return None
    except templatelines.OverBudget as exc:
        problems.append(Problem(display_path(Path(exc.file)), exc.line, 1 if exc.line else 0, "", f"rulebook template: {exc}"))
        return None
    except jinja2.TemplateError as exc:
        file, line = templatelines.raised_at(exc) or (root / "rulebook" / f"{game.slug}.md.j2", 0)
        problems.append(Problem(display_path(Path(file)), line, 1 if line else 0, "", f"rulebook template: {exc}"))
        return None
    parsed = markup.parse(rendered.text)
    shown = _icons_shown(game, templates)
    if shown or game.fonts:  # CC BY 3.0: the book credits the icons its cards show, whatever its template says;
        # and with them the faces it and its cards are set in (the package's, under the OFL; a game's own)
        said = gameicons.credits(shown, layouter.game_icons) if shown else "::: pagebreak\n# Credits\n"
        credits = markup.parse(f"{said}\n{rulebook.type_credits(game, layouter.faces)}\n").blocks
        parsed = replace(parsed, blocks=(*parsed.blocks, *credits), lines=(*parsed.lines, *(0 for _ in credits)))
    found = len(problems)

    def problem(line: int, message: str) -> None:
        file, at, column = rendered.origin(line)
        problems.append(Problem(display_path(Path(file)), at, column, "", message))

    for line, message in parsed.problems:
        problem(line, message)
    samples = []
    for block, line in zip(parsed.blocks, parsed.lines):
        if isinstance(block, markup.Directive) and block.word == "sample":
            try:
                card = game.card(block.arg)
            except KeyError:
                problem(line, f"the rulebook shows card '{block.arg}', which {game.slug} does not have"
                              f"{did_you_mean(block.arg, [c.id for c in game.cards])}")
                continue
            layout = templates.get(game.card_types[card.type].template)
            parts = tuple(layouter.parts(card, layout))
            samples.append((block.arg, rulebook.Sample(p.fronts[block.arg].drawing, parts)))
    if len(problems) > found:
        return None
    own = (root / game.slug / "card.yaml").is_file()  # the book in the colours of the game's cards, in its ink
    style = templates.get(f"{game.slug}/card").ink(p.ink) if own else templates.get("card").ink(p.ink)
    fanned = tuple(p.fronts[deck.cards[0].id].drawing for deck in list(game.decks.values())[:3] if deck.cards)
    return rulebook.Book(
        title=game.title, pitch=game.pitch, blocks=parsed.blocks,
        accent=style.hex("band", "#3d3550"), cover=style.hex("frame", "#2b2438", ground=True),
        element_colors=tuple((e.name, style.element(e.color)) for e in game.elements),
        samples=tuple(samples), fanned=fanned,
    )
