"""Seven and a Half: card values, the wild Re di Denari, every payout rule and bank passing,
computed by hand; limits and cover checks; chips conserved and live views agreeing with full
information over random playouts."""

from __future__ import annotations

import pytest
from banking_play import Dealer, live_and_full
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pcards.bots import RandomBot, make_bot
from p2pcards.cards import cards
from p2pcards.games import get_game
from p2pcards.games.base import Action, IllegalMove, Phase
from p2pcards.games.sette_e_mezzo import SetteMatch, best_total, min_total, two_card_seven

SPEC = get_game("sette-e-mezzo")


def match(players: int, draw: str, **flags: object) -> SetteMatch:
    state = SPEC.new_match(SPEC.preset(players=players, **flags))
    assert isinstance(state, SetteMatch)
    return state


@pytest.mark.parametrize(("hand", "best", "lowest", "seven"), [
    ("AC", 2, 2, False),
    ("5D JC", 11, 11, False),
    ("7C QS", 15, 15, True),
    ("KD JB", 15, 3, True),          # the wild king as 7 with a face card
    ("KD 5C", 14, 12, False),        # 5 + 2: 7, the best value that does not bust
    ("KD 7C", 16, 16, False),        # 7 + at least 1: bust whatever the wild value
    ("KD", 14, 2, False),
    ("3C 4C JD", 15, 15, False),     # 7 1/2 in three cards is not a two-card 7 1/2
    ("6C 2S", 16, 16, False),
])
def test_values_in_half_points(hand: str, best: int, lowest: int, seven: bool) -> None:
    assert best_total(list(cards(hand))) == best
    assert min_total(list(cards(hand))) == lowest
    assert two_card_seven(list(cards(hand))) is seven


def test_draw_for_the_bank_takes_the_highest_card() -> None:
    state = match(3, "")
    Dealer(state, [["2C", "KS", "5D"], []])
    assert state.banker == 1 and [c.code for c in state.drawn] == ["2C", "KS", "5D"]
    assert state.phase is Phase.ACTION and state.to_act == 1
    # equal ranks: Denari beats Coppe
    other = match(2, "")
    Dealer(other, [["KC", "KD"], []])
    assert other.banker == 1


def test_two_card_seven_paid_two_to_one_bust_collected_at_once_and_bank_passes() -> None:
    state = match(3, "", hands=1)
    d = Dealer(state, [["2C", "KS", "5D"], ["7C", "5C", "6B", "QD", "4S", "2D"]])
    d.act("minimum 1", "maximum 20")
    assert state.to_act == 2  # the banker's left
    d.act("bet 10", "bet 5")
    assert state.hand(2)[0] is not None and state.to_act == 2
    d.act("hit")
    assert state.legal_actions() == [Action("seven-and-a-half")]
    d.act("seven-and-a-half")
    d.act("hit")                                   # seat 0: 5 + 4 = 9
    assert state.legal_actions() == [Action("bust")]
    with pytest.raises(IllegalMove) as err:
        state.apply(Action("stand"))
    assert err.value.rule == "must-bust"
    d.act("bust")
    assert state.ledger.balances == (95, 105, 100)  # the bust bet is collected at once
    assert state.to_act == 1 and state.observation(0)["cards"][1] == ["6B"]
    d.act("hit")                                   # banker 6 + 2 = 8: bust
    assert state.phase is Phase.HAND_OVER
    result = state.hand_result()
    assert result.points == (-5, -15, 20)
    lines = {ln.category: ln.values for ln in result.lines}
    assert lines["bet"] == (5, None, 10)
    assert lines["total (half-points)"] == (18, 16, 15)
    assert lines["two-card 7½"] == (0, 0, 1)
    assert lines["balance"] == (95, 85, 120)
    assert lines["next banker"] == (None, None, 1)
    state.next_hand()
    assert state.match_over and state.winner == 2 and state.match_scores == (95, 85, 120)
    assert state.banker == 2


def test_banker_two_card_seven_pushes_two_card_and_beats_three_card_seven() -> None:
    state = match(3, "")
    d = Dealer(state, [["2C", "KS", "5D"], ["JC", "3C", "7D", "KD", "4B", "QB", "JS"]])
    d.act("minimum 1", "maximum 20", "bet 10", "bet 6")
    d.act("hit", "seven-and-a-half")               # JC + KD (as 7)
    d.act("hit", "hit", "stand")                   # 3 + 4 + 1/2: 7 1/2 in three cards
    d.act("hit")                                   # banker 7D + JS: two-card 7 1/2, stops
    assert state.phase is Phase.HAND_OVER
    assert state.hand_result().points == (-6, 6, 0)
    lines = {ln.category: ln.values for ln in state.hand_result().lines}
    assert lines["next banker"] == (None, 1, None)  # the banker keeps the bank


def test_higher_wins_lower_loses_ties_push_and_the_wild_king_is_best_for_its_holder() -> None:
    state = match(4, "")
    d = Dealer(state, [["AC", "2C", "3C", "KB"], ["5D", "KD", "2S", "6C", "4C", "4S"]])
    assert state.banker == 3
    d.act("minimum 2", "maximum 30", "bet 10", "bet 10", "bet 10")
    d.act("stand")                                 # seat 0: 5
    d.act("hit", "stand")                          # seat 1: KD + 4: KD is 3, total 7
    d.act("hit", "stand")                          # seat 2: 2 + 4 = 6
    d.act("stand")                                 # banker: 6
    assert state.hand_result().points == (-10, 10, 0, 0)
    assert state.observation(0)["cards"][1] == ["KD", "4C"]  # every hole card shown at the end


