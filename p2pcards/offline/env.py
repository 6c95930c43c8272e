"""PettingZoo environments of every game: the rules engines with full information, no crypto.

Install the optional extra first: ``pip install 'p2pcards[rl]'``. Nothing else in the package
imports this module, so the core never needs PettingZoo.

    from p2pcards.offline.env import env
    e = env("scopa", players=2)
    e.reset(seed=7)
    for agent in e.agent_iter():
        observation, reward, termination, truncation, info = e.last()
        if termination or truncation:
            action = None
        else:
            mask = observation["action_mask"]
            action = int(mask.nonzero()[0][0])      # or your policy's choice
        e.step(action)

The contract:

- **Agents** are ``seat_0`` .. ``seat_{n-1}``, in playing order; ``agent_selection`` is the seat
  the engine waits for. Chance steps (the shuffle and the deal) are played by the environment
  with its own random generator, seeded by ``reset(seed=...)``: equal seeds, equal episodes.
- **Actions** are indices into the seat's sorted legal actions (the engine's
  ``legal_actions()``), so the action space is ``Discrete(max_actions)`` and the observation's
  ``action_mask`` marks the first ``len(legal)`` entries. ``info["legal_actions"]`` holds the
  :class:`~p2pcards.games.base.Action` objects in the same order, so ``legal[i]`` is what index
  ``i`` plays (in the acting seat's info only). ``max_actions`` defaults to a bound measured
  for each game, or the game's own bound when it states a larger one (see
  :func:`default_max_actions`); a state with more legal actions raises
  :class:`EnvError` naming the number to pass instead.
- **Observations** hold only what the seat may see: the engine's per-seat observation, encoded
  as a fixed-size ``float32`` vector (``observation``). The acting seat's ``info`` holds the raw
  dict (``info["observation"]``) and its legal actions (``info["legal_actions"]``); the other
  seats' ``info`` is empty until they act, and at the end of an episode every seat's ``info``
  holds its final observation. The vector is, in order: the seat as a one-hot; for every key of the
  observation that names cards, one 0/1 entry per card of the deck (the card appears under that
  key); for every numeric key, its value, or its values padded with zeros; for every text key
  (a trump suit, signals by seat), a block of hashed 0/1 entries. The keys and widths
  are the game's :class:`ObservationLayout`, fixed when the environment is made.
- **Rewards**: with ``reward="points"`` (the default) each seat receives its side's points when
  a hand is scored; with ``reward="win"``, +1 to the winning side's seats and -1 to the others
  when the match ends (0 each for a draw).
- **Episodes** are a whole match (``episode="match"``) or one hand (``episode="hand"``).
"""

from __future__ import annotations

import hashlib
import random
import struct
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any, cast

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.wrappers import OrderEnforcingWrapper
from pettingzoo.utils.wrappers.order_enforcing import (
    AECOrderEnforcingIterable,
    AECOrderEnforcingIterator,
)

from ..cards import Card, Deck
from ..games import get_game
from ..games.base import Action, GameSpec, MatchState, Phase
from .simulate import RandomDealer, fulfil_chance, shuffled_deck

__all__ = ["TEXT_BUCKETS", "EnvError", "ObservationEncoder", "ObservationLayout", "CardGameEnv",
           "OrderEnforcingEnv", "default_max_actions", "env", "raw_env"]


_ACTION = Phase.ACTION

TEXT_BUCKETS = 32
"""Entries of each text key in the observation vector (see :class:`ObservationLayout`)."""


class EnvError(ValueError):
    """A request the environment cannot serve (a bad argument, too many legal actions)."""


