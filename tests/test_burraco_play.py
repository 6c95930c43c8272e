"""Burraco between processes: ``p2pcards demo`` (four bot processes over loopback TCP, a
transcript that verifies) and a person at the terminal who sees the hand sorted by suit and
rank, both sides' melds, the pile, the counts and the numbered moves, and plays a whole match
by typing numbers."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_net_processes import Peer, host

from p2pcards.records.transcript import read_transcript
from p2pcards.table import replay_frames
from p2pcards.verify import verify_transcript


def _check_transcript(path: Path) -> None:
    report = verify_transcript(path)
    assert report.status == "valid", report.violation
    assert report.game == "burraco" and report.hands
    found = read_transcript(path)
    from p2pcards.seating.genesis import Genesis

    table = replay_frames(Genesis.decode(found.genesis), found.envelopes)
    engine = table.engine
    assert table.finished and engine.match_over
    assert any(engine.melds(0)) or any(engine.melds(1))  # type: ignore[attr-defined]


def _finish(peer: Peer, seconds: float) -> int:
    """The exit status, waiting up to ``seconds`` (a loaded machine plays slowly)."""
    try:
        peer.process.wait(seconds)
    except BaseException:
        peer.kill()
        raise
    return peer.finish()


def _demo(tmp_path: Path, *args: str, seconds: float = 600) -> Path:
    demo = Peer(tmp_path, "demo", "--game", "burraco", "--players", "4", *args)
    assert _finish(demo, seconds) == 0, demo.stderr
    assert re.search(r"^verified \d+ envelopes: ", demo.stdout, re.M)
    assert re.search(r"^final scores: .*; winner: ", demo.stdout, re.M)
    path = Path(demo.wait_for(r"^transcript: (/.+\.p2pt)$")[1])
    assert path.name.startswith("burraco-")
    return path


def test_demo_plays_a_quick_burraco_match_between_processes(tmp_path: Path) -> None:
    _check_transcript(_demo(tmp_path, "--variant", "quick", "--seed", "3"))


@pytest.mark.slow
def test_demo_plays_a_whole_match_to_2000(tmp_path: Path) -> None:
    _check_transcript(_demo(tmp_path, "--seed", "1", seconds=3600))


@pytest.mark.slow
def test_a_person_plays_burraco_at_the_terminal(tmp_path: Path) -> None:
    typed = "0\n" + "1\n" * 4000  # a bad number, then always the first move listed
    hosting, _ = host(tmp_path, "--game", "burraco", "--variant", "quick", "--players", "4",
                      "--bots", "3", "--seed", "2", "--insecure-public-keys", stdin=typed)
    assert _finish(hosting, 1200) == 0, hosting.stderr
    out = hosting.stdout
    assert "suits: H hearts, D diamonds, C clubs, S spades" in out
    assert "0 is not a move number" in out
    for label in ("our melds", "their melds", "discard pile", "stock", "pozzetti left",
                  "cards in hand", "your hand"):
        assert label in out, label
    assert re.search(r"^\s+1\. draw$", out, re.M) and re.search(r"^\s+2\. take$", out, re.M)
    assert re.search(r"^\s+\d+\. discard \S+$", out, re.M)
    assert re.search(r"#1 \S+ \S+ \S+", out)  # a meld on the table, numbered
    assert "hand result" in out and "clean burraco" in out and "match over: " in out
    assert verify_transcript(hosting.transcript()).status == "valid"
