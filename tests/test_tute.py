"""Tute: hand-computed cases for every rule of the engine (deal, the four obligations and their
exceptions, trick winner, declarations and their order, tute, last trick, hand and match)."""

from __future__ import annotations

from typing import Any

import pytest

from p2pcards.cards import SPANISH_40, card, cards
from p2pcards.games import get_game
from p2pcards.games.base import (
    ALL_SEATS,
    Action,
    BadPlayerCount,
    CardUse,
    IllegalMove,
    Phase,
    UnknownFlag,
    Zone,
)
from p2pcards.games.tute import TuteConfig, TuteMatch
from p2pcards.games.tute_rules import allowed_plays, play_error

SPEC = get_game("tute")
CLASSIC = SPEC.preset("classic", players=4)


def play(code: str) -> Action:
    return Action("play", card(code))


def declare(kind: str, codes: str) -> Action:
    return Action("declare", cards=cards(codes), value=kind)


def position(hands: list[Any], trump: str = "7B", **kw: Any) -> TuteMatch:
    """A position; each hand is a string of codes or a list of cards (``None`` = unknown)."""
    config = kw.pop("config", CLASSIC)
    assert isinstance(config, TuteConfig)
    return TuteMatch.from_position(config, [cards(h) if isinstance(h, str) else h
                                            for h in hands], card(trump), **kw)


def codes(actions: list[Action]) -> list[str]:
    return sorted(str(a) for a in actions)


def refused(state: TuteMatch, action: Action, rule: str) -> None:
    before = state.observation(state.to_act)
    with pytest.raises(IllegalMove) as info:
        state.apply(action)
    assert info.value.rule == rule
    assert info.value.seat == state.to_act
    assert state.observation(state.to_act) == before


# ------------------------------------------------------------------ config and deal


def test_config_is_for_four_players_and_checks_flags() -> None:
    with pytest.raises(BadPlayerCount, match="tute is for 4 players"):
        TuteConfig(players=3)
    with pytest.raises(UnknownFlag, match="flag 'hands' of tute takes 1 to 99"):
        TuteConfig(players=4, hands=0)
    assert SPEC.preset("single", players=4).hands == 1
    assert SPEC.preset("free-cuarenta", players=4).cuarenta_first is False
    assert SPEC.preset("partner-relief", players=4).partner_relief is True


def test_deal_gives_ten_each_and_shows_the_dealers_last_card_to_all() -> None:
    state = SPEC.new_match(CLASSIC)
    state.begin_hand()
    steps = state.pending_chance()
    assert len(steps) == 40
    assert [s.seat for s in steps[:5]] == [0, 1, 2, 3, 0]
    assert all(s.zone is Zone.HAND for s in steps)
    assert steps[38].visible_to == frozenset({2})
    assert (steps[39].seat, steps[39].visible_to) == (3, ALL_SEATS)  # dealer of hand 0 is seat 3
    deck = list(SPANISH_40.cards)
    state.complete_chance(deck)
    assert isinstance(state, TuteMatch)
    assert state.trump_card == deck[39] and state.trump == "B"
    assert deck[39] in state.hand(3) and len(state.hand(3)) == 10
    assert state.observation(0)["shown_cards"] == [[3, deck[39].code]]
    assert state.to_act == 0 and state.phase is Phase.ACTION


def test_live_view_sees_the_trump_card_in_the_dealers_hand_only() -> None:
    state = SPEC.new_match(CLASSIC)
    state.begin_hand()
    steps = state.pending_chance()
    deck = list(SPANISH_40.cards)
    state.complete_chance([c if s.visible(1) else None for s, c in zip(steps, deck, strict=True)])
    assert isinstance(state, TuteMatch)
    assert state.hand(3).count(None) == 9 and deck[39] in state.hand(3)
    assert state.hand_known(1) and not state.hand_known(0)
    assert state.observation(1)["hand"] == [c.code for c in deck[1:40:4]]


def test_a_hidden_trump_card_is_refused() -> None:
    state = SPEC.new_match(CLASSIC)
    state.begin_hand()
    with pytest.raises(Exception, match="shown to every seat"):
        state.complete_chance([None] * 40)


