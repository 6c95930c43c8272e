"""The verifier on damaged files, the fuzzed envelope path of ``Table.receive``, and the
``verify`` / ``show`` commands."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from attacks import craft, decode, identity_of, recorded_match, write_transcript
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from p2pcards import cli
from p2pcards.crypto import SystemRandomness
from p2pcards.offline.memory import MatchRun, make_tables
from p2pcards.records.transcript import MAGIC, read_transcript
from p2pcards.table import KINDS, Table, Violation, replay_frames
from p2pcards.verify import UnreadableTranscript, verify_transcript

SETTINGS = settings(max_examples=25, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])


def short_match() -> MatchRun:
    """The shortest whole match at hand: 2-seat Briscola, two hands."""
    return recorded_match("briscola", "italian", 2, 1)


@pytest.fixture(scope="module")
def valid_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    run = short_match()
    return write_transcript(tmp_path_factory.mktemp("verify") / "match.p2pt", run.genesis,
                            run.frames)


def test_valid_report(valid_file: Path) -> None:
    report = verify_transcript(valid_file)
    run = short_match()
    assert report.status == "valid"
    assert report.path == str(valid_file)
    assert report.table_id == run.genesis.table_id.hex()
    assert len(report.hands) == 2  # the 'italian' preset plays exactly two hands
    assert report.scores == run.match_scores
    assert sum(report.scores) == 240  # 120 card points per Briscola hand
    # the TranscriptFile form gives the same verdict
    same = verify_transcript(read_transcript(valid_file))
    assert same.to_dict() | {"path": None} == report.to_dict() | {"path": None}


# ------------------------------------------------------------------ damaged files


@SETTINGS
@given(data=st.data())
def test_any_changed_byte_fails(valid_file: Path, tmp_path: Path, data: st.DataObject) -> None:
    original = valid_file.read_bytes()
    offset = data.draw(st.integers(0, len(original) - 1), label="offset")
    delta = data.draw(st.integers(1, 255), label="xor")
    damaged = bytearray(original)
    damaged[offset] ^= delta
    path = tmp_path / "damaged.p2pt"
    path.write_bytes(bytes(damaged))
    try:
        report = verify_transcript(path)
    except UnreadableTranscript:
        return
    assert report.status != "valid", f"byte {offset} changed and the file still verifies"


@SETTINGS
@given(data=st.data())
def test_truncation_is_incomplete(valid_file: Path, tmp_path: Path, data: st.DataObject) -> None:
    original = valid_file.read_bytes()
    genesis_end = read_transcript(valid_file).offsets[0]
    cut = data.draw(st.integers(0, len(original) - 1), label="cut")
    path = tmp_path / "cut.p2pt"
    path.write_bytes(original[:cut])
    if cut < genesis_end:  # inside the header or the genesis record
        with pytest.raises(UnreadableTranscript):
            verify_transcript(path)
        return
    report = verify_transcript(path)
    assert report.status == "incomplete"
    assert report.stop is not None and report.violation is None
    complete = sum(1 for o in read_transcript(valid_file).offsets if o < cut) - (
        0 if cut in read_transcript(valid_file).offsets else 1)
    assert report.verified == complete
    expected = replay_frames(short_match().genesis, short_match().frames[:complete]).expected
    assert report.stop.expected == expected
    assert report.stop.hands_complete == len(report.hands)


def test_chain_stopping_between_frames_is_incomplete(tmp_path: Path) -> None:
    run = short_match()
    path = write_transcript(tmp_path / "prefix.p2pt", run.genesis, run.frames[:40])
    report = verify_transcript(path)
    assert report.status == "incomplete"
    assert report.stop is not None
    assert report.stop.truncated_at is None
    assert report.stop.verified == 40
    assert report.stop.expected == replay_frames(run.genesis, run.frames[:40]).expected


def test_envelope_after_the_end_is_invalid(tmp_path: Path) -> None:
    run = short_match()
    last = run.frames[-1]
    seat = decode(last, run.genesis)[1].seat
    extra = craft(identity_of(run.tables[seat]), table_id=run.genesis.table_id,
                  seq=len(run.frames), prev=_hash(last), seat=seat, kind="accept", body={})
    path = write_transcript(tmp_path / "extra.p2pt", run.genesis, [*run.frames, extra])
    report = verify_transcript(path)
    assert report.status == "invalid"
    assert report.violation is not None
    assert (report.violation.rule, report.violation.seat, report.violation.index) == (
        "after-match-end", seat, len(run.frames))


def _hash(data: bytes) -> bytes:
    import hashlib

    return hashlib.sha256(data).digest()


@pytest.mark.parametrize(
    ("content", "words"),
    [(None, "does not exist"), (b"", "not a readable transcript"),
     (b"hello world, not a transcript", "not a readable transcript"),
     (MAGIC + b"\x00\x00\x00\x03abc", "genesis record")],
)
def test_unreadable_files(tmp_path: Path, content: bytes | None, words: str) -> None:
    path = tmp_path / "file.p2pt"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(UnreadableTranscript, match=words):
        verify_transcript(path)


# ------------------------------------------------------------------ fuzzing Table.receive


@pytest.fixture(scope="module")
def observers() -> list[tuple[Table, int]]:
    """Observer tables stopped before envelopes of every kind, with that envelope's index."""
    run = short_match()
    wanted: dict[str, int] = {}
    for index, frame in enumerate(run.frames):
        wanted.setdefault(decode(frame, run.genesis)[1].kind, index)
    assert set(wanted) == set(KINDS) - {"recover", "complain"}  # only after a dropout, a bad share
    return [(replay_frames(run.genesis, run.frames[:i]), i) for i in sorted(wanted.values())]


