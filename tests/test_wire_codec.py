"""Canonical msgpack codec: exact encodings from the msgpack spec, rejections, limit edges."""

from __future__ import annotations

import enum
from typing import Any

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pcards.wire.codec import INT_MAX, INT_MIN, Limits, pack, unpack
from p2pcards.wire.errors import DecodeError, EncodeError, ProtocolError

BIG = 1 << 20


def same(a: Any, b: Any) -> bool:
    """Equality that also compares types (so True is not 1) and map key order."""
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    return bool(a == b)


def sorted_maps(value: Any) -> Any:
    """The value with every map's keys in sorted order (what a decoder returns)."""
    if isinstance(value, list):
        return [sorted_maps(v) for v in value]
    if isinstance(value, dict):
        return {k: sorted_maps(value[k]) for k in sorted(value)}
    return value


# Hand-derived from the msgpack format specification.
ENCODINGS: list[tuple[Any, str]] = [
    (None, "c0"),
    (False, "c2"),
    (True, "c3"),
    (0, "00"),
    (127, "7f"),
    (128, "cc80"),
    (255, "ccff"),
    (256, "cd0100"),
    (65535, "cdffff"),
    (65536, "ce00010000"),
    (2**32 - 1, "ceffffffff"),
    (2**32, "cf0000000100000000"),
    (INT_MAX, "cf7fffffffffffffff"),
    (-1, "ff"),
    (-32, "e0"),
    (-33, "d0df"),
    (-128, "d080"),
    (-129, "d1ff7f"),
    (-32768, "d18000"),
    (-32769, "d2ffff7fff"),
    (-(2**31) - 1, "d3ffffffff7fffffff"),
    (INT_MIN, "d38000000000000000"),
    ("", "a0"),
    ("a", "a161"),
    ("é", "a2c3a9"),
    ("x" * 31, "bf" + "78" * 31),
    ("x" * 32, "d920" + "78" * 32),
    ("x" * 256, "da0100" + "78" * 256),
    (b"", "c400"),
    (b"\x00\xff", "c40200ff"),
    (b"z" * 256, "c50100" + "7a" * 256),
    ([], "90"),
    ([1, [2]], "920191 02".replace(" ", "")),
    ([0] * 16, "dc0010" + "00" * 16),
    ({}, "80"),
    ({"b": 1, "a": 2}, "82a16102a16201"),
    ({"aa": 1, "b": 2, "a": 3}, "83a16103a2616101a16202"),
]


@pytest.mark.parametrize(("value", "expected"), ENCODINGS)
def test_exact_encoding_and_round_trip(value: Any, expected: str) -> None:
    data = pack(value)
    assert data.hex() == expected
    back = unpack(data, max_size=BIG)
    assert pack(back) == data
    if not isinstance(value, dict):
        assert same(back, value)


def test_map_keys_sorted_by_utf8_bytes() -> None:
    # "Z" (0x5a) < "a" (0x61) < "é" (0xc3 0xa9) < "€" (0xe2 ...)
    value = {"€": 1, "a": 2, "é": 3, "Z": 4}
    assert list(unpack(pack(value), max_size=BIG)) == ["Z", "a", "é", "€"]


def test_int_and_str_subclasses_are_plain_on_the_wire() -> None:
    class Colour(enum.IntEnum):
        RED = 3

    class Kind(enum.StrEnum):
        PLAY = "play"

    data = pack({"c": Colour.RED, "k": Kind.PLAY})
    assert data == pack({"c": 3, "k": "play"})
    back = unpack(data, max_size=BIG)
    assert type(back["c"]) is int and type(back["k"]) is str


