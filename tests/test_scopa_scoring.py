"""Scopa scoring: exact breakdowns computed by hand for every category, tie rule, flag, the
stop-at-target order and the match end."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pcards.cards import ITALIAN_40, Card, cards
from p2pcards.games.base import Action, HandResult, Phase
from p2pcards.games.scopa import SPEC, ScopaConfig, ScopaMatch
from p2pcards.games.scopa_scoring import (
    award_best,
    leader_at_target,
    napola_run,
    primiera,
    score_hand,
)

CLASSIC = SPEC.preset("classic")
NAPOLA = SPEC.preset("napola")
ITALIAN = SPEC.preset("italian")
D, C, S, B = (" ".join(c.code for c in ITALIAN_40 if c.suit == s) for s in "DCSB")


def piles(*listed: str) -> list[tuple[Card, ...]]:
    """One pile per listed code string, and a last pile with the rest of the deck."""
    out = [cards(codes) for codes in listed]
    taken = {c for pile in out for c in pile}
    out.append(tuple(c for c in ITALIAN_40 if c not in taken))
    return out


def table(result: HandResult) -> dict[str, tuple[tuple[int | None, ...], tuple[int, ...]]]:
    return {ln.category: (ln.values, ln.points) for ln in result.lines}


def end_hand(
    config: ScopaConfig, pile0: str, scope: tuple[int, ...] = (), scores: tuple[int, ...] = (0, 0)
) -> ScopaMatch:
    """A 2-player hand that ends with side 0 holding ``pile0`` and side 1 the rest: seat 0 trails
    the first card of ``pile0`` onto an empty table as the last play and, as last capturer, takes
    it back."""
    first, *rest = pile0.split()
    state = ScopaMatch.from_position(
        config,
        [first, ""],
        "",
        captured=[" ".join(rest), " ".join(c.code for c in piles(pile0)[1])],
        scope=scope,
        last_capturer=0,
        match_scores=scores,
    )
    state.apply(Action("play", cards(first)[0]))
    assert state.phase is Phase.HAND_OVER
    return state


# ----------------------------------------------------------------------- primiera and napola


@pytest.mark.parametrize(
    ("codes", "free", "all_suits"),
    [
        ("7D 6C AS 5B", 70, 70),  # 21 + 18 + 16 + 15
        ("7D 7C 7S 7B", 84, 84),  # 4 x 21
        ("KD QC JS 2B", 42, 42),  # 10 + 10 + 10 + 12
        ("2D 7D AD 3C 4C", 35, None),  # best denaro 7D = 21, best coppe 4C = 14, no S or B
        ("", 0, None),
    ],
)
def test_primiera_values(codes: str, free: int, all_suits: int | None) -> None:
    assert primiera(cards(codes), needs_all_suits=False) == free
    assert primiera(cards(codes), needs_all_suits=True) == all_suits


@pytest.mark.parametrize(
    ("codes", "run"),
    [
        ("AD 2D 3D", 3),
        ("AD 2D 3D 4D KC", 4),
        ("AD 2D 3D 4D 5D 7D", 5),  # the 6 is missing: the run stops at 5
        (D, 10),
        ("AD 2D 4D 5D", 0),
        ("2D 3D 4D 5D", 0),
        ("AD 2D 3C", 0),
    ],
)
def test_napola_run(codes: str, run: int) -> None:
    assert napola_run(cards(codes)) == run


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(ITALIAN_40.cards), unique=True))
def test_primiera_and_napola_bounds(pile: list[Card]) -> None:
    value = primiera(pile, needs_all_suits=False)
    assert value is not None and 0 <= value <= 84
    assert (primiera(pile, needs_all_suits=True) is None) == (len({c.suit for c in pile}) < 4)
    assert napola_run(pile) in (0, 3, 4, 5, 6, 7, 8, 9, 10)


def test_award_best_and_leader() -> None:
    assert award_best((14, 14, 12), "each") == (1, 1, 0)
    assert award_best((14, 14, 12), "none") == (0, 0, 0)
    assert award_best((12, 14, 14), "none") == (0, 0, 0)
    assert award_best((16, 12, 12), "none") == (1, 0, 0)
    assert award_best((None, 51), "each") == (0, 1)
    assert award_best((None, None), "each") == (0, 0)
    assert award_best((0, 0), "each") == (0, 0)
    assert leader_at_target((11, 5), 11) == 0
    assert leader_at_target((10, 5), 11) is None
    assert leader_at_target((12, 12), 11) is None
    assert leader_at_target((12, 13, 4), 11) == 1


# ----------------------------------------------------------------------- whole breakdowns


def test_breakdown_classic_napola_italian() -> None:
    # Side 0: every denaro, every coppa and 7S (21 cards); side 1: the other 19.
    # Primiera: side 0 = 21 (7D) + 21 (7C) + 21 (7S) = 63, no bastoni; side 1 = 18 (6S) + 21 (7B)
    # = 39, no denari or coppe. Scope: side 1 twice, side 0 once.
    split = piles(f"{D} {C} 7S")
    log = (1, 1, 0)
    assert table(score_hand(split, log, (0, 0), CLASSIC)) == {
        "cards": ((21, 19), (1, 0)),
        "denari": ((10, 0), (1, 0)),
        "settebello": ((1, 0), (1, 0)),
        "primiera": ((63, 39), (1, 0)),
        "scope": ((1, 2), (1, 2)),
    }
    assert score_hand(split, log, (0, 0), CLASSIC).points == (5, 2)
    # Napola preset: the same, plus napola A..K of denari = 10 and the rebello (KD).
    napola = score_hand(split, log, (0, 0), NAPOLA)
    assert table(napola)["napola"] == ((10, 0), (10, 0))
    assert table(napola)["rebello"] == ((1, 0), (1, 0))
    assert [ln.category for ln in napola.lines][-2:] == ["napola", "rebello"]
    assert napola.points == (16, 2)
    # Italian preset: neither side has all four suits, so nobody gets the primiera; the target
    # is not reached, so everything counts: side 0 = 1 + 1 + 1 + 1 (scopa), side 1 = 2 scope.
    italian = score_hand(split, log, (0, 0), ITALIAN)
    assert table(italian)["primiera"] == ((None, None), (0, 0))
    assert italian.points == (4, 2)


def test_breakdown_through_the_engine() -> None:
    state = end_hand(CLASSIC, f"{D} {C} 7S", scope=(1, 1, 0))
    assert sorted(state.captured(0)) == sorted(cards(f"{D} {C} 7S"))
    assert state.hand_result().points == (5, 2)
    assert state.hand_result().to_wire()["lines"][3] == {
        "category": "primiera",
        "values": [63, 39],
        "points": [1, 0],
    }


@pytest.mark.parametrize(
    ("ties", "needs_all_suits", "expected"),
    [
        # Side 0: denari + coppe (20 cards, primiera 21 + 21 = 42); side 1: spade + bastoni
        # (20 cards, primiera 42). Denari 10-0 and the settebello go to side 0.
        ("each", False, {"cards": (1, 1), "denari": (1, 0), "primiera": (1, 1), "total": (4, 2)}),
        ("none", False, {"cards": (0, 0), "denari": (1, 0), "primiera": (0, 0), "total": (2, 0)}),
        ("each", True, {"cards": (1, 1), "denari": (1, 0), "primiera": (0, 0), "total": (3, 1)}),
    ],
)
def test_ties_each_and_none(ties: str, needs_all_suits: bool, expected: dict[str, object]) -> None:
    config = SPEC.preset("classic", ties=ties, primiera_needs_all_suits=needs_all_suits)
    result = score_hand(piles(f"{D} {C}"), (), (0, 0), config)
    got = table(result)
    assert got["cards"] == ((20, 20), expected["cards"])
    assert got["denari"] == ((10, 0), expected["denari"])
    assert got["primiera"][1] == expected["primiera"]
    assert result.points == expected["total"]


def test_primiera_needs_all_suits_decides() -> None:
    # Side 1: every bastone + KD KC KS: 21 + 10 + 10 + 10 = 51 with all four suits.
    # Side 0: the rest: 21 (7D) + 21 (7C) + 21 (7S) = 63 but no bastoni.
    split = list(reversed(piles(f"{B} KD KC KS")))
    assert table(score_hand(split, (), (0, 0), CLASSIC))["primiera"] == ((63, 51), (1, 0))
    config = SPEC.preset("classic", primiera_needs_all_suits=True)
    assert table(score_hand(split, (), (0, 0), config))["primiera"] == ((None, 51), (0, 1))


@pytest.mark.parametrize(
    ("denari", "needs_six", "ties", "points"),
    [
        ("AD 2D 3D 4D 5D", True, "none", (0, 0)),  # 5-5: nobody
        ("AD 2D 3D 4D 5D", False, "each", (1, 1)),  # 5-5: each
        ("AD 2D 3D 4D 5D", False, "none", (0, 0)),  # 5-5: nobody
        ("AD 2D 3D 4D 5D 6D", True, "none", (1, 0)),  # 6-4: six or more
        ("AD 2D 3D 4D", True, "each", (0, 1)),  # 4-6: side 1 has six
    ],
)
def test_denari(denari: str, needs_six: bool, ties: str, points: tuple[int, int]) -> None:
    config = SPEC.preset("classic", denari_needs_six=needs_six, ties=ties)
    line = table(score_hand(piles(f"{denari} {C}"), (), (0, 0), config))["denari"]
    count = len(denari.split())
    assert line == ((count, 10 - count), points)


def test_three_sides() -> None:
    # Side 0: denari + AC 2C 3C 4C (14, primiera 21 + 16 = 37); side 1: 5C 6C 7C JC QC KC and
    # AS..JS (14, primiera 21 + 21 = 42); side 2: QS KS + bastoni (12, primiera 10 + 21 = 31).
    split = piles(f"{D} AC 2C 3C 4C", "5C 6C 7C JC QC KC AS 2S 3S 4S 5S 6S 7S JS")
    each = table(score_hand(split, (2,), (0, 0, 0), SPEC.preset("classic", players=3)))
    assert each["cards"] == ((14, 14, 12), (1, 1, 0))
    assert each["denari"] == ((10, 0, 0), (1, 0, 0))
    assert each["primiera"] == ((37, 42, 31), (0, 1, 0))
    assert each["scope"] == ((0, 0, 1), (0, 0, 1))
    none = table(score_hand(split, (), (0, 0, 0), SPEC.preset("napola", players=3)))
    assert none["cards"] == ((14, 14, 12), (0, 0, 0))
    # Denari 5-3-2 among three: most = side 0 by default, nobody with six needed.
    split = piles("AD 2D 3D 4D 5D", "6D 7D JD")
    assert table(score_hand(split, (), (0, 0, 0), SPEC.preset("classic", players=3)))["denari"] == (
        (5, 3, 2),
        (1, 0, 0),
    )
    assert table(score_hand(split, (), (0, 0, 0), SPEC.preset("napola", players=3)))["denari"] == (
        (5, 3, 2),
        (0, 0, 0),
    )


@pytest.mark.parametrize(
    ("pile0", "napola", "rebello"),
    [
        ("AD 2D 3D", (3, 0), (0, 1)),
        ("AD 2D 3D 4D", (4, 0), (0, 1)),
        ("AD 2D 3D 4D 5D", (5, 0), (0, 1)),
        (D, (10, 0), (1, 0)),
        ("AD 2D KD", (0, 0), (1, 0)),
        ("4D 5D", (0, 3), (0, 1)),  # side 1 holds A 2 3 and stops at the missing 4
    ],
)
def test_napola_and_rebello(pile0: str, napola: tuple[int, int], rebello: tuple[int, int]) -> None:
    got = table(score_hand(piles(pile0), (), (0, 0), NAPOLA))
    assert got["napola"] == (napola, napola)
    assert got["rebello"] == (rebello, rebello)


# ----------------------------------------------------------------------- stop at target


def test_stop_at_target_counts_in_order() -> None:
    # Side 1: denari + 7C (11 cards, no spade or bastoni); side 0 the other 29, no denari:
    # nobody has all four suits, so no primiera. Scores 9-10; scope log: side 0 twice.
    # Cards -> side 0 (10-10); denari -> side 1 (10-11): stop, side 1 wins. The settebello
    # (side 1) and side 0's two scope are never counted, though side 0 would have had 12.
    state = end_hand(ITALIAN, " ".join(c.code for c in piles(f"{D} 7C")[1]), (0, 0), (9, 10))
    result = state.hand_result()
    assert table(result) == {
        "cards": ((29, 11), (1, 0)),
        "denari": ((0, 10), (0, 1)),
        "settebello": ((0, 1), (0, 0)),
        "primiera": ((None, None), (0, 0)),
        "scope": ((2, 0), (0, 0)),
    }
    assert result.points == (1, 1)
    state.next_hand()
    assert state.match_over and state.winner == 1 and state.match_scores == (10, 11)


def test_stop_at_target_counts_scope_in_the_order_made() -> None:
    # Side 0: denari but 7D, all coppe, AS (20, no bastoni); side 1: 7D, spade but AS, bastoni
    # (20, no coppe). Scores 9-9; cards 20-20 (nobody); denari -> side 0 (10-9); settebello ->
    # side 1 (10-10); scope in order side 1 (10-11): stop. Side 0's two scope are not counted.
    state = end_hand(ITALIAN, "AD 2D 3D 4D 5D 6D JD QD KD " + C + " AS", (1, 0, 0), (9, 9))
    result = state.hand_result()
    got = table(result)
    assert got["cards"] == ((20, 20), (0, 0))
    assert got["denari"] == ((9, 1), (1, 0))
    assert got["settebello"] == ((0, 1), (0, 1))
    assert got["scope"] == ((2, 1), (0, 1))
    assert result.points == (1, 2)
    state.next_hand()
    assert state.winner == 1 and state.match_scores == (10, 11)


def test_stop_at_target_tie_at_the_top_counts_on() -> None:
    # The same piles with ties to each, scores 10-10: cards 20-20 -> 11-11 (tied, go on);
    # denari -> side 0 (12-11): stop, side 0 wins.
    config = SPEC.preset("italian", ties="each")
    state = end_hand(config, "AD 2D 3D 4D 5D 6D JD QD KD " + C + " AS", (1, 0, 0), (10, 10))
    result = state.hand_result()
    got = table(result)
    assert got["cards"][1] == (1, 1) and got["denari"][1] == (1, 0)
    assert got["settebello"][1] == (0, 0) and got["scope"][1] == (0, 0)
    assert result.points == (2, 1)
    state.next_hand()
    assert state.winner == 0 and state.match_scores == (12, 11)


# ----------------------------------------------------------------------- match end


@pytest.mark.parametrize(
    ("target", "before", "after", "winner"),
    [
        # Each hand below scores 4-2 (denari + coppe vs spade + bastoni, ties to each).
        (11, (7, 3), (11, 5), 0),
        (11, (6, 3), (10, 5), None),
        (11, (7, 9), (11, 11), None),  # tie at the top: play on
        (21, (7, 3), (11, 5), None),
        (21, (17, 3), (21, 5), 0),
        (21, (16, 19), (20, 21), 1),
        (31, (27, 29), (31, 31), None),
        (31, (28, 29), (32, 31), 0),  # both reach 31: the higher wins
        (31, (26, 3), (30, 5), None),
    ],
)
def test_match_end(
    target: int, before: tuple[int, int], after: tuple[int, int], winner: int | None
) -> None:
    state = end_hand(SPEC.preset("classic", target=target), f"{D} {C}", scores=before)
    assert state.hand_result().points == (4, 2)
    state.next_hand()
    assert state.match_scores == after and state.winner == winner
    if winner is None:
        assert state.phase is Phase.SHUFFLE and state.hand_number == 1
    else:
        assert state.phase is Phase.MATCH_OVER and state.match_over
