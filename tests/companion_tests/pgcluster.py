"""A throwaway PostgreSQL cluster for the tests: initdb and pg_ctl in a temporary directory, on
a free port of loopback, stopped and removed at the end. Debian's `postgresql` package brings
the programs (scripts/system-deps installs it for `make test`); missing, the tests fail, they
never skip. Run as root (a container), the cluster runs as the `postgres` user (or `nobody`):
PostgreSQL refuses to run as root."""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

# Settings for speed: a test's cluster need not survive a power cut.
FAST = ["fsync=off", "synchronous_commit=off", "full_page_writes=off", "max_connections=200", "listen_addresses=127.0.0.1"]


def bindir() -> Path | None:
    """Where initdb and pg_ctl are: beside each other on PATH, else Debian's newest version."""
    for name in ("pg_ctl", "initdb"):
        found = shutil.which(name)
        if found:
            folder = Path(os.path.realpath(found)).parent
            if (folder / "initdb").exists() and (folder / "pg_ctl").exists() and (folder / "postgres").exists():
                return folder
    found = [Path(p).parent for p in glob.glob("/usr/lib/postgresql/*/bin/pg_ctl")]
    found.sort(key=lambda folder: int(folder.parent.name) if folder.parent.name.isdigit() else 0)
    return found[-1] if found else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    def __init__(self) -> None:
        folder = bindir()
        if folder is None:
            raise RuntimeError("PostgreSQL's initdb and pg_ctl are missing: apt-get install postgresql "
                               "(make test installs it as root on Debian; the tests never skip)")
        self.bin = folder
        self.user = None
        if os.geteuid() == 0:
            name = "postgres" if _exists("postgres") else "nobody"
            self.user = pwd.getpwnam(name)
        # as root, in /tmp: the cluster's user must reach it (a root's TMPDIR may be closed to it)
        self.dir = Path(tempfile.mkdtemp(prefix="spellpress-pg-", dir="/tmp" if self.user else None))
        if self.user:
            os.chown(self.dir, self.user.pw_uid, self.user.pw_gid)
        self.data = self.dir / "data"
        self.port = _free_port()
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}"

    def _run(self, *args: str) -> None:
        kw = {"user": self.user.pw_uid, "group": self.user.pw_gid, "extra_groups": []} if self.user else {}
        done = subprocess.run([str(a) for a in args], capture_output=True, text=True, cwd=self.dir, **kw)
        if done.returncode:
            raise RuntimeError(f"{Path(args[0]).name} failed: {done.stderr or done.stdout}")

    def start(self) -> Cluster:
        self._run(self.bin / "initdb", "-D", self.data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync",
                  "--no-instructions")
        options = " ".join(f"-c {o}" for o in FAST) + f" -p {self.port} -k {self.dir}"
        self._run(self.bin / "pg_ctl", "-D", self.data, "-l", self.dir / "log", "-o", options, "-w", "-t", "30", "start")
        return self

    def stop(self) -> None:
        try:
            self._run(self.bin / "pg_ctl", "-D", self.data, "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)

    def create_database(self, name: str) -> str:
        import psycopg

        with psycopg.connect(self.url + "/postgres", autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return f"{self.url}/{name}"

    def drop_database(self, name: str) -> None:
        import psycopg

        with psycopg.connect(self.url + "/postgres", autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _exists(user: str) -> bool:
    try:
        pwd.getpwnam(user)
        return True
    except KeyError:
        return False


def wait_for(check, seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise TimeoutError
        time.sleep(0.05)
