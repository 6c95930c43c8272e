"""Transcript files: layout, crash safety (truncation at every offset), resume, JSON export."""

from __future__ import annotations

import hashlib
import json
import os
import threading
from pathlib import Path

import pytest

from p2pcards.records.transcript import (
    MAGIC,
    TranscriptError,
    TranscriptWriter,
    parse_transcript,
    read_transcript,
    to_json,
)
from p2pcards.wire import codec
from p2pcards.wire.chain import Chain
from p2pcards.wire.envelope import Payload, open_envelope, seal
from p2pcards.wire.framing import encode_frame
from p2pcards.wire.identity import IdentityKey

KEYS = [IdentityKey.from_bytes(hashlib.sha256(b"transcript %d" % i).digest()) for i in range(2)]
PUBLICS = [k.public for k in KEYS]
GENESIS = codec.pack(
    {"game": "scopa", "nonce": b"\x01\x02", "seats": [k.public.to_bytes() for k in KEYS]}
)
TABLE = hashlib.sha256(GENESIS).digest()


def envelopes(count: int) -> list[bytes]:
    """``count`` chained envelopes from alternating seats, as frame payloads."""
    chain = Chain(TABLE)
    result = []
    for seq in range(count):
        seat = seq % 2
        body = {"card": ["7D", "AC", "KB"][seq % 3], "raw": bytes([seq, 255])}
        envelope = seal(Payload(TABLE, seq, chain.head, seat, "play", body), KEYS[seat])
        received, payload = open_envelope(envelope.encode(), PUBLICS)
        chain.accept(payload, received)
        result.append(envelope.encode())
    return result


def write(path: Path, items: list[bytes], *, fsync: bool = False) -> None:
    with TranscriptWriter.create(path, GENESIS, fsync=fsync) as writer:
        for item in items:
            writer.append(item)


def test_layout_is_header_then_frames(tmp_path: Path) -> None:
    items = envelopes(3)
    path = tmp_path / "t.p2pt"
    write(path, items, fsync=True)
    expected = MAGIC + encode_frame(GENESIS) + b"".join(encode_frame(e) for e in items)
    assert path.read_bytes() == expected
    assert MAGIC == b"P2PCARDS-TRANSCRIPT 1\n"
    assert [f.name for f in tmp_path.iterdir()] == ["t.p2pt"]  # no temporary file left


