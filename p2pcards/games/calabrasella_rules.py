"""Pure rule functions of Calabrasella: card points, the card the declarer may call, the hand's
totals and the chip settlement. No game state; see :mod:`p2pcards.games.calabrasella`.

- Card points (italian-card-games.txt, whole points): Asso 3, each 3, 2, Re, Cavallo, Fante 1,
  others 0: 32 in the deck; the last trick adds 3, so 35 per hand in all.
- The call: the declarer names a 3 it does not hold; holding all four 3s, a 2 it does not hold.
  The text stops there; a 12-card hand may also hold all four 2s (or 3s, 2s and aces): the rule
  is then carried down the rank order (an Asso, then a Re), so a call always exists.
- Settlement: the difference between the two sides' totals, paid by each defender to the
  declarer (declarer ahead) or by the declarer to each defender (defenders ahead); doubled on a
  35-0 hand (flag ``double``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType

from ..cards import ITALIAN_40, ITALIAN_SUITS, Card
from .tricks import TRESSETTE_ORDER

__all__ = [
    "CALL_LEVELS",
    "DOUBLE_RULES",
    "LAST_TRICK_BONUS",
    "ORDER",
    "POINTS",
    "TOTAL_POINTS",
    "call_level",
    "callable_cards",
    "card_points",
    "chip_deltas",
    "settle",
]

ORDER = TRESSETTE_ORDER
"""3, 2, Asso, Re, Cavallo, Fante, 7, 6, 5, 4 (high to low): the rank order of every trick."""

POINTS: Mapping[int, int] = MappingProxyType({1: 3, 2: 1, 3: 1, 8: 1, 9: 1, 10: 1})
"""Whole card points by rank: Asso 3; 2, 3 and the face cards (8, 9, 10) 1; others 0."""

LAST_TRICK_BONUS = 3
TOTAL_POINTS = 35
"""32 card points in the deck plus the last-trick bonus."""

CALL_LEVELS: tuple[int, ...] = ORDER.high_to_low
"""Ranks in the order the call rule descends them: 3 first, then 2, then Asso, ..."""

DOUBLE_RULES = ("35-0", "zero")
"""``35-0``: payments doubled when one side scores all 35 points (so the other 0), as the text
says; ``zero``: doubled whenever the losing side scores nothing."""


def card_points(cards: Iterable[Card]) -> int:
    """The card points of ``cards`` (no last-trick bonus)."""
    get = POINTS.get
    return sum([get(c.rank, 0) for c in cards])


_RANK_CARDS: Mapping[int, tuple[Card, ...]] = MappingProxyType({
    rank: tuple(next(c for c in ITALIAN_40.cards if (c.rank, c.suit) == (rank, s))
                for s in ITALIAN_SUITS)
    for rank in CALL_LEVELS
})
"""The deck's cards of each rank, in suit order."""


def call_level(hand: Iterable[Card]) -> int:
    """The rank the declarer holding ``hand`` must call: the first rank of :data:`CALL_LEVELS`
    of which it does not hold all four suits (3 unless it holds the four 3s)."""
    return _call_level({c.code for c in hand})


def _call_level(held: set[str]) -> int:
    """:func:`call_level` of a hand given by its cards' codes (a code names one card, so a
    card is held exactly when its code is)."""
    for rank in CALL_LEVELS:
        if any(c.code not in held for c in _RANK_CARDS[rank]):
            return rank
    raise ValueError("a hand holding every card of every rank has no card to call")


def callable_cards(hand: Iterable[Card]) -> list[Card]:
    """The cards the declarer holding ``hand`` may call, in suit order."""
    held = {c.code for c in hand}
    return [c for c in _RANK_CARDS[_call_level(held)] if c.code not in held]


def chip_deltas(declarer: int, players: int, declarer_total: int, defenders_total: int,
                double: str = "35-0") -> tuple[int, ...]:
    """The chips each seat wins (positive) or pays (negative) for a hand; they sum to zero.

    Each defender pays the declarer the difference when the declarer scored more, the declarer
    pays each defender the difference when it scored less; a tie moves nothing. Doubled when
    ``double`` says so (:data:`DOUBLE_RULES`).
    """
    diff = declarer_total - defenders_total
    low = min(declarer_total, defenders_total)
    high = max(declarer_total, defenders_total)
    doubled = low == 0 and (high == TOTAL_POINTS if double == "35-0" else high > 0)
    unit = diff * (2 if doubled else 1)
    return tuple(
        unit * (players - 1) if seat == declarer else -unit for seat in range(players)
    )


def settle(balances: Sequence[int], deltas: Sequence[int]) -> tuple[int, ...]:
    """The chip balances after paying ``deltas``: the one place balances change.

    Kept as a plain per-seat tuple so it can be swapped for a shared ledger without touching the
    engine. Raises ``ValueError`` if the lengths differ or the deltas do not sum to zero.
    """
    if len(balances) != len(deltas):
        raise ValueError(f"{len(deltas)} payments for {len(balances)} chip balances")
    if sum(deltas) != 0:
        raise ValueError(f"chip payments {list(deltas)} do not sum to zero")
    return tuple(b + d for b, d in zip(balances, deltas, strict=True))
