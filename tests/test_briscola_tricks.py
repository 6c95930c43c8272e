"""The shared trick-taking helpers: rank orders, trick winners, point tables."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pcards.cards import ITALIAN_40, Card, cards
from p2pcards.games.tricks import (
    BRISCOLA_ORDER,
    BRISCOLA_POINTS,
    TRESSETTE_ORDER,
    TRESSETTE_THIRDS,
    RankOrder,
    card_points,
    cards_of_suit,
    trick_winner,
)


def test_briscola_order_is_a_3_k_q_j_7_to_2() -> None:
    # ranks: 1 = A, 10 = K, 9 = Q, 8 = J
    assert BRISCOLA_ORDER.high_to_low == (1, 3, 10, 9, 8, 7, 6, 5, 4, 2)
    ranked = sorted(range(1, 11), key=BRISCOLA_ORDER.strength, reverse=True)
    assert [Card(r, "D").code for r in ranked] == "AD 3D KD QD JD 7D 6D 5D 4D 2D".split()


def test_tressette_order_is_3_2_a_k_q_j_7_to_4() -> None:
    ranked = sorted(range(1, 11), key=TRESSETTE_ORDER.strength, reverse=True)
    assert [Card(r, "C").code for r in ranked] == "3C 2C AC KC QC JC 7C 6C 5C 4C".split()


def test_three_beats_king_and_ace_beats_three() -> None:
    assert trick_winner(cards("KC 3C"), BRISCOLA_ORDER, "D") == 1
    assert trick_winner(cards("3C AC"), BRISCOLA_ORDER, "D") == 1
    assert trick_winner(cards("3C KC"), BRISCOLA_ORDER, "D") == 0


def test_off_suit_never_wins_without_trump() -> None:
    # 2C led; the ace of spades is neither the suit led nor trump (D)
    assert trick_winner(cards("2C AS"), BRISCOLA_ORDER, "D") == 0
    assert trick_winner(cards("2C AS 4C 3B"), BRISCOLA_ORDER, "D") == 2


def test_any_trump_beats_the_suit_led_and_highest_trump_wins() -> None:
    assert trick_winner(cards("AC 2D"), BRISCOLA_ORDER, "D") == 1
    # trumps 4D, 3D, KD: the 3 is highest
    assert trick_winner(cards("AC 4D 3D KD"), BRISCOLA_ORDER, "D") == 2
    # trump led: a non-trump ace cannot beat it
    assert trick_winner(cards("2D AC"), BRISCOLA_ORDER, "D") == 0


def test_no_trump_game() -> None:
    # Tressette: 2C beats AC, the 3 of spades is off suit
    assert trick_winner(cards("AC 2C 3S 4C"), TRESSETTE_ORDER, None) == 1


def test_point_tables_sum() -> None:
    # 4 x (11 + 10 + 4 + 3 + 2) = 120
    assert card_points(ITALIAN_40, BRISCOLA_POINTS) == 120
    # aces 4 x 3 thirds + 20 cards (2, 3, K, Q, J) x 1 third = 32 thirds
    assert card_points(ITALIAN_40, TRESSETTE_THIRDS) == 32
    assert card_points(cards("AD 3C KS QB JD 7D 2C"), BRISCOLA_POINTS) == 11 + 10 + 4 + 3 + 2


def test_cards_of_suit_skips_unknown() -> None:
    assert cards_of_suit([*cards("AD 3C"), None, *cards("KD")], "D") == list(cards("AD KD"))


def test_rank_order_errors() -> None:
    with pytest.raises(ValueError, match="distinct"):
        RankOrder("bad", (1, 1))
    with pytest.raises(ValueError, match="rank 11"):
        BRISCOLA_ORDER.strength(11)
    with pytest.raises(ValueError, match="at least one card"):
        trick_winner((), BRISCOLA_ORDER, "D")


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from(ITALIAN_40.cards), min_size=1, max_size=4, unique=True),
    st.sampled_from(("D", "C", "S", "B")),
)
def test_winner_dominates_every_other_card(played: list[Card], trump: str) -> None:
    win = played[trick_winner(played, BRISCOLA_ORDER, trump)]
    lead = played[0].suit
    for other in played:
        if other == win:
            continue
        if win.suit == trump:
            assert other.suit != trump or BRISCOLA_ORDER.beats(win, other)
        else:
            assert win.suit == lead
            assert other.suit != trump
            assert other.suit != lead or BRISCOLA_ORDER.beats(win, other)
