"""Tressette's checks of a signal and of a claim, over random hands.

- The signals listed for a play (:func:`true_signals`, kept per suit led and suit counts) are
  the ones computed afresh, and the check of a signal on a play (:func:`signal_fault`) accepts
  exactly the listed ones.
- A declaration or an announcement is accepted exactly when the hand makes it true (and it is in
  time and not made before); a claim on an unknown hand is checked only for what is public."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from p2pcards.cards import ITALIAN_40, ITALIAN_SUITS, Card
from p2pcards.games.tressette_rules import (
    COUNT_SIGNALS,
    MELD_PARTS,
    SIGNALS,
    announcement_fault,
    announcement_of,
    buongioco_fault,
    combinations_held,
    good_play_fault,
    signal_fault,
    suit_counts,
    true_signals,
)

HANDS = st.lists(st.sampled_from(ITALIAN_40.cards), min_size=1, max_size=13, unique=True)
LEDS = st.sampled_from([None, *ITALIAN_SUITS])


def fresh_signals(hand: list[Card], led: str | None) -> tuple[tuple[str, int], ...]:
    """The signals a play may carry, computed plainly from the hand's suit counts."""
    counts = suit_counts(hand)
    first = ("best", 0) if led is None else ("count", counts[led])
    held = [(name, 0) for name, n in sorted(COUNT_SIGNALS.items()) if n in counts.values()]
    return (("", 0), first, *held)


def playable(hand: list[Card], led: str | None) -> list[Card]:
    """The cards of ``hand`` that may be played: of the suit led if the hand holds one."""
    follow = [c for c in hand if c.suit == led]
    return follow or hand


@settings(max_examples=300, deadline=None)
@given(hand=HANDS, led=LEDS)
def test_the_kept_signals_are_the_fresh_ones(hand: list[Card], led: str | None) -> None:
    assert true_signals(hand, led) == fresh_signals(hand, led)
    assert true_signals(list(reversed(hand)), led) == fresh_signals(hand, led)  # kept by counts


@settings(max_examples=300, deadline=None)
@given(hand=HANDS, led=LEDS, pick=st.integers(0, 12), allowed=st.booleans())
def test_a_signal_is_accepted_exactly_when_listed(hand: list[Card], led: str | None, pick: int,
                                                  allowed: bool) -> None:
    cards = playable(hand, led)
    card = cards[pick % len(cards)]
    listed = set(true_signals(hand, led)) if allowed else {("", 0)}
    for value in ("", *SIGNALS, "loud"):
        for amount in range(-1, 5):
            fault = signal_fault(2, value, amount, card, led, hand, allowed)
            assert (fault is None) == ((value, amount) in listed), (value, amount, fault)
            if fault is not None:
                rule, sentence = fault
                assert rule in ("bad-signal", "signals-not-allowed", "false-signal")
                assert sentence and "\n" not in sentence


@settings(max_examples=200, deadline=None)
@given(hand=HANDS, led=LEDS, unknown=st.integers(1, 3))
def test_an_unknown_hand_is_checked_only_for_what_is_public(hand: list[Card], led: str | None,
                                                            unknown: int) -> None:
    seen: list[Card | None] = [*hand[:-1], *([None] * unknown)]
    card = hand[-1]
    for value in ("one", "two", "none"):
        fault = signal_fault(0, value, 0, card, led, seen, True)
        assert fault is None or fault == (
            "false-signal", f"seat 0 signalled 'two' holding {len(seen)} card(s)")


@settings(max_examples=300, deadline=None)
@given(hand=HANDS, unknown=st.booleans(), plays=st.integers(0, 2), declared=st.booleans())
def test_good_play_is_accepted_exactly_when_a_meld_is_held(hand: list[Card], unknown: bool,
                                                            plays: int, declared: bool) -> None:
    seen: list[Card | None] = [*hand, None] if unknown else list(hand)
    fault = good_play_fault(1, "good-play", (), plays, declared, seen)
    in_time = plays == 0 and not declared
    assert (fault is None) == (in_time and (unknown or announcement_of(hand) != ""))
    if fault is not None and in_time:
        assert fault == ("false-declaration", "seat 1 declared good play holding no meld")
    assert good_play_fault(1, "good-play", hand[:1], 0, False, seen) is not None


@settings(max_examples=300, deadline=None)
@given(hands=st.permutations(ITALIAN_40.cards), seat=st.integers(0, 3), plays=st.integers(0, 2))
def test_buongioco_is_accepted_exactly_when_held_in_time_and_new(hands: list[Card], seat: int,
                                                                 plays: int) -> None:
    dealt: list[list[Card | None]] = [list(hands[s::4]) for s in range(4)]
    own = [c for c in dealt[seat] if c is not None]
    held = combinations_held(own)
    for kind, cards in held:
        fault = buongioco_fault(seat, kind, cards, plays, [], dealt, set())
        assert (fault is None) == (plays < 2), fault
        made = [(seat, kind, cards)]
        if plays < 2:
            fault = buongioco_fault(seat, kind, cards, plays, made, dealt, set())
            assert fault is not None and fault[0] == "duplicate-declaration"
            assert buongioco_fault((seat + 1) % 4, kind, cards, plays, made, dealt, set()) == (
                "false-declaration", f"seat {(seat + 1) % 4} declared {kind} "
                f"{' '.join(c.code for c in cards)} but does not hold exactly those cards")
    for rank, kind in ((1, "aces"), (2, "twos"), (3, "threes")):
        named = tuple(c for c in ITALIAN_40.cards if c.rank == rank)[:3]
        fault = buongioco_fault(seat, kind, named, 0, [], dealt, set())
        held_sets = {(k, frozenset(cs)) for k, cs in held}
        assert (fault is None) == ((kind, frozenset(named)) in held_sets)
        hidden = [[None] * len(h) if s == seat else h for s, h in enumerate(dealt)]
        elsewhere = any(c not in own for c in named)
        fault = buongioco_fault(seat, kind, named, 0, [], hidden, set())
        assert (fault is None) == (not elsewhere)


@settings(max_examples=300, deadline=None)
@given(hand=HANDS, other=st.sampled_from(MELD_PARTS), unknown=st.booleans())
def test_an_announcement_is_accepted_exactly_when_it_is_the_hands(hand: list[Card], other: str,
                                                                  unknown: bool) -> None:
    dealt: list[Card | None] = [*hand, None] if unknown else list(hand)
    truth = announcement_of(hand)
    if truth:
        assert announcement_fault(3, truth, dealt) is None
    fault = announcement_fault(3, other, dealt)
    assert (fault is None) == (unknown or other == truth)
    if fault is not None:
        assert fault[0] == "false-announcement"
    assert announcement_fault(3, "", dealt) == (
        "bad-announcement", "seat 3: an announcement names at least one meld")
