"""Leaving a match on purpose, with real processes over loopback TCP: SIGINT or SIGTERM to a
seat without a terminal sends its signed ``leave`` (SPEC §11.7.6) and every other seat is told
by name at once; Ctrl-C at a terminal (a pseudo-terminal here) asks first. Every transcript
verifies as far as its chain went."""

from __future__ import annotations

import fcntl
import os
import re
import shlex
import signal
import subprocess
import sys
import termios
import threading
import time
from pathlib import Path

import pytest
from test_net_processes import BRISCOLA_2, DEADLINE, Peer, host, join

from p2pcards.verify import verify_transcript


def started(peer: Peer) -> None:
    """Wait until ``peer`` plays (its session runs and takes signals)."""
    peer.wait_for(r"^— hand 1 begins")


def incomplete_and_valid(peer: Peer) -> None:
    report = verify_transcript(peer.transcript())
    assert report.status == "incomplete", report.violation
    assert report.verified > 0


@pytest.mark.parametrize("sent", [signal.SIGINT, signal.SIGTERM])
def test_a_signalled_joiner_leaves_and_the_host_names_it(tmp_path: Path,
                                                         sent: signal.Signals) -> None:
    hosting, invite = host(tmp_path / "host", *BRISCOLA_2, "--bot", "--name", "Alba",
                           "--move-timeout", "600")
    joiner = join(tmp_path / "joiner", invite, "--bot", "--name", "Bruno")
    started(joiner)
    started(hosting)
    joiner.process.send_signal(sent)
    assert joiner.finish() == 130, joiner.stderr
    assert hosting.finish() == 3, hosting.stderr
    assert joiner.stderr == "p2pcards: you left the table; the match is abandoned"
    assert hosting.stderr == "p2pcards: Bruno left the match"
    for peer in (hosting, joiner):
        incomplete_and_valid(peer)


def test_a_signalled_host_leaves_and_every_joiner_is_told_its_name(tmp_path: Path) -> None:
    hosting, invite = host(tmp_path / "host", "--game", "scopa", "--players", "3", "--bot",
                           "--name", "Alba", "--dropout", "off")
    joiners = [join(tmp_path / name, invite, "--bot", "--accept", "--name", name)
               for name in ("Bruno", "Carla")]
    for peer in (hosting, *joiners):
        started(peer)
    hosting.process.send_signal(signal.SIGTERM)
    assert hosting.finish() == 130, hosting.stderr
    for joiner in joiners:
        assert joiner.finish() == 3, joiner.stderr
        assert joiner.stderr == "p2pcards: Alba left the match"
    for peer in (hosting, *joiners):
        incomplete_and_valid(peer)


def test_a_joiner_that_leaves_a_three_seat_table_is_named_to_the_other_joiner(
        tmp_path: Path) -> None:
    hosting, invite = host(tmp_path / "host", "--game", "scopa", "--players", "3", "--bot",
                           "--name", "Alba", "--dropout", "off")
    bruno = join(tmp_path / "bruno", invite, "--bot", "--accept", "--name", "Bruno")
    bruno.wait_for(r"^seated at seat 1")
    carla = join(tmp_path / "carla", invite, "--bot", "--accept", "--name", "Carla")
    for peer in (hosting, bruno, carla):
        started(peer)
    bruno.process.send_signal(signal.SIGINT)
    assert bruno.finish() == 130, bruno.stderr
    assert hosting.finish() == 3 and carla.finish() == 3, (hosting.stderr, carla.stderr)
    assert hosting.stderr == "p2pcards: Bruno left the match"
    assert carla.stderr == "p2pcards: Bruno left the match"
    for peer in (hosting, bruno, carla):
        incomplete_and_valid(peer)


