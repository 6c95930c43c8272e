"""The transcript file: a table's chain on disk, exactly as it was received.

Format (all lengths big-endian, frames as in :mod:`p2pcards.wire.framing`)::

    b"P2PCARDS-TRANSCRIPT 1\\n"          22-byte header (magic, format version, newline)
    frame 0: the genesis record         its canonical encoding; table_id = SHA-256 of these bytes
    frame 1 + i: the envelope of seq i  the frame payload exactly as received (or as sent)

    evidence records (optional)         after the last envelope: see :mod:`.evidence`

Frames are 4-byte length + payload, each payload 1 to :data:`MAX_FRAME_SIZE` bytes. An envelope
frame is a msgpack array; an evidence record is a msgpack map, so the first byte of a frame tells
them apart. Evidence records come only after every envelope frame: a peer writes them when it
refuses an envelope and stops. Nothing else is in the file: no index, no trailer, so appending
one frame is the only write a live table makes.

:class:`TranscriptWriter` creates a file atomically with its header and genesis, then appends each
envelope as the chain accepts it, flushing (and by default fsyncing) after each, so a crash loses
at most the frame being written. :func:`read_transcript` reports such a partial last frame as
truncation instead of failing; :meth:`TranscriptWriter.resume` cuts it off and continues.

Envelope frames are not decoded or verified here: that is :mod:`p2pcards.verify`'s job (with
:func:`p2pcards.wire.open_envelope` and the genesis keys). :func:`to_json` decodes without
verifying, for people and tools.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any, BinaryIO

from ..wire import codec
from ..wire.envelope import Envelope, Payload, envelope_hash
from ..wire.errors import ProtocolError
from ..wire.framing import MAX_FRAME_SIZE, PREFIX_SIZE, encode_frame
from .evidence import is_evidence_frame

__all__ = [
    "MAGIC",
    "TranscriptError",
    "TranscriptFile",
    "TranscriptWriter",
    "parse_transcript",
    "read_transcript",
    "to_json",
]

MAGIC = b"P2PCARDS-TRANSCRIPT 1\n"
_MAGIC_STEM = b"P2PCARDS-TRANSCRIPT "

StrPath = str | os.PathLike[str]


class TranscriptError(ProtocolError):
    """A transcript file that is not one: bad header, garbage frames, undecodable records.

    ``offset`` is the byte offset in the file where the problem starts.
    """

    def __init__(self, message: str, *, offset: int, index: int | None = None) -> None:
        super().__init__(message, index=index)
        self.offset = offset


@dataclass(frozen=True)
class TranscriptFile:
    """What :func:`read_transcript` found.

    ``envelopes[i]`` is the frame payload of the envelope with seq ``i`` (if the file is
    consistent), starting at byte ``offsets[i]`` (its length prefix). ``truncated`` is true when
    the file ends inside a frame; that frame starts at ``truncated_at``, and the bytes from there
    on are not part of the transcript.
    """

    genesis: bytes
    envelopes: list[bytes] = field(default_factory=list)
    offsets: list[int] = field(default_factory=list)
    evidence: list[bytes] = field(default_factory=list)
    """The evidence records after the chain (undecoded frames; see :mod:`.evidence`)."""
    evidence_offsets: list[int] = field(default_factory=list)
    truncated: bool = False
    truncated_at: int | None = None
    size: int = 0

    @property
    def table_id(self) -> bytes:
        """SHA-256 of the genesis record."""
        return hashlib.sha256(self.genesis).digest()

    @property
    def end(self) -> int:
        """Offset just after the last complete frame (where the next one belongs)."""
        return self.truncated_at if self.truncated_at is not None else self.size


def _check_header(data: bytes) -> None:
    if data.startswith(MAGIC):
        return
    if data.startswith(_MAGIC_STEM) and b"\n" in data[: len(MAGIC) + 8]:
        version = data[len(_MAGIC_STEM) : data.index(b"\n")].decode("ascii", "replace")
        raise TranscriptError(
            f"transcript format version {version!r} at byte offset {len(_MAGIC_STEM)} is not "
            "supported (this reader knows version 1)",
            offset=len(_MAGIC_STEM),
        )
    raise TranscriptError(
        "file does not start with the header 'P2PCARDS-TRANSCRIPT 1' at byte offset 0",
        offset=0,
    )


def parse_transcript(data: bytes, *, max_frame: int = MAX_FRAME_SIZE) -> TranscriptFile:
    """Split the bytes of a transcript file into genesis and envelope frames (see the module doc).

    Raises :class:`TranscriptError` for a bad header, a missing or partial genesis, an empty frame
    or a length prefix above ``max_frame``. A partial final envelope frame is reported in the
    result, not raised.
    """
    _check_header(data)
    size = len(data)
    pos = len(MAGIC)
    frames: list[bytes] = []
    offsets: list[int] = []
    truncated_at: int | None = None
    while pos < size:
        start = pos
        if size - pos < PREFIX_SIZE:
            truncated_at = start
            break
        length = int.from_bytes(data[pos : pos + PREFIX_SIZE], "big")
        what = "genesis record" if not frames else f"envelope {len(frames) - 1}"
        if length == 0:
            raise TranscriptError(f"frame of the {what} at byte offset {start} is empty",
                                  offset=start)
        if length > max_frame:
            raise TranscriptError(
                f"frame of the {what} at byte offset {start} claims {length} bytes, more than "
                f"the maximum of {max_frame}",
                offset=start,
            )
        pos += PREFIX_SIZE
        if size - pos < length:
            truncated_at = start
            break
        frames.append(data[pos : pos + length])
        offsets.append(start)
        pos += length
    if not frames:
        raise TranscriptError(
            f"transcript ends at byte offset {size} before its genesis record is complete",
            offset=size,
        )
    chain = 1
    while chain < len(frames) and not is_evidence_frame(frames[chain]):
        chain += 1
    for frame, start in zip(frames[chain:], offsets[chain:], strict=True):
        if not is_evidence_frame(frame):
            raise TranscriptError(
                f"envelope frame at byte offset {start} follows an evidence record (evidence "
                "records come after the whole chain)", offset=start)
    return TranscriptFile(
        genesis=frames[0],
        envelopes=frames[1:chain],
        offsets=offsets[1:chain],
        evidence=frames[chain:],
        evidence_offsets=offsets[chain:],
        truncated=truncated_at is not None,
        truncated_at=truncated_at,
        size=size,
    )


def read_transcript(path: StrPath, *, max_frame: int = MAX_FRAME_SIZE) -> TranscriptFile:
    """Read a transcript file; see :func:`parse_transcript` for what is checked and reported."""
    return parse_transcript(Path(path).read_bytes(), max_frame=max_frame)


def fsync_directory(path: Path) -> None:
    """Flush the directory ``path`` itself, so that a file just renamed into it survives a
    crash (where the platform has directory handles)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:  # pragma: no cover - platforms without directory handles
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(fd)


