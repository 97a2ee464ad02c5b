"""Reading one YAML file into plain Python values that remember where each came from.

PyYAML's composer gives nodes with positions; we build the values ourselves so that we can
keep a position for every value and key, report duplicate keys (PyYAML silently keeps the
last), and stop alias chains that expand without end before they eat the machine.
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import os
import stat
from collections.abc import Hashable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

import yaml
from yaml.composer import Composer
from yaml.constructor import SafeConstructor
from yaml.resolver import Resolver

from . import yamlsyntax
from .problems import Problem, display_path, format_path


class _Mark(Protocol):
    """Where a node or an event starts, 0-based: PyYAML's Mark, or libyaml's."""

    @property
    def line(self) -> int: ...

    @property
    def column(self) -> int: ...


class _TooDeep(Exception):
    def __init__(self, mark: _Mark | None):
        self.mark = mark

    @property
    def where(self) -> tuple[int, int]:
        """The 1-based (line, column) it was found at, (0, 0) if the parser gave none."""
        return (self.mark.line + 1, self.mark.column + 1) if self.mark else (0, 0)


# What PyYAML asks a resolver: the kind of node, a scalar's text (None for a list or a mapping),
# and whether its tag was left out (for a scalar, as (plain, quoted)).
_Implicit = bool | tuple[bool, bool]


class CachedResolver(Resolver):
    """PyYAML tells each plain scalar's type (int, float, bool...) by trying regexes on it;
    card and icon files repeat the same few values thousands of times, so remember them."""

    _tags: ClassVar[dict[tuple[str | None, _Implicit], str]] = {}

    def resolve(self, kind: type[yaml.Node], value: str | None, implicit: _Implicit) -> str:
        if kind is not yaml.ScalarNode:
            resolved: str = super().resolve(kind, value, implicit)  # type: ignore[no-untyped-call]  # untyped in types-PyYAML
            return resolved
        key = (value, implicit)
        tag = self._tags.get(key)
        if tag is None:
            tag = self._tags[key] = super().resolve(kind, value, implicit)  # type: ignore[no-untyped-call]  # as above
        return tag


class _DepthLimit(Composer):
    """Stops at MAX_DEPTH nested values, at a depth that does not depend on the stack left."""

    _depth = 0

    if TYPE_CHECKING:  # the parser's, mixed in beside this class (libyaml's or PyYAML's own)

        def peek_event(self) -> yaml.Event | None: ...

    def compose_node(self, parent: yaml.Node | None, index: int) -> yaml.Node | None:
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                event = self.peek_event()
                raise _TooDeep(event.start_mark if event else None)
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


class _PyFastLoader(yaml.SafeLoader, CachedResolver):
    """PyYAML's pure-Python loader, for files that need no positions, where it has no libyaml."""


class _PyLoader(_DepthLimit, yaml.SafeLoader, CachedResolver):
    """PyYAML's pure-Python loader, with the same depth limit, where it has no libyaml."""


# Both loaders are libyaml's where PyYAML was built with it, else PyYAML's own (slower) ones.
FastLoader: type[_PyFastLoader] | type[_CFastLoader]
_Loader: type[_PyLoader] | type[_CLoader]
try:
    from yaml._yaml import CParser
except ImportError:  # PyYAML built without libyaml
    FastLoader, _Loader = _PyFastLoader, _PyLoader
else:

    class _CFastLoader(yaml.CSafeLoader, CachedResolver):
        """libyaml's loader, for files that need no positions (the icons)."""

    class _CLoader(_DepthLimit, CParser, SafeConstructor, CachedResolver):
        """libyaml's fast parser under PyYAML's Python composer.

        libyaml's own composer recurses in C and crashes the process on deeply nested input.
        """

        def __init__(self, stream: str):
            CParser.__init__(self, stream)
            Composer.__init__(self)
            SafeConstructor.__init__(self)
            Resolver.__init__(self)

    FastLoader, _Loader = _CFastLoader, _CLoader


MAX_FILE_BYTES = 4 * 1024 * 1024
MAX_DEPTH = 100
MAX_VALUES = 100_000  # values after alias expansion; a card file has a few thousand

# Where a value is: the keys and list indexes down to it, ('spells', 3, 'cost', 1). A key may
# be any YAML scalar (a number, true, null), as the file writes it.
Loc = tuple[Hashable, ...]