def test_nobody_bets_no_card_is_dealt() -> None:
    state = match(2, "")
    d = Dealer(state, [["KS", "2C"], []])
    d.act("minimum 1", "maximum 5", "pass")
    assert state.phase is Phase.HAND_OVER and state.hand_result().points == (0, 0)


def test_limits_and_cover_checks() -> None:
    state = match(3, "")
    d = Dealer(state, [["2C", "KS", "5D"], []])
    for bad, rule in [(Action("minimum", amount=0), "bad-limit"),
                      (Action("bet", amount=5), "limits-first"),
                      (Action("minimum", amount=51), "bad-limit")]:   # cap: 100 / 2
        with pytest.raises(IllegalMove) as err:
            state.apply(bad)
        assert err.value.rule == rule
    d.act("minimum 5")
    with pytest.raises(IllegalMove, match="from 5 to 50"):
        state.apply(Action("maximum", amount=4))
    d.act("maximum 50")
    with pytest.raises(IllegalMove) as err:
        state.apply(Action("bet", amount=4))
    assert err.value.rule == "outside-limits"
    d.act("bet 40")                                # the bank can still pay 2 x 10 more
    assert max(a.amount for a in state.legal_actions()) == 10
    with pytest.raises(IllegalMove) as err:
        state.apply(Action("bet", amount=11))
    assert err.value.rule == "bank-cannot-cover"
    d.act("bet 10")
    assert state.bets == {2: 40, 0: 10}


def test_the_bet_checks_run_in_the_pages_order() -> None:
    # protocol/games/sette-e-mezzo.md §5: bet-or-pass, then malformed-action (a value, or no
    # amount), then outside-limits, cannot-cover, bank-cannot-cover
    state = match(3, "", chips=20)
    d = Dealer(state, [["2C", "KS", "5D"], []])
    d.act("minimum 2", "maximum 10")
    for bad, rule in [(Action("hit"), "bet-or-pass"),
                      (Action("bet", value="x", amount=99), "malformed-action"),
                      (Action.from_wire({"kind": "bet"}), "malformed-action"),
                      (Action.from_wire({"kind": "bet", "amount": 0}), "malformed-action"),
                      (Action("bet", amount=-3), "outside-limits"),
                      (Action("bet", amount=11), "outside-limits")]:
        with pytest.raises(IllegalMove) as err:
            state.apply(bad)
        assert err.value.rule == rule, bad
    d.act("bet 10")
    # the bank (20) can pay 2 x 10 in all: seat 0 may not bet, whatever its own chips
    with pytest.raises(IllegalMove) as err:
        state.apply(Action("bet", amount=2))
    assert err.value.rule == "bank-cannot-cover"


def test_a_live_view_leaves_a_hidden_bust_to_the_audit() -> None:
    full = match(2, "")
    d = Dealer(full, [["KS", "2C"], ["6C", "5D", "5B"]])
    d.act("minimum 1", "maximum 10")
    live = full.copy()                             # the banker's (seat 0's) live view
    for engine, deal in ((full, ["6C", "5D"]), (live, [None, "5D"])):
        engine.apply(Action("bet", amount=5))
        engine.complete_chance([None if c is None else cards(c)[0] for c in deal])
        engine.apply(Action("hit"))                # seat 1: 6 + 5 = 11: bust
        engine.complete_chance(list(cards("5B")))
    assert live.hand(1) == (None, cards("5B")[0])
    live.apply(Action("stand"))                    # cannot be refuted without the hole card
    with pytest.raises(IllegalMove) as err:
        full.apply(Action("stand"))                # the full replay refutes it
    assert err.value.rule == "must-bust"


def test_the_live_must_bust_boundary_is_a_face_up_total_of_15() -> None:
    # protocol/games/sette-e-mezzo.md §5: a live view refuses hit and stand when the face-up
    # cards' lowest total is 15 half-points or more, and leaves 14 to the audit
    full = match(2, "")
    Dealer(full, [["KS", "2C"], ["AC", "5D", "7C", "JS"]]).act("minimum 1", "maximum 10")
    live = full.copy()                             # the banker's view: seat 1's AC unknown
    for engine, deal in ((full, ["AC", "5D"]), (live, [None, "5D"])):
        engine.apply(Action("bet", amount=5))
        engine.complete_chance([None if c is None else cards(c)[0] for c in deal])
        engine.apply(Action("hit"))
        engine.complete_chance(list(cards("7C")))  # face up: 14
    left = live.copy()
    left.apply(Action("stand"))                    # 14 + at least 1 is not over 15
    with pytest.raises(IllegalMove) as err:
        full.copy().apply(Action("stand"))         # AC + 7C = 16: the audit refutes it
    assert err.value.rule == "must-bust"
    live.apply(Action("hit"))
    live.complete_chance(list(cards("JS")))        # face up: 15
    for kind in ("hit", "stand"):
        with pytest.raises(IllegalMove) as err:
            live.copy().apply(Action(kind))
        assert err.value.rule == "must-bust"


@settings(max_examples=12, deadline=None)
@given(st.integers(2, 8), st.integers(0, 10_000), st.booleans(), st.integers(10, 300),
       st.booleans())
def test_chips_conserved_and_live_views_agree(players: int, seed: int, smart: bool, chips: int,
                                              until_broke: bool) -> None:
    state = SPEC.new_match(SPEC.preset(players=players, hands=3, chips=chips,
                                       until_broke=until_broke))
    bots = [make_bot("sette-e-mezzo", "smart", seed + s) if smart else RandomBot(seed + s)
            for s in range(players)]
    results = live_and_full(state, bots, seed)
    assert results and state.match_over
    assert sum(state.match_scores) == chips * players
    for r in results:
        assert sum(r["points"]) == 0

