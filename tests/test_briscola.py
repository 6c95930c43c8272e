"""Briscola engine: random full matches (full information and live views), exact rule cases,
observations, bad input."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pcards.cards import ITALIAN_40, Card, card, cards
from p2pcards.games.base import (
    ALL_SEATS,
    Action,
    BadPlayerCount,
    ChanceStep,
    GameError,
    HandResult,
    IllegalMove,
    MatchState,
    Phase,
    UnknownFlag,
    UnknownVariant,
    Zone,
)
from p2pcards.games.briscola import (
    SPEC,
    BadChance,
    BadSeat,
    BriscolaConfig,
    BriscolaMatch,
    UnknownHand,
    WrongPhase,
    briscola_deck,
)
from p2pcards.games.tricks import BRISCOLA_POINTS, card_points

ALL_CODES = {c.code for c in ITALIAN_40}


def play(code: str) -> Action:
    return Action("play", card(code))


def config(preset: str = "classic", players: int = 2, **flags: object) -> BriscolaConfig:
    cfg = SPEC.preset(preset, players=players, **flags)
    assert isinstance(cfg, BriscolaConfig)
    return cfg


# --------------------------------------------------------------------------- simulation driver


def card_codes(data: Any) -> set[str]:
    """Every string in a JSON-like structure that is an Italian card code."""
    if isinstance(data, str):
        return {data} if data in ALL_CODES else set()
    if isinstance(data, dict):
        return set().union(*(card_codes(v) for v in data.values())) if data else set()
    if isinstance(data, list | tuple):
        return set().union(*(card_codes(v) for v in data)) if data else set()
    return set()


def live_cards(
    steps: Sequence[ChanceStep], revealed: Sequence[Card | None], viewer: int
) -> list[Card | None]:
    """What ``viewer``'s live view is given for these chance steps: ``None`` where it cannot see."""
    return [c if step.visible(viewer) else None for step, c in zip(steps, revealed, strict=True)]


def check_accounting(state: BriscolaMatch, order: list[Card]) -> None:
    """Hands + trick + piles + face-down stock + face-up trump = the deck, each card once."""
    if state.trump_card is None:  # between hands or before the deal: nothing placed
        assert not any(state.hand(s) for s in range(state.config.players))
        return
    size = len(order)
    stock = order[size - 1 - state.stock_size : size - 1]
    placed: list[Card | None] = [c for s in range(state.config.players) for c in state.hand(s)]
    placed += [c for _, c in state.trick]
    placed += [c for side in range(state.num_sides) for c in state.captured(side)]
    placed += stock
    if state.trump_taken_by is None:
        placed.append(state.trump_card)
    assert sorted(c for c in placed if c is not None) == sorted(state.deck.cards)


def run_match(
    cfg: BriscolaConfig, seed: int, live_seat: int | None = None, check_views: bool = True
) -> tuple[BriscolaMatch, BriscolaMatch | None, list[HandResult]]:
    """Play a whole match with random legal actions; the live view (if any) follows along."""
    rng = random.Random(seed)
    n = cfg.players
    full = BriscolaMatch(cfg)
    live = BriscolaMatch(cfg) if live_seat is not None else None
    results: list[HandResult] = []
    order: list[Card] = []
    used: set[int] = set()
    seen: list[set[str]] = [set() for _ in range(n)]
    while not full.match_over:
        phase = full.phase
        if live is not None:
            assert live.phase is phase
        if phase is Phase.SHUFFLE:
            order = list(full.deck.cards)
            rng.shuffle(order)
            used = set()
            seen = [set() for _ in range(n)]
            full.begin_hand()
            if live is not None:
                live.begin_hand()
        elif phase is Phase.CHANCE:
            steps = full.pending_chance()
            revealed: list[Card | None] = []
            for step in steps:
                if step.zone is Zone.SHOW:
                    assert step.seat is not None
                    got = full.hand(step.seat)[step.position]
                elif step.zone is Zone.HAND and step.visible_to == ALL_SEATS:
                    # the last draw takes the face-up trump, revealed at the deal already
                    assert step.position == len(order) - 1 and step.position in used
                    got = order[step.position]
                else:
                    assert step.position not in used, "a deck position was dealt twice"
                    used.add(step.position)
                    got = order[step.position]
                assert got is not None
                revealed.append(got)
                for s in range(n):
                    if step.visible(s):
                        seen[s].add(got.code)
            full.complete_chance(revealed)
            if live is not None:
                assert live_seat is not None
                assert live.pending_chance() == steps
                live.complete_chance(live_cards(steps, revealed, live_seat))
        elif phase is Phase.ACTION:
            seat = full.to_act
            actions = full.legal_actions()
            hand = [c for c in full.hand(seat) if c is not None]
            assert actions == sorted(Action("play", c) for c in hand)
            action = rng.choice(actions)
            if live is not None and live_seat == seat:
                assert live.legal_actions() == actions
            full.apply(action)
            if live is not None:
                live.apply(action)
            assert action.card is not None
            for s in range(n):
                seen[s].add(action.card.code)
        else:
            assert phase is Phase.HAND_OVER
            assert full.partners_looked == (cfg.partners_look and n == 4)
            assert used == set(range(len(full.deck))), "every deck position is dealt once"
            result = full.hand_result()
            assert sum(result.lines[0].values) == 120  # type: ignore[arg-type]
            assert sum(len(full.captured(side)) for side in range(full.num_sides)) == len(order)
            if live is not None:
                assert live.hand_result() == result
            results.append(result)
            full.next_hand()
            if live is not None:
                live.next_hand()
        check_accounting(full, order)
        if check_views:
            for s in range(n):
                obs = full.observation(s)
                assert card_codes(obs) <= seen[s], f"seat {s} sees a card it may not see"
                json.dumps(obs)
    if live is not None:
        assert live.match_over
        assert live.match_scores == full.match_scores
        assert live.winner == full.winner
    return full, live, results


