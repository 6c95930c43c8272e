"""Evidence records, the fork probe, an altered genesis and several transcripts verified together:
the sans-IO parts, in memory, with real signatures and real proofs."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from attacks import decode, identity_of, recorded_match, resign
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pcards import cli, crypto
from p2pcards.crypto import DeterministicRandomness, ProofContext
from p2pcards.offline.memory import MatchRun
from p2pcards.records.evidence import (
    NEVER_PROVEN,
    Evidence,
    EvidenceError,
    ForkProbe,
    ProbeError,
    check_pair,
    find_conflicts,
    from_violation,
    is_evidence_frame,
)
from p2pcards.records.transcript import TranscriptError, TranscriptWriter, read_transcript, to_json
from p2pcards.seating.genesis import Genesis
from p2pcards.table import Table, Violation
from p2pcards.verify import UnreadableTranscript, verify_transcript
from p2pcards.verify.many import DifferentTables, verify_transcripts
from p2pcards.wire import (
    Chain,
    IdentityKey,
    Payload,
    PublicIdentity,
    codec,
    envelope_hash,
    open_envelope,
    seal,
)
from p2pcards.wire.envelope import ZERO_HASH


def run2() -> MatchRun:
    return recorded_match("briscola", "italian", 2, 1)


def first_of(run: MatchRun, kind: str, seat: int) -> int:
    return next(i for i, f in enumerate(run.frames)
                if (p := decode(f, run.genesis)[1]).kind == kind and p.seat == seat)


def write(path: Path, genesis: Genesis, frames: list[bytes],
          records: list[Evidence | bytes] | None = None) -> Path:
    with TranscriptWriter.create(path, genesis.encode(), fsync=False) as writer:
        for frame in frames:
            writer.append(frame)
        for record in records or []:
            writer.append_evidence(record.encode() if isinstance(record, Evidence) else record)
    return path


def bad_shuffle(run: MatchRun) -> tuple[int, bytes]:
    """Seat 0's first shuffle, re-signed with two output ciphertexts swapped."""
    k = first_of(run, "shuffle", 0)
    body = dict(decode(run.frames[k], run.genesis)[1].body)
    deck = list(body["deck"])
    deck[0], deck[1] = deck[1], deck[0]
    return k, resign(run.frames[k], run.genesis, identity_of(run.tables[0]),
                     body={**body, "deck": deck})


def other_key(run: MatchRun) -> tuple[int, bytes]:
    """Seat 0's first key envelope, and another validly signed one with a fresh valid key."""
    k = first_of(run, "key", 0)
    key = crypto.HandKey.generate(DeterministicRandomness(b"another key"))
    share = key.share(ProofContext(run.genesis.table_id, 0, 0, "key"))
    return k, resign(run.frames[k], run.genesis, identity_of(run.tables[0]),
                     body={"share": share.to_wire()})


# ------------------------------------------------------------------ records and the file


def test_record_round_trip_and_frame_kind() -> None:
    record = Evidence("bad-shuffle", 0, 9, (b"\x92abc",), "seat 0 ...")
    data = record.encode()
    assert is_evidence_frame(data) and not is_evidence_frame(b"\x92\xc4")
    assert Evidence.decode(data) == record
    nil = Evidence("fork", None, 3, (b"a", b"b"))
    assert Evidence.decode(nil.encode()) == nil


@pytest.mark.parametrize(("change", "words"), [
    ({"record": "other"}, "record = 'evidence'"),
    ({"seat": 9}, "seat must be"),
    ({"position": -1}, "position must be"),
    ({"envelopes": []}, "one or two byte strings"),
    ({"envelopes": [b"a", b"b", b"c"]}, "one or two byte strings"),
    ({"rule": ""}, "rule must be"),
    ({"message": 3}, "message must be text"),
])
def test_malformed_records_are_named(change: dict[str, Any], words: str) -> None:
    wire = {**Evidence("bad-key", 1, 2, (b"x",)).to_wire(), **change}
    with pytest.raises(EvidenceError, match=words):
        Evidence.decode(codec.pack(wire))


