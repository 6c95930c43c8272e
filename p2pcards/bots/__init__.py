"""Bots that fill seats: the :class:`Bot` interface, a random bot and rule-of-thumb bots.

A bot sees exactly what a person at that seat sees: the seat's observation (plain data, see each
game's page in ``docs/games/``) and the sorted legal actions; it returns one of those actions.
Third-party bots implement :class:`Bot` and register nothing: pass an instance to the driver.
"""

from __future__ import annotations

from .base import Bot, RandomBot, make_bot
from .heuristic import BriscolaBot, ScopaBot, TressetteBot

__all__ = ["Bot", "RandomBot", "ScopaBot", "BriscolaBot", "TressetteBot", "make_bot"]
