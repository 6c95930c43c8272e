"""The transcript verifier: replay a recorded match and say whether it holds, down to the points.

:func:`verify_transcript` reads a transcript file (:mod:`p2pcards.records.transcript`), decodes its
genesis (:meth:`p2pcards.seating.genesis.Genesis.decode`) and feeds every envelope, in order, to an
observer :class:`p2pcards.table.Table` (``seat=None``). The observer checks what every seated peer
checks: signatures, chain links and turn order, key proofs, shuffle proofs, reveal tokens, the
legality of every move (at once where public information allows, otherwise in the full-information
replay of each hand once its keys are revealed), and every seat's signed hand result.

The outcome is a :class:`VerifyReport` with one of three statuses:

``valid``
    every envelope checks and the chain reaches the end of the match;
``invalid``
    an envelope breaks the protocol or the rules: :attr:`VerifyReport.violation` names the first
    one (envelope index, culprit seat and its key fingerprint, rule, message, evidence);
``incomplete``
    nothing is wrong, but the file ends early: either its last frame is cut (a crash while
    writing) or the chain stops before the match ends. :attr:`VerifyReport.stop` tells how far
    it got and which seat was expected to send which kind of message; when that is a key reveal
    at a table without a dropout policy, it names the seat as the reason the match could not be
    checked (:class:`WithheldKey`).

Evidence records after the chain (:mod:`p2pcards.records.evidence`) are checked too, each on its
own. Records are not signed, so a record proves only what its signed envelopes prove by themselves
(SPEC §9.9): an ``equivocation`` by its two envelopes, and a rule the chain's prefix decides by
its one envelope, when that envelope extends this transcript's chain at the record's position
and the observer table, offered it there, refuses it with the claimed rule and seat. Harmless
rules and those that need a chain the record cannot show (``replay``, ``lost-race``, ``fork``,
``wrong-sequence`` ...: :data:`p2pcards.records.evidence.NEVER_PROVEN`) are never proven. Each
record gets an :class:`EvidenceReport`. A record that proves its claim makes the transcript
``invalid`` (when the chain itself holds no violation, the first proven record that names a seat,
else the first proven one, becomes :attr:`VerifyReport.violation`, with ``source = "evidence"``);
one that does not is reported as not proven and changes nothing else.

A file that cannot be read as a transcript at all (missing, not a transcript, a cut or garbled
genesis record) raises :class:`UnreadableTranscript`, whose message is one sentence.

Truncation is reported as ``incomplete`` wherever the cut falls after the genesis record,
including inside a frame's 4-byte length prefix; a cut inside the header or the genesis record
makes the file unreadable.

Sans-IO apart from reading the file named by the caller: the verification itself is pure.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from ..records.evidence import (
    NEVER_PROVEN,
    Evidence,
    EvidenceError,
    Finding,
    Verdict,
    check_fork,
    check_pair,
    link_problem,
)
from ..records.transcript import TranscriptError, TranscriptFile, read_transcript
from ..seating.genesis import DROPOUT_POLICIES, Genesis, GenesisError
from ..table import Event, HandScored, MatchEnded, Table, Violation, bare_inboxes, replay_frames
from ..wire import Envelope, PublicIdentity, envelope_hash

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
    "verify_transcript",
    "replay_transcript",
]

Status = Literal["valid", "invalid", "incomplete"]


class UnreadableTranscript(Exception):
    """The file is not a readable transcript (missing, bad header, bad genesis record)."""


@dataclass(frozen=True)
class SeatReport:
    """One seat of the table: number, name, side, and the fingerprint of its identity key."""

    seat: int
    name: str
    fingerprint: str
    side: int


@dataclass(frozen=True)
class HandReport:
    """One scored hand: points per side with the breakdown, and match scores after it.

    ``lines`` are ``(category, values per side, points per side)``; ``index`` is the envelope
    whose acceptance completed the hand's result round.
    """

    hand: int
    points: tuple[int, ...]
    lines: tuple[tuple[str, tuple[int | None, ...], tuple[int, ...]], ...]
    match_scores: tuple[int, ...]
    index: int


@dataclass(frozen=True)
class ViolationReport:
    """The first violation found.

    ``index`` is the envelope the violation is about (for a rule broken by a move and found in the
    replay after the keys were revealed, the envelope of that move); ``detected_at`` is the
    envelope whose processing revealed it. ``seat`` is ``None`` when the offending bytes carry no
    valid signature, so nobody can be held responsible. ``evidence`` holds the SHA-256 hashes
    (hex) of the envelopes that prove it (both envelopes of an equivocation).
    """

    index: int | None
    detected_at: int
    seat: int | None
    fingerprint: str | None
    rule: str
    message: str
    evidence: tuple[str, ...] = ()
    source: str = "chain"
    """``chain`` (found replaying the chain) or ``evidence`` (proven by an evidence record)."""
    suspects: tuple[int, ...] = ()
    """When ``seat`` is ``None``: the seats one of which, or the hub, is at fault (a fork)."""


@dataclass(frozen=True)
class EvidenceReport:
    """One evidence record of the file and what checking it established.

    ``claimed_rule`` / ``claimed_seat`` / ``claim`` are what the recorder wrote; ``verdict`` is
    one of :data:`p2pcards.records.evidence.Verdict` (or ``malformed`` for a record that does not
    decode); ``rule`` / ``seat`` / ``fingerprint`` / ``index`` what it proves (``proven``) or the
    other violation its envelope shows (``other``); ``message`` says it in one sentence;
    ``envelopes`` are the SHA-256 hashes (hex) of its envelopes.
    """

    record: int
    offset: int
    position: int | None
    claimed_rule: str | None
    claimed_seat: int | None
    claim: str
    verdict: str
    rule: str | None
    seat: int | None
    fingerprint: str | None
    index: int | None
    message: str
    envelopes: tuple[str, ...] = ()
    suspects: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "record": self.record, "offset": self.offset, "position": self.position,
            "claimed_rule": self.claimed_rule, "claimed_seat": self.claimed_seat,
            "claim": self.claim, "verdict": self.verdict, "rule": self.rule, "seat": self.seat,
            "fingerprint": self.fingerprint, "index": self.index, "message": self.message,
            "envelopes": list(self.envelopes), "suspects": list(self.suspects),
        }


@dataclass(frozen=True)
class DropoutReport:
    """A seat that dropped out at a table that shares its hand keys (SPEC §9.13).

    ``seat`` stopped answering when its ``kind`` message was due (chain position ``index``);
    seat ``by`` began the recovery. ``rebuilt`` tells whether its hand key of the current deck
    was rebuilt from the others' shares (every share checked against its commitments), and
    ``audited`` whether that deck was then audited and its play replayed with every card known.
    ``forfeit`` is set when the match ended with the seat forfeiting, ``bot`` when the public
    bot played the seat from then on (``dropout`` = ``bot``, SPEC §9.13.7).
    """

    seat: int
    kind: str
    by: int
    index: int
    rebuilt: bool = False
    audited: bool = False
    forfeit: bool = False
    bot: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "kind": self.kind, "by": self.by, "index": self.index,
                "rebuilt": self.rebuilt, "audited": self.audited, "forfeit": self.forfeit,
                "bot": self.bot}


@dataclass(frozen=True)
class WithheldKey:
    """The seat whose hand key reveal an incomplete transcript stops at, at a table without a
    dropout policy: nobody can rebuild that key, so the hand's hidden cards, and every move that
    played them, cannot be checked; this seat is why (SPEC §9.9).

    ``hand`` is the hand in play, numbered from 1; ``index`` the chain position where the
    reveal was due. The transcript cannot tell a seat that kept its key from a hub that did not
    forward its reveal (SPEC §9.10)."""

    seat: int
    hand: int
    index: int

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "hand": self.hand, "index": self.index}


@dataclass(frozen=True)
class StopReport:
    """Where an incomplete transcript stops.

    ``expected`` is ``(seat, kind)`` of the message the chain waits for (``None`` if the match had
    ended and only a cut trailing frame follows). ``truncated_at`` is the byte offset of a cut
    final frame, if any. ``withheld`` names the seat whose missing key reveal leaves the match
    unchecked, when the chain stops there at a table without a dropout policy.
    """

    verified: int
    hands_complete: int
    expected: tuple[int, str] | None
    truncated_at: int | None
    withheld: WithheldKey | None = None


@dataclass(frozen=True)
class VerifyReport:
    """Everything :func:`verify_transcript` found; see the module docstring for the statuses.

    ``scores`` are the match scores per side after the last verified hand (final scores when the
    match ended); ``winner_side`` and ``winner_seats`` are set only for a valid finished match
    with a winner. ``envelopes`` counts the complete envelope frames of the file, ``verified``
    those accepted before the verification stopped.
    """

    path: str | None
    status: Status
    table_id: str
    game: str
    preset: str
    config: dict[str, Any]
    seats: tuple[SeatReport, ...]
    hands: tuple[HandReport, ...]
    scores: tuple[int, ...]
    winner_side: int | None
    winner_seats: tuple[int, ...]
    envelopes: int
    verified: int
    violation: ViolationReport | None = None
    stop: StopReport | None = None
    notes: tuple[str, ...] = field(default=())
    evidence: tuple[EvidenceReport, ...] = field(default=())
    dropout: DropoutReport | None = None

    @property
    def valid(self) -> bool:
        return self.status == "valid"

    def to_dict(self) -> dict[str, Any]:
        """Plain data (JSON-ready): lists for tuples, ``None`` where absent."""
        return {
            "path": self.path,
            "status": self.status,
            "table_id": self.table_id,
            "game": self.game,
            "preset": self.preset,
            "config": dict(self.config),
            "seats": [
                {"seat": s.seat, "name": s.name, "fingerprint": s.fingerprint, "side": s.side}
                for s in self.seats
            ],
            "hands": [
                {
                    "hand": h.hand + 1,  # numbered from 1, as every text form numbers it
                    "points": list(h.points),
                    "lines": [
                        {"category": c, "values": list(v), "points": list(p)}
                        for c, v, p in h.lines
                    ],
                    "match_scores": list(h.match_scores),
                    "index": h.index,
                }
                for h in self.hands
            ],
            "scores": list(self.scores),
            "winner_side": self.winner_side,
            "winner_seats": list(self.winner_seats),
            "envelopes": self.envelopes,
            "verified": self.verified,
            "violation": None if self.violation is None else {
                "index": self.violation.index,
                "detected_at": self.violation.detected_at,
                "seat": self.violation.seat,
                "fingerprint": self.violation.fingerprint,
                "rule": self.violation.rule,
                "message": self.violation.message,
                "evidence": list(self.violation.evidence),
                "source": self.violation.source,
                "suspects": list(self.violation.suspects),
            },
            "evidence": [e.to_dict() for e in self.evidence],
            "dropout": None if self.dropout is None else self.dropout.to_dict(),
            "stop": None if self.stop is None else {
                "verified": self.stop.verified,
                "hands_complete": self.stop.hands_complete,
                "expected": None if self.stop.expected is None else {
                    "seat": self.stop.expected[0], "kind": self.stop.expected[1]},
                "truncated_at": self.stop.truncated_at,
                "withheld_key": None if self.stop.withheld is None
                else self.stop.withheld.to_dict(),
            },
        }

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)


def load(source: str | os.PathLike[str] | TranscriptFile) -> tuple[TranscriptFile, Genesis]:
    """Read a transcript and decode its genesis; :class:`UnreadableTranscript` if impossible."""
    if isinstance(source, TranscriptFile):
        transcript = source
        name = "transcript"
    else:
        name = os.fspath(source)
        try:
            transcript = read_transcript(source)
        except FileNotFoundError:
            raise UnreadableTranscript(f"transcript file {name} does not exist") from None
        except IsADirectoryError:
            raise UnreadableTranscript(f"{name} is a directory, not a transcript file") from None
        except OSError as exc:
            raise UnreadableTranscript(
                f"transcript file {name} cannot be read: {exc.strerror or exc}") from None
        except TranscriptError as exc:
            raise UnreadableTranscript(f"{name} is not a readable transcript: {exc}") from None
    try:
        genesis = Genesis.decode(transcript.genesis)
    except GenesisError as exc:
        raise UnreadableTranscript(f"{name} has an unusable genesis record: {exc}") from None
    return transcript, genesis


EventHook = Callable[[Table, int, list[Event]], None]
"""Called after each accepted envelope with the table, its index and the events it produced."""


def replay_transcript(transcript: TranscriptFile, genesis: Genesis,
                      on_events: EventHook | None = None) -> tuple[Table, Violation | None, int]:
    """Feed every envelope to a fresh observer table, stopping at the first violation.

    Returns the table, the violation (or ``None``) and the index of the envelope being processed
    when it stopped (the number of envelopes accepted when there was no violation).
    """
    table = Table(genesis, seat=None, bare_inboxes=bare_inboxes(genesis, transcript.envelopes))
    table.start()
    for index, data in enumerate(transcript.envelopes):
        try:
            step = table.receive(data)
        except Violation as violation:
            return table, violation, index
        if on_events is not None:
            on_events(table, index, step.events)
    return table, None, len(transcript.envelopes)


def verify_transcript(source: str | os.PathLike[str] | TranscriptFile) -> VerifyReport:
    """Verify a transcript file (or an already read :class:`TranscriptFile`).

    Returns a :class:`VerifyReport` (statuses in the module docstring); raises
    :class:`UnreadableTranscript` when the file is not a transcript at all.
    """
    transcript, genesis = load(source)
    path = None if isinstance(source, TranscriptFile) else os.fspath(source)
    keys = [PublicIdentity.from_bytes(s.identity) for s in genesis.seats]
    hands: list[HandReport] = []
    ended: list[MatchEnded] = []

    def collect(table: Table, index: int, events: list[Event]) -> None:
        for event in events:
            if isinstance(event, HandScored):
                hands.append(HandReport(
                    hand=event.hand,
                    points=tuple(event.result.points),
                    lines=tuple((ln.category, tuple(ln.values), tuple(ln.points))
                                for ln in event.result.lines),
                    match_scores=tuple(event.match_scores),
                    index=index,
                ))
            elif isinstance(event, MatchEnded):
                ended.append(event)

    records = _decode_records(transcript)
    table, violation, stopped, offered = _replay_offering(transcript, genesis, collect, records)
    checked = tuple(_evidence_report(i, transcript, record, genesis, keys, offered, stopped)
                    for i, record in enumerate(records))
    engine = table.engine
    seats = tuple(
        SeatReport(i, s.name, keys[i].fingerprint, engine.side_of(i))
        for i, s in enumerate(genesis.seats)
    )
    scores = hands[-1].match_scores if hands else tuple(0 for _ in range(engine.num_sides))
    status: Status
    stop_report: StopReport | None = None
    found: ViolationReport | None = None
    winner_side: int | None = None
    winner_seats: tuple[int, ...] = ()
    notes: list[str] = []
    if violation is not None:
        status = "invalid"
        culprit = violation.seat
        found = ViolationReport(
            index=violation.index,
            detected_at=stopped,
            seat=culprit,
            fingerprint=keys[culprit].fingerprint if culprit is not None
            and 0 <= culprit < len(keys) else None,
            rule=violation.rule,
            message=str(violation),
            evidence=tuple(envelope_hash(e).hex() for e in violation.evidence),
            suspects=violation.suspects,
        )
    elif (proof := _strongest(checked)) is not None:
        status = "invalid"
        found = ViolationReport(
            index=proof.index, detected_at=stopped, seat=proof.seat,
            fingerprint=proof.fingerprint, rule=proof.rule or "", message=proof.message,
            evidence=proof.envelopes, source="evidence", suspects=proof.suspects)
    elif transcript.truncated or not table.finished:
        status = "incomplete"
        stop_report = StopReport(
            verified=stopped,
            hands_complete=len(hands),
            expected=table.expected,
            truncated_at=transcript.truncated_at,
            withheld=None if transcript.truncated else _withheld_key(table, stopped, len(hands)),
        )
        if table.finished:
            notes.append("the match ended, but a cut frame follows it")
    else:
        status = "valid"
        if ended:
            scores = ended[-1].match_scores
            winner_side = ended[-1].winner
            if winner_side is not None:
                winner_seats = tuple(s.seat for s in seats if s.side == winner_side)
    notes.extend(f"evidence record {e.record} does not prove what it claims: {e.message}"
                 for e in checked if e.verdict == "not-proven")
    return VerifyReport(
        path=path,
        status=status,
        table_id=genesis.table_id.hex(),
        game=genesis.game,
        preset=genesis.preset,
        config=dict(genesis.config),
        seats=seats,
        hands=tuple(hands),
        scores=tuple(scores),
        winner_side=winner_side,
        winner_seats=winner_seats,
        envelopes=len(transcript.envelopes),
        verified=stopped,
        violation=found,
        stop=stop_report,
        notes=tuple(notes),
        evidence=checked,
        dropout=None if table.recovery is None else DropoutReport(
            table.recovery.seat, table.recovery.kind, table.recovery.by, table.recovery.index,
            table.recovery.rebuilt, table.recovery.audited, table.forfeit is not None,
            table.recovery.bot),
    )


def _withheld_key(table: Table, stopped: int, hands_done: int) -> WithheldKey | None:
    """The seat whose key reveal the chain waits for, at a table that cannot rebuild it (no
    dropout policy, no recovery begun), or ``None``."""
    expected = table.expected
    if (expected is None or expected[1] != "reveal" or table.recovery is not None
            or table.genesis.dropout in DROPOUT_POLICIES):
        return None
    return WithheldKey(expected[0], hands_done + 1, stopped)


# ------------------------------------------------------------------------------ evidence

_Record = Evidence | str
"""A decoded evidence record, or the sentence saying why it does not decode."""


def _decode_records(transcript: TranscriptFile) -> list[_Record]:
    out: list[_Record] = []
    for data in transcript.evidence:
        try:
            out.append(Evidence.decode(data))
        except EvidenceError as exc:
            out.append(str(exc))
    return out


def _needs_table(record: _Record) -> bool:
    return (isinstance(record, Evidence) and record.rule != "equivocation"
            and record.rule not in NEVER_PROVEN)


@dataclass(frozen=True)
class _Offered:
    """What became of one record's envelope at its position: ``unlinked`` says why it was not
    offered (it does not extend the chain there); else ``violation`` is what the table raised
    (``None``: acceptable) and ``accepted`` whether the table took it into its state first."""

    unlinked: str | None = None
    violation: Violation | None = None
    accepted: bool = False


def _offer(table: Table, data: bytes) -> _Offered:
    """Offer an evidence envelope to the replay table (see :class:`_Offered`)."""
    before = len(table.frames)
    try:
        table.receive(data)
    except Violation as violation:
        return _Offered(None, violation, len(table.frames) != before)
    return _Offered(None, None, True)


def _replay_offering(transcript: TranscriptFile, genesis: Genesis, on_events: EventHook,
                     records: list[_Record]
                     ) -> tuple[Table, Violation | None, int, dict[int, _Offered]]:
    """:func:`replay_transcript`, offering each evidence envelope that needs the table state at
    its record's position when the replay gets there, if it extends the chain there. Returns the
    table, the chain's violation, where it stopped, and what became of each record reached."""
    at: dict[int, list[int]] = {}
    for i, record in enumerate(records):
        if _needs_table(record):
            assert isinstance(record, Evidence)
            at.setdefault(record.position, []).append(i)
    keys = [PublicIdentity.from_bytes(s.identity) for s in genesis.seats]
    offered: dict[int, _Offered] = {}
    frames = transcript.envelopes
    bare = bare_inboxes(genesis, frames)  # recorded before inbox keys carried proofs
    table = Table(genesis, seat=None, bare_inboxes=bare)
    table.start()
    for index in range(len(frames) + 1):
        for i in at.get(index, ()):
            record = records[i]
            assert isinstance(record, Evidence)
            problem = link_problem(record.envelopes[0], keys, genesis.table_id, index,
                                   table.chain.head)
            if problem is not None:
                offered[i] = _Offered(unlinked=problem)
                continue
            offered[i] = _offer(table, record.envelopes[0])
            if offered[i].accepted:  # rebuild the state the chain reached (a record proving
                table = replay_frames(genesis, frames[:index], bare_inboxes=bare)  # nothing)
        if index == len(frames):
            break
        try:
            step = table.receive(frames[index])
        except Violation as violation:
            return table, violation, index, offered
        on_events(table, index, step.events)
    return table, None, len(frames), offered


