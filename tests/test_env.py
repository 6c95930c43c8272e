"""The PettingZoo environments: PettingZoo's own API and seed tests for every game and player
count, what an agent may see, rewards, and clear errors."""

from __future__ import annotations

import functools
import re
import warnings
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from p2pcards.games import all_games  # noqa: E402
from p2pcards.offline.env import (  # noqa: E402
    CardGameEnv,
    EnvError,
    ObservationEncoder,
    ObservationLayout,
    env,
    raw_env,
)

CASES = [(spec.name, count) for spec in all_games() for count in spec.player_counts]


def _random_episode(e: CardGameEnv, seed: int) -> tuple[list[tuple[str, int]], dict[str, float]]:
    """Play one episode choosing uniformly among the masked actions; the choices and rewards."""
    rng = np.random.default_rng(seed)
    e.reset(seed=seed)
    choices: list[tuple[str, int]] = []
    totals = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter(max_iter=100_000):
        observation, reward, termination, truncation, _ = e.last()
        totals[agent] += reward
        if termination or truncation:
            e.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        action = int(rng.choice(legal))
        choices.append((agent, action))
        e.step(action)
    return choices, totals


@pytest.mark.parametrize(("game", "players"), CASES)
def test_pettingzoo_api_and_seed_tests_pass(game: str, players: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PettingZoo's advice about Dict observation spaces
        api_test(env(game, players=players), num_cycles=300)
        seed_test(functools.partial(env, game, players=players), num_cycles=100)


@pytest.mark.parametrize(("game", "players"), CASES)
def test_equal_seeds_give_equal_episodes(game: str, players: int) -> None:
    first = _random_episode(raw_env(game, players, episode="hand"), seed=11)
    second = _random_episode(raw_env(game, players, episode="hand"), seed=11)
    assert first == second
    assert first[0], "an episode has at least one decision"


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), case=st.sampled_from(CASES))
def test_an_agent_sees_its_own_hand_and_no_other(seed: int, case: tuple[str, int]) -> None:
    game, players = case
    e = raw_env(game, players, episode="hand")
    e.reset(seed=seed)
    layout = e.layout
    has_hand = "hand" in layout.card_keys  # Ziginette deals every card face up: no hand
    block = layout.players + (layout.card_keys.index("hand") if has_hand else 0) * len(layout.deck)
    steps = 0
    for agent in e.agent_iter(max_iter=400):
        observation, _, termination, truncation, info = e.last()
        if termination or truncation:
            e.step(None)
            continue
        seat = e.possible_agents.index(agent)
        vector = observation["observation"]
        if has_hand:
            hand = {layout.deck[i] for i in
                    np.flatnonzero(vector[block:block + len(layout.deck)])}
            assert hand == set(info["observation"]["hand"])
        else:
            assert not info["observation"].get("hand")
        assert vector[seat] == 1.0 and vector[:layout.players].sum() == 1.0
        # Only the acting seat's legal moves are listed, and the mask matches them.
        assert observation["action_mask"].sum() == len(info["legal_actions"])
        for other in e.possible_agents:
            if other != agent:
                assert e.infos[other].get("legal_actions", []) == []
        e.step(int(np.flatnonzero(observation["action_mask"])[0]))
        steps += 1
    assert steps > 0


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), case=st.sampled_from(CASES))
def test_every_observation_key_is_in_the_layout(seed: int, case: tuple[str, int]) -> None:
    """The vector's layout is fixed when the environment is made: later observations bring no
    key it lacks, so nothing a seat sees is silently dropped."""
    game, players = case
    e = raw_env(game, players, episode="hand")
    e.reset(seed=seed)
    layout = e.layout
    known = set(layout.card_keys) | {k for k, _ in layout.number_keys}
    for _agent in e.agent_iter(max_iter=400):
        observation, _, termination, truncation, info = e.last()
        if termination or truncation:
            e.step(None)
            continue
        for key, value in info["observation"].items():
            if key in ("seat", "to_act", "phase", "game") or key in layout.card_keys:
                continue
            texts = (list(value.values()) if isinstance(value, dict)
                     else value if isinstance(value, list) else [value])
            if texts and all(isinstance(v, str) or v is None for v in texts) and any(
                    isinstance(v, str) for v in texts):
                assert key in layout.text_keys, f"{game}: text key {key!r} is not encoded"
            elif value is not None and value != [] and value != {}:
                assert key in known, f"{game}: observation key {key!r} is not encoded"
        e.step(int(np.flatnonzero(observation["action_mask"])[0]))


