"""What a build is asked for: light enough for the command line to read without the renderers."""

from __future__ import annotations

import os
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from ... import defaults
from ..drawing.papers import PAPER_NAMES
from .kinds import NAMES as KINDS

INKS = ("full", "saver", "mono")  # core.models.Ink: how much ink a build lays down


def ink_folder(ink: str) -> str:
    """Where a game's outputs in this ink go, under build/<slug>/: `full`'s in it, the others'
    in their own folder (ink-saver/, ink-mono/), so that no mode overwrites another's."""
    return "" if ink == "full" else f"ink-{ink}"


def game_out(options: Options, slug: str, game_ink: str) -> Path:
    """The directory of a game's outputs: its slug's under --out, in the folder of its ink
    (--ink, else the game's own `ink:`)."""
    return options.out / slug / ink_folder(options.ink or game_ink)


def snapshot(roots: list[Path]) -> dict[Path, tuple[int, int]]:
    """Every file under the roots (not a hidden one), with its modification time and size: what
    `watch` and the preview poll under Options.watched, and a session compares its layouts by."""
    seen = {}
    for root in roots:
        for path in root.rglob("*") if root.is_dir() else ():
            try:
                if path.is_file() and not path.name.startswith("."):
                    st = path.stat()
                    seen[path] = (st.st_mtime_ns, st.st_size)
            except OSError:  # removed while we looked
                continue
    return seen


@dataclass(frozen=True)
class Options:
    cards: Path = Path("cards")
    templates: Path = Path("templates")
    out: Path = Path("build")
    games: tuple[str, ...] = ()
    kinds: tuple[str, ...] = KINDS
    papers: tuple[str, ...] = PAPER_NAMES
    back_offset: tuple[float, float] = (0.0, 0.0)
    jobs: int = os.cpu_count() or 1
    progress: bool = True
    booklet: bool = False  # rulebooks also as booklets: pages imposed for folding and stapling
    allow_missing_art: bool = False  # an early draft: a card's missing picture is a placeholder and a warning
    tts_url: str = ""  # where the TTS sheets will be on the web (`--tts-url`); else file:/// URLs of the build
    ink: str | None = None  # one of INKS for every game; None: each game's own (game.yaml's `ink:`)
    identity: bool | None = None  # cards numbered and versioned; None: as each game.yaml says
    letter_3x3: bool = False  # also the duplex sheets nine cards a Letter page (cards-letter-3x3.pdf)
    game_targets: bool = False  # no --target given: each game.yaml's `targets:` say what its build makes

    @property
    def watched(self) -> list[Path]:
        """What a build reads that may be edited: the games, the project's layouts and the
        package's defaults they fall back to (spellpress/defaults/: edited in a checkout)."""
        return [self.cards, self.templates, defaults.TEMPLATES]

    def as_json(self) -> dict:
        """These options as JSON values, what the command sends its resident builder
        (runners/resident.py); `from_json` makes them Options again."""
        return {f.name: str(value) if isinstance(value, Path) else value
                for f in fields(self) for value in [getattr(self, f.name)]}

    @classmethod
    def from_json(cls, data: dict) -> Options:
        values: dict[str, Any] = {name: Path(value) if name in _PATHS else tuple(value) if isinstance(value, list)
                                  else value for name, value in data.items()}
        return cls(**values)


_PATHS = ("cards", "templates", "out")  # the fields that are paths (the tuples come back from JSON as lists)
