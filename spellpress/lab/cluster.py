"""`simulate --cluster ADDRESS`: the same seeded batches as `engine.run`, played on a Dask
distributed cluster (the optional extra `spellpress[cluster]`) when a sweep outgrows one machine.

Game i still uses `game_rng(seed, i)` and a tally is a sum of Counters, so which worker plays a
batch, and in which order batches come back, cannot change a byte of the report. The plan is sent
to each worker once (`scatter(broadcast=True)`); the lab's module-level functions travel by name,
so every worker needs spellpress installed (the same version as the client). A game's constants
hold read-only mappings that plain pickle refuses: Dask falls back to cloudpickle for them.
"""

from __future__ import annotations

import re
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from .engine import LabError, Plan, Tally, batches, merged, play_batch

try:
    import distributed
except ImportError:  # the optional extra spellpress[cluster]: connect says how to install it
    distributed = None  # type: ignore[assignment]  # checked by connect, which says how to install it

CONNECT_SECONDS = 5.0  # an address nobody answers at is said after this, not waited on for ever
ADDRESS = re.compile(r"^(?:(?P<scheme>[a-z]+)://)?(?P<host>\[[0-9a-fA-F:.]+\]|[A-Za-z0-9_.-]+):(?P<port>\d{1,5})$")
HANDSHAKE_MOST = 1 << 16  # bytes: a scheduler's first message is far smaller
SCHEMES = ("tcp", "tls", "ws", "wss", "ucx")
EXAMPLE = "give it as the scheduler prints it, such as tcp://10.0.0.5:8786"


@contextmanager
def connect(address: str, timeout: float | None = None) -> Iterator[Any]:
    """A client of the scheduler at `address`, closed on leaving; LabError if it cannot be had.

    The address is checked, and a plain tcp:// one probed, before distributed's Client is made:
    a Client that fails part-way is closed by the garbage collector, which waits 10 s and prints
    a traceback, and one whose peer accepts and never speaks waits for ever (a Dask scheduler
    speaks first on every connection)."""
    if distributed is None:
        raise LabError("--cluster needs Dask's distributed, which is not installed: "
                       "pip install 'spellpress[cluster]' (on this machine and on the cluster's)")
    seconds = CONNECT_SECONDS if timeout is None else timeout
    _probe(address, seconds)
    try:
        # distributed's Client.__init__ carries no annotations
        client = distributed.Client(address, timeout=seconds, set_as_default=False)  # type: ignore[no-untyped-call]
    except Exception as exc:  # a peer that is no scheduler fails in distributed's own ways (struct.error, ...)
        raise LabError(f"--cluster {address}: no Dask scheduler answers there ({type(exc).__name__}: {exc}); "
                       "is it running, and is that the address it prints (such as tcp://10.0.0.5:8786)?") from None
    with client:
        yield client


def _probe(address: str, seconds: float) -> None:
    """LabError unless `address` is a scheduler's address and, for tcp://, something there speaks
    within `seconds` (tls and the others wait for the client to speak first: not probed)."""
    m = ADDRESS.match(address)
    scheme = address.partition("://")[0] if "://" in address else "tcp"
    if scheme not in SCHEMES:
        raise LabError(f"--cluster {address}: unknown address scheme '{scheme}' (Dask's are {', '.join(SCHEMES)}); {EXAMPLE}")
    if not m:
        raise LabError(f"--cluster {address}: not a scheduler's address: it needs a host and a port number; {EXAMPLE}")
    if not 0 < int(m["port"]) < 65536:
        raise LabError(f"--cluster {address}: port {int(m['port'])} is not a port number (1 to 65535); {EXAMPLE}")
    if (m["scheme"] or "tcp") != "tcp":
        return
    try:
        with socket.create_connection((m["host"].strip("[]"), int(m["port"])), timeout=seconds) as peer:
            peer.settimeout(seconds)
            spoke = b""
            while len(spoke) < 8 and (more := peer.recv(8 - len(spoke))):
                spoke += more
    except TimeoutError:
        raise LabError(f"--cluster {address}: something there takes connections but says nothing in {seconds:g} s: "
                       f"not a Dask scheduler; {EXAMPLE}") from None
    except OSError as exc:
        raise LabError(f"--cluster {address}: no Dask scheduler answers there ({exc}); "
                       "is it running, and is that the address it prints (such as tcp://10.0.0.5:8786)?") from None
    if not spoke:
        raise LabError(f"--cluster {address}: something there closes connections at once: not a Dask scheduler; {EXAMPLE}")
    # distributed's TCP comm begins each message with its length in 8 bytes (comm/tcp.py: struct
    # "Q"); a scheduler's first, its handshake, is some tens of bytes
    if len(spoke) < 8 or int.from_bytes(spoke, "little") > HANDSHAKE_MOST:
        raise LabError(f"--cluster {address}: something there answers, but not as a Dask scheduler; {EXAMPLE}")


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
