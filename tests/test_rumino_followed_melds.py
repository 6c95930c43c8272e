"""What a Rumino match keeps between states equals what a fresh computation gives: the melds
followed from hand to hand (:class:`MeldTracker`, ``RuminoMatch.split``) over random walks of
hands one card at a time, over random playouts at every decision and for every seat, and in
copies of a match that go their own ways (the reference is the straightforward search of
``tests/legal_reference.py``); and observations built from the hand facts a match keeps."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from legal_reference import best_split as reference_best_split
from legal_reference import rumino_completions as reference_rumino_completions
from legal_reference import rumino_subsets as reference_rumino_subsets

from p2pcards.cards import FRENCH_108, Card
from p2pcards.games import get_game
from p2pcards.games.base import Phase
from p2pcards.games.rumino import RuminoMatch
from p2pcards.games.rumino_melds import (
    MeldTracker,
    best_split,
    hand_places,
    may_hold_rumino_at,
    rumino_completions,
    rumino_subsets,
)
from p2pcards.games.rumino_view import observation
from p2pcards.offline.simulate import RandomDealer, fulfil_chance

_RICH = [c for c in FRENCH_108.cards if c.suit in ("H", "X") or c.rank in (5, 6, 7)]
"""Hearts, the jokers and three ranks: hands full of overlapping runs and sets."""


@settings(max_examples=120, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rich=st.booleans())
def test_a_tracker_walking_one_card_at_a_time_splits_as_a_fresh_search(seed: int,
                                                                      rich: bool) -> None:
    rng = random.Random(seed)
    deck = list(_RICH if rich else FRENCH_108.cards)
    rng.shuffle(deck)
    tracker = MeldTracker()
    hand: list[Card] = []
    for _ in range(40):
        if hand and (len(hand) >= 9 or not deck or rng.random() < 0.45):
            hand.pop(rng.randrange(len(hand)))
        else:
            hand.append(deck.pop())
        places = hand_places(hand)
        assert places is not None
        assert tracker.split(places) == reference_best_split(hand)


@settings(max_examples=120, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rich=st.booleans())
def test_a_tracker_walking_several_cards_at_a_time_splits_as_a_fresh_search(seed: int,
                                                                           rich: bool) -> None:
    """A discard and a draw between two asks (two cards apart), a pick of the discard pile or a
    new deal: up to two cards gone and up to three new at once."""
    rng = random.Random(seed)
    deck = list(_RICH if rich else FRENCH_108.cards)
    rng.shuffle(deck)
    tracker = MeldTracker()
    hand: list[Card] = []
    for _ in range(30):
        for _ in range(min(len(hand), rng.randrange(3))):
            deck.insert(0, hand.pop(rng.randrange(len(hand))))
        for _ in range(rng.randrange(4) if len(hand) < 9 else 0):
            hand.insert(rng.randrange(len(hand) + 1), deck.pop())
        places = hand_places(hand)
        assert places is not None
        assert tracker.split(places) == reference_best_split(hand)


@settings(max_examples=120, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rich=st.booleans(), asked_drawn=st.booleans())
def test_a_tracker_following_turns_splits_as_a_fresh_search(seed: int, rich: bool,
                                                            asked_drawn: bool) -> None:
    """Turns of a seat: a draw, then a discard of any card, the hand of eight asked or not (an
    environment asks for it, the engine alone does not); a drawn or discarded card often lies
    in no meld, and the melds of the hand before are kept with their choice."""
    rng = random.Random(seed)
    deck = list(_RICH if rich else FRENCH_108.cards)
    rng.shuffle(deck)
    tracker = MeldTracker()
    hand = [deck.pop() for _ in range(7)]
    for _ in range(25):
        for asked in (True, asked_drawn):
            if asked:
                places = hand_places(hand)
                assert places is not None
                assert tracker.split(places) == reference_best_split(hand)
            if len(hand) == 7:
                hand.insert(rng.randrange(8), deck.pop())
            else:
                deck.insert(0, hand.pop(rng.randrange(8)))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_a_tracker_asked_for_unrelated_hands_splits_as_a_fresh_search(seed: int) -> None:
    """Hands two or more cards apart (a new deal) are searched afresh."""
    rng = random.Random(seed)
    tracker = MeldTracker()
    for _ in range(10):
        hand = rng.sample(_RICH, rng.randrange(0, 10))
        places = hand_places(hand)
        assert places is not None
        assert tracker.split(places) == reference_best_split(hand)


def _decisions(players: int, preset: str, seed: int, limit: int) -> list[RuminoMatch]:
    """Every state of a random playout where a seat must act (the state itself, played on)."""
    spec = get_game("rumino")
    state = spec.new_match(spec.preset(preset, players=players))
    assert isinstance(state, RuminoMatch)
    rng = random.Random(seed)
    dealer = RandomDealer(rng)
    seen: list[RuminoMatch] = []
    while len(seen) < limit and not state.match_over:
        if state.phase is Phase.HAND_OVER:
            state.hand_result()
        if dealer.step(state):
            continue
        seen.append(state)
        for seat in range(players):
            known = [c for c in state.hand(seat) if c is not None]
            split = state.split(seat)
            assert split == reference_best_split(known)
            observed = state.observation(seat)
            assert observed["deadwood"] == (split.deadwood if known else None)
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return seen


@settings(max_examples=30, deadline=None)
@given(players=st.integers(2, 6), preset=st.sampled_from(["classic", "stakes"]),
       seed=st.integers(0, 2**32 - 1))
def test_every_seat_split_during_play_is_a_fresh_search(players: int, preset: str,
                                                        seed: int) -> None:
    assert _decisions(players, preset, seed, limit=200)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_copies_of_a_match_follow_their_own_hands(seed: int) -> None:
    """A copy and its original play different actions from one state: each one's splits are
    those of its own hands."""
    rng = random.Random(seed)
    spec = get_game("rumino")
    state = spec.new_match(spec.preset(players=3))
    assert isinstance(state, RuminoMatch)
    shuffled = list(state.deck.cards)
    rng.shuffle(shuffled)
    state.begin_hand()
    fulfil_chance(state, shuffled)
    for _ in range(rng.randrange(1, 12)):
        if state.phase is Phase.CHANCE:
            fulfil_chance(state, shuffled)
        if state.phase is not Phase.ACTION:
            return
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    twins = [state, state.copy()]
    for twin in twins:
        for seat in range(3):
            twin.split(seat)
    for turn, twin in enumerate(twins):
        for _ in range(4):
            if twin.phase is Phase.CHANCE:
                fulfil_chance(twin, shuffled)
            if twin.phase is not Phase.ACTION:
                break
            legal = twin.legal_actions()
            twin.apply(legal[(turn * 7 + rng.randrange(len(legal))) % len(legal)])
    for twin in twins:
        for seat in range(3):
            known = [c for c in twin.hand(seat) if c is not None]
            assert twin.split(seat) == best_split(known) == reference_best_split(known)


@settings(max_examples=30, deadline=None)
@given(players=st.integers(2, 6), preset=st.sampled_from(["classic", "stakes"]),
       seed=st.integers(0, 2**32 - 1))
def test_observations_with_kept_hand_facts_equal_fresh_ones(players: int, preset: str,
                                                            seed: int) -> None:
    """Every seat's observation, in every phase of whole random matches (rebuys, ends of
    hands and of the match included), equals the one built from facts read afresh."""
    spec = get_game("rumino")
    state = spec.new_match(spec.preset(preset, players=players))
    assert isinstance(state, RuminoMatch)
    rng = random.Random(seed)
    dealer = RandomDealer(rng)
    for _ in range(3000):
        for seat in range(players):
            assert state.observation(seat) == observation(state, seat)
        if dealer.step(state):
            continue
        if state.phase is not Phase.ACTION:
            break
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])


_NEAR_RUMINO = [c for c in FRENCH_108.cards if c.suit in ("H", "X") or c.rank == 7]
"""Hearts, sevens and jokers: hands that often hold a rumino or nearly do."""


@settings(max_examples=300, deadline=None)
@given(hand=st.lists(st.sampled_from(_NEAR_RUMINO), min_size=0, max_size=9, unique=True),
       extra=st.sampled_from(_NEAR_RUMINO))
def test_ruminos_in_a_hand_are_those_the_reference_finds(hand: list[Card], extra: Card) -> None:
    """The quick test that skips hands which cannot hold a rumino skips no rumino."""
    assert rumino_subsets(hand) == reference_rumino_subsets(hand)
    if extra not in hand:
        assert rumino_completions(hand, extra) == reference_rumino_completions(hand, extra)


@settings(max_examples=300, deadline=None)
@given(hand=st.lists(st.sampled_from(_NEAR_RUMINO), min_size=0, max_size=9, unique=True))
def test_the_quick_rumino_test_by_places_skips_no_rumino(hand: list[Card]) -> None:
    """A hand the test by places turns away holds no rumino."""
    places = hand_places(hand)
    assert places is not None
    if not may_hold_rumino_at(places):
        assert reference_rumino_subsets(hand) == []
