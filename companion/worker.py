"""The gunicorn worker the companion runs in: gevent's, with every connection's I/O bounded.

gunicorn's gevent worker already gives each connection a greenlet and times out the reading of
a request's headers (its `keepalive`). What it leaves open is a peer that sends a body a byte a
minute, or stops reading a live stream: each would hold its connection for ever. Here every
socket operation that waits longer than IO_TIMEOUT seconds fails, and the connection closes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gunicorn.workers.ggevent import GeventWorker

if TYPE_CHECKING:
    from gevent.socket import socket
    from gunicorn._types import _AddressType  # the stubs' own name for a peer's address

IO_TIMEOUT = 30  # seconds one read or write may wait; a live stream writes every 15 s at most


class Worker(GeventWorker):
    def handle(self, listener: socket, client: socket, addr: _AddressType) -> None:
        client.settimeout(IO_TIMEOUT)
        super().handle(listener, client, addr)
