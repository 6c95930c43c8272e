"""Calabrasella: hand-computed cases for every rule of italian-card-games.txt (bidding and the
redeal, the call, the private exchange, the widow, discards, following suit, scoring, chips,
match end)."""

from __future__ import annotations

import pytest
from calabrasella_views import SEAT0, SEAT1, SEAT2, SWEEP, WIDOW, Views, exchange

from p2pcards.cards import HIDDEN, card, cards
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
from p2pcards.games.calabrasella import SPEC, CalabrasellaConfig, Stage
from p2pcards.games.calabrasella_rules import (
    ORDER,
    call_level,
    callable_cards,
    card_points,
    chip_deltas,
    settle,
)
from p2pcards.games.tricks import trick_winner

# ---------------------------------------------------------------- deck, points, ranking


def test_points_of_the_whole_deck_are_32_plus_3_for_the_last_trick() -> None:
    deck = SPEC.new_match(SPEC.preset()).deck
    assert len(deck) == 40
    assert card_points(deck.cards) == 32
    assert card_points(cards("AD")) == 3
    assert card_points(cards("3D 2C KS QB JD")) == 5
    assert card_points(cards("7D 6D 5D 4D")) == 0


def test_ranking_3_2_a_k_q_j_7_to_4_no_trumps() -> None:
    assert trick_winner(list(cards("AD 2D 3D")), ORDER) == 2
    assert trick_winner(list(cards("KD AD 2D")), ORDER) == 2
    assert trick_winner(list(cards("JD QD KD")), ORDER) == 2
    assert trick_winner(list(cards("4D 7D 5D")), ORDER) == 1
    assert trick_winner(list(cards("4D 3C 3S")), ORDER) == 0  # other suits never win


# ---------------------------------------------------------------- deal and bidding


def test_deal_reveals_36_cards_and_leaves_the_widow_unrequested() -> None:
    state = SPEC.new_match(SPEC.preset())
    state.begin_hand()
    steps = state.pending_chance()
    assert [s.position for s in steps] == list(range(36))
    assert all(s.zone is Zone.HAND and s.visible_to == frozenset({s.seat}) for s in steps)
    assert [s.seat for s in steps[:6]] == [0, 1, 2, 0, 1, 2]


def test_dealer_left_bids_first_and_first_play_ends_bidding() -> None:
    views = Views.deal()
    assert views.full.dealer == 2 and views.full.to_act == 0
    assert views.full.legal_actions() == [Action("bid"), Action("pass")]
    views.honest(Action("pass"), Action("bid"))
    assert views.full.declarer == 1 and views.full.stage is Stage.CALL
    assert views.full.to_act == 1


def test_all_pass_redeals_by_the_next_dealer_same_hand_number() -> None:
    views = Views.deal()
    views.honest(Action("pass"), Action("pass"), Action("pass"))
    state = views.full
    assert state.phase is Phase.SHUFFLE
    assert state.hand_number == 0 and state.deals == 1
    assert state.dealer == 0
    assert state.chips == (100, 100, 100)
    state.begin_hand()
    assert state.pending_chance()[0].seat == 1
    state.complete_chance([views.deck[i] for i in range(36)])
    assert state.to_act == 1


# ---------------------------------------------------------------- the call


def test_call_a_3_not_held() -> None:
    assert call_level(SEAT0) == 3
    assert callable_cards(SEAT0) == [card("3B")]
    views = Views.deal()
    views.honest(Action("bid"))
    assert views.full.legal_actions() == [Action("call", cards=(card("3B"),))]


def test_call_a_2_when_holding_all_four_3s() -> None:
    hand = cards("3D 3C 3S 3B 2D 2C AD KD QD JD 7D 6D")
    assert call_level(hand) == 2
    assert callable_cards(hand) == list(cards("2S 2B"))
    assert callable_cards(cards("3D 3C 3S 3B 2D 2C 2S 2B AD KD QD JD")) == list(
        cards("AC AS AB"))
    assert callable_cards(cards("3D 3C 3S 3B 2D 2C 2S 2B AD AC AS AB")) == list(
        cards("KD KC KS KB"))


def test_calling_a_2_while_missing_a_3_is_refused() -> None:
    hands = (cards("3D 3C 3S 2B AD KD QD JD 7D 6D 5D 4D"),
             cards("3B 2D AC KC QC JC 7C 6C 5C 4C 2C AS"),
             cards("2S KS QS JS 7S 6S 5S 4S AB KB QB JB"))
    views = Views.deal(hands, cards("7B 6B 5B 4B"))
    views.honest(Action("bid"))
    verdicts = views.act(Action("call", cards=(card("2S"),)))
    assert verdicts["full"] is not None and verdicts["full"].rule == "wrong-call"
    assert verdicts["full"].seat == 0
    # seat 1 holds the missing 3B: it knows at once; seat 2 cannot tell
    assert verdicts[1] is not None and verdicts[1].rule == "wrong-call"
    assert verdicts[2] is None and verdicts["observer"] is None


