"""Rulebooks and playmats: their numbers come from the YAML, and the printed tiles fit together."""

import json
import re
import shutil
import time

import pytest
from pypdf import PdfReader

from pdf_checks import fonts, syntax_problems
from spellpress.cli import main
from spellpress.core import ValidationFailed
from spellpress.press.drawing import fonts as press_fonts
from spellpress.press.drawing import markup
from spellpress.press.model.options import Options
from spellpress.press.model.plan import plan
from spellpress.press.outputs.build import build

MM = 72 / 25.4
SLUGS = ["magicka-mayhem", "powermage-54", "powers-combined", "sorcerer-duel", "spellchamber"]


@pytest.fixture()
def built(books_built):
    return books_built


def text_of(pdf) -> str:
    return re.sub(r"\s+", " ", " ".join(page.extract_text() for page in PdfReader(pdf).pages))


@pytest.mark.parametrize("slug", SLUGS)
def test_every_rule_section_and_deck_is_in_the_rulebook(built, games, slug):
    game = games[slug]
    for paper in ("a4", "letter"):
        text = text_of(built / slug / f"rulebook-{paper}.pdf")
        for section in game.rules:
            assert section.title in text
            # the section's opening words, as printed: without markup or list markers
            plain = re.sub(r"\*\*|^\s*(- |\d+\. )", "", section.text, flags=re.M)
            first_words = " ".join(plain.split()[:5])
            assert first_words in text, (section.id, first_words)
        for deck in game.decks.values():
            assert f"{deck.name} {deck.total} {deck.unique}" in text
        for term, _ in game.glossary:
            assert term in text


def test_magicka_reference_tables_come_from_the_data(built, games):
    game = games["magicka-mayhem"]
    text = text_of(built / "magicka-mayhem" / "rulebook-a4.pdf")
    for card in game.cards:
        if card.type == "snap":
            assert f"{card.name} {card['element']} + {card['element']} {card['damage']}" in text
    for a, b in game.constants.opposed:
        assert f"{a} {b}" in text
    for level in game.constants.mayhem_levels:
        assert level.name in text


def test_spellchamber_lists_every_scenario(built, games):
    game = games["spellchamber"]
    text = text_of(built / "spellchamber" / "rulebook-a4.pdf")
    for spec in game.constants.scenario_decks.values():
        for card in game.decks[spec.deck].cards:
            chamber = card["live"] + card["magic"] + card["blank"]
            assert f"{card['spells_per_player']} {card['live']} {card['magic']} {card['blank']} {chamber}" in text


def test_a_changed_constant_changes_the_rulebook(tmp_path, cards_dir):
    shutil.copytree(cards_dir / "magicka-mayhem", tmp_path / "cards" / "magicka-mayhem")
    game_yaml = tmp_path / "cards" / "magicka-mayhem" / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("starting_health: 20", "starting_health: 33"))
    build(Options(cards=tmp_path / "cards", templates=cards_dir.parent / "templates", out=tmp_path / "out",
                  kinds=("rulebook",), papers=("a4",), progress=False))
    text = text_of(tmp_path / "out" / "magicka-mayhem" / "rulebook-a4.pdf")
    assert "starts with 33 health" in text and "starts with 20 health" not in text


def test_the_booklet_imposes_two_pages_a_sheet_in_saddle_stitch_order(built):
    book = PdfReader(built / "spellchamber" / "rulebook-a4-booklet.pdf")
    first = book.pages[0]
    assert round(float(first.mediabox.width) / MM) == 297 and round(float(first.mediabox.height) / MM) == 210
    plain = PdfReader(built / "spellchamber" / "rulebook-a4.pdf")
    assert len(book.pages) * 2 >= len(plain.pages) and len(book.pages) % 2 == 0


def test_fonts_embedded_and_files_sound(built):
    for pdf in sorted(built.glob("*/*.pdf")):
        used = fonts(pdf)
        assert used and {font.name for font in used if not font.embedded} == set(), pdf.name
        assert syntax_problems(pdf) == [], pdf.name


