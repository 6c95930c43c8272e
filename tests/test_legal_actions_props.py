"""Every game's legal actions are listed once each, in :class:`Action`'s order; the faster
enumerations of Burraco, Rumino, Ziginette and Sette e mezzo list exactly what the
straightforward reference enumerations of ``tests/legal_reference.py`` list, in the same order,
over random reachable states."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

from hypothesis import given, settings
from hypothesis import strategies as st
from legal_reference import (
    best_split as reference_best_split,
)
from legal_reference import (
    burraco_legal_actions,
    rumino_claim_actions,
    rumino_legal_actions,
    sette_e_mezzo_legal_actions,
    ziginette_legal_actions,
)
from legal_reference import (
    one_card_extensions as reference_one_card_extensions,
)
from legal_reference import (
    three_card_melds as reference_three_card_melds,
)

from p2pcards.cards import FRENCH_108, Card
from p2pcards.games import all_games, get_game
from p2pcards.games.base import Action, MatchState, Phase, sort_actions
from p2pcards.games.burraco_melds import Meld, one_card_extensions, three_card_melds
from p2pcards.games.rumino_melds import best_split
from p2pcards.offline.simulate import RandomDealer

CASES = [(spec.name, count) for spec in all_games() for count in spec.player_counts]
REFERENCES: dict[str, Callable[[MatchState], list[Action]]] = {
    "burraco": burraco_legal_actions,
    "rumino": rumino_legal_actions,
    "ziginette": ziginette_legal_actions,
    "sette-e-mezzo": sette_e_mezzo_legal_actions,
}


def _decisions(game: str, players: int, seed: int, limit: int) -> Iterator[MatchState]:
    """The states of one random playout where a seat must act, up to ``limit`` of them.

    The policy prefers actions that keep the turn going (melds, additions, draws) to discards
    three times out of four, so that melds grow long, hands run down to their last cards and
    pozzetti are taken: the states where the meld games' rules are the most intricate."""
    spec = get_game(game)
    state = spec.new_match(spec.preset(players=players))
    rng = random.Random(seed)
    dealer = RandomDealer(rng)
    seen = 0
    while seen < limit:
        if dealer.step(state):
            continue
        if state.phase is not Phase.ACTION:
            return
        seen += 1
        yield state
        legal = state.legal_actions()
        keep_going = [a for a in legal if a.kind not in ("discard", "knock")]
        pool = keep_going if keep_going and rng.random() < 0.75 else legal
        state.apply(pool[rng.randrange(len(pool))])


@settings(max_examples=40, deadline=None)
@given(case=st.sampled_from(CASES), seed=st.integers(0, 2**32 - 1))
def test_legal_actions_are_listed_once_each_in_action_order(case: tuple[str, int],
                                                           seed: int) -> None:
    game, players = case
    for state in _decisions(game, players, seed, limit=150):
        legal = state.legal_actions()
        assert legal, f"{game}: a seat must act but has no legal action"
        assert legal == sorted(set(legal)), f"{game}: legal actions out of order or repeated"


@settings(max_examples=25, deadline=None)
@given(case=st.sampled_from([c for c in CASES if c[0] in REFERENCES]),
       seed=st.integers(0, 2**32 - 1))
def test_meld_games_list_exactly_the_reference_actions(case: tuple[str, int], seed: int) -> None:
    game, players = case
    reference = REFERENCES[game]
    for state in _decisions(game, players, seed, limit=300):
        assert state.legal_actions() == reference(state)
        if game == "rumino":
            for seat in state.claimants():  # type: ignore[attr-defined]
                assert (state.claim_actions(seat)  # type: ignore[attr-defined]
                        == rumino_claim_actions(state, seat))


_HANDS = st.lists(st.sampled_from(FRENCH_108.cards), min_size=0, max_size=24, unique=True)


@settings(max_examples=300, deadline=None)
@given(hand=_HANDS)
def test_burraco_three_card_melds_match_the_reference_in_order(hand: list[Card]) -> None:
    assert three_card_melds(hand) == reference_three_card_melds(hand)


