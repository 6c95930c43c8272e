"""The Burraco rule-of-thumb bot: it beats random play, and its habits show in chosen moves."""

from __future__ import annotations

import random

from p2pcards.bots import RandomBot, make_bot
from p2pcards.bots.burraco import BurracoBot
from p2pcards.cards import cards
from p2pcards.games.base import Action
from p2pcards.games.burraco import SPEC, BurracoConfig, BurracoMatch
from p2pcards.offline.simulate import play_hand


def test_smart_side_outscores_random_side() -> None:
    wins = 0
    for seed in range(8):
        state = SPEC.new_match(SPEC.preset(players=4))
        bots = [make_bot("burraco", "smart", seed) if s % 2 == 0 else RandomBot(seed)
                for s in range(4)]
        result, _ = play_hand(state, bots, random.Random(seed))
        wins += result.points[0] > result.points[1]
    assert wins >= 7, f"the smart side won only {wins} of 8 hands"


def _choose(state: BurracoMatch, seat: int = 0) -> Action:
    return BurracoBot(1).choose(state.observation(seat), state.legal_actions())


def test_it_closes_when_it_can() -> None:
    state = BurracoMatch.from_position(
        BurracoConfig(players=4), [cards("9C1"), (), (), ()], pozzetti_taken=(True, False),
        melds=[["3S1 4S1 5S1 6S1 7S1 8S1 9S1"], []])
    assert _choose(state) == Action("discard", cards("9C1")[0])


def test_it_makes_the_burraco_before_discarding() -> None:
    state = BurracoMatch.from_position(
        BurracoConfig(players=4), [cards("9S1 KD1 4C1"), (), (), ()],
        melds=[["3S1 4S1 5S1 6S1 7S1 8S1"], []])
    assert _choose(state) == Action("add", cards=cards("3S1 4S1 5S1 6S1 7S1 8S1 9S1"),
                                    amount=1)


def test_it_keeps_wild_cards_and_cards_the_opponents_want() -> None:
    # QD1 fits the opponents' set of queens; X1 is wild; 4C1 helps nobody
    state = BurracoMatch.from_position(
        BurracoConfig(players=4), [cards("X1 QD1 4C1 9H1"), (), (), ()],
        melds=[[], ["QH1 QC1 QS1"]])
    assert _choose(state) in (Action("discard", cards("4C1")[0]),
                              Action("discard", cards("9H1")[0]))


def test_it_takes_a_big_pile_and_draws_otherwise() -> None:
    big = BurracoMatch.from_position(BurracoConfig(players=4), [cards("4C1"), (), (), ()],
                                     discard=cards("KD1 5S1 8H1"), stage="draw")
    assert _choose(big) == Action("take")
    small = BurracoMatch.from_position(BurracoConfig(players=4), [cards("4C1"), (), (), ()],
                                       discard=cards("KD1"), stage="draw")
    assert _choose(small) == Action("draw")
