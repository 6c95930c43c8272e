"""``p2pcards show`` speaks of sides by their players' names and prints no Python values."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from attacks import recorded_match, write_transcript

from p2pcards import cli
from p2pcards.cli.verify import hand_result_lines


def test_a_hand_result_names_each_number_by_its_side() -> None:
    hand = {"points": [2, -1], "match_scores": [10, 7], "lines": [
        {"category": "total (half-points)", "values": [15, None], "points": [0, 0]},
        {"category": "won/lost", "values": [2, -1], "points": [2, -1]}]}
    assert hand_result_lines(hand, ["Anna [0]", "Bruno [1]"]) == [
        "  result: +2 to Anna [0], -1 to Bruno [1]; match Anna [0] 10 · Bruno [1] 7",
        "    total: Anna [0] 7½ → 0 · Bruno [1] - → 0",
        "    won/lost: Anna [0] 2 → 2 · Bruno [1] -1 → -1"]


def test_partners_are_one_side_named_by_both(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    run = recorded_match("briscola", "italian", 4, 1)
    path = write_transcript(tmp_path / "match.p2pt", run.genesis, run.frames)
    assert cli.main(["show", str(path)]) == 0
    out = capsys.readouterr().out
    ours, theirs = "seat0 [0] + seat2 [2]", "seat1 [1] + seat3 [3]"
    results = re.findall(r"^  result: .*$", out, re.M)
    assert results and all(
        re.fullmatch(rf"  result: [+-]\d+ to {re.escape(ours)}, [+-]\d+ to "
                     rf"{re.escape(theirs)}; match {re.escape(ours)} \d+ · "
                     rf"{re.escape(theirs)} \d+", line) for line in results), results
    assert re.search(rf"^match over: .*; ({re.escape(ours)}|{re.escape(theirs)}) won$", out,
                     re.M)
    for leak in ("+(", "->", "values [", "side 0", "side 1"):
        assert leak not in "\n".join(results) + out.rpartition("match over")[2]
