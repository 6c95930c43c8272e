"""Signed envelopes: layout, sign/verify, key resolution, tampering, schema, fuzzing."""

from __future__ import annotations

import contextlib
import hashlib
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from p2pcards.wire import codec
from p2pcards.wire.codec import Limits
from p2pcards.wire.envelope import (
    PROTOCOL_VERSION,
    ZERO_HASH,
    Envelope,
    Payload,
    envelope_hash,
    open_envelope,
    seal,
)
from p2pcards.wire.errors import (
    BadSignature,
    EncodeError,
    MalformedEnvelope,
    ProtocolError,
    UnknownSeat,
)
from p2pcards.wire.identity import IdentityKey, PublicIdentity

KEYS = [IdentityKey.from_bytes(hashlib.sha256(b"seat %d" % i).digest()) for i in range(3)]
PUBLICS = [k.public for k in KEYS]
TABLE = hashlib.sha256(b"genesis").digest()


def make(seat: int = 1, seq: int = 0, body: dict[str, Any] | None = None,
         kind: str = "play") -> tuple[Envelope, Payload, bytes]:
    payload = Payload(TABLE, seq, ZERO_HASH, seat, kind, {"card": "7D"} if body is None else body)
    envelope = seal(payload, KEYS[seat])
    return envelope, payload, envelope.encode()


def test_layout_matches_the_spec() -> None:
    envelope, payload, data = make(body={"card": "7D", "n": [1, b"\x01"]})
    assert envelope.payload == codec.pack(
        [PROTOCOL_VERSION, TABLE, 0, ZERO_HASH, 1, "play", {"card": "7D", "n": [1, b"\x01"]}]
    )
    # 0x92: array of 2; 0xc5 + 2-byte length: bin16 payload; 0xc4 0x40: bin8 of 64 bytes
    assert data[:1] == b"\x92"
    assert data == codec.pack([envelope.payload, envelope.signature])
    assert data.endswith(b"\xc4\x40" + envelope.signature)
    assert PUBLICS[1].verify(envelope.signature, envelope.payload)
    assert envelope_hash(envelope) == hashlib.sha256(data).digest()


def test_round_trip_with_every_kind_of_resolver() -> None:
    envelope, payload, data = make()
    for keys in (PUBLICS, {1: PUBLICS[1]}, lambda seat: PUBLICS[seat]):
        got_env, got_payload = open_envelope(data, keys)
        assert got_env == envelope
        assert got_payload == payload


def test_signing_is_deterministic() -> None:
    assert make()[2] == make()[2]


def test_wrong_key_is_bad_signature() -> None:
    _, _, data = make(seat=1)
    keys = [PUBLICS[0], PUBLICS[2], PUBLICS[2]]
    with pytest.raises(BadSignature, match="claiming seat 1, seq 0") as info:
        open_envelope(data, keys)
    assert info.value.seat is None  # unproven: anyone can write "seat 1"


def test_signature_from_another_seat_key() -> None:
    payload = Payload(TABLE, 0, ZERO_HASH, 1, "play", {})
    forged = seal(payload, KEYS[2])  # seat 2 signs a message claiming to be seat 1
    with pytest.raises(BadSignature):
        open_envelope(forged.encode(), PUBLICS)


@pytest.mark.parametrize(
    "keys", [PUBLICS[:1], {0: PUBLICS[0]}, lambda seat: None], ids=["seq", "map", "fn"]
)
def test_unknown_seat(keys: Any) -> None:
    _, _, data = make(seat=1)
    with pytest.raises(UnknownSeat, match="seat 1"):
        open_envelope(data, keys)


def test_signature_is_checked_before_the_body_is_parsed() -> None:
    """A body that would fail strict parsing, signed by the wrong key: the signature fails first."""
    raw = codec.pack([1, TABLE, 0, ZERO_HASH, 0, "play", {}])[:-1] + b"\x81\xa1x\xcb" + bytes(8)
    envelope = Envelope(raw, KEYS[1].sign(raw))
    with pytest.raises(BadSignature):
        open_envelope(envelope.encode(), PUBLICS)
    signed = Envelope(raw, KEYS[0].sign(raw))
    with pytest.raises(MalformedEnvelope, match="float") as info:
        open_envelope(signed.encode(), PUBLICS)
    assert info.value.seat == 0 and info.value.index == 0