def test_writers_racing_for_one_path_get_it_once(tmp_path: Path) -> None:
    """Peers of one table sharing a directory may pick one name at once: exactly one creates
    it, every other gets FileExistsError, and no writer is left appending to a lost file."""
    path = tmp_path / "same.p2pt"
    start = threading.Barrier(8)
    outcome: list[object] = []

    def create() -> None:
        start.wait()
        try:
            writer = TranscriptWriter.create(path, GENESIS, fsync=False)
        except FileExistsError as exc:
            outcome.append(exc)
            return
        writer.append(b"\x92won")
        writer.close()
        outcome.append("created")

    threads = [threading.Thread(target=create) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert outcome.count("created") == 1 and len(outcome) == 8
    assert read_transcript(path).envelopes == [b"\x92won"]
    assert [f.name for f in tmp_path.iterdir()] == ["same.p2pt"]


def test_read_round_trip(tmp_path: Path) -> None:
    items = envelopes(4)
    path = tmp_path / "t.p2pt"
    write(path, items)
    found = read_transcript(path)
    assert found.genesis == GENESIS
    assert found.table_id == TABLE
    assert found.envelopes == items
    assert not found.truncated and found.truncated_at is None
    first = len(MAGIC) + 4 + len(GENESIS)
    assert found.offsets[0] == first
    assert found.offsets[1] == first + 4 + len(items[0])
    assert found.end == path.stat().st_size


def test_genesis_only(tmp_path: Path) -> None:
    path = tmp_path / "t.p2pt"
    write(path, [])
    found = read_transcript(path)
    assert found.envelopes == [] and found.genesis == GENESIS and not found.truncated


def test_create_refuses_to_overwrite(tmp_path: Path) -> None:
    path = tmp_path / "t.p2pt"
    write(path, envelopes(1))
    with pytest.raises(FileExistsError):
        TranscriptWriter.create(path, GENESIS)


def test_each_append_is_on_disk_at_once(tmp_path: Path) -> None:
    path = tmp_path / "t.p2pt"
    items = envelopes(3)
    writer = TranscriptWriter.create(path, GENESIS, fsync=False)
    try:
        for index, item in enumerate(items):
            assert writer.append(item) == index
            assert read_transcript(path).envelopes == items[: index + 1]
        assert writer.count == 3
    finally:
        writer.close()
    with pytest.raises(ValueError):
        writer.append(items[0])


def test_truncation_at_every_offset_of_the_last_frame(tmp_path: Path) -> None:
    items = envelopes(3)
    path = tmp_path / "t.p2pt"
    write(path, items)
    size = path.stat().st_size
    last_start = size - 4 - len(items[-1])
    for cut in range(size - 1, last_start, -1):  # the file as a crash may leave it
        os.truncate(path, cut)
        found = read_transcript(path)
        assert found.truncated, cut
        assert found.truncated_at == found.end == last_start
        assert found.envelopes == items[:-1]
        assert found.size == cut
    # cutting exactly at a frame boundary is a complete, shorter transcript
    os.truncate(path, last_start)
    found = read_transcript(path)
    assert not found.truncated and found.envelopes == items[:-1]


def test_resume_after_crash_cuts_the_partial_frame_and_continues(tmp_path: Path) -> None:
    items = envelopes(4)
    path = tmp_path / "t.p2pt"
    write(path, items[:3])
    with open(path, "ab") as crash:  # half of the fourth frame made it to disk
        crash.write(encode_frame(items[3])[:10])
    with TranscriptWriter.resume(path, fsync=True) as writer:
        assert writer.existing is not None and writer.existing.truncated
        assert writer.count == 3
        assert writer.append(items[3]) == 3
    found = read_transcript(path)
    assert found.envelopes == items and not found.truncated


def test_resume_intact_file(tmp_path: Path) -> None:
    items = envelopes(3)
    path = tmp_path / "t.p2pt"
    write(path, items[:2])
    with TranscriptWriter.resume(path, fsync=False) as writer:
        writer.append(items[2])
    assert read_transcript(path).envelopes == items


def test_resume_checks_the_header(tmp_path: Path) -> None:
    path = tmp_path / "t.p2pt"
    path.write_bytes(b"not a transcript at all")
    with pytest.raises(TranscriptError, match="byte offset 0"):
        TranscriptWriter.resume(path)


@pytest.mark.parametrize(
    ("data", "fragment", "offset"),
    [
        (b"", "does not start with the header", 0),
        (b"P2PCARDS-TRANSCRIPT", "does not start with the header", 0),
        (b"GARBAGE" * 10, "does not start with the header", 0),
        (b"P2PCARDS-TRANSCRIPT 2\n" + encode_frame(GENESIS), "version '2'", 20),
        (MAGIC, "before its genesis record is complete", len(MAGIC)),
        (MAGIC + encode_frame(GENESIS)[:-1], "before its genesis record is complete",
         len(MAGIC) + 4 + len(GENESIS) - 1),
        (MAGIC + b"\x00\x00\x00\x00", "frame of the genesis record at byte offset 22 is empty",
         22),
        (MAGIC + encode_frame(GENESIS) + b"\xff\xff\xff\xff",
         f"envelope 0 at byte offset {22 + 4 + len(GENESIS)} claims 4294967295 bytes",
         22 + 4 + len(GENESIS)),
    ],
)
def test_bad_files(data: bytes, fragment: str, offset: int) -> None:
    with pytest.raises(TranscriptError) as info:
        parse_transcript(data)
    assert fragment in str(info.value)
    assert info.value.offset == offset


def test_json_export(tmp_path: Path) -> None:
    items = envelopes(3)
    path = tmp_path / "t.p2pt"
    write(path, items)
    found = read_transcript(path)
    document = json.loads(to_json(found))
    assert document["format"] == "P2PCARDS-TRANSCRIPT 1"
    assert document["table_id"] == TABLE.hex()
    assert document["genesis"]["game"] == "scopa"
    assert document["genesis"]["nonce"] == "0102"
    assert document["truncated"] is False and document["truncated_at"] is None
    assert [e["index"] for e in document["envelopes"]] == [0, 1, 2]
    for index, entry in enumerate(document["envelopes"]):
        envelope, payload = open_envelope(items[index], PUBLICS)
        assert entry["seq"] == payload.seq == index
        assert entry["seat"] == payload.seat
        assert entry["kind"] == "play"
        assert entry["version"] == 1
        assert entry["table_id"] == TABLE.hex()
        assert entry["prev"] == payload.prev.hex()
        assert entry["body"] == {"card": payload.body["card"], "raw": payload.body["raw"].hex()}
        assert entry["signature"] == envelope.signature.hex()
        assert entry["hash"] == hashlib.sha256(items[index]).hexdigest()
        assert entry["offset"] == found.offsets[index]
    assert document["envelopes"][1]["prev"] == document["envelopes"][0]["hash"]


def test_json_export_of_truncated_file(tmp_path: Path) -> None:
    items = envelopes(2)
    path = tmp_path / "t.p2pt"
    write(path, items)
    data = path.read_bytes()[:-3]
    document = json.loads(to_json(parse_transcript(data)))
    assert document["truncated"] is True
    assert document["truncated_at"] == len(data) + 3 - 4 - len(items[1])
    assert len(document["envelopes"]) == 1


def test_json_export_names_an_undecodable_envelope(tmp_path: Path) -> None:
    path = tmp_path / "t.p2pt"
    write(path, [envelopes(1)[0], b"\xc1garbage"])
    found = read_transcript(path)
    with pytest.raises(TranscriptError, match=f"envelope 1 at byte offset {found.offsets[1]}"):
        to_json(found)
