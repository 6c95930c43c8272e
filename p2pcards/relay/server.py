"""The relay as a Trio service: accepts TCP connections, runs the handshake, forwards room frames.

Each admitted connection runs three tasks: a reader (frames in through an
:class:`~.intake.Intake`: framing, rate limits, append to the room), a writer (walks the room
buffer from its own cursor and writes ``frame``/``ack`` messages), so a slow reader never
slows anyone else and nothing is queued per connection, and a watchdog that enforces the
idle and write timeouts from the times the other two record (one timer per connection instead
of a cancel scope around every read and write, which is the hot path).

Forwarding has a fast path (:func:`_write_now`): when a member's writer is parked with
nothing left to send, the reader that appended the frame hands it to that member's socket at
once with one non-blocking send, instead of waking the writer task. A match is mostly members
that keep up, so most frames reach every member without a single task switch; whatever the
socket does not take at once (a full send buffer) is left to the writer, which sends it before
anything else and then carries on from the member's cursor. Reading has one too: while
:meth:`RelayServer.serve` runs (on Linux), one task reads every member's socket
(:class:`~.hub.ReadHub`), so a frame wakes no task of its connection at all; the reader task
only waits out a throttled frame and ends the connection. This keeps the relay's work per
frame, and the garbage the task machinery leaves behind, small, so that a thousand connections
cost the relay less CPU and fewer collector passes, which is what its tail latency on a busy
machine depends on.
A housekeeping task expires rooms and prints the periodic stats line. Every refusal or cut is
counted by reason in :attr:`RelayServer.stats` and, when the stream is still usable, told to the
client in an ``error`` message before closing.

Logs are structured ``event=... key=value`` lines given to the ``log`` callable. Invite codes are
never logged; rooms appear as ``room=<12 hex digits>`` (:func:`~.rooms.room_id`).
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import sys
from collections.abc import Awaitable, Callable
from typing import cast

import trio

from ..wire.errors import FrameTooLarge
from ..wire.framing import FrameDecoder, encode_frame
from .addresses import AddressCounts, peer_address
from .errors import RelayProtocolError
from .handshake import Admission, ServerHandshake
from .hub import ReadHub, Received, available
from .intake import STOP, Intake
from .limits import DEFAULT_LIMITS, RelayLimits
from .mailbox import DEFAULT_MAILBOX_LIMITS, MailboxLimits, is_mailbox_request
from .mailbox_service import MailboxService
from .messages import encode_ack, encode_error, encode_welcome
from .rooms import JoinRefused, Room, RoomDropped, RoomRegistry
from .stats import RelayStats, log_line

__all__ = ["RelayServer", "stderr_log", "parse_listen"]

_HANDSHAKE_FRAME_MAX = 1024
_WRITE_BATCH = 256 * 1024


def stderr_log(line: str) -> None:
    """Default log sink: one line to standard error, flushed."""
    print(line, file=sys.stderr, flush=True)


class _Conn:
    """One client connection's state as seen by the server."""

    def __init__(self, stream: trio.SocketStream, peer: str) -> None:
        self.stream = stream
        self.peer = peer
        self.address = peer_address(peer)  # what the per-address limits count
        self.scope = trio.CancelScope()
        self.reason: str | None = None  # why the relay closed it (None: the client left)
        self.message = ""
        self.sending = False  # a write is in progress or was interrupted: no goodbye possible
        self.wake = trio.Event()
        self.room: Room | None = None
        self.slot = -1
        self.intake: Intake | None = None  # a member's frames on their way in
        self.handed_back: Received | float = 0.0  # why the read hub gave the reading back
        self.read_back = trio.Event()  # set when the read hub gives the reading back
        self.reading_since: float | None = None  # a receive waiting since then (idle timer)
        self.writing_since: float | None = None  # a write in progress since then (write timer)
        self.cursor = 0  # room index of the next frame this connection is to be sent
        self.parked = False  # the writer waits with nothing to send: write-through allowed
        self.unsent = b""  # the tail of a write-through the socket did not take
        self.outbox: list[bytes] = []  # write-throughs held for the end of the hub's pass
        self.outbox_frames = 0  # forwarded frames (not acks) in outbox