@dataclass(frozen=True)
class ObservationLayout:
    """Which observation keys the vector encodes, and how wide each is."""

    players: int
    deck: tuple[str, ...]
    """Card codes in the deck's canonical order: the order of each card block."""
    card_keys: tuple[str, ...]
    number_keys: tuple[tuple[str, int], ...]
    text_keys: tuple[str, ...] = ()
    """Keys whose value is a text, a map of texts or a list of texts (a trump suit, signals or
    states by seat): each gets :data:`TEXT_BUCKETS` 0/1 entries, a text ``t`` setting entry
    ``h(t)``, a map entry ``sub: t`` entry ``h(sub=t)`` and the ``i``-th text of a list entry
    ``h(i=t)``, where ``h`` is a stable hash (BLAKE2b) modulo the bucket count (feature hashing:
    any text has a place, two texts may share one)."""

    @property
    def size(self) -> int:
        """Length of the encoded vector."""
        return (self.players + len(self.card_keys) * len(self.deck)
                + sum(width for _, width in self.number_keys)
                + len(self.text_keys) * TEXT_BUCKETS)


def _walk_strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _walk_strings(item)
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from _walk_strings(item)


def _numbers(value: object) -> list[float] | None:
    """The value as a list of numbers, or ``None`` when it is not numeric."""
    if isinstance(value, bool):
        return [float(value)]
    if isinstance(value, int | float):
        return [float(value)]
    if isinstance(value, list | tuple) and value and all(
            v is None or isinstance(v, int | float) for v in value):
        # per-seat numbers: bools are flags, None (no bet yet) is 0
        return [0.0 if v is None else float(v) for v in value]
    return None


class _LayoutBuilder:
    """Collects the keys of observations seen in sample playouts."""

    def __init__(self, deck: Deck) -> None:
        self.codes = {c.code for c in deck.cards}
        self.card_keys: dict[str, None] = {}
        self.widths: dict[str, int] = {}
        self.listed: dict[str, None] = {}
        """Numeric keys seen holding a list or tuple of numbers."""
        self.text_keys: dict[str, None] = {}

    def see(self, observation: Mapping[str, Any]) -> None:
        for key, value in observation.items():
            if key in ("seat", "to_act", "phase", "game"):
                continue
            if any(s in self.codes for s in _walk_strings(value)):
                self.card_keys.setdefault(key, None)
                continue
            numbers = _numbers(value)
            if numbers is not None and key not in self.card_keys:
                self.widths[key] = max(self.widths.get(key, 0), len(numbers))
                if isinstance(value, list | tuple):
                    self.listed.setdefault(key, None)
            if next(_texts(value), None) is not None and key not in self.card_keys:
                self.text_keys.setdefault(key, None)


