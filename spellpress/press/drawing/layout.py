"""A card plus its layout becomes a Drawing: text set with the font's own metrics, icons placed.

Text is wrapped greedily and shrunk a quarter point at a time down to its box's `min_size`;
text that still does not fit is a problem that names the card. `{fire}` in text is an inline
icon: an element's disc, or any icon of icons.yaml (the project's templates/, else the package's: spellpress/defaults/).
"""

from __future__ import annotations

import colorsys
import hashlib
import math
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import cast, overload

from ...core import gameicons, paths, pictures, ruletext
from ...core.models import ART_FOCUS, Card, Deck, Game
from ...core.problems import Problem, did_you_mean, display_path
from . import displaylist, edges, fonts, shading, vectors
from .displaylist import Area, Color, Drawing, Ellipse, Image, Mark, Part, Poly, Primitive, Rect, Text
from .icons import WHITE, IconSet
from .templates import Box, Ink, Layout

PT = 25.4 / 72  # millimetres per point
MIN_TEXT_SIZE = 7.0  # no card text below 7 pt (issue 14); templates.Box refuses a smaller size
TITLE_FLOOR = MIN_TEXT_SIZE  # a title shrinks to its box's min_size, else to this, before it breaks
TITLE_PAD = 1.5  # mm: a title's ink stays this far inside its box's left and right edges (issue 28, defect 7)
_BOLDER = {"regular": "bold", "italic": "bold-italic"}  # what **text** turns a face into
_ICON = re.compile(r"\{([a-z0-9-]+)\}")
_FIELD = re.compile(r"\{([a-z_][a-z0-9_]*)\}")


class DoesNotFit(Exception):
    """A box that cannot be drawn as its layout asks: text too long, an unknown icon..."""


def hex_color(value: str) -> Color:
    return int(value[1:3], 16), int(value[3:5], 16), int(value[5:7], 16)


def mix(a: Color, b: Color, t: float) -> Color:
    red, green, blue = (round(x + (y - x) * t) for x, y in zip(a, b))
    return red, green, blue


@dataclass
class Face:
    """What a layout is drawn with: a card's values, or a deck's for a shared back."""

    values: dict  # placeholder name -> value
    elements: tuple[str, ...]  # the card's elements, for 'element' colours and art
    art: Path | None
    seed: str  # varies the generated art
    label: str  # how problems name it: "card 'fire-bolt'"
    where: tuple[str, int, int] = ("", 0, 0)  # the card's file, line and column
    art_px: tuple[int, int] | None = None  # the picture's width and height
    art_about: str = ""  # how warnings name the picture: "cards/x/spells.yaml:4:10: card 'fire-bolt': art 'art/bolt.png'"
    art_fit: str | None = None  # the card's own; None: its layout's art box says
    art_focus: tuple[float, float] | None = None
    icon: str | None = None  # the game icon its `art:` names (`game-icons:fire-ray`: 'fire-ray')


