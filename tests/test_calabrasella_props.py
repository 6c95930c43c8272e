"""Calabrasella invariants over random deals and random or rule-of-thumb play: every card is in
exactly one place, a hand is worth 35 points counting the set-aside cards, chips are conserved,
every live view accepts honest play and shows each seat exactly what full information shows it,
and the observer's and each seat's view end with the full result."""

from __future__ import annotations

import random
from collections import Counter

from calabrasella_views import Views, replay
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pcards.bots import RandomBot, make_bot
from p2pcards.cards import ITALIAN_40, Card
from p2pcards.games.base import Phase
from p2pcards.games.calabrasella import SPEC, CalabrasellaMatch, Stage
from p2pcards.games.calabrasella_rules import LAST_TRICK_BONUS, TOTAL_POINTS, card_points


def _deal(seed: int, preset: str) -> Views:
    deck = list(ITALIAN_40.cards)
    random.Random(seed).shuffle(deck)
    hands = [deck[s:36:3] for s in range(3)]
    return Views.deal(hands, deck[36:], SPEC.preset(preset))


def _where(state: CalabrasellaMatch, deck: list[Card]) -> Counter[Card]:
    """Every card of the full view, counted once per place it is in."""
    places: Counter[Card] = Counter()
    for seat in range(3):
        places.update(c for c in state.hand(seat) if c is not None)
    places.update(c for _, c in state.trick)
    places.update(state.pile(True))
    places.update(state.pile(False))
    places.update(c for c in state.set_aside() if c is not None)
    if not state.widow:
        places.update(deck[36:])
    return places


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), preset=st.sampled_from(sorted(SPEC.presets)),
       smart=st.booleans())
def test_hand_invariants_and_live_views(seed: int, preset: str, smart: bool) -> None:
    views = _deal(seed, preset)
    bots = [make_bot("calabrasella", "smart", seed) if smart else RandomBot(seed + s)
            for s in range(3)]
    full = views.full
    start = sum(full.chips)
    while full.phase is Phase.ACTION:
        seat = full.to_act
        action = bots[seat].choose(full.observation(seat), full.legal_actions())
        views.honest(action)
        assert _where(full, views.deck) == Counter(ITALIAN_40.cards)
        for viewer in range(3):
            assert views.live[viewer].observation(viewer) == full.observation(viewer)
    assert replay(views) is None
    if full.phase is Phase.SHUFFLE:  # everyone passed: nothing is scored, nothing is paid
        assert full.stage is Stage.OVER and full.chips == (100, 100, 100)
        assert full.deals == 1 and full.hand_number == 0
        return
    assert full.phase is Phase.HAND_OVER
    lines = {ln.category: ln for ln in full.hand_result().lines}
    declarer = full.declarer
    assert declarer is not None
    defender = (declarer + 1) % 3
    aside = card_points(c for c in full.set_aside() if c is not None)
    played = card_points(full.pile(True)) + card_points(full.pile(False))
    assert played + aside + LAST_TRICK_BONUS == TOTAL_POINTS
    totals = lines["hand total"].values
    counted = (totals[declarer] or 0) + (totals[defender] or 0)
    assert counted == TOTAL_POINTS - (aside if preset != "full-count" else 0)
    result = full.hand_result()
    assert sum(result.points) == 0
    assert lines["balance"].values == tuple(100 + p for p in result.points)
    full.next_hand()
    assert sum(full.chips) == start
    if preset != "full-count":
        for view in views.live:
            assert view.hand_result() == result


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), start=st.integers(20, 80))
def test_whole_matches_conserve_chips_and_end(seed: int, start: int) -> None:
    from p2pcards.offline.simulate import play_match

    for preset in ("classic", "to-the-last-chip"):
        config = SPEC.preset(preset, start_chips=start)
        bots = [make_bot("calabrasella", "smart", seed + s) for s in range(3)]
        run = play_match(SPEC, config, bots, seed)
        state = run.state
        assert state.match_over
        assert sum(state.match_scores) == 3 * start
        if preset == "classic":
            assert len(run.hands) == 6
        else:
            assert min(state.match_scores) <= 0
            assert all(min(h.lines[-1].values) > 0 for h in run.hands[:-1])  # type: ignore[type-var]
        top = max(state.match_scores)
        leaders = [s for s in range(3) if state.match_scores[s] == top]
        assert state.winner == (leaders[0] if len(leaders) == 1 else None)


def test_smart_bot_beats_two_random_players() -> None:
    from p2pcards.offline.simulate import play_match

    ahead = 0
    for seed in range(10):
        bots = [make_bot("calabrasella", "smart", seed), RandomBot(seed + 1), RandomBot(seed + 2)]
        scores = play_match(SPEC, SPEC.preset(), bots, seed).state.match_scores
        ahead += scores[0] > max(scores[1:])
    assert ahead >= 8
