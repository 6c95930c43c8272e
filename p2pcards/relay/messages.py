"""The relay protocol's messages: canonical msgpack maps with a ``t`` (type) key. Sans-IO.

Client to relay: ``hello``, ``proof``, then raw payloads (each frame's bytes are forwarded as
they are; an empty frame is a keepalive and is not forwarded). Relay to client: ``challenge``,
``welcome``, then ``frame`` and ``ack`` messages, and ``error`` before the relay closes. The
normative description is ``protocol/RELAY.md``.

Decoders accept exactly the canonical encoding with exactly the listed keys and raise
:class:`RelayProtocolError` (reason ``bad-message``) for anything else.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgpack

from ..wire.codec import Limits, pack, unpack
from ..wire.errors import DecodeError
from .errors import RelayProtocolError, RelayRejected
from .limits import FRAME_OVERHEAD

__all__ = [
    "RELAY_VERSION",
    "ROOM_MIN",
    "ROOM_MAX",
    "NONCE_SIZE",
    "PROOF_DOMAIN",
    "Hello",
    "Welcome",
    "Delivery",
    "proof_message",
    "encode_hello",
    "decode_hello",
    "encode_challenge",
    "decode_challenge",
    "encode_proof",
    "decode_proof",
    "encode_welcome",
    "encode_delivery",
    "encode_ack",
    "encode_error",
    "decode_relay_message",
]

RELAY_VERSION = 1
ROOM_MIN = 16
ROOM_MAX = 64
NONCE_SIZE = 32
PROOF_DOMAIN = b"p2pcards relay proof v1\x00"
"""Domain tag of the signed proof: no other p2pcards signature starts with these bytes."""

_HANDSHAKE_MAX = 256
_HANDSHAKE_LIMITS = Limits(max_str_len=64, max_bin_len=ROOM_MAX, max_array_len=0, max_map_len=8,
                           max_depth=1)


@dataclass(frozen=True)
class Hello:
    """A client's ``hello``: protocol version, room (invite code), identity key, last index held."""

    version: int
    room: bytes
    identity: bytes
    since: int
    see: bool = False
    """The client asks to be told the address the relay sees it at (``seen`` in welcome)."""


@dataclass(frozen=True)
class Welcome:
    """The relay's ``welcome``: the client's slot in the room, the first index the relay still
    holds (``base``) and the index the next frame will get (``next``)."""

    slot: int
    base: int
    next: int
    seen: str | None = None
    """``HOST:PORT`` the relay sees the client's connection come from, when the hello asked
    (``see``); the client's address behind its NAT as the internet sees it."""


@dataclass(frozen=True)
class Delivery:
    """One room frame as delivered: its room index, the sender's slot and the payload verbatim.

    An ``ack`` (the relay confirming the index given to one of the client's own frames) is a
    delivery with ``payload`` None.
    """

    index: int
    slot: int
    payload: bytes | None


def proof_message(nonce: bytes, room: bytes) -> bytes:
    """The bytes a client signs to prove its key: domain tag, the 32-byte nonce, the room."""
    return PROOF_DOMAIN + nonce + room


def _decode_map(data: bytes, kind: str, keys: frozenset[str], *, max_size: int,
                limits: Limits) -> dict[str, Any]:
    try:
        obj = unpack(data, max_size=max_size, limits=limits)
    except DecodeError as exc:
        raise RelayProtocolError("bad-message", f"{kind} message is not canonical msgpack: {exc}"
                                 ) from None
    if not isinstance(obj, dict):
        raise RelayProtocolError("bad-message", f"{kind} message is not a map")
    if obj.get("t") != kind:
        raise RelayProtocolError("bad-message", f"expected a {kind} message, got type "
                                 f"{str(obj.get('t'))[:32]!r}")
    if set(obj) != keys:
        raise RelayProtocolError("bad-message", f"{kind} message must have exactly the keys "
                                 f"{sorted(keys)}")
    return obj


