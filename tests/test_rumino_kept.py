"""What a Rumino match keeps beside its state (:mod:`p2pcards.games.rumino_kept`) answers as a
fresh reading would: the discard pile's codes follow its cards over random pushes and pops, the
lists handed out are fresh, and a copy goes its own way."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from p2pcards.cards import FRENCH_108, card
from p2pcards.games import get_game
from p2pcards.games.base import ALL_SEATS, Action, ChanceStep, Phase, Zone
from p2pcards.games.rumino import RuminoMatch
from p2pcards.games.rumino_config import HAND_SIZE
from p2pcards.games.rumino_kept import DiscardPile
from p2pcards.games.rumino_turns import deal_steps, draw_steps
from p2pcards.offline.simulate import RandomDealer


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


@settings(max_examples=25, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32 - 1))
def test_a_listed_discard_leaves_the_state_a_checked_one_leaves(players: int,
                                                                seed: int) -> None:
    """A discard that is one of the very objects the legal actions listed skips the checks
    made when it was listed; a copy of the match given an equal action made afresh (checked
    in full) reaches the same state: hands, pile, turn, every seat's observation and the next
    legal actions."""
    spec = get_game("rumino")
    state = spec.new_match(spec.preset(players=players))
    assert isinstance(state, RuminoMatch)
    rng = random.Random(seed)
    dealer = RandomDealer(rng)
    discards = 0
    for _ in range(600):
        if dealer.step(state):
            continue
        if state.phase is not Phase.ACTION:
            break
        legal = state.legal_actions()
        action = legal[rng.randrange(len(legal))]
        if action.kind != "discard":
            state.apply(action)
            continue
        assert action.card is not None
        twin = state.copy()
        state.apply(action)
        twin.apply(Action("discard", card(action.card.code)))
        discards += 1
        assert twin.phase is state.phase and twin.to_act == state.to_act
        assert twin.discards == state.discards and twin.stock_size == state.stock_size
        for seat in range(players):
            assert twin.hand(seat) == state.hand(seat)
            assert twin.observation(seat) == state.observation(seat)
        assert twin.legal_actions() == state.legal_actions()
    assert discards or state.match_over


@settings(max_examples=100, deadline=None)
@given(order=st.permutations(range(6)).flatmap(
           lambda seats: st.integers(1, 6).map(lambda k: tuple(seats[:k]))),
       position=st.integers(0, 107), seat=st.integers(0, 5))
def test_shared_chance_steps_equal_fresh_ones(order: tuple[int, ...], position: int,
                                              seat: int) -> None:
    """The deal's and a draw's chance steps, made once and shared, are the steps made
    afresh."""
    k = len(order)
    fresh = [ChanceStep(i, Zone.HAND, order[i % k], frozenset({order[i % k]}))
             for i in range(HAND_SIZE * k)]
    fresh.append(ChanceStep(HAND_SIZE * k, Zone.DISCARD, None, ALL_SEATS))
    assert deal_steps(order) == deal_steps(list(order)) == tuple(fresh)
    assert draw_steps(position, seat) == (
        ChanceStep(position, Zone.HAND, seat, frozenset({seat})),)
