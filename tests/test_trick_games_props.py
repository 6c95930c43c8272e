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
from p2pcards.games.scopa import can_capture, sum_combinations
from p2pcards.games.tressette_rules import (
    COUNT_SIGNALS,
    NAPOLI,
    combinations_held,
    suit_counts,
)
from p2pcards.games.tricks import BRISCOLA_POINTS, card_points
from p2pcards.games.tute_rules import ORDER as TUTE_ORDER
from p2pcards.games.tute_rules import marriages_held, points_of
from p2pcards.games.tute_rules import trick_winner_seat as tute_trick_winner_seat
from p2pcards.offline.simulate import RandomDealer


def playout(game: str, config: Any, seed: int, limit: int) -> Iterator[MatchState]:
    """The states of one random playout where a seat must act (up to ``limit``), each followed
    by a random legal action. Every 7th state is copied and the copy played on: the original
    must not change (a copy shares nothing a move changes), and play goes on with the copy."""
    spec = get_game(game)
    state = spec.new_match(config)
    rng = random.Random(seed)
    dealer = RandomDealer(rng)
    seen = 0
    while seen < limit:
        if dealer.step(state):
            continue
        if state.phase is not Phase.ACTION:
            return
        seen += 1
        if seen % 7 == 0:
            twin = state.copy()  # type: ignore[attr-defined]
            before = [repr(state.observation(s)) for s in range(state.config.players)]
            moves = twin.legal_actions()
            twin.apply(moves[rng.randrange(len(moves))])
            assert [repr(state.observation(s)) for s in range(len(before))] == before
            state = state.copy()  # type: ignore[attr-defined]
        yield state
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])


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


# ---------------------------------------------------------------- Tute

def tute_allowed_plays(hand: list[Card], trick: tuple[tuple[int, Card], ...], trump: str,
                       relieved: bool) -> list[Card]:
    """The obligations of Tute as first written (rank comparisons through ``ORDER.beats``)."""
    def best(suit: str) -> Card | None:
        cards = [c for _, c in trick if c.suit == suit]
        return max(cards, key=lambda c: TUTE_ORDER.strength(c.rank)) if cards else None

    if not trick:
        return list(hand)
    led = trick[0][1].suit
    of_led = [c for c in hand if c.suit == led]
    if of_led:
        if relieved or (led != trump and best(trump) is not None):
            return of_led
        top = best(led)
        assert top is not None
        return [c for c in of_led if TUTE_ORDER.beats(c, top)] or of_led
    trumps = [c for c in hand if c.suit == trump]
    if not trumps or relieved:
        return list(hand)
    top_trump = best(trump)
    if top_trump is None:
        return trumps
    return [c for c in trumps if TUTE_ORDER.beats(c, top_trump)] or trumps


def tute_legal_actions(state: Any) -> list[Action]:
    """The legal actions of the seat to act as the engine listed them before they were shared:
    fresh actions and cards, declarations checked with :func:`marriages_held`, one sort."""
    seat = state.to_act
    hand = [c for c in state.hand(seat) if c is not None]
    trick = state.trick
    relieved = (state.config.partner_relief and bool(trick)
                and tute_trick_winner_seat(trick, state.trump) % 2 == seat % 2)
    out = [Action("play", c) for c in tute_allowed_plays(hand, trick, state.trump, relieved)]
    if state.may_declare == seat:
        if all(Card(10, s) in hand for s in ITALIAN_SUITS):
            out.append(Action("declare", cards=tuple(Card(10, s) for s in ITALIAN_SUITS),
                              value="tute"))
        for suit in marriages_held(hand):
            kind = "cuarenta" if suit == state.trump else "veinte"
            if state._order_error(seat, kind, suit, hand) is None:
                out.append(Action("declare", cards=(Card(10, suit), Card(9, suit)), value=kind))
    return sort_actions(out)


TUTE_VARIANTS = st.fixed_dictionaries({
    "cuarenta_first": st.booleans(), "partner_relief": st.booleans(),
})


@settings(max_examples=25, deadline=None)
@given(variant=TUTE_VARIANTS, seed=st.integers(0, 2**32 - 1))
def test_tute_actions_and_running_totals_are_the_reference_ones(variant: dict[str, Any],
                                                                seed: int) -> None:
    config = get_game("tute").preset(players=4, **variant)
    for state in playout("tute", config, seed, limit=150):
        assert state.legal_actions() == tute_legal_actions(state)
        piles = [state.captured(side) for side in (0, 1)]
        assert state.card_points() == tuple(points_of(p) for p in piles)
        seen = state.observation(state.to_act)
        assert seen["captured_points"] == [points_of(p) for p in piles]
        played = [c.code for p in piles for c in p] + [c.code for _, c in state.trick]
        assert sorted(seen["played"]) == sorted(played)
        if state.trick:
            assert seen["played"][-len(state.trick):] == [c.code for _, c in state.trick]


# ---------------------------------------------------------------- Briscola

@settings(max_examples=25, deadline=None)
@given(preset=st.sampled_from(["classic", "italian"]), players=st.sampled_from([2, 3, 4]),
       seed=st.integers(0, 2**32 - 1))
def test_briscola_actions_and_running_points_are_the_reference_ones(preset: str, players: int,
                                                                    seed: int) -> None:
    config = get_game("briscola").preset(preset, players=players)
    for state in playout("briscola", config, seed, limit=150):
        hand = state.hand(state.to_act)
        assert state.legal_actions() == sort_actions(Action("play", c) for c in hand)
        piles = [state.captured(side) for side in range(len(state.match_scores))]
        fresh = tuple(card_points(p, BRISCOLA_POINTS) for p in piles)
        assert state.card_points() == fresh
        assert state.observation(state.to_act)["captured_points"] == list(fresh)


# ---------------------------------------------------------------- Scopa

def scopa_capture_options(table: tuple[Card, ...], played: Card,
                          sum_choice: str) -> list[tuple[Card, ...]]:
    """Scopa's capture sets as first written (equal cards sorted as cards)."""
    equal = [(c,) for c in table if c.rank == played.rank]
    if equal:
        return sorted(equal)
    if not can_capture(table, played.rank):
        return [()]
    combos = sum_combinations(table, played.rank)
    if not combos:
        return [()]
    if sum_choice == "fewest_cards":
        fewest = min(len(c) for c in combos)
        combos = [c for c in combos if len(c) == fewest]
    return combos


@settings(max_examples=25, deadline=None)
@given(preset=st.sampled_from(["classic", "napola"]), players=st.sampled_from([2, 3, 4]),
       sum_choice=st.sampled_from(["fewest_cards", "free"]), seed=st.integers(0, 2**32 - 1))
def test_scopa_plays_are_the_reference_plays(preset: str, players: int, sum_choice: str,
                                             seed: int) -> None:
    config = get_game("scopa").preset(preset, players=players, sum_choice=sum_choice)
    for state in playout("scopa", config, seed, limit=150):
        hand = [c for c in state.hand(state.to_act) if c is not None]
        expected = sorted(
            Action("play", c, capture)
            for c in hand
            for capture in scopa_capture_options(state.table, c, sum_choice)
        )
        assert state.legal_actions() == expected
