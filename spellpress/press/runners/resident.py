"""The resident builder: `spellpress build` hands its work to a process that stays up.

After a small edit, most of a build's time went before anything was drawn: starting Python,
importing pydantic, reportlab and Pillow, laying out every card again. So the first
`spellpress build` in a project directory starts a builder in the background that keeps all
of that warm, and later builds there send it what they are asked for (their Options, as JSON)
over a Unix socket and print what it answers. It builds exactly as the command would (the same code, reading every file
afresh), one build at a time, and leaves after IDLE_SECONDS without one.

It must never leave a command hanging. Its main thread only takes connections, and a thread
answers each, so `spellpress resident status` and `stop` are answered during a build, and
`stop` ends it at once. A build has BUILD_SECONDS: past them, the builder tells its command
that it gave up and ends itself (a thread stuck in a build cannot be stopped), and the next
build starts a fresh one. A builder that does not take a request within ANSWER_SECONDS, or
says nothing for SILENT_SECONDS during a build (it sends a heartbeat meanwhile), is wedged: the
command ends it, builds in its own process and starts a fresh builder.

A builder serves one project directory and one version of Spellpress's code: the socket's
name is made of both, so an upgraded or edited Spellpress starts a builder of its own and the
old one idles out. Sockets live in a directory only their user can enter. When no builder
answers, or one fails, the command builds in its own process, as it always could.
SPELLPRESS_RESIDENT=0 (or `spellpress build --here`) never uses or starts one.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import traceback
from pathlib import Path
from typing import TYPE_CHECKING

from ..model.options import Options

try:
    import fcntl
except ImportError:  # not on this system (Windows): it has no resident builder (see supported)
    fcntl = None  # type: ignore[assignment]  # a module that may be missing: beyond mypy (python/mypy#1297)

if TYPE_CHECKING:
    from collections.abc import Callable

    from ..model.session import BuildSession

SWITCH = "SPELLPRESS_RESIDENT"


def _seconds(name: str, default: float) -> float:
    """A number of seconds from the environment, else the default (also for a value that is not
    a positive number: a typo must not turn a limit off)."""
    try:
        value = float(os.environ.get(name, default))
    except ValueError:
        return default
    return value if value > 0 else default


IDLE_SECONDS = _seconds("SPELLPRESS_RESIDENT_IDLE", 20 * 60)  # a builder leaves after this long without a build
# A build the builder has not finished after this long is given up (docs/printing.md: The resident builder):
# a cold build of every game with booklets takes about a minute on two cores; ten is room for
# a slow machine, and a build that takes longer than that is stuck.
BUILD_SECONDS = _seconds("SPELLPRESS_RESIDENT_TIMEOUT", 10 * 60)
CONNECT_SECONDS = 2.0  # for a builder's socket to take the connection
ANSWER_SECONDS = _seconds("SPELLPRESS_RESIDENT_ANSWER", 5.0)  # for a builder to take a request: it does at once, unless wedged
HEARTBEAT_SECONDS = 2.0  # while a build runs or waits its turn, its command hears this often that it goes on
SILENT_SECONDS = _seconds("SPELLPRESS_RESIDENT_SILENT", 30.0)  # a builder that says nothing this long during a build is wedged


def supported() -> bool:
    """Unix sockets and file locks: Linux, macOS, the BSDs (not Windows, which builds in-process)."""
    return os.name == "posix" and hasattr(socket, "AF_UNIX")


def enabled() -> bool:
    return supported() and os.environ.get(SWITCH, "1") != "0"


def _code_version() -> str:
    """The Python running and every source file of Spellpress as it is on disk now."""
    digest = hashlib.sha256(f"{sys.executable}\0{sys.version}".encode())
    root = Path(__file__).resolve().parents[2]
    for folder, subfolders, files in os.walk(root):
        subfolders[:] = sorted(d for d in subfolders if d != "__pycache__")
        for name in sorted(f for f in files if f.endswith(".py")):
            st = os.stat(os.path.join(folder, name))
            digest.update(f"{folder}/{name}\0{st.st_mtime_ns}\0{st.st_size}\0".encode())
    return digest.hexdigest()


_SOCKET_PATH_MAX = 103  # bytes of a Unix socket's path: 107 on Linux, 103 on macOS and the BSDs


def _runtime_dir() -> Path:
    base = os.environ.get("XDG_RUNTIME_DIR")
    path = Path(base) / "spellpress" if base else None
    if path is None or len(os.fsencode(path)) + len("/0123456789abcdef01234567.sock") > _SOCKET_PATH_MAX:
        path = Path(f"/tmp/spellpress-{os.getuid()}")  # a runtime directory too deep for a socket, or none
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    st = path.stat()
    if st.st_uid != os.getuid() or st.st_mode & 0o077:
        raise PermissionError(f"{path} must belong to you alone (mode 700) to hold a builder's socket")
    return path


def address(project: Path) -> Path:
    """The socket of the builder for `project` and this code."""
    name = hashlib.sha256(f"{_code_version()}\0{project.resolve()}".encode()).hexdigest()[:24]
    return _runtime_dir() / f"{name}.sock"


# ---------------------------------------------------------------------------- both sides


class _Lines:
    """JSON messages, one a line, over a socket: read with a deadline each (a builder that has
    stopped answering must not hang its command, nor a command its builder), sent whole even
    when two threads send at once."""

    LONGEST = 1 << 20  # a line longer than this is nobody's message

    def __init__(self, conn: socket.socket):
        self.conn, self.buffer, self.lock = conn, b"", threading.Lock()

    def read(self, seconds: float) -> dict | None:
        """The next message; None at the end of the connection; TimeoutError after `seconds`."""
        deadline = time.monotonic() + seconds
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError
            self.conn.settimeout(left)
            chunk = self.conn.recv(65536)
            if not chunk or len(self.buffer) > self.LONGEST:
                return None
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        message = json.loads(line)
        return message if isinstance(message, dict) else None

    def send(self, message: dict) -> bool:
        """Whether it was sent: a command interrupted, or stopped with ^Z for longer than a
        moment, loses what is said to it, and the build goes on."""
        data = json.dumps(message).encode() + b"\n"
        with self.lock:
            try:
                self.conn.settimeout(ANSWER_SECONDS)
                self.conn.sendall(data)
                return True
            except OSError:
                return False


def _lock_path(path: Path) -> Path:
    return path.with_suffix(".lock")


def _holder(path: Path) -> int | None:
    """The pid of the builder that holds the socket `path`'s lock, if one does: a builder holds
    it for as long as it lives (its workers close their copy), and writes its pid in it."""
    try:
        lock = open(_lock_path(path))
    except OSError:
        return None
    with lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except OSError:  # held: by a builder, alive, whose pid this is
            text = lock.read().strip()
            return int(text) if text.isdigit() else None
        fcntl.flock(lock, fcntl.LOCK_UN)
        return None


def _replace(path: Path, pid: int) -> None:
    """Ends a builder that does not answer (stopped, or wedged) and its workers, and removes its
    socket, so that the next build starts a fresh one. Only a process that holds this
    directory's lock, in this user's own runtime directory, is ended."""
    if _holder(path) != pid:
        return
    with contextlib.suppress(ProcessLookupError, PermissionError):
        if os.getpgid(pid) == pid:  # started in a session of its own: its workers are in its group
            os.killpg(pid, signal.SIGKILL)
        else:
            os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 5
    while _holder(path) == pid and time.monotonic() < deadline:
        time.sleep(0.05)
    with contextlib.suppress(FileNotFoundError):
        path.unlink()


def _connect(path: Path) -> socket.socket | None:
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        conn.settimeout(CONNECT_SECONDS)
        conn.connect(str(path))
        return conn
    except OSError:  # no socket, or nobody listening on it
        conn.close()
        return None


def duration(seconds: float) -> str:
    if seconds >= 120 and seconds % 60 == 0:
        return f"{seconds / 60:g} minutes"
    return f"{seconds:g} s"


# ---------------------------------------------------------------------------- the command's side


def build_there(options: Options) -> int | None:
    """Runs the build `options` ask for in this directory's builder and prints what it prints; the
    exit status, or None when no builder answered in full (the caller then builds itself, and
    starts a fresh builder). A builder that does not take the request within ANSWER_SECONDS,
    or falls silent for SILENT_SECONDS during the build, is wedged: it is ended and replaced."""
    try:
        path = address(Path.cwd())
    except OSError:
        return None
    conn = _connect(path)
    if conn is None:
        return None
    with conn:
        lines = _Lines(conn)
        if not lines.send({"build": options.as_json(), "cwd": os.getcwd()}):
            return None
        wait = ANSWER_SECONDS
        try:
            while True:
                message = lines.read(wait)
                if message is None:
                    return None
                if "exit" in message:
                    return int(message["exit"])
                wait = SILENT_SECONDS  # taken: from now on it says something every HEARTBEAT_SECONDS
                if "out" in message or "err" in message:
                    stream = sys.stdout if "out" in message else sys.stderr
                    stream.write(str(message.get("out", message.get("err", ""))))
                    stream.flush()
        except TimeoutError:
            pid = _holder(path)
            if pid:
                what = (f"did not take this build within {duration(wait)}" if wait == ANSWER_SECONDS
                        else f"fell silent for {duration(wait)} during this build")
                print(f"the resident builder (pid {pid}) {what}: it is ended, this build runs here, and a fresh "
                      "builder starts after it", file=sys.stderr)
                _replace(path, pid)
            return None
        except (OSError, ValueError, TypeError):
            return None


def start() -> None:
    """Starts this directory's builder in the background, unless one is already starting."""
    try:
        log = open(address(Path.cwd()).with_suffix(".log"), "ab")
    except OSError:
        return
    with log:
        subprocess.Popen([sys.executable, "-m", __name__], stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                         start_new_session=True, close_fds=True)


