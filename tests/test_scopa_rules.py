"""Scopa: exact hand-built positions for dealing, capturing, trailing, scope, leftovers, the
three-kings redeal and the live view."""

from __future__ import annotations

import pytest

from p2pcards.cards import ITALIAN_40, Card, Deck, card, cards
from p2pcards.games.base import ALL_SEATS, Action, ChanceStep, GameError, IllegalMove, Phase, Zone
from p2pcards.games.scopa import (
    SPEC,
    BadChance,
    ScopaMatch,
    UnknownHand,
    WrongPhase,
    can_capture,
    capture_options,
    sum_combinations,
)

CLASSIC = SPEC.preset("classic")
FEWEST = SPEC.preset("classic", sum_choice="fewest_cards")


def play(code: str, captured: str = "") -> Action:
    return Action("play", card(code), cards(captured))


def rule_of(state: ScopaMatch, action: Action) -> str:
    """The rule an illegal action breaks; checks the state is left unchanged."""
    seat = state.to_act
    before = (state.observation(seat), state.hand(seat), state.table)
    with pytest.raises(IllegalMove) as info:
        state.apply(action)
    assert (state.observation(seat), state.hand(seat), state.table) == before
    assert info.value.seat == seat
    assert action.card is not None and action.card.code in str(info.value)
    return info.value.rule


# ----------------------------------------------------------------------- dealing


def test_first_deal_steps_two_players() -> None:
    state = ScopaMatch(CLASSIC)
    state.begin_hand()
    steps = state.pending_chance()
    # seat 0 (first player of hand 0) gets positions 0-2, seat 1 gets 3-5, the table 6-9.
    assert steps[:3] == tuple(ChanceStep(i, Zone.HAND, 0, frozenset({0})) for i in range(3))
    assert steps[3:6] == tuple(ChanceStep(i, Zone.HAND, 1, frozenset({1})) for i in range(3, 6))
    assert steps[6:] == tuple(ChanceStep(i, Zone.TABLE, None, ALL_SEATS) for i in range(6, 10))
    state.complete_chance(list(ITALIAN_40.cards[:10]))
    assert state.phase is Phase.ACTION and state.to_act == 0
    assert state.hand(1) == cards("4D 5D 6D")
    assert state.table == cards("7D JD QD KD")
    assert state.stock_size == 30


def test_second_hand_starts_with_the_next_seat() -> None:
    state = ScopaMatch.from_position(
        SPEC.preset("classic", players=3), ["KD", "", ""], "", hand_number=0
    )
    state.apply(play("KD"))
    state.next_hand()
    assert state.phase is Phase.SHUFFLE and state.hand_number == 1 and state.first_player == 1
    state.begin_hand()
    seats = [s.seat for s in state.pending_chance() if s.zone is Zone.HAND]
    assert seats == [1, 1, 1, 2, 2, 2, 0, 0, 0]


def test_refill_deal_after_every_round() -> None:
    # Stock of 6 left, each seat plays its last card: the next deal is positions 34-39,
    # seat 0 first (the first player), and seat 0 acts again.
    state = ScopaMatch.from_position(CLASSIC, ["KD", "KC"], "2B", stock=6)
    state.apply(play("KD"))
    state.apply(play("KC", "KD"))
    assert state.phase is Phase.CHANCE
    steps = state.pending_chance()
    assert [(s.position, s.seat) for s in steps] == [(34, 0), (35, 0), (36, 0)] + [
        (37, 1),
        (38, 1),
        (39, 1),
    ]
    state.complete_chance(cards("AD 2D 3D 4D 5D 6D"))
    assert state.phase is Phase.ACTION and state.to_act == 0 and state.stock_size == 0


