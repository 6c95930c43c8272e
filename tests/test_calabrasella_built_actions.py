"""Calabrasella's discards and takes, made as open objects turned into actions, are actions
like any other: equal, of the same type and hash, frozen, in the same order as the plain
enumeration, for any hand of deck cards, of cards made anew, or of another deck's cards."""

from __future__ import annotations

import dataclasses
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pcards.cards import FRENCH_108, ITALIAN_40, Card, card
from p2pcards.games import calabrasella_actions
from p2pcards.games.base import Action, sort_actions
from p2pcards.games.calabrasella_actions import discard_choices, take_choices

ITALIAN = st.sampled_from(ITALIAN_40.cards)
ANEW = ITALIAN.map(lambda c: Card(c.rank, c.suit, c.copy))
"""Cards equal to deck cards, but other objects."""
ANY_CARD = st.one_of(ITALIAN, ANEW, st.sampled_from(FRENCH_108.cards))


def _assert_same_actions(built: list[Action], plain: list[Action]) -> None:
    assert built == plain
    assert all(type(a) is Action for a in built)
    assert [hash(a) for a in built] == [hash(a) for a in plain]
    assert [repr(a) for a in built] == [repr(a) for a in plain]
    assert [a.to_wire() for a in built] == [a.to_wire() for a in plain]


def test_the_open_layout_fits_action() -> None:
    """The quick way is the one in use: the layouts fit."""
    assert calabrasella_actions._fits_action()
    assert calabrasella_actions._cards_actions is calabrasella_actions._open_actions


@settings(max_examples=150, deadline=None)
@given(hand=st.lists(ANY_CARD, max_size=13))
def test_discards_equal_the_plain_enumeration(hand: list[Card]) -> None:
    ordered = sorted(set(hand))
    plain = sort_actions(Action("discard", cards=combo)
                         for k in range(1, 5) for combo in combinations(ordered, k))
    _assert_same_actions(discard_choices(hand), plain)


@settings(max_examples=150, deadline=None)
@given(widow=st.lists(ANY_CARD, min_size=4, max_size=4, unique=True),
       discarded=st.integers(0, 4))
def test_takes_equal_the_plain_enumeration(widow: list[Card], discarded: int) -> None:
    plain = sort_actions(Action("take", cards=combo)
                         for combo in combinations(sorted(widow), discarded))
    _assert_same_actions(take_choices(widow, discarded), plain)


@settings(max_examples=150, deadline=None)
@given(kind=st.sampled_from(["discard", "take", "meld"]),
       combos=st.lists(st.lists(ANY_CARD, max_size=5).map(tuple), max_size=10))
def test_open_actions_equal_constructed_ones(kind: str, combos: list[tuple[Card, ...]]) -> None:
    built = calabrasella_actions._open_actions(kind, combos)
    _assert_same_actions(built, [Action(kind, cards=combo) for combo in combos])
    for action in built:
        assert action.card is None and action.value == "" and action.amount == 0
        with pytest.raises(dataclasses.FrozenInstanceError):
            action.kind = "play"  # type: ignore[misc]


def test_a_built_discard_is_applied_like_a_constructed_one() -> None:
    """An action made the quick way works where actions are used as keys and compared."""
    built = discard_choices([card("3D"), card("2S")])
    assert {built[0]: 1}[Action("discard", cards=(card("2S"),))] == 1
    assert sorted(reversed(built)) == built
    assert dataclasses.replace(built[-1], kind="take") == Action("take",
                                                                 cards=built[-1].cards)


@settings(max_examples=150, deadline=None)
@given(hand=st.lists(ANY_CARD, max_size=14))
def test_a_hand_put_in_order_by_places_equals_the_plain_sort(hand: list[Card]) -> None:
    """The discards' cards in order, read by the deck cards' places, are the very objects
    ``sorted(set(hand))`` gives, for deck cards, cards made anew and a mix of both."""
    ordered = calabrasella_actions._sorted_distinct(hand)
    plain = sorted(set(hand))
    assert ordered == plain
    assert all(a is b for a, b in zip(ordered, plain, strict=True))
