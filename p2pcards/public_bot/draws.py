"""The public bot's seed and its deterministic generator (protocol/BOTS.md §2).

Everything here is integer arithmetic on bytes from SHA-256: no float, no ``random``, so that
an implementation in any language computes the same numbers.
"""

from __future__ import annotations

import hashlib

__all__ = ["SEED_LABEL", "DRAW_LABEL", "DrawStream", "bot_seed"]

SEED_LABEL = b"p2pcards bot seed"
"""The first bytes hashed into every seed of the public bot."""

DRAW_LABEL = b"p2pcards bot draw"
"""The first bytes hashed into every block of the generator."""

_WORD = 8
"""Bytes read for one candidate of a draw."""


def bot_seed(table_id: bytes, cycle: int, moves: int) -> int:
    """The seed of the public bot's move after ``moves`` recorded actions of deck ``cycle``:
    the first 8 bytes, big-endian, of SHA-256 of :data:`SEED_LABEL`, the table id and the two
    counters as 8-byte big-endian integers."""
    digest = hashlib.sha256(SEED_LABEL + table_id + cycle.to_bytes(8, "big")
                            + moves.to_bytes(8, "big")).digest()
    return int.from_bytes(digest[:8], "big")


class DrawStream:
    """SHA-256 in counter mode from one seed: block ``i`` is
    ``SHA-256(DRAW_LABEL || u64(seed) || u64(i))``, the stream is block 0, block 1, … read in
    order, 8 bytes at a time as big-endian unsigned integers (:meth:`word`).

    :meth:`below` draws an integer uniformly in ``[0, n)`` by rejection: a word ``v`` is kept
    when ``v < 2**64 - (2**64 mod n)`` and gives ``v mod n``; otherwise the next word is read.
    """

    def __init__(self, seed: int) -> None:
        if not 0 <= seed < 2 ** 64:
            raise ValueError(f"a bot seed is an unsigned 64-bit integer, not {seed}")
        self._seed = seed
        self._block = 0
        self._buffer = b""

    def word(self) -> int:
        """The next 8 bytes of the stream as a big-endian unsigned integer."""
        if len(self._buffer) < _WORD:
            self._buffer += hashlib.sha256(DRAW_LABEL + self._seed.to_bytes(8, "big")
                                           + self._block.to_bytes(8, "big")).digest()
            self._block += 1
        value = int.from_bytes(self._buffer[:_WORD], "big")
        self._buffer = self._buffer[_WORD:]
        return value

    def below(self, n: int) -> int:
        """An integer in ``[0, n)``, unbiased (see the class docstring); ``n`` must be ≥ 1."""
        if n < 1:
            raise ValueError(f"a draw needs at least one outcome, not {n}")
        limit = 2 ** 64 - 2 ** 64 % n
        while True:
            value = self.word()
            if value < limit:
                return value % n
