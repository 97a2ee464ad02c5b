"""The store suite: every test runs against both stores (SQLite, and PostgreSQL on the session's
throwaway cluster) through `make_store`, so that the two keep the same promises: the state is
the fold of the log, a retried action is applied once, a stale one is refused, an undo replays
from a checkpoint, idle tables are archived and come back, tables move from one to the other."""

from __future__ import annotations

import random
import threading
import time

import pytest

from companion.errors import BadRequest, TooManyRequests
from companion.jsontext import json_text
from companion.tablelog import CHECKPOINT_EVERY, UNDO_REACH
from spellpress.core import table
from spellpress.core.play.errors import Conflict, Invalid


def _counting_evolve(monkeypatch) -> list[int]:
    replayed: list[int] = []
    evolve = table.evolve
    monkeypatch.setattr(table, "evolve", lambda state, event: (replayed.append(event.seq), evolve(state, event))[1])
    return replayed


def _adjust(player: int, delta: int, request_id: str | None = None) -> dict:
    action = {"type": "adjust", "player": player, "counter": "points", "delta": delta}
    return {**action, "request_id": request_id} if request_id else action


EVENTS = 300  # 18 checkpoints, 2 of them pruned: an undo that replayed from the start would show it


def test_undo_deep_in_a_long_game_replays_no_more_than_a_checkpoints_worth(make_store, games, monkeypatch):
    """(make bench times it at the 20,000th.)"""
    store = make_store()
    seat, *_ = store.create(games["powermage-54"], ["Ann", "Ben"], None, "phone")
    for i in range(EVENTS):
        delta = 1 if (i // 2) % 2 else -1  # each player down one, then up one: nobody falls
        store.act(seat.table_id, seat.token, _adjust(i % 2, delta), lambda n: 0)
    full = store.replay(seat.table_id)
    replayed = _counting_evolve(monkeypatch)
    # the latest change, undone by the process that made it: the state before it is in memory
    undone = store.act(seat.table_id, seat.token, {"type": "undo", "version": EVENTS + 1}, lambda n: 0)
    assert replayed == []
    # by a process that did not make it (a second worker, a restarted server): from a checkpoint
    other = make_store()
    other.act(seat.table_id, seat.token, {"type": "coin"}, lambda n: 0)
    again = other.act(seat.table_id, seat.token, {"type": "undo", "version": EVENTS + 3}, lambda n: 0)
    assert 0 < len(replayed) <= 2 * CHECKPOINT_EVERY, f"an undo replayed {len(replayed)} events"
    monkeypatch.undo()
    assert undone.table.state != full and again.table.state == other.replay(seat.table_id)


class _Clock:
    """A clock a test moves on by hand."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


def test_undos_after_long_bursts_replay_a_bounded_number_of_events(make_store, games, monkeypatch):
    """Issue 32: a table with a long log, then one seat's burst of 300 taps (longer than the
    checkpoints kept) and a chain of undos: each undo read the whole log again. Now none replays
    more than UNDO_REACH events, a phone with no state in memory (another instance) included, and
    each leaves the state the whole log folds to."""
    clock = _Clock()
    store, other = make_store(clock=clock), make_store(clock=clock)
    seat, *_ = store.create(games["powermage-54"], ["Ann", "Ben"], None, "phone")
    for i in range(600):  # a long game: alternate players, so no burst
        clock.now += 5
        store.act(seat.table_id, seat.token, _adjust(i % 2, 1 if (i // 2) % 2 else -1), lambda n: 0)
    points = [p["counters"]["points"] for p in store.read(seat.table_id).state["players"]]
    for burst in range(3):  # three long bursts on one counter each, a pause between
        clock.now += 5
        for _ in range(300 if burst == 1 else 40):
            clock.now += 0.1
            store.act(seat.table_id, seat.token, _adjust(burst % 2, 1), lambda n: 0)
    replayed = _counting_evolve(monkeypatch)
    counts = []
    for step in range(12):  # the bursts, then changes before them, undone one by one
        clock.now += 1
        by = other if step % 2 else store
        version = by.read(seat.table_id).version
        replayed.clear()
        undone = by.act(seat.table_id, seat.token, {"type": "undo", "version": version}, lambda n: 0)
        counts.append(len(replayed))
        if step == 2:
            assert [p["counters"]["points"] for p in undone.table.state["players"]] == points, "the bursts all undone"
    assert max(counts) <= UNDO_REACH, f"undos replayed {counts} events"
    monkeypatch.undo()
    assert store.read(seat.table_id).state == store.replay(seat.table_id) == other.read(seat.table_id).state


def test_an_undo_that_would_read_too_far_back_is_refused_and_a_chain_of_undos_is_capped(make_store, games):
    clock = _Clock()
    store = make_store(clock=clock)
    seat, *_ = store.create(games["powermage-54"], ["Ann", "Ben"], None, "phone")
    store.act(seat.table_id, seat.token, _adjust(0, -1), lambda n: 0)
    for _ in range(UNDO_REACH + 1):  # draws, which undo never takes back, after the change
        store.act(seat.table_id, seat.token, {"type": "coin"}, lambda n: 0)
    fresh = make_store(clock=clock)  # with nothing in memory
    version = fresh.read(seat.table_id).version
    with pytest.raises(Conflict, match="too far back"):
        fresh.act(seat.table_id, seat.token, {"type": "undo", "version": version}, lambda n: 0)
    assert fresh.read(seat.table_id).version == version, "refused: nothing written"

    clock.now += 2
    answers = []
    for _ in range(12):  # undo, tap, undo, tap... faster than a person would
        clock.now += 0.01
        try:
            store.act(seat.table_id, seat.token, _adjust(1, -1), lambda n: 0)
            store.act(seat.table_id, seat.token, {"type": "undo", "version": store.read(seat.table_id).version}, lambda n: 0)
            answers.append(200)
        except TooManyRequests as err:
            answers.append(429)
            assert "undos" in err.message and err.headers["Retry-After"] == "1"
    assert answers == [200] * 8 + [429] * 4
    clock.now += 1.5
    store.act(seat.table_id, seat.token, {"type": "undo", "version": store.read(seat.table_id).version}, lambda n: 0)


def test_undo_from_memory_or_checkpoint_is_the_state_the_whole_log_folds_to(make_store, games):
    rng = random.Random(7)
    # two processes' worth of memory on one database; undos faster than the cap on chained ones (tested alone)
    stores = [make_store(undos=(1000, 1.0)), make_store(undos=(1000, 1.0))]
    seat, *_ = stores[0].create(games["magicka-mayhem"], ["Ann", "Ben", "Cy"], None, "phone")
    for _ in range(150):
        store = rng.choice(stores)
        now = store.read(seat.table_id)
        roll = rng.random()
        if roll < 0.55:
            action = {"type": "adjust", "player": rng.randrange(3), "counter": "health", "delta": rng.choice([-2, -1, 1, 2])}
        elif roll < 0.85 and now.state["undo"]:
            action = {"type": "undo", "version": now.version}
        else:
            action = {"type": "coin"}
        try:
            store.act(seat.table_id, seat.token, action, rng.randrange)
        except Conflict:
            store.act(seat.table_id, seat.token, {"type": "reopen"}, rng.randrange)
        assert store.read(seat.table_id).state == store.replay(seat.table_id)


def test_a_retried_action_is_applied_once_and_answered_as_before(make_store, games):
    store, other = make_store(), make_store()
    seat, *_ = store.create(games["powermage-54"], ["Ann", "Ben"], None, "phone")
    first = store.act(seat.table_id, seat.token, _adjust(0, -7, "tap-1"), lambda n: 0)
    store.act(seat.table_id, seat.token, _adjust(1, -1), lambda n: 0)
    again = other.act(seat.table_id, seat.token, _adjust(0, -7, "tap-1"), lambda n: 0)  # through another instance
    assert again.repeated and again.event == first.event
    now = store.read(seat.table_id)
    assert now.version == 3 and now.state["players"][0]["counters"]["points"] == 93
    assert [e.seq for e in store.events(seat.table_id)] == [1, 2, 3]


def test_a_table_another_instance_moved_is_written_after_it_and_a_retry_stays_one(make_store, games):
    """An instance writes a table it knows without reading it first (PostgreSQL): when another
    instance has moved the table meanwhile, or the tap was written before, the events' keys
    refuse the write, and the batch is written again, reading first."""
    store, other = make_store(), make_store()
    seat, *_ = store.create(games["powermage-54"], ["Ann", "Ben"], None, "phone")
    store.act(seat.table_id, seat.token, _adjust(0, -1, "a-1"), lambda n: 0)  # this instance knows version 2
    other.act(seat.table_id, seat.token, _adjust(1, -2, "b-1"), lambda n: 0)  # the other moves it to 3
    moved = store.act(seat.table_id, seat.token, _adjust(0, -3, "a-2"), lambda n: 0)
    assert moved.event.seq == 4 and not moved.repeated
    assert [p["counters"]["points"] for p in moved.table.state["players"]] == [96, 98]
    assert other.read(seat.table_id).version == 4 and [e.seq for e in other.events(seat.table_id)] == [1, 2, 3, 4]
    if make_store.kind == "postgresql":  # the table is read first for a while now
        assert seat.table_id in store.writer._contended

    # A tap sent again through the instance that wrote it, on a table nobody else writes.
    seat, *_ = store.create(games["powermage-54"], ["Ann", "Ben"], None, "phone")
    first = store.act(seat.table_id, seat.token, _adjust(1, -5, "c-1"), lambda n: 0)
    again = store.act(seat.table_id, seat.token, _adjust(1, -5, "c-1"), lambda n: 0)  # its answer was lost
    assert again.repeated and again.event == first.event and again.table.version == 2
    assert [e.seq for e in other.events(seat.table_id)] == [1, 2]


def _in_one_batch(store, calls: list) -> list:
    """Each call in a thread of its own; all but the first are written in one transaction (they
    queue while the first, the writer, waits for the store's write lock, held here)."""
    results: list = [None] * len(calls)

    def run(i: int) -> None:
        try:
            results[i] = calls[i]()
        except Exception as err:  # noqa: BLE001 - the caller looks at it
            results[i] = err

    def until(check) -> None:
        deadline = time.monotonic() + 5
        while not check():
            assert time.monotonic() < deadline, "the actions did not queue"
            time.sleep(0.001)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    writer = store.writer
    with writer._lock:
        threads[0].start()
        until(lambda: writer._writing and not writer._queue)
        for thread in threads[1:]:
            thread.start()
        until(lambda: len(writer._queue) == len(calls) - 1)
    for thread in threads:
        thread.join()
    return results


def test_a_batch_refuses_an_action_alone_and_applies_a_retry_within_it_once(make_store, games):
    """A refused action, a tap sent twice and an undo, all in one transaction: the refused one
    writes nothing, the others are applied once each, and the state is the fold of the log."""
    store, other = make_store(), make_store()
    seat, *_ = store.create(games["magicka-mayhem"], ["Ann", "Ben"], None, "phone")
    act = store.act
    results = _in_one_batch(store, [
        lambda: act(seat.table_id, seat.token, {"type": "adjust", "player": 0, "counter": "health", "delta": -1}, lambda n: 0),
        lambda: act(seat.table_id, seat.token, {"type": "damage", "target": 1, "amount": 2, "request_id": "r1"}, lambda n: 0),
        lambda: act(seat.table_id, seat.token, {"type": "damage", "target": 7, "amount": 2, "request_id": "r2"}, lambda n: 0),
        lambda: act(seat.table_id, seat.token, {"type": "damage", "target": 1, "amount": 2, "request_id": "r1"}, lambda n: 0),
        lambda: act(seat.table_id, seat.token, {"type": "heal", "target": 0, "amount": 1, "request_id": "r3"}, lambda n: 0),
        lambda: act(seat.table_id, seat.token, {"type": "undo", "version": 4}, lambda n: 0),
    ])
    first, hurt, refused, again, healed, undone = results
    assert not isinstance(first, Exception) and isinstance(refused, Invalid), (type(first), type(refused))
    assert not hurt.repeated and again.repeated and again.event == hurt.event
    assert (hurt.event.seq, healed.event.seq, undone.event.seq) == (3, 4, 5)
    assert undone.table.state == store.replay(seat.table_id) == other.read(seat.table_id).state
    assert [e.type for e in store.events(seat.table_id)] == ["create", "adjust", "damage", "heal", "undo"]
    retried = other.act(seat.table_id, seat.token, {"type": "damage", "target": 1, "amount": 2, "request_id": "r2"}, lambda n: 0)
    assert not retried.repeated, "a refused action's request id was not kept"
    with pytest.raises(BadRequest, match="printable"):
        store.act(seat.table_id, seat.token, {"type": "heal", "target": 0, "amount": 1, "request_id": "tap\x00"}, lambda n: 0)


def test_a_stale_order_dependent_action_is_refused(make_store, games):
    store = make_store()
    seat, *_ = store.create(games["powermage-54"], ["Ann", "Ben"], None, "phone")
    store.act(seat.table_id, seat.token, _adjust(0, -1), lambda n: 0)
    with pytest.raises(Conflict):
        store.act(seat.table_id, seat.token, {"type": "halve", "version": 1}, lambda n: 0)
    assert store.read(seat.table_id).version == 2


def test_two_instances_writing_one_table_at_once_lose_nothing(make_store, games):
    """Each instance's own group commit, and the database between them: no version folded twice."""
    stores = [make_store(), make_store()]
    seat, *_ = stores[0].create(games["powermage-54"], ["Ann", "Ben"], None, "phone")
    other, _ = stores[0].join(seat.table_id, games["powermage-54"], "Ben")
    errors: list[Exception] = []

    def tap(store, token, player, n, k):
        try:
            for i in range(n):
                store.act(seat.table_id, token, _adjust(player, -1, f"{token[:6]}-{k}-{i}"), lambda k: 0)
        except Exception as err:  # noqa: BLE001 - reported below
            errors.append(err)

    threads = [threading.Thread(target=tap, args=(stores[i % 2], (seat.token, other.token)[i % 2], i % 2, 40, i)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    now = stores[1].read(seat.table_id)
    assert [p["counters"]["points"] for p in now.state["players"]] == [100 - 80, 100 - 80]
    assert now.version == 2 + 160 and now.state == stores[1].replay(seat.table_id)
    assert [e.seq for e in stores[0].events(seat.table_id)] == list(range(1, 163))


def test_codes_seats_and_limits(make_store, games):
    clock = [1_000_000.0]
    store = make_store(code_ttl=60, join_failures=(2, 300), clock=lambda: clock[0])
    seat, code, expires, _ = store.create(games["powermage-54"], ["Ann", "Ben"], None, "phone")
    assert expires == clock[0] + 60 and store.code(seat.table_id) == (code, expires)
    assert store.resolve(code.lower(), "phone") == seat.table_id
    assert store.seat(seat.table_id, seat.token) == 0 and store.seat(seat.table_id, "not-a-token") is None
    for _ in range(2):
        with pytest.raises(Exception, match="no table has that code"):
            store.resolve("ZZZZZZ", "guesser")
    with pytest.raises(Exception, match="too many wrong codes"):
        store.resolve(code, "guesser")
    clock[0] += 61
    with pytest.raises(Exception, match="expired"):
        store.resolve(code, "phone")
    renewed, _ = store.new_code(seat.table_id)
    assert renewed != code and store.resolve(renewed, "phone") == seat.table_id


def test_idle_tables_are_archived_and_come_back_when_opened(make_store, games):
    clock = [1_000_000.0]
    store = make_store(clock=lambda: clock[0], archive_after=30 * 86400)
    old, *_ = store.create(games["powermage-54"], ["Ann", "Ben"], None, "phone")
    store.act(old.table_id, old.token, _adjust(0, -9), lambda n: 0)
    was = store.read(old.table_id)
    clock[0] += 31 * 86400
    fresh = make_store(clock=lambda: clock[0])
    fresh.create(games["powermage-54"], ["Cy", "Dee"], None, "phone")  # a sweep runs at most hourly, here

    def count(sql: str, *params) -> int:
        with fresh.reading() as db:
            return db.execute(sql, params).fetchone()[0]

    assert count("SELECT count(*) FROM tables") == 1
    assert count("SELECT count(*) FROM events WHERE table_id = ?", old.table_id) == 0
    assert count("SELECT count(*) FROM archive") == 1
    assert fresh.seat(old.table_id, old.token) == 0, "a phone coming back brings its table back"
    back = fresh.read(old.table_id)
    assert (back.version, back.state) == (was.version, was.state) and fresh.replay(old.table_id) == was.state
    assert count("SELECT count(*) FROM archive") == 0


def test_tables_move_to_the_other_kind_of_store_and_play_on(make_store, games, tmp_path, request):
    """export from this kind, import into the other: the same states, logs and seats."""
    from companion.stores import open_store

    store = make_store(archive_after=30 * 86400)
    seat, *_ = store.create(games["magicka-mayhem"], ["Ann", "Ben"], None, "phone")
    for i in range(20):
        store.act(seat.table_id, seat.token, {"type": "adjust", "player": i % 2, "counter": "health", "delta": -1,
                                              "request_id": f"r{i}"}, lambda n: 0)
    second, *_ = store.create(games["powermage-54"], ["Cy", "Dee"], None, "phone")
    packed = list(store.export())
    assert sorted(p["table"]["id"] for p in packed) == sorted([seat.table_id, second.table_id])

    other_target = request.getfixturevalue("pg_database") if make_store.kind == "sqlite" else str(tmp_path / "other.db")
    other = open_store(other_target, code_ttl=60, join_failures=(10, 300))
    try:
        assert other.import_tables(packed) == (2, 0)
        assert other.import_tables(packed) == (0, 2), "a table already there is left as it is"
        for s in (seat, second):
            assert other.read(s.table_id).state == store.read(s.table_id).state == other.replay(s.table_id)
            assert other.log(s.table_id) == store.log(s.table_id)
        retried = other.act(seat.table_id, seat.token, {"type": "adjust", "player": 0, "counter": "health", "delta": -1,
                                                        "request_id": "r19"}, lambda n: 0)
        assert retried.repeated, "request ids came along: a retry is still recognised"
        moved = other.act(seat.table_id, seat.token, {"type": "adjust", "player": 0, "counter": "health", "delta": -1}, lambda n: 0)
        assert moved.table.version == 22
    finally:
        other.close()


def test_names_in_any_script_are_stored_as_text_and_read_back_the_same(make_store, games):
    """States are written by orjson (UTF-8 text, not \\u escapes); numbers past 64 bits, which it
    does not write, go through the standard library instead."""
    names = ["Zoë", "魔法使い", "Ana 🧙", 'quote " and \\ backslash']
    store = make_store()
    seat, *_ = store.create(games["powermage-54"], names, None, "127.0.0.1")
    with store.reading() as db:
        stored = db.execute("SELECT state FROM tables WHERE id = ?", (seat.table_id,)).fetchone()[0]
    assert "魔法使い" in stored and "\\u" not in stored.replace("\\\\", "")
    other = make_store()  # another instance, which parses the stored text
    assert [p["name"] for p in other.read(seat.table_id).state["players"]] == names
    assert json_text({"n": 2**70, 3: "three"}) == '{"n":1180591620717411303424,"3":"three"}'


def test_reads_racing_a_full_snapshot_cache_get_their_table_at_its_version(make_store, games, monkeypatch):
    """The cache of parsed states is cleared whenever it passes its bound: a read that found a
    table in it must answer from what it found, even if another thread empties or advances the
    cache before the database answers (this gave None, or a state newer than the log read with it)."""
    import companion.snapshots

    monkeypatch.setattr(companion.snapshots, "CACHE_SIZE", 2)
    store = make_store(creations=(100, 3600))
    seats = [store.create(games["powermage-54"], ["Ann", "Ben"], None, "phone")[0] for _ in range(6)]
    failures: list[str] = []
    stop = threading.Event()

    def read(k: int) -> None:
        rng = random.Random(k)
        try:
            for _ in range(150):
                table_id = rng.choice(seats).table_id
                now, entries = store.changes(table_id)
                if now is None or entries[-1]["seq"] != now.version:
                    failures.append(f"{table_id}: {now and now.version} beside a log up to {entries[-1]['seq']}")
                if store.read(table_id) is None:
                    failures.append(f"{table_id}: read None")
        except Exception as err:  # noqa: BLE001 - reported below
            failures.append(repr(err))

    def write() -> None:
        i = 0
        while not stop.is_set():
            seat = seats[i % len(seats)]
            store.act(seat.table_id, seat.token, {"type": "coin"}, lambda n: 0)
            i += 1

    writer = threading.Thread(target=write)
    readers = [threading.Thread(target=read, args=(k,)) for k in range(4)]
    writer.start()
    for thread in readers:
        thread.start()
    for thread in readers:
        thread.join()
    stop.set()
    writer.join()
    assert not failures, f"{len(failures)} reads went wrong, the first: {failures[0]}"


def test_stream_slots_are_shared_by_the_stores_of_one_database_and_freed_when_one_goes(pg_database):
    """Two stores on one PostgreSQL database, as two instances: an address's slots are one count;
    a store that goes (its connection ends, as when its instance is killed) frees its slots; its
    slots' connection cut, a store takes slots again on a new one."""
    from companion.stores import open_store

    a, b = (open_store(pg_database, code_ttl=3600, join_failures=(10, 300)) for _ in range(2))
    try:
        taken = [a.stream_slot("10.0.0.7", 4) for _ in range(3)]
        assert all(taken) and b.stream_slot("10.0.0.7", 4) is not None
        assert b.stream_slot("10.0.0.7", 4) is None and a.stream_slot("10.0.0.7", 4) is None
        assert b.stream_slot("10.0.0.8", 4) is not None  # another address has slots of its own
        taken[0]()
        assert b.stream_slot("10.0.0.7", 4) is not None
        a.close()  # a's two other slots go with its connection, once the server has ended its session
        deadline = time.monotonic() + 10
        while b.stream_slot("10.0.0.7", 4) is None:
            assert time.monotonic() < deadline, "a closed store's slots were not freed within 10 s"
            time.sleep(0.05)
        while b.stream_slot("10.0.0.7", 4) is None:
            assert time.monotonic() < deadline, "a closed store's slots were not freed within 10 s"
            time.sleep(0.05)
        assert b.stream_slot("10.0.0.7", 4) is None

        with b._pool.connection() as conn:  # the slots' connection cut under b
            conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                         "WHERE pid <> pg_backend_pid() AND query LIKE '%pg_try_advisory_lock%'")
        assert b.stream_slot("10.0.0.7", 4) is not None  # the cut connection admits, counted by b alone
        assert b.stream_slot("10.0.0.7", 4) is not None  # then a new connection holds slots again
    finally:
        for store in (a, b):
            store.close()