class Layouter:
    """Lays out a game's faces in one ink mode (`full`, `saver`, `mono`: the palette each layout
    gives that mode, see templates.InkSpec), each card with its identity (its number in the game,
    the total and the game's version, for `{identity}` in a footer) unless `identity` is off."""

    def __init__(self, game: Game, icons: IconSet, ink: str = "full", identity: bool = True,
                 allow_missing_art: bool = False):
        self.game = game
        self.icons = icons
        self.ink, self.identity = ink, identity
        self.style = Ink({})  # the colours of the layout being drawn, in this ink
        self.band: Color | None = None  # the colour of the title band drawn so far on the face being drawn
        self.allow_missing_art = allow_missing_art  # an early draft: a missing picture is a placeholder, not a problem
        self._pictures: dict[str, tuple[Path | None, tuple[int, int] | None]] = {}  # card id -> its checked picture
        self._vector: set[Path] = set()  # the pictures that are SVGs, drawn as vectors
        self.game_icons = gameicons.library(game.root)  # the icons of game-icons.net its cards may name
        self.colors = {e.name: hex_color(e.color) for e in game.elements}
        self.icon_names = {e.icon for e in game.elements} | set(icons.shapes)
        self.numbers = {card.id: n for n, card in enumerate(game.cards, start=1)}  # the checklist's order
        # every placeholder a layout may name: a field of any card type is empty on cards
        # that lack it; any other name is a mistake in the layout
        self.placeholders = {"name", "flavor", "count", "type", "deck", "game", "hand",
                             "card_number", "cards_total", "game_version", "identity"}
        for ctype in game.card_types.values():
            for key, spec in ctype.fields.items():
                self.placeholders.add(key)
                if spec.type in ("element", "elements"):
                    self.placeholders |= {f"{key}_icons", f"{key}_or"}
        self.problems: list[Problem] = []
        self.warnings: list[str] = []
        self.faces = self._faces()  # a layout's `font:` (a role) -> the face it is set in (a fonts key)

    def _faces(self) -> dict[str, str]:
        """Each role's face: the game's own file where game.yaml names one that reportlab can
        read (the loader has checked its header), else the package's; a file it cannot read is a
        problem at the line that names it, and the package's face stands in so the cards are
        still laid out and every other problem said."""
        out = fonts.faces(self.game.fonts)
        for role, key in out.items():
            if not fonts.own(key):
                continue
            try:
                fonts.registered(key)
            except fonts.Unreadable as exc:
                file, line, column = self.game.fonts_at.get(role, "game.yaml:0:0").rsplit(":", 2)
                self.problems.append(Problem(file, int(line), int(column), f"fonts.{role}",
                                            f"the font file '{self.game.fonts[role].relative_to(self.game.root).as_posix()}' {exc}; "
                                            "name a TrueType (.ttf) file"))
                out[role] = role
        return out

    def _width(self, text: str, role: str, size: float) -> float:
        """Width of `text` in millimetres at `size` points, in the face the game sets `role` in."""
        return fonts.width(text, self.faces[role], size)

    # -- faces

    def card_face(self, card: Card) -> Face:
        deck = self.game.decks[card.deck]
        values = {"name": card.name, "flavor": card.flavor or "", "count": card.count,
                  "type": self.game.card_types[card.type].name, "deck": deck.name, "game": self.game.title,
                  "hand": "yes" if deck.hand else "",  # 'when: hand' draws a box on cards held in a hand
                  **self.stamp(card)}
        elements: list[str] = []
        for key, value in card.fields.items():
            values[key] = ", ".join(value) if isinstance(value, tuple) else value
            spec = self.game.card_types[card.type].fields[key]
            if spec.type in ("element", "elements"):
                # as the game's schema checked it: an element's name, or a tuple of them
                names = [cast(str, value)] if spec.type == "element" else list(cast(tuple[str, ...], value))
                elements += names
                # '{cost_icons}' in a layout's text shows the elements as inline icons
                values[f"{key}_icons"] = " ".join(f"{{{n.lower()}}}" for n in names)
                values[f"{key}_or"] = " or ".join(names)
        icon = gameicons.named(card.art)
        if card.art and icon is None and card.id not in self._pictures:  # a card's front and its own back: checked, and said, once
            self._pictures[card.id] = self._art_file(card, card.art)
        picture, art_px = self._pictures[card.id] if card.art and icon is None else (None, None)
        file, line, column = card.where.rsplit(":", 2) if card.where else ("", 0, 0)
        return Face(values, tuple(dict.fromkeys(elements)), picture, card.id, f"card '{card.id}'", (file, int(line), int(column)),
                    art_px, f"{card.art_where or card.where}: card '{card.id}': art '{card.art}'", card.art_fit, card.art_focus,
                    icon)

    def _art_file(self, card: Card, art_path: str) -> tuple[Path | None, tuple[int, int] | None]:
        """The card's picture and its size in pixels, or None (a placeholder is drawn) and a
        problem why; a missing file is only a warning in an early draft (allow_missing_art). A
        path out of the game's directory was refused when the game loaded; it is checked again
        here, where the file is read."""
        file, line, column = (card.art_where or card.where or "::").rsplit(":", 2)
        at = (file, int(line or 0), int(column or 0))
        try:
            path = paths.inside(self.game.root, art_path)
        except paths.Outside as exc:
            self.problems.append(Problem(*at, "", f"card '{card.id}': art {exc}"))
            return None, None
        if not path.exists():
            if self.allow_missing_art:
                self.warnings.append(f"{card.art_where or card.where}: card '{card.id}': art file {card.art} not found; "
                                     "drawing a placeholder")
            else:
                self.problems.append(Problem(*at, "", f"card '{card.id}': art file '{card.art}' not found: looked for "
                                             f"{display_path(path)}{paths.nearby(path)}; a picture's path starts at the game's "
                                             "directory. Add the file or fix the path (or, in an early draft, pass "
                                             "--allow-missing-art to draw a placeholder)"))
            return None, None
        try:
            picture = pictures.check(path)
        except pictures.Refused as exc:
            self.problems.append(Problem(*at, "", f"card '{card.id}': art '{card.art}' {exc}"))
            return None, None
        if picture.vector:
            self._vector.add(path)
        return path, (round(picture.width), round(picture.height))

    def stamp(self, card: Card) -> dict:
        """The card's identity: `card_number`, `cards_total`, `game_version` and `identity`
        ('12/106 · v1.2'), all empty when identity is off ('when: identity' boxes draw nothing)."""
        if not self.identity:
            return {"card_number": "", "cards_total": "", "game_version": "", "identity": ""}
        number, total, version = self.numbers[card.id], len(self.numbers), self.game.version or ""
        return {"card_number": number, "cards_total": total, "game_version": version,
                "identity": f"{number}/{total}" + (f" · v{version}" if version else "")}

    def deck_face(self, deck: Deck) -> Face:
        values = {"name": deck.name, "deck": deck.name, "game": self.game.title, "flavor": "",
                  "count": deck.total, "type": ""}
        return Face(values, tuple(e.name for e in self.game.elements), None, deck.id, f"the back of deck '{deck.id}'",
                    (display_path(self.game.root / "decks.yaml"), 0, 0))

    # -- names, checked before any drawing

    def unknown_names(self, layout: Layout) -> list[tuple[tuple[str, ...], str]]:
        """Each name a layout's boxes give that this game does not know, as (where in the layout,
        what is wrong): a field (`field:`, `when:`, `{field}` in a text), an icon (`icon:`,
        `end:`, `{icon}` in a text) or a constant (`{{ name }}`, a track's numbers). Drawing
        would skip the box silently, or say the problem at every card: issue 26."""
        found: list[tuple[tuple[str, ...], str]] = []
        for name, box in layout.boxes:
            at = ("boxes", name)
            if box.field is not None and box.field not in self.placeholders:
                found.append((at + ("field",), self._unknown_field(box.field)))
            for key in _when_fields(box.when or ""):
                if key not in self.placeholders:
                    found.append((at + ("when",), self._unknown_field(key)))
            found += [(at + ("when",), message) for message in self._unknown_values(box.when or "")]
            for key in ("icon", "end", "shape"):
                value = getattr(box, key)
                drawn = box.kind in (("stat", "track") if key == "shape" else ("icon", "art", "track"))
                if key == "icon" and box.kind in ("art", "icon") and gameicons.named(value) is not None:
                    name = gameicons.named(value) or ""
                    if name not in self.game_icons.icons:
                        found.append((at + (key,), self.game_icons.unknown(name)))
                    continue
                if value is not None and drawn and value not in self.icons:  # a project's icons.yaml may lack it
                    found.append((at + (key,), f"unknown icon '{value}'{did_you_mean(value, sorted(self.icons.shapes))}: "
                                               "an icon is a name of icons.yaml (templates/icons.yaml, "
                                               "else the package's)"))
            if box.flank is not None and box.flank != "element":
                try:
                    self.known_icon(box.flank)
                except DoesNotFit as exc:
                    found.append((at + ("flank",), f"{exc}; a flank is an icon, a game icon or 'element'"))
            if box.text is not None:
                try:
                    self.fill(box.text, Face({}, (), None, "", ""))
                    text, _ = ruletext.render(box.text, self.game.text_context)
                    self._known_icons(text or "")
                except DoesNotFit as exc:
                    found.append((at + ("text",), str(exc)))
            for key in ("start", "stop", "mark"):
                try:
                    self.constant(getattr(box, key))
                except DoesNotFit as exc:
                    found.append((at + (key,), str(exc)))
        return found

    def undrawn_fields(self, type_id: str, layouts: list[Layout]) -> list[str]:
        """The fields card type `type_id` declares that none of its `layouts` (its front, its
        own back) shows: not in a box's `field`, `when` or text, nor in the text its `says`
        sentence goes into; an element colours an `element` box or the generated art, an
        `icon` field the art's emblem (issue 26: a declared field printed nowhere, said nowhere)."""
        shown: set[str | None] = set()
        for layout in layouts:
            for _, box in layout.boxes:
                shown |= {box.field} | set(_when_fields(box.when or "")) | set(_FIELD.findall(box.text or ""))
                if box.kind == "art" or "element" in (box.fill, box.stroke, box.color):
                    shown.add("~elements")
                shown |= {"icon"} if box.kind == "art" else set()
        fields = self.game.card_types[type_id].fields
        drawn = {key for key in fields if {key, f"{key}_icons", f"{key}_or"} & shown}
        drawn |= {key for key, spec in fields.items() if spec.type in ("element", "elements") and "~elements" in shown}
        drawn |= {key for key in fields if (type_id, key) in self.game.fields_in_text}  # a card's text prints it
        said = {key: spec.says for key, spec in fields.items() if spec.says is not None and (spec.into or "text") in drawn}
        for says in said.values():  # a sentence a drawn text holds shows the fields it names
            sentences = [says] if isinstance(says, str) else list(says.values())
            drawn |= {name for sentence in sentences for name in _FIELD.findall(sentence)}
        return [key for key in fields if key not in drawn and key not in said]

    def _unknown_values(self, condition: str) -> list[str]:
        """`when: kind=blot` is never true: a value a choice field cannot have, with the closest
        it can (a deck's name is not checked: a layout may be shared by games)."""
        out = []
        for part in condition.split(" & "):
            op = "!=" if "!=" in part else "=" if "=" in part else None
            if op is None:
                continue
            key, want = (p.strip() for p in part.split(op, 1))
            can = self._values_of(key)
            if want and can is not None and want not in can:
                out.append(f"'{key}' is never '{want}'{did_you_mean(want, sorted(can))}: it is one of "
                           f"{', '.join(repr(v) for v in sorted(can))}")
        return out

    def _values_of(self, key: str) -> set[str] | None:
        """Every value a choice field can have (of every card type that declares it); None for
        any other field."""
        specs = [t.fields[key] for t in self.game.card_types.values() if key in t.fields]
        choices = [spec.choices for spec in specs if spec.choices is not None]
        if not specs or len(choices) < len(specs):
            return None
        return {c for each in choices for c in each}

    def _unknown_field(self, name: str) -> str:
        return (f"unknown field '{name}'{did_you_mean(name, sorted(self.placeholders))}: a field of one of "
                f"{self.game.slug}'s card types (decks.yaml) or one every card has (name, flavor, count, type, deck, ...)")

    def _known_icons(self, text: str) -> None:
        """Every `{icon}` of a text is an element's or one of icons.yaml's."""
        unknown = [m for m in _ICON.findall(text) if m not in self.icon_names and m not in self.placeholders]
        if unknown:
            raise DoesNotFit(f"unknown inline icon '{{{unknown[0]}}}'{did_you_mean(unknown[0], sorted(self.icon_names))}")

    # -- drawing

    def draw(self, face: Face, layout: Layout) -> Drawing:
        self.style = layout.ink(self.ink)
        self.band = None
        items: list[Primitive] = []
        marks: list[Mark] = []
        for name, box in layout.boxes:
            if box.when and not _holds(box.when, face.values):
                continue
            if box.kind == "rect" and (name == "band" or name.endswith("-band")) and box.fill:
                self.band = self._color(box.fill, face, layout)  # the title band this face shows: its deck's, its kind's
            try:
                drawn = self._box(face, layout, box, name)
                flank = self._flank(face, layout, box, drawn) if box.flank else []
                for part, tells, shapes in ((name, box.tells or "", drawn), (f"{name}:flank", "", flank)):
                    if not shapes:
                        continue
                    start = len(items)
                    items += shapes
                    if box.mirror:
                        items += [turn(item, layout.width, layout.height) for item in shapes]
                    marks.append(Mark(part, tells, start, len(items)))
            except DoesNotFit as exc:
                self.problems.append(Problem(*face.where, "", f"{face.label}, box '{name}' of layout {layout.name}: {exc}"))
        if self.style.grey:
            items = [greyed(item) for item in items]
        return Drawing(layout.width, layout.height, layout.bleed, tuple(items), tuple(marks))

    def _flank(self, face: Face, layout: Layout, box: Box, words: list[Primitive]) -> list[Primitive]:
        """A medallion at each end of a text box's words (its `flank`): the card kind's colour
        (the box's `fill`, else the palette's `kind`) with its icon, a pale ring round it; the
        ink saver's and mono's a light disc with the icon in the text's colour. `element`: the
        card's first element's disc. Its words were set narrower to leave it room (_box)."""
        if not words:
            return []
        _, y, _, h = layout.area(box)
        bounds = [edges.bounds(item) for item in words]
        left, right = min(b[0] for b in bounds), max(b[2] for b in bounds)
        top, bottom = min(b[1] for b in bounds), max(b[3] for b in bounds)
        d = _flank_size(h)
        cy = (top + bottom) / 2 if box.valign != "middle" else y + h / 2
        out: list[Primitive] = []
        for cx in (left - FLANK_GAP - d / 2, right + FLANK_GAP + d / 2):
            out += self.medallion(_needed(box.flank), face, layout, box.fill, cx, cy, d, self._color(box.color, face, layout))
        return out

    def medallion(self, icon: str, face: Face, layout: Layout, fill: str | None, cx: float, cy: float, d: float,
                  ink: Color) -> list[Primitive]:
        """A disc of diameter d centred at (cx, cy) holding `icon` (see _flank)."""
        if icon == "element":
            if not face.elements:
                return []
            name = face.elements[0]
            return self.icons.element(name, cx - d / 2, cy - d / 2, d, self.element_color(name), self.style.outline)
        name = fill or ("kind" if "kind" in self.style.palette else "band")
        disc = self._color(name, face, layout, ground=self.style.outline)
        ring = self._color("accent", face, layout) if "accent" in self.style.palette else WHITE
        mark = ink if self.style.outline else WHITE
        r = d / 2
        out: list[Primitive] = [Ellipse(cx, cy, r, r, fill=disc, stroke=ring, width=d * 0.07)]
        size = d * 0.66
        game_icon = gameicons.named(icon)
        if game_icon is not None:
            out += self.game_icon(game_icon, cx - size / 2, cy - size / 2, size, mark)
        else:
            out += self.icons.glyph(icon, cx - size / 2, cy - size / 2, size, mark, disc, self.style.outline)
        return out

    def parts(self, card: Card, layout: Layout) -> list[Part]:
        """Every box the card shows, in the order they are drawn (a later one over an earlier),
        each with where its ink is, its turned copy's too; the parts a rulebook names labelled:
        its text, icons, numbers and picture, as this card shows them."""
        fields = self.game.card_types[card.type].fields
        face = self.card_face(card)
        self.style = layout.ink(self.ink)
        out = []
        for name, box in layout.boxes:
            if box.when and not _holds(box.when, face.values):
                continue
            lines, glyphs, fills = self._marks(face, layout, box, name)
            if box.mirror:
                lines, glyphs, fills = (tuple(turn_area(a, layout.width, layout.height) for a in marks) + marks
                                        for marks in (lines, glyphs, fills))
            if lines or glyphs or fills:
                out.append(Part(name, _part_label(name, box, fields), layout.area(box), box.mirror, lines, glyphs, fills))
        return out

    def _marks(self, face: Face, layout: Layout, box: Box, name: str) -> tuple[tuple[Area, ...], ...]:
        """Where a box puts its ink (mm): its lines of text, its glyphs' squares, and what it fills
        edge to edge; nothing for a box that shows nothing here (a field the card lacks, an
        empty text) or only thin lines (an outline, a texture)."""
        x, y, w, h = layout.area(box)
        if box.kind == "text":
            try:
                return _lines(self._box(face, layout, box, name)), (), ()
            except DoesNotFit:  # a problem draw() has reported
                return (), (), ()
        if box.kind == "stat":
            if face.values.get(box.field) in (None, ""):
                return (), (), ()
            sx, sy, size = stat_square(x, y, w, h, box)
            label = (x, y + size, w, h - size) if box.label else None  # the label under the shape
            return ((label,) if label else ()), ((sx, sy, size, size),), ()
        if box.kind == "icons":
            names = _icon_names(face.values.get(box.field, ""))
            return (), tuple((ix, iy, size, size) for ix, iy, size in icon_squares(len(names), x, y, w, h, box.align)), ()
        if box.kind == "icon":
            size = min(w, h)
            return (), ((x + (w - size) / 2, y + (h - size) / 2, size, size),), ()
        if box.kind == "ellipse" and box.fill:
            return (), ((x, y, w, h),), ()
        if box.kind in ("art", "track") or (box.kind == "rect" and box.fill):
            return (), (), ((x, y, w, h),)
        return (), (), ()

    @overload
    def _color(self, name: str, face: Face, layout: Layout, ground: bool = False) -> Color: ...
    @overload
    def _color(self, name: str | None, face: Face, layout: Layout, ground: bool = False) -> Color | None: ...

    def _color(self, name: str | None, face: Face, layout: Layout, ground: bool = False) -> Color | None:
        """A box's colour by its name in the palette of this ink; a `ground` (an area's fill)
        made as much lighter as the ink says."""
        if name is None:
            return None
        palette = self.style.palette
        if name.startswith("#"):
            color = hex_color(name)
        elif name == "element":
            color = self.element_color(face.elements[0]) if face.elements else hex_color(palette.get("accent", "#888888"))
        else:
            color = hex_color(palette[name]) if name in palette else (0, 0, 0)
        share = dict(self.style.grounds).get(name, 0.0) if ground else 0.0
        return mix(color, WHITE, share) if share else color

    def element_color(self, name: str) -> Color:
        """An element's colour in this ink: its own (game.yaml), or the one the ink gives all."""
        return hex_color(self.style.elements) if self.style.elements else self.colors.get(name, (90, 90, 90))

    def _box(self, face: Face, layout: Layout, box: Box, name: str = "") -> list[Primitive]:
        x, y, w, h = layout.area(box)
        fill, stroke = self._color(box.fill, face, layout), self._color(box.stroke, face, layout)
        ground = self._color(box.fill, face, layout, ground=True)
        if box.kind == "rect" and box.shade and ground is not None:
            return self._shaded(box, x, y, w, h, ground, stroke)
        if box.kind == "rect":
            return [Rect(x, y, w, h, ground, stroke, box.width if stroke else 0, box.radius)]
        if box.kind == "ellipse":
            return [Ellipse(x + w / 2, y + h / 2, w / 2, h / 2, ground, stroke, box.width if stroke else 0)]
        if box.kind == "text":
            text = self.fill(_needed(box.text), face)
            if not text.strip():
                return []
            if box.flank:  # the words set narrower, a medallion's room and a gap left at each side
                room = _flank_size(h) + FLANK_GAP
                x, w = x + room, w - 2 * room
            color = self._color(box.color, face, layout)
            if name == "title":
                return self.title(text, x, y, w, h, box, color)
            return self.text(text, x, y, w, h, box, color, face)
        if box.kind == "track":
            return self._track(x, y, w, h, box, fill, self._color(box.color, face, layout), self._color("accent", face, layout))
        if box.kind == "icons":
            return self._icon_row(face.values.get(box.field, ""), x, y, w, h, box)
        if box.kind == "icon":
            icon = _needed(box.icon)
            self.known_icon(icon)
            size = min(w, h)
            game_icon = gameicons.named(icon)
            if game_icon is not None:  # a game-icons.net icon: filled, in every ink
                return self.game_icon(game_icon, x + (w - size) / 2, y + (h - size) / 2, size, fill or (0, 0, 0))
            return self.icons.glyph(icon, x + (w - size) / 2, y + (h - size) / 2, size, fill or (0, 0, 0), stroke or WHITE,
                                    self.style.outline)
        if box.kind == "pattern" and box.shade:  # its lines a shade of its colour, made as light as the ink makes grounds
            lines = self._color(box.stroke, face, layout, ground=True)
            share = dict(self.style.grounds).get(box.stroke or "", 0.0)
            lines = lines and mix(lines, (0, 0, 0) if box.shade > 0 else WHITE, abs(box.shade) * (1 - share))
            return pattern(box, x, y, w, h, ground, lines)
        if box.kind == "pattern":
            return pattern(box, x, y, w, h, ground, stroke)
        if box.kind == "stat":
            return self._stat(face.values.get(box.field), x, y, w, h, box, fill, self._color(box.color, face, layout))
        return self._art(face, x, y, w, h, layout, box)

    def _shaded(self, box: Box, x, y, w, h, top: Color, stroke: Color | None) -> list[Primitive]:
        """A rect in a gradient (its `shade`): from its colour at the top to that colour mixed
        with black (or white, a negative shade) at the bottom. A ground an ink makes lighter
        keeps as much of its gradient as it keeps of its colour."""
        share = dict(self.style.grounds).get(box.fill or "", 0.0)
        far = (0, 0, 0) if box.shade > 0 else WHITE
        bottom = mix(top, far, abs(box.shade) * (1 - share))
        return shading.gradient(x, y, w, h, box.radius, top, bottom, stroke, box.width if stroke else 0)

    def fill(self, template: str, face: Face) -> str:
        """A layout's text with the game's constants ({{ starting_life }}) and the card's
        values ({name}, {damage}) filled in; a field the card lacks is left empty."""
        text, errors = ruletext.render(template, self.game.text_context)
        if errors:
            raise DoesNotFit(errors[0].message)
        assert text is not None  # None only with errors
        unknown = [m for m in _FIELD.findall(text) if m not in self.placeholders and m not in self.icon_names]
        if unknown:
            raise DoesNotFit(f"unknown placeholder '{{{unknown[0]}}}'{did_you_mean(unknown[0], sorted(self.placeholders))}: "
                             "'{field}' shows a field of the card's type (decks.yaml), or its name, flavor, type, deck, "
                             "game, count or identity; '{{ name }}' a constant")
        return _FIELD.sub(lambda m: str(face.values.get(m.group(1), "")) if m.group(1) in self.placeholders else m.group(0), text)

    def constant(self, value) -> int | None:
        """A number, or what a constant's name (or a sum of constants) stands for."""
        if value is None:
            return None
        try:
            return ruletext.number(value, self.game.text_context)
        except ValueError as exc:
            raise DoesNotFit(str(exc)) from None

    def _track(self, x, y, w, h, box: Box, fill, color, ring) -> list[Primitive]:
        start, stop, mark = self.constant(box.start), self.constant(box.stop if box.stop is not None else 1), self.constant(box.mark)
        assert start is not None and stop is not None  # a track box has a start (Box._complete), its stop 1 if none
        step = -1 if stop < start else 1
        numbers = list(range(start, stop + step, step))
        if len(numbers) > 60:
            raise DoesNotFit(f"a track of {len(numbers)} steps is too long for a card")
        cells = numbers + ([None] if box.end else [])
        cols = min(box.per_row, len(cells))
        rows = math.ceil(len(cells) / cols)
        size = min(w / cols, h / rows)
        out: list[Primitive] = []
        for i, number in enumerate(cells):
            row, col = divmod(i, cols)
            in_row = min(cols, len(cells) - row * cols)
            cx = x + (w - in_row * size) / 2 + col * size
            cy = y + (h - rows * size) / 2 + row * size
            pad = size * 0.08
            if number is None:
                out += self.icons.glyph(_needed(box.end), cx + pad, cy + pad, size - 2 * pad, (107, 111, 117), WHITE, self.style.outline)
                continue
            out += self._stat(number, cx + pad, cy + pad, size - 2 * pad, size - 2 * pad, box, fill, color)
            if number == mark:
                out.append(Ellipse(cx + size / 2, cy + size / 2, size / 2 - pad / 3, size / 2 - pad / 3, stroke=ring, width=size * 0.05))
        return out

    def _icon_row(self, value, x, y, w, h, box: Box) -> list[Primitive]:
        names = _icon_names(value)
        out: list[Primitive] = []
        for name, (ix, iy, size) in zip(names, icon_squares(len(names), x, y, w, h, box.align)):
            out += self.icons.element(name, ix, iy, size, self.element_color(name), self.style.outline)
        return out

    def _stat(self, value, x, y, w, h, box: Box, fill, color) -> list[Primitive]:
        if value in (None, ""):
            return []
        sx, sy, size = stat_square(x, y, w, h, box)
        label_h = h * 0.26 if box.label else 0
        out = self.icons.glyph(box.shape, sx, sy, size, fill or (40, 40, 40), fill or (40, 40, 40), self.style.outline)
        text = str(value)
        pt = size * (0.5, 0.5, 0.42, 0.34)[min(len(text), 3)] / PT  # more digits, smaller
        while self._width(text, "bold", pt) > size * 0.62 and pt > 4:
            pt -= 0.25
        tw = self._width(text, "bold", pt)
        out.append(Text(sx + (size - tw) / 2, sy + size * 0.5 + pt * PT * 0.36, text, self.faces["bold"], pt, color or WHITE))
        if box.label:
            lpt = MIN_TEXT_SIZE
            lw = self._width(box.label, "bold", lpt)
            if lw > w + 1e-6:
                raise DoesNotFit(f"its label '{box.label}' is {lw:.1f} mm wide at {lpt:g} pt, wider than the box ({w:g} mm)")
            out.append(Text(x + (w - lw) / 2, y + h - label_h * 0.2, box.label, self.faces["bold"], lpt, fill or (40, 40, 40)))
        return out

    # -- text

    def text(self, text: str, x, y, w, h, box: Box, color: Color, face: Face) -> list[Primitive]:
        floor = box.min_size if box.min_size is not None else min(MIN_TEXT_SIZE, box.size)
        unknown = [m for m in _ICON.findall(text) if m not in self.icon_names]
        if unknown:
            hint = did_you_mean(unknown[0], sorted(self.icon_names))
            raise DoesNotFit(f"unknown inline icon '{{{unknown[0]}}}'{hint}")
        # The largest size, in quarter points from box.size down to the floor, at which the text
        # fits: fitting only gets easier as the size falls, so a binary search finds it.
        sizes = [box.size - 0.25 * k for k in range(int((box.size - floor) / 0.25 + 1e-9) + 1)]

        def fit(size):
            lines = self._wrap(text, box.font, size, w)
            return lines if lines is not None and len(lines) * size * box.leading * PT <= h + 1e-6 else None

        first = fit(sizes[0])  # most text fits at its full size
        if first is not None:
            return self._set(first, x, y, w, h, box, sizes[0], color)
        lo, hi, best = 1, len(sizes) - 1, None
        while lo <= hi:
            mid = (lo + hi) // 2
            lines = fit(sizes[mid])
            if lines is not None:
                best, hi = (sizes[mid], lines), mid - 1
            else:
                lo = mid + 1
        if best is None:
            raise DoesNotFit(f"the text does not fit its box ({w:g} x {h:g} mm) even at {floor:g} pt; shorten it")
        return self._set(best[1], x, y, w, h, box, best[0], color)

    def title(self, text: str, x, y, w, h, box: Box, color: Color) -> list[Primitive]:
        """A card's title, set to fit (issue 28): on one line at the largest size that fits,
        shrinking a quarter point at a time down to its floor (the box's min_size, else
        TITLE_FLOOR); only then broken, at the floor, into balanced lines (the widest as narrow
        as it can be, never a word alone under a line of several), TITLE_PAD inside the box's
        left and right edges."""
        floor = box.min_size if box.min_size is not None else min(TITLE_FLOOR, box.size)
        inner = w - 2 * TITLE_PAD
        if "\n" in text or inner <= 0:
            return self.text(text, x, y, w, h, box, color, Face({}, (), None, "", ""))
        size = box.size
        while True:
            lines = self._balanced(text, box.font, size, inner, 1)
            if lines is not None and size * box.leading * PT <= h + 1e-6:
                return self._set(lines, x + TITLE_PAD, y, inner, h, box, size, color)
            if size - 0.25 < floor - 1e-9:
                break
            size -= 0.25
        size = floor
        for count in range(2, 5):
            if count * size * box.leading * PT > h + 1e-6:
                break
            lines = self._balanced(text, box.font, size, inner, count)
            if lines is not None:
                return self._set(lines, x + TITLE_PAD, y, inner, h, box, size, color)
        raise DoesNotFit(f"the title does not fit its box ({w:g} x {h:g} mm, {TITLE_PAD:g} mm inside each side) "
                         f"even at {size:g} pt in balanced lines; shorten it")

    def _balanced(self, text: str, font: str, size: float, width: float, count: int):
        """The words of `text` in `count` lines no wider than `width`, the widest line as narrow
        as can be, a line of one word never under a line of several (unless nothing else fits);
        None if no such lines. A line never starts with a word of punctuation alone ('/')."""
        space = self._width(" ", font, size)
        words, bold = [], False
        for word in text.split():
            pieces, bold = self._word(word, font, size, bold)
            if pieces:
                words.append((word, pieces, sum(p[2] for p in pieces)))
        if len(words) < count:
            return None

        def line(part):
            return [p for _, p, _ in part], sum(ww for _, _, ww in part) + space * (len(part) - 1)

        best, best_key = None, None
        for cuts in _cuts(len(words), count):
            parts = [words[a:b] for a, b in zip((0,) + cuts, cuts + (len(words),))]
            lines = [line(part) for part in parts]
            widths = [lw for _, lw in lines]
            if max(widths) > width + 1e-9:
                continue
            lone = sum(1 for before, part in zip(parts, parts[1:]) if len(part) == 1 and len(before) > 1)
            stray = sum(1 for part in parts[1:] if not any(ch.isalnum() for ch in part[0][0]))  # '/' starting a line
            key = (lone, stray, max(widths), max(widths) - min(widths))
            if best_key is None or key < best_key:
                best, best_key = lines, key
        return best

    def _tokens(self, word: str, font: str, size: float) -> list[tuple[str, str, float, str]]:
        """A word as (kind, text, width, font) pieces: 'text' runs and 'icon' names; `font` is a
        role (a layout's `font:`), measured in the face the game sets it in."""
        pieces, at = [], 0
        for m in _ICON.finditer(word):
            if m.start() > at:
                run = word[at:m.start()]
                pieces.append(("text", run, self._width(run, font, size), font))
            pieces.append(("icon", m.group(1), size * PT * 1.05, font))
            at = m.end()
        if at < len(word):
            run = word[at:]
            pieces.append(("text", run, self._width(run, font, size), font))
        return pieces

    def _word(self, word: str, font: str, size: float, bold: bool) -> tuple[list, bool]:
        """A word's pieces, `**` switching to and from the bold face; and the bold state after it."""
        pieces = []
        for i, part in enumerate(word.split("**")):
            if i:
                bold = not bold
            if part:
                pieces += self._tokens(part, _BOLDER.get(font, font) if bold else font, size)
        return pieces, bold

    def _wrap(self, text: str, font: str, size: float, width: float):
        """Lines of words, each word a list of pieces; None if a word is wider than the box."""
        space = self._width(" ", font, size)
        lines: list[tuple[list[list[tuple[str, str, float, str]]], float]] = []
        bold = False
        for paragraph in text.split("\n"):
            start = len(lines)  # the paragraph's first line
            line: list[list[tuple[str, str, float, str]]] = []
            line_w = 0.0
            for word in paragraph.split():
                pieces, bold = self._word(word, font, size, bold)
                if not pieces:
                    continue
                ww = sum(p[2] for p in pieces)
                if ww > width:
                    return None
                if line and line_w + space + ww > width:
                    lines.append((line, line_w))
                    line, line_w = [], 0.0
                line_w += (space if line else 0) + ww
                line.append(pieces)
            lines.append((line, line_w))
            first = len(lines) - 1 == start + 1  # the line before is the paragraph's first
            if len(lines) - start >= 2 and len(line) == 1 and len(lines[-2][0]) > (1 if first else 2):
                # a word alone on a paragraph's last line (a widow): the line before gives it a
                # companion, when it has a word to spare (one left alone only on a first line)
                # and the two fit on the line
                before, before_w = lines[-2]
                moved = before[-1]
                moved_w = sum(p[2] for p in moved)
                if moved_w + space + line_w <= width:
                    lines[-2] = (before[:-1], before_w - moved_w - space)
                    lines[-1] = ([moved] + line, moved_w + space + line_w)
        return lines

    def _set(self, lines, x, y, w, h, box: Box, size: float, color: Color) -> list[Primitive]:
        step = size * box.leading * PT
        block = len(lines) * step
        top = {"top": y, "middle": y + (h - block) / 2, "bottom": y + h - block}[box.valign]
        baseline = top + fonts.ascent(self.faces[box.font]) * size * PT + (step - size * PT) / 2
        space = self._width(" ", box.font, size)
        out: list[Primitive] = []
        for words, line_w in lines:
            cx = {"left": x, "center": x + (w - line_w) / 2, "right": x + w - line_w}[box.align]
            for i, pieces in enumerate(words):
                if i:
                    cx += space
                for kind, value, pw, font in pieces:
                    if kind == "text":
                        out.append(Text(cx, baseline, value, self.faces[font], size, color))
                    else:
                        d = size * PT * 0.95
                        top_icon = baseline - size * PT * 0.36 - d / 2
                        if value in self.icons and value not in {e.icon for e in self.game.elements}:
                            out += self.icons.glyph(value, cx, top_icon, d, color, WHITE)
                        else:
                            name = next(e.name for e in self.game.elements if e.icon == value)
                            out += self.icons.element(name, cx, top_icon, d, self.element_color(name), self.style.outline)
                    cx += pw
            baseline += step
        return out

    # -- art

    def known_icon(self, name: str | None) -> str | None:
        """`name` when it is an icon of icons.yaml or (`game-icons:fire-ray`) one of game-icons.net
        this game may name; else DoesNotFit with the closest name."""
        icon = gameicons.named(name)
        if icon is not None:
            if icon not in self.game_icons.icons:
                raise DoesNotFit(self.game_icons.unknown(icon))
            return name
        if name is not None and name not in self.icons:
            raise DoesNotFit(f"unknown icon '{name}'{did_you_mean(name, sorted(self.icons.shapes))}")
        return name

    def emblem(self, face: Face, box: Box) -> str | None:
        """What the card's generated art shows, from its data: the game icon its `art:` names,
        else its own `icon` field, else its first element's glyph, else its layout's (its type's)
        `icon` on the art box. A game icon is named `game-icons:<name>`."""
        if face.icon is not None:
            return self.known_icon(gameicons.PREFIX + face.icon)
        if face.values.get("icon"):
            return self.known_icon(face.values["icon"])
        glyphs = [e.lower() for e in face.elements if e.lower() in self.icons]
        return glyphs[0] if glyphs else self.known_icon(box.icon)

    def game_icon(self, name: str, x: float, y: float, size: float, color: Color) -> list[Primitive]:
        """The game icon `name` (without its prefix) in the square (x, y, size), in `color`."""
        try:
            return list(vectors.icon(self.game_icons.icons[name], x, y, size, color))
        except vectors.BadOutline as exc:
            raise DoesNotFit(f"icon 'game-icons:{name}' cannot be drawn: {exc}") from None

    def _art(self, face: Face, x, y, w, h, layout: Layout, box: Box) -> list[Primitive]:
        glyph = self.emblem(face, box)
        if face.art is None:
            icon = gameicons.named(glyph)
            if icon is not None:
                return composed(face, x, y, w, h, self, layout, icon)
            return placeholder(face, x, y, w, h, self, layout, glyph)
        fit = face.art_fit or box.art_fit or "cover"
        focus = face.art_focus or box.art_focus or ART_FOCUS
        if face.art in self._vector:
            try:
                return list(vectors.svg_art(str(face.art), x, y, w, h, fit, focus))
            except vectors.BadOutline as exc:
                raise DoesNotFit(f"its SVG picture cannot be drawn: {exc}") from None
        if face.art_px is not None:
            needed = pictures.Picture(face.art, *face.art_px).needed(w, h, fit)
            if needed:
                self.warnings.append(f"{face.art_about} is {face.art_px[0]} x {face.art_px[1]} px; its box ({w:g} x {h:g} mm"
                                     f"{', contain' if fit == 'contain' else ''}) needs at least {needed[0]} x {needed[1]} px "
                                     f"to print sharp at {pictures.PRINT_DPI} dpi")
        return [Image(str(face.art), x, y, w, h, fit, focus)]


