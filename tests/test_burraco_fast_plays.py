"""Burraco's memoized enumerations equal a fresh computation: a hand's three-card melds kept
from an earlier hand of the seat (``burraco_plays.hand_melds``), a run's one-card growths kept by
the run's pattern (its suit and copies renamed), and the legal actions and observations of a
state whose copy was played on (copies share no memo that a change of state could make wrong)."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from legal_reference import burraco_legal_actions
from legal_reference import one_card_extensions as reference_one_card_extensions
from legal_reference import three_card_melds as reference_three_card_melds

from p2pcards.cards import FRENCH_108, FRENCH_SUITS, Card
from p2pcards.games import get_game
from p2pcards.games.base import Action, Phase
from p2pcards.games.burraco import BurracoMatch, meld_text
from p2pcards.games.burraco_melds import (
    Meld,
    hand_codes,
    one_card_extensions,
    one_card_growths,
    read_meld,
    read_run,
    sort_key,
    with_code,
    without_codes,
)
from p2pcards.games.burraco_plays import CARDS, ORDINAL, hand_mask, hand_melds
from p2pcards.games.burraco_scoring import card_value, cards_value
from p2pcards.offline.simulate import RandomDealer, fulfil_chance

_HANDS = st.lists(st.sampled_from(FRENCH_108.cards), min_size=0, max_size=30, unique=True)


def _codes(melds: list[tuple[Card, ...]]) -> list[tuple[str, ...]]:
    return sorted(tuple(c.code for c in cards) for cards in melds)


@settings(max_examples=400, deadline=None)
@given(earlier=st.none() | _HANDS, hand=_HANDS)
def test_a_hands_melds_kept_from_an_earlier_hand_are_its_three_card_melds(
        earlier: list[Card] | None, hand: list[Card]) -> None:
    before = None if earlier is None else hand_melds(hand_mask(earlier), None)
    mask, entries = hand_melds(hand_mask(hand), before)
    assert mask == hand_mask(hand)
    assert list(entries) == sorted(entries), "the melds are kept sorted"
    assert _codes([e[1].cards for e in entries]) == _codes(
        [m.cards for m in reference_three_card_melds(hand)])
    for key, action, bits, rank in entries:
        assert action.kind == "meld" and action.amount == 0
        assert key == tuple(ORDINAL[c.code] for c in action.cards)
        assert bits == hand_mask(action.cards)
        meld = read_meld(action.cards)
        assert rank == (meld.rank if meld.kind == "set" else 0)


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_a_melds_growths_listed_without_melds_are_the_extensions_cards(seed: int) -> None:
    """The cards of each growth of a meld by one card, as the listing of additions lays them
    out (indices into the meld's cards and the card), are those of the melds
    :func:`one_card_extensions` makes, in its order, for sets and runs grown at random (their
    run patterns computed once and extended by the card) and every card of the deck."""
    rng = random.Random(seed)
    melds = reference_three_card_melds(rng.sample(FRENCH_108.cards, 30))
    for meld in rng.sample(melds, min(3, len(melds))):
        for _ in range(rng.randrange(5)):
            grown = [g for c in FRENCH_108.cards if c not in meld.cards
                     for g in reference_one_card_extensions(meld, c)]
            if not grown:
                break
            meld = rng.choice(grown)
        for c in CARDS:
            if c not in meld.cards:
                pool = (*meld.cards, c)
                assert tuple(tuple(pool[i] for i in layout)
                             for layout in one_card_growths(meld, c)) == tuple(
                    m.cards for m in one_card_extensions(meld, c))


def _renamed(c: Card, suits: dict[str, str], swap_copies: bool) -> Card:
    if c.suit == "X":
        return Card(0, "X", 5 - c.copy if swap_copies else c.copy)
    return Card(c.rank, suits[c.suit], 3 - c.copy if swap_copies else c.copy)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), order=st.permutations(FRENCH_SUITS),
       swap_copies=st.booleans())
def test_a_runs_growths_do_not_depend_on_its_suit_or_copies(
        seed: int, order: list[str], swap_copies: bool) -> None:
    """A run grown at random, then the same run with its suits and copies renamed: the growths
    of the second come from the first's pattern and still equal the reference's."""
    rng = random.Random(seed)
    suits = dict(zip(FRENCH_SUITS, order, strict=True))
    runs = [m for m in reference_three_card_melds(rng.sample(FRENCH_108.cards, 30))
            if m.kind == "run"]
    for run in rng.sample(runs, min(3, len(runs))):
        for _ in range(rng.randrange(6)):
            grown = [g for c in FRENCH_108.cards if c not in run.cards
                     for g in reference_one_card_extensions(run, c)]
            if not grown:
                break
            run = rng.choice(grown)
        renamed = Meld("run", tuple(_renamed(c, suits, swap_copies) for c in run.cards),
                       run.rank, suits[run.suit],
                       None if run.wild is None else _renamed(run.wild, suits, swap_copies),
                       run.wild_at)
        assert renamed == read_run(renamed.cards)
        for c in CARDS:
            if c not in run.cards:
                assert one_card_extensions(run, c) == reference_one_card_extensions(run, c)
                other = _renamed(c, suits, swap_copies)
                assert (one_card_extensions(renamed, other)
                        == reference_one_card_extensions(renamed, other))


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_a_copy_played_on_leaves_the_originals_legal_actions_alone(seed: int) -> None:
    """At random decisions of a random playout, a copy of the state plays a few random actions;
    the original's legal actions are still the reference's, and so are the copy's."""
    spec = get_game("burraco")
    state = spec.new_match(spec.preset(players=4))
    rng = random.Random(seed)
    dealer = RandomDealer(rng)
    for _ in range(600):
        _check_observations(state)
        if dealer.step(state):
            continue
        if state.phase is not Phase.ACTION:
            return
        assert state.legal_actions() == burraco_legal_actions(state)
        _check_observations(state)
        if rng.random() < 0.2:
            _play_a_copy(state, dealer.shuffled, rng)
            assert state.legal_actions() == burraco_legal_actions(state)
            _check_observations(state)
        legal = state.legal_actions()
        keep_going = [a for a in legal if a.kind != "discard"]
        pool = keep_going if keep_going and rng.random() < 0.75 else legal
        state.apply(pool[rng.randrange(len(pool))])


def _reference_observation(state: BurracoMatch, seat: int) -> dict[str, Any]:
    """``seat``'s observation computed afresh from the state's public accessors."""
    side = seat % 2
    phase = state.phase
    obs = state.observation(seat)  # only for what no accessor shows (the hidden counters)
    return {
        "game": "burraco",
        "seat": seat,
        "side": side,
        "players": 4,
        "phase": phase.value,
        "hand_number": state.hand_number,
        "first_player": state.first_player,
        "to_act": state.to_act if phase is Phase.ACTION else None,
        "stage": state.stage,
        "hand": [c.code for c in sorted((c for c in state.hand(seat) if c is not None),
                                        key=sort_key)],
        "hand_sizes": [len(state.hand(s)) for s in range(4)],
        "melds": [[[c.code for c in m.cards] for m in state.melds(s)] for s in (0, 1)],
        "our_melds": meld_text(state.melds(side)),
        "their_melds": meld_text(state.melds(1 - side)),
        "discard_pile": [c.code for c in state.discard_pile],
        "stock_size": state.stock_size,
        "pozzetti": [state.pozzetto_taken(s) for s in (0, 1)].count(False),
        "pozzetto_taken": [state.pozzetto_taken(s) for s in (0, 1)],
        "face_down_pozzetto": obs["face_down_pozzetto"],
        "cannot_discard": obs["cannot_discard"],
        "stalemate_turns": obs["stalemate_turns"],
        "end_reason": state.end_reason,
        "target": state.config.target,
        "match_scores": list(state.match_scores),
        "winner": state.winner,
    }


def _check_observations(state: BurracoMatch) -> None:
    """Every seat's observation (kept parts: the hands' codes, the melds' codes and text, the
    pile's codes) equals one computed afresh, key by key in the same order and with the same
    types; and changing the lists it hands out changes no later observation."""
    for seat in range(4):
        obs = state.observation(seat)
        reference = _reference_observation(state, seat)
        assert list(obs) == list(reference)
        assert obs == reference
        assert [type(v) for v in obs.values()] == [type(v) for v in reference.values()]
        _scribble(obs)
        assert state.observation(seat) == reference


def _scribble(value: object) -> None:
    """Append to every list in ``value`` (a dict or list), however deep."""
    items = value.values() if isinstance(value, dict) else value
    assert isinstance(items, Iterable)
    for item in items:
        if isinstance(item, list | dict):
            _scribble(item)
    if isinstance(value, list):
        value.append("changed")


def _play_a_copy(state: BurracoMatch, shuffled: list[Card], rng: random.Random) -> None:
    other = state.copy()
    for _ in range(rng.randrange(1, 8)):
        if other.phase is Phase.CHANCE:
            fulfil_chance(other, shuffled)
        elif other.phase is Phase.ACTION:
            legal = other.legal_actions()
            assert legal == burraco_legal_actions(other)
            _check_observations(other)
            other.apply(legal[rng.randrange(len(legal))])
        else:
            return


_ODD_CARDS = (Card(5, "X", 1), Card(7, "H", 3), Card(1, "S", 0), Card(2, "D", 5))
"""Cards of no deck of the match, whose values are worked out card by card."""


@settings(max_examples=200, deadline=None)
@given(held=st.lists(st.sampled_from((*FRENCH_108.cards, *_ODD_CARDS)), max_size=40))
def test_cards_value_read_from_the_table_is_the_sum_of_card_values(held: list[Card]) -> None:
    expected = sum(card_value(c) for c in held)
    assert cards_value(held) == expected
    assert cards_value(c for c in held) == expected


@settings(max_examples=300, deadline=None)
@given(hand=st.lists(st.sampled_from((*FRENCH_108.cards, *_ODD_CARDS)), max_size=30,
                     unique=True),
       data=st.data())
def test_a_hands_codes_patched_by_a_card_in_or_out_are_those_sorted_afresh(
        hand: list[Card], data: st.DataObject) -> None:
    """The codes of a hand kept in step with a card drawn and with cards melded or discarded
    equal :func:`hand_codes` of the new hand, or are ``None`` (then sorted afresh) only when a
    card whose code is not of the deck is in play; the kept list itself is never changed."""
    codes = hand_codes(hand)
    kept = list(codes)
    odd = any(c.code not in ORDINAL for c in hand)  # a joker of another deck has a deck code
    new = data.draw(st.sampled_from([c for c in FRENCH_108.cards if c not in hand]))
    added = with_code(codes, new.code)
    assert added == (None if odd else hand_codes([*hand, new]))
    gone = data.draw(st.lists(st.sampled_from(hand), unique=True)) if hand else []
    removed = without_codes(codes, [c.code for c in gone])
    assert removed == (None if odd else hand_codes([c for c in hand if c not in gone]))
    assert without_codes(codes, [new.code]) is None
    assert codes == kept


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.integers(0, 6), pozzetto=st.booleans(),
       taken=st.sampled_from(("none", "held", "melded")))
