"""A killed peer comes back into its match with ``p2pcards resume``: real processes on loopback
TCP, each peer with its own p2pcards home, the victim killed with SIGKILL mid-match (nothing of
its is flushed or cleaned up), then resumed from its home. The match completes, both
transcripts verify and hold the same chain, and the kept secrets are gone from both homes.

Directly (a killed joiner dials the host again; a killed host listens again on its address and
the joiner dials it by itself) and through a relay (both come back into the relay room)."""

from __future__ import annotations

import signal
import stat
import subprocess
import time
from pathlib import Path

import pytest
from test_net_processes import BRISCOLA_2, Peer, join
from test_relay_support import RelayProcess

from p2pcards.records.transcript import read_transcript
from p2pcards.verify import verify_transcript

BOUND = 120  # seconds for the rest of a bots' match after a resume (it takes about 10)


def _secrets(home: Path) -> Path:
    return home / "secrets"


def _kept_files(home: Path) -> list[Path]:
    directory = _secrets(home)
    return sorted(p for p in directory.rglob("*") if p.is_file()) if directory.exists() else []


def _owner_only(home: Path) -> None:
    """Every kept file is readable by its owner only, and so is the directory."""
    directory = _secrets(home)
    assert stat.S_IMODE(directory.stat().st_mode) == 0o700
    files = _kept_files(home)
    assert files, "a running match keeps its record and the seats' secrets"
    for path in files:
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path


def _complete(peer: Peer, verify: bool = True) -> Path:
    """The complete transcript of ``peer`` once it has exited with status 0, verified as a
    valid match unless ``verify`` is false (a copy that :func:`_same_chain` then holds to one
    that was verified: the same genesis and envelopes get the same verdict)."""
    try:
        status = peer.process.wait(BOUND)
    except subprocess.TimeoutExpired:
        peer.kill()
        raise AssertionError(f"still running after {BOUND} s: {peer.out[-8:]} "
                             f"{peer.err[-3:]}") from None
    peer.finish()
    assert status == 0, (peer.out[-8:], peer.stderr)
    path = Path(peer.wait_for(r"^transcript \(complete\): (.+)$")[1])
    if verify:
        report = verify_transcript(path)
        assert report.status == "valid", report
    return path


def _same_chain(first: Path, second: Path) -> None:
    a, b = read_transcript(first), read_transcript(second)
    assert a.genesis == b.genesis
    assert a.envelopes == b.envelopes


def _match(tmp_path: Path, *where: str) -> tuple[Peer, Peer, Path, Path]:
    """A bot host and a bot joiner with homes of their own, both in hand 1 on return."""
    host_home, guest_home = tmp_path / "host", tmp_path / "guest"
    hosting = Peer(host_home, "host", *where, "--ephemeral-identity", *BRISCOLA_2, "--bot",
                   "--return-wait", "90")
    invite = hosting.wait_for(r"^p2pcards join (\S+)$")[1]
    guest = join(guest_home, invite, "--accept", "--bot", "--return-wait", "90")
    for peer in (hosting, guest):
        peer.wait_for(r"— hand 1 begins$")
    return hosting, guest, host_home, guest_home


def _kill_and_resume(tmp_path: Path, victim: str, *where: str) -> None:
    hosting, guest, host_home, guest_home = _match(tmp_path, *where)
    killed, survivor, home = ((hosting, guest, host_home) if victim == "host"
                              else (guest, hosting, guest_home))
    _owner_only(home)
    killed.process.send_signal(signal.SIGKILL)
    killed.finish()
    assert _kept_files(home), "a killed peer leaves what it needs to come back"
    back = Peer(home, "resume", "--return-wait", "90")
    resumed = back.wait_for(r"^resuming seat (\d) \((host|joiner)\) of table ")
    assert resumed[1] == ("0" if victim == "host" else "1") and resumed[2] == victim
    mine, theirs = _complete(back), _complete(survivor, verify=False)
    _same_chain(mine, theirs)
    assert any("is back: catching up from envelope" in line for line in survivor.out)
    for peer_home in (host_home, guest_home):
        assert _kept_files(peer_home) == [], "the kept secrets are deleted when the match ends"
    again = Peer(home, "resume")
    assert again.finish() == 2
    assert again.stderr.startswith("p2pcards: there is no unfinished match to resume in ")


@pytest.mark.parametrize("victim", ["joiner", "host"])
def test_a_peer_killed_mid_match_resumes_it_directly(tmp_path: Path, victim: str) -> None:
    _kill_and_resume(tmp_path, victim, "--listen", "127.0.0.1:0")


@pytest.mark.parametrize("victim", ["joiner", "host"])
def test_a_peer_killed_mid_match_resumes_it_through_a_relay(tmp_path: Path,
                                                            victim: str) -> None:
    relay = RelayProcess(tmp_path / "relay.log")
    try:
        _kill_and_resume(tmp_path, victim, "--relay", f"127.0.0.1:{relay.port}",
                         "--relay-only")
    finally:
        assert relay.stop(signal.SIGTERM) == 0


def test_resume_names_the_transcript_it_cannot_use(tmp_path: Path) -> None:
    stray = tmp_path / "stray.p2pt"
    stray.write_bytes(b"not a transcript")
    peer = Peer(tmp_path, "resume", str(stray))
    assert peer.finish() == 2
    assert peer.stderr.startswith(f"p2pcards: {stray} cannot be read: ")
    assert "\n" not in peer.stderr
    missing = Peer(tmp_path, "resume", str(tmp_path / "missing.p2pt"))
    assert missing.finish() == 2
    assert missing.stderr == f"p2pcards: {tmp_path / 'missing.p2pt'}: no such transcript"


def test_the_other_joiners_wait_as_long_as_the_host_for_a_lost_seat(tmp_path: Path) -> None:
    """At three seats only the hub sees a joiner's connection lost; it tells the other joiner
    (``away``), which then waits past its own 10 s timeout until the seat is back (``back``).
    Italian Briscola: three hands at three seats, where the classic preset plays to 3 hands
    won (five or more); what happens after the resume is the same in every hand."""
    hosting = Peer(tmp_path / "host", "host", "--listen", "127.0.0.1:0", "--ephemeral-identity",
                   "--game", "briscola", "--variant", "italian", "--players", "3", "--bot",
                   "--timeout", "10",
                   "--dropout", "off", "--return-wait", "90")
    invite = hosting.wait_for(r"^p2pcards join (\S+)$")[1]
    other = join(tmp_path / "other", invite, "--accept", "--bot")
    joined = hosting.wait_for(r"^seat 1 \(")
    assert joined
    victim = join(tmp_path / "victim", invite, "--accept", "--bot")
    for peer in (hosting, other, victim):
        peer.wait_for(r"— hand 1 begins$")
    victim.process.send_signal(signal.SIGKILL)
    victim.finish()
    other.wait_for(r"^player \[2\] lost the connection to the host; the host waits 1:30 for it "
                   r"to come back$")
    time.sleep(14)  # past the other joiner's own timeout (10 s) and grace (2 s)
    assert other.process.poll() is None, (other.out[-5:], other.stderr)
    back = Peer(tmp_path / "victim", "resume")
    paths = [_complete(back), *(_complete(peer, verify=False) for peer in (hosting, other))]
    _same_chain(paths[0], paths[1])
    _same_chain(paths[0], paths[2])
    other.wait_for(r"^player \[2\] is back at the table$")