MATRIX = [(preset, n) for preset in ("classic", "italian") for n in (2, 3, 4)]


@pytest.mark.parametrize(("preset", "players"), MATRIX)
@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_matches(preset: str, players: int, seed: int) -> None:
    cfg = config(preset, players)
    full, live, results = run_match(cfg, seed, live_seat=seed % players)
    sides = full.num_sides
    assert full.winner is not None
    scores = full.match_scores
    if cfg.match == "first_to_3":
        assert scores[full.winner] == 3
        assert all(s < 3 for side, s in enumerate(scores) if side != full.winner)
        assert sum(scores) == sum(sum(r.points) for r in results) <= len(results)
    else:
        regular = 3 if players == 3 else 2
        assert len(results) >= regular
        tie_points = sum(sum(r.points) for r in results[regular:])
        assert sum(scores) == 120 * regular + tie_points
        assert tie_points <= 1
        assert scores[full.winner] == max(scores)
        assert sorted(scores).count(max(scores)) == 1
    for r in results:
        points = r.lines[0].values
        won = r.lines[1].values
        assert len(points) == sides
        if sides == 2:
            assert won == tuple(1 if p > 60 else 0 for p in points)  # type: ignore[operator]


# --------------------------------------------------------------------------- the deal


def test_deal_positions_and_trump_at_the_bottom() -> None:
    state = BriscolaMatch(config(players=2))
    state.begin_hand()
    steps = state.pending_chance()
    # hand 0: first player seat 0; one card at a time: positions 0, 2, 4 -> seat 0; 1, 3, 5 -> 1
    assert steps[:6] == tuple(
        ChanceStep(i, Zone.HAND, i % 2, frozenset({i % 2})) for i in range(6)
    )
    assert steps[6] == ChanceStep(39, Zone.TRUMP, None, ALL_SEATS)
    assert len(steps) == 7
    order = list(cards("AD 2D 3D 4D 5D 6D")) + [card("7C")]
    state.complete_chance(order)
    assert state.hand(0) == cards("AD 3D 5D") and state.hand(1) == cards("2D 4D 6D")
    assert state.trump_card == card("7C")
    # 40 - 6 dealt - 1 trump = 33 face down
    assert state.stock_size == 33
    assert state.phase is Phase.ACTION and state.to_act == 0


def test_second_hand_is_led_by_the_next_seat() -> None:
    # 3 players, first_to_3: hand 1 starts with seat 1 (hand_number % players)
    state = BriscolaMatch.from_position(
        config(players=3), [["AD"], ["2D"], ["4D"]], "5C", trump_taken_by=0,
        captured=[["5C"], [], []], hand_number=0,
    )
    for code in ("AD", "2D", "4D"):
        state.apply(play(code))
    state.next_hand()
    state.begin_hand()
    steps = state.pending_chance()
    # positions 0..8 to seats 1, 2, 0, 1, 2, 0, ...; the trump is deck position 38 of 39
    assert [s.seat for s in steps[:9]] == [1, 2, 0] * 3
    assert steps[9].position == 38 and steps[9].zone is Zone.TRUMP


