"""Ziginette: the board, the playette redeal, every payout rule and the banker's choice, computed
by hand; limits and cover checks; the match end; chips conserved and live views agreeing with full
information over random playouts."""

from __future__ import annotations

import pytest
from banking_play import Dealer, live_and_full
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pcards.bots import RandomBot, make_bot
from p2pcards.cards import card
from p2pcards.games import get_game
from p2pcards.games.base import Action, IllegalMove, Phase
from p2pcards.games.ziginette import ZiginetteMatch

SPEC = get_game("ziginette")


def match(players: int, **flags: object) -> ZiginetteMatch:
    state = SPEC.new_match(SPEC.preset(players=players, **flags))
    assert isinstance(state, ZiginetteMatch)
    return state


def lines(state: ZiginetteMatch) -> dict[str, tuple[int | None, ...]]:
    return {ln.category: ln.values for ln in state.hand_result().lines}


def test_board_matches_dead_cards_new_board_cards_and_the_bankers_rank() -> None:
    state = match(3)
    d = Dealer(state, [["2C", "KS", "5D"], ["3C", "5D", "7S", "3B", "3S", "JC", "7D"]])
    assert state.banker == 1
    d.act("minimum 2", "maximum 20")
    assert [c.code for c in state.board] == ["3C", "5D"] and state.banker_card is not None
    assert state.to_act == 2
    d.act("bet 3C 4", "bet 5D 5", "done")          # seat 2
    d.act("bet 3C 10", "done")                     # seat 0
    # 3B matches 3C: the bank collects 4 + 10; 3S is dead; JC is a new board card
    assert [c.code for c in state.board] == ["5D", "JC"]
    assert state.ledger.balances == (90, 114, 96)
    assert state.observation(0)["dead"] == [3] and state.observation(2)["hand"] == ["5D"]
    d.act("done", "bet JC 6", "done")
    # 7D matches the banker's 7S: the bank pays every bet on the board at even money
    assert state.phase is Phase.HAND_OVER
    assert state.ledger.balances == (96, 103, 101)
    assert state.hand_result().points == (-4, 3, 1)
    got = lines(state)
    assert got["bet"] == (16, None, 9)
    assert got["balance"] == (96, 103, 101)
    assert got["next banker"] == (None, None, 1)   # the bank passes to the next seat
    assert got["cards turned"] == (None, 7, None)


def test_playette_is_redealt_with_the_same_limits() -> None:
    state = match(3)
    d = Dealer(state, [["2C", "KS", "5D"], ["4C", "4D", "6S"], ["3C", "5D", "7S"]])
    d.act("minimum 2", "maximum 20")
    assert state.playettes == 1 and state.limits == (2, 20)
    assert [c.code for c in state.board] == ["3C", "5D"] and state.to_act == 2
    # a pair with the banker's card is a playette too
    other = match(2)
    od = Dealer(other, [["KS", "2C"], ["4C", "6D", "6S"], ["3C", "5D", "7S"]])
    od.act("minimum 1", "maximum 9")
    assert other.playettes == 1 and other.banker_card is not None


def test_all_board_cards_matched_then_the_banker_passes_the_bank() -> None:
    state = match(2)
    d = Dealer(state, [["KS", "2C"], ["3C", "5D", "7S", "3B", "5B"]])
    d.act("minimum 1", "maximum 50", "bet 3C 10", "bet 5D 20", "done")
    assert state.to_act == 0 and state.legal_actions() == [Action("deal-again"),
                                                            Action("pass-bank")]
    d.act("pass-bank")
    assert state.hand_result().points == (30, -30)
    assert lines(state)["next banker"] == (None, 1)
    state.next_hand()
    assert state.banker == 1


def test_no_bets_ends_the_hand_and_the_banker_may_deal_again() -> None:
    state = match(2)
    d = Dealer(state, [["KS", "2C"], ["3C", "5D", "7S"]])
    d.act("minimum 1", "maximum 50", "done", "deal-again")
    assert state.hand_result().points == (0, 0)
    assert lines(state)["next banker"] == (1, None)


def test_a_broke_seat_ends_the_match() -> None:
    state = match(2, chips=10)
    d = Dealer(state, [["KS", "2C"], ["3C", "5D", "7S", "3B"]])
    d.act("minimum 1", "maximum 10", "bet 3C 10", "done")
    # 3B takes seat 1's last chips; nobody can bet on 5D, so the banker chooses
    d.act("deal-again")
    state.next_hand()
    assert state.match_over and state.winner == 0 and state.match_scores == (20, 0)


def test_limits_and_bet_checks() -> None:
    state = match(3, chips=10)
    d = Dealer(state, [["2C", "KS", "5D"], ["3C", "5D", "7S"]])
    with pytest.raises(IllegalMove) as err:
        state.apply(Action("minimum", amount=11))  # the bank holds 10
    assert err.value.rule == "bad-limit"
    d.act("minimum 1", "maximum 10", "bet 3C 8")
    cases = [(Action("bet", value="5D", amount=3), "cannot-cover"),    # 2 chips left free
             (Action("bet", value="4C", amount=1), "not-on-board"),
             (Action("bet", value="3C", amount=1), "already-bet"),
             (Action("stand"), "bet-or-done"),
             (Action.from_wire({"kind": "bet", "value": "5D"}), "malformed-action"),
             (Action("bet", value="5D", amount=11), "outside-limits")]
    for bad, rule in cases:
        with pytest.raises(IllegalMove) as err:
            state.apply(bad)
        assert err.value.rule == rule
    d.act("done")
    # the bank has 10 and 8 of it is at risk: seat 0 may bet at most 2
    assert max(a.amount for a in state.legal_actions()) == 2
    with pytest.raises(IllegalMove) as err:
        state.apply(Action("bet", value="5D", amount=3))
    assert err.value.rule == "bank-cannot-cover"


def test_a_bet_names_its_board_card_by_code() -> None:
    """A bet finds its board card by the code it names; a text that is no card code, a card
    that is not on the board and a value that is no text each get their own sentence."""
    state = match(2, chips=10)
    d = Dealer(state, [["KS", "2C"], ["3C", "5D", "7S"]])
    d.act("minimum 1", "maximum 10")
    cases = [(Action("bet", value="ZZ", amount=1), "'ZZ' is not a card code"),
             (Action("bet", value="4C", amount=1), "4C is not a board card open to bets"),
             (Action("bet", value=5, amount=1), "5 is not a card code")]  # type: ignore[arg-type]
    for bad, message in cases:
        with pytest.raises(IllegalMove) as err:
            state.apply(bad)
        assert err.value.rule == "not-on-board" and message in str(err.value)

    class Code(str):
        """A text that is a card code, of another type than ``str``."""

    state.apply(Action("bet", value=Code("5D"), amount=2))
    assert state.bets_on(card("5D")) == {1: 2}


@settings(max_examples=12, deadline=None)
@given(st.integers(2, 8), st.integers(0, 10_000), st.booleans(), st.integers(10, 300),
       st.booleans())
def test_chips_conserved_and_live_views_agree(players: int, seed: int, smart: bool, chips: int,
                                              until_broke: bool) -> None:
    state = SPEC.new_match(SPEC.preset(players=players, hands=3, chips=chips,
                                       until_broke=until_broke))
    bots = [make_bot("ziginette", "smart", seed + s) if smart else RandomBot(seed + s)
            for s in range(players)]
    results = live_and_full(state, bots, seed)
    assert results and state.match_over
    assert sum(state.match_scores) == chips * players
    for r in results:
        assert sum(r["points"]) == 0
