"""The Burraco engine, rule by rule (italian-card-games.txt): deal, drawing and taking the pile,
the single-card pile, one set per rank, pozzetti, closing, the stock and stalemate ends, scoring
and the match. Every number is worked out by hand in the comments."""

from __future__ import annotations

from typing import Any

import pytest

from p2pcards.cards import FRENCH_108, Card, cards
from p2pcards.games.base import ALL_SEATS, Action, CardUse, IllegalMove, Phase, Zone
from p2pcards.games.burraco import SPEC, BurracoConfig, BurracoMatch

C4 = BurracoConfig(players=4)


def c(code: str) -> Card:
    return cards(code)[0]


def position(hands: list[str], **kw: Any) -> BurracoMatch:
    return BurracoMatch.from_position(C4, [cards(h) for h in hands], **kw)


def illegal(state: BurracoMatch, action: Action) -> str:
    before = {s: state.observation(s) for s in range(4)}
    with pytest.raises(IllegalMove) as info:
        state.apply(action)
    assert {s: state.observation(s) for s in range(4)} == before  # nothing changed
    return info.value.rule


def meld(codes: str) -> Action:
    return Action("meld", cards=cards(codes))


def add(number: int, codes: str) -> Action:
    return Action("add", cards=cards(codes), amount=number)


def discard(code: str) -> Action:
    return Action("discard", c(code))


# ---------------------------------------------------------------- deal


def test_deal_eleven_each_two_pozzetti_and_an_upcard() -> None:
    state = SPEC.new_match(SPEC.preset(players=4))
    assert isinstance(state, BurracoMatch)
    state.begin_hand()
    steps = state.pending_chance()
    assert len(steps) == 45
    assert [(s.position, s.seat, s.visible_to) for s in steps[:5]] == [
        (0, 0, frozenset({0})), (1, 1, frozenset({1})), (2, 2, frozenset({2})),
        (3, 3, frozenset({3})), (4, 0, frozenset({0}))]
    assert all(s.zone is Zone.HAND for s in steps[:44])
    assert (steps[44].position, steps[44].zone, steps[44].visible_to) == (
        66, Zone.DISCARD, ALL_SEATS)
    state.complete_chance([FRENCH_108.cards[s.position] for s in steps])
    assert state.phase is Phase.ACTION and state.to_act == 0 and state.stage == "draw"
    obs = state.observation(0)
    assert obs["hand_sizes"] == [11, 11, 11, 11]
    assert obs["stock_size"] == 41 and obs["pozzetti"] == 2
    assert obs["discard_pile"] == [FRENCH_108.cards[66].code]
    assert state.legal_actions() == [Action("draw"), Action("take")]


def test_the_first_player_moves_on_each_hand() -> None:
    state = BurracoMatch.from_position(C4, [[], [], [], []], hand_number=1, stage="draw")
    assert state.first_player == 1


def test_four_players_only() -> None:
    with pytest.raises(ValueError, match="burraco is for 4 players, not 2"):
        BurracoConfig(players=2)


# ---------------------------------------------------------------- drawing and taking


def test_draw_is_a_private_step_to_the_drawer_from_the_top_of_the_stock() -> None:
    state = position(["3H1 9C1", "", "", ""], discard=["KD1"], stock_size=41, stage="draw")
    state.apply(Action("draw"))
    (step,) = state.pending_chance()
    assert (step.position, step.zone, step.seat, step.visible_to) == (
        67, Zone.HAND, 0, frozenset({0}))
    state.complete_chance([c("4H2")])
    assert state.stage == "play" and state.stock_size == 40
    assert state.observation(0)["hand"] == ["3H1", "4H2", "9C1"]


def test_take_moves_the_whole_pile_into_the_hand() -> None:
    state = position(["3H1", "", "", ""], discard=["KD1", "5S1", "X2"], stage="draw")
    state.apply(Action("take"))
    assert state.observation(0)["hand"] == ["3H1", "KD1", "5S1", "X2"]
    assert state.discard_pile == () and state.stage == "play"
    assert state.card_use(Action("take")).empty