@pytest.mark.parametrize("removed", ["2B", "2D", "2C", "2S"])
def test_three_players_use_39_cards(removed: str) -> None:
    cfg = config(players=3, removed_two=removed)
    deck = briscola_deck(cfg)
    assert len(deck) == 39 and card(removed) not in deck
    assert card_points(deck, BRISCOLA_POINTS) == 120  # a 2 is worth nothing
    state = BriscolaMatch(cfg)
    assert state.deck == deck
    state.begin_hand()
    steps = state.pending_chance()
    # 9 cards dealt, trump at position 38; stock 39 - 9 - 1 = 29
    assert len(steps) == 10 and steps[-1].position == 38
    hand = [c for c in deck.cards if c != card("AD")][:9]
    state.complete_chance([*hand, card("AD")])
    assert state.stock_size == 29
    with pytest.raises(BadChance, match=f"{removed}"):
        other = BriscolaMatch(cfg)
        other.begin_hand()
        other.complete_chance([card(removed), *hand[1:], card("AD")])


def test_two_and_four_players_use_40_cards() -> None:
    assert len(BriscolaMatch(config(players=2)).deck) == 40
    assert len(BriscolaMatch(config("italian", players=4, removed_two="2S")).deck) == 40


# --------------------------------------------------------------------------- tricks


def test_trick_without_trump_the_highest_of_the_suit_led_wins() -> None:
    # trump Denari; seat 0 leads KC (4), seat 1 plays 3C (10): 3 beats K
    state = BriscolaMatch.from_position(
        config(players=2), [["KC", "AS"], ["3C", "4S"]], "7D", stock_size=33
    )
    state.apply(play("KC"))
    assert state.to_act == 1
    state.apply(play("3C"))
    assert state.captured(1) == cards("KC 3C") and state.captured(0) == ()
    assert state.card_points() == (0, 14)
    # seat 1 won: it draws first, then seat 0
    assert state.pending_chance() == (
        ChanceStep(6, Zone.HAND, 1, frozenset({1})),
        ChanceStep(7, Zone.HAND, 0, frozenset({0})),
    )


def test_off_suit_ace_loses_to_the_card_led() -> None:
    state = BriscolaMatch.from_position(config(players=2), [["2C"], ["AS"]], "7D", stock_size=33)
    state.apply(play("2C"))
    state.apply(play("AS"))
    # AS is neither Coppe (led) nor Denari (trump): 2C wins 11 points
    assert state.captured(0) == cards("2C AS") and state.card_points() == (11, 0)
    assert state.pending_chance()[0].seat == 0


def test_trumps_in_a_four_player_trick() -> None:
    # trump Denari; seats 2, 3, 0, 1 play AC, 4D, 3D, KD: the 3 of Denari (seat 0) wins
    state = BriscolaMatch.from_position(
        config(players=4), [["3D"], ["KD"], ["AC"], ["4D"]], "5D", trump_taken_by=None,
        stock_size=3, leader=2,
    )
    for code in ("AC", "4D", "3D", "KD"):
        state.apply(play(code))
    # side 0 (seats 0 and 2) takes AC 11 + 3D 10 + KD 4 = 25
    assert state.card_points() == (25, 0)
    steps = state.pending_chance()
    # stock of 3 face-down + the trump: seat 0 draws first, then 1, 2; seat 3 gets the trump
    assert [(s.position, s.seat) for s in steps] == [(36, 0), (37, 1), (38, 2), (39, 3)]
    assert steps[-1].visible_to == ALL_SEATS  # the face-up trump, public already
    state.complete_chance(list(cards("6C 6S 6B 5D")))
    assert state.trump_taken_by == 3 and state.hand(3) == (card("5D"),)
    assert state.stock_size == 0
    assert state.phase is Phase.ACTION and state.to_act == 0  # classic: no partners' look


def test_trump_led_beats_off_suit_ace() -> None:
    state = BriscolaMatch.from_position(
        config(players=2), [["QB", "4C"], ["2D", "AD"]], "2D", trump_taken_by=1, leader=1,
    )
    state.apply(play("2D"))
    state.apply(play("QB"))
    assert state.captured(1) == cards("2D QB")
    assert state.to_act == 1 and state.phase is Phase.ACTION