def test_a_call_below_the_rank_rules_is_refused_by_everyone() -> None:
    views = Views.deal()
    views.honest(Action("bid"))
    verdicts = views.act(Action("call", cards=(card("5B"),)))
    assert all(v is not None and v.rule == "wrong-call" for v in verdicts.values())


# ---------------------------------------------------------------- the exchange


def test_holder_gives_the_called_card_and_gets_a_card_back_in_secret() -> None:
    views = Views.deal()
    views.honest(Action("bid"), Action("call", cards=(card("3B"),)))
    assert views.full.to_act == 1
    assert views.full.legal_actions() == [Action("give", card=card("3B"))]
    give = Action("give", card=card("3B"))
    assert views.full.card_use(give) == CardUse(passed=(card("3B"),), to=0)
    views.honest(give)
    assert views.full.holder == 1 and views.full.to_act == 0
    back = Action("return", card=card("JD"))
    assert views.full.card_use(back) == CardUse(passed=(card("JD"),), to=1)
    views.honest(back)
    full = views.full
    assert card("3B") in full.hand(0) and card("JD") in full.hand(1)
    assert full.stage is Stage.DISCARD and full.to_act == 0
    obs = [v.observation(s) for s, v in enumerate(views.seats)]
    assert (obs[0]["passed"], obs[0]["returned"]) == ("3B", "JD")
    assert (obs[1]["passed"], obs[1]["returned"]) == ("3B", "JD")
    assert (obs[2]["passed"], obs[2]["returned"]) == (None, None)
    # the third seat's view holds neither card: two unknown slots moved
    third = views.seats[2]
    assert third.hand(0).count(None) == 12 and third.hand(1).count(None) == 12
    assert card("3B") not in third.hand(0) and card("JD") not in third.hand(1)


def test_the_declarer_may_hand_back_the_called_card_itself() -> None:
    # calabrasella.md §5: the text's "any unwanted card in their hand" includes the called card
    views = Views.deal()
    views.honest(Action("bid"), Action("call", cards=(card("3B"),)),
                 Action("give", card=card("3B")))
    back = Action("return", card=card("3B"))
    assert back in views.full.legal_actions()
    views.honest(back)
    assert card("3B") in views.full.hand(1) and card("3B") not in views.full.hand(0)
    assert views.full.stage is Stage.DISCARD


def test_non_holder_denies_then_the_holder_gives() -> None:
    views = Views.deal((SEAT0, SEAT2, SEAT1), WIDOW)
    views.honest(Action("bid"), Action("call", cards=(card("3B"),)))
    assert views.full.legal_actions() == [Action("deny")]
    views.honest(Action("deny"))
    assert views.full.to_act == 2
    views.honest(Action("give", card=card("3B")))
    assert views.full.holder == 2
    assert views.full.observation(1)["answers"] == {"1": "deny", "2": "give"}


def test_called_card_in_the_widow_nothing_is_passed() -> None:
    seat1 = [c for c in SEAT1 if c != card("3B")] + [card("7S")]
    widow = [card("3B"), *cards("6S 5S 4S")]
    views = Views.deal((SEAT0, seat1, SEAT2), widow)
    views.honest(Action("bid"), Action("call", cards=(card("3B"),)), Action("deny"),
                 Action("deny"))
    full = views.full
    assert full.holder is None and full.stage is Stage.DISCARD and full.to_act == 0
    assert len(full.hand(0)) == 12 and len(full.hand(1)) == 12
    views.honest(Action("discard", cards=cards("QD JD")))
    assert full.widow == tuple(widow)
    views.honest(Action("take", cards=cards("3B 6S")))
    assert card("3B") in full.hand(0)


# ---------------------------------------------------------------- discard and widow


def test_discard_is_face_down_and_the_widow_is_turned_only_then() -> None:
    views = Views.deal()
    exchange(views)
    discard = Action("discard", cards=cards("QD"))
    assert views.full.card_use(discard) == CardUse(hidden=(card("QD"),))
    views.act(discard)
    # the widow positions were requested only now, for everyone
    assert views.full.widow == tuple(WIDOW)
    for view in views.seats:
        assert view.widow == tuple(WIDOW)
    assert views.seats[0].observation(0)["discards"] == ["QD"]
    assert views.seats[1].observation(1)["discards"] == []
    assert views.full.observation(2)["discards"] == []
    assert views.full.observation(2)["discard_count"] == 1
    assert views.full.legal_actions() == sorted(
        Action("take", cards=(c,)) for c in sorted(WIDOW))