@dataclass
class Document:
    """A parsed YAML file: its data and the 1-based (line, column) of every value and key."""

    path: Path
    data: object
    value_at: dict[Loc, tuple[int, int]] = field(default_factory=dict)
    key_at: dict[Loc, tuple[int, int]] = field(default_factory=dict)
    blocks: set[Loc] = field(default_factory=set)  # locs of block scalars ('|' or '>')
    lines: list[str] = field(default_factory=list)

    @property
    def shown(self) -> str:
        return display_path(self.path)

    def position(self, loc: Loc, *, key: bool = False) -> tuple[int, int]:
        """Where `loc` is written; for a missing value, where its nearest parent is."""
        loc = tuple(loc)
        if key and loc in self.key_at:
            return self.key_at[loc]
        while loc not in self.value_at and loc:
            loc = loc[:-1]
        return self.value_at.get(loc, (1, 1))

    def is_block(self, loc: Loc) -> bool:
        """Whether the text at `loc` is a block scalar, whose n-th line is n lines below it."""
        return tuple(loc) in self.blocks

    def column_of(self, line: int, needle: str) -> int:
        """The 1-based column of `needle` on `line`, else of the line's first character."""
        text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        at = text.find(needle) if needle else -1
        return (at if at >= 0 else len(text) - len(text.lstrip())) + 1

    def problem(self, loc: Loc, message: str, *, key: bool = False) -> Problem:
        line, column = self.position(loc, key=key)
        return Problem(self.shown, line, column, format_path(loc), message)


class _TooLarge(Exception):
    """Aliases expanded past MAX_VALUES."""


class _Cycle(Exception):
    def __init__(self, node: yaml.Node):
        self.node = node


def read(path: Path) -> tuple[Document | None, list[Problem]]:
    """Parse `path`; on failure return no document and the problems that explain why."""
    shown = display_path(path)
    raw, problems = card_file(path, shown)
    if raw is None:
        return None, problems
    key = (str(path), shown, hashlib.blake2b(raw, digest_size=16).digest())
    kept = _READ.get(key)
    if kept is None:
        if len(_READ) >= MAX_KEPT:
            _READ.clear()
        kept = _READ[key] = _parse(path, shown, raw)
    doc, problems = kept
    # Each caller gets values of its own: nothing it does to them reaches the next read.
    return (None if doc is None else dataclasses.replace(doc, data=copy.deepcopy(doc.data))), list(problems)


def card_file(path: Path, shown: str) -> tuple[bytes | None, list[Problem]]:
    """A card file's bytes, or None and why: it cannot be read, it is no plain file, or it is past
    MAX_FILE_BYTES. A FIFO, a device or a socket is never read (one could wait for ever, or never
    end): it is told by its status, and opened without waiting in case one took the file's place
    since; and no more than MAX_FILE_BYTES + 1 bytes are read, whatever the file says of its size."""

    def fail(message: str) -> tuple[None, list[Problem]]:
        return None, [Problem(shown, 0, 0, "", message)]

    try:
        if special := _special(os.stat(path).st_mode):
            return fail(special)
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        return fail(f"cannot read the file: {exc.strerror}")
    with os.fdopen(fd, "rb") as file:
        try:
            status = os.fstat(fd)
            if special := _special(status.st_mode):
                return fail(special)
            raw = file.read(MAX_FILE_BYTES + 1)
        except OSError as exc:
            return fail(f"cannot read the file: {exc.strerror}")
    if len(raw) > MAX_FILE_BYTES:
        return fail(f"the file is {max(status.st_size, len(raw)):,} bytes; a card file may hold at most {MAX_FILE_BYTES:,}")
    return raw, []


def _special(mode: int) -> str | None:
    """Why a file of this mode is not read, or None for a plain file."""
    if stat.S_ISREG(mode):
        return None
    kind = ("a directory" if stat.S_ISDIR(mode) else "a FIFO (named pipe)" if stat.S_ISFIFO(mode)
            else "a socket" if stat.S_ISSOCK(mode) else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
            else "a special file")
    return f"this is {kind}, not a file of text; only plain files are read here: put a file in its place or take it away"


def utf8(raw: bytes, shown: str, save_as: str = "with UTF-8 encoding") -> tuple[str | None, list[Problem]]:
    """The bytes as text, or None and where the first byte that is not UTF-8 lies."""
    try:
        return raw.decode("utf-8-sig"), []
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        message = f"the file is not UTF-8 text (byte 0x{raw[exc.start]:02x} cannot be read); save it {save_as}"
        return None, [Problem(shown, line, column, "", message)]


# A process that builds again and again (watch, the resident builder, the preview, a companion
# reading edits) reads the same files each time: each is parsed once per content it has.
_READ: dict[tuple[str, str, bytes], tuple[Document | None, list[Problem]]] = {}
MAX_KEPT = 512


