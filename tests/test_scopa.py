"""Scopa: random whole matches (full information and a live view in parallel), observations,
presets, flags and bad input. Exact rule cases are in test_scopa_rules.py and
test_scopa_scoring.py."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pcards.cards import ITALIAN_40, Card, card
from p2pcards.games.base import (
    Action,
    BadPlayerCount,
    IllegalMove,
    Phase,
    UnknownFlag,
    UnknownVariant,
)
from p2pcards.games.scopa import SPEC, BadSeat, ScopaConfig, ScopaMatch

CASES = [(preset, players) for preset in SPEC.presets for players in SPEC.preset_players(preset)]
CODES = {c.code for c in ITALIAN_40}
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def _codes_in(data: Any) -> set[str]:
    """Every card code found anywhere in a plain-data observation."""
    if isinstance(data, str):
        return {data} & CODES
    if isinstance(data, dict):
        return set().union(*(_codes_in(v) for v in data.values())) if data else set()
    if isinstance(data, list | tuple):
        return set().union(*(_codes_in(v) for v in data)) if data else set()
    return set()


def _check_accounting(state: ScopaMatch, deck: list[Card]) -> None:
    """Hands + table + capture piles + undealt stock are exactly this hand's deck."""
    where: list[Card] = [c for seat in range(state.config.players) for c in state.hand(seat) if c]
    where += list(state.table)
    where += [c for side in range(state.num_sides) for c in state.captured(side)]
    where += deck[len(deck) - state.stock_size :]
    assert len(where) == len(ITALIAN_40)
    assert Counter(where) == Counter(ITALIAN_40.cards)


def _check_observations(state: ScopaMatch) -> None:
    """No observation shows a card other than the seat's own hand and the table."""
    for seat in range(state.config.players):
        obs = state.observation(seat)
        allowed = {c.code for c in state.hand(seat) if c} | {c.code for c in state.table}
        assert _codes_in(obs) <= allowed
        assert obs["hand_sizes"] == [len(state.hand(s)) for s in range(state.config.players)]


def _probe_illegal(state: ScopaMatch, legal: list[Action], rng: random.Random) -> None:
    """A random candidate play is accepted exactly when it is listed as legal, and a refused one
    leaves the state as it was."""
    hand = [c for c in state.hand(state.to_act) if c]
    table = list(state.table)
    size = rng.randint(0, min(4, len(table)))
    candidate = Action("play", rng.choice(hand), tuple(sorted(rng.sample(table, size))))
    trial = state.copy()
    before = trial.observation(state.to_act)
    try:
        trial.apply(candidate)
    except IllegalMove as exc:
        assert candidate not in legal, exc
        assert exc.rule and exc.seat == state.to_act
        assert trial.observation(state.to_act) == before
    else:
        assert candidate in legal


def play_match(
    config: ScopaConfig, seed: int, viewer: int | None = None, max_hands: int = 60
) -> ScopaMatch:
    """Play a whole match with random shuffles and random legal plays (full information). With a
    ``viewer``, a live view of that seat follows the same match and must agree on everything."""
    rng = random.Random(seed)
    full = SPEC.new_match(config)
    live = SPEC.new_match(config) if viewer is not None else None
    assert isinstance(full, ScopaMatch)
    assert live is None or isinstance(live, ScopaMatch)
    deck: list[Card] = []
    banked = [0] * full.num_sides
    while not full.match_over:
        assert full.hand_number < max_hands
        if full.phase is Phase.SHUFFLE:
            deck = list(ITALIAN_40.cards)
            rng.shuffle(deck)
            full.begin_hand()
            if live:
                live.begin_hand()
        elif full.phase is Phase.CHANCE:
            steps = full.pending_chance()
            full.complete_chance([deck[s.position] for s in steps])
            if live:
                assert viewer is not None and live.pending_chance() == steps
                live.complete_chance(
                    [deck[s.position] if s.visible(viewer) else None for s in steps]
                )
        elif full.phase is Phase.ACTION:
            legal = full.legal_actions()
            assert legal == sorted(set(legal))
            if rng.random() < 0.2:
                _probe_illegal(full, legal, rng)
            action = rng.choice(legal)
            full.apply(action)
            if live:
                live.apply(action)
        else:
            result = full.hand_result()
            _check_hand_totals(full, result.points, result.lines)
            if live:
                assert live.hand_result() == result
            banked = [b + p for b, p in zip(banked, result.points, strict=True)]
            full.next_hand()
            if live:
                live.next_hand()
            assert list(full.match_scores) == banked
        if full.phase in (Phase.ACTION, Phase.CHANCE, Phase.HAND_OVER):
            _check_accounting(full, deck)
            if rng.random() < 0.3:
                _check_observations(full)
        if live:
            assert viewer is not None
            assert live.phase is full.phase
            assert live.observation(viewer) == full.observation(viewer)
            assert live.hand_known(viewer)
    winner = full.winner
    assert winner is not None
    assert max(full.match_scores) >= config.target
    assert full.match_scores.count(full.match_scores[winner]) == 1
    if live:
        assert live.match_scores == full.match_scores and live.winner == winner
    return full


