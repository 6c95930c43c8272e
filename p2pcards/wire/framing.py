"""Length-prefixed frames over a byte stream, sans-IO.

A frame is a 4-byte unsigned big-endian length ``n`` followed by ``n`` payload bytes. A frame may
be empty (``n = 0``); what the payload must contain is up to the layer above. Every stream has a
maximum frame size (payload bytes, prefix excluded); a length prefix above it is a protocol
violation detected as soon as the four prefix bytes are in, before any payload is buffered.

The decoder owns no socket: feed it whatever the transport delivered, in pieces of any size, and it
returns the frames completed so far.
"""

from __future__ import annotations

from .errors import FrameTooLarge, FrameTruncated

__all__ = [
    "MAX_FRAME_SIZE",
    "PREFIX_SIZE",
    "encode_frame",
    "FrameDecoder",
    "FrameTooLarge",
    "FrameTruncated",
]

MAX_FRAME_SIZE = 1024 * 1024
"""Default maximum payload of one frame: 1 MiB. The largest message foreseen, a shuffle of the
108-card French deck, holds 108 ciphertexts of two 32-byte points (about 7 KiB) and a shuffle
proof of roughly five 32-byte elements per card (about 17 KiB): far below the limit, which still
bounds what one peer can make another hold."""

PREFIX_SIZE = 4
_PREFIX_LIMIT = 2**32 - 1


def encode_frame(payload: bytes, max_size: int = MAX_FRAME_SIZE) -> bytes:
    """Return ``payload`` with its 4-byte big-endian length prefix.

    Raises :class:`FrameTooLarge` if the payload is longer than ``max_size`` (so that we never send
    what the other side must reject).
    """
    size = len(payload)
    if size > max_size or size > _PREFIX_LIMIT:
        raise FrameTooLarge(f"frame payload of {size} bytes exceeds the maximum of {max_size}")
    return size.to_bytes(PREFIX_SIZE, "big") + payload


class FrameDecoder:
    """Incremental frame parser for one direction of one stream.

    :meth:`feed` accepts any chunking of the stream and returns the payloads of the frames it
    completes, in order. Internally it holds at most ``max_size + 4`` bytes: the prefix and the
    payload of the one incomplete frame. Once it has raised :class:`FrameTooLarge` the stream is
    unusable, and every later :meth:`feed` raises the same error again.
    """

    def __init__(self, max_size: int = MAX_FRAME_SIZE) -> None:
        if not 0 <= max_size <= _PREFIX_LIMIT:
            raise ValueError(f"max_size must be between 0 and {_PREFIX_LIMIT}, not {max_size}")
        self.max_size = max_size
        self._prefix = bytearray()
        self._need: int | None = None  # payload length of the current frame, once known
        self._body = bytearray()
        self._offset = 0  # stream offset of the next byte to be fed
        self._error: FrameTooLarge | None = None

    @property
    def pending(self) -> int:
        """Bytes held for the incomplete frame (prefix included); 0 at a frame boundary."""
        return len(self._prefix) + len(self._body) + (PREFIX_SIZE if self._need is not None else 0)

    @property
    def offset(self) -> int:
        """Total bytes fed so far (the stream offset of the next byte)."""
        return self._offset

    def feed(self, data: bytes) -> list[bytes]:
        """Consume ``data``; return the payloads of all frames completed by it.

        Raises :class:`FrameTooLarge`, naming the stream offset of the prefix, when a length
        prefix exceeds ``max_size``.
        """
        if self._error is not None:
            raise self._error
        frames: list[bytes] = []
        view = memoryview(data)
        pos = 0
        end = len(view)
        while pos < end:
            if self._need is None:
                take = min(PREFIX_SIZE - len(self._prefix), end - pos)
                self._prefix += view[pos : pos + take]
                pos += take
                if len(self._prefix) < PREFIX_SIZE:
                    break
                length = int.from_bytes(self._prefix, "big")
                prefix_at = self._offset + pos - PREFIX_SIZE
                self._prefix.clear()
                if length > self.max_size:
                    self._offset += pos
                    self._error = FrameTooLarge(
                        f"frame length prefix {length} at stream offset {prefix_at} exceeds "
                        f"the maximum of {self.max_size}"
                    )
                    raise self._error
                self._need = length
            need = self._need
            have = len(self._body)
            if have == 0 and end - pos >= need:
                frames.append(bytes(view[pos : pos + need]))
                pos += need
                self._need = None
                continue
            take = min(need - have, end - pos)
            self._body += view[pos : pos + take]
            pos += take
            if len(self._body) == need:
                frames.append(bytes(self._body))
                self._body = bytearray()
                self._need = None
        self._offset += pos
        return frames

    def eof(self) -> None:
        """Declare the end of the stream; raise :class:`FrameTruncated` if it ends mid-frame."""
        if self.pending:
            raise FrameTruncated(
                f"stream ended at offset {self._offset} inside a frame "
                f"({self.pending} bytes of it received)"
            )
