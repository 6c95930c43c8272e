"""``p2pcards demo``: bots play a full match between separate processes over loopback TCP.

The demo runs one peer process per seat: the host (what ``p2pcards host ... --bot --listen
127.0.0.1:0 --ephemeral-identity`` runs; port 0 lets the system pick a free port, and the host's
invite line tells the real one) and one joiner per other seat (what ``p2pcards join - --bot
--ephemeral-identity`` runs, reading the invite from its standard input). Every peer process
runs that very command line through :func:`p2pcards.cli.main`, has its own sockets, its own
fresh identity key and its own transcript; they talk to each other over real loopback TCP only.

How the peer processes start (:data:`START_ENV`, or the ``start`` argument of
:func:`run_demo`):

- ``fork`` (the default where available: POSIX with :func:`os.fork`, not macOS, and this
  process still has a single thread): each peer is a child forked from the demo process, which
  has already imported the code the peers run, so no peer pays for an interpreter start-up or
  its imports; its standard streams are pipes and files, as for a started command.
- ``spawn`` (the fallback elsewhere): each peer is ``python -m p2pcards host|join ...`` started
  with :mod:`subprocess`; the joiners start together with the host, so that the interpreters
  start in parallel.

The demo relays the host's progress lines (a live spinner on a terminal, plain lines otherwise),
hands the invite to the joiners, waits for every process, then verifies the host's transcript
with :func:`p2pcards.verify.verify_transcript` (every signature, chain link, shuffle proof,
reveal token, move and score), and prints the result, the timings and the transcript's absolute
path. The match wall time runs from starting the first peer process to the exit of the last,
so with ``fork`` it holds no interpreter start-up (as an in-memory match in one process holds
no imports); the verification is timed on its own. The user's own identity key is not touched.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Literal, Protocol

from rich.console import Console

from ..faces.terminal import side_names
from ..games import get_game
from ..records.transcript import read_transcript
from ..seating.genesis import Genesis
from ..seating.rules import parse_settings, show_value
from ..verify import UnreadableTranscript, verify_transcript
from .errors import EXIT_USAGE, UserError, run_command
from .play import bot_option, check_bot, parse_address, settings_option
from .play import register as register_play

__all__ = ["run_demo", "fork_available", "choose_start", "DemoStartError", "StartMethod",
           "START_ENV", "LOCAL_RELAY", "INVITE_PREFIX", "TRANSCRIPT_PREFIX", "register",
           "peer_parser"]

INVITE_PREFIX = "p2pcards join "
TRANSCRIPT_PREFIX = "transcript ("
EXIT_FAILED = 3

LOCAL_RELAY = "local"
"""``relay`` value of :func:`run_demo` that starts a relay process for the demo."""

StartMethod = Literal["fork", "spawn"]
START_ENV = "P2PCARDS_DEMO_START"
"""Environment variable choosing how the peers start: ``fork``, ``spawn`` or ``auto`` (default)."""

_ENCODING = "utf-8"


class DemoStartError(UserError):
    """A start method that is unknown, or ``fork`` where forking is not available (exit 2)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, EXIT_USAGE)


def fork_available() -> bool:
    """Whether peers can be forked safely here: :func:`os.fork` exists, the platform is not
    macOS (whose system libraries may not survive a fork) and this process has one thread (a
    child of a threaded process could inherit a lock some other thread holds)."""
    return (hasattr(os, "fork") and sys.platform != "darwin"
            and threading.active_count() == 1)


