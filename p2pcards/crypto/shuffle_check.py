"""Checking a shuffle proof: the six equations of CRYPTO.md §7.2 in one batch, one by one when
the batch fails.

The proof carries its commitments ``t1 … t4b`` and ``t̂_i``, so its equations can be combined:
with weights ``λ`` drawn from a hash of the whole message (§7.3), the verifier checks that the
weighted sum of the six equations, every term moved to one side, is the identity. Each point
then appears once in the sum with one combined scalar: ``ĉ_i``, which two chain equations use,
is multiplied once; the ``t`` and ``t̂_i`` are multiplied by their weights, which validates
them as every received point is validated (by its first multiplication, no ``is_valid_point``);
every ``G`` term, the ``ŝ_i·G`` of the chain equations included, is one base multiplication;
and the sums ``Σ c_j``, ``Σ h_i`` of ``t1`` fold into the multiplications ``t3`` makes anyway.

A proof whose equations all hold makes the sum the identity, whatever the weights. A proof
with a failing equation makes it the identity only if the weights hit the one value that
cancels it, a chance of about ``1/ℓ`` for weights that are random-oracle outputs of the whole
message (the prover cannot steer them without changing the message). When the batch fails the
equations are checked one by one, in the order of §7.2, and the error names the first that
fails, exactly as without the batch.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .elgamal import EncryptedDeck
from .errors import ProofError
from .group import DOMAIN, G, Point, Scalar, lp, point_sum
from .own import is_own_message
from .shuffle import (
    ShuffleProof,
    check_size,
    combination,
    input_a_sum,
    shuffle_challenge,
    shuffle_generators,
    shuffle_statement,
)
from .transcript import ProofContext, u64

__all__ = ["verify_shuffle", "verify_shuffle_one_by_one", "batch_weights", "batch_sum"]

_ONE = Scalar(1)


@dataclass(frozen=True)
class _Claim:
    """What the equations read: the decks, the joint key, the proof, the generators and the
    challenges ``u_j`` and ``e`` recomputed from the received values."""

    deck_in: EncryptedDeck
    deck_out: EncryptedDeck
    joint: Point
    proof: ShuffleProof
    h: Point
    hs: tuple[Point, ...]
    h_sum: Point
    u: list[Scalar]
    e: Scalar

    def u_product(self) -> Scalar:
        out = _ONE
        for x in self.u:
            out = out * x
        return out


def verify_shuffle(
    deck_in: EncryptedDeck,
    deck_out: EncryptedDeck,
    joint_key: Point,
    proof: ShuffleProof,
    ctx: ProofContext,
) -> None:
    """Check that ``deck_out`` is a permutation and re-randomization of ``deck_in`` under
    ``joint_key``, as proven by ``proof`` in ``ctx``: the equations in one batch, one by one
    when it fails. Raises :class:`ProofError` naming the seat, the step and the first failing
    equation, and :class:`~.errors.InvalidPoint` naming the first invalid received point in the
    order the message is decoded (deck, ``c``, ``ĉ``, ``t``, ``t̂``); the same errors as
    :func:`verify_shuffle_one_by_one`."""
    if is_own_message():
        return  # made by this seat itself: see own.py
    claim = _claim(deck_in, deck_out, joint_key, proof, ctx)
    if batch_sum(claim).is_identity():
        return
    check_one_by_one(claim, _failure(ctx))


def verify_shuffle_one_by_one(
    deck_in: EncryptedDeck,
    deck_out: EncryptedDeck,
    joint_key: Point,
    proof: ShuffleProof,
    ctx: ProofContext,
) -> None:
    """:func:`verify_shuffle` without the batch: each equation of §7.2 evaluated on its own, in
    order (the reference the batch must agree with; it validates every received point too)."""
    if is_own_message():
        return
    claim = _claim(deck_in, deck_out, joint_key, proof, ctx)
    _validate_in_decoding_order(claim)
    check_one_by_one(claim, _failure(ctx))


def _failure(ctx: ProofContext) -> Callable[[str], ProofError]:
    def fail(reason: str) -> ProofError:
        return ProofError(reason, seat=ctx.seat, step=ctx.step)

    return fail


def _claim(deck_in: EncryptedDeck, deck_out: EncryptedDeck, joint_key: Point,
           proof: ShuffleProof, ctx: ProofContext) -> _Claim:
    """The checks of sizes and deck names, then the recomputed challenges; :class:`ProofError`
    for a proof or deck of the wrong shape."""
    fail = _failure(ctx)
    n = len(deck_in)
    check_size(n, ctx)
    if deck_out.deck_name != deck_in.deck_name:
        raise fail(f"shuffle output is for deck {deck_out.deck_name!r}, "
                   f"input for {deck_in.deck_name!r}")
    if len(deck_out) != n:
        raise fail(f"shuffle output has {len(deck_out)} ciphertexts, the input has {n}")
    sizes = {len(proof.c), len(proof.c_hat), len(proof.t_hat), len(proof.s_hat),
             len(proof.s_prime)}
    if sizes != {n}:
        raise fail(f"shuffle proof is not for {n} cards")
    h, hs, h_sum = shuffle_generators(deck_in.deck_name, n)
    t, u = shuffle_statement(ctx, deck_in, deck_out, joint_key, proof.c)
    e = shuffle_challenge(t, proof.c_hat, proof.t, proof.t_hat)
    return _Claim(deck_in, deck_out, joint_key, proof, h, hs, h_sum, u, e)


def _validate_in_decoding_order(claim: _Claim) -> None:
    """Validate every received point of the message, in the order it is decoded."""
    proof = claim.proof
    points: list[Point] = [p for ct in claim.deck_out for p in (ct.a, ct.b)]
    points += [*proof.c, *proof.c_hat, *proof.t, *proof.t_hat]
    for p in points:
        hash(p)  # a received point is validated by its first use that is not a product


def batch_weights(e: Scalar, proof: ShuffleProof) -> list[Scalar]:
    """The ``n + 4`` weights of the batch: ``λ_t1, λ_t2, λ_t4a, λ_t4b`` then ``μ_0 … μ_{n−1}``
    for the chain equations (``t3`` weighs 1). ``λ_k = reduce(SHA-512(seed || u64(k)))`` with
    ``seed = SHA-512(lp(DOMAIN) || lp("shuffle-batch") || lp(e) || lp(s1) … lp(s4) ||
    lp(ŝ_0) … || lp(s'_0) …)``: ``e`` hashes the statement and every commitment, the seed adds
    the responses, so the weights are fixed by the whole message."""
    seed = hashlib.sha512(lp(DOMAIN) + lp(b"shuffle-batch") + lp(e.to_bytes()))
    for x in (*proof.s, *proof.s_hat, *proof.s_prime):
        seed.update(lp(x.to_bytes()))
    root = seed.digest()
    return [Scalar.from_int(int.from_bytes(hashlib.sha512(root + u64(k)).digest(), "little"))
            for k in range(len(proof.c) + 4)]


def batch_sum(claim: _Claim) -> Point:
    """The weighted sum of the six equations of §7.2 (left side minus right side each), which is
    the identity when they all hold. The received points are multiplied first, in the order
    they were decoded, so that the first invalid one is the one named."""
    proof, e, n = claim.proof, claim.e, len(claim.u)
    weights = batch_weights(e, proof)
    l1, l2, l4a, l4b = weights[:4]
    mu = weights[4:]
    s1, s2, s3, s4 = proof.s
    sp = proof.s_prime
    terms: list[Point] = []
    for i in range(n):
        terms.append((l4a * sp[i]) * claim.deck_out[i].a)
        terms.append((l4b * sp[i]) * claim.deck_out[i].b)
    terms.extend((-(e * (l1 + claim.u[j]))) * proof.c[j] for j in range(n))
    for i in range(n):
        nxt = mu[i + 1] * sp[i + 1] if i + 1 < n else -(l2 * e)
        terms.append((nxt - mu[i] * e) * proof.c_hat[i])
    terms.extend((-w) * p for w, p in zip((l1, l2, _ONE, l4a, l4b), proof.t, strict=True))
    terms.extend((-mu[i]) * proof.t_hat[i] for i in range(n))
    terms.extend((sp[i] + l1 * e) * claim.hs[i] for i in range(n))
    terms.append((l2 * e * claim.u_product() + mu[0] * sp[0]) * claim.h)
    terms.append((l4b * s4) * claim.joint)
    on_g = l1 * s1 + l2 * s2 + s3 + l4a * s4
    for i in range(n):
        on_g = on_g + mu[i] * proof.s_hat[i]
    eu = [e * x for x in claim.u]
    a_on_g, a_rest = input_a_sum([-(l4a * k) for k in eu], claim.deck_in)
    terms.append(a_rest)
    terms.append((on_g + a_on_g) * G)
    terms.append(combination([-(l4b * k) for k in eu], [ct.b for ct in claim.deck_in]))
    return point_sum(terms)


def check_one_by_one(claim: _Claim, fail: Callable[[str], ProofError]) -> None:
    """The six equations of §7.2 one after the other; :class:`ProofError` (from ``fail``)
    naming the first that fails."""
    proof, e, n, hs = claim.proof, claim.e, len(claim.u), claim.hs
    t1, t2, t3, t4a, t4b = proof.t
    s1, s2, s3, s4 = proof.s

    def require(ok: bool, name: str) -> None:
        if not ok:
            raise fail(f"shuffle proof does not verify ({name} equation)")

    require(s1 * G == t1 + e * (point_sum(proof.c) - claim.h_sum), "t1")
    require(s2 * G == t2 + e * proof.c_hat[-1] - (e * claim.u_product()) * claim.h, "t2")
    prevs = (claim.h, *proof.c_hat[:-1])
    for i in range(n):
        lhs = proof.s_hat[i] * G + proof.s_prime[i] * prevs[i]
        require(lhs == proof.t_hat[i] + e * proof.c_hat[i], f"t-hat {i}")
    eu = [e * x for x in claim.u]
    lhs3 = s3 * G + point_sum(proof.s_prime[i] * hs[i] for i in range(n))
    require(lhs3 == t3 + point_sum(eu[j] * proof.c[j] for j in range(n)), "t3")
    _require_sums(claim, eu, require)


def _require_sums(claim: _Claim, eu: Sequence[Scalar],
                  require: Callable[[bool, str], None]) -> None:
    """The equations ``t4a`` and ``t4b``: the output is the input re-encrypted."""
    proof, n = claim.proof, len(eu)
    s4 = proof.s[3]
    lhs4a = s4 * G + point_sum(proof.s_prime[i] * claim.deck_out[i].a for i in range(n))
    a_on_g, a_rest = input_a_sum(eu, claim.deck_in)
    require(lhs4a == proof.t[3] + (a_on_g * G + a_rest), "t4a")
    lhs4b = s4 * claim.joint + point_sum(proof.s_prime[i] * claim.deck_out[i].b
                                         for i in range(n))
    require(lhs4b == proof.t[4] + combination(eu, [ct.b for ct in claim.deck_in]), "t4b")
