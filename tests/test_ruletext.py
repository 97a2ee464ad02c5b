"""Rule text references: filled in from the constants, and wrong ones named."""

import jinja2

from spellpress.core import ruletext
from spellpress.core.play import words

CONTEXT = {"starting_life": 4, "ammo": {"live": {"name": "Live", "life_loss": 1}}, "levels": [1, 2]}


def test_every_real_text_renders_as_jinja2_would(games):
    env = jinja2.Environment(undefined=jinja2.StrictUndefined, keep_trailing_newline=True)
    env.filters.update(words.FILTERS)
    for game in games.values():
        for section in game.rules:
            assert env.from_string(section.source).render(game.text_context) == section.text, section.id


def test_names_and_dotted_paths_are_filled_in():
    text, errors = ruletext.render("Start at {{ starting_life }}; Live costs {{ ammo.live.life_loss }}.", CONTEXT)
    assert errors == [] and text == "Start at 4; Live costs 1."


def test_loops_and_mapping_methods_are_allowed():
    text, errors = ruletext.render("{% for k, v in ammo.items() %}{{ v.name }}{% endfor %} {{ levels | length }}", CONTEXT)
    assert errors == [] and text == "Live 2"


def test_unknown_names_and_attributes_are_named_with_a_suggestion():
    _, errors = ruletext.render("a\n{{ starting_lfe }} and {{ ammo.live.life_lost }}", CONTEXT)
    assert [(e.line, e.message) for e in errors] == [
        (2, "unknown constant 'starting_lfe' (did you mean 'starting_life'?)"),
        (2, "'ammo.live' has no 'life_lost' (did you mean 'life_loss'?)"),
    ]


def test_single_braces_are_left_for_inline_icons():
    text, errors = ruletext.render("Pay {fire}{fire} for {{ starting_life }}", CONTEXT)
    assert errors == [] and text == "Pay {fire}{fire} for 4"


def test_a_syntax_error_says_how_a_reference_is_written():
    _, errors = ruletext.render("x {{ starting_life }", CONTEXT)
    assert "a reference is written {{ name }}" in errors[0].message


def test_jinja2s_own_names_are_not_taken_for_constants():
    text, errors = ruletext.render("{% for n in levels %}{{ loop.index }}{% endfor %} {{ range(2) | list | length }}", CONTEXT)
    assert errors == [] and text == "12 2"