def test_the_plays_of_a_small_hand_are_the_references(
        seed: int, size: int, pozzetto: bool, taken: str) -> None:
    """A hand of a few cards, with or without its side's pozzetto, a burraco on the table or
    not, and a card taken alone from the pile (held, or already melded): the listed plays,
    which must leave a card to discard or close, equal the plain enumeration's."""
    rng = random.Random(seed)
    pool = list(FRENCH_108.cards)
    rng.shuffle(pool)
    melds: list[tuple[Card, ...]] = []
    used: set[Card] = set()
    for meld in reference_three_card_melds(pool[:40]):
        if len(melds) < 4 and not used & set(meld.cards) and rng.random() < 0.5:
            for _ in range(rng.choice((0, 0, 2, 3, 4))):
                grown = [g for c in pool[40:] if c not in used and c not in meld.cards
                         for g in reference_one_card_extensions(meld, c)]
                if grown:
                    meld = rng.choice(grown)
            melds.append(meld.cards)
            used |= set(meld.cards)
    free = [c for c in pool if c not in used]
    threes = reference_three_card_melds(free[:30])
    if size >= 3 and threes and rng.random() < 0.7:  # a hand that can meld
        trio = rng.choice(threes).cards
        free = [*trio, *(c for c in free if c not in trio)]
    fits = [c for c in free[:60] for m in melds if reference_one_card_extensions(read_meld(m), c)]
    if fits and rng.random() < 0.7:  # a hand that can add to a meld
        free.remove(fits[0])
        free.insert(rng.randrange(min(size, 2) + 1), fits[0])
    hand = free[:size]
    single = None
    if taken == "held" and hand:
        single = rng.choice(hand)
    elif taken == "melded":
        single = free[size]
    state = BurracoMatch.from_position(
        get_game("burraco").preset(players=4), [hand, [], [], []], melds=(melds, ()),
        pozzetti_taken=(pozzetto, False), taken_single=single)
    assert state.legal_actions() == burraco_legal_actions(state)


