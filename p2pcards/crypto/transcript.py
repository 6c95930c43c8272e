"""Proof contexts and the Fiat–Shamir transcript.

Every challenge of every proof is ``SHA-512`` of a byte string built by a :class:`Transcript`,
reduced mod ℓ. The byte string is a sequence of *items*, each written as ``lp(item)`` (4-byte
big-endian length, then the bytes), so no two different sequences give the same string:

- it starts with ``lp(DOMAIN) || lp(label)`` (``label`` names the proof and the challenge);
- then the :class:`ProofContext`: ``lp(table_id) || lp(u64(hand)) || lp(u64(seat)) ||
  lp(step as UTF-8)``;
- then the statement and commitments, in the order each proof specifies: a point or scalar is
  the item of its 32 bytes, an integer the item of its 8 bytes big-endian, a list is the item of
  its length (as an integer) followed by its elements.

``protocol/CRYPTO.md`` gives the exact order for each proof.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass

from .errors import InvalidEncoding
from .group import DOMAIN, Point, Scalar, lp

__all__ = ["ProofContext", "Transcript", "u64", "derive_nonce"]

_STEP_RE = re.compile(r"[\x21-\x7e]{1,64}")


def u64(value: int) -> bytes:
    """``value`` as 8 bytes big-endian."""
    return value.to_bytes(8, "big")


@dataclass(frozen=True)
class ProofContext:
    """Where a proof belongs: the table, the hand, the seat that makes it and the protocol step.

    ``table_id`` is 1..64 bytes (the table protocol uses the 32-byte genesis hash); ``hand`` is
    in ``[0, 2^32)``; ``seat`` in ``[0, 256)``; ``step`` 1..64 printable ASCII characters without
    spaces, e.g. ``"key"``, ``"shuffle-1"``, ``"deal-17"``. Every challenge hashes all four, so a
    proof made in one context fails in any other. Raises :class:`InvalidEncoding` otherwise.
    """

    table_id: bytes
    hand: int
    seat: int
    step: str

    def __post_init__(self) -> None:
        if not isinstance(self.table_id, bytes) or not 1 <= len(self.table_id) <= 64:
            raise InvalidEncoding("proof context table_id must be 1 to 64 bytes")
        for name, value, bound in (("hand", self.hand, 2**32), ("seat", self.seat, 256)):
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < bound:
                raise InvalidEncoding(f"proof context {name} must be an integer in [0, {bound})")
        if not isinstance(self.step, str) or not _STEP_RE.fullmatch(self.step):
            raise InvalidEncoding(
                "proof context step must be 1 to 64 printable ASCII characters without spaces"
            )

    def at(self, seat: int, step: str) -> ProofContext:
        """The same table and hand, another seat and step."""
        return ProofContext(self.table_id, self.hand, seat, step)

    def encode(self) -> bytes:
        """``lp(table_id) || lp(u64(hand)) || lp(u64(seat)) || lp(step)``."""
        return (
            lp(self.table_id)
            + lp(u64(self.hand))
            + lp(u64(self.seat))
            + lp(self.step.encode("ascii"))
        )


class Transcript:
    """An incremental SHA-512 over items (see the module docstring).

    ``record=True`` also keeps the bytes hashed so far (:attr:`data`), for test vectors.
    """

    def __init__(self, label: str, ctx: ProofContext | None, *, record: bool = False) -> None:
        self._h = hashlib.sha512()
        self._record: list[bytes] | None = [] if record else None
        self._raw(lp(DOMAIN) + lp(label.encode("ascii")))
        if ctx is not None:
            self._raw(ctx.encode())

    def _raw(self, data: bytes) -> None:
        self._h.update(data)
        if self._record is not None:
            self._record.append(data)

    def bytes_(self, data: bytes) -> Transcript:
        self._raw(lp(data))
        return self

    def int_(self, value: int) -> Transcript:
        self._raw(lp(u64(value)))
        return self

    def point(self, p: Point) -> Transcript:
        self._raw(lp(p.to_bytes()))
        return self

    def scalar(self, s: Scalar) -> Transcript:
        self._raw(lp(s.to_bytes()))
        return self

    def points(self, ps: Iterable[Point]) -> Transcript:
        items = [lp(p.to_bytes()) for p in ps]
        self._raw(lp(u64(len(items))) + b"".join(items))
        return self

    def copy(self) -> Transcript:
        other = object.__new__(Transcript)
        other._h = self._h.copy()
        other._record = None if self._record is None else list(self._record)
        return other

    @property
    def data(self) -> bytes:
        """The bytes hashed so far (only with ``record=True``)."""
        if self._record is None:
            raise ValueError("transcript was not recorded")
        return b"".join(self._record)

    def digest(self) -> bytes:
        """``SHA-512`` of the bytes so far (the transcript can still grow)."""
        return self._h.copy().digest()

    def challenge(self) -> Scalar:
        """``SHA-512`` of the bytes so far, reduced mod ℓ."""
        return Scalar.reduce64(self._h.digest())


def derive_nonce(secret: Scalar, statement: Transcript, extra: bytes) -> Scalar:
    """The nonce of a Schnorr-type proof, hedged: ``reduce(SHA-512(lp(DOMAIN) || lp(b"nonce") ||
    lp(secret) || lp(extra) || lp(SHA-512(statement so far))))``.

    ``extra`` is 32 fresh random bytes when the caller gives an ``rng`` (recommended) and empty
    otherwise; with empty ``extra`` the proof is deterministic, like an EdDSA signature, which is
    safe because the nonce depends on the secret and on the whole statement and context.
    """
    h = hashlib.sha512(lp(DOMAIN) + lp(b"nonce") + lp(secret.to_bytes()) + lp(extra))
    h.update(lp(statement.digest()))
    return Scalar.reduce64(h.digest())
