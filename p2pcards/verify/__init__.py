"""Verifying recorded matches: one transcript replayed by an observer table down to the points
(:mod:`.replay`, SPEC §7 and §9), and several transcripts of one table compared for a fork or an
equivocation (:mod:`.many`, SPEC §6.1 and §9.9). What the package names here is its public face:
``from p2pcards.verify import verify_transcript``."""

from .many import (
    DifferentTables,
    EnvelopeView,
    EquivocationReport,
    MultiReport,
    verify_transcripts,
)
from .replay import (
    DropoutReport,
    EvidenceReport,
    HandReport,
    SeatReport,
    Status,
    StopReport,
    UnreadableTranscript,
    VerifyReport,
    ViolationReport,
    WithheldKey,
    load,
    replay_transcript,
    verify_transcript,
)

__all__ = [
    "Status",
    "SeatReport",
    "HandReport",
    "ViolationReport",
    "StopReport",
    "WithheldKey",
    "EvidenceReport",
    "DropoutReport",
    "VerifyReport",
    "UnreadableTranscript",
    "load",
    "verify_transcript",
    "replay_transcript",
    "DifferentTables",
    "EnvelopeView",
    "EquivocationReport",
    "MultiReport",
    "verify_transcripts",
]
