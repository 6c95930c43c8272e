"""``p2pcards`` processes for the tests, forked from interpreters that have already imported the
package, instead of each paying for an interpreter start-up and its imports (about half a second
of CPU a process, hundreds of processes a run).

Each test process (an xdist worker, or pytest itself) starts, on first use, two *starters*:
``python tests/starter.py``, a small single-threaded server that imports what the commands
import and then waits for requests on a Unix socket. :func:`start` sends one a command line, an
environment, a working directory and the three standard streams (as file descriptors); the
starter forks, and the child runs ``p2pcards/__main__.py`` exactly as ``python -m p2pcards``
does (:func:`runpy.run_module`, with the interpreter's own exit: its status, a traceback and
status 1 for an uncaught exception, death by SIGINT for an uncaught ``KeyboardInterrupt``,
threads joined and streams flushed). The child is a real OS process with its own pid, sockets,
files and signals; the starter reaps it and sends its exit status back, so the test holds a
:class:`Started` with the :class:`subprocess.Popen` methods the tests use (``poll``, ``wait``,
``kill``, ``terminate``, ``send_signal``, ``pid``, ``stdin``, ``stdout``, ``stderr``).

Processes a test starts one after the other go to the two starters in turn, and each starter
has its own random string hash seed, so two peers of one match never share one (as two
commands started by two people would not): nothing a peer computes can silently depend on the
order of a set of strings being the same at every seat.

Where forking is not available (no :func:`os.fork` or :func:`os.pidfd_open`), or where
``P2PCARDS_TEST_START=spawn`` asks for it, :func:`start` starts ``python -m p2pcards`` with
:mod:`subprocess` instead; both run the same code.
"""

from __future__ import annotations

import atexit
import contextlib
import itertools
import json
import locale
import os
import select
import selectors
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, Any, Protocol

START_ENV = "P2PCARDS_TEST_START"
"""``spawn`` makes :func:`start` use :mod:`subprocess`; anything else (or unset) forks where
it can."""

_STATUS_LIMIT = 64
_REQUEST_LIMIT = 1 << 20


class Process(Protocol):
    """What the tests use of a started process: :class:`subprocess.Popen` and :class:`Started`
    both have it."""

    pid: int
    stdin: IO[str] | None
    stdout: IO[str] | None
    stderr: IO[str] | None
    returncode: int | None

    def poll(self) -> int | None: ...
    def wait(self, timeout: float | None = None) -> int: ...
    def kill(self) -> None: ...
    def terminate(self) -> None: ...
    def send_signal(self, sig: int) -> None: ...


# ----------------------------------------------------------------------------- the test side


class Started:
    """A ``p2pcards`` process forked by a starter: the :class:`subprocess.Popen` methods the
    tests use. Its exit status arrives on ``reply`` (one line, the status as
    :attr:`subprocess.Popen.returncode` gives it: negative for a signal)."""

    def __init__(self, pid: int, reply: _Lines, streams: Sequence[IO[str] | None],
                 args: Sequence[str]) -> None:
        self.pid = pid
        self.args = list(args)
        self.stdin, self.stdout, self.stderr = streams
        self.returncode: int | None = None
        self._reply = reply
        self._lock = threading.Lock()

    def poll(self) -> int | None:
        """The exit status, or ``None`` while the process runs."""
        return self._read_status(0.0)

    def wait(self, timeout: float | None = None) -> int:
        """The exit status once the process has exited; raises
        :class:`subprocess.TimeoutExpired` after ``timeout`` seconds."""
        status = self._read_status(timeout)
        if status is None:
            raise subprocess.TimeoutExpired(self.args, timeout or 0.0)
        return status

    def send_signal(self, sig: int) -> None:
        """Send ``sig`` to the process, unless it has already been reaped."""
        if self.poll() is None:
            os.kill(self.pid, sig)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def _read_status(self, timeout: float | None) -> int | None:
        with self._lock:
            if self.returncode is None:
                line = self._reply.line(timeout)
                if line is not None:
                    self.returncode = int(line)
                    self._reply.close()
            return self.returncode


class _Lines:
    """The lines a starter sends about one child (its pid, then its exit status)."""

    def __init__(self, connection: socket.socket) -> None:
        self._connection = connection
        self._buffer = b""

    def line(self, timeout: float | None) -> bytes | None:
        """The next line, or ``None`` if none is complete after ``timeout`` seconds."""
        while b"\n" not in self._buffer:
            readable, _, _ = select.select([self._connection], [], [], timeout)
            if not readable:
                return None
            chunk = self._connection.recv(_STATUS_LIMIT)
            if not chunk:
                raise RuntimeError("the test starter ended before the process it started; "
                                   "see its standard error")
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line

    def close(self) -> None:
        self._connection.close()


