"""Feldman-verifiable secret sharing of a hand key among the other seats (sans-IO).

A seat that holds the hand secret ``x`` (public key ``X = x·G``) picks a polynomial
``f(z) = x + a_1·z + … + a_{t-1}·z^{t-1}`` over the scalars modulo ℓ, publishes the
commitments ``C_0 = X, C_1 = a_1·G, …, C_{t-1} = a_{t-1}·G`` and gives shareholder ``h`` (a seat
number) the share ``s_h = f(h + 1)`` (evaluation points start at 1: ``f(0)`` is the secret).
Anyone checks a share against the public commitments, ``s_h·G == Σ_j (h + 1)^j·C_j``
(:func:`share_is_valid`), and that the sharing is of the seat's own key, ``C_0 == X``
(:func:`commits_to`). Any ``t`` valid shares give back ``x`` by Lagrange interpolation at 0
(:func:`reconstruct`); fewer than ``t`` say nothing about it: for every candidate secret there
is a polynomial of degree ``t - 1`` through them.

With the threshold equal to the number of other seats, only all of them together can rebuild
a seat's key, so no coalition that does not already include every other seat learns more than
it could without the sharing. This module holds only the arithmetic; carrying the shares
(encrypted to each holder) and deciding when to rebuild a key belong to the table protocol.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .errors import CryptoError
from .group import ORDER, G, Point, Scalar, point_sum
from .rand import Randomness

__all__ = ["Sharing", "deal", "share_is_valid", "commits_to", "reconstruct", "VSSError"]


class VSSError(CryptoError):
    """Shares that cannot be used: too few, a holder twice, a threshold out of range."""


@dataclass(frozen=True)
class Sharing:
    """A dealt secret: the public ``commitments`` (``C_0`` first) and each holder's share."""

    commitments: tuple[Point, ...]
    shares: Mapping[int, Scalar]

    @property
    def threshold(self) -> int:
        return len(self.commitments)


def _point_of(holder: int) -> int:
    if holder < 0:
        raise VSSError(f"a holder is a seat number, not {holder}")
    return holder + 1


def deal(secret: Scalar, holders: Sequence[int], threshold: int, rng: Randomness) -> Sharing:
    """Share ``secret`` among ``holders`` (distinct seat numbers) so that any ``threshold`` of
    them can rebuild it."""
    if len(set(holders)) != len(holders):
        raise VSSError("each holder must be named once")
    if not 1 <= threshold <= len(holders):
        raise VSSError(f"the threshold must be between 1 and {len(holders)}, not {threshold}")
    coefficients = [secret] + [rng.scalar() for _ in range(threshold - 1)]
    commitments = tuple(c * G for c in coefficients)
    shares: dict[int, Scalar] = {}
    for holder in holders:
        z, value, power = _point_of(holder), 0, 1
        for c in coefficients:
            value = (value + c.value * power) % ORDER
            power = power * z % ORDER
        shares[holder] = Scalar.from_int(value)
    return Sharing(commitments, shares)


def share_is_valid(commitments: Sequence[Point], holder: int, share: Scalar) -> bool:
    """Whether ``share`` is holder ``holder``'s point of the committed polynomial."""
    if not commitments:
        return False
    z = _point_of(holder)
    terms = [Scalar.from_int(pow(z, j, ORDER)) * c for j, c in enumerate(commitments)]
    return share * G == point_sum(terms)


def commits_to(commitments: Sequence[Point], public_key: Point) -> bool:
    """Whether the sharing is of the secret behind ``public_key`` (``C_0 == X``)."""
    return bool(commitments) and commitments[0] == public_key


def reconstruct(shares: Mapping[int, Scalar], threshold: int) -> Scalar:
    """The secret from ``threshold`` (or more: the first ``threshold`` by holder are used)
    shares, by Lagrange interpolation at 0. Check each share with :func:`share_is_valid`
    first: a wrong share gives a wrong secret, not an error."""
    if threshold < 1 or len(shares) < threshold:
        raise VSSError(f"{threshold} shares are needed, {len(shares)} given")
    used = sorted(shares)[:threshold]
    points = [_point_of(h) for h in used]
    secret = 0
    for holder, z in zip(used, points, strict=True):
        numerator, denominator = 1, 1
        for other in points:
            if other != z:
                numerator = numerator * other % ORDER
                denominator = denominator * (other - z) % ORDER
        weight = numerator * pow(denominator, -1, ORDER) % ORDER
        secret = (secret + shares[holder].value * weight) % ORDER
    return Scalar.from_int(secret)
