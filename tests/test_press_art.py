"""A card's picture: its path stays inside the game's directory, and the file is checked (it
decodes, it is within the pixel budget, it is sharp enough for its box) before anything draws
it. Every refusal is a problem at the card's `art:` line, from `validate` and from `build`."""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import struct
import subprocess
import sys
import time
import zlib
from pathlib import Path

import pytest
from PIL import Image

from spellpress.cli import main
from spellpress.core import pictures

GAME = "spellchamber"
CARD = "    name: Mind Control\n    art: game-icons:brain-tentacle\n"  # its art line, line 14 of spells.yaml, is replaced
ART_LINE = 14


@pytest.fixture()
def project(tmp_path, cards_dir):
    shutil.copytree(cards_dir / GAME, tmp_path / "cards" / GAME)
    shutil.copytree(cards_dir.parent / "templates", tmp_path / "templates")
    return tmp_path


def give_art(project: Path, value: str) -> None:
    spells = project / "cards" / GAME / "spells.yaml"
    text = spells.read_text()
    assert CARD in text
    spells.write_text(text.replace(CARD, f"    name: Mind Control\n    art: {value}\n", 1))
    assert spells.read_text().splitlines()[ART_LINE - 1] == f"    art: {value}"


def spellpress_here(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    """The same command in this process (seconds faster than a new one each), for the inputs
    that cannot hang it: a pipe outside the game is tried by `spellpress_apart`, in a process of its own."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.chdir(cwd), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(args))
        except SystemExit as exc:
            code = exc.code
    return subprocess.CompletedProcess(list(args), code, out.getvalue(), err.getvalue())


_APART = """
import contextlib, io, json, sys
from spellpress.cli import main
runs = []
for args in json.loads(sys.argv[1]):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(args)
        except SystemExit as exc:
            code = exc.code
    runs.append([args, code, out.getvalue(), err.getvalue()])
sys.stdout.write(json.dumps(runs))
"""


def spellpress_apart(cwd: Path, *commands: tuple[str, ...], timeout: float = 60) -> list[subprocess.CompletedProcess]:
    """Several commands, one after another, in one process of their own that a timeout ends:
    for inputs that could hang it (a pipe outside the game)."""
    env = {**os.environ, "SPELLPRESS_RESIDENT": "0"}
    done = subprocess.run([sys.executable, "-c", _APART, json.dumps(commands)], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=timeout)
    assert done.returncode == 0, done.stderr
    return [subprocess.CompletedProcess(args, code, out, err) for args, code, out, err in json.loads(done.stdout)]


def png_bomb(path: Path, side: int) -> None:
    """A real PNG of side x side black pixels (one byte each), a few hundred kilobytes on disk,
    written a band at a time so that making it takes no big allocation either."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    packer = zlib.compressobj(9)
    band = bytes((side + 1) * 100)  # a hundred rows: a filter byte and the pixels each
    data = b"".join(packer.compress(band) for _ in range(side // 100)) + packer.compress(bytes((side + 1) * (side % 100)))
    data += packer.flush()
    header = struct.pack(">IIBBBBB", side, side, 8, 0, 0, 0, 0)  # 8-bit greyscale
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", data) + chunk(b"IEND", b""))


def only_problem(run: subprocess.CompletedProcess) -> str:
    assert run.returncode == 1 and "Traceback" not in run.stderr, run.stderr
    lines = run.stderr.splitlines()
    assert len(lines) == 2 and lines[1] in ("1 problem found in cards",
                                            "1 problem(s); nothing was written, the last good outputs are as they were"), lines
    return lines[0]


# ---------------------------------------------------------------------------- the path


def outside_file(project: Path) -> Path:
    """A picture outside the game's directory: a pipe, so that opening it would hang the test."""
    fifo = project / "elsewhere.png"
    os.mkfifo(fifo)
    return fifo


@pytest.mark.parametrize("value,why", [
    ("../elsewhere.png", "'../elsewhere.png' climbs out with '..'"),
    ("art/../../elsewhere.png", "'art/../../elsewhere.png' climbs out with '..'"),
    ("/etc/passwd", "'/etc/passwd' is an absolute path"),
    ("ABSOLUTE", "is an absolute path"),  # the outside file, by its absolute path
    ("art/link.png", "'art/link.png' leads out of the game's directory through a link"),
    ("linked/elsewhere.png", "'linked/elsewhere.png' leads out of the game's directory through a link"),
])
def test_a_path_out_of_the_game_is_a_problem_at_its_line_and_is_never_opened(project, value, why):
    fifo = outside_file(project)
    game = project / "cards" / GAME
    (game / "art").mkdir()
    (game / "art" / "link.png").symlink_to(fifo)
    (game / "linked").symlink_to(project)  # a directory link out
    give_art(project, str(fifo) if value == "ABSOLUTE" else value)
    runs = spellpress_apart(project, ("validate", "cards"), ("build", "--only", "png"),
                            ("validate", "cards", "--templates", "none"))  # a pipe opened would never end
    for run in runs:
        problem = only_problem(run)
        assert problem.startswith(f"cards/{GAME}/spells.yaml:{ART_LINE}:10: spells[0].art: "), problem
        assert why in problem
        assert "a picture's path starts at the game's directory (cards/spellchamber/) and stays inside it" in problem
    assert not (project / "build").exists()


def test_whether_a_file_outside_exists_is_not_told(project):
    told = []
    for value in ("/etc/passwd", "/etc/no-such-file", "../../../../../../../../etc/passwd", "../../../../no-such-file"):
        spells = project / "cards" / GAME / "spells.yaml"
        before = spells.read_text()
        give_art(project, value)
        told.append(only_problem(spellpress_here(project, "validate", "cards")).replace(value, "PATH"))
        spells.write_text(before)
    assert told[0] == told[1] and told[2] == told[3]


def test_a_link_inside_the_game_is_followed(project):
    game = project / "cards" / GAME
    (game / "pictures").mkdir()
    Image.new("RGB", (700, 400), (10, 200, 30)).save(game / "pictures" / "sharp.png")
    (game / "art").mkdir()
    (game / "art" / "link.png").symlink_to(game / "pictures" / "sharp.png")
    give_art(project, "art/link.png")
    run = spellpress_here(project, "validate", "cards")
    assert run.returncode == 0 and run.stderr == "", run.stderr


# ---------------------------------------------------------------------------- the file


def test_a_file_that_does_not_decode_is_a_problem(project):
    game = project / "cards" / GAME
    (game / "art").mkdir()
    Image.new("RGB", (700, 400), (10, 200, 30)).save(game / "art" / "whole.png")
    (game / "art" / "cut.png").write_bytes((game / "art" / "whole.png").read_bytes()[:200])
    give_art(project, "art/cut.png")
    problem = only_problem(spellpress_here(project, "validate", "cards"))
    assert problem.startswith(f"cards/{GAME}/spells.yaml:{ART_LINE}:10: card 'mind-control': art 'art/cut.png' is damaged or cut short")
    (game / "art" / "cut.png").write_text("not a picture at all")
    problem = only_problem(spellpress_here(project, "build", "--only", "png"))
    assert problem.endswith("art 'art/cut.png' is not a picture: a picture must be a PNG, JPEG, WebP or SVG file")


@pytest.mark.parametrize("side,size", [(13000, "13000 x 13000 px (169 megapixels)"), (20000, "over 179 megapixels")])
def test_a_picture_past_the_pixel_budget_is_refused_fast_and_without_decoding_it(project, side, size):
    """169 Mpx took 22 s and 1.86 GB to draw; 400 Mpx was a traceback from Pillow's own check."""
    game = project / "cards" / GAME
    (game / "art").mkdir()
    png_bomb(game / "art" / "bomb.png", side)
    assert (game / "art" / "bomb.png").stat().st_size < 1_000_000
    # the peak of this process's own memory (VmHWM), not ru_maxrss, which Linux carries over from
    # the forking parent: a test run grown past 219 MB would fail the check with no picture decoded
    measure = ("import re, sys; from pathlib import Path; from spellpress.cli import main; code = main(['validate', 'cards']); "
               "print(re.search(r'VmHWM:\\s+(\\d+) kB', Path('/proc/self/status').read_text())[1]); sys.exit(code)")

    def validate() -> tuple[subprocess.CompletedProcess, float]:
        start = time.monotonic()
        run = subprocess.run([sys.executable, "-c", measure], cwd=project, capture_output=True, text=True, timeout=120,
                             env={**os.environ, "SPELLPRESS_RESIDENT": "0"})
        return run, time.monotonic() - start

    _, without = validate()  # the baseline, on this machine as loaded as it is now: no picture to check
    give_art(project, "art/bomb.png")
    run, took = validate()
    problem = only_problem(run)
    assert problem == (f"cards/{GAME}/spells.yaml:{ART_LINE}:10: card 'mind-control': art 'art/bomb.png' is {size}; "
                       "a picture may have at most 50 megapixels (a whole card at 300 dpi is under 1): scale it down")
    assert "DecompressionBomb" not in run.stderr
    # decoding it took 22 s against about 2 s without the picture: checking its header costs nothing
    assert took < 3 * without + 2, f"{took:.1f} s with the picture against {without:.1f} s without"
    peak_mb = int(run.stdout) / 1024
    assert peak_mb < 169 + 50, peak_mb  # the picture decoded would take 169 MB at the least


def test_the_budget_is_read_from_the_header_alone(tmp_path):
    png_bomb(tmp_path / "bomb.png", 13000)
    start = time.monotonic()
    with pytest.raises(pictures.Refused, match="169 megapixels"):
        pictures.check(tmp_path / "bomb.png")
    assert time.monotonic() - start < 1


def test_a_picture_too_small_for_its_box_is_a_warning_naming_the_size_it_needs(project):
    game = project / "cards" / GAME
    (game / "art").mkdir()
    Image.new("RGB", (400, 300), (10, 200, 30)).save(game / "art" / "small.png")
    give_art(project, "art/small.png")
    for args in (("validate", "cards"), ("build", "--only", "png")):
        run = spellpress_here(project, *args)
        assert run.returncode == 0, run.stderr
        assert run.stderr == (f"warning: cards/{GAME}/spells.yaml:{ART_LINE}:10: card 'mind-control': art 'art/small.png' "
                              "is 400 x 300 px; its box (55.1 x 28 mm) needs at least 651 x 331 px to print sharp at 300 dpi\n")
    # 55.1 x 28 mm at 300 dpi: 650.8 x 330.7 px; a picture that size is drawn without a word
    Image.new("RGB", (651, 331), (10, 200, 30)).save(game / "art" / "small.png")
    run = spellpress_here(project, "validate", "cards")
    assert run.returncode == 0 and run.stderr == "", run.stderr


def test_a_missing_picture_is_a_problem(project):
    """With --allow-missing-art, a warning and a placeholder: tests/test_art_checks.py."""
    give_art(project, "art/not-drawn-yet.png")
    problem = only_problem(spellpress_here(project, "validate", "cards"))
    assert problem.startswith(f"cards/{GAME}/spells.yaml:{ART_LINE}:10: card 'mind-control': art file 'art/not-drawn-yet.png' "
                              f"not found: looked for cards/{GAME}/art/not-drawn-yet.png; "), problem
    assert "--allow-missing-art" in problem
