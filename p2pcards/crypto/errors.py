"""The exception hierarchy of the mental-poker layer.

Every error raised by :mod:`p2pcards.crypto` for bad input is a :class:`CryptoError`; no
``RuntimeError``, ``ValueError`` or ``TypeError`` from libsodium or ``cryptography`` escapes.
Each message is one sentence naming what is wrong and where. Two attributes locate the fault:

``seat``
    the seat whose message or proof is at fault, when known (else ``None``);
``step``
    the protocol step (the ``step`` of the :class:`~p2pcards.crypto.ProofContext`), when known.

When both are known the message starts with them, e.g.
``seat 2, step 'shuffle-1': shuffle proof does not verify (t3 equation)``.
"""

from __future__ import annotations

__all__ = [
    "CryptoError",
    "InvalidEncoding",
    "InvalidPoint",
    "InvalidScalar",
    "ProofError",
    "DecryptionError",
    "AuditError",
]


def _where(seat: int | None, step: str | None) -> str:
    if seat is not None and step is not None:
        return f"seat {seat}, step {step!r}: "
    if seat is not None:
        return f"seat {seat}: "
    if step is not None:
        return f"step {step!r}: "
    return ""


class CryptoError(Exception):
    """Base of every error of this layer; ``seat`` and ``step`` locate the fault when known.

    ``reason`` is the message without the ``seat .., step ..:`` prefix.
    """

    def __init__(self, reason: str, *, seat: int | None = None, step: str | None = None) -> None:
        super().__init__(_where(seat, step) + reason)
        self.reason = reason
        self.seat = seat
        self.step = step


class InvalidEncoding(CryptoError):
    """Data from outside that does not decode: wrong type, length or count; names the field."""


class InvalidPoint(InvalidEncoding):
    """32 bytes that are not an acceptable group element (off the curve, not canonical, outside
    the prime-order subgroup, of small order, or the identity)."""


class InvalidScalar(InvalidEncoding):
    """32 bytes that are not a canonical scalar (little-endian integer below the group order)."""


class ProofError(CryptoError):
    """A zero-knowledge proof (key, shuffle or reveal token) that does not verify."""


class DecryptionError(CryptoError):
    """A ciphertext that does not decrypt to a card of the deck, or a sealed token that does not
    open."""


class AuditError(CryptoError):
    """The end-of-hand audit found a mismatch; ``seat`` and ``step`` name the culprit record."""