class TranscriptWriter:
    """Appends accepted envelopes to a transcript file, one complete frame per write.

    Make one with :meth:`create` (new file) or :meth:`resume` (continue an existing one). With
    ``fsync=True`` (the default) every append is forced to stable storage before it returns;
    with ``False`` it is only flushed to the operating system, which survives a crash of the
    process but not of the machine.
    """

    def __init__(self, file: BinaryIO, *, count: int, fsync: bool,
                 existing: TranscriptFile | None = None) -> None:
        self._file = file
        self._count = count
        self._fsync = fsync
        self._evidence = False
        self.existing = existing
        """For :meth:`resume`: what the file held when it was opened."""

    @classmethod
    def create(cls, path: StrPath, genesis: bytes, *, fsync: bool = True) -> TranscriptWriter:
        """Create ``path`` holding the header and ``genesis``; ``FileExistsError`` if it exists.

        The file appears complete or not at all: it is written under a temporary name of its own
        (so that two processes creating one path never share it), synced, then hard-linked to
        ``path``, which fails if ``path`` exists: of two writers racing for one name, exactly one
        gets it and the other gets ``FileExistsError``, never a file that silently vanishes.
        """
        target = Path(path)
        if target.exists():
            raise FileExistsError(f"transcript {target} already exists")
        temporary = target.with_name(f".{target.name}.{os.getpid()}-{os.urandom(4).hex()}.partial")
        try:
            with open(temporary, "xb") as out:
                out.write(MAGIC + encode_frame(genesis))
                out.flush()
                os.fsync(out.fileno())
            try:
                os.link(temporary, target)
            except FileExistsError:
                raise FileExistsError(f"transcript {target} already exists") from None
            except OSError:  # pragma: no cover - a file system without hard links
                if target.exists():
                    raise FileExistsError(f"transcript {target} already exists") from None
                os.replace(temporary, target)
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temporary)
        if fsync:
            fsync_directory(target.parent)
        return cls(open(target, "ab"), count=0, fsync=fsync)  # the writer closes it

    @classmethod
    def resume(cls, path: StrPath, *, fsync: bool = True) -> TranscriptWriter:
        """Open an existing transcript to append to, after checking it with
        :func:`read_transcript`; a partial final frame left by a crash is cut off first.

        :attr:`existing` holds what was read, so the caller can rebuild its chain.
        """
        found = read_transcript(path)
        if found.evidence:
            raise TranscriptError(
                f"transcript {path} ends with evidence of a violation: its table is over",
                offset=found.evidence_offsets[0])
        file = open(path, "r+b")  # noqa: SIM115 - owned by the writer
        try:
            if found.truncated:
                file.truncate(found.end)
                file.flush()
                os.fsync(file.fileno())
            file.seek(found.end)
        except BaseException:
            file.close()
            raise
        return cls(file, count=len(found.envelopes), fsync=fsync, existing=found)

    @property
    def count(self) -> int:
        """Envelopes in the file (the seq the next appended envelope should have)."""
        return self._count

    def append(self, envelope: bytes) -> int:
        """Write one envelope (its frame payload) and return its index in the transcript."""
        if not envelope:
            raise ValueError("an envelope is never empty")
        if self._evidence:
            raise ValueError("no envelope may follow an evidence record")
        self._file.write(encode_frame(envelope))
        self._file.flush()
        if self._fsync:
            os.fsync(self._file.fileno())
        self._count += 1
        return self._count - 1

    def append_evidence(self, record: bytes) -> None:
        """Write one evidence record (an encoded :class:`~.evidence.Evidence`) after the
        chain; from then on only evidence records may be appended."""
        if not is_evidence_frame(record):
            raise ValueError("an evidence record is a msgpack map")
        self._file.write(encode_frame(record))
        self._file.flush()
        if self._fsync:
            os.fsync(self._file.fileno())
        self._evidence = True

    def close(self) -> None:
        """Close the file; appending afterwards raises ``ValueError``."""
        self._file.close()

    def __enter__(self) -> TranscriptWriter:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