def test_draw_order_and_the_trump_card_drawn_last() -> None:
    # 3 players, 39 cards (2B out), trump 5D at position 38; 5 face-down stock cards at
    # positions 33..37 (two rounds: 3 face-down, then 2 face-down + the trump)
    state = BriscolaMatch.from_position(
        config(players=3),
        [["AC", "KS"], ["3C", "QS"], ["4C", "JS"]],
        "5D",
        stock_size=5,
    )
    for code in ("AC", "3C", "4C"):  # AC wins for seat 0
        state.apply(play(code))
    assert state.pending_chance() == tuple(
        ChanceStep(p, Zone.HAND, s, frozenset({s})) for p, s in [(33, 0), (34, 1), (35, 2)]
    )
    state.complete_chance(list(cards("6C 6S 6B")))
    assert state.to_act == 0
    state.apply(play("KS"))
    state.apply(play("QS"))
    state.apply(play("JS"))  # K over Q over J: seat 0 again
    # AC 11 + 3C 10 + KS 4 + QS 3 + JS 2
    assert state.card_points() == (30, 0, 0)
    # last round: seat 0 and 1 draw positions 36 and 37, seat 2 takes the face-up 5D
    assert state.pending_chance() == (
        ChanceStep(36, Zone.HAND, 0, frozenset({0})),
        ChanceStep(37, Zone.HAND, 1, frozenset({1})),
        ChanceStep(38, Zone.HAND, 2, ALL_SEATS),
    )
    with pytest.raises(BadChance, match="not the face-up trump"):
        state.complete_chance(list(cards("7C 7S 6D")))
    state.complete_chance(list(cards("7C 7S 5D")))
    assert state.hand(2) == (card("6B"), card("5D"))
    assert state.trump_taken_by == 2 and state.stock_size == 0
    obs = state.observation(0)
    assert obs["trump_card"] == "5D" and obs["trump_taken_by"] == 2 and obs["stock_size"] == 0


def test_winner_of_a_middle_seat_draws_first() -> None:
    # 2 players, the trick won by seat 1 who was not the leader
    state = BriscolaMatch.from_position(
        config(players=2), [["4B"], ["JD"]], "AD", stock_size=1
    )
    state.apply(play("4B"))
    state.apply(play("JD"))  # a trump takes it
    # stock 1 face-down (position 38) to seat 1, the trump AD to seat 0
    assert state.pending_chance() == (
        ChanceStep(38, Zone.HAND, 1, frozenset({1})), ChanceStep(39, Zone.HAND, 0, ALL_SEATS)
    )
    state.complete_chance([card("5C"), card("AD")])
    assert state.hand(0) == (card("AD"),) and state.hand(1) == (card("5C"),)
    assert state.to_act == 1


# --------------------------------------------------------------------------- scoring


# 60-60 position: trump 2D (taken, in a pile); seat 0 leads QB (3), seat 1 holds KB (4) and
# wins the last trick (+7). Side 0 pile: AD AC AS 3D 3C KD QD = 33 + 20 + 4 + 3 = 60.
# Side 1 pile: AB 3S 3B KC KS QC QS JD JC JS JB = 11 + 20 + 8 + 6 + 8 = 53; 53 + 7 = 60.
PILE0 = "AD AC AS 3D 3C KD QD"
PILE1 = "AB 3S 3B KC KS QC QS JD JC JS JB"


def end_position(
    cfg: BriscolaConfig, lead: str, reply: str, **kwargs: Any
) -> BriscolaMatch:
    zeros = [c.code for c in ITALIAN_40 if BRISCOLA_POINTS.get(c.rank, 0) == 0]
    return BriscolaMatch.from_position(
        cfg,
        [[lead], [reply]],
        "2D",
        trump_taken_by=0,
        captured=[PILE0.split() + zeros[:11], PILE1.split() + zeros[11:]],
        **kwargs,
    )


def finish_trick(state: BriscolaMatch) -> None:
    while state.phase is Phase.ACTION:
        state.apply(state.legal_actions()[0])


def test_sixty_sixty_is_a_drawn_hand() -> None:
    state = end_position(config(players=2), "QB", "KB")
    finish_trick(state)
    result = state.hand_result()  # raises WrongPhase unless the hand is over
    assert [line.category for line in result.lines] == ["card points", "hand won"]
    assert result.lines[0].values == (60, 60)
    assert result.lines[1].values == (0, 0)
    assert result.points == (0, 0)
    state.next_hand()
    assert state.match_scores == (0, 0) and state.phase is Phase.SHUFFLE


def test_sixty_seven_wins_the_hand() -> None:
    # seat 0 leads KB and wins over QB: 60 + 7 = 67 against 53
    state = end_position(config(players=2), "KB", "QB")
    finish_trick(state)
    result = state.hand_result()
    assert result.lines[0].values == (67, 53)
    assert result.lines[1].values == (1, 0) and result.points == (1, 0)
    state.next_hand()
    assert state.match_scores == (1, 0) and state.hands_won == (1, 0)


