"""Numbers put into words one way: ordinals, plurals, shares."""

import re

import pytest

from spellpress import defaults
from spellpress.core import ruletext
from spellpress.core.play.words import ordinal, part, plural


@pytest.mark.parametrize("n,written", [(1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"), (11, "11th"), (12, "12th"),
                                       (13, "13th"), (21, "21st"), (22, "22nd"), (23, "23rd"), (101, "101st"),
                                       (111, "111th"), (112, "112th"), (0, "0th"), (100, "100th")])
def test_ordinals(n, written):
    assert ordinal(n) == written


def test_plurals_and_shares():
    assert [plural(n, "card") for n in (0, 1, 2)] == ["0 cards", "1 card", "2 cards"]
    assert plural(1, "element card") == "1 element card" and plural(3, "element card") == "3 element cards"
    assert plural(2, "life", "lives") == "2 lives" and plural(1, "life", "lives") == "1 life"
    assert [part(n) for n in (2, 3, 4, 5)] == ["half", "a third", "a quarter", "1/5"]


def test_texts_and_templates_reach_them_as_filters():
    text, errors = ruletext.render("{{ n | ordinal }} {{ n | plural('spell') }} {{ d | part }}", {"n": 2, "d": 3})
    assert errors == [] and text == "2nd 2 spells a third"


def test_no_text_builds_a_suffix_by_hand(games, cards_dir):
    """'2th', '1 cards', '3 card' cannot come from a text that uses the filters; a text or a
    rulebook template that still writes `{{ n }}th` or `card{{ 's' if ... }}` is caught here."""
    by_hand = re.compile(r"\}\}\s*(th|st|nd|rd)\b|\{\{\s*(''|\"\"|'s'|\"s\")\s+if")
    sources = sorted(cards_dir.glob("*/*.yaml")) + sorted((cards_dir.parent / "templates" / "rulebook").glob("*.j2"))
    sources += sorted((defaults.TEMPLATES / "rulebook").glob("*.j2"))
    for path in sources:
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            assert not by_hand.search(line), f"{path.name}:{number}: {line.strip()}"
    for game in games.values():
        for term, text in game.glossary:
            for m in re.finditer(r"\b(\d+)(th|st|nd|rd)\b", text):
                assert m.group(0) == ordinal(int(m.group(1))), (game.slug, term, text)


COUNTED = (r"(?:(?:new|extra|identical|spell|element|rune|challenge|sorcerer) )?"
           r"(?:cards?|spells?|slots?|elements?|tokens?|turns?|points?|players?|wizards?|challenges?|rounds?|minutes?|creatures?|shots?)")


def test_a_number_from_the_yaml_counts_things_through_plural(cards_dir):
    """`{{ hand_limit }} cards` reads right only while the hand limit is not 1: a designer who
    sets a constant to 1 (or a card's number to 2) must not get '1 cards' or '2 turn'. A count
    of things goes through `plural` (a name such as `{{ ammo.blank.name }} cards` is not a count)."""
    by_hand = re.compile(r"\{\{ ([a-z_][a-z_.0-9]*) \}\} " + COUNTED + r"\b")
    sources = sorted(cards_dir.glob("*/*.yaml")) + sorted((cards_dir.parent / "templates").rglob("*.yaml"))
    sources += sorted((cards_dir.parent / "templates" / "rulebook").glob("*.j2")) + sorted((defaults.TEMPLATES / "rulebook").glob("*.j2"))
    for path in sources:
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            for m in by_hand.finditer(line):
                assert m.group(1).endswith((".name", "_element")), f"{path.name}:{number}: {line.strip()}"


def test_powers_combined_glossary_says_the_share_in_words(games):
    game = games["powers-combined"]
    [text] = [text for term, text in game.glossary if term.startswith("Weakness")]
    divisor = game.constants.resistance_divisor
    assert f"takes {part(divisor)} of it, rounded down" in text and f"{divisor}th" not in text
