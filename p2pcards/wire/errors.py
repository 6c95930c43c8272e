"""The exception hierarchy of the wire layer.

Every error caused by bytes that came from somewhere else (a peer, a relay, a file) is a
:class:`ProtocolError`, so a caller can always write ``except ProtocolError`` around decoding and
know nothing else escapes: that is the contract the fuzz tests check. Each error's message is one
sentence naming what is wrong and where. Two optional attributes locate the fault:

``seat``
    the seat held responsible (the signer of the offending envelope), when known;
``index``
    the chain position (sequence number) or transcript index concerned, when there is one.

The classes for one layer live here so that modules can raise each other's errors without import
cycles; each module re-exports the ones it raises.
"""

from __future__ import annotations

__all__ = [
    "ProtocolError",
    "EncodeError",
    "DecodeError",
    "FrameTooLarge",
    "FrameTruncated",
    "BadKey",
    "MalformedEnvelope",
    "UnknownSeat",
    "BadSignature",
]


class ProtocolError(Exception):
    """Base of every wire-layer error; carries the culprit ``seat`` and ``index`` when known."""

    def __init__(self, message: str, *, seat: int | None = None, index: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.seat = seat
        self.index = index

    def __str__(self) -> str:
        return self.message


class EncodeError(ProtocolError):
    """A value cannot be put in canonical msgpack: a float, an unknown type, a non-text map key,
    an integer outside signed 64-bit, text that is not valid Unicode, or nesting too deep."""


class DecodeError(ProtocolError):
    """Bytes that are not exactly one canonical msgpack value within the limits."""


class FrameTooLarge(ProtocolError):
    """A frame length prefix announces more bytes than the maximum frame size."""


class FrameTruncated(ProtocolError):
    """A stream ended in the middle of a frame."""


class BadKey(ProtocolError):
    """Bytes that are not a usable Ed25519 key (wrong length, not a prime-order point)."""


class MalformedEnvelope(ProtocolError):
    """An envelope or its payload does not have the required structure or field types."""


class UnknownSeat(MalformedEnvelope):
    """A payload names a seat for which no identity key is known."""


class BadSignature(ProtocolError):
    """An envelope's signature does not verify with the identity key of the seat it names."""
