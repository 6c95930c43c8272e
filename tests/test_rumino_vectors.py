"""protocol/vectors/games/rumino_melds.json: every deadwood and rumino kind is what the engine
and an independent brute force compute, and every listed split is a valid optimal split."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from test_rumino_melds import brute_force

from p2pcards.cards import cards
from p2pcards.games.rumino_melds import card_value, deadwood, is_meld, rumino_kind

VECTORS = (Path(__file__).resolve().parent.parent / "protocol" / "vectors" / "games"
           / "rumino_melds.json")


def test_rumino_meld_vectors() -> None:
    data = json.loads(VECTORS.read_text())
    assert data["description"] and len(data["cases"]) >= 20
    kinds = Counter()
    for case in data["cases"]:
        hand = cards(case["hand"])
        assert deadwood(hand) == case["deadwood"], case
        if len(hand) == 7:
            assert brute_force(hand) == case["deadwood"], case
            assert rumino_kind(hand) == case["rumino"], case
        kinds[case["rumino"]] += 1
        melds = [cards(m) for m in case["melds"]]
        used = [c for m in melds for c in m]
        assert len(used) == len(set(used)) and set(used) <= set(hand)
        assert all(is_meld(m) for m in melds)
        assert sum(card_value(c) for c in hand if c not in used) == case["deadwood"]
    assert kinds["kind"] and kinds["sequence"] and kinds[None]