def test_must_draw_before_melding_and_only_once() -> None:
    state = position(["3H1 4H1 5H1 9C1", "", "", ""], discard=["KD1"], stage="draw")
    assert illegal(state, meld("3H1 4H1 5H1")) == "must-draw-first"
    assert illegal(state, discard("9C1")) == "must-draw-first"
    state.apply(Action("take"))
    assert illegal(state, Action("draw")) == "already-drew"


def test_a_single_card_pile_taken_cannot_be_discarded_the_same_turn() -> None:
    state = position(["3H1 9C1", "", "", ""], discard=["KD1"], stage="draw")
    state.apply(Action("take"))
    assert illegal(state, discard("KD1")) == "discard-taken-card"
    assert discard("KD1") not in state.legal_actions()
    state.apply(discard("9C1"))
    assert state.to_act == 1


def test_the_other_copy_of_the_single_card_may_be_discarded() -> None:
    state = position(["KD2 9C1", "", "", ""], discard=["KD1"], stage="draw")
    state.apply(Action("take"))
    assert discard("KD2") in state.legal_actions()
    state.apply(discard("KD2"))
    assert state.discard_pile == (c("KD2"),)


def test_a_larger_pile_taken_may_be_discarded_back() -> None:
    state = position(["9C1", "", "", ""], discard=["KD1", "4S1"], stage="draw")
    state.apply(Action("take"))
    state.apply(discard("4S1"))
    assert state.discard_pile == (c("4S1"),)


# ---------------------------------------------------------------- melding


def test_meld_and_add_show_the_cards_from_the_hand() -> None:
    state = position(["7S1 8S1 9S1 TS1 QD1", "", "", ""])
    assert state.card_use(meld("7S1 8S1 9S1")) == CardUse(shown=cards("7S1 8S1 9S1"))
    state.apply(meld("7S1 8S1 9S1"))
    grown = add(1, "7S1 8S1 9S1 TS1")
    assert state.card_use(grown) == CardUse(shown=cards("TS1"))
    state.apply(grown)
    assert state.observation(2)["melds"] == [[["7S1", "8S1", "9S1", "TS1"]], []]
    assert state.card_use(discard("QD1")) == CardUse(shown=cards("QD1"))


def test_partners_share_melds_and_add_to_them() -> None:
    state = position(["", "", "JS1 5D1 9C1", ""], melds=[["7S1 8S1 9S1 TS1"], []], to_act=2)
    state.apply(add(1, "7S1 8S1 9S1 TS1 JS1"))
    assert str(state.melds(0)[0]) == "7S1 8S1 9S1 TS1 JS1"


def test_one_set_per_rank_per_side() -> None:
    state = position(["7H2 7D2 7C2 9C1", "7C1 7S2 X1 4D1", "", ""],
                     melds=[["7H1 7D1 7S1"], []])
    assert illegal(state, meld("7H2 7D2 7C2")) == "one-set-per-rank"
    assert meld("7H2 7D2 7C2") not in state.legal_actions()
    assert add(1, "7H1 7H2 7D1 7S1") in state.legal_actions()
    state.apply(discard("9C1"))
    state._stage = "play"  # seat 1 (the other side) has drawn
    state.apply(meld("7C1 7S2 X1"))  # the opponents may have their own set of 7s
    assert len(state.melds(1)) == 1


def test_melded_cards_must_be_in_the_hand() -> None:
    state = position(["7S1 8S1 9C1", "", "", ""], melds=[["3H1 4H1 5H1"], []])
    assert illegal(state, meld("7S1 8S1 9S1")) == "card-not-in-hand"


def test_runs_cannot_be_merged() -> None:
    state = position(["9C1 8C1", "", "", ""], melds=[["3H1 4H1 5H1", "6H1 7H1 8H1"], []])
    assert illegal(state, add(1, "3H1 4H1 5H1 6H1 7H1 8H1")) == "card-not-in-hand"


def test_add_to_a_missing_meld() -> None:
    state = position(["9C1 TC1", "", "", ""], melds=[["3H1 4H1 5H1"], []])
    assert illegal(state, add(4, "3H1 4H1 5H1 6H1")) == "no-such-meld"


def test_meld_rule_ids_come_from_the_meld_checker() -> None:
    state = position(["7S1 8S1 X1 2C1 9C1", "", "", ""])
    assert illegal(state, meld("7S1 8S1 X1")) == "wild-position"
    assert illegal(state, meld("X1 2C1 7S1 8S1")) == "one-wild-per-meld"


