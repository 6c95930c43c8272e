"""Signed envelopes: the unit every peer sends, checks and records.

Encoding (all canonical msgpack, see :mod:`.codec`)::

    envelope = [payload: bin, signature: bin(64)]
    payload  = [version: int, table_id: bin(32), seq: int, prev: bin(32), seat: int,
                kind: str, body: map]

``signature`` is Ed25519 by the identity key of ``seat`` over the payload bytes exactly as they
appear in the envelope. The payload is an array, not a map, so that its fixed header fields come
before the body: a receiver reads ``version .. seat`` with tight limits, verifies the signature
with that seat's key, and only then parses the body. Nothing unsigned is ever acted upon.

``envelope_hash`` is SHA-256 of the canonical encoding of the envelope array, which for a received
envelope is byte for byte the frame payload it arrived in (the length prefix is not hashed). It is
what the next envelope's ``prev`` names.

Sans-IO: pure functions over bytes and keys.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeAlias

import msgpack

from . import codec
from .codec import INT_MAX, Limits
from .errors import BadSignature, DecodeError, MalformedEnvelope, UnknownSeat
from .framing import MAX_FRAME_SIZE
from .identity import SIGNATURE_SIZE, IdentityKey, PublicIdentity

__all__ = [
    "PROTOCOL_VERSION",
    "HASH_SIZE",
    "ZERO_HASH",
    "MAX_SEATS",
    "KIND_PATTERN",
    "Envelope",
    "Payload",
    "KeyResolver",
    "seal",
    "open_envelope",
    "envelope_hash",
]

PROTOCOL_VERSION = 1
HASH_SIZE = 32
ZERO_HASH = bytes(HASH_SIZE)
"""The ``prev`` of the envelope with ``seq`` 0."""
MAX_SEATS = 8
KIND_PATTERN = re.compile(r"[a-z][a-z0-9_.-]{0,31}")
"""Message kinds: 1 to 32 characters; a lower-case ASCII letter, then letters, digits, ``_.-``."""

PAYLOAD_FIELDS = ("version", "table_id", "seq", "prev", "seat", "kind", "body")
_HEADER_FIELDS = 5  # version, table_id, seq, prev, seat: read before the signature is checked

KeyResolver: TypeAlias = (
    Sequence[PublicIdentity] | Mapping[int, PublicIdentity] | Callable[[int], PublicIdentity | None]
)
"""Seat -> identity key: a sequence indexed by seat, a mapping, or a function returning ``None``
for an unknown seat."""


def _bad(field_name: str, requirement: str, value: object) -> MalformedEnvelope:
    shown = repr(value)
    if len(shown) > 40:
        shown = shown[:37] + "..."
    return MalformedEnvelope(f"payload field {field_name} must be {requirement}, not {shown}")


def _check_header(version: object, table_id: object, seq: object, prev: object,
                  seat: object) -> None:
    if type(version) is not int or version != PROTOCOL_VERSION:
        raise _bad("version", f"the integer {PROTOCOL_VERSION}", version)
    if type(table_id) is not bytes or len(table_id) != HASH_SIZE:
        raise _bad("table_id", f"{HASH_SIZE} bytes", table_id)
    if type(seq) is not int or not 0 <= seq <= INT_MAX:
        raise _bad("seq", "a non-negative 64-bit integer", seq)
    if type(prev) is not bytes or len(prev) != HASH_SIZE:
        raise _bad("prev", f"{HASH_SIZE} bytes", prev)
    if type(seat) is not int or not 0 <= seat < MAX_SEATS:
        raise _bad("seat", f"an integer from 0 to {MAX_SEATS - 1}", seat)


@dataclass(frozen=True)
class Payload:
    """The signed content of an envelope.

    Construction checks every field's type and range and raises :class:`MalformedEnvelope`
    naming the field; ``kind`` is checked only against :data:`KIND_PATTERN` (which kinds exist
    and what their bodies hold is the table layer's business). ``body`` must be a ``dict`` with
    text keys; it is not copied, so do not mutate it after construction.
    """

    table_id: bytes
    seq: int
    prev: bytes
    seat: int
    kind: str
    body: dict[str, Any] = field(default_factory=dict)
    version: int = PROTOCOL_VERSION

    def __post_init__(self) -> None:
        _check_header(self.version, self.table_id, self.seq, self.prev, self.seat)
        if type(self.kind) is not str or not KIND_PATTERN.fullmatch(self.kind):
            raise _bad("kind", "1-32 characters of [a-z0-9_.-] starting with a letter", self.kind)
        if type(self.body) is not dict:
            raise _bad("body", "a map", self.body)

    def encode(self) -> bytes:
        """Canonical encoding; :class:`EncodeError` if the body holds a non-wire value."""
        return codec.pack([self.version, self.table_id, self.seq, self.prev, self.seat,
                           self.kind, self.body])

    @classmethod
    def decode(cls, data: bytes, *, max_size: int = MAX_FRAME_SIZE,
               limits: Limits = codec.DEFAULT_LIMITS) -> Payload:
        """Parse payload bytes strictly (canonical msgpack within ``limits``, then the schema).

        Does not check any signature: use :func:`open_envelope` for received data.
        """
        try:
            obj = codec.unpack(data, max_size=max_size, limits=limits)
        except DecodeError as exc:
            raise MalformedEnvelope(f"payload is not valid canonical msgpack: {exc}") from None
        if type(obj) is not list or len(obj) != len(PAYLOAD_FIELDS):
            raise MalformedEnvelope(
                f"payload must be an array of {len(PAYLOAD_FIELDS)} fields "
                f"({', '.join(PAYLOAD_FIELDS)})"
            )
        version, table_id, seq, prev, seat, kind, body = obj
        return cls(table_id=table_id, seq=seq, prev=prev, seat=seat, kind=kind, body=body,
                   version=version)


@dataclass(frozen=True)
class Envelope:
    """Payload bytes and the 64-byte Ed25519 signature over exactly those bytes."""

    payload: bytes
    signature: bytes

    def encode(self) -> bytes:
        """The canonical encoding ``[payload, signature]``: the frame payload to send."""
        if type(self.payload) is bytes and type(self.signature) is bytes:
            # two plain byte strings have one encoding: no normalising walk needed
            encoded: bytes = msgpack.packb([self.payload, self.signature], use_bin_type=True)
            return encoded
        return codec.pack([self.payload, self.signature])

    @classmethod
    def decode(cls, data: bytes, *, max_size: int = MAX_FRAME_SIZE) -> Envelope:
        """Parse the outer array only: no signature check, payload left as bytes."""
        limits = Limits(max_str_len=0, max_bin_len=max_size, max_array_len=2, max_map_len=0,
                        max_depth=1)
        try:
            obj = codec.unpack(data, max_size=max_size, limits=limits)
        except DecodeError as exc:
            raise MalformedEnvelope(f"envelope is not valid canonical msgpack: {exc}") from None
        if type(obj) is not list or len(obj) != 2:
            raise MalformedEnvelope("envelope must be an array of payload and signature")
        payload, signature = obj
        if type(payload) is not bytes:
            raise MalformedEnvelope("envelope payload must be binary")
        if type(signature) is not bytes or len(signature) != SIGNATURE_SIZE:
            raise MalformedEnvelope(f"envelope signature must be {SIGNATURE_SIZE} binary bytes")
        return cls(payload, signature)


def envelope_hash(envelope: Envelope) -> bytes:
    """SHA-256 of ``envelope.encode()``, i.e. of the frame payload as received."""
    return hashlib.sha256(envelope.encode()).digest()


def seal(payload: Payload, key: IdentityKey) -> Envelope:
    """Encode ``payload`` and sign it with ``key`` (which should be the key of ``payload.seat``).

    Raises :class:`EncodeError` if the body holds a value that is not a wire value.
    """
    data = payload.encode()
    return Envelope(data, key.sign(data))


def _peek_header(data: bytes) -> tuple[int, int]:
    """Read and check the header fields of unverified payload bytes; return ``(seq, seat)``."""
    unpacker = msgpack.Unpacker(
        raw=False, strict_map_key=True, max_buffer_size=max(len(data), 1), max_str_len=0,
        max_bin_len=HASH_SIZE, max_array_len=0, max_map_len=0, max_ext_len=0,
    )
    unpacker.feed(data)
    try:
        if unpacker.read_array_header() != len(PAYLOAD_FIELDS):
            raise MalformedEnvelope(
                f"payload must be an array of {len(PAYLOAD_FIELDS)} fields "
                f"({', '.join(PAYLOAD_FIELDS)})"
            )
        header = [unpacker.unpack() for _ in range(_HEADER_FIELDS)]
    except (msgpack.UnpackException, ValueError, TypeError) as exc:
        if isinstance(exc, MalformedEnvelope):
            raise
        raise MalformedEnvelope(
            "payload header (version, table_id, seq, prev, seat) cannot be read"
        ) from None
    version, table_id, seq, prev, seat = header
    _check_header(version, table_id, seq, prev, seat)
    return seq, seat


def _resolve(keys: KeyResolver, seat: int) -> PublicIdentity | None:
    if isinstance(keys, Mapping):
        return keys.get(seat)
    if isinstance(keys, Sequence):
        return keys[seat] if seat < len(keys) else None
    return keys(seat)


def open_envelope(data: bytes, keys: KeyResolver, *, max_size: int = MAX_FRAME_SIZE,
                  limits: Limits = codec.DEFAULT_LIMITS) -> tuple[Envelope, Payload]:
    """Check a received frame payload and return the envelope and its decoded payload.

    Order: parse the outer array; read the payload header (version .. seat) with tight limits;
    verify the signature over the payload bytes as received with the key of that seat; only then
    parse the whole payload with ``limits`` and check every field. Raises
    :class:`MalformedEnvelope`, :class:`UnknownSeat` or :class:`BadSignature` (all
    :class:`~.errors.ProtocolError`); never anything else for any input bytes. Errors raised after
    the signature has verified carry the signer as ``seat`` and the ``seq`` as ``index``.

    Table id, sequence, previous hash and turn are not checked here: see :class:`~.chain.Chain`.
    """
    envelope = Envelope.decode(data, max_size=max_size)
    seq, seat = _peek_header(envelope.payload)
    key = _resolve(keys, seat)
    if key is None:
        raise UnknownSeat(f"envelope claims seat {seat}, which has no identity key at this table")
    if not key.verify(envelope.signature, envelope.payload):
        raise BadSignature(
            f"envelope claiming seat {seat}, seq {seq} has a signature that does not verify "
            f"with that seat's key {key.fingerprint}"
        )
    try:
        payload = Payload.decode(envelope.payload, max_size=max_size, limits=limits)
    except MalformedEnvelope as exc:
        exc.seat, exc.index = seat, seq
        raise
    return envelope, payload