@pytest.mark.parametrize(
    ("value", "fragment"),
    [
        (1.5, "float at $"),
        ([1, 2.0], "float at $[1]"),
        ({"a": {"b": float("nan")}}, "float at $.a.b"),
        ((1, 2), "tuple at $"),
        (bytearray(b"x"), "bytearray"),
        ({1, 2}, "set"),
        (object(), "object"),
        (INT_MAX + 1, "integer at $ is outside"),
        (INT_MIN - 1, "integer at $ is outside"),
        ({1: "x"}, "map key 1 at $ is a int"),
        ({b"k": 1}, "map key b'k' at $ is a bytes"),
        ({"s": "\ud800"}, "text at $.s is not valid Unicode"),
    ],
)
def test_pack_rejects(value: Any, fragment: str) -> None:
    with pytest.raises(EncodeError) as info:
        pack(value)
    assert fragment in str(info.value)


def nested(depth: int) -> Any:
    value: Any = 0
    for _ in range(depth):
        value = [value]
    return value


def test_depth_limit_on_both_sides() -> None:
    assert unpack(pack(nested(32)), max_size=BIG) == nested(32)
    with pytest.raises(EncodeError, match="nested deeper than 32"):
        pack(nested(33))
    deep = bytes([0x91]) * 33 + b"\x00"
    with pytest.raises(DecodeError, match="nested deeper than 32"):
        unpack(deep, max_size=BIG)
    # far deeper than msgpack's own stack: still a DecodeError
    with pytest.raises(DecodeError):
        unpack(bytes([0x91]) * 5000 + b"\x00", max_size=BIG)
    assert unpack(pack(nested(3)), max_size=BIG, limits=Limits(max_depth=3)) == nested(3)
    with pytest.raises(DecodeError):
        unpack(pack(nested(4)), max_size=BIG, limits=Limits(max_depth=3))


@pytest.mark.parametrize(
    ("hex_input", "fragment"),
    [
        ("d005", "canonical"),  # 5 as int8
        ("cc05", "canonical"),  # 5 as uint8
        ("cd0005", "canonical"),  # 5 as uint16
        ("d100ff", "canonical"),  # 255 as int16
        ("d1ffff", "canonical"),  # -1 as int16
        ("d3ffffffffffffffff", "canonical"),  # -1 as int64
        ("d90161", "canonical"),  # "a" as str8
        ("c5000178", "canonical"),  # one byte as bin16
        ("dc000100", "canonical"),  # [0] as array16
        ("de0001a16100", "canonical"),  # {"a": 0} as map16
        ("82a16201a16102", "sorted"),  # {"b":1, "a":2}
        ("82a16101a16102", "appears twice"),  # {"a":1, "a":2}
        ("8101 02".replace(" ", ""), "not text"),  # int key
        ("81c4016101", "not text"),  # bin key
        ("ca3f800000", "float"),  # float32 1.0
        ("cb3ff0000000000000", "float"),  # float64 1.0
        ("d40100", "extension"),  # fixext1
        ("c70005", "extension"),  # ext8 of length 0
        ("d6ff00000001", "extension"),  # timestamp 32
        ("cf8000000000000000", "outside the signed 64-bit range"),  # 2**63 as uint64
        ("cfffffffffffffffff", "outside the signed 64-bit range"),  # 2**64 - 1
        ("92 00 cf8000000000000000".replace(" ", ""), "at $[1] is outside"),
        ("c1", "reserved"),
        ("a1ff", "UTF-8"),
        ("0102", "trailing bytes"),
        ("9201", "ends after 2 bytes"),
        ("", "empty"),
        ("c4", "ends after 1 bytes"),
    ],
)
def test_unpack_rejects(hex_input: str, fragment: str) -> None:
    with pytest.raises(DecodeError) as info:
        unpack(bytes.fromhex(hex_input), max_size=BIG)
    assert fragment in str(info.value)


def test_non_minimal_inner_value_reports_offset() -> None:
    # [1, 5-as-uint8]: canonical is 92 01 05, received 92 01 cc 05
    with pytest.raises(DecodeError, match="at byte 2"):
        unpack(bytes.fromhex("9201cc05"), max_size=BIG)


