"""The relay tells a member that asks (``see`` in its hello) the address it sees it at
(``seen`` in welcome), for hole punching; a member that does not ask is answered as before."""

from __future__ import annotations

import pytest
import trio
from test_relay_support import room_code, running_relay

from p2pcards.relay import connect
from p2pcards.relay.errors import RelayProtocolError
from p2pcards.relay.messages import (
    Welcome,
    decode_hello,
    decode_relay_message,
    encode_hello,
    encode_welcome,
)
from p2pcards.relay.shared_port import free_port
from p2pcards.wire.codec import pack
from p2pcards.wire.identity import IdentityKey

ROOM = room_code("seen")
KEY = bytes(32)


def test_see_and_seen_round_trip_and_stay_optional() -> None:
    assert decode_hello(encode_hello(ROOM, KEY, -1, see=True)).see
    assert not decode_hello(encode_hello(ROOM, KEY, -1)).see
    assert encode_hello(ROOM, KEY, 3) == pack({"t": "hello", "v": 1, "room": ROOM, "id": KEY,
                                               "since": 3})
    seen = Welcome(2, 0, 5, "[2001:db8:1::2]:40123")
    assert decode_relay_message(encode_welcome(seen), 1024) == seen
    assert decode_relay_message(encode_welcome(Welcome(2, 0, 5)), 1024) == Welcome(2, 0, 5)


@pytest.mark.parametrize("value", [False, 1, "yes"])
def test_a_see_that_is_not_true_is_refused(value: object) -> None:
    hello = pack({"t": "hello", "v": 1, "room": ROOM, "id": KEY, "since": -1, "see": value})
    with pytest.raises(RelayProtocolError, match="'see' must be true"):
        decode_hello(hello)


async def test_the_relay_says_where_it_sees_a_member_that_asks() -> None:
    port = free_port()
    async with running_relay() as (_, relay_port, _):
        asking = await connect("127.0.0.1", relay_port, ROOM, IdentityKey.generate(),
                               local_port=port, see=True)
        quiet = await connect("127.0.0.1", relay_port, ROOM, IdentityKey.generate())
        try:
            assert asking.observed == f"127.0.0.1:{port}"
            assert quiet.observed is None
        finally:
            with trio.move_on_after(5):
                await asking.aclose()
                await quiet.aclose()
