import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).parent))  # tests' own helpers (broken_cases, pdf_checks)
# Builds in the tests run in their own process; tests/test_press_resident.py tries the
# resident builder on purpose, with a runtime directory of its own.
os.environ["SPELLPRESS_RESIDENT"] = "0"


@pytest.fixture(scope="session")
def cards_dir() -> Path:
    return ROOT / "cards"


@pytest.fixture(scope="session")
def games(cards_dir):
    from spellpress.core import load_games

    return {g.slug: g for g in load_games(cards_dir)}


@pytest.fixture(scope="module")
def game(request, games):
    """The game named by the test module's SLUG."""
    return games[request.module.SLUG]


@pytest.fixture(scope="module")
def c(game):
    """Its constants."""
    return game.constants


@pytest.fixture(scope="session")
def books_built(tmp_path_factory, cards_dir) -> Path:
    """Every game's rulebooks (booklets too) and playmats, built once for the tests that only
    read them (test_press_rulebook.py, test_press_rulebook_print.py)."""
    from spellpress.press.model.options import Options
    from spellpress.press.outputs.build import build

    out = tmp_path_factory.mktemp("books")
    build(Options(cards=cards_dir, templates=cards_dir.parent / "templates", out=out,
                  kinds=("rulebook", "playmat"), booklet=True, progress=False))
    return out
