"""`spellpress build`: every output of every game, incremental, atomic and deterministic.

The plan lays out every face (model/plan.py); each kind of output asked for then lists a
game's outputs (listing.py), and an output is made again only when its digest differs from the
one the game's manifest remembers (model/manifest.py, gamebuild.py), so an edit to one card
re-renders that card's images only. The jobs run over worker processes (workers.py): face images
first, then the PDFs, then what is made of the faces' thumbnails once those are drawn.

A failed build changes nothing. Nothing is drawn until every game has laid out without a
problem; the jobs then write each game's new files aside (its STAGING folder), and only when
every job of the build has made its file are they moved into place, each by one rename, and
the manifest saved with what is on disk. A build that fails, or is killed, before that leaves
the last good outputs and manifest as they were (the next build clears what it left aside);
one killed while it moves its files leaves files that its manifest does not record as they are,
which the next build therefore makes again (manifest.py).

Builds with different options live side by side: a build removes only the files it owns (of
its kinds, its papers and its options: booklets, Letter 3 x 3; each ink has a folder of its
own) that it no longer makes, and the folders those leave empty.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
from pathlib import Path

from ..drawing.pdf import warm
from ..model import libraries
from ..model.kinds import COMPOSITE, IMAGES, PRINT
from ..model.options import Options
from ..model.plan import GamePlan, plan
from ..model.session import BuildSession
from .gamebuild import GameBuild, Report
from .jobs import Write
from .listing import LISTS
from .workers import Workers

try:
    import fcntl
except ImportError:  # not on this system: builds are not run side by side there
    fcntl = None  # type: ignore[assignment]  # a module that may be missing: beyond mypy (python/mypy#1297)

def build(options: Options, session: BuildSession | None = None) -> Report:
    """Build what `options` ask for; `session` (see model/session.py) keeps what a long-lived
    process reuses from its earlier builds."""
    plans, warnings = plan(options, session)
    with _alone(options.out):
        return _build(plans, options, Report(warnings=warnings))


@contextlib.contextmanager
def _alone(out: Path):
    """The only build into `out` while it runs: two at once (the resident builder's and a
    `--here`, two terminals) would share each game's staging folder and manifest, each clearing
    what the other made aside. The second waits for the first, and says so."""
    if fcntl is None:
        yield
        return
    lock = out / ".cache" / "build.lock"
    lock.parent.mkdir(parents=True, exist_ok=True)
    with open(lock, "w") as held:
        try:
            fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            print(f"waiting for another build into {out} to finish", flush=True)
            fcntl.flock(held, fcntl.LOCK_EX)
        yield  # the lock goes with the file's closing, and with the process if it is killed


def _build(plans: list[GamePlan], options: Options, report: Report) -> Report:
    shared: dict = {}  # what the workers inherit when they fork: the images' and PDFs' jobs share it
    versions = functools.cache(libraries.versions)
    games = [GameBuild(p, options, shared, versions, report) for p in plans]
    drawing = [job for g in games for job in _jobs(g, IMAGES)]
    # Every game's first PDF before any game's second: by then its faces' forms are cached.
    printing = [job for jobs in itertools.zip_longest(*(_jobs(g, PRINT) for g in games)) for job in jobs if job]
    if printing and options.jobs > 1:
        warm()  # the fonts' data every PDF embeds, made once here for all the workers forked below
    try:
        with Workers(options, shared) as workers:
            # In this order: a face's image comes soonest (`watch` shows it), then the thumbnails,
            # so that what is made of them (listed while the workers draw them) is drawn beside the
            # PDFs rather than after them all: after a one-card edit, the TTS sheet is the longest job.
            workers.submit(drawing)
            thumbnails = workers.submit([job for g in games for job in g.thumbnails()])
            workers.submit(printing)
            workers.wait(thumbnails)
            workers.submit([job for g in games for job in _jobs(g, COMPOSITE)])
    except BaseException:
        for g in games:
            g.discard()  # what a failed build drew never replaces what the last good one made
        raise
    for g in games:
        g.finish()
    return report


def _jobs(game: GameBuild, phase: str) -> list[Write]:
    """The jobs of this phase that make what is not made already: each kind's outputs as its
    function in listing.py lists them."""
    return [job for kind in game.kinds if kind.phase == phase for output in LISTS[kind.name](game)
            if (job := game.job(output)) is not None]
