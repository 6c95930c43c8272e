"""Burraco melds, rule by rule (italian-card-games.txt): sets, runs, aces, wild cards and their
places, natural 2s, replacing a wild card, growing a meld. Every case is worked by hand."""

from __future__ import annotations

import pytest

from p2pcards.cards import cards
from p2pcards.games.burraco_melds import (
    MeldError,
    arrangements,
    check_extension,
    read_meld,
    three_card_melds,
)


def meld_of(codes: str) -> str:
    return str(read_meld(cards(codes)))


def rule_of(codes: str) -> str:
    with pytest.raises(MeldError) as info:
        read_meld(cards(codes))
    return info.value.rule


def grow(old: str, new: str) -> str:
    return str(check_extension(read_meld(cards(old)), cards(new)))


def grow_rule(old: str, new: str) -> str:
    with pytest.raises(MeldError) as info:
        check_extension(read_meld(cards(old)), cards(new))
    return info.value.rule


# ---------------------------------------------------------------- sets


def test_a_set_is_three_or_more_of_one_rank_in_any_suits_and_copies() -> None:
    m = read_meld(cards("7S1 7H1 7H2"))
    assert m.kind == "set" and m.rank == 7 and m.clean
    assert str(m) == "7H1 7H2 7S1"  # stored by suit then copy
    assert read_meld(cards("KH1 KD1 KC1 KS1 KH2 KD2 KC2 KS2")).kind == "set"


def test_a_set_needs_three_cards() -> None:
    assert rule_of("7S1 7H1") == "meld-too-short"


def test_a_set_is_of_one_rank() -> None:
    assert rule_of("7S1 7H1 8H1") == "run-mixed-suits"
    assert rule_of("7S1 7H1 8S1 8H1") == "run-mixed-suits"


def test_a_set_may_hold_one_wild_card_joker_or_2() -> None:
    assert read_meld(cards("X1 7S1 7H1")).wild == cards("X1")[0]
    assert read_meld(cards("7S1 2D1 7H1")).wild == cards("2D1")[0]
    assert str(read_meld(cards("X3 7S1 7H1 7C2"))) == "7H1 7C2 7S1 X3"


def test_a_set_holds_one_wild_card_at_most_not_a_joker_and_a_2() -> None:
    assert rule_of("7S1 7H1 X1 2D1") == "one-wild-per-meld"
    assert rule_of("7S1 7H1 X1 X2") == "one-wild-per-meld"
    assert rule_of("7S1 7H1 2D1 2C1") == "one-wild-per-meld"


def test_there_is_no_set_of_jokers_or_2s() -> None:
    assert rule_of("X1 X2 X3") == "set-of-wilds"
    assert rule_of("2H1 2D1 2C1") == "set-of-wilds"
    assert rule_of("2H1 2H2 X1 2S1") == "set-of-wilds"


def test_a_2_in_a_set_is_always_wild() -> None:
    assert rule_of("2H1 7H1 7D1 2S1") == "one-wild-per-meld"
    assert not read_meld(cards("2H1 7H1 7D1")).clean


# ---------------------------------------------------------------- runs


def test_a_run_is_three_or_more_consecutive_cards_of_one_suit() -> None:
    m = read_meld(cards("5H1 6H1 7H2 8H1"))
    assert (m.kind, m.suit, m.rank, m.high, m.clean) == ("run", "H", 5, 8, True)


def test_a_run_is_of_one_suit() -> None:
    assert rule_of("5H1 6H1 7S1") == "run-mixed-suits"


def test_a_run_is_consecutive_and_listed_low_to_high() -> None:
    assert rule_of("5H1 6H1 8H1") == "run-not-consecutive"
    assert rule_of("7H1 6H1 5H1") == "run-not-consecutive"
    assert rule_of("5H1 5H2 6H1") == "run-not-consecutive"


def test_ace_low_and_ace_high() -> None:
    assert read_meld(cards("AS1 2S1 3S1")).rank == 1
    high = read_meld(cards("QS1 KS1 AS2"))
    assert (high.rank, high.high) == (12, 14)


def test_no_run_turns_the_corner() -> None:
    assert rule_of("KS1 AS1 2S1") == "run-out-of-range"


