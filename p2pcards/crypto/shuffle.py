"""Verifiable shuffle: permute and re-randomize a deck, with a proof of a correct shuffle.

The proof is the Terelius–Wikström proof of a shuffle, following the pseudo-code of Haenni,
Locher, Koenig and Dubuis, "Pseudo-Code Algorithms for Verifiable Re-Encryption Mix-Nets"
(FC 2017 workshops; algorithms GenShuffleProof and CheckShuffleProof), rewritten for the
Ed25519 group in additive notation, with 0-based positions and every response of the form
``s = ω + e·w`` (nonce plus challenge times witness). ``protocol/CRYPTO.md`` is the normative
description; in short, for ``n`` cards, input ``(a_j, b_j)``, output ``(a'_i, b'_i) =
(a_π(i) + r'_i·G, b_π(i) + r'_i·H)``:

1. permutation commitment ``c_π(i) = r_π(i)·G + h_i``;
2. ``u_j = H(statement, c, "u", j)``; ``u'_i = u_π(i)``;
3. commitment chain ``ĉ_i = r̂_i·G + u'_i·ĉ_{i-1}`` with ``ĉ_{-1} = h``;
4. commitments ``t1 = ω1·G``, ``t2 = ω2·G``, ``t3 = ω3·G + Σ ω'_i·h_i``,
   ``t4a = ω4·G + Σ ω'_i·a'_i``, ``t4b = ω4·H + Σ ω'_i·b'_i``, ``t̂_i = ω̂_i·G + ω'_i·ĉ_{i-1}``;
5. challenge ``e = H(statement, c, ĉ, t)``;
6. responses ``s1 = ω1 + e·Σr_j``, ``s2 = ω2 + e·Σ r̂_i·v_i`` (``v_i = Π_{k>i} u'_k``),
   ``s3 = ω3 + e·Σ r_j·u_j``, ``s4 = ω4 - e·Σ r'_i·u'_i``, ``ŝ_i = ω̂_i + e·r̂_i``,
   ``s'_i = ω'_i + e·u'_i``.

The verifier (:mod:`.shuffle_check`) checks six equations (named in errors as below):

- ``t1``: ``s1·G = t1 + e·(Σ c_j - Σ h_i)``
- ``t2``: ``s2·G = t2 + e·(ĉ_{n-1} - (Π u_j)·h)``
- ``t3``: ``s3·G + Σ s'_i·h_i = t3 + Σ (e·u_j)·c_j``
- ``t4a``: ``s4·G + Σ s'_i·a'_i = t4a + Σ (e·u_j)·a_j``
- ``t4b``: ``s4·H + Σ s'_i·b'_i = t4b + Σ (e·u_j)·b_j``
- ``t-hat i``: ``ŝ_i·G + s'_i·ĉ_{i-1} = t̂_i + e·ĉ_i`` for every ``i``.

The proof carries the commitments ``t`` (not only ``e``), so a failure names the equation.

Generators ``h, h_0 .. h_{n-1}`` are ``hash_to_point(b"shuffle-generator", deck name, u64(n),
u64(k))`` for ``k = 0`` (``h``) and ``k = i + 1`` (``h_i``): bound to the deck and its size, not
to the table, so they are computed once per process.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from ._wire import as_list, as_received_points, as_scalars
from .elgamal import EncryptedDeck
from .errors import ProofError
from .group import IDENTITY, G, Point, Scalar, hash_to_point, point_sum
from .rand import Randomness, randbelow
from .transcript import ProofContext, Transcript, u64

__all__ = [
    "ShuffleProof",
    "shuffle",
    "check_size",
    "combination",
    "input_a_sum",
    "prove_shuffle",
    "shuffle_generators",
    "random_permutation",
    "MAX_DECK",
]

MAX_DECK = 1024
"""Largest deck a shuffle accepts."""

_LABEL = "shuffle"
_ONE = Scalar(1)


@lru_cache(maxsize=16)
def shuffle_generators(deck_name: str, n: int) -> tuple[Point, tuple[Point, ...], Point]:
    """``(h, (h_0, .., h_{n-1}), Σ h_i)`` for a deck of ``n`` cards named ``deck_name``."""
    name = deck_name.encode("utf-8")

    def gen(k: int) -> Point:
        return hash_to_point(b"shuffle-generator", name, u64(n), u64(k))

    hs = tuple(gen(i + 1) for i in range(n))
    return gen(0), hs, point_sum(hs)


@dataclass(frozen=True)
class ShuffleProof:
    """A Terelius–Wikström proof of a shuffle of ``n`` ciphertexts (see the module docstring).

    ``c``: permutation commitments; ``c_hat``: commitment chain; ``t``: ``(t1, t2, t3, t4a,
    t4b)``; ``t_hat``: chain commitments; ``s``: ``(s1, s2, s3, s4)``; ``s_hat``, ``s_prime``:
    per-position responses. Each per-position tuple has ``n`` items.
    """

    c: tuple[Point, ...]
    c_hat: tuple[Point, ...]
    t: tuple[Point, Point, Point, Point, Point]
    t_hat: tuple[Point, ...]
    s: tuple[Scalar, Scalar, Scalar, Scalar]
    s_hat: tuple[Scalar, ...]
    s_prime: tuple[Scalar, ...]

    def __len__(self) -> int:
        return len(self.c)

    def to_wire(self) -> list[list[bytes]]:
        """``[c, c_hat, t, t_hat, s, s_hat, s_prime]``, each a list of 32-byte strings."""
        return [
            [p.to_bytes() for p in self.c],
            [p.to_bytes() for p in self.c_hat],
            [p.to_bytes() for p in self.t],
            [p.to_bytes() for p in self.t_hat],
            [x.to_bytes() for x in self.s],
            [x.to_bytes() for x in self.s_hat],
            [x.to_bytes() for x in self.s_prime],
        ]

    @classmethod
    def from_wire(cls, data: object, n: int) -> ShuffleProof:
        """Decode a proof for ``n`` cards: every scalar checked, every point's shape; the
        verifier's multiplications validate the points (:meth:`.Point.received`)."""
        c, c_hat, t, t_hat, s, s_hat, s_prime = as_list(data, "shuffle proof", 7)
        t_points = as_received_points(t, "shuffle proof t", 5)
        s_scalars = as_scalars(s, "shuffle proof s", 4)
        return cls(
            as_received_points(c, "shuffle proof c", n),
            as_received_points(c_hat, "shuffle proof c_hat", n),
            (t_points[0], t_points[1], t_points[2], t_points[3], t_points[4]),
            as_received_points(t_hat, "shuffle proof t_hat", n),
            (s_scalars[0], s_scalars[1], s_scalars[2], s_scalars[3]),
            as_scalars(s_hat, "shuffle proof s_hat", n),
            as_scalars(s_prime, "shuffle proof s_prime", n),
        )


