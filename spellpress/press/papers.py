"""The papers the home sheets are laid out for."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Paper:
    name: str
    width: float  # mm, portrait
    height: float


PAPERS = {"a4": Paper("A4", 210.0, 297.0), "letter": Paper("Letter", 215.9, 279.4)}
PAPER_NAMES = tuple(PAPERS)