def test_widow_chance_steps_follow_the_discard() -> None:
    views = Views.deal()
    exchange(views)
    state = views.full.copy()
    state.apply(Action("discard", cards=cards("QD KD")))
    steps = state.pending_chance()
    assert [(s.position, s.zone, s.visible_to) for s in steps] == [
        (p, Zone.WIDOW, ALL_SEATS) for p in (36, 37, 38, 39)]


@pytest.mark.parametrize("count", [0, 5])
def test_discard_count_is_one_to_four(count: int) -> None:
    views = Views.deal()
    exchange(views)
    hand = [c for c in views.full.hand(0) if c is not None]
    verdicts = views.act(Action("discard", cards=tuple(hand[:count])))
    assert all(v is not None and v.rule == "discard-count" for v in verdicts.values())


def test_take_exactly_as_many_widow_cards_as_discarded() -> None:
    views = Views.deal()
    exchange(views)
    views.honest(Action("discard", cards=cards("QD KD")))
    too_few = views.act(Action("take", cards=cards("7S")))
    assert all(v is not None and v.rule == "take-count" for v in too_few.values())
    stray = views.act(Action("take", cards=cards("7S QD")))
    assert all(v is not None and v.rule == "not-in-widow" for v in stray.values())
    views.honest(Action("take", cards=cards("7S 6S")))
    assert views.full.stage is Stage.TRICKS and views.full.to_act == 1
    assert len(views.full.hand(0)) == 12
    aside = views.full.set_aside()
    assert sorted(c for c in aside if c is not None) == sorted(cards("QD KD 5S 4S"))
    # the other seats see the discards as unknown and the unused widow cards as public
    assert views.seats[1].set_aside().count(None) == 2


def test_discarded_or_unused_widow_card_cannot_be_played() -> None:
    views = Views.deal()
    exchange(views)
    views.honest(Action("discard", cards=cards("QD")), Action("take", cards=cards("7S")))
    views.honest(Action("play", card=card("2B")))
    verdicts = views.act(Action("play", card=card("6S")))  # seat 2: an unused widow card
    assert all(v is not None and v.rule == "card-not-in-hand" for v in verdicts.values())


# ---------------------------------------------------------------- play and scoring


def test_must_follow_suit_in_legal_actions() -> None:
    views = Views.deal()
    exchange(views)
    views.honest(Action("discard", cards=cards("QD")), Action("take", cards=cards("7S")))
    views.honest(Action("play", card=card("2B")))
    # seat 2 has no Bastoni: any card
    assert len(views.full.legal_actions()) == 12
    views.honest(Action("play", card=card("4C")))
    assert views.full.legal_actions() == [Action("play", card=card("3B"))]


def test_sweep_text_rules_34_0_pays_68_undoubled() -> None:
    views = Views.deal()
    exchange(views)
    views.honest(Action("discard", cards=cards("QD")), Action("take", cards=cards("7S")))
    views.play_tricks(SWEEP)
    full = views.full
    assert full.phase is Phase.HAND_OVER
    result = full.hand_result()
    lines = {ln.category: ln for ln in result.lines}
    # QD (1 point) is set aside: 31 card points + 3 for the last trick
    assert lines["card points"].values == (31, 0, 0)
    assert lines["last trick"].values == (3, 0, 0)
    assert lines["hand total"].values == (34, 0, 0)
    assert result.points == (68, -34, -34)
    assert lines["balance"].values == (168, 66, 66)
    assert "set aside" not in lines


def test_sweep_35_0_doubles_when_set_aside_goes_to_the_last_trick() -> None:
    views = Views.deal(config=SPEC.preset("full-count"))
    exchange(views)
    views.honest(Action("discard", cards=cards("QD")), Action("take", cards=cards("7S")))
    views.play_tricks(SWEEP)
    result = views.full.hand_result()
    lines = {ln.category: ln for ln in result.lines}
    assert lines["set aside"].values == (1, 0, 0)
    assert lines["hand total"].values == (35, 0, 0)
    assert result.points == (140, -70, -70)
    # the defenders cannot score the set-aside cards before the audit
    with pytest.raises(Exception, match="discards are not known"):
        views.seats[1].hand_result()
    assert views.seats[0].hand_result() == result


def test_double_zero_flag_doubles_a_shutout_below_35() -> None:
    views = Views.deal(config=SPEC.preset(double="zero"))
    exchange(views)
    views.honest(Action("discard", cards=cards("QD")), Action("take", cards=cards("7S")))
    views.play_tricks(SWEEP)
    assert views.full.hand_result().points == (136, -68, -68)