def test_point_rewards_add_up_to_the_match_scores_in_scopa() -> None:
    e = raw_env("scopa", 2)
    _, totals = _random_episode(e, seed=3)
    assert e.state_.match_over
    assert [totals[a] for a in e.possible_agents] == [float(s) for s in e.state_.match_scores]


@pytest.mark.parametrize("game", ["scopa", "briscola"])
def test_win_rewards_name_the_winner(game: str) -> None:
    e = raw_env(game, 2, reward="win")
    _, totals = _random_episode(e, seed=5)
    winner = e.state_.winner
    expected = [0.0 if winner is None else (1.0 if seat == winner else -1.0)
                for seat in range(2)]
    assert [totals[a] for a in e.possible_agents] == expected


def test_a_hand_episode_ends_after_one_hand() -> None:
    e = raw_env("briscola", 2, episode="hand")
    choices, _ = _random_episode(e, seed=1)
    assert len(choices) == 40  # 40 cards, one play each
    assert e.state_.hand_number == 1


def test_bad_arguments_and_actions_are_clear_errors() -> None:
    with pytest.raises(EnvError, match="no flag 'colour'"):
        raw_env("scopa", 2, colour="red")
    with pytest.raises(EnvError, match="unknown game"):
        raw_env("poker", 2)
    with pytest.raises(EnvError, match="not 9"):
        raw_env("scopa", 9)
    with pytest.raises(EnvError, match="reward must be"):
        raw_env("scopa", 2, reward="money")
    e = raw_env("scopa", 2)
    e.reset(seed=1)
    with pytest.raises(EnvError, match="not one of the"):
        e.step(e.max_actions - 1)
    small = raw_env("scopa", 2, max_actions=1)
    with pytest.raises(EnvError, match="larger max_actions"):
        small.reset(seed=1)


@pytest.fixture
def fresh_surveys() -> Iterator[None]:
    """Forget the layouts and action-space sizes surveyed so far, before and after the test, so
    that a game's bound changed by the test is seen and not remembered."""
    from p2pcards.offline import env as env_module

    env_module._survey.cache_clear()
    yield
    env_module._survey.cache_clear()


def test_no_game_states_a_bound_unless_it_overrides_the_default() -> None:
    from p2pcards.games.base import MatchProgress

    assert MatchProgress.legal_action_bound(MatchProgress()) is None
    for spec in all_games():
        state = spec.new_match(spec.preset(players=spec.player_counts[0]))
        bound = state.legal_action_bound()
        assert bound is None or (isinstance(bound, int) and bound > 0), spec.name


@pytest.mark.parametrize("bound", [5000, 70, 1, None])
def test_the_action_space_takes_the_games_bound_when_larger(
        bound: int | None, monkeypatch: pytest.MonkeyPatch, fresh_surveys: None) -> None:
    from p2pcards.games.scopa import ScopaMatch
    from p2pcards.offline.env import default_max_actions

    measured = raw_env("scopa", 3).max_actions
    assert measured == default_max_actions("scopa", 3) >= 64
    monkeypatch.setattr(ScopaMatch, "legal_action_bound", lambda self: bound)
    from p2pcards.offline import env as env_module

    env_module._survey.cache_clear()
    expected = max(measured, bound or 0)
    e = raw_env("scopa", 3)
    assert e.max_actions == default_max_actions("scopa", 3) == expected
    assert e.action_space("seat_0").n == expected
    e.reset(seed=3)
    observation, *_ = e.last()
    assert observation["action_mask"].shape == (expected,)
    assert raw_env("scopa", 3, max_actions=80).max_actions == 80  # an explicit size wins


