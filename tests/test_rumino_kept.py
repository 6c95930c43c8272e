"""What a Rumino match keeps beside its state (:mod:`p2pcards.games.rumino_kept`) answers as a
fresh reading would: the discard pile's codes follow its cards over random pushes and pops, the
lists handed out are fresh, and a copy goes its own way."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from p2pcards.cards import FRENCH_108
from p2pcards.games.rumino_kept import DiscardPile


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), start=st.integers(0, 5))
def test_the_pile_codes_follow_its_cards(seed: int, start: int) -> None:
    rng = random.Random(seed)
    deck = list(FRENCH_108.cards)
    rng.shuffle(deck)
    pile = DiscardPile(deck[:start])
    del deck[:start]
    twin: DiscardPile | None = None
    for step in range(60):
        if pile.cards and rng.random() < 0.4:
            top = pile.cards[-1]
            assert pile.pop() == top
        else:
            pile.push(deck.pop())
        if step == 20:
            twin = pile.copy()
            before = list(twin.cards)
        codes = pile.codes()
        assert codes == [c.code for c in pile.cards]
        codes.append("XX")
        assert pile.codes() == [c.code for c in pile.cards]
    assert twin is not None
    assert twin.cards == before
    assert twin.codes() == [c.code for c in before]
