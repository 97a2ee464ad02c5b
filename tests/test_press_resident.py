"""The resident builder: a second `spellpress build` is served by the process the first one
started, makes the same files as a build in the command's own process, and is never needed."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

GAME = "spellchamber"


@pytest.fixture()
def project(tmp_path, cards_dir):
    shutil.copytree(cards_dir / GAME, tmp_path / "cards" / GAME)
    shutil.copytree(cards_dir.parent / "templates", tmp_path / "templates")
    runtime = tmp_path / "run"
    runtime.mkdir(mode=0o700)
    env = {**os.environ, "SPELLPRESS_RESIDENT": "1", "XDG_RUNTIME_DIR": str(runtime), "SPELLPRESS_RESIDENT_IDLE": "60"}
    yield tmp_path, env
    spellpress(tmp_path, env, "resident", "stop")


def spellpress(cwd: Path, env: dict, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "spellpress.cli", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)


def served(cwd: Path, env: dict) -> int | None:
    """How many builds this directory's builder has served; None if there is none."""
    out = spellpress(cwd, env, "resident", "status").stdout
    return int(out.split(",")[1].split()[0]) if out.startswith("resident builder") else None


def wait_for_builder(cwd: Path, env: dict) -> None:
    deadline = time.monotonic() + 30
    while served(cwd, env) is None:
        assert time.monotonic() < deadline, "no builder started"
        time.sleep(0.1)


def files(out: Path) -> dict:
    return {p.relative_to(out): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file() and ".cache" not in p.parts}


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


KINDS = ["--only", "png", "sheets", "tts", "overview"]


def test_a_second_build_is_served_and_makes_the_same_files(project):
    ws, env = project
    first = spellpress(ws, env, "build", *KINDS)
    assert first.returncode == 0, first.stderr
    wait_for_builder(ws, env)
    assert served(ws, env) == 0

    spells = ws / "cards" / GAME / "spells.yaml"
    text = spells.read_text()
    name = text.split("name: ", 1)[1].split("\n", 1)[0]
    edit(spells, f"name: {name}", f"name: {name} Again")
    second = spellpress(ws, env, "build", *KINDS)
    assert second.returncode == 0, second.stderr
    assert second.stdout.startswith("built in") and " 0 removed" in second.stdout
    assert served(ws, env) == 1

    here = spellpress(ws, env, "build", *KINDS, "--here", "--out", "here")
    assert here.returncode == 0 and served(ws, env) == 1
    assert files(ws / "build") == files(ws / "here")


def test_problems_come_back_as_the_command_would_print_them(project):
    ws, env = project
    assert spellpress(ws, env, "build", "--only", "png").returncode == 0
    wait_for_builder(ws, env)
    game = ws / "cards" / GAME / "game.yaml"
    edit(game, "starting_life: 4", "starting_life: many")
    served_answer = spellpress(ws, env, "build", "--only", "png")
    own = spellpress(ws, {**env, "SPELLPRESS_RESIDENT": "0"}, "build", "--only", "png")
    assert served(ws, env) == 1
    assert served_answer.returncode == own.returncode == 1
    assert "starting_life" in served_answer.stderr and served_answer.stderr == own.stderr
    bad_args = spellpress(ws, env, "build", "--only", "nothing")
    assert bad_args.returncode == 2 and "invalid choice" in bad_args.stderr


def test_a_dead_builder_costs_nothing_but_time(project):
    ws, env = project
    assert spellpress(ws, env, "build", "--only", "png").returncode == 0
    wait_for_builder(ws, env)
    pid = int(spellpress(ws, env, "resident", "status").stdout.split("pid ")[1].split(",")[0])
    os.kill(pid, signal.SIGKILL)  # its socket stays behind, and nobody answers it
    again = spellpress(ws, env, "build", "--only", "png")
    assert again.returncode == 0 and again.stdout.startswith("built in")
    wait_for_builder(ws, env)  # and a new one took its place
    assert spellpress(ws, env, "resident", "stop").stdout.startswith("stopped")
    deadline = time.monotonic() + 10
    while served(ws, env) is not None:
        assert time.monotonic() < deadline
        time.sleep(0.1)


def test_resident_off_neither_uses_nor_starts_one(project):
    ws, env = project
    off = {**env, "SPELLPRESS_RESIDENT": "0"}
    assert spellpress(ws, off, "build", "--only", "png").returncode == 0
    time.sleep(1)
    assert served(ws, env) is None
    assert spellpress(ws, env, "build", "--only", "png", "--here").returncode == 0
    time.sleep(1)
    assert served(ws, env) is None


def test_the_socket_lives_where_only_its_user_can_reach(tmp_path, monkeypatch):
    from spellpress.press import resident

    shared = tmp_path / "shared"
    shared.mkdir(mode=0o777)
    shared.chmod(0o777)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    (tmp_path / "spellpress").mkdir(mode=0o755)
    (tmp_path / "spellpress").chmod(0o755)
    with pytest.raises(PermissionError):
        resident.address(tmp_path)
    (tmp_path / "spellpress").chmod(0o700)
    assert resident.address(tmp_path).parent == tmp_path / "spellpress"
    assert resident.address(tmp_path) != resident.address(shared)
