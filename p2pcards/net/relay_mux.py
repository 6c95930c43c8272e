"""Point-to-point virtual connections between the members of a relay room.

A relay room is a broadcast medium: every frame a member sends reaches every other member
(``protocol/RELAY.md``). Host and joiners need connections instead, one per joiner, exactly
like the TCP connections of direct play, so that the seating handshake and the hub of
:mod:`.hub` work unchanged. A :class:`RelayMux` provides them over one
:class:`~p2pcards.relay.RelayConnection`: each room frame it sends is the canonical msgpack
array ::

    [to, conn, data]

``to`` is the relay slot the frame is for; ``conn`` is an 8-byte connection id chosen at random
by the member that opened the connection (a joiner); ``data`` is one frame of that connection
(a message of :mod:`.framed`), or nil to end it, as a TCP FIN would. A member ignores room frames
addressed to another slot, ends of connections it does not know and anything that does not
decode (it is from another member, never from the relay's protocol). The pair (sender slot,
``conn``) names a connection; once ended it is never reopened, so stray late frames are dropped.

The host's slot is 0: the host joins the room (named by the table nonce) before it prints the
invite, so the first member is always the host. A joiner that finds itself at slot 0 knows
nobody is hosting that table.

The relay reorders nothing within a member's frames, reconnects are absorbed by the
:class:`~p2pcards.relay.RelayConnection` (catch-up, nothing lost or repeated), and every
envelope stays signed and chained, so the relay can still only stall a table, never cheat in it.
A failure of the relay (unreachable after retries, room dropped) ends every connection with a
:class:`~.errors.PeerGone` naming the relay.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from typing import Any

import trio

from ..relay import RelayConnection, RelayError, connect
from ..relay.client import RECONNECT_WINDOW
from ..wire import codec
from ..wire.errors import DecodeError
from ..wire.identity import IdentityKey
from .errors import BadFrame, MatchFailure, NetError, PeerGone
from .framed import FrameChannel

__all__ = ["RelayUnusable", "RelayMux", "RelayChannel", "open_relay_mux", "HOST_SLOT",
           "CONN_ID_SIZE", "MUX_OVERHEAD", "INBOX_FRAMES", "BACKLOG"]

HOST_SLOT = 0
CONN_ID_SIZE = 8
MUX_OVERHEAD = 32
"""Bytes the ``[to, conn, data]`` wrapper adds at most to a frame."""
INBOX_FRAMES = 256
"""Frames a connection may have waiting unread; a member that floods past it is cut off."""
BACKLOG = 16
"""Connections opened by others and not yet accepted; more are ignored until some are."""
FLUSH_SECONDS = 5.0
"""How long closing the mux waits for the relay to acknowledge the last frames."""

_Key = tuple[int, bytes]
_Item = bytes | None | NetError


class RelayUnusable(MatchFailure):
    """The relay refused to admit this member to the room, or could not be reached;
    ``reason`` is the relay's reason code (``room-unknown``, ``unreachable``...)."""

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