def _int(obj: dict[str, Any], key: str, kind: str, low: int) -> int:
    value = obj[key]
    if type(value) is not int or value < low:
        raise RelayProtocolError("bad-message", f"{kind} field {key!r} must be an integer >= {low}")
    return value


def _bin(obj: dict[str, Any], key: str, kind: str, low: int, high: int) -> bytes:
    value = obj[key]
    if type(value) is not bytes or not low <= len(value) <= high:
        raise RelayProtocolError("bad-message",
                                 f"{kind} field {key!r} must be {low}..{high} bytes")
    return value


_HELLO_KEYS = frozenset({"t", "v", "room", "id", "since"})
_SEEING_HELLO_KEYS = _HELLO_KEYS | {"see"}
SEEN_MAX = 47
"""Longest ``seen`` text: a bracketed IPv6 address (at most 39 characters) and a port."""


def encode_hello(room: bytes, identity: bytes, since: int, *, see: bool = False) -> bytes:
    message: dict[str, Any] = {"t": "hello", "v": RELAY_VERSION, "room": room, "id": identity,
                               "since": since}
    if see:
        message["see"] = True
    return pack(message)


def decode_hello(data: bytes) -> Hello:
    """Parse a ``hello``; room length, key length and ``since >= -1`` are checked here."""
    keys = _SEEING_HELLO_KEYS if _has_key(data, "see") else _HELLO_KEYS
    obj = _decode_map(data, "hello", keys, max_size=_HANDSHAKE_MAX, limits=_HANDSHAKE_LIMITS)
    if "see" in obj and obj["see"] is not True:
        raise RelayProtocolError("bad-message", "hello field 'see' must be true when present")
    version = _int(obj, "v", "hello", 0)
    if version != RELAY_VERSION:
        raise RelayProtocolError("bad-version", f"relay protocol version {version} is not "
                                 f"supported (this relay speaks {RELAY_VERSION})")
    room = obj["room"]
    if type(room) is not bytes or not ROOM_MIN <= len(room) <= ROOM_MAX:
        raise RelayProtocolError("bad-room", f"room code must be {ROOM_MIN}..{ROOM_MAX} bytes")
    identity = obj["id"]
    if type(identity) is not bytes or len(identity) != 32:
        raise RelayProtocolError("bad-identity", "identity must be a 32-byte Ed25519 public key")
    since = _int(obj, "since", "hello", -1)
    return Hello(version, room, identity, since, see="see" in obj)


def _has_key(data: bytes, key: str) -> bool:
    """Whether a handshake message (still undecoded) is a map holding ``key``."""
    try:
        obj = unpack(data, max_size=_HANDSHAKE_MAX, limits=_HANDSHAKE_LIMITS)
    except DecodeError:
        return False
    return isinstance(obj, dict) and key in obj


def encode_challenge(nonce: bytes) -> bytes:
    return pack({"t": "challenge", "nonce": nonce})


def decode_challenge(data: bytes) -> bytes:
    """The nonce of a ``challenge`` (an ``error`` raises :class:`RelayRejected`)."""
    _raise_if_error(data)
    obj = _decode_map(data, "challenge", frozenset({"t", "nonce"}), max_size=_HANDSHAKE_MAX,
                      limits=_HANDSHAKE_LIMITS)
    return _bin(obj, "nonce", "challenge", NONCE_SIZE, NONCE_SIZE)


_PROOF_LIMITS = Limits(max_str_len=8, max_bin_len=64, max_array_len=0, max_map_len=2, max_depth=1)


def encode_proof(signature: bytes) -> bytes:
    return pack({"t": "proof", "sig": signature})


def decode_proof(data: bytes) -> bytes:
    """The 64-byte signature of a ``proof``."""
    obj = _decode_map(data, "proof", frozenset({"t", "sig"}), max_size=_HANDSHAKE_MAX,
                      limits=_PROOF_LIMITS)
    return _bin(obj, "sig", "proof", 64, 64)