def test_legal_actions_offer_wild_replacement_and_moving_the_wild_up() -> None:
    state = position(["9S1 JS1 4D1", "", "", ""], melds=[["7S1 8S1 X1 TS1"], []])
    legal = state.legal_actions()
    assert add(1, "X1 7S1 8S1 9S1 TS1") in legal  # 9 replaces the joker, joker to the low end
    assert add(1, "7S1 8S1 X1 TS1 JS1") in legal
    state2 = position(["TS1 4D1 5D1", "", "", ""], melds=[["X1 7S1 8S1"], []])
    assert add(1, "7S1 8S1 X1 TS1") in state2.legal_actions()


def test_legal_actions_press_a_natural_2_into_service() -> None:
    state = position(["6H1 4D1 9C1", "", "", ""], melds=[["2H1 3H1 4H1"], []])
    assert add(1, "3H1 4H1 2H1 6H1") in state.legal_actions()


def test_a_longer_meld_in_one_action() -> None:
    state = position(["3H1 4H1 5H1 6H1 7H1 8H1 9H1 KC1", "", "", ""])
    state.apply(meld("3H1 4H1 5H1 6H1 7H1 8H1 9H1"))
    m = state.melds(0)[0]
    assert m.burraco and m.clean


# ---------------------------------------------------------------- pozzetto


def test_running_out_by_melding_takes_the_pozzetto_at_once() -> None:
    state = position(["3H1 4H1 5H1", "", "", ""])
    state.apply(meld("3H1 4H1 5H1"))
    steps = state.pending_chance()
    assert [s.position for s in steps] == list(range(44, 55))
    assert all(s.zone is Zone.HAND and s.seat == 0 and s.visible_to == frozenset({0})
               for s in steps)
    pozzetto = cards("AC1 AC2 3C1 4C1 5C1 6C1 7C1 8C1 9C1 TC1 JC1")
    state.complete_chance(list(pozzetto))
    assert state.phase is Phase.ACTION and state.to_act == 0 and state.stage == "play"
    assert len(state.hand(0)) == 11 and state.pozzetto_taken(0)
    assert state.observation(1)["pozzetti"] == 1


def test_the_other_side_gets_the_other_pozzetto() -> None:
    state = position(["", "3H1 4H1 5H1", "", ""], pozzetti_taken=(True, False), to_act=1)
    state.apply(meld("3H1 4H1 5H1"))
    assert [s.position for s in state.pending_chance()] == list(range(55, 66))


def test_running_out_by_discarding_keeps_the_pozzetto_face_down_until_the_next_turn() -> None:
    state = position(["9C1", "4D1", "5D1", "6D1"])
    state.apply(discard("9C1"))
    assert state.phase is Phase.ACTION and state.to_act == 1
    assert state.observation(0)["face_down_pozzetto"] == [0]
    assert state.pozzetto_taken(0) and state.hand(0) == ()
    for seat in (1, 2, 3):  # each draws and discards
        state.apply(Action("draw"))
        state.complete_chance([FRENCH_108.cards[seat]])
        state.apply(discard(state.observation(seat)["hand"][0]))
    steps = state.pending_chance()  # seat 0's turn starts by looking at the pozzetto
    assert [s.position for s in steps] == list(range(44, 55))
    assert all(s.visible_to == frozenset({0}) for s in steps)
    state.complete_chance([FRENCH_108.cards[p] for p in range(44, 55)])
    assert state.to_act == 0 and state.stage == "draw" and len(state.hand(0)) == 11


def test_after_the_pozzetto_a_player_must_keep_a_card_to_discard() -> None:
    state = position(["3H1 4H1 5H1", "", "", ""], pozzetti_taken=(True, False))
    assert illegal(state, meld("3H1 4H1 5H1")) == "no-discard-left"
    assert meld("3H1 4H1 5H1") not in state.legal_actions()


