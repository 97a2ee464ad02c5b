"""`simulate --cluster ADDRESS`: the same seeded batches as `engine.run`, played on a Dask
distributed cluster (the optional extra `spellpress[cluster]`) when a sweep outgrows one machine.

Game i still uses `game_rng(seed, i)` and a tally is a sum of Counters, so which worker plays a
batch, and in which order batches come back, cannot change a byte of the report. The plan is sent
to each worker once (`scatter(broadcast=True)`); the lab's module-level functions travel by name,
so every worker needs spellpress installed (the same version as the client). A game's constants
hold read-only mappings that plain pickle refuses: Dask falls back to cloudpickle for them.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from .engine import LabError, Plan, Tally, batches, merged, play_batch

try:
    import distributed
except ImportError:  # the optional extra spellpress[cluster]: connect says how to install it
    distributed = None

CONNECT_SECONDS = 5.0  # an address nobody answers at is said after this, not waited on for ever


@contextmanager
def connect(address: str, timeout: float | None = None) -> Iterator[Any]:
    """A client of the scheduler at `address`, closed on leaving; LabError if it cannot be had."""
    if distributed is None:
        raise LabError("--cluster needs Dask's distributed, which is not installed: "
                       "pip install 'spellpress[cluster]' (on this machine and on the cluster's)")
    try:
        client = distributed.Client(address, timeout=CONNECT_SECONDS if timeout is None else timeout, set_as_default=False)
    except ValueError as exc:
        raise LabError(f"--cluster {address}: not a scheduler's address ({exc}); "
                       "give it as the scheduler prints it, such as tcp://10.0.0.5:8786") from None
    except (OSError, TimeoutError) as exc:
        raise LabError(f"--cluster {address}: no Dask scheduler answers there ({exc}); "
                       "is it running, and is that the address it prints (such as tcp://10.0.0.5:8786)?") from None
    with client:
        yield client


def run(client: Any, plan: Plan, games: int) -> Tally:
    """Plays games 0..games-1 of the plan in batches over the cluster's workers."""
    try:
        client.wait_for_workers(1, timeout=CONNECT_SECONDS)
    except TimeoutError:
        raise LabError(f"--cluster {client.scheduler.address}: the scheduler has no workers; start some with "
                       f"`dask worker {client.scheduler.address}`") from None
    workers = sum(client.nthreads().values())
    shared = client.scatter(plan, broadcast=True, hash=False)
    futures = [client.submit(play_batch, shared, a, b, pure=False) for a, b in batches(games, workers)]
    try:
        return merged(plan.players, client.gather(futures))
    except (ImportError, distributed.KilledWorker, OSError) as exc:  # a worker without spellpress, one that died, a lost link
        raise LabError(f"--cluster {client.scheduler.address}: the cluster could not play the games: "
                       f"{type(exc).__name__}: {exc}") from None
