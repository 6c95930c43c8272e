"""Another match at the same table (SPEC §11.8), with real processes over loopback TCP: the
same people play again without a new invite, each match has its own transcript that verifies
alone, a running tally is said after each match, and a seat that declines ends the series for
everyone, named."""

from __future__ import annotations

import re
import shlex
import signal
from pathlib import Path

from test_leave_processes import Terminal
from test_net_processes import BRISCOLA_2, Peer, host, join

from p2pcards.records.transcript import read_transcript
from p2pcards.seating.genesis import Genesis
from p2pcards.verify import verify_transcript

SERIES = r"^series after (\d+) match(?:es)?: Alba \[0\] (\d+) · Bruno \[1\] (\d+)$"


def transcripts(peer: Peer) -> list[Path]:
    """Every transcript ``peer`` reports at its end, in the order the matches were played."""
    assert peer.finish() == 0, peer.stderr
    return [Path(found[1]) for found in (re.match(r"^transcript \(complete\): (.+)$", line)
                                         for line in peer.out) if found]


def genesis_of(path: Path) -> Genesis:
    return Genesis.decode(read_transcript(path).genesis)


def test_two_matches_in_a_row_each_with_its_own_transcript_and_a_tally(tmp_path: Path) -> None:
    hosting, invite = host(tmp_path / "host", *BRISCOLA_2, "--bot", "--name", "Alba",
                           "--rematch", "2")
    bruno = join(tmp_path / "bruno", invite, "--bot", "--name", "Bruno", "--rematch", "2")
    records = {"host": transcripts(hosting), "bruno": transcripts(bruno)}
    # both stop after two matches; the joiner always answers before it reads, while the host
    # reads the joiner's answer as it makes its own, so it may hear the joiner's "no" first
    ends = {"host": {"you declined another match; the series ends",
                     "Bruno declined another match; the series ends"},
            "bruno": {"you declined another match; the series ends"}}
    for (who, paths), peer in zip(records.items(), (hosting, bruno), strict=True):
        assert len(paths) == 2, peer.out[-10:]
        for path in paths:
            assert verify_transcript(path).status == "valid"
        first, second = (genesis_of(path) for path in paths)
        assert first.table_id != second.table_id
        assert [(s.identity, s.name) for s in first.seats] == [
            (s.identity, s.name) for s in second.seats]
        assert all(a.nonce != b.nonce for a, b in zip(first.seats, second.seats, strict=True))
        tallies = [re.match(SERIES, line) for line in peer.out]
        found = [t for t in tallies if t]
        assert [int(t[1]) for t in found] == [1, 2], peer.out
        assert int(found[-1][2]) + int(found[-1][3]) <= 2
        assert ends[who] & set(peer.out), peer.out[-6:]
    assert [genesis_of(p).table_id for p in records["host"]] == [
        genesis_of(p).table_id for p in records["bruno"]]
    assert hosting.stdout.count("p2pcards join") == 1  # one invite for the whole series


def test_a_joiner_that_declines_ends_the_series_and_everyone_is_told_its_name(
        tmp_path: Path) -> None:
    hosting, invite = host(tmp_path / "host", "--game", "scopa", "--players", "3", "--bot",
                           "--name", "Alba", "--rematch", "3", "--dropout", "off")
    bruno = join(tmp_path / "bruno", invite, "--bot", "--accept", "--name", "Bruno",
                 "--rematch", "3")
    bruno.wait_for(r"^seated at seat 1")
    carla = join(tmp_path / "carla", invite, "--bot", "--accept", "--name", "Carla")
    assert len(transcripts(carla)) == 1  # a bot without --rematch does not play again
    for peer in (hosting, bruno):
        paths = transcripts(peer)
        assert len(paths) == 1 and verify_transcript(paths[0]).status == "valid"
        assert "Carla declined another match; the series ends" in peer.out, peer.out[-6:]