_SENT = {
    "bad-shuffle": "an invalid shuffle",
    "bad-key": "an invalid hand key",
    "bad-token": "an invalid reveal token",
    "bad-sealed-token": "a sealed token that does not open",
    "bad-reveal": "a false hand key reveal",
    "bad-key-share": "a share of its hand key that does not match its commitments",
    "bad-complaint": "a complaint about a key share that does not prove the share wrong",
    "bad-recovery-share": "a false share of a dropped seat's hand key",
    "bad-body": "a malformed message",
    "bad-action": "an undecodable action",
    "wrong-tokens": "the wrong reveal tokens",
    "wrong-kind": "a message of the wrong kind",
    "not-in-hand": "a card it does not hold",
    "card-mismatch": "a card other than the one at its position",
    "missing-token": "a card without its token",
    "result-mismatch": "a false hand result",
    "out-of-turn": "an envelope out of turn",
    "wrong-previous": "an envelope that links to another one than its own previous",
    "after-match-end": "an envelope after the match ended",
    "bad-envelope": "a malformed envelope",
}


def describe(rule: str, seat: int | None, index: int | None) -> str:
    """``seat 1 sent an invalid shuffle at position 9`` (what a proven violation means)."""
    what = _SENT.get(rule, f"an envelope breaking rule {rule}")
    where = f" at position {index}" if index is not None else ""
    who = f"seat {seat}" if seat is not None else "someone"
    return f"{who} sent {what}{where}"