def _texts(value: object) -> Iterator[str]:
    """The texts of a text value (itself), of a map of texts (``sub=text`` for each) or of a
    list of texts by seat (``i=text`` for each)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for sub, item in value.items():
            if isinstance(item, str):
                yield f"{sub}={item}"
    elif isinstance(value, list | tuple):
        for i, item in enumerate(value):
            if isinstance(item, str):
                yield f"{i}={item}"


_SCALARS = (int, float, bool, type(None))
"""Types that hold no card code."""


def _add_card_entries(value: object, at: Mapping[str, int], ones: list[int]) -> None:
    """Append to ``ones`` the entry ``at[code]`` of every card code in ``value`` (a code, or
    lists, tuples and maps of them at any depth; texts that are not codes are skipped)."""
    kind = type(value)
    if kind is str:
        i = at.get(cast(str, value))
        if i is not None:
            ones.append(i)
    elif kind is list or kind is tuple:
        get = at.get
        items: Any = value
        if items and type(items[0]) is str:
            try:
                hits: list[int | None] = list(map(get, items))
            except TypeError:  # an unhashable item further on: a nested list or map
                hits = [None]
            if None not in hits:  # the usual list of card codes, all in the deck
                ones.extend(cast("list[int]", hits))
                return
        for item in items:
            inner = type(item)
            if inner is str:
                i = get(item)
                if i is not None:
                    ones.append(i)
            elif inner is list or inner is tuple or inner is dict:  # one level down, no call
                for sub in (item.values() if inner is dict else item):
                    if type(sub) is str:
                        i = get(sub)
                        if i is not None:
                            ones.append(i)
                    elif sub and type(sub) not in _SCALARS:
                        _add_card_entries(sub, at, ones)
            elif item and inner not in _SCALARS:
                _add_card_entries(item, at, ones)
    elif kind is dict or isinstance(value, Mapping):
        get = at.get
        for item in cast("Mapping[Any, Any]", value).values():
            if type(item) is str:
                i = get(item)
                if i is not None:
                    ones.append(i)
            elif item and type(item) not in _SCALARS:
                _add_card_entries(item, at, ones)
    elif kind not in _SCALARS:  # subclasses of the plain types
        for code in _walk_strings(value):
            i = at.get(code)
            if i is not None:
                ones.append(i)


@lru_cache(maxsize=1 << 16)
def _bucket(text: str) -> int:
    digest = hashlib.blake2b(text.encode(), digest_size=4).digest()
    return int.from_bytes(digest, "big") % TEXT_BUCKETS


_NUMBER_TYPES = frozenset({int, float, bool})
"""The exact types a numeric entry is taken as it is."""
_TEXT_MEMO_LIMIT = 4096
"""Distinct maps or lists a text key remembers the entries of before its memo starts afresh."""


def _padded_numbers(value: object, size: int) -> list[float]:
    """A numeric key's ``size`` entries when its value is not a plain number, ``None`` or a
    full list of plain numbers: a list or tuple cut or padded to ``size`` and a single value
    (a subclass of a number) as the first entry, numbers (``bool``, ``int``, ``float`` or a
    subclass) as floats and anything else as 0."""
    items: Any = value if isinstance(value, list | tuple) else (value,)
    out = [0.0] * size
    for j, item in enumerate(items[:size]):
        if isinstance(item, bool | int | float):
            out[j] = float(item)
    return out


def _text_memo_key(value: object) -> object:
    """What a text key's memo knows a map or a list by: a map by its type, items and key types
    (``1`` and ``True`` are equal keys that print differently), a list by its type and items.
    Raises ``TypeError`` for a value with unhashable items."""
    if isinstance(value, Mapping):
        return type(value), tuple(value.items()), tuple(map(type, value))
    return type(value), tuple(cast("Iterator[object]", value))


_NUMBER_OR_NONE_TYPES = _NUMBER_TYPES | {type(None)}


def _key_entries(value: object, size: int) -> list[Any]:
    """One numeric key's ``size`` entries: a plain number and zeros after it, zeros for
    ``None``, a full list or tuple of plain numbers as it is, anything else padded or cut
    (:func:`_padded_numbers`)."""
    kind = type(value)
    if kind is int or kind is float or kind is bool:
        return [value] + [0] * (size - 1)
    if value is None:
        return [0] * size
    if (kind is list or kind is tuple) and len(cast("list[Any]", value)) == size and (
            _NUMBER_TYPES.issuperset(map(type, cast("list[Any]", value)))):
        return list(cast("list[Any]", value))
    return _padded_numbers(value, size)


Encode = Callable[[Mapping[str, Any], int], "np.ndarray[Any, Any]"]
"""A compiled encoder: an observation and its seat to a fresh vector."""


def _card_key_lines(i: int, key: str) -> list[str]:
    """The generated lines adding the entries of card key ``key`` (the ``i``-th) to ``ones``:
    a list of card codes all in the deck in one pass in C (``map`` of the key's lookup), a
    single code through the map's ``get``, anything else (nested values, codes off the deck)
    through :func:`_add_card_entries`."""
    return [
        f"    c = get({key!r})",
        "    if c:",
        "        if type(c) is list and type(c[0]) is str:",
        "            mark = len(ones)",
        "            try:",
        f"                ones += map(index_of_{i}, c)",
        "            except (KeyError, TypeError):",
        "                del ones[mark:]",
        f"                add_card_entries(c, at_{i}, ones)",
        "        elif type(c) is str:",
        f"            c = at_get_{i}(c)",
        "            if c is not None:",
        "                ones.append(c)",
        "        else:",
        f"            add_card_entries(c, at_{i}, ones)",
    ]


def _number_lines(number_keys: tuple[tuple[str, int], ...],
                  listed: frozenset[str]) -> list[str]:
    """The generated lines reading the numeric keys into one flat list ``numbers``: a key
    wider than one entry, or one in ``listed`` (seen holding a list), gives its list's items
    when it holds a list of exactly its width, zeros for an empty list (as
    :func:`_key_entries` gives them, without its call), else :func:`_key_entries`; any other
    key gives its value as it is, or 0 for ``None`` (a trump not taken yet, nothing due). Then
    one type check of the whole list: anything but plain numbers goes through
    ``numbers_not_plain``."""
    lines = []
    items = []
    for i, (key, width) in enumerate(number_keys):
        lines.append(f"    v{i} = get({key!r})")
        if width > 1 or key in listed:
            lines.append(f"    if type(v{i}) is not list or len(v{i}) != {width}:")
            lines.append(f"        if type(v{i}) is list and not v{i}:")
            lines.append(f"            v{i} = ({'0.0, ' * width})")
            lines.append("        else:")
            lines.append(f"            v{i} = key_entries(v{i}, {width})")
            items.append(f"*v{i}")
        else:
            lines.append(f"    if v{i} is None:")
            lines.append(f"        v{i} = 0")
            items.append(f"v{i}")
    lines.append("    numbers = [" + ", ".join(items) + "]")
    lines.append("    if not plain_types(map(type, numbers)):")
    lines.append("        numbers = numbers_not_plain(numbers, get)")
    return lines


def _text_key_lines(i: int, key: str, offset: int) -> list[str]:
    """The generated lines adding the hashed entries of text key ``key`` (the ``i``-th, whose
    block starts at ``offset``): a text by its bucket, a map or list of texts through
    :func:`_text_entries` and the key's memo."""
    return [
        f"    t = get({key!r})",
        "    if t is not None:",
        "        if type(t) is str:",
        f"            ones.append({offset} + bucket(t))",
        "        else:",
        f"            ones += text_entries(t, {offset}, memo_{i})",
    ]


class ObservationEncoder:
    """The vector of :class:`ObservationLayout`, its per-key tables built once per layout.

    :meth:`encode` calls a function generated once per layout: straight-line code with the
    layout's keys as literals (``repr`` of each text) and no loop over the keys. It collects the
    positions of the 1.0 entries (the seat, cards under their keys, hashed texts) as a list and
    the numeric entries (contiguous in the layout) as another, then writes them into a zeroed
    ``float32`` array: the ones with one indexed assignment, the numbers packed in place by a
    :class:`struct.Struct` of the layout (half the cost of numpy's conversion of a list; each
    number rounds to ``float32`` as numpy rounds it, and a number too large for a ``float``,
    which the packing refuses, goes to numpy's slice assignment, which raises as before).
    The commonest shapes (a list of card codes, a plain number or ``None``, a full list of
    numbers, a text) take a path without calls; a map or list of texts (bids or states by
    seat) is remembered whole per key, since the same ones come back step after step; anything
    else goes through the general helpers, which give the entries the layout defines
    (``tests/test_env.py`` compares the vector with a plain encoding over values of any shape
    and over random plays of every game)."""

    def __init__(self, layout: ObservationLayout, listed: frozenset[str] = frozenset()) -> None:
        """The encoder of ``layout``; ``listed`` names numeric keys of width 1 that may hold a
        list (any key may: these only take a quicker path)."""
        self.size = layout.size
        self.listed = listed
        """The numeric keys of width 1 read as lists first (the environment's survey names
        those it saw holding lists)."""
        self._number_keys = tuple(key for key, _ in layout.number_keys)
        self._number_widths = tuple(width for _, width in layout.number_keys)
        self._encode = self._compile(layout, listed)

    def encode(self, observation: Mapping[str, Any], seat: int) -> np.ndarray[Any, Any]:
        """A fresh ``float32`` vector of one seat's observation."""
        return self._encode(observation, seat)

    def _compile(self, layout: ObservationLayout, listed: frozenset[str]) -> Encode:
        """The generated ``encode`` of ``layout`` (see the class docstring)."""
        namespace: dict[str, Any] = {
            "add_card_entries": _add_card_entries, "key_entries": _key_entries,
            "plain_types": _NUMBER_TYPES.issuperset, "numbers_not_plain": self._numbers_not_plain,
            "bucket": _bucket, "text_entries": _text_entries, "zeros": np.zeros,
            "float32": np.float32, "struct_error": struct.error}
        lines = ["def encode(observation, seat):", "    get = observation.get",
                 "    ones = [seat]"]
        offset = layout.players
        for i, key in enumerate(layout.card_keys):
            at = {code: offset + j for j, code in enumerate(layout.deck)}
            namespace.update({f"at_{i}": at, f"index_of_{i}": at.__getitem__,
                              f"at_get_{i}": at.get})
            lines += _card_key_lines(i, key)
            offset += len(layout.deck)
        lines += _number_lines(layout.number_keys, listed)
        numbers_start = offset
        offset += sum(self._number_widths)
        numbers_end = offset
        for i, key in enumerate(layout.text_keys):
            namespace[f"memo_{i}"] = {}
            lines += _text_key_lines(i, key, offset)
            offset += TEXT_BUCKETS
        namespace["pack_numbers"] = struct.Struct(f"{numbers_end - numbers_start}f").pack_into
        lines += [f"    vector = zeros({self.size}, dtype=float32)",
                  "    vector.put(ones, 1.0)",
                  "    try:",
                  f"        pack_numbers(vector, {4 * numbers_start}, *numbers)",
                  "    except struct_error:",
                  f"        vector[{numbers_start}:{numbers_end}] = numbers",
                  "    return vector"]
        exec("\n".join(lines), namespace)  # noqa: S102 - text made above from the layout
        return cast(Encode, namespace["encode"])

    def _numbers_not_plain(self, read: list[Any], get: Callable[[str], Any]) -> list[Any]:
        """The numeric entries when the straight read holds anything but plain numbers: its
        ``None`` items as 0 when those are the only others, else every key's entries one by
        one (:func:`_key_entries`)."""
        if _NUMBER_OR_NONE_TYPES.issuperset(map(type, read)):
            return [0 if number is None else number for number in read]
        numbers: list[Any] = []
        for key, size in zip(self._number_keys, self._number_widths, strict=True):
            numbers += _key_entries(get(key), size)
        return numbers


def _text_entries(value: object, offset: int, memo: dict[object, list[int]]) -> list[int]:
    """The entries of a map or list of texts under the text key starting at ``offset``, taken
    from the key's ``memo`` when the same value was seen before."""
    try:
        seen = _text_memo_key(value)
        entries = memo.get(seen)
    except TypeError:  # an unhashable item: nothing to remember it by
        return [offset + _bucket(t) for t in _texts(value)]
    if entries is None:
        if len(memo) >= _TEXT_MEMO_LIMIT:
            memo.clear()
        entries = memo[seen] = [offset + _bucket(t) for t in _texts(value)]
    return entries


def _playout_states(spec: GameSpec, config: Any, seed: int,
                    hands: int) -> Iterator[MatchState]:
    """States of a few random playouts, one per decision (for layouts and action bounds)."""
    rng = random.Random(seed)
    dealer = RandomDealer(rng)
    state = spec.new_match(config)
    played = 0
    steps = 0
    while not state.match_over and played < hands and steps < 20_000:
        steps += 1
        if state.phase is Phase.HAND_OVER:
            played += 1
        if dealer.step(state):
            continue
        yield state
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])


