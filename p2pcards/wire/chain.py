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

Errors carry ``seat`` (the signer of the offending envelope) and ``index``: the chain position at
which the envelope was offered (``next_seq``), or for :class:`Replay` and :class:`Equivocation`
the position it duplicates.
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

    def check(self, payload: Payload, envelope: Envelope, expected_seat: int | None = None) -> None:
        """Raise the matching :class:`ChainError` unless the envelope links to the head.

        Checked in this order: table id (:class:`WrongTable`); a ``seq`` already taken
        (:class:`Replay` if the bytes are identical, :class:`Equivocation` if the same seat
        signed different bytes, else :class:`WrongSequence`); a ``seq`` other than
        :attr:`next_seq` (:class:`WrongSequence`); ``prev`` (:class:`WrongPrevious`); and, when
        ``expected_seat`` is given, the signer (:class:`OutOfTurn`).
        """
        self._check(payload, envelope, expected_seat)

    def accept(self, payload: Payload, envelope: Envelope,
               expected_seat: int | None = None) -> bytes:
        """Check, then append the envelope; return its hash, the new :attr:`head`."""
        digest = self._check(payload, envelope, expected_seat)
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
