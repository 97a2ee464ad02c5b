"""The resident builder: `spellpress build` hands its work to a process that stays up.

After a small edit, most of a build's time went before anything was drawn: starting Python,
importing pydantic, reportlab and Pillow, laying out every card again. So the first
`spellpress build` in a project directory starts a builder in the background that keeps all
of that warm, and later builds there send it their arguments over a Unix socket and print
what it answers. It builds exactly as the command would (the same code, reading every file
afresh), one request at a time, and leaves after IDLE_SECONDS without one.

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
import traceback
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .session import BuildSession

IDLE_SECONDS = int(os.environ.get("SPELLPRESS_RESIDENT_IDLE", 20 * 60))
SWITCH = "SPELLPRESS_RESIDENT"


def supported() -> bool:
    """Unix sockets and file locks: Linux, macOS, the BSDs (not Windows, which builds in-process)."""
    return os.name == "posix" and hasattr(socket, "AF_UNIX")


def enabled() -> bool:
    return supported() and os.environ.get(SWITCH, "1") != "0"


def _code_version() -> str:
    """The Python running and every source file of Spellpress as it is on disk now."""
    digest = hashlib.sha256(f"{sys.executable}\0{sys.version}".encode())
    root = Path(__file__).resolve().parents[1]
    for folder, subfolders, files in os.walk(root):
        subfolders[:] = sorted(d for d in subfolders if d != "__pycache__")
        for name in sorted(f for f in files if f.endswith(".py")):
            st = os.stat(os.path.join(folder, name))
            digest.update(f"{folder}/{name}\0{st.st_mtime_ns}\0{st.st_size}\0".encode())
    return digest.hexdigest()


def _runtime_dir() -> Path:
    base = os.environ.get("XDG_RUNTIME_DIR")
    path = Path(base) / "spellpress" if base else Path(f"/tmp/spellpress-{os.getuid()}")
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    st = path.stat()
    if st.st_uid != os.getuid() or st.st_mode & 0o077:
        raise PermissionError(f"{path} must belong to you alone (mode 700) to hold a builder's socket")
    return path


def address(project: Path) -> Path:
    """The socket of the builder for `project` and this code."""
    name = hashlib.sha256(f"{_code_version()}\0{project.resolve()}".encode()).hexdigest()[:24]
    return _runtime_dir() / f"{name}.sock"


# ---------------------------------------------------------------------------- the command's side


def build_there(argv: list[str]) -> int | None:
    """Runs `spellpress build ARGV` in this directory's builder and prints what it prints; the
    exit status, or None when no builder answered in full (the caller then builds itself)."""
    try:
        path = address(Path.cwd())
        conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        conn.connect(str(path))
    except OSError:
        return None
    with conn, conn.makefile("rb") as answers:
        try:
            conn.sendall(json.dumps({"argv": argv, "cwd": os.getcwd()}).encode() + b"\n")
            for line in answers:
                message = json.loads(line)
                if "exit" in message:
                    return message["exit"]
                stream = sys.stdout if "out" in message else sys.stderr
                stream.write(message.get("out", message.get("err", "")))
                stream.flush()
        except (OSError, ValueError):
            pass
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
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
            conn.settimeout(5)
            conn.connect(str(address(Path.cwd())))
            conn.sendall(json.dumps(request).encode() + b"\n")
            with conn.makefile("rb") as answer:
                return json.loads(answer.readline())
    except (OSError, ValueError):
        return None


def status() -> dict | None:
    """This directory's builder (its pid and how many builds it made), or None."""
    return _ask({"status": True, "cwd": os.getcwd()})


def stop() -> bool:
    """Stops this directory's builder once it has finished any build; whether one was up."""
    return _ask({"stop": True, "cwd": os.getcwd()}) is not None


# ---------------------------------------------------------------------------- the builder's side


class _Lines:
    """A text stream whose writes go to the command as JSON lines (`out` or `err`)."""

    def __init__(self, conn: socket.socket, key: str):
        self.conn, self.key = conn, key

    def write(self, text: str) -> int:
        with contextlib.suppress(OSError):  # the command was interrupted: the build goes on
            self.conn.sendall(json.dumps({self.key: text}).encode() + b"\n")
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False


class _Builder:
    builds = 0
    stopping = False


def _answer(conn: socket.socket, session: BuildSession) -> None:
    from . import cli

    with conn.makefile("rb") as requests:
        request = json.loads(requests.readline())
    if Path(request.get("cwd") or "").resolve() != Path.cwd().resolve():
        return  # not this builder's directory: the command builds itself
    if "status" in request or "stop" in request:
        _Builder.stopping = "stop" in request
        conn.sendall(json.dumps({"pid": os.getpid(), "builds": _Builder.builds, "cwd": os.getcwd()}).encode() + b"\n")
        return
    _Builder.builds += 1
    out, err = _Lines(conn, "out"), _Lines(conn, "err")
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = cli.build_here(request["argv"], session)
        except SystemExit as exc:  # argparse refused the arguments
            code = exc.code if isinstance(exc.code, int) else 2
        except Exception:  # a fault of ours: logged, and the command builds itself
            traceback.print_exc(file=sys.__stderr__)
            return
    with contextlib.suppress(OSError):
        conn.sendall(json.dumps({"exit": code}).encode() + b"\n")


def serve() -> None:
    import fcntl

    path = address(Path.cwd())
    lock = open(path.with_suffix(".lock"), "w")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return  # another builder serves this directory already
    with contextlib.suppress(FileNotFoundError):
        path.unlink()
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(path))
    server.listen(16)
    server.settimeout(IDLE_SECONDS)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    from . import build  # noqa: F401 (imported now, while nobody waits)
    from .session import BuildSession

    session = BuildSession()  # the layouts and faces every build here reuses

    try:
        while not _Builder.stopping:
            try:
                conn, _ = server.accept()
            except TimeoutError:
                break
            with conn:
                conn.settimeout(None)
                with contextlib.suppress(OSError, ValueError):
                    _answer(conn, session)
    finally:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()


if __name__ == "__main__":
    serve()
