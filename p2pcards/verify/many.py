"""Verifying the transcripts of several seats of one table together (``p2pcards verify A B ...``).

Each transcript is verified on its own (:func:`.replay.verify_transcript`). Then every validly
signed envelope of the table found in any of them, in a chain or in an evidence record, goes
into one pool, and any two different envelopes signed by one seat for one ``seq`` are an
**equivocation** by that seat (:func:`p2pcards.records.evidence.find_conflicts`): the proof a single
transcript cannot hold, because an honest peer's chain never accepts both. This is how the
equivocator behind a ``fork`` (one seat's transcript holds one branch, another seat's the other)
is named.

The combined status: ``invalid`` if an equivocation is found or any transcript is invalid;
otherwise ``incomplete`` if any is incomplete; otherwise ``valid``. Transcripts of different
tables (different genesis records) cannot be compared: :class:`DifferentTables`.

Sans-IO apart from reading the files named by the caller.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..records.evidence import Evidence, EvidenceError, find_conflicts
from ..records.transcript import TranscriptFile, jsonable
from ..wire import Envelope, Payload, PublicIdentity, envelope_hash
from ..wire.errors import ProtocolError
from .replay import Status, UnreadableTranscript, VerifyReport, load, verify_transcript

__all__ = ["EnvelopeView", "EquivocationReport", "MultiReport", "DifferentTables",
           "verify_transcripts"]

Source = str | os.PathLike[str]


class DifferentTables(UnreadableTranscript):
    """The transcripts given are not of one table."""


@dataclass(frozen=True)
class EnvelopeView:
    """One envelope of the pool: where it was found and what it says."""

    file: str
    where: str
    hash: str
    seq: int
    seat: int
    kind: str
    prev: str
    body: Any

    def to_dict(self) -> dict[str, Any]:
        return {"file": self.file, "where": self.where, "hash": self.hash, "seq": self.seq,
                "seat": self.seat, "kind": self.kind, "prev": self.prev, "body": self.body}


@dataclass(frozen=True)
class EquivocationReport:
    """Two different envelopes signed by ``seat`` for ``seq``: the proof, shown in full."""

    seat: int
    fingerprint: str
    seq: int
    envelopes: tuple[EnvelopeView, EnvelopeView]

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "fingerprint": self.fingerprint, "seq": self.seq,
                "envelopes": [e.to_dict() for e in self.envelopes]}


@dataclass(frozen=True)
class MultiReport:
    """What :func:`verify_transcripts` found (see the module docstring)."""

    status: Status
    table_id: str
    reports: tuple[VerifyReport, ...]
    equivocations: tuple[EquivocationReport, ...]
    notes: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"status": self.status, "table_id": self.table_id,
                "transcripts": [r.to_dict() for r in self.reports],
                "equivocations": [e.to_dict() for e in self.equivocations],
                "notes": list(self.notes)}

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)


def _pool_of(name: str, transcript: TranscriptFile) -> list[tuple[str, str, bytes]]:
    pool = [(name, f"envelope {i}", data) for i, data in enumerate(transcript.envelopes)]
    for number, data in enumerate(transcript.evidence):
        try:
            record = Evidence.decode(data)
        except EvidenceError:
            continue
        pool.extend((name, f"evidence record {number}", e) for e in record.envelopes)
    return pool


def _view(file: str, where: str, data: bytes) -> EnvelopeView:
    envelope = Envelope.decode(data)
    payload = Payload.decode(envelope.payload)
    return EnvelopeView(file, where, envelope_hash(envelope).hex(), payload.seq, payload.seat,
                        payload.kind, payload.prev.hex(), jsonable(payload.body))


def verify_transcripts(sources: Sequence[Source]) -> MultiReport:
    """Verify several transcripts of one table and look for equivocations across them.

    Raises :class:`UnreadableTranscript` for a file that is not a transcript and
    :class:`DifferentTables` when the files' genesis records differ.
    """
    if not sources:
        raise ValueError("no transcript given")
    loaded = [(os.fspath(source), *load(source)) for source in sources]
    first_name, _, genesis = loaded[0]
    for name, _, other in loaded[1:]:
        if other.table_id != genesis.table_id:
            raise DifferentTables(
                f"{name} is a transcript of table {other.table_id.hex()[:16]}..., "
                f"{first_name} of table {genesis.table_id.hex()[:16]}...: transcripts of "
                "different tables (or an altered genesis record) cannot be compared")
    reports = tuple(replace(verify_transcript(transcript), path=name)
                    for name, transcript, _ in loaded)
    keys = [PublicIdentity.from_bytes(s.identity) for s in genesis.seats]
    pool: list[tuple[str, str, bytes]] = []
    for name, transcript, _ in loaded:
        pool.extend(_pool_of(name, transcript))
    found: list[EquivocationReport] = []
    for conflict in find_conflicts([data for _, _, data in pool], keys, genesis.table_id):
        try:
            views = (_view(*pool[conflict.first]), _view(*pool[conflict.second]))
        except ProtocolError:  # pragma: no cover - find_conflicts opened both
            continue
        found.append(EquivocationReport(conflict.seat, keys[conflict.seat].fingerprint,
                                        conflict.seq, views))
    notes: list[str] = []
    if not found:
        notes.extend(_divergences(loaded))
    status: Status
    if found or any(r.status == "invalid" for r in reports):
        status = "invalid"
    elif any(r.status == "incomplete" for r in reports):
        status = "incomplete"
    else:
        status = "valid"
    return MultiReport(status, genesis.table_id.hex(), reports, tuple(found), tuple(notes))


def _divergences(loaded: list[tuple[str, TranscriptFile, Any]]) -> list[str]:
    """Where two chains part although no seat signed two envelopes for one position."""
    notes = []
    name, base, _ = loaded[0]
    for other_name, other, _ in loaded[1:]:
        for index, (a, b) in enumerate(zip(base.envelopes, other.envelopes, strict=False)):
            if a != b:
                notes.append(f"{name} and {other_name} differ from envelope {index} on, and no "
                             "seat signed two envelopes for one position in them")
                break
    return notes
