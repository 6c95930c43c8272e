"""``p2pcards demo``: bots in separate processes play a full match, verified afterwards."""

from __future__ import annotations

import re
from pathlib import Path

from test_net_processes import Peer

from p2pcards.bots import make_bot
from p2pcards.games import get_game
from p2pcards.local import make_tables, run_in_memory
from p2pcards.net.seats import bot_seed
from p2pcards.transcript import read_transcript


def test_demo_with_no_arguments_plays_and_verifies_a_scopa_match(tmp_path: Path) -> None:
    demo = Peer(tmp_path, "demo")
    assert demo.finish() == 0, demo.stderr
    out = demo.stdout
    assert "\x1b" not in out  # no terminal: plain lines
    assert re.search(r"^invite: p2pcards://127\.0\.0\.1:\d+/[0-9a-f]{32}#\S+$", out, re.M)
    assert re.search(r"^verified \d+ envelopes: ", out, re.M)
    assert re.search(r"^final scores: .*; winner: ", out, re.M)
    assert re.search(r"^match wall time [\d.]+ s .*; verification [\d.]+ s$", out, re.M)
    path = Path(demo.wait_for(r"^transcript: (/.+\.p2pt)$")[1])
    assert path.parent == tmp_path / "transcripts" and path.name.startswith("scopa-")
    assert not (tmp_path / "identity.key").exists()  # the demo never touches the user's key


def test_a_seeded_demo_is_the_in_memory_match_with_the_same_seed(tmp_path: Path) -> None:
    demo = Peer(tmp_path, "demo", "--game", "briscola", "--variant", "italian", "--seed", "7")
    assert demo.finish() == 0, demo.stderr
    path = Path(demo.wait_for(r"^transcript: (/.+\.p2pt)$")[1])
    genesis, tables = make_tables("briscola", "italian", 2, seed=7)
    bots = [make_bot("briscola", "smart", bot_seed(i, 7)) for i in range(2)]
    run = run_in_memory(genesis, tables, bots)
    found = read_transcript(path)
    assert found.genesis == genesis.encode()
    assert found.envelopes == run.frames
    scores = "-".join(str(s) for s in run.match_scores)
    assert re.search(rf"^match over: .* \({scores}\)$", demo.stdout, re.M)
    assert get_game("briscola").name in path.name


def test_demo_refuses_a_bad_player_count_before_starting_anything(tmp_path: Path) -> None:
    demo = Peer(tmp_path, "demo", "--game", "tressette", "--players", "2")
    assert demo.finish() == 2
    assert demo.stderr.startswith("p2pcards: ") and "Traceback" not in demo.stderr
