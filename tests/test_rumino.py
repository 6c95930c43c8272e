"""Rumino engine: exact hand-computed cases for every rule (deal, turn, knock limit, gin, each
rumino kind, the out-of-turn claim racing the next draw, false claims, elimination, rebuys and the
pool), and random whole hands checking card conservation and that live views agree with full
information."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pcards.bots import RandomBot, make_bot
from p2pcards.bots.rumino import RuminoBot
from p2pcards.cards import FRENCH_108, Card, card, cards
from p2pcards.games.base import (
    ALL_SEATS,
    Action,
    BadPlayerCount,
    CardUse,
    IllegalMove,
    Phase,
    UnknownFlag,
    Zone,
)
from p2pcards.games.rumino import SPEC, RuminoConfig, RuminoMatch, rebuy_price
from p2pcards.offline.simulate import play_match


def config(players: int = 2, preset: str = "classic", **flags: object) -> RuminoConfig:
    cfg = SPEC.preset(preset, players=players, **flags)
    assert isinstance(cfg, RuminoConfig)
    return cfg


def hand(codes: str) -> list[Card]:
    return list(cards(codes))


DRAW_STOCK = Action("draw", value="stock")
DRAW_UP = Action("draw", value="upcard")
KNOCK = Action("knock")


def discard(code: str) -> Action:
    return Action("discard", card(code))


def deal(state: RuminoMatch, hands: dict[int, str], upcard: str) -> None:
    """Complete the pending deal with these hands (by seat) and upcard."""
    queues = {seat: list(cards(codes)) for seat, codes in hands.items()}
    revealed: list[Card | None] = []
    for step in state.pending_chance():
        if step.zone is Zone.HAND:
            assert step.seat is not None
            revealed.append(queues[step.seat].pop(0))
        else:
            revealed.append(card(upcard))
    assert all(not q for q in queues.values())
    state.complete_chance(revealed)


# --------------------------------------------------------------------------- deal and turn


def test_deal_three_players() -> None:
    state = SPEC.new_match(config(3))
    assert isinstance(state, RuminoMatch)
    state.begin_hand()
    steps = state.pending_chance()
    assert len(steps) == 22
    # dealer is seat 2, so seat 0 plays first and is dealt first, one card at a time
    assert [s.seat for s in steps[:6]] == [0, 1, 2, 0, 1, 2]
    assert all(s.zone is Zone.HAND and s.visible_to == frozenset({s.seat}) for s in steps[:21])
    assert steps[21] == type(steps[21])(21, Zone.DISCARD, None, ALL_SEATS)
    assert [s.position for s in steps] == list(range(22))
    deal(state, {0: "AH1 2H1 3H1 4H1 5H1 6H1 8C1", 1: "AS1 2S1 3S1 4S1 5S1 6S1 8C2",
                 2: "AD1 2D1 3D1 4D1 5D1 6D1 8D1"}, "KC1")
    assert state.phase is Phase.ACTION and state.to_act == 0 and state.dealer == 2
    assert state.stock_size == 108 - 22
    assert state.upcard == card("KC1")


def test_a_turn_stock_draw_is_private_and_the_discard_opens_the_claim_window() -> None:
    state = SPEC.new_match(config(3))
    assert isinstance(state, RuminoMatch)
    state.begin_hand()
    deal(state, {0: "AH1 2H1 3H1 4H1 5H1 6H1 8C1", 1: "AS1 2S1 3S1 4S1 5S1 6S1 8C2",
                 2: "AD1 2D1 3D1 4D1 5D1 6D1 8D1"}, "KC1")
    assert state.claimants() == frozenset()       # the deal's upcard was nobody's discard
    state.apply(DRAW_STOCK)
    assert state.phase is Phase.CHANCE
    (step,) = state.pending_chance()
    assert (step.position, step.zone, step.seat, step.visible_to) == (
        22, Zone.HAND, 0, frozenset({0}))
    state.complete_chance([card("9S2")])
    assert state.drawn and state.to_act == 0
    with pytest.raises(IllegalMove) as err:
        state.apply(DRAW_UP)
    assert err.value.rule == "already-drawn"
    state.apply(discard("9S2"))
    assert state.to_act == 1 and state.upcard == card("9S2")
    assert state.claimants() == frozenset({2})    # not the discarder, not the next player


def test_upcard_taken_is_public_and_cannot_be_thrown_back() -> None:
    state = RuminoMatch.from_position(
        config(2), [hand("AH1 2H1 3H1 4H1 5H1 6H1 8C1"), [None] * 7], cards("KC1"), to_act=0)
    state.apply(DRAW_UP)
    with pytest.raises(IllegalMove) as err:
        state.apply(discard("KC1"))
    assert err.value.rule == "discard-taken-upcard"
    assert discard("KC1") not in state.legal_actions()
    state.apply(discard("8C1"))
    assert card("KC1") in state.hand(0) and state.upcard == card("8C1")
    # seat 1's live view of seat 0: the taken upcard is known to be in that hand
    view = RuminoMatch.from_position(
        config(2), [[None] * 7, hand("AS1 2S1 3S1 4S1 5S1 6S1 8C2")], cards("KC1"), to_act=0)
    view.apply(DRAW_UP)
    view.apply(discard("8C1"))
    assert view.hand(0).count(None) == 6 and card("KC1") in view.hand(0)


def test_a_card_known_elsewhere_cannot_be_discarded_from_a_hidden_hand() -> None:
    view = RuminoMatch.from_position(
        config(2), [[None] * 8, hand("AS1 2S1 3S1 4S1 5S1 6S1 8C2")], cards("KC1 QC1"),
        to_act=0, drawn=True)
    with pytest.raises(IllegalMove) as err:
        view.apply(discard("KC1"))     # it lies under the upcard
    assert err.value.rule == "card-not-in-hand"
    with pytest.raises(IllegalMove) as err:
        view.apply(discard("8C2"))     # it is in seat 1's hand, known to this view
    assert (err.value.rule, err.value.seat) == ("card-not-in-hand", 0)
    view.apply(discard("QS2"))         # unknown to seat 1: taken from a hidden slot
    assert view.hand(0) == (None,) * 7


# --------------------------------------------------------------------------- knock and gin


def test_knock_at_seven_deadwood_scores_everyone() -> None:
    # seat 0: 8-8-8 and 2-3-4 clubs, 7S2 loose: deadwood 7
    # seat 1: nothing melds: A+2+3+9+T+K+Q = 45; seat 2: 4-5-6 hearts, 5+6+9+T = 30
    state = RuminoMatch.from_position(
        config(3), [hand("8H1 8S1 8D1 2C1 3C1 4C1 7S2"), hand("AH1 2S1 3D1 9C1 TD1 KS1 QH1"),
                    hand("4H2 5H2 6H2 5S2 6S2 9D2 TC2")], cards("KC1"), to_act=0)
    assert KNOCK in state.legal_actions()
    state.apply(KNOCK)
    assert state.phase is Phase.HAND_OVER
    result = state.hand_result()
    lines = {ln.category: ln for ln in result.lines}
    assert [ln.category for ln in result.lines] == ["knock", "deadwood", "gin"]
    assert lines["knock"].values == (1, None, None)
    assert lines["deadwood"].values == (7, 45, 30)
    assert lines["gin"].values == (None, None, None) and lines["gin"].points == (0, 0, 0)
    assert result.points == (7, 45, 30)


def test_knock_limit_exactly() -> None:
    at_limit = hand("9H1 9S1 9D1 2C1 3C1 4C1 7S2")     # 7 loose: deadwood 7
    just_over = hand("9H1 9S1 9D1 2C1 3C1 4C1 8S2")    # 8 loose: deadwood 8
    other = hand("AH1 2S1 3D1 9C2 TD1 KS1 QH1")
    ok = RuminoMatch.from_position(config(2), [at_limit, other], cards("KC1"), to_act=0)
    assert KNOCK in ok.legal_actions()
    ok.apply(KNOCK)
    assert ok.hand_result().points == (7, 45)
    over = RuminoMatch.from_position(config(2), [just_over, other], cards("KC1"), to_act=0)
    assert KNOCK not in over.legal_actions()
    with pytest.raises(IllegalMove) as err:
        over.apply(KNOCK)
    assert (err.value.rule, err.value.seat) == ("knock-over-limit", 0)
    assert over.phase is Phase.ACTION            # unchanged


def test_knock_only_before_drawing() -> None:
    state = RuminoMatch.from_position(
        config(2), [hand("7H1 7S1 7D1 8C1 9C1 TC1 6H1 2D1"), hand("AH1 2S1 3D1 9C2 TD1 KS1 QH1")],
        cards("KC1"), to_act=0, drawn=True)
    with pytest.raises(IllegalMove) as err:
        state.apply(KNOCK)
    assert err.value.rule == "already-drawn"


def test_gin_scores_minus_ten_and_the_others_their_deadwood() -> None:
    gin = hand("7H1 7S1 7D1 7C2 8C1 9C1 TC1")
    other = hand("AH1 2S1 3D1 9C2 TD1 KS1 QH1")
    state = RuminoMatch.from_position(config(2), [gin, other], cards("KC1"), to_act=0,
                                      scores=[30, 40])
    state.apply(KNOCK)
    result = state.hand_result()
    lines = {ln.category: ln for ln in result.lines}
    assert lines["gin"].values == (1, None) and lines["gin"].points == (-10, 0)
    assert lines["deadwood"].values == (0, 45) and lines["deadwood"].points == (0, 45)
    assert result.points == (-10, 45)
    state.next_hand()
    assert state.scores == (20, 85)
    assert state.phase is Phase.SHUFFLE and state.hand_number == 1


def test_a_false_knock_passes_live_and_is_caught_in_the_full_replay() -> None:
    false = hand("AH1 2S1 3D1 9C2 TD1 KS1 QH1")
    mine = hand("7H1 7S1 7D1 7C2 8C1 9C1 2C1")
    live = RuminoMatch.from_position(config(2), [[None] * 7, mine], cards("KC1"), to_act=0)
    live.apply(KNOCK)                              # seat 1 cannot see seat 0's hand
    assert live.phase is Phase.HAND_OVER
    full = RuminoMatch.from_position(config(2), [false, mine], cards("KC1"), to_act=0)
    with pytest.raises(IllegalMove) as err:
        full.apply(KNOCK)
    assert (err.value.rule, err.value.seat) == ("knock-over-limit", 0)
    assert "45 deadwood" in str(err.value)


# --------------------------------------------------------------------------- the rumino


SEQUENCE = "7D1 8D1 9D1 TD1 JD1 QD1 KD1"
OF_A_KIND = "9H1 9H2 9S1 9S2 9D1 X1 9C2"


@pytest.mark.parametrize("codes", [SEQUENCE, OF_A_KIND])
def test_a_dealt_rumino_is_shown_before_drawing_and_wins(codes: str) -> None:
    state = RuminoMatch.from_position(
        config(3), [hand("AH1 2S1 3D1 9C1 TC1 KS1 QH1"), hand(codes),
                    hand("4H2 5H2 6H2 5S2 6S2 9D2 TC2")], cards("KC1"), to_act=1,
        scores=[10, 95, 0])
    show = Action("rumino", cards=tuple(sorted(cards(codes))))
    assert show in state.legal_actions()
    assert state.card_use(show) == CardUse(kept=show.cards)
    state.apply(show)
    result = state.hand_result()
    assert [ln.category for ln in result.lines] == ["rumino"]
    assert result.lines[0].values == (None, 1, None) and result.points == (0, 0, 0)
    state.next_hand()
    assert state.match_over and state.winner == 1 and state.scores == (10, 95, 0)


def test_a_dealt_rumino_waits_for_its_turn_and_an_earlier_knock_ends_the_hand() -> None:
    # rumino.md §5: a rumino is shown on its holder's turn; a knock before it ends the hand
    state = RuminoMatch.from_position(
        config(3), [hand("AH1 2H1 3H1 5C1 5D1 5S1 2C1"), hand(SEQUENCE),
                    hand("4H2 5H2 6H2 5S2 6S2 9D2 TC2")], cards("KC1"), to_act=0)
    assert state.to_act == 0 and state.claimants() == frozenset()
    assert all(a.kind != "rumino" for a in state.legal_actions())
    state.apply(KNOCK)
    result = state.hand_result()
    assert result.lines[0].category == "knock"
    assert "rumino" not in [ln.category for ln in result.lines]


def test_the_discard_that_empties_the_stock_opens_no_claim_window() -> None:
    # rumino.md §5: with three players a discard normally opens a window; not the last one
    state = RuminoMatch.from_position(
        config(3), [hand("AH1 2S1 3D1 9C2 TD1 KS1 QH1"), hand("4H2 5H2 6H2 5S2 6S2 9D2 TC2"),
                    hand("7D1 8D1 9D1 TD2 JD1 QD1 4C1")], cards("KC1"), to_act=0,
        stock_size=1)
    state.apply(DRAW_STOCK)
    state.complete_chance([card("KD1")])
    state.apply(discard("KD1"))                   # would complete seat 2's run of diamonds
    assert state.phase is Phase.HAND_OVER and state.claimants() == frozenset()


def test_rumino_with_a_joker_after_drawing_among_eight_cards() -> None:
    state = RuminoMatch.from_position(
        config(2), [hand("AS1 2S1 X2 4S1 5S1 6S1 KH1"), hand("AH1 2H1 3D1 9C1 TC1 KS1 QH1")],
        cards("7S2"), to_act=0)
    state.apply(DRAW_UP)
    shows = [a for a in state.legal_actions() if a.kind == "rumino"]
    assert shows == [Action("rumino", cards=tuple(sorted(cards("AS1 2S1 X2 4S1 5S1 6S1 7S2"))))]
    state.apply(shows[0])
    assert state.observation(1)["rumino"] == {
        "seat": 0, "cards": [c.code for c in shows[0].cards], "kind": "sequence",
        "claimed": False}
    state.next_hand()
    assert state.winner == 0


def test_a_shown_non_rumino_is_refused_live() -> None:
    view = RuminoMatch.from_position(
        config(2), [[None] * 7, hand("AH1 2H1 3D1 9C1 TC1 KS1 QH1")], cards("7S2"), to_act=0)
    with pytest.raises(IllegalMove) as err:
        view.apply(Action("rumino", cards=cards("AS1 2S1 3S1 4S1 5S1 6S1 8S1")))
    assert (err.value.rule, err.value.seat) == ("not-a-rumino", 0)


# --------------------------------------------------------------------------- the claim


def claim_position(view_of: int | None = None) -> RuminoMatch:
    """Three players; seat 0 has just discarded 7D2; seat 2 holds 8D..KD (and 4C1).
    ``view_of``: the live view of that seat (others' hands hidden), None = full information."""
    hands = [hand("AH1 2S1 3D1 9C1 TC1 KS1 QH1"), hand("4H2 5H2 6H2 5S2 6S2 9D2 TC2"),
             hand("8D1 9D1 TD1 JD1 QD1 KD1 4C1")]
    shown: list[list[Card | None]] = [
        list(h) if view_of is None or s == view_of else [None] * 7 for s, h in enumerate(hands)]
    return RuminoMatch.from_position(config(3), shown, cards("KC1 7D2"), to_act=1, discarder=0)


CLAIM = Action("claim", card("7D2"), tuple(sorted(cards("8D1 9D1 TD1 JD1 QD1 KD1"))))


def test_claim_actions_and_a_winning_claim() -> None:
    state = claim_position()
    assert state.claimants() == frozenset({2})
    assert state.claim_actions(2) == [CLAIM]
    assert state.claim_actions(0) == [] and state.claim_actions(1) == []
    assert state.card_use(CLAIM) == CardUse(kept=CLAIM.cards)
    state.apply_claim(2, CLAIM)
    assert state.phase is Phase.HAND_OVER and state.rumino_seat == 2
    assert state.upcard == card("KC1") and card("7D2") in state.hand(2)
    obs = state.observation(0)["rumino"]
    assert obs["claimed"] and obs["kind"] == "sequence" and obs["seat"] == 2
    state.next_hand()
    assert state.winner == 2


def test_the_claim_comes_first_then_the_next_draw_is_out_of_turn() -> None:
    state = claim_position()
    state.apply_claim(2, CLAIM)
    with pytest.raises(IllegalMove) as err:
        state.apply(DRAW_UP)
    assert err.value.rule == "wrong-phase"


def test_the_next_draw_comes_first_then_the_claim_is_closed() -> None:
    for first in (DRAW_UP, DRAW_STOCK):
        state = claim_position()
        state.apply(first)
        assert state.claimants() == frozenset()
        with pytest.raises(IllegalMove) as err:
            state.apply_claim(2, CLAIM)
        assert (err.value.rule, err.value.seat) == ("no-claim", 2)


def test_a_knock_also_closes_the_window() -> None:
    hands = [hand("AH1 2S1 3D1 9C1 TC1 KS1 QH1"), hand("4H2 5H2 6H2 5S2 6S2 7S2 AC2"),
             hand("8D1 9D1 TD1 JD1 QD1 KD1 4C1")]
    state = RuminoMatch.from_position(config(3), hands, cards("KC1 7D2"), to_act=1, discarder=0)
    state.apply(KNOCK)                     # 4-5-6 H, 5-6-7 S, ace loose: 1
    assert state.claimants() == frozenset()
    with pytest.raises(IllegalMove):
        state.apply_claim(2, CLAIM)


def test_nobody_else_may_claim_and_two_players_have_no_window() -> None:
    state = claim_position()
    for seat in (0, 1):
        with pytest.raises(IllegalMove) as err:
            state.apply_claim(seat, CLAIM)
        assert (err.value.rule, err.value.seat) == ("no-claim", seat)
    two = RuminoMatch.from_position(
        config(2), [hand("AH1 2S1 3D1 9C1 TC1 KS1 QH1"), hand("8D1 9D1 TD1 JD1 QD1 KD1 4C1")],
        cards("KC1 7D2"), to_act=1, discarder=0)
    assert two.claimants() == frozenset()


def test_out_seats_cannot_claim() -> None:
    hands: list[list[Card] | None] = [hand("AH1 2S1 3D1 9C1 TC1 KS1 QH1"), None,
                                      hand("4H2 5H2 6H2 5S2 6S2 9D2 TC2"),
                                      hand("8D1 9D1 TD1 JD1 QD1 KD1 4C1")]
    state = RuminoMatch.from_position(config(4), hands, cards("KC1 7D2"), to_act=2,
                                      discarder=0, scores=[0, 120, 0, 0])
    assert state.claimants() == frozenset({3})


@pytest.mark.parametrize(("bad", "rule"), [
    (Action("claim", card("KC1"), CLAIM.cards), "wrong-card"),
    (Action("claim", card("7D2"), tuple(cards("8D1 9D1 TD1 JD1 QD1 4C1"))), "not-a-rumino"),
    (Action("claim", card("7D2"), tuple(cards("8D1 9D1 TD1 JD1 QD1"))), "not-a-rumino"),
    (Action("claim", None, CLAIM.cards), "malformed-action"),
    (Action("knock"), "malformed-action"),
])
def test_false_claims_are_refused_live_with_the_culprit(bad: Action, rule: str) -> None:
    view = claim_position(view_of=0)
    with pytest.raises(IllegalMove) as err:
        view.apply_claim(2, bad)
    assert (err.value.rule, err.value.seat) == (rule, 2)
    assert view.phase is Phase.ACTION and view.claimants() == frozenset({2})


def test_a_claim_with_cards_not_held_passes_live_and_is_caught_in_the_full_replay() -> None:
    # seat 1 claims with a rumino it does not hold: 8S..KS spades are nowhere public
    false = Action("claim", card("7D2"), tuple(sorted(cards("8D2 9D2 TD2 JD2 QD2 KD2"))))
    hands = [hand("AH1 2S1 3D1 9C1 TC1 KS1 QH1"), hand("4H2 5H2 6H2 5S2 6S2 9S2 TC2"),
             hand("8D1 9D1 TD1 JD1 QD1 KD1 4C1"), hand("AC1 2C1 3C1 5C1 6C1 8C1 8H1")]
    live = RuminoMatch.from_position(
        config(4), [list(hands[0]), [None] * 7, [None] * 7, [None] * 7], cards("KC1 7D2"),
        to_act=1, discarder=0)
    assert live.claimants() == frozenset({2, 3})
    live.apply_claim(3, false)                   # seat 0's view cannot refute it
    assert live.rumino_seat == 3
    full = RuminoMatch.from_position(config(4), hands, cards("KC1 7D2"), to_act=1, discarder=0)
    with pytest.raises(IllegalMove) as err:
        full.apply_claim(3, false)
    assert (err.value.rule, err.value.seat) == ("card-not-in-hand", 3)


# --------------------------------------------------------------------------- scores and the end


def test_elimination_leaves_a_non_playing_seat_and_the_next_deal_skips_it() -> None:
    loser = hand("AH1 2S1 3D1 9C2 TD1 KS1 QH1")                 # 45
    knocker = hand("7H1 7S1 7D1 8C1 9C1 TC1 6H1")                # 6
    third = hand("4H2 5H2 6H2 5S2 6S2 9D2 TC2")                  # 30
    state = RuminoMatch.from_position(config(3), [knocker, loser, third], cards("KC1"),
                                      to_act=0, scores=[10, 60, 20], dealer=2)
    state.apply(KNOCK)
    assert state.hand_result().points == (6, 45, 30)
    state.next_hand()
    assert state.scores == (16, 105, 50) and state.in_game == (True, False, True)
    assert not state.match_over
    state.begin_hand()                          # no stake: no rebuy offer
    steps = state.pending_chance()
    assert len(steps) == 15 and {s.seat for s in steps[:14]} == {0, 2}
    assert state.dealer == 0 and state.to_act == 2       # dealer moves to the next seat in
    assert steps[14].zone is Zone.DISCARD and steps[14].position == 14
    deal(state, {2: "AH1 2H1 3H1 4H1 5H1 6H1 8C1", 0: "AS1 2S1 3S1 4S1 5S1 6S1 8C2"}, "KC1")
    obs = state.observation(1)
    assert obs["hand"] == [] and obs["hand_sizes"] == [7, 0, 7]
    assert obs["in_game"] == [1, 0, 1] and obs["out"] == [1]


def test_last_player_under_100_wins_and_the_pool_is_paid() -> None:
    state = RuminoMatch.from_position(
        config(2, "stakes"), [hand("7H1 7S1 7D1 8C1 9C1 TC1 6H1"),
                              hand("AH1 2S1 3D1 9C2 TD1 KS1 QH1")],
        cards("KC1"), to_act=0, scores=[90, 60])
    state.apply(KNOCK)
    lines = {ln.category: ln for ln in state.hand_result().lines}
    assert lines["paid in"].values == (1, 1) and lines["payout"].values == (2, 0)
    state.next_hand()
    assert state.match_over and state.winner == 0 and state.scores == (96, 105)
    assert state.payout == (2, 0) and state.pool == 2


def test_nobody_under_100_lowest_wins_and_a_tie_is_a_drawn_match() -> None:
    knocker = hand("7H1 7S1 7D1 8C1 9C1 TC1 6H1")   # 6
    other = hand("AH1 2S1 3D1 9C2 TD1 KS1 QH1")     # 45
    both_out = RuminoMatch.from_position(config(2, "stakes", stake=3), [knocker, other],
                                         cards("KC1"), to_act=0, scores=[99, 55])
    both_out.apply(KNOCK)                          # 105 and 100: both out, 100 is lowest
    assert [ln.values for ln in both_out.hand_result().lines
            if ln.category == "payout"] == [(0, 6)]
    both_out.next_hand()
    assert both_out.match_over and both_out.winner == 1 and both_out.payout == (0, 6)
    drawn = RuminoMatch.from_position(config(2, "stakes", stake=3), [knocker, other],
                                      cards("KC1"), to_act=0, scores=[94, 55])
    drawn.apply(KNOCK)                             # 100 and 100
    drawn.next_hand()
    assert drawn.scores == (100, 100)
    assert drawn.match_over and drawn.winner is None and drawn.payout == (3, 3)


def test_exhausted_stock_scores_or_voids() -> None:
    for mode, expected in (("score", (45, 30)), ("void", (0, 0))):
        state = RuminoMatch.from_position(
            config(2, exhausted=mode), [hand("AH1 2S1 3D1 9C2 TD1 KS1 QH1"),
                                        hand("4H2 5H2 6H2 5S2 6S2 9D2 TC2")],
            cards("KC1"), to_act=0, stock_size=1)
        state.apply(DRAW_STOCK)
        state.complete_chance([card("KD2")])
        state.apply(discard("KD2"))
        assert state.phase is Phase.HAND_OVER and state.claimants() == frozenset()
        result = state.hand_result()
        assert result.lines[0].category == "stock exhausted"
        assert result.points == expected


# --------------------------------------------------------------------------- rebuys


def test_rebuy_prices_double() -> None:
    assert [rebuy_price(5, k) for k in range(4)] == [5, 10, 20, 40]


def knock_out(players: int, scores: list[int], loser: int, preset: str = "stakes",
              rebuys: int = 0) -> RuminoMatch:
    """After a hand where seat ``loser`` got 45 and the knocker (the first other seat) 6, the
    others 30, 8 and 4 (in seat order)."""
    hands: list[list[Card] | None] = []
    fillers = iter(["4H2 5H2 6H2 5S2 6S2 9D2 TC2", "AC1 2C1 3C1 5D2 6D2 7D2 8H1",
                    "AD2 2D2 3D2 4S2 5C1 6C1 7C2"])
    knocker = next(s for s in range(players) if s != loser)
    for s in range(players):
        if s == loser:
            hands.append(hand("AH1 2S1 3D1 9C2 TD1 KS1 QH1"))
        elif s == knocker:
            hands.append(hand("7H1 7S1 7D1 8C1 9C1 TC1 6H1"))
        else:
            hands.append(hand(next(fillers)))
    earlier = [rebuys if s == loser else 0 for s in range(players)]
    state = RuminoMatch.from_position(config(players, preset), hands, cards("KC1"),
                                      to_act=knocker, scores=scores, rebuys=earlier)
    state.apply(KNOCK)
    state.next_hand()
    return state


def test_a_rebuy_is_offered_at_the_next_hand_and_resets_the_score() -> None:
    state = knock_out(4, [10, 60, 50, 80], loser=1)
    assert state.scores == (16, 105, 80, 88) and state.in_game == (True, False, True, True)
    state.begin_hand()
    assert state.phase is Phase.ACTION and state.to_act == 1
    assert state.legal_actions() == [Action("decline"), Action("rebuy", amount=1)]
    assert state.observation(1)["rebuy_price"] == 1
    assert state.observation(0)["rebuy_price"] is None
    with pytest.raises(IllegalMove) as err:
        state.apply(Action("rebuy", amount=2))
    assert err.value.rule == "wrong-price"
    with pytest.raises(IllegalMove) as err:
        state.apply(DRAW_STOCK)
    assert err.value.rule == "must-answer-offer"
    state.apply(Action("rebuy", amount=1))
    assert state.scores == (16, 88, 80, 88)       # the highest score under 100 of the others
    assert state.in_game == (True, True, True, True)
    assert state.paid == (1, 2, 1, 1) and state.pool == 5 and state.rebuys == (0, 1, 0, 0)
    assert state.phase is Phase.CHANCE and len(state.pending_chance()) == 29


def test_second_and_third_rebuys_cost_two_and_four_stakes() -> None:
    for earlier, price in ((1, 2), (2, 4)):
        state = knock_out(4, [10, 60, 50, 80], loser=1, rebuys=earlier)
        state.begin_hand()
        assert Action("rebuy", amount=price) in state.legal_actions()
        paid = state.paid[1]
        state.apply(Action("rebuy", amount=price))
        assert state.paid[1] == paid + price and state.rebuys[1] == earlier + 1


def test_a_declined_rebuy_leaves_the_seat_out() -> None:
    state = knock_out(4, [10, 60, 50, 80], loser=1)
    state.begin_hand()
    state.apply(Action("decline"))
    assert state.in_game == (True, False, True, True) and state.pool == 4
    assert state.phase is Phase.CHANCE and len(state.pending_chance()) == 22


def test_no_rebuy_once_two_remain_or_without_a_stake() -> None:
    state = knock_out(3, [10, 60, 50], loser=1)            # two remain
    assert state.in_game == (True, False, True)
    state.begin_hand()
    assert state.phase is Phase.CHANCE
    free = knock_out(4, [10, 60, 50, 80], loser=1, preset="classic")
    free.begin_hand()
    assert free.phase is Phase.CHANCE


def test_two_put_out_at_once_are_offered_in_seat_order() -> None:
    hands = [hand("7H1 7S1 7D1 8C1 9C1 TC1 6H1"), hand("AH1 2S1 3D1 9C2 TD1 KS1 QH1"),
             hand("AD2 2D2 3C2 9H2 TS1 KH1 QD2"), hand("4H2 5H2 6H2 5S2 6S2 9D2 TC2"),
             hand("AC1 2C1 3C1 5D2 6D2 7D2 8H1")]
    state = RuminoMatch.from_position(config(5, "stakes"), hands, cards("KC1"), to_act=0,
                                      scores=[0, 60, 70, 10, 20])
    state.apply(KNOCK)
    state.next_hand()
    assert state.scores == (6, 105, 115, 40, 28)
    assert state.in_game == (True, False, False, True, True)
    state.begin_hand()
    assert state.to_act == 1
    state.apply(Action("decline"))
    assert state.to_act == 2 and state.phase is Phase.ACTION
    state.apply(Action("rebuy", amount=1))
    assert state.scores[2] == 40 and state.paid == (1, 1, 2, 1, 1)
    assert state.in_game == (True, False, True, True, True)


# --------------------------------------------------------------------------- config


def test_config_checks() -> None:
    with pytest.raises(BadPlayerCount):
        config(7)
    with pytest.raises(UnknownFlag):
        config(2, stake=-1)
    with pytest.raises(UnknownFlag):
        config(2, exhausted="reshuffle")
    assert SPEC.config_from_wire(config(6, "stakes").to_wire()) == config(6, "stakes")


# --------------------------------------------------------------------------- random hands


def _views_step(full: RuminoMatch, views: list[RuminoMatch], rng: random.Random,
                shuffled: list[Card]) -> None:
    """One step of ``full`` (random legal play, every possible claim taken) mirrored in every
    seat's live view."""
    if full.phase is Phase.CHANCE:
        steps = full.pending_chance()
        real = [shuffled[s.position] for s in steps]
        full.complete_chance(real)
        for seat, view in enumerate(views):
            view.complete_chance([c if s.visible(seat) else None
                                  for s, c in zip(steps, real, strict=True)])
        return
    seat = full.to_act
    legal = full.legal_actions()
    assert legal == views[seat].legal_actions()
    action = legal[rng.randrange(len(legal))]
    full.apply(action)
    for view in views:
        view.apply(action)
    for other in sorted(full.claimants()):
        assert views[0].claimants() == full.claimants()
        claims = full.claim_actions(other)
        assert claims == views[other].claim_actions(other)
        if claims:
            full.apply_claim(other, claims[0])
            for view in views:
                view.apply_claim(other, claims[0])
            return


def _check_conservation(full: RuminoMatch) -> None:
    """Every card is in exactly one place: a hand, the discard pile, the stock, or on its way
    to a hand (a pending chance step)."""
    placed = [c for s in range(full.config.players) for c in full.hand(s)] + list(full.discards)
    assert None not in placed and len(placed) == len(set(placed))
    pending = len(full.pending_chance()) if full.phase is Phase.CHANCE else 0
    assert len(placed) + full.stock_size + pending == len(FRENCH_108)


def _run_views(seed: int, players: int) -> int:
    """Up to two hands of random play; returns the number of hands played."""
    rng = random.Random(seed)
    cfg = config(players, "stakes")
    full = RuminoMatch(cfg)
    views = [RuminoMatch(cfg) for _ in range(players)]
    played = 0
    while played < 2 and not full.match_over:
        shuffled = list(FRENCH_108.cards)
        rng.shuffle(shuffled)
        full.begin_hand()
        for view in views:
            view.begin_hand()
        while full.phase in (Phase.CHANCE, Phase.ACTION):
            _views_step(full, views, rng, shuffled)
            if full.playing:
                _check_conservation(full)
            for seat, view in enumerate(views):
                seen = view.observation(seat)
                assert seen == full.observation(seat)
                text = json.dumps(seen)
                for other in range(players):
                    hidden = [c for c, v in zip(full.hand(other), view.hand(other), strict=True)
                              if v is None]
                    assert not any(f'"{c.code}"' in text for c in hidden)
        assert full.phase is Phase.HAND_OVER
        assert all(view.phase is Phase.HAND_OVER for view in views)
        full.hand_result()
        full.next_hand()
        played += 1
        # after the key reveal the full replay replaces every live view
        views = [full.copy() for _ in range(players)]
    return played


@settings(max_examples=5, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 6))
def test_live_views_agree_with_full_information(seed: int, players: int) -> None:
    assert _run_views(seed, players) >= 1


