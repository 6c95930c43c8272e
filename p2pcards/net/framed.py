"""Length-prefixed frames over a Trio stream, and msgpack messages carried in them.

:class:`FramedStream` wraps any :class:`trio.abc.Stream` (a TCP stream, or one end of
:func:`trio.testing.memory_stream_pair` in tests) and speaks the framing of
:mod:`p2pcards.wire.framing`: a 4-byte big-endian length, then the payload. The receiving side
enforces a hard maximum payload size, so a peer can never make us buffer more than
``max_size + 4`` bytes; a larger length prefix is rejected as soon as its four bytes are in.

Messages are frames whose payload is a canonical msgpack map with a text ``"type"`` entry
(see :mod:`.handshake` and :mod:`.session` for the types). Envelopes travel inside ``envelope``
messages, so one stream carries both protocol envelopes and control messages such as ``abort``.

Errors (all :class:`~.errors.NetError`, one sentence each): :class:`~.errors.PeerGone` when the
other side closed or broke the connection, :class:`~.errors.BadFrame` for an oversized frame,
a stream that ends inside a frame, or a payload that is not an acceptable message.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

import trio

from ..wire import codec
from ..wire.errors import DecodeError, EncodeError, FrameTooLarge, FrameTruncated
from ..wire.framing import MAX_FRAME_SIZE, FrameDecoder, encode_frame
from .errors import BadFrame, PeerGone

__all__ = ["FrameChannel", "FramedStream", "RECEIVE_CHUNK", "decode_message"]

RECEIVE_CHUNK = 64 * 1024
"""Bytes asked of the stream per read."""
HEAD_SIZE = 48
"""How many of the first received bytes a :class:`FramedStream` keeps as its ``head``."""


class FrameChannel(ABC):
    """A two-way channel of frames (byte strings) to one peer, and of messages carried in them.

    Contract: at most one task sends at a time and at most one task receives at a time (the
    two may run concurrently). After :meth:`receive` has returned ``None`` (clean end of stream)
    or raised, the receiving direction is finished; every later call raises again. Errors are
    :class:`~.errors.NetError` subclasses whose message names :attr:`label`.

    Implementations: :class:`FramedStream` (a TCP or in-memory stream) and
    :class:`~.relay_mux.RelayChannel` (a virtual connection through a relay room).
    """

    def __init__(self, *, max_size: int, label: str) -> None:
        self.max_size = max_size
        self.label = label
        """Who is at the other end, for error messages (e.g. ``"seat 2 (ABCD-...)"``)."""
        self.unread: list[dict[str, Any]] = []
        """Messages already received that :meth:`receive_message` returns first (what a
        finished match's reader took from the connection after the match was over)."""

    @abstractmethod
    async def send(self, payload: bytes) -> None:
        """Send one frame; :class:`PeerGone` if the channel is broken or closed."""

    @abstractmethod
    async def receive(self) -> bytes | None:
        """The next frame, or ``None`` at a clean end; :class:`BadFrame` or :class:`PeerGone`."""

    @abstractmethod
    async def aclose(self) -> None:
        """Close the channel (never raises for an already broken one)."""

    def relay_unreachable(self) -> tuple[str, float] | None:
        """When a relay carries this channel and cannot be reached now: its ``HOST:PORT`` and
        the seconds left before its reconnection attempts stop (the peer at the other end may
        be fine); ``None`` otherwise."""
        return None

    async def aclose_gracefully(self) -> None:
        """Close so that what was sent arrives: end our direction, then wait for the other side
        to end its own (discarding what it still sends) before closing. Callers bound it with
        a timeout; :meth:`aclose` after it is harmless. Never raises :class:`NetError`."""
        await self.aclose()

    def has_buffered(self) -> bool:
        """Whether a message already received waits to be read (no waiting, no socket)."""
        return bool(self.unread)

    async def send_message(self, message: dict[str, Any]) -> None:
        """Send ``message`` (a map with a text ``type``) as one canonical msgpack frame."""
        try:
            data = codec.pack(message)
        except EncodeError as exc:  # a bug on our side, never the peer's
            raise ValueError(f"cannot encode a {message.get('type')!r} message: {exc}") from None
        await self.send(data)

    async def receive_message(self) -> dict[str, Any] | None:
        """The next message, or ``None`` at a clean end of stream.

        Raises :class:`BadFrame` if the frame is not a canonical msgpack map with a text
        ``type``, naming the peer.
        """
        if self.unread:
            return self.unread.pop(0)
        frame = await self.receive()
        if frame is None:
            return None
        return decode_message(frame, self.max_size, self.label)


class FramedStream(FrameChannel):
    """Frames (:mod:`p2pcards.wire.framing`) and messages over one Trio stream."""

    def __init__(self, stream: trio.abc.Stream, *, max_size: int = MAX_FRAME_SIZE,
                 label: str = "the peer") -> None:
        super().__init__(max_size=max_size, label=label)
        self.stream = stream
        self._decoder = FrameDecoder(max_size)
        self._ready: list[bytes] = []
        self._ended = False
        self.head = b""
        """The first bytes the other side sent (at most :data:`HEAD_SIZE`), kept so that an
        answer that is not frames at all (an SSH banner, an HTTP reply) can be quoted."""

    # ------------------------------------------------------------------ frames

    async def send(self, payload: bytes) -> None:
        """Send one frame; :class:`PeerGone` if the connection is broken or closed."""
        data = encode_frame(payload, self.max_size)
        try:
            await self.stream.send_all(data)
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as exc:
            raise PeerGone(f"the connection to {self.label} is broken ({_reason(exc)})") from None

    async def receive(self) -> bytes | None:
        """The next frame's payload, or ``None`` when the stream ends cleanly between frames.

        Raises :class:`BadFrame` for an oversized or truncated frame and :class:`PeerGone` when
        the connection breaks.
        """
        while not self._ready:
            if self._ended:
                raise PeerGone(f"{self.label} has already closed the connection")
            try:
                chunk = await self.stream.receive_some(RECEIVE_CHUNK)
            except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as exc:
                self._ended = True
                raise PeerGone(f"the connection to {self.label} broke ({_reason(exc)})") from None
            if len(self.head) < HEAD_SIZE:
                self.head += bytes(chunk[:HEAD_SIZE - len(self.head)])
            if not chunk:
                self._ended = True
                try:
                    self._decoder.eof()
                except FrameTruncated as exc:
                    raise BadFrame(f"{self.label} closed the connection mid-frame: {exc}") from None
                return None
            try:
                self._ready.extend(self._decoder.feed(bytes(chunk)))
            except FrameTooLarge as exc:
                self._ended = True
                raise BadFrame(f"{self.label} sent an oversized frame: {exc}") from None
        return self._ready.pop(0)

    def has_buffered(self) -> bool:
        return bool(self.unread or self._ready)

    async def aclose(self) -> None:
        """Close the underlying stream (never raises for an already broken stream)."""
        await trio.aclose_forcefully(self.stream)

    async def aclose_gracefully(self) -> None:
        """Half-close (TCP FIN after everything sent), read and discard until the peer closes,
        then close. Closing a TCP socket with unread input makes the kernel send a reset, and a
        reset makes the peer's kernel drop what it had received but not yet read, such as an
        ``abort`` just sent: draining first prevents that."""
        stream = self.stream
        try:
            if isinstance(stream, trio.abc.HalfCloseableStream):
                await stream.send_eof()
            while not self._ended:
                chunk = await stream.receive_some(RECEIVE_CHUNK)
                if not chunk:
                    break
        except (trio.BrokenResourceError, trio.ClosedResourceError, trio.BusyResourceError,
                OSError):
            pass
        finally:
            self._ended = True
            await trio.aclose_forcefully(stream)


def decode_message(frame: bytes, max_size: int = MAX_FRAME_SIZE,
                   label: str = "the peer") -> dict[str, Any]:
    """Decode one message frame; :class:`BadFrame` naming ``label`` if it is not one."""
    try:
        message = codec.unpack(frame, max_size=max_size)
    except DecodeError as exc:
        raise BadFrame(f"{label} sent a frame that is not a valid message: {exc}") from None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise BadFrame(f"{label} sent a frame that is not a message map with a text type")
    return message


def _reason(exc: BaseException) -> str:
    if isinstance(exc, trio.ClosedResourceError):
        return "closed locally"
    text = str(exc) or type(exc).__name__
    cause = exc.__cause__
    if cause is not None and str(cause):
        text = str(cause)
    return text