def _parse(path: Path, shown: str, raw: bytes) -> tuple[Document | None, list[Problem]]:
    def fail(message: str, line: int = 0, column: int = 0) -> tuple[None, list[Problem]]:
        return None, [Problem(shown, line, column, "", message)]

    text, problems = utf8(raw, shown)
    if text is None:
        return None, problems

    loader = _Loader(text)
    try:
        root = loader.get_single_node()
    except yaml.MarkedYAMLError as exc:
        if "single document" in (exc.context or ""):
            mark = exc.problem_mark
            return fail("YAML syntax error: the file holds more than one YAML document ('---'); keep one per file",
                        *((mark.line + 1, mark.column + 1) if mark else (0, 0)))
        said = yamlsyntax.explain(exc, text.splitlines())
        return None, [Problem(shown, said.line, said.column, "", f"YAML syntax error: {said.message}", said.excerpt)]
    except yaml.YAMLError as exc:
        return fail(f"YAML syntax error: {exc}")
    except _TooDeep as deep:
        return fail(f"values are nested more than {MAX_DEPTH} deep here; a card file needs a few levels", *deep.where)
    finally:
        loader.dispose()

    if root is None:
        return fail("the file is empty; it should hold a YAML mapping (key: value lines)", 1, 1)

    doc = Document(path, None, lines=text.splitlines())
    problems = []
    builder = _Builder(doc, problems, loader)
    try:
        doc.data = builder.value(root, ())
    except _TooDeep as deep:
        return fail(f"values are nested more than {MAX_DEPTH} deep here; a card file needs a few levels", *deep.where)
    except _TooLarge:
        return fail(
            f"aliases (*name) expand to more than {MAX_VALUES:,} values; "
            "this looks like an alias bomb: write the values out or use fewer aliases",
            root.start_mark.line + 1,
            root.start_mark.column + 1,
        )
    except _Cycle as cyc:
        return fail(
            "an alias refers to the value that contains it, so it would expand without end",
            cyc.node.start_mark.line + 1,
            cyc.node.start_mark.column + 1,
        )
    return (None if problems else doc), problems



class _Builder:
    def __init__(self, doc: Document, problems: list[Problem], loader: _PyLoader | _CLoader):
        self.doc = doc
        self.problems = problems
        self.loader = loader
        self.count = 0
        self.open: set[int] = set()  # nodes being built, to catch self-referring aliases

    def value(self, node: yaml.Node, loc: Loc) -> Any:
        """The value as YAML gives it: a mapping, a list or a scalar, of any type YAML knows."""
        self.count += 1
        if self.count > MAX_VALUES:
            raise _TooLarge
        if len(loc) > MAX_DEPTH:  # aliases can nest deeper than the text itself
            raise _TooDeep(node.start_mark)
        self.doc.value_at.setdefault(loc, (node.start_mark.line + 1, node.start_mark.column + 1))
        if isinstance(node, yaml.ScalarNode):
            if node.style in ("|", ">"):
                self.doc.blocks.add(loc)
            return self.scalar(node, loc)
        if id(node) in self.open:
            raise _Cycle(node)
        self.open.add(id(node))
        try:
            if isinstance(node, yaml.SequenceNode):
                return [self.value(item, loc + (i,)) for i, item in enumerate(node.value)]
            assert isinstance(node, yaml.MappingNode)  # the one kind of node left
            return self.mapping(node, loc)
        finally:
            self.open.discard(id(node))

    def scalar(self, node: yaml.ScalarNode, loc: Loc) -> Any:
        try:
            return self.loader.construct_object(node)
        except yaml.YAMLError:
            self.problems.append(
                self.doc.problem(loc, f"unknown YAML tag '{node.tag}'; write a plain value")
            )
            return None

    def mapping(self, node: yaml.MappingNode, loc: Loc) -> dict[Any, Any]:
        out: dict[Any, Any] = {}
        first_at: dict[Any, tuple[int, int]] = {}
        merges: list[yaml.Node] = []
        for key_node, value_node in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                merges.append(value_node)
                continue
            if not isinstance(key_node, yaml.ScalarNode):
                self.problems.append(
                    self.doc.problem(loc, "a key must be a plain name, not a list or mapping")
                )
                continue
            key = self.scalar(key_node, loc)
            where = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
            if key in first_at:
                line = first_at[key][0]
                self.doc.key_at[loc + (key,)] = where
                self.problems.append(
                    Problem(
                        self.doc.shown,
                        *where,
                        format_path(loc + (key,)),
                        f"duplicate key '{key}' (first given on line {line}); keep only one",
                    )
                )
                continue
            first_at[key] = where
            self.doc.key_at.setdefault(loc + (key,), where)
            out[key] = self.value(value_node, loc + (key,))
        for merge in merges:  # after the explicit keys, so that their positions win
            for key, value in self.merge(merge, loc).items():
                out.setdefault(key, value)
        return out

    def merge(self, node: yaml.Node, loc: Loc) -> dict[Any, Any]:
        """`<<: *base` or `<<: [*a, *b]`: earlier mappings win, explicit keys win over all."""
        sources = node.value if isinstance(node, yaml.SequenceNode) else [node]
        merged: dict[Any, Any] = {}
        for source in sources:
            if not isinstance(source, yaml.MappingNode):
                self.problems.append(self.doc.problem(loc, "'<<' merges only mappings"))
                continue
            for key, value in self.value(source, loc).items():
                merged.setdefault(key, value)
        return merged