def test_kept_contents_entries_lay_a_book_out_once_and_change_no_byte(tmp_path, games, cards_dir):
    """The entries a build keeps let the next one skip platypus's second pass; wrong or torn
    entries only cost that pass again. The PDF is the same in every case."""
    from reportlab.platypus.doctemplate import BaseDocTemplate

    from spellpress.press.drawing import rulebook

    book = plan(Options(cards=cards_dir, templates=cards_dir.parent / "templates", games=("spellchamber",),
                        kinds=("rulebook",), progress=False))[0][0].book
    passes = []
    real = BaseDocTemplate.build

    def counted(self, *args, **kwargs):
        passes.append(1)
        return real(self, *args, **kwargs)

    BaseDocTemplate.build = counted
    try:
        cold = rulebook.pdf(book, "a4")
        kept = tmp_path / "toc.json"
        assert rulebook.pdf(book, "a4", contents=kept) == cold and kept.is_file()
        passes.clear()
        assert rulebook.pdf(book, "a4", contents=kept) == cold
        assert len(passes) == 1
        entries = json.loads(kept.read_text())
        entries[-1][2] += 1  # a heading that moved
        for stale in (json.dumps(entries), "[[1, 2]]", "not json"):
            kept.write_text(stale)
            passes.clear()
            assert rulebook.pdf(book, "a4", contents=kept) == cold
            assert len(passes) == 2
    finally:
        BaseDocTemplate.build = real


def test_a_book_whose_card_figures_changed_is_its_skeleton_with_them_put_in(cards_dir, tmp_path):
    """After an edit to the sample card, the book is its kept skeleton with the new figures put
    in (rulebook.pdf's `keep`), not laid out again: byte for byte the book drawn whole."""
    from dataclasses import replace

    from spellpress.press.drawing import rulebook
    from spellpress.press.drawing.displaylist import Text

    book = plan(Options(cards=cards_dir, templates=cards_dir.parent / "templates", games=("spellchamber",),
                        kinds=("rulebook",), progress=False))[0][0].book
    keep = tmp_path / "book.skeleton"
    first = rulebook.pdf(book, "a4", keep=keep)
    made = keep.stat().st_mtime_ns
    card, sample = book.samples[0]
    longest = max((i for i in sample.drawing.items if isinstance(i, Text)), key=lambda i: len(i.text))
    drawing = replace(sample.drawing, items=tuple(replace(i, text=i.text[:-3] + "...") if i is longest else i
                                                  for i in sample.drawing.items))
    edited = replace(book, samples=((card, replace(sample, drawing=drawing)), *book.samples[1:]),
                     fanned=tuple(drawing if face == sample.drawing else face for face in book.fanned))
    assert rulebook.skeleton_key(edited) == rulebook.skeleton_key(book)
    filled = rulebook.pdf(edited, "a4", keep=keep)
    assert keep.stat().st_mtime_ns == made  # filled, not made again
    assert filled == rulebook.pdf(edited, "a4") != first


def test_worked_examples_are_the_rule_helpers_answers(built, games):
    from spellpress.core.games import ask

    game = games["magicka-mayhem"]
    text = text_of(built / "magicka-mayhem" / "rulebook-a4.pdf")
    paid = ask(game, "can-cast", {"spell": "fire-bolt", "hand": ["raging-fire", "limitless-lightning"]})
    assert "1 Lightning wasted" in paid["verdict"] and paid["verdict"] in text
    for snap, shield, outcome in (("cold-cube", False, "Countered"), ("flickering-flame", False, "Disrupted"),
                                  ("cold-cube", True, "Reflected")):
        verdict = ask(game, "snap-vs-spell", {"snap": snap, "shield": shield, "spell": "fire-bolt"})["verdict"]
        assert verdict.startswith(outcome) and verdict in text
    duel = games["sorcerer-duel"]
    held = ask(duel, "attack", {"attack": "heat-wave", "blockers": ["bramble-hedge"], "creatures": ["mossling", "sporecap"]})
    assert held["verdict"] in text_of(built / "sorcerer-duel" / "rulebook-a4.pdf")


def broken_rulebook(tmp_path, cards_dir, slug: str, old: str, new: str):
    """A copy of the templates with one edit to a game's rulebook template."""
    shutil.copytree(cards_dir.parent / "templates", tmp_path / "templates")
    book = tmp_path / "templates" / "rulebook" / f"{slug}.md.j2"
    text = book.read_text()
    assert old in text
    book.write_text(text.replace(old, new, 1))
    return tmp_path / "templates"


