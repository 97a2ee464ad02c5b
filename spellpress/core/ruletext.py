"""Rule and card text whose numbers are jinja2 references to the game's constants.

`{{ starting_health }}` in rules.yaml or on a card becomes the number in game.yaml, so a
changed constant changes every text that mentions it. Single braces (`{fire}`) are left alone
for the card renderer's inline icons.
"""

from __future__ import annotations

import functools
import re
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from types import FrameType
from typing import TYPE_CHECKING, Any

from .play import words
from .problems import did_you_mean

if TYPE_CHECKING:  # imported when a text first needs it (see _env)
    import jinja2
    from jinja2 import nodes  # imported here: see _env
    from jinja2.sandbox import ImmutableSandboxedEnvironment


# A text is a stranger's YAML: its rendering has a budget, and a text past it is a problem.
BUDGET_SECONDS = 1.0  # of rendering one text
MAX_TEXT = 100_000  # characters one text may come to
MAX_POWER = 64  # the largest exponent `**` takes: 10 ** 10 ** 10 would never end


class OverBudget(Exception):
    """A text's rendering went past its budget; `line`, the text's line it was at, if known."""

    def __init__(self, message: str, line: int = 1):
        super().__init__(message)
        self.line = line


@functools.cache
def _bounded_class() -> type[ImmutableSandboxedEnvironment]:
    from jinja2.sandbox import ImmutableSandboxedEnvironment  # imported here: see _env

    class Bounded(ImmutableSandboxedEnvironment):
        intercepted_binops = frozenset(["*", "**"])

        def call_binop(self, context: jinja2.runtime.Context, operator: str, left: Any, right: Any) -> Any:
            if operator == "**" and isinstance(right, int) and abs(right) > MAX_POWER:
                raise OverBudget(f"a power of {right} is past what a text may compute (at most {MAX_POWER})")
            if operator == "*" and isinstance(left, int) and isinstance(right, (str, list, tuple)):
                left, right = right, left
            if operator == "*" and isinstance(left, (str, list, tuple)) and isinstance(right, int) and len(left) * right > MAX_TEXT:
                raise OverBudget(f"repeating something {right} times makes more than {MAX_TEXT:,} characters")
            return super().call_binop(context, operator, left, right)

    return Bounded


def sandbox(**options: Any) -> ImmutableSandboxedEnvironment:
    """A jinja2 environment for a template a stranger wrote: jinja2's immutable sandbox, which
    refuses unsafe attributes and ranges over 100,000, with `*` and `**` bounded too (at most
    MAX_TEXT characters, powers up to MAX_POWER), since one of them can take all the memory or
    time there is. `options` are jinja2.Environment's. Its rendering is bounded by `bounded`.
    Numbers are put into words by core/play/words.py's filters (`{{ n | ordinal }}`)."""
    env = _bounded_class()(**options)
    env.filters.update(words.FILTERS)
    return env


@functools.cache
def _env(literal: Callable[[object], str] | None = None) -> ImmutableSandboxedEnvironment:
    """jinja2, imported only for texts that need more than a constant's name (most do not);
    with `literal`, each expression's value goes through it (jinja2's `finalize`)."""
    import jinja2  # 0.1 s to import

    return sandbox(undefined=jinja2.StrictUndefined, autoescape=False, keep_trailing_newline=True,
                   **({"finalize": literal} if literal else {}))


_LOOP = re.compile(r"\{%-?\s*for\b")