def test_one_ace_per_meld_no_ace_at_each_end() -> None:
    full = "AS1 2S1 3S1 4S1 5S1 6S1 7S1 8S1 9S1 TS1 JS1 QS1 KS1"
    assert read_meld(cards(full)).clean  # ace low to king: 13 cards
    assert rule_of(full + " AS2") == "one-ace-per-meld"
    # a wild card standing for the second ace is refused too
    assert rule_of("X1 2S1 3S1 4S1 5S1 6S1 7S1 8S1 9S1 TS1 JS1 QS1 KS1 AS1") == (
        "one-ace-per-meld")


def test_several_runs_of_one_suit_are_separate_melds() -> None:
    a, b = read_meld(cards("3H1 4H1 5H1")), read_meld(cards("3H2 4H2 5H2"))
    assert a.suit == b.suit == "H" and a.cards != b.cards


# ---------------------------------------------------------------- wild cards in runs


def test_a_wild_card_stands_for_an_inside_card() -> None:
    m = read_meld(cards("7S1 X1 9S1"))
    assert m.wild_at == 8 and not m.clean


def test_a_wild_card_at_an_end_lies_at_the_low_end() -> None:
    assert rule_of("7S1 8S1 X1") == "wild-position"
    m = read_meld(cards("X1 7S1 8S1"))
    assert (m.rank, m.wild_at) == (6, 6)


def test_a_wild_card_lies_at_the_high_end_only_when_the_low_end_is_impossible() -> None:
    m = read_meld(cards("AH1 2H1 X1"))  # ace low: nothing below it
    assert (m.rank, m.wild_at) == (1, 3)
    assert read_meld(cards("AH1 2H1 3H1 X1")).wild_at == 4


def test_a_wild_card_may_stand_for_the_ace_at_the_low_end() -> None:
    assert read_meld(cards("X1 2H1 3H1")).wild_at == 1


def test_one_wild_card_per_run() -> None:
    assert rule_of("X1 7S1 X2 9S1") == "one-wild-per-meld"
    assert rule_of("7S1 X1 9S1 2D1 JS1") == "one-wild-per-meld"


def test_a_2_of_the_suit_at_its_place_is_natural() -> None:
    m = read_meld(cards("2H1 3H1 4H1"))
    assert m.clean and m.wild is None
    # 2-3-4 of hearts and a joker: one wild card only, the joker (it stands for the ace)
    m = read_meld(cards("X1 2H1 3H1 4H1"))
    assert m.wild == cards("X1")[0] and m.wild_at == 1
    # the text's own order, 2-3-4-joker, puts the joker at the high end (burraco.md §5)
    assert rule_of("2H1 3H1 4H1 X1") == "wild-position"
    assert read_meld(cards("AH1 2H1 X1")).wild_at == 3  # no position below the low ace


def test_a_2_of_another_suit_in_a_run_is_wild() -> None:
    m = read_meld(cards("2S1 2H1 3H1"))
    assert m.wild == cards("2S1")[0] and m.wild_at == 1
    assert rule_of("3H1 4H1 2D1") == "wild-position"


def test_a_natural_2_can_be_pressed_into_service_as_a_wild_card() -> None:
    m = read_meld(cards("3H1 4H1 2H1 6H1"))
    assert m.wild == cards("2H1")[0] and m.wild_at == 5


def test_a_run_with_a_natural_2_and_a_wild_2() -> None:
    m = read_meld(cards("2H1 3H1 2H2 5H1"))
    assert m.wild == cards("2H2")[0] and m.wild_at == 4


def test_arrangements_put_the_wild_card_where_the_rules_say() -> None:
    assert [str(m) for m in arrangements(cards("9S1 7S1 X1 8S1"))] == ["X1 7S1 8S1 9S1"]
    assert [str(m) for m in arrangements(cards("9S1 7S1 X1"))] == ["7S1 X1 9S1"]
    assert [str(m) for m in arrangements(cards("2H1 AH1 X1"))] == ["AH1 2H1 X1"]
    assert [str(m) for m in arrangements(cards("6H1 3H1 4H1 2H1"))] == ["3H1 4H1 2H1 6H1"]
    assert [str(m) for m in arrangements(cards("KH1 AH1 QH1 2C1"))] == ["2C1 QH1 KH1 AH1"]
    assert arrangements(cards("5H1 9H1 X1")) == []