def choose_start(requested: str | None = None) -> StartMethod:
    """The start method for ``requested`` (``fork``, ``spawn``, ``auto``; ``None`` reads
    :data:`START_ENV`, and ``auto`` when that is unset): ``auto`` is ``fork`` where
    :func:`fork_available`, else ``spawn``. Raises :class:`DemoStartError` for an unknown name
    or for ``fork`` where it is not available."""
    where = ""
    if requested is None:
        requested = os.environ.get(START_ENV, "") or "auto"
        where = f" in {START_ENV}"
    method = requested.strip().lower()
    if method == "auto":
        return "fork" if fork_available() else "spawn"
    if method == "spawn":
        return "spawn"
    if method == "fork":
        if not fork_available():
            raise DemoStartError("the demo cannot fork its peer processes here (no os.fork, "
                                 "macOS, or a thread is running); use spawn")
        return "fork"
    raise DemoStartError(f"unknown demo start method {requested!r}{where} "
                         "(fork, spawn or auto)")


_HOW = {"fork": "forked from this one", "spawn": "each started as python -m p2pcards"}


def run_demo(*, game: str = "scopa", players: int = 2, variant: str | None = None,
             seed: int | None = None, console: Console | None = None,
             start: str | None = None, relay: str | None = None,
             flags: Mapping[str, object] | None = None, bot: str = "smart") -> int:
    """Run the demo; returns the exit status (0, or 3 when a process or the check failed).

    ``bot`` is the bot every seat plays (``smart``, ``random`` or a user's ``module:callable``,
    see :mod:`p2pcards.bots.loader`).

    ``start`` is how the peer processes start (see :func:`choose_start`); an unknown or
    unavailable method raises :class:`DemoStartError` before any process starts, as a bad
    game, preset, player count or ``flags`` value raises :class:`p2pcards.games.base.GameError`.
    ``flags`` are house rules passed to the host as ``--set``; the joiners then get ``--accept``.

    ``relay`` plays through a relay instead of connecting the joiners to the host: ``"HOST:PORT"``
    of a running relay (a check of that relay from end to end), or :data:`LOCAL_RELAY` to start
    ``p2pcards relay`` on a free loopback port in one more process (before the clock starts; it
    is stopped with SIGTERM at the end).
    """
    console = console or Console(highlight=False, soft_wrap=True)
    spec = get_game(game)
    preset = variant or spec.default_preset
    flags = dict(flags or {})
    spec.preset(preset, players=players, **flags)  # a bad combination fails here, first
    method = choose_start(start)
    settings = [f"--set={name}={show_value(value)}" for name, value in flags.items()]
    options = ["--game", spec.name, "--variant", preset, *settings]
    accept = ["--accept"] if flags else []
    seeded = ["--seed", str(seed), "--insecure-public-keys"] if seed is not None else []
    route = "over loopback TCP" if relay is None else f"through the relay at {relay}"
    if relay == LOCAL_RELAY:
        route = "through a relay in one more local process"
    house = "".join(f", {name}={show_value(value)}" for name, value in flags.items())
    who = "bot players" if bot == "smart" else f"bot players ({bot})"
    console.print(f"demo: {spec.title}, preset {preset}{house}, {players} {who}, each in "
                  f"its own process ({_HOW[method]}), {route}, with mental poker")
    connect = (["--listen", "127.0.0.1:0"] if relay is None
               else ["--relay", relay, "--relay-only"])  # every frame through the relay
    host_args = ["host", *options, "--players", str(players), f"--bot={bot}", *connect,
                 "--ephemeral-identity", "--name", "host", *seeded]
    processes: list[_PeerProcess] = []
    codes: list[int] = []
    relay_process: _PeerProcess | None = None
    with tempfile.TemporaryDirectory(prefix="p2pcards-demo-") as scratch, \
            contextlib.ExitStack() as cleanup:
        errors = [Path(scratch, f"stderr-{i}.txt") for i in range(players)]
        joiner_args = [["join", "-", f"--bot={bot}", "--ephemeral-identity",
                         "--name", f"bot {seat}",
                        "--transcript", str(Path(scratch, f"joiner-{seat}.p2pt")), *seeded,
                        *accept]
                       for seat in range(1, players)]
        if method == "fork":
            _prepare_fork(spec.name)
        starter: _Forker | _Spawner = _Forker() if method == "fork" else _Spawner()
        if relay == LOCAL_RELAY:
            _flush(console)
            relay_log = Path(scratch, "relay.log")
            relay_process = starter.start(["relay", "--listen", "127.0.0.1:0"], relay_log)
            cleanup.callback(_stop_relay, relay_process, console)
            address = _relay_address(relay_process, relay_log)
            if address is None:
                console.print(f"demo failed: the local relay did not start: "
                              f"{_last_line(relay_log)}")
                return EXIT_FAILED
            console.print(f"relay: listening on {address} (process {relay_process.pid})")
            host_args[host_args.index(LOCAL_RELAY)] = address
        _flush(console)
        started = time.perf_counter()
        try:
            processes.append(starter.start(host_args, errors[0], pipe_stdout=True))
            for seat, args in enumerate(joiner_args, start=1):
                processes.append(starter.start(args, errors[seat], pipe_stdin=True))
            followed = _follow_host(processes[0], processes[1:], console)
            for joiner in processes[1:]:
                joiner.close()  # a host that never printed an invite: the joiners read the end
            codes = [p.wait() for p in processes]
        finally:
            for process in processes:
                process.kill()
                process.close()
        wall = time.perf_counter() - started
        failed = [(i, c) for i, c in enumerate(codes) if c != 0]
        for i, code in failed:
            who = "host" if i == 0 else f"joiner {i}"
            console.print(f"{who} exited with status {code}: {_last_line(errors[i])}")
    if followed.transcript is None:
        console.print("demo failed: the host wrote no transcript")
        return EXIT_FAILED
    return _report(followed, wall, console, bool(failed))


