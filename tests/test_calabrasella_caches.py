"""Calabrasella's kept state and fast paths equal a fresh computation: over random deals and
random play in the full engine, every seat's live view and the observer's view, each seat's
observation equals one written plainly from the hands, piles and lists of the state, and a copy
played on leaves the original's observations as they were; a card found by identity behaves as
an equal card made anew, and a play is accepted exactly when it is listed as legal."""

from __future__ import annotations

import random
from typing import Any

import pytest
from calabrasella_views import Views
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pcards.bots import RandomBot
from p2pcards.cards import ITALIAN_40, Card
from p2pcards.games.base import Action, BadChance, IllegalMove, Phase, UnknownHand
from p2pcards.games.calabrasella import SPEC, CalabrasellaMatch, Stage
from p2pcards.games.calabrasella_checks import check_revealed
from p2pcards.games.calabrasella_rules import card_points


def plain_observation(state: CalabrasellaMatch, seat: int) -> dict[str, Any]:
    """What ``seat`` sees, every entry computed afresh from the state."""
    involved = seat in (state.declarer, state.holder)
    last = state._last_trick
    discards = state._discards
    own_discards = seat == state.declarer and None not in discards
    return {
        "game": "calabrasella",
        "seat": seat,
        "players": 3,
        "phase": state.phase.value,
        "stage": state.stage.value,
        "hand_number": state._hand_number,
        "deals": state.deals,
        "dealer": state.dealer,
        "to_act": state.to_act if state.phase is Phase.ACTION else None,
        "bids": {str(s): k for s, k in state._bids},
        "declarer": state.declarer,
        "called": state.called.code if state.called is not None else None,
        "answers": {str(s): k for s, k in state._answers},
        "holder": state.holder,
        "passed": state._passed.code if state._passed is not None and involved else None,
        "returned": (state._returned.code if state._returned is not None and involved
                     else None),
        "discards": [c.code for c in discards if c is not None] if own_discards else [],
        "discard_count": len(discards),
        "widow": [c.code for c in state.widow],
        "taken": [c.code for c in state._taken],
        "hand": [c.code for c in state.hand(seat) if c is not None],
        "hand_sizes": [len(state.hand(s)) for s in range(3)],
        "trick": [[s, c.code] for s, c in state.trick],
        "last_trick": None if last is None else {"cards": [[s, c.code] for s, c in last[0]],
                                                 "winner": last[1]},
        "tricks_done": state._tricks_done,
        "played": sorted(c.code for c in state._played),
        "piles": [card_points(state.pile(True)), card_points(state.pile(False))],
        "pile_cards": [len(state.pile(True)), len(state.pile(False))],
        "chips": list(state.chips),
        "start_chips": state.config.start_chips,
        "match_hands": state.config.hands,
        "winner": state.winner,
    }


def _vandalize(value: Any) -> None:
    """Change every list and dict in ``value``, nested ones first."""
    if isinstance(value, list):
        for item in value:
            _vandalize(item)
        value.append("x")
    elif isinstance(value, dict):
        for item in value.values():
            _vandalize(item)
        value["x"] = "x"


def _assert_observations_plain(engine: CalabrasellaMatch) -> None:
    for seat in range(3):
        observed = engine.observation(seat)
        assert observed == plain_observation(engine, seat)
        assert list(observed) == list(plain_observation(engine, seat))
        for key, value in observed.items():
            assert type(value) is type(plain_observation(engine, seat)[key]), key
        _vandalize(observed)  # what a caller does with its observation changes nothing kept
        assert engine.observation(seat) == plain_observation(engine, seat)


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), preset=st.sampled_from(sorted(SPEC.presets)))
def test_observations_equal_plain_ones_in_every_view(seed: int, preset: str) -> None:
    deck = list(ITALIAN_40.cards)
    random.Random(seed).shuffle(deck)
    views = Views.deal([deck[s:36:3] for s in range(3)], deck[36:], SPEC.preset(preset))
    bot = RandomBot(seed)
    full = views.full
    while full.phase is Phase.ACTION:
        for engine in (full, *views.live):
            _assert_observations_plain(engine)
        before = [full.observation(s) for s in range(3)]
        other = full.copy()
        other.apply(bot.choose(other.observation(other.to_act), other.legal_actions()))
        _assert_observations_plain(other)
        assert [full.observation(s) for s in range(3)] == before
        views.honest(bot.choose(full.observation(full.to_act), full.legal_actions()))
    for engine in (full, *views.live):
        _assert_observations_plain(engine)


def _outcome(state: CalabrasellaMatch, action: Action) -> tuple[Any, ...]:
    """What applying ``action`` to a copy of ``state`` gives: the error, or every view."""
    trial = state.copy()
    try:
        trial.apply(action)
    except IllegalMove as exc:
        return "refused", exc.rule, str(exc), exc.seat
    return "accepted", [trial.observation(s) for s in range(3)], trial.phase, trial.to_act


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_a_play_is_accepted_exactly_when_legal_whatever_the_card_object(seed: int) -> None:
    deck = list(ITALIAN_40.cards)
    random.Random(seed).shuffle(deck)
    views = Views.deal([deck[s:36:3] for s in range(3)], deck[36:], SPEC.preset())
    bot = RandomBot(seed)
    full = views.full
    while full.phase is Phase.ACTION:
        if full.stage is Stage.TRICKS:
            legal = full.legal_actions()
            for c in ITALIAN_40.cards:
                outcome = _outcome(full, Action("play", card=c))
                assert (outcome[0] == "accepted") == (Action("play", card=c) in legal)
                assert _outcome(full, Action("play", card=Card(c.rank, c.suit))) == outcome
            for engine in views.live[:3]:  # a live view with unseen cards checks what it can
                c = deck[random.Random(seed).randrange(40)]
                assert (_outcome(engine, Action("play", card=Card(c.rank, c.suit)))
                        == _outcome(engine, Action("play", card=c)))
        views.honest(bot.choose(full.observation(full.to_act), full.legal_actions()))


