"""What a Rumino match keeps for its observations (the discard pile's codes beside the cards,
the hand facts, the acting seat's split) gives every seat the observation a plain reading of
the match's public queries gives: over whole random matches (claims, ruminos, rebuys, ends of
hands and of the match included) and in copies of a match that go their own ways."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from legal_reference import best_split as reference_best_split

from p2pcards.cards import Card
from p2pcards.games import get_game
from p2pcards.games.base import Phase
from p2pcards.games.rumino import RuminoMatch
from p2pcards.games.rumino_config import rebuy_price
from p2pcards.games.rumino_melds import rumino_kind
from p2pcards.offline.simulate import fulfil_chance


def _plain_observation(match: RuminoMatch, seat: int) -> dict[str, Any]:
    """The observation as the straightforward reading of the public queries, nothing kept."""
    n = match.config.players
    own = match.hand(seat)
    known = [c for c in own if c is not None]
    melds: list[list[str]] = []
    dead: int | None = None
    if own and len(known) == len(own):
        split = reference_best_split(known)
        melds = [[c.code for c in m] for m in split.melds]
        dead = split.deadwood
    acting = match.phase is Phase.ACTION
    offered = acting and match.offering and match.to_act == seat
    upcard = match.upcard
    shown = None
    if match.rumino_seat is not None:
        shown = {"seat": match.rumino_seat, "cards": [c.code for c in match.rumino_cards],
                 "kind": rumino_kind(match.rumino_cards), "claimed": match.rumino_claimed}
    return {
        "game": "rumino", "seat": seat, "players": n, "phase": match.phase.value,
        "hand_number": match.hand_number, "dealer": match.dealer,
        "playing": list(match.playing), "in_game": [int(x) for x in match.in_game],
        "out": [s for s in range(n) if not match.in_game[s]],
        "to_act": match.to_act if acting else None, "drawn": match.drawn,
        "hand": [c.code for c in known], "hand_sizes": [len(match.hand(s)) for s in range(n)],
        "melds": melds, "melds_text": " | ".join(" ".join(m) for m in melds) or None,
        "deadwood": dead, "upcard": upcard.code if upcard is not None else None,
        "discards": [c.code for c in match.discards], "stock_size": match.stock_size,
        "claimants": sorted(match.claimants()), "scores": list(match.scores),
        "stake": match.config.stake, "paid": list(match.paid), "pool": match.pool,
        "rebuys": list(match.rebuys),
        "rebuy_price": rebuy_price(match.config.stake, match.rebuys[seat]) if offered else None,
        "rumino": shown, "knocker": match.knocker, "payout": list(match.payout),
        "winner": match.winner,
    }


def _step(state: RuminoMatch, rng: random.Random, shuffled: list[Card]) -> list[Card]:
    """Play one step of a random match (a claim now and then); the deck shuffled for it."""
    phase = state.phase
    if phase is Phase.SHUFFLE:
        shuffled = list(state.deck.cards)
        rng.shuffle(shuffled)
        state.begin_hand()
    elif phase is Phase.CHANCE:
        fulfil_chance(state, shuffled)
    elif phase is Phase.ACTION:
        claims = [(s, a) for s in sorted(state.claimants()) for a in state.claim_actions(s)]
        if claims and rng.random() < 0.5:
            state.apply_claim(*claims[rng.randrange(len(claims))])
        else:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
    elif phase is Phase.HAND_OVER:
        state.next_hand()
    return shuffled


def _assert_plain(state: RuminoMatch, rng: random.Random) -> None:
    """Every seat's observation equals the plain one, asked in a random order of the seats,
    before or after the legal actions (which may keep the acting seat's split)."""
    seats = list(range(state.config.players))
    rng.shuffle(seats)
    if rng.random() < 0.5:
        state.legal_actions()
    for seat in seats:
        assert state.observation(seat) == _plain_observation(state, seat)


@settings(max_examples=30, deadline=None)
@given(players=st.integers(2, 6), preset=st.sampled_from(["classic", "stakes"]),
       seed=st.integers(0, 2**32 - 1))
def test_observations_equal_a_plain_reading_over_whole_matches(players: int, preset: str,
                                                               seed: int) -> None:
    spec = get_game("rumino")
    state = spec.new_match(spec.preset(preset, players=players))
    assert isinstance(state, RuminoMatch)
    rng = random.Random(seed)
    shuffled: list[Card] = []
    for _ in range(1500):
        if state.match_over:
            break
        _assert_plain(state, rng)
        shuffled = _step(state, rng, shuffled)
    _assert_plain(state, rng)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 6))
def test_copies_keep_observations_of_their_own(seed: int, players: int) -> None:
    """A copy and its original, observed and then played apart from one state, each observe
    their own match."""
    spec = get_game("rumino")
    state = spec.new_match(spec.preset(players=players))
    assert isinstance(state, RuminoMatch)
    rng = random.Random(seed)
    shuffled: list[Card] = []
    for _ in range(rng.randrange(1, 60)):
        if state.match_over:
            return
        shuffled = _step(state, rng, shuffled)
    _assert_plain(state, rng)
    twins = [state, state.copy()]
    for turn, twin in enumerate(twins):
        twin_rng = random.Random(seed * 2 + turn)
        deck = list(shuffled)
        for _ in range(6):
            if twin.match_over:
                break
            deck = _step(twin, twin_rng, deck)
            _assert_plain(twin, twin_rng)
    for twin in twins:
        _assert_plain(twin, rng)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 6))
def test_changing_a_handed_out_observation_changes_no_later_one(seed: int,
                                                                players: int) -> None:
    """Every list of an observation (and every list in it) is the caller's own: filling them
    with junk changes neither the next observation of the same state nor a later one."""
    spec = get_game("rumino")
    state = spec.new_match(spec.preset(players=players))
    assert isinstance(state, RuminoMatch)
    rng = random.Random(seed)
    shuffled: list[Card] = []
    for _ in range(120):
        if state.match_over:
            break
        for seat in range(players):
            handed = state.observation(seat)
            for value in handed.values():
                if isinstance(value, list):
                    for item in value:
                        if isinstance(item, list):
                            item.append("junk")
                    value.append("junk")
            assert state.observation(seat) == _plain_observation(state, seat)
        shuffled = _step(state, rng, shuffled)
