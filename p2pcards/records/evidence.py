"""Evidence records: the signed envelopes that prove a violation a peer refused, kept for others.

An honest peer records only the envelopes its chain accepts, so the envelope it refused would be
lost with the accusation. When a peer refuses an envelope that carries a valid signature, it
appends an **evidence record** to its transcript, after the chain (``protocol/SPEC.md`` §7,
§9.8): a canonical msgpack map, told apart from an envelope frame (an array) by its outer type::

    {"record": "evidence", "rule": text, "seat": int or nil, "position": int,
     "envelopes": [bytes, ...], "message": text}

``rule`` and ``seat`` are what the recorder found (SPEC §9.8), ``position`` the number of chain
envelopes it had accepted when it found it, ``envelopes`` the signed envelope bytes that prove it,
and ``message`` its sentence (for people; it proves nothing). (A holder's wrong share of a
dealt hand key is proven in the chain by its ``complain`` message, SPEC §9.13.4, not by a record:
records no longer carry an inbox secret.) The envelopes are:

- ``equivocation``: the two envelopes one seat signed for one ``seq`` (which the chain cannot hold
  both of).
- ``fork``: the envelope at the head of the recorder's chain and the envelope of another seat that
  links to something else.
- ``out-of-turn`` found by a :class:`ForkProbe`: the envelope of the other branch, signed on the
  common prefix at ``position`` by a seat whose turn it was not.
- any other rule: the refused envelope, offered at chain position ``position``.

**What a record proves.** Records are not signed: anyone holding a transcript can append one, so
a record proves a fault only when the signed envelopes it holds prove it by themselves (SPEC §7,
§9.9). That is the case for exactly two kinds of record:

- an ``equivocation``: two different envelopes of this table, validly signed by one seat for one
  ``seq`` (:func:`check_pair`);
- a record of a rule the chain's prefix decides (:data:`OFFERED`: a bad proof, body, token, move,
  reveal or result, a seat out of turn, an envelope after the end): its one envelope must extend
  the transcript's own chain at ``position`` (``seq`` = ``position`` and ``prev`` = the hash of
  the chain's envelope ``position - 1``, :func:`link_problem`), so that its signer signed over
  the very prefix the verifier replays; offered to an observer table holding that prefix, the
  table must refuse it, without accepting it, with the claimed rule and the signer as the seat.

Every rule of :data:`NEVER_PROVEN` is proven by no record: harmless ones (``replay``,
``lost-race``), and those that depend on what the chain around the envelope was, which a record
cannot show (a ``fork`` and a ``wrong-previous`` need the other branch, a ``wrong-sequence`` the
envelopes between, ``own-seat`` what the recorder itself signed). Such a record is reported as
not proven and changes no verdict. (``bad-sealed-token`` and a ``bad-key-share`` without its
disclosure are ``unverifiable``: only the recipient can open the box.)

:class:`ForkProbe` is the sans-IO half of resolving a fork live: it asks the peer that sent the
forking link for the envelopes its branch holds, one hash at a time, until the two branches meet
in one place (SPEC §6.1). Sans-IO: no files, sockets or clocks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from ..wire import codec
from ..wire.chain import Chain
from ..wire.envelope import ZERO_HASH, Envelope, Payload, envelope_hash, open_envelope
from ..wire.errors import ProtocolError
from ..wire.framing import MAX_FRAME_SIZE
from ..wire.identity import PublicIdentity

if TYPE_CHECKING:
    from ..table import Violation

__all__ = [
    "Evidence",
    "EvidenceError",
    "Verdict",
    "Finding",
    "ProbeError",
    "ForkProbe",
    "Conflict",
    "check_pair",
    "check_fork",
    "link_problem",
    "NEVER_PROVEN",
    "find_conflicts",
    "is_evidence_frame",
    "from_violation",
    "MAX_MESSAGE",
]

MAX_MESSAGE = 1000
"""Characters of the recorder's sentence kept in a record."""

_KEYS = {"record", "rule", "seat", "position", "envelopes", "message"}


class EvidenceError(ProtocolError):
    """An evidence record that is not one (undecodable, missing or ill-typed fields)."""


def is_evidence_frame(frame: bytes) -> bool:
    """True if a transcript frame is an evidence record (a msgpack map), not an envelope."""
    return bool(frame) and (0x80 <= frame[0] <= 0x8F or frame[0] in (0xDE, 0xDF))


