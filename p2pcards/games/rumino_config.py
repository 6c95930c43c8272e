"""Rumino's variant config, its constants and the price of a rebuy (see
:mod:`p2pcards.games.rumino` for the rules).

Rule text: the Rumino part of ``italian-card-games.txt``: seven cards dealt to each player, the
knock at a deadwood of seven or less ("Going out"), a stake paid into a pool and rebuys that
double in price ("Ending the game").
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .base import BadPlayerCount, UnknownFlag, VariantConfig

__all__ = [
    "EXHAUSTED",
    "HAND_SIZE",
    "KNOCK_LIMIT",
    "PLAYER_COUNTS",
    "RuminoConfig",
    "paid_in",
    "rebuy_price",
]

PLAYER_COUNTS = (2, 3, 4, 5, 6)
HAND_SIZE = 7
KNOCK_LIMIT = 7
"""A player may knock with this much deadwood or less."""
EXHAUSTED = ("score", "void")


@dataclass(frozen=True)
class RuminoConfig(VariantConfig):
    """The variant of a Rumino match; validated on construction."""

    players: int
    stake: int = field(
        default=0,
        metadata={
            "doc": "the value of one stake (every seat pays one into the pool, rebuys cost "
            "1, 2, 4... stakes, the winner takes the pool); 0 plays without money or rebuys",
        },
    )
    exhausted: str = field(
        default="score",
        metadata={
            "doc": "when the stock runs out: score (every player adds its deadwood) or void "
            "(nobody scores the hand)",
            "choices": EXHAUSTED,
        },
    )

    def __post_init__(self) -> None:
        if not isinstance(self.players, int) or self.players not in PLAYER_COUNTS:
            raise BadPlayerCount(f"rumino is for 2 to 6 players, not {self.players!r}")
        if not isinstance(self.stake, int) or isinstance(self.stake, bool) or self.stake < 0:
            raise UnknownFlag(f"flag 'stake' of rumino takes an integer of 0 or more, "
                              f"not {self.stake!r}")
        if self.exhausted not in EXHAUSTED:
            raise UnknownFlag(f"flag 'exhausted' of rumino takes one of "
                              f"{', '.join(EXHAUSTED)}, not {self.exhausted!r}")


def paid_in(stake: int, rebuys: int) -> int:
    """What a seat has paid into the pool after ``rebuys`` rebuys: its stake and their
    prices."""
    return stake + sum(rebuy_price(stake, k) for k in range(rebuys))


def rebuy_price(stake: int, rebuys_before: int) -> int:
    """The price of a seat's next rebuy: the stake, then doubling (1, 2, 4... stakes)."""
    return stake << rebuys_before