@settings(max_examples=200, deadline=None)
@given(data=st.binary(max_size=300))
def test_arbitrary_bytes_give_violation_only(observers: list[tuple[Table, int]],
                                             data: bytes) -> None:
    table, index = observers[-1]
    with pytest.raises(Violation) as info:
        table.receive(data)
    assert info.value.index == index


WIRE = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | st.text(max_size=8)
    | st.binary(max_size=40),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_signed_garbage_bodies_give_violation_only(observers: list[tuple[Table, int]],
                                                   data: st.DataObject) -> None:
    """Correctly signed, well-linked envelopes of the expected seat with arbitrary bodies."""
    run = short_match()
    table, index = data.draw(st.sampled_from(observers), label="moment")
    expected = table.expected
    assert expected is not None
    seat, kind = expected
    real = decode(run.frames[index], run.genesis)[1].body
    keys = sorted(real) + ["action", "position", "token", "secret", "deck", "proof"]
    body = data.draw(st.dictionaries(st.sampled_from(keys) | st.text(max_size=6), WIRE,
                                     max_size=4)
                     | st.builds(_mutate, st.just(real), st.sampled_from(keys), WIRE),
                     label="body")
    if body == real:
        return
    kind = data.draw(st.sampled_from([kind, *KINDS]), label="kind")
    envelope = craft(identity_of(run.tables[seat]), table_id=run.genesis.table_id, seq=index,
                     prev=table.chain.head, seat=seat, kind=kind, body=body)
    with pytest.raises(Violation) as info:
        table.receive(envelope)
    assert info.value.index == index
    assert info.value.seat == seat


def _mutate(body: dict[str, Any], key: str, value: Any) -> dict[str, Any]:
    return {**body, key: value}


# ------------------------------------------------------------------ the commands


def test_cli_verify_valid(valid_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["verify", str(valid_file)]) == 0
    out = capsys.readouterr().out
    assert "VALID" in out and "result:" in out
    for fingerprint in (s.fingerprint for s in verify_transcript(valid_file).seats):
        assert fingerprint in out


