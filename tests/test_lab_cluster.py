"""`spellpress simulate --cluster`: the same batches played on a real local Dask cluster (two
worker processes) give the same report, byte for byte, as one process; an address nobody answers
at is said in one line, soon."""

import time

import pytest

from spellpress.cli import main
from spellpress.lab import cluster


@pytest.fixture(scope="module")
def scheduler():
    """A scheduler and two worker processes on this machine. The workers are forked from this
    process, which has distributed and spellpress imported already: about 1 s to start, where
    spawned ones (Dask's default) take 10 s and more on this loaded two-core machine."""
    import dask
    from distributed import LocalCluster

    with dask.config.set({"distributed.worker.multiprocessing-method": "fork"}), \
            LocalCluster(n_workers=2, processes=True, threads_per_worker=1, host="127.0.0.1", dashboard_address="127.0.0.1:0") as local:
        yield local.scheduler_address


def _cli(capsys, *args):
    code = main(["simulate", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("args", [
    # Spellchamber's constants hold read-only mappings that plain pickle refuses: the plan still travels
    ("spellchamber", "--games", "200", "--seed", "4", "--json", "--policy", "greedy"),
    # a sweep keeps one client for all its values; PowerMage 54's plan pickles plainly
    ("powermage-54", "--games", "30", "--seed", "9", "--policy", "greedy", "random", "--vary", "hand_limit=5..6"),
])
def test_a_cluster_gives_the_same_bytes_as_one_process(capsys, scheduler, args):
    code, one, _ = _cli(capsys, *args, "--workers", "1")
    assert code == 0 and one
    code, remote, err = _cli(capsys, *args, "--cluster", scheduler)
    assert code == 0, err
    assert remote == one


def test_the_cluster_plays_the_batches_it_is_sent(scheduler, cards_dir):
    """The games really are played over there, in batches spread over both workers."""
    from distributed import get_task_stream

    from spellpress.core import load_games
    from spellpress.lab.engine import batches, play_batch
    from spellpress.lab.run import plan_for

    plan = plan_for(load_games(cards_dir, ["spellchamber"])[0], 2, None, None)
    with cluster.connect(scheduler) as client, get_task_stream(client) as stream:
        tally = cluster.run(client, plan, 80)
    assert tally.games == 80 and tally == play_batch(plan, 0, 80)
    played = [task for task in stream.data if task["key"].startswith("play_batch")]
    assert len(played) == len(batches(80, 2)) == 8
    assert len({task["worker"] for task in played}) == 2


def test_cluster_and_workers_are_refused_together(capsys):
    code, out, err = _cli(capsys, "spellchamber", "--games", "10", "--cluster", "tcp://127.0.0.1:9", "--workers", "2")
    assert code == 2 and out == ""
    assert "--cluster and --workers 2 go one at a time" in err and err.count("\n") == 1


@pytest.mark.parametrize("address, says", [
    ("tcp://127.0.0.1:9", "no Dask scheduler answers there ("),
    ("no-port-here", "it needs a host and a port number"),
    ("http://127.0.0.1:8786", "unknown address scheme 'http'"),
    ("tcp://127.0.0.1:99999", "port 99999 is not a port number"),
])
def test_an_unreachable_or_bad_address_is_one_line_and_exit_2(capsys, monkeypatch, address, says):
    monkeypatch.setattr(cluster, "CONNECT_SECONDS", 1.0)
    start = time.perf_counter()
    code, out, err = _cli(capsys, "spellchamber", "--games", "10", "--cluster", address)
    assert code == 2 and out == ""
    assert err.startswith(f"spellpress simulate: --cluster {address}: ") and says in err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert time.perf_counter() - start < 5, "said after the connect timeout, not hung"


def test_without_distributed_installed_it_says_how_to_get_it(capsys, monkeypatch):
    monkeypatch.setattr(cluster, "distributed", None)  # as cluster.py finds it when `import distributed` fails
    code, _, err = _cli(capsys, "spellchamber", "--games", "10", "--cluster", "tcp://127.0.0.1:9")
    assert code == 2 and "pip install 'spellpress[cluster]'" in err


def test_a_scheduler_with_no_workers_is_said_not_waited_on(capsys, monkeypatch):
    from distributed import LocalCluster

    monkeypatch.setattr(cluster, "CONNECT_SECONDS", 1.0)
    with LocalCluster(n_workers=0, processes=False, protocol="tcp", host="127.0.0.1", dashboard_address="127.0.0.1:0") as empty:
        code, out, err = _cli(capsys, "spellchamber", "--games", "10", "--cluster", empty.scheduler_address)
    assert code == 2 and out == ""
    assert err == (f"spellpress simulate: --cluster {empty.scheduler_address}: the scheduler has no workers; "
                   f"start some with `dask worker {empty.scheduler_address}`\n")


@pytest.fixture(params=["silent", "garbage"])
def impostor(request):
    """A real TCP listener that takes connections and then says nothing, or answers with bytes
    that are no Dask message."""
    import socket
    import threading

    listener = socket.create_server(("127.0.0.1", 0))
    taken = []

    def serve():
        while True:
            try:
                peer, _ = listener.accept()
            except OSError:
                return
            taken.append(peer)
            if request.param == "garbage":
                peer.sendall(b"\xff" * 64 + b"garbage" * 100)

    threading.Thread(target=serve, daemon=True).start()
    yield request.param, f"tcp://127.0.0.1:{listener.getsockname()[1]}"
    listener.close()
    for peer in taken:
        peer.close()


def test_a_peer_that_is_no_scheduler_is_said_in_one_line_soon(capsys, monkeypatch, impostor):
    """Before: the silent peer kept simulate waiting past 100 s; the garbage one gave a traceback
    after 10 s (distributed closing its half-made client)."""
    kind, address = impostor
    monkeypatch.setattr(cluster, "CONNECT_SECONDS", 1.0)
    start = time.perf_counter()
    code, out, err = _cli(capsys, "spellchamber", "--games", "10", "--cluster", address)
    assert code == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert ("says nothing in 1 s" if kind == "silent" else "answers, but not as a Dask scheduler") in err
    assert time.perf_counter() - start < 4
