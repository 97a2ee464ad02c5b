"""The resident builder: a second `spellpress build` is served by the process the first one
started, makes the same files as a build in the command's own process, and is never needed."""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

GAME = "powermage-54"  # the fewest cards: what a builder does is the same for any game


@pytest.fixture()
def project(tmp_path, cards_dir):
    shutil.copytree(cards_dir / GAME, tmp_path / "cards" / GAME)
    shutil.copytree(cards_dir.parent / "templates", tmp_path / "templates")
    env = {**os.environ, "SPELLPRESS_RESIDENT": "1", "XDG_RUNTIME_DIR": short_dir(), "SPELLPRESS_RESIDENT_IDLE": "60"}
    yield tmp_path, env
    spellpress(tmp_path, env, "resident", "stop")


def short_dir() -> str:
    """A runtime directory of its own, short: a Unix socket's path holds at most 107 bytes,
    which pytest's temporary directories can pass (under pytest-xdist they do)."""
    path = tempfile.mkdtemp(prefix="sp-")
    atexit.register(shutil.rmtree, path, True)
    return path


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
    """Every file's bytes; the TTS object's file:/// addresses of its own folder (which differ
    from one folder to the next by design) written as OUT, and its digest left out of the manifest."""
    here = out.resolve().as_uri().encode()
    found = {}
    for p in sorted(out.rglob("*")):
        if p.is_file() and ".cache" not in p.parts:
            data = p.read_bytes().replace(here, b"OUT")
            if p.name == ".spellpress-manifest.json":
                data = json.dumps({k: v for k, v in json.loads(data).items() if k != f"tts/{p.parent.name}.json"}).encode()
            found[p.relative_to(out)] = data
    return found


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


KINDS = ["--only", "png", "sheets", "tts", "overview", "--paper", "a4"]


def test_a_second_build_is_served_and_makes_the_same_files(project):
    ws, env = project
    first = spellpress(ws, env, "build", *KINDS)
    assert first.returncode == 0, first.stderr
    wait_for_builder(ws, env)
    assert served(ws, env) == 0

    edit(ws / "cards" / GAME / "draw.yaml", "name: Ember Dart,", "name: Ember Dart Again,")
    second = spellpress(ws, env, "build", *KINDS)
    assert second.returncode == 0, second.stderr
    said = second.stdout.splitlines()
    assert said[0].endswith(f"{GAME}: cards 1 changed (Ember Dart Again)"), second.stdout
    assert said[-1].startswith("built in") and " 0 removed" in said[-1]
    assert served(ws, env) == 1

    here = spellpress(ws, env, "build", *KINDS, "--here", "--out", "here")
    assert here.returncode == 0 and served(ws, env) == 1
    assert files(ws / "build") == files(ws / "here")


def test_problems_come_back_as_the_command_would_print_them(project):
    ws, env = project
    assert spellpress(ws, env, "build", "--only", "png").returncode == 0
    wait_for_builder(ws, env)
    game = ws / "cards" / GAME / "game.yaml"
    edit(game, "starting_points: 100", "starting_points: many")
    served_answer = spellpress(ws, env, "build", "--only", "png")
    own = spellpress(ws, {**env, "SPELLPRESS_RESIDENT": "0"}, "build", "--only", "png")
    assert served(ws, env) == 1
    assert served_answer.returncode == own.returncode == 1
    assert "starting_points" in served_answer.stderr and served_answer.stderr == own.stderr
    bad_args = spellpress(ws, env, "build", "--only", "nothing")
    assert bad_args.returncode == 2 and "invalid choice" in bad_args.stderr
    unclear = spellpress(ws, env, "build", "no/such/games")  # the command reads its words before it sends the build
    own_unclear = spellpress(ws, {**env, "SPELLPRESS_RESIDENT": "0"}, "build", "no/such/games")
    assert unclear.returncode == own_unclear.returncode == 2 and unclear.stderr == own_unclear.stderr
    assert "no/such/games: no such directory" in unclear.stderr and served(ws, env) == 1


