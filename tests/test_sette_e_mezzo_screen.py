"""What a person sees in the banking games: the bank, the limits, every balance and bet, the
table, and bet amounts listed as one range per kind of bet."""

from __future__ import annotations

import io

from banking_play import Dealer
from rich.console import Console

from p2pcards.cards import cards
from p2pcards.faces.terminal import describe_event, move_lines, parse_choice, state_table
from p2pcards.games import get_game
from p2pcards.games.base import Action
from p2pcards.local import make_tables
from p2pcards.table import CardsRevealed


def render(observation: dict[str, object], game: str) -> str:
    console = Console(width=120, record=True, file=io.StringIO())
    console.print(state_table(dict(observation), "t", get_game(game).screen))
    return console.export_text()


def test_sette_screen_shows_bank_limits_chips_bets_and_hidden_holes() -> None:
    spec = get_game("sette-e-mezzo")
    state = spec.new_match(spec.preset(players=3))
    d = Dealer(state, [["2C", "KS", "5D"], ["7C", "5C", "6B", "QD"]])
    d.act("minimum 1", "maximum 20", "bet 10", "bet 5", "hit")
    text = render(state.observation(0), "sette-e-mezzo")
    assert "seat 1" in text and "1 to 20" in text
    assert "[0] 100  [1] 100  [2] 100" in text
    assert "[0] 5  [2] 10" in text
    assert "[2] ?? QD (bet 10, playing)" in text and "[0] 5C (bet 5, playing)" in text


def test_ziginette_screen_shows_the_board_with_its_bets() -> None:
    spec = get_game("ziginette")
    state = spec.new_match(spec.preset(players=3))
    d = Dealer(state, [["2C", "KS", "5D"], ["3C", "5D", "7S"]])
    d.act("minimum 2", "maximum 20", "bet 3C 4")
    text = render(state.observation(0), "ziginette")
    assert "7S" in text and "3C: [2] 4   5D: no bets" in text and "2 to 20" in text


def test_amounts_are_listed_as_ranges_and_still_chosen_by_number_or_text() -> None:
    legal = sorted([Action("done")] + [Action("bet", value="3C", amount=a) for a in range(2, 21)]
                   + [Action("bet", value="5D", amount=a) for a in (2, 3)])
    assert move_lines(legal) == ["  1-19. bet 3C 2 … bet 3C 20", "  20. bet 5D 2",
                                 "  21. bet 5D 3", "  22. done"]
    assert parse_choice("7", legal) == Action("bet", value="3C", amount=8)
    assert parse_choice("bet 3c 12", legal) == Action("bet", value="3C", amount=12)


def test_the_bank_draw_is_described_card_by_seat() -> None:
    genesis, _ = make_tables("sette-e-mezzo", "classic", 3, seed=1)
    state = genesis.spec.new_match(genesis.game_config())
    state.begin_hand()
    steps = state.pending_chance()
    event = CardsRevealed(steps, cards("2C KS 5D"))
    assert describe_event(event, genesis, 0) == (
        "in front of you: 2C; in front of seat1 [1]: KS; in front of seat2 [2]: 5D")