def signed_raw(fields: list[Any], seat: int = 0) -> bytes:
    raw = codec.pack(fields)
    return Envelope(raw, KEYS[seat].sign(raw)).encode()


@pytest.mark.parametrize(
    ("fields", "fragment"),
    [
        ([2, TABLE, 0, ZERO_HASH, 0, "play", {}], "version must be the integer 1"),
        ([True, TABLE, 0, ZERO_HASH, 0, "play", {}], "version"),
        ([1, TABLE[:31], 0, ZERO_HASH, 0, "play", {}], "table_id must be 32 bytes"),
        ([1, TABLE, -1, ZERO_HASH, 0, "play", {}], "seq must be a non-negative"),
        ([1, TABLE, "0", ZERO_HASH, 0, "play", {}], "seq"),
        ([1, TABLE, 0, b"", 0, "play", {}], "prev must be 32 bytes"),
        ([1, TABLE, 0, ZERO_HASH, 8, "play", {}], "seat must be an integer from 0 to 7"),
        ([1, TABLE, 0, ZERO_HASH, 0, "Play", {}], "kind"),
        ([1, TABLE, 0, ZERO_HASH, 0, "", {}], "kind"),
        ([1, TABLE, 0, ZERO_HASH, 0, "k" * 33, {}], "kind"),
        ([1, TABLE, 0, ZERO_HASH, 0, 5, {}], "kind"),
        ([1, TABLE, 0, ZERO_HASH, 0, "play", []], "body must be a map"),
        ([1, TABLE, 0, ZERO_HASH, 0, "play"], "array of 7 fields"),
        ([1, TABLE, 0, ZERO_HASH, 0, "play", {}, None], "array of 7 fields"),
    ],
)
def test_schema_violations_name_the_field(fields: list[Any], fragment: str) -> None:
    with pytest.raises(MalformedEnvelope) as info:
        open_envelope(signed_raw(fields), PUBLICS)
    assert fragment in str(info.value)


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        (b"", "envelope is not valid"),
        (codec.pack([b"x"]), "array of payload and signature"),
        (codec.pack({"p": b"x"}), "envelope is not valid"),  # maps are over the outer limits
        (codec.pack(["x", bytes(64)]), "envelope is not valid"),  # text is over the outer limits
        (codec.pack([b"x", bytes(63)]), "signature must be 64"),
        (codec.pack([[1], bytes(64)]), "envelope is not valid"),
        (codec.pack([codec.pack(5), bytes(64)]), "payload header"),
        (bytes.fromhex("92c5000178c440") + bytes(64), "not in canonical form"),
    ],
)
def test_malformed_outer(data: bytes, fragment: str) -> None:
    with pytest.raises(MalformedEnvelope) as info:
        open_envelope(data, PUBLICS)
    assert fragment in str(info.value)


def test_header_with_oversized_fields_is_refused_before_verification() -> None:
    raw = codec.pack([1, TABLE + b"\x00", 0, ZERO_HASH, 0, "play", {}])
    with pytest.raises(MalformedEnvelope, match="payload header"):
        open_envelope(Envelope(raw, bytes(64)).encode(), PUBLICS)


def test_size_and_body_limits() -> None:
    _, _, data = make(body={"s": "x" * 100})
    open_envelope(data, PUBLICS, max_size=len(data))
    with pytest.raises(MalformedEnvelope, match="exceeds the maximum"):
        open_envelope(data, PUBLICS, max_size=len(data) - 1)
    open_envelope(data, PUBLICS, limits=Limits(max_str_len=100))
    with pytest.raises(MalformedEnvelope, match="a string of 100 bytes exceeds the limit of 99"):
        open_envelope(data, PUBLICS, limits=Limits(max_str_len=99))


