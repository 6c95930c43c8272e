"""Calabrasella's variant config, its constants and the stages of a hand (see
:mod:`p2pcards.games.calabrasella` for the rules)."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from .base import BadPlayerCount, UnknownFlag, VariantConfig
from .calabrasella_rules import DOUBLE_RULES

__all__ = [
    "DEALT",
    "HAND_SIZE",
    "MAX_CALL_LEVEL",
    "PLAYERS",
    "SET_ASIDE_RULES",
    "WIDOW_SIZE",
    "CalabrasellaConfig",
    "Stage",
]

PLAYERS = 3
HAND_SIZE = 12
WIDOW_SIZE = 4
DEALT = PLAYERS * HAND_SIZE
SET_ASIDE_RULES = ("out", "last-trick")
MAX_CALL_LEVEL = HAND_SIZE // 4
"""A 12-card hand holds all four cards of at most 3 ranks, so the call is at most the 4th rank
of :data:`CALL_LEVELS` (a Re, after all 3s, 2s and aces)."""


@dataclass(frozen=True)
class CalabrasellaConfig(VariantConfig):
    """The variant of a Calabrasella match (see the module docstring for each rule)."""

    players: int = field(metadata={"doc": "always 3"})
    start_chips: int = field(
        default=100, metadata={"doc": "chips each seat starts the match with (at least 1)"}
    )
    hands: int = field(
        default=6,
        metadata={"doc": "hands to play (voided deals not counted); 0: until a seat is broke"},
    )
    set_aside: str = field(
        default="out",
        metadata={
            "doc": "out: discards and unused widow score for nobody; last-trick: they go to the "
            "last trick's winner",
            "choices": SET_ASIDE_RULES,
        },
    )
    double: str = field(
        default="35-0",
        metadata={
            "doc": "35-0: payments doubled when a side scores all 35; zero: whenever the "
            "losing side scores nothing",
            "choices": DOUBLE_RULES,
        },
    )

    def __post_init__(self) -> None:
        if self.players != PLAYERS:
            raise BadPlayerCount(f"calabrasella is for 3 players, not {self.players!r}")
        for name in ("start_chips", "hands"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise UnknownFlag(f"flag {name!r} of calabrasella takes an int, not {value!r}")
        if self.start_chips < 1:
            raise UnknownFlag(f"flag 'start_chips' of calabrasella must be at least 1, "
                              f"not {self.start_chips}")
        if self.hands < 0:
            raise UnknownFlag(f"flag 'hands' of calabrasella must be 0 or more, not {self.hands}")
        if self.set_aside not in SET_ASIDE_RULES:
            raise UnknownFlag(f"flag 'set_aside' of calabrasella takes one of "
                              f"{', '.join(SET_ASIDE_RULES)}, not {self.set_aside!r}")
        if self.double not in DOUBLE_RULES:
            raise UnknownFlag(f"flag 'double' of calabrasella takes one of "
                              f"{', '.join(DOUBLE_RULES)}, not {self.double!r}")


class Stage(enum.Enum):
    """Where a hand stands (finer than :class:`Phase`)."""

    DEAL = "deal"
    BIDDING = "bidding"
    CALL = "call"
    ANSWER = "answer"
    RETURN = "return"
    DISCARD = "discard"
    WIDOW = "widow"
    TAKE = "take"
    TRICKS = "tricks"
    OVER = "over"
