"""Calabrasella's ``play`` and ``return`` actions, made once per card and listed by the card's
rank, suit and copy, equal the plain enumeration: a set of fresh actions put in order by
``sort_actions``; the call read by card codes equals the rule written with cards."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from p2pcards.cards import ITALIAN_40, ITALIAN_SUITS, Card
from p2pcards.games.base import Action, sort_actions
from p2pcards.games.calabrasella_actions import play_choices, return_choices
from p2pcards.games.calabrasella_rules import CALL_LEVELS, call_level, callable_cards


@settings(max_examples=300, deadline=None)
@given(cards=st.lists(st.sampled_from(ITALIAN_40.cards), max_size=14))
def test_play_choices_equal_fresh_actions_in_order(cards: list[Card]) -> None:
    expected = sort_actions({Action("play", card=c) for c in cards})
    assert play_choices(cards) == expected
    assert play_choices([Card(c.rank, c.suit, c.copy) for c in cards]) == expected


@settings(max_examples=300, deadline=None)
@given(cards=st.lists(st.sampled_from(ITALIAN_40.cards), max_size=14))
def test_return_choices_equal_fresh_actions_in_order(cards: list[Card]) -> None:
    expected = sort_actions({Action("return", card=c) for c in cards})
    assert return_choices(cards) == expected
    assert return_choices([Card(c.rank, c.suit, c.copy) for c in cards]) == expected


def _plain_call_level(hand: list[Card]) -> int:
    held = set(hand)
    return next(rank for rank in CALL_LEVELS
                if any(Card(rank, s) not in held for s in ITALIAN_SUITS))


@settings(max_examples=300, deadline=None)
@given(hand=st.lists(st.sampled_from(ITALIAN_40.cards), min_size=0, max_size=13, unique=True),
       strong=st.integers(0, 3))
def test_the_call_looked_up_by_code_equals_the_plain_rule(hand: list[Card], strong: int) -> None:
    """The rank to call and the cards that may be called, read from the deck's cards by code,
    equal the rule written with cards made anew (``strong``: a hand holding every card of the
    first ranks of the call order, so the lower call levels are reached)."""
    top = [c for c in ITALIAN_40.cards if c.rank in CALL_LEVELS[:strong]]
    hand = (top + [c for c in hand if c not in top])[:13]
    rank = _plain_call_level(hand)
    assert call_level(hand) == rank
    assert call_level([Card(c.rank, c.suit) for c in hand]) == rank
    assert callable_cards(hand) == [Card(rank, s) for s in ITALIAN_SUITS
                                    if Card(rank, s) not in hand]
