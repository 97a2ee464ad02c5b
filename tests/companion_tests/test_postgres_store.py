"""What only the PostgreSQL store does: under gevent's worker its queries wait without holding
the worker (companion/stores/greenwait.py), a lost connection fails at once and the next query
works, and the states it stores are compressed with lz4."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

from conftest import ROOT

# Run as gunicorn's gevent worker runs the companion: patched first, the store made after.
UNDER_GEVENT = textwrap.dedent("""
    from gevent import monkey
    monkey.patch_all()
    import json, sys, time
    import gevent
    from companion.stores import open_store
    from companion.stores.greenwait import GreenConnection
    from companion.errors import Unavailable

    store = open_store(sys.argv[1])
    found = {"connection": issubclass(store._pool.connection_class, GreenConnection)}

    ticks = []
    def tick():
        while True:
            ticks.append(time.monotonic())
            gevent.sleep(0.01)

    def sleep_in_the_database():
        with store.reading() as db:
            return db.execute("SELECT pg_sleep(0.3), 42").fetchone()[1]

    ticker = gevent.spawn(tick)
    began = time.monotonic()
    queries = [gevent.spawn(sleep_in_the_database) for _ in range(4)]
    gevent.joinall(queries, raise_error=True)
    found["seconds"] = time.monotonic() - began
    found["answers"] = [q.value for q in queries]
    found["ticks"] = len(ticks)
    ticker.kill()

    import psycopg
    with psycopg.connect(sys.argv[1], autocommit=True) as other:  # every pooled connection cut, as a restart would
        other.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                      "WHERE datname = current_database() AND pid <> pg_backend_pid()")
    began = time.monotonic()
    outcomes = []
    while len(outcomes) < 12 and 7 not in outcomes:  # each cut connection fails once, and is let go
        try:
            with store.reading() as db:
                outcomes.append(db.execute("SELECT 7").fetchone()[0])
        except Unavailable:
            outcomes.append("unavailable")
    found["after_cut"] = outcomes
    found["cut_seconds"] = time.monotonic() - began
    store.close()
    print(json.dumps(found))
""")


def test_queries_under_gevent_wait_together_and_a_cut_connection_fails_at_once(pg_database):
    done = subprocess.run([sys.executable, "-c", UNDER_GEVENT, pg_database], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["connection"], "under gevent the pool's connections wait through greenwait"
    assert found["answers"] == [42, 42, 42, 42]
    # Four 0.3 s queries at once: together about 0.3 s, one after another 1.2 s.
    assert found["seconds"] < 0.9, found
    # Meanwhile the worker went on: a greenlet ticking every 10 ms kept ticking.
    assert found["ticks"] >= 15, found
    # A connection the server cut fails at once (the phone is told to try again), and the next one works.
    assert found["after_cut"][0] == "unavailable" and found["after_cut"][-1] == 7, found
    assert found["cut_seconds"] < 5, found


def test_stored_states_are_compressed_with_lz4(pg_database, games):
    from companion.stores import open_store

    store = open_store(pg_database)
    try:
        seat, *_ = store.create(games["magicka-mayhem"], ["Ann", "Ben", "Cy"], None, "127.0.0.1")
        with store.reading() as db:
            size, method = db.execute("SELECT octet_length(state), pg_column_compression(state) FROM tables WHERE id = ?",
                                      (seat.table_id,)).fetchone()
    finally:
        store.close()
    assert size > 4000  # large enough to be compressed at all
    assert method == "lz4"
