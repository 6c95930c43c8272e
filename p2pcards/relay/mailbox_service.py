"""The relay's mailbox service over Trio: serves the connections whose first frame is a mailbox
request (``mb-open``, ``mb-claim``), with the state of :mod:`.mailbox`.

Each mailbox connection runs a reader (the side's ``mb-msg`` frames, counted and forwarded to
the other side) and a writer (its own small queue: the relay's answers, the other side's bodies
and finally the reason the mailbox ended, which the server sends as an ``error`` before closing).
The queue cannot overflow: it holds at most the other side's ``max_messages`` bodies and two
notices. The server's housekeeping calls :meth:`MailboxService.expire` every second.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable
from typing import Protocol

import trio

from ..wire.errors import FrameTooLarge
from ..wire.framing import FrameDecoder, encode_frame
from .addresses import peer_address
from .errors import RelayProtocolError
from .mailbox import (
    HOST,
    JOINER,
    MESSAGE_OVERHEAD,
    Mailbox,
    MailboxClaim,
    MailboxLimits,
    MailboxRefused,
    MailboxRegistry,
    decode_message,
    decode_request,
    encode_claimed,
    encode_message,
    encode_plate,
)
from .stats import log_line

__all__ = ["MailboxService", "MailboxConnection"]

WRITE_SECONDS = 10.0
"""Longest one write of a mailbox message may block before the reader is cut as slow."""


class MailboxConnection(Protocol):
    """What the service needs of the server's connection: its stream and peer address; the
    server's ``cut`` ends it with an ``error`` unless ``sending`` says a write was interrupted."""

    stream: trio.SocketStream
    peer: str
    sending: bool


class _End:
    """One side of a mailbox: its connection and its outgoing queue (bytes to write, or a
    ``(reason, message)`` that ends the connection after what was queued before it)."""

    def __init__(self, conn: MailboxConnection, capacity: int) -> None:
        self.conn = conn
        self.send, self.queue = trio.open_memory_channel[bytes | tuple[str, str]](capacity)

    def put(self, item: bytes | tuple[str, str]) -> None:
        # the side may be gone already, or its queue full of what it will never read
        with contextlib.suppress(trio.WouldBlock, trio.ClosedResourceError,
                                 trio.BrokenResourceError):
            self.send.send_nowait(item)


class MailboxService:
    """The mailboxes of one relay. :meth:`serve` runs one connection to its end."""

    def __init__(self, limits: MailboxLimits, *, log: Callable[[str], None],
                 cut: Callable[[MailboxConnection, str, str], None]) -> None:
        self.limits = limits
        self.registry = MailboxRegistry(limits)
        self.log = log
        self._cut = cut
        self._ends: dict[Mailbox, list[_End | None]] = {}

    def _address(self, conn: MailboxConnection) -> str:
        return peer_address(conn.peer)

    async def serve(self, conn: MailboxConnection, first: bytes) -> None:
        """Serve a connection whose first frame is ``first``; returns when it ends (the reason
        set through ``cut``, or the client left)."""
        now = trio.current_time()
        try:
            request = decode_request(first)
            if isinstance(request, MailboxClaim):
                box = self.registry.claim(self._address(conn), request.plate, now)
                side = JOINER
            else:
                box = self.registry.open(self._address(conn), request.ttl, now, request.table)
                side = HOST
        except (RelayProtocolError, MailboxRefused) as exc:
            self.log(log_line("mailbox-refused", peer=conn.peer, reason=exc.reason))
            self._cut(conn, exc.reason, exc.message)
            return
        end = _End(conn, self.limits.max_messages + 3)
        if side == HOST:
            self._ends[box] = [end, None]
            end.put(encode_plate(box.plate, max(1, math.floor(box.expires - now))))
            self.log(log_line("mailbox-opened", peer=conn.peer, plate=box.plate,
                              table=box.table.hex()[:12], ttl=round(box.expires - now)))
        else:
            ends = self._ends.get(box)
            if ends is None:  # the host's task has not registered yet: cannot happen in Trio
                self.registry.close(box)
                self._cut(conn, "code-unknown", "the code's host is gone")
                return
            ends[JOINER] = end
            host_end = ends[HOST]
            assert host_end is not None
            host_end.put(encode_claimed())
            end.put(encode_claimed())
            self.log(log_line("mailbox-claimed", peer=conn.peer, plate=box.plate))
        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self._writer, end)
                await self._reader(conn, box, side)
                nursery.cancel_scope.cancel()
        finally:
            self._leave(box, side)

    def _leave(self, box: Mailbox, side: int) -> None:
        """``side`` left: the mailbox is used (or forgotten) and the other side is told after
        what was already queued for it."""
        self.registry.close(box)
        ends = self._ends.get(box)
        if ends is None:
            return
        ends[side] = None
        other = ends[1 - side]
        if other is not None:
            who = "the code's host" if side == HOST else "the joiner"
            other.put(("mailbox-closed", f"{who} left the mailbox"))
        else:
            self._ends.pop(box, None)

    async def _reader(self, conn: MailboxConnection, box: Mailbox, side: int) -> None:
        limit = self.limits.max_message
        decoder = FrameDecoder(limit + MESSAGE_OVERHEAD)
        while True:
            data = await conn.stream.receive_some(4096)
            if not data:
                return
            try:
                frames = decoder.feed(data)
                for frame in frames:
                    body = decode_message(frame, limit)
                    self.registry.message(box, side, body)
                    ends = self._ends.get(box)
                    other = ends[1 - side] if ends is not None else None
                    if other is not None:
                        other.put(encode_message(body))
            except FrameTooLarge as exc:
                self._cut(conn, "frame-too-large", str(exc))
                return
            except (RelayProtocolError, MailboxRefused) as exc:
                self._cut(conn, exc.reason, exc.message)
                return

    async def _writer(self, end: _End) -> None:
        conn = end.conn
        async for item in end.queue:
            if isinstance(item, tuple):
                self._cut(conn, *item)
                return
            conn.sending = True
            with trio.move_on_after(WRITE_SECONDS) as scope:
                await conn.stream.send_all(encode_frame(item))
            if scope.cancelled_caught:
                self._cut(conn, "slow-reader", f"a write blocked for over {WRITE_SECONDS} s")
                return
            conn.sending = False

    def expire(self, now: float) -> None:
        """End the mailboxes whose time is over (called by the server's housekeeping)."""
        for box, reason in self.registry.expire(now):
            ends = self._ends.get(box)
            if reason == "forgotten" or ends is None:
                continue
            message = ("the code's time is over" if reason == "code-expired" else
                       f"the exchange took over {self.limits.exchange_timeout:g} s")
            for end in ends:
                if end is not None:
                    end.put((reason, message))
            self.log(log_line("mailbox-ended", plate=box.plate, reason=reason))

    @property
    def held(self) -> int:
        """Nameplates held now (waiting, paired or used)."""
        return len(self.registry.plates)