def test_payload_constructor_checks_fields() -> None:
    with pytest.raises(MalformedEnvelope, match="seat"):
        Payload(TABLE, 0, ZERO_HASH, -1, "play", {})
    with pytest.raises(MalformedEnvelope, match="seq"):
        Payload(TABLE, True, ZERO_HASH, 0, "play", {})
    with pytest.raises(MalformedEnvelope, match="body"):
        Payload(TABLE, 0, ZERO_HASH, 0, "play", [])  # type: ignore[arg-type]


def test_seal_rejects_non_wire_body() -> None:
    with pytest.raises(EncodeError, match=r"float at \$\[6\]\.x"):
        seal(Payload(TABLE, 0, ZERO_HASH, 0, "play", {"x": 0.5}), KEYS[0])


def test_every_single_bit_flip_is_detected() -> None:
    _, _, data = make(body={"card": "7D", "points": [1, 2, 3]})
    for position in range(len(data)):
        for mask in (0x01, 0x80):
            tampered = bytearray(data)
            tampered[position] ^= mask
            with pytest.raises(ProtocolError):
                open_envelope(bytes(tampered), PUBLICS)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_any_flipped_byte_is_detected(data: st.DataObject) -> None:
    body = data.draw(st.dictionaries(st.text(max_size=5), st.integers(-5, 500), max_size=4))
    _, _, encoded = make(seat=data.draw(st.integers(0, 2)), body=body)
    position = data.draw(st.integers(0, len(encoded) - 1))
    mask = data.draw(st.integers(1, 255))
    tampered = bytearray(encoded)
    tampered[position] ^= mask
    with pytest.raises(ProtocolError):
        open_envelope(bytes(tampered), PUBLICS)


def attempt(data: bytes) -> None:
    """The fuzz invariant: success, or a ProtocolError; any other exception fails the test."""
    with contextlib.suppress(ProtocolError):
        open_envelope(data, PUBLICS)


@settings(max_examples=1500, deadline=None)
@given(st.binary(max_size=200))
def test_fuzz_arbitrary_bytes(data: bytes) -> None:
    attempt(data)


wire_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | st.text(max_size=8)
    | st.binary(max_size=40),
    lambda c: st.lists(c, max_size=8) | st.dictionaries(st.text(max_size=4), c, max_size=4),
    max_leaves=20,
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(wire_values, st.binary(min_size=64, max_size=64))
def test_fuzz_structured_payloads(value: Any, signature: bytes) -> None:
    attempt(codec.pack([codec.pack(value), signature]))


@settings(max_examples=400, deadline=None)
@given(st.integers(0, 2), st.binary(max_size=120))
def test_fuzz_validly_signed_garbage_after_a_valid_header(seat: int, tail: bytes) -> None:
    """Bytes after a good header, signed with the right key: reach the post-signature parser."""
    head = codec.pack([1, TABLE, 0, ZERO_HASH, seat, "play", {}])
    raw = head[:1] + head[1:-len(codec.pack("play")) - 1] + tail
    envelope = Envelope(raw, KEYS[seat].sign(raw))
    try:
        _, payload = open_envelope(envelope.encode(), PUBLICS)
    except ProtocolError as exc:
        if not isinstance(exc, MalformedEnvelope) or "header" in str(exc):
            return
        assert exc.seat == seat
        return
    assert payload.seat == seat
    assert payload.encode() == raw


def test_public_identity_list_may_be_any_sequence() -> None:
    _, _, data = make(seat=2)
    keys: tuple[PublicIdentity, ...] = tuple(PUBLICS)
    assert open_envelope(data, keys)[1].seat == 2


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=70_000), st.binary(min_size=64, max_size=64))
def test_envelope_encoding_is_the_codecs(payload: bytes, signature: bytes) -> None:
    assert Envelope(payload, signature).encode() == codec.pack([payload, signature])