FLANK_GAP = 0.8  # mm between a text's words and the medallion at each end (Box.flank)


def _flank_size(h: float) -> float:
    """The diameter of a text box's flanking medallions: nine tenths of its height (a type
    line's 3.8 mm: 3.4 mm), at most 4.5 mm."""
    return min(0.9 * h, 4.5)


def _cuts(n: int, count: int):
    """Every way to cut n words into `count` lines of at least one word: the indexes where
    each line after the first starts."""
    if count == 1:
        yield ()
        return
    for first in range(1, n - count + 2):
        for rest in _cuts(n - first, count - 1):
            yield (first,) + tuple(first + r for r in rest)


def turn(item: Primitive, width: float, height: float) -> Primitive:
    """The primitive turned half round the card's centre (x -> width - x, y -> height - y)."""
    if isinstance(item, Text):
        return replace(item, x=width - item.x, y=height - item.y, turned=not item.turned)
    if isinstance(item, Rect):
        return replace(item, x=width - item.x - item.w, y=height - item.y - item.h)
    if isinstance(item, Ellipse):
        return replace(item, cx=width - item.cx, cy=height - item.cy)
    if isinstance(item, Poly):
        return replace(item, points=tuple((width - x, height - y) for x, y in item.points))
    if isinstance(item, displaylist.Path):
        clip = item.clip and (width - item.clip[0] - item.clip[2], height - item.clip[1] - item.clip[3], item.clip[2], item.clip[3])
        return replace(item, clip=clip, subpaths=tuple(tuple(tuple(width - v if i % 2 == 0 else height - v for i, v in enumerate(seg))
                                                             for seg in sub) for sub in item.subpaths))
    raise DoesNotFit("a picture cannot be mirrored; only text, shapes and icons")