def test_an_example_the_helper_refuses_is_a_template_problem(tmp_path, cards_dir):
    templates = broken_rulebook(tmp_path, cards_dir, "magicka-mayhem", 'hand=["raging-fire", "limitless-lightning"]',
                                'hand=["raging-fire", "no-such-card"]')
    with pytest.raises(ValidationFailed) as failed:
        plan(Options(cards=cards_dir, templates=templates, games=("magicka-mayhem",), kinds=("rulebook",)))
    [problem] = failed.value.problems
    assert problem.file.endswith("rulebook/magicka-mayhem.md.j2") and problem.line == 34  # the line of the ask
    assert "ask('can-cast'" in problem.message and "no-such-card" in problem.message


@pytest.mark.parametrize("slug,old,new,where,message", [
    ("magicka-mayhem", "::: pagebreak\n# Reference", "::: pagebrake\n# Reference", "magicka-mayhem.md.j2:4:1",
     "unknown directive '::: pagebrake' (did you mean 'pagebreak'?); the markup has ::: pagebreak, ::: contents, "
     "::: sample CARD-ID"),
    ("magicka-mayhem", "::: sample fire-bolt", "::: sample fire-blot", "magicka-mayhem.md.j2:2:19",
     "the rulebook shows card 'fire-blot', which magicka-mayhem does not have (did you mean 'fire-bolt'?)"),
    # written by an expression, in a block of the game's template that the base template places
    ("spellchamber", "::: sample {{ card.id }}", "::: sample {{ card.id }}-old", "spellchamber.md.j2:2:101",
     "the rulebook shows card 'warding-charm-old', which spellchamber does not have (did you mean 'warding-charm'?)"),
    ("spellchamber", "::: sample {{ card.id }}", "::: sample", "spellchamber.md.j2:2:101",
     "'::: sample' names no card: write ::: sample CARD-ID"),
])
def test_a_rulebook_mistake_is_reported_at_its_template_line_by_validate_and_by_build(
        tmp_path, cards_dir, capsys, slug, old, new, where, message):
    templates = broken_rulebook(tmp_path, cards_dir, slug, old, new)
    assert main(["validate", str(cards_dir), "--templates", str(templates)]) == 1
    validated = capsys.readouterr().err.splitlines()
    [reported] = [line for line in validated if "rulebook/" in line]
    assert reported.endswith(f"rulebook/{where}: {message}")
    out = tmp_path / "out"
    assert main(["build", slug, "--here", "--cards", str(cards_dir), "--templates", str(templates), "--out", str(out),
                 "--only", "rulebook"]) == 1
    built = capsys.readouterr().err.splitlines()
    assert built == [reported, "1 problem(s); nothing was written, the last good outputs are as they were"]
    assert not out.exists()


def test_the_markup_is_read_once_into_blocks_with_their_lines():
    parsed = markup.parse("# Title\nSome\ntext.\n\n- one\n- two\n  more\n| a | b |\n|---|---|\n| 1 | 2 |\n"
                          "::: contents\n::: sample fire-bolt\n::: index\n::: sample \n")
    assert parsed.blocks == (markup.HeadingBlock(0, "Title"), markup.TextBlock("Some text."),
                             markup.ListBlock(False, ("one", "two more")), markup.TableBlock((("a", "b"), ("1", "2"))),
                             markup.Directive("contents", ""), markup.Directive("sample", "fire-bolt"))
    assert parsed.lines == (1, 2, 5, 8, 11, 12)
    assert [line for line, _ in parsed.problems] == [13, 14]


def test_table_columns_are_never_narrower_than_their_longest_word():
    from spellpress.press.drawing.markup import _share

    widths = _share(300, [40, 4, 40], [30, 60, 30])  # the middle column's word needs 60 of its 4% share
    assert widths[1] == 60 and sum(widths) == pytest.approx(300)
    assert widths[0] == pytest.approx(widths[2]) and all(w >= least for w, least in zip(widths, [30, 60, 30]))
    assert _share(300, [1, 1, 1], [10, 10, 10]) == pytest.approx([100, 100, 100])
    squeezed = _share(100, [1, 1], [80, 80])  # no room for both: shared as the weights say
    assert sum(squeezed) == pytest.approx(100)


ENDLESS = "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}"


