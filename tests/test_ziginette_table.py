"""ziginette at the table: the ledger is in every signed hand result, a forged ledger
re-signed by every seat is rejected by the verifier, and a demo between processes verifies and
shows it."""

from __future__ import annotations

from pathlib import Path

import pytest
from banking_table import demo_between_processes, forged_ledger_is_rejected, ledger_in_results

GAME = "ziginette"


def test_ledger_in_every_hand_result() -> None:
    ledger_in_results(GAME)


def test_verifier_rejects_a_forged_ledger_signed_by_every_seat(tmp_path: Path) -> None:
    forged_ledger_is_rejected(tmp_path, GAME)


@pytest.mark.slow
def test_four_player_demo_between_processes(tmp_path: Path) -> None:
    demo_between_processes(tmp_path, GAME, 4)
