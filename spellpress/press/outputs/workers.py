"""The worker processes a build runs its jobs over, one per core.

Workers fork once a build's jobs are planned, and inherit what the build shares with them
(`shared`): the laid-out cards of a game go into every one of its sheet PDFs, and pickling
them once per PDF cost more than drawing them. Without fork (or with one job) the jobs run in
this process, in the order given.
"""

from __future__ import annotations

import multiprocessing
import sys
from concurrent.futures import ProcessPoolExecutor
from typing import TYPE_CHECKING

from PIL import Image as PILImage

from ..model.options import Options

if TYPE_CHECKING:
    from tqdm import tqdm

_inherited: dict = {}  # in a worker process only: what the build shared when the worker forked


def _inherit(shared: dict) -> None:
    global _inherited
    _inherited = shared


def _run(job) -> None:
    job.run(_inherited)


class Workers:
    """Runs jobs over every core, fed in the order given, with a progress bar on a terminal."""

    def __init__(self, options: Options, shared: dict):
        self.options, self.shared = options, shared
        self.parallel = options.jobs > 1 and "fork" in multiprocessing.get_all_start_methods()
        self.pool: ProcessPoolExecutor | None = None
        self.forked_with: set[str] = set()  # what `shared` held when the workers forked
        self.futures: list = []
        self.bar: tqdm | None = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        try:
            for future in self.futures:
                future.result()  # a worker's exception is raised here
        finally:
            if self.pool is not None:
                self.pool.shutdown()
            if self.bar is not None:
                self.bar.close()

    def submit(self, jobs: list) -> list:
        """Start the jobs; returns what `wait` takes."""
        if not jobs:
            return []
        self._progress(len(jobs))
        if not self.parallel:
            for job in jobs:
                job.run(self.shared)
                self._tick()
            return []
        if self.pool is None:
            PILImage.preinit()  # Image codecs are loaded lazily by Pillow; load them once, before the fork.
            # With fork, the initializer's arguments reach the workers as memory, not through a pipe.
            self.pool = ProcessPoolExecutor(self.options.jobs, mp_context=multiprocessing.get_context("fork"),
                                            initializer=_inherit, initargs=(self.shared,))
            self.forked_with = set(self.shared)
        # a job listed after the fork cannot need what its workers never inherited
        assert set(self.shared) == self.forked_with, "a build shared more with its workers after they forked"
        futures = [self.pool.submit(_run, job) for job in jobs]
        for future in futures:
            future.add_done_callback(lambda _: self._tick())
        self.futures += futures
        return futures

    def wait(self, futures: list) -> None:
        for future in futures:
            future.result()

    def _progress(self, more: int) -> None:
        if not (self.options.progress and sys.stderr.isatty()):
            return
        if self.bar is None:
            from tqdm import tqdm  # imported here: only a terminal shows it, and a build elsewhere need not load it

            self.bar = tqdm(total=0, desc="building", unit="file")
        self.bar.total += more
        self.bar.refresh()

    def _tick(self) -> None:
        if self.bar is not None:
            self.bar.update()
