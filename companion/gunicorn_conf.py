"""Gunicorn settings for the companion, used by `spellpress serve` and behind a production
server alike: `gunicorn -c python:companion.gunicorn_conf -b 0.0.0.0:8000 'companion:create_app()'`.

The threaded worker serves many phones at once, each holding a live stream open on a thread of
its own, while idle keep-alive connections wait in its poller without one. One worker process:
SQLite takes one writer at a time anyway, and one process wakes its phones at once rather than
through the watcher's polling (several workers work, a little less promptly).
"""

import signal

worker_class = "gthread"
workers = 1
threads = 64
keepalive = 5
graceful_timeout = 3  # live streams end when the worker stops, so a stop is quick anyway
control_socket_disable = True  # gunicorn 27's control socket is one per user: two servers would clash


def post_worker_init(worker):
    """A stopping worker ends its live streams rather than wait on them."""
    extensions = getattr(worker.wsgi, "extensions", {})
    if "spellpress" not in extensions:
        return
    hub = extensions["spellpress"].hub
    for sig in (signal.SIGTERM, signal.SIGQUIT, signal.SIGINT):
        handler = signal.getsignal(sig)
        if callable(handler):
            signal.signal(sig, lambda s, frame, handler=handler: (hub.close(), handler(s, frame)))