def _last_line(path: Path) -> str:
    """The last line a process wrote to its error file, or ``?``."""
    try:
        lines = path.read_text(errors="replace").strip().splitlines()
    except OSError:
        return "?"
    return lines[-1] if lines else "?"


RELAY_START_SECONDS = 15.0


def _relay_address(process: _PeerProcess, log: Path) -> str | None:
    """``127.0.0.1:PORT`` once the relay logs ``event=listening``; None if it exits or takes
    longer than :data:`RELAY_START_SECONDS`."""
    deadline = time.monotonic() + RELAY_START_SECONDS
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError):
            for line in log.read_text(errors="replace").splitlines():
                if line.startswith("event=listening "):
                    return line.split("address=", 1)[1].split()[0]
        if process.poll() is not None:
            return None
        time.sleep(0.02)
    return None


def _stop_relay(process: _PeerProcess, console: Console) -> None:
    """Stop the local relay gracefully (SIGTERM), or kill it if it does not stop."""
    process.terminate()
    code = process.wait_for(10.0)
    if code is None:
        process.kill()
        console.print("relay: did not stop within 10 s of SIGTERM; killed")
    elif code != 0:
        console.print(f"relay: exited with status {code}")
    process.close()


def _flush(console: Console) -> None:
    """Empty every output buffer, so that no forked child writes them out a second time."""
    console.file.flush()
    for stream in (sys.stdout, sys.stderr):
        if stream is not None:
            stream.flush()


def _prepare_fork(game: str) -> None:
    """Import in this process what the peers import on first use, before the clock starts."""
    import encodings.idna  # noqa: F401 - Trio resolves host names with it

    import cryptography.hazmat.backends.openssl  # noqa: F401 - loaded on a key's first use

    from ..bots import make_bot

    peer_parser()  # imports the modules of the commands the peers run
    make_bot(game, "smart", 0)


# ----------------------------------------------------------------------------- peer processes