def encode_welcome(welcome: Welcome) -> bytes:
    message: dict[str, Any] = {"t": "welcome", "slot": welcome.slot, "base": welcome.base,
                               "next": welcome.next}
    if welcome.seen is not None:
        message["seen"] = welcome.seen[:SEEN_MAX]
    return pack(message)


def encode_delivery(index: int, slot: int, payload: bytes) -> bytes:
    """The ``frame`` message wrapping ``payload`` (canonical: keys in sorted order, shortest
    forms, which is what msgpack's packer produces for these types)."""
    data: bytes = msgpack.packb({"d": payload, "i": index, "s": slot, "t": "frame"},
                                use_bin_type=True)
    return data


def encode_ack(index: int) -> bytes:
    data: bytes = msgpack.packb({"i": index, "t": "ack"}, use_bin_type=True)
    return data


def encode_error(reason: str, message: str) -> bytes:
    return pack({"t": "error", "reason": reason[:64], "message": message[:512]})


_RELAY_LIMITS_CACHE: dict[int, Limits] = {}


def _relay_limits(max_payload: int) -> Limits:
    limits = _RELAY_LIMITS_CACHE.get(max_payload)
    if limits is None:
        limits = Limits(max_str_len=512, max_bin_len=max_payload, max_array_len=0, max_map_len=8,
                        max_depth=1)
        _RELAY_LIMITS_CACHE[max_payload] = limits
    return limits


def _raise_if_error(data: bytes) -> None:
    """Raise :class:`RelayRejected` if ``data`` is a well-formed ``error`` message."""
    try:
        obj = unpack(data, max_size=1024, limits=_relay_limits(512))
    except DecodeError:
        return
    if isinstance(obj, dict) and obj.get("t") == "error" and set(obj) == {"t", "reason",
                                                                           "message"}:
        reason, message = obj["reason"], obj["message"]
        if isinstance(reason, str) and isinstance(message, str):
            raise RelayRejected(reason, f"the relay closed the connection: {message}")


def decode_relay_message(data: bytes, max_payload: int) -> Welcome | Delivery:
    """Parse what a relay sends after the challenge: ``welcome``, ``frame`` or ``ack``.

    An ``error`` raises :class:`RelayRejected`; anything else :class:`RelayProtocolError`.
    """
    try:
        obj = unpack(data, max_size=max_payload + FRAME_OVERHEAD,
                     limits=_relay_limits(max_payload))
    except DecodeError as exc:
        raise RelayProtocolError("bad-message", f"relay message is not canonical msgpack: {exc}"
                                 ) from None
    if not isinstance(obj, dict):
        raise RelayProtocolError("bad-message", "relay message is not a map")
    kind = obj.get("t")
    if kind == "frame" and set(obj) == {"t", "i", "s", "d"}:
        payload = _bin(obj, "d", "frame", 0, max_payload)
        return Delivery(_int(obj, "i", "frame", 0), _int(obj, "s", "frame", 0), payload)
    if kind == "ack" and set(obj) == {"t", "i"}:
        return Delivery(_int(obj, "i", "ack", 0), -1, None)
    if kind == "welcome" and set(obj) in ({"t", "slot", "base", "next"},
                                           {"t", "slot", "base", "next", "seen"}):
        seen = obj.get("seen")
        if seen is not None and (type(seen) is not str or not 0 < len(seen) <= SEEN_MAX):
            raise RelayProtocolError("bad-message", f"welcome field 'seen' must be text of 1.."
                                     f"{SEEN_MAX} characters")
        return Welcome(_int(obj, "slot", "welcome", 0), _int(obj, "base", "welcome", 0),
                       _int(obj, "next", "welcome", 0), seen)
    if kind == "error":
        _raise_if_error(data)
    raise RelayProtocolError("bad-message", f"unexpected relay message of type "
                             f"{str(kind)[:32]!r} or with the wrong keys")
