"""`spellpress icons add NAME ... --from LIBRARY`: game-icons.net icons copied into a game.

The library is the npm package `@iconify-json/game-icons` a designer installed (its folder,
`node_modules/@iconify-json/game-icons`, its `icons.json`, or the tarball `npm pack` fetches):
over 4,000 icons under CC BY 3.0. The named icons are copied, with the licence and source, into
the game's own `game-icons.json` (core/gameicons.py reads it), so the game's folder carries
them wherever it goes; a card then names one as `art: game-icons:NAME`. A name the library does
not hold is refused with the closest it does, and nothing is written.

`scripts/ship-game-icons` uses the same code to write the package's own file: the icons the five
games name.
"""

from __future__ import annotations

import json
import tarfile
from collections.abc import Iterable, Mapping
from pathlib import Path

from .core import gameicons
from .core.problems import did_you_mean

MAX_LIBRARY_BYTES = 64 * 1024 * 1024  # the whole library's icons.json is about 6.5 MB
ALIAS_DEPTH = 10  # an alias of an alias...: Iconify's own limit is lower


class Refused(ValueError):
    """What cannot be done: the message says why and what would do."""


def read_library(where: Path) -> tuple[dict, dict]:
    """(icons.json, info.json or {}) of the library at `where`: a folder holding icons.json, the
    file itself, or an npm tarball (.tgz) of the package."""
    if where.is_dir():
        return _json(where / "icons.json"), (_json(where / "info.json") if (where / "info.json").is_file() else {})
    if where.suffix in (".tgz", ".gz") and where.is_file():
        try:
            with tarfile.open(where, "r:gz") as tar:
                return _member(tar, "package/icons.json"), _member(tar, "package/info.json", {})
        except (tarfile.TarError, OSError) as exc:
            raise Refused(f"{where}: not a tarball of the package ({exc})") from None
    if where.is_file():
        info = where.parent / "info.json"
        return _json(where), (_json(info) if info.is_file() else {})
    raise Refused(f"{where}: no such file or folder; --from names the library installed by "
                  "`npm install @iconify-json/game-icons` (node_modules/@iconify-json/game-icons), its icons.json, "
                  "or the tarball `npm pack @iconify-json/game-icons` fetches")


def _json(path: Path) -> dict:
    try:
        with open(path, "rb") as file:
            raw = file.read(MAX_LIBRARY_BYTES + 1)
    except OSError as exc:
        raise Refused(f"{path}: cannot be read: {exc.strerror}") from None
    return _parsed(raw, str(path))


def _member(tar: tarfile.TarFile, name: str, default: dict | None = None) -> dict:
    try:
        member = tar.getmember(name)
    except KeyError:
        if default is not None:
            return default
        raise Refused(f"the tarball holds no {name}: is it @iconify-json/game-icons?") from None
    file = tar.extractfile(member) if member.isfile() else None
    if file is None:
        raise Refused(f"the tarball's {name} is not a file")
    return _parsed(file.read(MAX_LIBRARY_BYTES + 1), name)


def _parsed(raw: bytes, shown: str) -> dict:
    if len(raw) > MAX_LIBRARY_BYTES:
        raise Refused(f"{shown}: over {MAX_LIBRARY_BYTES // 1024 // 1024} MB: not the game-icons library")
    try:
        data = json.loads(raw)
    except ValueError as exc:
        raise Refused(f"{shown}: not JSON ({exc})") from None
    if not isinstance(data, dict):
        raise Refused(f"{shown}: expected Iconify JSON, an object")
    return data


def entries(library: dict, names: Iterable[str]) -> dict[str, dict]:
    """Each name's entry ({"body": ...}) in the library, an alias read through to its icon;
    Refused naming every name it lacks, each with the closest it holds."""
    icons, aliases = library.get("icons"), library.get("aliases") or {}
    if not isinstance(icons, dict) or not isinstance(aliases, dict):
        raise Refused("the library holds no icons (expected Iconify JSON with \"icons\")")
    width, height = library.get("width", 16), library.get("height", 16)
    found, unknown = {}, []
    for name in names:
        at, depth = name, 0
        while at not in icons and isinstance(aliases.get(at), dict) and depth < ALIAS_DEPTH:
            at, depth = aliases[at].get("parent"), depth + 1
        if not isinstance(at, str) or at not in icons:
            unknown.append(f"'{name}'{did_you_mean(name, list(icons) + list(aliases))}")
            continue
        entry = icons[at]
        if not isinstance(entry, dict):
            raise Refused(f"the library's icon '{at}' is not an object")
        found[name] = {"body": entry.get("body"), "width": entry.get("width", width), "height": entry.get("height", height)}
    if unknown:
        raise Refused(f"the library has no icon {', '.join(unknown)}; its names are those of game-icons.net, like fire-ray")
    return found


def add(names: list[str], library: dict, info: Mapping, dest: Path) -> list[str]:
    """The named icons added to the Iconify JSON file `dest` (made if need be, its icons kept):
    the names added, in order (those it held already left as they were). Every icon is checked
    as a game's file is read (core/gameicons.py) before anything is written."""
    kept: dict = {}
    if dest.exists():
        try:
            kept = json.loads(dest.read_bytes()).get("icons") or {}
        except (ValueError, AttributeError, OSError) as exc:
            raise Refused(f"{dest}: cannot be read as icons ({exc}); move it aside and add the icons again") from None
    wanted = [n for n in dict.fromkeys(names) if n not in kept]
    for name, entry in entries(library, wanted).items():
        try:
            gameicons.icon(name, entry)
        except ValueError as exc:
            raise Refused(f"icon '{name}': {exc}") from None
        kept[name] = compact(entry)
    write(dest, kept, info)
    return wanted


def compact(entry: dict) -> dict:
    """An entry without the default size of the file (512 x 512), nor an author unknown."""
    return {k: v for k, v in entry.items() if not (k in ("width", "height") and v == 512) and not (k == "author" and not v)}


def write(dest: Path, icons: Mapping[str, dict], info: Mapping) -> None:
    """An Iconify JSON file of `icons`, sorted, with where they come from and their licence."""
    author = info.get("author") if isinstance(info.get("author"), dict) else {}
    data = {
        "prefix": "game-icons",
        "info": {
            "name": "Game Icons",
            "source": gameicons.SOURCE_URL,
            "authors": gameicons.AUTHORS,
            "package": "@iconify-json/game-icons" + (f" {info['version']}" if isinstance(info.get("version"), str) else ""),
            "author": author.get("url", "https://github.com/game-icons/icons"),
            "license": {"title": gameicons.LICENCE, "spdx": "CC-BY-3.0", "url": gameicons.LICENCE_URL},
        },
        "width": 512,
        "height": 512,
        "icons": {name: icons[name] for name in sorted(icons)},
    }
    text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    tmp = dest.with_name(dest.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(dest)