def test_observations_stay_plain_over_whole_matches() -> None:
    rng = random.Random(5)
    for preset in ("classic", "full-count"):
        state = SPEC.new_match(SPEC.preset(preset))
        shuffled: list[Any] = []
        while not state.match_over:
            if state.phase is Phase.SHUFFLE:
                _assert_observations_plain(state)
                shuffled = list(state.deck.cards)
                rng.shuffle(shuffled)
                state.begin_hand()
            elif state.phase is Phase.CHANCE:
                _assert_observations_plain(state)
                state.complete_chance([shuffled[s.position] for s in state.pending_chance()])
            elif state.phase is Phase.ACTION:
                _assert_observations_plain(state)
                legal = state.legal_actions()
                state.apply(legal[rng.randrange(len(legal))])
            else:
                _assert_observations_plain(state)
                state.next_hand()
        _assert_observations_plain(state)


_CACHES = frozenset({"_listed", "_views", "_last_codes"})
"""Attributes of the engine that only keep what can be computed again (not state)."""


def _state(engine: CalabrasellaMatch) -> dict[str, Any]:
    """Everything an engine holds, its caches left out."""
    return {k: v for k, v in vars(engine).items() if k not in _CACHES}


def _check_listed_plays(engine: CalabrasellaMatch) -> None:
    """Each listed play, played as listed (unchecked), leaves the state that the same play made
    anew (checked rule by rule, with a card object made anew) leaves; a listing is forgotten
    once the state changes, and what a caller adds to its copy of the list is checked."""
    try:
        listed = engine.copy().legal_actions()
    except UnknownHand:
        return
    for at, action in enumerate(listed):
        fast = engine.copy()
        fast_listed = fast.legal_actions()
        assert fast_listed == listed
        fast.apply(fast_listed[at])
        checked = engine.copy()
        assert action.card is not None
        checked.apply(Action("play", card=Card(action.card.rank, action.card.suit)))
        assert _state(fast) == _state(checked)
        assert [fast.observation(s) for s in range(3)] == [checked.observation(s)
                                                           for s in range(3)]
        if fast.phase is Phase.ACTION:
            with pytest.raises(IllegalMove):
                fast.apply(fast_listed[at])  # a stale listing: its card is played already
    trial = engine.copy()
    got = trial.legal_actions()
    seat = trial.to_act
    stray = next(c for c in ITALIAN_40.cards
                 if Action("play", card=c) not in got and c not in trial.hand(seat))
    got.append(Action("play", card=stray))
    with pytest.raises(IllegalMove):
        trial.apply(got[-1])


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), preset=st.sampled_from(sorted(SPEC.presets)))
def test_a_listed_play_leaves_the_state_a_checked_play_leaves(seed: int, preset: str) -> None:
    deck = list(ITALIAN_40.cards)
    random.Random(seed).shuffle(deck)
    views = Views.deal([deck[s:36:3] for s in range(3)], deck[36:], SPEC.preset(preset))
    bot = RandomBot(seed)
    full = views.full
    while full.phase is Phase.ACTION:
        if full.stage is Stage.TRICKS:
            for engine in (full, *views.live):
                _check_listed_plays(engine)
        views.honest(bot.choose(full.observation(full.to_act), full.legal_actions()))


def _chance_outcome(state: CalabrasellaMatch, given: list[Card | None]) -> tuple[Any, ...]:
    trial = state.copy()
    try:
        trial.complete_chance(given)
    except BadChance as exc:
        return "refused", str(exc)
    return "accepted", _state(trial)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), widow=st.booleans(),
       change=st.sampled_from(["none", "twice", "placed", "unseen", "anew", "foreign"]))
def test_chance_cards_told_fresh_by_identity_are_the_ones_checked_fresh(
        seed: int, widow: bool, change: str) -> None:
    """The deal and the widow told fresh by the deck objects' identity are exactly those the
    card-by-card check accepts, whatever was changed in them."""
    rng = random.Random(seed)
    deck = list(ITALIAN_40.cards)
    rng.shuffle(deck)
    state = SPEC.new_match(SPEC.preset())
    state.begin_hand()
    if widow:
        state.complete_chance(deck[:36])
        while state.phase is Phase.ACTION:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        if state.phase is not Phase.CHANCE:
            return  # everyone passed
    given: list[Card | None] = [deck[s.position] for s in state.pending_chance()]
    at = rng.randrange(len(given))
    if change == "twice":
        given[at] = given[at - 1]
    elif change == "placed" and widow:
        given[at] = next(c for c in state._placed_cards())
    elif change == "unseen":
        given[at] = None
    elif change == "anew":
        c = given[at]
        assert c is not None
        given[at] = Card(c.rank, c.suit)
    elif change == "foreign":
        given[at] = Card(4, "H", 1)
    placed = state._placed()
    try:
        check_revealed(state.pending_chance(), given, placed, state.deck)
        checked = True
    except BadChance:
        checked = False
    if state._plainly_fresh(list(given)):
        assert checked
    outcome = _chance_outcome(state, given)
    assert (outcome[0] == "accepted") == checked
