"""The trick games' faster code paths list and compute exactly what the straightforward code
they replaced did, over random reachable states of random variants.

Each reference below is the enumeration or sum an engine used before it was made faster (shared
action objects, running totals, identity look-ups), kept here as the plainest statement of the
rule. The checks run at every decision of seeded random playouts, on the engine and on copies
of it taken mid-hand (a copy must not share anything a later move changes)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from p2pcards.cards import ITALIAN_40, ITALIAN_SUITS, Card
from p2pcards.games import get_game
from p2pcards.games.base import Action, MatchState, Phase, sort_actions
from p2pcards.games.tressette_rules import (
    COUNT_SIGNALS,
    NAPOLI,
    combinations_held,
    suit_counts,
)
from p2pcards.offline.simulate import fulfil_chance


def playout(game: str, config: Any, seed: int, limit: int) -> Iterator[MatchState]:
    """The states of one random playout where a seat must act (up to ``limit``), each followed
    by a random legal action; every 7th state is replaced by a copy of itself before it goes
    on, so that copies are played on too."""
    spec = get_game(game)
    state = spec.new_match(config)
    rng = random.Random(seed)
    shuffled: list[Card] = []
    seen = 0
    while seen < limit:
        phase = state.phase
        if phase is Phase.SHUFFLE:
            shuffled = list(state.deck.cards)
            rng.shuffle(shuffled)
            state.begin_hand()
        elif phase is Phase.CHANCE:
            fulfil_chance(state, shuffled)
        elif phase is Phase.ACTION:
            seen += 1
            if seen % 7 == 0:
                state = state.copy()  # type: ignore[attr-defined]
            yield state
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        elif phase is Phase.HAND_OVER:
            state.next_hand()
        else:
            return


# ---------------------------------------------------------------- Tressette and Tresette

def tressette_plays(state: Any) -> list[Action]:
    """The plays of the seat to act as the engine listed them before its plays were shared."""
    seat = state.to_act
    hand = [c for c in state.hand(seat) if c is not None]
    led = state.table[0][1].suit if state.table else None
    playable = [c for c in hand if c.suit == led] if led is not None else []
    signals = [("", 0)]
    if state.config.signals:
        counts = suit_counts(hand)
        signals.append(("best", 0) if led is None else ("count", counts[led]))
        signals.extend((name, 0) for name, n in COUNT_SIGNALS.items() if n in counts.values())
    return sort_actions(
        Action("play", card=c, value=v, amount=a) for c in playable or hand for v, a in signals
    )


def reference_combinations_held(hand: list[Card]) -> list[tuple[str, tuple[Card, ...]]]:
    """Every Buongioco combination in a hand, as first written (sorted set, one pass a kind)."""
    held = sorted(set(hand))
    out: list[tuple[str, tuple[Card, ...]]] = []
    for kind, rank in (("aces", 1), ("twos", 2), ("threes", 3)):
        same = tuple(c for c in held if c.rank == rank)
        if len(same) >= 3:
            out.append((kind, same))
    for suit in ITALIAN_SUITS:
        nap = tuple(c for c in held if c.suit == suit and c.rank in (1, 2, 3))
        if len(nap) == 3:
            out.append((NAPOLI, nap))
    return out


TRESSETTE_VARIANTS = st.fixed_dictionaries({
    "game": st.sampled_from(["tressette", "tresette"]),
    "declarations": st.sampled_from(["buongioco", "good-play", "none"]),
    "signals": st.booleans(),
})


@settings(max_examples=30, deadline=None)
@given(variant=TRESSETTE_VARIANTS, players=st.sampled_from([3, 4]),
       seed=st.integers(0, 2**32 - 1))
def test_tressette_plays_are_the_reference_plays(variant: dict[str, Any], players: int,
                                                 seed: int) -> None:
    game = variant.pop("game")
    players = 4 if game == "tresette" else players
    config = get_game(game).preset(players=players, **variant)
    for state in playout(game, config, seed, limit=120):
        legal = state.legal_actions()
        if legal[0].kind == "announce":
            continue
        assert [a for a in legal if a.kind == "play"] == tressette_plays(state)
        assert legal == sorted(legal)


@settings(max_examples=300, deadline=None)
@given(hand=st.lists(st.sampled_from(ITALIAN_40.cards), max_size=14))
def test_tressette_combinations_held_are_the_reference_ones(hand: list[Card]) -> None:
    found = combinations_held(hand)
    assert found == reference_combinations_held(hand)
    for _, cards in found:  # the very card objects of the hand, as the sorted set gave them
        assert all(any(c is h for h in hand) for c in cards)
