"""Reading one YAML file into plain Python values that remember where each came from.

PyYAML's composer gives nodes with positions; we build the values ourselves so that we can
keep a position for every value and key, report duplicate keys (PyYAML silently keeps the
last), and stop alias chains that expand without end before they eat the machine.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml
from yaml.composer import Composer
from yaml.constructor import SafeConstructor
from yaml.resolver import Resolver

from .problems import Problem, display_path, format_path


class _TooDeep(Exception):
    def __init__(self, mark):
        self.mark = mark


class CachedResolver(Resolver):
    """PyYAML tells each plain scalar's type (int, float, bool...) by trying regexes on it;
    card and icon files repeat the same few values thousands of times, so remember them."""

    _tags: dict = {}

    def resolve(self, kind, value, implicit):
        if kind is not yaml.ScalarNode:
            return super().resolve(kind, value, implicit)
        key = (value, implicit)
        tag = self._tags.get(key)
        if tag is None:
            tag = self._tags[key] = super().resolve(kind, value, implicit)
        return tag


class FastLoader(yaml.CSafeLoader if hasattr(yaml, "CSafeLoader") else yaml.SafeLoader, CachedResolver):
    """libyaml's loader, for files that need no positions (the icons)."""


class _DepthLimit(Composer):
    """Stops at MAX_DEPTH nested values, at a depth that does not depend on the stack left."""

    _depth = 0

    def compose_node(self, parent, index):
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                raise _TooDeep(self.peek_event().start_mark)
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


try:
    from yaml._yaml import CParser

    class _Loader(_DepthLimit, CParser, SafeConstructor, CachedResolver):
        """libyaml's fast parser under PyYAML's Python composer.

        libyaml's own composer recurses in C and crashes the process on deeply nested input.
        """

        def __init__(self, stream):
            CParser.__init__(self, stream)
            Composer.__init__(self)
            SafeConstructor.__init__(self)
            Resolver.__init__(self)

except ImportError:  # PyYAML built without libyaml

    class _Loader(_DepthLimit, yaml.SafeLoader, CachedResolver):
        """PyYAML's pure-Python loader, with the same depth limit."""


MAX_FILE_BYTES = 4 * 1024 * 1024
MAX_DEPTH = 100
MAX_VALUES = 100_000  # values after alias expansion; a card file has a few thousand

Loc = tuple  # ('spells', 3, 'cost', 1)


@dataclass
class Document:
    """A parsed YAML file: its data and the 1-based (line, column) of every value and key."""

    path: Path
    data: object
    value_at: dict[Loc, tuple[int, int]] = field(default_factory=dict)
    key_at: dict[Loc, tuple[int, int]] = field(default_factory=dict)
    blocks: set = field(default_factory=set)  # locs of block scalars ('|' or '>')
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

    def fail(message: str, line: int = 0, column: int = 0) -> tuple[None, list[Problem]]:
        return None, [Problem(shown, line, column, "", message)]

    try:
        raw = path.read_bytes()
    except OSError as exc:
        return fail(f"cannot read the file: {exc.strerror}")
    if len(raw) > MAX_FILE_BYTES:
        return fail(f"the file is {len(raw):,} bytes; a card file may hold at most {MAX_FILE_BYTES:,}")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        return fail(
            f"the file is not UTF-8 text (byte 0x{raw[exc.start]:02x} cannot be read); "
            "save it with UTF-8 encoding",
            line,
            column,
        )

    loader = _Loader(text)
    try:
        root = loader.get_single_node()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        what = exc.problem or "invalid YAML"
        if exc.context and exc.problem:
            what = f"{exc.context}, {exc.problem}"
            if exc.context_mark and mark and exc.context_mark.line != mark.line:
                what = what.replace(exc.context, f"{exc.context} started on line {exc.context_mark.line + 1}", 1)
        if "single document" in (exc.context or ""):
            what = "the file holds more than one YAML document ('---'); keep one per file"
        line, column = (mark.line + 1, mark.column + 1) if mark else (0, 0)
        return fail(f"YAML syntax error: {what}", line, column)
    except yaml.YAMLError as exc:
        return fail(f"YAML syntax error: {exc}")
    except _TooDeep as deep:
        return fail(
            f"values are nested more than {MAX_DEPTH} deep here; a card file needs a few levels",
            deep.mark.line + 1,
            deep.mark.column + 1,
        )
    finally:
        loader.dispose()

    if root is None:
        return fail("the file is empty; it should hold a YAML mapping (key: value lines)", 1, 1)

    doc = Document(path, None, lines=text.splitlines())
    problems: list[Problem] = []
    builder = _Builder(doc, problems, loader)
    try:
        doc.data = builder.value(root, ())
    except _TooDeep as deep:
        return fail(
            f"values are nested more than {MAX_DEPTH} deep here; a card file needs a few levels",
            deep.mark.line + 1,
            deep.mark.column + 1,
        )
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
    def __init__(self, doc: Document, problems: list[Problem], loader):
        self.doc = doc
        self.problems = problems
        self.loader = loader
        self.count = 0
        self.open: set[int] = set()  # nodes being built, to catch self-referring aliases

    def value(self, node: yaml.Node, loc: Loc):
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
            return self.mapping(node, loc)
        finally:
            self.open.discard(id(node))

    def scalar(self, node: yaml.ScalarNode, loc: Loc):
        try:
            return self.loader.construct_object(node)
        except yaml.YAMLError:
            self.problems.append(
                self.doc.problem(loc, f"unknown YAML tag '{node.tag}'; write a plain value")
            )
            return None

    def mapping(self, node: yaml.MappingNode, loc: Loc) -> dict:
        out: dict = {}
        first_at: dict = {}
        merges = []
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

    def merge(self, node: yaml.Node, loc: Loc) -> dict:
        """`<<: *base` or `<<: [*a, *b]`: earlier mappings win, explicit keys win over all."""
        sources = node.value if isinstance(node, yaml.SequenceNode) else [node]
        merged: dict = {}
        for source in sources:
            if not isinstance(source, yaml.MappingNode):
                self.problems.append(self.doc.problem(loc, "'<<' merges only mappings"))
                continue
            for key, value in self.value(source, loc).items():
                merged.setdefault(key, value)
        return merged