def test_keeping_one_card_that_cannot_close_is_refused() -> None:
    # no burraco: the last card could not be discarded
    state = position(["3H1 4H1 5H1 9C1", "", "", ""], pozzetti_taken=(True, False))
    assert illegal(state, meld("3H1 4H1 5H1")) == "no-discard-left"
    # a burraco, but the card kept is wild
    state = position(["3H1 4H1 5H1 X1", "", "", ""], pozzetti_taken=(True, False),
                     melds=[["7S1 7S2 7H1 7H2 7D1 7D2 7C1"], []])
    assert illegal(state, meld("3H1 4H1 5H1")) == "no-discard-left"


# ---------------------------------------------------------------- closing


BURRACO = "3S1 4S1 5S1 6S1 7S1 8S1 9S1"  # clean: 5 x 5 + 2 x 10 = 45 points


def test_closing_needs_the_pozzetto_a_burraco_and_a_natural_last_discard() -> None:
    state = position(["9C1", "4D1", "", ""], pozzetti_taken=(True, False),
                     melds=[[BURRACO], []])
    assert state.legal_actions() == [discard("9C1")]
    state.apply(discard("9C1"))
    assert state.phase is Phase.HAND_OVER and state.end_reason == "closing"


def test_no_closing_without_a_burraco() -> None:
    state = position(["9C1", "", "", ""], pozzetti_taken=(True, False),
                     melds=[["3S1 4S1 5S1 6S1 7S1 8S1"], []])
    assert illegal(state, discard("9C1")) == "no-burraco"
    assert discard("9C1") not in state.legal_actions()


def test_no_closing_with_a_wild_card() -> None:
    state = position(["X1", "", "", ""], pozzetti_taken=(True, False), melds=[[BURRACO], []])
    assert illegal(state, discard("X1")) == "wild-closing-discard"
    state = position(["2C1", "", "", ""], pozzetti_taken=(True, False), melds=[[BURRACO], []])
    assert illegal(state, discard("2C1")) == "wild-closing-discard"


def test_the_partners_pozzetto_allows_closing() -> None:
    # seat 2 took the side's pozzetto; seat 0 closes
    state = position(["9C1", "", "KD1 KH1", ""], pozzetti_taken=(True, False),
                     melds=[[BURRACO], []])
    state.apply(discard("9C1"))
    assert state.end_reason == "closing"


def test_a_burraco_made_this_turn_allows_closing() -> None:
    state = position(["9S1 KC1", "", "", ""], pozzetti_taken=(True, False),
                     melds=[["3S1 4S1 5S1 6S1 7S1 8S1"], []])
    state.apply(add(1, BURRACO))
    state.apply(discard("KC1"))
    assert state.end_reason == "closing"


def test_melding_every_card_cannot_close() -> None:
    state = position(["9S1", "", "", ""], pozzetti_taken=(True, False),
                     melds=[["3S1 4S1 5S1 6S1 7S1 8S1"], []])
    assert illegal(state, add(1, BURRACO)) == "no-discard-left"


# ---------------------------------------------------------------- stock and stalemate


def test_the_hand_ends_after_the_turn_that_brings_the_stock_to_two() -> None:
    state = position(["9C1", "4D1", "", ""], stock_size=3, stage="draw")
    state.apply(Action("draw"))
    assert state.pending_chance()[0].position == 105
    state.complete_chance([c("KH1")])
    assert state.stock_size == 2 and state.phase is Phase.ACTION
    state.apply(discard("KH1"))
    assert state.phase is Phase.HAND_OVER and state.end_reason == "stock"


def test_the_stock_at_three_goes_on() -> None:
    state = position(["9C1", "4D1", "", ""], stock_size=4, stage="draw")
    state.apply(Action("draw"))
    state.complete_chance([c("KH1")])
    state.apply(discard("KH1"))
    assert state.phase is Phase.ACTION and state.stock_size == 3


def _take_single_and_discard(state: BurracoMatch) -> None:
    seat = state.to_act
    state.apply(Action("take"))
    kept = state.observation(seat)["cannot_discard"]
    other = next(x for x in state.observation(seat)["hand"] if x != kept)
    state.apply(discard(other))