def test_the_example_in_docs_bots_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/bots.md's greedy bot and its environment loop, run exactly as printed."""
    text = (Path(__file__).resolve().parent.parent / "docs" / "bots.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    bot_source = next(b for b in blocks if b.startswith('"""A greedy example bot'))
    loop_source = next(b for b in blocks if b.startswith("from p2pcards.offline.env import env"))
    (tmp_path / "greedy.py").write_text(bot_source)
    monkeypatch.syspath_prepend(str(tmp_path))
    printed: list[object] = []
    exec(compile(loop_source, "docs/bots.md", "exec"), {"print": printed.append})
    totals = printed[0]
    assert isinstance(totals, dict) and set(totals) == {"seat_0", "seat_1"}
    assert max(totals.values()) >= 11  # a Scopa match ends when a side reaches 11


def _reference_vector(e: CardGameEnv | ObservationLayout, observation: Mapping[str, object],
                      seat: int) -> list[float]:
    """The vector as the module docstring defines it, written out slowly and independently of
    :meth:`CardGameEnv.encode`: the seat one-hot, a 0/1 block per card key, each numeric key
    padded with zeros, a hashed block per text key (``e`` is an environment or a layout)."""
    import hashlib

    from p2pcards.offline.env import TEXT_BUCKETS

    layout = e if isinstance(e, ObservationLayout) else e.layout
    out = [0.0] * layout.size
    out[seat] = 1.0
    at = layout.players

    def strings(value: object) -> list[str]:
        if isinstance(value, str):
            return [value]
        if isinstance(value, list | tuple):
            return [s for v in value for s in strings(v)]
        if isinstance(value, dict):
            return [s for v in value.values() for s in strings(v)]
        return []

    for key in layout.card_keys:
        for code in strings(observation.get(key)):
            if code in layout.deck:
                out[at + layout.deck.index(code)] = 1.0
        at += len(layout.deck)
    for key, width in layout.number_keys:
        value = observation.get(key)
        items = value if isinstance(value, list | tuple) else [value]
        for j, item in enumerate(items[:width]):
            if isinstance(item, bool | int | float):
                out[at + j] = float(item)
        at += width
    for key in layout.text_keys:
        value = observation.get(key)
        texts = ([value] if isinstance(value, str)
                 else [f"{k}={v}" for k, v in value.items() if isinstance(v, str)]
                 if isinstance(value, dict)
                 else [f"{i}={v}" for i, v in enumerate(value) if isinstance(v, str)]
                 if isinstance(value, list | tuple) else [])
        for text in texts:
            digest = hashlib.blake2b(text.encode(), digest_size=4).digest()
            out[at + int.from_bytes(digest, "big") % TEXT_BUCKETS] = 1.0
        at += TEXT_BUCKETS
    return out


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), case=st.sampled_from(CASES))
def test_the_vector_matches_the_documented_layout(seed: int, case: tuple[str, int]) -> None:
    """The fast encoder writes exactly the vector the contract describes, for every seat's
    observation along a random episode of every game."""
    game, players = case
    e = raw_env(game, players, episode="hand")
    e.reset(seed=seed)
    for agent in e.agent_iter(max_iter=300):
        observation, _, termination, truncation, info = e.last()
        if termination or truncation:
            e.step(None)
            continue
        seat = e.possible_agents.index(agent)
        assert observation["observation"].tolist() == _reference_vector(
            e, info["observation"], seat)
        for other in range(players):
            raw = e.state_.observation(other)
            assert e.encode(raw, other).tolist() == _reference_vector(e, raw, other)
        e.step(int(np.flatnonzero(observation["action_mask"])[0]))