def jsonable(value: Any) -> Any:
    """Wire value -> JSON value: bytes become lower-case hex text."""
    if isinstance(value, bytes):
        return value.hex()
    if isinstance(value, list):
        return [jsonable(v) for v in value]
    if isinstance(value, dict):
        return {k: jsonable(v) for k, v in value.items()}
    return value


def to_json(transcript: TranscriptFile, *, indent: int | None = 2) -> str:
    """A JSON rendering of a transcript for people and tools. Nothing is verified.

    Top level: ``format``, ``table_id`` (hex), ``genesis`` (decoded), ``envelopes``,
    ``evidence`` (each ``record`` number, ``offset`` and the decoded ``content``), ``truncated``,
    ``truncated_at``. Each envelope: ``index``, ``offset``, ``seq``, ``seat``,
    ``kind``, ``version``, ``table_id``, ``prev``, ``body``, ``signature``, ``hash`` (SHA-256 of
    the envelope bytes). All bytes, including those inside ``body``, are written as hex text, so
    JSON alone does not tell bytes from text: the binary file is the record.
    Raises :class:`TranscriptError` naming the first record that cannot be decoded.
    """
    genesis_offset = len(MAGIC)
    try:
        genesis = codec.unpack(transcript.genesis, max_size=MAX_FRAME_SIZE)
    except ProtocolError as exc:
        raise TranscriptError(
            f"genesis record at byte offset {genesis_offset} cannot be decoded: {exc}",
            offset=genesis_offset,
        ) from None
    entries = []
    for index, (data, offset) in enumerate(
        zip(transcript.envelopes, transcript.offsets, strict=True)
    ):
        try:
            envelope = Envelope.decode(data)
            payload = Payload.decode(envelope.payload)
        except ProtocolError as exc:
            raise TranscriptError(
                f"envelope {index} at byte offset {offset} cannot be decoded: {exc}",
                offset=offset, index=index,
            ) from None
        entries.append({
            "index": index,
            "offset": offset,
            "seq": payload.seq,
            "seat": payload.seat,
            "kind": payload.kind,
            "version": payload.version,
            "table_id": payload.table_id.hex(),
            "prev": payload.prev.hex(),
            "body": jsonable(payload.body),
            "signature": envelope.signature.hex(),
            "hash": envelope_hash(envelope).hex(),
        })
    records = []
    for number, (data, offset) in enumerate(
        zip(transcript.evidence, transcript.evidence_offsets, strict=True)
    ):
        try:
            record = codec.unpack(data, max_size=MAX_FRAME_SIZE)
        except ProtocolError as exc:
            raise TranscriptError(
                f"evidence record {number} at byte offset {offset} cannot be decoded: {exc}",
                offset=offset,
            ) from None
        records.append({"record": number, "offset": offset, "content": jsonable(record)})
    document = {
        "format": MAGIC.decode("ascii").strip(),
        "table_id": transcript.table_id.hex(),
        "genesis": jsonable(genesis),
        "envelopes": entries,
        "evidence": records,
        "truncated": transcript.truncated,
        "truncated_at": transcript.truncated_at,
    }
    return json.dumps(document, indent=indent, ensure_ascii=False)