@cache
def _survey(game: str, players: int, variant: str,
            flags: tuple[tuple[str, object], ...],
            ) -> tuple[ObservationLayout, int, frozenset[str]]:
    """The layout of a game's observations, its default action-space size (see
    :func:`default_max_actions`) and its numeric keys seen holding lists, from sample random
    playouts."""
    spec = get_game(game)
    config = spec.preset(variant, players=players, **dict(flags))
    fresh = spec.new_match(config)
    deck = fresh.deck
    builder = _LayoutBuilder(deck)
    most = 1
    for seed in range(4):
        for state in _playout_states(spec, config, seed, hands=3):
            most = max(most, len(state.legal_actions()))
            builder.see(state.observation(state.to_act))
    layout = ObservationLayout(
        players=players,
        deck=tuple(c.code for c in deck.cards),
        card_keys=tuple(builder.card_keys),
        number_keys=tuple((k, max(w, 1)) for k, w in builder.widths.items()
                          if k not in builder.card_keys),
        text_keys=tuple(k for k in builder.text_keys if k not in builder.card_keys),
    )
    return (layout, _action_space_size(most, fresh.legal_action_bound()),
            frozenset(builder.listed))


def _action_space_size(most_seen: int, bound: int | None) -> int:
    """Four times the most legal actions seen, at least 64, and at least the game's own bound
    when it states one."""
    return max(64, 4 * most_seen, bound or 0)