def test_cli_verify_json(valid_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["verify", "--json", str(valid_file)]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document == verify_transcript(valid_file).to_dict()
    assert document["status"] == "valid"
    assert [h["hand"] for h in document["hands"]] == [1, 2]  # as the text numbers them


def test_cli_verify_tampered(valid_file: Path, tmp_path: Path,
                             capsys: pytest.CaptureFixture[str]) -> None:
    data = bytearray(valid_file.read_bytes())
    offset = read_transcript(valid_file).offsets[5] + 30  # inside envelope 5's payload
    data[offset] ^= 1
    path = tmp_path / "tampered.p2pt"
    path.write_bytes(bytes(data))
    assert cli.main(["verify", str(path)]) == cli.EXIT_INVALID
    out = capsys.readouterr().out
    assert "INVALID" in out and "bad-signature" in out and "envelope 5" in out
    assert cli.main(["verify", "--json", str(path)]) == cli.EXIT_INVALID
    document = json.loads(capsys.readouterr().out)
    assert document["violation"]["index"] == 5


def test_cli_verify_truncated(valid_file: Path, tmp_path: Path,
                              capsys: pytest.CaptureFixture[str]) -> None:
    data = valid_file.read_bytes()
    path = tmp_path / "cut.p2pt"
    path.write_bytes(data[: len(data) - 10])
    assert cli.main(["verify", str(path)]) == 2
    out = capsys.readouterr().out
    assert "INCOMPLETE" in out and "waiting for seat" in out


@pytest.mark.parametrize("command", ["verify", "show"])
def test_cli_json_on_an_unreadable_file_is_a_json_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str) -> None:
    missing = tmp_path / "missing.p2pt"
    assert cli.main([command, "--json", str(missing)]) == 2
    captured = capsys.readouterr()
    assert json.loads(captured.out) == {"status": "unreadable",
                                        "error": f"transcript file {missing} does not exist"}
    assert captured.err.strip() == f"p2pcards: transcript file {missing} does not exist"


@pytest.mark.parametrize("command", ["verify", "show"])
def test_cli_unreadable_is_one_sentence(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                        command: str) -> None:
    assert cli.main([command, str(tmp_path / "missing.p2pt")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("p2pcards: ") and "does not exist" in err and "\n" not in err
    garbage = tmp_path / "garbage.p2pt"
    garbage.write_bytes(b"\x00" * 100)
    assert cli.main([command, str(garbage)]) == 2
    err = capsys.readouterr().err.strip()
    assert "not a readable transcript" in err and "\n" not in err


def test_cli_show_prints_every_hand(valid_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["show", str(valid_file)]) == 0
    out = capsys.readouterr().out
    run = short_match()
    report = verify_transcript(valid_file)
    names = ["seat0 [0]", "seat1 [1]"]
    for hand in report.hands:
        assert f"hand {hand.hand + 1}" in out
        gained = ", ".join(f"{p:+d} to {n}" for n, p in zip(names, hand.points, strict=True))
        match = " · ".join(f"{n} {m}" for n, m in zip(names, hand.match_scores, strict=True))
        assert f"  result: {gained}; match {match}\n" in out
    final = " · ".join(f"{n} {m}" for n, m in zip(names, report.scores, strict=True))
    assert report.winner_side is not None
    assert f"match over: {final}; {names[report.winner_side]} won" in out
    for leak in ("+(", "->", "values [", "points [", "side 0", "side 1"):
        assert leak not in out
    # every card of both hands' deals is printed, none left unknown after the key reveal
    assert "??" not in out
    plays = [line for line in out.splitlines() if "] seat " in line]
    actions = sum(1 for f in run.frames if decode(f, run.genesis)[1].kind == "action")
    assert len(plays) == actions


def test_cli_show_json_tells_the_same_story_as_the_text(
        valid_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["show", str(valid_file)]) == 0
    text = capsys.readouterr().out
    assert cli.main(["show", "--json", str(valid_file)]) == 0
    document = json.loads(capsys.readouterr().out)
    report = verify_transcript(valid_file)
    assert document["status"] == "valid" and document["game"] == "briscola"
    assert [h["hand"] for h in document["hands"]] == [h.hand + 1 for h in report.hands]
    assert [h["match_scores"] for h in document["hands"]] == [
        list(h.match_scores) for h in report.hands]
    assert document["match"]["scores"] == list(report.scores)
    for hand in document["hands"]:
        assert f"hand {hand['hand']}" in text
        for item in hand["story"]:
            if item["type"] == "play":
                assert not item["bot"]
                assert f"[{item['index']}] seat {item['seat']} " in text
                assert item["move"] in text
            else:
                assert item["type"] == "deal" and "??" not in item["cards"]
    plays = sum(1 for h in document["hands"] for i in h["story"] if i["type"] == "play")
    assert plays == sum(1 for line in text.splitlines() if "] seat " in line)


def test_table_constructor_rejects_wrong_identity() -> None:
    genesis, tables = make_tables("briscola", "italian", 2, seed=9)
    with pytest.raises(ValueError, match="not the key of seat 1"):
        Table(genesis, seat=1, identity=identity_of(tables[0]), x25519_private=bytes(32),
              rng=SystemRandomness())
