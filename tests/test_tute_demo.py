"""``p2pcards demo --game tute --players 4``: four bot processes play a whole Tute match over
loopback TCP; the transcript verifies, is the in-memory match with the same seed, and a one-bit
change in any envelope makes it fail verification."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from attacks import write_transcript
from test_net_processes import Peer, host

from p2pcards.bots import make_bot
from p2pcards.net.seats import bot_seed
from p2pcards.offline.memory import make_tables, run_in_memory
from p2pcards.records.transcript import read_transcript
from p2pcards.verify import verify_transcript


@pytest.mark.slow
def test_tute_demo_between_processes_verifies(tmp_path: Path) -> None:
    demo = Peer(tmp_path, "demo", "--game", "tute", "--players", "4", "--variant", "single",
                "--seed", "3")
    assert demo.finish() == 0, demo.stderr
    out = demo.stdout
    assert sorted(re.findall(r"^seat (\d) \(\S+\) joined", out, re.M)) == ["1", "2", "3"]
    assert re.search(r"^verified \d+ envelopes: ", out, re.M)
    assert re.search(r"^match over: .* won \(\d-\d\)$", out, re.M)
    path = Path(demo.wait_for(r"^transcript: (/.+\.p2pt)$")[1])
    assert path.name.startswith("tute-")
    assert verify_transcript(path).status == "valid"
    # a table of three or more seats shares its hand keys against a dropout by default
    genesis, tables = make_tables("tute", "single", 4, seed=3, dropout="forfeit")
    run = run_in_memory(genesis, tables, [make_bot("tute", "smart", bot_seed(i, 3))
                                          for i in range(4)])
    found = read_transcript(path)
    assert found.genesis == genesis.encode() and found.envelopes == run.frames
    # one bit changed in a play in the middle of the match: the transcript no longer verifies
    frames = list(found.envelopes)
    middle = len(frames) // 2
    flipped = bytearray(frames[middle])
    flipped[len(flipped) // 2] ^= 0x01
    frames[middle] = bytes(flipped)
    report = verify_transcript(write_transcript(tmp_path / "flipped.p2pt", genesis, frames))
    assert report.status == "invalid"
    assert report.violation is not None and report.violation.index == middle


@pytest.mark.slow
def test_a_person_plays_tute_on_the_terminal_with_spanish_names(tmp_path: Path) -> None:
    """Seat 0 is a person typing the first move listed (a declaration when one is offered: they
    sort first); three bots fill the table; the screen reads in Spanish."""
    typed = "1\n" * 200
    hosting, _ = host(tmp_path, "--game", "tute", "--variant", "single", "--players", "4",
                      "--bots", "3", stdin=typed)
    assert hosting.finish() == 0, hosting.stderr
    out = hosting.stdout
    assert "palos: D oros, C copas, S espadas, B bastos" in out
    assert "triunfo" in out and "your hand" in out
    assert re.search(r"\b(As|Rey|Caballo|Sota|\d) de (Oros|Copas|Espadas|Bastos)\b", out)
    assert "di Denari" not in out
    assert out.count("your turn") >= 10
    assert "hand result" in out and "match over: " in out
    assert verify_transcript(hosting.transcript()).status == "valid"