def test_three_kings_redeal() -> None:
    italian = SPEC.preset("italian")
    state = ScopaMatch(italian)
    state.begin_hand()
    # hands AD 2D 3D / 4D 5D 6D, table KC KS 2B KB: three kings open, the hand restarts.
    state.complete_chance(cards("AD 2D 3D 4D 5D 6D KC KS 2B KB"))
    assert state.phase is Phase.SHUFFLE
    assert state.hand_number == 0 and state.redeals == 1 and state.first_player == 0
    state.begin_hand()
    assert [s.position for s in state.pending_chance()] == list(range(10))
    assert state.table == () and state.hand(0) == ()
    # four kings: again
    state.complete_chance(cards("AD 2D 3D 4D 5D 6D KC KS KD KB"))
    assert state.phase is Phase.SHUFFLE and state.redeals == 2
    # two kings: play on
    state.begin_hand()
    state.complete_chance(cards("AD 2D 3D 4D 5D 6D KC KS 2B 3B"))
    assert state.phase is Phase.ACTION and state.redeals == 2


def test_three_kings_without_the_flag_play_on() -> None:
    state = ScopaMatch(CLASSIC)
    state.begin_hand()
    state.complete_chance(cards("AD 2D 3D 4D 5D 6D KC KS 2B KB"))
    assert state.phase is Phase.ACTION and state.redeals == 0


def test_bad_chance_input() -> None:
    state = ScopaMatch(CLASSIC)
    state.begin_hand()
    good: list[Card | None] = list(cards("AD 2D 3D 4D 5D 6D 7D JD QD KD"))
    with pytest.raises(BadChance, match="10 cards, not 9"):
        state.complete_chance(good[:9])
    with pytest.raises(BadChance, match="position 9 repeats the card AD"):
        state.complete_chance(good[:9] + [card("AD")])
    with pytest.raises(BadChance, match="position 6 goes face up"):
        state.complete_chance(good[:6] + [None] + good[7:])
    with pytest.raises(BadChance, match="position 0"):
        state.complete_chance([Card(5, "H", 1)] + good[1:])
    assert state.phase is Phase.CHANCE and state.table == ()
    state.complete_chance([None, None, None, *good[3:]])
    assert state.hand(0) == (None, None, None)


def test_wrong_phase_calls() -> None:
    state = ScopaMatch(CLASSIC)
    with pytest.raises(WrongPhase, match="pending_chance needs phase chance, not shuffle"):
        state.pending_chance()
    with pytest.raises(WrongPhase, match="hand_result"):
        state.hand_result()
    with pytest.raises(IllegalMove, match="shuffle") as info:
        state.apply(play("KD"))
    assert info.value.rule == "not-action-phase"
    assert state.legal_actions() == []
    state.begin_hand()
    with pytest.raises(WrongPhase, match="begin_hand"):
        state.begin_hand()
    assert state.deck == ITALIAN_40 and isinstance(state.deck, Deck)


# ----------------------------------------------------------------------- captures


def test_single_card_capture_has_priority() -> None:
    # Table 3C 4S 7B, play 7D: the 7B must be taken; 3C + 4S = 7 is not allowed.
    state = ScopaMatch.from_position(CLASSIC, ["7D", "2B"], "3C 4S 7B", stock=6)
    assert state.legal_actions() == [play("7D", "7B")]
    assert rule_of(state, play("7D", "3C 4S")) == "must-take-equal-rank"
    assert rule_of(state, play("7D")) == "must-capture"
    state.apply(play("7D", "7B"))
    assert state.table == cards("3C 4S") and state.captured(0) == cards("7D 7B")
    assert state.last_capturer == 0


def test_choice_among_equal_rank_cards() -> None:
    state = ScopaMatch.from_position(CLASSIC, ["5D", "2B"], "5C 2S 3B 5S", stock=6)
    # 5C and 5S both match; 2S + 3B is a sum and so not allowed.
    assert state.legal_actions() == [play("5D", "5C"), play("5D", "5S")]
    assert rule_of(state, play("5D", "2S 3B")) == "must-take-equal-rank"
    assert rule_of(state, play("5D", "5C 5S")) == "must-take-equal-rank"


