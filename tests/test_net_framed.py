"""FramedStream over trio.testing.memory_stream_pair: frames, limits, end of stream, messages."""

from __future__ import annotations

import pytest
import trio
import trio.testing
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pcards.net.errors import BadFrame, PeerGone
from p2pcards.net.framed import FramedStream
from p2pcards.wire import codec


def pair(max_size: int = 1024) -> tuple[FramedStream, FramedStream, trio.abc.Stream]:
    left, right = trio.testing.memory_stream_pair()
    return FramedStream(left, max_size=max_size), FramedStream(right, max_size=max_size,
                                                               label="seat 1"), left


async def test_frames_round_trip_in_order() -> None:
    a, b, _ = pair()
    payloads = [b"", b"x", bytes(range(256)) * 4]
    for p in payloads:
        await a.send(p)
    assert [await b.receive() for _ in payloads] == payloads


@settings(max_examples=30, deadline=None)
@given(st.lists(st.binary(max_size=300), min_size=1, max_size=6), st.integers(1, 7))
def test_any_chunking_gives_the_same_frames(payloads: list[bytes], chunk: int) -> None:
    async def main() -> list[bytes | None]:
        left, right = trio.testing.memory_stream_pair()
        reader = FramedStream(right, max_size=300)
        wire = b"".join(len(p).to_bytes(4, "big") + p for p in payloads)
        for i in range(0, len(wire), chunk):
            await left.send_all(wire[i:i + chunk])
        await left.aclose()
        out = [await reader.receive() for _ in payloads]
        out.append(await reader.receive())
        return out

    assert trio.run(main) == [*payloads, None]


async def test_frame_at_the_limit_is_accepted_one_above_is_refused_from_its_prefix() -> None:
    a, b, raw = pair(max_size=16)
    await a.send(b"a" * 16)
    assert await b.receive() == b"a" * 16
    await raw.send_all((17).to_bytes(4, "big"))  # no payload sent at all
    with pytest.raises(BadFrame, match="seat 1 sent an oversized frame.*17.*maximum of 16"):
        await b.receive()
    with pytest.raises(PeerGone):
        await b.receive()


async def test_sender_refuses_to_send_an_oversized_frame() -> None:
    a, _, _ = pair(max_size=16)
    with pytest.raises(Exception, match="exceeds the maximum of 16"):
        await a.send(b"a" * 17)


async def test_clean_end_of_stream_and_end_inside_a_frame() -> None:
    a, b, raw = pair()
    await a.send(b"hello")
    await raw.aclose()
    assert await b.receive() == b"hello"
    assert await b.receive() is None

    _, d, raw2 = pair()
    await raw2.send_all(b"\x00\x00\x00\x09abc")
    await raw2.aclose()
    with pytest.raises(BadFrame, match="seat 1 closed the connection mid-frame"):
        await d.receive()


async def test_messages_round_trip_and_garbage_is_a_bad_frame() -> None:
    a, b, _ = pair()
    await a.send_message({"type": "hello", "n": 3, "data": b"\x00\x01"})
    assert await b.receive_message() == {"type": "hello", "n": 3, "data": b"\x00\x01"}
    for bad, reason in [(b"\xc1", "not a valid message"),
                        (codec.pack([1, 2]), "not a message map"),
                        (codec.pack({"kind": "x"}), "not a message map"),
                        (b"\x81\xa4type\x01", "not a message map")]:
        await a.send(bad)
        with pytest.raises(BadFrame, match=f"seat 1 sent a frame that is {reason}"):
            await b.receive_message()


async def test_sending_on_a_closed_connection_is_peer_gone() -> None:
    a, b, _ = pair()
    await b.aclose()
    with pytest.raises(PeerGone, match="broken"):
        for _ in range(3):
            await a.send(b"x" * 100)
