"""A person's terminal in Calabrasella: the thousand-odd discards are summarised, a discard is
typed with its cards in any order, and the screen shows the bidding and answers by seat."""

from __future__ import annotations

from calabrasella_views import Views, exchange
from rich.console import Console

from p2pcards.cards import cards
from p2pcards.faces.terminal import LONG_LIST, move_lines, parse_choice, state_table
from p2pcards.games.base import Action
from p2pcards.games.calabrasella import SPEC


def test_a_discard_is_typed_with_cards_in_any_order() -> None:
    views = Views.deal()
    exchange(views)
    legal = views.full.legal_actions()
    assert len(legal) == 12 + 66 + 220 + 495  # 1 to 4 of the declarer's 12 cards
    want = Action("discard", cards=cards("QD KD"))
    assert parse_choice("discard qd kd", legal) == want
    assert parse_choice("discard [KD QD]", legal) == want
    assert parse_choice("discard QD 5B", legal) == (
        "'discard QD 5B' is neither a move number nor a card you can play")
    lines = move_lines(legal)
    assert len(lines) == 2 and "793 moves" in lines[0] and lines[1].startswith("  discard: 793")


def test_short_lists_stay_numbered() -> None:
    views = Views.deal()
    assert move_lines(views.full.legal_actions()) == ["   1. bid", "   2. pass"]
    assert LONG_LIST >= 12  # a hand of tricks is always listed in full


def test_screen_shows_bids_and_answers_by_seat() -> None:
    views = Views.deal()
    console = Console(width=100, record=True, highlight=False)
    console.print(state_table(views.full.observation(0), "calabrasella", SPEC.screen))
    assert "{}" not in console.export_text()  # no bids yet: a dash, not an empty map
    views.honest(Action("pass"), Action("bid"))
    console = Console(width=100, record=True, highlight=False)
    console.print(state_table(views.full.observation(1), "calabrasella", SPEC.screen))
    text = console.export_text()
    assert "seat 0: pass, seat 1: bid" in text
    assert "Declarer" in text and "Chips" in text
