"""A seat's secrets, fresh or seeded, and bot players.

Seeded seats (``--seed N``, for demos, tests and benchmarks only: the keys are predictable)
derive exactly what :func:`p2pcards.offline.memory.make_tables` derives for the same seed, so a
match over the network with seed ``N`` is the very match
:func:`p2pcards.offline.memory.run_in_memory` plays in memory with that seed and the bots of
:func:`bot_player` (same genesis, same frames).
"""

from __future__ import annotations

from ..bots.base import choose_claim
from ..bots.loader import BotLoadError, load_bot
from ..crypto import DeterministicRandomness, Randomness, SystemRandomness
from ..games.base import Action
from ..seating.secrets import SeatSecrets, new_seat
from ..table import Table
from ..wire.identity import IdentityKey
from .errors import MatchFailure
from .player import Player

__all__ = ["seat_secrets", "table_rng", "bot_player", "bot_seed", "BOT_FAILED"]


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


BOT_FAILED = 4
"""Exit status of a peer whose own bot failed (raised, or chose a move that is not legal)."""


def bot_player(game: str, seat: int, seed: int | None, kind: str = "smart") -> Player:
    """A player for ``seat`` that asks the bot ``kind`` names (see :mod:`p2pcards.bots.loader`:
    ``smart``, ``random`` or a user's ``module:callable``).

    A bot that raises, or returns a move that is not one of those offered, ends this seat's
    match with a :class:`~.errors.MatchFailure` (exit status :data:`BOT_FAILED`) naming the bot
    and what it did; nothing it chose is ever sent.
    """
    try:
        bot = load_bot(kind, game, seat, bot_seed(seat, seed))
    except BotLoadError as exc:
        raise MatchFailure(str(exc), BOT_FAILED) from None

    def fail(what: str) -> MatchFailure:
        return MatchFailure(f"the bot {bot.name!r} at seat {seat} {what}; the seat leaves the "
                            f"table", BOT_FAILED)

    async def decide(table: Table) -> Action:
        legal = table.legal_actions()
        try:
            choice = bot.choose(table.observation(), legal)
        except Exception as exc:  # a user's bot: report it, never a traceback
            raise fail(f"raised {type(exc).__name__}: {exc}") from None
        if choice not in legal:
            raise fail(f"chose {choice!r}, which is not one of its {len(legal)} legal moves")
        return choice

    async def claim(table: Table) -> Action | None:
        claims = table.claim_actions()
        try:
            choice = choose_claim(bot, table.observation(), claims)
        except Exception as exc:
            raise fail(f"raised {type(exc).__name__}: {exc} when asked to claim") from None
        if choice is not None and choice not in claims:
            raise fail(f"claimed {choice!r}, which is not one of the claims open to it")
        return choice

    return Player(decide, claim=claim)