def test_evidence_frames_come_after_the_chain(tmp_path: Path) -> None:
    run = run2()
    k, forged = bad_shuffle(run)
    path = write(tmp_path / "t.p2pt", run.genesis, run.frames[:k],
                 [Evidence("bad-shuffle", 0, k, (forged,))])
    found = read_transcript(path)
    assert len(found.envelopes) == k and len(found.evidence) == 1
    assert json.loads(to_json(found))["evidence"][0]["content"]["rule"] == "bad-shuffle"
    with pytest.raises(TranscriptError, match="ends with evidence"):
        TranscriptWriter.resume(path)
    with TranscriptWriter.create(tmp_path / "u.p2pt", run.genesis.encode(), fsync=False) as w:
        w.append_evidence(Evidence("bad-shuffle", 0, 0, (forged,)).encode())
        with pytest.raises(ValueError, match="no envelope may follow"):
            w.append(run.frames[0])
    bad = path.read_bytes() + (len(run.frames[k]).to_bytes(4, "big") + run.frames[k])
    (tmp_path / "v.p2pt").write_bytes(bad)
    with pytest.raises(UnreadableTranscript, match="follows an evidence record"):
        verify_transcript(tmp_path / "v.p2pt")


# ------------------------------------------------------------------ the verifier checks them


