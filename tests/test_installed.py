"""Spellpress outside this repository (issue 16): a wheel of this tree, installed (not editable)
where it wins over the checkout, makes a working project in an empty folder: `new`, `validate`,
`build` and a table at the companion, with the layouts, icons and rulebook template the package
ships (spellpress/defaults/) and no templates/ of the folder's own."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

# Run in one process, as a designer would run the commands one after the other (one start of
# Python instead of five): each command's exit status and words, then a table at the companion
# (its app factory, with the folder's games).
DRIVER = """
import contextlib, io, json, sys
import spellpress, companion
from spellpress.cli import main

said = {"spellpress": spellpress.__file__, "companion": companion.__file__}
for words in json.loads(sys.argv[1]):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(words)
        except SystemExit as exit:
            code = exit.code
    said[words[0] + " " + words[1]] = {"code": code, "out": out.getvalue(), "err": err.getvalue()}

from companion import create_app

client = create_app({"TESTING": True, "DATABASE": sys.argv[2], "CARDS": "cards"}).test_client()
made = client.post("/api/tables", json={"game": "my-game", "players": ["Ann", "Bea"]})
said["table"] = {"status": made.status_code, "body": made.json,
                 "page": client.get(f"/t/{made.json['id']}").status_code if made.status_code == 201 else None,
                 "home": "My Game" in client.get("/").get_data(as_text=True)}
print(json.dumps(said))
"""
COMMANDS = [["new", "my-game"], ["validate", "my-game"], ["build", "my-game", "--here", "--paper", "a4"],
            ["new", "my-variant", "--from", "spellchamber"]]


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The tree built into a wheel once for the module and installed into a folder of its own.
    The package's files are copied out first: setuptools writes build/ beside pyproject.toml,
    which is where the checkout keeps its outputs."""
    work = tmp_path_factory.mktemp("installed")
    source = work / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    for package in ("spellpress", "companion"):
        shutil.copytree(ROOT / package, source / package, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input", "-q"]
    # --no-index, --no-deps, --no-build-isolation: nothing is fetched; the venv has what it needs
    subprocess.run([*pip, "wheel", "--no-index", "--no-deps", "--no-build-isolation", "-w", str(work / "dist"), str(source)],
                   check=True, capture_output=True, timeout=120)
    [wheel] = (work / "dist").glob("spellpress-*.whl")
    subprocess.run([*pip, "install", "--no-index", "--no-deps", "--target", str(work / "site"), str(wheel)],
                   check=True, capture_output=True, timeout=120)
    return work / "site"


@pytest.fixture(scope="module")
def project(site, tmp_path_factory) -> tuple[Path, dict]:
    """An empty folder, and what the installed commands said there (DRIVER)."""
    folder = tmp_path_factory.mktemp("project")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), *filter(None, [os.environ.get("PYTHONPATH")])]),
           "SPELLPRESS_RESIDENT": "0"}
    done = subprocess.run([sys.executable, "-c", DRIVER, json.dumps(COMMANDS), str(folder.parent / "companion.db")],
                          cwd=folder, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    return folder, json.loads(done.stdout.splitlines()[-1])


def test_the_installed_copy_runs_not_the_checkout(site, project):
    _, said = project
    assert Path(said["spellpress"]) == site / "spellpress" / "__init__.py"
    assert Path(said["companion"]) == site / "companion" / "__init__.py"
    assert (site / "spellpress" / "defaults" / "templates" / "icons.yaml").is_file()
    faces = site / "spellpress" / "defaults" / "fonts"  # the faces every card is set in, with their licences
    assert {p.name for p in faces.iterdir()} >= {"Cinzel-Bold.ttf", "Literata-Regular.ttf", "Literata-Bold.ttf",
                                                "Literata-Italic.ttf", "Literata-BoldItalic.ttf", "OFL-Cinzel.txt",
                                                "OFL-Literata.txt", "CREDITS.md"}


def test_new_validate_and_build_make_a_game_in_an_empty_folder(site, project):
    folder, said = project
    made, checked, built = said["new my-game"], said["validate my-game"], said["build my-game"]
    assert made["code"] == 0, made["err"]
    assert "ok: 1 games, 1 decks, 3 unique cards" in made["out"], "new checked the game, layouts and all"
    assert "layouts not checked" not in made["out"]
    shared = site / "spellpress" / "defaults" / "templates"
    assert f"the shared layouts card.yaml and back.yaml in {shared}" in made["out"]
    assert sorted(p.name for p in folder.iterdir()) == ["build", "cards"], "no templates/ is needed"

    assert checked["code"] == 0 and checked["out"].startswith("ok: 1 games"), checked["err"]
    # every fallback is said, and names what was used: here the package's own base rulebook
    assert f"the rulebook is the shared {shared / 'rulebook' / 'base.md.j2'}" in checked["err"]
    assert "the mat is laid out from the decks and counters" in checked["err"]

    assert built["code"] == 0, built["err"]
    assert "built in" in built["out"] + built["err"] and "problem" not in built["err"]
    out = folder / "build" / "my-game"
    for name in ("cards-a4.pdf", "cards-fold-a4.pdf", "cards-printshop.pdf", "rulebook-a4.pdf", "playmat.pdf",
                 "playmat-tiled-a4.pdf", "overview.png", "png/quick-strike.png", "png/back-actions.png", "tts/sheets.json"):
        assert (out / name).is_file() and (out / name).stat().st_size > 0, name
    assert (out / "rulebook-a4.pdf").read_bytes().startswith(b"%PDF-")


def test_the_companion_opens_a_table_of_the_new_game(project):
    _, said = project
    table = said["table"]
    assert table["status"] == 201, table["body"]
    state = table["body"]["state"]
    assert state["title"] == "My Game" and state["players"][0]["counters"]["health"] == 10
    assert state["tracker"]["piles"]["actions"]["left"] == 6, "a shuffled pile of the deck's 6 cards"
    assert table["home"] and table["page"] == 200, "the companion's pages come from the package too"


def test_the_installed_companion_has_every_phone_module_and_game_renderer(site):
    """The phone's code is files served as they are: the package carries every one of them."""
    def files(root: Path, pattern: str) -> set[str]:
        return {path.relative_to(root).as_posix() for path in root.glob(pattern) if path.is_file()}

    for folder, pattern in (("companion/static", "**/*"), ("spellpress/core/games", "*/phone.js")):
        shipped = files(ROOT / folder, pattern)
        assert shipped and files(site / folder, pattern) == shipped, folder


def test_a_variant_of_one_of_the_five_games_is_not_in_the_package(project):
    """The five games are the repository's: --from says so, and where they are."""
    folder, said = project
    refused = said["new my-variant"]
    assert refused["code"] == 2
    assert "not in the installed package" in refused["err"] and "cards/spellchamber" in refused["err"]
    assert not (folder / "cards" / "my-variant").exists()
