"""What keeps ``p2pcards resume`` from making a seat sign twice: real processes on loopback TCP,
each peer with its own p2pcards home, the joiner killed with SIGKILL mid-match.

- A transcript cut just before the seat's own last envelope is refused with one sentence (the
  seat would sign another envelope in that place); nothing kept is deleted, and the whole
  transcript then resumes.
- Only one process plays a seat from one home: a ``resume`` while the match still runs, or a
  second ``resume`` started at the same moment as another, stops with one sentence naming the
  process that holds the seat, and the other one plays on.
"""

from __future__ import annotations

import signal
import time
from pathlib import Path

from test_net_processes import Peer
from test_resume_processes import _complete, _kept_files, _match, _same_chain

from p2pcards.records.match_record import MatchRecord
from p2pcards.records.secret_store import decode_count
from p2pcards.records.transcript import TranscriptWriter, read_transcript
from p2pcards.wire import Envelope, Payload
from p2pcards.wire.errors import ProtocolError


def _signer(data: bytes) -> int:
    return Payload.decode(Envelope.decode(data).payload).seat


def _transcript_of(home: Path) -> Path:
    """The transcript the match record of ``home`` names (a killed peer printed no path)."""
    record = next(p for p in _kept_files(home) if p.name.endswith(".match"))
    return Path(MatchRecord.decode(record.read_bytes()).transcript)


def _busy(peer: Peer, pid: int, seat: int = 1) -> None:
    assert peer.finish() == 2, (peer.out, peer.err)
    assert len(peer.err) == 1, peer.err
    assert peer.err[0].startswith(f"p2pcards: another p2pcards process (pid {pid}) is playing "
                                  f"seat {seat} of table "), peer.err
    assert peer.err[0].endswith("only one process at a time may play a seat"), peer.err


def _signed_in_second_deck(home: Path, seat: int) -> int:
    """How many envelopes ``seat`` has written to the transcript of ``home`` from its key of
    the second deck on (0 before that key; the file is read while it grows)."""
    try:
        frames = read_transcript(_transcript_of(home)).envelopes
    except (OSError, StopIteration, ValueError, ProtocolError):  # not written yet, or a frame
        return 0  # half written
    kinds = [Payload.decode(Envelope.decode(d).payload) for d in frames]
    own = [p.kind for p in kinds if p.seat == seat]
    keys = [i for i, kind in enumerate(own) if kind == "key"]
    return len(own) - keys[1] if len(keys) > 1 else 0


def test_a_transcript_cut_before_the_seats_last_envelope_is_refused(tmp_path: Path) -> None:
    hosting, guest, host_home, guest_home = _match(tmp_path, "--listen", "127.0.0.1:0")
    guest.wait_for(r"— hand 2 begins$")  # the keys of hand 1 are spent and deleted
    # two envelopes of its own in the second deck (its key and the next), so that even the
    # one the count may not hold yet leaves the cut in that deck, whose keys are kept
    deadline = time.monotonic() + 120
    while _signed_in_second_deck(guest_home, 1) < 2 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert _signed_in_second_deck(guest_home, 1) >= 2, guest.out[-5:]
    guest.process.send_signal(signal.SIGKILL)
    guest.finish()
    path = _transcript_of(guest_home)
    whole = path.read_bytes()
    frames = read_transcript(path).envelopes
    genesis = read_transcript(path).genesis
    # the count the seat kept: its transcript's own envelopes, but one fewer if the kill came
    # between writing its last envelope and keeping the count (that envelope never left)
    kept_count = next(p for p in _kept_files(guest_home) if p.name.endswith("-seat1-signed"))
    own = decode_count(kept_count.read_bytes())
    assert own is not None
    mine = [i for i, data in enumerate(frames) if _signer(data) == 1]
    assert own in (len(mine), len(mine) - 1)
    last_own = mine[own - 1]  # cut before it: the transcript then holds one fewer than signed
    path.unlink()
    with TranscriptWriter.create(path, genesis, fsync=False) as out:
        for data in frames[:last_own]:
            out.append(data)
    kept = _kept_files(guest_home)
    refused = Peer(guest_home, "resume", "--return-wait", "90")
    assert refused.finish() == 2, (refused.out, refused.err)
    assert refused.err == [
        f"p2pcards: seat 1 cannot resume: the transcript ends after {last_own} envelopes, "
        f"{own - 1} of them seat 1's, but the seat had already signed {own}: resuming from it "
        "would sign a second, different envelope for a place the seat has signed, so resume "
        "from a complete copy of the transcript (every player's holds the same chain)"]
    assert _kept_files(guest_home) == kept, "a refused resume deletes nothing"
    path.write_bytes(whole)
    back = Peer(guest_home, "resume", "--return-wait", "90")
    mine, theirs = _complete(back), _complete(hosting, verify=False)
    _same_chain(mine, theirs)
    for home in (host_home, guest_home):
        assert _kept_files(home) == []


def test_only_one_process_plays_a_seat(tmp_path: Path) -> None:
    hosting, guest, host_home, guest_home = _match(tmp_path, "--listen", "127.0.0.1:0")
    # the host is stopped while the early resume asks, so that the match cannot end first
    hosting.process.send_signal(signal.SIGSTOP)
    try:
        early = Peer(guest_home, "resume", "--return-wait", "90")
        _busy(early, guest.process.pid)  # the match still runs: its joiner holds the table
        guest.process.send_signal(signal.SIGKILL)
        guest.finish()
    finally:
        hosting.process.send_signal(signal.SIGCONT)
    first = Peer(guest_home, "resume", "--return-wait", "90")
    second = Peer(guest_home, "resume", "--return-wait", "90")
    while first.process.poll() is None and second.process.poll() is None:
        time.sleep(0.05)  # both run until the one that lost the table stops
    loser, winner = (first, second) if first.process.poll() is not None else (second, first)
    _busy(loser, winner.process.pid)
    assert not any(line.startswith("resuming seat") for line in loser.out)
    mine, theirs = _complete(winner), _complete(hosting, verify=False)
    _same_chain(mine, theirs)
    assert any("is back: catching up from envelope" in line for line in hosting.out)
    for home in (host_home, guest_home):
        assert _kept_files(home) == []