class RelayChannel(FrameChannel):
    """One virtual connection through the relay (the contract of :class:`FrameChannel`)."""

    def __init__(self, mux: RelayMux, slot: int, conn: bytes, label: str) -> None:
        super().__init__(max_size=mux.max_frame, label=label)
        self.mux = mux
        self.slot = slot
        """The relay slot of the member at the other end."""
        self.conn = conn
        self._inbox_send, self._inbox = trio.open_memory_channel[_Item](INBOX_FRAMES)
        self._ended = False
        self._closed = False

    @property
    def key(self) -> _Key:
        return (self.slot, self.conn)

    async def send(self, payload: bytes) -> None:
        if len(payload) > self.max_size:
            raise ValueError(f"frame of {len(payload)} bytes exceeds the maximum of "
                             f"{self.max_size}")
        if self._closed:
            raise PeerGone(f"the connection to {self.label} is closed")
        await self.mux.send(self.slot, self.conn, payload, self.label)

    async def receive(self) -> bytes | None:
        if self._ended:
            raise PeerGone(f"{self.label} has already closed the connection")
        try:
            item = await self._inbox.receive()
        except trio.EndOfChannel:
            self._ended = True
            raise BadFrame(f"{self.label} sent more than {INBOX_FRAMES} frames ahead of this "
                           "peer; its connection is cut") from None
        if item is None or isinstance(item, NetError):
            self._ended = True
        if isinstance(item, NetError):
            raise item
        return item

    async def aclose(self) -> None:
        if self._closed:
            return
        self._closed = True
        self.mux.forget(self)
        if not self.mux.failed:
            with suppress(NetError):
                await self.mux.send(self.slot, self.conn, None, self.label)

    def relay_unreachable(self) -> tuple[str, float] | None:
        return self.mux.unreachable()

    def deliver(self, item: _Item) -> None:
        """Queue what the mux received for this connection: a frame, None for its end, or the
        error that ends it (never blocks)."""
        try:
            self._inbox_send.send_nowait(item)
        except trio.WouldBlock:
            self.mux.forget(self)
            self._inbox_send.close()  # the reader sees the end after what is queued
        except (trio.ClosedResourceError, trio.BrokenResourceError):
            pass


class RelayMux:
    """Virtual connections over one relay room connection (see the module docstring).

    Run :meth:`run` in a task for the life of the mux (it is the connection's one receiving
    task); open connections with :meth:`open`; with ``accept=True`` connections opened by
    other members arrive through :meth:`accept`.
    """

    def __init__(self, conn: RelayConnection, where: str, *, accept: bool) -> None:
        self.conn = conn
        self.where = where
        self.max_frame = conn.max_payload - MUX_OVERHEAD
        self._channels: dict[_Key, RelayChannel] = {}
        self._ended: set[_Key] = set()
        self._accepting = accept
        self._backlog_send, self._backlog = trio.open_memory_channel[RelayChannel](BACKLOG)
        self.failure: PeerGone | None = None
        self._failed = trio.Event()

    @property
    def slot(self) -> int:
        """This member's relay slot."""
        return self.conn.slot

    @property
    def failed(self) -> bool:
        return self.failure is not None

    def unreachable(self) -> tuple[str, float] | None:
        """``(HOST:PORT, seconds left)`` while the relay connection is being re-established,
        else ``None``."""
        until = self.conn.unreachable_until
        if until is None or self.failed:
            return None
        return self.where, max(0.0, until - trio.current_time())

    async def wait_failed(self) -> PeerGone:
        """Wait until the relay fails (unreachable past the patience, or the room lost);
        returns the failure."""
        await self._failed.wait()
        assert self.failure is not None
        return self.failure

    def open(self, slot: int, label: str) -> RelayChannel:
        """A new connection to the member at ``slot``."""
        channel = RelayChannel(self, slot, os.urandom(CONN_ID_SIZE), label)
        self._channels[channel.key] = channel
        return channel

    async def accept(self) -> RelayChannel:
        """The next connection another member opened to us; :class:`PeerGone` if the relay
        failed."""
        try:
            return await self._backlog.receive()
        except trio.EndOfChannel:
            assert self.failure is not None
            raise self.failure from None

    def forget(self, channel: RelayChannel) -> None:
        """Stop routing to ``channel``; its later frames are dropped."""
        if self._channels.get(channel.key) is channel:
            del self._channels[channel.key]
            self._ended.add(channel.key)

    async def send(self, to: int, conn: bytes, data: bytes | None, label: str) -> None:
        """Send one frame (or the end, for ``None``) of connection ``conn`` to slot ``to``."""
        if self.failure is not None:
            raise PeerGone(f"cannot reach {label}: {self.failure}")
        try:
            await self.conn.send(codec.pack([to, conn, data]))
        except trio.ClosedResourceError:
            raise PeerGone(f"the connection to {label} is closed (the relay connection "
                           "was closed)") from None

    async def run(self) -> None:
        """Receive from the relay and route, until the relay fails or the task is cancelled."""
        try:
            while True:
                delivery = await self.conn.receive()
                born = self.conn.first_new_index
                if born is not None and delivery.index < born:
                    continue  # for an earlier life of this member (it crashed and came back)
                self._route(delivery.slot, delivery.payload)
        except RelayError as exc:
            self._fail(PeerGone(f"the relay at {self.where} failed: {exc}"))
        except trio.ClosedResourceError:
            self._fail(PeerGone(f"the connection to the relay at {self.where} was closed"))

    def _fail(self, failure: PeerGone) -> None:
        self.failure = failure
        self._failed.set()
        for channel in list(self._channels.values()):
            channel.deliver(failure)
        self._channels.clear()
        self._backlog_send.close()

    def _route(self, sender: int, payload: bytes | None) -> None:
        parsed = _parse(payload)
        if parsed is None:
            return  # not a mux frame: another member's noise, ignored
        to, conn, data = parsed
        if to != self.slot:
            return
        key = (sender, conn)
        channel = self._channels.get(key)
        if channel is None:
            if data is None or not self._accepting or key in self._ended:
                return
            channel = RelayChannel(self, sender, conn, f"relay member {sender}")
            try:
                self._backlog_send.send_nowait(channel)
            except trio.WouldBlock:
                return  # too many unanswered openings: ignored, as a full listen backlog
            self._channels[key] = channel
        if data is None:
            self.forget(channel)
        channel.deliver(data)


