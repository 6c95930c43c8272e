"""A person plays through the real CLI, answering on standard input through a pipe."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_net_processes import BRISCOLA_2, Peer, host

from p2pcards.verify import verify_transcript


def test_a_person_plays_a_whole_match_typing_numbers_and_bad_choices(tmp_path: Path) -> None:
    typed = "99\nzz\n" + "1\n" * 200  # two bad choices, then always the first move listed
    hosting, _ = host(tmp_path, *BRISCOLA_2, "--bots", "1", stdin=typed)
    assert hosting.finish() == 0, hosting.stderr
    out = hosting.stdout
    assert "bots take every other seat, so nobody needs an invite" in out
    assert "give this line" not in out and "p2pcards join" not in out
    assert "99 is not a move number (1 to 3)" in out
    assert "'zz' is neither a move number nor a card you can play" in out
    assert out.count("your turn") >= 20  # 20 cards each in a 2-player hand of Briscola
    assert "hand result" in out and "card points" in out
    assert "match over: " in out
    report = verify_transcript(hosting.transcript())
    assert report.status == "valid"
    assert hosting.wait_for(r"^transcript \(complete\)")


def test_end_of_input_leaves_the_table_cleanly(tmp_path: Path) -> None:
    hosting, _ = host(tmp_path, *BRISCOLA_2, "--bots", "1", stdin="")
    assert hosting.process.stdin is not None
    hosting.process.stdin.close()
    assert hosting.finish() == 130
    assert hosting.stderr == "p2pcards: you left the table; the match is abandoned"
    assert verify_transcript(hosting.transcript()).status == "incomplete"


@pytest.mark.parametrize("options, sentence", [
    (("--players", "0"), "scopa preset 'classic' is for 2, 3 or 4 players, not 0"),
    (("--players", "7"), "scopa preset 'classic' is for 2, 3 or 4 players, not 7"),
    (("--transcript", "{tmp}/missing/match.p2pt"),
     "--transcript {tmp}/missing/match.p2pt: the directory {tmp}/missing does not exist"),
    (("--transcript", "{tmp}"), "--transcript {tmp} is a directory; name a file in it"),
    (("--transcript", "{tmp}/taken.p2pt"),
     "--transcript {tmp}/taken.p2pt already exists; choose another file"),
])
def test_a_bad_choice_of_the_host_is_refused_before_any_invite(
        tmp_path: Path, options: tuple[str, ...], sentence: str) -> None:
    (tmp_path / "taken.p2pt").write_text("")
    args = [option.format(tmp=tmp_path) for option in options]
    hosting = Peer(tmp_path / "home", "host", "--listen", "127.0.0.1:0", *args)
    assert hosting.finish() == 2
    assert hosting.stderr == "p2pcards: " + sentence.format(tmp=tmp_path)
    assert hosting.stdout.count("p2pcards join") == 0


def test_a_joiner_with_a_bad_transcript_path_is_stopped_before_it_connects(
        tmp_path: Path) -> None:
    invite = "p2pcards://127.0.0.1:9/00000000000000000000000000000000#AAAA-AAAA-AAAA-AAAA"
    joining = Peer(tmp_path / "home", "join", invite, "--bot",
                   "--transcript", str(tmp_path / "missing" / "x.p2pt"))
    assert joining.finish() == 2
    assert joining.stderr == (f"p2pcards: --transcript {tmp_path}/missing/x.p2pt: the directory "
                              f"{tmp_path}/missing does not exist")


SEEDED = ("p2pcards: --seed makes every key of this seat predictable, so anyone who guesses the "
          "number can read its hidden cards and sign as it: use it with p2pcards demo, or add "
          "--insecure-public-keys to play a seeded seat anyway (tests only)")


@pytest.mark.parametrize("command", ["host", "join"])
def test_a_seeded_networked_seat_is_refused_without_the_public_keys_flag(
        tmp_path: Path, command: str) -> None:
    invite = "p2pcards://127.0.0.1:9/00000000000000000000000000000000#AAAA-AAAA-AAAA-AAAA"
    where = ["--listen", "127.0.0.1:0"] if command == "host" else [invite, "--bot"]
    seeded = Peer(tmp_path / "home", command, *where, "--seed", "3")
    assert seeded.finish() == 2
    assert seeded.stderr == SEEDED
    assert "p2pcards join" not in seeded.stdout and "joined" not in seeded.stdout
    alone = Peer(tmp_path / "home2", command, *where, "--insecure-public-keys")
    assert alone.finish() == 2
    assert alone.stderr == "p2pcards: --insecure-public-keys goes with --seed"


def test_a_seeded_host_with_the_public_keys_flag_plays_and_repeats_its_keys(
        tmp_path: Path) -> None:
    """With --insecure-public-keys the seed still makes the match reproducible: two hosts of one
    seed sign with one identity key."""
    fingerprints = []
    for run in range(2):
        hosting, _ = host(tmp_path / str(run), *BRISCOLA_2, "--bots", "1", "--bot", "--seed",
                          "3", "--insecure-public-keys")
        assert hosting.finish() == 0, hosting.stderr
        report = verify_transcript(hosting.transcript())
        assert report.status == "valid"
        fingerprints.append(report.seats[0].fingerprint)
    assert fingerprints[0] == fingerprints[1]
