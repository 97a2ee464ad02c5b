"""psycopg's waiting under gevent, looking before it waits.

Under gevent psycopg waits with the patched `select.poll`: every wait, even on a socket that is
ready at once, starts watchers and goes round gevent's loop. A pipelined batch of actions waits
a dozen times (each statement sent is a wait, most of them on a socket that can take it now), and
measured in a gevent worker that cost more than the batch's own work: a batch of 16 adjusts took
5.7 ms of CPU against 4.3 ms with psycopg's C wait (benchmarks/companion.py's PostgreSQL figures
follow from it). This wait asks the operating system first, with the unpatched poll and no
timeout, and parks the greenlet on one gevent watcher only when the socket is not ready; so a
query still holds its greenlet, never the worker.
"""

from __future__ import annotations

import contextlib
import select
import time
from typing import TypeVar

import psycopg
from gevent import monkey
from gevent.socket import wait_read, wait_readwrite, wait_write
from psycopg.abc import PQGen
from psycopg.waiting import Ready, Wait

RV = TypeVar("RV")

_poll = monkey.get_original("select", "poll")
_MASKS = {
    Wait.R: select.POLLIN,
    Wait.W: select.POLLOUT,
    Wait.RW: select.POLLIN | select.POLLOUT,
}
_PARK = {Wait.R: wait_read, Wait.W: wait_write, Wait.RW: wait_readwrite}
_BAD = select.POLLERR | select.POLLHUP | select.POLLNVAL


def _ready(fileno: int, wait: Wait) -> int:
    """What the socket is ready for now, without waiting; a closed socket is an error."""
    poller = _poll()
    poller.register(fileno, _MASKS[wait])
    ready: int = Ready.NONE
    for _, events in poller.poll(0):
        if events & select.POLLIN:
            ready |= Ready.R
        if events & select.POLLOUT:
            ready |= Ready.W
        if not ready and events & _BAD:
            raise psycopg.OperationalError("connection socket closed")
    return ready


def wait(gen: PQGen[RV], fileno: int, interval: float, timeout: float | None = None) -> RV:
    """Run psycopg's generator `gen` on `fileno` to its end: each step goes on at once when the
    socket is ready, else once gevent says it is (or after `interval` seconds, which psycopg's
    generators take as 'nothing yet'). Past `timeout` seconds, psycopg's own wait timeout is
    raised, as its waits raise it."""
    end = None if timeout is None else time.monotonic() + timeout
    try:
        wanted = next(gen)
        while True:
            ready = _ready(fileno, wanted)
            if not ready:
                with contextlib.suppress(TimeoutError):  # nothing within `interval`: psycopg asks again
                    _PARK[wanted](fileno, timeout=interval)
                ready = _ready(fileno, wanted)
                if not ready and end is not None and time.monotonic() >= end:
                    raise psycopg.errors._WaitTimeout("wait timeout expired")
            wanted = gen.send(ready)
    except StopIteration as done:
        result: RV = done.value  # what the generator returned
        return result


class GreenConnection(psycopg.Connection):
    """A psycopg connection for gevent's worker: its waits look first (see the module's text)."""

    def wait(self, gen: PQGen[RV], interval: float = 0.1, timeout: float | None = None) -> RV:
        return wait(gen, self.pgconn.socket, interval, timeout)

