"""The bot interface and the random bot."""

from __future__ import annotations

import importlib
import random
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, cast

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


_SMART_BOTS: Mapping[str, tuple[str, str]] = {
    "scopa": ("heuristic", "ScopaBot"), "briscola": ("heuristic", "BriscolaBot"),
    "tressette": ("heuristic", "TressetteBot"), "tresette": ("heuristic", "TressetteBot"),
    "tute": ("tute", "TuteBot"), "sette-e-mezzo": ("banking", "SetteBot"),
    "ziginette": ("banking", "ZiginetteBot"), "calabrasella": ("calabrasella", "CalabrasellaBot"),
    "burraco": ("burraco", "BurracoBot"), "rumino": ("rumino", "RuminoBot"),
}
"""The module and class of each game's ``smart`` bot, imported when a bot of that game is made
(a process that plays one game does not load the others' bots)."""


def make_bot(game: str, kind: str = "smart", seed: int | None = None) -> Bot:
    """A bot for ``game``: ``smart`` (the game's rule-of-thumb bot) or ``random``."""
    if kind == "random":
        return RandomBot(seed)
    if kind != "smart":
        raise ValueError(f"unknown bot kind {kind!r} (kinds: {', '.join(BOT_KINDS)})")
    where = _SMART_BOTS.get(game)
    if where is None:
        return RandomBot(seed)
    module = importlib.import_module(f"{__package__}.{where[0]}")
    bot_class: type[Any] = getattr(module, where[1])
    return cast(Bot, bot_class(seed))
