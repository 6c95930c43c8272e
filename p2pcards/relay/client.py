"""A Trio client of the relay: one member's connection to one room, with reconnect and catch-up.

Usage::

    conn = await connect("relay.example", 7447, invite_code, identity_key)
    await conn.send(envelope_bytes)          # forwarded verbatim to every other member
    delivery = await conn.receive()          # Delivery(index, slot, payload) from another member
    await conn.aclose()

Contract: one task calls :meth:`RelayConnection.receive` in a loop (it also sends keepalives and
re-establishes a broken connection); :meth:`~RelayConnection.send` may be called from any task.
Deliveries come in room-index order with no gaps, each exactly once, across reconnects: the
client asks the relay for the frames after :attr:`~RelayConnection.last_index`, and frames it
sent that the relay had not yet acknowledged are sent again once the catch-up is complete (the
relay acknowledges a member's own frames in index order, so nothing is sent twice).

Errors: :class:`~.errors.RelayRejected` (the relay refused or closed the room, with its reason;
not retried), :class:`~.errors.RelayUnavailable` (could not reconnect),
:class:`~.errors.RelayProtocolError` (the relay broke the protocol).
"""

from __future__ import annotations

import contextlib
from collections import deque

import trio

from ..wire.errors import FrameTooLarge, FrameTruncated
from ..wire.framing import MAX_FRAME_SIZE, FrameDecoder, encode_frame
from ..wire.identity import IdentityKey
from .errors import RelayProtocolError, RelayRejected, RelayUnavailable
from .handshake import ClientHandshake
from .limits import FRAME_OVERHEAD
from .messages import Delivery, Welcome, decode_relay_message
from .shared_port import shared_port_stream

__all__ = ["RelayConnection", "connect", "Delivery"]

WRITE_SECONDS = 30.0
"""Longest one write to the relay may block (the relay may be throttling us) before the
connection is given up and re-established."""

_BROKEN = (trio.BrokenResourceError, trio.ClosedResourceError, OSError, FrameTruncated)


RECONNECT_WINDOW = 90.0
"""Default seconds a broken connection keeps being re-established before the relay is given
up (``p2pcards host/join --relay-patience``)."""
RECONNECT_DELAY_CAP = 5.0
"""Longest wait between two reconnection attempts (the backoff doubles up to it)."""


async def connect(host: str, port: int, room: bytes, identity_key: IdentityKey, *,
                  since: int = -1, max_payload: int = MAX_FRAME_SIZE, keepalive: float = 60.0,
                  connect_timeout: float = 10.0, reconnect_window: float = RECONNECT_WINDOW,
                  reconnect_delay: float = 0.2,
                  local_address: str | None = None, local_port: int | None = None,
                  see: bool = False) -> RelayConnection:
    """Connect to the relay at ``host:port``, prove ``identity_key`` and join ``room``.

    ``since`` is the last room index already held (-1 for none). A connection that breaks later
    is re-established with exponential backoff (from ``reconnect_delay`` up to
    :data:`RECONNECT_DELAY_CAP`) for ``reconnect_window`` seconds. Raises
    :class:`~.errors.RelayRejected` if the relay refuses, :class:`~.errors.RelayUnavailable` if
    it cannot be reached. ``local_address`` binds the client's side of every connection to
    that network address (default: the system chooses). ``local_port`` binds it to that port,
    shared (``SO_REUSEADDR``) with the hole punching of :mod:`p2pcards.net.punch`, when it can;
    with ``see`` the relay tells the address it sees (:attr:`RelayConnection.observed`).
    """
    conn = RelayConnection(host, port, room, identity_key, since=since, max_payload=max_payload,
                           keepalive=keepalive, connect_timeout=connect_timeout,
                           reconnect_window=reconnect_window,
                           reconnect_delay=reconnect_delay, local_address=local_address,
                           local_port=local_port, see=see)
    try:
        await conn._open()
    except _BROKEN + (trio.TooSlowError,) as exc:
        raise RelayUnavailable("unreachable", f"cannot reach the relay at {host}:{port}: "
                               f"{exc or type(exc).__name__}") from None
    return conn