_WILD_RICH = st.lists(st.sampled_from([c for c in FRENCH_108.cards
                                       if c.suit in ("H", "X") or c.rank == 2]),
                      min_size=3, max_size=16, unique=True)


@settings(max_examples=300, deadline=None)
@given(hand=_WILD_RICH)
def test_burraco_runs_with_wild_cards_match_the_reference(hand: list[Card]) -> None:
    """One suit, its 2s, the other suits' 2s and the jokers: every place of a wild card."""
    assert three_card_melds(hand) == reference_three_card_melds(hand)


@settings(max_examples=300, deadline=None)
@given(hand=st.lists(st.sampled_from(FRENCH_108.cards), min_size=0, max_size=9, unique=True))
def test_rumino_best_split_matches_the_reference(hand: list[Card]) -> None:
    assert best_split(hand) == reference_best_split(hand)


_ACTIONS = st.builds(
    Action,
    kind=st.sampled_from(["play", "meld", "add", "discard"]),
    card=st.sampled_from(FRENCH_108.cards),
    cards=st.lists(st.sampled_from(FRENCH_108.cards), max_size=4).map(tuple),
    value=st.sampled_from(["", "stock", "upcard"]),
    amount=st.integers(0, 3),
)


@settings(max_examples=300, deadline=None)
@given(actions=st.lists(_ACTIONS, max_size=30))
def test_sort_actions_is_the_actions_own_order(actions: list[Action]) -> None:
    assert sort_actions(actions) == sorted(actions)


def test_a_caller_changing_its_list_of_legal_actions_changes_nothing_else() -> None:
    """Burraco and Rumino keep their list between state changes: each call gets a copy."""
    for game in ("burraco", "rumino"):
        state = next(_decisions(game, 4, seed=3, limit=1))
        first = state.legal_actions()
        expected = list(first)
        first.clear()
        assert state.legal_actions() == expected
        assert state.legal_actions() is not state.legal_actions()


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_burraco_one_card_additions_match_the_reference(seed: int) -> None:
    """Melds grown at random to any length, and every card of the deck added to each."""
    rng = random.Random(seed)
    hand = rng.sample(FRENCH_108.cards, 20)
    melds: list[Meld] = []
    for meld in three_card_melds(hand)[:4]:
        for _ in range(rng.randrange(9)):
            grown = [g for c in rng.sample(FRENCH_108.cards, 40) if c not in meld.cards
                     for g in reference_one_card_extensions(meld, c)]
            if not grown:
                break
            meld = rng.choice(grown)
        melds.append(meld)
    for meld in melds:
        for c in FRENCH_108.cards:
            if c not in meld.cards:
                assert one_card_extensions(meld, c) == reference_one_card_extensions(meld, c)


@settings(max_examples=200, deadline=None)
@given(hand=st.lists(st.sampled_from(FRENCH_108.cards), min_size=0, max_size=13, unique=True),
       most=st.integers(1, 5))
def test_calabrasella_discards_come_out_in_order(hand: list[Card], most: int) -> None:
    """The discard enumeration lists every combination of 1..most cards once, already sorted."""
    from itertools import combinations

    from p2pcards.games.calabrasella_actions import combinations_in_order

    ordered = sorted(hand)
    expected = sorted(c for k in range(1, most + 1) for c in combinations(ordered, k))
    assert combinations_in_order(ordered, most) == expected


@settings(max_examples=200, deadline=None)
@given(kind=st.sampled_from(["meld", "discard", "rumino"]),
       combos=st.lists(st.lists(st.sampled_from(FRENCH_108.cards), max_size=6).map(tuple),
                       max_size=12))
def test_actions_built_in_bulk_equal_the_plain_ones(kind: str,
                                                    combos: list[tuple[Card, ...]]) -> None:
    from p2pcards.games.base import actions_with_cards

    built = actions_with_cards(kind, combos)
    plain = [Action(kind, cards=combo) for combo in combos]
    assert built == plain
    assert [hash(a) for a in built] == [hash(a) for a in plain]
    assert [a.to_wire() for a in built] == [a.to_wire() for a in plain]
