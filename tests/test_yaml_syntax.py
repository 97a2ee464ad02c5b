"""YAML syntax errors in a designer's words, whichever parser (libyaml or PyYAML's own) found them."""

import pytest
import yaml

from spellpress.core import yamlsyntax

CARD = """spells:
  - id: fire-bolt
    name: Fire Bolt
    cost: [Fire, Fire]
    damage: 2
    text: >-
      Double damage to wet
      or frozen targets.
  - id: frost-nip
    name: Frost Nip
"""

LOADERS = [yaml.SafeLoader] + ([yaml.CSafeLoader] if hasattr(yaml, "CSafeLoader") else [])


def _edit(line: int, text: str) -> str:
    lines = CARD.splitlines()
    lines[line - 1] = text
    return "\n".join(lines) + "\n"


def _explain(source: str, loader) -> yamlsyntax.Explained:
    with pytest.raises(yaml.MarkedYAMLError) as caught:
        yaml.compose(source, Loader=loader)
    return yamlsyntax.explain(caught.value, source.splitlines())


CASES = [
    # (line edited, its new text, line reported, words the message must hold)
    (5, "     damage: 2", 5, ["indented more", "like the line above (4 spaces)"]),
    (5, "   damage: 2", 5, ["indented less", "like the line above (4 spaces)"]),
    (5, "\tdamage: 2", 5, ["use spaces, not tabs"]),
    (5, "  \tdamage: 2", 5, ["use spaces, not tabs"]),
    (3, "    name: Note: Fire Bolt", 3, ["put text with ': ' in quotes", 'name: "Note: Fire Bolt"']),
    (4, "    cost: [Fire, Fire", 4, ["'[' opened on line 4 is not closed", "']'"]),
    (4, "    cost: {Fire: 1", 4, ["'{' opened on line 4 is not closed", "'}'"]),
    (3, '    name: "Fire Bolt', 3, ['" opened on line 3 is never closed']),
    (3, "    name: 'Fire Bolt", 3, ["' opened", "not closed on this line"]),
    (5, "    damage 2", 5, ["write a colon and a space after the key"]),
    (9, " - id: frost-nip", 9, ["indented less", "like line 2 (2 spaces)"]),
    (9, "   - id: frost-nip", 9, ["indented more", "like line 2 (2 spaces)"]),
    (8, "     or frozen targets.", 8, ["like the text above (6 spaces)"]),
    (4, "    cost: [Fire]]", 4, ["unexpected ']'"]),
    (5, "    damage: @2", 5, ["cannot start with '@'", 'quotes, e.g. "@2"']),
]


@pytest.mark.parametrize("loader", LOADERS, ids=lambda loader: loader.__name__)
@pytest.mark.parametrize(("line", "text", "reported", "words"), CASES, ids=[c[1].strip() for c in CASES])
def test_the_likely_mistake_is_named_with_its_fix(loader, line, text, reported, words):
    source = _edit(line, text)
    if line == 3 and text.endswith("'Fire Bolt"):
        source = source.replace("Double damage to wet", "Double damage to the caster's wet")
    said = _explain(source, loader)
    assert said.line == reported, said
    for word in words:
        assert word in said.message, said.message
    for parser_words in ("did not find", "indicator", "scalar", "block mapping", "token", "simple key"):
        assert parser_words not in said.message, said.message


@pytest.mark.parametrize("loader", LOADERS, ids=lambda loader: loader.__name__)
def test_the_line_is_quoted_with_a_caret_under_the_place(loader):
    said = _explain(_edit(5, "     damage: 2"), loader)
    assert said.excerpt == "  5 |      damage: 2\n    |      ^"
    tab = _explain(_edit(5, "\tdamage: 2"), loader)
    assert tab.excerpt == "  5 | →damage: 2\n    | ^"


def test_an_error_not_recognised_keeps_the_parsers_words_and_the_place():
    source = "a: *nowhere\n"
    with pytest.raises(yaml.MarkedYAMLError) as caught:
        yaml.compose(source, Loader=yaml.SafeLoader)
    said = yamlsyntax.explain(caught.value, source.splitlines())
    assert "nowhere" in said.message and said.line == 1 and said.excerpt.startswith("  1 | a: *nowhere")


@pytest.mark.parametrize("loader", LOADERS, ids=lambda loader: loader.__name__)
def test_a_bracket_left_open_at_the_end_of_the_file_is_found_where_it_opened(loader):
    said = _explain("title: Spells\ncost: [\n", loader)
    assert said.line == 2 and said.column == 7 and "'[' opened on line 2 is not closed" in said.message