@dataclass(frozen=True)
class Evidence:
    """One evidence record (see the module docstring)."""

    rule: str
    seat: int | None
    position: int
    envelopes: tuple[bytes, ...]
    message: str = ""

    def to_wire(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "record": "evidence", "rule": self.rule, "seat": self.seat,
            "position": self.position, "envelopes": list(self.envelopes),
            "message": self.message[:MAX_MESSAGE]}
        return out

    def encode(self) -> bytes:
        """The canonical encoding (one transcript frame); ``ValueError`` if it is too large."""
        data = codec.pack(self.to_wire())
        if len(data) > MAX_FRAME_SIZE:
            raise ValueError("the evidence record is larger than one frame")
        return data

    @classmethod
    def decode(cls, data: bytes) -> Evidence:
        """Parse a record; :class:`EvidenceError` names what is wrong."""
        try:
            obj = codec.unpack(data, max_size=MAX_FRAME_SIZE)
        except ProtocolError as exc:
            raise EvidenceError(f"evidence record is not canonical msgpack: {exc}") from None
        if not isinstance(obj, dict) or set(obj) != _KEYS or obj["record"] != "evidence":
            raise EvidenceError("evidence record must be a map of " + ", ".join(sorted(_KEYS))
                                + " with record = 'evidence'")
        rule, seat, position = obj["rule"], obj["seat"], obj["position"]
        envelopes, message = obj["envelopes"], obj["message"]
        if not isinstance(rule, str) or not rule or len(rule) > 64:
            raise EvidenceError("evidence rule must be text of 1 to 64 characters")
        if seat is not None and (type(seat) is not int or not 0 <= seat < 8):
            raise EvidenceError("evidence seat must be a seat number or nil")
        if type(position) is not int or position < 0:
            raise EvidenceError("evidence position must be a chain position")
        if (not isinstance(envelopes, list) or not 1 <= len(envelopes) <= 2
                or not all(isinstance(e, bytes) and e for e in envelopes)):
            raise EvidenceError("evidence envelopes must be a list of one or two byte strings")
        if not isinstance(message, str):
            raise EvidenceError("evidence message must be text")
        return cls(rule, seat, position, tuple(envelopes), message)


# ------------------------------------------------------------------------------ checking

Verdict = Literal["proven", "other", "not-proven", "unverifiable"]
"""``proven``: the record proves the violation it names; ``other``: its envelope breaks another
rule than the one named (``Finding`` says which); ``not-proven``: it proves nothing (the envelope
is acceptable there, or the record does not hold what its rule needs); ``unverifiable``: only the
recipient of a sealed token can check the claim (``bad-sealed-token``)."""


@dataclass(frozen=True)
class Finding:
    """What checking one record established: the verdict, the rule and seat actually proven (for
    ``proven`` and ``other``), the seats one of which is at fault when ``seat`` is ``None``, the
    chain position the violation is about, and a sentence."""

    verdict: Verdict
    rule: str | None
    seat: int | None
    index: int | None
    message: str
    suspects: tuple[int, ...] = ()


def _open(data: bytes, keys: Sequence[PublicIdentity], table_id: bytes
          ) -> tuple[Envelope, Payload] | str:
    try:
        envelope, payload = open_envelope(data, keys)
    except ProtocolError as exc:
        return f"its envelope does not open with the table's keys: {exc}"
    if payload.table_id != table_id:
        return "its envelope belongs to another table"
    return envelope, payload


def _open_two(record: Evidence, keys: Sequence[PublicIdentity], table_id: bytes
              ) -> tuple[tuple[Envelope, Payload], tuple[Envelope, Payload]] | str:
    first = _open(record.envelopes[0], keys, table_id)
    if isinstance(first, str):
        return first
    second = _open(record.envelopes[1], keys, table_id)
    if isinstance(second, str):
        return second
    return first, second


def check_pair(record: Evidence, keys: Sequence[PublicIdentity], table_id: bytes) -> Finding:
    """Check an ``equivocation`` record: two different envelopes, one seat, one ``seq``."""
    if len(record.envelopes) != 2:
        return Finding("not-proven", None, None, None, "an equivocation needs two envelopes")
    opened = _open_two(record, keys, table_id)
    if isinstance(opened, str):
        return Finding("not-proven", None, None, None, opened)
    (_, a), (_, b) = opened
    if record.envelopes[0] == record.envelopes[1]:
        return Finding("not-proven", None, None, None, "its two envelopes are the same")
    if a.seat != b.seat or a.seq != b.seq:
        return Finding("not-proven", None, None, None,
                       f"its envelopes are seat {a.seat}'s seq {a.seq} and seat {b.seat}'s "
                       f"seq {b.seq}, not two envelopes of one seat for one position")
    return Finding("proven", "equivocation", a.seat, a.seq,
                   f"seat {a.seat} signed two different envelopes for seq {a.seq}")


