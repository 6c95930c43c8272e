"""Tressette and Tresette: exact hand-built positions for every rule, and bad input.

Positions are built with ``TressetteMatch.from_position``; hands are written as card codes, with
``?`` for a card the view cannot see. Expected values are computed by hand in the comments.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from p2pcards.cards import ITALIAN_40, Card, card, cards
from p2pcards.games import get_game
from p2pcards.games.base import (
    Action,
    BadPlayerCount,
    GameError,
    IllegalMove,
    Phase,
    UnknownFlag,
    UnknownVariant,
)
from p2pcards.games.tressette import (
    BadChance,
    BadSeat,
    TressetteConfig,
    TressetteMatch,
    UnknownHand,
    WrongPhase,
)
from p2pcards.games.tressette_rules import (
    CAPTURE_ORDER,
    announcement_of,
    card_thirds,
    parse_announcement,
    score_lines,
    trick_winner,
)


def slots(codes: str) -> list[Card | None]:
    """A hand from codes; ``?`` is an unknown card."""
    return [None if code == "?" else card(code) for code in codes.split()]


def position(
    game: str,
    hands: Sequence[str],
    *,
    leader: int = 0,
    trick: str = "",
    preset: str = "classic",
    scores: Sequence[int] | None = None,
    **flags: object,
) -> TressetteMatch:
    config = get_game(game).preset(preset, players=len(hands), **flags)
    return TressetteMatch.from_position(
        config,
        [slots(h) for h in hands],
        leader=leader,
        trick=cards(trick) if trick else (),
        scores=scores,
    )


def play(state: TressetteMatch, codes: str) -> None:
    """Each code is played, in turn, by the seat to act (no signal)."""
    for code in codes.split():
        state.apply(Action("play", card=card(code)))


def rejects(state: TressetteMatch, action: Action, rule: str) -> IllegalMove:
    """Assert ``action`` raises ``rule`` and leaves the position exactly as it was."""
    before = [state.observation(s) for s in range(state.config.players)]
    hands = [state.hand(s) for s in range(state.config.players)]
    with pytest.raises(IllegalMove) as info:
        state.apply(action)
    assert info.value.rule == rule, str(info.value)
    assert [state.observation(s) for s in range(state.config.players)] == before
    assert [state.hand(s) for s in range(state.config.players)] == hands
    return info.value


def replay_fails_at(state: TressetteMatch, actions: Sequence[Action]) -> tuple[int, str]:
    """Apply ``actions`` to a full-information position; the index and rule of the first
    illegal one."""
    for i, action in enumerate(actions):
        try:
            state.apply(action)
        except IllegalMove as exc:
            return i, exc.rule
    raise AssertionError("the replay accepted every action")


def line(state: TressetteMatch, category: str) -> tuple[tuple[int | None, ...], tuple[int, ...]]:
    for ln in state.hand_result().lines:
        if ln.category == category:
            return ln.values, ln.points
    raise AssertionError(f"no line {category}")


# -- ranking and tricks ---------------------------------------------------------------------------


def test_capture_order_is_3_2_ace_king_horse_jack_down_to_4() -> None:
    assert CAPTURE_ORDER == (3, 2, 1, 10, 9, 8, 7, 6, 5, 4)
    # Asso beats Re; the 3 of Coppe is off suit and counts for nothing.
    assert trick_winner(list(zip(range(4), cards("4D KD 3C AD"), strict=True))) == 3
    # Cavallo (Q, 9) beats Fante (J, 8), which beats 7.
    assert trick_winner(list(zip(range(3), cards("QS JS 7S"), strict=True))) == 0
    assert trick_winner(list(zip(range(3), cards("JS QS 7S"), strict=True))) == 1
    # 3 beats 2 beats Asso beats Re.
    assert trick_winner(list(zip(range(4), cards("2B 3B AB KB"), strict=True))) == 1
    # Nobody follows: the lead wins.
    assert trick_winner(list(zip(range(3), cards("4C 3D 2S"), strict=True))) == 0


def test_card_thirds_sum_to_32_in_either_deck() -> None:
    # 4 aces x 3 + 4 x (3, 2, K, Q, J) x 1 = 12 + 20.
    assert sum(card_thirds(c) for c in ITALIAN_40) == 32
    assert [card_thirds(c) for c in cards("AD 2D 3D 4D 5D 6D 7D JD QD KD")] == [
        3, 1, 1, 0, 0, 0, 0, 1, 1, 1,
    ]  # fmt: skip


def test_winning_card_captures_the_trick_and_leads() -> None:
    state = position("tressette", ["AD 4C", "KD 5C", "3C 6C", "4D 7C"])
    play(state, "AD KD 3C 4D")
    assert state.table == ()
    assert state.captured(0) == cards("AD KD 3C 4D")
    assert state.captured(1) == ()
    assert state.to_act == 0  # the winner leads the next trick


def test_last_hand_trick_ends_the_hand_with_the_breakdown() -> None:
    state = position("tressette", ["AD", "KD", "3C", "4D"])
    play(state, "AD KD 3C 4D")
    assert state.phase is Phase.HAND_OVER
    # Side 0: AD 3 + KD 1 + 3C 1 + 4D 0 = 5 thirds, + 1 for the last trick = 6 -> 2 points.
    assert line(state, "card points") == ((6, 0), (2, 0))
    assert line(state, "last trick") == ((1, 0), (0, 0))
    assert state.hand_result().points == (2, 0)


# -- following suit -------------------------------------------------------------------------------


def test_must_follow_suit_when_able_full_information() -> None:
    state = position("tressette", ["4D 5C", "5D 7C", "6D 6C", "7D 4C"])
    play(state, "4D")
    err = rejects(state, Action("play", card=card("7C")), "must-follow-suit")
    assert "5D" in str(err) and "7C" in str(err)
    assert [a.card for a in state.legal_actions() if a.kind == "play"] == [card("5D")]


def test_void_seat_may_play_any_card() -> None:
    state = position("tressette", ["4D 5C", "JC 7C", "6D 6C", "7D 4C"])
    play(state, "4D 7C")
    assert state.table == ((0, card("4D")), (1, card("7C")))


def test_must_follow_suit_is_deferred_in_the_live_view_and_caught_by_the_replay() -> None:
    real = ["4D 5C", "5D 7C", "6D 6C", "7D 4C"]
    live = position("tressette", [real[0], "? ?", "? ?", "? ?"])
    actions = [Action("play", card=card(c)) for c in "4D 7C 6D 7D".split()]
    assert not live.hand_known(1)
    for action in actions:
        live.apply(action)  # seat 1 revealed 7C; nothing shows it held 5D
    assert replay_fails_at(position("tressette", real), actions) == (1, "must-follow-suit")


def test_live_view_rejects_at_once_a_card_it_knows_is_elsewhere() -> None:
    live = position("tressette", ["4D 5C", "? ?", "? ?", "? ?"])
    play(live, "4D")
    # 5C is in the viewer's own hand; 4D is already on the table.
    rejects(live, Action("play", card=card("5C")), "card-not-in-hand")
    rejects(live, Action("play", card=card("4D")), "card-not-in-hand")
    full = position("tressette", ["4D 5C", "5D 7C", "6D 6C", "7D 4C"])
    rejects(full, Action("play", card=card("7C")), "card-not-in-hand")


# -- thirds: rounding, truncation, last trick ----------------------------------------------------


@pytest.mark.parametrize(
    ("thirds", "last_trick", "counted", "card_points", "totals"),
    [
        # Side 0 took AD 2D KC (3+1+1 = 5 thirds), side 1 AC 3C (3+1 = 4) and the last trick.
        ("round", "third", (5, 5), (2, 2), (2, 2)),  # 5/3 = 1.67 -> 2 each
        ("truncate", "third", (5, 5), (1, 1), (1, 1)),  # 5 // 3 = 1 each
        ("round", "point", (5, 4), (2, 1), (2, 2)),  # 4/3 = 1.33 -> 1, +1 last trick
        ("truncate", "point", (5, 4), (1, 1), (1, 2)),  # 4 // 3 = 1, +1 last trick
    ],
)
def test_thirds_rounding_truncation_and_last_trick(
    thirds: str,
    last_trick: str,
    counted: tuple[int, int],
    card_points: tuple[int, int],
    totals: tuple[int, int],
) -> None:
    piles = [cards("AD 2D KC"), cards("AC 3C")]
    lines, got = score_lines(piles, 1, [0, 0], thirds=thirds, last_trick=last_trick)
    by_name = {ln.category: ln for ln in lines}
    assert by_name["card points"].values == counted
    assert by_name["card points"].points == card_points
    assert by_name["last trick"].values == (0, 1)
    assert by_name["last trick"].points == ((0, 1) if last_trick == "point" else (0, 0))
    assert got == totals == by_name["total"].points


def test_truncated_thirds_equal_tresette_aces_plus_every_three_figures() -> None:
    # 2 aces + 5 figures: the Tresette text gives 2 + 5 // 3 = 3 points; 11 thirds // 3 = 3.
    lines, totals = score_lines(
        [cards("AD AC 2D 3D KD QD JD"), []], 1, [0, 0], thirds="truncate", last_trick="point"
    )
    assert lines[0].values == (11, 0)
    assert totals == (3, 1)


@pytest.mark.parametrize(
    ("thirds", "expected"),
    [
        # Side 0: trick 1 (AD 4D 5D 6D) = 3 thirds; side 1: trick 2 (4C KC 5C 6C) = 1 third
        # + the last trick's third = 2 thirds. round: 3 -> 1, 2 -> 1; truncate: 1 and 0.
        ("round", (1, 1)),
        ("truncate", (1, 0)),
    ],
)
def test_two_trick_hand_rounding_in_the_engine(thirds: str, expected: tuple[int, int]) -> None:
    state = position("tressette", ["AD 4C", "4D KC", "5D 5C", "6D 6C"], thirds=thirds)
    play(state, "AD 4D 5D 6D 4C KC 5C 6C")
    assert line(state, "card points") == ((3, 2), expected)
    assert state.hand_result().points == expected


# -- Buongioco ------------------------------------------------------------------------------------

BUONGIOCO_HANDS = [
    "AD AC AS 2D 2C 2S 2B 3D",
    "4D 5D 6D 7D JD QD KD AB",
    "4C 5C 6C 7C JC QC KC 3C",
    "4S 5S 6S 7S JS QS KS 3S",
]


def test_buongioco_of_each_kind_and_their_sum() -> None:
    state = position("tressette", BUONGIOCO_HANDS)
    aces = Action("declare", cards=cards("AC AD AS"), value="aces")
    twos = Action("declare", cards=cards("2B 2C 2D 2S"), value="twos")
    napoli = Action("declare", cards=cards("AD 2D 3D"), value="napoli")
    assert [a for a in state.legal_actions() if a.kind == "declare"] == sorted([aces, twos, napoli])
    for action in (aces, twos, napoli):
        state.apply(action)
        assert state.to_act == 0  # declaring does not end the turn
    assert not [a for a in state.legal_actions() if a.kind == "declare"]
    while state.phase is Phase.ACTION:
        state.apply(state.legal_actions()[0])
    # three aces 3 + four 2s 4 + napoli 3 = 10, added after the rounding.
    assert line(state, "declarations") == ((10, 0), (10, 0))
    card_points = line(state, "card points")[1]
    assert state.hand_result().points == (card_points[0] + 10, card_points[1])


def test_buongioco_three_threes_counts_three_for_the_declarer_side() -> None:
    hands = ["4D 4B 5C 6C", "3C 3S 3D 5B", "7D 6B 7C 4S", "JD 7B JC 5S"]
    state = position("tressette", hands, leader=1)
    threes = Action("declare", cards=cards("3C 3S 3D"), value="threes")
    state.apply(threes)
    # The claim is public, with its cards (so the missing 3 of Bastoni is stated too).
    assert state.observation(0)["declarations"] == [
        {"seat": 1, "value": "threes", "cards": ["3C", "3S", "3D"]}
    ]
    rejects(state, threes, "duplicate-declaration")
    again = Action("declare", cards=cards("3D 3C 3S"), value="threes")
    rejects(state, again, "duplicate-declaration")
    while state.phase is Phase.ACTION:
        state.apply(state.legal_actions()[0])
    # Seat 1 is on side 1: three 3s = 3 points.
    assert line(state, "declarations") == ((0, 3), (0, 3))


def test_buongioco_declared_in_the_second_turn_but_not_the_third() -> None:
    hands = ["3C 3D 3S 4B 5B", "6B 4D 5D 6D 7D", "JB 4C 5C 6C 7C", "KB AB 2B 4S 5S"]
    threes = Action("declare", cards=cards("3C 3D 3S"), value="threes")
    state = position("tressette", hands)
    play(state, "4B 6B JB KB")  # seat 3 wins with the Re
    play(state, "AB")  # seat 3 leads again; seat 0's second turn
    assert state.to_act == 0 and threes in state.legal_actions()
    second_turn = state.copy()
    second_turn.apply(threes)
    play(state, "5B 4D 4C")  # seat 3's Asso wins; seat 0 has played two cards
    play(state, "2B")
    assert state.to_act == 0
    assert threes not in state.legal_actions()
    rejects(state, threes, "declaration-too-late")


def test_false_buongioco_with_full_information() -> None:
    state = position("tressette", ["AD AC 4S AB", "AS 5S 6S 7S", "4C 5C 6C 7C", "4D 5D 6D 7D"])
    # AS is not in seat 0's hand.
    rejects(state, Action("declare", cards=cards("AD AC AS"), value="aces"), "false-declaration")
    # Holding AD AC AB it can declare exactly those three.
    state.apply(Action("declare", cards=cards("AD AC AB"), value="aces"))
    four = position("tressette", ["AD AC AS AB", "4S 5S 6S 7S", "4C 5C 6C 7C", "4D 5D 6D 7D"])
    # Three aces states the fourth is missing: false when all four are held.
    rejects(four, Action("declare", cards=cards("AD AC AS"), value="aces"), "false-declaration")


def test_false_buongioco_is_deferred_in_the_live_view_unless_public() -> None:
    real = ["4D 5D AS", "AD AC 4C", "AB 6C 5C", "6D 7D 7C"]
    live = position("tressette", [real[0], "? ? ?", "? ? ?", "? ? ?"])
    play(live, "4D")
    # AS is in the viewer's own hand: provably false at once.
    rejects(live, Action("declare", cards=cards("AD AC AS"), value="aces"), "false-declaration")
    lie = Action("declare", cards=cards("AD AC AB"), value="aces")
    live.apply(lie)  # cannot be told yet
    actions = [Action("play", card=card("4D")), lie]
    assert replay_fails_at(position("tressette", real), actions) == (1, "false-declaration")


def test_declaring_an_already_played_card_is_false_at_once() -> None:
    live = position("tressette", ["? ?", "? ?", "? ?", "? ?"])
    play(live, "AD 4D")
    # Seat 2 claims three aces with the Asso of Denari seat 0 just played.
    rejects(live, Action("declare", cards=cards("AD AC AS"), value="aces"), "false-declaration")


def test_malformed_declarations() -> None:
    state = position(
        "tressette", ["AD AC AS 2D 3D", "4S 5S 6S 7S JS", "4C 5C 6C 7C JC", "4D 5D 6D 7D JD"]
    )
    rejects(state, Action("declare", cards=cards("AD AC"), value="aces"), "bad-declaration")
    rejects(state, Action("declare", cards=cards("AD 2D 3C"), value="napoli"), "bad-declaration")
    rejects(state, Action("declare", cards=cards("AD AC AS"), value="kings"), "bad-declaration")
    rejects(state, Action("declare", cards=cards("AD AD AC"), value="aces"), "bad-declaration")
    rejects(state, Action("declare", value="good-play"), "bad-declaration")
    rejects(
        state,
        Action("declare", card=card("AD"), cards=cards("AD 2D 3D"), value="napoli"),
        "malformed-action",
    )
    none = position(
        "tressette", ["AD AC AS", "4S 5S 6S", "4C 5C 6C", "4D 5D 6D"], declarations="none"
    )
    rejects(none, Action("declare", cards=cards("AD AC AS"), value="aces"), "no-declarations")
    assert all(a.kind == "play" for a in none.legal_actions())


# -- Tresette melds ("good play") ----------------------------------------------------------------


def test_good_play_meld_announced_on_the_first_trick_won() -> None:
    state = position("tresette", ["3D 2D AD", "4D 5C 6C", "5D 7C JC", "6D 4S 5S"])
    state.apply(Action("declare", value="good-play"))
    assert state.observation(1)["good_play"] == [0]
    play(state, "3D 4D 5D 6D")  # seat 0 wins its first trick
    assert state.announce_due == 0
    assert state.legal_actions() == [Action("announce", value="napoli")]
    rejects(state, Action("play", card=card("2D")), "announcement-required")
    rejects(state, Action("announce", value="three-aces"), "false-announcement")
    rejects(state, Action("announce", value="aces"), "bad-announcement")
    state.apply(Action("announce", value="napoli"))
    assert state.announce_due is None and state.to_act == 0
    play(state, "2D 5C 7C 4S AD 6C JC 5S")
    # Side 0 took every card: 3D 2D AD JC = 1+1+3+1 = 6 thirds (the other eight are worth
    # nothing) -> 2 points (truncated); last trick 1 point; napoli 3 points: 6.
    assert line(state, "card points") == ((6, 0), (2, 0))
    assert line(state, "last trick") == ((1, 0), (1, 0))
    assert line(state, "declarations") == ((3, 0), (3, 0))
    assert state.hand_result().points == (6, 0)


def test_good_play_announced_after_the_last_trick() -> None:
    hands = ["4D JD 6C", "AC 2C 3C", "5D QD 4C", "6D 7D 5C"]
    state = position("tresette", hands)
    play(state, "4D")
    state.apply(Action("declare", value="good-play"))
    play(state, "AC 5D 6D")  # seat 3 wins with the 6
    play(state, "7D JD 2C QD")  # seat 2 wins with the Cavallo
    play(state, "4C 5C 6C 3C")  # seat 1 wins the last trick: its first
    assert state.phase is Phase.ACTION and state.announce_due == 1
    state.apply(Action("announce", value="napoli"))
    assert state.phase is Phase.HAND_OVER
    # Side 0: 7D JD 2C QD = 0+1+1+1 = 3 thirds -> 1. Side 1: 4D AC 5D 6D = 3, 4C 5C 6C 3C = 1:
    # 4 thirds -> 1, + last trick 1 + napoli 3 = 5.
    assert line(state, "card points") == ((3, 4), (1, 1))
    assert state.hand_result().points == (1, 5)


def test_four_of_a_kind_and_napoli_announcement() -> None:
    hand = cards("2D 2C 2S 2B AD 3D 4S 5S 6S 7S")
    # four 2s (4) + napoli of Denari (3) = 7.
    assert announcement_of(hand) == "four-twos+napoli"
    assert parse_announcement("three-aces+four-twos+napoli+napoli") == (
        "three-aces", "four-twos", "napoli", "napoli",
    )  # fmt: skip
    with pytest.raises(ValueError, match="canonical order"):
        parse_announcement("napoli+three-aces")
    with pytest.raises(ValueError, match="same rank"):
        parse_announcement("three-aces+four-aces")
    state = position(
        "tresette",
        ["2D 2C 2S 2B AD 3D", "4D 5D 6D 7D JD QD", "4C 5C 6C 7C JC QC", "4S 5S 6S 7S JS QS"],
    )
    state.apply(Action("declare", value="good-play"))
    play(state, "3D 4D 4C 4S")
    state.apply(Action("announce", value="four-twos+napoli"))
    while state.phase is Phase.ACTION:
        state.apply(state.legal_actions()[0])
    assert line(state, "declarations")[1] == (7, 0)


def test_false_or_late_good_play() -> None:
    state = position("tresette", ["3D 2D 4C", "4D 5C 6C", "5D 7C JC", "6D 4S 5S"])
    rejects(state, Action("declare", value="good-play"), "false-declaration")
    assert Action("declare", value="good-play") not in state.legal_actions()
    late = position("tresette", ["3D 2D AD", "4D 5C 6C", "5D 7C JC", "6D 4S 5S"])
    play(late, "2D 4D 5D 6D")
    rejects(late, Action("declare", value="good-play"), "declaration-too-late")
    rejects(late, Action("announce", value="napoli"), "announcement-not-due")
    twice = position("tresette", ["3D 2D AD", "4D 5C 6C", "5D 7C JC", "6D 4S 5S"])
    twice.apply(Action("declare", value="good-play"))
    rejects(twice, Action("declare", value="good-play"), "duplicate-declaration")


def test_false_good_play_is_deferred_in_the_live_view() -> None:
    real = ["4D 5C 6C", "3D 2D 4C", "5D 7C JC", "6D 4S 5S"]
    live = position("tresette", [real[0], "? ? ?", "? ? ?", "? ? ?"])
    actions = [Action("play", card=card("4D")), Action("declare", value="good-play")]
    for action in actions:
        live.apply(action)
    assert replay_fails_at(position("tresette", real), actions) == (1, "false-declaration")


# -- Tresette signals -----------------------------------------------------------------------------

SIGNAL_HANDS = ["4D 4C 4S 4B", "5D 6D 5C 5S", "7D 6C 7C 6S", "JD JC QC 7S"]


def test_each_true_signal_is_accepted_and_public() -> None:
    state = position("tresette", SIGNAL_HANDS)
    # One card of each suit: only "one" is true besides the lead's "best".
    assert sorted({a.value for a in state.legal_actions()}) == ["", "best", "one"]
    state.apply(Action("play", card=card("4D"), value="best"))
    state.apply(Action("play", card=card("5D"), value="count", amount=2))  # 5D 6D
    state.apply(Action("play", card=card("7D"), value="two"))  # Coppe: 6C 7C
    state.apply(Action("play", card=card("JD"), value="none"))  # no Bastoni
    assert state.observation(2)["last_trick"] == [
        {"seat": 0, "card": "4D", "signal": "best"},
        {"seat": 1, "card": "5D", "signal": "count", "amount": 2},
        {"seat": 2, "card": "7D", "signal": "two"},
        {"seat": 3, "card": "JD", "signal": "none"},
    ]


def test_count_zero_when_void() -> None:
    state = position("tresette", ["4D 5C", "6D 6C", "7D 7C", "4C 5S"])
    play(state, "4D 6D 7D")
    assert Action("play", card=card("4C"), value="count") in state.legal_actions()
    state.apply(Action("play", card=card("4C"), value="count"))


def test_lying_signals_with_full_information() -> None:
    state = position("tresette", SIGNAL_HANDS)
    rejects(state, Action("play", card=card("4D"), value="two"), "false-signal")
    rejects(state, Action("play", card=card("4D"), value="none"), "false-signal")
    play(state, "4D")
    rejects(state, Action("play", card=card("5D"), value="count", amount=1), "false-signal")
    play(state, "5D")
    # Seat 2 holds 7D 6C 7C 6S (D 1, C 2, S 1, B 0): "one", "two" and "none" are all true.
    state.apply(Action("play", card=card("7D"), value="none"))
    # Seat 3 holds JD JC QC 7S: D 1, C 2, S 1, B 0 as well; "count 2" of Denari is false.
    rejects(state, Action("play", card=card("JD"), value="count", amount=2), "false-signal")


def test_count_against_the_suit_played_is_checked_at_once() -> None:
    live = position("tresette", ["4D 4C", "? ?", "? ?", "? ?"])
    play(live, "4D")
    # Playing Coppe on a Denari lead while claiming a Denari card is false whatever the hand.
    rejects(live, Action("play", card=card("5C"), value="count", amount=1), "false-signal")
    rejects(live, Action("play", card=card("5D"), value="count", amount=0), "false-signal")
    rejects(live, Action("play", card=card("5D"), value="count", amount=3), "false-signal")


def test_lying_signal_is_deferred_in_the_live_view_and_caught_by_the_replay() -> None:
    live = position("tresette", [SIGNAL_HANDS[0], "? ? ? ?", "? ? ? ?", "? ? ? ?"])
    actions = [
        Action("play", card=card("4D"), value="best"),
        Action("play", card=card("5D"), value="count", amount=3),  # holds two Denari
    ]
    for action in actions:
        live.apply(action)
    assert replay_fails_at(position("tresette", SIGNAL_HANDS), actions) == (1, "false-signal")


def test_malformed_or_forbidden_signals() -> None:
    state = position("tresette", SIGNAL_HANDS)
    rejects(state, Action("play", card=card("4D"), value="count", amount=1), "bad-signal")
    rejects(state, Action("play", card=card("4D"), value="lots"), "bad-signal")
    rejects(state, Action("play", card=card("4D"), value="one", amount=1), "bad-signal")
    rejects(state, Action("play", card=card("4D"), amount=1), "bad-signal")
    play(state, "4D")
    rejects(state, Action("play", card=card("5D"), value="best"), "bad-signal")
    rejects(state, Action("play", card=card("5D"), value="count", amount=-1), "bad-signal")
    plain = position("tressette", SIGNAL_HANDS)
    rejects(plain, Action("play", card=card("4D"), value="best"), "signals-not-allowed")
    assert {a.value for a in plain.legal_actions()} == {""}


# -- deal, players, match -------------------------------------------------------------------------


def test_three_players_use_39_cards_and_play_for_themselves() -> None:
    spec = get_game("tressette")
    state = spec.new_match(spec.preset("classic", players=3))
    assert len(state.deck) == 39 and card("4B") not in state.deck
    state.begin_hand()
    steps = state.pending_chance()
    assert [s.position for s in steps] == list(range(39))
    assert [s.seat for s in steps[:4]] == [0, 1, 2, 0]
    assert all(s.visible_to == frozenset({s.seat}) for s in steps)
    state.complete_chance(list(state.deck.cards))
    assert [len(state.hand(s)) for s in range(3)] == [13, 13, 13]
    assert state.num_sides == 3 and [state.side_of(s) for s in range(3)] == [0, 1, 2]
    assert state.to_act == 0


def test_four_players_deal_ten_each_and_hand_h_is_led_by_seat_h() -> None:
    spec = get_game("tresette")
    state = spec.new_match(spec.preset("classic"))
    state.begin_hand()
    state.complete_chance(list(ITALIAN_40.cards))
    # Position i goes to seat i % 4: seat 1 gets positions 1, 5, 9 = 2D, 6D, KD (canonical
    # order A 2 3 4 5 6 7 J Q K of Denari first).
    assert state.hand(1)[:3] == cards("2D 6D KD")
    assert [len(state.hand(s)) for s in range(4)] == [10] * 4
    assert [state.side_of(s) for s in range(4)] == [0, 1, 0, 1]
    later = TressetteMatch.from_position(
        spec.preset("classic"), [slots(c) for c in "4D 5D 6D 7D".split()], hand_number=5, leader=1
    )
    assert later.hand_number == 5 and later.to_act == 1
    fresh = spec.new_match(spec.preset("classic"))
    for _ in range(2):
        fresh.begin_hand()
        fresh.complete_chance(list(ITALIAN_40.cards))
        leader = fresh.to_act
        assert leader == fresh.hand_number % 4
        while fresh.phase is Phase.ACTION:
            fresh.apply(fresh.legal_actions()[0])
        fresh.next_hand()
    assert fresh.hand_number == 2


def _finish_one_card_hand(state: TressetteMatch) -> None:
    play(state, "AD 2C 4D 5D")  # side 0 takes AD 2C 4D 5D


@pytest.mark.parametrize(
    ("scores", "after", "winner"),
    [
        # Side 0 takes AD 2C (4 thirds) + last third = 5 -> 2 points each time.
        ((30, 30), (32, 30), 0),
        ((29, 31), (31, 31), None),  # tied at the top over 31: play on
        ((30, 33), (32, 33), 1),  # both over 31: the highest wins
        ((0, 0), (2, 0), None),
    ],
)
def test_match_to_31(scores: tuple[int, int], after: tuple[int, int], winner: int | None) -> None:
    state = position("tressette", ["AD", "2C", "4D", "5D"], scores=scores)
    _finish_one_card_hand(state)
    assert state.hand_result().points == (2, 0)
    state.next_hand()
    assert state.match_scores == after
    assert state.winner == winner
    assert state.match_over == (winner is not None)
    assert state.phase is (Phase.MATCH_OVER if winner is not None else Phase.SHUFFLE)


def test_three_games_match() -> None:
    state = position("tressette", ["AD", "2C", "4D", "5D"], preset="three-games", scores=(2, 2))
    _finish_one_card_hand(state)
    assert line(state, "game won") == ((2, 0), (1, 0))
    state.next_hand()
    assert state.match_scores == (3, 2) and state.winner == 0 and state.match_over


def test_three_games_tied_hand_gives_no_game() -> None:
    # The two-trick hand of the rounding test: 1 point each.
    state = position(
        "tressette", ["AD 4C", "4D KC", "5D 5C", "6D 6C"], preset="three-games", scores=(2, 2)
    )
    play(state, "AD 4D 5D 6D 4C KC 5C 6C")
    assert line(state, "game won") == ((1, 1), (0, 0))
    state.next_hand()
    assert state.match_scores == (2, 2) and not state.match_over


# -- specs, wire shapes, bad input --------------------------------------------------------------


def test_specs_and_presets() -> None:
    tressette, tresette = get_game("tressette"), get_game("tresette")
    assert tressette.preset_players("classic") == (3, 4)
    assert tressette.preset("three-games", players=3).match == "three_games"
    classic = tresette.preset()
    assert (classic.players, classic.thirds, classic.last_trick) == (4, "truncate", "point")
    assert (classic.declarations, classic.signals, classic.match) == ("good-play", True, "to_31")
    # Tresette's flag defaults are its classic rules.
    assert {f.name: f.default for f in tresette.flags} == {
        k: v for k, v in classic.to_wire().items() if k != "players"
    }
    assert tressette.config_from_wire(classic.to_wire()) == classic


def test_action_wire_shapes() -> None:
    shapes = [
        (Action("play", card=card("4D")), {"kind": "play", "card": "4D"}),
        (
            Action("play", card=card("5D"), value="count", amount=2),
            {"kind": "play", "card": "5D", "value": "count", "amount": 2},
        ),
        (
            Action("declare", cards=cards("AD 2D 3D"), value="napoli"),
            {"kind": "declare", "cards": ["AD", "2D", "3D"], "value": "napoli"},
        ),
        (Action("declare", value="good-play"), {"kind": "declare", "value": "good-play"}),
        (
            Action("announce", value="three-aces+napoli"),
            {"kind": "announce", "value": "three-aces+napoli"},
        ),
    ]
    for action, wire in shapes:
        assert action.to_wire() == wire
        assert Action.from_wire(wire) == action


def test_bad_input_names_the_value() -> None:
    tressette, tresette = get_game("tressette"), get_game("tresette")
    with pytest.raises(UnknownVariant, match="'napoletana'"):
        tressette.preset("napoletana")
    with pytest.raises(UnknownFlag, match="'ceil'"):
        tressette.preset("classic", thirds="ceil")
    with pytest.raises(UnknownFlag, match="'trumps'"):
        tressette.preset("classic", trumps="D")
    with pytest.raises(BadPlayerCount, match="not 2"):
        tressette.preset("classic", players=2)
    with pytest.raises(BadPlayerCount, match="not 3"):
        tresette.preset("classic", players=3)
    with pytest.raises(BadPlayerCount, match="not 5"):
        TressetteMatch(TressetteConfig(players=5))
    with pytest.raises(UnknownFlag, match="'always'"):
        TressetteMatch(TressetteConfig(players=4, match="always"))
    state = position("tressette", ["4D", "5D", "6D", "7D"])
    rejects(state, Action("bid", amount=3), "unknown-action")
    rejects(state, Action("play"), "card-hidden")
    rejects(state, Action("play", card=card("4D"), cards=cards("5D")), "malformed-action")
    rejects(state, Action("announce", value="napoli", amount=1), "announcement-not-due")
    three = position("tressette", ["4D", "5D", "6D"])
    rejects(three, Action("play", card=card("4B")), "card-not-in-deck")
    with pytest.raises(BadSeat, match="seat 4"):
        state.observation(4)
    with pytest.raises(BadSeat, match="side 2"):
        state.captured(2)
    rejects(state, Action("play", card=card("KB")), "card-not-in-hand")
    rejects(state, Action("announce", value="napoli"), "announcement-not-due")
    match = tressette.new_match(tressette.preset("classic", players=4))
    with pytest.raises(IllegalMove, match="shuffle"):
        match.apply(Action("play", card=card("4D")))
    with pytest.raises(WrongPhase, match="chance phase"):
        match.complete_chance([])
    match.begin_hand()
    with pytest.raises(WrongPhase, match="shuffle phase"):
        match.begin_hand()
    with pytest.raises(BadChance, match="needs 40 cards, got 3"):
        match.complete_chance(list(cards("4D 5D 6D")))
    with pytest.raises(BadChance, match="two positions"):
        match.complete_chance([card("4D")] * 40)
    with pytest.raises(BadChance, match="KH1"):
        match.complete_chance([card("KH1")] + [None] * 39)
    with pytest.raises(WrongPhase, match="hand_over"):
        match.next_hand()
    with pytest.raises(WrongPhase, match="no hand result"):
        match.hand_result()
    assert match.phase is Phase.CHANCE


def test_legal_actions_need_the_hand() -> None:
    live = position("tressette", ["4D", "?", "?", "?"])
    assert live.legal_actions() == [Action("play", card=card("4D"))]
    play(live, "4D")
    with pytest.raises(UnknownHand, match="seat 1's hand"):
        live.legal_actions()


def test_from_position_rejects_impossible_positions() -> None:
    with pytest.raises(GameError, match="twice"):
        position("tressette", ["4D", "4D", "6D", "7D"])
    with pytest.raises(GameError, match="needs 2 scores"):
        position("tressette", ["4D", "5D", "6D", "7D"], scores=(1, 2, 3))
