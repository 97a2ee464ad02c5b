"""YAML syntax errors said in a designer's words: where, what went wrong, and the likely fix.

PyYAML (and libyaml, whose wording differs) report what the parser expected ("did not find
expected '-' indicator"), which is true but tells a designer nothing. The usual causes are few:
a line indented more or less than its neighbours, a tab, a colon inside unquoted text, a bracket
or quote left open. Each is recognised from the parser's marks and the lines themselves; anything
else keeps the parser's own words, still with the line quoted and a caret under the place.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import yaml


@dataclass(frozen=True)
class Explained:
    line: int  # 1-based; 0 when unknown
    column: int
    message: str
    excerpt: str  # the line quoted, with a caret under the column ('' when there is no line)


_KEY = re.compile(r"""^(\s*)(?:-\s+)*(?:[^\s#'"\[\]{},:&*!|>%@`-][^:#]*?|"[^"]*"|'[^']*'):(\s|$)""")
_COMMENT_OR_BLANK = re.compile(r"^\s*(#.*)?$")


def explain(exc: yaml.MarkedYAMLError, lines: list[str]) -> Explained:
    """The error as a designer should read it."""
    mark = exc.problem_mark or exc.context_mark
    line, column = (mark.line, mark.column) if mark else (-1, -1)
    problem, context = exc.problem or "", exc.context or ""
    for diagnose in (_tab, _unclosed, _colon_in_text, _missing_colon, _runaway_quote, _indentation, _bad_start):
        found = diagnose(problem, context, exc, lines, line, column)
        if found:
            at_line, at_column, message = found
            return Explained(at_line + 1, at_column + 1, message, excerpt(lines, at_line, at_column))
    said = f"{context}, {problem}" if context and problem else (problem or context or "the file is not valid YAML")
    return Explained(line + 1, column + 1, said, excerpt(lines, line, column))


def excerpt(lines: list[str], line: int, column: int) -> str:
    """`  12 | text` and a caret under `column` (both 0-based); a tab shown as →."""
    if not 0 <= line < len(lines):
        return ""
    text = lines[line].replace("\t", "→")
    number = str(line + 1)
    pad = " " * len(number)
    return f"  {number} | {text}\n  {pad} | {' ' * max(0, min(column, len(text)))}^"


# -- each diagnosis returns (line, column, message), 0-based, or None ------------------------------

_Found = tuple[int, int, str] | None


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip(" "))


def _tab(problem: str, context: str, exc: yaml.MarkedYAMLError, lines: list[str], line: int, column: int) -> _Found:
    if "tab" not in problem and not (0 <= line < len(lines) and "\t" in lines[line][: column + 1]):
        return None
    # The first line indented with a tab, at or before the one the parser stopped on.
    for n in range(min(line, len(lines) - 1), -1, -1):
        lead = lines[n][: len(lines[n]) - len(lines[n].lstrip(" \t"))]
        if "\t" in lead:
            return n, lead.index("\t"), "this line is indented with a tab: YAML indents with spaces only; use spaces, not tabs"
    if 0 <= line < len(lines) and "\t" in lines[line]:
        return line, lines[line].index("\t"), "a tab here: YAML indents with spaces only; use spaces, not tabs"
    return None


def _unclosed(problem: str, context: str, exc: yaml.MarkedYAMLError, lines: list[str], line: int, column: int) -> _Found:
    opened = exc.context_mark
    if not opened:
        return None
    if "flow node" in context:  # the parser no longer knows where the bracket was opened: find it
        found = _last_open_bracket(lines, line)
        if found is None:
            return None
        at_line, at_column = found
        bracket = lines[at_line][at_column]
        close = "]" if bracket == "[" else "}"
        return (at_line, at_column,
                f"the '{bracket}' opened on line {at_line + 1} is not closed: close the bracket with "
                f"'{close}' on line {at_line + 1} (or put the text in quotes if the '{bracket}' belongs to it)")
    if "flow sequence" in context or "flow mapping" in context:
        bracket, close = ("[", "]") if "sequence" in context else ("{", "}")
        if opened.line == line and "expected ',' or" in problem:
            # Something follows a closed flow value on the same line, e.g. `[a, b]]`.
            char = _char(lines, line, column)
            return line, column, f"unexpected '{char}' after the '{bracket}' closed: remove it, or put the text in quotes"
        return (opened.line, opened.column,
                f"the '{bracket}' opened on line {opened.line + 1} is not closed: close the bracket with "
                f"'{close}' on line {opened.line + 1} (or put the text in quotes if the '{bracket}' belongs to it)")
    if "quoted scalar" in context:
        quote = lines[opened.line][opened.column] if _char(lines, opened.line, opened.column) else "quote"
        return (opened.line, opened.column,
                f"the {quote} opened on line {opened.line + 1} is never closed: end the text with another {quote}")
    return None


def _last_open_bracket(lines: list[str], line: int) -> tuple[int, int] | None:
    """Where the innermost '[' or '{' still open at `line` was opened (quotes and comments skipped)."""
    stack: list[tuple[int, int]] = []
    for n, text in enumerate(lines[: line + 1]):
        quote = ""
        for c, char in enumerate(text):
            if quote:
                quote = "" if char == quote else quote
            elif char in "'\"" and (c == 0 or text[c - 1] in " \t[{,:"):
                quote = char
            elif char == "#" and (c == 0 or text[c - 1] in " \t"):
                break
            elif char in "[{":
                stack.append((n, c))
            elif char in "]}" and stack:
                stack.pop()
    return stack[-1] if stack else None


def _colon_in_text(problem: str, context: str, exc: yaml.MarkedYAMLError, lines: list[str], line: int, column: int) -> _Found:
    if "mapping values are not allowed" not in problem or not 0 <= line < len(lines):
        return None
    text = lines[line]
    key = _KEY.match(text)
    if key and key.end() <= column:  # a second ': ' on a `key: value` line: it is inside the text
        value = text[key.end():].strip()
        return (line, column,
                f"': ' inside unquoted text: put text with ': ' in quotes, e.g. {key.group(0).strip()} \"{_escape(value)}\"")
    return None


def _missing_colon(problem: str, context: str, exc: yaml.MarkedYAMLError, lines: list[str], line: int, column: int) -> _Found:
    if "could not find expected ':'" not in problem or not exc.context_mark:
        return None
    at = exc.context_mark
    return (at.line, at.column,
            "this line is neither 'key: value' nor a list item '- ...': write a colon and a space after the key "
            "(or indent it under the line above if it continues that text)")


_OPENING_QUOTE = re.compile(r"""^\s*(?:-\s+)*(?:[^\s#'"][^#]*?:\s+)?(['"])""")


def _runaway_quote(problem: str, context: str, exc: yaml.MarkedYAMLError, lines: list[str], line: int, column: int) -> _Found:
    """A quote left open runs on over the next lines until a quote (an apostrophe, often) that
    the parser takes for its end: the error then shows far below the real mistake."""
    for k in range(min(line, len(lines)) - 1, -1, -1):
        opened = _OPENING_QUOTE.match(lines[k])
        if opened and not _closes(lines[k][opened.end():], opened.group(1)):
            quote = opened.group(1)
            return (k, opened.start(1),
                    f"the {quote} opened here is not closed on this line, so the text runs on to line {line + 1}: "
                    f"end the text with another {quote}")
    return None


def _closes(rest: str, quote: str) -> bool:
    """Whether the quoted text that `rest` continues ends on this line ('' inside '...' is a quote)."""
    if quote == "'":
        return "'" in rest.replace("''", "")
    return re.search(r'(?<!\\)"', rest) is not None


def _indentation(problem: str, context: str, exc: yaml.MarkedYAMLError, lines: list[str], line: int, column: int) -> _Found:
    if not any(s in problem for s in ("expected '-' indicator", "expected key", "expected <block end>",
                                      "mapping values are not allowed", "block sequence entries are not allowed")):
        return None
    n = _first_content_line(lines, line)
    above = _previous_content_line(lines, n) if n is not None else None
    if n is None or above is None:
        return None
    own, levels = _indent(lines[n]), _levels(lines, n)
    if own in levels or (_opens_block(lines[above]) and own > _indent(lines[above])):
        return None
    # Line up with the nearest line above of the same kind (list item or key) on an open level;
    # below block text indented deeper than its key, with that text.
    item = lines[n].lstrip().startswith("- ")
    text_above = not (_KEY.match(lines[above]) or _is_item(lines[above]))
    key_above = next((k for k in range(above, -1, -1) if _KEY.match(lines[k])), None)
    if (text_above and not item and key_above is not None
            and _indent(lines[key_above]) < own < _indent(lines[above])):
        like, where = _indent(lines[above]), "the text above"
    else:
        keyed = next((k for k in range(above, -1, -1)
                      if _indent(lines[k]) in levels and (_is_item(lines[k]) if item else bool(_KEY.match(lines[k])))), above)
        like = _indent(lines[keyed])
        where = "the line above" if keyed == above else f"line {keyed + 1}"
    said = "more" if own > like else "less"
    return (n, own,
            f"this line is indented {said} than it should be ({_spaces(own)}, which lines up with no line above): "
            f"indent it like {where} ({_spaces(like)})")


def _is_item(text: str) -> bool:
    return text.lstrip().startswith("- ") or text.strip() == "-"


def _spaces(n: int) -> str:
    return "1 space" if n == 1 else f"{n} spaces"


def _bad_start(problem: str, context: str, exc: yaml.MarkedYAMLError, lines: list[str], line: int, column: int) -> _Found:
    char = _char(lines, line, column)
    if "cannot start any token" in problem and char:
        value = lines[line][column:].rstrip()
        return line, column, f"a value cannot start with '{char}': put the value in quotes, e.g. \"{_escape(value)}\""
    if ("expected key" in problem or "expected <block end>" in problem) and char and lines[line][:column].strip():
        return line, column, f"unexpected '{char}' after the value: put the whole value in quotes, or remove it"
    return None


def _first_content_line(lines: list[str], line: int) -> int | None:
    """The line the parser stopped on, or the next line with content if it stopped on a blank one."""
    for n in range(max(line, 0), len(lines)):
        if not _COMMENT_OR_BLANK.match(lines[n]):
            return n
    return None


def _previous_content_line(lines: list[str], n: int) -> int | None:
    return next((k for k in range(n - 1, -1, -1) if not _COMMENT_OR_BLANK.match(lines[k])), None)


def _opens_block(text: str) -> bool:
    return text.rstrip().endswith((":", "|", ">", "|-", ">-", "|+", ">+"))


def _levels(lines: list[str], n: int) -> set[int]:
    """The indentations line `n` may have to continue what is above it: that of each enclosing
    key or list item, walking back, and where a list item's content starts."""
    levels: set[int] = set()
    ceiling = None
    for k in range(n - 1, -1, -1):
        text = lines[k]
        if _COMMENT_OR_BLANK.match(text):
            continue
        own = _indent(text)
        if ceiling is not None and own >= ceiling:
            continue
        levels.add(own)
        item = re.match(r"^(\s*)((?:-\s+)+)", text)
        if item:
            levels.add(len(item.group(1)) + len(item.group(2)))
        ceiling = own
        if own == 0:
            break
    return levels


def _char(lines: list[str], line: int, column: int) -> str:
    """The character at the place, '' past the end of the line or the file."""
    if 0 <= line < len(lines) and 0 <= column < len(lines[line]):
        return lines[line][column]
    return ""


def _escape(text: str) -> str:
    shown = text if len(text) <= 40 else text[:37] + "..."
    return shown.replace("\\", "\\\\").replace('"', '\\"')
