"""Icons of game-icons.net that a card names as its art: `art: game-icons:fire-ray`.

game-icons.net holds over 4,000 icons by Lorc, Delapouite and other contributors under
CC BY 3.0, published on the npm registry as `@iconify-json/game-icons` (one `icons.json` in
Iconify's format). Spellpress ships the icons its five games use
(spellpress/defaults/game-icons/icons.json, credited in CREDITS.md beside it); a game may keep
more in its own folder, `cards/<game>/game-icons.json`, which `spellpress icons add` copies from
the library a designer installed. Both files are Iconify JSON:
`{"prefix": "game-icons", "width": 512, "height": 512, "icons": {"fire-ray": {"body": "<path d=\\"...\\"/>"}}}`.

A game's folder may come from anyone, so its file is read bounded (bytes, icons, characters and
commands of path data), and of each icon's body only the path data is kept: a body is one or
more `<path>` elements with `d` (and `fill`, `fill-rule`) alone, `d` of path commands and
numbers only. Nothing else of a body (an `<image>`, a link, an entity) ever reaches an SVG
reader, so an icon cannot make the press open a file or a URL.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from .. import defaults
from . import paths
from .problems import Problem, did_you_mean, display_path

PREFIX = "game-icons:"
FILE = "game-icons.json"  # a game's own icons, in its folder
SHIPPED = defaults.GAME_ICONS / "icons.json"
CREDITS = defaults.GAME_ICONS / "CREDITS.md"
SOURCE = "game-icons.net"
SOURCE_URL = "https://game-icons.net"
AUTHORS = "Lorc, Delapouite and the other contributors named at game-icons.net"
LICENCE = "CC BY 3.0"
LICENCE_URL = "https://creativecommons.org/licenses/by/3.0/"

MAX_FILE_BYTES = 4 * 1024 * 1024  # as any file of a game (loader's bound)
MAX_ICONS = 2_000  # icons in a game's file; the five games use about 300
MAX_PATH_CHARS = 100_000  # characters of an icon's path data; the library's longest has 23,496
MAX_NUMBERS = 12_000  # numbers in an icon's path data (so segments at most that); the library's most has 4,500
MAX_NAME = 100
_NAME = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*\Z")
_PATH_ELEMENT = re.compile(r"\s*<path((?:\s+[a-zA-Z-]+\s*=\s*\"[^\"<>]*\")*)\s*/>")
_ATTRIBUTE = re.compile(r"\s+([a-zA-Z-]+)\s*=\s*\"([^\"<>]*)\"")
_PATH_DATA = re.compile(r"[MmLlHhVvCcSsQqTtAaZz0-9eE.,+\-\s]*\Z")
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


@dataclass(frozen=True)
class Icon:
    """One icon: its paths' data, each with its fill rule, in a `width` x `height` box."""

    name: str
    paths: tuple[tuple[str, bool], ...]  # (d, even-odd); SVG's default rule is nonzero
    width: float = 512.0
    height: float = 512.0
    author: str = ""  # who drew it, as game-icons.net names them, where the file says


@dataclass(frozen=True)
class Library:
    """The icons a game may name: the package's, and those of its own file (which win)."""

    icons: Mapping[str, Icon]
    own: frozenset[str]  # names from the game's own file
    problems: tuple[Problem, ...]  # its own file's
    refused: frozenset[str] = frozenset()  # names its own file holds that cannot be drawn (see its problems)

    @functools.cached_property
    def fingerprint(self) -> str:
        """A digest of every icon's data: a face drawn with an icon is drawn again when it changes."""
        return hashlib.sha256(repr(sorted((n, i.paths, i.width, i.height) for n, i in self.icons.items())).encode()).hexdigest()

    def unknown(self, name: str) -> str:
        """Why `name` is not an icon this game may name, with the closest that is."""
        if name in self.refused:
            return f"icon 'game-icons:{name}' of the game's {FILE} is refused: see the problem said there"
        own = "its own game-icons.json or " if self.own else ""
        return (f"unknown icon 'game-icons:{name}'{did_you_mean(name, sorted(self.icons))}: an icon of game-icons.net "
                f"that {own}the package ships; add another with `spellpress icons add {name} --from "
                "node_modules/@iconify-json/game-icons` (docs/designing.md, Art)")


