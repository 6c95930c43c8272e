"""Group layer, randomness, contexts, transcripts and card points of p2pcards.crypto."""

from __future__ import annotations

import nacl.bindings as sodium
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pcards.cards import FRENCH_108, ITALIAN_40, SPANISH_40, italian_39
from p2pcards.crypto import (
    IDENTITY,
    ORDER,
    CryptoError,
    DecryptionError,
    DeterministicRandomness,
    G,
    InvalidEncoding,
    InvalidPoint,
    InvalidScalar,
    Point,
    ProofContext,
    Scalar,
    SystemRandomness,
    card_of,
    card_point,
    card_points,
)
from p2pcards.crypto.group import hash_to_point, point_sum
from p2pcards.crypto.rand import randbelow
from p2pcards.crypto.shuffle import random_permutation
from p2pcards.crypto.transcript import Transcript

P_FIELD = 2**255 - 19
# A point of order 8 (its multiples are all the small-order points).
ORDER8 = bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a")
scalars = st.integers(min_value=0, max_value=ORDER - 1).map(Scalar)
nonzero = st.integers(min_value=1, max_value=ORDER - 1).map(Scalar)


def small_order_points() -> list[bytes]:
    out = [ORDER8]
    for _ in range(7):
        out.append(sodium.crypto_core_ed25519_add(out[-1], ORDER8))
    return out


def test_small_order_helper_is_right() -> None:
    pts = small_order_points()
    assert pts[-1] == IDENTITY.to_bytes()  # 8·T is the identity
    assert len(set(pts)) == 8


def test_base_point_and_valid_point_decode() -> None:
    p = Scalar(12345) * G
    assert Point.from_bytes(p.to_bytes()) == p
    assert Point(p.to_bytes()) == p
    assert Point.from_bytes(G.to_bytes()) == G
    assert (Scalar(1) * G).to_bytes() == sodium.crypto_scalarmult_ed25519_base_noclamp(
        (1).to_bytes(32, "little")
    )


@pytest.mark.parametrize(
    "bad", [None, 5, "ab" * 16, bytearray(32), b"", b"\x01" * 31, b"\x01" * 33]
)
def test_point_wrong_type_or_length(bad: object) -> None:
    with pytest.raises(InvalidPoint, match="field-x"):
        Point.from_bytes(bad, "field-x")


@pytest.mark.parametrize("index", range(8))
def test_small_order_points_rejected(index: int) -> None:
    with pytest.raises(InvalidPoint):
        Point.from_bytes(small_order_points()[index])


def test_identity_rejected_with_its_own_message() -> None:
    with pytest.raises(InvalidPoint, match="identity"):
        Point.from_bytes(IDENTITY.to_bytes())


def test_point_with_torsion_component_rejected() -> None:
    p = Scalar(987654321) * G
    mixed = sodium.crypto_core_ed25519_add(p.to_bytes(), ORDER8)
    assert mixed != p.to_bytes()
    with pytest.raises(InvalidPoint, match="prime-order subgroup"):
        Point.from_bytes(mixed)


@pytest.mark.parametrize("y", [P_FIELD, P_FIELD + 1, P_FIELD + 18, 2**255 - 1])
def test_non_canonical_y_rejected(y: int) -> None:
    with pytest.raises(InvalidPoint):
        Point.from_bytes(y.to_bytes(32, "little"))


def test_sign_bit_flip_decodes_to_the_negation() -> None:
    p = Scalar(5) * G
    flipped = bytearray(p.to_bytes())
    flipped[31] ^= 0x80
    decoded = Point.from_bytes(bytes(flipped))
    assert decoded == -p


def test_off_curve_rejected() -> None:
    rejected = 0
    for y in range(2, 40):
        enc = y.to_bytes(32, "little")
        if not sodium.crypto_core_ed25519_is_valid_point(enc):
            with pytest.raises(InvalidPoint):
                Point.from_bytes(enc)
            rejected += 1
    assert rejected > 10


@pytest.mark.parametrize("value", [ORDER, ORDER + 1, 2**256 - 1, 2**255])
def test_non_canonical_scalars_rejected(value: int) -> None:
    with pytest.raises(InvalidScalar, match="field-s"):
        Scalar.from_bytes(value.to_bytes(32, "little"), "field-s")


@pytest.mark.parametrize("bad", [None, 3, b"", b"\x00" * 31, b"\x00" * 33, "00" * 32])
def test_scalar_wrong_type_or_length(bad: object) -> None:
    with pytest.raises(InvalidScalar):
        Scalar.from_bytes(bad)


def test_scalar_edges_accepted() -> None:
    assert Scalar.from_bytes((ORDER - 1).to_bytes(32, "little")).value == ORDER - 1
    assert Scalar.from_bytes(bytes(32)).is_zero()
    with pytest.raises(InvalidScalar):
        Scalar(ORDER)
    with pytest.raises(InvalidScalar):
        Scalar(-1)
    with pytest.raises(InvalidScalar):
        Scalar(0).inverse()


def test_zero_scalar_and_identity_are_total() -> None:
    p = Scalar(77) * G
    assert Scalar(0) * p == IDENTITY
    assert Scalar(0) * G == IDENTITY
    assert Scalar(9) * IDENTITY == IDENTITY
    assert p - p == IDENTITY
    assert IDENTITY + p == p and p + IDENTITY == p
    assert -p + p == IDENTITY
    assert point_sum([]) == IDENTITY


def test_immutable() -> None:
    with pytest.raises(AttributeError):
        G._b = b"x"
    with pytest.raises(AttributeError):
        Scalar(1)._v = 2


