"""The hub that wakes a table's phones: the message a change makes is made once for all of them."""

from __future__ import annotations

import threading
import time

from companion.live import Hub


class _Store:
    """Only what the hub asks of a store: a table's version, and hearing of other processes'
    writes (there are none) while anyone listens."""

    class _Snapshot:
        version = 1

    def read(self, table_id):
        return self._Snapshot()

    def watch(self, listened, publish, poll):
        while listened() is not None:
            time.sleep(0.01)


def _listeners(hub: Hub, count: int):
    """`count` phones listening to table T; returns what ends them."""
    opened = [hub.listen("T", 1) for _ in range(count)]
    for listening in opened:
        listening.__enter__()
    return lambda: [listening.__exit__(None, None, None) for listening in opened]


def test_phones_woken_together_make_their_message_once_and_share_it():
    hub = Hub(_Store())
    stop = _listeners(hub, 8)
    made, answers = [], []

    def make():
        made.append(1)
        time.sleep(0.1)  # a read from the store that lets the other phones run meanwhile
        return object()

    phones = [threading.Thread(target=lambda: answers.append(hub.once("T", 1, make))) for _ in range(8)]
    for phone in phones:
        phone.start()
    for phone in phones:
        phone.join(5)
    stop()
    assert len(made) == 1 and len(answers) == 8
    assert all(answer is answers[0] for answer in answers)


def test_a_failed_making_is_not_shared_and_each_waiting_phone_tries_itself():
    hub = Hub(_Store())
    stop = _listeners(hub, 3)
    first = threading.Event()
    calls, answers, errors = [], [], []

    def make():
        calls.append(1)
        if len(calls) == 1:
            first.set()
            time.sleep(0.1)
            raise OSError("the database went away")
        return "message"

    def phone():
        try:
            answers.append(hub.once("T", 1, make))
        except OSError as err:
            errors.append(err)

    leader = threading.Thread(target=phone)
    leader.start()
    first.wait(5)
    others = [threading.Thread(target=phone) for _ in range(2)]
    for thread in others:
        thread.start()
    for thread in [leader, *others]:
        thread.join(5)
    stop()
    assert len(errors) == 1 and answers == ["message", "message"]
    assert len(calls) == 3  # the failure was not kept: each waiting phone made its own
