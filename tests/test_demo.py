"""``p2pcards demo``: bots in separate processes play a full match, verified afterwards.

The demo's peers are forked from the demo process where that is possible and started as
``python -m p2pcards`` otherwise (``P2PCARDS_DEMO_START``); both ways are played here.
"""

from __future__ import annotations

import functools
import os
import re
import sys
import threading
from pathlib import Path

import pytest
from test_net_processes import Peer
from test_relay_support import RelayProcess

from p2pcards.bots import make_bot
from p2pcards.cli.demo import START_ENV, DemoStartError, choose_start, fork_available
from p2pcards.games import get_game
from p2pcards.net.seats import bot_seed
from p2pcards.offline.memory import MatchRun, make_tables, run_in_memory
from p2pcards.records.transcript import read_transcript
from p2pcards.verify import verify_transcript

CAN_FORK = hasattr(os, "fork") and sys.platform != "darwin"
FORKED = "(forked from this one)"
SPAWNED = "(each started as python -m p2pcards)"
BOTH = ["fork", "spawn"] if CAN_FORK else ["spawn"]


@functools.cache
def in_memory_briscola(seed: int) -> MatchRun:
    """The italian Briscola match a two-seat demo with ``--seed SEED`` plays, played among
    in-memory tables (once for the fork and the spawn case of a test)."""
    genesis, tables = make_tables("briscola", "italian", 2, seed=seed)
    bots = [make_bot("briscola", "smart", bot_seed(i, seed)) for i in range(2)]
    return run_in_memory(genesis, tables, bots)


def test_demo_with_no_arguments_plays_and_verifies_a_scopa_match(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(START_ENV, raising=False)
    demo = Peer(tmp_path, "demo")
    assert demo.finish() == 0, demo.stderr
    out = demo.stdout
    assert "\x1b" not in out  # no terminal: plain lines
    assert (FORKED if CAN_FORK else SPAWNED) in out.splitlines()[0]  # fork where it can
    assert re.search(r"^invite: p2pcards://127\.0\.0\.1:\d+/[0-9a-f]{32}\?rules=[0-9a-f]{32}#\S+$",
                     out, re.M)
    assert re.search(r"^verified \d+ envelopes: ", out, re.M)
    assert re.search(r"^final scores: .*; winner: ", out, re.M)
    assert re.search(r"^match wall time [\d.]+ s .*; verification [\d.]+ s$", out, re.M)
    path = Path(demo.wait_for(r"^transcript: (/.+\.p2pt)$")[1])
    assert path.parent == tmp_path / "transcripts" and path.name.startswith("scopa-")
    assert not (tmp_path / "identity.key").exists()  # the demo never touches the user's key


@pytest.mark.parametrize("start", BOTH)
def test_a_seeded_demo_is_the_in_memory_match_with_the_same_seed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, start: str) -> None:
    monkeypatch.setenv(START_ENV, start)
    demo = Peer(tmp_path, "demo", "--game", "briscola", "--variant", "italian", "--seed", "7")
    assert demo.finish() == 0, demo.stderr
    assert (FORKED if start == "fork" else SPAWNED) in demo.out[0]
    path = Path(demo.wait_for(r"^transcript: (/.+\.p2pt)$")[1])
    run = in_memory_briscola(7)
    found = read_transcript(path)
    assert found.genesis == run.genesis.encode()
    assert found.envelopes == run.frames
    assert verify_transcript(path).status == "valid"
    scores = "-".join(str(s) for s in run.match_scores)
    assert re.search(rf"^match over: .* \({scores}\)$", demo.stdout, re.M)
    assert get_game("briscola").name in path.name


