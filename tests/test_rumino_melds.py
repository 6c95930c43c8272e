"""Rumino's meld arithmetic: exact hand-computed melds, splits, deadwood and ruminos, and the
engine's best split checked against an independent brute force over random hands."""

from __future__ import annotations

from functools import cache
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pcards.cards import FRENCH_108, Card, cards
from p2pcards.games.rumino_melds import (
    best_split,
    card_value,
    deadwood,
    is_meld,
    is_rumino,
    rumino_completions,
    rumino_kind,
    rumino_subsets,
)


def test_card_values() -> None:
    assert [card_value(c) for c in cards("AH1 2S2 9D1 TC1 JH2 QS1 KD2 X3")] == [
        1, 2, 9, 10, 10, 10, 10, 10]


@pytest.mark.parametrize(("codes", "meld"), [
    ("7H1 7S1 7D2", True),               # three of a kind
    ("7H1 7H2 7S1 7C1", True),           # four of a kind, two copies of one card
    ("7H1 7S1 X1", True),                # joker in a set
    ("7H1 X1 X2", True),                 # two jokers
    ("X1 X2 X3", True),                  # three jokers stand for any three
    ("AH1 2H1 3H1", True),               # aces low
    ("QH1 KH1 AH1", False),              # not around the corner
    ("JH1 QH1 KH1 X1", True),            # the joker is the 10 (nothing above the king)
    ("KH1 2H1 X1", False),               # no wrap-around from the king to the ace
    ("TH1 JH1 QH1 X1", True),            # the joker is the 9 or the king
    ("4S1 X2 6S2", True),                # joker fills a gap
    ("4S1 X2 7S2", False),               # gap of two with one joker in three cards
    ("4S1 X2 7S2 X3", True),             # 4 5 6 7
    ("4S1 5S1 6H1", False),              # mixed suits
    ("4S1 4S2 5S1", False),              # a rank twice in a run, and not a set
    ("7H1 7S1", False),                  # too short
    ("2C1 3C1 4C1 5C1 6C1", False),      # too long for a meld
    ("7H1 7S1 7D1 7C1 7H2", False),      # five of a kind is not a meld
])
def test_is_meld(codes: str, meld: bool) -> None:
    assert is_meld(cards(codes)) is meld


@pytest.mark.parametrize(("codes", "dead"), [
    ("7H1 7S1 7D1 2C1 3C1 4C1 5C1", 0),       # set + run of four: gin
    ("7H1 7S1 7D1 2C1 3C1 4C1 KD1", 10),      # set + run, the king loose
    ("AH1 AS1 2D1 3D1 9C1 TC1 KS1", 36),      # no meld: 1+1+2+3+9+10+10
    ("AH1 AS1 AD1 2D1 3D1 4D1 KS1", 10),      # AD in the set or the run, K loose
    ("5H1 6H1 7H1 7S1 7D1 KC1 QC1", 31),      # 7H in the set (5+6 loose), not the run (7+7)
    ("X1 X2 KH1 QS1 9D1 2C1 AC1", 22),        # K X X; Q 9 2 A loose
    ("X1 KH1 QH1 9S1 9D1 2C1 AC1", 21),       # K Q X (9 9 2 A loose), not 9 9 X (23 loose)
])
def test_deadwood_hand_computed(codes: str, dead: int) -> None:
    assert deadwood(cards(codes)) == dead
    assert deadwood(cards(codes)) == brute_force(cards(codes))


def test_best_split_uses_the_joker_where_it_saves_most() -> None:
    # the joker with Q K of hearts saves 20 + 10; with 2 3 of clubs only 5 + 10
    split = best_split(cards("KH1 QH1 X1 2C1 3C1 9S1 8D1"))
    assert split.deadwood == 2 + 3 + 9 + 8
    assert split.melds == (tuple(sorted(cards("QH1 KH1 X1"))),)
    assert set(split.loose) == set(cards("2C1 3C1 9S1 8D1"))


def test_best_split_two_melds_with_a_shared_candidate() -> None:
    # 5H can go in 3H-4H-5H or 5H-5S-5D: only one of them; the 6H makes 4H-5H-6H too
    split = best_split(cards("3H1 4H1 5H1 6H1 5S1 5D1 5C1"))
    assert split.deadwood == 0
    assert sorted(len(m) for m in split.melds) == [3, 4]


def test_deadwood_around_the_knock_limit() -> None:
    # 7C2 joins the set of 7s (four of a kind) and 2-3-4 of clubs is a run: gin
    assert deadwood(cards("7H1 7S1 7D1 2C1 3C1 4C1 7C2")) == 0
    exactly_seven = cards("7H1 7S1 7D1 8C1 9C1 TC1 7S2")  # set of four 7s, 8-9-T clubs: 0
    assert deadwood(exactly_seven) == 0
    assert deadwood(cards("7H1 7S1 7D1 8C1 9C1 TC1 6S2")) == 6
    assert deadwood(cards("7H1 7S1 7D1 8C1 9C1 TC1 8S2")) == 8