# ---------------------------------------------------------------- growing melds


def test_a_set_grows_by_its_rank_and_one_wild_card() -> None:
    assert grow("7H1 7D1 7C1", "7H1 7D1 7C1 7H2") == "7H1 7H2 7D1 7C1"
    assert grow("7H1 7D1 7C1", "7H1 7D1 7C1 X1") == "7H1 7D1 7C1 X1"
    assert grow_rule("7H1 7D1 X1", "7H1 7D1 2C1 X1") == "one-wild-per-meld"
    assert grow_rule("7H1 7D1 7C1", "7H1 7D1 7C1 8C1") == "run-mixed-suits"


def test_a_run_grows_at_either_end() -> None:
    assert grow("5H1 6H1 7H1", "4H1 5H1 6H1 7H1 8H1") == "4H1 5H1 6H1 7H1 8H1"


def test_extending_upward_with_the_wild_card_moves_it_to_the_high_end() -> None:
    # the text's example: joker-7-8 of spades and the 10 of spades
    assert grow("X1 7S1 8S1", "7S1 8S1 X1 TS1") == "7S1 8S1 X1 TS1"


def test_the_natural_card_replaces_the_wild_card_which_goes_to_the_low_end() -> None:
    # the text's example: 7-8-joker-10 of spades and the 9 of spades
    grown = check_extension(read_meld(cards("7S1 8S1 X1 TS1")), cards("X1 7S1 8S1 9S1 TS1"))
    assert grown.wild_at == 6
    assert grow_rule("7S1 8S1 X1 TS1", "7S1 8S1 9S1 TS1 X1") == "wild-position"


def test_the_2_pressed_into_service_when_the_run_grows() -> None:
    # the text's example: 2-3-4 of hearts and the 6: 3-4-2-6
    assert grow("2H1 3H1 4H1", "3H1 4H1 2H1 6H1") == "3H1 4H1 2H1 6H1"


def test_a_replaced_wild_2_of_the_suit_goes_back_to_its_natural_place() -> None:
    grown = check_extension(read_meld(cards("3H1 4H1 2H1 6H1")), cards("2H1 3H1 4H1 5H1 6H1"))
    assert grown.clean


def test_a_wild_card_cannot_replace_another_wild_card() -> None:
    # the joker cannot take the 5's place to turn the wild 2 into a natural one
    assert grow_rule("3H1 4H1 2H1 6H1", "2H1 3H1 4H1 X1 6H1") == "wild-for-wild"


def test_no_second_wild_card_when_growing() -> None:
    assert grow_rule("X1 7S1 8S1", "2C1 X1 7S1 8S1") != ""


def test_runs_cannot_be_merged_or_split_or_changed() -> None:
    assert grow_rule("3H1 4H1 5H1", "3H1 4H1 5H1") == "nothing-added"
    assert grow_rule("3H1 4H1 5H1 6H1", "4H1 5H1 6H1 7H1") == "meld-changed"
    assert grow_rule("7H1 7D1 7C1", "5H1 6H1 7H1 8H1") == "meld-changed"


def test_a_full_run_cannot_take_back_its_wild_card() -> None:
    old = "AS1 2S1 3S1 4S1 5S1 6S1 X1 8S1 9S1 TS1 JS1 QS1 KS1"
    new = "X1 AS1 2S1 3S1 4S1 5S1 6S1 7S1 8S1 9S1 TS1 JS1 QS1 KS1"
    assert grow_rule(old, new) == "run-out-of-range"


def test_three_card_melds_lists_sets_runs_and_every_wild_placement() -> None:
    found = {str(m) for m in three_card_melds(cards("7S1 8S1 9S1 X1 7H1"))}
    assert found == {
        "7S1 8S1 9S1", "X1 7S1 8S1", "7S1 X1 9S1", "X1 8S1 9S1", "7H1 7S1 X1",
    }