def test_a_three_seat_demo_seats_two_joiners_and_verifies(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Italian Briscola at three seats (three hands): a whole Tressette match at three seats
    between processes is test_net_matches.py's, so it is not played twice."""
    monkeypatch.setenv(START_ENV, BOTH[0])  # several forked joiners (spawned: as before)
    demo = Peer(tmp_path, "demo", "--game", "briscola", "--variant", "italian", "--players", "3",
                "--seed", "5")
    assert demo.finish() == 0, demo.stderr
    joined = re.findall(r"^seat (\d) \(\S+\) joined", demo.stdout, re.M)
    assert sorted(joined) == ["1", "2"]
    assert re.search(r"^verified \d+ envelopes: ", demo.stdout, re.M)
    path = Path(demo.wait_for(r"^transcript: (/.+\.p2pt)$")[1])
    assert verify_transcript(path).status == "valid"


@pytest.mark.parametrize("start", BOTH)
def test_a_failing_peer_process_is_named_in_one_line_each(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, start: str) -> None:
    home = tmp_path / "home"
    home.write_text("a file where the host wants its transcripts directory")
    monkeypatch.setenv(START_ENV, start)
    demo = Peer(home, "demo", "--game", "briscola", "--variant", "italian", "--seed", "3")
    assert demo.finish() == 3
    out = demo.stdout
    assert re.search(r"^host exited with status 2: p2pcards: cannot create the transcripts "
                     r"directory .*$", out, re.M)  # found before the invite is printed
    assert re.search(r"^joiner 1 exited with status 2: p2pcards: no invite on standard input$",
                     out, re.M)
    assert out.splitlines()[-1] == "demo failed: the host wrote no transcript"
    assert "Traceback" not in out


def test_demo_refuses_a_bad_player_count_before_starting_anything(tmp_path: Path) -> None:
    demo = Peer(tmp_path, "demo", "--game", "tressette", "--players", "2")
    assert demo.finish() == 2
    assert demo.stderr.startswith("p2pcards: ") and "Traceback" not in demo.stderr


def test_demo_refuses_an_unknown_start_method_in_one_sentence(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(START_ENV, "thread")
    demo = Peer(tmp_path, "demo")
    assert demo.finish() == 2
    assert demo.stderr == (f"p2pcards: unknown demo start method 'thread' in {START_ENV} "
                           "(fork, spawn or auto)")
    assert demo.stdout == ""


def test_start_methods_by_name_and_from_the_environment(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(START_ENV, "Spawn")
    assert choose_start() == "spawn"
    assert choose_start(" SPAWN ") == "spawn"
    monkeypatch.setenv(START_ENV, "")
    assert choose_start() == ("fork" if fork_available() else "spawn")
    assert choose_start("auto") == choose_start()
    with pytest.raises(DemoStartError, match=r"^unknown demo start method 'vfork' \(fork, "):
        choose_start("vfork")


def test_no_fork_while_another_thread_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(START_ENV, raising=False)
    release = threading.Event()
    thread = threading.Thread(target=release.wait)
    thread.start()
    try:
        assert not fork_available()
        assert choose_start() == "spawn"
        with pytest.raises(DemoStartError, match="cannot fork its peer processes here"):
            choose_start("fork")
    finally:
        release.set()
        thread.join()


@pytest.mark.parametrize("start", BOTH)
def test_the_demo_through_a_relay_it_starts_itself(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, start: str) -> None:
    """Italian Briscola (two hands): the demo's default Scopa match is played by
    test_demo_with_no_arguments_plays_and_verifies_a_scopa_match."""
    monkeypatch.setenv(START_ENV, start)
    demo = Peer(tmp_path, "demo", "--relay", "--game", "briscola", "--variant", "italian",
                "--seed", "3")
    assert demo.finish() == 0, demo.stderr
    out = demo.stdout
    assert "through a relay in one more local process" in demo.out[0]
    assert re.search(r"^relay: listening on 127\.0\.0\.1:\d+ \(process \d+\)$", out, re.M)
    assert re.search(r"^invite: p2pcards\+relay://127\.0\.0\.1:\d+/[0-9a-f]{32}"
                     r"\?rules=[0-9a-f]{32}#\S+$", out,
                     re.M)
    assert "relay: exited" not in out and "relay: did not stop" not in out  # stopped cleanly
    path = Path(demo.wait_for(r"^transcript: (/.+\.p2pt)$")[1])
    run = in_memory_briscola(3)
    assert read_transcript(path).envelopes == run.frames  # the very match played in memory


def test_the_demo_checks_a_running_relay_and_says_when_there_is_none(tmp_path: Path) -> None:
    process = RelayProcess(tmp_path / "relay.log")
    try:
        demo = Peer(tmp_path, "demo", "--relay", f"127.0.0.1:{process.port}",
                    "--players", "3", "--game", "briscola", "--variant", "italian")
        assert demo.finish() == 0, demo.stderr
        assert f"through the relay at 127.0.0.1:{process.port}" in demo.out[0]
        assert re.search(r"^verified \d+ envelopes: ", demo.stdout, re.M)
    finally:
        assert process.stop() == 0
    assert process.log().count("event=joined ") == 3
    demo = Peer(tmp_path, "demo", "--relay", f"127.0.0.1:{process.port}")
    assert demo.finish() == 3
    assert re.search(rf"^host exited with status 3: p2pcards: cannot use the relay at "
                     rf"127\.0\.0\.1:{process.port}: cannot reach the relay", demo.stdout, re.M)


def test_a_demo_with_house_rules_passes_them_to_every_peer(tmp_path: Path) -> None:
    demo = Peer(tmp_path, "demo", "--game", "briscola", "--variant", "italian", "--set",
                "partners_look=off", "--seed", "4")
    assert demo.finish() == 0, demo.stderr
    assert "preset italian, partners_look=off, 2 bot players" in demo.out[0]
    path = Path(demo.wait_for(r"^transcript: (/.+\.p2pt)$")[1])
    report = verify_transcript(path)
    assert report.status == "valid" and report.config["partners_look"] is False
