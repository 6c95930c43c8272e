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

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..games.base import Action, MatchState
from .banking import sette_keys, ziginette_keys
from .draws import DRAW_LABEL, SEED_LABEL, DrawStream, bot_seed
from .melds import burraco_keys, rumino_keys
from .order import KeyOf, canonical_key, first_lowest
from .scopa import scopa_keys
from .tricks import briscola_keys, calabrasella_keys, tressette_keys, tute_keys

__all__ = ["bot_seed", "public_move", "public_choice", "SEED_LABEL", "DRAW_LABEL",
           "DrawStream", "canonical_key", "GAMES"]

KeysOf = Callable[[Mapping[str, Any], Sequence[Action], DrawStream], KeyOf]

GAMES: Mapping[str, KeysOf] = {
    "scopa": scopa_keys,
    "briscola": briscola_keys,
    "tressette": tressette_keys,
    "tresette": tressette_keys,
    "tute": tute_keys,
    "calabrasella": calabrasella_keys,
    "burraco": burraco_keys,
    "rumino": rumino_keys,
    "sette-e-mezzo": sette_keys,
    "ziginette": ziginette_keys,
}
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