class _PeerProcess(Protocol):
    """A running peer: its piped standard output or input (when asked for), and its exit."""

    @property
    def stdout(self) -> IO[str] | None: ...

    @property
    def stdin(self) -> IO[str] | None: ...

    def wait(self) -> int:
        """Wait for the exit; the status (minus the signal number when killed by one)."""

    @property
    def pid(self) -> int: ...

    def kill(self) -> None:
        """Kill the process unless it has already exited and been waited for."""

    def terminate(self) -> None:
        """Ask the process to stop (SIGTERM) unless it has already exited."""

    def poll(self) -> int | None:
        """The exit status if the process has exited, else None (does not block)."""

    def wait_for(self, seconds: float) -> int | None:
        """Wait at most ``seconds`` for the exit; its status, or None if still running."""

    def close(self) -> None:
        """Close the pipes this side holds."""


class _Spawned:
    """A ``python -m p2pcards`` process (the ``spawn`` method)."""

    def __init__(self, popen: subprocess.Popen[str]) -> None:
        self.popen = popen

    @property
    def stdout(self) -> IO[str] | None:
        return self.popen.stdout

    @property
    def stdin(self) -> IO[str] | None:
        return self.popen.stdin

    def wait(self) -> int:
        return self.popen.wait()

    @property
    def pid(self) -> int:
        return self.popen.pid

    def kill(self) -> None:
        if self.popen.poll() is None:
            self.popen.kill()
            self.popen.wait()

    def terminate(self) -> None:
        if self.popen.poll() is None:
            self.popen.terminate()

    def poll(self) -> int | None:
        return self.popen.poll()

    def wait_for(self, seconds: float) -> int | None:
        try:
            return self.popen.wait(seconds)
        except subprocess.TimeoutExpired:
            return None

    def close(self) -> None:
        for stream in (self.popen.stdout, self.popen.stdin):
            if stream is not None and not stream.closed:
                stream.close()


class _Spawner:
    def __init__(self) -> None:
        self.env = dict(os.environ, PYTHONUNBUFFERED="1", PYTHONIOENCODING=_ENCODING)

    def start(self, args: Sequence[str], stderr: Path, *, pipe_stdout: bool = False,
              pipe_stdin: bool = False) -> _Spawned:
        with stderr.open("w") as errors:
            popen = subprocess.Popen(
                [sys.executable, "-m", "p2pcards", *args], env=self.env, text=True,
                encoding=_ENCODING, stderr=errors,
                stdout=subprocess.PIPE if pipe_stdout else subprocess.DEVNULL,
                stdin=subprocess.PIPE if pipe_stdin else subprocess.DEVNULL)
        return _Spawned(popen)


class _Forked:
    """A child forked from this process (the ``fork`` method)."""

    def __init__(self, pid: int, stdout: IO[str] | None, stdin: IO[str] | None) -> None:
        self.pid = pid
        self._stdout = stdout
        self._stdin = stdin
        self.status: int | None = None

    @property
    def stdout(self) -> IO[str] | None:
        return self._stdout

    @property
    def stdin(self) -> IO[str] | None:
        return self._stdin

    def wait(self) -> int:
        if self.status is None:
            _, raw = os.waitpid(self.pid, 0)
            self.status = os.waitstatus_to_exitcode(raw)
        return self.status

    def kill(self) -> None:
        if self.status is None:
            os.kill(self.pid, signal.SIGKILL)
            self.wait()

    def terminate(self) -> None:
        if self.poll() is None:
            os.kill(self.pid, signal.SIGTERM)

    def poll(self) -> int | None:
        if self.status is None:
            pid, raw = os.waitpid(self.pid, os.WNOHANG)
            if pid != 0:
                self.status = os.waitstatus_to_exitcode(raw)
        return self.status

    def wait_for(self, seconds: float) -> int | None:
        deadline = time.monotonic() + seconds
        while self.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        return self.status

    def close(self) -> None:
        for stream in (self._stdout, self._stdin):
            if stream is not None and not stream.closed:
                with contextlib.suppress(BrokenPipeError):
                    stream.close()