def test_second_hand_is_led_by_seat_1_and_dealt_by_seat_0() -> None:
    state = position(["AD", "2D", "3D", "4D"], captured=[cards(
        "5D 6D 7D JD QD KD AC 2C 3C 4C 5C 6C 7C JC QC KC AS 2S 3S 4S 5S 6S 7S JS QS KS AB 2B 3B "
        "4B 5B 6B 7B JB QB KB"), []])
    for code in ("AD", "2D", "3D", "4D"):
        state.apply(play(code))
    assert state.phase is Phase.HAND_OVER
    state.next_hand()
    assert state.phase is Phase.SHUFFLE and state.hand_number == 1
    state.begin_hand()
    steps = state.pending_chance()
    assert steps[0].seat == 1 and steps[39].seat == 0 and state.dealer == 0


# ------------------------------------------------------------------ obligations


def test_must_follow_suit() -> None:
    state = position(["5C", "2C AD", "6D", "6S"])
    state.apply(play("5C"))
    assert codes(state.legal_actions()) == ["play 2C"]
    refused(state, play("AD"), "must-follow-suit")


def test_must_head_when_following() -> None:
    state = position(["5C", "4C 7C AD", "6D", "6S"])
    state.apply(play("5C"))
    assert codes(state.legal_actions()) == ["play 7C"]
    refused(state, play("4C"), "must-head")


def test_heading_needs_a_higher_card_otherwise_any_of_the_suit() -> None:
    state = position(["AC", "4C 7C AD", "6D", "6S"])
    state.apply(play("AC"))
    assert codes(state.legal_actions()) == ["play 4C", "play 7C"]


def test_the_three_heads_a_king() -> None:
    state = position(["KC", "3C 2C", "6D", "6S"])
    state.apply(play("KC"))
    assert codes(state.legal_actions()) == ["play 3C"]


def test_no_heading_after_the_trick_was_trumped() -> None:
    state = position(["5C", "2B", "4C 7C", "6S"])
    state.apply(play("5C"))
    state.apply(play("2B"))
    assert codes(state.legal_actions()) == ["play 4C", "play 7C"]


def test_must_head_in_trumps_led() -> None:
    state = position(["5B", "4B 7B", "6D", "6S"])
    state.apply(play("5B"))
    refused(state, play("4B"), "must-head")
    assert codes(state.legal_actions()) == ["play 7B"]


def test_must_trump_when_void() -> None:
    state = position(["5C", "2B AD", "6D", "6S"])
    state.apply(play("5C"))
    assert codes(state.legal_actions()) == ["play 2B"]
    refused(state, play("AD"), "must-trump")


def test_must_overtrump() -> None:
    state = position(["5C", "4B", "2B 7B AD", "6S"])
    state.apply(play("5C"))
    state.apply(play("4B"))
    assert codes(state.legal_actions()) == ["play 7B"]
    refused(state, play("2B"), "must-overtrump")
    refused(state, play("AD"), "must-trump")


def test_unable_to_overtrump_still_must_trump() -> None:
    state = position(["5C", "AB", "2B AD", "6S"])
    state.apply(play("5C"))
    state.apply(play("AB"))
    assert codes(state.legal_actions()) == ["play 2B"]
    refused(state, play("AD"), "must-trump")


def test_free_discard_without_suit_or_trumps() -> None:
    state = position(["5C", "AD 6S", "6D", "7S"])
    state.apply(play("5C"))
    assert codes(state.legal_actions()) == ["play 6S", "play AD"]


def test_partner_relief_drops_heading_and_trumping_but_not_following() -> None:
    relief = SPEC.preset("partner-relief", players=4)
    state = position(["7C", "2C", "4C 3C", "6S"], config=relief)
    state.apply(play("7C"))
    state.apply(play("2C"))
    assert codes(state.legal_actions()) == ["play 3C", "play 4C"]
    state = position(["7C", "2C", "2B AD", "6S"], config=relief)
    state.apply(play("7C"))
    state.apply(play("2C"))
    assert codes(state.legal_actions()) == ["play 2B", "play AD"]
    state = position(["7C", "2C", "4C AD", "6S"], config=relief)
    state.apply(play("7C"))
    state.apply(play("2C"))
    refused(state, play("AD"), "must-follow-suit")
    # the opponents are not relieved
    state = position(["7C", "2B AD", "4C", "6S"], config=relief)
    state.apply(play("7C"))
    refused(state, play("AD"), "must-trump")


