"""The errors of the network layer: one sentence for the user and an exit status each."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import trio

__all__ = [
    "unwrap_failure",
    "one_failure",
    "EXIT_NETWORK",
    "EXIT_VIOLATION",
    "MatchFailure",
    "CannotResume",
    "NetError",
    "PeerGone",
    "BadFrame",
    "HandshakeError",
]

EXIT_VIOLATION = 1
EXIT_NETWORK = 3


class MatchFailure(Exception):
    """A match or a connection that ended badly; ``str()`` is one sentence for the user.

    ``status`` is the exit status the command line returns (:data:`EXIT_NETWORK` unless a
    protocol violation was proven, :data:`EXIT_VIOLATION`).
    """

    def __init__(self, message: str, status: int = EXIT_NETWORK) -> None:
        super().__init__(message)
        self.status = status


class CannotResume(MatchFailure):
    """A resumed seat cannot be rebuilt from its transcript and kept secrets: nothing was sent,
    and what the peer kept stays for another try. Its exit status is 2: what was given (the
    transcript, the home) does not fit."""

    def __init__(self, message: str) -> None:
        super().__init__(message, 2)


class NetError(MatchFailure):
    """A problem with one connection (the stream, its frames or its messages)."""


class PeerGone(NetError):
    """The other side closed or reset the connection."""


class BadFrame(NetError):
    """The other side sent an oversized frame, a truncated frame or an undecodable message."""


class HandshakeError(NetError):
    """The seating handshake failed: wrong invite, a key not proven, a refused or bad genesis."""


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