@pytest.mark.parametrize("new,where,message", [
    # a loop in a loop that writes nothing: stopped by the time it takes, at the inner loop's line
    (f"# The {{{{ c.deck_size }}}} cards\n{ENDLESS}", "powermage-54.md.j2:6:1",
     "rulebook template: it takes longer than 1 s to fill in (a loop that never ends?)"),
    # a loop that writes and writes: stopped at its size
    ("# The {{ c.deck_size | plural('card') }}\n{% for i in range(100000) %}{% for j in range(100) %}a line of text\n"
     "{% endfor %}{% endfor %}", "powermage-54.md.j2:6:1",
     "rulebook template: it comes to more than 1,000,000 characters"),
    # one expression that would take all the memory there is
    ("# The {{ c.deck_size | plural('card') }}\n{{ 'x' * 10 ** 9 }}", "powermage-54.md.j2:6:1",
     "rulebook template: repeating something 1000000000 times makes more than 100,000 characters"),
])
def test_a_rulebook_template_past_its_budget_is_a_problem_at_its_line(tmp_path, cards_dir, capsys, monkeypatch, new, where,
                                                                       message):
    from spellpress.press.drawing import rulebook

    if "takes longer" in message:  # its 5 s, shortened: the same watch, a shorter wait (the other cases keep
        monkeypatch.setattr(rulebook, "BUDGET_SECONDS", 1.0)  # theirs: on a busy machine a million characters take a second)
    templates = broken_rulebook(tmp_path, cards_dir, "powermage-54", "# The {{ c.deck_size | plural('card') }}", new)
    start = time.monotonic()
    assert main(["validate", str(cards_dir), "--templates", str(templates)]) == 1
    assert time.monotonic() - start < 30
    [reported] = [line for line in capsys.readouterr().err.splitlines() if "rulebook/" in line]
    assert f"rulebook/{where}: " in reported and message in reported, reported


def test_a_rulebook_template_cannot_reach_past_the_sandbox(tmp_path, cards_dir):
    templates = broken_rulebook(tmp_path, cards_dir, "powermage-54", "# The {{ c.deck_size | plural('card') }}",
                                "# {{ game.__class__.__init__.__globals__ }}")
    with pytest.raises(ValidationFailed) as failed:
        plan(Options(cards=cards_dir, templates=templates, games=("powermage-54",), kinds=("rulebook",)))
    [problem] = failed.value.problems
    assert problem.file.endswith("rulebook/powermage-54.md.j2") and problem.line == 5
    assert "unsafe" in problem.message


def test_a_line_is_found_from_the_template_top_without_the_global_jinja2_keeps(tmp_path):
    import jinja2

    from spellpress.press.drawing import templatelines

    (tmp_path / "book.md.j2").write_text("# Title\n{% if true %}\nSome text.\n::: nope\n{% endif %}\n")
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(tmp_path)), trim_blocks=True, lstrip_blocks=True)
    template = env.get_template("book.md.j2")
    assert templatelines.render(template, {}, seconds=5, max_text=1_000_000).origin(3) == (template.filename, 4, 1)
    del template.root_render_func.__globals__["__jinja_template__"]  # as a later jinja2 might
    rendered = templatelines.render(template, {}, seconds=5, max_text=1_000_000)
    assert rendered.text == "# Title\nSome text.\n::: nope\n" and rendered.origin(3) == (template.filename, 4, 1)


# -- what an expression prints is text, never markup (issue 28, defect 2)


@pytest.mark.parametrize("name", ["rulebook-a4.pdf", "rulebook-letter.pdf", "rulebook-a4-booklet.pdf",
                                  "rulebook-letter-booklet.pdf"])
def test_a_constant_that_starts_a_line_stays_in_its_sentence(built, games, name):
    """Powers Combined's rules.yaml starts a line with `{{ challenges_per_game }}.`; the book
    printed '...take the top' then a list item numbered 1, the number lost."""
    n = games["powers-combined"].text_context["challenges_per_game"]
    text = text_of(built / "powers-combined" / name)
    assert f"take the top {n}. This box's challenges are made in" in text


LOOKALIKES = {  # constants whose values read as markup, were they markup
    "numbered": 3, "dash": "- not a bullet", "hash": "# not a heading", "stars": "*not italic*",
    "bold": "**not bold**", "pipe": "left | right", "icon": "{fire}", "directive": "::: pagebreak",
}


