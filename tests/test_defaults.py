"""The package's shared layouts, icons and base rulebook (spellpress/defaults/) and a project's
own templates/: the project's file wins, file by file; what it lacks comes from the package."""

from __future__ import annotations

import pytest

from spellpress import defaults, newgame
from spellpress.core import ValidationFailed, load_games
from spellpress.press.drawing import rulebook
from spellpress.press.model.session import BuildSession


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A folder with one game of YAML alone and no templates/."""
    newgame.make("goblin-market", tmp_path / "cards", tmp_path / "templates")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_without_templates_the_package_draws_and_a_project_file_wins(project):
    session = BuildSession()  # as watch and the resident builder keep one: a file added is seen
    templates, icons = session.layouts(project / "templates")
    assert templates.get("card").palette["frame"] == "#3d3550" and "arcane" in icons.shapes
    own = project / "templates"
    own.mkdir()
    (own / "card.yaml").write_text((defaults.TEMPLATES / "card.yaml").read_text().replace("#3d3550", "#2f5d3a"))
    (own / "icons.yaml").write_text("coin: [{poly: '0.2,0.2 0.8,0.2 0.5,0.8'}]\n")
    templates, icons = session.layouts(own)
    assert templates.get("card").palette["frame"] == "#2f5d3a", "the project's card.yaml wins"
    assert templates.get("back").palette["frame"] == "#3d3550", "what it lacks is the package's"
    assert set(icons.shapes) == {"coin"}, "a project's icons.yaml replaces the package's whole"


def test_a_missing_layout_is_said_where_the_project_would_hold_it_with_the_defaults_suggested(project):
    with pytest.raises(ValidationFailed) as failed:
        BuildSession().layouts(project / "templates")[0].get("crad")
    [problem] = failed.value.problems
    assert problem.file == "templates/crad.yaml" and "did you mean 'card'?" in problem.message


def test_a_project_base_rulebook_wins_over_the_package_one(project):
    """Also in a process that rendered the package's before (watch, the resident builder)."""
    [game] = load_games(project / "cards")
    assert "# What is in the box" in rulebook.render_markup(game, project / "templates").text
    (project / "templates" / "rulebook").mkdir(parents=True)
    (project / "templates" / "rulebook" / "base.md.j2").write_text("# Our own book\n{{ game.title }}\n")
    text = rulebook.render_markup(game, project / "templates").text
    assert "# Our own book" in text and "Goblin Market" in text and "What is in the box" not in text