def _ask(request: dict) -> dict | None:
    """One request to this directory's builder and its one answer; None if none answers."""
    try:
        conn = _connect(address(Path.cwd()))
    except OSError:
        return None
    if conn is None:
        return None
    with conn:
        lines = _Lines(conn)
        try:
            return lines.read(ANSWER_SECONDS) if lines.send(request) else None
        except (OSError, ValueError, TimeoutError):
            return None


def status() -> dict | None:
    """This directory's builder: its pid, how many builds it made, since when it builds (if it
    does), or `wedged` when it holds its socket but does not answer; None when there is none."""
    found = _ask({"status": True, "cwd": os.getcwd()})
    if found is not None:
        return found
    pid = _holder(address(Path.cwd()))
    return {"pid": pid, "wedged": True} if pid else None


def stop() -> dict | None:
    """Stops this directory's builder at once, even during a build (that build's command is
    told), or ends it if it does not answer; what it was, or None when there was none."""
    found = _ask({"stop": True, "cwd": os.getcwd()})
    path = address(Path.cwd())
    pid = found.get("pid") if found else _holder(path)
    if found is None and pid:
        _replace(path, pid)
        return {"pid": pid, "wedged": True}
    if found is not None:  # it ends itself as it answers; wait until it has
        deadline = time.monotonic() + 5
        while _holder(path) == pid and time.monotonic() < deadline:
            time.sleep(0.05)
    return found