@settings(max_examples=25, deadline=None)
@given(scalars, scalars, nonzero)
def test_scalar_arithmetic_matches_libsodium_and_group_law(a: Scalar, b: Scalar, c: Scalar) -> None:
    ab = a.to_bytes(), b.to_bytes()
    assert (a + b).to_bytes() == sodium.crypto_core_ed25519_scalar_add(*ab)
    assert (a - b).to_bytes() == sodium.crypto_core_ed25519_scalar_sub(*ab)
    assert (a * b).to_bytes() == sodium.crypto_core_ed25519_scalar_mul(*ab)
    assert (-a).to_bytes() == sodium.crypto_core_ed25519_scalar_negate(a.to_bytes())
    assert (a + b) * G == a * G + b * G
    assert (a * c) * G == a * (c * G)
    assert c * c.inverse() == Scalar(1)


def test_reduce64_matches_python_reduction() -> None:
    wide = bytes(range(64))
    assert Scalar.reduce64(wide).value == int.from_bytes(wide, "little") % ORDER
    with pytest.raises(InvalidScalar):
        Scalar.reduce64(bytes(63))


def test_hash_to_point() -> None:
    p = hash_to_point(b"label", b"a", b"b")
    assert p == hash_to_point(b"label", b"a", b"b")
    assert p != hash_to_point(b"label", b"ab")
    assert p != hash_to_point(b"other", b"a", b"b")
    assert Point.from_bytes(p.to_bytes()) == p


def test_deterministic_randomness() -> None:
    a, b = DeterministicRandomness(b"seed"), DeterministicRandomness(b"seed")
    assert a.bytes(10) + a.bytes(54) == b.bytes(64)
    assert a.scalar() == b.scalar()
    assert DeterministicRandomness(b"seed").bytes(32) != DeterministicRandomness(b"seeD").bytes(32)
    s = SystemRandomness()
    assert len(s.bytes(17)) == 17 and not s.scalar().is_zero()


@settings(max_examples=20, deadline=None)
@given(st.binary(max_size=8), st.integers(min_value=1, max_value=30))
def test_random_permutation_is_a_permutation(seed: bytes, n: int) -> None:
    rng = DeterministicRandomness(seed)
    assert sorted(random_permutation(n, rng)) == list(range(n))
    assert 0 <= randbelow(rng, n) < n


def test_randbelow_covers_range() -> None:
    rng = DeterministicRandomness(b"cover")
    assert {randbelow(rng, 5) for _ in range(200)} == set(range(5))
    with pytest.raises(ValueError):
        randbelow(rng, 0)


@pytest.mark.parametrize(
    "args",
    [
        (b"", 0, 0, "key"),
        (b"x" * 65, 0, 0, "key"),
        ("table", 0, 0, "key"),
        (b"t", -1, 0, "key"),
        (b"t", 2**32, 0, "key"),
        (b"t", 0, 256, "key"),
        (b"t", True, 0, "key"),
        (b"t", 0, 0, ""),
        (b"t", 0, 0, "two words"),
        (b"t", 0, 0, "x" * 65),
        (b"t", 0, 0, "caf\u00e9"),
    ],
)
def test_proof_context_validation(args: tuple[object, object, object, object]) -> None:
    with pytest.raises(InvalidEncoding, match="proof context"):
        ProofContext(*args)  # type: ignore[arg-type]


def test_proof_context_encoding() -> None:
    ctx = ProofContext(b"\xaa\xbb", 3, 2, "shuffle-1")
    assert ctx.encode() == (
        b"\x00\x00\x00\x02\xaa\xbb"
        + b"\x00\x00\x00\x08" + (3).to_bytes(8, "big")
        + b"\x00\x00\x00\x08" + (2).to_bytes(8, "big")
        + b"\x00\x00\x00\x09shuffle-1"
    )
    assert ctx.at(1, "key") == ProofContext(b"\xaa\xbb", 3, 1, "key")


def test_transcript_items_are_unambiguous() -> None:
    a = Transcript("x", None).bytes_(b"ab").bytes_(b"c").challenge()
    b = Transcript("x", None).bytes_(b"a").bytes_(b"bc").challenge()
    c = Transcript("x", None).bytes_(b"abc").challenge()
    assert len({a, b, c}) == 3
    t = Transcript("x", None, record=True).bytes_(b"ab")
    assert t.data == b"\x00\x00\x00\x12p2pcards/crypto/v1\x00\x00\x00\x01x\x00\x00\x00\x02ab"
    with pytest.raises(ValueError):
        _ = Transcript("x", None).data


@pytest.mark.parametrize("deck", [ITALIAN_40, italian_39("4B"), FRENCH_108, SPANISH_40])
def test_card_points_distinct_valid_and_invertible(deck: object) -> None:
    from p2pcards.cards import Deck

    assert isinstance(deck, Deck)
    points = card_points(deck)
    assert len(points) == len(deck) == len(set(points))
    for c, p in zip(deck.cards, points, strict=True):
        assert Point.from_bytes(p.to_bytes()) == p
        assert card_of(deck, p) == c
        assert card_point(deck, c) == p


def test_card_points_depend_on_deck_name() -> None:
    assert not set(card_points(ITALIAN_40)) & set(card_points(SPANISH_40))
    assert not set(card_points(ITALIAN_40)) & set(card_points(italian_39("4B")))


def test_card_of_unknown_point() -> None:
    with pytest.raises(DecryptionError, match="no card of deck 'italian40'"):
        card_of(ITALIAN_40, Scalar(3) * G)
    assert issubclass(DecryptionError, CryptoError)
