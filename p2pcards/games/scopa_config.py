"""Scopa's variant config and its player counts (see :mod:`p2pcards.games.scopa` for the rules
and :mod:`p2pcards.games.scopa_scoring` for the scoring, which both read it)."""

from __future__ import annotations

from dataclasses import dataclass, field

from .base import BadPlayerCount, UnknownFlag, VariantConfig, flags_of

__all__ = ["PLAYER_COUNTS", "ScopaConfig"]

PLAYER_COUNTS = (2, 3, 4)


def _choices(*values: object) -> dict[str, object]:
    return {"choices": values}


@dataclass(frozen=True)
class ScopaConfig(VariantConfig):
    """The variant of a Scopa match. Build it with ``SPEC.preset(...)``; direct construction
    checks every field too (:class:`BadPlayerCount`, :class:`UnknownFlag`)."""

    players: int
    ties: str = field(
        default="each",
        metadata={
            "doc": "tie for the most cards, denari or primiera: a point to each tied side or none",
            **_choices("each", "none"),
        },
    )
    denari_needs_six: bool = field(
        default=False,
        metadata={"doc": "the denari point needs 6 or more of the 10 denari (else nobody)"},
    )
    primiera_needs_all_suits: bool = field(
        default=False,
        metadata={"doc": "a side without cards of all four suits cannot win the primiera"},
    )
    napola: bool = field(
        default=False,
        metadata={"doc": "A-2-3 of denari score 3, plus 1 per further consecutive denaro"},
    )
    rebello: bool = field(default=False, metadata={"doc": "the King of denari scores 1 point"})
    sum_choice: str = field(
        default="free",
        metadata={
            "doc": "among sum captures: free choice, or one with the fewest cards",
            **_choices("free", "fewest_cards"),
        },
    )
    redeal_three_kings: bool = field(
        default=False,
        metadata={"doc": "throw in and redeal when 3 or more kings open on the table"},
    )
    target: int = field(
        default=11, metadata={"doc": "points that win the match", **_choices(11, 21, 31)}
    )
    stop_at_target: bool = field(
        default=False,
        metadata={"doc": "count points in order and stop the moment a side reaches the target"},
    )

    def __post_init__(self) -> None:
        if self.players not in PLAYER_COUNTS:
            raise BadPlayerCount(f"scopa is for 2, 3 or 4 players, not {self.players!r}")
        for flag in flags_of(ScopaConfig):
            value = getattr(self, flag.name)
            bad_choice = flag.choices and value not in flag.choices
            if bad_choice or type(value) is not type(flag.default):
                raise UnknownFlag(f"scopa flag {flag.name!r} cannot be {value!r}")