def test_sum_combinations_free_and_fewest() -> None:
    # Table A C, 2 S, 3 B, 4 C, 6 D and a Cavallo (9): sets adding to 9 are
    # {3B 6D} (2 cards), {AC 2S 6D} and {2S 3B 4C} (3 cards each).
    table = "AC 2S 3B 4C 6D"
    free = ScopaMatch.from_position(CLASSIC, ["QD", "2B"], table, stock=6)
    assert free.legal_actions() == [
        play("QD", "AC 2S 6D"),
        play("QD", "2S 3B 4C"),
        play("QD", "3B 6D"),
    ]
    fewest = ScopaMatch.from_position(FEWEST, ["QD", "2B"], table, stock=6)
    assert fewest.legal_actions() == [play("QD", "3B 6D")]
    assert rule_of(fewest, play("QD", "2S 3B 4C")) == "must-take-fewest-cards"
    free.apply(play("QD", "2S 3B 4C"))
    assert free.table == cards("AC 6D") and free.captured(0) == cards("QD 2S 3B 4C")


def test_sum_that_does_not_add_up() -> None:
    state = ScopaMatch.from_position(CLASSIC, ["7D", "2B"], "2S 4C AB", stock=6)
    # 2 + 4 = 6, not 7; a single card of another rank is no capture either.
    assert rule_of(state, play("7D", "2S 4C")) == "capture-sum-mismatch"
    assert rule_of(state, play("7D", "4C")) == "capture-sum-mismatch"
    assert state.legal_actions() == [play("7D", "AB 2S 4C")]


def test_trail_only_when_nothing_can_be_captured() -> None:
    state = ScopaMatch.from_position(CLASSIC, ["7D KD", "2B"], "3C 4S", stock=6)
    # 7D takes 3C + 4S; KD (10) takes nothing (3, 4, 7 are the only sums).
    assert state.legal_actions() == [play("7D", "3C 4S"), play("KD")]
    assert rule_of(state, play("7D")) == "must-capture"
    state.apply(play("KD"))
    assert state.table == cards("3C 4S KD") and state.to_act == 1


def test_capture_helpers() -> None:
    table = cards("AC 2S 3B 4C 6D")
    assert can_capture(table, 10) and can_capture(table, 1) and not can_capture(cards("3C 4S"), 10)
    assert sum_combinations(table, 5) == [cards("AC 4C"), cards("2S 3B")]
    assert capture_options(table, card("AD"), "free") == [cards("AC")]
    assert capture_options(cards("KC QS"), card("5D"), "free") == [()]


# ----------------------------------------------------------------------- scope and leftovers


def test_scopa_on_a_normal_play() -> None:
    state = ScopaMatch.from_position(CLASSIC, ["7D", "2B"], "3C 4S", stock=6)
    state.apply(play("7D", "3C 4S"))
    assert state.table == () and state.scope_count(0) == 1 and state.scope_count(1) == 0
    assert state.observation(1)["scope"] == [1, 0]


def test_no_scopa_on_the_last_play() -> None:
    # Seat 0 trails AC (1 can take nothing), seat 1's Fante (8) takes 3C 4S AC = 8, the last
    # card of the hand: the table is cleared, but it is no scopa.
    state = ScopaMatch.from_position(CLASSIC, ["AC", "JD"], "3C 4S", stock=0)
    state.apply(play("AC"))
    state.apply(play("JD", "AC 3C 4S"))
    assert state.phase is Phase.HAND_OVER
    assert state.scope_count(1) == 0 and state.captured(1) == cards("JD AC 3C 4S")
    assert state.hand_result().lines[4].points == (0, 0)
    # The same play with cards left to deal is a scopa.
    state = ScopaMatch.from_position(CLASSIC, ["AC", "JD"], "3C 4S", stock=6)
    state.apply(play("AC"))
    state.apply(play("JD", "AC 3C 4S"))
    assert state.scope_count(1) == 1 and state.phase is Phase.CHANCE


