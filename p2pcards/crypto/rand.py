"""Randomness as an input: the :class:`Randomness` protocol and two implementations.

This layer never reads a random source by itself: every function that needs randomness takes an
``rng`` argument. :class:`SystemRandomness` is for real play; :class:`DeterministicRandomness`
derives everything from a seed (test vectors, reproducible tests) and must never be used for play.
"""

from __future__ import annotations

import builtins
import hashlib
import os
from typing import Protocol, runtime_checkable

from .group import DOMAIN, Scalar, lp

__all__ = ["Randomness", "SystemRandomness", "DeterministicRandomness", "randbelow"]


@runtime_checkable
class Randomness(Protocol):
    """A source of secret random values."""

    def bytes(self, n: int) -> builtins.bytes:
        """``n`` uniformly random bytes."""
        ...

    def scalar(self) -> Scalar:
        """A uniformly random nonzero scalar."""
        ...


def _scalar_from(rng: Randomness) -> Scalar:
    while True:
        s = Scalar.reduce64(rng.bytes(64))
        if not s.is_zero():
            return s


class SystemRandomness:
    """Randomness from the operating system (``os.urandom``)."""

    def bytes(self, n: int) -> builtins.bytes:
        return os.urandom(n)

    def scalar(self) -> Scalar:
        """64 random bytes reduced mod ℓ (bias below 2^-250); redrawn if zero."""
        return _scalar_from(self)


class DeterministicRandomness:
    """A reproducible stream from ``seed``: block ``k`` (k = 0, 1, ...) is
    ``SHA-512(lp(DOMAIN) || lp(b"rng") || lp(seed) || lp(k as 8 bytes big-endian))`` and the
    stream is the concatenation of the blocks. ``scalar()`` takes the next 64 bytes, reduces
    them mod ℓ and draws again if the result is zero. For tests and vectors only.
    """

    def __init__(self, seed: builtins.bytes) -> None:
        if not isinstance(seed, builtins.bytes):
            raise TypeError("seed must be bytes")
        self._prefix = lp(DOMAIN) + lp(b"rng") + lp(seed)
        self._counter = 0
        self._buffer = b""

    def bytes(self, n: int) -> builtins.bytes:
        while len(self._buffer) < n:
            block = hashlib.sha512(self._prefix + lp(self._counter.to_bytes(8, "big"))).digest()
            self._buffer += block
            self._counter += 1
        out, self._buffer = self._buffer[:n], self._buffer[n:]
        return out

    def scalar(self) -> Scalar:
        return _scalar_from(self)


def randbelow(rng: Randomness, bound: int) -> int:
    """A uniform integer in ``[0, bound)`` for ``1 <= bound < 2^32``: 8 bytes read big-endian,
    redrawn while the value is at least ``2^64 - (2^64 mod bound)``, then taken mod ``bound``."""
    if not 1 <= bound < 2**32:
        raise ValueError(f"bound {bound} out of range")
    limit = 2**64 - (2**64 % bound)
    while True:
        v = int.from_bytes(rng.bytes(8), "big")
        if v < limit:
            return v % bound
