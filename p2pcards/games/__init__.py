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
def _module_specs(module_name: str) -> dict[str, GameSpec]:
    """The games that the module ``module_name`` of :data:`GAME_MODULES` defines, by name."""
    module = importlib.import_module(f"{__name__}.{module_name}")
    return {spec.name: spec for spec in module.SPECS}


@cache
def _registry() -> dict[str, GameSpec]:
    out: dict[str, GameSpec] = {}
    for module_name in GAME_MODULES:
        out.update(_module_specs(module_name))
    return out


def all_games() -> tuple[GameSpec, ...]:
    """Every implemented game, in listing order."""
    return tuple(_registry().values())


def get_game(name: str) -> GameSpec:
    """The game called ``name`` (case-insensitive); :class:`UnknownGame` listing the known ones.

    Until every game is listed, a game whose module is named after it (``sette-e-mezzo`` in
    ``sette_e_mezzo``) is found by importing that module alone, so that a process playing one
    game does not import the others."""
    key = name.lower()
    if _registry.cache_info().currsize == 0:
        own = _own_module(key)
        if own is not None:
            return own
    registry = _registry()
    try:
        return registry[key]
    except KeyError:
        raise UnknownGame(f"unknown game {name!r} (games: {', '.join(registry)})") from None


def _own_module(key: str) -> GameSpec | None:
    """The game ``key`` from the module of :data:`GAME_MODULES` named after it, or None."""
    module_name = key.replace("-", "_")
    if module_name not in GAME_MODULES:
        return None
    return _module_specs(module_name).get(key)
