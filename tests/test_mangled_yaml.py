"""Whatever a careless edit does to a card file, the loader answers with problems, never a crash."""

import random
import shutil

import pytest

from spellpress.core import ValidationFailed, load_game

NOISE = ["[", "]", "{", "}", ":", "- ", "&a ", "*a", "!!", "|", ">", "'", '"', "\t", "\n", "  ", "#", "%", "@", "`", ",",
         "{{", "}}", "\xff", "0", "-1", "yes", "null", "~"]


def _mangle(text: bytes, rng: random.Random) -> bytes:
    lines = text.split(b"\n")
    how = rng.randrange(6)
    if how == 0:  # a character typed somewhere
        at = rng.randrange(len(text) + 1)
        return text[:at] + rng.choice(NOISE).encode("utf-8", "surrogateescape") + text[at:]
    if how == 1:  # a character deleted
        at = rng.randrange(max(len(text), 1))
        return text[:at] + text[at + 1:]
    if how == 2:  # a line duplicated
        i = rng.randrange(len(lines))
        return b"\n".join(lines[: i + 1] + lines[i:])
    if how == 3:  # a line's indentation changed
        i = rng.randrange(len(lines))
        lines[i] = lines[i].lstrip() if rng.random() < 0.5 else b"  " + lines[i]
        return b"\n".join(lines)
    if how == 4:  # the file cut short
        return text[: rng.randrange(len(text) + 1)]
    return text.replace(b"\n", b"\r\n") if rng.random() < 0.5 else text + b"\n---\n"


@pytest.mark.parametrize("seed", range(300))
def test_mangled_file_gives_problems_not_a_crash(seed, cards_dir, tmp_path):
    rng = random.Random(seed)
    slug = rng.choice(sorted(p.name for p in cards_dir.iterdir()))
    game = tmp_path / slug
    shutil.copytree(cards_dir / slug, game)
    victim = rng.choice(sorted(game.glob("*.yaml")))
    data = victim.read_bytes()
    for _ in range(rng.randint(1, 3)):
        data = _mangle(data, rng)
    victim.write_bytes(data)
    try:
        load_game(game)
    except ValidationFailed as failed:
        assert failed.problems
        for problem in failed.problems:
            assert problem.file and problem.message and "Traceback" not in problem.message
