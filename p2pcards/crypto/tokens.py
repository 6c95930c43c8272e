"""Reveal tokens: a seat's decryption share of one ciphertext, with a Chaum–Pedersen proof.

For seat key ``x`` (public ``X = x·G``) and ciphertext ``(a, b)`` the token is ``T = x·a`` with
a proof that ``log_G X = log_a T`` (label ``"reveal-token"``): nonce ``k``, ``R1 = k·G``,
``R2 = k·a``, ``e = H(ctx, X, a, b, T, R1, R2)``, ``s = k + e·x``; the proof is ``(e, s)``.
Verification recomputes ``R1 = s·G - e·X``, ``R2 = s·a - e·T`` and checks ``e``. Hashing the whole
ciphertext (``b`` too) binds the proof to that ciphertext.

With a token from every seat the card is ``b - Σ T_i`` (:func:`decrypt`, :func:`decrypt_card`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..cards import Card, Deck
from ._wire import as_list, as_received_point, as_scalar
from .deckpoints import card_of
from .elgamal import Ciphertext
from .errors import InvalidEncoding, ProofError
from .group import G, Point, Scalar
from .keys import HandKey
from .own import is_own_message
from .rand import Randomness
from .transcript import ProofContext, Transcript, derive_nonce

__all__ = ["DLEQProof", "RevealToken", "token", "verify_token", "decrypt", "decrypt_card"]

_LABEL = "reveal-token"


@dataclass(frozen=True)
class DLEQProof:
    """A Chaum–Pedersen proof of equal discrete logarithms: challenge ``e``, response ``s``."""

    e: Scalar
    s: Scalar

    def to_wire(self) -> list[bytes]:
        """``[e, s]``."""
        return [self.e.to_bytes(), self.s.to_bytes()]

    @classmethod
    def from_wire(cls, data: object, field: str = "token proof") -> DLEQProof:
        e, s = as_list(data, field, 2)
        return cls(as_scalar(e, f"{field} e"), as_scalar(s, f"{field} s"))


@dataclass(frozen=True)
class RevealToken:
    """``t = x·a`` for one ciphertext, with its proof."""

    t: Point
    proof: DLEQProof

    def to_wire(self) -> list[bytes]:
        """``[t, e, s]``."""
        return [self.t.to_bytes(), *self.proof.to_wire()]

    def to_bytes(self) -> bytes:
        """``t || e || s`` (96 bytes), the plaintext of a sealed token."""
        return b"".join(self.to_wire())

    @classmethod
    def from_wire(cls, data: object, field: str = "token") -> RevealToken:
        t, e, s = as_list(data, field, 3)
        return cls(as_received_point(t, f"{field} t"), DLEQProof.from_wire([e, s], field))

    @classmethod
    def from_bytes(cls, data: bytes, field: str = "token") -> RevealToken:
        """Inverse of :meth:`to_bytes`."""
        if not isinstance(data, bytes) or len(data) != 96:
            raise InvalidEncoding(f"{field} must be 96 bytes")
        return cls.from_wire([data[:32], data[32:64], data[64:]], field)


def _statement(ctx: ProofContext, public: Point, ct: Ciphertext, t: Point) -> Transcript:
    return Transcript(_LABEL, ctx).point(public).point(ct.a).point(ct.b).point(t)


def token(
    key: HandKey, ciphertext: Ciphertext, ctx: ProofContext, rng: Randomness | None = None
) -> RevealToken:
    """This seat's reveal token for ``ciphertext``, proven in ``ctx``.

    With ``rng`` the nonce is hedged with 32 random bytes; without, the token is deterministic.
    """
    t_point = key.partial(ciphertext.a)
    tr = _statement(ctx, key.public, ciphertext, t_point)
    k = derive_nonce(key.secret, tr, rng.bytes(32) if rng is not None else b"")
    tr.point(k * G).point(k * ciphertext.a)
    e = tr.challenge()
    return RevealToken(t_point, DLEQProof(e, k + e * key.secret))


def verify_token(
    public_key: Point, ciphertext: Ciphertext, tok: RevealToken, ctx: ProofContext
) -> None:
    """Check that ``tok`` is the token of the key ``public_key`` for ``ciphertext`` in ``ctx``;
    :class:`ProofError` naming the seat and step if not."""
    if is_own_message():
        return  # made by this seat itself: see own.py
    e, s = tok.proof.e, tok.proof.s
    tr = _statement(ctx, public_key, ciphertext, tok.t)
    tr.point(s * G - e * public_key).point(s * ciphertext.a - e * tok.t)
    if tr.challenge() != e:
        raise ProofError("reveal token proof does not verify", seat=ctx.seat, step=ctx.step)


def decrypt(ciphertext: Ciphertext, tokens: Iterable[RevealToken | Point]) -> Point:
    """``b - Σ T_i`` over one token (or bare share ``x_i·a``, e.g. from
    :meth:`HandKey.partial`) per seat of the hand. Tokens must be verified beforehand."""
    total = ciphertext.b
    for tok in tokens:
        total = total - (tok if isinstance(tok, Point) else tok.t)
    return total


def decrypt_card(deck: Deck, ciphertext: Ciphertext, tokens: Iterable[RevealToken | Point]) -> Card:
    """:func:`decrypt`, then the card with that point; :class:`~.errors.DecryptionError` if the
    result is no card of ``deck`` (a token missing or wrong)."""
    return card_of(deck, decrypt(ciphertext, tokens))
