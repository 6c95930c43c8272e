"""Burraco hand scoring: card values, burraco bonuses, closing, the pozzetto penalty.

Pure arithmetic over melds and the cards left in hand (italian-card-games.txt):

- card values: joker 30, 2 20, ace 15, king to 8 10, 7 to 3 5 (a wild card counts its own
  value wherever it lies);
- each side adds the values of the cards in its melds and subtracts the values of the cards
  left in its players' hands (a pozzetto taken but never looked at counts as its taker's hand);
- each burraco (a meld of 7 cards or more): clean (no card used as wild) 200, dirty 100;
- closing: 100 to the side that closed (nobody when the hand ended on the stock or a
  stalemate);
- a side that never took its pozzetto: -100.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from operator import attrgetter

from ..cards import FRENCH_108, JOKER_SUIT, Card
from .base import HandResult, ScoreLine
from .burraco_melds import Meld

__all__ = [
    "CLEAN_BURRACO",
    "CLOSING",
    "DIRTY_BURRACO",
    "NO_POZZETTO",
    "SideTally",
    "card_value",
    "cards_value",
    "score_hand",
]

CLEAN_BURRACO = 200
DIRTY_BURRACO = 100
CLOSING = 100
NO_POZZETTO = -100


def card_value(c: Card) -> int:
    """Joker 30, 2 20, ace 15, king to 8 10, 7 to 3 5."""
    if c.suit == JOKER_SUIT:
        return 30
    if c.rank == 2:
        return 20
    if c.rank == 1:
        return 15
    return 10 if c.rank >= 8 else 5


def cards_value(cards: Iterable[Card]) -> int:
    """The sum of :func:`card_value` (looked up by code for the deck's cards)."""
    listed = list(cards)
    try:
        return sum(map(_VALUES.__getitem__, map(_CODE, listed)))
    except KeyError:  # a card of another deck, which only a testing aid can place
        return sum(card_value(c) for c in listed)


_VALUES: dict[str, int] = {c.code: card_value(c) for c in FRENCH_108.cards}
"""Per code of a card of the deck, its :func:`card_value`."""
_CODE = attrgetter("code")


@dataclass(frozen=True)
class SideTally:
    """What one side has at the end of a hand."""

    melds: Sequence[Meld]
    in_hand: Sequence[Card]
    """Cards left in the hands of the side's players, with any pozzetto taken but unseen."""
    closed: bool
    took_pozzetto: bool


def score_hand(sides: Sequence[SideTally]) -> HandResult:
    """The hand result: lines ``melds``, ``cards in hand``, ``clean burraco``,
    ``dirty burraco``, ``closing``, ``pozzetto not taken`` (values per side: card points,
    card points, counts, counts, 1 or 0, 1 or 0)."""
    melded = tuple(cards_value(c for m in s.melds for c in m.cards) for s in sides)
    held = tuple(cards_value(s.in_hand) for s in sides)
    clean = tuple(sum(1 for m in s.melds if m.burraco and m.clean) for s in sides)
    dirty = tuple(sum(1 for m in s.melds if m.burraco and not m.clean) for s in sides)
    closed = tuple(int(s.closed) for s in sides)
    missed = tuple(int(not s.took_pozzetto) for s in sides)
    lines = (
        ScoreLine("melds", melded, melded),
        ScoreLine("cards in hand", held, tuple(-v for v in held)),
        ScoreLine("clean burraco", clean, tuple(CLEAN_BURRACO * v for v in clean)),
        ScoreLine("dirty burraco", dirty, tuple(DIRTY_BURRACO * v for v in dirty)),
        ScoreLine("closing", closed, tuple(CLOSING * v for v in closed)),
        ScoreLine("pozzetto not taken", missed, tuple(NO_POZZETTO * v for v in missed)),
    )
    points = tuple(sum(line.points[i] for line in lines) for i in range(len(sides)))
    return HandResult(lines, points)
