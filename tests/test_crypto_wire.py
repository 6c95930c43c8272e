"""Wire forms of every p2pcards.crypto object: round trips, and every malformation rejected with
an InvalidEncoding naming the field (never another exception)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pcards.cards import ITALIAN_40, Deck
from p2pcards.crypto import (
    ORDER,
    Ciphertext,
    CryptoError,
    DeterministicRandomness,
    DLEQProof,
    EncryptedDeck,
    HandKey,
    InvalidEncoding,
    InvalidPoint,
    InvalidScalar,
    KeyShare,
    ProofContext,
    RevealToken,
    SchnorrProof,
    ShuffleProof,
    initial_deck,
    shuffle,
    token,
)

DECK = Deck("wire4", ITALIAN_40.cards[:4])
CTX = ProofContext(b"\x44" * 32, 0, 0, "shuffle-0")
NONCANONICAL = ORDER.to_bytes(32, "little")
IDENTITY_BYTES = (1).to_bytes(32, "little")


def objects() -> dict[str, tuple[Any, Callable[[object], object]]]:
    rng = DeterministicRandomness(b"wire")
    key = HandKey.generate(rng)
    h = key.public
    d0 = initial_deck(DECK, h)
    d1, proof = shuffle(d0, h, CTX, rng)
    share = key.share(CTX)
    tok = token(key, d1[0], CTX)
    return {
        "ciphertext": (d1[0], Ciphertext.from_wire),
        "deck": (d1, lambda w: EncryptedDeck.from_wire(w, DECK)),
        "key share": (share, KeyShare.from_wire),
        "key proof": (share.proof, SchnorrProof.from_wire),
        "token": (tok, RevealToken.from_wire),
        "token proof": (tok.proof, DLEQProof.from_wire),
        "shuffle proof": (proof, lambda w: ShuffleProof.from_wire(w, 4)),
    }


OBJECTS = objects()


def only_plain(value: object) -> bool:
    if isinstance(value, bytes):
        return True
    if isinstance(value, list):
        return all(only_plain(v) for v in value)
    return False


@pytest.mark.parametrize("name", OBJECTS)
def test_round_trip_through_msgpack(name: str) -> None:
    obj, decode = OBJECTS[name]
    wire = obj.to_wire()
    assert only_plain(wire)
    assert decode(wire) == obj
    assert decode(msgpack.unpackb(msgpack.packb(wire), raw=False)) == obj


def leaves(wire: object, path: tuple[int, ...] = ()) -> list[tuple[int, ...]]:
    if isinstance(wire, list):
        return [p for i, v in enumerate(wire) for p in leaves(v, (*path, i))]
    return [path]


def replaced(wire: object, path: tuple[int, ...], value: object) -> object:
    if not path:
        return value
    assert isinstance(wire, list)
    out = list(wire)
    out[path[0]] = replaced(wire[path[0]], path[1:], value)
    return out


def cases() -> list[tuple[str, tuple[int, ...]]]:
    return [(name, path) for name, (obj, _) in OBJECTS.items() for path in leaves(obj.to_wire())]


def used(decode: Callable[[object], object], obj: object) -> Callable[[object], object]:
    """``decode``, then a use of every decoded point (a comparison with ``obj``): a point that a
    proof verification multiplies is validated at its first use rather than when decoded
    (``Point.received``), with the same error."""
    def decode_and_use(wire: object) -> object:
        decoded = decode(wire)
        _ = decoded == obj
        return decoded

    return decode_and_use


@pytest.mark.parametrize(("name", "path"), cases())
def test_every_leaf_validated(name: str, path: tuple[int, ...]) -> None:
    obj, plain_decode = OBJECTS[name]
    decode = used(plain_decode, obj)
    wire = obj.to_wire()
    leaf: Any = wire
    for i in path:
        leaf = leaf[i]
    try:  # ℓ as bytes is neither a canonical scalar nor a valid point: the error tells the kind
        decode(replaced(wire, path, NONCANONICAL))
        raise AssertionError("a non-canonical value was accepted")
    except InvalidScalar as exc:
        is_point = False
        assert "not a canonical scalar" in str(exc)
    except InvalidPoint:
        is_point = True
    for bad in (leaf[:-1], leaf + b"\x00", "text", 7, None, [leaf]):
        with pytest.raises(InvalidEncoding) as info:
            decode(replaced(wire, path, bad))
        assert name.split()[0] in str(info.value) or "ciphertext" in str(info.value) \
            or "deck" in str(info.value)
    if is_point:
        for bad_point in (IDENTITY_BYTES, b"\x02" + bytes(31), (2**255 - 1).to_bytes(32, "little")):
            with pytest.raises(InvalidPoint):
                decode(replaced(wire, path, bad_point))
    else:
        with pytest.raises(InvalidScalar):
            decode(replaced(wire, path, b"\xff" * 32))


@pytest.mark.parametrize("name", OBJECTS)
def test_wrong_shapes(name: str) -> None:
    obj, decode = OBJECTS[name]
    wire = obj.to_wire()
    for bad in (None, b"x" * 32, {"a": 1}, [], [*wire, wire[0]], wire[:-1]):
        with pytest.raises(InvalidEncoding, match="must"):
            decode(bad)


def test_counts_bounded_by_deck_size() -> None:
    obj, _ = OBJECTS["shuffle proof"]
    for n in (3, 5):
        with pytest.raises(InvalidEncoding, match=f"must have {n} items"):
            ShuffleProof.from_wire(obj.to_wire(), n)
    deck_wire = OBJECTS["deck"][0].to_wire()
    with pytest.raises(InvalidEncoding, match="deck must have 4 items, got 5"):
        EncryptedDeck.from_wire([*deck_wire, deck_wire[0]], DECK)


def test_field_names_in_messages() -> None:
    obj, decode = OBJECTS["shuffle proof"]
    wire = obj.to_wire()
    with pytest.raises(InvalidPoint, match=r"shuffle proof c_hat\[2\]"):
        decode(replaced(wire, (1, 2), IDENTITY_BYTES))
    with pytest.raises(InvalidScalar, match=r"shuffle proof s_prime\[3\]"):
        decode(replaced(wire, (6, 3), NONCANONICAL))
    deck = OBJECTS["deck"][0]
    with pytest.raises(InvalidPoint, match=r"deck\[1\] b"):  # at its first use
        used(lambda w: EncryptedDeck.from_wire(w, DECK), deck)(
            replaced(deck.to_wire(), (1, 1), NONCANONICAL))


wire_values = st.recursive(
    st.one_of(st.binary(min_size=0, max_size=40), st.integers(), st.none(), st.text(max_size=3)),
    lambda children: st.lists(children, max_size=8),
    max_leaves=40,
)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(sorted(OBJECTS)), wire_values)
def test_decoders_raise_only_crypto_errors(name: str, data: object) -> None:
    _, decode = OBJECTS[name]
    with contextlib.suppress(CryptoError):
        decode(data)


@settings(max_examples=100, deadline=None)
@given(st.binary(min_size=32, max_size=32))
def test_random_32_bytes_decode_or_raise_invalid_point(data: bytes) -> None:
    from p2pcards.crypto import Point, Scalar

    try:
        p = Point.from_bytes(data)
    except InvalidPoint:
        return
    assert p.to_bytes() == data
    assert Scalar(ORDER - 1) * p == -p  # in the prime-order subgroup
