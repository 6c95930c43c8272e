"""A peer that is gone is known to the others within seconds, directly and through a relay,
long before any move timeout: real processes, one of them stopped (SIGSTOP: a hung machine or a
cut network) or killed (SIGKILL). Every wait below is bounded by far less than the 300-second
timeouts of the table, so only the link-level keepalives (and a short ``--return-wait``) can end
these matches in time. A relay that restarts mid-match loses the table's room; the host makes it
again and the joiner comes back into it, and the match completes."""

from __future__ import annotations

import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_net_processes import BRISCOLA_2, Peer, host, join
from test_relay_support import RelayProcess

from p2pcards.verify import verify_transcript

BOUND = 90  # seconds: the tables' timeouts are 300 s; keepalives say "gone" after about 12 s


def finish_within(peer: Peer, seconds: float) -> int:
    try:
        return peer.process.wait(seconds)
    except subprocess.TimeoutExpired:
        peer.kill()
        raise AssertionError(f"still running after {seconds} s: {peer.out[-5:]}") from None


def test_a_host_that_hangs_is_named_by_the_joiner_within_seconds(tmp_path: Path) -> None:
    hosting, invite = host(tmp_path, *BRISCOLA_2, "--timeout", "300", stdin="")  # never moves
    guest = join(tmp_path, invite, "--bot", "--accept", "--return-wait", "5")
    hosting.wait_for(r"— your turn$")
    hosting.process.send_signal(signal.SIGSTOP)
    try:
        assert finish_within(guest, BOUND) == 3
    finally:
        hosting.process.send_signal(signal.SIGCONT)
        hosting.kill()
    guest.finish()
    assert any(line.startswith("the host (seat 0") and line.endswith(
        "stopped answering: nothing arrived for 12 seconds (its program, its machine or the "
        "network is gone); it may come back within 0:05") for line in guest.out), guest.out
    assert guest.stderr.startswith("p2pcards: the host (seat 0")
    assert guest.stderr.endswith("stopped answering: nothing arrived for 12 seconds (its "
                                 "program, its machine or the network is gone), and did not "
                                 "come back within 5 seconds")
    assert verify_transcript(guest.transcript()).status == "incomplete"


@pytest.fixture(scope="module")
def relay(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RelayProcess]:
    process = RelayProcess(tmp_path_factory.mktemp("relay") / "relay.log")
    yield process
    assert process.stop(signal.SIGTERM) == 0


@pytest.mark.parametrize("victim", ["host", "joiner"])
def test_a_peer_killed_behind_a_relay_is_named_within_seconds(
        tmp_path: Path, relay: RelayProcess, victim: str) -> None:
    """The relay does not say that a member left; the keepalives inside the table's virtual
    connections do."""
    person_hosts = victim == "host"
    hosting = Peer(tmp_path, "host", "--relay", f"127.0.0.1:{relay.port}", "--relay-only",
                   "--ephemeral-identity", *BRISCOLA_2, "--timeout", "300", "--return-wait", "5",
                   *([] if person_hosts else ["--bot"]), stdin="" if person_hosts else None)
    invite = hosting.wait_for(r"^p2pcards join (\S+)$")[1]
    guest = join(tmp_path, invite, "--accept", "--return-wait", "5",
                 *(["--bot"] if person_hosts else []), stdin=None if person_hosts else "")
    (hosting if person_hosts else guest).wait_for(r"— your turn$")
    killed, survivor = (hosting, guest) if person_hosts else (guest, hosting)
    killed.process.kill()
    killed.finish()
    assert finish_within(survivor, BOUND) == 3
    survivor.finish()
    who = "the host (seat 0" if person_hosts else "seat 1 ("
    assert survivor.stderr.startswith(f"p2pcards: {who}"), survivor.stderr
    assert "stopped answering: nothing arrived for 12 seconds" in survivor.stderr
    assert survivor.stderr.endswith("and did not come back within 5 seconds")
    assert verify_transcript(survivor.transcript()).status == "incomplete"


def _match_behind(tmp_path: Path, port: int, *options: str) -> tuple[Peer, Peer]:
    """A person hosting through the relay at ``port`` who never moves, and a bot joiner; both
    in the match when this returns."""
    hosting = Peer(tmp_path, "host", "--relay", f"127.0.0.1:{port}", "--relay-only",
                   "--ephemeral-identity",
                   *BRISCOLA_2, "--timeout", "300", *options, stdin="")
    invite = hosting.wait_for(r"^p2pcards join (\S+)$")[1]
    guest = join(tmp_path, invite, "--accept", "--bot", *options)
    hosting.wait_for(r"— your turn$")
    return hosting, guest


def _bots_behind(tmp_path: Path, port: int) -> tuple[Peer, Peer]:
    """A bot hosting through the relay at ``port`` and a bot joiner, each with its own home;
    both in the first hand when this returns."""
    hosting = Peer(tmp_path / "host", "host", "--relay", f"127.0.0.1:{port}", "--relay-only",
                   "--ephemeral-identity", *BRISCOLA_2, "--bot", "--return-wait", "120")
    invite = hosting.wait_for(r"^p2pcards join (\S+)$")[1]
    guest = join(tmp_path / "guest", invite, "--accept", "--bot", "--return-wait", "120")
    for peer in (hosting, guest):
        peer.wait_for(r"— hand 1 begins$")
    return hosting, guest


def relay_restart(tmp_path: Path, down: float) -> None:
    """Kill the relay mid-match, start a new one on its port after ``down`` seconds: both
    peers get the table's room back and the match completes with valid transcripts."""
    first = RelayProcess(tmp_path / "relay1.log")
    hosting, guest = _bots_behind(tmp_path, first.port)
    first.stop(signal.SIGKILL)
    time.sleep(down)
    second = RelayProcess(tmp_path / "relay2.log", "--listen", f"127.0.0.1:{first.port}")
    try:
        for peer in (hosting, guest):
            assert finish_within(peer, BOUND + down) == 0, peer.out[-8:]
            peer.finish()
            assert verify_transcript(peer.transcript()).status == "valid"
        assert any("getting this table's room back" in line for line in hosting.out)
        assert any(line.startswith("back in this table's room at the relay")
                   for line in hosting.out), hosting.out
        assert hosting.transcript().read_bytes() == guest.transcript().read_bytes()
    finally:
        assert second.stop(signal.SIGTERM) == 0


def test_a_relay_that_restarts_after_3_seconds_loses_nothing(tmp_path: Path) -> None:
    relay_restart(tmp_path, 3)


@pytest.mark.slow
def test_a_relay_that_restarts_after_30_seconds_loses_nothing(tmp_path: Path) -> None:
    relay_restart(tmp_path, 30)


def test_a_relay_gone_longer_than_the_patience_is_given_up(tmp_path: Path) -> None:
    gone = RelayProcess(tmp_path / "relay.log")
    hosting, guest = _match_behind(tmp_path, gone.port, "--relay-patience", "4",
                                   "--return-wait", "5")
    gone.stop(signal.SIGKILL)
    for peer in (hosting, guest):
        assert finish_within(peer, BOUND) == 3
        peer.finish()
        assert f"cannot reconnect to the relay at 127.0.0.1:{gone.port} within 4 seconds" in \
            peer.stderr, peer.stderr
    # the host's own person is to move: the lost link still ends the match once its return
    # wait is over, whoever the table waits for
    assert hosting.stderr.endswith("and did not come back within 5 seconds"), hosting.stderr
