"""Ed25519 identity keys: RFC 8032 vectors, key validation, fingerprints, strict verification."""

from __future__ import annotations

import base64
import hashlib
import re

import pytest

from p2pcards.wire.errors import BadKey, ProtocolError
from p2pcards.wire.identity import IdentityKey, PublicIdentity

# RFC 8032, section 7.1, TEST 1 and TEST 2.
RFC_SEED_1 = bytes.fromhex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")
RFC_PUBLIC_1 = bytes.fromhex("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")
RFC_SIG_1 = bytes.fromhex(
    "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46b"
    "d25bf5f0595bbe24655141438e7a100b"
)
RFC_SEED_2 = bytes.fromhex("4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb")
RFC_PUBLIC_2 = bytes.fromhex("3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c")
RFC_SIG_2 = bytes.fromhex(
    "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c"
    "387b2eaeb4302aeeb00d291612bb0c00"
)
ORDER_L = 2**252 + 27742317777372353535851937790883648493


def test_rfc8032_vectors() -> None:
    key = IdentityKey.from_bytes(RFC_SEED_1)
    assert key.public.to_bytes() == RFC_PUBLIC_1
    assert key.sign(b"") == RFC_SIG_1
    assert key.public.verify(RFC_SIG_1, b"")
    key2 = IdentityKey.from_bytes(RFC_SEED_2)
    assert key2.public.to_bytes() == RFC_PUBLIC_2
    assert key2.sign(b"\x72") == RFC_SIG_2
    assert PublicIdentity(RFC_PUBLIC_2).verify(RFC_SIG_2, b"\x72")


def test_seed_round_trip_and_equality() -> None:
    key = IdentityKey.generate()
    again = IdentityKey.from_bytes(key.to_bytes())
    assert again.public == key.public
    assert hash(again.public) == hash(key.public)
    assert IdentityKey.generate().public != key.public
    assert PublicIdentity.from_bytes(key.public.to_bytes()) == key.public


def test_verify_rejects() -> None:
    key = IdentityKey.from_bytes(RFC_SEED_1)
    other = IdentityKey.from_bytes(RFC_SEED_2)
    sig = key.sign(b"move")
    assert key.public.verify(sig, b"move")
    assert not key.public.verify(sig, b"movf")
    assert not other.public.verify(sig, b"move")
    assert not key.public.verify(sig[:63], b"move")
    assert not key.public.verify(sig + b"\x00", b"move")
    assert not key.public.verify(bytearray(sig), b"move")  # type: ignore[arg-type]


def test_malleated_signature_is_rejected() -> None:
    """S + l is the same scalar mod l; a strict verifier must refuse it (no second signature)."""
    key = IdentityKey.from_bytes(RFC_SEED_1)
    sig = key.sign(b"move")
    s = int.from_bytes(sig[32:], "little")
    malleated = sig[:32] + (s + ORDER_L).to_bytes(32, "little")
    assert malleated != sig
    assert not key.public.verify(malleated, b"move")


@pytest.mark.parametrize(
    ("raw", "fragment"),
    [
        (b"\x01" * 31, "must be 32 bytes, not 31"),
        (b"\x01" * 33, "must be 32 bytes, not 33"),
        ("ab" * 16, "must be bytes, not str"),
        (bytes([1]) + bytes(31), "not a canonical Ed25519 point"),  # the neutral element
        (bytes(32), "not a canonical Ed25519 point"),  # y = 0: a point of order 4
        (b"\xff" * 31 + b"\x7f", "not a canonical Ed25519 point"),  # y = 2^255 - 1 >= p
        # a point of order 8 (from the libsodium blocklist)
        (bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a"),
         "not a canonical Ed25519 point"),
    ],
)
def test_bad_public_keys(raw: object, fragment: str) -> None:
    with pytest.raises(BadKey) as info:
        PublicIdentity(raw)  # type: ignore[arg-type]
    assert fragment in str(info.value)
    assert isinstance(info.value, ProtocolError)


@pytest.mark.parametrize("seed", [b"", b"\x00" * 31, b"\x00" * 64])
def test_bad_seeds(seed: bytes) -> None:
    with pytest.raises(BadKey, match="32-byte seed"):
        IdentityKey.from_bytes(seed)


def test_fingerprint_format_and_definition() -> None:
    public = PublicIdentity(RFC_PUBLIC_1)
    fp = public.fingerprint
    assert re.fullmatch(r"[A-Z2-7]{4}(-[A-Z2-7]{4}){3}", fp)
    expected = base64.b32encode(hashlib.sha256(RFC_PUBLIC_1).digest()[:10]).decode()
    assert fp.replace("-", "") == expected
    assert fp == "EH7D-DX5B-KSRG-CYTL"  # the example in protocol/SPEC.md section 4
    assert PublicIdentity(RFC_PUBLIC_2).fingerprint != fp
    assert fp in repr(public)
    assert fp in repr(IdentityKey.from_bytes(RFC_SEED_1))
    assert RFC_SEED_1.hex() not in repr(IdentityKey.from_bytes(RFC_SEED_1))