def test_a_build_is_sent_as_its_options_and_read_back_the_same():
    """The command sends its builder the Options it read from its command line, as JSON, not
    its words to parse again: every field comes back as it was sent."""
    from dataclasses import fields

    from spellpress.press.model.options import Options

    asked = Options(cards=Path("games"), templates=Path("looks"), out=Path("/tmp/out"), games=("a", "b"), kinds=("png",),
                    papers=("letter",), back_offset=(0.5, -1.25), jobs=3, progress=False, booklet=True,
                    allow_missing_art=True, tts_url="https://example.com/cards", ink="mono", identity=False,
                    letter_3x3=True, game_targets=True)
    assert all(getattr(asked, f.name) != getattr(Options(), f.name) for f in fields(Options))
    for options in (asked, Options()):
        assert Options.from_json(json.loads(json.dumps(options.as_json()))) == options


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
    from spellpress.press.runners import resident

    runtime = Path(short_dir())
    shared = tmp_path / "shared"
    shared.mkdir(mode=0o777)
    shared.chmod(0o777)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    (runtime / "spellpress").mkdir(mode=0o755)
    (runtime / "spellpress").chmod(0o755)
    with pytest.raises(PermissionError):
        resident.address(tmp_path)
    (runtime / "spellpress").chmod(0o700)
    assert resident.address(tmp_path).parent == runtime / "spellpress"
    assert resident.address(tmp_path) != resident.address(shared)


# ---------------------------------------------------------------------------- a builder that ends