def test_three_players_tie_for_most_is_a_drawn_hand() -> None:
    # trump 2D (taken, in seat 0's pile). Piles before the last trick:
    # seat 0: AD 3D KD QD JD AC 2D = 11 + 10 + 4 + 3 + 2 + 11 = 41
    # seat 1: AS 3S KS QS JS AB = 41
    # seat 2: 3B 3C KC QC JC = 10 + 10 + 4 + 3 + 2 = 29
    # last trick QB, JB, KB: seat 2's king takes 3 + 2 + 4 = 9 -> 38. 41 + 41 + 38 = 120.
    state = BriscolaMatch.from_position(
        config(players=3),
        [["QB"], ["JB"], ["KB"]],
        "2D",
        trump_taken_by=0,
        captured=[
            "AD 3D KD QD JD AC 2D".split(),
            "AS 3S KS QS JS AB".split(),
            "3B 3C KC QC JC".split(),
        ],
    )
    finish_trick(state)
    result = state.hand_result()
    assert result.lines[0].values == (41, 41, 38)
    assert result.lines[1].values == (0, 0, 0) and result.points == (0, 0, 0)


# --------------------------------------------------------------------------- match formats


def test_first_to_3_ends_at_the_third_hand_won() -> None:
    state = end_position(config(players=2), "KB", "QB", match_scores=(2, 2), hand_number=4)
    finish_trick(state)
    state.next_hand()
    assert state.match_over and state.winner == 0 and state.match_scores == (3, 2)
    assert state.phase is Phase.MATCH_OVER


def test_first_to_3_drawn_hand_counts_for_nobody() -> None:
    state = end_position(config(players=2), "QB", "KB", match_scores=(2, 2), hand_number=4)
    finish_trick(state)
    state.next_hand()
    assert not state.match_over and state.match_scores == (2, 2)
    assert state.hand_number == 5 and state.winner is None


def test_two_hands_sums_card_points() -> None:
    cfg = config("italian", players=2)
    # first hand: 67-53 adds card points, the match goes on
    state = end_position(cfg, "KB", "QB")
    finish_trick(state)
    result = state.hand_result()
    assert result.points == (67, 53)
    assert result.lines[1].points == (0, 0)
    state.next_hand()
    assert state.match_scores == (67, 53) and state.phase is Phase.SHUFFLE
    # second hand 60-60 on top of 67-53 -> 127 to 113: side 0 wins
    state = end_position(cfg, "QB", "KB", hand_number=1, match_scores=(67, 53))
    finish_trick(state)
    state.next_hand()
    assert state.match_over and state.match_scores == (127, 113) and state.winner == 0


def test_two_hands_tie_goes_to_a_tie_breaker_hand() -> None:
    cfg = config("italian", players=2)
    # after two hands 120-120 -> a third hand (tie-breaker)
    state = end_position(cfg, "QB", "KB", hand_number=1, match_scores=(60, 60))
    finish_trick(state)
    state.next_hand()
    assert not state.match_over and state.match_scores == (120, 120) and state.hand_number == 2
    # tie-breaker drawn 60-60: another one
    state = end_position(cfg, "QB", "KB", hand_number=2, match_scores=(120, 120))
    finish_trick(state)
    result = state.hand_result()
    assert result.lines[2].category == "tie-breaker" and result.points == (0, 0)
    state.next_hand()
    assert not state.match_over and state.hand_number == 3
    # tie-breaker: seat 0 leads KB over QB -> 67-53, side 0 gets the tie-break point
    state = end_position(cfg, "KB", "QB", hand_number=3, match_scores=(120, 120))
    finish_trick(state)
    result = state.hand_result()
    assert result.lines[0].values == (67, 53) and result.lines[0].points == (0, 0)
    assert result.lines[2].values == (67, 53) and result.lines[2].points == (1, 0)
    state.next_hand()
    assert state.match_over and state.winner == 0 and state.match_scores == (121, 120)


def test_two_hands_three_players_play_three_hands_and_tied_sides_break() -> None:
    cfg = config("italian", players=3)

    def last_trick(hand_number: int, scores: tuple[int, int, int]) -> BriscolaMatch:
        # same 41 / 41 / 38 position as the 3-player drawn hand above
        state = BriscolaMatch.from_position(
            cfg,
            [["QB"], ["JB"], ["KB"]],
            "2D",
            trump_taken_by=0,
            captured=[
                "AD 3D KD QD JD AC 2D".split(),
                "AS 3S KS QS JS AB".split(),
                "3B 3C KC QC JC".split(),
            ],
            hand_number=hand_number,
            match_scores=scores,
        )
        finish_trick(state)
        return state

    state = last_trick(1, (0, 0, 200))
    state.next_hand()  # two hands are not enough with 3 players
    assert not state.match_over and state.match_scores == (41, 41, 238)
    state = last_trick(2, (100, 100, 40))
    state.next_hand()  # 141 / 141 / 78 after three hands: tie
    assert not state.match_over and state.hand_number == 3
    # tie-breaker between seats 0 and 1 only; 41-41 between them: no point, play on
    state = last_trick(3, (141, 141, 78))
    result = state.hand_result()
    assert result.lines[2].values == (41, 41, None) and result.points == (0, 0, 0)