def test_card_conservation_over_a_stock_draw() -> None:
    state = SPEC.new_match(config(2))
    assert isinstance(state, RuminoMatch)
    state.begin_hand()
    order = list(FRENCH_108.cards)
    random.Random(3).shuffle(order)
    state.complete_chance([order[s.position] for s in state.pending_chance()])
    assert state.stock_size == 108 - 15
    state.apply(DRAW_STOCK)
    (step,) = state.pending_chance()
    state.complete_chance([order[step.position]])
    assert state.stock_size == 108 - 16
    held = [c for s in range(2) for c in state.hand(s)] + list(state.discards)
    assert len(held) == 16 and set(held) == set(order[:16])


# --------------------------------------------------------------------------- bots


def test_smart_bots_finish_matches_of_every_count_with_stakes() -> None:
    for players in SPEC.player_counts:
        bots = [make_bot("rumino", "smart", seed=s) for s in range(players)]
        result = play_match(SPEC, config(players, "stakes"), bots, seed=players)
        state = result.state
        assert isinstance(state, RuminoMatch) and state.match_over
        assert sum(state.payout) == state.pool == sum(state.paid)
        if state.winner is not None:
            assert state.payout[state.winner] == state.pool


def test_smart_bot_beats_random() -> None:
    wins = 0
    for seed in range(10):
        bots = [make_bot("rumino", "smart", seed=seed), RandomBot(seed)]
        wins += play_match(SPEC, config(2), bots, seed=seed).state.winner == 0
    assert wins >= 8


