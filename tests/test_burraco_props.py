"""Burraco properties over random playouts (random and rule-of-thumb bots, seeded shuffles):

- conservation: at every step each of the 108 cards is in exactly one place (a hand, a meld,
  the discard pile, the stock, a pozzetto still in the middle or face down), and the deck
  positions revealed are never revealed twice;
- every legal action applies, and the engine's melds are all valid;
- scores recomputed independently from the melds and the hands by :func:`rescore` (its own card
  values and its own clean/dirty test) equal the engine's hand result;
- the live view of one seat (other seats' private cards unknown) agrees with the full view at
  every step: the seat's observation and its legal actions.

The default run plays a few dozen hands; ``--slow`` plays 2,000.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pcards.bots import RandomBot, make_bot
from p2pcards.bots.base import Bot
from p2pcards.cards import FRENCH_108, card
from p2pcards.games.base import ALL_SEATS, Phase
from p2pcards.games.burraco import SPEC, BurracoMatch

_VALUES = {0: 30, 2: 20, 1: 15, 13: 10, 12: 10, 11: 10, 10: 10, 9: 10, 8: 10}


def _value(code: str) -> int:
    c = card(code)
    return _VALUES.get(c.rank, 5)


def _clean(meld: Sequence[str]) -> bool:
    """A clean meld: every card natural. Sets: no joker and no 2. Runs: no joker, one suit, and
    the ranks climb by one with the ace either first (low) or last (high)."""
    cs = [card(x) for x in meld]
    if any(x.suit == "X" for x in cs):
        return False
    ranks = [x.rank for x in cs]
    if len(set(ranks)) == 1:
        return 2 not in ranks
    if len({x.suit for x in cs}) != 1:
        return False
    if ranks[-1] == 1:
        ranks[-1] = 14
    return all(b == a + 1 for a, b in zip(ranks, ranks[1:], strict=False))


def rescore(state: BurracoMatch) -> tuple[int, int]:
    """The hand's points per side, from the melds, the hands and the hand's end alone."""
    obs = state.observation(0)
    out = []
    for side in (0, 1):
        melds = obs["melds"][side]
        total = sum(_value(x) for m in melds for x in m)
        total -= sum(_value(x.code) for seat in (side, side + 2)
                     for x in state.hand(seat) if x is not None)
        for m in melds:
            if len(m) >= 7:
                total += 200 if _clean(m) else 100
        if state.end_reason == "closing" and state.to_act % 2 == side:
            total += 100
        if not obs["pozzetto_taken"][side]:
            total -= 100
        out.append(total)
    return out[0], out[1]


def _check_conservation(state: BurracoMatch) -> None:
    obs = state.observation(0)
    in_hands = [x for s in range(4) for x in state.hand(s)]
    known = [x for x in in_hands if x is not None]
    known += [card(x) for ms in obs["melds"] for m in ms for x in m]
    known += [card(x) for x in obs["discard_pile"]]
    assert len(set(known)) == len(known), "a card is in two places"
    unseen_pozzetti = 11 * len(obs["face_down_pozzetto"])
    placed = len(in_hands) + sum(len(m) for ms in obs["melds"] for m in ms)
    placed += len(obs["discard_pile"]) + obs["stock_size"] + 11 * obs["pozzetti"]
    if state.phase is Phase.CHANCE:  # a pozzetto on its way into a hand
        placed += sum(1 for step in state.pending_chance()
                      if 44 <= step.position < 66 and step.visible_to != ALL_SEATS)
    assert placed + unseen_pozzetti == len(FRENCH_108)


def play_checked(seed: int, bots: Sequence[Bot], viewer: int | None = None) -> BurracoMatch:
    """One hand with full information, every invariant checked at every step."""
    rng = random.Random(seed)
    deck = list(FRENCH_108.cards)
    rng.shuffle(deck)
    full = SPEC.new_match(SPEC.preset(players=4))
    assert isinstance(full, BurracoMatch)
    live = full.copy() if viewer is not None else None
    full.begin_hand()
    if live is not None:
        live.begin_hand()
    revealed: set[int] = set()
    while full.phase is not Phase.HAND_OVER:
        if full.phase is Phase.CHANCE:
            steps = full.pending_chance()
            for s in steps:
                assert s.position not in revealed
                revealed.add(s.position)
            full.complete_chance([deck[s.position] for s in steps])
            if live is not None:
                assert live.pending_chance() == steps
                assert viewer is not None
                live.complete_chance([deck[s.position] if s.visible(viewer) else None
                                      for s in steps])
        else:
            seat = full.to_act
            legal = full.legal_actions()
            assert legal, "a seat with nothing to do"
            action = bots[seat].choose(full.observation(seat), legal)
            probe = full.copy()
            probe.apply(legal[rng.randrange(len(legal))])  # any legal action applies
            full.apply(action)
            if live is not None:
                live.apply(action)
        _check_conservation(full)
        if live is not None:
            assert viewer is not None
            assert live.phase is full.phase
            assert live.observation(viewer) == full.observation(viewer)
            if live.phase is Phase.ACTION and live.to_act == viewer:
                assert live.legal_actions() == full.legal_actions()
    assert tuple(full.hand_result().points) == rescore(full)
    return full


def _bots(seed: int, mix: int) -> list[Bot]:
    return [make_bot("burraco", "smart", seed + s) if (mix >> s) & 1 else RandomBot(seed + s)
            for s in range(4)]


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), mix=st.integers(0, 15), viewer=st.integers(0, 3))
def test_random_hands_conserve_cards_score_and_agree_with_live_views(
        seed: int, mix: int, viewer: int) -> None:
    play_checked(seed, _bots(seed, mix), viewer)


def test_smart_bots_close_hands() -> None:
    reasons = [play_checked(seed, _bots(seed, 15)).end_reason for seed in range(6)]
    assert reasons.count("closing") >= 4, reasons


@pytest.mark.slow
def test_two_thousand_hands() -> None:
    ends: dict[str, int] = {}
    for seed in range(2000):
        state = play_checked(seed, _bots(seed, seed % 16), viewer=seed % 4 if seed % 10 == 0
                             else None)
        ends[state.end_reason] = ends.get(state.end_reason, 0) + 1
    assert set(ends) == {"closing", "stock", "stalemate"}, ends


def test_rescore_sees_dirty_and_clean_melds() -> None:
    assert _clean(["2H1", "3H1", "4H1"]) and _clean(["QS1", "KS1", "AS1"])
    assert not _clean(["3H1", "4H1", "2H1", "6H1"]) and not _clean(["7H1", "7D1", "2C1"])
    assert not _clean(["X1", "7H1", "8H1"]) and _clean(["AS1", "2S1", "3S1"])
    assert _value("X1") == 30 and _value("2C1") == 20 and _value("AC1") == 15
    assert _value("8C1") == 10 and _value("7C1") == 5 and _value("3C1") == 5
