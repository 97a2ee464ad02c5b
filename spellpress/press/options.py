"""What a build is asked for: light enough for the command line to read without the renderers."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from .. import defaults
from .kinds import NAMES as KINDS
from .papers import PAPER_NAMES


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

    @property
    def watched(self) -> list[Path]:
        """What a build reads that may be edited: the games, the project's layouts and the
        package's defaults they fall back to (spellpress/defaults/: edited in a checkout)."""
        return [self.cards, self.templates, defaults.TEMPLATES]
