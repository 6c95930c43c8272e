"""The Calabrasella vector ``protocol/vectors/games/calabrasella_hand.json``: one whole hand
(the worked example of ``protocol/games/calabrasella.md``) with the deck order, every chance
batch, every action as each seat receives it, and the result under both ``set_aside`` rules. The
test rebuilds it with the engine and compares; ``python tests/test_calabrasella_vectors.py``
rewrites it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from calabrasella_views import SWEEP, Views, mask

from p2pcards.cards import cards
from p2pcards.games.base import Action
from p2pcards.games.calabrasella import SPEC

VECTOR = (Path(__file__).resolve().parent.parent / "protocol" / "vectors" / "games"
          / "calabrasella_hand.json")


def _hand(preset: str) -> tuple[Views, list[dict[str, Any]], list[dict[str, Any]]]:
    views = Views.deal(config=SPEC.preset(preset))
    batches: list[dict[str, Any]] = [{"zone": "hand", "positions": list(range(36)),
                                      "seats": [i % 3 for i in range(36)],
                                      "visible_to": "owner"}]
    actions: list[dict[str, Any]] = []
    script = [Action("bid"), Action("call", cards=cards("3B")),
              Action("give", card=cards("3B")[0]), Action("return", card=cards("JD")[0]),
              Action("discard", cards=cards("QD")), Action("take", cards=cards("7S"))]
    script += [Action("play", card=c) for row in SWEEP for c in cards(row)]
    for action in script:
        actor = views.full.to_act
        use = views.full.card_use(action)
        actions.append({
            "seat": actor,
            "action": action.to_wire(),
            "as_seen_by": [mask(action, use, actor, s).to_wire() for s in range(3)],
            "observer": mask(action, use, actor, None).to_wire(),
        })
        views.honest(action)
        if action.kind == "discard":
            batches.append({"zone": "widow", "positions": list(range(36, 40)),
                            "visible_to": "all", "cards": [c.code for c in views.full.widow]})
    return views, batches, actions


def build_vector() -> dict[str, Any]:
    """The vector, computed by the engine."""
    out: dict[str, Any] = {
        "description": "one Calabrasella hand: deal 0 (seat 2 deals, seat 0 bids first); seat 0 "
        "plays alone, calls 3B, seat 1 passes it and gets JD back, seat 0 discards QD, takes 7S "
        "and wins every trick",
        "deck": [],
        "batches": [],
        "actions": [],
        "results": {},
    }
    for preset in ("classic", "full-count"):
        views, batches, actions = _hand(preset)
        result = views.full.hand_result()
        views.full.next_hand()
        out["deck"] = [c.code for c in views.deck]
        out["batches"] = batches
        out["actions"] = actions
        out["results"][preset] = {
            "config": SPEC.preset(preset).to_wire(),
            "result": result.to_wire(),
            "scores": list(views.full.match_scores),
        }
    return out


def test_vector_file_matches_the_engine() -> None:
    assert json.loads(VECTOR.read_text()) == build_vector()


def test_vector_has_the_worked_example_numbers() -> None:
    data = json.loads(VECTOR.read_text())
    assert data["results"]["classic"]["result"]["points"] == [68, -34, -34]
    assert data["results"]["full-count"]["result"]["points"] == [140, -70, -70]
    give = next(a for a in data["actions"] if a["action"]["kind"] == "give")
    assert [x.get("card") for x in give["as_seen_by"]] == ["3B", "3B", "??"]


if __name__ == "__main__":
    VECTOR.write_text(json.dumps(build_vector(), indent=1) + "\n")
