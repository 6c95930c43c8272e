"""Rules engines, one module per game, behind the shared API of :mod:`p2pcards.games.base`.

:func:`get_game` finds a game by name; :func:`all_games` lists them in a stable order. Each game
module exports ``SPECS``, a tuple of :class:`~p2pcards.games.base.GameSpec`.
"""

from __future__ import annotations

import importlib
from functools import cache

from .base import GameSpec, UnknownGame

__all__ = ["GAME_MODULES", "all_games", "get_game"]

GAME_MODULES = ("scopa", "briscola", "tressette", "calabrasella", "tute", "burraco", "rumino",
                "sette_e_mezzo", "ziginette")
"""Modules under :mod:`p2pcards.games` that define games, in listing order."""


@cache
def _registry() -> dict[str, GameSpec]:
    out: dict[str, GameSpec] = {}
    for module_name in GAME_MODULES:
        module = importlib.import_module(f"{__name__}.{module_name}")
        for spec in module.SPECS:
            out[spec.name] = spec
    return out


def all_games() -> tuple[GameSpec, ...]:
    """Every implemented game, in listing order."""
    return tuple(_registry().values())


def get_game(name: str) -> GameSpec:
    """The game called ``name`` (case-insensitive); :class:`UnknownGame` listing the known ones."""
    registry = _registry()
    try:
        return registry[name.lower()]
    except KeyError:
        raise UnknownGame(f"unknown game {name!r} (games: {', '.join(registry)})") from None