def test_tie_breaker_is_decided_among_the_tied_sides_only() -> None:
    # 3 players tied 100 / 100 / 40. Same piles as the drawn 3-player hand (41 / 41 / 29);
    # seat 0 leads KB and takes KB QB JB (9): 50 / 41 / 29, so seat 0 wins the tie.
    cfg = config("italian", players=3)
    state = BriscolaMatch.from_position(
        cfg,
        [["KB"], ["QB"], ["JB"]],
        "2D",
        trump_taken_by=0,
        captured=[
            "AD 3D KD QD JD AC 2D".split(),
            "AS 3S KS QS JS AB".split(),
            "3B 3C KC QC JC".split(),
        ],
        hand_number=3,
        match_scores=(100, 100, 40),
    )
    finish_trick(state)
    result = state.hand_result()
    assert result.lines[0].values == (50, 41, 29)
    assert result.lines[2].points == (1, 0, 0)
    state.next_hand()
    assert state.match_over and state.winner == 0 and state.match_scores == (101, 100, 40)


def test_tie_breaker_hand_won_by_an_untied_side_goes_to_the_best_tied_side() -> None:
    # 100 / 100 / 40, seats 0 and 1 tied. Piles before the last trick:
    # seat 0: 3D KD QD JD 2D = 10 + 4 + 3 + 2 = 19
    # seat 1: AS 3S KS QS JS AB = 41
    # seat 2: AD AC 3B 3C KC QC JC = 11 + 11 + 10 + 10 + 4 + 3 + 2 = 51
    # last trick QB, JB, KB: seat 2 takes 9 -> 19 / 41 / 60 (= 120). Seat 2 wins the hand,
    # but between the tied seats 0 and 1, seat 1 (41 > 19) wins the tie-breaker.
    cfg = config("italian", players=3)
    state = BriscolaMatch.from_position(
        cfg,
        [["QB"], ["JB"], ["KB"]],
        "2D",
        trump_taken_by=0,
        captured=[
            "3D KD QD JD 2D".split(),
            "AS 3S KS QS JS AB".split(),
            "AD AC 3B 3C KC QC JC".split(),
        ],
        hand_number=3,
        match_scores=(100, 100, 40),
    )
    finish_trick(state)
    result = state.hand_result()
    assert result.lines[0].values == (19, 41, 60)
    assert result.lines[1].values == (0, 0, 1)  # seat 2 wins the hand
    assert result.lines[2].values == (19, 41, None) and result.points == (0, 1, 0)
    state.next_hand()
    assert state.winner == 1 and state.match_scores == (100, 101, 40)


# --------------------------------------------------------------------------- partners' look


def deal_to_the_look(cfg: BriscolaConfig, seed: int, viewer: int) -> tuple[
    BriscolaMatch, BriscolaMatch, list[Card]
]:
    """Play full and live (seat ``viewer``) up to the pending partners' look."""
    rng = random.Random(seed)
    full, live = BriscolaMatch(cfg), BriscolaMatch(cfg)
    order = list(full.deck.cards)
    rng.shuffle(order)
    full.begin_hand()
    live.begin_hand()
    while True:
        if full.phase is Phase.CHANCE:
            steps = full.pending_chance()
            if steps[0].zone is Zone.SHOW:
                return full, live, order
            got = [order[s.position] for s in steps]
            full.complete_chance(got)
            live.complete_chance(live_cards(steps, got, viewer))
        else:
            action = rng.choice(full.legal_actions())
            full.apply(action)
            live.apply(action)