def turn_area(area: Area, width: float, height: float) -> Area:
    """An area turned half round the card's centre, as `turn` turns what is drawn in it."""
    x, y, w, h = area
    return width - x - w, height - y - h, w, h


def stat_square(x: float, y: float, w: float, h: float, box: Box) -> tuple[float, float, float]:
    """Where a stat's shape is drawn in its box: (x, y, size) of its square, at the box's top,
    above the quarter of the box its label takes, if it has one."""
    label_h = h * 0.26 if box.label else 0
    size = min(w, h - label_h)
    return x + (w - size) / 2, y, size


def icon_squares(count: int, x: float, y: float, w: float, h: float, align: str) -> list[tuple[float, float, float]]:
    """Where a row of `count` icons is drawn in its box: (x, y, size) of each one's square. A
    tall box stacks them from the top, as a corner index does; else they stand in a row."""
    if not count:
        return []
    if h > 1.5 * w:
        gap = w * 0.12
        size = min(w, (h + gap) / count - gap)
        return [(x + (w - size) / 2, y + i * (size + gap), size) for i in range(count)]
    gap = h * 0.12
    size = min(h, (w + gap) / count - gap)
    total = count * size + (count - 1) * gap
    left = {"left": x, "center": x + (w - total) / 2, "right": x + w - total}[align]
    return [(left + i * (size + gap), y + (h - size) / 2, size) for i in range(count)]