def random_permutation(n: int, rng: Randomness) -> tuple[int, ...]:
    """A uniform permutation of ``range(n)`` (Fisher–Yates from the last position down)."""
    perm = list(range(n))
    for i in range(n - 1, 0, -1):
        j = randbelow(rng, i + 1)
        perm[i], perm[j] = perm[j], perm[i]
    return tuple(perm)


def shuffle(
    deck_in: EncryptedDeck, joint_key: Point, ctx: ProofContext, rng: Randomness
) -> tuple[EncryptedDeck, ShuffleProof]:
    """Permute and re-randomize ``deck_in`` under ``joint_key``; return the new deck and a proof
    bound to ``ctx`` (the shuffling seat and step). The permutation and randomness are secret
    and discarded; when the logs of ``deck_in``'s ``a`` parts are known (the initial deck), the
    new deck carries its own (:attr:`EncryptedDeck.a_logs`), for this seat's check of the next
    shuffle."""
    n = len(deck_in)
    check_size(n, ctx)
    perm = random_permutation(n, rng)
    rerandomizers = tuple(rng.scalar() for _ in range(n))
    logs = deck_in.a_logs
    deck_out = EncryptedDeck(
        deck_in.deck_name,
        tuple(deck_in[perm[i]].rerandomize(rerandomizers[i], joint_key) for i in range(n)),
        None if logs is None else tuple(logs[perm[i]] + rerandomizers[i] for i in range(n)),
    )
    proof = prove_shuffle(deck_in, deck_out, joint_key, perm, rerandomizers, ctx, rng)
    return deck_out, proof


def check_size(n: int, ctx: ProofContext) -> None:
    """:class:`ProofError` unless a shuffle of ``n`` cards is allowed."""
    if not 1 <= n <= MAX_DECK:
        raise ProofError(f"a shuffle needs 1 to {MAX_DECK} cards, got {n}", seat=ctx.seat,
                         step=ctx.step)


def _flat(deck: EncryptedDeck) -> list[Point]:
    out: list[Point] = []
    for ct in deck:
        out.append(ct.a)
        out.append(ct.b)
    return out


def shuffle_statement(
    ctx: ProofContext, deck_in: EncryptedDeck, deck_out: EncryptedDeck, joint_key: Point,
    c: Sequence[Point],
) -> tuple[Transcript, list[Scalar]]:
    """The transcript up to the permutation commitments, and the challenges ``u_j``."""
    t = Transcript(_LABEL, ctx)
    t.bytes_(deck_in.deck_name.encode("utf-8")).int_(len(deck_in)).point(joint_key)
    t.points(_flat(deck_in)).points(_flat(deck_out)).points(c)
    u = [t.copy().bytes_(b"u").int_(j).challenge() for j in range(len(deck_in))]
    return t, u


def shuffle_challenge(t: Transcript, c_hat: Sequence[Point], tt: Sequence[Point],
                      t_hat: Sequence[Point]) -> Scalar:
    """The Fiat-Shamir challenge ``e`` over the statement and the prover's commitments."""
    return t.bytes_(b"challenge").points(c_hat).points(tt).points(t_hat).challenge()