def test_partners_look_steps_and_views() -> None:
    cfg = config("italian", players=4)
    full, live, _ = deal_to_the_look(cfg, seed=7, viewer=0)
    steps = full.pending_chance()
    # 4 hands of 3 cards, each card shown to the partner ((seat + 2) % 4)
    assert steps == tuple(
        ChanceStep(i, Zone.SHOW, seat, frozenset({(seat + 2) % 4}))
        for seat in range(4)
        for i in range(3)
    )
    assert full.observation(0)["partner_hand"] == []
    hands = [full.hand(s) for s in range(4)]
    full.complete_chance([hands[s.seat][s.position] for s in steps if s.seat is not None])
    live.complete_chance(
        [hands[s.seat][s.position] if s.visible(0) and s.seat is not None else None
         for s in steps]
    )
    assert full.partners_looked and full.phase is Phase.ACTION
    for seat in range(4):
        partner = (seat + 2) % 4
        obs = full.observation(seat)
        assert obs["partner_hand"] == [c.code for c in hands[partner] if c is not None]
        # the opponents' cards appear nowhere (except the public trump card)
        for opponent in ((seat + 1) % 4, (seat + 3) % 4):
            hidden = {c.code for c in hands[opponent] if c is not None and c != full.trump_card}
            assert not hidden & card_codes(obs)
    # seat 0's live view now knows seat 2's hand, not seats 1 and 3 (beyond the trump card)
    assert live.hand(2) == hands[2] and live.hand_known(2)
    for opponent in (1, 3):
        assert not live.hand_known(opponent)
        assert [c for c in live.hand(opponent) if c is not None] == [
            c for c in hands[opponent] if c == full.trump_card
        ]


def test_classic_four_players_have_no_look_and_two_players_never_look() -> None:
    for cfg in (config("classic", players=4), config("italian", players=2)):
        _, _, results = run_match(cfg, seed=3, check_views=False)
        assert results


def test_show_contradicting_the_hand_is_rejected() -> None:
    full, _, _ = deal_to_the_look(config("italian", players=4), seed=11, viewer=0)
    steps = full.pending_chance()
    wrong = [full.hand(s.seat)[s.position] for s in steps if s.seat is not None]
    wrong[0], wrong[1] = wrong[1], wrong[0]
    before = full.observation(2)
    with pytest.raises(BadChance, match="contradicts"):
        full.complete_chance(wrong)
    assert full.observation(2) == before and full.phase is Phase.CHANCE


# --------------------------------------------------------------------------- live views


def test_live_view_rejects_a_card_known_elsewhere_and_defers_the_rest() -> None:
    cfg = config(players=2)
    live = BriscolaMatch(cfg)
    live.begin_hand()
    steps = live.pending_chance()
    # seat 0's view: its own cards AD 3D 5D, seat 1's unknown, trump 7C
    real = [*cards("AD 2D 3D 4D 5D 6D"), card("7C")]
    live.complete_chance(live_cards(steps, real, 0))
    assert live.hand(1) == (None, None, None) and not live.hand_known(1)
    live.apply(play("AD"))
    # seat 1 cannot play the face-up trump, seat 0's card, or the ace already played
    for code in ("7C", "3D", "AD"):
        with pytest.raises(IllegalMove) as err:
            live.apply(play(code))
        assert err.value.rule == "card-not-in-hand" and code in str(err.value)
    with pytest.raises(UnknownHand, match="seat 1"):
        live.legal_actions()
    # a card that is really in the stock is accepted now; the full replay rejects it
    live.apply(play("KS"))
    assert live.captured(0) == cards("AD KS")
    full = BriscolaMatch(cfg)
    full.begin_hand()
    full.complete_chance(real)
    full.apply(play("AD"))
    with pytest.raises(IllegalMove) as err:
        full.apply(play("KS"))
    assert err.value.rule == "card-not-in-hand" and err.value.seat == 1


# --------------------------------------------------------------------------- observations


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from((2, 3, 4)))
def test_observations_show_only_what_the_seat_may_see(seed: int, players: int) -> None:
    # run_match checks every observation of every seat after every step
    run_match(config("italian", players), seed, check_views=True)


def test_observation_contents() -> None:
    state = BriscolaMatch.from_position(
        config(players=2), [["KC", "AS"], ["3C", "4S"]], "7D", stock_size=33,
        captured=[["2B"], []],
    )
    state.apply(play("KC"))
    obs = state.observation(1)
    assert obs["hand"] == ["3C", "4S"] and obs["hand_sizes"] == [1, 2]
    assert obs["trick"] == [[0, "KC"]] and obs["to_act"] == 1
    assert obs["trump_card"] == "7D" and obs["trump_suit"] == "D"
    assert obs["captured_cards"] == [1, 0] and obs["captured_points"] == [0, 0]
    assert "AS" not in card_codes(obs)
    state.apply(play("3C"))
    obs = state.observation(0)
    assert obs["last_trick"] == {"cards": [[0, "KC"], [1, "3C"]], "winner": 1}
    assert obs["captured_points"] == [0, 14] and obs["phase"] == "chance"


# --------------------------------------------------------------------------- bad input