class _Starter:
    """One starter process and the socket its requests go to."""

    def __init__(self) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        env = dict(os.environ)
        env.pop("PYTHONHASHSEED", None)  # each starter draws its own
        self.process = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), str(theirs.fileno())],
            pass_fds=[theirs.fileno()], stdin=subprocess.DEVNULL, env=env)
        theirs.close()
        self.requests = ours
        self._lock = threading.Lock()

    def stop(self) -> None:
        self.requests.close()
        try:
            self.process.wait(60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def fork(self, args: Sequence[str], env: Mapping[str, str], cwd: str,
             stdio: Sequence[int]) -> tuple[int, _Lines]:
        """Ask for a child running ``p2pcards ARGS``; its pid and the socket its status comes
        on."""
        reply, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        request = json.dumps({"args": list(args), "env": dict(env), "cwd": cwd}).encode()
        try:
            with self._lock:
                socket.send_fds(self.requests, [request], [theirs.fileno(), *stdio])
        finally:
            theirs.close()
        lines = _Lines(reply)
        pid = lines.line(None)
        assert pid is not None
        return int(pid), lines


_STARTERS: list[_Starter] = []
_TURN = itertools.count()
_STARTERS_LOCK = threading.Lock()


def forking() -> bool:
    """Whether :func:`start` forks (else it runs ``python -m p2pcards``)."""
    return (os.environ.get(START_ENV) != "spawn" and hasattr(os, "fork")
            and hasattr(os, "pidfd_open") and hasattr(socket, "send_fds"))


def _next_starter() -> _Starter:
    with _STARTERS_LOCK:
        if not _STARTERS:
            _STARTERS.extend(_Starter() for _ in range(2))
            atexit.register(_stop_starters)
        return _STARTERS[next(_TURN) % len(_STARTERS)]


def _stop_starters() -> None:
    """Close the starters' sockets (each then exits; the processes they started run on until
    they end) and reap them."""
    for starter in _STARTERS:
        starter.stop()


_Stream = int | IO[Any] | None


def start(args: Sequence[str], *, env: Mapping[str, str], stdin: _Stream = None,
          stdout: _Stream = None, stderr: _Stream = None) -> Process:
    """``p2pcards ARGS`` as a new process, with ``env`` as its whole environment and the
    streams given as :class:`subprocess.Popen` takes them (``PIPE``, ``DEVNULL``, ``STDOUT``
    for ``stderr``, a file, a descriptor, or ``None`` for this process's own); pipes are text
    in the locale's encoding, as with ``Popen(text=True)``."""
    if not forking():
        return subprocess.Popen([sys.executable, "-m", "p2pcards", *args], env=dict(env),
                                stdin=stdin, stdout=stdout, stderr=stderr, text=True)
    ends = _Ends()
    try:
        child_in = ends.child_end(stdin, 0, write=False)
        child_out = ends.child_end(stdout, 1, write=True)
        child_err = child_out if stderr == subprocess.STDOUT else ends.child_end(stderr, 2,
                                                                                  write=True)
        pid, reply = _next_starter().fork(args, env, os.getcwd(),
                                          [child_in, child_out, child_err])
    finally:
        ends.close_child_ends()
    return Started(pid, reply, ends.our_streams(), args)


class _Ends:
    """The pipes and files of one start: the child's ends (closed here once the starter has
    its copies) and this process's ends, as text streams."""

    def __init__(self) -> None:
        self._child: list[int] = []
        self._ours: dict[int, IO[str]] = {}

    def child_end(self, given: _Stream, target: int, *, write: bool) -> int:
        """The descriptor the child gets as its standard stream ``target``."""
        if given is None:
            return target
        if given == subprocess.PIPE:
            read_end, write_end = os.pipe()
            child, ours = (write_end, read_end) if write else (read_end, write_end)
            self._child.append(child)
            encoding = locale.getpreferredencoding(False)
            self._ours[target] = open(ours, "r" if write else "w", encoding=encoding,  # noqa: SIM115
                                      **({} if write else {"buffering": 1}))
            return child
        if given == subprocess.DEVNULL:
            null = os.open(os.devnull, os.O_RDWR)
            self._child.append(null)
            return null
        if isinstance(given, int):
            return given
        return given.fileno()

    def close_child_ends(self) -> None:
        for descriptor in self._child:
            os.close(descriptor)
        self._child.clear()

    def our_streams(self) -> tuple[IO[str] | None, IO[str] | None, IO[str] | None]:
        return self._ours.get(0), self._ours.get(1), self._ours.get(2)


# ----------------------------------------------------------------------------- the starter


def _preload() -> None:
    """Import what the commands the tests run import on their way (the peers' network, Trio,
    the crypto libraries, every game and its bots, the relay, the web table, the verifier)."""
    import encodings.idna  # noqa: F401 - Trio resolves host names with it

    import cryptography.hazmat.backends.openssl  # noqa: F401 - loaded on a key's first use
    import trio  # noqa: F401

    import p2pcards.faces.web  # noqa: F401
    import p2pcards.net.session  # noqa: F401
    import p2pcards.relay  # noqa: F401
    import p2pcards.verify  # noqa: F401
    from p2pcards.bots import make_bot
    from p2pcards.cli import build_parser
    from p2pcards.games import all_games

    build_parser()
    for game in all_games():
        make_bot(game.name, "smart", 0)


class _Child(Exception):
    """Raised in a forked child to leave the starter's loop with its request."""

    def __init__(self, request: dict[str, Any]) -> None:
        super().__init__()
        self.request = request


def _serve(requests: socket.socket) -> None:
    """Fork a child for every request until the test process closes its socket. Raises
    :class:`_Child` in each child, with everything of the starter's closed."""
    events = selectors.DefaultSelector()
    events.register(requests, selectors.EVENT_READ)
    running: dict[int, tuple[int, socket.socket]] = {}  # pidfd: (pid, reply)
    while True:
        for key, _ in events.select():
            if key.fileobj is requests:
                message, fds, _, _ = socket.recv_fds(requests, _REQUEST_LIMIT, 4)
                if not message:
                    return
                reply = socket.socket(fileno=fds[0])
                pid = os.fork()
                if pid == 0:
                    for pidfd, (_, other) in running.items():
                        os.close(pidfd)
                        other.close()
                    events.close()
                    requests.close()
                    reply.close()
                    _take_streams(fds[1:])
                    raise _Child(json.loads(message))
                for descriptor in fds[1:]:
                    os.close(descriptor)
                _tell(reply, pid)
                pidfd = os.pidfd_open(pid)
                running[pidfd] = (pid, reply)
                events.register(pidfd, selectors.EVENT_READ)
            else:
                pidfd = key.fd
                pid, reply = running.pop(pidfd)
                events.unregister(pidfd)
                os.close(pidfd)
                _, status = os.waitpid(pid, 0)
                _tell(reply, os.waitstatus_to_exitcode(status))
                reply.close()


def _tell(reply: socket.socket, number: int) -> None:
    """Send ``number`` as a line on ``reply``; a test that no longer listens (it let go of the
    process without waiting for it) is not told."""
    with contextlib.suppress(OSError):
        reply.sendall(b"%d\n" % number)


def _take_streams(fds: Sequence[int]) -> None:
    """Make ``fds`` the standard streams 0, 1, 2 (closing the received copies)."""
    for target, descriptor in enumerate(fds):
        if descriptor != target:
            os.dup2(descriptor, target)
    for descriptor in set(fds) - {0, 1, 2}:
        os.close(descriptor)


def _become(request: dict[str, Any]) -> None:
    """Set up this forked child as ``python -m p2pcards ARGS`` would start: its environment,
    working directory, ``sys.path[0]`` and text streams as the interpreter makes them."""
    os.environ.clear()
    os.environ.update(request["env"])
    os.chdir(request["cwd"])
    sys.path[0] = os.getcwd()
    unbuffered = bool(os.environ.get("PYTHONUNBUFFERED"))
    encoding, _, errors = (os.environ.get("PYTHONIOENCODING") or "").partition(":")
    encoding = encoding or sys.stdout.encoding
    sys.stdin = sys.__stdin__ = open(0, encoding=encoding, errors=errors or None,  # noqa: SIM115
                                     closefd=False)
    sys.stdout = sys.__stdout__ = _writer(1, encoding, errors or "strict", unbuffered)
    sys.stderr = sys.__stderr__ = _writer(2, encoding, "backslashreplace", unbuffered,
                                          line_buffering=True)
    sys.argv = ["-m", *request["args"]]


def _writer(descriptor: int, encoding: str, errors: str, unbuffered: bool, *,
            line_buffering: bool = False) -> IO[str]:
    import io

    raw = io.FileIO(descriptor, "w", closefd=False)
    binary: IO[bytes] = raw if unbuffered else io.BufferedWriter(raw)  # type: ignore[assignment]
    return io.TextIOWrapper(binary, encoding=encoding, errors=errors,  # type: ignore[arg-type]
                            line_buffering=line_buffering or raw.isatty(),
                            write_through=unbuffered)


def _main(fd: int) -> None:
    """Preload, serve, and in each forked child run ``p2pcards/__main__.py`` as ``python -m
    p2pcards`` runs it (outside the ``except`` clause, so that nothing of the starter is the
    context of an exception the command lets out)."""
    import runpy

    _preload()
    request: dict[str, Any] | None = None
    try:
        _serve(socket.socket(fileno=fd))
    except _Child as child:
        request = child.request
    if request is not None:
        _become(request)
        runpy.run_module("p2pcards", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    _main(int(sys.argv[1]))