def _evidence_report(number: int, transcript: TranscriptFile, record: _Record,
                     genesis: Genesis, keys: list[PublicIdentity],
                     offered: dict[int, _Offered], stopped: int) -> EvidenceReport:
    offset = transcript.evidence_offsets[number]
    if isinstance(record, str):
        return EvidenceReport(number, offset, None, None, None, "", "malformed", None, None,
                              None, None, f"evidence record {number} is malformed: {record}")
    hashes = tuple(_hash_of(e) for e in record.envelopes)
    finding = _finding(number, record, keys, genesis, offered, stopped)
    seat = finding.seat
    fingerprint = keys[seat].fingerprint if seat is not None and 0 <= seat < len(keys) else None
    return EvidenceReport(number, offset, record.position, record.rule, record.seat,
                          record.message, finding.verdict, finding.rule, seat, fingerprint,
                          finding.index, finding.message, hashes, finding.suspects)


def _strongest(checked: tuple[EvidenceReport, ...]) -> EvidenceReport | None:
    """The proven record that says the most: the first naming a seat, else the first proven."""
    proven = [e for e in checked if e.verdict == "proven"]
    return next((e for e in proven if e.seat is not None), proven[0] if proven else None)


def _hash_of(data: bytes) -> str:
    try:
        return envelope_hash(Envelope.decode(data)).hex()
    except Exception:  # noqa: BLE001 - undecodable bytes have no envelope hash
        return ""