_CODES = ["AS", "7D", "KB", "2C", "X3", "??", "bank", ""]
_NESTED = st.recursive(
    st.sampled_from(_CODES) | st.integers(-3, 3) | st.none() | st.booleans(),
    lambda inner: (st.lists(inner, max_size=4) | st.lists(inner, max_size=3).map(tuple)
                   | st.dictionaries(st.sampled_from(["card", "cards", "seat", "bets"]), inner,
                                     max_size=3)),
    max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(value=_NESTED)
def test_card_entries_of_any_nesting_match_a_plain_walk(value: object) -> None:
    """The encoder's walk over a card key's value (fast paths for lists of codes, pairs and
    maps one level down) finds the same entries, in the same order, as a plain recursive walk
    over every text at any depth."""
    from p2pcards.offline.env import _add_card_entries

    at = {code: 10 + i for i, code in enumerate(["AS", "7D", "KB", "2C", "X3"])}

    def plain(item: object) -> list[int]:
        if isinstance(item, str):
            return [at[item]] if item in at else []
        if isinstance(item, list | tuple):
            return [i for sub in item for i in plain(sub)]
        if isinstance(item, dict):
            return [i for sub in item.values() for i in plain(sub)]
        return []

    ones: list[int] = []
    _add_card_entries(value, at, ones)
    assert ones == plain(value)


GAMES = sorted({game for game, _ in CASES})


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), data=st.data())
def test_every_seats_vector_in_random_plays_of_every_game_matches_the_reference(
        game: str, seed: int, data: st.DataObject) -> None:
    """In random plays of each game (every player count), the vector of every seat's observation
    at every decision, and the acting seat's vector from ``last()``, equal the plain encoding."""
    players = data.draw(st.sampled_from([count for name, count in CASES if name == game]))
    e = raw_env(game, players, episode="hand")
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    decisions = 0
    for agent in e.agent_iter(max_iter=250):
        observation, _, termination, truncation, info = e.last()
        if termination or truncation:
            e.step(None)
            continue
        seat = e.possible_agents.index(agent)
        assert observation["observation"].tolist() == _reference_vector(
            e, info["observation"], seat)
        for other in range(players):
            raw = e.state_.observation(other)
            assert e.encode(raw, other).tolist() == _reference_vector(e, raw, other)
        e.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        decisions += 1
    assert decisions > 0


_ANY_VALUE = st.recursive(
    st.sampled_from(_CODES) | st.integers(-1000, 1000) | st.none() | st.booleans()
    | st.floats(-1e6, 1e6, allow_nan=False),
    lambda inner: (st.lists(inner, max_size=4) | st.lists(inner, max_size=3).map(tuple)
                   | st.dictionaries(st.sampled_from(["0", "1", "card", "bets"])
                                     | st.integers(0, 2) | st.booleans(), inner, max_size=3)),
    max_leaves=10)
_SMALL_LAYOUT = ObservationLayout(
    players=3, deck=("AS", "7D", "KB", "2C", "X3"), card_keys=("hand", "trick"),
    number_keys=(("score", 1), ("sizes", 3), ("flag", 1)), text_keys=("trump", "bids"))


@settings(max_examples=400, deadline=None)
@given(values=st.fixed_dictionaries({}, optional={
    key: _ANY_VALUE for key in ("hand", "trick", "score", "sizes", "flag", "trump", "bids")}),
    seat=st.integers(0, 2), listed=st.sampled_from([frozenset(), frozenset({"score", "flag"})]))