def test_what_a_constant_prints_is_text_wherever_it_falls(tmp_path, monkeypatch):
    """A game of YAML alone whose constants look like markup, each starting a line of its rules,
    in a glossary table's cell, and the template's own expressions (the pitch starting a line,
    a deck's name in a table's cell): each is printed as it is, and the designer's own markup
    beside them (a list, bold, italic, in a rule's title too) still works."""
    monkeypatch.chdir(tmp_path)
    assert main(["new", "goblin-market"]) == 0
    game = tmp_path / "cards" / "goblin-market"
    yaml = (game / "game.yaml").read_text()
    yaml = yaml.replace("  hand_size: 3\n", "  hand_size: 3\n" + "".join(
        f"  {k}: {json.dumps(v)}\n" for k, v in LOOKALIKES.items()))
    (game / "game.yaml").write_text(yaml.replace("pitch: One line that sells the game.", 'pitch: "- A pitch, 2. not a list"'))
    decks = (game / "decks.yaml").read_text()
    (game / "decks.yaml").write_text(decks.replace("name: Actions", 'name: "Actions | and more"'))
    (game / "rules.yaml").write_text("""rules:
  - id: lookalikes
    title: Lookalikes *at work*
    text: |
      Deal the top
      {{ numbered }}. Then the rest.
      {{ dash }} is a line of its own.
      {{ hash }} follows.
      {{ stars }} and {{ bold }} keep their stars; {{ pipe }} keeps its bar.
      {{ icon }} keeps its braces.
      {{ directive }} is words.

      **Written bold** and the designer's list:
      - a real item with {{ numbered }} cards
      - another
""")
    (game / "glossary.yaml").write_text("""glossary:
  - term: Bar
    text: "{{ pipe }} in one cell, *written italic*"
""")
    assert main(["build", "goblin-market", "--here", "--only", "rulebook", "--paper", "a4"]) == 0
    pdf = tmp_path / "build" / "goblin-market" / "rulebook-a4.pdf"
    text = text_of(pdf)
    for expected in ("Deal the top 3. Then the rest.", "- not a bullet is a line of its own.",
                     "# not a heading follows.", "*not italic* and **not bold** keep their stars; left | right keeps "
                     "its bar.", "{fire} keeps its braces.", "::: pagebreak is words.", "How to play Lookalikes at work",
                     "What is in the box - A pitch, 2. not a list", "Actions | and more 6 3",
                     "Bar left | right in one cell, written italic",
                     "• a real item with 3 cards • another"):
        assert expected in text, expected
    assert "Written bold" in text and "**Written" not in text and "*written" not in text
    used = {str(font["/BaseFont"]).split("+")[-1] for page in PdfReader(pdf).pages
            for font in page["/Resources"]["/Font"].values()}
    text_face = {press_fonts.registered(style).face.name.decode() for style in ("bold", "italic")}
    assert text_face == {"Literata-Bold", "Literata-Italic"} and text_face <= used  # the designer's bold and italic, set as such


def test_literal_text_is_never_read_as_markup():
    lit = markup.literal
    parsed = markup.parse(f"{lit(3)}. text\n{lit('- x')}\n\n{lit('# y')}\n{lit('::: contents')}\n"
                          f"| {lit('a | b')} | {lit('---')} |\n| 1 | 2 |\n- {lit('**z**')}\n::: sample {lit('c-1')}\n")
    assert [type(b).__name__ for b in parsed.blocks] == ["TextBlock", "TextBlock", "TableBlock", "ListBlock", "Directive"]
    assert [markup.plain(c) for c in parsed.blocks[2].rows[0]] == ["a | b", "---"]
    assert parsed.blocks[4] == markup.Directive("sample", "c-1") and parsed.problems == ()
    assert markup.inline(f"**{lit('*x* & {fire}')}** *{lit('y')}*", {"Fire": "#ff0000"}) == \
        "<b>*x* &amp; {fire}</b> <i>y</i>"
    assert markup.inline(f"{{fire}} {lit('{fire}')}", {"Fire": "#ff0000"}).endswith("</font> {fire}")
    assert markup.literal("two\nlines") == f"{markup.LITERAL}two lines{markup.END}" and markup.literal("") == ""