def test_bot_claims_knocks_and_takes_a_useful_upcard() -> None:
    assert isinstance(make_bot("rumino", "smart", seed=1), RuminoBot)
    bot = RuminoBot(seed=1)
    state = claim_position()
    assert bot.choose(state.observation(2), state.claim_actions(2)) == CLAIM
    assert bot.claim(state.observation(2), state.claim_actions(2)) == CLAIM
    assert bot.claim(state.observation(2), []) is None
    knock = RuminoMatch.from_position(
        config(2), [hand("7H1 7S1 7D1 8C1 9C1 TC1 6H1"), hand("AH1 2S1 3D1 9C2 TD1 KS1 QH1")],
        cards("KC1"), to_act=0)
    assert bot.choose(knock.observation(0), knock.legal_actions()) == KNOCK
    mine = hand("AH1 2S1 3D1 9C2 TD1 KS1 KH1")      # K K and the K of diamonds: a set
    theirs = hand("7H1 7S1 7D1 8C1 9C1 TC1 6H1")
    up = RuminoMatch.from_position(config(2), [mine, theirs], cards("KD2"), to_act=0)
    assert bot.choose(up.observation(0), up.legal_actions()) == DRAW_UP
    useless = RuminoMatch.from_position(config(2), [mine, theirs], cards("QC2"), to_act=0)
    assert bot.choose(useless.observation(0), useless.legal_actions()) == DRAW_STOCK