# ---------------------------------------------------------------------------- the builder's side


class _Output:
    """A text stream whose writes go to the command as `out` or `err` messages."""

    def __init__(self, lines: _Lines, key: str):
        self.lines, self.key = lines, key

    def write(self, text: str) -> int:
        self.lines.send({self.key: text})
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False


class _Builder:
    """One builder process: its main thread takes connections, a thread answers each, and
    builds run one at a time. A build past BUILD_SECONDS cannot be stopped inside this
    process (a thread cannot be killed), so the builder ends, and a fresh one replaces it."""

    def __init__(self, path: Path, session: BuildSession, run: Callable[[Options, BuildSession], int]):
        self.path, self.session, self.run = path, session, run  # run: runners/once.py's run_once
        self.builds = 0
        self.since: float | None = None  # when the build under way began (time.time())
        self.turn = threading.Lock()  # one build at a time: they share the session and the outputs
        self.waiting: dict[_Lines, bool] = {}  # the commands of builds under way or waiting: whether theirs began
        self.last = time.monotonic()  # the last build's end, for leaving when idle
        self.ending = threading.Lock()

    def idle(self) -> bool:
        return not self.waiting and time.monotonic() - self.last > IDLE_SECONDS

    def answer(self, conn: socket.socket) -> None:
        with conn:
            lines = _Lines(conn)
            try:
                request = lines.read(ANSWER_SECONDS)
            except (OSError, ValueError, TimeoutError):
                return
            if request is None or Path(request.get("cwd") or "").resolve() != Path.cwd().resolve():
                return  # not this builder's directory: the command builds itself
            if "status" in request:
                lines.send({"pid": os.getpid(), "builds": self.builds, "cwd": os.getcwd(), "since": self.since})
            elif "stop" in request:
                lines.send({"pid": os.getpid(), "builds": self.builds, "cwd": os.getcwd(), "since": self.since})
                self.end("the resident builder was stopped (`spellpress resident stop`)")
            elif "build" in request:
                self.build(lines, request)

    def build(self, lines: _Lines, request: dict) -> None:
        """Runs the build in a thread of its own, and meanwhile tells the command it goes on,
        until it ends or runs out of time."""
        lines.send({"taken": os.getpid()})
        self.waiting[lines] = False
        done = threading.Event()
        result: dict = {}

        def run() -> None:
            with self.turn:
                self.waiting[lines] = True
                self.since, began[0] = time.time(), time.monotonic()
                self.builds += 1
                try:
                    code = self._run(request, lines)
                    if code is not None:  # else a fault of ours, logged: the command builds itself
                        result["exit"] = code
                finally:
                    self.since, self.last = None, time.monotonic()
                    done.set()

        began = [0.0]
        threading.Thread(target=run, name="build", daemon=True).start()
        try:
            while not done.wait(HEARTBEAT_SECONDS):
                lines.send({"alive": True})
                if began[0] and time.monotonic() - began[0] > BUILD_SECONDS:
                    self.end(f"the resident builder gave up on this build after {duration(BUILD_SECONDS)} "
                             "(SPELLPRESS_RESIDENT_TIMEOUT)")
        finally:
            self.waiting.pop(lines, None)
        if "exit" in result:
            lines.send({"exit": result["exit"]})

    def _run(self, request: dict, lines: _Lines) -> int | None:
        with contextlib.redirect_stdout(_Output(lines, "out")), contextlib.redirect_stderr(_Output(lines, "err")):
            try:
                return self.run(Options.from_json(request["build"]), self.session)
            except Exception:
                traceback.print_exc(file=sys.__stderr__)
                return None

    def end(self, why: str = "") -> None:
        """Ends this process now, whatever it is doing: the commands of builds under way or
        waiting are told why, its workers are ended with it, and its socket is removed."""
        with self.ending:
            for lines, began in list(self.waiting.items()):
                if began:
                    lines.send({"err": f"{why}: every file it finished is whole, and the rest are as they were. It has "
                                       "stopped; the next `spellpress build` starts a fresh one (`--here` builds in "
                                       "the command's own process).\n"})
                else:
                    lines.send({"err": f"{why} before this build began; nothing was built. Build again.\n"})
                lines.send({"exit": 1})
            with contextlib.suppress(FileNotFoundError):
                self.path.unlink()
            import multiprocessing  # here: every command imports this module, and only a builder needs it

            for child in multiprocessing.active_children():
                child.kill()
            if why:
                print(f"{time.strftime('%H:%M:%S')} {why}", file=sys.__stderr__)
            if sys.__stderr__ is not None:  # None only where Python runs with no console (pythonw)
                sys.__stderr__.flush()
            os._exit(0)