def check_fork(record: Evidence, keys: Sequence[PublicIdentity], table_id: bytes) -> Finding:
    """Describe a ``fork`` record: a head envelope and another envelope that links past it.

    Never ``proven`` (see :data:`NEVER_PROVEN`): two branches may meet honestly at a claim window
    or a recovery, and a record cannot hold the other branch. The finding says what the two
    envelopes show and lists their signers as ``suspects``."""
    if len(record.envelopes) != 2:
        return Finding("not-proven", None, None, None, "a fork needs two envelopes")
    opened = _open_two(record, keys, table_id)
    if isinstance(opened, str):
        return Finding("not-proven", None, None, None, opened)
    (head_env, head), (_, link) = opened
    if link.seq != head.seq + 1 or link.prev == envelope_hash(head_env):
        return Finding("not-proven", None, None, None,
                       "its second envelope is not a broken link after its first")
    return Finding("not-proven", None, None, link.seq,
                   f"seat {link.seat}'s envelope {link.seq} links to another envelope "
                   f"{head.seq} than seat {head.seat}'s, but {NEVER_PROVEN['fork']}",
                   suspects=tuple(sorted({head.seat, link.seat})))


NEVER_PROVEN: dict[str, str] = {
    "replay": "a replay is harmless: it is a copy of an envelope the chain already holds",
    "lost-race": "a lost race is harmless: an eligible claim that another one beat to its "
                 "position",
    "fork": "a record cannot hold the other branch a fork needs (two branches also meet "
            "honestly at a claim window or a recovery): verify the transcripts of seats on both "
            "branches together",
    "wrong-previous": "a link to another envelope than the chain's is honest on a branch the "
                      "transcript does not hold (a seat whose claim lost a race links past it)",
    "wrong-sequence": "a sequence number off the chain comes from envelopes withheld or from "
                      "another branch, which a record cannot tell apart",
    "wrong-table": "an envelope of another table proves nothing about this one",
    "genesis-mismatch": "an envelope signed for another genesis proves nothing about this table",
    "bad-envelope": "bytes that do not open as an envelope bind no signer",
    "bad-signature": "bytes without a valid signature bind no signer",
    "own-seat": "only the recorder knows which envelopes its own seat signed",
    "undecryptable": "the chain's own key reveals prove it, or nothing does",
    "audit-failed": "the chain's own key reveals prove it, or nothing does",
    "replay-diverged": "the chain's own key reveals prove it, or nothing does",
}
"""The rules no evidence record proves, each with the reason (SPEC §9.9). ``equivocation`` is
proven by :func:`check_pair`; every other rule only by its one envelope offered where it links to
the transcript's chain (:func:`link_problem`)."""


def link_problem(data: bytes, keys: Sequence[PublicIdentity], table_id: bytes, position: int,
                 head: bytes) -> str | None:
    """Why the record envelope ``data`` does not extend a chain of ``position`` envelopes whose
    head hash is ``head`` (``ZERO_HASH`` when empty), or ``None`` when it does: it opens with the
    table's keys, belongs to the table, carries ``seq`` = ``position`` and ``prev`` = ``head``.
    Only such an envelope's signer vouched for the prefix its record is checked on."""
    opened = _open(data, keys, table_id)
    if isinstance(opened, str):
        return opened
    _, payload = opened
    if payload.seq != position:
        return (f"its envelope is seat {payload.seat}'s seq {payload.seq}, not an envelope for "
                f"chain position {position}, so its signer never signed over the chain the "
                f"record is checked on")
    if payload.prev != head:
        return (f"its envelope (seat {payload.seat}'s seq {payload.seq}) links to another "
                f"envelope than the chain's at position {position - 1}, so its signer never "
                f"signed over the chain the record is checked on")
    return None


# ------------------------------------------------------------------------- equivocations


@dataclass(frozen=True)
class Conflict:
    """Two different envelopes validly signed by ``seat`` for ``seq``: ``first`` and ``second``
    are indexes into the pool given to :func:`find_conflicts`."""

    seat: int
    seq: int
    first: int
    second: int