def bounded(
    pieces: Iterator[str],
    in_template: Callable[[FrameType], bool],
    line_of: Callable[[FrameType], int],
    *,
    seconds: float = BUDGET_SECONDS,
    max_text: int = MAX_TEXT,
    traced: bool = True,
) -> Iterator[str]:
    """The pieces of a template's rendering as it makes them, or OverBudget once it has taken
    `seconds` or the pieces come to more than `max_text` characters. A loop in a loop over a
    long list may print nothing for a long while, so the time is checked as the template's own
    lines run (a trace on the frames `in_template` says are the template's, and nothing else; the
    OverBudget is raised in the template's frame, at `line_of` it), not only as it writes.
    `traced=False` checks the time and size between pieces only, for a template without a loop.
    The time is this thread's CPU time: the template's own work, which a machine busy with
    other work does not spend (a real game's text ran out of a wall-clock second beside a full
    test suite and two busy processes)."""
    deadline = time.thread_time() + seconds
    lines = 0

    def lines_run(frame: FrameType, event: str, arg: object) -> Any:
        nonlocal lines
        lines += 1
        if lines % 1024 == 0 and time.thread_time() > deadline:
            raise OverBudget(f"it takes longer than {seconds:g} s to fill in (a loop that never ends?)", line_of(frame))
        return lines_run

    def calls(frame: FrameType, event: str, arg: object) -> Any:
        return lines_run if in_template(frame) else None

    size = 0
    while True:
        before = sys.gettrace()
        if traced:
            sys.settrace(calls)
        try:
            piece = next(pieces, None)
        finally:
            sys.settrace(before)
        if piece is None:
            return
        size += len(piece)
        if size > max_text:
            raise OverBudget(f"it comes to more than {max_text:,} characters")
        if time.thread_time() > deadline:
            raise OverBudget(f"it takes longer than {seconds:g} s to fill in")
        yield piece


def _bounded_render(template: jinja2.Template, context: Mapping[str, object], looping: bool) -> str:
    """The text, or OverBudget once it has taken BUDGET_SECONDS or grown past MAX_TEXT: only a
    loop can run long without writing, so the other texts go untraced."""
    return "".join(bounded(
        template.generate(context),
        lambda frame: frame.f_code.co_filename == "<template>",
        lambda frame: template.get_corresponding_lineno(frame.f_lineno),
        traced=looping,
    ))


@dataclass(frozen=True)
class TextError:
    line: int  # 1-based line inside the text
    needle: str  # what to look for on that line to place the column ('' if unknown)
    message: str


_SIMPLE = re.compile(r"\{\{\s*([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)\s*\}\}")


def render(source: str, context: Mapping[str, object],
           literal: Callable[[object], str] | None = None) -> tuple[str | None, list[TextError]]:
    """The text with its references filled in, or None and what is wrong with it. With
    `literal`, what each `{{ expression }}` prints is `literal(value)`: the rulebook marks it
    as text its markup must not read as markup (press/drawing/markup.py)."""
    if "{{" not in source and "{%" not in source and "{#" not in source:
        return source, []
    fast = _render_simple(source, context, literal)
    if fast is not None:
        return fast, []
    import jinja2  # imported here: see _env

    try:
        _, template = _compile(source, literal)
    except jinja2.TemplateSyntaxError as exc:
        message = f"text reference syntax error: {exc.message} (a reference is written {{{{ name }}}})"
        return None, [TextError(exc.lineno or 1, "{", message)]
    errors = [TextError(line, needle, problem) for line, needle, chain in _references(source)
              if (problem := _resolve(chain, context))]
    if errors:
        return None, errors
    try:
        return _bounded_render(template, context, bool(_LOOP.search(source))), []
    except OverBudget as exc:
        return None, [TextError(exc.line, "{", f"text reference cannot be filled in: {exc}")]
    except jinja2.TemplateError as exc:
        return None, [TextError(1, "{{", f"text reference cannot be filled in: {exc}")]
    except Exception as exc:  # e.g. a division by zero in an expression
        return None, [TextError(1, "{{", f"text reference cannot be filled in: {exc}")]


