"""What the live preview shows, kept up to date: a build after every save, in this process.

A thread watches the cards and layouts (press/runners/watch.py's snapshot, twenty times a second) and,
after each save, builds the games' card images, A4 rulebooks and playmats into the build
directory with one warm session (press/runners/session.py), so an edit to one card redraws that card
alone. The page asks for `state()` and finds each image by a URL that holds the file's digest:
only what changed is fetched again. A build that fails keeps the last good images and shows its
problems, each with its file and line.
"""

from __future__ import annotations

import hashlib
import io
import sys
import threading
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core import ValidationFailed, load_games
from ..press.model import changes
from ..press.model.options import Options, game_out, snapshot
from ..press.runners.watch import POLL_SECONDS

if TYPE_CHECKING:
    from ..press.model.session import BuildSession
    from ..press.outputs.gamebuild import Report

KINDS = ("png", "rulebook", "playmat")
PAPER = "a4"
PAGE_DPI = 60  # a rulebook page or the playmat, as the page shows it
MAX_PAGES = 200  # rulebook pages drawn for the page: more is a runaway template
_PDFIUM = threading.Lock()  # PDFium is not thread-safe: one page at a time, whichever thread asks


@dataclass
class Shown:
    version: int = 0  # goes up after every build, good or bad
    building: bool = False
    problems: list[str] = field(default_factory=list)
    at: str = ""  # when the last build ended
    games: dict[str, dict[str, Any]] = field(default_factory=dict)  # slug -> {"title", "cards": [...], "pages": n, "mat": bool}


class Previewer:
    def __init__(self, options: Options):
        # Absolute: the page's images are sent by path, which Flask would take from its package.
        self.options = replace(options, out=options.out.resolve(), kinds=KINDS, papers=(PAPER,), progress=False)
        self.shown = Shown()
        self._lock = threading.Lock()
        self._outs: dict[str, Path] = {}  # slug -> where its outputs are (options.game_out)
        self._images: dict[tuple[str, str, int], tuple[str, bytes]] = {}  # (slug, pdf, page) -> (digest, png)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # -- the watching thread

    def start(self) -> None:
        self._thread = threading.Thread(target=self._watch, name="preview", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()

    def _watch(self) -> None:
        # imported here, in this thread: the page answers at once while the renderers load
        from ..press.model.session import BuildSession

        session = BuildSession()
        roots = self.options.watched
        before = None
        while not self._stop.is_set():
            now = snapshot(roots)
            if now != before:
                before = now
                self._build(session)
            self._stop.wait(POLL_SECONDS)

    def _build(self, session: BuildSession) -> None:
        from ..press.outputs import build  # imported here: see _watch

        self.shown.building = True
        try:
            report = build.build(self.options, session)
        except ValidationFailed as failed:
            self._publish(problems=failed.said())
            print(f"{self.shown.at} {len(failed.problems) + failed.more} problem(s): shown in the page; the last good pictures stay",
                  file=sys.stderr, flush=True)
            return
        except OSError as exc:
            self._publish(problems=[f"cannot write {exc.filename or self.options.out}: {exc.strerror or exc}"])
            return
        self._publish(problems=[], games=self._games(report))
        lines = [changes.said(slug, found, self.shown.at) for slug, found in report.changes.items()]
        for line in [x for x in lines if x] or [f"{self.shown.at} drawn"]:
            print(line, flush=True)

    def _games(self, report: Report) -> dict[str, dict[str, Any]]:
        games = {}
        for game in load_games(self.options.cards, list(self.options.games) or None):
            out = game_out(self.options, game.slug, game.ink)  # the folder of the game's ink
            self._outs[game.slug] = out
            cards = [{"id": c.id, "name": c.name, "deck": c.deck, "digest": _digest(out / "png" / f"{c.id}.png")}
                     for c in game.cards if (out / "png" / f"{c.id}.png").is_file()]
            games[game.slug] = {
                "title": game.title, "cards": cards,
                "rulebook": _pdf_state(out / f"rulebook-{PAPER}.pdf"),
                "playmat": _pdf_state(out / "playmat.pdf"),
            }
        return games

    def _publish(self, problems: list[str], games: dict[str, dict[str, Any]] | None = None) -> None:
        with self._lock:
            self.shown = Shown(self.shown.version + 1, False, problems, time.strftime("%H:%M:%S"),
                               games if games is not None else self.shown.games)

    # -- what the page reads

    def card_png(self, slug: str, card_id: str) -> Path | None:
        """The card's image, if the game shows that card (no other path is ever opened)."""
        game = self.shown.games.get(slug)
        if game is None or not any(c["id"] == card_id for c in game["cards"]):
            return None
        return self._outs[slug] / "png" / f"{card_id}.png"

    def page_png(self, slug: str, which: str, page: int) -> bytes | None:
        """Page `page` (from 0) of the game's rulebook or playmat as a PNG, drawn once per version."""
        game = self.shown.games.get(slug)
        if game is None or which not in ("rulebook", "playmat") or not game[which]:
            return None
        if not 0 <= page < game[which]["pages"]:
            return None
        pdf = self._outs[slug] / (f"rulebook-{PAPER}.pdf" if which == "rulebook" else "playmat.pdf")
        key, digest = (slug, which, page), game[which]["digest"]
        kept = self._images.get(key)
        if kept and kept[0] == digest:
            return kept[1]
        png = _render(pdf, page)
        self._images[key] = (digest, png)
        return png


def _digest(path: Path) -> str:
    st = path.stat()
    return hashlib.sha256(f"{st.st_mtime_ns}:{st.st_size}".encode()).hexdigest()[:16]


def _pdf_state(path: Path) -> dict[str, Any] | None:
    if not path.is_file():
        return None
    import pypdfium2  # imported here: only a page that shows a PDF needs it

    with _PDFIUM, pypdfium2.PdfDocument(str(path)) as pdf:
        pages = min(len(pdf), MAX_PAGES)
    return {"pages": pages, "digest": _digest(path)}


def _render(path: Path, page: int) -> bytes:
    import pypdfium2  # imported here: see _pdf_state

    with _PDFIUM, pypdfium2.PdfDocument(str(path)) as pdf:
        image = pdf[page].render(scale=PAGE_DPI / 72).to_pil()
    out = io.BytesIO()
    image.save(out, "PNG", optimize=False)
    return out.getvalue()
