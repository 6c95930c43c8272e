"""ziginette at the table: the ledger is in every signed hand result, a forged ledger
re-signed by every seat is rejected by the verifier, and a demo between processes verifies and
shows it."""

from __future__ import annotations

from pathlib import Path

import pytest
from banking_table import demo_between_processes, forged_ledger_is_rejected, ledger_in_results

from p2pcards.cli import main
from p2pcards.games import get_game

GAME = "ziginette"


def test_ledger_in_every_hand_result() -> None:
    ledger_in_results(GAME)


def test_verifier_rejects_a_forged_ledger_signed_by_every_seat(tmp_path: Path) -> None:
    forged_ledger_is_rejected(tmp_path, GAME)


@pytest.mark.slow
def test_four_player_demo_between_processes(tmp_path: Path) -> None:
    demo_between_processes(tmp_path, GAME, 4)


def test_settings_change_flags_and_bad_ones_are_one_sentence(
        capsys: pytest.CaptureFixture[str]) -> None:
    spec = get_game(GAME)
    assert spec.parse_settings(["chips=500", "until_broke=off", " hands = 7 "]) == {
        "chips": 500, "until_broke": False, "hands": 7}
    for args, message in [
        (["--set", "chips=lots"], "flag 'chips' of ziginette takes an integer, not 'lots'"),
        (["--set", "chips=5"], "flag 'chips' of ziginette takes an integer from 10 to 1000000, "
                               "not 5"),
        (["--set", "until_broke=maybe"], "flag 'until_broke' of ziginette is on or off, "
                                         "not 'maybe'"),
        (["--set", "pot=3"], "ziginette has no flag 'pot' (flags: chips, hands, until_broke)"),
        (["--set", "hands"], "a setting is NAME=VALUE, not 'hands'"),
    ]:
        assert main(["demo", "--game", GAME, *args]) == 2
        assert capsys.readouterr().err == f"p2pcards: {message}\n"
