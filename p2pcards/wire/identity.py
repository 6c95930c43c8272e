"""Long-term Ed25519 identity keys of players.

An identity is an Ed25519 key pair (RFC 8032). The private key is stored as its raw 32-byte seed;
the public key travels as its raw 32-byte encoding. Signing and verification use ``cryptography``,
which rejects non-canonical signatures (``S >= l``), so a valid signature cannot be altered into a
second valid one. A received public key is accepted only if it is a canonical encoding of a point
of the prime-order subgroup other than small-order points (checked with libsodium through PyNaCl):
with a small-order key anyone could forge that seat's signatures, and its owner could disown them.

Fingerprints are for people comparing keys out of band: the first 10 bytes of SHA-256 of the raw
public key, in RFC 4648 base32 (16 letters and digits), in four groups of four joined by ``-``.
"""

from __future__ import annotations

import base64
import hashlib

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    PublicFormat,
)
from nacl.bindings import crypto_core_ed25519_is_valid_point

from .errors import BadKey

__all__ = ["IdentityKey", "PublicIdentity", "BadKey", "KEY_SIZE", "SIGNATURE_SIZE"]

KEY_SIZE = 32
SIGNATURE_SIZE = 64


class PublicIdentity:
    """A seat's public identity key: 32 raw bytes, immutable, hashable, compared by value."""

    __slots__ = ("_raw", "_key")

    def __init__(self, raw: bytes) -> None:
        """Check and wrap a raw public key; raise :class:`BadKey` naming the problem."""
        if type(raw) is not bytes:
            raise BadKey(f"public identity key must be bytes, not {type(raw).__name__}")
        if len(raw) != KEY_SIZE:
            raise BadKey(f"public identity key must be {KEY_SIZE} bytes, not {len(raw)}")
        if not crypto_core_ed25519_is_valid_point(raw):
            raise BadKey(
                "public identity key is not a canonical Ed25519 point of prime order "
                f"({raw[:4].hex()}...)"
            )
        self._raw = raw
        self._key = Ed25519PublicKey.from_public_bytes(raw)

    @classmethod
    def from_bytes(cls, raw: bytes) -> PublicIdentity:
        """Same as the constructor."""
        return cls(raw)

    def to_bytes(self) -> bytes:
        """The raw 32-byte public key."""
        return self._raw

    @property
    def fingerprint(self) -> str:
        """Short text for people: base32 of SHA-256(key)[:10], as ``XXXX-XXXX-XXXX-XXXX``."""
        text = base64.b32encode(hashlib.sha256(self._raw).digest()[:10]).decode("ascii")
        return "-".join(text[i : i + 4] for i in range(0, len(text), 4))

    def verify(self, signature: bytes, data: bytes) -> bool:
        """True if ``signature`` is a valid Ed25519 signature of ``data`` by this key."""
        if type(signature) is not bytes or len(signature) != SIGNATURE_SIZE:
            return False
        try:
            self._key.verify(signature, data)
        except InvalidSignature:
            return False
        return True

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PublicIdentity) and other._raw == self._raw

    def __hash__(self) -> int:
        return hash(self._raw)

    def __repr__(self) -> str:
        return f"PublicIdentity({self.fingerprint})"


class IdentityKey:
    """A private identity key. Keep it secret: :meth:`to_bytes` returns the raw seed."""

    __slots__ = ("_key", "_public")

    def __init__(self, key: Ed25519PrivateKey) -> None:
        self._key = key
        raw = key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        self._public = PublicIdentity(raw)

    @classmethod
    def generate(cls) -> IdentityKey:
        """A fresh random key from the operating system's generator."""
        return cls(Ed25519PrivateKey.generate())

    @classmethod
    def from_bytes(cls, seed: bytes) -> IdentityKey:
        """Load a key from its raw 32-byte seed; raise :class:`BadKey` for any other length."""
        if type(seed) is not bytes:
            raise BadKey(f"private identity key must be bytes, not {type(seed).__name__}")
        if len(seed) != KEY_SIZE:
            raise BadKey(f"private identity key must be a {KEY_SIZE}-byte seed, not {len(seed)}")
        return cls(Ed25519PrivateKey.from_private_bytes(seed))

    def to_bytes(self) -> bytes:
        """The raw 32-byte seed (RFC 8032 private key)."""
        return self._key.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())

    @property
    def public(self) -> PublicIdentity:
        """The matching public identity."""
        return self._public

    def sign(self, data: bytes) -> bytes:
        """The 64-byte Ed25519 signature of ``data`` (deterministic, RFC 8032)."""
        return self._key.sign(data)

    def __repr__(self) -> str:
        return f"IdentityKey(public={self._public.fingerprint})"