def serve() -> None:
    path = address(Path.cwd())
    lock = open(_lock_path(path), "a+")  # not "w": that would empty a running builder's pid
    for _ in range(50):  # a command that asks who holds it holds it for a moment
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            break
        except OSError:
            time.sleep(0.02)
    else:
        return  # another builder serves this directory already
    lock.truncate(0)
    lock.write(str(os.getpid()))
    lock.flush()
    with contextlib.suppress(FileNotFoundError):
        path.unlink()
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(path))
    server.listen(16)
    server.settimeout(min(IDLE_SECONDS, 5.0))
    # A build's workers are forked from here: they must hold neither the lock (it says this
    # process lives) nor the socket (a command would reach a worker). What they print goes to
    # this builder's log, not into a command's answer.
    def forked() -> None:
        server.close()
        lock.close()
        sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__

    os.register_at_fork(after_in_child=forked)
    # imported here, now that nobody waits: every build command imports this module, and only a
    # builder builds (these load the renderers)
    from ..model.session import BuildSession
    from .once import run_once

    builder = _Builder(path, BuildSession(), run_once)  # the layouts and faces every build here reuses
    signal.signal(signal.SIGTERM, lambda *_: builder.end())
    while not builder.idle():
        try:
            conn, _ = server.accept()
        except TimeoutError:
            continue
        threading.Thread(target=builder.answer, args=(conn,), name="answer", daemon=True).start()
    builder.end()


if __name__ == "__main__":
    serve()
