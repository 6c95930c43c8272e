"""The public bot of ``dropout = bot`` (SPEC §9.13.7, protocol/BOTS.md): how every participant
chooses the move of a seat that dropped out, the same at every seat and at a verifier.

The choice reads only the public view of the hand (an engine replayed with the cards every
participant can decrypt) and a seed that nothing any seat sends goes into, so nobody (not the
hub, not the seat's partner) can choose or steer the bot's moves. Each game gives every legal
action an integer key and the bot plays the first action, in the canonical order, with the
lowest key; its only randomness is the SHA-256 generator of :mod:`.draws`. This is not the
``smart`` bot people play against (:mod:`p2pcards.bots`): that one may change freely, this one
is part of the protocol. Part of the sans-IO core; its test vectors are written and checked by
:mod:`.vectors` (``python -m p2pcards.public_bot.vectors --check``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, cast

from ..games.base import Action, MatchState
from .draws import DRAW_LABEL, SEED_LABEL, DrawStream, bot_seed
from .order import KeyOf, canonical_key, first_lowest

__all__ = ["bot_seed", "public_move", "public_choice", "SEED_LABEL", "DRAW_LABEL",
           "DrawStream", "canonical_key", "GAMES"]

KeysOf = Callable[[Mapping[str, Any], Sequence[Action], DrawStream], KeyOf]

_KEYS_AT: Mapping[str, tuple[str, str]] = {
    "scopa": ("scopa", "scopa_keys"),
    "briscola": ("tricks", "briscola_keys"),
    "tressette": ("tricks", "tressette_keys"),
    "tresette": ("tricks", "tressette_keys"),
    "tute": ("tricks", "tute_keys"),
    "calabrasella": ("tricks", "calabrasella_keys"),
    "burraco": ("melds", "burraco_keys"),
    "rumino": ("melds", "rumino_keys"),
    "sette-e-mezzo": ("banking", "sette_keys"),
    "ziginette": ("banking", "ziginette_keys"),
}


class _GameKeys(Mapping[str, KeysOf]):
    """The key function of each game, its module imported on first use: a process that plays
    one game does not load the rules of the others."""

    def __getitem__(self, game: str) -> KeysOf:
        module, name = _KEYS_AT[game]
        return cast(KeysOf, getattr(importlib.import_module(f"{__name__}.{module}"), name))

    def __iter__(self) -> Iterator[str]:
        return iter(_KEYS_AT)

    def __len__(self) -> int:
        return len(_KEYS_AT)


GAMES: Mapping[str, KeysOf] = _GameKeys()
"""The key function of each game (BOTS.md §4–§12)."""


def public_choice(game: str, observation: Mapping[str, Any], legal: Sequence[Action],
                  seed: int) -> Action:
    """The public bot's choice among the non-empty ``legal`` from the seat's ``observation``:
    the first action in canonical order with the lowest key of ``game`` (a game without keys:
    the first action)."""
    keys = GAMES.get(game)
    if keys is None:
        return min(legal, key=canonical_key)
    return first_lowest(legal, keys(observation, legal, DrawStream(seed)))


def public_move(game: str, view: MatchState, seat: int, seed: int) -> Action | None:
    """The move of the public bot in ``seat``, chosen among the public ``view``'s legal actions
    from its observation of ``seat`` with ``seed``; ``None`` when the view does not have
    ``seat`` to act or gives it no move."""
    if view.to_act != seat:
        return None
    legal = view.legal_actions()
    if not legal:
        return None
    return public_choice(game, view.observation(seat), legal, seed)