def _icon_names(value) -> list[str]:
    return [n.strip() for n in str(value).split(",") if n.strip()]


_PART_NAMES = {"title": "Name", "art": "Picture", "type-line": "Card type", "body": "Rules text",
               "flavor": "Flavour text", "footer": "Game and deck",
               "footer-id": "Deck, card number, version", "footer-hand-id": "Deck, card number, version",
               "identity": "Card number and version"}


def _part_label(name: str, box: Box, fields) -> str | None:
    """What a rulebook's figure calls a box: a field's label for its icons and numbers ('Corner
    index: ...' on a turned copy's box), a name for its title, picture and texts; None for the rest."""
    if box.kind in ("icons", "stat"):
        field = _needed(box.field)
        spec = fields.get(field)
        label = (spec.label if spec and spec.label else box.label or field.replace("_", " ")).capitalize()
        return f"Corner index: {label.lower()}" if box.mirror else label
    return _PART_NAMES.get(name) if box.kind in ("text", "art") else None


def _lines(items: list[Primitive]) -> tuple[Area, ...]:
    """A text box's drawing as its lines (mm): each baseline's words from their face's ascent
    to its descent (the ink of its letters: fonts.ascent), with the inline icons whose middle is
    within that."""
    lines: dict[float, list[float]] = {}  # baseline -> x0, y0, x1, y1
    for item in items:
        if isinstance(item, Text) and item.text.strip():
            up, down = fonts.ascent(item.font) * item.size * PT, fonts.descent(item.font) * item.size * PT
            box = [item.x, item.y - up, item.x + fonts.width(item.text, item.font, item.size), item.y + down]
            line = lines.setdefault(round(item.y, 3), box)
            line[:] = [min(line[0], box[0]), min(line[1], box[1]), max(line[2], box[2]), max(line[3], box[3])]
    for item in items:
        if not isinstance(item, Text):
            x0, y0, x1, y1 = edges.bounds(item)
            for line in lines.values():
                if line[1] <= (y0 + y1) / 2 <= line[3]:
                    line[:] = [min(line[0], x0), line[1], max(line[2], x1), line[3]]
    return tuple((x0, y0, x1 - x0, y1 - y0) for x0, y0, x1, y1 in lines.values())


