"""Every kind of mistake a designer makes gets its exact file, line, column and message."""

import subprocess
import sys

import pytest

from broken_cases import CASES, build_case
from spellpress.cli import main


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_broken_fixture_is_reported_exactly(case, tmp_path, monkeypatch, capsys):
    build_case(case, tmp_path)
    monkeypatch.chdir(tmp_path)
    assert main(["validate", "cards"]) == 1
    err = capsys.readouterr().err
    assert err == (case / "expected.txt").read_text()
    assert "Traceback" not in err


def test_there_is_a_fixture_for_each_kind_of_error():
    assert len(CASES) >= 12


def test_problems_come_in_file_and_line_order():
    expected = (next(c for c in CASES if c.name == "many-at-once") / "expected.txt").read_text()
    lines = [line for line in expected.splitlines() if line.startswith("cards/")]
    keys = [(line.split(":")[0], int(line.split(":")[1]), int(line.split(":")[2])) for line in lines]
    assert len({k[0] for k in keys}) == 2 and keys == sorted(keys)


def test_the_console_command_prints_the_same_with_no_traceback(tmp_path):
    """The real command, in a fresh process, on the case with the most mistakes at once: what
    it prints is what main() prints in-process, which the test above checks for every case."""
    case = next(c for c in CASES if c.name == "many-at-once")
    build_case(case, tmp_path)
    run = subprocess.run([sys.executable, "-m", "spellpress.cli", "validate", "cards"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 1
    assert run.stderr == (case / "expected.txt").read_text()
    assert run.stdout == ""


def _problems(err: str) -> list[str]:
    """The problems a command printed: its lines but the warnings and its closing count."""
    lines = [line for line in err.splitlines() if not line.startswith("warning: ")]
    assert lines and " problem" in lines[-1], err
    return lines[:-1]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_build_refuses_each_broken_fixture_with_the_problems_validate_gives(case, tmp_path, monkeypatch, capsys):
    """`validate` knows everything `build` refuses (issue 26): the same problems, exit 1, and
    never a traceback, for every broken fixture; nothing is written."""
    build_case(case, tmp_path)
    monkeypatch.chdir(tmp_path)
    assert main(["validate", "cards"]) == 1
    validated = capsys.readouterr().err
    assert main(["build", "--here", "--cards", "cards", "--out", "out", "--jobs", "1"]) == 1
    built = capsys.readouterr().err
    assert "Traceback" not in built
    assert _problems(built) == _problems(validated) != []
    assert not (tmp_path / "out").exists() or not any(p.is_file() for p in (tmp_path / "out").rglob("*"))
