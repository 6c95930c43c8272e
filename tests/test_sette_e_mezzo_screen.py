"""What a person sees in the banking games: the bank, the limits, every balance and bet, the
table, bet amounts typed as themselves, totals as 7½, and every seat named by its player."""

from __future__ import annotations

import io
from pathlib import Path

from banking_play import Dealer
from rich.console import Console
from test_net_processes import host

from p2pcards.cards import cards
from p2pcards.faces.names import SeatNames
from p2pcards.faces.screen_text import points_and_a_half, presented, result_row
from p2pcards.faces.terminal import (
    move_labels,
    move_lines,
    parse_choice,
    result_table,
    state_table,
)
from p2pcards.faces.wording import describe_event
from p2pcards.games import get_game
from p2pcards.games.base import Action
from p2pcards.offline.memory import make_tables
from p2pcards.table import CardsRevealed
from p2pcards.verify import verify_transcript


def render(observation: dict[str, object], game: str) -> str:
    console = Console(width=120, record=True, file=io.StringIO())
    console.print(state_table(dict(observation), "t", get_game(game).screen))
    return console.export_text()


def sette_after_a_hit(seat: int) -> tuple[str, dict[str, object]]:
    """Seat 1 holds the bank (KS in the draw); seat 2 bets 10 and holds 7C QD (7½), seat 0
    bets 5; the screen of ``seat`` as a person reads it, and its raw observation."""
    genesis, _ = make_tables("sette-e-mezzo", "classic", 3, seed=1)
    state = genesis.spec.new_match(genesis.game_config())
    d = Dealer(state, [["2C", "KS", "5D"], ["7C", "5C", "6B", "QD"]])
    d.act("minimum 1", "maximum 20", "bet 10", "bet 5", "hit")
    observation = state.observation(seat)
    shown = presented("sette-e-mezzo", observation, SeatNames(genesis, seat))
    return render(shown, "sette-e-mezzo"), observation


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


def test_the_bank_chips_bets_and_table_are_named_by_player() -> None:
    text, raw = sette_after_a_hit(0)
    assert "│ bank       │ seat1 [1]" in text
    assert "you 100 · seat1 [1] 100 · seat2 [2] 100" in text
    assert "you 5 · seat2 [2] 10" in text
    assert "you: 5C (bet 5, playing)" in text and "seat2 [2]: ?? QD (bet 10, playing)" in text
    assert "[1]" not in text.replace("seat1 [1]", "")  # no seat number without its name
    assert raw["chips"] == "[0] 100  [1] 100  [2] 100"  # the engine's view is unchanged


def test_totals_read_as_points_and_a_half() -> None:
    text, raw = sette_after_a_hit(2)
    assert raw["total"] == 15
    assert "│ your total │ 7½" in text and "half" not in text and "15" not in text
    assert [points_and_a_half(n) for n in (0, 1, 2, 14, 15, 16)] == [
        "0", "½", "1", "7", "7½", "8"]
    assert result_row("total (half-points)", [15, None, 9]) == ("total", ["7½", "-", "4½"])
    assert result_row("bets", [5, None]) == ("bets", ["5", "-"])


def test_a_hand_result_shows_totals_as_seven_and_a_half() -> None:
    from p2pcards.games.base import HandResult, ScoreLine

    result = HandResult(lines=(ScoreLine("total (half-points)", (15, 9), (0, 0)),),
                        points=(0, 0))
    console = Console(width=120, record=True, file=io.StringIO())
    console.print(result_table(result, ["you", "Bob [1]"]))
    text = console.export_text()
    assert "│ total    │ 7½ → 0 │" in text and "4½ → 0" in text and "half" not in text


def test_the_bet_menu_is_typed_by_amount() -> None:
    legal = [Action("bet", amount=a) for a in range(2, 14)] + [Action("pass")]
    assert move_lines(legal) == ["  bet 2 … bet 13: type the amount, 7 for bet 7",
                                 "  pass: type pass"]
    assert move_labels(legal) == [str(a) for a in range(2, 14)] + ["pass"]
    assert parse_choice("5", legal) == Action("bet", amount=5)
    assert parse_choice("13", legal) == Action("bet", amount=13)
    assert parse_choice("pass", legal) == Action("pass")
    assert parse_choice("bet 9", legal) == Action("bet", amount=9)
    assert parse_choice("1", legal) == "1 is not one of the amounts listed (2 to 13)"
    assert parse_choice("14", legal) == "14 is not one of the amounts listed (2 to 13)"


def test_the_banker_types_its_limits_by_amount_too() -> None:
    legal = [Action("minimum", amount=a) for a in range(1, 51)]
    assert move_lines(legal) == ["  minimum 1 … minimum 50: type the amount, 25 for minimum 25"]
    assert parse_choice("20", legal) == Action("minimum", amount=20)


def test_a_person_banker_types_the_limits_by_amount_in_a_real_process(tmp_path: Path) -> None:
    """Seed 3 gives the person the bank: typing 5 twice sets the limits to 5 and 5, so the bot
    can only bet 5; the screen names the bank and the chips by player."""
    hosting, _ = host(tmp_path, "--game", "sette-e-mezzo", "--players", "2", "--bots", "1",
                      "--seed", "3", "--insecure-public-keys", stdin="5\n5\nstand\nq\ny\n")
    assert hosting.finish() == 130, hosting.stderr
    out = hosting.stdout
    assert "  minimum 1 … minimum 50: type the amount, 25 for minimum 25" in out
    assert "you: minimum 5" in out and "you: maximum 5" in out
    assert "seat1 [1]: bet 5" in out
    assert "│ bank       │ you " in out and "you 100 · seat1 [1] 100" in out
    assert "you: 7C (bank, playing)   seat1 [1]: ?? 5B (bet 5, stood)" in out
    assert "[0]" not in out and "half-points" not in out
    assert verify_transcript(hosting.transcript()).status == "incomplete"


def test_ziginette_board_bets_are_named_by_player() -> None:
    genesis, _ = make_tables("ziginette", "classic", 3, seed=1)
    state = genesis.spec.new_match(genesis.game_config())
    d = Dealer(state, [["2C", "KS", "5D"], ["3C", "5D", "7S"]])
    d.act("minimum 2", "maximum 20", "bet 3C 4")
    shown = presented("ziginette", state.observation(0), SeatNames(genesis, 0))
    text = render(shown, "ziginette")
    assert "3C: seat2 [2] 4   5D: no bets" in text
    assert "│ bank           │ seat1 [1]" in text and "you 100 · seat1 [1] 100" in text