def test_stalemate_after_four_turns_of_taking_the_single_discard() -> None:
    state = position(["9C1 9C2", "4D1 4D2", "5H1 5H2", "6S1 6S2"], discard=["KD1"],
                     stage="draw")
    for turn in range(3):
        _take_single_and_discard(state)
        assert state.phase is Phase.ACTION and state.observation(0)["stalemate_turns"] == turn + 1
    _take_single_and_discard(state)
    assert state.phase is Phase.HAND_OVER and state.end_reason == "stalemate"


def test_a_draw_from_the_stock_breaks_the_stalemate() -> None:
    state = position(["9C1 9C2", "4D1 4D2", "5H1 5H2", "6S1 6S2"], discard=["KD1"],
                     stage="draw")
    for _ in range(3):
        _take_single_and_discard(state)
    state.apply(Action("draw"))
    state.complete_chance([c("AS1")])
    state.apply(discard("AS1"))
    assert state.observation(0)["stalemate_turns"] == 0
    for _ in range(3):
        _take_single_and_discard(state)
    assert state.phase is Phase.ACTION


def test_a_meld_breaks_the_stalemate() -> None:
    state = position(["9C1 9C2", "4D1 4D2", "5H1 5H2", "6S1 6S2 6H1 6D1"], discard=["KD1"],
                     stage="draw")
    for _ in range(3):
        _take_single_and_discard(state)
    state.apply(Action("take"))
    state.apply(meld("6H1 6D1 6S1"))
    state.apply(discard("6S2"))
    assert state.phase is Phase.ACTION and state.observation(0)["stalemate_turns"] == 0


# ---------------------------------------------------------------- scoring


def _lines(state: BurracoMatch) -> dict[str, tuple[tuple[Any, ...], tuple[int, ...]]]:
    return {ln.category: (ln.values, ln.points) for ln in state.hand_result().lines}


def test_scoring_a_closed_hand_line_by_line() -> None:
    # side 0: clean burraco 3-9 of spades (45), set K K joker (10 + 10 + 30 = 50): melds 95;
    #   seat 2 still holds AS2 (15) and 2C1 (20): -35; clean burraco 200; closing 100.
    # side 1: dirty burraco joker 4-9 of hearts (30 + 4 x 5 + 2 x 10 = 70): dirty 100;
    #   seat 1 holds QD1 (10), seat 3 holds 3D1 7D1 (5 + 5): -20; no pozzetto: -100.
    state = position(["9C1", "QD1", "AS2 2C1", "3D1 7D1"], pozzetti_taken=(True, False),
                     melds=[[BURRACO, "KD1 KH1 X1"], ["X2 4H1 5H1 6H1 7H1 8H1 9H1"]])
    state.apply(discard("9C1"))
    lines = _lines(state)
    assert lines["melds"] == ((95, 70), (95, 70))
    assert lines["cards in hand"] == ((35, 20), (-35, -20))
    assert lines["clean burraco"] == ((1, 0), (200, 0))
    assert lines["dirty burraco"] == ((0, 1), (0, 100))
    assert lines["closing"] == ((1, 0), (100, 0))
    assert lines["pozzetto not taken"] == ((0, 1), (0, -100))
    assert state.hand_result().points == (95 - 35 + 200 + 100, 70 - 20 + 100 - 100)


def test_card_values() -> None:
    # X 30, 2 20, A 15, K..8 10, 7..3 5, over one meld each: side 0 melds
    state = position(["9C1", "", "", ""], pozzetti_taken=(True, False), melds=[[
        BURRACO, "AH1 AD1 2S2", "KH1 KD1 KC1", "8C1 8D1 8H1", "7C1 7D1 7H1", "3C1 3D1 X1"],
        []])
    state.apply(discard("9C1"))
    assert _lines(state)["melds"][0] == (45 + 15 + 15 + 20 + 30 + 30 + 15 + 5 + 5 + 30, 0)


def test_a_natural_2_keeps_a_burraco_clean() -> None:
    state = position(["9C1", "", "", ""], pozzetti_taken=(True, False),
                     melds=[["AS1 2S1 3S1 4S1 5S1 6S1 7S1"], []])
    state.apply(discard("9C1"))
    assert _lines(state)["clean burraco"] == ((1, 0), (200, 0))