def named(art: str | None) -> str | None:
    """The icon's name when `art` names one (`game-icons:fire-ray`), else None (a picture's path)."""
    if art is not None and art.startswith(PREFIX):
        return art[len(PREFIX):].strip()
    return None


def library(root: Path) -> Library:
    """The icons the game at `root` may name. Its own file is read again only when it changed."""
    path = root / FILE
    if not os.path.lexists(path):
        return Library(shipped(), frozenset(), ())
    try:  # a link out of the game's folder is not followed (core/paths.py), nor is it said what lies there
        paths.inside(root, FILE, "keep the game's icons in its own folder, as `spellpress icons add` writes them")
        st = os.stat(path)
    except (paths.Outside, OSError) as exc:
        why = str(exc) if isinstance(exc, paths.Outside) else f"cannot be read: {exc.strerror}"
        return Library(shipped(), frozenset(), (Problem(display_path(path), 0, 0, "", why),))
    return _library(str(path), st.st_mtime_ns, st.st_size, st.st_mode)


@functools.lru_cache(maxsize=64)
def _library(path: str, mtime_ns: int, size: int, mode: int) -> Library:
    shown = display_path(Path(path))
    if mode & 0o170000 != 0o100000:  # a pipe or a device would never end
        return Library(shipped(), frozenset(), (Problem(shown, 0, 0, "", "is not a regular file: it is not read"),))
    if size > MAX_FILE_BYTES:
        return Library(shipped(), frozenset(), (Problem(shown, 0, 0, "", f"is {size / 1024 / 1024:,.1f} MB; a game's "
                                                        f"icons file may be at most {MAX_FILE_BYTES // 1024 // 1024} MB"),))
    try:
        with open(path, "rb") as file:
            raw = file.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        return Library(shipped(), frozenset(), (Problem(shown, 0, 0, "", f"cannot be read: {exc.strerror}"),))
    own, problems = read(raw, shown)
    refused = frozenset(p.path.removeprefix("icons.") for p in problems if p.path.startswith("icons."))
    return Library(MappingProxyType({**shipped(), **own}), frozenset(own), tuple(problems), refused)


@functools.lru_cache(maxsize=1)
def shipped() -> Mapping[str, Icon]:
    """The icons the package ships (its five games'), read once."""
    icons, problems = read(SHIPPED.read_bytes(), display_path(SHIPPED))
    if problems:  # the package's own data: a mistake in it is ours, said at once
        raise ValueError("; ".join(str(p) for p in problems))
    return MappingProxyType(icons)


def read(raw: bytes, shown: str) -> tuple[dict[str, Icon], list[Problem]]:
    """The icons of an Iconify JSON file's bytes, and a problem for each icon refused (`shown`
    is the file as problems name it)."""
    if len(raw) > MAX_FILE_BYTES:
        return {}, [Problem(shown, 0, 0, "", f"a game's icons file may be at most {MAX_FILE_BYTES // 1024 // 1024} MB")]
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError) as exc:
        line, column = getattr(exc, "lineno", 0), getattr(exc, "colno", 0)
        return {}, [Problem(shown, line, column, "", f"is not JSON: {getattr(exc, 'msg', exc)}")]
    icons = data.get("icons") if isinstance(data, dict) else None
    if not isinstance(icons, dict):
        return {}, [Problem(shown, 1, 1, "", "expected Iconify JSON: {\"icons\": {\"name\": {\"body\": \"<path d=...>\"}}}, "
                                             "as `spellpress icons add` writes it")]
    if len(icons) > MAX_ICONS:
        return {}, [Problem(shown, 1, 1, "icons", f"holds {len(icons):,} icons; a game's file may hold at most {MAX_ICONS:,}: "
                                                  "keep the icons its cards name")]
    try:
        width, height = _size(data, 16.0, 16.0)  # Iconify's default size is 16 x 16
    except ValueError as exc:
        return {}, [Problem(shown, 1, 1, "", str(exc))]
    text = raw.decode("utf-8", "replace")
    out: dict[str, Icon] = {}
    problems = []
    for name, entry in icons.items():
        try:
            out[name] = icon(name, entry, width, height)
        except ValueError as exc:
            line = text[: max(0, text.find(json.dumps(name)))].count("\n") + 1
            problems.append(Problem(shown, line, 1, f"icons.{name}"[:120], str(exc)))
    return out, problems


