"""Calabrasella's ``play`` actions, made once per card and listed by the card's rank, suit and
copy, equal the plain enumeration: a set of fresh actions put in order by ``sort_actions``."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from p2pcards.cards import ITALIAN_40, Card
from p2pcards.games.base import Action, sort_actions
from p2pcards.games.calabrasella_actions import play_choices


@settings(max_examples=300, deadline=None)
@given(cards=st.lists(st.sampled_from(ITALIAN_40.cards), max_size=14))
def test_play_choices_equal_fresh_actions_in_order(cards: list[Card]) -> None:
    expected = sort_actions({Action("play", card=c) for c in cards})
    assert play_choices(cards) == expected
    assert play_choices([Card(c.rank, c.suit, c.copy) for c in cards]) == expected
