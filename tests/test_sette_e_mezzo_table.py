"""sette-e-mezzo at the table: the ledger is in every signed hand result, a forged ledger
re-signed by every seat is rejected by the verifier, and a demo between processes verifies and
shows it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from banking_table import demo_between_processes, forged_ledger_is_rejected, ledger_in_results
from test_net_processes import host

from p2pcards.verify import verify_transcript

GAME = "sette-e-mezzo"


def test_ledger_in_every_hand_result() -> None:
    ledger_in_results(GAME)


def test_verifier_rejects_a_forged_ledger_signed_by_every_seat(tmp_path: Path) -> None:
    forged_ledger_is_rejected(tmp_path, GAME)


@pytest.mark.slow
def test_four_player_demo_between_processes(tmp_path: Path) -> None:
    demo_between_processes(tmp_path, GAME, 4)


@pytest.mark.slow
def test_a_person_plays_through_the_terminal_and_sees_bank_limits_chips_and_bets(
        tmp_path: Path) -> None:
    typed = "1\n" * 400  # always the first move listed: the lowest limits and bets, then hits
    hosting, _ = host(tmp_path, "--game", GAME, "--players", "2", "--bots", "1", stdin=typed)
    assert hosting.finish() == 0, hosting.stderr
    out = hosting.stdout
    for label in ("bank", "limits", "chips", "bets", "table", "cards left"):
        assert re.search(rf"^│ {label} ", out, re.M), label
    assert re.search(r"^  1-\d+\. (minimum|bet) \d+ … (minimum|bet) \d+$", out, re.M)
    assert re.search(r"you: (bet|minimum) \d+$", out, re.M)
    assert re.search(r"you: hit$", out, re.M)
    assert "hand result" in out and "balance" in out and "next banker" in out
    assert "match over: " in out
    assert verify_transcript(hosting.transcript()).status == "valid"