class RelayServer:
    """A relay node. Call :meth:`serve` (in a nursery, e.g. with ``nursery.start``) and
    :meth:`request_shutdown` to stop gracefully; or :meth:`handle` a stream directly."""

    def __init__(self, limits: RelayLimits = DEFAULT_LIMITS, *,
                 log: Callable[[str], None] = stderr_log, stats_interval: float = 60.0,
                 nonce: Callable[[int], bytes] = os.urandom,
                 mailbox_limits: MailboxLimits = DEFAULT_MAILBOX_LIMITS,
                 shared_reader: bool = True) -> None:
        self.limits = limits
        self.shared_reader = shared_reader and available()
        """Whether :meth:`serve` reads every member's socket from one task (:mod:`.hub`);
        False (and on platforms without ``epoll``): each connection reads its own."""
        self.log = log
        self.stats_interval = stats_interval
        self.registry = RoomRegistry(limits)
        self.stats = RelayStats()
        self._nonce = nonce
        self._conns: set[_Conn] = set()
        self._conns_by_address = AddressCounts(limits.max_connections_per_address)
        self._members: dict[Room, dict[int, _Conn]] = {}
        self._shutdown = trio.Event()
        self._drained = trio.Event()
        self._hub: ReadHub | None = None  # the shared reading task, while serve runs
        self._outboxes: list[_Conn] = []  # connections with write-throughs held in this pass
        self.ports: list[int] = []
        self.mailboxes = MailboxService(mailbox_limits, log=log,
                                        cut=lambda c, r, m: self._cut(cast(_Conn, c), r, m))
        """The short codes' mailboxes (:mod:`.mailbox`): connections whose first frame is a
        mailbox request instead of ``hello``."""

    # ---------------------------------------------------------------- service

    async def serve(self, host: str | None, port: int, *,
                    task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED) -> None:
        """Listen on ``host:port`` (port 0: any free port) until :meth:`request_shutdown`.

        ``task_status.started`` reports the bound port. On shutdown the relay stops accepting,
        tells every client ``error shutdown``, waits up to 5 s for the connections to close and
        returns.
        """
        listeners = await trio.open_tcp_listeners(port, host=host)
        self.ports = [listener.socket.getsockname()[1] for listener in listeners]
        hub = (ReadHub(self.limits.read_chunk, self._flush_outboxes) if self.shared_reader
               else None)
        try:
            await self._serve(listeners, host, hub, task_status)
        finally:
            self._hub = None
            if hub is not None:
                hub.close()

    async def _serve(self, listeners: list[trio.SocketListener], host: str | None,
                     hub: ReadHub | None, task_status: trio.TaskStatus[int]) -> None:
        """:meth:`serve` once listening: accept, read members through ``hub`` (if any),
        housekeep, and shut down when asked."""
        async with trio.open_nursery() as nursery:
            if hub is not None:
                self._hub = hub
                nursery.start_soon(hub.run)
            accept_scope = trio.CancelScope()

            async def accept() -> None:
                with accept_scope:
                    await trio.serve_listeners(self._handle_socket, listeners,
                                               handler_nursery=nursery)

            nursery.start_soon(accept)
            nursery.start_soon(self._housekeeping)
            addresses = ",".join(f"{host or '*'}:{p}" for p in self.ports)
            limits = self.limits
            self.log(log_line("listening", address=addresses, max_rooms=limits.max_rooms,
                              max_connections=limits.max_connections,
                              max_rooms_per_address=limits.max_rooms_per_address,
                              max_connections_per_address=limits.max_connections_per_address))
            task_status.started(self.ports[0])
            await self._shutdown.wait()
            accept_scope.cancel()
            for listener in listeners:
                await listener.aclose()
            self.log(log_line("shutdown", connections=len(self._conns)))
            for conn in list(self._conns):
                self._cut(conn, "shutdown", "the relay is shutting down")
            if self._conns:
                with trio.move_on_after(5):
                    await self._drained.wait()
            self.log(self.stats.line(trio.current_time(), len(self.registry.rooms),
                                     self.registry.buffered))
            nursery.cancel_scope.cancel()

    def request_shutdown(self) -> None:
        """Begin a graceful shutdown of :meth:`serve` (safe to call more than once)."""
        self._shutdown.set()

    async def _housekeeping(self) -> None:
        tick = min(1.0, self.stats_interval)
        next_stats = trio.current_time() + self.stats_interval
        while True:
            await trio.sleep(tick)
            now = trio.current_time()
            for room, reason in self.registry.expire(now):
                self._room_gone(room, reason, f"room {room.rid} ended: {reason}")
            self.mailboxes.expire(now)
            if now >= next_stats:
                next_stats = now + self.stats_interval
                self.log(self.stats.line(now, len(self.registry.rooms), self.registry.buffered))

    # ---------------------------------------------------------------- connections

    async def _handle_socket(self, stream: trio.SocketStream) -> None:
        try:
            name = stream.socket.getpeername()
            peer = f"{name[0]}:{name[1]}"
        except OSError:
            peer = "?"
        await self.handle(stream, peer)

    async def handle(self, stream: trio.SocketStream, peer: str = "?") -> None:
        """Serve one client connection to its end (never raises for the client's faults)."""
        conn = _Conn(stream, peer)
        if len(self._conns) >= self.limits.max_connections:
            conn.reason, conn.message = "connections-full", "the relay is at its connection limit"
            self.stats.reject(conn.reason)
            await self._goodbye(conn)
            return
        if self._conns_by_address.full(conn.address):
            conn.reason, conn.message = "connections-per-address", (
                "your address already holds "
                f"{self.limits.max_connections_per_address} connections to this relay")
            self.stats.reject(conn.reason)
            await self._goodbye(conn)
            return
        self._conns.add(conn)
        self._conns_by_address.add(conn.address)
        self._drained = trio.Event() if self._drained.is_set() else self._drained
        self.stats.connections = len(self._conns)
        try:
            with conn.scope:
                admission = await self._handshake(conn)
                if isinstance(admission, bytes):
                    await self.mailboxes.serve(conn, admission)
                elif admission is not None:
                    await self._run_member(conn, admission)
        except* (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            pass  # the client went away
        finally:
            self._release(conn)
            await self._goodbye(conn)
            self._conns.discard(conn)
            self._conns_by_address.remove(conn.address)
            self.stats.connections = len(self._conns)
            if not self._conns:
                self._drained.set()

    def _cut(self, conn: _Conn, reason: str, message: str) -> None:
        """Close ``conn`` for ``reason`` (counted once) from any task."""
        if conn.reason is None:
            conn.reason, conn.message = reason, message
            self.stats.reject(reason)
        conn.scope.cancel()

    async def _goodbye(self, conn: _Conn) -> None:
        with trio.CancelScope(shield=True), trio.move_on_after(1):
            if conn.reason is not None and not conn.sending:
                room = conn.room.rid if conn.room is not None else "-"
                self.log(log_line("closed", peer=conn.peer, room=room, slot=conn.slot,
                                  reason=conn.reason, detail=conn.message))
                with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError,
                                         OSError):
                    await conn.stream.send_all(encode_frame(encode_error(conn.reason,
                                                                         conn.message)))
        with trio.CancelScope(shield=True):
            await conn.stream.aclose()

    def _release(self, conn: _Conn) -> None:
        if conn.intake is not None:
            self.stats.inflight_bytes -= conn.intake.held
            conn.intake.held = 0
        room = conn.room
        if room is not None:
            members = self._members.get(room)
            if members is not None and members.get(conn.slot) is conn:
                del members[conn.slot]
                self.registry.leave(room, conn.slot, trio.current_time())
                if not members:
                    del self._members[room]

    async def _handshake(self, conn: _Conn) -> Admission | bytes | None:
        """The admission of a room member, or the first frame of a mailbox connection."""
        machine = ServerHandshake(self._nonce(32))
        decoder = FrameDecoder(_HANDSHAKE_FRAME_MAX)
        self.stats.handshaking += 1
        try:
            with trio.move_on_after(self.limits.handshake_timeout):
                while True:
                    data = await conn.stream.receive_some(_HANDSHAKE_FRAME_MAX)
                    if not data:
                        return None
                    frames = decoder.feed(data)
                    for position, frame in enumerate(frames):
                        if machine.state == "hello" and is_mailbox_request(frame):
                            if decoder.pending or position != len(frames) - 1:
                                raise RelayProtocolError("bad-message", "data sent before the "
                                                         "relay's answer to a mailbox request")
                            return frame
                        result = machine.receive(frame)
                        if isinstance(result, bytes):
                            await conn.stream.send_all(encode_frame(result))
                            continue
                        if decoder.pending or position != len(frames) - 1:
                            raise RelayProtocolError("bad-message",
                                                     "data sent before the relay's welcome")
                        return result
            self._cut(conn, "handshake-timeout",
                      f"handshake not completed within {self.limits.handshake_timeout} s")
            return None
        except FrameTooLarge:
            self._cut(conn, "frame-too-large", "handshake frame exceeds "
                      f"{_HANDSHAKE_FRAME_MAX} bytes")
            return None
        except RelayProtocolError as exc:
            self._cut(conn, exc.reason, exc.message)
            return None
        finally:
            self.stats.handshaking -= 1

    async def _run_member(self, conn: _Conn, admission: Admission) -> None:
        identity = admission.identity.to_bytes()
        now = trio.current_time()
        try:
            room, slot = self.registry.join(admission.room, identity, admission.since, now,
                                            conn.address)
        except JoinRefused as exc:
            self._cut(conn, exc.reason, exc.message)
            return
        conn.room, conn.slot = room, slot
        members = self._members.setdefault(room, {})
        old = members.get(slot)
        if old is not None:
            self._cut(old, "replaced", "the same identity connected again to this room")
        members[slot] = conn
        welcome = room.welcome(slot)
        if admission.see:
            welcome = dataclasses.replace(welcome, seen=_seen(conn.peer))
        await conn.stream.send_all(encode_frame(encode_welcome(welcome)))
        self.log(log_line("joined", peer=conn.peer, room=room.rid, slot=slot,
                          identity=admission.identity.fingerprint, since=admission.since,
                          next=welcome.next))
        async with trio.open_nursery() as nursery:
            nursery.start_soon(self._watchdog, conn)
            nursery.start_soon(self._writer, conn, room, slot, admission.since + 1)
            await self._reader(conn, room, slot)
            nursery.cancel_scope.cancel()

    async def _watchdog(self, conn: _Conn) -> None:
        """Cut ``conn`` when one receive has waited ``idle_timeout`` (``idle-timeout``) or one
        write has blocked ``write_timeout`` (``slow-reader``), at exactly those deadlines.

        It sleeps until the earliest moment either could expire: a receive or write already
        under way expires at its start plus its timeout, and one that starts later cannot expire
        before now plus its timeout, so waking then and re-reading the start times is exact.
        """
        idle, write = self.limits.idle_timeout, self.limits.write_timeout
        while True:
            now = trio.current_time()
            writing, reading = conn.writing_since, conn.reading_since
            if writing is not None and now - writing >= write:
                self._cut(conn, "slow-reader", f"a write blocked for over {write} s")
                return
            if reading is not None and now - reading >= idle:
                self._cut(conn, "idle-timeout", f"no frame for {idle} s")
                return
            await trio.sleep_until(min((writing if writing is not None else now) + write,
                                       (reading if reading is not None else now) + idle))

    async def _reader(self, conn: _Conn, room: Room, slot: int) -> None:
        """Take ``conn``'s frames into ``room`` until the member closes its side or is cut:
        through the read hub when the relay has one, else by reading the socket here."""
        def deliver(frame: bytes) -> bool:
            try:
                index = self.registry.append(room, slot, frame)
            except RoomDropped as exc:
                self._room_gone(room, exc.reason, exc.message)
                return False
            self._fan_out(room, index, slot)
            return True

        intake = conn.intake = Intake(self.limits, self.stats, trio.current_time(), deliver)
        hub = self._hub
        if hub is not None and isinstance(conn.stream, trio.SocketStream):
            await self._read_through_hub(conn, hub, intake)
        else:
            await self._read_here(conn, intake)
        if intake.refusal is not None:
            self._cut(conn, *intake.refusal)

    async def _read_here(self, conn: _Conn, intake: Intake) -> None:
        """Read ``conn`` from this task, one chunk per wake-up, until the intake stops."""
        receive_some = (_raw_receiver(conn.stream) if _WRITE_THROUGH
                        else conn.stream.receive_some)
        current_time = trio.current_time
        read_chunk = self.limits.read_chunk
        while True:
            conn.reading_since = current_time()  # the watchdog enforces idle_timeout
            data = await receive_some(read_chunk)
            conn.reading_since = None
            if not data:
                return  # the client closed its side
            wait = intake.feed(data, current_time())
            while wait > 0:
                await trio.sleep(wait)
                wait = intake.resume(current_time())
            if wait == STOP:
                return

    async def _read_through_hub(self, conn: _Conn, hub: ReadHub, intake: Intake) -> None:
        """Let ``hub`` read ``conn`` and feed its intake; take the reading back here to wait
        out a throttled frame, and return at the end of stream or when the intake stops (a
        read error is raised here, ending the connection)."""
        fd = conn.stream.socket.fileno()
        current_time = trio.current_time

        def received(data: Received) -> None:
            now = current_time()
            if conn.scope.cancel_called:
                wait = STOP  # cut in this pass of the hub: its task ends the connection
            elif isinstance(data, bytes) and data:
                conn.reading_since = now  # the watchdog enforces idle_timeout
                wait = intake.feed(data, now)
                if wait == 0:
                    return
            else:
                wait = STOP
            hub.remove(fd)
            conn.handed_back = data if wait == STOP else wait
            conn.read_back.set()

        while True:
            conn.read_back = trio.Event()
            conn.reading_since = current_time()
            hub.add(fd, received)
            try:
                await conn.read_back.wait()
            finally:
                hub.remove(fd)
                conn.reading_since = None
            handed_back = conn.handed_back
            if isinstance(handed_back, OSError):
                raise handed_back
            if not isinstance(handed_back, float):
                return  # end of stream, or the intake stopped
            wait = handed_back
            while wait > 0:
                await trio.sleep(wait)
                wait = intake.resume(current_time())
            if wait == STOP:
                return

    def _fan_out(self, room: Room, index: int, sender: int) -> None:
        """Pass the frame just appended at ``index`` to every member of ``room``: written at
        once to members whose writer is parked and caught up, the others' writers woken."""
        delivery = b""
        hub = self._hub
        hold = hub is not None and hub.in_pass  # written together at the end of the pass
        for member in self._members.get(room, {}).values():
            if member.parked and member.cursor == index and _WRITE_THROUGH:
                forwarded = member.slot != sender
                if forwarded:
                    data = delivery = delivery or room.frame(index)
                else:
                    data = encode_frame(encode_ack(index))
                member.cursor += 1
                if hold:
                    self._hold(member, data, forwarded)
                else:
                    _write_now(member, data, int(forwarded), self.stats)
            else:
                member.wake.set()

    def _hold(self, member: _Conn, data: bytes, forwarded: bool) -> None:
        """Keep ``data`` for ``member`` until :meth:`_flush_outboxes` at the end of the hub's
        pass, so that what one pass has for a member goes out in one write."""
        if not member.outbox:
            self._outboxes.append(member)
        member.outbox.append(data)
        member.outbox_frames += forwarded

    def _flush_outboxes(self) -> None:
        """Write every outbox held in this pass of the hub, one write per member."""
        stats = self.stats
        for member in self._outboxes:
            outbox = member.outbox
            data = outbox[0] if len(outbox) == 1 else b"".join(outbox)
            frames = member.outbox_frames
            member.outbox = []
            member.outbox_frames = 0
            _write_now(member, data, frames, stats)
        self._outboxes.clear()

    async def _writer(self, conn: _Conn, room: Room, slot: int, cursor: int) -> None:
        """Send ``conn`` the room's frames from index ``cursor`` on (its own as acks), parking
        whenever it is caught up; :meth:`_fan_out` may advance ``conn.cursor`` while parked."""
        stats = self.stats
        conn.cursor = cursor
        while True:
            batch = room.read(conn.cursor, _WRITE_BATCH) if not conn.unsent else []
            if not batch and not conn.unsent:
                if room.dropped is not None:
                    return
                conn.wake = trio.Event()
                conn.parked = True
                try:
                    await conn.wake.wait()
                finally:
                    conn.parked = False
                continue
            parts: list[bytes] = [conn.unsent] if conn.unsent else []
            conn.unsent = b""
            forwarded = 0
            for index, sender, data in batch:
                if sender == slot:
                    parts.append(encode_frame(encode_ack(index)))
                else:
                    parts.append(data)
                    forwarded += 1
            out = b"".join(parts)
            conn.sending = True
            conn.writing_since = trio.current_time()  # the watchdog enforces write_timeout
            await conn.stream.send_all(out)
            conn.writing_since = None
            conn.sending = False
            if batch:
                conn.cursor = batch[-1][0] + 1
            stats.frames_out += forwarded
            stats.bytes_out += len(out)
            stats.writes_out += 1

    def _room_gone(self, room: Room, reason: str, message: str) -> None:
        self.registry.drop(room, reason)
        members = self._members.pop(room, {})
        self.log(log_line("room-dropped", room=room.rid, reason=reason, members=len(members),
                          frames=room.next_index, detail=message))
        for conn in members.values():
            self._cut(conn, reason, message)


