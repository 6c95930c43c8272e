"""Private delivery of a reveal token to one seat: X25519 + HKDF-SHA256 + ChaCha20-Poly1305.

Used to show a card to one seat only. Each seat puts an X25519 public key in the signed genesis
(:func:`x25519_keypair`). To seal a token for a recipient with X25519 public key ``P``:

1. draw an ephemeral X25519 private key ``y`` (32 bytes from the ``rng``); ``Y`` its public key;
2. ``z = X25519(y, P)`` (an all-zero result, from a small-order ``P``, is refused);
3. ``okm = HKDF-SHA256(ikm=z, salt=none, info=lp(DOMAIN) || lp(b"seal") || lp(Y) || lp(P) ||
   ctx.encode(), length=44)``; key = ``okm[0:32]``, nonce = ``okm[32:44]``;
4. ``sealed = Y || ChaCha20-Poly1305(key, nonce, token.to_bytes(),
   aad=lp(DOMAIN) || lp(b"sealed-token") || ctx.encode())`` (32 + 96 + 16 = 144 bytes).

The context is in both the key derivation and the associated data, so a sealed token opens only
in the context it was sealed for. Opening gives back the token, which the recipient must still
check with :func:`~.tokens.verify_token`.
"""

from __future__ import annotations

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from .errors import DecryptionError, InvalidEncoding
from .group import DOMAIN, lp
from .rand import Randomness
from .tokens import RevealToken
from .transcript import ProofContext

__all__ = ["seal_token", "open_token", "x25519_keypair", "x25519_public", "SEALED_TOKEN_SIZE"]

SEALED_TOKEN_SIZE = 32 + 96 + 16


def _private(data: object, field: str) -> X25519PrivateKey:
    if not isinstance(data, bytes) or len(data) != 32:
        raise InvalidEncoding(f"{field} must be 32 bytes")
    return X25519PrivateKey.from_private_bytes(data)


def _public(data: object, field: str) -> X25519PublicKey:
    if not isinstance(data, bytes) or len(data) != 32:
        raise InvalidEncoding(f"{field} must be 32 bytes")
    return X25519PublicKey.from_public_bytes(data)


def x25519_public(private: bytes) -> bytes:
    """The 32-byte X25519 public key of a 32-byte private key."""
    return _private(private, "X25519 private key").public_key().public_bytes_raw()


def x25519_keypair(rng: Randomness) -> tuple[bytes, bytes]:
    """``(private, public)``, 32 bytes each; the private key is 32 bytes from ``rng``."""
    private = rng.bytes(32)
    return private, x25519_public(private)


def _key_nonce(
    own: X25519PrivateKey, peer: X25519PublicKey, ephemeral: bytes, recipient: bytes,
    ctx: ProofContext,
) -> tuple[bytes, bytes]:
    try:
        shared = own.exchange(peer)
    except ValueError:
        raise InvalidEncoding("X25519 public key is of small order") from None
    info = lp(DOMAIN) + lp(b"seal") + lp(ephemeral) + lp(recipient) + ctx.encode()
    okm = HKDF(algorithm=hashes.SHA256(), length=44, salt=None, info=info).derive(shared)
    return okm[:32], okm[32:]


def _aad(ctx: ProofContext) -> bytes:
    return lp(DOMAIN) + lp(b"sealed-token") + ctx.encode()


def seal_token(
    tok: RevealToken, recipient_x25519_public: bytes, ctx: ProofContext, rng: Randomness
) -> bytes:
    """Encrypt ``tok`` so that only the holder of the recipient's X25519 key can read it, bound
    to ``ctx`` (the context of the token's proof)."""
    recipient = _public(recipient_x25519_public, "recipient X25519 public key")
    ephemeral_private, ephemeral = x25519_keypair(rng)
    key, nonce = _key_nonce(
        _private(ephemeral_private, "ephemeral key"), recipient, ephemeral,
        recipient_x25519_public, ctx,
    )
    return ephemeral + ChaCha20Poly1305(key).encrypt(nonce, tok.to_bytes(), _aad(ctx))


def open_token(sealed: bytes, recipient_x25519_private: bytes, ctx: ProofContext) -> RevealToken:
    """Decrypt a sealed token; :class:`DecryptionError` if it was not sealed for this key and
    context or was altered, :class:`InvalidEncoding` if malformed. Verify the result with
    :func:`~.tokens.verify_token`."""
    if not isinstance(sealed, bytes) or len(sealed) != SEALED_TOKEN_SIZE:
        raise InvalidEncoding(f"a sealed token must be {SEALED_TOKEN_SIZE} bytes")
    own = _private(recipient_x25519_private, "recipient X25519 private key")
    ephemeral = sealed[:32]
    key, nonce = _key_nonce(
        own, _public(ephemeral, "sealed token ephemeral key"), ephemeral,
        own.public_key().public_bytes_raw(), ctx,
    )
    try:
        plain = ChaCha20Poly1305(key).decrypt(nonce, sealed[32:], _aad(ctx))
    except InvalidTag:
        raise DecryptionError(
            "sealed token does not open (another recipient or context, or altered)",
            seat=ctx.seat, step=ctx.step,
        ) from None
    return RevealToken.from_bytes(plain, "sealed token")
