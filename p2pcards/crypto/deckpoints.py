"""Card points: the group element that stands for each card of a deck.

``M_c = hash_to_point(b"card", deck.name, card.code)`` (see :func:`~.group.hash_to_point`), so
no two cards have a known discrete-log relation and encrypted cards cannot be told apart by
ratios. The deck name is part of the hash, so a 39-card deck (``italian40-4B``) or the Spanish
deck get their own points.
"""

from __future__ import annotations

from functools import lru_cache

from ..cards import Card, Deck
from .errors import CryptoError, DecryptionError
from .group import Point, hash_to_point

__all__ = ["card_points", "card_of", "card_point"]


@lru_cache(maxsize=32)
def _table(deck: Deck) -> tuple[tuple[Point, ...], dict[Point, Card]]:
    points = tuple(
        hash_to_point(b"card", deck.name.encode("utf-8"), c.code.encode("ascii")) for c in deck
    )
    lookup = dict(zip(points, deck.cards, strict=True))
    if len(lookup) != len(points):  # pragma: no cover - a hash collision
        raise CryptoError(f"two cards of deck {deck.name!r} map to the same point")
    return points, lookup


def card_points(deck: Deck) -> tuple[Point, ...]:
    """The point of every card of ``deck``, in the deck's canonical order (cached)."""
    return _table(deck)[0]


def card_point(deck: Deck, card: Card) -> Point:
    """The point of one card (``BadCardCode`` if the card is not in the deck)."""
    return _table(deck)[0][deck.index(card)]


def card_of(deck: Deck, point: Point) -> Card:
    """The card of ``deck`` whose point is ``point``; :class:`DecryptionError` if none is."""
    found = _table(deck)[1].get(point)
    if found is None:
        raise DecryptionError(
            f"the point {point.to_bytes().hex()} is no card of deck {deck.name!r}"
        )
    return found
