"""The errors of a match that ends badly, down to the seating handshake's: one sentence for the
user and an exit status each. No I/O here, so the sans-IO seating code can raise them; the
network layer adds its own (:mod:`p2pcards.net.errors`)."""

from __future__ import annotations

__all__ = [
    "EXIT_NETWORK",
    "EXIT_VIOLATION",
    "MatchFailure",
    "NetError",
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


class NetError(MatchFailure):
    """A problem with one connection (the stream, its frames or its messages)."""


class HandshakeError(NetError):
    """The seating handshake failed: wrong invite, a key not proven, a refused or bad genesis."""