def test_the_encoder_matches_the_reference_on_values_of_any_shape(
        values: dict[str, object], seat: int, listed: frozenset[str]) -> None:
    """Whatever a key holds (a missing key, ``None``, numbers, codes and other texts, lists,
    tuples and maps nested at any depth, maps keyed by ``1`` and by ``True``), the encoder's
    vector is the plain encoding's, and encoding the same values again (the text memo at work)
    gives it again, whether or not the width-1 numeric keys are read as lists first (as those
    the survey saw holding lists are). (The plain encoding's numbers are rounded to
    ``float32`` as the vector's.)"""
    encoder = ObservationEncoder(_SMALL_LAYOUT, listed)
    expected = np.array(_reference_vector(_SMALL_LAYOUT, values, seat), dtype=np.float32).tolist()
    first = encoder.encode(values, seat)
    assert first.dtype == np.float32 and first.tolist() == expected
    again = encoder.encode(values, seat)
    assert again.tolist() == expected and again is not first


_SMALL_KEYS = ("hand", "trick", "score", "sizes", "flag", "trump", "bids")


def _mutated(value: object, data: st.DataObject) -> object:
    """``value`` changed in place when it is a list or a map (an item set, added or removed),
    else a new value: what a caller may do to an observation after it was encoded."""
    if isinstance(value, list):
        if value and data.draw(st.booleans()):
            value[data.draw(st.integers(0, len(value) - 1))] = data.draw(_ANY_VALUE)
        elif value and data.draw(st.booleans()):
            value.pop()
        else:
            value.append(data.draw(_ANY_VALUE))
        return value
    if isinstance(value, dict):
        key = data.draw(st.sampled_from(["0", "1", "card", "bets"]) | st.integers(0, 2))
        if key in value and data.draw(st.booleans()):
            del value[key]
        else:
            value[key] = data.draw(_ANY_VALUE)
        return value
    return data.draw(_ANY_VALUE)


@settings(max_examples=150, deadline=None)
@given(data=st.data(), steps=st.integers(2, 10),
       listed=st.sampled_from([frozenset(), frozenset({"score", "flag"})]))
def test_the_encoder_matches_the_reference_over_sequences_of_observations(
        data: st.DataObject, steps: int, listed: frozenset[str]) -> None:
    """Over a sequence of observations of seats in any order, where from one to the next each
    key keeps its very value, gets an equal copy, a new value, or its value changed in place
    after it was encoded (the list or map the encoder saw, mutated), or goes missing, every
    vector is, bit for bit, the plain encoding of the observation as it stands when encoded,
    and no vector handed out earlier changes afterwards: nothing the encoder keeps between
    calls (its memo of maps and lists of texts) holds a caller's object or outlives a change."""
    import copy

    encoder = ObservationEncoder(_SMALL_LAYOUT, listed)
    observation: dict[str, object] = data.draw(st.fixed_dictionaries(
        {}, optional={key: _ANY_VALUE for key in _SMALL_KEYS}))
    handed: list[tuple[np.ndarray[Any, Any], bytes]] = []
    for _ in range(steps):
        seat = data.draw(st.integers(0, 2))
        vector = encoder.encode(observation, seat)
        expected = np.array(_reference_vector(_SMALL_LAYOUT, observation, seat),
                            dtype=np.float32)
        assert vector.tobytes() == expected.tobytes()
        handed.append((vector, vector.tobytes()))
        following: dict[str, object] = {}
        for key in _SMALL_KEYS:
            how = data.draw(st.sampled_from(["keep", "copy", "new", "mutate", "drop"]))
            if how == "drop":
                continue
            if key not in observation or how == "new":
                following[key] = data.draw(_ANY_VALUE)
            elif how == "keep":
                following[key] = observation[key]
            elif how == "copy":
                following[key] = copy.deepcopy(observation[key])
            else:
                following[key] = _mutated(observation[key], data)
        observation = following
    for vector, seen in handed:
        assert vector.tobytes() == seen


def test_vectors_and_masks_are_fresh_arrays() -> None:
    """A caller may keep every vector and mask (a replay buffer): none is reused or shared."""
    e = raw_env("scopa", 2)
    e.reset(seed=4)
    kept = []
    for _ in range(30):
        observation, *_ = e.last()
        kept.append((observation["observation"].copy(), observation["action_mask"].copy(),
                     observation))
        again, *_ = e.last()
        assert again["observation"] is not observation["observation"]
        assert again["action_mask"] is not observation["action_mask"]
        again["observation"][:] = -1.0
        again["action_mask"][:] = 0
        e.step(int(np.flatnonzero(observation["action_mask"])[0]))
    for vector, mask, observation in kept:
        assert (observation["observation"] == vector).all()
        assert (observation["action_mask"] == mask).all()


