"""A Trio nursery's failure as one sentence: the first :class:`~p2pcards.net.errors.MatchFailure`
out of the exception group a nursery raises."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import trio

from .errors import MatchFailure

__all__ = ["unwrap_failure", "one_failure"]


def unwrap_failure(group: BaseExceptionGroup[BaseException]) -> BaseException:
    """What to raise for ``group``, which came out of a nursery: its first
    :class:`MatchFailure` when everything in it is a match failure or a cancellation (the
    failure cancelled the rest), else ``group`` itself (a bug must stay visible)."""
    failures = group.subgroup(lambda exc: isinstance(exc, MatchFailure))
    rest = group.subgroup(lambda exc: not isinstance(
        exc, MatchFailure | trio.Cancelled | BaseExceptionGroup))  # a group: look inside it
    if failures is None or rest is not None:
        return group
    leaf: BaseException = failures
    while isinstance(leaf, BaseExceptionGroup):
        leaf = leaf.exceptions[0]
    return leaf


@contextmanager
def one_failure() -> Iterator[None]:
    """Around a nursery: a group that holds a match failure (and cancellations) leaves as that
    failure, in one sentence (:func:`unwrap_failure`)."""
    try:
        yield
    except BaseExceptionGroup as group:
        failure = unwrap_failure(group)
        if failure is group:
            raise
        raise failure from None