def test_a_person_answers_play_again_on_standard_input(tmp_path: Path) -> None:
    # "y" is refused as a move and "1" plays the first move listed, so after the last move of a
    # match the next line is always "y": the rules' question, then each "play again?", is yes
    hosting, invite = host(tmp_path / "host", *BRISCOLA_2, "--bot", "--name", "Alba",
                           "--rematch", "2")
    bruno = join(tmp_path / "bruno", invite, "--name", "Bruno", stdin="y\n1\n" * 150)
    paths = transcripts(bruno)
    assert len(paths) == 2 and all(verify_transcript(p).status == "valid" for p in paths)
    assert bruno.stdout.count("play again? (y/N)") == 2
    assert "Alba declined another match; the series ends" in bruno.out
    assert len(transcripts(hosting)) == 2
    assert "you declined another match; the series ends" in hosting.out


MOVE_OR_AGAIN = r"your move \(number or card[^\n]*?: |play again\? \(y/N\) "


def play_to_the_question(person: Terminal, after: int = 0) -> int:
    """Play the first move listed at every move prompt of ``person`` until it asks ``play
    again?``; where in its output the question ends."""
    while True:
        found = person.wait_for(MOVE_OR_AGAIN, after)
        after = found.end()
        if found[0].startswith("play again"):
            return after
        person.type("1\r")


def complete_transcripts(text: str) -> list[Path]:
    return [Path(p) for p in re.findall(r"^transcript \(complete\): (\S+?)\r?$", text, re.M)]


def test_ctrl_c_at_play_again_is_a_decline_told_by_name_and_the_transcript_is_kept(
        tmp_path: Path) -> None:
    hosting, invite = host(tmp_path / "host", *BRISCOLA_2, "--bot", "--name", "Alba",
                           "--rematch", "2")
    person = Terminal(tmp_path / "bruno", "join", invite, "--ephemeral-identity",
                      "--name", "Bruno")
    try:
        person.type("y\r")  # the table's rules
        asked = play_to_the_question(person)
        person.type("\x03")
        person.wait_for(r"you declined another match; the series ends", asked)
        assert person.finish() == 0, person.text
    finally:
        if person.process.poll() is None:
            person.process.kill()
    paths = complete_transcripts(person.text)
    assert len(paths) == 1 and verify_transcript(paths[0]).status == "valid"
    assert len(transcripts(hosting)) == 1
    assert "Bruno declined another match; the series ends" in hosting.out, hosting.out[-6:]


def test_sigterm_while_waiting_for_the_others_takes_the_yes_back(tmp_path: Path) -> None:
    person = Terminal(tmp_path / "host", "host", "--listen", "127.0.0.1:0",
                      "--ephemeral-identity", *BRISCOLA_2, "--name", "Alba")
    try:
        invite = shlex.split(person.wait_for(r"^p2pcards join (.+?)\r?$")[1])[0]
        bruno = join(tmp_path / "bruno", invite, "--bot", "--name", "Bruno", "--rematch", "2")
        asked = play_to_the_question(person)
        bruno.wait_for(r"^waiting for the others to say whether they play again$")
        bruno.process.send_signal(signal.SIGTERM)
        bruno.wait_for(r"^you declined another match; the series ends$")
        person.type("y\r")  # Alba says yes, then reads Bruno's answers: his yes taken back
        person.wait_for(r"Bruno declined another match; the series ends", asked)
        assert person.finish() == 0, person.text
    finally:
        if person.process.poll() is None:
            person.process.kill()
    assert len(complete_transcripts(person.text)) == 1
    paths = transcripts(bruno)
    assert len(paths) == 1 and verify_transcript(paths[0]).status == "valid"


def test_a_question_cut_off_by_a_decline_ends_its_line(tmp_path: Path) -> None:
    """The host's person is asked "play again?" and Bruno's decline arrives before the answer:
    the question is withdrawn and what follows starts on a line of its own."""
    person = Terminal(tmp_path / "host", "host", "--listen", "127.0.0.1:0",
                      "--ephemeral-identity", *BRISCOLA_2, "--name", "Alba")
    try:
        invite = shlex.split(person.wait_for(r"^p2pcards join (.+?)\r?$")[1])[0]
        bruno = join(tmp_path / "bruno", invite, "--bot", "--name", "Bruno", "--rematch", "1")
        asked = play_to_the_question(person)
        told = person.wait_for(r"Bruno declined another match; the series ends", asked)
        assert person.finish() == 0, person.text
    finally:
        if person.process.poll() is None:
            person.process.kill()
    assert "\n" in person.text[asked:told.start()], person.text[-400:]
    assert len(complete_transcripts(person.text)) == 1
    assert len(transcripts(bruno)) == 1
