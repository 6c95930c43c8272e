"""A person's terminal in Calabrasella: the thousand-odd discards are summarised, a discard is
typed with its cards in any order, and the screen shows the bidding and answers by name, in the
style of every other game's screen."""

from __future__ import annotations

import io
import re

from calabrasella_views import Views, exchange
from rich.console import Console

from p2pcards.cards import cards
from p2pcards.faces.names import SeatNames
from p2pcards.faces.screen_text import presented
from p2pcards.faces.terminal import (
    LONG_LIST,
    SUIT_LEGEND,
    move_lines,
    parse_choice,
    state_table,
)
from p2pcards.games import all_games
from p2pcards.games.base import Action
from p2pcards.games.calabrasella import SPEC
from p2pcards.offline.memory import make_tables


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


def render(views: Views, seat: int) -> str:
    """``seat``'s screen as its person reads it (names from a three-seat table's genesis)."""
    genesis, _ = make_tables("calabrasella", "classic", 3, seed=1)
    names = SeatNames(genesis, seat)
    observation = presented("calabrasella", views.full.observation(seat), names)
    console = Console(width=100, record=True, highlight=False, file=io.StringIO())
    console.print(state_table(observation, "calabrasella", SPEC.screen, names=names))
    return console.export_text()


def test_screen_shows_bids_and_answers_by_name() -> None:
    views = Views.deal()
    text = render(views, 0)
    assert "{}" not in text and "None" not in text
    views.honest(Action("pass"), Action("bid"))
    text = render(views, 1)
    assert "│ bids        │ seat0 [0]: pass · you: bid" in text
    assert "│ declarer    │ you" in text and "│ card points │ declarer 0 · defenders 0" in text
    assert "│ chips       │ seat0 [0] 100 · you 100 · seat2 [2] 100" in text


def test_the_screen_is_in_the_style_of_every_game() -> None:
    """Labels in lower case as every game's, no row of dashes for what has not happened yet,
    and a legend of the same form as the other games' (suits first)."""
    text = render(Views.deal(), 0)
    rows = [line.split("│")[1].strip() for line in text.splitlines() if line.startswith("│")]
    assert rows and all(label == label.lower() for label in rows)
    assert "—" not in text
    assert rows == ["stage", "dealer", "discarded", "card points", "chips", "your hand"]
    for game in all_games():
        legend = game.legend or SUIT_LEGEND
        assert re.match(r"(suits|palos): ", legend), (game.name, legend)
        assert all(label == label.lower() for _, label in game.screen), game.name
