"""Canonical msgpack: one value, one encoding.

The protocol uses a subset of msgpack in which every value has exactly one byte encoding, so that
hashes and signatures over encodings are well defined and a decoder can insist on receiving the
canonical form.

Values (the "wire values"): ``None``, ``bool``, ``int`` in ``[-2**63, 2**63 - 1]``, ``str``
(valid Unicode, sent as UTF-8 msgpack str), ``bytes`` (msgpack bin), ``list`` and ``dict`` with
``str`` keys. No floats, no extension types, no tuples (send a list).

Canonical form (what :func:`pack` produces and :func:`unpack` demands):

- every integer, string, binary, array and map header uses the shortest msgpack form that can
  hold it; a non-negative integer is always an unsigned or positive-fixint form, a negative one a
  signed or negative-fixint form;
- map keys are sorted by their UTF-8 bytes, bytewise (the same order as Python's ``str`` order),
  with no duplicates;
- nesting is at most :attr:`Limits.max_depth` containers deep.

Sans-IO: pure functions over bytes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import msgpack

from .errors import DecodeError, EncodeError

__all__ = ["pack", "unpack", "Limits", "DEFAULT_LIMITS", "INT_MIN", "INT_MAX", "DecodeError",
           "EncodeError"]

INT_MIN = -(2**63)
INT_MAX = 2**63 - 1


@dataclass(frozen=True)
class Limits:
    """Upper bounds applied while decoding (each is also capped by the input size).

    ``max_str_len`` counts UTF-8 bytes, ``max_bin_len`` bytes, ``max_array_len`` elements and
    ``max_map_len`` key/value pairs; a value exactly at a limit is accepted. ``max_depth`` counts
    nested containers: a flat list has depth 1, a scalar depth 0.
    """

    max_str_len: int = 64 * 1024
    max_bin_len: int = 1024 * 1024
    max_array_len: int = 64 * 1024
    max_map_len: int = 1024
    max_depth: int = 32


DEFAULT_LIMITS = Limits()


def _normalize(obj: object, depth: int, max_depth: int, path: str) -> Any:
    """Check ``obj`` is a wire value and return a copy with plain types and sorted maps."""
    if obj is None or obj is True or obj is False:
        return obj
    if isinstance(obj, int):
        if not INT_MIN <= obj <= INT_MAX:
            raise EncodeError(f"integer at {path} is outside the signed 64-bit range")
        return int.__int__(obj)
    if isinstance(obj, str):
        try:
            obj.encode("utf-8")
        except UnicodeEncodeError:
            raise EncodeError(f"text at {path} is not valid Unicode (lone surrogate)") from None
        return str.__str__(obj)
    if type(obj) is bytes:
        return obj
    if isinstance(obj, list | dict):
        if depth >= max_depth:
            raise EncodeError(f"value at {path} is nested deeper than {max_depth} containers")
        if isinstance(obj, list):
            return [_normalize(v, depth + 1, max_depth, f"{path}[{i}]") for i, v in enumerate(obj)]
        for key in obj:
            if not isinstance(key, str):
                raise EncodeError(
                    f"map key {key!r} at {path} is a {type(key).__name__}, not text"
                )
        return {
            str.__str__(k): _normalize(obj[k], depth + 1, max_depth, f"{path}.{k}")
            for k in sorted(obj)
        }
    if isinstance(obj, float):
        raise EncodeError(f"float at {path} is not allowed (use an integer)")
    if isinstance(obj, tuple):
        raise EncodeError(f"tuple at {path} is not allowed (use a list)")
    raise EncodeError(f"value at {path} has type {type(obj).__name__}, which is not a wire type")


def pack(obj: object, *, max_depth: int = DEFAULT_LIMITS.max_depth) -> bytes:
    """Encode a wire value canonically; raise :class:`EncodeError` naming the offending path."""
    normal = _normalize(obj, 0, max_depth, "$")
    try:
        result: bytes = msgpack.packb(normal, use_bin_type=True)
    except (ValueError, OverflowError) as exc:  # pragma: no cover - ruled out by _normalize
        raise EncodeError(f"value cannot be encoded: {exc}") from None
    return result


def _pairs_to_dict(pairs: list[tuple[Any, Any]]) -> dict[str, Any]:
    """object_pairs_hook: keep map keys as received and reject unsorted or repeated keys."""
    result: dict[str, Any] = {}
    previous: str | None = None
    for key, value in pairs:
        if type(key) is not str:
            raise DecodeError(f"map key {key!r} is not text")
        if previous is not None:
            if key == previous:
                raise DecodeError(f"map key {key!r} appears twice")
            if key < previous:
                raise DecodeError(f"map key {key!r} comes after {previous!r}; keys must be sorted")
        result[key] = value
        previous = key
    return result


def _check_values(obj: object, depth: int, max_depth: int, path: str) -> None:
    """Reject decoded values that are not wire values (floats, ext types) or nest too deep."""
    if type(obj) is int:
        if not INT_MIN <= obj <= INT_MAX:
            raise DecodeError(f"integer at {path} is outside the signed 64-bit range")
        return
    if obj is None or type(obj) in (bool, str, bytes):
        return
    if type(obj) is list or type(obj) is dict:
        if depth >= max_depth:
            where = path if len(path) <= 40 else path[:37] + "..."
            raise DecodeError(f"value at {where} is nested deeper than {max_depth} containers")
        if type(obj) is list:
            for i, item in enumerate(obj):
                _check_values(item, depth + 1, max_depth, f"{path}[{i}]")
        else:
            assert isinstance(obj, dict)
            for key, item in obj.items():
                _check_values(item, depth + 1, max_depth, f"{path}.{key}")
        return
    if type(obj) is float:
        raise DecodeError(f"float at {path} is not allowed")
    if isinstance(obj, msgpack.ExtType | msgpack.Timestamp):
        raise DecodeError(f"extension type at {path} is not allowed")
    raise DecodeError(f"value at {path} has type {type(obj).__name__}, which is not a wire type")


_LIMIT_MESSAGE = re.compile(r"(\d+) exceeds max_(str|bin|array|map|ext)_len\((\d+)\)")
_LIMIT_WHAT = {
    "str": "a string of {} bytes",
    "bin": "a binary of {} bytes",
    "array": "an array of {} elements",
    "map": "a map of {} entries",
    "ext": "an extension value of {} bytes",
}


def _describe(exc: Exception) -> str:
    """One clause saying what msgpack objected to."""
    text = str(exc)
    match = _LIMIT_MESSAGE.fullmatch(text)
    if match:
        size, kind, limit = match.groups()
        return f"{_LIMIT_WHAT[kind].format(size)} exceeds the limit of {limit}"
    if "is not allowed for map key" in text:
        return f"a map key of type {text.split()[0]} is not text"
    if isinstance(exc, msgpack.StackError):
        return "it nests containers too deeply"
    if isinstance(exc, msgpack.FormatError):
        return "it contains a reserved or invalid type byte"
    if isinstance(exc, UnicodeDecodeError):
        return f"a string is not valid UTF-8 ({exc.reason})"
    return text if text else type(exc).__name__


def unpack(data: bytes, *, max_size: int, limits: Limits = DEFAULT_LIMITS) -> Any:
    """Decode exactly one canonical wire value from ``data``.

    Raises :class:`DecodeError` if ``data`` is longer than ``max_size``, empty, truncated, followed
    by trailing bytes, over any of ``limits``, contains a float, an extension type, a non-text or
    duplicate or unsorted map key, invalid UTF-8, or any non-minimal encoding.
    """
    size = len(data)
    if size > max_size:
        raise DecodeError(f"input of {size} bytes exceeds the maximum of {max_size}")
    if size == 0:
        raise DecodeError("input is empty")
    unpacker = msgpack.Unpacker(
        raw=False,
        strict_map_key=True,
        use_list=True,
        max_buffer_size=size,
        max_str_len=min(limits.max_str_len, size),
        max_bin_len=min(limits.max_bin_len, size),
        max_array_len=min(limits.max_array_len, size),
        max_map_len=min(limits.max_map_len, size),
        max_ext_len=0,
        object_pairs_hook=_pairs_to_dict,
    )
    unpacker.feed(data)
    try:
        obj = unpacker.unpack()
    except msgpack.OutOfData:
        raise DecodeError(f"input ends after {size} bytes in the middle of a value") from None
    except DecodeError:
        raise
    except (msgpack.UnpackException, ValueError, TypeError) as exc:
        raise DecodeError(f"input is not acceptable msgpack: {_describe(exc)}") from None
    used = unpacker.tell()
    if used != size:
        raise DecodeError(f"input has trailing bytes after the value, from byte {used} of {size}")
    _check_values(obj, 0, limits.max_depth, "$")
    try:  # decoded, checked values are plain and their maps sorted: no _normalize copy needed
        canonical = msgpack.packb(obj, use_bin_type=True)
    except (ValueError, OverflowError) as exc:  # pragma: no cover - _check_values rules it out
        raise DecodeError(f"input holds a value with no canonical encoding: {exc}") from None
    if canonical != data:
        at = next(
            (i for i, (a, b) in enumerate(zip(canonical, data, strict=False)) if a != b),
            min(len(canonical), size),
        )
        raise DecodeError(f"input is not in canonical form (non-minimal encoding at byte {at})")
    return obj