def test_live_views_agree_with_the_full_result_after_the_sweep() -> None:
    views = Views.deal()
    exchange(views)
    views.honest(Action("discard", cards=cards("QD")), Action("take", cards=cards("7S")))
    views.play_tricks(SWEEP)
    for view in views.live:
        assert view.hand_result() == views.full.hand_result()


def test_settlement_arithmetic_of_the_text() -> None:
    # "the declarer scored 19 points and the [defenders] 16: each defender pays three chips"
    assert chip_deltas(0, 3, 19, 16) == (6, -3, -3)
    # "the declarer scored only 11 and the defenders 24: the declarer pays 26, 13 to each"
    assert chip_deltas(1, 3, 11, 24) == (13, -26, 13)
    assert chip_deltas(2, 3, 17, 17) == (0, 0, 0)
    # 35-0: each payment is 70 chips
    assert chip_deltas(0, 3, 35, 0) == (140, -70, -70)
    assert chip_deltas(0, 3, 0, 35) == (-140, 70, 70)
    assert chip_deltas(0, 3, 32, 0) == (64, -32, -32)
    assert chip_deltas(0, 3, 32, 0, "zero") == (128, -64, -64)
    assert settle((100, 100, 100), (6, -3, -3)) == (106, 97, 97)
    with pytest.raises(ValueError, match="do not sum to zero"):
        settle((100, 100, 100), (6, -3, -2))


# ---------------------------------------------------------------- chips and match end


def _finish_hand(views: Views) -> None:
    exchange(views)
    views.honest(Action("discard", cards=cards("QD")), Action("take", cards=cards("7S")))
    views.play_tricks(SWEEP)


def test_match_of_one_hand_ends_with_the_sole_highest_balance() -> None:
    views = Views.deal(config=SPEC.preset(hands=1, start_chips=50))
    _finish_hand(views)
    views.full.next_hand()
    assert views.full.phase is Phase.MATCH_OVER
    assert views.full.match_scores == (118, 16, 16)
    assert views.full.winner == 0


def test_until_broke_ends_when_a_balance_reaches_zero() -> None:
    views = Views.deal(config=SPEC.preset("to-the-last-chip", start_chips=34))
    _finish_hand(views)
    views.full.next_hand()
    assert views.full.match_scores == (102, 0, 0)
    assert views.full.phase is Phase.MATCH_OVER and views.full.winner == 0


def test_until_broke_goes_on_while_every_seat_has_chips() -> None:
    views = Views.deal(config=SPEC.preset("to-the-last-chip", start_chips=35))
    _finish_hand(views)
    views.full.next_hand()
    assert views.full.match_scores == (103, 1, 1)
    assert views.full.phase is Phase.SHUFFLE
    assert views.full.hand_number == 1 and views.full.deals == 1 and views.full.dealer == 0


def test_flags_presets_and_bad_values() -> None:
    assert SPEC.preset_players("classic") == (3,)
    config = SPEC.preset()
    assert isinstance(config, CalabrasellaConfig)
    assert config.to_wire() == {"players": 3, "start_chips": 100, "hands": 6,
                                "set_aside": "out", "double": "35-0"}
    assert SPEC.config_from_wire(config.to_wire()) == config
    with pytest.raises(BadPlayerCount, match="3 players"):
        SPEC.preset(players=4)
    with pytest.raises(UnknownFlag, match="set_aside"):
        SPEC.preset(set_aside="dealer")
    with pytest.raises(UnknownFlag, match="at least 1"):
        SPEC.preset(start_chips=0)
    with pytest.raises(UnknownFlag, match="0 or more"):
        SPEC.preset(hands=-1)


def test_masked_actions_have_the_same_card_use_shape() -> None:
    views = Views.deal()
    views.honest(Action("bid"), Action("call", cards=(card("3B"),)))
    real = views.full.card_use(Action("give", card=card("3B")))
    hidden = views.full.card_use(Action("give", card=HIDDEN))
    assert (len(real.passed), real.to) == (len(hidden.passed), hidden.to) == (1, 0)


def test_wrong_stage_action_is_named() -> None:
    views = Views.deal()
    with pytest.raises(IllegalMove, match="must bid or pass") as info:
        views.full.apply(Action("play", card=card("3D")))
    assert info.value.rule == "unknown-action"


def test_card_use_outside_its_stage_moves_nothing() -> None:
    views = Views.deal()
    state = views.full
    assert state.card_use(Action("give", card=card("3B"))) == CardUse()
    assert state.card_use(Action("discard", cards=cards("QD"))) == CardUse()
    with pytest.raises(IllegalMove) as info:
        state.apply(Action("give", card=card("3B")))
    assert info.value.rule == "unknown-action" and info.value.seat == 0