def _check_hand_totals(state: ScopaMatch, points: tuple[int, ...], lines: Any) -> None:
    """Per hand: the breakdown adds up and counts every captured card."""
    by_name = {ln.category: ln for ln in lines}
    expected = ["cards", "denari", "settebello", "primiera", "scope"]
    expected += ["napola"] * state.config.napola + ["rebello"] * state.config.rebello
    assert list(by_name) == expected
    assert sum(by_name["cards"].values) == len(ITALIAN_40) - len(state.table)
    assert sum(by_name["denari"].values) == sum(1 for c in ITALIAN_40 if c.suit == "D") - sum(
        1 for c in state.table if c.suit == "D"
    )
    assert sum(by_name["settebello"].values) == (card("7D") not in state.table)
    for side in range(state.num_sides):
        assert points[side] == sum(ln.points[side] for ln in lines)
        assert points[side] >= 0
        if not state.config.stop_at_target:
            assert by_name["scope"].points[side] == state.scope_count(side)
    if state.table:  # only when nobody captured at all
        assert state.last_capturer is None


@pytest.mark.parametrize(("preset", "players"), CASES)
@settings(max_examples=25, deadline=None)
@given(seed=SEEDS)
def test_random_matches_full_and_live(preset: str, players: int, seed: int) -> None:
    config = SPEC.preset(preset, players=players)
    play_match(config, seed, viewer=seed % players)


@pytest.mark.parametrize("flags", [{"sum_choice": "fewest_cards"}, {"target": 21}])
@settings(max_examples=10, deadline=None)
@given(seed=SEEDS, players=st.sampled_from([2, 3, 4]))
def test_random_matches_other_flags(flags: dict[str, object], seed: int, players: int) -> None:
    config = SPEC.preset("classic", players=players, **flags)
    play_match(config, seed, viewer=(seed >> 3) % players)


def test_deal_rounds_per_player_count() -> None:
    # 2 players: 6 deals (4 table + 6, then 5 x 6); 3 players: 4 deals (4 + 9, then 3 x 9);
    # 4 players: 3 deals (4 + 12, then 2 x 12).
    for players, rounds in ((2, 6), (3, 4), (4, 3)):
        state = SPEC.new_match(SPEC.preset("classic", players=players))
        rng = random.Random(players)
        deck = list(ITALIAN_40.cards)
        state.begin_hand()
        deals = 0
        positions: list[int] = []
        while state.phase is not Phase.HAND_OVER:
            if state.phase is Phase.CHANCE:
                deals += 1
                steps = state.pending_chance()
                positions += [s.position for s in steps]
                state.complete_chance([deck[s.position] for s in steps])
            else:
                state.apply(rng.choice(state.legal_actions()))
        assert deals == rounds
        assert positions == list(range(40))


def test_copy_is_independent() -> None:
    state = ScopaMatch.from_position(SPEC.preset("classic"), ["7D KC", "2B 3S"], "3C 4S", stock=6)
    twin = state.copy()
    twin.apply(Action("play", card("7D"), (card("3C"), card("4S"))))
    assert state.table == (card("3C"), card("4S"))
    assert state.hand(0) == (card("7D"), card("KC"))
    assert state.scope_count(0) == 0 and twin.scope_count(0) == 1
    assert state.to_act == 0 and twin.to_act == 1


def test_observation_contents() -> None:
    state = ScopaMatch.from_position(
        SPEC.preset("classic", players=3),
        ["7D KC", "2B 3S", "AS JB"],
        "3C 4S",
        captured=["5D 5C", "", "QS QB 6B"],
        scope=[2],
        last_capturer=2,
        stock=9,
        to_act=0,
    )
    assert state.observation(1) == {
        "game": "scopa",
        "seat": 1,
        "side": 1,
        "hand_number": 0,
        "phase": "action",
        "first_player": 0,
        "to_act": 0,
        "hand": ["2B", "3S"],
        "hand_sizes": [2, 2, 2],
        "table": ["3C", "4S"],
        "captured": [2, 0, 3],
        "scope": [0, 0, 1],
        "stock": 9,
        "last_capturer": 2,
        "match_scores": [0, 0, 0],
        "redeals": 0,
    }


