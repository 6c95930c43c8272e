"""Every combination of up to a few items of a sorted list, in sorted order, built in C.

The discard choices of Calabrasella (about 800 combinations of one to four cards of a hand)
are listed at every discard decision. :func:`combinations_in_order` makes them with
:func:`itertools.combinations`, one size after another, and puts them in the order ``sorted``
would give with one precomputed permutation, which depends only on the list's length."""

from __future__ import annotations

from functools import lru_cache
from itertools import chain, combinations
from typing import TypeVar

__all__ = ["combinations_in_order"]

T = TypeVar("T")


@lru_cache(maxsize=128)
def _depth_first_positions(length: int, most: int) -> tuple[int, ...]:
    """Where each combination of ``range(length)`` (sizes 1..``most``, in the order
    :func:`_by_size` lists them) stands in sorted order: position ``i`` of the result is the
    index in that list of the ``i``-th smallest combination."""
    by_size = _by_size(list(range(length)), most)
    return tuple(sorted(range(len(by_size)), key=by_size.__getitem__))


def _by_size(items: list[T], most: int) -> list[tuple[T, ...]]:
    """The combinations of 1..``most`` of ``items``: every one of size 1, then of size 2..."""
    return list(chain.from_iterable(combinations(items, size) for size in range(1, most + 1)))


def combinations_in_order(ordered: list[T], most: int) -> list[tuple[T, ...]]:
    """Every combination of 1..``most`` items of ``ordered`` (sorted, distinct), sorted as
    tuples: each combination right before its own extensions. Equal to
    ``sorted(c for k in range(1, most + 1) for c in combinations(ordered, k))``: combinations
    of a sorted list compare as the combinations of their positions do."""
    by_size = _by_size(ordered, most)
    return list(map(by_size.__getitem__, _depth_first_positions(len(ordered), most)))
