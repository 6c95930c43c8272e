"""A received point is validated once (``Point.received``): by the scalar multiplication that
uses it, or by ``is_valid_point`` before any other use. A tampered point or proof is refused
exactly as it was when every point was validated while decoding: the same exception, the same
message naming the same field, the same failing equation."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import nacl.bindings as sodium
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pcards.cards import ITALIAN_40, Deck
from p2pcards.crypto import (
    CryptoError,
    DeterministicRandomness,
    EncryptedDeck,
    G,
    HandKey,
    InvalidPoint,
    Point,
    ProofContext,
    RevealToken,
    Scalar,
    ShuffleProof,
    initial_deck,
    shuffle,
    token,
    verify_shuffle,
    verify_token,
)
from p2pcards.crypto.errors import ProofError
from p2pcards.crypto.group import point_sum
from p2pcards.crypto.shuffle import (
    combination,
    shuffle_challenge,
    shuffle_generators,
    shuffle_statement,
)

DECK = Deck("once6", ITALIAN_40.cards[:6])
N = len(DECK)
CTX = ProofContext(b"\x51" * 32, 0, 1, "shuffle")
ORDER8 = bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a")


def _setting() -> dict[str, Any]:
    rng = DeterministicRandomness(b"validated once")
    key = HandKey.generate(rng)
    joint = key.public
    first, _ = shuffle(initial_deck(DECK, joint), joint, ProofContext(b"\x51" * 32, 0, 0,
                                                                        "shuffle"), rng)
    out, proof = shuffle(first, joint, CTX, rng)
    tok = token(key, out[2], CTX, rng)
    return {"key": key, "joint": joint, "deck_in": first, "deck_out": out.to_wire(),
            "proof": proof.to_wire(), "token": tok.to_wire(), "ct": out[2]}


S = _setting()

# (path into [deck wire, proof wire], field name) of every point of a shuffle message
POINT_FIELDS: list[tuple[tuple[int, ...], str]] = (
    [((0, i, k), f"deck[{i}] {'ab'[k]}") for i in range(N) for k in range(2)]
    + [((1, 0, i), f"shuffle proof c[{i}]") for i in range(N)]
    + [((1, 1, i), f"shuffle proof c_hat[{i}]") for i in range(N)]
    + [((1, 2, i), f"shuffle proof t[{i}]") for i in range(5)]
    + [((1, 3, i), f"shuffle proof t_hat[{i}]") for i in range(N)]
)
SCALAR_PATHS = ([(1, 4, i) for i in range(4)] + [(1, 5, i) for i in range(N)]
                + [(1, 6, i) for i in range(N)])


def _bad_encodings() -> list[bytes]:
    valid = (Scalar(424242) * G).to_bytes()
    torsioned = sodium.crypto_core_ed25519_add(valid, ORDER8)
    off_curve = (2).to_bytes(32, "little")
    non_canonical = (2**255 - 19 + 1).to_bytes(32, "little")
    return [ORDER8, torsioned, off_curve, non_canonical]


BAD = _bad_encodings()


def _replaced(wire: Any, path: tuple[int, ...], value: bytes) -> Any:
    if not path:
        return value
    out = list(wire)
    out[path[0]] = _replaced(wire[path[0]], path[1:], value)
    return out


def _refusal(check: Callable[[], None]) -> tuple[type[Exception], str] | None:
    try:
        check()
    except CryptoError as exc:
        return type(exc), str(exc)
    return None


def _verify_message(message: list[Any]) -> None:
    """Decode a shuffle message and verify it, as a receiving seat does."""
    out = EncryptedDeck.from_wire(message[0], DECK)
    proof = ShuffleProof.from_wire(message[1], N)
    verify_shuffle(S["deck_in"], out, S["joint"], proof, CTX)


def _verify_message_eagerly(message: list[Any]) -> None:
    """The rule before, as a reference: every point validated while decoding, then the six
    equations of CRYPTO.md evaluated one after the other, each from its own products."""
    for path, field in POINT_FIELDS:
        leaf: Any = message
        for i in path:
            leaf = leaf[i]
        Point.from_bytes(leaf, field)
    out = EncryptedDeck.from_wire(message[0], DECK)
    proof = ShuffleProof.from_wire(message[1], N)
    deck_in, joint = S["deck_in"], S["joint"]
    h, hs, h_sum = shuffle_generators(DECK.name, N)
    t, u = shuffle_statement(CTX, deck_in, out, joint, proof.c)
    e = shuffle_challenge(t, proof.c_hat, proof.t, proof.t_hat)
    t1, t2, t3, t4a, t4b = proof.t
    s1, s2, s3, s4 = proof.s

    def require(ok: bool, name: str) -> None:
        if not ok:
            raise ProofError(f"shuffle proof does not verify ({name} equation)", seat=CTX.seat,
                             step=CTX.step)

    require(s1 * G == t1 + e * (point_sum(proof.c) - h_sum), "t1")
    u_prod = Scalar(1)
    for x in u:
        u_prod = u_prod * x
    require(s2 * G == t2 + e * (proof.c_hat[-1] - u_prod * h), "t2")
    prev = h
    for i in range(N):
        lhs = proof.s_hat[i] * G + proof.s_prime[i] * prev
        require(lhs == proof.t_hat[i] + e * proof.c_hat[i], f"t-hat {i}")
        prev = proof.c_hat[i]
    eu = [e * x for x in u]
    lhs3 = s3 * G + point_sum(proof.s_prime[i] * hs[i] for i in range(N))
    require(lhs3 == t3 + point_sum(eu[j] * proof.c[j] for j in range(N)), "t3")
    lhs4a = s4 * G + point_sum(proof.s_prime[i] * out[i].a for i in range(N))
    require(lhs4a == t4a + point_sum(eu[j] * deck_in[j].a for j in range(N)), "t4a")
    lhs4b = s4 * joint + point_sum(proof.s_prime[i] * out[i].b for i in range(N))
    require(lhs4b == t4b + point_sum(eu[j] * deck_in[j].b for j in range(N)), "t4b")


def test_the_honest_message_verifies() -> None:
    _verify_message([S["deck_out"], S["proof"]])


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(POINT_FIELDS), st.sampled_from(BAD))
def test_an_invalid_point_is_refused_with_the_decoders_message(
        where: tuple[tuple[int, ...], str], bad: bytes) -> None:
    path, field = where
    message = _replaced([S["deck_out"], S["proof"]], path, bad)
    with pytest.raises(InvalidPoint) as eager:
        Point.from_bytes(bad, field)
    assert _refusal(lambda: _verify_message(message)) == (InvalidPoint, str(eager.value))


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([p for p, _ in POINT_FIELDS] + SCALAR_PATHS),
       st.integers(min_value=1, max_value=2**200))
def test_a_wrong_value_fails_the_same_equation(path: tuple[int, ...], k: int) -> None:
    if path in SCALAR_PATHS:
        value = Scalar.from_int(k).to_bytes()
    else:
        value = (Scalar.from_int(k) * G).to_bytes()
    message = _replaced([S["deck_out"], S["proof"]], path, value)
    refused = _refusal(lambda: _verify_message(message))
    assert refused is not None
    assert refused == _refusal(lambda: _verify_message_eagerly(message))
    assert refused[0] is ProofError


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(BAD))
def test_an_invalid_token_point_is_refused_with_the_decoders_message(bad: bytes) -> None:
    wire = [bad, *S["token"][1:]]
    with pytest.raises(InvalidPoint) as eager:
        Point.from_bytes(bad, "token t")

    def check() -> None:
        tok = RevealToken.from_wire(wire)
        verify_token(S["key"].public, S["ct"], tok, CTX)

    assert _refusal(check) == (InvalidPoint, str(eager.value))


def test_a_received_point_costs_one_check() -> None:
    """The multiplication validates the point: no ``is_valid_point`` call is made for it."""
    calls: list[str] = []
    from p2pcards.crypto import group

    real = group.sodium

    class Counting:
        def __getattr__(self, name: str) -> Any:
            calls.append(name)
            return getattr(real, name)

    p = Point.received((Scalar(99) * G).to_bytes(), "p")
    group.sodium = Counting()  # type: ignore[attr-defined]
    try:
        q = Scalar(5) * p
        _ = q + p
        _ = p == q
    finally:
        group.sodium = real  # type: ignore[attr-defined]
    assert "crypto_core_ed25519_is_valid_point" not in calls
    assert q == Scalar(5 * 99) * G


@pytest.mark.parametrize("bad", BAD)
def test_an_unchecked_point_is_checked_before_a_sum_a_comparison_or_a_zero_product(
        bad: bytes) -> None:
    for use in (lambda p: p + G, lambda p: G - p, lambda p: p == G, lambda p: hash(p),
                lambda p: Scalar(0) * p):
        with pytest.raises(InvalidPoint, match="field-q"):
            use(Point.received(bad, "field-q"))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(min_value=0, max_value=2**250),
                          st.sampled_from([0, 1, 2, 3])), min_size=1, max_size=8))
def test_combination_is_the_plain_sum(terms: list[tuple[int, int]]) -> None:
    bases = [G, Scalar(7) * G, Scalar(11) * G, Scalar(13) * G]
    scalars = [Scalar.from_int(k) for k, _ in terms]
    points = [bases[b] for _, b in terms]
    plain = Point._of((1).to_bytes(32, "little"))
    for k, p in zip(scalars, points, strict=True):
        plain = plain + k * p
    assert combination(scalars, points) == plain
