"""The trick games' and Scopa's faster views and plays give exactly what the plain code gives,
over random reachable states of random variants.

- An action that is one of the objects ``legal_actions`` listed for the very state is played
  without being checked again: playing it must leave the state exactly as playing an equal
  action made afresh (which goes through every check) leaves a copy of it.
- That listing is private and forgotten at every change: an action appended to the list a
  caller got, or an action listed for an earlier state, is still checked.
- Each observation is compared with one written plainly from the engine's public accessors.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pcards.games import get_game
from p2pcards.games.base import Action, IllegalMove, MatchState, Phase
from p2pcards.offline.simulate import RandomDealer, fulfil_chance

GAMES = [("scopa", "classic", 2), ("scopa", "napola", 3), ("scopa", "italian", 2),
         ("scopa", "classic", 4), ("tressette", "classic", 3), ("tressette", "three-games", 4),
         ("tressette", "signals", 3), ("tresette", "classic", 4),
         ("tresette", "buongioco", 4), ("tute", "classic", 4), ("tute", "free-cuarenta", 4),
         ("tute", "partner-relief", 4), ("briscola", "classic", 2), ("briscola", "classic", 3),
         ("briscola", "italian", 4)]
"""(game, preset or a test variant of :data:`FLAGS`, players) rows the properties run on."""

FLAGS: dict[tuple[str, str], dict[str, object]] = {
    ("tressette", "signals"): {"signals": True},
    ("tresette", "buongioco"): {"declarations": "buongioco"},
}
"""Variants beyond the presets: flags over the game's default preset."""


def config_of(game: str, preset: str, players: int) -> Any:
    """The config of a row of :data:`GAMES`."""
    flags = FLAGS.get((game, preset))
    if flags is not None:
        return get_game(game).preset(players=players, **flags)
    return get_game(game).preset(preset, players=players)


def decisions(game: str, config: Any, seed: int, limit: int) -> Iterator[tuple[MatchState, int]]:
    """States of one random playout where a seat must act (up to ``limit``), with the index of
    the legal action played next; the caller may play on copies."""
    spec = get_game(game)
    state = spec.new_match(config)
    rng = random.Random(seed)
    dealer = RandomDealer(rng)
    seen = 0
    while seen < limit:
        if dealer.step(state):
            continue
        if state.phase is not Phase.ACTION:
            return
        seen += 1
        legal = state.legal_actions()
        pick = rng.randrange(len(legal))
        yield state, pick
        state.apply(legal[pick])


def fresh(action: Action) -> Action:
    """An action equal to ``action`` but another object, made from its wire form (its cards are
    the interned ones: see :class:`~p2pcards.cards.Card`)."""
    return Action.from_wire(action.to_wire())


def snapshot(state: Any) -> tuple[object, ...]:
    """Everything a state shows: every seat's observation, its legal actions, its result."""
    seats = range(state.config.players)
    result = state.hand_result() if state.phase is Phase.HAND_OVER else None
    legal = state.legal_actions() if state.phase is Phase.ACTION else []
    return (state.phase, [repr(state.observation(s)) for s in seats], legal, result)


@settings(max_examples=20, deadline=None)
@given(row=st.sampled_from(GAMES), seed=st.integers(0, 2**32 - 1))
def test_a_listed_play_leaves_the_state_a_checked_play_leaves(row: tuple[str, str, int],
                                                              seed: int) -> None:
    game, preset, players = row
    config = config_of(game, preset, players)
    for state, pick in decisions(game, config, seed, limit=120):
        listed_copy, checked_copy = state.copy(), state.copy()  # type: ignore[attr-defined]
        action = listed_copy.legal_actions()[pick]
        listed_copy.apply(action)
        checked_copy.apply(fresh(action))
        assert snapshot(listed_copy) == snapshot(checked_copy)


@settings(max_examples=15, deadline=None)
@given(row=st.sampled_from(GAMES), seed=st.integers(0, 2**32 - 1))
def test_a_caller_cannot_make_a_play_legal_through_the_listing(row: tuple[str, str, int],
                                                              seed: int) -> None:
    game, preset, players = row
    config = config_of(game, preset, players)
    for state, pick in decisions(game, config, seed, limit=60):
        seat = state.to_act
        other = (seat + 1) % players
        foreign = [c for c in state.hand(other) if c is not None]  # type: ignore[attr-defined]
        twin = state.copy()  # type: ignore[attr-defined]
        legal = twin.legal_actions()
        if foreign:
            stolen = Action("play", foreign[0], legal[0].cards)
            legal.append(stolen)
            with pytest.raises(IllegalMove):
                twin.apply(stolen)
        played = legal[pick]
        twin.apply(played)
        if twin.phase is Phase.ACTION and twin.to_act == seat:
            continue  # never in these games: the turn passes on after a play
        if twin.phase is Phase.ACTION:
            with pytest.raises(IllegalMove):  # listed for the state before: checked now
                twin.apply(played)