def prove_shuffle(
    deck_in: EncryptedDeck,
    deck_out: EncryptedDeck,
    joint_key: Point,
    perm: Sequence[int],
    rerandomizers: Sequence[Scalar],
    ctx: ProofContext,
    rng: Randomness,
) -> ShuffleProof:
    """The proof that ``deck_out[i] = deck_in[perm[i]]`` re-randomized by ``rerandomizers[i]``.

    The witness is not checked: a wrong witness gives a proof that does not verify.
    """
    n = len(deck_in)
    check_size(n, ctx)
    if len(deck_out) != n or len(perm) != n or len(rerandomizers) != n or sorted(perm) != list(
        range(n)
    ):
        raise ProofError("shuffle witness does not match the decks", seat=ctx.seat, step=ctx.step)
    h, hs, _ = shuffle_generators(deck_in.deck_name, n)

    # 1. permutation commitment
    r: list[Scalar] = [_ONE] * n
    c: list[Point] = [IDENTITY] * n
    for i in range(n):
        j = perm[i]
        r[j] = rng.scalar()
        c[j] = r[j] * G + hs[i]
    t, u = shuffle_statement(ctx, deck_in, deck_out, joint_key, c)
    u_p = [u[perm[i]] for i in range(n)]

    # 3. commitment chain
    r_hat = [rng.scalar() for _ in range(n)]
    c_hat: list[Point] = []
    prev = h
    for i in range(n):
        prev = r_hat[i] * G + u_p[i] * prev
        c_hat.append(prev)

    # 4. commitments
    w1, w2, w3, w4 = (rng.scalar() for _ in range(4))
    w_hat = [rng.scalar() for _ in range(n)]
    w_p = [rng.scalar() for _ in range(n)]
    t1 = w1 * G
    t2 = w2 * G
    t3 = w3 * G + point_sum(w_p[i] * hs[i] for i in range(n))
    t4a = _t4a(w4, w_p, deck_in, deck_out, perm, rerandomizers)
    t4b = w4 * joint_key + point_sum(w_p[i] * deck_out[i].b for i in range(n))
    prevs = [h, *c_hat[:-1]]
    t_hat = [w_hat[i] * G + w_p[i] * prevs[i] for i in range(n)]

    # 5. challenge
    e = shuffle_challenge(t, c_hat, (t1, t2, t3, t4a, t4b), t_hat)

    # 6. responses
    v = [_ONE] * n
    for i in range(n - 1, 0, -1):
        v[i - 1] = u_p[i] * v[i]
    r_bar = Scalar.from_int(sum(x.value for x in r))
    r_chain = Scalar.from_int(sum(r_hat[i].value * v[i].value for i in range(n)))
    r_tilde = Scalar.from_int(sum(r[j].value * u[j].value for j in range(n)))
    r_prime = Scalar.from_int(sum(rerandomizers[i].value * u_p[i].value for i in range(n)))
    s = (w1 + e * r_bar, w2 + e * r_chain, w3 + e * r_tilde, w4 - e * r_prime)
    s_hat = tuple(w_hat[i] + e * r_hat[i] for i in range(n))
    s_prime = tuple(w_p[i] + e * u_p[i] for i in range(n))
    return ShuffleProof(
        tuple(c), tuple(c_hat), (t1, t2, t3, t4a, t4b), tuple(t_hat), s, s_hat, s_prime
    )


def _t4a(w4: Scalar, w_p: Sequence[Scalar], deck_in: EncryptedDeck, deck_out: EncryptedDeck,
         perm: Sequence[int], rerandomizers: Sequence[Scalar]) -> Point:
    """``t4a = ω4·G + Σ ω'_i·a'_i``. Where the input's ``a`` is ``G`` (the initial deck) the
    prover knows ``a'_i = (1 + r'_i)·G``: those terms fold into the one base multiplication."""
    on_g = w4
    rest: list[Point] = []
    for i in range(len(deck_out)):
        if deck_in[perm[i]].a == G:
            on_g = on_g + w_p[i] * (rerandomizers[i] + _ONE)
        else:
            rest.append(w_p[i] * deck_out[i].a)
    return on_g * G + point_sum(rest)


def input_a_sum(scalars: Sequence[Scalar], deck: EncryptedDeck) -> tuple[Scalar, Point]:
    """``Σ k_j·a_j`` over ``deck``, as a scalar of ``G`` and a point to add: with the deck's
    known logs the whole sum is ``(Σ k_j·log a_j)·G``, else :func:`combination`."""
    if deck.a_logs is not None:
        on_g = Scalar(0)
        for k, log in zip(scalars, deck.a_logs, strict=True):
            on_g = on_g + k * log
        return on_g, IDENTITY
    return Scalar(0), combination(scalars, [ct.a for ct in deck])


def combination(scalars: Sequence[Scalar], points: Sequence[Point]) -> Point:
    """``Σ k_i·P_i``, the scalars of equal points added first, ``G``'s by a base
    multiplication: the ``a`` parts of the initial deck are all ``G``, so their sum is one base
    multiplication instead of ``n`` multiplications and additions."""
    merged: dict[Point, Scalar] = {}
    for k, p in zip(scalars, points, strict=True):
        merged[p] = merged[p] + k if p in merged else k
    return point_sum(k * p for p, k in merged.items())

