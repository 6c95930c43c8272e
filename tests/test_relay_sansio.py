"""Sans-IO parts of the relay: handshake, messages, rooms and budgets, token buckets."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pcards.relay import (
    ClientHandshake,
    RelayLimits,
    RelayProtocolError,
    RelayRejected,
    RoomDropped,
    RoomRegistry,
    ServerHandshake,
    TokenBucket,
)
from p2pcards.relay.addresses import address_key, peer_address
from p2pcards.relay.messages import (
    Delivery,
    Welcome,
    decode_relay_message,
    encode_ack,
    encode_delivery,
    encode_error,
    encode_hello,
    encode_welcome,
)
from p2pcards.relay.rooms import JoinRefused
from p2pcards.wire import IdentityKey, unpack
from p2pcards.wire.errors import FrameTooLarge
from p2pcards.wire.framing import FrameDecoder

ROOM = b"r" * 16
NONCE = bytes(range(32))
KEY = IdentityKey.from_bytes(b"\x07" * 32)


def _admitted(room: bytes = ROOM, since: int = -1) -> object:
    client = ClientHandshake(room, KEY, since)
    server = ServerHandshake(NONCE)
    challenge = server.receive(client.hello())
    assert isinstance(challenge, bytes)
    return server.receive(client.on_challenge(challenge))


def test_handshake_admits_the_key_holder() -> None:
    admission = _admitted(b"x" * 64, since=5)
    assert admission.room == b"x" * 64  # type: ignore[attr-defined]
    assert admission.identity == KEY.public  # type: ignore[attr-defined]
    assert admission.since == 5  # type: ignore[attr-defined]


def test_proof_by_another_key_is_refused() -> None:
    client = ClientHandshake(ROOM, KEY)
    server = ServerHandshake(NONCE)
    server.receive(client.hello())
    impostor = ClientHandshake(ROOM, IdentityKey.from_bytes(b"\x08" * 32))
    with pytest.raises(RelayProtocolError) as info:
        server.receive(impostor.on_challenge(_challenge()))
    assert info.value.reason == "bad-signature"
    with pytest.raises(RelayProtocolError):  # a failed machine stays failed
        server.receive(client.on_challenge(_challenge()))


def _challenge() -> bytes:
    from p2pcards.relay.messages import encode_challenge
    return encode_challenge(NONCE)


def test_proof_is_bound_to_the_room() -> None:
    server = ServerHandshake(NONCE)
    server.receive(ClientHandshake(ROOM, KEY).hello())
    other_room = ClientHandshake(b"s" * 16, KEY)
    with pytest.raises(RelayProtocolError) as info:
        server.receive(other_room.on_challenge(_challenge()))
    assert info.value.reason == "bad-signature"


@pytest.mark.parametrize(("room", "identity", "since", "reason"), [
    (b"r" * 15, KEY.public.to_bytes(), -1, "bad-room"),
    (b"r" * 65, KEY.public.to_bytes(), -1, "bad-message"),  # over the decoder's bin limit
    (ROOM, b"\x00" * 31, -1, "bad-identity"),
    (ROOM, b"\x00" * 32, -1, "bad-identity"),  # not a prime-order point
    (ROOM, KEY.public.to_bytes(), -2, "bad-message"),
])
def test_bad_hello_fields(room: bytes, identity: bytes, since: int, reason: str) -> None:
    with pytest.raises(RelayProtocolError) as info:
        ServerHandshake(NONCE).receive(encode_hello(room, identity, since))
    assert info.value.reason == reason


def test_client_reports_relay_error() -> None:
    with pytest.raises(RelayRejected) as info:
        ClientHandshake(ROOM, KEY).on_challenge(encode_error("room-full", "full"))
    assert info.value.reason == "room-full"


@settings(max_examples=300, deadline=None)
@given(st.lists(st.binary(max_size=200), max_size=4))
def test_fuzz_server_handshake_any_bytes(frames: list[bytes]) -> None:
    server = ServerHandshake(NONCE)
    for frame in frames:
        try:
            server.receive(frame)
        except RelayProtocolError as exc:
            assert exc.reason and str(exc)
            return


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400))
def test_fuzz_framed_handshake_stream(data: bytes) -> None:
    """Any byte stream through the decoder and the handshake: frames or a clean rejection."""
    decoder = FrameDecoder(1024)
    server = ServerHandshake(NONCE)
    try:
        for i in range(0, len(data), 7):
            for frame in decoder.feed(data[i:i + 7]):
                server.receive(frame)
    except (RelayProtocolError, FrameTooLarge):
        pass  # a clean rejection; any other exception fails the test


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300))
def test_fuzz_client_message_decoding(data: bytes) -> None:
    with contextlib.suppress(RelayProtocolError, RelayRejected):
        decode_relay_message(data, 1024)
    with contextlib.suppress(RelayProtocolError, RelayRejected):
        ClientHandshake(ROOM, KEY).on_challenge(data)


@given(st.integers(0, 2**40), st.integers(0, 7), st.binary(max_size=300))
def test_delivery_round_trip_is_canonical(index: int, slot: int, payload: bytes) -> None:
    data = encode_delivery(index, slot, payload)
    assert unpack(data, max_size=len(data)) == {"d": payload, "i": index, "s": slot,
                                                 "t": "frame"}
    assert decode_relay_message(data, 1024) == Delivery(index, slot, payload)
    assert decode_relay_message(encode_ack(index), 1024) == Delivery(index, -1, None)
    assert decode_relay_message(encode_welcome(Welcome(slot, 0, index)), 10) == \
        Welcome(slot, 0, index)


def test_oversized_delivery_payload_is_refused() -> None:
    with pytest.raises(RelayProtocolError):
        decode_relay_message(encode_delivery(0, 0, b"x" * 1025), 1024)


# ------------------------------------------------------------------ rooms and budgets

SMALL = RelayLimits(max_payload=1000, bytes_burst=1000, max_room_bytes=3000,
                    max_total_bytes=5000, max_inflight_bytes=2000, max_rooms=2,
                    max_rooms_per_address=1, max_connections_per_address=4,
                    max_peers_per_room=2, room_lifetime=100, empty_room_ttl=10)


def _code(i: int) -> bytes:
    return bytes([i]) * 16


def test_slots_are_kept_per_identity() -> None:
    reg = RoomRegistry(SMALL)
    room, a = reg.join(_code(1), b"A" * 32, -1, 0.0)
    _, b = reg.join(_code(1), b"B" * 32, -1, 0.0)
    assert (a, b) == (0, 1)
    reg.leave(room, a, 1.0)
    assert reg.join(_code(1), b"A" * 32, -1, 2.0)[1] == 0
    with pytest.raises(JoinRefused) as info:
        reg.join(_code(1), b"C" * 32, -1, 0.0)
    assert info.value.reason == "room-full"


def test_a_default_room_holds_an_eight_seat_table_with_reconnects_and_refused_attempts(
        ) -> None:
    """The host and 7 joiners, each reconnecting under its own key (same slot), then 8 more
    identities (joiners back under fresh keys, refused attempts) fill the room to 16."""
    reg = RoomRegistry(RelayLimits())
    members = [bytes([i]) * 32 for i in range(8)]
    slots = [reg.join(_code(1), key, -1, 0.0)[1] for key in members]
    assert slots == list(range(8))
    room = reg.rooms[_code(1)]
    for slot, key in zip(slots, members, strict=True):
        reg.leave(room, slot, 1.0)
        assert reg.join(_code(1), key, -1, 2.0)[1] == slot
    more = [reg.join(_code(1), bytes([100 + i]) * 32, -1, 3.0)[1] for i in range(8)]
    assert more == list(range(8, 16))
    with pytest.raises(JoinRefused) as info:
        reg.join(_code(1), b"Z" * 32, -1, 4.0)
    assert info.value.reason == "room-full"


def test_room_count_limit_and_index_checks() -> None:
    reg = RoomRegistry(SMALL)
    reg.join(_code(1), b"A" * 32, -1, 0.0, "10.0.0.1")
    with pytest.raises(JoinRefused) as info:
        reg.join(_code(2), b"A" * 32, -1, 0.0, "10.0.0.1")
    assert info.value.reason == "rooms-per-address"
    reg.join(_code(1), b"B" * 32, -1, 0.0, "10.0.0.1")  # joining a held room is not creating
    reg.join(_code(2), b"A" * 32, -1, 0.0, "10.0.0.2")
    with pytest.raises(JoinRefused) as info:
        reg.join(_code(3), b"A" * 32, -1, 0.0, "10.0.0.3")
    assert info.value.reason == "rooms-full"
    with pytest.raises(JoinRefused) as info:
        reg.join(_code(3), b"A" * 32, 4, 0.0)
    assert info.value.reason == "room-unknown"
    with pytest.raises(JoinRefused) as info:
        reg.join(_code(1), b"A" * 32, 0, 0.0)  # the room has no frame 0 yet
    assert info.value.reason == "ahead-of-room"


def test_room_buffer_budget_drops_the_room_exactly_at_the_edge() -> None:
    reg = RoomRegistry(SMALL)
    room, slot = reg.join(_code(1), b"A" * 32, -1, 0.0)
    framed = 4 + len(encode_delivery(0, 0, b"x" * 976))  # wrapped size of a 976-byte payload
    assert framed == 1000
    for i in range(3):
        assert reg.append(room, slot, b"x" * 976) == i
    assert room.buffered == reg.buffered == 3000 == SMALL.max_room_bytes
    assert [i for i, _, _ in room.read(1, 10)] == [1]
    assert [i for i, _, _ in room.read(1, 10_000)] == [1, 2]
    with pytest.raises(RoomDropped) as info:
        reg.append(room, slot, b"")
    assert info.value.reason == "room-buffer"
    assert reg.buffered == 0 and _code(1) not in reg.rooms


def test_total_buffer_budget() -> None:
    reg = RoomRegistry(SMALL)
    one, s1 = reg.join(_code(1), b"A" * 32, -1, 0.0, "10.0.0.1")
    two, s2 = reg.join(_code(2), b"A" * 32, -1, 0.0, "10.0.0.2")
    for _ in range(3):
        reg.append(one, s1, b"x" * 976)
    reg.append(two, s2, b"x" * 976)
    reg.append(two, s2, b"x" * 976)
    assert reg.buffered == 5000
    with pytest.raises(RoomDropped) as info:
        reg.append(two, s2, b"")
    assert info.value.reason == "total-buffer"
    assert reg.buffered == 3000 and list(reg.rooms) == [_code(1)]


def test_expiry() -> None:
    reg = RoomRegistry(SMALL)
    kept, slot = reg.join(_code(1), b"A" * 32, -1, 0.0, "10.0.0.1")
    empty, slot2 = reg.join(_code(2), b"A" * 32, -1, 0.0, "10.0.0.2")
    reg.leave(empty, slot2, 5.0)
    assert reg.expire(14.9) == []
    assert reg.expire(15.0) == [(empty, "room-abandoned")]
    assert reg.expire(99.9) == []
    assert reg.expire(100.0) == [(kept, "room-expired")]
    assert reg.rooms == {} and len(reg.created_by) == 0


def test_token_bucket() -> None:
    bucket = TokenBucket(rate=10, burst=3, now=0.0)
    assert [bucket.take(1, 0.0) for _ in range(3)] == [0.0, 0.0, 0.0]
    assert bucket.take(1, 0.0) == pytest.approx(0.1)
    assert bucket.take(1, 0.1) == pytest.approx(0.1)  # paid back, one more in debt
    assert bucket.tokens(10.0) == 3  # capped at the burst


def test_addresses_count_ipv4_as_is_and_ipv6_by_its_64() -> None:
    assert address_key("192.0.2.7") == "192.0.2.7"
    assert address_key("::ffff:192.0.2.7") == "192.0.2.7"
    assert address_key("2001:db8:1:2:aaaa::1") == address_key("2001:db8:1:2::ffff") == \
        "2001:db8:1:2::/64"
    assert address_key("2001:db8:1:3::1") == "2001:db8:1:3::/64"
    assert address_key("fe80::1%eth0") == "fe80::/64"
    assert peer_address("[2001:db8::5]:7447") == peer_address("2001:db8::6:7447") == \
        "2001:db8::/64"
    assert peer_address("127.0.0.2:4000") == "127.0.0.2" and peer_address("?") == "?"


_ADDRESSES = ["10.0.0.1", "10.0.0.2", "2001:db8::/64"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["join", "drop"]), st.sampled_from(_ADDRESSES),
                          st.integers(0, 40)), max_size=80),
       st.integers(1, 5), st.integers(1, 5))
def test_no_address_creates_more_than_its_rooms_and_one_address_never_fills_the_relay(
        steps: list[tuple[str, str, int]], per_address: int, spare: int) -> None:
    """Whatever the joins and drops, each address holds at most its cap of the rooms it
    created, the counts follow the rooms exactly, and ``rooms-full`` is only ever reached with
    rooms created by two addresses or more."""
    limits = RelayLimits(max_rooms=per_address + spare, max_rooms_per_address=per_address)
    reg = RoomRegistry(limits)
    for step, address, n in steps:
        if step == "drop":
            room = reg.rooms.get(_code(n))
            if room is not None:
                reg.drop(room, "room-expired")
            continue
        try:
            reg.join(_code(n), address.encode().ljust(32, b"."), -1, 0.0, address)
        except JoinRefused as exc:
            creators = {room.creator for room in reg.rooms.values()}
            assert exc.reason in ("rooms-per-address", "rooms-full")
            assert exc.reason != "rooms-full" or len(creators) >= 2
        for a in _ADDRESSES:
            held = sum(room.creator == a for room in reg.rooms.values())
            assert reg.created_by.held(a) == held <= per_address


def test_limits_validation() -> None:
    with pytest.raises(ValueError, match="max_rooms"):
        RelayLimits(max_rooms=0)
    with pytest.raises(ValueError, match="bytes_burst"):
        RelayLimits(bytes_burst=10)
    with pytest.raises(ValueError, match="max_rooms_per_address must be less than max_rooms"):
        RelayLimits(max_rooms=8, max_rooms_per_address=8)
    with pytest.raises(ValueError, match="max_connections_per_address must be less than"):
        RelayLimits(max_connections=32, max_connections_per_address=32)
