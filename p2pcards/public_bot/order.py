"""The canonical order of actions and the choice by keys (protocol/BOTS.md §3)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..cards import Card
from ..games.base import Action

__all__ = ["Key", "KeyOf", "canonical_key", "first_lowest"]

Key = tuple[int, ...]
"""A choice key: the bot plays the legal action with the lowest key (tuples compare in order)."""

KeyOf = Callable[[Action], Key]


def _card_key(c: Card) -> tuple[int, bytes, int]:
    return (c.rank, c.suit.encode(), c.copy)


def canonical_key(action: Action) -> tuple[object, ...]:
    """The canonical order: ``kind`` (UTF-8 bytes), then ``card`` (absent first, then by rank,
    suit letter, copy), then ``cards`` (element by element, a prefix first), then ``value``
    (UTF-8 bytes), then ``amount``."""
    card = () if action.card is None else (_card_key(action.card),)
    return (action.kind.encode(), card, tuple(_card_key(c) for c in action.cards),
            action.value.encode(), action.amount)


def first_lowest(legal: Sequence[Action], key_of: KeyOf) -> Action:
    """The first action, in canonical order, whose key is the lowest of ``legal``."""
    ordered = sorted(legal, key=canonical_key)
    best = ordered[0]
    best_key = key_of(best)
    for action in ordered[1:]:
        key = key_of(action)
        if key < best_key:
            best, best_key = action, key
    return best
