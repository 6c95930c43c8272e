"""A seat that leaves a table of three with a dropout policy (SPEC §11.7.6, §9.13), each seat
in its own process over loopback TCP (a bot stopped with SIGTERM, or a person who types ``q``
and is told that the others may go on): its signed ``leave`` does not end the match. The hub
recovers the seat at once, as the policy says (the public bot plays it with ``bot``, it
forfeits with ``forfeit``), the two others finish, and every transcript verifies: the two
finished ones naming the dropout, the leaver's as far as its chain went."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest
from test_net_processes import Peer, host, join

from p2pcards.verify import verify_transcript

TRESSETTE_3 = ("--game", "briscola", "--variant", "italian", "--players", "3", "--bot",
               "--move-timeout", "600", "--timeout", "600", "--return-wait", "600")
"""Three seats of bots at italian Briscola (three hands), whose timeouts and return wait are
far longer than any match: a recovery can only come from the leave itself, never from a wait
that ran out."""


def seated(peer: Peer) -> int:
    return int(peer.wait_for(r"^seated at seat (\d)")[1])


@pytest.mark.parametrize("policy", ["bot", "forfeit"])
def test_a_joiner_that_leaves_is_recovered_as_the_policy_says_and_the_others_finish(
        tmp_path: Path, policy: str) -> None:
    hosting, invite = host(tmp_path / "alba", *TRESSETTE_3, "--name", "Alba",
                           "--dropout", policy)
    if policy == "bot":  # a bot's process asked to stop
        bruno = join(tmp_path / "bruno", invite, "--bot", "--accept", "--name", "Bruno")
    else:  # a person who types q at their first turn, and confirms
        bruno = join(tmp_path / "bruno", invite, "--accept", "--name", "Bruno", stdin="q\ny\n")
    seat = seated(bruno)
    carla = join(tmp_path / "carla", invite, "--bot", "--accept", "--name", "Carla")
    if policy == "bot":
        bruno.wait_for(r"^— hand 1 begins")
        bruno.process.send_signal(signal.SIGTERM)
    assert bruno.finish() == 130, bruno.stderr
    if policy == "forfeit":
        assert "leave the table? the others go on without you if the table's dropout policy " \
               "allows, and you cannot come back [y/N]" in bruno.stdout
    assert bruno.stderr == "p2pcards: you left the table; the match is abandoned"
    staying = (hosting, carla)
    codes = [peer.finish() for peer in staying]
    assert codes == [0, 0], [peer.stderr for peer in staying]
    told = ("Bruno left the match; the public bot plays their seat when it is due"
            if policy == "bot" else
            "Bruno left the match; their hand is opened when it is due, and they forfeit "
            "the match")
    transcripts = set()
    for peer in staying:
        assert told in peer.out, peer.stdout
        assert "may come back" not in peer.stdout
        if policy == "bot":
            assert peer.wait_for(rf"^Bruno \[{seat}\] is played by the bot from now on")
            assert peer.wait_for(r"^match over: .* won|^match over: a draw")
        else:
            assert peer.wait_for(rf"^match over: Bruno \[{seat}\] forfeits by dropping out")
        transcripts.add(peer.transcript().read_bytes())
    assert len(transcripts) == 1  # the same bytes for every seat that stayed: one verdict
    report = verify_transcript(staying[0].transcript())
    assert report.status == "valid", report.violation
    dropout = report.dropout
    assert dropout is not None and (dropout.seat, dropout.by) == (seat, 0)
    assert dropout.bot == (policy == "bot") and dropout.forfeit == (policy == "forfeit")
    left = verify_transcript(bruno.transcript())
    assert left.status == "incomplete", left.violation
    assert left.verified > 0