def test_rules_module_names_the_rule_from_known_cards_only() -> None:
    trick = [(0, card("5C"))]
    assert play_error(cards("AD 7C"), card("AD"), trick, "B") == "must-follow-suit"
    assert play_error(cards("AD"), card("AD"), trick, "B") is None
    assert allowed_plays(cards("AD 2B 3B"), [(0, card("5C")), (1, card("AB"))], "B") == list(
        cards("2B 3B"))


# ------------------------------------------------------------------ tricks


def test_trump_wins_and_the_winner_leads_and_may_declare() -> None:
    state = position(["5C KD", "AC KS", "2B QD", "3C 6S"])
    for code in ("5C", "AC", "2B", "3C"):
        state.apply(play(code))
    assert state.to_act == 2 and state.may_declare == 2
    assert state.captured(0) == cards("5C AC 2B 3C")


def test_highest_of_the_suit_led_wins_other_suits_never() -> None:
    state = position(["5C KD", "AD KS", "KC QD", "3C 6S"], trump="7B")
    for code in ("5C", "AD", "KC", "3C"):
        state.apply(play(code))
    assert state.to_act == 3 and state.captured(1) == cards("5C AD KC 3C")


# ------------------------------------------------------------------ declarations


def won(hands: list[str], **kw: object) -> TuteMatch:
    """Seat 0 has just won a trick (one done) and may declare before leading."""
    return position(hands, captured=[cards("2D 4D 5D 6D"), []], may_declare=True, **kw)


def test_declarations_offered_after_winning_a_trick() -> None:
    state = won(["KC QC KB QB 3S", "AS", "2S", "4S"], trump="7B")
    legal = codes(state.legal_actions())
    assert "declare [KB QB] cuarenta" in legal
    assert "declare [KC QC] veinte" not in legal  # las cuarenta come first
    assert state.card_use(declare("cuarenta", "KB QB")) == CardUse(kept=cards("KB QB"))
    state.apply(declare("cuarenta", "KB QB"))
    assert state.to_act == 0 and state.may_declare is None
    assert all(a.kind == "play" for a in state.legal_actions())
    assert state.observation(1)["shown_cards"] == [[0, "KB"], [0, "QB"]]


def test_one_declaration_per_trick_won() -> None:
    state = won(["KC QC KD QD 3S", "AS", "2S", "4S"])
    state.apply(declare("veinte", "KC QC"))
    refused(state, declare("veinte", "KD QD"), "declaration-not-due")


def test_no_declaration_before_winning_a_trick_or_after_leading() -> None:
    state = position(["KC QC 3S", "AS", "2S", "4S"])
    refused(state, declare("veinte", "KC QC"), "declaration-not-due")
    state = won(["KC QC 3S", "AS", "2S", "4S"])
    state.apply(play("3S"))
    state.apply(play("AS"))
    assert state.to_act == 2
    refused(state, declare("veinte", "KC QC"), "declaration-not-due")


def test_cuarenta_only_before_any_veinte() -> None:
    state = won(["KB QB 3S", "AS", "2S", "4S"], declarations=[(1, "veinte", cards("KD QD"))])
    assert codes(state.legal_actions()) == ["play 3S", "play KB", "play QB"]
    refused(state, declare("cuarenta", "KB QB"), "cuarenta-first")
    free = SPEC.preset("free-cuarenta", players=4)
    state = won(["KB QB 3S", "AS", "2S", "4S"], declarations=[(1, "veinte", cards("KD QD"))],
                config=free)
    state.apply(declare("cuarenta", "KB QB"))
    assert [d.kind for d in state.declarations] == ["veinte", "cuarenta"]


def test_a_holder_of_cuarenta_declares_it_before_its_veintes() -> None:
    state = won(["KB QB KC QC 3S", "AS", "2S", "4S"])
    refused(state, declare("veinte", "KC QC"), "cuarenta-first")
    free = SPEC.preset("free-cuarenta", players=4)
    state = won(["KB QB KC QC 3S", "AS", "2S", "4S"], config=free)
    state.apply(declare("veinte", "KC QC"))
    # after las cuarenta, veintes follow on later tricks
    state = won(["KB QB KC QC 3S", "AS", "2S", "4S"],
                declarations=[(0, "cuarenta", cards("KB QB"))])
    assert "declare [KC QC] veinte" in codes(state.legal_actions())


def test_each_marriage_once_per_hand() -> None:
    state = won(["KC QC 3S", "AS", "2S", "4S"], declarations=[(0, "veinte", cards("KC QC"))])
    refused(state, declare("veinte", "KC QC"), "already-declared")


