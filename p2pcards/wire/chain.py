"""The hash chain of one table, sans-IO.

Every envelope of a table has a place in one linear chain: ``seq`` counts from 0 and ``prev`` is
the :func:`~.envelope.envelope_hash` of the envelope at ``seq - 1`` (:data:`~.envelope.ZERO_HASH`
for ``seq`` 0). :class:`Chain` holds the accepted prefix and checks each new envelope against it.
It does not know the rules: whose turn it is comes from the table state machine, which passes
``expected_seat``.

Because Ed25519 signatures from ``cryptography`` cannot be altered into another valid signature
and encodings are canonical, two different envelope byte strings that both carry a valid
signature by seat *s* for the same ``seq`` can only have been produced by *s*'s key: that is an
equivocation, and :class:`Equivocation` carries both envelopes as the evidence.

A broken link between envelopes of two different seats is a :class:`Fork`, not a plain
:class:`WrongPrevious`: the envelope at the head was signed by one seat and the new envelope, signed
by another, names a different previous envelope. One of the two signers may have signed two
envelopes for the head position (an equivocation shown to different peers by the hub), or the new
envelope's signer may have signed a false link; the receiver alone cannot tell which, so it must
not blame the signer (see ``protocol/SPEC.md`` §6). The two conflicting envelopes, once in one
place, are an :class:`Equivocation`.

Errors carry ``seat`` (the signer of the offending envelope) and ``index``: the chain position at
which the envelope was offered (``next_seq``), or for :class:`Replay` and :class:`Equivocation`
the position it duplicates. Whom to blame is the caller's decision (``p2pcards.table``).
"""

from __future__ import annotations

from .envelope import HASH_SIZE, ZERO_HASH, Envelope, Payload, envelope_hash
from .errors import ProtocolError

__all__ = [
    "Chain",
    "ChainError",
    "WrongTable",
    "WrongSequence",
    "WrongPrevious",
    "Fork",
    "Replay",
    "OutOfTurn",
    "Equivocation",
]


class ChainError(ProtocolError):
    """An envelope that does not fit at the head of the chain."""


class WrongTable(ChainError):
    """The payload's table id is not this table's."""


class WrongSequence(ChainError):
    """The payload's ``seq`` is not the next position (and is not a replay or equivocation)."""


class WrongPrevious(ChainError):
    """The payload's ``prev`` is not the hash of the chain head."""


class Fork(WrongPrevious):
    """A :class:`WrongPrevious` whose envelope and the chain head were signed by different seats.

    ``head`` is the envelope at the head of this chain (signed by ``head_seat``), ``link`` the
    new envelope (signed by ``seat``), whose ``prev`` names another envelope for that position:
    the hash :attr:`wanted`. Producing the envelope with that hash proves an equivocation (or,
    further back, the point where the two chains part).
    """

    def __init__(self, message: str, *, seat: int, index: int, head: Envelope, head_seat: int,
                 link: Envelope, wanted: bytes) -> None:
        super().__init__(message, seat=seat, index=index)
        self.head = head
        self.head_seat = head_seat
        self.link = link
        self.wanted = wanted


class Replay(ChainError):
    """An envelope identical to one already accepted. Harmless in itself (a relay may resend after
    a reconnect); callers usually drop it."""


class OutOfTurn(ChainError):
    """A well-linked envelope from a seat other than the one that must speak now."""


class Equivocation(ChainError):
    """Two different envelopes validly signed by one seat for the same ``seq``.

    ``first`` is the envelope already in the chain, ``second`` the conflicting one; together with
    the seat's public key they prove the misbehaviour to anyone.
    """

    def __init__(self, message: str, *, seat: int, index: int, first: Envelope,
                 second: Envelope) -> None:
        super().__init__(message, seat=seat, index=index)
        self.first = first
        self.second = second