def scopa_observation(state: Any, seat: int) -> dict[str, Any]:
    """Scopa's observation written plainly from the engine's accessors."""
    players = state.config.players
    sides = 2 if players == 4 else players
    return {
        "game": "scopa",
        "seat": seat,
        "side": state.side_of(seat),
        "hand_number": state.hand_number,
        "phase": state.phase.value,
        "first_player": state.first_player,
        "to_act": state.to_act if state.phase is Phase.ACTION else None,
        "hand": sorted(c.code for c in state.hand(seat) if c is not None),
        "hand_sizes": [len(state.hand(s)) for s in range(players)],
        "table": [c.code for c in state.table],
        "captured": [len(state.captured(s)) for s in range(sides)],
        "scope": [state.scope_count(s) for s in range(sides)],
        "stock": state.stock_size,
        "last_capturer": state.last_capturer,
        "match_scores": list(state.match_scores),
        "redeals": state.redeals,
    }


def tressette_observation(state: Any, seat: int) -> dict[str, Any]:
    """Tressette's observation written plainly (each play's wire form made afresh)."""
    own = state.hand(seat)
    codes = [c.code for c in own if c is not None]
    sides = len(state.match_scores)
    return {
        "seat": seat,
        "phase": state.phase.value,
        "hand_number": state.hand_number,
        "to_act": state.to_act if state.phase is Phase.ACTION else None,
        "leader": state._leader,
        "hand": codes,
        "hand_unknown": len(own) - len(codes),
        "hand_sizes": [len(state.hand(s)) for s in range(state.config.players)],
        "trick": [p.to_wire() for p in state._trick],
        "last_trick": [p.to_wire() for p in state._last_trick],
        "tricks_done": state._tricks_done,
        "captured_counts": [len(state.captured(s)) for s in range(sides)],
        "declarations": [
            {"seat": s, "value": k, "cards": [c.code for c in cs]}
            for s, k, cs in state._declared
        ],
        "good_play": [s for s in range(state.config.players) if state._good_play[s]],
        "announcements": {str(s): v for s, v in enumerate(state._announced) if v},
        "announce_due": state.announce_due,
        "match_scores": list(state.match_scores),
    }


def tute_observation(state: Any, seat: int) -> dict[str, Any]:
    """Tute's observation written plainly (the tricks' codes read afresh)."""
    trump = state._trump_card
    last = None
    if state._last_trick:
        last = {"cards": [[s, c.code] for s, c in state._last_trick],
                "winner": state._last_winner}
    return {
        "game": "tute",
        "seat": seat,
        "side": seat % 2,
        "players": state.config.players,
        "phase": state.phase.value,
        "hand_number": state.hand_number,
        "dealer": state.dealer,
        "to_act": state.to_act if state.phase is Phase.ACTION else None,
        "hand": [c.code for c in state.hand(seat) if c is not None],
        "hand_sizes": [len(state.hand(s)) for s in range(state.config.players)],
        "shown_cards": [[s, code] for s, p in enumerate(state._public)
                        for code in sorted(c.code for c in p)],
        "trump_card": trump.code if trump is not None else None,
        "trump_suit": trump.suit if trump is not None else None,
        "trick": [[s, c.code] for s, c in state.trick],
        "last_trick": last,
        "tricks_done": state._tricks_done,
        "played": [c.code for c in state._played],
        "captured_points": list(state.card_points()),
        "declarations": [d.to_wire() for d in state._declarations],
        "may_declare": state.may_declare,
        "hands": state.config.hands,
        "match_scores": list(state._hands_won),
        "winner": state.winner,
    }


def briscola_observation(state: Any, seat: int) -> dict[str, Any]:
    """Briscola's observation written plainly; its last trick is checked on its own by
    :func:`test_briscola_shows_the_trick_just_taken_as_the_last_one`."""
    n = state.config.players
    partner_hand: list[str] = []
    if state.partners_looked:
        partner_hand = [c.code for c in state.hand((seat + 2) % 4) if c is not None]
    last_trick = state.observation(seat)["last_trick"]
    trump = state.trump_card
    sides = len(state.match_scores)
    return {
        "game": "briscola",
        "seat": seat,
        "side": state.side_of(seat),
        "players": n,
        "phase": state.phase.value,
        "hand_number": state.hand_number,
        "first_player": state.first_player,
        "to_act": state.to_act if state.phase is Phase.ACTION else None,
        "hand": [c.code for c in state.hand(seat) if c is not None],
        "hand_sizes": [len(state.hand(s)) for s in range(n)],
        "trump_card": trump.code if trump is not None else None,
        "trump_suit": trump.suit if trump is not None else None,
        "trump_taken_by": state.trump_taken_by,
        "stock_size": state.stock_size,
        "trick": [[s, c.code] for s, c in state.trick],
        "last_trick": last_trick,
        "captured_cards": [len(state.captured(s)) for s in range(sides)],
        "captured_points": list(state.card_points()),
        "partner_hand": partner_hand,
        "match_format": state.config.match,
        "match_scores": list(state.match_scores),
        "hands_won": list(state.hands_won),
        "winner": state.winner,
    }


