"""A dishonest host over loopback TCP between real processes (``tests/evil_hub.py``).

The host equivocates (shows seat 2 another validly signed version of its own envelope) or sends
one seat a bad shuffle. No honest seat may be blamed; the equivocator is named live when the hub
answers the fork probe, and by ``p2pcards verify A B`` over two seats' transcripts when it does
not; the refused envelope is kept as an evidence record that ``p2pcards verify`` proves (a
refused bad shuffle), or reports as not proven (a fork: only the other branch settles it).
"""

from __future__ import annotations

import re
from pathlib import Path

from test_net_processes import Peer, join, joined_fingerprint

from p2pcards.cli import main as cli_main
from p2pcards.verify import verify_transcript
from p2pcards.verify.many import verify_transcripts

EVIL = Path(__file__).with_name("evil_hub.py")


class EvilHost(Peer):
    """``tests/evil_hub.py MODE SEAT host ...`` as a process, collected like a :class:`Peer`."""

    def __init__(self, home: Path, mode: str, seat: int, *args: str) -> None:  # noqa: D107
        super().__init__(home, mode, str(seat), "host", "--listen", "127.0.0.1:0",
                         "--ephemeral-identity", *args, script=EVIL)


def three_seats(tmp_path: Path, mode: str) -> tuple[EvilHost, Peer, Peer]:
    """An evil host (target seat 2) and two honest bot joiners, seated in order (each with its
    own home, so that their transcripts never share a directory)."""
    hosting = EvilHost(tmp_path / "host", mode, 2, "--game", "briscola", "--players", "3", "--bot",
                       "--timeout", "5")
    invite = hosting.wait_for(r"^p2pcards join (\S+)$")[1]
    first = join(tmp_path / "seat1", invite, "--bot", "--accept")
    joined_fingerprint(hosting, 1)
    second = join(tmp_path / "seat2", invite, "--bot", "--accept")
    joined_fingerprint(hosting, 2)
    return hosting, first, second


def finish_all(*peers: Peer) -> list[int]:
    return [peer.finish() for peer in peers]


def test_an_equivocating_host_is_named_live_and_no_honest_seat_is_blamed(
        tmp_path: Path) -> None:
    hosting, first, second = three_seats(tmp_path, "equivocate")
    codes = finish_all(second, first, hosting)
    assert codes[0] == 1, (second.stderr, hosting.stderr)
    seat2 = verify_transcript(second.transcript())
    host_fp = seat2.seats[0].fingerprint
    seat1_fp = seat2.seats[1].fingerprint
    # live: seat 2 asked the hub for the envelope seat 1 linked to, and the two envelopes of
    # seat 0 met in one place
    assert re.fullmatch(
        rf"p2pcards: protocol violation: seat 0 \({host_fp}\) is proven at fault "
        r"\(equivocation\): seat 0 signed two different envelopes for seq \d+; .*",
        second.stderr), second.stderr
    assert "wrong-previous" not in second.stderr + first.stderr
    assert seat1_fp not in second.stderr.split("the host")[0]
    # its transcript proves it on its own: the fork and the equivocation are evidence records
    assert seat2.status == "invalid"
    assert seat2.violation is not None
    assert (seat2.violation.rule, seat2.violation.seat, seat2.violation.source) == (
        "equivocation", 0, "evidence")
    assert [e.claimed_rule for e in seat2.evidence] == ["fork", "equivocation"]
    assert [e.verdict for e in seat2.evidence] == ["not-proven", "proven"]
    together = verify_transcripts([first.transcript(), second.transcript()])
    assert together.status == "invalid"
    assert [(e.seat, e.envelopes[0].kind) for e in together.equivocations] == [(0, "key")]
    assert "Traceback" not in hosting.stderr + first.stderr + second.stderr


def test_a_host_that_hides_the_other_branch_is_still_named_from_two_transcripts(
        tmp_path: Path, capsys: object) -> None:
    hosting, first, second = three_seats(tmp_path, "equivocate-silent")
    codes = finish_all(second, first, hosting)
    assert codes[0] == 1, (second.stderr, hosting.stderr)
    assert re.fullmatch(
        r"p2pcards: protocol violation: envelope (\d+): .* the chain has forked; the hub, "
        r"seat 0 or seat 1 is at fault \[fork\]; asked for the other branch, the host "
        r"\(seat 0 \([A-Z2-7-]+\)\) (did not produce the envelope it linked to within 5 "
        r"seconds|aborted the match: .*|left)", second.stderr), second.stderr
    # (the host may time seat 2 out while it waits for the answer, or end and close the
    # connection: the verdict is the same)
    alone = verify_transcript(second.transcript())  # its fork record alone proves nothing
    assert (alone.status, alone.violation) == ("incomplete", None)
    assert (alone.evidence[0].claimed_rule, alone.evidence[0].verdict,
            alone.evidence[0].suspects) == ("fork", "not-proven", (0, 1))
    honest = verify_transcript(first.transcript())
    assert honest.violation is None  # seat 1's own record accuses nobody
    files = [str(first.transcript()), str(second.transcript())]
    assert cli_main(["verify", *files]) == 1
    out = capsys.readouterr().out  # type: ignore[attr-defined]
    host_fp = alone.seats[0].fingerprint
    assert f"equivocation by seat 0 (key {host_fp}): two different envelopes signed for seq" in out
    shown = re.findall(r"^  (.+), (envelope \d+|evidence record \d+): seq (\d+), seat 0, kind key",
                       out, re.MULTILINE)
    assert len(shown) == 2 and {s[0] for s in shown} == set(files) and shown[0][2] == shown[1][2]


def test_a_refused_bad_shuffle_is_kept_and_proven_by_the_verifier(
        tmp_path: Path, capsys: object) -> None:
    hosting = EvilHost(tmp_path / "host", "bad-shuffle", 1, "--game", "briscola", "--players", "2",
                       "--bot")
    invite = hosting.wait_for(r"^p2pcards join (\S+)$")[1]
    guest = join(tmp_path / "guest", invite, "--bot")
    assert finish_all(guest, hosting)[0] == 1, guest.stderr
    assert "[bad-shuffle]" in guest.stderr
    path = guest.transcript()
    report = verify_transcript(path)
    assert report.status == "invalid"
    v = report.violation
    assert v is not None and (v.rule, v.seat, v.source) == ("bad-shuffle", 0, "evidence")
    assert re.fullmatch(r"seat 0 sent an invalid shuffle at position (\d+): proven by evidence "
                        r"record 0", v.message)
    assert v.index == report.envelopes  # the envelope after the last one the seat accepted
    assert cli_main(["verify", str(path)]) == 1
    out = capsys.readouterr().out  # type: ignore[attr-defined]
    assert f"seat 0 sent an invalid shuffle at position {v.index}: proven by evidence record 0" \
        in out
    # the host's own transcript never held the altered envelope: it is merely incomplete
    assert verify_transcript(hosting.transcript()).status == "incomplete"