def test_max_size_edge() -> None:
    data = pack("x" * 10)  # 11 bytes
    assert unpack(data, max_size=11) == "x" * 10
    with pytest.raises(DecodeError, match="11 bytes exceeds the maximum of 10"):
        unpack(data, max_size=10)


@pytest.mark.parametrize(
    ("limits", "ok", "too_big"),
    [
        (Limits(max_str_len=5), "x" * 5, "x" * 6),
        (Limits(max_str_len=4), "éé", "ééx"),  # limits count UTF-8 bytes
        (Limits(max_bin_len=5), b"x" * 5, b"x" * 6),
        (Limits(max_array_len=5), [0] * 5, [0] * 6),
        (Limits(max_map_len=5), {str(i): i for i in range(5)}, {str(i): i for i in range(6)}),
        (Limits(max_array_len=0), [], [0]),
        (Limits(max_map_len=0), {}, {"a": 0}),
    ],
)
def test_limit_edges(limits: Limits, ok: Any, too_big: Any) -> None:
    assert same(unpack(pack(ok), max_size=BIG, limits=limits), ok)
    with pytest.raises(DecodeError, match="exceeds the limit"):
        unpack(pack(too_big), max_size=BIG, limits=limits)


def test_huge_declared_length_is_rejected_without_allocation() -> None:
    # array32 header claiming 2**32 - 1 elements, followed by nothing
    with pytest.raises(DecodeError):
        unpack(bytes.fromhex("ddffffffff"), max_size=BIG)
    with pytest.raises(DecodeError):
        unpack(bytes.fromhex("c6ffffffff"), max_size=BIG)


wire_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=INT_MIN, max_value=INT_MAX)
    | st.text(max_size=40)
    | st.binary(max_size=40),
    lambda children: st.lists(children, max_size=6)
    | st.dictionaries(st.text(max_size=8), children, max_size=6),
    max_leaves=30,
)


@settings(max_examples=300, deadline=None)
@given(wire_values)
def test_round_trip_property(value: Any) -> None:
    data = pack(value)
    back = unpack(data, max_size=BIG)
    assert same(back, sorted_maps(value))
    assert pack(back) == data


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.text(max_size=6), st.integers(0, 9), min_size=2, max_size=8),
       st.randoms(use_true_random=False))
def test_encoding_does_not_depend_on_insertion_order(value: dict[str, int], rnd: Any) -> None:
    items = list(value.items())
    rnd.shuffle(items)
    assert pack(dict(items)) == pack(value)


@settings(max_examples=1000, deadline=None)
@given(st.binary(max_size=64))
def test_arbitrary_bytes_decode_canonically_or_raise_decode_error(data: bytes) -> None:
    try:
        value = unpack(data, max_size=BIG)
    except DecodeError:
        return
    assert pack(value) == data


def test_errors_are_protocol_errors() -> None:
    assert issubclass(DecodeError, ProtocolError)
    assert issubclass(EncodeError, ProtocolError)


def _canonical_by_reference(data: bytes) -> bool:
    """Whether ``data`` is one msgpack value that :func:`pack` gives back byte for byte (the
    definition of canonical, without :func:`unpack`'s own checks)."""
    try:
        value = msgpack.unpackb(data, raw=False, strict_map_key=False)
        return pack(value) == data
    except Exception:  # noqa: BLE001 - anything msgpack or pack refuses is not canonical
        return False


@settings(max_examples=500, deadline=None)
@given(wire_values, st.integers(min_value=0), st.integers(min_value=0, max_value=255))
def test_unpack_accepts_exactly_the_canonical_encodings(value: Any, at: int, byte: int) -> None:
    data = bytearray(pack(value))
    data[at % len(data)] = byte
    try:
        unpack(bytes(data), max_size=BIG)
        accepted = True
    except DecodeError:
        accepted = False
    assert accepted == _canonical_by_reference(bytes(data))
