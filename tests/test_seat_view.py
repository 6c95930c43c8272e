"""The seat presenter (faces/view.py), what every face draws: at a real decision of a real
in-memory match, its moves are the legal moves each once with the engine index a face sends
back, its hand is the seat's hand sorted, and its JSON holds no card of another seat's hand."""

from __future__ import annotations

import json

import pytest
from attacks import Driver
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pcards.faces.view import SeatPresenter
from p2pcards.faces.wording import move_text


@pytest.mark.parametrize(("game", "preset", "players"), [
    ("briscola", "italian", 2), ("scopa", "classic", 2), ("sette-e-mezzo", "classic", 3)])
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(1, 10_000))
def test_a_seat_view_shows_its_moves_and_hand_and_nothing_of_the_others(
        game: str, preset: str, players: int, seed: int) -> None:
    driver = Driver.new(game, preset, players, seed)
    driver.run_until(lambda d: any(t.needs_decision for t in d.tables))
    seat = next(i for i, t in enumerate(driver.tables) if t.needs_decision)
    table = driver.tables[seat]
    presenter = SeatPresenter(driver.genesis, seat)
    presenter.update([], table.engine.deck, table.observation())
    view = presenter.view(table)
    legal = table.legal_actions()
    assert sorted(m.index for m in view.moves) == list(range(len(legal)))
    assert [m.number for m in view.moves] == list(range(1, len(legal) + 1))
    for move in view.moves:
        assert move.text == move_text(legal[move.index], table.engine.deck)
    hand = table.observation()["hand"]
    assert sorted(view.hand) == sorted(hand) and view.your_turn
    shown = json.dumps(view.to_json())
    public = json.dumps(table.observation())  # what the engine lets this seat see
    for other, other_table in enumerate(driver.tables):
        if other == seat:
            continue
        for code in other_table.observation().get("hand", []):
            if f'"{code}"' not in public:  # a card of another hand, not shown to all
                assert f'"{code}"' not in shown, (other, code)