def test_a_joiner_that_types_q_is_named_on_the_hosts_screen(tmp_path: Path) -> None:
    hosting, invite = host(tmp_path / "host", *BRISCOLA_2, "--bot", "--name", "Alba")
    joiner = join(tmp_path / "joiner", invite, "--name", "Bruno", stdin="y\nq\ny\n")
    assert joiner.finish() == 130, joiner.stderr
    assert hosting.finish() == 3, hosting.stderr
    assert hosting.stderr == "p2pcards: Bruno left the match"
    assert "aborted" not in hosting.stderr and "you left" not in hosting.stderr
    for peer in (hosting, joiner):
        incomplete_and_valid(peer)


class Terminal:
    """``p2pcards ARGS`` on a pseudo-terminal that is its controlling terminal, so that a typed
    Ctrl-C (``\\x03``) is a SIGINT from the terminal, as for a person; what it prints is
    collected."""

    def __init__(self, home: Path, *args: str) -> None:
        master, slave = os.openpty()
        env = dict(os.environ, P2PCARDS_HOME=str(home), PYTHONUNBUFFERED="1", COLUMNS="100",
                   TERM="dumb")

        def controlling_terminal() -> None:
            os.setsid()
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)

        self.process = subprocess.Popen(
            [sys.executable, "-m", "p2pcards", *args], env=env, stdin=slave, stdout=slave,
            stderr=slave, preexec_fn=controlling_terminal, close_fds=True)
        os.close(slave)
        self.master = master
        self.text = ""
        self._lock = threading.Lock()
        self._reader = threading.Thread(target=self._collect, daemon=True)
        self._reader.start()

    def _collect(self) -> None:
        while True:
            try:
                chunk = os.read(self.master, 4096)
            except OSError:
                return  # the other end closed
            if not chunk:
                return
            with self._lock:
                self.text += chunk.decode("utf-8", "replace")

    def wait_for(self, pattern: str, after: int = 0) -> re.Match[str]:
        """The first match of ``pattern`` in the output from offset ``after`` (waits for it)."""
        end = time.monotonic() + DEADLINE
        regex = re.compile(pattern, re.MULTILINE)
        while time.monotonic() < end:
            with self._lock:
                found = regex.search(self.text, after)
            if found:
                return found
            if self.process.poll() is not None and not self._reader.is_alive():
                break
            time.sleep(0.02)
        raise AssertionError(f"no output matching {pattern!r}; output {self.text!r}")

    def type(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    def finish(self) -> int:
        code = self.process.wait(DEADLINE)
        self._reader.join(DEADLINE)
        os.close(self.master)
        return code


def test_ctrl_c_at_a_terminal_asks_and_a_yes_tells_the_others(tmp_path: Path) -> None:
    person = Terminal(tmp_path / "host", "host", "--listen", "127.0.0.1:0",
                      "--ephemeral-identity", *BRISCOLA_2, "--name", "Alba")
    try:
        invite = shlex.split(person.wait_for(r"^p2pcards join (.+?)\r?$")[1])[0]
        joiner = join(tmp_path / "joiner", invite, "--bot", "--name", "Bruno")
        started(joiner)
        begun = person.wait_for(r"— hand 1 begins").end()
        person.type("\x03")
        asked = person.wait_for(r"leave the match\? \(y/N\)", begun).end()
        person.type("n\r")
        stayed = person.wait_for(r"staying at the table", asked).end()
        person.type("\x03")
        person.wait_for(r"leave the match\? \(y/N\)", stayed)
        person.type("y\r")
        assert person.finish() == 130, person.text
    finally:
        if person.process.poll() is None:
            person.process.kill()
    assert "you left the table; the match is abandoned" in person.text
    assert joiner.finish() == 3, joiner.stderr
    assert joiner.stderr == "p2pcards: Alba left the match"
    incomplete_and_valid(joiner)
    transcript = re.search(r"transcript \(incomplete\): (\S+)", person.text)
    assert transcript is not None, person.text
    assert verify_transcript(Path(transcript[1])).status == "incomplete"