_WRITE_THROUGH = sys.platform != "win32"
"""Whether :func:`_write_now` and :func:`_raw_receiver` may use ``os.write`` and
``os.read`` on a socket (not on Windows, where a socket is not a file descriptor: there every
frame goes through Trio's stream and the writer task)."""


def _raw_receiver(stream: trio.SocketStream) -> Callable[[int], Awaitable[bytes]]:
    """``stream.receive_some`` for the reader's hot loop: wait until the socket is readable,
    then one ``os.read``. Trio's own receive first tries a read that, a frame at a time, almost
    always fails (raising and catching ``BlockingIOError``) before it waits; this skips that
    read. Same results: the bytes, ``b""`` at end of stream, ``OSError`` for a reset."""
    fd = stream.socket.fileno()
    wait_readable = trio.lowlevel.wait_readable

    async def receive(max_bytes: int) -> bytes:
        while True:
            await wait_readable(fd)
            try:
                return os.read(fd, max_bytes)
            except BlockingIOError:
                continue

    return receive


def _write_now(conn: _Conn, data: bytes, frames: int, stats: RelayStats) -> None:
    """Give ``data`` (frames and acks before ``conn.cursor``, of which ``frames`` forwarded
    frames) to the parked connection's socket with one non-blocking send.

    Whatever the socket does not take is kept in ``conn.unsent`` and the writer is woken to send
    it first (and to time it against the write timeout); so is an error from the socket, which
    the writer's own send then meets and ends the connection with. Never blocks or raises.
    """
    try:
        written = os.write(conn.stream.socket.fileno(), data)
    except BlockingIOError:
        written = 0
    except OSError:
        _unpark(conn)  # the writer's send will meet the same error and end the connection
        return
    stats.bytes_out += written
    stats.frames_out += frames
    stats.writes_out += 1
    if written < len(data):
        conn.unsent = data[written:]
        conn.sending = True  # a frame is cut in two: no goodbye may follow until it is whole
        _unpark(conn)


def _unpark(conn: _Conn) -> None:
    """Wake the parked writer and allow no more write-through until it has run (what it has to
    send must go first)."""
    conn.parked = False
    conn.wake.set()


def parse_listen(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (IPv6 as ``[::1]:PORT``) -> (host, port); :class:`ValueError` if bad."""
    host, sep, port_text = text.rpartition(":")
    if not sep or not port_text.isdigit() or not 0 <= int(port_text) <= 65535:
        raise ValueError(f"listen address {text!r} is not HOST:PORT")
    host = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    return host or "0.0.0.0", int(port_text)


def _seen(peer: str) -> str:
    """``HOST:PORT`` of a client as the relay sees it (IPv6 in brackets), from ``ip:port``."""
    host, _, port = peer.rpartition(":")
    return f"[{host}]:{port}" if ":" in host else peer