def test_an_addition_that_makes_the_burraco_lets_the_last_card_close() -> None:
    """Two cards left, the side's pozzetto taken and no burraco yet: adding the seventh card to
    a run is listed (the last card then closes), adding a sixth one is not."""
    config = get_game("burraco").preset(players=4)
    for run, expected in (("3H1 4H1 5H1 6H1 7H1 8H1", True), ("3H1 4H1 5H1 6H1 7H1", False)):
        state = BurracoMatch.from_position(config, [["9H1", "KS1"], [], [], []],
                                           melds=([run], ()), pozzetti_taken=(True, False))
        legal = state.legal_actions()
        assert legal == burraco_legal_actions(state)
        assert any(a.kind == "add" for a in legal) is expected


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_a_listed_meld_or_addition_applied_as_listed_is_an_equal_ones_play(seed: int) -> None:
    """A meld or addition applied as the very object the legal actions listed (which skips
    the checks) leaves the state an equal action read from the wire (which is checked) leaves:
    the same observations for every seat and the same legal actions."""
    spec = get_game("burraco")
    state = spec.new_match(spec.preset(players=4))
    rng = random.Random(seed)
    dealer = RandomDealer(rng)
    for _ in range(600):
        if dealer.step(state):
            continue
        if state.phase is not Phase.ACTION:
            return
        legal = state.legal_actions()
        keep_going = [a for a in legal if a.kind != "discard"]
        pool = keep_going if keep_going and rng.random() < 0.75 else legal
        action = pool[rng.randrange(len(pool))]
        if action.kind in ("meld", "add"):
            other = state.copy()
            other.apply(Action.from_wire(action.to_wire()))
            state.apply(action)
            assert [other.observation(s) for s in range(4)] == [
                state.observation(s) for s in range(4)]
            assert other.phase is state.phase
            if state.phase is Phase.ACTION:
                assert other.legal_actions() == state.legal_actions()
        else:
            state.apply(action)
