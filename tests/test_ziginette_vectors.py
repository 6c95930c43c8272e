"""The replay vectors of ziginette (`protocol/vectors/games/ziginette.json`): the engine
reproduces every hand result, the final ledger and the winner, action by action."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from banking_play import replay_vector

from p2pcards.games import get_game

GAME = "ziginette"
VECTORS = Path(__file__).resolve().parents[1] / "protocol" / "vectors" / "games"
VECTORS = VECTORS / f"{GAME}.json"
CASES: list[dict[str, Any]] = json.loads(VECTORS.read_text())["cases"]


@pytest.mark.parametrize("case", CASES, ids=[f"{c['config']['players']}p" for c in CASES])
def test_vector_replays_exactly(case: dict[str, Any]) -> None:
    spec = get_game(GAME)
    replay_vector(spec.new_match(spec.config_from_wire(case["config"])), case)
    assert sum(case["scores"]) == case["config"]["chips"] * case["config"]["players"]
