"""Gunicorn settings for the companion, used by `spellpress serve` and behind a production
server alike: `gunicorn -c python:companion.gunicorn_conf -b 0.0.0.0:8000 'companion:create_app()'`.

The gevent worker (`companion.worker`) gives every connection a greenlet rather than a thread:
an open phone's live stream, an idle keep-alive connection or a half-sent request costs a few
kilobytes and holds nothing another phone needs, so a neighbour opening a thousand sockets
cannot stall the table. A request's headers must arrive within `keepalive` seconds, and a
connection that moves no byte for `io_timeout` seconds is closed. One worker process: SQLite
takes one writer at a time anyway, and one process wakes its phones at once rather than
through the watcher's polling (several workers work, a little less promptly).

Measured (benchmarks/companion.py, many_phones): with 2,000 open phones on 500 tables playing
200 actions a second, this one worker keeps 1 thread and one open file per phone, and bare
Flask on the same worker delivers a change to every phone of its table within 18 ms p99: the
worker class is not what bounds the fan-out, the app's own work per change is, so a second,
stream-only server beside the app would add a moving part without a gain.
"""

from __future__ import annotations

import resource
import signal
from collections.abc import Callable
from types import FrameType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gunicorn.arbiter import Arbiter
    from gunicorn.workers.base import Worker

    from .live import Hub

worker_class = "companion.worker.Worker"
workers = 1
worker_connections = 10_000  # open connections per worker; past it, new ones wait to be accepted
keepalive = 5  # seconds for a request's headers to arrive, and for an idle connection's next request
graceful_timeout = 3  # live streams end when the worker stops, so a stop is quick anyway
control_socket_disable = True  # gunicorn 27's control socket is one per user: two servers would clash


def on_starting(server: Arbiter) -> None:
    """Room for every connection: each open phone is an open file, so the soft limit on open files
    (often 1,024) is raised to the hard one, and the log says so; a hard limit below
    worker_connections is named as the bound it is."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 4 * worker_connections)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
        print(f"open files: the soft limit raised from {soft} to {wanted} (the hard limit), one for each phone", flush=True)
    if wanted != resource.RLIM_INFINITY and wanted < worker_connections + 100:
        assert server.log is not None, "the arbiter makes its log before it calls on_starting"
        server.log.warning("open files: the hard limit is %s, so at most about %s phones at once (raise it with "
                           "ulimit -Hn or LimitNOFILE=)", wanted, wanted - 100)


def post_worker_init(worker: Worker) -> None:
    """A stopping worker ends its live streams rather than wait on them."""
    extensions = getattr(worker.wsgi, "extensions", {})
    if "spellpress" not in extensions:
        return
    hub = extensions["spellpress"].hub
    for sig in (signal.SIGTERM, signal.SIGQUIT, signal.SIGINT):
        handler = signal.getsignal(sig)
        if callable(handler):
            signal.signal(sig, _closing_first(hub, handler))


def _closing_first(hub: Hub, handler: Callable[[int, FrameType | None], Any]) -> Callable[[int, FrameType | None], None]:
    """`handler`, after the hub has ended its streams."""

    def closing(sig: int, frame: FrameType | None) -> None:
        hub.close()
        handler(sig, frame)

    return closing