def _needed(value: str | None) -> str:
    """A box's key its kind needs, there since the box was read (Box._complete; a track's `end`
    only where it has one)."""
    assert value is not None
    return value


@overload
def grey(color: Color) -> Color: ...
@overload
def grey(color: Color | None) -> Color | None: ...


def grey(color: Color | None) -> Color | None:
    """The grey of a colour's lightness (Rec. 601 luma): the mono ink's."""
    if color is None:
        return None
    v = round(0.299 * color[0] + 0.587 * color[1] + 0.114 * color[2])
    return v, v, v


def greyed(item: Primitive) -> Primitive:
    """The primitive in the greys of its colours."""
    if isinstance(item, Text):
        return replace(item, color=grey(item.color))
    if isinstance(item, (Rect, Ellipse, Poly)):
        return replace(item, fill=grey(item.fill), stroke=grey(item.stroke))
    if isinstance(item, displaylist.Path):
        return replace(item, fill=grey(item.fill), stroke=grey(item.stroke))
    return item  # a picture is printed as it is


def _when_fields(condition: str) -> list[str]:
    """The field names a box's `when` tests ('cost & kind!=gun': cost, kind)."""
    return [part.split("!=")[0].split("=")[0].strip() for part in condition.split(" & ") if part.strip()]


def _holds(condition: str, values: dict) -> bool:
    """'field' (the card has it), 'field=value' or 'field!=value'; several joined by ' & '."""
    if " & " in condition:
        return all(_holds(part, values) for part in condition.split(" & "))
    for op in ("!=", "="):
        if op in condition:
            key, want = (part.strip() for part in condition.split(op, 1))
            return (str(values.get(key, "")) == want) == (op == "=")
    return values.get(condition.strip()) not in (None, "", ())