REFERENCE_VIEWS = {"scopa": scopa_observation, "briscola": briscola_observation,
                   "tressette": tressette_observation, "tresette": tressette_observation,
                   "tute": tute_observation}


@settings(max_examples=20, deadline=None)
@given(row=st.sampled_from(GAMES), seed=st.integers(0, 2**32 - 1))
def test_every_observation_is_the_plain_one(row: tuple[str, str, int], seed: int) -> None:
    game, preset, players = row
    config = config_of(game, preset, players)
    reference = REFERENCE_VIEWS[game]
    for state, _ in decisions(game, config, seed, limit=120):
        for seat in range(players):
            seen = state.observation(seat)
            assert seen == reference(state, seat)
            assert [type(v) for v in seen.values()] == [
                type(v) for v in reference(state, seat).values()]


@settings(max_examples=10, deadline=None)
@given(row=st.sampled_from([("briscola", "classic", 2), ("briscola", "italian", 4),
                            ("briscola", "classic", 3)]),
       seed=st.integers(0, 2**32 - 1))
def test_briscola_shows_the_trick_just_taken_as_the_last_one(row: tuple[str, str, int],
                                                             seed: int) -> None:
    game, preset, players = row
    config = config_of(game, preset, players)
    last: dict[str, Any] | None = None
    before: list[list[Any]] = []
    hand = -1
    for state, pick in decisions(game, config, seed, limit=150):
        if state.hand_number != hand:
            hand, last = state.hand_number, None
        elif len(before) == players:  # the play before closed a trick, taken by the leader now
            last = {"cards": before, "winner": state.to_act}
        assert state.observation(state.to_act)["last_trick"] == last
        played = state.legal_actions()[pick].card
        before = [[s, c.code] for s, c in state.trick] + [[state.to_act, played.code]]


def scrambled(value: Any) -> None:
    """Empty every list and map of an observation in place, at every depth."""
    items = list(value.values()) if isinstance(value, dict) else list(value)
    for item in items:
        if isinstance(item, list | dict):
            scrambled(item)
    value.clear()


@settings(max_examples=20, deadline=None)
@given(row=st.sampled_from(GAMES), seed=st.integers(0, 2**32 - 1))
def test_observations_kept_between_changes_stay_the_plain_ones(row: tuple[str, str, int],
                                                               seed: int) -> None:
    """At every step of a playout (shuffle, deal, decisions, hand over, match over), each
    seat's observation is the plain one, even after a caller emptied the lists and maps of
    the observations handed out before, and after a copy of the state played on."""
    game, preset, players = row
    config = config_of(game, preset, players)
    reference = REFERENCE_VIEWS[game]
    state = get_game(game).new_match(config)
    rng = random.Random(seed)
    dealer = RandomDealer(rng)
    for _ in range(400):
        for seat in range(players):
            assert state.observation(seat) == reference(state, seat)
            scrambled(state.observation(seat))
            assert state.observation(seat) == reference(state, seat)
        if state.match_over:
            return
        if dealer.step(state):
            continue
        legal = state.legal_actions()
        twin = state.copy()  # type: ignore[attr-defined]
        twin.apply(twin.legal_actions()[rng.randrange(len(legal))])
        for seat in range(players):
            assert twin.observation(seat) == reference(twin, seat)
        state.apply(legal[rng.randrange(len(legal))])


@settings(max_examples=15, deadline=None)
@given(row=st.sampled_from([row for row in GAMES if row[0] in ("tressette", "tresette")]),
       seed=st.integers(0, 2**32 - 1))
def test_a_seats_own_view_shows_the_plain_observations(row: tuple[str, str, int],
                                                       seed: int) -> None:
    """A seat's view (the other hands unknown), following a full-information match action by
    action, shows every seat the plain observation: unknown cards are never kept as codes."""
    game, preset, players = row
    config = config_of(game, preset, players)
    reference = REFERENCE_VIEWS[game]
    rng = random.Random(seed)
    full = get_game(game).new_match(config)
    viewer = rng.randrange(players)
    view = get_game(game).new_match(config)
    dealer = RandomDealer(rng)
    for _ in range(300):
        if full.match_over:
            return
        if full.phase is Phase.CHANCE:
            steps = view.pending_chance()
            dealt = fulfil_chance(full, dealer.shuffled)
            view.complete_chance([c if step.visible(viewer) else None
                                  for step, c in zip(steps, dealt, strict=True)])
        elif dealer.step(full):
            if full.phase is Phase.CHANCE:  # a shuffle: the view begins its hand too
                view.begin_hand()
            elif view.phase is Phase.HAND_OVER:
                view.next_hand()
        else:
            legal = full.legal_actions()
            action = legal[rng.randrange(len(legal))]
            full.apply(action)
            view.apply(fresh(action))
        for seat in range(players):
            assert view.observation(seat) == reference(view, seat)