def icon(name: object, entry: object, width: float = 512.0, height: float = 512.0) -> Icon:
    """One icon of an Iconify file, its body read into path data; ValueError says why not."""
    if not isinstance(name, str) or len(name) > MAX_NAME or not _NAME.match(name):
        raise ValueError("an icon's name is lowercase letters, digits and single dashes, like 'fire-ray'")
    if not isinstance(entry, dict) or not isinstance(entry.get("body"), str):
        raise ValueError("expected {\"body\": \"<path d=...>\"}")
    width, height = _size(entry, width, height)
    body: str = entry["body"]
    if len(body) > MAX_PATH_CHARS + 1000:
        raise ValueError(f"its body has {len(body):,} characters; an icon may have at most {MAX_PATH_CHARS:,} of path data")
    paths, at = [], 0
    while at < len(body.rstrip()):
        element = _PATH_ELEMENT.match(body, at)
        if element is None:
            raise ValueError("its body must be <path d=\"...\"/> elements only (no other element, text or link)")
        attributes = dict(_ATTRIBUTE.findall(element.group(1)))
        other = sorted(set(attributes) - {"d", "fill", "fill-rule"})
        if other:
            raise ValueError(f"a path may give d, fill and fill-rule only, not {', '.join(other)}")
        if attributes.get("fill", "currentColor") not in ("currentColor", "#000", "#000000", "black"):
            raise ValueError("an icon is drawn in the card's colours: its fill is currentColor")
        rule = attributes.get("fill-rule", "nonzero")
        if rule not in ("nonzero", "evenodd"):
            raise ValueError(f"fill-rule '{rule[:20]}' is neither nonzero nor evenodd")
        d = attributes.get("d", "")
        if not _PATH_DATA.match(d):
            raise ValueError("its path data holds something other than path commands and numbers")
        paths.append((d, rule == "evenodd"))
        at = element.end()
    if not paths:
        raise ValueError("its body has no <path d=\"...\"/>")
    author = entry.get("author", "")
    if not isinstance(author, str) or len(author) > MAX_NAME or not all(c.isprintable() for c in author):
        raise ValueError("its author is a name of at most 100 printable characters")
    chars = sum(len(d) for d, _ in paths)
    if chars > MAX_PATH_CHARS:
        raise ValueError(f"its path data has {chars:,} characters; an icon may have at most {MAX_PATH_CHARS:,}")
    numbers = sum(len(_NUMBER.findall(d)) for d, _ in paths)
    if numbers > MAX_NUMBERS:
        raise ValueError(f"its path data has {numbers:,} numbers; an icon may have at most {MAX_NUMBERS:,}")
    return Icon(name, tuple(paths), width, height, author)


def _size(data: dict[str, object], width: float, height: float) -> tuple[float, float]:
    out = []
    for key, default in (("width", width), ("height", height)):
        value = data.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int | float) or not 1 <= value <= 100_000:
            raise ValueError(f"its {key} must be a number from 1 to 100000")
        out.append(float(value))
    return out[0], out[1]


def credits(names: list[str], library: Library) -> str:
    """The rulebook's credits for the icons `names` its cards show, in the rulebook's markup: the
    source, the authors and the licence, as CC BY 3.0 asks, and which icon each author drew."""
    by: dict[str, list[str]] = {}
    for name in sorted(set(names)):
        icon = library.icons.get(name)
        by.setdefault(icon.author if icon is not None and icon.author else "", []).append(name)
    count = len(set(names))
    lines = ["::: pagebreak", "# Credits",
             f"The pictures on the cards are {count} icon{'s' if count != 1 else ''} of {SOURCE} ({SOURCE_URL}) by "
             f"{AUTHORS}, used under the Creative Commons Attribution 3.0 licence ({LICENCE}, {LICENCE_URL}), each drawn "
             "unchanged in its card's colours over a background made for the card.", ""]
    said = [f"**{author or 'Other contributors'}**: {', '.join(by[author])}." for author in sorted(by, key=lambda a: (a == "", a))]
    lines.append("Icons by " + " ".join(said))
    return "\n".join(lines) + "\n"
