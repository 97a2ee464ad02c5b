import fcntl
import os
import shutil
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
def built_once(tmp_path_factory, cards_dir) -> Path:
    """Every game of cards/ with every output a plain build makes, rulebook booklets too, built
    once for the whole run and read by every test that only reads them (sheets, cuts, tokens,
    rulebooks, playmats). Under pytest-xdist the workers share it: the first to ask builds it
    under a lock in the run's common temporary directory, the others wait and read it. Nothing
    may write to it."""
    from spellpress.press.model.options import Options
    from spellpress.press.outputs.build import build

    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base  # popen-gwN's parent: the run's
    out, done = shared / "built-once", shared / "built-once.done"
    with open(shared / "built-once.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            shutil.rmtree(out, ignore_errors=True)  # a build that failed under another worker
            build(Options(cards=cards_dir, templates=cards_dir.parent / "templates", out=out, booklet=True, progress=False))
            done.touch()
    return out


@pytest.fixture(scope="session")
def books_built(built_once) -> Path:
    """Every game's rulebooks (booklets too) and playmats, for the tests that only read them
    (test_press_rulebook.py, test_press_rulebook_print.py)."""
    return built_once
