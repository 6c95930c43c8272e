"""Peers in separate processes over loopback TCP: refusals, a killed peer, a silent peer, garbage.

Also the helpers the other process tests import (:class:`Peer`, :func:`host`, :func:`join`).
Waits have generous deadlines only so that a broken build fails instead of hanging; no test
asserts on a duration.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import trio
from starter import Process, start

from p2pcards.net.errors import PeerGone
from p2pcards.net.framed import FramedStream
from p2pcards.net.handshake import join_table, receive_genesis
from p2pcards.net.seats import seat_secrets
from p2pcards.seating.invite import Invite
from p2pcards.verify import verify_transcript

DEADLINE = 300.0  # a hang guard only: whole matches on a loaded 2-core machine take minutes
BRISCOLA_2 = ("--game", "briscola", "--variant", "italian", "--players", "2")


class Peer:
    """A ``p2pcards`` process (:func:`starter.start`: forked from an interpreter that has
    imported the package, and run as ``python -m p2pcards`` runs) whose output is collected
    line by line; ``script`` runs that Python file instead (a test's patched program) with the
    same arguments; ``wrap`` is a command prefix (``ip netns exec NS`` of :mod:`netlab`)."""

    def __init__(self, home: Path, *args: str, stdin: str | None = None,
                 script: Path | None = None, wrap: tuple[str, ...] = ()) -> None:
        env = dict(os.environ, P2PCARDS_HOME=str(home), PYTHONUNBUFFERED="1")
        self.args = args
        streams = {"stdin": subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                   "stdout": subprocess.PIPE, "stderr": subprocess.PIPE}
        self.process: Process
        if script is None and not wrap:
            self.process = start(args, env=env, **streams)
        else:
            program = [str(script)] if script is not None else ["-m", "p2pcards"]
            self.process = subprocess.Popen([*wrap, sys.executable, *program, *args], env=env,
                                            text=True, **streams)
        self.out: list[str] = []
        self.err: list[str] = []
        self._threads = [threading.Thread(target=self._collect, args=(s, d), daemon=True)
                         for s, d in ((self.process.stdout, self.out),
                                      (self.process.stderr, self.err))]
        for thread in self._threads:
            thread.start()
        if stdin is not None:
            assert self.process.stdin is not None
            self.process.stdin.write(stdin)
            self.process.stdin.flush()

    @staticmethod
    def _collect(stream: object, into: list[str]) -> None:
        for line in stream:  # type: ignore[attr-defined]
            into.append(line.rstrip("\n"))

    def wait_for(self, pattern: str) -> re.Match[str]:
        """The first stdout line matching ``pattern`` (waits for it)."""
        end = time.monotonic() + DEADLINE
        regex = re.compile(pattern)
        while time.monotonic() < end:
            for line in list(self.out):
                found = regex.search(line)
                if found:
                    return found
            if self.process.poll() is not None and not self._threads[0].is_alive():
                break
            time.sleep(0.02)
        raise AssertionError(f"no line matching {pattern!r}; stdout {self.out}, "
                             f"stderr {self.err}")

    def finish(self) -> int:
        """The process's exit status, once it has exited and its output is all read. A
        process still running after :data:`DEADLINE` is killed, and the test fails with what
        it printed (a hang shows where it stopped instead of a bare timeout)."""
        try:
            code = self.process.wait(DEADLINE)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(DEADLINE)
            self._join_readers()
            raise AssertionError(
                f"p2pcards {' '.join(self.args)} did not exit within {DEADLINE:.0f} s and was "
                f"killed; stdout:\n{self.stdout}\nstderr:\n{self.stderr}") from None
        self._join_readers()
        return code

    def _join_readers(self) -> None:
        for thread in self._threads:
            thread.join(DEADLINE)

    @property
    def stdout(self) -> str:
        return "\n".join(self.out)

    @property
    def stderr(self) -> str:
        return "\n".join(self.err)

    def transcript(self) -> Path:
        return Path(self.wait_for(r"^transcript \((?:in)?complete\): (.+)$")[1])

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.finish()


def host(home: Path, *args: str, stdin: str | None = None) -> tuple[Peer, str]:
    """A hosting peer on a free loopback port, and its invite."""
    peer = Peer(home, "host", "--listen", "127.0.0.1:0", "--ephemeral-identity", *args,
                stdin=stdin)
    line = peer.wait_for(r"^(?:p2pcards join (\S+)|hosting .*, so nobody needs an invite)$")
    return peer, line[1] or ""


def join(home: Path, invite: str, *args: str, stdin: str | None = None) -> Peer:
    return Peer(home, "join", invite, "--ephemeral-identity", *args, stdin=stdin)


def joined_fingerprint(host_peer: Peer, seat: int) -> str:
    return host_peer.wait_for(rf"^seat {seat} \(([A-Z2-7-]+)\) joined")[1]


# ----------------------------------------------------------------------------- tests


def test_wrong_and_stale_invites_are_refused_and_garbage_does_not_stop_the_host(
        tmp_path: Path) -> None:
    hosting, invite = host(tmp_path, *BRISCOLA_2, "--bot")
    parsed = Invite.parse(invite)
    with socket.create_connection((parsed.host, parsed.port)) as raw:
        raw.sendall(b"GET / HTTP/1.0\r\n\r\n")  # an oversized length prefix
        assert raw.recv(100) == b""
    hosting.wait_for(r"^refused .*oversized frame")

    stale = str(Invite(parsed.host, parsed.port, bytes(16), parsed.fingerprint))
    wrong_nonce = join(tmp_path, stale, "--bot")
    assert wrong_nonce.finish() == 3
    assert re.fullmatch(r"p2pcards: the host at .* refused: this host is not hosting the table "
                        r"of that invite \(the invite is wrong or stale; .*\)",
                        wrong_nonce.stderr)
    impostor = str(Invite(parsed.host, parsed.port, parsed.nonce, "AAAA-AAAA-AAAA-AAAA"))
    wrong_key = join(tmp_path, impostor, "--bot")
    assert wrong_key.finish() == 3
    assert "this is not the host who sent the invite" in wrong_key.stderr

    guest = join(tmp_path, invite, "--bot")
    assert (guest.finish(), hosting.finish()) == (0, 0), (guest.stderr, hosting.stderr)
    assert verify_transcript(hosting.transcript()).status == "valid"

    late = join(tmp_path, invite, "--bot")
    assert late.finish() == 3
    assert re.fullmatch(r"p2pcards: could not connect to 127\.0\.0\.1:\d+: .*refused.*",
                        late.stderr)
    assert "Traceback" not in hosting.stderr + guest.stderr + late.stderr


def test_a_late_joiner_reads_that_the_table_is_full(tmp_path: Path) -> None:
    hosting, invite = host(tmp_path, *BRISCOLA_2, stdin="")  # a person who never moves
    guest = join(tmp_path, invite, "--bot")
    hosting.wait_for(r"^every seat is taken")
    try:
        late = join(tmp_path, invite, "--bot")
        assert late.finish() == 3
        assert re.fullmatch(r"p2pcards: the host at .* refused: the table is full", late.stderr)
        assert "Traceback" not in late.stderr
    finally:
        hosting.kill()
        guest.kill()


def test_two_people_on_one_machine_and_one_account_can_play(tmp_path: Path) -> None:
    """Host and joiner share one P2PCARDS_HOME and its stored identity (no
    --ephemeral-identity): the joiner finds the identity taken, plays with a fresh one, and
    says so; a second joiner of a 3-seat table does the same. (Italian Briscola, three hands:
    a whole 3-seat match between processes to 31 is test_net_matches.py's Tressette.)"""
    home = tmp_path / "shared-home"
    hosting = Peer(home, "host", "--listen", "127.0.0.1:0", "--game", "briscola",
                   "--variant", "italian", "--players", "3", "--bot")
    invite = hosting.wait_for(r"^p2pcards join (\S+)$")[1]
    guests = [Peer(home, "join", invite, "--bot") for _ in range(2)]
    codes = [g.finish() for g in guests] + [hosting.finish()]
    assert codes == [0, 0, 0], [p.stderr for p in [*guests, hosting]]
    stored = hosting.wait_for(r"^created your identity (\S+) in ")[1]
    fresh = [g.wait_for(r"so this seat uses a fresh identity for this match: (\S+)$")[1]
             for g in guests]
    assert len({stored, *fresh}) == 3
    report = verify_transcript(hosting.transcript())
    assert report.status == "valid"
    assert sorted(s.fingerprint for s in report.seats) == sorted([stored, *fresh])


def test_an_invite_to_a_service_that_is_not_p2pcards_says_so(tmp_path: Path) -> None:
    with socket.create_server(("127.0.0.1", 0)) as server:
        port = server.getsockname()[1]

        def banner() -> None:
            connection, _ = server.accept()
            with connection:
                connection.sendall(b"SSH-2.0-OpenSSH_9.6\r\n")
                connection.recv(1000)

        thread = threading.Thread(target=banner, daemon=True)
        thread.start()
        invite = str(Invite("127.0.0.1", port, bytes(16), "AAAA-AAAA-AAAA-AAAA"))
        guest = join(tmp_path, invite, "--bot")
        assert guest.finish() == 3
        assert guest.stderr == (f"p2pcards: 127.0.0.1:{port} is not a p2pcards host (it "
                                "answered 'SSH-2.0-OpenSSH_9.6'); check the invite's address "
                                "and port")
        thread.join(10)


@pytest.mark.parametrize("how", ["killed", "silent"])
def test_a_peer_that_dies_or_stops_answering_mid_hand_is_named(tmp_path: Path,
                                                               how: str) -> None:
    hosting, invite = host(tmp_path, *BRISCOLA_2, "--bot", "--move-timeout", "5")
    person = join(tmp_path, invite, "--accept", stdin="")  # asked to move, never types
    fingerprint = joined_fingerprint(hosting, 1)
    person.wait_for(r"^ +1\. ")  # the moves are listed: the prompt is next
    if how == "killed":
        person.process.kill()
    else:
        person.process.send_signal(signal.SIGSTOP)
    try:
        assert hosting.finish() == 3
    finally:
        person.kill()
    if how == "killed":
        expected = (f"p2pcards: seat 1 ({fingerprint}) left the table: the connection closed, "
                    "and did not come back within 5 seconds")  # --return-wait: the timeout
    else:
        expected = f"p2pcards: seat 1 ({fingerprint}) did not answer within 5 seconds"
    assert hosting.stderr == expected
    report = verify_transcript(hosting.transcript())
    assert report.status == "incomplete", report
    assert hosting.wait_for(r"^transcript \(incomplete\)")


async def evil_joiner(invite: str, attack: bytes) -> None:
    """Take a seat properly, wait for the genesis, then send ``attack`` raw on the stream."""
    parsed = Invite.parse(invite)
    stream = await trio.open_tcp_stream(parsed.host, parsed.port)
    framed = FramedStream(stream, label="the host")
    seating = await join_table(framed, parsed, lambda seat: seat_secrets(seat, None))
    await receive_genesis(framed, seating)
    await stream.send_all(attack)
    try:  # the host drops us: at most its own envelopes and an abort arrive, then the end
        while await framed.receive_message() is not None:
            pass
    except PeerGone:
        pass
    await framed.aclose()


@pytest.mark.parametrize(("attack", "complaint"), [
    (b"\x00\x00\x00\x03\xc1\xc1\xc1", "sent a frame that is not a valid message"),
    (b"\x7f\xff\xff\xff", "sent an oversized frame"),
])
async def test_a_peer_sending_garbage_is_dropped_and_the_others_are_told(
        tmp_path: Path, attack: bytes, complaint: str) -> None:
    hosting, invite = host(tmp_path, "--game", "briscola", "--players", "3", "--bot")
    honest = join(tmp_path, invite, "--bot")
    joined_fingerprint(hosting, 1)
    await evil_joiner(invite, attack)
    assert await trio.to_thread.run_sync(hosting.finish) == 3
    assert await trio.to_thread.run_sync(honest.finish) == 3
    culprit = re.fullmatch(r"p2pcards: (seat \d \([A-Z2-7-]+\)) (.*)", hosting.stderr)
    assert culprit is not None and complaint in culprit[2], hosting.stderr
    assert honest.stderr.startswith("p2pcards: the host (seat 0 (")
    assert f"aborted the match: {culprit[1]} {complaint}" in honest.stderr
    assert verify_transcript(hosting.transcript()).status == "incomplete"
    assert "Traceback" not in hosting.stderr + honest.stderr


def test_an_unusable_transcripts_directory_is_one_sentence(tmp_path: Path) -> None:
    home = tmp_path / "not-a-directory"
    home.write_text("")
    hosting = Peer(home, "host", "--listen", "127.0.0.1:0", "--bots", "1", "--bot", "--seed", "1",
                   "--insecure-public-keys")
    assert hosting.finish() == 2
    assert hosting.stderr == (f"p2pcards: cannot create the transcripts directory "
                              f"{home}/transcripts: Not a directory")