@settings(max_examples=50, deadline=None)
@given(values=st.lists(st.integers(-5, 5) | st.none() | st.lists(st.integers(0, 3), max_size=3),
                       min_size=3, max_size=3))
def test_numeric_keys_named_with_any_text_are_read_as_named(values: list[object]) -> None:
    """The numeric keys are read by code made from their names: names holding quotes,
    backslashes, newlines or braces are read as the keys they are."""
    names = ("it's", 'say "x"\n', "back\\slash {0}")
    layout = ObservationLayout(players=2, deck=("AS",), card_keys=(),
                               number_keys=((names[0], 1), (names[1], 2), (names[2], 1)))
    observation = dict(zip(names, values, strict=True))
    encoder = ObservationEncoder(layout, frozenset({names[2]}))
    assert encoder.encode(observation, 1).tolist() == np.array(
        _reference_vector(layout, observation, 1), dtype=np.float32).tolist()


def test_the_wrapped_environment_plays_as_the_raw_one_and_keeps_the_order_checks(
        caplog: pytest.LogCaptureFixture) -> None:
    """``env()`` gives the same episode as ``raw_env`` for the same seed, through ``agent_iter``
    and ``last``, and still refuses what PettingZoo's order-enforcing wrapper refuses."""
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper

    def episode(e: Any) -> list[tuple[bytes, bytes, float, bool]]:
        e.reset(seed=5)
        seen = []
        rng = np.random.default_rng(5)
        for _ in e.agent_iter():
            observation, reward, termination, truncation, _ = e.last()
            seen.append((observation["observation"].tobytes(),
                         observation["action_mask"].tobytes(), reward, termination))
            if termination or truncation:
                e.step(None)
            else:
                e.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        return seen

    wrapped = env("briscola", 2, episode="hand")
    assert isinstance(wrapped, OrderEnforcingWrapper)
    assert episode(wrapped) == episode(raw_env("briscola", 2, episode="hand"))
    wrapped.step(None)  # every agent is done: PettingZoo's warning, nothing stepped
    assert "called after all agents are terminated" in caplog.text

    fresh = env("scopa", 2)
    with pytest.raises(AttributeError, match="cannot be accessed before reset"):
        fresh.last()
    with pytest.raises(Exception, match="reset"):
        fresh.step(0)
    with pytest.raises(Exception, match="reset"):
        fresh.agent_iter()
    fresh.reset(seed=1)
    agents = iter(fresh.agent_iter())
    assert next(agents) == fresh.agent_selection
    with pytest.raises(AssertionError, match="need to call step"):
        next(agents)


