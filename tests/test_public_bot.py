"""The public bot's choice (SPEC §9.13.7): its seed is a pinned function of the table id and
two counters, and its move is the game's rule-of-thumb bot's, among the public view's legal
actions, the same however often it is asked."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from p2pcards.bots.base import make_bot
from p2pcards.games import get_game
from p2pcards.games.base import Phase
from p2pcards.public_bot import bot_seed, public_move

TABLE_ID = bytes(range(16))


def test_the_seed_is_pinned() -> None:
    # SHA-256("p2pcards bot seed" || 00 01 .. 0f || u64(c) || u64(m)), first 8 bytes, big-endian
    assert bot_seed(TABLE_ID, 0, 0) == 13245697801927611668
    assert bot_seed(TABLE_ID, 3, 17) == 14720831815522464272


@given(a=st.tuples(st.binary(min_size=16, max_size=16), st.integers(0, 99), st.integers(0, 999)),
       b=st.tuples(st.binary(min_size=16, max_size=16), st.integers(0, 99), st.integers(0, 999)))
def test_every_table_deck_and_move_has_its_own_seed(a: tuple[bytes, int, int],
                                                    b: tuple[bytes, int, int]) -> None:
    assert (bot_seed(*a) == bot_seed(*b)) == (a == b)
    assert 0 <= bot_seed(*a) < 2 ** 64


def dealt_briscola(seed: int):  # type: ignore[no-untyped-def]
    """A 2-seat Briscola engine with every card dealt openly, at its first move."""
    spec = get_game("briscola")
    match = spec.new_match(spec.preset("classic", 2))
    match.begin_hand()
    deck = list(match.deck)
    while match.phase is Phase.CHANCE:
        steps = match.pending_chance()
        match.complete_chance([deck.pop((seed + i) % len(deck)) for i in range(len(steps))])
    return match


@settings(max_examples=20, deadline=None)
@given(deal=st.integers(0, 1000), seed=st.integers(0, 2 ** 64 - 1))
def test_the_move_is_the_rule_of_thumb_bots_and_repeatable(deal: int, seed: int) -> None:
    view = dealt_briscola(deal)
    seat = view.to_act
    move = public_move("briscola", view, seat, seed)
    assert move in view.legal_actions()
    assert move == public_move("briscola", view.copy(), seat, seed)
    assert move == make_bot("briscola", "smart", seed).choose(view.observation(seat),
                                                               view.legal_actions())


def test_no_move_for_a_seat_that_is_not_to_act() -> None:
    view = dealt_briscola(5)
    assert public_move("briscola", view, 1 - view.to_act, 0) is None