def test_illegal_actions_leave_the_state_unchanged() -> None:
    state = BriscolaMatch.from_position(
        config(players=3), [["KC"], ["3C"], ["4C"]], "7D", stock_size=2
    )
    before = state.observation(0)
    cases = [
        (play("AC"), "card-not-in-hand", "AC"),
        (play("2B"), "card-not-in-deck", "2B"),  # removed for 3 players
        (Action("pass"), "unknown-action", "pass"),
        (Action("play"), "card-hidden", "reveal"),
        (Action("play", card("KC"), amount=2), "malformed-action", "one card"),
    ]
    for action, rule, word in cases:
        with pytest.raises(IllegalMove) as err:
            state.apply(action)
        assert err.value.rule == rule and word in str(err.value) and err.value.seat == 0
        assert state.observation(0) == before
    state.apply(play("KC"))
    state.apply(play("3C"))
    state.apply(play("4C"))
    with pytest.raises(IllegalMove) as err:
        state.apply(play("AD"))
    assert err.value.rule == "wrong-phase"
    assert state.legal_actions() == []


def test_bad_chance_input() -> None:
    state = BriscolaMatch(config(players=2))
    with pytest.raises(WrongPhase, match="pending_chance"):
        state.pending_chance()
    state.begin_hand()
    with pytest.raises(WrongPhase, match="begin_hand"):
        state.begin_hand()
    good = [*cards("AD 2D 3D 4D 5D 6D"), card("7C")]
    with pytest.raises(BadChance, match="6 cards given for 7"):
        state.complete_chance(good[:6])
    with pytest.raises(BadChance, match="AD at deck position 2 was already placed"):
        state.complete_chance([card("AD"), card("2D"), card("AD"), *good[3:]])
    with pytest.raises(BadChance, match="public card at deck position 39"):
        state.complete_chance([*good[:6], None])
    with pytest.raises(BadChance, match="TS1"):
        state.complete_chance([card("TS1"), *good[1:]])
    with pytest.raises(WrongPhase, match="hand_result"):
        state.hand_result()
    state.complete_chance(good)
    assert state.hand(0) == cards("AD 3D 5D")


def test_bad_variants_and_counts() -> None:
    with pytest.raises(UnknownVariant, match="'napoletana'"):
        SPEC.preset("napoletana", players=2)
    with pytest.raises(BadPlayerCount, match="not 5"):
        SPEC.preset("classic", players=5)
    with pytest.raises(BadPlayerCount, match="not 6"):
        BriscolaConfig(players=6)
    with pytest.raises(UnknownFlag, match="'3B'"):
        SPEC.preset("classic", players=3, removed_two="3B")
    with pytest.raises(UnknownFlag, match="'to_11'"):
        BriscolaConfig(players=2, match="to_11")
    with pytest.raises(UnknownFlag, match="'jokers'"):
        SPEC.preset("classic", players=2, jokers=True)
    with pytest.raises(UnknownFlag, match="partners_look"):
        BriscolaConfig(players=4, partners_look=1)  # type: ignore[arg-type]
    with pytest.raises(BadSeat, match="seat 4"):
        BriscolaMatch(config(players=4)).observation(4)
    with pytest.raises(GameError, match="twice"):
        BriscolaMatch.from_position(config(players=2), [["AD"], ["AD"]], "7C", stock_size=33)


def test_presets_and_wire_round_trip() -> None:
    classic = config("classic", players=4)
    assert (classic.match, classic.removed_two, classic.partners_look) == (
        "first_to_3", "2B", False
    )
    italian = config("italian", players=4)
    assert (italian.match, italian.partners_look) == ("two_hands", True)
    assert SPEC.default_preset == "classic" and SPEC.rules_source == "briscola.txt"
    assert {f.name for f in SPEC.flags} == {"removed_two", "match", "partners_look"}
    for cfg in (classic, italian, config(players=3, removed_two="2S")):
        assert SPEC.config_from_wire(cfg.to_wire()) == cfg
    assert Action.from_wire(play("AD").to_wire()) == play("AD")
    assert play("AD").to_wire() == {"kind": "play", "card": "AD"}


def test_match_state_protocol() -> None:
    state: MatchState = SPEC.new_match(config(players=4))
    assert isinstance(state, BriscolaMatch)
    assert state.num_sides == 2 and [state.side_of(s) for s in range(4)] == [0, 1, 0, 1]
    assert BriscolaMatch(config(players=3)).num_sides == 3


def test_copy_is_independent() -> None:
    state = BriscolaMatch.from_position(
        config(players=2), [["KC", "AS"], ["3C", "4S"]], "7D", stock_size=33
    )
    twin = state.copy()
    twin.apply(play("KC"))
    assert state.hand(0) == cards("KC AS") and state.trick == ()
    assert twin.hand(0) == (card("AS"),) and twin.trick == ((0, card("KC")),)