def test_a_bad_shuffle_record_is_proven(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    run = run2()
    k, forged = bad_shuffle(run)
    path = write(tmp_path / "t.p2pt", run.genesis, run.frames[:k],
                 [Evidence("bad-shuffle", 0, k, (forged,), "claimed")])
    report = verify_transcript(path)
    assert report.status == "invalid"
    v = report.violation
    assert v is not None and (v.rule, v.seat, v.index, v.source) == ("bad-shuffle", 0, k,
                                                                     "evidence")
    assert v.message == f"seat 0 sent an invalid shuffle at position {k}: proven by evidence " \
                        "record 0"
    assert report.evidence[0].verdict == "proven"
    assert report.to_dict()["evidence"][0]["verdict"] == "proven"
    assert cli.main(["verify", str(path)]) == 1
    assert v.message in capsys.readouterr().out
    assert cli.main(["show", str(path)]) == 1  # show says what the record proves, too
    assert f"evidence record 0: proven: {report.evidence[0].message}" in capsys.readouterr().out
    # without the record the same file is merely incomplete: the record alone convicts
    assert verify_transcript(write(tmp_path / "plain.p2pt", run.genesis,
                                   run.frames[:k])).status == "incomplete"


def test_records_that_prove_nothing_are_reported_and_convict_nobody(tmp_path: Path) -> None:
    run = run2()
    k, forged = bad_shuffle(run)
    records: list[Evidence | bytes] = [
        Evidence("bad-shuffle", 0, k, (run.frames[k],)),  # the genuine shuffle: acceptable
        Evidence("bad-key", 0, k, (forged,)),             # true envelope, wrong claim
        Evidence("bad-shuffle", 0, k + 5, (forged,)),     # beyond the chain
        Evidence("equivocation", 0, k, (run.frames[0], run.frames[1])),  # two seats
        b"\x81\xa1x\x01",                                   # not an evidence record
    ]
    report = verify_transcript(write(tmp_path / "t.p2pt", run.genesis, run.frames[:k], records))
    assert report.status == "incomplete" and report.violation is None
    assert [e.verdict for e in report.evidence] == ["not-proven", "other", "not-proven",
                                                    "not-proven", "malformed"]
    assert report.evidence[1].rule == "bad-shuffle" and report.evidence[1].seat == 0
    assert "acceptable at chain position" in report.evidence[0].message
    assert len([n for n in report.notes if "does not prove what it claims" in n]) == 3
    # a record offered mid-chain that the table accepts does not disturb the replay
    whole = verify_transcript(write(tmp_path / "w.p2pt", run.genesis, run.frames,
                                    [Evidence("bad-shuffle", 0, k, (run.frames[k],))]))
    assert whole.status == "valid" and whole.evidence[0].verdict == "not-proven"


def test_equivocation_record(tmp_path: Path) -> None:
    run = run2()
    k, other = other_key(run)
    record = Evidence("equivocation", 0, k + 1, (run.frames[k], other))
    report = verify_transcript(write(tmp_path / "t.p2pt", run.genesis, run.frames[:k + 1],
                                     [record]))
    assert report.violation is not None
    assert (report.violation.rule, report.violation.seat, report.violation.index) == (
        "equivocation", 0, k)
    same = Evidence("equivocation", 0, k, (other, other))
    publics = [PublicIdentity.from_bytes(s.identity) for s in run.genesis.seats]
    assert check_pair(same, publics, run.genesis.table_id).verdict == "not-proven"


# ------------------------------------------------------------------ point 5: the genesis


def renamed(genesis: Genesis, seat: int, name: str) -> Genesis:
    seats = list(genesis.seats)
    seats[seat] = dataclasses.replace(seats[seat], name=name)
    return dataclasses.replace(genesis, seats=tuple(seats))


def test_an_altered_genesis_names_no_seat(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    run = run2()
    altered = renamed(run.genesis, 1, run.genesis.seats[1].name + "x")
    report = verify_transcript(write(tmp_path / "t.p2pt", altered, run.frames))
    assert report.status == "invalid"
    v = report.violation
    assert v is not None and (v.rule, v.seat, v.index, v.fingerprint) == (
        "genesis-mismatch", None, 0, None)
    assert "the genesis was altered or is not this table's" in v.message
    assert cli.main(["verify", str(tmp_path / "t.p2pt")]) == 1
    out = capsys.readouterr().out
    assert "violation by no seat: the genesis was altered or is not this table's" in out


def test_a_seat_shown_another_genesis_blames_nobody_live() -> None:
    run = run2()
    mine = renamed(run.genesis, 0, "someone else")
    table = Table(mine, seat=None)
    table.start()
    with pytest.raises(Violation) as info:
        table.receive(run.frames[0])
    assert (info.value.rule, info.value.seat) == ("genesis-mismatch", None)


# ------------------------------------------------------------------ the fork probe

KEYS = [IdentityKey.from_bytes(hashlib.sha256(b"probe seat %d" % i).digest()) for i in range(3)]
PUBLICS = [k.public for k in KEYS]
TABLE = hashlib.sha256(b"probe table").digest()


def env(seat: int, seq: int, prev: bytes, tag: str = "") -> bytes:
    return seal(Payload(TABLE, seq, prev, seat, "move", {"n": seq, "t": tag}),
                KEYS[seat]).encode()


def h(data: bytes) -> bytes:
    return envelope_hash(open_envelope(data, PUBLICS)[0])


def chain_of(frames: list[bytes]) -> Chain:
    chain = Chain(TABLE)
    for data in frames:
        envelope, payload = open_envelope(data, PUBLICS)
        chain.accept(payload, envelope)
    return chain


def branch(seats: list[int], tag: str, base: list[bytes] | None = None) -> list[bytes]:
    frames = list(base or [])
    for seat in seats[len(frames):]:
        frames.append(env(seat, len(frames), h(frames[-1]) if frames else ZERO_HASH, tag))
    return frames


def test_probe_finds_the_equivocation_at_once() -> None:
    common = branch([0, 1], "")
    ours = branch([0, 1, 2], "ours", common)
    theirs = branch([0, 1, 2, 0], "theirs", common)
    probe = ForkProbe(chain_of(ours), PUBLICS, theirs[3])
    assert probe.wanted == h(theirs[2])
    with pytest.raises(ProbeError, match="not the one asked for"):
        probe.feed(theirs[1])
    record = probe.feed(theirs[2])
    assert record is not None and (record.rule, record.seat) == ("equivocation", 2)
    assert check_pair(record, PUBLICS, TABLE).verdict == "proven"


def test_probe_walks_back_to_the_first_equivocation() -> None:
    common = branch([0], "")
    ours = branch([0, 1, 2], "ours", common)
    theirs = branch([0, 1, 0, 1], "theirs", common)  # seat 1 signed seq 1 twice
    probe = ForkProbe(chain_of(ours), PUBLICS, theirs[3])
    assert probe.feed(theirs[2]) is None and probe.wanted == h(theirs[1])
    record = probe.feed(theirs[1])
    assert record is not None and (record.rule, record.seat, record.envelopes) == (
        "equivocation", 1, (ours[1], theirs[1]))


def test_probe_meeting_the_common_prefix_names_the_out_of_turn_signer() -> None:
    common = branch([0, 1], "")
    ours = branch([0, 1, 2], "ours", common)
    theirs = branch([0, 1, 0, 1], "theirs", common)  # seat 0 spoke at seq 2, seat 2's turn
    probe = ForkProbe(chain_of(ours), PUBLICS, theirs[3])
    record = probe.feed(theirs[2])
    assert record is not None and (record.rule, record.seat, record.position) == (
        "out-of-turn", 0, 2)


# ------------------------------------------------------------------ several transcripts


def test_two_transcripts_name_the_equivocator(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    run = run2()
    k, other = other_key(run)
    a = write(tmp_path / "a.p2pt", run.genesis, run.frames[:k + 3])
    b = write(tmp_path / "b.p2pt", run.genesis, [*run.frames[:k], other])
    report = verify_transcripts([a, b])
    assert report.status == "invalid"
    assert [(e.seat, e.seq) for e in report.equivocations] == [(0, k)]
    views = report.equivocations[0].envelopes
    assert [(v.file, v.where, v.kind) for v in views] == [
        (str(a), f"envelope {k}", "key"), (str(b), f"envelope {k}", "key")]
    assert [r.status for r in report.reports] == ["incomplete", "incomplete"]
    assert cli.main(["verify", str(a), str(b), "--json"]) == 1
    document = json.loads(capsys.readouterr().out)
    assert document["equivocations"][0]["seat"] == 0
    assert len(document["transcripts"]) == 2
    same = verify_transcripts([a, a])
    assert same.status == "incomplete" and not same.equivocations


def test_transcripts_of_different_tables_are_refused(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    run = run2()
    a = write(tmp_path / "a.p2pt", run.genesis, run.frames[:5])
    b = write(tmp_path / "b.p2pt", renamed(run.genesis, 0, "other"), run.frames[:5])
    with pytest.raises(DifferentTables):
        verify_transcripts([a, b])
    assert cli.main(["verify", str(a), str(b)]) == 2
    assert "different tables" in capsys.readouterr().err


@settings(max_examples=30, deadline=None)
@given(picks=st.lists(st.tuples(st.integers(0, 2), st.integers(0, 3), st.integers(0, 2)),
                      max_size=12))
def test_find_conflicts_is_exactly_same_seat_same_seq_different_bytes(
        picks: list[tuple[int, int, int]]) -> None:
    pool = [env(seat, seq, ZERO_HASH, str(tag)) for seat, seq, tag in picks]
    found = {(c.seat, c.seq) for c in find_conflicts(pool, PUBLICS, TABLE)}
    expected = {(s, q) for s, q, _ in picks
                if len({t for s2, q2, t in picks if (s2, q2) == (s, q)}) > 1}
    assert found == expected


# ------------------------------------------------------------------ point 2 with real tables


def test_a_hub_equivocation_blames_no_honest_seat_and_the_probe_names_it(
        tmp_path: Path) -> None:
    """Seat 2 is shown another validly signed version of seat 0's key envelope (the same hand
    key, a fresh proof); seat 1's next envelope then forks at seat 2, which names nobody; the
    envelope seat 1's chain holds settles it: seat 0 equivocated."""
    run = recorded_match("briscola", "italian", 3, 2)
    k = first_of(run, "key", 0)
    secret = next(decode(f, run.genesis)[1].body["secret"] for f in run.frames
                  if decode(f, run.genesis)[1].kind == "reveal"
                  and decode(f, run.genesis)[1].seat == 0)
    key = crypto.HandKey(crypto.Scalar.from_bytes(secret, "secret"))
    share = key.share(ProofContext(run.genesis.table_id, 0, 0, "key"),
                      DeterministicRandomness(b"a fresh proof"))
    shown = resign(run.frames[k], run.genesis, identity_of(run.tables[0]),
                   body={"share": share.to_wire()})
    assert shown != run.frames[k]
    seat2 = Table(run.genesis, seat=None)
    seat2.start()
    for data in [*run.frames[:k], shown]:
        seat2.receive(data)  # the other version is acceptable on its own
    link = run.frames[k + 1]
    assert decode(link, run.genesis)[1].seat == 1
    with pytest.raises(Violation) as info:
        seat2.receive(link)
    fork = info.value
    assert (fork.rule, fork.seat, fork.index, fork.suspects) == ("fork", None, k + 1, (0, 1))
    assert [e.encode() for e in fork.evidence] == [shown, link]
    kept = from_violation(fork, link, k + 1)
    assert kept is not None and kept.envelopes == (shown, link)
    publics = [PublicIdentity.from_bytes(s.identity) for s in run.genesis.seats]
    probe = ForkProbe(seat2.chain, publics, link)
    settled = probe.feed(run.frames[k])  # what seat 1's chain (or an honest hub) answers
    assert settled is not None and (settled.rule, settled.seat) == ("equivocation", 0)
    path = write(tmp_path / "seat2.p2pt", run.genesis, seat2.frames, [kept, settled])
    report = verify_transcript(path)
    assert report.violation is not None
    assert (report.status, report.violation.rule, report.violation.seat) == (
        "invalid", "equivocation", 0)
    assert [e.verdict for e in report.evidence] == ["not-proven", "proven"]
    # the fork record alone proves nothing (a record cannot hold the other branch): it is
    # reported with its two signers, and the chain decides the verdict
    alone = verify_transcript(write(tmp_path / "fork.p2pt", run.genesis, seat2.frames, [kept]))
    assert (alone.status, alone.violation) == ("incomplete", None)
    fork_record = alone.evidence[0]
    assert (fork_record.verdict, fork_record.suspects, fork_record.index) == (
        "not-proven", (0, 1), k + 1)
    assert "verify the transcripts of seats on both branches together" in fork_record.message
    seat1 = write(tmp_path / "seat1.p2pt", run.genesis, run.frames[:k + 2])
    together = verify_transcripts([seat1, tmp_path / "fork.p2pt"])
    assert [(e.seat, e.seq) for e in together.equivocations] == [(0, k)]


def test_a_withheld_envelope_is_kept_but_proves_nothing(tmp_path: Path) -> None:
    """The hub withheld envelope k from this peer: the next one skips ahead. Its record is kept,
    but anyone can cut an honest transcript and append its next-but-one envelope, so it proves
    nothing and the verdict is the chain's."""
    run = run2()
    k = 6
    seat = Table(run.genesis, seat=None)
    seat.start()
    for data in run.frames[:k]:
        seat.receive(data)
    with pytest.raises(Violation) as info:
        seat.receive(run.frames[k + 1])
    signer = decode(run.frames[k + 1], run.genesis)[1].seat
    assert (info.value.rule, info.value.seat, info.value.suspects) == (
        "wrong-sequence", None, (signer,))
    record = from_violation(info.value, run.frames[k + 1], k)
    assert record is not None
    report = verify_transcript(write(tmp_path / "t.p2pt", run.genesis, run.frames[:k], [record]))
    assert (report.status, report.violation) == ("incomplete", None)
    assert report.evidence[0].verdict == "not-proven"
    assert report.evidence[0].message.startswith("no evidence record proves wrong-sequence: ")


def test_harmless_and_unsigned_envelopes_leave_no_record() -> None:
    for rule, seat in (("replay", 1), ("wrong-table", None), ("bad-envelope", None)):
        assert from_violation(Violation(rule, "x", seat=seat, index=3), b"\x92", 3) is None
    assert from_violation(Violation("bad-envelope", "x", seat=1, index=3), b"\x92", 3) is not None


# ------------------------------------------------------------------ records cannot frame


def test_a_replay_record_appended_to_a_valid_transcript_frames_nobody(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Records are not signed: anyone can append one. The record that once convicted seat 2 of
    a `replay` at position 5 leaves the whole match valid and is reported as not proven."""
    run = recorded_match("briscola", "italian", 3, 2)
    assert decode(run.frames[5], run.genesis)[1].seat == 2
    path = write(tmp_path / "t.p2pt", run.genesis, run.frames,
                 [Evidence("replay", 2, 100, (run.frames[5],), "seat 2 replayed envelope 5")])
    report = verify_transcript(path)
    assert (report.status, report.violation) == ("valid", None)
    record = report.evidence[0]
    assert (record.verdict, record.rule, record.seat) == ("not-proven", None, None)
    assert record.message == ("no evidence record proves replay: a replay is harmless: it is a "
                              "copy of an envelope the chain already holds")
    assert cli.main(["verify", str(path)]) == 0
    out = capsys.readouterr().out
    assert "VALID" in out and "evidence record 0" in out and "not proven" in out
    assert cli.main(["verify", "--json", str(path)]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["status"] == "valid" and document["violation"] is None
    assert document["evidence"][0]["verdict"] == "not-proven"
    assert cli.main(["show", str(path)]) == 0  # show tells the same
    assert "evidence record 0: not proven: no evidence record proves replay" in \
        capsys.readouterr().out


def test_a_record_proves_only_an_envelope_that_extends_the_chain_at_its_position(
        tmp_path: Path) -> None:
    run = run2()
    k, forged = bad_shuffle(run)
    moved = Evidence("bad-shuffle", 0, k + 2, (forged,))  # a true fault, offered elsewhere
    unlinked = Evidence("bad-shuffle", 0, k, (resign(forged, run.genesis, identity_of(
        run.tables[0]), prev=hashlib.sha256(b"another chain").digest()),))
    report = verify_transcript(write(tmp_path / "t.p2pt", run.genesis, run.frames[:k + 2],
                                     [moved, unlinked]))
    assert (report.status, report.violation) == ("incomplete", None)
    assert [e.verdict for e in report.evidence] == ["not-proven", "not-proven"]
    assert f"not an envelope for chain position {k + 2}" in report.evidence[0].message
    assert f"links to another envelope than the chain's at position {k - 1}" in \
        report.evidence[1].message
    # the same bad shuffle where it links is proven, also under a longer chain (the chain
    # holds the honest shuffle there; the signer signed the bad one over the same prefix)
    proven = verify_transcript(write(tmp_path / "p.p2pt", run.genesis, run.frames,
                                     [Evidence("bad-shuffle", 0, k, (forged,))]))
    assert proven.violation is not None
    assert (proven.status, proven.violation.rule, proven.violation.seat,
            proven.violation.index) == ("invalid", "bad-shuffle", 0, k)


def test_an_out_of_turn_envelope_on_the_chain_is_proven_by_its_record(tmp_path: Path) -> None:
    run = run2()
    k = 2
    seat = 1 - decode(run.frames[k], run.genesis)[1].seat
    forged = resign(run.frames[k + 1], run.genesis, identity_of(run.tables[seat]), seq=k,
                    prev=envelope_hash(open_envelope(run.frames[k - 1], [
                        PublicIdentity.from_bytes(s.identity) for s in run.genesis.seats])[0]))
    assert decode(forged, run.genesis)[1].seat == seat
    report = verify_transcript(write(tmp_path / "t.p2pt", run.genesis, run.frames,
                                     [Evidence("out-of-turn", seat, k, (forged,))]))
    assert report.violation is not None
    assert (report.violation.rule, report.violation.seat, report.violation.source) == (
        "out-of-turn", seat, "evidence")
    claimed_other = verify_transcript(write(tmp_path / "u.p2pt", run.genesis, run.frames,
                                            [Evidence("out-of-turn", 1 - seat, k, (forged,))]))
    assert claimed_other.status == "valid" and claimed_other.evidence[0].verdict == "other"


PREFIX = 40
RULES = sorted({"equivocation", "bad-shuffle", "bad-key", "bad-token", "bad-reveal",
                "out-of-turn", "wrong-kind", "bad-body", "not-in-hand", "card-mismatch",
                "result-mismatch", "after-match-end", "bad-sealed-token", "bad-key-share",
                "illegal-move", "must-follow-suit", "no-such-rule", *NEVER_PROVEN})


@settings(max_examples=40, deadline=None)
@given(rule=st.sampled_from(RULES), seat=st.none() | st.integers(0, 7),
       position=st.integers(0, PREFIX + 5),
       picks=st.lists(st.integers(0, 167), min_size=1, max_size=2))
def test_no_record_made_of_honest_envelopes_changes_the_verdict(
        rule: str, seat: int | None, position: int, picks: list[int]) -> None:
    """Whatever an evidence record made of a match's own envelopes claims, the verdict of a
    prefix of that match stays the chain's (incomplete, no violation) and the record proves
    nothing."""
    run = run2()
    record = Evidence(rule, seat, position, tuple(run.frames[i] for i in picks), "framed")
    with tempfile.TemporaryDirectory() as tmp:
        report = verify_transcript(write(Path(tmp) / "t.p2pt", run.genesis,
                                         run.frames[:PREFIX], [record]))
    assert (report.status, report.violation) == ("incomplete", None)
    assert report.evidence[0].verdict in ("not-proven", "unverifiable")