def find_conflicts(pool: Sequence[bytes], keys: Sequence[PublicIdentity], table_id: bytes
                   ) -> list[Conflict]:
    """Every equivocation among validly signed envelopes of this table in ``pool``: for each
    ``(seat, seq)`` signed with more than one byte string, the first two, ordered by ``seq``.
    Envelopes that do not open, or belong to another table, are ignored."""
    seen: dict[tuple[int, int], tuple[int, bytes]] = {}
    found: dict[tuple[int, int], Conflict] = {}
    for i, data in enumerate(pool):
        opened = _open(data, keys, table_id)
        if isinstance(opened, str):
            continue
        _, payload = opened
        key = (payload.seat, payload.seq)
        if key not in seen:
            seen[key] = (i, data)
        elif seen[key][1] != data and key not in found:
            found[key] = Conflict(payload.seat, payload.seq, seen[key][0], i)
    return sorted(found.values(), key=lambda c: (c.seq, c.seat))


# ------------------------------------------------------------------------------- the probe


class ProbeError(ProtocolError):
    """An answer to a probe request that is not the envelope asked for."""


class ForkProbe:
    """Walk back along the other branch of a fork until the two branches meet (SPEC §6.1).

    Made from the receiver's chain and the ``fork`` :class:`~p2pcards.table.Violation`'s link
    envelope. :attr:`wanted` is the hash to ask the sender of the link for; give its answer to
    :meth:`feed`, which returns the :class:`Evidence` that settles the fork, or ``None`` when the
    next hash is wanted (:attr:`wanted` changed). Each answer must be the validly signed envelope
    of this table with exactly the wanted hash (:class:`ProbeError` otherwise).

    The walk ends at the first position where the two branches hold envelopes by one seat (an
    ``equivocation`` by that seat), or where the other branch's envelope links to this chain (its
    signer signed out of turn on the common prefix, where this chain's seat had to speak).
    """

    def __init__(self, chain: Chain, keys: Sequence[PublicIdentity], link: bytes) -> None:
        self._chain = chain
        self._keys = keys
        envelope, payload = open_envelope(link, keys)
        if payload.seq != len(chain) or payload.seq == 0:
            raise ValueError("the link of a fork extends the receiver's chain")
        self.wanted: bytes = payload.prev
        self.seq = payload.seq - 1
        """The ``seq`` the wanted envelope must carry."""
        self.steps = 0

    def feed(self, data: bytes) -> Evidence | None:
        """Take the answer for :attr:`wanted`; see the class docstring."""
        try:
            envelope, payload = open_envelope(data, self._keys)
        except ProtocolError as exc:
            raise ProbeError(f"the envelope sent for the fork does not open: {exc}") from None
        if envelope_hash(envelope) != self.wanted:
            raise ProbeError("the envelope sent for the fork is not the one asked for")
        if payload.table_id != self._chain.table_id or payload.seq != self.seq:
            raise ProbeError(f"the envelope sent for the fork is not this table's envelope "
                             f"{self.seq}")
        self.steps += 1
        position = len(self._chain)
        mine = self._chain.envelope(self.seq)
        if self._chain.seat_of(self.seq) == payload.seat:
            return Evidence("equivocation", payload.seat, position, (mine.encode(), data),
                            f"seat {payload.seat} signed two different envelopes for seq "
                            f"{self.seq}")
        common = ZERO_HASH if self.seq == 0 else envelope_hash(self._chain.envelope(self.seq - 1))
        if payload.prev == common:
            return Evidence("out-of-turn", payload.seat, self.seq, (data,),
                            f"seat {payload.seat} signed envelope {self.seq} when seat "
                            f"{self._chain.seat_of(self.seq)} had to speak")
        if self.seq == 0:
            raise ProbeError("the envelope sent for the fork has seq 0 but links to another")
        self.wanted = payload.prev
        self.seq -= 1
        return None


def from_violation(violation: Violation, data: bytes, position: int) -> Evidence | None:
    """The record a peer keeps after refusing ``data`` with ``violation`` when it had accepted
    ``position`` envelopes; ``None`` when there is nothing to prove (a harmless ``replay`` or
    envelope of another table, or bytes that carry no valid signature, which anyone could have
    written)."""
    if violation.rule in ("replay", "wrong-table") or (
            violation.seat is None and violation.rule in ("bad-envelope", "bad-signature")):
        return None
    if violation.evidence:
        envelopes = tuple(e.encode() for e in violation.evidence)
    else:
        envelopes = (data,)
    record = Evidence(violation.rule, violation.seat, position, envelopes, str(violation))
    try:
        record.encode()
    except ValueError:
        return None
    return record