class RelayConnection:
    """A member's connection to a room (see the module docstring for the contract)."""

    def __init__(self, host: str, port: int, room: bytes, identity_key: IdentityKey, *,
                 since: int, max_payload: int, keepalive: float, connect_timeout: float,
                 reconnect_window: float, reconnect_delay: float,
                 local_address: str | None = None, local_port: int | None = None,
                 see: bool = False) -> None:
        ClientHandshake(room, identity_key, since, max_payload)  # validates the arguments
        self.local_address = local_address
        self.local_port = local_port
        self.see = see
        self.observed: str | None = None
        """``HOST:PORT`` the relay last said it sees this member's connection come from."""
        self.host, self.port, self.room = host, port, room
        self.identity_key = identity_key
        self.max_payload = max_payload
        self.keepalive = keepalive
        self.connect_timeout = connect_timeout
        self.reconnect_window = reconnect_window
        self.reconnect_delay = reconnect_delay
        self.last_index = since
        """The highest room index held: received from others, or acknowledged as ours."""
        self.slot = -1
        """This member's slot in the room (its order of first arrival), -1 before welcome."""
        self.reconnects = 0
        self.unreachable_until: float | None = None
        """While :meth:`reconnect` tries to reach the relay again: the Trio time at which it
        gives up; ``None`` while connected."""
        self.first_new_index: int | None = None
        """The room's next index when this connection was first welcomed: frames before it
        were sent before this member (this process) was in the room."""
        self._stream: trio.SocketStream | None = None
        self._decoder = FrameDecoder(max_payload + FRAME_OVERHEAD)
        self._pending: deque[Delivery] = deque()
        self._outbox: deque[bytes] = deque()  # sent or to send, not yet acknowledged
        self._written = 0  # outbox entries already written on the current connection
        self._writable = False  # false until the catch-up after (re)connecting is complete
        self._catch_up_to = -1
        self._lock = trio.Lock()
        self._closed = False
        self._early: deque[bytes] = deque()  # frames read during the handshake, not yet used
        self._acknowledged = trio.lowlevel.ParkingLot()  # woken when the outbox empties

    # ---------------------------------------------------------------- public

    async def send(self, payload: bytes) -> None:
        """Queue ``payload`` for every other member and write it if connected.

        It is kept until the relay acknowledges it, and written again after a reconnect if
        needed; a broken connection here is not an error (:meth:`receive` reconnects).
        """
        if self._closed:
            raise trio.ClosedResourceError("the relay connection is closed")
        if len(payload) > self.max_payload:
            raise ValueError(f"payload of {len(payload)} bytes exceeds the maximum of "
                             f"{self.max_payload}")
        self._outbox.append(payload)
        await self._pump()

    async def receive(self) -> Delivery:
        """The next frame from another member, in room-index order (reconnects as needed)."""
        while not self._pending:
            if self._closed:
                raise trio.ClosedResourceError("the relay connection is closed")
            if self._stream is None:
                await self.reconnect()
                continue
            stream = self._stream
            try:
                data = b""
                with trio.move_on_after(self.keepalive) as scope:
                    data = await stream.receive_some(64 * 1024)
                if scope.cancelled_caught:
                    async with self._lock:
                        await stream.send_all(encode_frame(b""))
                    continue
                if not data:
                    self._decoder.eof()
                    raise trio.BrokenResourceError("the relay closed the connection")
                for payload in self._decoder.feed(data):
                    self._on_message(decode_relay_message(payload, self.max_payload))
            except _BROKEN:
                await self._drop()
                continue
            except FrameTooLarge as exc:
                raise RelayProtocolError("bad-message", f"relay frame too large: {exc}"
                                         ) from None
            await self._maybe_caught_up()
        return self._pending.popleft()

    @property
    def unacknowledged(self) -> int:
        """Frames sent (or queued) that the relay has not acknowledged yet."""
        return len(self._outbox)

    async def drain(self) -> None:
        """Wait until the relay has acknowledged every frame sent so far.

        Acknowledgements arrive through :meth:`receive`, so another task must be receiving.
        Bound the wait with a Trio timeout: a relay that never answers blocks it forever.
        """
        while self._outbox:
            await self._acknowledged.park()

    async def reconnect(self) -> None:
        """Drop the current connection (if any) and connect again, asking for the frames after
        :attr:`last_index`; retries with exponential backoff for :attr:`reconnect_window`
        seconds, then :class:`RelayUnavailable`. A relay that answers but no longer has the
        room (it restarted, and a relay keeps rooms in memory only) is
        :class:`~.errors.RelayRejected` at once, with a sentence that says so."""
        await self._drop()
        delay = self.reconnect_delay
        last: BaseException | None = None
        deadline = trio.current_time() + self.reconnect_window
        self.unreachable_until = deadline
        while True:
            try:
                await self._open()
                self.reconnects += 1
                self.unreachable_until = None
                return
            except RelayRejected as exc:
                if exc.reason == "room-unknown":
                    raise RelayRejected("room-unknown", "it restarted and lost this room, "
                                        "with the frames it held") from None
                raise
            except _BROKEN + (trio.TooSlowError,) as exc:
                last = exc
                await self._drop()
            left = deadline - trio.current_time()
            if left <= 0:
                break
            await trio.sleep(min(delay, left))
            delay = min(delay * 2, RECONNECT_DELAY_CAP)
        raise RelayUnavailable("unreachable", f"cannot reconnect to the relay at "
                               f"{self.host}:{self.port} within {self.reconnect_window:g} "
                               f"seconds: {last or 'no answer'}")

    async def abort(self) -> None:
        """Drop the TCP connection without closing the membership (as a network failure
        would); the next :meth:`receive` reconnects and catches up."""
        await self._drop()

    async def aclose(self) -> None:
        """Leave: close the connection for good."""
        self._closed = True
        await self._drop()

    # ---------------------------------------------------------------- internals

    async def _drop(self) -> None:
        stream, self._stream = self._stream, None
        self._writable = False
        if stream is not None:
            await stream.aclose()

    async def _open(self) -> None:
        handshake = ClientHandshake(self.room, self.identity_key, self.last_index,
                                    self.max_payload, see=self.see)
        self._decoder = FrameDecoder(self.max_payload + FRAME_OVERHEAD)
        self._early = deque()
        with trio.fail_after(self.connect_timeout):
            stream = await self._dial()
            try:
                await stream.send_all(encode_frame(handshake.hello()))
                challenge = await self._next_frame(stream)
                await stream.send_all(encode_frame(handshake.on_challenge(challenge)))
                welcome = handshake.on_welcome(await self._next_frame(stream))
            except BaseException:
                await stream.aclose()
                raise
        if self.slot not in (-1, welcome.slot):
            await stream.aclose()
            raise RelayProtocolError("bad-message", f"the relay gave slot {welcome.slot} after "
                                     f"a reconnect, not {self.slot}")
        self.slot = welcome.slot
        self.observed = welcome.seen or self.observed
        if self.first_new_index is None:
            self.first_new_index = welcome.next
        self._stream = stream
        self._written = 0
        self._writable = False
        self._catch_up_to = welcome.next - 1
        early, self._early = self._early, deque()
        for payload in early:  # the start of the catch-up, read along with the welcome
            self._on_message(decode_relay_message(payload, self.max_payload))
        await self._maybe_caught_up()

    async def _dial(self) -> trio.SocketStream:
        """A TCP connection to the relay, from :attr:`local_port` when it is set and free."""
        if self.local_port is not None:
            with contextlib.suppress(OSError):
                return await shared_port_stream(self.host, self.port, self.local_port)
        return await trio.open_tcp_stream(self.host, self.port, local_address=self.local_address)

    async def _next_frame(self, stream: trio.SocketStream) -> bytes:
        """One handshake frame; frames after it stay queued in the decoder's output."""
        while True:
            if self._early:
                return self._early.popleft()
            data = await stream.receive_some(64 * 1024)
            if not data:
                raise trio.BrokenResourceError("the relay closed the connection in the handshake")
            self._early.extend(self._decoder.feed(data))

    def _on_message(self, message: Welcome | Delivery) -> None:
        if isinstance(message, Welcome):
            raise RelayProtocolError("bad-message", "the relay sent a second welcome")
        if message.index != self.last_index + 1:
            raise RelayProtocolError("bad-index", f"the relay sent index {message.index} after "
                                     f"{self.last_index}")
        self.last_index = message.index
        if message.payload is None and message.index < (self.first_new_index or 0):
            # nothing is written before the first catch-up ends, so this acknowledges a frame
            # sent by an earlier process with this identity (it crashed and came back)
            return
        if message.payload is None:
            if not self._outbox:
                raise RelayProtocolError("bad-message", f"the relay acknowledged index "
                                         f"{message.index} but nothing was sent")
            self._outbox.popleft()
            self._written = max(0, self._written - 1)
            if not self._outbox:
                self._acknowledged.unpark_all()
        elif message.slot == self.slot:
            raise RelayProtocolError("bad-message", "the relay echoed our own frame")
        else:
            self._pending.append(message)

    async def _maybe_caught_up(self) -> None:
        if self._stream is not None and not self._writable and \
                self.last_index >= self._catch_up_to:
            self._writable = True
            await self._pump()

    async def _pump(self) -> None:
        """Write the outbox entries not yet written on this connection, in order.

        They count as written before the write starts, because the relay may acknowledge the
        first of them before the write returns. The write is shielded from the caller's
        cancellation (a half-written frame would corrupt the stream) and bounded by
        :data:`WRITE_SECONDS`; a write that fails or times out closes the connection, and
        :meth:`receive` reconnects and sends again whatever was not acknowledged.
        """
        async with self._lock:
            stream = self._stream
            if stream is None or not self._writable or self._written >= len(self._outbox):
                return
            todo = list(self._outbox)[self._written:]
            self._written += len(todo)
            data = b"".join(encode_frame(p, self.max_payload) for p in todo)
            with trio.CancelScope(shield=True):
                written = False
                with trio.move_on_after(WRITE_SECONDS):
                    try:
                        await stream.send_all(data)
                        written = True
                    except _BROKEN:
                        pass
                if not written:
                    self._writable = False
                    await trio.aclose_forcefully(stream)  # receive() notices and reconnects
