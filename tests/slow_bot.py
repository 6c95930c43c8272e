"""A bot (``--bot tests/slow_bot.py:Slow``) that plays like the smart bot but thinks for a few
seconds before its first move: a seat that is connected and answering, only not at once."""

from __future__ import annotations

import time
from typing import Any

from p2pcards.bots import make_bot

FIRST_MOVE_SECONDS = 4.0


class Slow:
    """The smart bot, :data:`FIRST_MOVE_SECONDS` late for its first move."""

    name = "slow"

    def __init__(self, game: str, seat: int, seed: int | None) -> None:
        self.inner = make_bot(game, "smart", seed)
        self.first = True

    def choose(self, observation: dict[str, Any], legal: list[Any]) -> Any:
        if self.first:
            self.first = False
            time.sleep(FIRST_MOVE_SECONDS)
        return self.inner.choose(observation, legal)