def test_an_unseen_pozzetto_is_turned_up_and_counted_as_a_hand() -> None:
    # seat 2 discarded its last card and holds the pozzetto face down; seat 0 closes.
    state = position(["9C1", "", "", ""], pozzetti_taken=(True, False), face_down=[2],
                     melds=[[BURRACO], []])
    state.apply(discard("9C1"))
    steps = state.pending_chance()
    assert [s.position for s in steps] == list(range(44, 55))
    assert all(s.visible_to == ALL_SEATS and s.seat == 2 for s in steps)
    # 11 cards: KH1 KH2 (20) + 3 x 5-point cards (15) + 6 x 10 (60) = 95
    state.complete_chance(list(cards("KH1 KH2 3H1 4H1 5H1 8D1 8D2 9D1 9D2 TD1 TD2")))
    assert state.phase is Phase.HAND_OVER
    lines = _lines(state)
    assert lines["cards in hand"] == ((95, 0), (-95, 0))
    assert lines["pozzetto not taken"] == ((0, 1), (0, -100))


def test_no_closing_bonus_when_the_stock_ends_the_hand() -> None:
    state = position(["9C1", "4D1", "", ""], stock_size=3, stage="draw", melds=[[BURRACO], []])
    state.apply(Action("draw"))
    state.complete_chance([c("KH1")])
    state.apply(discard("KH1"))
    lines = _lines(state)
    assert lines["closing"] == ((0, 0), (0, 0))
    assert lines["pozzetto not taken"] == ((1, 1), (-100, -100))
    assert state.hand_result().points == (45 + 200 - 10 - 100, -5 - 100)


# ---------------------------------------------------------------- match


def _closing(scores: tuple[int, int], target: int = 2000) -> BurracoMatch:
    config = BurracoConfig(players=4, target=target)
    return BurracoMatch.from_position(
        config, [cards("9C1"), (), (), ()], pozzetti_taken=(True, False),
        melds=[[cards(BURRACO)], []], match_scores=scores)


def test_the_match_ends_when_a_side_exceeds_the_target() -> None:
    state = _closing((1700, 1500))
    state.apply(discard("9C1"))  # side 0: 45 + 200 + 100 = 345; side 1: -100
    assert state.hand_result().points == (345, -100)
    state.next_hand()
    assert state.phase is Phase.MATCH_OVER and state.winner == 0
    assert state.match_scores == (2045, 1400)


def test_reaching_the_target_exactly_is_not_enough() -> None:
    state = _closing((1655, 1500))
    state.apply(discard("9C1"))
    state.next_hand()
    assert state.match_scores == (2000, 1400) and state.phase is Phase.SHUFFLE


def test_equal_totals_over_the_target_play_on() -> None:
    state = _closing((1900, 2345))
    state.apply(discard("9C1"))
    state.next_hand()
    assert state.match_scores == (2245, 2245) and state.phase is Phase.SHUFFLE


def test_the_quick_preset_and_the_target_flag() -> None:
    assert SPEC.preset("quick", players=4).target == 300
    assert SPEC.preset(players=4, target=500).target == 500
    assert SPEC.preset().target == 2000


# ---------------------------------------------------------------- views


def test_observation_sorts_the_hand_by_suit_and_rank() -> None:
    state = position(["KS1 X1 2H1 AH1 TD1 3C1 9H1", "", "", ""])
    assert state.observation(0)["hand"] == ["AH1", "2H1", "9H1", "TD1", "3C1", "KS1", "X1"]
    assert state.observation(1)["hand"] == [] and state.observation(1)["hand_sizes"][0] == 7


def test_observation_shows_both_sides_melds_as_text() -> None:
    state = position(["9C1", "", "", ""], melds=[[BURRACO], ["X2 4H1 5H1"]])
    obs = state.observation(1)
    assert obs["our_melds"] == "#1 X2 4H1 5H1"
    assert obs["their_melds"] == f"#1 {BURRACO} (clean burraco)"


def test_unknown_actions_and_shapes() -> None:
    state = position(["9C1 9C2", "", "", ""])
    assert illegal(state, Action("pass")) == "unknown-action"
    assert illegal(state, Action("discard", c("9C1"), cards=cards("9C2"))) == "malformed-action"
    assert illegal(state, Action("meld", cards=cards("9C1 9C1 9C2"))) == "malformed-action"
