"""The gunicorn worker the companion runs in: gevent's, with every connection's I/O bounded.

gunicorn's gevent worker already gives each connection a greenlet and times out the reading of
a request's headers (its `keepalive`). What it leaves open is a peer that sends a body a byte a
minute, or stops reading a live stream: each would hold its connection for ever. Here every
socket operation that waits longer than IO_TIMEOUT seconds fails, and the connection closes.

psycopg (the PostgreSQL store) picks how it waits for the server when it is first imported:
after gevent's patching, a wait that yields to the other greenlets; before it, its own C wait,
which would hold the whole worker while one LISTEN waits. `spellpress serve` imports it in
the master (to check the database before any worker starts), so the worker makes the choice
psycopg would have made after the patching.
"""

from __future__ import annotations

import sys

from gunicorn.workers.ggevent import GeventWorker

IO_TIMEOUT = 30  # seconds one read or write may wait; a live stream writes every 15 s at most


class Worker(GeventWorker):
    def patch(self):
        super().patch()
        waiting = sys.modules.get("psycopg.waiting")
        if waiting is not None and waiting.wait is getattr(waiting, "wait_c", None):
            waiting.wait, waiting._ready = waiting.wait_poll, waiting._ready_poll

    def handle(self, listener, client, addr):
        client.settimeout(IO_TIMEOUT)
        super().handle(listener, client, addr)