@pytest.fixture()
def every_game(tmp_path, cards_dir):
    """A project of every game, whose cold build of everything (booklets too) takes most of a
    minute on two cores: a build that is honestly long. Every builder process the test meets
    is ended afterwards, whatever state it was left in."""
    shutil.copytree(cards_dir, tmp_path / "cards")
    shutil.copytree(cards_dir.parent / "templates", tmp_path / "templates")
    env = {**os.environ, "SPELLPRESS_RESIDENT": "1", "XDG_RUNTIME_DIR": short_dir(), "SPELLPRESS_RESIDENT_IDLE": "120"}
    met: list[int] = []
    yield tmp_path, env, met
    spellpress(tmp_path, env, "resident", "stop")
    for pid in met:
        for member in group(pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(member, signal.SIGCONT)
                os.kill(member, signal.SIGKILL)


LONG_BUILD = ["build", "--booklet"]  # every game, every kind
CHEAP_BUILD = ["build", "powermage-54", "--only", "overview"]  # a few seconds cold: starts the builder


def builder_pid(cwd: Path, env: dict, met: list[int]) -> int:
    wait_for_builder(cwd, env)
    pid = int(spellpress(cwd, env, "resident", "status").stdout.split("pid ")[1].split(",")[0])
    met.append(pid)
    return pid


def group(pgid: int) -> list[int]:
    """The live processes of a process group (a builder and the workers it forked)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[2]) == pgid and fields[0] != "Z":
                found.append(int(stat.parent.name))
    return found


def gone(pid: int, within: float = 10) -> bool:
    deadline = time.monotonic() + within
    while group(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def test_status_and_stop_answer_during_a_long_build_and_stop_ends_it_at_once(every_game):
    ws, env, met = every_game
    assert spellpress(ws, env, *CHEAP_BUILD).returncode == 0
    pid = builder_pid(ws, env, met)
    long = subprocess.Popen([sys.executable, "-m", "spellpress.cli", *LONG_BUILD], cwd=ws, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 20
        while "building since" not in (now := spellpress(ws, env, "resident", "status").stdout):
            assert time.monotonic() < deadline and long.poll() is None, now
            time.sleep(0.2)
        assert now.startswith(f"resident builder: pid {pid}, 1 builds served") and "it gives up after 10 minutes" in now
        # well into the build: its workers are at work once every game is planned (a wait for that,
        # not a measure of it: a minute's guard against a hang, for a loaded machine)
        deadline = time.monotonic() + 60
        while (os.cpu_count() or 1) > 1 and len(group(pid)) < 2:
            assert time.monotonic() < deadline and long.poll() is None
            time.sleep(0.2)
        start = time.monotonic()
        stopped = spellpress(ws, env, "resident", "stop")
        assert stopped.stdout == "stopped this directory's resident builder during a build (its command is told)\n"
        out, err = long.communicate(timeout=10)
        assert time.monotonic() - start < 8
    finally:
        if long.poll() is None:
            long.kill()
    assert long.returncode == 1
    assert err.startswith("the resident builder was stopped (`spellpress resident stop`): every file it finished is whole")
    assert gone(pid)  # the builder, and the workers of its build
    assert spellpress(ws, env, "resident", "status").stdout.startswith("no resident builder here")


def test_a_build_past_the_timeout_is_given_up_and_the_next_build_works(every_game):
    ws, env, met = every_game
    env["SPELLPRESS_RESIDENT_TIMEOUT"] = "3"
    assert spellpress(ws, env, *CHEAP_BUILD).returncode == 0
    pid = builder_pid(ws, env, met)
    start = time.monotonic()
    given_up = spellpress(ws, env, *LONG_BUILD)
    assert given_up.returncode == 1 and time.monotonic() - start < 20
    assert given_up.stderr.startswith("the resident builder gave up on this build after 3 s (SPELLPRESS_RESIDENT_TIMEOUT): "
                                      "every file it finished is whole, and the rest are as they were. It has stopped; "
                                      "the next `spellpress build` starts a fresh one"), given_up.stderr
    assert gone(pid)
    assert spellpress(ws, env, "resident", "status").stdout.startswith("no resident builder here")
    again = spellpress(ws, env, *CHEAP_BUILD)  # in the command's own process, as without a builder
    assert again.returncode == 0 and again.stdout.startswith("built in"), again.stderr
    assert builder_pid(ws, env, met) != pid  # and a fresh builder took its place


def test_a_wedged_builder_is_ended_and_replaced_and_never_hangs_a_command(every_game):
    ws, env, met = every_game
    answer = 1.5  # seconds for a builder to take a request (default 5): the waits below are this
    env["SPELLPRESS_RESIDENT_ANSWER"] = str(answer)
    assert spellpress(ws, env, *CHEAP_BUILD).returncode == 0
    pid = builder_pid(ws, env, met)
    os.kill(pid, signal.SIGSTOP)  # it holds its socket and its lock, and answers nothing
    start = time.monotonic()
    status = spellpress(ws, env, "resident", "status")
    assert status.stdout.startswith(f"resident builder: pid {pid} does not answer (stopped or stuck)")
    assert time.monotonic() - start < answer + 5
    start = time.monotonic()
    build = spellpress(ws, env, *CHEAP_BUILD)
    assert time.monotonic() - start < answer + 20
    assert build.returncode == 0 and build.stdout.startswith("built in")
    assert build.stderr == (f"the resident builder (pid {pid}) did not take this build within 1.5 s: it is ended, this build "
                            "runs here, and a fresh builder starts after it\n")
    assert gone(pid)
    fresh = builder_pid(ws, env, met)
    assert fresh != pid
    os.kill(fresh, signal.SIGSTOP)
    stop = spellpress(ws, env, "resident", "stop")
    assert stop.stdout == f"ended this directory's resident builder (pid {fresh}), which did not answer\n"
    assert gone(fresh)


def test_a_builder_wedged_during_a_build_is_ended_and_its_command_goes_on_alone(every_game):
    import select

    ws, env, met = every_game
    env = {**env, "SPELLPRESS_RESIDENT_SILENT": "6"}  # the command judges silence: well above the 2 s heartbeat
    assert spellpress(ws, env, *CHEAP_BUILD).returncode == 0
    pid = builder_pid(ws, env, met)
    silent = 6.0
    long = subprocess.Popen([sys.executable, "-m", "spellpress.cli", *LONG_BUILD], cwd=ws, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 20
        while "building since" not in spellpress(ws, env, "resident", "status").stdout:
            assert time.monotonic() < deadline and long.poll() is None
            time.sleep(0.2)
        os.kill(pid, signal.SIGSTOP)
        stopped = time.monotonic()
        ready, _, _ = select.select([long.stderr], [], [], silent + 15)
        assert ready, "the command waited on its wedged builder"
        said = long.stderr.readline()
        assert time.monotonic() - stopped < silent + 10
        assert said == (f"the resident builder (pid {pid}) fell silent for 6 s during this build: it is ended, this build "
                        "runs here, and a fresh builder starts after it\n")
        assert gone(pid) and long.poll() is None  # and the command builds on, by itself
    finally:
        long.kill()
        long.communicate()


def test_a_runtime_directory_too_deep_for_a_socket_is_not_used(tmp_path, monkeypatch):
    from spellpress.press.runners import resident

    deep = tmp_path / ("d" * 60) / ("e" * 60)
    deep.mkdir(parents=True, mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(deep))
    path = resident.address(tmp_path)
    assert len(os.fsencode(path)) <= 103 and path.parent == Path(f"/tmp/spellpress-{os.getuid()}")
    monkeypatch.setenv("XDG_RUNTIME_DIR", short_dir())
    assert resident.address(tmp_path).parent == Path(os.environ["XDG_RUNTIME_DIR"]) / "spellpress"