def test_declaration_shapes() -> None:
    state = won(["KC QC KB QB 3S", "AS", "2S", "4S"])
    refused(state, declare("veinte", "KB QB"), "bad-declaration")
    refused(state, declare("cuarenta", "KC QC"), "bad-declaration")
    refused(state, declare("veinte", "QC KC"), "bad-declaration")
    refused(state, declare("trente", "KC QC"), "bad-declaration")
    refused(state, Action("declare", card=card("KC"), cards=cards("KC QC"), value="veinte"),
            "malformed-action")
    refused(state, Action("bid"), "unknown-action")


def test_false_marriage_is_refused_with_full_information() -> None:
    state = won(["KC 3S", "QC", "2S", "4S"])
    refused(state, declare("veinte", "KC QC"), "false-declaration")


def test_false_marriage_caught_live_when_a_card_is_known_elsewhere() -> None:
    # the live view of seat 1: seat 0's hand is unknown, but QC is in seat 1's own hand
    state = won([[None, None], "QC", [None], [None]])
    refused(state, declare("veinte", "KC QC"), "false-declaration")
    state = won([[None, None], "AS", [None], [None]])
    state.apply(declare("veinte", "KC QC"))  # not refutable live: the full replay checks it
    assert state.hand(0) == (card("KC"), card("QC"))


def test_must_follow_suit_caught_live_from_the_shown_trump_card() -> None:
    # seat 3 (dealer) is known to hold the trump card 7B; a trump is led and it plays another suit
    state = position([["AB"], [None], [None], [card("7B"), None]],
                     trump="7B", leader=0)
    state.apply(play("AB"))
    state.apply(play("2B"))
    state.apply(play("3B"))
    refused(state, play("AD"), "must-follow-suit")


def test_tute_wins_the_hand_at_once() -> None:
    state = won(["KD KC KS KB 2C", "AS", "2S", "4S"])
    legal = codes(state.legal_actions())
    assert "declare [KD KC KS KB] tute" in legal
    state.apply(declare("tute", "KD KC KS KB"))
    assert state.phase is Phase.HAND_OVER
    result = state.hand_result()
    assert result.points == (1, 0)
    assert [ln.category for ln in result.lines] == [
        "card points", "last trick", "declarations", "tute", "hand won"]
    assert result.lines[3].values == (1, 0)


def test_tute_for_the_other_side_even_when_behind_in_points() -> None:
    state = position(["2D", "KD KC KS KB", "5D", "6S"], leader=1, may_declare=True,
                     captured=[cards("AD AC AS AB 3D 3C 3S 3B"), []], tricks_done=2)
    state.apply(declare("tute", "KD KC KS KB"))
    assert state.hand_result().points == (0, 1)


def test_false_tute_is_refused() -> None:
    state = won(["KD KC KS 2C", "KB", "2S", "4S"])
    refused(state, declare("tute", "KD KC KS KB"), "false-declaration")
    refused(state, declare("tute", "KD KC KS"), "bad-declaration")


# ------------------------------------------------------------------ scoring and match


def _last_trick_position(**kw: object) -> TuteMatch:
    rest = cards("5D 6D 7D JD QD KD 2C 3C 4C 5C 6C 7C JC QC KC 2S 3S 4S 5S 6S 7S JS QS KS AB 2B "
                 "3B 4B 5B 6B 7B JB QB KB 3D 4D")
    return position(["AD", "2D", "AC", "AS"], captured=[list(rest[:20]), list(rest[20:])],
                    tricks_done=9, **kw)


def test_last_trick_is_worth_ten_and_a_hand_totals_130() -> None:
    state = _last_trick_position()
    for code in ("AD", "2D", "AC", "AS"):
        state.apply(play(code))
    result = state.hand_result()
    lines = {ln.category: ln for ln in result.lines}
    assert lines["last trick"].points == (10, 0)
    cards_pts = lines["card points"].points
    assert sum(cards_pts) == 120
    assert sum(lines["hand won"].values) == 130
    assert result.points == ((1, 0) if cards_pts[0] + 10 > cards_pts[1] else (0, 1))


