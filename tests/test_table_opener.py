"""A received frame is opened (decoded, its signature verified) once, however often it is
looked at before it is received."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from p2pcards.table.intake import Opener
from p2pcards.wire import BadSignature, MalformedEnvelope, PublicIdentity, open_envelope
from p2pcards.wire.envelope import ZERO_HASH, Payload, seal
from p2pcards.wire.identity import IdentityKey

KEYS = [IdentityKey.from_bytes(hashlib.sha256(b"opener seat %d" % i).digest()) for i in range(2)]
TABLE = hashlib.sha256(b"opener table").digest()


class CountingKeys:
    """The seats' public keys, counting how often a key is asked for (once per signature
    check of :func:`open_envelope`)."""

    def __init__(self) -> None:
        self.asked = 0

    def __call__(self, seat: int) -> PublicIdentity | None:
        self.asked += 1
        return KEYS[seat].public if 0 <= seat < len(KEYS) else None


def frame(seat: int, seq: int, card: str = "7D") -> bytes:
    payload = Payload(TABLE, seq, ZERO_HASH, seat, "play", {"card": card})
    return seal(payload, KEYS[seat]).encode()


def test_a_frame_looked_at_then_received_is_checked_once() -> None:
    keys = CountingKeys()
    opener = Opener(keys)
    data = frame(1, 3)
    first = opener.open(data)
    again = opener.open(bytes(data))  # equal bytes, another object
    assert again == first == open_envelope(data, [k.public for k in KEYS])
    assert keys.asked == 1


def test_another_frame_is_opened_anew() -> None:
    keys = CountingKeys()
    opener = Opener(keys)
    one, two = frame(0, 1), frame(1, 2)
    assert opener.open(one)[1].seat == 0
    assert opener.open(two)[1].seat == 1
    assert opener.open(one)[1].seq == 1
    assert keys.asked == 3


@given(st.integers(min_value=0, max_value=63), st.integers(min_value=0, max_value=7))
def test_a_frame_that_fails_is_refused_every_time(position: int, bit: int) -> None:
    opener = Opener(CountingKeys())
    good = frame(1, 4)
    opener.open(good)
    signature_start = len(good) - 64
    bad = bytearray(good)
    bad[signature_start + position] ^= 1 << bit
    for _ in range(2):
        with pytest.raises(BadSignature):
            opener.open(bytes(bad))
    assert opener.open(good)[1].seq == 4


def test_a_malformed_frame_is_refused_and_not_remembered() -> None:
    opener = Opener(CountingKeys())
    for _ in range(2):
        with pytest.raises(MalformedEnvelope):
            opener.open(b"\x93\x01")