class _Forker:
    """Forks peer children; each closes the pipe ends this process holds for the others."""

    def __init__(self) -> None:
        self.held: list[int] = []

    def start(self, args: Sequence[str], stderr: Path, *, pipe_stdout: bool = False,
              pipe_stdin: bool = False) -> _Forked:
        read_end, write_end = os.pipe() if pipe_stdout or pipe_stdin else (-1, -1)
        ours, theirs = (read_end, write_end) if pipe_stdout else (write_end, read_end)
        pid = os.fork()
        if pid == 0:  # the child: never returns
            _child(args, stderr, held=[*self.held, ours],
                   stdin=theirs if pipe_stdin else None,
                   stdout=theirs if pipe_stdout else None)
        if theirs >= 0:
            os.close(theirs)
        if ours >= 0:
            self.held.append(ours)
        stream = os.fdopen(ours, "r" if pipe_stdout else "w", encoding=_ENCODING) \
            if ours >= 0 else None
        return _Forked(pid, stream if pipe_stdout else None, stream if pipe_stdin else None)


def _child(args: Sequence[str], stderr: Path, *, held: Sequence[int], stdin: int | None,
           stdout: int | None) -> None:
    """Run ``p2pcards ARGS`` in a forked child with its own standard streams; exits with its
    status (1 and a traceback on standard error for an unexpected exception)."""
    status = 1
    try:
        for held_fd in held:
            if held_fd >= 0:
                os.close(held_fd)
        null = os.open(os.devnull, os.O_RDWR)
        errors = os.open(stderr, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        sources = [null if stdin is None else stdin, null if stdout is None else stdout, errors]
        for target, source in enumerate(sources):
            os.dup2(source, target)
        for source in set(sources) | {null}:
            if source > 2:
                os.close(source)
        sys.stdin = open(0, encoding=_ENCODING, closefd=False)  # noqa: SIM115
        sys.stdout = open(1, "w", encoding=_ENCODING, buffering=1, closefd=False)  # noqa: SIM115
        sys.stderr = open(2, "w", encoding=_ENCODING, errors="backslashreplace",  # noqa: SIM115
                          buffering=1, closefd=False)
        status = _run_cli(args)
    except BaseException:  # noqa: BLE001 - reported, and the child exits below whatever happens
        traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(BaseException):  # nothing left to report it to
                stream.flush()
        os._exit(status)


def _run_cli(args: Sequence[str]) -> int:
    """``p2pcards ARGS`` as ``python -m p2pcards`` runs it (for the commands a peer or the local
    relay runs), as an exit status."""
    try:
        return run_command(peer_parser(), list(args))
    except SystemExit as exc:  # argparse exits for --help and for bad usage
        code: object = exc.code
        if code is None or isinstance(code, int):
            return code or 0
        print(code, file=sys.stderr)
        return 1


# ----------------------------------------------------------------------------- progress


@dataclass
class _Followed:
    transcript: Path | None = None
    play_started: float | None = None
    play_ended: float | None = None

    @property
    def play_seconds(self) -> float | None:
        if self.play_started is None or self.play_ended is None:
            return None
        return self.play_ended - self.play_started


def _follow_host(host: _PeerProcess, joiners: Sequence[_PeerProcess],
                 console: Console) -> _Followed:
    """Relay the host's progress; hand its invite to the waiting joiners."""
    assert host.stdout is not None
    followed = _Followed()
    status = console.status("waiting for the host's invite") if console.is_terminal else None
    if status is not None:
        status.start()
    try:
        for raw in host.stdout:
            line = raw.rstrip("\n")
            if line.startswith(INVITE_PREFIX):
                invite = line[len(INVITE_PREFIX):].strip().strip("'")  # quoted for shells
                console.print(f"invite: {invite}")
                for joiner in joiners:
                    _hand_invite(joiner, invite)
                if status is not None:
                    status.update("seating the players")
            elif line.startswith(TRANSCRIPT_PREFIX):
                followed.transcript = Path(line.split(": ", 1)[1])
            elif line.startswith(("hand ", "— hand ", "match over", "every seat", "seat ")):
                if line.startswith("— hand") and status is not None:
                    status.update(f"playing {line[2:]}")
                elif not line.startswith("— hand"):
                    console.print(line)
                if line.startswith("every seat"):
                    followed.play_started = time.perf_counter()
                elif line.startswith("match over"):
                    followed.play_ended = time.perf_counter()
    finally:
        if status is not None:
            status.stop()
    return followed


def _hand_invite(joiner: _PeerProcess, invite: str) -> None:
    """Write the invite line to a joiner; one that has already died reports itself later."""
    assert joiner.stdin is not None
    with contextlib.suppress(BrokenPipeError):
        joiner.stdin.write(invite + "\n")
        joiner.stdin.close()


# ----------------------------------------------------------------------------- report


def _report(followed: _Followed, wall: float, console: Console, failed: bool) -> int:
    transcript = followed.transcript
    assert transcript is not None
    started = time.perf_counter()
    try:
        report = verify_transcript(transcript)
    except UnreadableTranscript as exc:
        console.print(f"verification FAILED: {exc}")
        return 1
    seconds = time.perf_counter() - started
    if report.status == "invalid":
        assert report.violation is not None
        v = report.violation
        console.print(f"verification FAILED at envelope {v.index}, seat {v.seat}: {v.message} "
                      f"[{v.rule}]")
        console.print(f"transcript: {transcript}")
        return 1
    if report.status == "incomplete":
        console.print(f"the transcript verifies but the match is incomplete "
                      f"({report.verified} of {report.envelopes} envelopes)")
        console.print(f"transcript: {transcript}")
        return EXIT_FAILED
    genesis = Genesis.decode(read_transcript(transcript).genesis)
    names = side_names(genesis, len(report.scores))
    shown = ", ".join(f"{n} {s}" for n, s in zip(names, report.scores, strict=True))
    winner = "none (a draw)" if report.winner_side is None else names[report.winner_side]
    console.print(f"verified {report.verified} envelopes: every signature, chain link, "
                  "shuffle proof, reveal token, move and score checks out")
    console.print(f"final scores: {shown}; winner: {winner}")
    play = followed.play_seconds
    detail = f", of which play {play:.2f} s" if play is not None else ""
    console.print(f"match wall time {wall:.2f} s (processes, handshake and play{detail}); "
                  f"verification {seconds:.2f} s")
    console.print(f"transcript: {transcript}")
    return EXIT_FAILED if failed else 0


def peer_parser() -> argparse.ArgumentParser:
    """The parser of the commands the demo's processes run: ``host``, ``join`` and ``relay``."""
    from . import relay

    parser = argparse.ArgumentParser(prog="p2pcards")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    register_play(sub)
    relay.register(sub)
    return parser


def _cmd_demo(args: argparse.Namespace) -> int:
    relay = args.relay
    if relay is not None and relay != LOCAL_RELAY:
        host, port = parse_address(relay, "--relay")
        relay = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    flags = parse_settings(get_game(args.game).name, args.set)
    check_bot(args.bot)
    return run_demo(game=args.game, players=args.players, variant=args.variant, seed=args.seed,
                    relay=relay, flags=flags, bot=args.bot or "smart")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``demo`` to the ``p2pcards`` parser."""
    demo = sub.add_parser("demo", help="bots play a full match between local processes")
    demo.add_argument("--game", default="scopa", help="game (default: scopa)")
    demo.add_argument("--players", type=int, default=2, help="number of players (default: 2)")
    demo.add_argument("--variant", help="preset of the game")
    settings_option(demo)
    demo.add_argument("--seed", type=int, help="make the match reproducible")
    bot_option(demo, "the bot every seat plays")
    demo.add_argument("--relay", nargs="?", const="local", metavar="HOST[:PORT]",
                      help="play through a relay: the one at HOST:PORT (default port 7447), or "
                           "without a value a relay the demo starts in one more local process")
    demo.set_defaults(handler=_cmd_demo)