def test_declarations_add_to_the_hand_total() -> None:
    state = _last_trick_position(declarations=[(1, "veinte", cards("KD QD")),
                                               (3, "veinte", cards("KC QC"))])
    for code in ("AD", "2D", "AC", "AS"):
        state.apply(play(code))
    lines = {ln.category: ln for ln in state.hand_result().lines}
    assert lines["declarations"].points == (0, 40)
    assert sum(lines["hand won"].values) == 170


def test_hand_winner_by_points() -> None:
    state = position(["AD", "2D", "3D", "4D"], captured=[[], []], tricks_done=9)
    for code in ("AD", "2D", "3D", "4D"):
        state.apply(play(code))
    # AD wins: 11 + 10 card points + 10 for the last trick
    assert state.hand_result().lines[-1].values == (31, 0)
    assert state.hand_result().points == (1, 0)


def drawn_hand(config: TuteConfig, hand_number: int = 0,
               hands_won: tuple[int, ...] = (0, 0)) -> TuteMatch:
    """A last trick leaving the sides level: 21 (AC 3C) against 11 (AS 4S) + 10 (last trick)."""
    state = TuteMatch.from_position(config, [cards("2D"), cards("4D"), cards("5D"), cards("6D")],
                                    card("7S"), captured=[cards("AC 3C"), cards("AS 4S")],
                                    tricks_done=9, hand_number=hand_number, hands_won=hands_won)
    for code in ("2D", "4D", "5D", "6D"):
        state.apply(play(code))
    return state


def won_hand(config: TuteConfig, side: int, hand_number: int = 0,
             hands_won: tuple[int, ...] = (0, 0)) -> TuteMatch:
    """A one-trick hand whose ace (seat ``side``) wins it: 31 to 0."""
    hands = ["2D", "4D", "5D", "6D"]
    hands[side] = "AD"
    state = TuteMatch.from_position(config, [cards(h) for h in hands], card("7B"),
                                    tricks_done=9, hand_number=hand_number, hands_won=hands_won)
    for code in hands:
        state.apply(play(code))
    return state


def test_a_drawn_hand_counts_for_nobody_and_a_single_hand_match_is_replayed() -> None:
    config = SPEC.preset("single", players=4)
    tie = drawn_hand(config)
    assert tie.hand_result().lines[-1].values == (21, 21)
    assert tie.hand_result().points == (0, 0)
    tie.next_hand()
    assert tie.phase is Phase.SHUFFLE and tie.match_scores == (0, 0) and tie.hand_number == 1
    state = won_hand(config, 1, hand_number=1)
    state.next_hand()
    assert state.phase is Phase.MATCH_OVER and state.winner == 1


def test_match_of_three_hands_goes_to_the_side_winning_more() -> None:
    state = won_hand(CLASSIC, 0)
    state.next_hand()
    assert state.phase is Phase.SHUFFLE
    state = won_hand(CLASSIC, 1, hand_number=1, hands_won=state.match_scores)
    state.next_hand()
    assert state.phase is Phase.SHUFFLE and state.match_scores == (1, 1)
    state = won_hand(CLASSIC, 0, hand_number=2, hands_won=state.match_scores)
    state.next_hand()
    assert state.phase is Phase.MATCH_OVER and state.winner == 0 and state.match_scores == (2, 1)


def test_a_level_match_after_its_hands_plays_on() -> None:
    state = drawn_hand(CLASSIC, hand_number=2, hands_won=(1, 1))
    state.next_hand()
    assert state.phase is Phase.SHUFFLE and state.match_scores == (1, 1)
    state = won_hand(CLASSIC, 1, hand_number=3, hands_won=(1, 1))
    state.next_hand()
    assert state.phase is Phase.MATCH_OVER and state.winner == 1


def test_a_veinte_hiding_las_cuarenta_passes_live_and_fails_with_the_whole_hand() -> None:
    full = won(["KC QC KB QB 3S", "AS", "2S", "4S"])
    live = won([[None] * 5, "AS", [None], [None]])
    live.apply(declare("veinte", "KC QC"))  # seat 1's view cannot know about KB QB
    refused(full, declare("veinte", "KC QC"), "cuarenta-first")


def test_hidden_revoke_passes_live_and_fails_with_the_whole_hand() -> None:
    full = position(["5C", "2C AD", "6D", "6S"])
    live = position([["5C"], [None, None], [None], [None]])
    for state in (full, live):
        state.apply(play("5C"))
    live.apply(play("AD"))
    refused(full, play("AD"), "must-follow-suit")
