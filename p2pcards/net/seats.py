"""A seat's secrets, fresh or seeded, and bot players.

Seeded seats (``--seed N``, for demos, tests and benchmarks only: the keys are predictable)
derive exactly what :func:`p2pcards.local.make_tables` derives for the same seed, so a match
over the network with seed ``N`` is the very match :func:`p2pcards.local.run_in_memory` plays
in memory with that seed and the bots of :func:`bot_player` (same genesis, same frames).
"""

from __future__ import annotations

from ..bots import make_bot
from ..bots.base import choose_claim
from ..crypto import DeterministicRandomness, Randomness, SystemRandomness
from ..games.base import Action
from ..local import SeatSecrets, new_seat
from ..table import Table
from ..wire.identity import IdentityKey
from .session import Player

__all__ = ["seat_secrets", "table_rng", "bot_player", "bot_seed"]


def seat_secrets(seat: int, seed: int | None, identity: IdentityKey | None = None,
                 name: str = "") -> tuple[SeatSecrets, str]:
    """The secrets and name of ``seat``: seeded (as ``make_tables``) or fresh with ``identity``."""
    if seed is not None:
        return new_seat(DeterministicRandomness(f"p2pcards-local-{seed}-{seat}".encode())), \
            f"seat{seat}"
    return new_seat(SystemRandomness(), identity), name


def table_rng(seat: int, seed: int | None) -> Randomness:
    """The table randomness of ``seat`` (seeded as ``make_tables`` does)."""
    if seed is None:
        return SystemRandomness()
    return DeterministicRandomness(f"p2pcards-local-{seed}-{100 + seat}".encode())


def bot_seed(seat: int, seed: int | None) -> int | None:
    """The bot seed of ``seat`` for a seeded match."""
    return None if seed is None else seed * 1000 + seat


def bot_player(game: str, seat: int, seed: int | None) -> Player:
    """A player for ``seat`` that asks the game's smart bot."""
    bot = make_bot(game, "smart", bot_seed(seat, seed))

    async def decide(table: Table) -> Action:
        return bot.choose(table.observation(), table.legal_actions())

    async def claim(table: Table) -> Action | None:
        return choose_claim(bot, table.observation(), table.claim_actions())

    return Player(decide, claim=claim)