class Chain:
    """The accepted chain of one table and the checks for its next link.

    ``check`` validates without changing anything; ``accept`` validates and appends. Give both the
    ``(envelope, payload)`` pair returned by one :func:`~.envelope.open_envelope` call: the chain
    trusts that the payload is the decoding of ``envelope.payload`` and that the signature is valid.
    """

    def __init__(self, table_id: bytes) -> None:
        if type(table_id) is not bytes or len(table_id) != HASH_SIZE:
            raise ValueError(f"table id must be {HASH_SIZE} bytes")
        self.table_id = table_id
        self._hashes: list[bytes] = []
        self._envelopes: list[Envelope] = []
        self._seats: list[int] = []
        self._positions: dict[bytes, int] = {}

    @property
    def next_seq(self) -> int:
        """The ``seq`` the next envelope must carry (the number of accepted envelopes)."""
        return len(self._hashes)

    @property
    def head(self) -> bytes:
        """The ``prev`` the next envelope must carry: hash of the last accepted envelope."""
        return self._hashes[-1] if self._hashes else ZERO_HASH

    def __len__(self) -> int:
        return len(self._hashes)

    def envelope(self, seq: int) -> Envelope:
        """The accepted envelope at position ``seq`` (``IndexError`` if there is none)."""
        if not 0 <= seq < len(self._envelopes):
            raise IndexError(f"no accepted envelope at seq {seq}")
        return self._envelopes[seq]

    def seat_of(self, seq: int) -> int:
        """The seat that signed the accepted envelope at ``seq``."""
        if not 0 <= seq < len(self._seats):
            raise IndexError(f"no accepted envelope at seq {seq}")
        return self._seats[seq]

    def position_of(self, digest: bytes) -> int | None:
        """The ``seq`` of the accepted envelope whose hash is ``digest`` (``None`` if none)."""
        return self._positions.get(digest)

    def check(self, payload: Payload, envelope: Envelope, expected_seat: int | None = None) -> None:
        """Raise the matching :class:`ChainError` unless the envelope links to the head.

        Checked in this order: table id (:class:`WrongTable`); a ``seq`` already taken
        (:class:`Replay` if the bytes are identical, :class:`Equivocation` if the same seat
        signed different bytes, else :class:`WrongSequence`); a ``seq`` other than
        :attr:`next_seq` (:class:`WrongSequence`); ``prev`` (:class:`WrongPrevious`, or
        :class:`Fork` when the head was signed by another seat); and, when ``expected_seat`` is
        given, the signer (:class:`OutOfTurn`).
        """
        self._check(payload, envelope, expected_seat)

    def accept(self, payload: Payload, envelope: Envelope,
               expected_seat: int | None = None) -> bytes:
        """Check, then append the envelope; return its hash, the new :attr:`head`."""
        digest = self._check(payload, envelope, expected_seat)
        self._positions[digest] = len(self._hashes)
        self._hashes.append(digest)
        self._envelopes.append(envelope)
        self._seats.append(payload.seat)
        return digest

    def _check(self, payload: Payload, envelope: Envelope, expected_seat: int | None) -> bytes:
        seat, seq, position = payload.seat, payload.seq, self.next_seq
        who = f"envelope from seat {seat} with seq {seq}"
        if payload.table_id != self.table_id:
            raise WrongTable(
                f"{who} is for table {payload.table_id[:8].hex()}..., "
                f"not this table {self.table_id[:8].hex()}...",
                seat=seat, index=position,
            )
        digest = envelope_hash(envelope)
        if seq < position:
            if self._hashes[seq] == digest:
                raise Replay(f"{who} repeats the envelope already accepted at that position",
                             seat=seat, index=seq)
            if self._seats[seq] == seat:
                raise Equivocation(
                    f"seat {seat} signed two different envelopes for seq {seq}",
                    seat=seat, index=seq, first=self._envelopes[seq], second=envelope,
                )
            raise WrongSequence(
                f"{who} reuses a position already taken by seat {self._seats[seq]}; "
                f"the chain expects seq {position}",
                seat=seat, index=position,
            )
        if seq != position:
            raise WrongSequence(f"{who} skips ahead; the chain expects seq {position}",
                                seat=seat, index=position)
        if payload.prev != self.head and position > 0 and self._seats[-1] != seat:
            raise Fork(
                f"{who} links to another envelope at seq {position - 1} (hash "
                f"{payload.prev[:8].hex()}...) than the one this chain holds there, signed by "
                f"seat {self._seats[-1]} (hash {self.head[:8].hex()}...): the chain has forked",
                seat=seat, index=position, head=self._envelopes[-1], head_seat=self._seats[-1],
                link=envelope, wanted=payload.prev,
            )
        if payload.prev != self.head:
            raise WrongPrevious(
                f"{who} names previous hash {payload.prev[:8].hex()}..., but the chain head "
                f"is {self.head[:8].hex()}...",
                seat=seat, index=position,
            )
        if expected_seat is not None and seat != expected_seat:
            raise OutOfTurn(f"{who} is out of turn; seat {expected_seat} must speak now",
                            seat=seat, index=position)
        return digest