def default_max_actions(game: str, players: int | None = None, variant: str = "",
                        **flags: object) -> int:
    """The default action-space size: four times the most legal actions seen in sample random
    playouts of the game, at least 64, or the game's own bound on its legal actions
    (:meth:`~p2pcards.games.base.MatchProgress.legal_action_bound`) when that is larger."""
    spec = get_game(game)
    count = players if players is not None else spec.preset_players(
        variant or spec.default_preset)[0]
    _, size, _ = _survey(spec.name, count, variant, tuple(sorted(flags.items())))
    return size


class CardGameEnv(AECEnv):  # type: ignore[misc]
    """One game as a PettingZoo AEC environment; see the module docstring for the contract."""

    metadata = {"render_modes": ["ansi"], "name": "p2pcards", "is_parallelizable": False}

    def __init__(self, game: str, players: int | None = None, variant: str = "", *,
                 reward: str = "points", episode: str = "match", max_actions: int | None = None,
                 render_mode: str | None = None, **flags: object) -> None:
        super().__init__()
        try:
            self.spec = get_game(game)
            count = players if players is not None else self.spec.preset_players(
                variant or self.spec.default_preset)[0]
            self.config = self.spec.preset(variant, players=count, **flags)
        except ValueError as exc:
            raise EnvError(str(exc)) from None
        if reward not in ("points", "win"):
            raise EnvError(f"reward must be 'points' or 'win', not {reward!r}")
        if episode not in ("match", "hand"):
            raise EnvError(f"episode must be 'match' or 'hand', not {episode!r}")
        if render_mode not in (None, "ansi"):
            raise EnvError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        self.players = count
        self.reward_kind = reward
        self.episode = episode
        self.layout, size, listed = _survey(self.spec.name, count, variant,
                                            tuple(sorted(flags.items())))
        self.max_actions = max_actions if max_actions is not None else size
        self.metadata = {**self.metadata, "name": f"p2pcards_{self.spec.name}"}
        self.possible_agents = [f"seat_{s}" for s in range(count)]
        self._seat_of = {agent: s for s, agent in enumerate(self.possible_agents)}
        self._encoder = ObservationEncoder(self.layout, listed)
        vector = spaces.Box(low=-np.inf, high=np.inf, shape=(self.layout.size,),
                            dtype=np.float32)
        mask = spaces.Box(low=0, high=1, shape=(self.max_actions,), dtype=np.int8)
        self.observation_spaces = {
            a: spaces.Dict({"observation": vector, "action_mask": mask})
            for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.max_actions) for a in self.possible_agents}
        self._rng = random.Random()
        self.state_: MatchState = self.spec.new_match(self.config)
        self._legal: list[Action] = []
        self._acting = -1
        """The seat the engine waits for (the one whose mask is set), -1 between episodes."""
        self._rewarded = False
        """Whether ``rewards`` holds anything but zeros (set when a hand or episode is scored),
        so that a step without a score neither clears nor accumulates them."""
        self._masks: dict[int, np.ndarray[Any, Any]] = {}
        """Per count of legal actions, a mask to copy."""
        self._informed: list[str] = []
        self._shuffled: list[Card] = []

    # -------------------------------------------------------------- PettingZoo API

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._informed = []
        self._rewarded = False
        self.state_ = self.spec.new_match(self.config)
        self._run_to_decision()

    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        seat = self._seat_of[agent]
        info = self.infos.get(agent)
        raw = info.get("observation") if info else None
        if raw is None:
            raw = self.state_.observation(seat)
            mask = np.zeros(self.max_actions, dtype=np.int8)
        elif self._legal and seat == self._acting:
            mask = self._mask(len(self._legal))
        else:
            mask = np.zeros(self.max_actions, dtype=np.int8)
        return {"observation": self._encoder.encode(raw, seat), "action_mask": mask}

    def _mask(self, legal: int) -> np.ndarray[Any, Any]:
        """A fresh mask marking the first ``legal`` actions."""
        template = self._masks.get(legal)
        if template is None:
            template = self._masks[legal] = np.zeros(self.max_actions, dtype=np.int8)
            template[:legal] = 1
        return template.copy()

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None or not 0 <= int(action) < len(self._legal):
            raise EnvError(f"action {action!r} is not one of the {len(self._legal)} legal "
                           f"actions of {agent}")
        self._cumulative_rewards[agent] = 0.0
        if self._rewarded:
            rewards = self.rewards
            for a in rewards:
                rewards[a] = 0.0
            self._rewarded = False
        self.state_.apply(self._legal[int(action)])
        self._run_to_decision()
        if self._rewarded:
            self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        state = self.state_
        if state.match_over:
            return f"match over: scores {list(state.match_scores)}, winner side {state.winner}"
        seat = state.to_act
        legal = ", ".join(f"{i}: {a}" for i, a in enumerate(self._legal))
        return f"{self.spec.name} seat {seat}: {state.observation(seat)}\nlegal: {legal}"

    def close(self) -> None:
        pass

    # -------------------------------------------------------------- encoding

    def encode(self, observation: Mapping[str, Any], seat: int) -> np.ndarray[Any, Any]:
        """The fixed-size vector of one seat's observation (see :class:`ObservationLayout` and
        :class:`ObservationEncoder`): a fresh array at every call."""
        return self._encoder.encode(observation, seat)

    # -------------------------------------------------------------- internals

    def _run_to_decision(self) -> None:
        """Play chance steps and score hands until a seat must act or the episode ends."""
        state = self.state_
        while True:
            phase = state.phase
            if phase is _ACTION:
                self._legal = state.legal_actions()
                if len(self._legal) > self.max_actions:
                    raise EnvError(
                        f"{self.spec.name} offers {len(self._legal)} legal actions here, more "
                        f"than max_actions={self.max_actions}: make the environment with a "
                        f"larger max_actions")
                seat = self._acting = state.to_act
                self.agent_selection = self.possible_agents[seat]
                self._set_infos(seat)
                return
            if phase is Phase.SHUFFLE:
                self._shuffled = shuffled_deck(self._rng, state.deck.cards)
                state.begin_hand()
            elif phase is Phase.CHANCE:
                fulfil_chance(state, self._shuffled)
            elif phase is Phase.HAND_OVER:
                result = state.hand_result()
                state.next_hand()
                if self.reward_kind == "points":
                    for s, agent in enumerate(self.possible_agents):
                        self.rewards[agent] += float(result.points[state.side_of(s)])
                    self._rewarded = True
                if self.episode == "hand" and not state.match_over:
                    self._end_episode(winner=None, over=False)
                    return
            else:
                self._end_episode(winner=state.winner, over=True)
                return

    def _set_infos(self, seat: int) -> None:
        """The acting ``seat``'s info gets its observation and legal actions; the seat that
        held them before (the only other non-empty info during an episode) is emptied."""
        infos = self.infos
        acting = self.possible_agents[seat]
        for agent in self._informed:
            if agent != acting:
                infos[agent] = {}
        infos[acting] = {"observation": self.state_.observation(seat),
                         "legal_actions": self._legal}
        self._informed = [acting]

    def _end_episode(self, *, winner: int | None, over: bool) -> None:
        if self.reward_kind == "win" and over:
            for s, agent in enumerate(self.possible_agents):
                side = self.state_.side_of(s)
                self.rewards[agent] += 0.0 if winner is None else (1.0 if side == winner
                                                                   else -1.0)
            self._rewarded = True
        self._legal = []
        self._acting = -1
        for agent in self.agents:
            self.terminations[agent] = True
            self.infos[agent] = {"observation": self.state_.observation(
                self.possible_agents.index(agent)), "legal_actions": []}
        self.agent_selection = self.agents[0]


