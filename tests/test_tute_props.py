"""Tute properties over random deals and random legal playouts (hypothesis): every card is in
exactly one place at every moment, a hand is worth 130 points plus its declarations, and the live
view of every seat agrees with full information (same legal actions for the seat to act, same
observation, no refusal of a legal action)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from p2pcards.cards import SPANISH_40, Card
from p2pcards.games import get_game
from p2pcards.games.base import Phase
from p2pcards.games.tute import TuteMatch
from p2pcards.games.tute_rules import declaration_points

SPEC = get_game("tute")
PRESETS = ("classic", "free-cuarenta", "partner-relief")


def _where(state: TuteMatch) -> list[Card]:
    out = [c for s in range(4) for c in state.hand(s) if c is not None]
    out += [c for _, c in state.trick]
    out += [c for side in range(2) for c in state.captured(side)]
    return out


def _deal(preset: str, seed: int) -> tuple[TuteMatch, list[TuteMatch], random.Random]:
    rng = random.Random(seed)
    full = SPEC.new_match(SPEC.preset(preset, players=4))
    assert isinstance(full, TuteMatch)
    views = [full.copy() for _ in range(4)]
    deck = list(SPANISH_40.cards)
    rng.shuffle(deck)
    full.begin_hand()
    steps = full.pending_chance()
    full.complete_chance(deck)
    for seat, view in enumerate(views):
        view.begin_hand()
        view.complete_chance([c if s.visible(seat) else None
                              for s, c in zip(steps, deck, strict=True)])
    return full, views, rng


@settings(max_examples=25, deadline=None)
@given(preset=st.sampled_from(PRESETS), seed=st.integers(0, 2**32 - 1),
       declare_bias=st.floats(0.0, 1.0))
def test_random_playouts_conserve_cards_score_130_and_views_agree(
        preset: str, seed: int, declare_bias: float) -> None:
    full, views, rng = _deal(preset, seed)
    assert sorted(_where(full)) == sorted(SPANISH_40.cards)
    while full.phase is Phase.ACTION:
        seat = full.to_act
        legal = full.legal_actions()
        assert legal
        assert views[seat].legal_actions() == legal
        declares = [a for a in legal if a.kind == "declare"]
        action = (rng.choice(declares) if declares and rng.random() < declare_bias
                  else rng.choice(legal))
        full.apply(action)
        for view in views:
            view.apply(action)
        assert sorted(_where(full)) == sorted(SPANISH_40.cards)
        for s, view in enumerate(views):
            assert view.observation(s) == full.observation(s)
    assert full.phase is Phase.HAND_OVER
    result = full.hand_result()
    lines = {ln.category: ln for ln in result.lines}
    declared = sum(declaration_points(d.kind) for d in full.declarations)
    assert sum(lines["declarations"].points) == declared
    if "tute" in lines:
        assert full.declarations[-1].kind == "tute"
        assert result.points[full.declarations[-1].seat % 2] == 1
    else:
        assert sum(lines["card points"].points) == 120
        assert sum(lines["last trick"].points) == 10
        assert sum(v or 0 for v in lines["hand won"].values) == 130 + declared
        a, b = (v or 0 for v in lines["hand won"].values)
        assert result.points == ((0, 0) if a == b else (int(a > b), int(b > a)))
    for view in views:
        assert view.hand_result() == result


def _strength(c: Card) -> int:
    return (1, 3, 10, 9, 8, 7, 6, 5, 4, 2)[::-1].index(c.rank)


def _expected_plays(hand: list[Card], trick: list[tuple[int, Card]], trump: str,
                    relieved: bool) -> set[Card]:
    """The text's obligations restated independently of the engine."""
    if not trick:
        return set(hand)
    led = trick[0][1].suit
    follow = {c for c in hand if c.suit == led}
    trumps_in = [c for _, c in trick if c.suit == trump]
    if follow:
        if relieved or (led != trump and trumps_in):
            return follow
        best = max(_strength(c) for _, c in trick if c.suit == led)
        return {c for c in follow if _strength(c) > best} or follow
    mine = {c for c in hand if c.suit == trump}
    if not mine or relieved:
        return set(hand)
    if not trumps_in:
        return mine
    best = max(_strength(c) for c in trumps_in)
    return {c for c in mine if _strength(c) > best} or mine


@settings(max_examples=25, deadline=None)
@given(preset=st.sampled_from(PRESETS), seed=st.integers(0, 2**32 - 1))
def test_legal_plays_are_exactly_what_the_obligations_allow(preset: str, seed: int) -> None:
    full, _, rng = _deal(preset, seed)
    while full.phase is Phase.ACTION:
        seat = full.to_act
        hand = [c for c in full.hand(seat) if c is not None]
        trick = list(full.trick)
        assert full.trump is not None
        relieved = False
        if full.config.partner_relief and trick:
            winner = max(range(len(trick)), key=lambda i: (
                trick[i][1].suit == full.trump,
                trick[i][1].suit == trick[0][1].suit, _strength(trick[i][1])))
            relieved = trick[winner][0] % 2 == seat % 2
        legal = {a.card for a in full.legal_actions() if a.kind == "play"}
        assert legal == _expected_plays(hand, trick, full.trump, relieved)
        full.apply(rng.choice(full.legal_actions()))