def _parse(payload: bytes | None) -> tuple[int, bytes, bytes | None] | None:
    if payload is None:
        return None
    try:
        value: Any = codec.unpack(payload, max_size=len(payload))
    except DecodeError:
        return None
    if not isinstance(value, list) or len(value) != 3:
        return None
    to, conn, data = value
    if type(to) is not int or not isinstance(conn, bytes) or len(conn) != CONN_ID_SIZE:
        return None
    if data is not None and not isinstance(data, bytes):
        return None
    return to, conn, data


@asynccontextmanager
async def open_relay_mux(host: str, port: int, room: bytes, identity: IdentityKey, *,
                         accept: bool, patience: float = RECONNECT_WINDOW,
                         since: int = -1, punch_port: int | None = None
                         ) -> AsyncIterator[RelayMux]:
    """Join relay room ``room`` at ``host:port`` and run a :class:`RelayMux` over it; a broken
    connection to the relay is re-established for up to ``patience`` seconds.

    ``since`` is passed to the relay: -1 joins (or creates) the room from its first frame; 0
    joins only a room that exists and holds a frame already, skipping that frame (how a joiner
    comes back into a room its host made again, :mod:`.relay_room`). With ``punch_port`` the
    connection to the relay leaves from that local port and asks the relay for the address it
    sees, for hole punching (:mod:`.punch`); a relay too old to answer that (``bad-message``)
    is joined again without it, so the table goes on through the relay.

    On leaving, waits up to :data:`FLUSH_SECONDS` for the relay to acknowledge what was sent,
    then closes. Raises :class:`MatchFailure` (status 3) if the relay cannot be used.
    """
    where = f"{host}:{port}"
    try:
        try:
            conn = await connect(host, port, room, identity, since=since,
                                 reconnect_window=patience, local_port=punch_port,
                                 see=punch_port is not None)
        except RelayError as exc:
            if punch_port is None or exc.reason != "bad-message":
                raise
            # a relay older than ``see`` refuses the hello: join without punching
            conn = await connect(host, port, room, identity, since=since,
                                 reconnect_window=patience)
    except RelayError as exc:
        raise RelayUnusable(f"cannot use the relay at {where}: {exc}", exc.reason) from None
    mux = RelayMux(conn, where, accept=accept)
    try:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(mux.run)
            try:
                yield mux
            finally:
                with trio.move_on_after(FLUSH_SECONDS):
                    if not mux.failed:
                        await conn.drain()
                nursery.cancel_scope.cancel()
    finally:
        await conn.aclose()
