"""Who may begin a recovery, between real processes over loopback TCP (SPEC §9.13.5): three
seats with ``--dropout forfeit`` or ``bot``.

- A joiner (``tests/evil_recover.py forge``) signs a ``recover`` of seat 2 while seat 2, a
  slow but answering bot, thinks over its first move, and another at its own first move: the
  host refuses both with a warning, and the match completes with no recovery; every transcript
  verifies with no dropout.
- The host (``tests/evil_recover.py early``) begins the recovery of seat 2, a person who is
  connected, one second into its move: seat 2 says the hub began a recovery of it while it
  was connected and answering, naming the hub, and stops with its transcript ending at the
  hub's ``recover``.
- The host (``tests/evil_recover.py withhold``) drops seat 2's move and begins its recovery in
  its place: seat 2, whose chain holds its move at that place, says the hub began a recovery of
  it after it had answered, and keeps the hub's ``recover`` as an evidence record.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_net_processes import Peer, host, join, joined_fingerprint

from p2pcards.verify import verify_transcript

HERE = Path(__file__).parent
EVIL = HERE / "evil_recover.py"
SLOW_BOT = f"{HERE / 'slow_bot.py'}:Slow"


class Evil(Peer):
    """``tests/evil_recover.py MODE SEAT COMMAND ...`` as a process, collected like a
    :class:`Peer`."""

    def __init__(self, home: Path, mode: str, seat: int, *args: str,  # noqa: D107
                 stdin: str | None = None) -> None:
        super().__init__(home, mode, str(seat), *args, "--ephemeral-identity", stdin=stdin,
                         script=EVIL)


TABLE = ("--game", "briscola", "--variant", "italian", "--players", "3", "--bot")
"""Three hands at three seats (the classic preset plays to 3 hands won, five or more):
what these tests check happens in the first hand, and the rest is played out."""


@pytest.mark.parametrize("policy", ["forfeit", pytest.param("bot", marks=pytest.mark.slow)])
def test_a_joiners_recover_of_a_live_seat_is_refused_and_the_match_completes(
        tmp_path: Path, policy: str) -> None:
    """The host refuses a joiner's ``recover`` before any policy applies, and no recovery
    begins, so the match is the same under either policy: the ``bot`` case runs with
    ``--slow``, and the default run plays the ``forfeit`` case (the same refusal path) while
    test_a_hubs_recover_of_a_connected_seat_is_recorded_and_reported_by_it[bot] plays a
    recovery under ``bot`` between processes."""
    hosting, invite = host(tmp_path / "host", *TABLE, "--dropout", policy)
    forger = Evil(tmp_path / "forger", "forge", 2, "join", invite, "--bot", "--accept")
    joined_fingerprint(hosting, 1)
    slow = join(tmp_path / "slow", invite, "--bot", SLOW_BOT, "--accept")
    joined_fingerprint(hosting, 2)
    peers = (hosting, forger, slow)
    codes = [peer.finish() for peer in peers]
    assert codes == [0, 0, 0], [peer.stderr for peer in peers]
    assert "sent a recover of seat 2 at seat 2's move" in forger.stderr
    assert "sent a recover of seat 2 at seat 1's move" in forger.stderr
    hosting.wait_for(r"^match over: ")
    refused = [line for line in hosting.out if re.fullmatch(
        r".* \[1\] sent a 'recover' of .* \[2\]: refused and dropped, since only the host "
        r"begins a recovery, when its own wait for that seat runs out", line)]
    assert len(refused) == 2, hosting.stdout
    transcripts = set()
    for peer in peers:
        assert peer.wait_for(r"^match over: ")
        assert not any("dropping out" in line or "played by the bot" in line
                       for line in peer.out), peer.stdout
        transcripts.add(peer.transcript().read_bytes())
    assert len(transcripts) == 1  # the same bytes everywhere, so one verdict for all three
    report = verify_transcript(hosting.transcript())
    assert report.status == "valid", report.violation
    assert report.dropout is None


@pytest.mark.parametrize("policy", ["forfeit", "bot"])
def test_a_hubs_recover_of_a_connected_seat_is_recorded_and_reported_by_it(
        tmp_path: Path, policy: str) -> None:
    hosting = Evil(tmp_path / "host", "early", 2, "host", "--listen", "127.0.0.1:0", *TABLE,
                   "--dropout", policy)
    invite = hosting.wait_for(r"^p2pcards join (\S+)$")[1]
    other = join(tmp_path / "other", invite, "--bot", "--accept")
    joined_fingerprint(hosting, 1)
    victim = join(tmp_path / "victim", invite, "--accept", stdin="")  # connected, never moves
    assert victim.wait_for(r"^seated at seat (\d)")[1] == "2"
    code = victim.finish()
    assert code == 1, victim.stderr
    report = verify_transcript(victim.transcript())
    host_fp = report.seats[0].fingerprint
    assert re.search(
        rf"^p2pcards: the hub \(seat 0 \S+ \({host_fp}\)\) began a recovery of this seat while "
        r"it was connected and answering: its 'action' message at envelope (\d+) was due for "
        r"\d+ of its \d+ seconds", victim.stderr, re.M), victim.stderr
    # its transcript shows the event: it ends with the hub's recover of seat 2
    assert report.status in ("valid", "incomplete"), report.violation
    dropout = report.dropout
    assert dropout is not None
    assert (dropout.seat, dropout.kind, dropout.by) == (2, "action", 0)
    assert dropout.index == report.verified - 1
    # the others go on as the hub said (they cannot tell): the match ends by the policy
    codes = (hosting.finish(), other.finish())
    assert codes == (0, 0), (hosting.stderr, other.stderr)
    other_report = verify_transcript(other.transcript())
    assert other_report.status == "valid", other_report.violation
    assert other_report.dropout is not None and other_report.dropout.seat == 2


@pytest.mark.parametrize("policy", ["forfeit", "bot"])
def test_a_hubs_recover_in_place_of_a_seats_answer_is_kept_and_reported_by_it(
        tmp_path: Path, policy: str) -> None:
    hosting = Evil(tmp_path / "host", "withhold", 2, "host", "--listen", "127.0.0.1:0",
                   *TABLE, "--dropout", policy)
    invite = hosting.wait_for(r"^p2pcards join (\S+)$")[1]
    other = join(tmp_path / "other", invite, "--bot", "--accept")
    joined_fingerprint(hosting, 1)
    victim = join(tmp_path / "victim", invite, "--bot", "--accept")
    joined_fingerprint(hosting, 2)
    code = victim.finish()
    assert code == 1, victim.stderr
    report = verify_transcript(victim.transcript())
    host_fp = report.seats[0].fingerprint
    found = re.search(
        rf"^p2pcards: the hub \(seat 0 \S+ \({host_fp}\)\) began a recovery of this seat "
        r"after it had answered: envelope (\d+) is this seat's own message", victim.stderr,
        re.M)
    assert found, victim.stderr
    position = int(found[1])
    # the chain holds its answer there; the hub's recover of it is the evidence record
    assert report.verified == position + 1 and report.dropout is None
    assert len(report.evidence) == 1
    assert report.evidence[0].claimed_rule == "wrong-sequence"
    codes = (hosting.finish(), other.finish())
    assert codes == (0, 0), (hosting.stderr, other.stderr)
    other_report = verify_transcript(other.transcript())
    assert other_report.status == "valid", other_report.violation
    dropout = other_report.dropout
    assert dropout is not None and (dropout.seat, dropout.index) == (2, position)