def raw_env(game: str, players: int | None = None, variant: str = "",
            **kwargs: Any) -> CardGameEnv:
    """The environment without PettingZoo's wrappers."""
    return CardGameEnv(game, players, variant, **kwargs)


class OrderEnforcingEnv(OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's order-enforcing wrapper whose calls of every step (:meth:`last`,
    :meth:`step` and the next agent of :meth:`agent_iter`) go straight to the environment once
    it has been reset.

    PettingZoo's wrapper answers every attribute it does not hold through two ``__getattr__``
    methods, and its inherited ``last`` reads five attributes, its ``step`` and its iterator
    three more: about a fifth of a step in the quick games. Before a reset, and for a step
    with no agents left, the wrapper's own checks run as they do in PettingZoo; after one,
    each call gives what the wrapper's would, and the iterator still insists that every agent
    it gives is stepped."""

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            return cast("tuple[Any, float, bool, bool, dict[str, Any]]", super().last(observe))
        return cast("tuple[Any, float, bool, bool, dict[str, Any]]", self.env.last(observe))

    def step(self, action: Any) -> None:
        if self._has_reset and self.env.agents:
            self._has_updated = True
            self.env.step(action)
        else:
            super().step(action)

    def agent_iter(self, max_iter: int = 2**63) -> AECOrderEnforcingIterable:
        if not self._has_reset:
            return super().agent_iter(max_iter)
        return _OrderedAgents(self, max_iter)


class _OrderedAgents(AECOrderEnforcingIterable):  # type: ignore[misc]
    """``agent_iter`` of :class:`OrderEnforcingEnv`: PettingZoo's, reading the agents straight
    from the environment."""

    def __iter__(self) -> Iterator[str]:
        return _OrderedAgentIterator(self.env, self.max_iter)


class _OrderedAgentIterator(AECOrderEnforcingIterator):  # type: ignore[misc]
    """The agents in turn, as PettingZoo's order-enforcing iterator gives them (and with its
    check that every agent was stepped), read from the wrapped environment itself."""

    def __next__(self) -> str:
        wrapper = self.env
        inner = wrapper.env
        if not inner.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        if not wrapper._has_updated:
            raise AssertionError("need to call step() or reset() in a loop over `agent_iter`")
        wrapper._has_updated = False
        return cast(str, inner.agent_selection)


def env(game: str, players: int | None = None, variant: str = "", **kwargs: Any) -> AECEnv:
    """The environment of ``game`` for ``players`` seats (preset ``variant``, flags as keyword
    arguments), wrapped in PettingZoo's order-enforcing wrapper (:class:`OrderEnforcingEnv`),
    which raises a clear error when the API is used out of order."""
    return OrderEnforcingEnv(raw_env(game, players, variant, **kwargs))