def _finding(number: int, record: Evidence, keys: list[PublicIdentity], genesis: Genesis,
             offered: dict[int, _Offered], stopped: int) -> Finding:
    """What record ``number`` proves (SPEC §9.9): only an equivocation pair, or one envelope
    that extends the chain at its position and is refused there, without being accepted, with
    the claimed rule and seat, for that envelope."""
    if record.rule == "equivocation":
        found = check_pair(record, keys, genesis.table_id)
    elif record.rule == "fork":
        return check_fork(record, keys, genesis.table_id)
    elif record.rule in NEVER_PROVEN:
        return Finding("not-proven", None, None, None,
                       f"no evidence record proves {record.rule}: {NEVER_PROVEN[record.rule]}")
    elif number not in offered:
        return Finding("not-proven", None, None, None,
                       f"it is about chain position {record.position}, but the chain "
                       f"{'is invalid from' if stopped < record.position else 'ends at'} "
                       f"envelope {stopped}")
    else:
        found = _offered_finding(record, offered[number])
    return _worded(number, record, found)


def _offered_finding(record: Evidence, outcome: _Offered) -> Finding:
    """The finding of a record whose one envelope was offered at its position (or refused for
    not extending the chain there)."""
    if outcome.unlinked is not None:
        return Finding("not-proven", None, None, None, outcome.unlinked)
    violation = outcome.violation
    if violation is None or outcome.accepted:
        if record.rule == "bad-sealed-token":
            return Finding("unverifiable", None, None, None,
                           "only the recipient of a sealed token can open it (see the "
                           "threat model): the claim can be neither proven nor refuted")
        if record.rule == "bad-key-share":
            return Finding("unverifiable", None, None, None,
                           "only the holder of a share can open its box; its complaint in the "
                           "chain is the proof (SPEC §9.13.4): the record can be neither "
                           "proven nor refuted")
        return Finding("not-proven", None, None, None,
                       f"its envelope is acceptable at chain position {record.position}")
    same = ((violation.rule, violation.seat, violation.index)
            == (record.rule, record.seat, record.position))
    verdict: Verdict = "proven" if same else "other"
    return Finding(verdict, violation.rule, violation.seat, violation.index, str(violation),
                   violation.suspects)


def _worded(number: int, record: Evidence, found: Finding) -> Finding:
    """``found`` with the sentence the report shows for it."""
    proof = f"proven by evidence record {number}"
    if found.verdict == "proven":
        if found.seat is None:
            text = f"{found.rule} at position {found.index}: {found.message}: {proof}"
        else:
            text = f"{describe(found.rule or '', found.seat, found.index)}: {proof}"
        return Finding("proven", found.rule, found.seat, found.index, text, found.suspects)
    if found.verdict == "other":
        by = f"seat {found.seat}" if found.seat is not None else "no seat"
        return Finding("other", found.rule, found.seat, found.index,
                       f"it claims {record.rule} by seat {record.seat}, but its envelope shows "
                       f"{found.rule} by {by} ({found.message})", found.suspects)
    return found
