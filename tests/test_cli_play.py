"""A person plays through the real CLI, answering on standard input through a pipe."""

from __future__ import annotations

from pathlib import Path

from test_net_processes import BRISCOLA_2, host

from p2pcards.verify import verify_transcript


def test_a_person_plays_a_whole_match_typing_numbers_and_bad_choices(tmp_path: Path) -> None:
    typed = "99\nzz\n" + "1\n" * 200  # two bad choices, then always the first move listed
    hosting, _ = host(tmp_path, *BRISCOLA_2, "--bots", "1", stdin=typed)
    assert hosting.finish() == 0, hosting.stderr
    out = hosting.stdout
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
