"""Errors of the relay protocol.

:class:`RelayProtocolError` is raised by the sans-IO code for bytes that break the relay protocol;
its ``reason`` is a stable kebab-case identifier (the one the relay counts and sends back in its
``error`` message) and its message one sentence naming what is wrong. :class:`RelayRejected` is
what a client raises when the relay refused or dropped it, carrying the relay's reason.
"""

from __future__ import annotations

__all__ = ["RelayError", "RelayProtocolError", "RelayRejected", "RelayUnavailable"]


class RelayError(Exception):
    """Base of every relay error; ``reason`` is a stable kebab-case identifier."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message

    def __str__(self) -> str:
        return f"{self.message} [{self.reason}]"


class RelayProtocolError(RelayError):
    """The other side sent bytes that break the relay protocol (or a limit)."""


class RelayRejected(RelayError):
    """The relay refused this client or closed its room; ``reason`` is the relay's."""


class RelayUnavailable(RelayError):
    """The relay could not be reached, or the connection broke and could not be re-established."""