def test_last_capturer_takes_the_leftovers() -> None:
    # Seat 0's 7D takes 3C 4S (2B stays), seat 1 trails KC: 2B and KC go to seat 0's side.
    state = ScopaMatch.from_position(CLASSIC, ["7D", "KC"], "3C 4S 2B", stock=0)
    state.apply(play("7D", "3C 4S"))
    state.apply(play("KC"))
    assert state.phase is Phase.HAND_OVER
    assert state.table == ()
    assert state.captured(0) == cards("7D 3C 4S 2B KC") and state.captured(1) == ()
    assert state.last_capturer == 0 and state.scope_count(0) == 0


def test_leftovers_go_to_nobody_without_a_capture() -> None:
    # QC (9) and JS (8) can take nothing from 5C: the table keeps all three cards.
    state = ScopaMatch.from_position(CLASSIC, ["QC", "JS"], "5C", stock=0)
    state.apply(play("QC"))
    state.apply(play("JS"))
    assert state.phase is Phase.HAND_OVER and state.last_capturer is None
    assert state.table == cards("5C QC JS")
    cards_line = state.hand_result().lines[0]
    assert cards_line.values == (0, 0) and cards_line.points == (0, 0)


def test_partners_share_captures_and_scope() -> None:
    # 4 players: seat 2 sweeps for side 0, seat 3 captures for side 1.
    state = ScopaMatch.from_position(
        SPEC.preset("classic", players=4),
        ["KC", "QC", "7D", "5S"],
        "3C 4S",
        stock=12,
    )
    state.apply(play("KC"))  # 10: no capture, table 3C 4S KC
    state.apply(play("QC"))  # 9: no capture (3, 4, 7, 10, 13, 14, 17)
    assert rule_of(state, play("7D")) == "must-capture"
    state.apply(play("7D", "3C 4S"))  # table KC QC
    assert state.scope_count(0) == 0
    state.apply(play("5S"))  # nothing adds to 5
    assert state.captured(0) == cards("7D 3C 4S") and state.last_capturer == 2
    assert state.side_of(3) == 1 and state.num_sides == 2
    state2 = ScopaMatch.from_position(
        SPEC.preset("classic", players=4), ["", "", "7D", ""], "3C 4S", to_act=2, stock=12
    )
    state2.apply(play("7D", "3C 4S"))
    assert state2.scope_count(0) == 1 and state2.captured(0) == cards("7D 3C 4S")


# ----------------------------------------------------------------------- live view


def test_live_view_plays_from_unknown_slots() -> None:
    state = ScopaMatch.from_position(CLASSIC, ["7D KD", "?? ??"], "3C 4S", stock=6, to_act=1)
    assert not state.hand_known(1) and state.hand_known(0)
    with pytest.raises(UnknownHand, match="seat 1's hand is not known"):
        state.legal_actions()
    # Cards this view knows elsewhere cannot come out of seat 1's hand.
    assert rule_of(state, play("7D")) == "card-not-in-hand"
    assert rule_of(state, play("3C")) == "card-not-in-hand"
    # Capture rules are checked at once: a 7 must take 3C 4S.
    assert rule_of(state, play("7B")) == "must-capture"
    state.apply(play("7B", "3C 4S"))
    assert state.hand(1) == (None,) and state.scope_count(1) == 1
    state.apply(play("KD"))
    assert rule_of(state, play("7B")) == "card-not-in-hand"


def test_known_hand_rejects_other_cards() -> None:
    state = ScopaMatch.from_position(CLASSIC, ["7D KD", "2B"], "3C 4S", stock=6)
    assert rule_of(state, play("5C")) == "card-not-in-hand"


def test_bad_positions() -> None:
    with pytest.raises(GameError, match="twice"):
        ScopaMatch.from_position(CLASSIC, ["7D", "7D"], "")
    with pytest.raises(GameError, match="2 hands, not 3"):
        ScopaMatch.from_position(CLASSIC, ["7D", "6D", "5D"], "")
    with pytest.raises(GameError, match="stock of 5"):
        ScopaMatch.from_position(CLASSIC, ["7D", "6D"], "", stock=5)
