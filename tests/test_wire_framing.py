"""Length-prefixed framing: exact bytes, any chunking, oversized prefixes, truncation."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pcards.wire.errors import ProtocolError
from p2pcards.wire.framing import (
    MAX_FRAME_SIZE,
    FrameDecoder,
    FrameTooLarge,
    FrameTruncated,
    encode_frame,
)


def test_encode_frame_bytes() -> None:
    assert encode_frame(b"abc") == b"\x00\x00\x00\x03abc"
    assert encode_frame(b"") == b"\x00\x00\x00\x00"
    assert encode_frame(b"x" * 258)[:4] == b"\x00\x00\x01\x02"


def test_default_maximum_is_one_mebibyte() -> None:
    assert MAX_FRAME_SIZE == 1024 * 1024
    assert len(encode_frame(b"\x00" * MAX_FRAME_SIZE)) == MAX_FRAME_SIZE + 4
    with pytest.raises(FrameTooLarge):
        encode_frame(b"\x00" * (MAX_FRAME_SIZE + 1))


def test_encode_frame_limit_edge() -> None:
    assert encode_frame(b"12345", max_size=5)[4:] == b"12345"
    with pytest.raises(FrameTooLarge, match="6 bytes exceeds the maximum of 5"):
        encode_frame(b"123456", max_size=5)


def test_decoder_whole_and_byte_by_byte() -> None:
    payloads = [b"hello", b"", b"x" * 300, b"\x00\x00\x00\x05"]
    stream = b"".join(encode_frame(p) for p in payloads)
    assert FrameDecoder().feed(stream) == payloads
    decoder = FrameDecoder()
    got: list[bytes] = []
    for i in range(len(stream)):
        got += decoder.feed(stream[i : i + 1])
    assert got == payloads
    assert decoder.pending == 0
    assert decoder.offset == len(stream)
    decoder.eof()


def test_frame_of_exactly_max_size_passes() -> None:
    decoder = FrameDecoder(max_size=10)
    assert decoder.feed(encode_frame(b"0123456789", max_size=10)) == [b"0123456789"]


def test_oversized_prefix_rejected_before_any_payload() -> None:
    decoder = FrameDecoder(max_size=10)
    assert decoder.feed(b"\x00\x00") == []
    with pytest.raises(FrameTooLarge, match="prefix 11 at stream offset 0 exceeds the maximum"):
        decoder.feed(b"\x00\x0b")
    # poisoned: the stream cannot be resynchronised
    with pytest.raises(FrameTooLarge):
        decoder.feed(b"")


def test_oversized_prefix_offset_after_good_frames() -> None:
    decoder = FrameDecoder(max_size=10)
    good = encode_frame(b"abc", max_size=10)
    with pytest.raises(FrameTooLarge) as info:
        decoder.feed(good + b"\xff\xff\xff\xff" + b"junk")
    assert "stream offset 7" in str(info.value)


def test_huge_prefix_does_not_wait_for_data() -> None:
    decoder = FrameDecoder()
    with pytest.raises(FrameTooLarge):
        decoder.feed(b"\xff\xff\xff\xff")


def test_eof_mid_frame() -> None:
    decoder = FrameDecoder()
    decoder.feed(encode_frame(b"abcdef")[:6])
    assert decoder.pending == 6
    with pytest.raises(FrameTruncated, match="offset 6 inside a frame"):
        decoder.eof()
    prefix_only = FrameDecoder()
    prefix_only.feed(b"\x00\x00")
    with pytest.raises(FrameTruncated):
        prefix_only.eof()


def test_bad_max_size() -> None:
    with pytest.raises(ValueError):
        FrameDecoder(max_size=-1)


payload_lists = st.lists(st.binary(max_size=200), max_size=12)


def chunked(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({c % (len(data) + 1) for c in cuts} | {0, len(data)})
    return [data[a:b] for a, b in zip(points, points[1:], strict=False)]


@settings(max_examples=300, deadline=None)
@given(payload_lists, st.lists(st.integers(min_value=0, max_value=10_000), max_size=40))
def test_any_chunking_gives_the_same_frames(payloads: list[bytes], cuts: list[int]) -> None:
    max_size = 200
    stream = b"".join(encode_frame(p, max_size) for p in payloads)
    decoder = FrameDecoder(max_size)
    got: list[bytes] = []
    for chunk in chunked(stream, cuts):
        got += decoder.feed(chunk)
        assert decoder.pending <= max_size + 4
    assert got == payloads
    decoder.eof()


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300), st.lists(st.integers(0, 1000), max_size=10))
def test_arbitrary_stream_yields_frames_or_protocol_error(data: bytes, cuts: list[int]) -> None:
    decoder = FrameDecoder(max_size=64)
    try:
        for chunk in chunked(data, cuts):
            for frame in decoder.feed(chunk):
                assert len(frame) <= 64
            assert decoder.pending <= 64 + 4
        decoder.eof()
    except ProtocolError:
        pass
