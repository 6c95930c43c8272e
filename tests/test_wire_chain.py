"""The hash chain: links, every ChainError, equivocation evidence."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pcards.wire.chain import (
    Chain,
    ChainError,
    Equivocation,
    Fork,
    OutOfTurn,
    Replay,
    WrongPrevious,
    WrongSequence,
    WrongTable,
)
from p2pcards.wire.envelope import (
    ZERO_HASH,
    Envelope,
    Payload,
    envelope_hash,
    open_envelope,
    seal,
)
from p2pcards.wire.errors import ProtocolError
from p2pcards.wire.identity import IdentityKey

KEYS = [IdentityKey.from_bytes(hashlib.sha256(b"chain seat %d" % i).digest()) for i in range(3)]
PUBLICS = [k.public for k in KEYS]
TABLE = hashlib.sha256(b"table").digest()


def signed(seat: int, seq: int, prev: bytes, body: dict[str, Any] | None = None,
           table: bytes = TABLE) -> tuple[Payload, Envelope]:
    envelope = seal(Payload(table, seq, prev, seat, "move", body or {"n": seq}), KEYS[seat])
    received, payload = open_envelope(envelope.encode(), PUBLICS)
    return payload, received


def grown(length: int) -> Chain:
    """A chain of ``length`` envelopes, seats taking turns 0, 1, 2, 0, ..."""
    chain = Chain(TABLE)
    for seq in range(length):
        chain.accept(*signed(seq % 3, seq, chain.head), expected_seat=seq % 3)
    return chain


def test_empty_chain() -> None:
    chain = Chain(TABLE)
    assert chain.next_seq == 0 and len(chain) == 0
    assert chain.head == ZERO_HASH
    with pytest.raises(IndexError):
        chain.envelope(0)


def test_accept_links_and_returns_hash() -> None:
    chain = Chain(TABLE)
    payload, envelope = signed(0, 0, ZERO_HASH)
    digest = chain.accept(payload, envelope, expected_seat=0)
    assert digest == envelope_hash(envelope) == chain.head
    assert chain.next_seq == 1
    assert chain.envelope(0) == envelope and chain.seat_of(0) == 0
    payload2, envelope2 = signed(1, 1, digest)
    assert chain.accept(payload2, envelope2) == envelope_hash(envelope2)
    assert len(chain) == 2


def test_check_changes_nothing() -> None:
    chain = grown(2)
    head = chain.head
    payload, envelope = signed(2, 2, head)
    chain.check(payload, envelope, expected_seat=2)
    chain.check(payload, envelope, expected_seat=2)
    assert chain.next_seq == 2 and chain.head == head


def test_wrong_table() -> None:
    chain = grown(2)
    payload, envelope = signed(2, 2, chain.head, table=hashlib.sha256(b"other").digest())
    with pytest.raises(WrongTable, match="seat 2 with seq 2 is for table") as info:
        chain.check(payload, envelope)
    assert (info.value.seat, info.value.index) == (2, 2)


def test_sequence_ahead() -> None:
    chain = grown(2)
    payload, envelope = signed(2, 3, chain.head)
    with pytest.raises(WrongSequence, match="skips ahead; the chain expects seq 2") as info:
        chain.check(payload, envelope)
    assert (info.value.seat, info.value.index) == (2, 2)


def test_sequence_behind_taken_by_another_seat() -> None:
    chain = grown(3)
    payload, envelope = signed(2, 1, chain.head)  # seq 1 belongs to seat 1
    with pytest.raises(WrongSequence, match="already taken by seat 1; the chain expects seq 3"):
        chain.check(payload, envelope)


def test_wrong_previous_after_the_signers_own_envelope() -> None:
    chain = grown(2)  # seat 1 signed the head
    payload, envelope = signed(1, 2, envelope_hash(chain.envelope(0)))
    with pytest.raises(WrongPrevious, match="chain head") as info:
        chain.check(payload, envelope)
    assert not isinstance(info.value, Fork)
    assert (info.value.seat, info.value.index) == (1, 2)
    payload, envelope = signed(0, 0, b"\x01" * 32)
    with pytest.raises(WrongPrevious) as first:
        Chain(TABLE).check(payload, envelope)
    assert not isinstance(first.value, Fork)


def test_a_broken_link_after_another_seats_envelope_is_a_fork() -> None:
    chain = grown(2)  # seat 1 signed the head; seat 2 links to something else
    other = hashlib.sha256(b"the envelope seat 2 was shown").digest()
    payload, envelope = signed(2, 2, other)
    with pytest.raises(Fork, match="the chain has forked") as info:
        chain.check(payload, envelope)
    fork = info.value
    assert isinstance(fork, WrongPrevious)
    assert (fork.seat, fork.index, fork.head_seat) == (2, 2, 1)
    assert fork.head == chain.envelope(1) and fork.link == envelope and fork.wanted == other


def test_position_of_finds_accepted_envelopes_by_hash() -> None:
    chain = grown(4)
    for seq in range(4):
        assert chain.position_of(envelope_hash(chain.envelope(seq))) == seq
    assert chain.position_of(ZERO_HASH) is None


def test_replay() -> None:
    chain = grown(3)
    with pytest.raises(Replay) as info:
        chain.check(chain_payload(chain, 1), chain.envelope(1))
    assert (info.value.seat, info.value.index) == (1, 1)
    assert chain.next_seq == 3


def chain_payload(chain: Chain, seq: int) -> Payload:
    return open_envelope(chain.envelope(seq).encode(), PUBLICS)[1]


def test_out_of_turn() -> None:
    chain = grown(2)
    payload, envelope = signed(0, 2, chain.head)
    with pytest.raises(OutOfTurn, match="seat 2 must speak now") as info:
        chain.check(payload, envelope, expected_seat=2)
    assert (info.value.seat, info.value.index) == (0, 2)
    chain.check(payload, envelope)  # without a turn constraint the link itself is fine


def test_equivocation_carries_verifiable_evidence() -> None:
    chain = grown(3)
    prev = envelope_hash(chain.envelope(0))
    payload, envelope = signed(1, 1, prev, body={"n": 99})  # seat 1 signs another seq 1
    with pytest.raises(Equivocation) as info:
        chain.check(payload, envelope)
    error = info.value
    assert (error.seat, error.index) == (1, 1)
    assert "seat 1 signed two different envelopes for seq 1" in str(error)
    assert error.first == chain.envelope(1)
    assert error.second == envelope
    # Anyone holding the seat's public key can check the evidence on its own.
    first = open_envelope(error.first.encode(), PUBLICS)[1]
    second = open_envelope(error.second.encode(), PUBLICS)[1]
    assert first.seat == second.seat == 1 and first.seq == second.seq == 1
    assert error.first.encode() != error.second.encode()


def test_equivocation_at_the_head_position_after_accept() -> None:
    chain = grown(1)
    payload_a, envelope_a = signed(1, 1, chain.head, body={"card": "AC"})
    payload_b, envelope_b = signed(1, 1, chain.head, body={"card": "KB"})
    chain.check(payload_a, envelope_a)
    chain.check(payload_b, envelope_b)  # either could be next
    chain.accept(payload_a, envelope_a)
    with pytest.raises(Equivocation):
        chain.accept(payload_b, envelope_b)
    assert chain.next_seq == 2


def test_hierarchy() -> None:
    for cls in (WrongTable, WrongSequence, WrongPrevious, Fork, Replay, OutOfTurn, Equivocation):
        assert issubclass(cls, ChainError)
    assert issubclass(ChainError, ProtocolError)


def test_bad_table_id() -> None:
    with pytest.raises(ValueError):
        Chain(b"short")


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 2), min_size=1, max_size=12), st.data())
def test_chain_accepts_exactly_the_valid_next_link(seats: list[int], data: st.DataObject) -> None:
    """Build a chain; then any earlier envelope offered again is a Replay, and a fresh envelope
    with a random seq and prev is accepted iff seq and prev are the head's."""
    chain = Chain(TABLE)
    for seq, seat in enumerate(seats):
        chain.accept(*signed(seat, seq, chain.head), expected_seat=seat)
    old = data.draw(st.integers(0, len(seats) - 1))
    with pytest.raises(Replay):
        chain.check(chain_payload(chain, old), chain.envelope(old))
    seq = data.draw(st.integers(0, len(seats) + 1))
    prev = data.draw(st.sampled_from([chain.head, ZERO_HASH, envelope_hash(chain.envelope(0))]))
    seat = data.draw(st.integers(0, 2))
    payload, envelope = signed(seat, seq, prev, body={"x": "fresh"})
    valid = seq == len(seats) and prev == chain.head
    try:
        chain.check(payload, envelope)
    except ChainError:
        assert not valid
    else:
        assert valid