@pytest.mark.parametrize(("codes", "kind"), [
    ("7D1 8D1 9D1 TD1 JD1 QD1 KD1", "sequence"),   # the rule text's example
    ("AS1 2S1 3S1 4S1 5S1 6S1 7S1", "sequence"),   # aces low
    ("AS1 2S1 X1 4S1 5S1 X2 7S1", "sequence"),     # jokers inside
    ("8S1 9S1 TS1 JS1 QS1 KS1 X1", "sequence"),    # joker as the 7
    ("9H1 9H2 9S1 9S2 9D1 9C1 9C2", "kind"),       # seven of a kind
    ("9H1 9H2 9S1 X1 9D1 X2 9C2", "kind"),         # with jokers
    ("9H1 9H2 9S1 X1 9D1 X2 8C2", None),
    ("7D1 8D1 9D1 TD1 JD1 QD1 KH1", None),         # suit broken
    ("TD1 JD1 QD1 KD1 AD1 2D1 3D1", None),         # no wrap-around
    ("7D1 8D1 9D1 TD1 JD1 QD1", None),             # six cards
])
def test_rumino_kinds(codes: str, kind: str | None) -> None:
    assert rumino_kind(cards(codes)) == kind
    assert is_rumino(cards(codes)) is (kind is not None)


def test_rumino_among_eight_and_completions() -> None:
    eight = cards("7D1 8D1 9D1 TD1 JD1 QD1 KD1 2S1")
    assert rumino_subsets(eight) == [tuple(sorted(cards("7D1 8D1 9D1 TD1 JD1 QD1 KD1")))]
    six = cards("8D1 9D1 TD1 JD1 QD1 KD1 4C1")
    # 7D completes 8-K below, and so would a joker; the 9S does not
    assert rumino_completions(six, cards("7D2")[0]) == [tuple(sorted(cards(
        "8D1 9D1 TD1 JD1 QD1 KD1")))]
    assert rumino_completions(six, cards("X4")[0]) == [tuple(sorted(cards(
        "8D1 9D1 TD1 JD1 QD1 KD1")))]
    assert rumino_completions(six, cards("9S1")[0]) == []


# --------------------------------------------------------------------------- the brute force


def _targets(size: int) -> list[list[tuple[int, str | None]]]:
    """Every meld shape of ``size`` cards as slots (rank, suit or None = any suit)."""
    sets = [[(r, None)] * size for r in range(1, 14)]
    runs = [[(a + i, s) for i in range(size)] for s in "HDCS" for a in range(1, 15 - size)]
    return sets + runs


@cache
def _meld_brute(group: tuple[Card, ...]) -> bool:
    """An independent meld test: the natural cards fill distinct slots of some meld shape (all
    sets and runs listed out), the jokers the remaining slots."""
    if len(group) not in (3, 4):
        return False
    naturals = [c for c in group if c.suit != "X"]
    for slots in _targets(len(group)):
        free = list(slots)
        for c in naturals:
            spot = next((t for t in free if t[0] == c.rank and t[1] in (None, c.suit)), None)
            if spot is None:
                break
            free.remove(spot)
        else:
            return True
    return False


def brute_force(hand: tuple[Card, ...] | list[Card]) -> int:
    """Least deadwood over every labelling of the cards: 0 = loose, 1..k = meld number."""
    n = len(hand)
    groups = n // 3
    best = sum(card_value(c) for c in hand)
    for labels in product(range(groups + 1), repeat=n):
        melds = [tuple(sorted(hand[i] for i in range(n) if labels[i] == g))
                 for g in range(1, groups + 1)]
        if all(not m or _meld_brute(m) for m in melds):
            best = min(best, sum(card_value(hand[i]) for i in range(n) if labels[i] == 0))
    return best


# A deck slice rich in melds: low ranks of two suits, both copies, and the jokers.
_DENSE = [c for c in FRENCH_108 if c.suit == "X" or (c.suit in "HS" and c.rank <= 6)]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(FRENCH_108.cards), min_size=7, max_size=7, unique=True))
def test_deadwood_two_ways_random_hands(hand: list[Card]) -> None:
    assert deadwood(hand) == brute_force(hand)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.sampled_from(_DENSE), min_size=7, max_size=7, unique=True))
def test_deadwood_two_ways_meld_rich_hands(hand: list[Card]) -> None:
    split = best_split(hand)
    assert split.deadwood == brute_force(hand)
    # the split itself is consistent: disjoint melds, loose cards, values add up
    used = [c for m in split.melds for c in m]
    assert sorted(used + list(split.loose)) == sorted(hand)
    assert all(is_meld(m) for m in split.melds)
    assert split.deadwood == sum(card_value(c) for c in split.loose)
