"""The bot interface and the random bot."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from ..games.base import Action

__all__ = ["Bot", "RandomBot", "make_bot", "choose_claim", "BOT_KINDS"]


class Bot(Protocol):
    """Chooses an action for one seat.

    ``choose`` receives the seat's observation and the non-empty, sorted list of legal actions,
    and must return one element of ``legal``. It must not keep references to mutable state it was
    given, and it must be deterministic for a given seed so matches can be reproduced.
    """

    name: str

    def choose(self, observation: Mapping[str, Any], legal: Sequence[Action]) -> Action: ...


def choose_claim(bot: Bot, observation: Mapping[str, Any],
                 claims: Sequence[Action]) -> Action | None:
    """Ask ``bot`` whether to make one of the out-of-turn ``claims`` open to its seat now.

    A bot takes part in claims by having a ``claim(observation, claims) -> Action | None``
    method (returning one element of ``claims``, or ``None`` to let the window pass); a bot
    without one never claims.
    """
    method = getattr(bot, "claim", None)
    if method is None or not claims:
        return None
    choice: Action | None = method(observation, claims)
    return choice


class RandomBot:
    """Plays a uniformly random legal action, and makes a random claim half of the time."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, observation: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        return legal[self._rng.randrange(len(legal))]

    def claim(self, observation: Mapping[str, Any], claims: Sequence[Action]) -> Action | None:
        if self._rng.random() < 0.5:
            return None
        return claims[self._rng.randrange(len(claims))]


BOT_KINDS = ("smart", "random")


def make_bot(game: str, kind: str = "smart", seed: int | None = None) -> Bot:
    """A bot for ``game``: ``smart`` (the game's rule-of-thumb bot) or ``random``."""
    from .burraco import BurracoBot
    from .heuristic import BriscolaBot, ScopaBot, TressetteBot

    if kind == "random":
        return RandomBot(seed)
    if kind != "smart":
        raise ValueError(f"unknown bot kind {kind!r} (kinds: {', '.join(BOT_KINDS)})")
    if game == "burraco":
        return BurracoBot(seed)
    by_game: dict[str, type[ScopaBot | BriscolaBot | TressetteBot]] = {
        "scopa": ScopaBot, "briscola": BriscolaBot, "tressette": TressetteBot,
        "tresette": TressetteBot,
    }
    bot_class = by_game.get(game)
    return bot_class(seed) if bot_class is not None else RandomBot(seed)