# ----------------------------------------------------------------------- presets, flags, input


def test_spec_shape() -> None:
    assert SPEC.name == "scopa" and SPEC.default_preset == "classic"
    assert SPEC.player_counts == (2, 3, 4)
    assert set(SPEC.presets) == {"classic", "napola", "italian"}
    assert set(SPEC.preset_docs) == set(SPEC.presets)
    assert SPEC.preset_players("italian") == (2,)
    assert SPEC.preset_players("napola") == (2, 3, 4)
    assert [f.name for f in SPEC.flags] == [
        "ties",
        "denari_needs_six",
        "primiera_needs_all_suits",
        "napola",
        "rebello",
        "sum_choice",
        "redeal_three_kings",
        "target",
        "stop_at_target",
    ]
    assert all(f.description for f in SPEC.flags)


def test_presets_follow_their_texts() -> None:
    classic = SPEC.preset()
    assert (classic.players, classic.ties, classic.napola, classic.target) == (2, "each", False, 11)
    napola = SPEC.preset("napola", players=3)
    assert (napola.ties, napola.denari_needs_six, napola.napola, napola.rebello) == (
        "none",
        True,
        True,
        True,
    )
    assert napola.sum_choice == "free"
    italian = SPEC.preset("italian")
    assert italian.redeal_three_kings and italian.primiera_needs_all_suits
    assert italian.stop_at_target and italian.ties == "none" and italian.players == 2


@pytest.mark.parametrize(("preset", "players"), CASES)
def test_config_wire_round_trip(preset: str, players: int) -> None:
    config = SPEC.preset(preset, players=players)
    assert SPEC.config_from_wire(config.to_wire()) == config


def test_unknown_preset() -> None:
    with pytest.raises(UnknownVariant, match="'tresette'"):
        SPEC.preset("tresette")


def test_bad_flags() -> None:
    with pytest.raises(UnknownFlag, match="'napoli'"):
        SPEC.preset("classic", napoli=True)
    with pytest.raises(UnknownFlag, match="15"):
        SPEC.preset("classic", target=15)
    with pytest.raises(UnknownFlag, match="'some'"):
        SPEC.preset("classic", ties="some")
    with pytest.raises(UnknownFlag, match="'maybe'"):
        ScopaConfig(players=2, ties="maybe")
    with pytest.raises(UnknownFlag, match="'yes'"):
        ScopaConfig(players=2, napola="yes")  # type: ignore[arg-type]


def test_bad_player_counts() -> None:
    with pytest.raises(BadPlayerCount, match="5"):
        SPEC.preset("classic", players=5)
    with pytest.raises(BadPlayerCount, match="3"):
        SPEC.preset("italian", players=3)
    with pytest.raises(BadPlayerCount, match="1"):
        ScopaConfig(players=1)
    with pytest.raises(BadPlayerCount, match="6"):
        SPEC.config_from_wire({**SPEC.preset().to_wire(), "players": 6})


def test_bad_actions_name_the_problem() -> None:
    state = ScopaMatch.from_position(SPEC.preset(), ["7D KC", "2B 3S"], "3C 4S", stock=6)
    before = state.observation(0)
    cases = [
        (Action("draw"), "unknown-action", "'draw'"),
        (Action("play", card("7D"), value="x"), "malformed-action", "value"),
        (Action("play"), "card-hidden", "name the card"),
        (Action("play", card("2B")), "card-not-in-hand", "2B"),
        (Action("play", card("7D"), (card("4S"), card("3C"))), "capture-not-sorted", "4S 3C"),
        (Action("play", card("7D"), (card("3S"), card("4S"))), "capture-card-not-on-table", "3S"),
    ]
    for action, rule, fragment in cases:
        with pytest.raises(IllegalMove, match=fragment) as info:
            state.apply(action)
        assert info.value.rule == rule and info.value.seat == 0
        assert state.observation(0) == before


def test_from_wire_action_round_trip() -> None:
    action = Action("play", card("7D"), (card("3C"), card("4S")))
    assert action.to_wire() == {"kind": "play", "card": "7D", "cards": ["3C", "4S"]}
    assert Action.from_wire(action.to_wire()) == action
    assert Action("play", card("KB")).to_wire() == {"kind": "play", "card": "KB"}


def test_observation_of_a_missing_seat() -> None:
    state = SPEC.new_match(SPEC.preset())
    with pytest.raises(BadSeat, match="seat 2 "):
        state.observation(2)
