"""``p2pcards demo``: bots play a full match between separate processes over loopback TCP.

The demo starts ``python -m p2pcards host ... --bot --listen 127.0.0.1:0`` (port 0: the system
picks a free port, and the host's invite line tells the real one), reads the invite from the
host's output and hands it to one ``join - --bot`` process per other seat (started at the
same time as the host, so that interpreters start in parallel), relays the host's progress
lines (a live spinner on a terminal, plain lines otherwise), waits for every process, then
verifies the host's transcript with :func:`p2pcards.verify.verify_transcript` (every signature,
chain link, shuffle proof, reveal token, move and score), and prints the result, the timings
and the transcript's absolute path. Every peer uses a fresh identity key for the demo; the
user's own key is not touched.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console

from ..games import get_game
from ..genesis import Genesis
from ..play_ui import side_names
from ..transcript import read_transcript
from ..verify import UnreadableTranscript, verify_transcript

__all__ = ["run_demo", "INVITE_PREFIX", "TRANSCRIPT_PREFIX"]

INVITE_PREFIX = "p2pcards join "
TRANSCRIPT_PREFIX = "transcript ("
EXIT_FAILED = 3


def _command(*args: str) -> list[str]:
    return [sys.executable, "-m", "p2pcards", *args]


def run_demo(*, game: str = "scopa", players: int = 2, variant: str | None = None,
             seed: int | None = None, console: Console | None = None) -> int:
    """Run the demo; returns the exit status (0, or 3 when a process or the check failed)."""
    console = console or Console(highlight=False, soft_wrap=True)
    spec = get_game(game)
    preset = variant or spec.default_preset
    spec.preset(preset, players=players)  # a bad combination fails here, before any process
    options = ["--game", spec.name, "--variant", preset]
    seeded = ["--seed", str(seed)] if seed is not None else []
    console.print(f"demo: {spec.title}, preset {preset}, {players} bot players, each in its own "
                  "process, over loopback TCP, with mental poker")
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    processes: list[subprocess.Popen[str]] = []
    with tempfile.TemporaryDirectory(prefix="p2pcards-demo-") as scratch:
        errors = [Path(scratch, f"stderr-{i}.txt") for i in range(players)]
        started = time.perf_counter()
        try:
            host = subprocess.Popen(
                _command("host", *options, "--players", str(players), "--bot",
                         "--listen", "127.0.0.1:0", "--ephemeral-identity", "--name", "host",
                         *seeded),
                stdout=subprocess.PIPE, stderr=errors[0].open("w"), stdin=subprocess.DEVNULL,
                text=True, env=env)
            processes.append(host)
            joiners = _start_joiners(players, scratch, seeded, errors, env)
            processes.extend(joiners)
            followed = _follow_host(host, joiners, console)
            codes = [p.wait() for p in processes]
        finally:
            for process in processes:
                if process.poll() is None:
                    process.kill()
                    process.wait()
        wall = time.perf_counter() - started
        failed = [(i, c) for i, c in enumerate(codes) if c != 0]
        for i, code in failed:
            who = "host" if i == 0 else f"joiner {i}"
            text = errors[i].read_text().strip().splitlines()
            console.print(f"{who} exited with status {code}: {text[-1] if text else '?'}")
    if followed.transcript is None:
        console.print("demo failed: the host wrote no transcript")
        return EXIT_FAILED
    return _report(followed, wall, console, bool(failed))


def _start_joiners(players: int, scratch: str, seeded: Sequence[str], errors: Sequence[Path],
                   env: dict[str, str]) -> list[subprocess.Popen[str]]:
    """The joiner processes, started at once; each reads the invite from its standard input."""
    return [
        subprocess.Popen(
            _command("join", "-", "--bot", "--ephemeral-identity", "--name", f"bot {seat}",
                     "--transcript", str(Path(scratch, f"joiner-{seat}.p2pt")), *seeded),
            stdout=subprocess.DEVNULL, stderr=errors[seat].open("w"), stdin=subprocess.PIPE,
            text=True, env=env)
        for seat in range(1, players)
    ]


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


def _follow_host(host: subprocess.Popen[str], joiners: Sequence[subprocess.Popen[str]],
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
                invite = line[len(INVITE_PREFIX):].strip()
                console.print(f"invite: {invite}")
                for joiner in joiners:
                    assert joiner.stdin is not None
                    joiner.stdin.write(invite + "\n")
                    joiner.stdin.close()
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