MOTIFS = ("rings", "stripes", "dots", "rays", "diamonds")  # what a card's art shows behind its icon, one chosen per card


def composed(face: Face, x, y, w, h, layouter: Layouter, layout: Layout, icon: str) -> list[Primitive]:
    """A card's art made of its game icon: the icon large, in a dark tone of the card's colour, over
    a medallion and a ground of its own. The card's colours are its elements' (game.yaml), else
    the title band it shows (its deck's, its kind's) and its layout's accent; its id (a digest of it) chooses the ground: a gradient at an
    angle, hues turned a little, and one of MOTIFS placed and sized its own way. Everything is
    vector shapes kept inside the box, so the PDF stays sharp and the PNG is the same picture."""
    digest = hashlib.sha256(f"art:{face.seed}".encode()).digest()
    palette = layouter.style.palette
    colors = [layouter.element_color(e) for e in face.elements if e in layouter.colors]
    band = layouter.band or hex_color(palette.get("band", palette.get("accent", "#8a6d3b")))
    accent = hex_color(palette.get("accent", "#8a6d3b"))
    base = colors[0] if colors else band
    second = colors[1] if len(colors) > 1 else (accent if accent != base else mix(base, WHITE, 0.45))
    turn = (digest[0] / 255 - 0.5) * 0.09  # up to 16 degrees of hue either way: no two cards of a colour alike
    base, second = _turned(base, turn), _turned(second, -turn)
    share = dict(layouter.style.grounds).get("art", 0.0)  # the ink saver's lighter ground
    light = lambda color, t: mix(color, WHITE, t + (1 - t) * share * 0.6)  # noqa: E731
    box = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
    out: list[Primitive] = []
    # the ground: a gradient from one tone to the other, across an angle of its own
    angle = digest[1] / 255 * 2 * math.pi
    ux, uy = math.cos(angle), math.sin(angle)
    ts = [px * ux + py * uy for px, py in box]
    lo, hi, bands = min(ts), max(ts), 24
    one, two = light(base, 0.78), light(second, 0.6)
    for i in range(bands):
        a, b = lo + (hi - lo) * i / bands, lo + (hi - lo) * (i + 1) / bands + 0.05  # overlapping a hair: no seam
        piece = _half(_half(box, -ux, -uy, -a), ux, uy, b)
        if len(piece) >= 3:
            out.append(Poly(tuple(piece), fill=mix(one, two, (i + 0.5) / bands)))
    out += _motif(MOTIFS[digest[2] % len(MOTIFS)], digest, box, x, y, w, h, light(base, 0.62), light(second, 0.45))
    # the medallion the icon stands on, and the icon, a little off centre as the id says
    r = min(w, h) * (0.44 + digest[3] / 255 * 0.04)
    size = r * 1.55  # a square icon's corners just past the medallion: most icons leave their corners bare
    cx = x + w / 2 + (digest[4] / 255 - 0.5) * max(0.0, w - 2 * r) * 0.35
    cy = y + h / 2
    out.append(_disc(cx, cy, r, box, light(second, 0.35)))
    out.append(_disc(cx, cy, r * 0.92, box, light(base, 0.9)))
    ink = mix(base, (0, 0, 0), 0.45) if not share else mix(base, (0, 0, 0), 0.2)
    shade = size * 0.025
    if not share:  # a shadow under the icon, down and right: it stands off its ground
        out += layouter.game_icon(icon, cx - size / 2 + shade, cy - size / 2 + shade, size, light(base, 0.45))
    out += layouter.game_icon(icon, cx - size / 2, cy - size / 2, size, ink)
    return out


def _turned(color: Color, turn: float) -> Color:
    """The colour with its hue turned by `turn` (a share of the circle)."""
    hue, lightness, saturation = colorsys.rgb_to_hls(*(c / 255 for c in color))
    red, green, blue = (round(v * 255) for v in colorsys.hls_to_rgb((hue + turn) % 1.0, lightness, saturation))
    return red, green, blue


def _half(poly: list[tuple[float, float]], a: float, b: float, c: float) -> list[tuple[float, float]]:
    """The polygon cut to the half plane a x + b y <= c (Sutherland-Hodgman, one edge)."""
    out: list[tuple[float, float]] = []
    for i, cur in enumerate(poly):
        prev = poly[i - 1]
        cur_in, prev_in = a * cur[0] + b * cur[1] <= c, a * prev[0] + b * prev[1] <= c
        if cur_in != prev_in:
            da, db = a * prev[0] + b * prev[1] - c, a * cur[0] + b * cur[1] - c
            t = da / (da - db)
            out.append((prev[0] + (cur[0] - prev[0]) * t, prev[1] + (cur[1] - prev[1]) * t))
        if cur_in:
            out.append(cur)
    return out


