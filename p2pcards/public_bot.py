"""The public bot of ``dropout = bot`` (SPEC §9.13.7): how every participant chooses the move of
a seat that dropped out, the same at every seat and at a verifier.

The choice reads only the public view of the hand (an engine replayed with the cards every
participant can decrypt) and a seed that nothing any seat sends goes into, so nobody (not the
hub, not the seat's partner) can choose or steer the bot's moves. Part of the sans-IO core.
"""

from __future__ import annotations

import hashlib

from .bots.base import make_bot
from .games.base import Action, MatchState

__all__ = ["bot_seed", "public_move", "SEED_LABEL"]

SEED_LABEL = b"p2pcards bot seed"
"""The first bytes hashed into every seed of the public bot."""


def bot_seed(table_id: bytes, cycle: int, moves: int) -> int:
    """The seed of the public bot's move after ``moves`` recorded actions of deck ``cycle``:
    the first 8 bytes, big-endian, of SHA-256 of :data:`SEED_LABEL`, the table id and the two
    counters as 8-byte big-endian integers."""
    digest = hashlib.sha256(SEED_LABEL + table_id + cycle.to_bytes(8, "big")
                            + moves.to_bytes(8, "big")).digest()
    return int.from_bytes(digest[:8], "big")


def public_move(game: str, view: MatchState, seat: int, seed: int) -> Action | None:
    """The move of the public bot in ``seat``: the game's rule-of-thumb bot, made anew with
    ``seed``, choosing among the public ``view``'s legal actions from its observation of
    ``seat``; ``None`` when the view does not have ``seat`` to act or gives it no move."""
    if view.to_act != seat:
        return None
    legal = view.legal_actions()
    if not legal:
        return None
    return make_bot(game, "smart", seed).choose(view.observation(seat), legal)
