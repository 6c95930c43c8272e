"""The wire layer: bytes in, checked envelopes out, and back. Sans-IO throughout.

Receiving, in order (each step raises a :class:`ProtocolError` subclass and nothing else)::

    frames = FrameDecoder(MAX_FRAME_SIZE).feed(data)          # framing: 4-byte length + payload
    envelope, payload = open_envelope(frame, seat_keys)       # signature first, then strict parse
    chain.accept(payload, envelope, expected_seat=seat)       # table id, seq, prev, turn

Sending::

    payload = Payload(table_id, chain.next_seq, chain.head, my_seat, kind, body)
    envelope = seal(payload, my_key)
    chain.accept(payload, envelope)
    data = encode_frame(envelope.encode())                    # write to the stream; the same
                                                              # bytes minus the prefix go to the
                                                              # transcript

Every error is a :class:`ProtocolError` with ``.seat`` (the seat held responsible, when the bytes
carry its signature) and ``.index`` (chain position), so the layers above can catch one class.

Modules:

- :mod:`.codec`: canonical msgpack, ``pack(obj) -> bytes``, ``unpack(data, *, max_size,
  limits) -> obj`` (:class:`EncodeError`, :class:`DecodeError`).
- :mod:`.framing`: ``encode_frame``, :class:`FrameDecoder` (:class:`FrameTooLarge`,
  :class:`FrameTruncated`), :data:`MAX_FRAME_SIZE` = 1 MiB.
- :mod:`.identity`: Ed25519 :class:`IdentityKey` (private) and :class:`PublicIdentity`
  (:class:`BadKey`).
- :mod:`.envelope`: :class:`Payload`, :class:`Envelope`, ``seal``, ``open_envelope``,
  ``envelope_hash`` (:class:`MalformedEnvelope`, :class:`UnknownSeat`, :class:`BadSignature`).
- :mod:`.chain`: :class:`Chain` (:class:`ChainError` and its subclasses :class:`WrongTable`,
  :class:`WrongSequence`, :class:`WrongPrevious` and its :class:`Fork`, :class:`Replay`,
  :class:`OutOfTurn`, :class:`Equivocation`).

The normative description is ``protocol/SPEC.md``; the transcript file format is in
:mod:`p2pcards.records.transcript`.
"""

from .chain import (
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
from .codec import DEFAULT_LIMITS, Limits, pack, unpack
from .envelope import (
    HASH_SIZE,
    MAX_SEATS,
    PROTOCOL_VERSION,
    ZERO_HASH,
    Envelope,
    KeyResolver,
    Payload,
    envelope_hash,
    open_envelope,
    seal,
)
from .errors import (
    BadKey,
    BadSignature,
    DecodeError,
    EncodeError,
    FrameTooLarge,
    FrameTruncated,
    MalformedEnvelope,
    ProtocolError,
    UnknownSeat,
)
from .framing import MAX_FRAME_SIZE, FrameDecoder, encode_frame
from .identity import IdentityKey, PublicIdentity

__all__ = [
    "BadKey",
    "BadSignature",
    "Chain",
    "ChainError",
    "DEFAULT_LIMITS",
    "DecodeError",
    "EncodeError",
    "Envelope",
    "Equivocation",
    "FrameDecoder",
    "FrameTooLarge",
    "FrameTruncated",
    "HASH_SIZE",
    "IdentityKey",
    "KeyResolver",
    "Limits",
    "MAX_FRAME_SIZE",
    "MAX_SEATS",
    "MalformedEnvelope",
    "OutOfTurn",
    "PROTOCOL_VERSION",
    "Payload",
    "ProtocolError",
    "PublicIdentity",
    "Replay",
    "UnknownSeat",
    "WrongPrevious",
    "WrongSequence",
    "WrongTable",
    "Fork",
    "ZERO_HASH",
    "encode_frame",
    "envelope_hash",
    "open_envelope",
    "pack",
    "seal",
    "unpack",
]
