"""A jinja2 template rendered with a note of which template wrote each piece of its output, so
that a mistake found in the output (the rulebook's markup) is reported at the template line a
designer can fix, not at a line of text they never see.

jinja2 compiles a template to Python and keeps a map from the compiled code's lines to the
template's (`get_corresponding_lineno`, which its own tracebacks use); the rendering runs as
generators, one per template and block, so the one that yielded a piece of output is known
while it is suspended there. A piece of literal text is mapped to the template line written
before it; the line itself is then found by its text.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from pathlib import Path
from types import FrameType, GeneratorType

import jinja2

from ...core import ruletext
from . import markup

_TAG = re.compile(r"\{%.*?%\}|\{#.*?#\}")
_EXPRESSION = re.compile(r"\{\{.*?\}\}")


@dataclass(frozen=True)
class Rendered:
    text: str
    starts: tuple[int, ...]  # where each piece of the text begins
    writers: tuple[tuple[jinja2.Template, int], ...]  # each piece's template and compiled-code line

    def origin(self, line: int) -> tuple[str, int, int]:
        """The template file, line and column that wrote line `line` (from 1) of the text."""
        lines = self.text.splitlines(keepends=True)
        text = lines[line - 1]
        at = sum(len(t) for t in lines[:line - 1]) + len(text) - len(text.lstrip())
        template, code_line = self.writers[bisect.bisect_right(self.starts, at) - 1]
        first = template.get_corresponding_lineno(code_line)
        wanted = markup.plain(text).strip()  # as the template line reads, without the marks of literal text
        assert template.filename is not None  # the rulebook's templates are read from files
        source = Path(template.filename).read_text(encoding="utf-8").splitlines()
        for number in range(first, len(source) + 1):
            if _pattern(source[number - 1]).fullmatch(wanted):
                word = (wanted.split() or [""])[0]
                return template.filename, number, source[number - 1].find(word) + 1 or 1
        return template.filename, first, 1


class OverBudget(Exception):
    """A template's rendering past its budget, at the template file and line it had reached."""

    def __init__(self, message: str, file: str, line: int):
        super().__init__(message)
        self.file, self.line = file, line


def render(template: jinja2.Template, variables: dict, *, seconds: float, max_text: int) -> Rendered:
    """What `template.render(**variables)` returns, with where each piece of it came from.
    A template's error is raised as jinja2 raises it; `raised_at` tells where. Its rendering
    has a budget (core/ruletext.py's `bounded`): past `seconds`, or past `max_text`
    characters, it stops with OverBudget."""
    pieces: list[str] = []
    starts: list[int] = []
    writers: list[tuple[jinja2.Template, int]] = []
    at = 0
    rendering = template.root_render_func(template.new_context(variables))
    assert isinstance(rendering, GeneratorType)  # typed an Iterator; jinja2 compiles it as a generator
    try:
        for piece in ruletext.bounded(rendering, _in_template, _template_line, seconds=seconds, max_text=max_text):
            frame = _writer(rendering)
            pieces.append(piece)
            starts.append(at)
            writer = frame.f_globals.get("__jinja_template__")  # as jinja2's own tracebacks find it
            # (were it gone in a later jinja2, a line would be looked for from the template's top)
            writers.append((writer, frame.f_lineno) if writer is not None else (template, 0))
            at += len(piece)
    except ruletext.OverBudget as exc:
        # Raised in the template's own code when the time ran out, else between two pieces:
        # then the line that wrote the last one is where the text grew past its size.
        where = raised_at(exc)
        if where is None:
            frame = _writer(rendering)
            written = frame.f_globals.get("__jinja_template__", template)
            where = written.filename, written.get_corresponding_lineno(frame.f_lineno)
        raise OverBudget(str(exc), *where) from None
    finally:
        rendering.close()
    return Rendered("".join(pieces), tuple(starts), tuple(writers))


def _in_template(frame: FrameType) -> bool:
    return "__jinja_template__" in frame.f_globals


def _template_line(frame: FrameType) -> int:
    return frame.f_globals["__jinja_template__"].get_corresponding_lineno(frame.f_lineno)


def raised_at(exc: BaseException) -> tuple[str, int] | None:
    """The template file and line where an error raised while rendering arose, if in one."""
    where, tb = None, exc.__traceback__
    while tb is not None:
        template = tb.tb_frame.f_globals.get("__jinja_template__")
        if template is not None:
            where = template.filename, template.get_corresponding_lineno(tb.tb_lineno)
        tb = tb.tb_next
    return where


def _writer(rendering: GeneratorType) -> FrameType:
    """The frame of the innermost generator: a block or a parent template yields through
    its caller's `yield from`."""
    while isinstance(rendering.gi_yieldfrom, GeneratorType):
        rendering = rendering.gi_yieldfrom
    assert rendering.gi_frame is not None  # None only once it has finished; it has yielded a piece
    return rendering.gi_frame


def _pattern(template_line: str) -> re.Pattern:
    """A template line as a pattern of the output line it writes: tags and comments vanish,
    each expression may print anything."""
    literal = _EXPRESSION.split(_TAG.sub("", template_line).strip())
    return re.compile(".*".join(re.escape(part) for part in literal))
