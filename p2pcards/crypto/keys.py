"""Per-hand keys: :class:`HandKey`, its Schnorr proof of knowledge, and the joint key.

Each seat draws a fresh secret ``x`` for every hand and publishes a :class:`KeyShare`: the public
key ``X = x·G`` and a Schnorr proof of knowledge of ``x`` bound to the :class:`ProofContext`
(table, hand, seat, step). Verifying every share before using it stops rogue-key attacks (a seat
choosing ``X' = Y - X_other`` to control the joint key). The joint key is ``H = Σ X_i``.

Schnorr proof (label ``"key-proof"``): nonce ``k``, ``R = k·G``,
``e = H(ctx, X, R)``, ``s = k + e·x``; the proof is ``(e, s)``. Verification recomputes
``R = s·G - e·X`` and checks ``e = H(ctx, X, R)``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property

from ._wire import as_list, as_point, as_scalar
from .errors import CryptoError, InvalidScalar, ProofError
from .group import G, Point, Scalar, point_sum
from .own import is_own_message
from .rand import Randomness
from .transcript import ProofContext, Transcript, derive_nonce

__all__ = ["HandKey", "SchnorrProof", "KeyShare", "verify_key_share", "joint_key"]

_LABEL = "key-proof"


@dataclass(frozen=True)
class SchnorrProof:
    """A proof of knowledge of ``log_G X``: challenge ``e`` and response ``s``."""

    e: Scalar
    s: Scalar

    def to_wire(self) -> list[bytes]:
        """``[e, s]`` (32 bytes each)."""
        return [self.e.to_bytes(), self.s.to_bytes()]

    @classmethod
    def from_wire(cls, data: object, field: str = "key proof") -> SchnorrProof:
        e, s = as_list(data, field, 2)
        return cls(as_scalar(e, f"{field} e"), as_scalar(s, f"{field} s"))


def _statement(ctx: ProofContext, public: Point) -> Transcript:
    return Transcript(_LABEL, ctx).point(public)


@dataclass(frozen=True)
class KeyShare:
    """What a seat publishes at the start of a hand: ``public = x·G`` and its proof."""

    public: Point
    proof: SchnorrProof

    def to_wire(self) -> list[bytes]:
        """``[X, e, s]``."""
        return [self.public.to_bytes(), *self.proof.to_wire()]

    @classmethod
    def from_wire(cls, data: object) -> KeyShare:
        x, e, s = as_list(data, "key share", 3)
        return cls(as_point(x, "key share public key"), SchnorrProof.from_wire([e, s], "key share"))


@dataclass(frozen=True, repr=False)
class HandKey:
    """A seat's secret key for one hand (``secret`` nonzero) and its public key."""

    secret: Scalar
    _shares: dict[bytes, Point] = field(default_factory=dict, init=False, repr=False,
                                        compare=False)
    """``a``'s encoding -> ``x·a``, each share computed once (:meth:`partial`)."""

    def __post_init__(self) -> None:
        if self.secret.is_zero():
            raise InvalidScalar("a hand key's secret must not be zero")

    def __repr__(self) -> str:
        return f"HandKey(public={self.public.to_bytes().hex()})"

    @classmethod
    def generate(cls, rng: Randomness) -> HandKey:
        """A fresh key."""
        return cls(rng.scalar())

    @cached_property
    def public(self) -> Point:
        """``X = x·G`` (computed once)."""
        return self.secret * G

    def share(self, ctx: ProofContext, rng: Randomness | None = None) -> KeyShare:
        """The public key with a Schnorr proof bound to ``ctx`` (``ctx.seat`` is the owner).

        With ``rng`` the nonce is hedged with 32 random bytes; without, it is deterministic.
        """
        public = self.public
        t = _statement(ctx, public)
        k = derive_nonce(self.secret, t, rng.bytes(32) if rng is not None else b"")
        t.point(k * G)
        e = t.challenge()
        return KeyShare(public, SchnorrProof(e, k + e * self.secret))

    def partial(self, a: Point) -> Point:
        """``x·a``: this seat's decryption share of a ciphertext whose first part is ``a``.
        Computed once per ``a``: the share that showed the seat its card is the ``T`` of its
        reveal token for that card (:func:`~.tokens.token`)."""
        key = a.to_bytes()
        share = self._shares.get(key)
        if share is None:
            share = self._shares[key] = self.secret * a
        return share


def verify_key_share(share: KeyShare, ctx: ProofContext) -> None:
    """Check the proof of ``share`` in ``ctx``; :class:`ProofError` naming seat and step if not."""
    if is_own_message():
        return  # made by this seat itself: see own.py
    t = _statement(ctx, share.public)
    t.point(share.proof.s * G - share.proof.e * share.public)
    if t.challenge() != share.proof.e:
        raise ProofError("key proof does not verify", seat=ctx.seat, step=ctx.step)


def joint_key(publics: Iterable[Point]) -> Point:
    """``H = Σ X_i`` over the verified public keys of all seats."""
    items = list(publics)
    if not items:
        raise CryptoError("the joint key needs at least one public key")
    h = point_sum(items)
    if h.is_identity():
        raise CryptoError("the public keys add up to the identity")
    return h
