"""A seat of a match of three or four seats, each in its own process, stops answering
mid-hand: killed with SIGKILL (its connection closes) or stopped with SIGSTOP (silent past the
table's timeout). With ``--dropout forfeit`` the others rebuild its hand key from their shares,
check the hand and end the match with it forfeiting; with ``--dropout bot`` the public bot plays
the seat to the end, directly or through a relay, and the killed seat may come back to watch
(SPEC §9.13). Every transcript verifies, naming the dropout."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest
from test_net_processes import Peer, host, join
from test_relay_support import RelayProcess

from p2pcards.verify import VerifyReport, verify_transcript


def verified_dropout(peer: Peer, seat: int) -> VerifyReport:
    """``peer``'s transcript, verified ``valid`` with ``seat``'s dropout at its move, begun by
    the host."""
    report = verify_transcript(peer.transcript())
    assert report.status == "valid", report.violation
    dropout = report.dropout
    assert dropout is not None
    assert (dropout.seat, dropout.kind, dropout.by) == (seat, "action", 0)
    return report


@pytest.mark.parametrize("how", ["kill", pytest.param("stop", marks=pytest.mark.slow)])
def test_a_seat_that_drops_out_mid_hand_forfeits_and_the_others_finish(
        tmp_path: Path, how: str) -> None:
    # The killed seat (its connection closes) is given up when the 5 s it has to come back
    # are over, long before the 120 s timeout; the stopped one (its connection still open)
    # when its 8 s move timeout passes. Each peer has its own home.
    timeout = "120" if how == "kill" else "8"
    hosting, invite = host(tmp_path / "host", "--game", "scopa", "--players", "3", "--bot",
                           "--timeout", timeout, "--return-wait", "5")
    other = join(tmp_path / "other", invite, "--bot", "--accept", "--return-wait", "5")
    victim = join(tmp_path / "victim", invite, "--accept", stdin="")  # never moves
    seat = int(victim.wait_for(r"^seated at seat (\d)")[1])  # the seats fill in joining order
    victim.wait_for(r"— your turn$")
    victim.process.send_signal(signal.SIGKILL if how == "kill" else signal.SIGSTOP)
    try:
        codes = (hosting.finish(), other.finish())
    finally:
        if how == "stop":
            victim.process.send_signal(signal.SIGCONT)
        victim.kill()
    assert codes == (0, 0), (hosting.stderr, other.stderr)
    for peer in (hosting, other):
        assert peer.wait_for(rf"^match over: player \[{seat}\] forfeits by dropping out")
        dropout = verified_dropout(peer, seat).dropout
        assert dropout is not None
        assert dropout.rebuilt and dropout.audited and dropout.forfeit


def test_with_the_bot_policy_a_killed_seat_is_played_by_the_bot_to_the_end(
        tmp_path: Path) -> None:
    # Italian Briscola at three seats plays three hands: the bot plays the rest of the hand in
    # play and whole hands after it, keyed and dealt by the two remaining seats. The killed
    # seat comes back with `resume` once the bot has its seat: it is told so and watches to
    # the end.
    hosting, invite = host(tmp_path / "host", "--game", "briscola", "--variant", "italian",
                           "--players", "3", "--bot", "--dropout", "bot", "--return-wait", "3")
    other = join(tmp_path / "other", invite, "--bot", "--accept", "--return-wait", "3")
    victim = join(tmp_path / "victim", invite, "--accept", stdin="")  # never moves
    seat = int(victim.wait_for(r"^seated at seat (\d)")[1])
    victim.wait_for(r"— your turn$")
    victim.process.send_signal(signal.SIGKILL)
    victim.kill()
    hosting.wait_for(rf"^player \[{seat}\] is played by the bot from now on")
    back = Peer(tmp_path / "victim", "resume", stdin="")
    codes = (hosting.finish(), other.finish(), back.finish())
    assert codes == (0, 0, 0), (hosting.stderr, other.stderr, back.stderr)
    assert back.wait_for(r"^you are played by the bot from now on")
    transcripts = []
    for peer in (hosting, other, back):
        assert peer.wait_for(r"^match over: .* won|^match over: a draw")
        transcripts.append(peer.transcript().read_bytes())
    assert transcripts[0] == transcripts[1] == transcripts[2]  # so one verdict holds for all
    report = verified_dropout(hosting, seat)
    dropout = report.dropout
    assert dropout is not None
    assert dropout.rebuilt and dropout.bot and not dropout.forfeit and not dropout.audited
    assert len(report.hands) >= 2
    assert not list((tmp_path / "victim" / "secrets").iterdir())


def test_through_a_relay_the_bot_plays_a_partners_seat_to_the_end(tmp_path: Path) -> None:
    """Briscola in pairs (italian: two hands), four processes behind a relay: the person at
    seat 2, the host's partner, is killed at its turn; the bot plays the seat to the end of the
    match and the three transcripts verify alike."""
    relay = RelayProcess(tmp_path / "relay.log")
    try:
        where = f"127.0.0.1:{relay.port}"
        hosting, invite = host(tmp_path / "host", "--relay", where, "--relay-only", "--game",
                               "briscola", "--variant", "italian", "--players", "4", "--bot",
                               "--dropout", "bot", "--return-wait", "3")
        others = [join(tmp_path / f"other{i}", invite, "--bot", "--accept", "--return-wait",
                       "3") for i in range(2)]
        victim = join(tmp_path / "victim", invite, "--accept", stdin="")
        seat = int(victim.wait_for(r"^seated at seat (\d)")[1])
        victim.wait_for(r"— your turn$")
        victim.process.send_signal(signal.SIGKILL)
        victim.kill()
        peers = [hosting, *others]
        codes = [peer.finish() for peer in peers]
        assert codes == [0, 0, 0], [peer.stderr for peer in peers]
        transcripts = set()
        for peer in peers:
            assert peer.wait_for(rf"^player \[{seat}\] is played by the bot from now on")
            transcripts.add(peer.transcript().read_bytes())
        assert len(transcripts) == 1  # the same bytes everywhere, so one verdict for all three
        dropout = verified_dropout(hosting, seat).dropout
        assert dropout is not None and dropout.bot and not dropout.forfeit
    finally:
        assert relay.stop(signal.SIGTERM) == 0
