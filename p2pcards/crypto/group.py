"""The prime-order group of edwards25519: immutable :class:`Scalar` and :class:`Point`.

All point arithmetic goes through libsodium's low-level functions as exposed by PyNaCl
(``nacl.bindings``). Scalars are integers modulo the group order ``ORDER`` (ℓ = 2^252 +
27742317777372353535851937790883648493); their arithmetic is done with Python integers, which
gives exactly what ``crypto_core_ed25519_scalar_add/sub/mul`` give, only faster.

Encodings (normative, see ``protocol/CRYPTO.md``):

- a scalar is 32 bytes, little-endian, and must be canonical: its value is below ℓ;
- a point is the standard 32-byte compressed Edwards encoding (little-endian y, sign of x in
  the top bit). A point from outside must be canonical, on the curve, in the prime-order
  subgroup, not of small order and not the identity (:meth:`Point.from_bytes`).

Inside a computation the identity may appear (e.g. ``P - P``, or ``0 * P`` when a malicious
prover sends a zero response): arithmetic here is total. libsodium refuses to multiply by the
zero scalar, to multiply the identity, and to return the identity; :meth:`Point.__rmul__` handles
those cases itself, so none of libsodium's exceptions ever escapes.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import Final

import nacl.bindings as sodium
import nacl.exceptions

from .errors import CryptoError, InvalidPoint, InvalidScalar
from .own import is_own_message

__all__ = [
    "ORDER",
    "Scalar",
    "Point",
    "G",
    "IDENTITY",
    "point_sum",
    "hash_to_point",
    "DOMAIN",
    "lp",
]

ORDER: Final = 2**252 + 27742317777372353535851937790883648493
"""ℓ, the order of the prime-order subgroup of edwards25519."""

DOMAIN: Final = b"p2pcards/crypto/v1"
"""The domain tag that starts every hash input of this layer."""

_SODIUM_ERRORS = (RuntimeError, ValueError, TypeError, nacl.exceptions.CryptoError)


def lp(data: bytes) -> bytes:
    """``data`` prefixed with its length as 4 bytes big-endian (the unit of every hash input)."""
    return len(data).to_bytes(4, "big") + data


class Scalar:
    """An integer modulo ℓ. Immutable; ``+ - *`` and unary ``-`` work modulo ℓ.

    ``Scalar(v)`` requires ``0 <= v < ℓ`` (:class:`InvalidScalar` otherwise); use
    :meth:`from_int` to reduce any integer, :meth:`from_bytes` for data from outside.
    """

    __slots__ = ("_v",)
    _v: int

    def __init__(self, value: int) -> None:
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < ORDER:
            raise InvalidScalar(f"scalar value {value!r} is not an integer in [0, ℓ)")
        object.__setattr__(self, "_v", value)

    @classmethod
    def _of(cls, value: int) -> Scalar:
        s = object.__new__(cls)
        object.__setattr__(s, "_v", value)
        return s

    @classmethod
    def from_int(cls, value: int) -> Scalar:
        """``value mod ℓ``."""
        return cls._of(value % ORDER)

    @classmethod
    def from_bytes(cls, data: object, field: str = "scalar") -> Scalar:
        """Decode a scalar from outside: exactly 32 bytes, canonical (value < ℓ).

        Raises :class:`InvalidScalar` naming ``field``.
        """
        if not isinstance(data, bytes):
            raise InvalidScalar(f"{field} must be 32 bytes, got {type(data).__name__}")
        if len(data) != 32:
            raise InvalidScalar(f"{field} must be 32 bytes, got {len(data)}")
        value = int.from_bytes(data, "little")
        if value >= ORDER:
            raise InvalidScalar(f"{field} is not a canonical scalar (not below the group order)")
        return cls._of(value)

    @classmethod
    def reduce64(cls, data: bytes) -> Scalar:
        """64 bytes read little-endian and reduced mod ℓ (``crypto_core_ed25519_scalar_reduce``)."""
        if len(data) != 64:
            raise InvalidScalar(f"a wide scalar must be 64 bytes, got {len(data)}")
        return cls._of(int.from_bytes(sodium.crypto_core_ed25519_scalar_reduce(data), "little"))

    @property
    def value(self) -> int:
        """The integer in ``[0, ℓ)``."""
        return self._v

    def to_bytes(self) -> bytes:
        """The canonical 32-byte little-endian encoding."""
        return self._v.to_bytes(32, "little")

    def to_wire(self) -> bytes:
        """Same as :meth:`to_bytes`."""
        return self.to_bytes()

    def is_zero(self) -> bool:
        return self._v == 0

    def inverse(self) -> Scalar:
        """The multiplicative inverse; :class:`InvalidScalar` for zero."""
        if self._v == 0:
            raise InvalidScalar("the zero scalar has no inverse")
        return Scalar._of(pow(self._v, -1, ORDER))

    def __add__(self, other: Scalar) -> Scalar:
        return Scalar._of((self._v + other._v) % ORDER)

    def __sub__(self, other: Scalar) -> Scalar:
        return Scalar._of((self._v - other._v) % ORDER)

    def __mul__(self, other: Scalar) -> Scalar:
        if not isinstance(other, Scalar):
            return NotImplemented
        return Scalar._of((self._v * other._v) % ORDER)

    def __neg__(self) -> Scalar:
        return Scalar._of((-self._v) % ORDER)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Scalar) and other._v == self._v

    def __hash__(self) -> int:
        return hash(("Scalar", self._v))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Scalar is immutable")

    def __repr__(self) -> str:
        return f"Scalar({self.to_bytes().hex()})"


_IDENTITY_BYTES: Final = (1).to_bytes(32, "little")
_G_BYTES: Final = bytes.fromhex("5866666666666666666666666666666666666666666666666666666666666666")


class Point:
    """An element of the prime-order subgroup of edwards25519, as its canonical 32 bytes.

    ``Point(data)`` is the same as :meth:`from_bytes` (fully validated). Results of arithmetic
    are trusted and not re-validated. Equality and hashing are by encoding. ``P + Q``, ``P - Q``,
    ``-P`` and ``k * P`` (``k`` a :class:`Scalar`) are defined and total.
    """

    __slots__ = ("_b",)
    _b: bytes

    def __init__(self, data: object, field: str = "point") -> None:
        object.__setattr__(self, "_b", _validated(data, field))

    @classmethod
    def _of(cls, data: bytes) -> Point:
        p = object.__new__(cls)
        object.__setattr__(p, "_b", data)
        return p

    @classmethod
    def received(cls, data: object, field: str = "point") -> Point:
        """Decode a point from outside that a proof verification will multiply by a scalar.

        The checks that cost no group operation (type, length, not the identity) are made here;
        the libsodium check (canonical, on the curve, in the prime-order subgroup) is made by the
        point's first use: a scalar multiplication makes exactly that check as part of its work
        (so the point is validated once, not twice), any other use (sum, comparison, hash) calls
        ``is_valid_point`` first. Either way an invalid point raises the same
        :class:`InvalidPoint` naming ``field`` as :meth:`from_bytes` would. In the local seat's own
        message the point is trusted, as in :meth:`from_bytes`."""
        data = _shaped(data, field)
        if is_own_message():
            return cls._of(data)
        return _Unchecked._pending(data, field)

    def _ready(self) -> bytes:
        """The encoding, once the point is known valid (see :class:`_Unchecked`)."""
        return self._b

    @classmethod
    def from_bytes(cls, data: object, field: str = "point") -> Point:
        """Decode a point from outside: 32 bytes, canonical, on the curve, in the prime-order
        subgroup, not of small order, not the identity. Raises :class:`InvalidPoint` naming
        ``field``. In the local seat's own message only the checks that cost no group operation
        are made (:mod:`.own`)."""
        return cls._of(_validated(data, field))

    def to_bytes(self) -> bytes:
        """The canonical 32-byte encoding."""
        return self._b

    def to_wire(self) -> bytes:
        """Same as :meth:`to_bytes`."""
        return self._b

    def is_identity(self) -> bool:
        return self._b == _IDENTITY_BYTES

    def __add__(self, other: Point) -> Point:
        if self._b == _IDENTITY_BYTES:
            return other
        if other._b == _IDENTITY_BYTES:
            return self
        try:
            return Point._of(sodium.crypto_core_ed25519_add(self._ready(), other._ready()))
        except _SODIUM_ERRORS as exc:  # pragma: no cover - inputs are always valid points
            raise CryptoError(f"point addition failed: {exc}") from None

    def __sub__(self, other: Point) -> Point:
        if other._b == _IDENTITY_BYTES:
            return self
        try:
            return Point._of(sodium.crypto_core_ed25519_sub(self._ready(), other._ready()))
        except _SODIUM_ERRORS as exc:  # pragma: no cover - inputs are always valid points
            raise CryptoError(f"point subtraction failed: {exc}") from None

    def __neg__(self) -> Point:
        return IDENTITY - self

    def __rmul__(self, k: Scalar) -> Point:
        if not isinstance(k, Scalar):
            return NotImplemented
        if k._v == 0 or self._b == _IDENTITY_BYTES:
            return IDENTITY
        try:
            if self._b == _G_BYTES:
                out = sodium.crypto_scalarmult_ed25519_base_noclamp(k.to_bytes())
            else:
                out = sodium.crypto_scalarmult_ed25519_noclamp(k.to_bytes(), self._b)
        except _SODIUM_ERRORS as exc:  # pragma: no cover - k in [1, ℓ), P of order ℓ
            raise CryptoError(f"scalar multiplication failed: {exc}") from None
        return Point._of(out)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Point) and other._ready() == self._ready()

    def __hash__(self) -> int:
        return hash(self._ready())

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Point is immutable")

    def __repr__(self) -> str:
        return f"Point({self._b.hex()})"


class _Unchecked(Point):
    """A received point whose libsodium check is still to be made (:meth:`Point.received`).

    ``_field`` names it while the check is pending and is ``None`` once it passed. The first
    scalar multiplication by a nonzero scalar makes the check itself (libsodium's
    ``crypto_scalarmult_ed25519_noclamp`` refuses exactly the points ``is_valid_point`` refuses
    but the identity, which :func:`_shaped` already refused); every other use calls
    ``is_valid_point`` first.
    """

    __slots__ = ("_field",)
    _field: str | None

    @classmethod
    def _pending(cls, data: bytes, field: str) -> _Unchecked:
        p = object.__new__(cls)
        object.__setattr__(p, "_b", data)
        object.__setattr__(p, "_field", field)
        return p

    def _ready(self) -> bytes:
        if self._field is not None:
            _check_valid(self._b, self._field)
            object.__setattr__(self, "_field", None)
        return self._b

    def __rmul__(self, k: Scalar) -> Point:
        if not isinstance(k, Scalar):
            return NotImplemented
        if self._field is None or k._v == 0:
            self._ready()
            return Point.__rmul__(self, k)
        try:
            out = sodium.crypto_scalarmult_ed25519_noclamp(k.to_bytes(), self._b)
        except _SODIUM_ERRORS:
            raise _invalid(self._field) from None
        object.__setattr__(self, "_field", None)
        return Point._of(out)


def _shaped(data: object, field: str) -> bytes:
    """``data`` if it is 32 bytes and not the identity; :class:`InvalidPoint` otherwise."""
    if not isinstance(data, bytes):
        raise InvalidPoint(f"{field} must be 32 bytes, got {type(data).__name__}")
    if len(data) != 32:
        raise InvalidPoint(f"{field} must be 32 bytes, got {len(data)}")
    if data == _IDENTITY_BYTES:
        raise InvalidPoint(f"{field} is the identity point")
    return data


def _invalid(field: str) -> InvalidPoint:
    return InvalidPoint(
        f"{field} is not a canonical point of the prime-order subgroup "
        "(off the curve, non-canonical, small order or with a torsion component)"
    )


def _check_valid(data: bytes, field: str) -> None:
    try:
        ok = sodium.crypto_core_ed25519_is_valid_point(data)
    except _SODIUM_ERRORS:  # pragma: no cover - length already checked
        ok = False
    if not ok:
        raise _invalid(field)


def _validated(data: object, field: str) -> bytes:
    data = _shaped(data, field)
    if not is_own_message():  # else computed by this seat itself: see own.py
        _check_valid(data, field)
    return data


IDENTITY: Final = Point._of(_IDENTITY_BYTES)
"""The neutral element. Never accepted from outside."""

G: Final = Point._of(_G_BYTES)
"""The standard base point of edwards25519 (the generator of the prime-order subgroup)."""


def point_sum(points: Iterable[Point]) -> Point:
    """The sum of ``points`` (the identity for none)."""
    total = IDENTITY
    for p in points:
        total = total + p
    return total


def hash_to_point(label: bytes, *parts: bytes) -> Point:
    """A point with no known discrete-log relation to any other, from a labelled hash.

    ``d = SHA-512(lp(DOMAIN) || lp(label) || lp(part_1) || ... || lp(part_k))`` and the point is
    ``from_uniform(d[0:32]) + from_uniform(d[32:64])`` (libsodium's Elligator 2 map with cofactor
    clearing, applied twice and added, the random-oracle construction of RFC 9380 §3).
    """
    h = hashlib.sha512(lp(DOMAIN) + lp(label))
    for part in parts:
        h.update(lp(part))
    d = h.digest()
    try:
        p = Point._of(sodium.crypto_core_ed25519_from_uniform(d[:32])) + Point._of(
            sodium.crypto_core_ed25519_from_uniform(d[32:])
        )
    except _SODIUM_ERRORS as exc:  # pragma: no cover
        raise CryptoError(f"hash to point failed: {exc}") from None
    if p.is_identity():  # pragma: no cover - probability about 2^-252
        raise CryptoError(f"hash to point gave the identity for label {label!r}")
    return p