def _clipped(poly: list[tuple[float, float]], box: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """A polygon cut to the (rectangular) box."""
    (x0, y0), (x1, y1) = box[0], box[2]
    for a, b, c in ((-1, 0, -x0), (1, 0, x1), (0, -1, -y0), (0, 1, y1)):
        poly = _half(poly, a, b, c)
        if not poly:
            break
    return poly


def _disc(cx: float, cy: float, r: float, box: list[tuple[float, float]], fill: Color) -> Primitive:
    """A disc kept inside the box: a circle when it fits, else a polygon of it cut to the box."""
    (x0, y0), (x1, y1) = box[0], box[2]
    if cx - r >= x0 and cx + r <= x1 and cy - r >= y0 and cy + r <= y1:
        return Ellipse(cx, cy, r, r, fill=fill)
    points = [(cx + r * math.cos(i * math.pi / 36), cy + r * math.sin(i * math.pi / 36)) for i in range(72)]
    return Poly(tuple(_clipped(points, box)) or ((cx, cy),) * 3, fill=fill)


def _motif(kind: str, digest: bytes, box: list[tuple[float, float]], x, y, w, h, tone: Color, other: Color) -> list[Primitive]:
    """The pattern of a card's ground, its place, size and angle from the digest, cut to the box."""
    out: list[Primitive] = []

    def add(poly, fill) -> None:
        piece = _clipped(poly, box)
        if len(piece) >= 3:
            out.append(Poly(tuple(piece), fill=fill))

    if kind == "rings":
        cx, cy = x + w * digest[5] / 255, y + h * digest[6] / 255
        step = h * (0.12 + digest[7] / 255 * 0.1)
        far = math.hypot(max(cx - x, x + w - cx), max(cy - y, y + h - cy))
        rings = min(16, int(far / step) + 1)
        for i in range(rings, 0, -1):
            r = i * step
            add([(cx + r * math.cos(k * math.pi / 24), cy + r * math.sin(k * math.pi / 24)) for k in range(48)],
                tone if i % 2 else other)
    elif kind == "stripes":
        angle = math.radians(20 + digest[5] / 255 * 50) * (1 if digest[6] % 2 else -1)
        ux, uy = math.cos(angle), math.sin(angle)
        ts = [px * ux + py * uy for px, py in box]
        gap = h * (0.1 + digest[7] / 255 * 0.12)
        t = min(ts) + gap * digest[8] / 255
        while t < max(ts) and len(out) < 60:
            add(_half(_half(box, -ux, -uy, -t), ux, uy, t + gap * 0.45), tone)
            t += gap
    elif kind == "dots":
        seed = int.from_bytes(digest[5:13], "big")
        r0 = h * (0.05 + digest[13] / 255 * 0.05)
        for i in range(22):
            seed = (seed * 6364136223846793005 + 1442695040888963407) % 2**64
            dx, dy, dr = (seed >> 8) % 1000 / 1000, (seed >> 24) % 1000 / 1000, (seed >> 40) % 1000 / 1000
            cx, cy, r = x + w * dx, y + h * dy, r0 * (0.5 + dr)
            add([(cx + r * math.cos(k * math.pi / 8), cy + r * math.sin(k * math.pi / 8)) for k in range(16)],
                tone if i % 3 else other)
    elif kind == "rays":
        cx, cy = x + w * (0.2 + digest[5] / 255 * 0.6), y + h * (0.2 + digest[6] / 255 * 0.6)
        rays, start = 7 + digest[7] % 9, digest[8] / 255 * math.pi
        reach = math.hypot(w, h) * 1.5
        for i in range(rays):
            a0 = start + i * 2 * math.pi / rays
            a1 = a0 + math.pi / rays * (0.6 + digest[9] / 255 * 0.6)
            add([(cx, cy), (cx + reach * math.cos(a0), cy + reach * math.sin(a0)),
                 (cx + reach * math.cos(a1), cy + reach * math.sin(a1))], tone)
    else:  # diamonds: a lattice of lozenges, turned and sized by the digest
        side = h * (0.14 + digest[5] / 255 * 0.12)
        angle = math.radians(digest[6] / 255 * 45)
        ca, sa = math.cos(angle), math.sin(angle)
        span = int(math.hypot(w, h) / side) + 2
        cx, cy = x + w / 2, y + h / 2
        for i in range(-span, span + 1):
            for j in range(-span, span + 1):
                if (i + j) % 2:
                    continue
                px, py = cx + (i * ca - j * sa) * side, cy + (i * sa + j * ca) * side
                if not (x - side <= px <= x + w + side and y - side <= py <= y + h + side):
                    continue
                d = side * 0.5
                add([(px + d * ca, py + d * sa), (px - d * sa, py + d * ca), (px - d * ca, py - d * sa), (px + d * sa, py - d * ca)],
                    tone if (i // 2 + j // 2) % 2 else other)
    return out


def placeholder(face: Face, x, y, w, h, layouter: Layouter, layout: Layout, glyph: str | None) -> list[Primitive]:
    """Generated art for a card without a picture: rays and rings in the card's colours, with
    its emblem (Layouter.emblem: from its data) at the centre; the card's id varies the rays."""
    digest = hashlib.sha256(face.seed.encode()).digest()
    colors = [layouter.colors[e] for e in face.elements if e in layouter.colors]
    base = colors[0] if colors else hex_color(layout.palette.get("accent", "#8a6d3b"))
    second = colors[1] if len(colors) > 1 else mix(base, (255, 255, 255), 0.45)
    light, dark = mix(base, (255, 255, 255), 0.78), mix(base, (0, 0, 0), 0.25)
    cx = x + w * (0.35 + digest[0] / 255 * 0.3)
    cy = y + h * (0.4 + digest[1] / 255 * 0.2)
    share = dict(layouter.style.grounds).get("art", 0.0)  # an ink saver's lighter ground
    if share:
        base, second = mix(base, (255, 255, 255), share), mix(second, (255, 255, 255), share)
        light, dark = mix(light, (255, 255, 255), share), mix(dark, (255, 255, 255), share / 2)
    out: list[Primitive] = [Rect(x, y, w, h, fill=light)]
    rays = 9 + digest[2] % 8
    turn = digest[3] / 255 * math.pi
    reach = math.hypot(w, h)
    for i in range(rays):
        a0 = turn + i * 2 * math.pi / rays
        a1 = a0 + math.pi / rays
        pts = [(cx, cy), (cx + reach * math.cos(a0), cy + reach * math.sin(a0)), (cx + reach * math.cos(a1), cy + reach * math.sin(a1))]
        out.append(Poly(tuple(_clip_triangle(pts, x, y, w, h)), fill=mix(light, base, 0.22)))
    rmax = min(w, h) * 0.42
    for k, t in enumerate((1.0, 0.74, 0.5)):
        r = rmax * t
        out.append(Ellipse(cx, cy, r, r, fill=(mix(light, second, 0.35), mix(light, base, 0.5), base)[k]))
    size = rmax * 0.9
    icon = gameicons.named(glyph)
    if icon is not None:
        out += layouter.game_icon(icon, cx - size / 2, cy - size / 2, size, WHITE)
    elif glyph:
        out += layouter.icons.glyph(glyph, cx - size / 2, cy - size / 2, size, WHITE, dark)
    return out


def pattern(box: Box, x, y, w, h, fill: Color | None, stroke: Color | None) -> list[Primitive]:
    """A full-bleed ground with no line parallel to the trim, so that a back printed 2 mm off
    its front shows no uneven border: wedges from the centre, or a diagonal lattice."""
    out: list[Primitive] = []
    if box.pattern == "rays":
        cx, cy, reach = x + w / 2, y + h / 2, math.hypot(w, h)
        step = 2 * math.pi / box.count
        for i in range(0, box.count, 2):
            a0 = math.pi / 2 + (i - 0.5) * step  # a wedge, not its edge, points straight down
            a1 = a0 + step
            pts = [(cx, cy), (cx + reach * math.cos(a0), cy + reach * math.sin(a0)), (cx + reach * math.cos(a1), cy + reach * math.sin(a1))]
            out.append(Poly(tuple(_clip_triangle(pts, x, y, w, h)), fill=fill or (0, 0, 0)))
        return out
    # lattice: lines at +-60 degrees from the horizontal, through points `spacing` apart along it,
    # all of them one path (a frame's fine grain is a hundred lines and more: one primitive to lay
    # out, to compare at a card's edge, and to stroke in the PDF)
    slope = math.tan(math.radians(60))
    span = h / slope
    k = 0.0
    lines = []
    while k <= w + span:
        for sign in (1, -1):
            x0 = x + k if sign == 1 else x + w - k
            seg = _clip_segment((x0, y), (x0 - sign * span, y + h), x, y, w, h)
            if seg:
                lines.append(seg)
        k += box.spacing
    return [displaylist.Path(tuple(lines), fill=None, stroke=stroke or (0, 0, 0), width=box.width, closed=False)] if lines else []


def _clip_segment(a, b, x, y, w, h):
    """The part of segment a-b inside the box (Liang-Barsky), or None."""
    (ax, ay), (bx, by) = a, b
    dx, dy = bx - ax, by - ay
    t0, t1 = 0.0, 1.0
    for p, q in ((-dx, ax - x), (dx, x + w - ax), (-dy, ay - y), (dy, y + h - ay)):
        if p == 0:
            if q < 0:
                return None
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
    if t0 >= t1:
        return None
    return ((ax + t0 * dx, ay + t0 * dy), (ax + t1 * dx, ay + t1 * dy))


def _clip_triangle(pts, x, y, w, h):
    """The polygon of a triangle clipped to the box (Sutherland-Hodgman, one edge at a time)."""
    poly = pts
    for axis, bound, keep_above in ((0, x, True), (0, x + w, False), (1, y, True), (1, y + h, False)):
        out = []
        prev = poly[-1] if poly else None
        for cur in poly:
            cur_in = cur[axis] >= bound if keep_above else cur[axis] <= bound
            prev_in = prev[axis] >= bound if keep_above else prev[axis] <= bound
            if cur_in != prev_in:
                t = (bound - prev[axis]) / (cur[axis] - prev[axis])
                other = 1 - axis
                cross = [0.0, 0.0]
                cross[axis], cross[other] = bound, prev[other] + t * (cur[other] - prev[other])
                out.append(tuple(cross))
            if cur_in:
                out.append(cur)
            prev = cur
        poly = out
    return poly
