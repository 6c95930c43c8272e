"""The Burraco game vector and the 108-card canonical order of the normative section."""

from __future__ import annotations

import json

from p2pcards.cards import FRENCH_108, card
from p2pcards.games.base import Action
from p2pcards.games.burraco import SPEC, BurracoMatch
from p2pcards.games.burraco_vectors import VECTOR_FILE, _text, build, main


def test_vector_file_regenerates_byte_for_byte() -> None:
    assert VECTOR_FILE.read_text() == _text(build())
    assert main(["--check"]) == 0


def test_vector_replays_to_its_result_with_a_fresh_engine() -> None:
    data = json.loads(VECTOR_FILE.read_text())
    state = SPEC.new_match(SPEC.config_from_wire(data["config"]))
    assert isinstance(state, BurracoMatch)
    state.begin_hand()
    kinds = set()
    for event in data["events"]:
        if "chance" in event:
            steps = state.pending_chance()
            assert [s.position for s in steps] == [e["position"] for e in event["chance"]]
            assert all(data["deck"][e["position"]] == e["card"] for e in event["chance"])
            state.complete_chance([card(e["card"]) for e in event["chance"]])
        else:
            assert state.to_act == event["seat"]
            action = Action.from_wire(event["action"])
            assert [c.code for c in state.card_use(action).shown] == event["shown"]
            state.apply(action)
            kinds.add(action.kind)
    assert state.end_reason == data["end_reason"] == "closing"
    assert state.hand_result().to_wire() == data["result"]
    assert {"draw", "meld", "add", "discard"} <= kinds


def test_canonical_order_of_the_108_cards() -> None:
    codes = [c.code for c in FRENCH_108.cards]
    assert (codes[0], codes[12], codes[13], codes[51], codes[52], codes[103]) == (
        "AH1", "KH1", "AD1", "KS1", "AH2", "KS2")
    assert codes[104:] == ["X1", "X2", "X3", "X4"] and len(set(codes)) == 108
