"""The errors of the network layer: one sentence for the user and an exit status each.

The failures a match shares with the sans-IO seating code (:class:`MatchFailure`,
:class:`NetError`, :class:`HandshakeError` and the exit statuses) are defined in
:mod:`p2pcards.seating.errors` and named here too, so that the network layer has its errors in
one place; what needs Trio (:func:`~p2pcards.net.nursery.one_failure`) is in
:mod:`p2pcards.net.nursery`.
"""

from __future__ import annotations

from ..seating.errors import EXIT_NETWORK, EXIT_VIOLATION, HandshakeError, MatchFailure, NetError

__all__ = [
    "EXIT_NETWORK",
    "EXIT_VIOLATION",
    "MatchFailure",
    "CannotResume",
    "NetError",
    "PeerGone",
    "BadFrame",
    "HandshakeError",
]


class CannotResume(MatchFailure):
    """A resumed seat cannot be rebuilt from its transcript and kept secrets: nothing was sent,
    and what the peer kept stays for another try. Its exit status is 2: what was given (the
    transcript, the home) does not fit."""

    def __init__(self, message: str) -> None:
        super().__init__(message, 2)


class PeerGone(NetError):
    """The other side closed or reset the connection."""


class BadFrame(NetError):
    """The other side sent an oversized frame, a truncated frame or an undecodable message."""