@pytest.mark.parametrize(("variant", "players"), [("", 8), ("long", 8), ("long", 3)])
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_sette_e_mezzo_never_offers_more_actions_than_its_bound(
        variant: str, players: int, seed: int) -> None:
    """Sette e mezzo's stated bound holds at every decision of random matches, and its
    environment's action space is at least that bound (8 seats: above the sampled size)."""
    import random

    from p2pcards.games import get_game
    from p2pcards.games.base import Phase
    from p2pcards.offline.env import default_max_actions
    from p2pcards.offline.simulate import fulfil_chance

    spec = get_game("sette-e-mezzo")
    state = spec.new_match(spec.preset(variant, players=players))
    bound = state.legal_action_bound()
    assert bound is not None and default_max_actions("sette-e-mezzo", players, variant) >= bound
    rng = random.Random(seed)
    shuffled: list[Any] = []
    for _ in range(3000):
        if state.phase is Phase.SHUFFLE:
            shuffled = list(state.deck.cards)
            rng.shuffle(shuffled)
            state.begin_hand()
        elif state.phase is Phase.CHANCE:
            fulfil_chance(state, shuffled)
        elif state.phase is Phase.ACTION:
            legal = state.legal_actions()
            assert len(legal) <= bound
            # the largest amounts often, so that balances grow and shrink fast
            state.apply(legal[-2] if len(legal) > 2 and rng.random() < 0.5
                        else legal[rng.randrange(len(legal))])
        elif state.phase is Phase.HAND_OVER:
            state.next_hand()
        else:
            break


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), data=st.data())
def test_hand_card_reads_the_card_the_seats_observation_lists(
        game: str, seed: int, data: st.DataObject) -> None:
    """In random full-information plays of each game, ``hand_card(seat, i)`` is the card at
    position ``i`` of ``observation(seat)["hand"]`` for every seat and position (the games that
    override the default must read the same hand in the same order)."""
    import random

    from p2pcards.cards import card
    from p2pcards.games import get_game
    from p2pcards.offline.simulate import RandomDealer

    players = data.draw(st.sampled_from([count for name, count in CASES if name == game]))
    spec = get_game(game)
    state = spec.new_match(spec.preset(players=players))
    rng = random.Random(seed)
    dealer = RandomDealer(rng)
    checked = 0
    for _ in range(300):
        if state.match_over:
            break
        for seat in range(players):
            hand = state.observation(seat)["hand"]
            assert [state.hand_card(seat, i) for i in range(len(hand))] == [
                card(code) for code in hand]
            checked += len(hand)
        if not dealer.step(state):
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
    assert checked > 0


_ANY_NUMBER = (st.integers() | st.floats(allow_nan=True, allow_infinity=True) | st.booleans()
               | st.integers(-2**70, 2**70) | st.floats(-1e40, 1e40))


@settings(max_examples=400, deadline=None)
@given(score=_ANY_NUMBER | st.none(), sizes=st.lists(_ANY_NUMBER, min_size=3, max_size=3),
       flag=_ANY_NUMBER)
def test_numbers_of_any_size_round_to_float32_as_numpy_rounds_them(
        score: object, sizes: list[object], flag: object) -> None:
    """The numeric entries are packed into the vector without numpy's conversion of a list:
    for numbers of any size (beyond ``float32``'s range, beyond ``2**53``, NaN and the
    infinities, ``-0.0``, bools) the bytes are those numpy's slice assignment writes, and a
    number numpy refuses (an integer too large for a ``float``) raises the same error."""
    values = {"score": score, "sizes": sizes, "flag": flag}
    numbers = [0 if score is None else score, *sizes, flag]
    expected = np.zeros(len(numbers), dtype=np.float32)
    encoder = ObservationEncoder(_SMALL_LAYOUT)
    start = _SMALL_LAYOUT.players + len(_SMALL_LAYOUT.card_keys) * len(_SMALL_LAYOUT.deck)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # numpy's warning of a cast to infinity
        try:
            expected[:] = numbers
        except OverflowError:
            with pytest.raises(OverflowError):
                encoder.encode(values, 0)
            return
    vector = encoder.encode(values, 0)
    assert vector[start:start + len(numbers)].tobytes() == expected.tobytes()


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**64), length=st.integers(0, 110), draws=st.integers(0, 3))
def test_shuffled_deck_shuffles_as_random_shuffle(seed: int, length: int, draws: int) -> None:
    """The environment's shuffle gives ``random.shuffle``'s order and leaves the generator in
    the same state (so equal seeds still give equal episodes), for decks of any length."""
    import random

    from p2pcards.offline.simulate import shuffled_deck

    cards = [object() for _ in range(length)]
    ours, theirs = random.Random(seed), random.Random(seed)
    for _ in range(draws):
        expected = list(cards)
        theirs.shuffle(expected)
        assert shuffled_deck(ours, cards) == expected
        assert ours.getstate() == theirs.getstate()