def _render_simple(source: str, context: Mapping[str, object],
                   literal: Callable[[object], str] | None = None) -> str | None:
    """Most texts only name constants; filling those in needs no compiled template.

    None when the text holds anything else, or a name that does not resolve (jinja2 then
    renders it, or reports the problem).
    """
    missing = False

    def value(match: re.Match[str]) -> str:
        nonlocal missing
        current: object = context
        for part in match.group(1).split("."):
            if not isinstance(current, Mapping) or part not in current:
                missing = True
                return ""
            current = current[part]
        if isinstance(current, (Mapping, list, tuple)):
            missing = True  # printed as jinja2 prints it, by jinja2
        return literal(current) if literal else str(current)

    out = _SIMPLE.sub(value, source)
    if missing or "{{" in out or "{%" in out or "{#" in out:
        return None
    return out


@functools.lru_cache(maxsize=4096)
def _compile(source: str, literal: Callable[[object], str] | None = None) -> tuple[nodes.Template, jinja2.Template]:
    """The parsed and the compiled text, once per text per process (watch reloads them)."""
    tree = _env(literal).parse(source)
    return tree, _env(literal).from_string(tree)


# Names jinja2 itself provides inside a text: loop.index in a for loop, range(), ...
_JINJA_NAMES = {"loop", "range", "dict", "lipsum", "cycler", "joiner", "namespace"}


@functools.lru_cache(maxsize=4096)
def _references(source: str) -> tuple[tuple[int, str, tuple[str, ...]], ...]:
    """The names a text refers to that it does not define itself, each chain once (from its
    outermost `a.b.c`): (line, what to point at on it, the chain). Known from the text alone,
    so worked out once per text per process; only resolving them depends on the constants."""
    from jinja2 import nodes  # imported here: see _env

    tree, _ = _compile(source)
    local = {n.name for n in tree.find_all(nodes.Name) if n.ctx in ("store", "param")} | _JINJA_NAMES
    inner = {id(g.node) for g in tree.find_all(nodes.Getattr)}  # the parts of a longer chain
    found = []
    for node in tree.find_all((nodes.Getattr, nodes.Name)):
        chain = _chain(node)
        if chain is None or chain[0] in local or id(node) in inner:
            continue
        found.append((node.lineno, chain[-1] if len(chain) > 1 else chain[0], tuple(chain)))
    return tuple(found)


def _chain(node: nodes.Node) -> list[str] | None:
    from jinja2 import nodes  # imported here: see _env

    names: list[str] = []
    while isinstance(node, nodes.Getattr):
        names.append(node.attr)
        node = node.node
    if isinstance(node, nodes.Name) and node.ctx == "load":
        names.append(node.name)
        return names[::-1]
    return None


_MAPPING_METHODS = ("items", "keys", "values", "get")


def _resolve(chain: tuple[str, ...], context: Mapping[str, object]) -> str | None:
    if chain[0] not in context:
        hint = did_you_mean(chain[0], [k for k in context if not k.startswith("_")])
        return f"unknown constant '{chain[0]}'{hint}"
    value = context[chain[0]]
    for i, name in enumerate(chain[1:], start=1):
        mapping: Mapping[Any, object] = value if isinstance(value, Mapping) else {}
        keys = list(mapping)
        if name not in keys and name in _MAPPING_METHODS and isinstance(value, Mapping):
            return None  # `{% for k, v in ammo.items() %}`
        if name not in keys:
            where = ".".join(chain[:i])
            hint = did_you_mean(name, keys) or (f"; it has {', '.join(keys)}" if keys else "")
            return f"'{where}' has no '{name}'{hint}"
        value = mapping[name]
    return None


def number(expression: int | str, context: Mapping[str, object]) -> int:
    """A whole number written as a number, a constant's name ('barrier.strength') or a sum of
    them ('mana_per_turn + max_conversions'), as layouts and playmats may; ValueError if not."""
    if isinstance(expression, int) and not isinstance(expression, bool):
        return expression
    text, errors = render(f"{{{{ {expression} }}}}", context)
    if text is None:  # a text is None exactly when it has errors
        raise ValueError(errors[0].message)
    if not text.strip().lstrip("-").isdigit():
        raise ValueError(f"'{expression}' is not a whole number (it is {text!r})")
    return int(text)
