"""The match loop every peer runs once the genesis is agreed: tables, links, routing, timeouts.

A :class:`Session` holds the peer's local seats (a :class:`~p2pcards.table.Table` each, with
something that decides for it: a bot or a person) and its :class:`Link` objects (connections to
other peers). The first local table is the *reference*: every envelope from a link goes through
it first, so nothing is accepted, forwarded or written that it rejected. Then:

- an envelope accepted from link ``L`` goes to every other local table and, when the session
  forwards (the hosting hub), to every link except ``L``;
- an envelope produced by a local table goes to every other local table and every link;
- every envelope the reference accepts is appended to the transcript at once.

The protocol is one linear chain, so at any moment the reference knows who must speak
(:attr:`Table.expected`). When that is a remote seat the session waits at most the genesis
timeout: ``timeouts["step"]`` for automatic messages and for bots' decisions,
``timeouts["action"]`` for a person's decision (plus ``grace`` seconds, so that a joiner lets the
hub report a silent seat first). On any failure the session tells every link
``{"type": "abort", "reason": ...}``, flushes what it can, closes gracefully (ends its side,
then waits for the other side's end, so that no reset destroys the abort), and raises
:class:`~.errors.MatchFailure` with one sentence (status 1 for a protocol violation, 3 otherwise).

Wire messages after the handshake (see :mod:`.framed`): ``envelope {data: envelope bytes}`` and
``abort {reason: text}``. Aborts travel outside the chain: they are a courtesy, not evidence.
"""

from __future__ import annotations

import contextlib
import math
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import trio

from ..games.base import Action
from ..genesis import Genesis
from ..table import Event, Table, Violation
from ..transcript import TranscriptWriter
from ..wire import codec
from ..wire.identity import PublicIdentity
from .errors import EXIT_VIOLATION, BadFrame, MatchFailure, NetError
from .framed import FrameChannel

__all__ = ["Player", "LocalSeat", "Link", "Session", "PlayerQuit", "seat_label", "FLUSH_SECONDS"]

FLUSH_SECONDS = 5.0
"""How long a finishing session waits for its last frames to leave."""
CLOSE_SECONDS = 5.0
"""How long a finishing session waits for the other ends to close after its own end (so that
what it sent, an ``abort`` above all, is not destroyed by a reset; see
:meth:`~.framed.FrameChannel.aclose_gracefully`)."""
INBOX_SIZE = 64

Decide = Callable[[Table], Awaitable[Action]]
Show = Callable[[Table, Sequence[Event]], None]


class PlayerQuit(MatchFailure):
    """The person at a local seat chose to leave (end of input or Ctrl-C)."""

    def __init__(self, message: str = "you left the table; the match is abandoned") -> None:
        super().__init__(message, status=130)


def seat_label(genesis: Genesis, seat: int) -> str:
    """``seat N (FINGERPRINT)`` for messages to people."""
    fingerprint = PublicIdentity(genesis.seats[seat].identity).fingerprint
    return f"seat {seat} ({fingerprint})"


@dataclass(frozen=True)
class Player:
    """Who decides for a seat: ``decide`` returns the action, ``show`` displays events.

    ``person`` marks decisions that take a person's time: they are raced against incoming
    messages, which may abort the match meanwhile; a bot's are not.
    """

    decide: Decide
    show: Show | None = None
    person: bool = False


@dataclass
class LocalSeat:
    """A seat played in this process: its table, who decides for it, and an optional display.

    ``person`` marks a seat whose decisions take a person's time (they are raced against
    incoming messages, which may abort the match meanwhile).
    """

    table: Table
    decide: Decide
    show: Show | None = None
    person: bool = False

    @classmethod
    def of(cls, table: Table, player: Player) -> LocalSeat:
        return cls(table, player.decide, player.show, player.person)


@dataclass(eq=False)
class Link:
    """A connection to a peer that speaks for ``seats`` (the hub speaks for every other seat)."""

    framed: FrameChannel
    seats: frozenset[int]
    outbox: trio.MemorySendChannel[bytes] = field(init=False)
    _outbox_receive: trio.MemoryReceiveChannel[bytes] = field(init=False)
    drained: trio.Event = field(default_factory=trio.Event)

    def __post_init__(self) -> None:
        self.outbox, self._outbox_receive = trio.open_memory_channel[bytes](math.inf)

    @property
    def label(self) -> str:
        return self.framed.label

    async def sender(self) -> None:
        """Send everything queued, in order, until the outbox is closed and empty."""
        try:
            async for data in self._outbox_receive:
                await self.framed.send(data)
        except NetError:
            pass  # the reader of this link reports the broken connection
        finally:
            self.drained.set()


_Inbox = tuple[str, Link, Any]


class Session:
    """One peer's match; see the module docstring. Run it once with :meth:`run`."""

    def __init__(self, genesis: Genesis, seats: Sequence[LocalSeat], links: Sequence[Link], *,
                 forward: bool, bots: frozenset[int] = frozenset(),
                 writer: TranscriptWriter | None = None, grace: float = 0.0) -> None:
        if not seats:
            raise ValueError("a session needs at least one local seat")
        self.genesis = genesis
        self.seats = list(seats)
        self.links = list(links)
        self.forward = forward
        self.bots = bots
        self.writer = writer
        self.grace = grace
        self.reference = self.seats[0].table
        self._written = 0
        self._queue: deque[tuple[object, bytes]] = deque()
        self._inbox_send, self._inbox = trio.open_memory_channel[_Inbox](INBOX_SIZE)
        self._local_seats = {s.table.seat for s in self.seats}

    # ------------------------------------------------------------------ running

    async def run(self) -> None:
        """Play to the end of the match or raise :class:`MatchFailure`."""
        failure: MatchFailure | None = None
        readers = [trio.CancelScope() for _ in self.links]
        async with trio.open_nursery() as nursery:
            for link, scope in zip(self.links, readers, strict=True):
                nursery.start_soon(link.sender)
                nursery.start_soon(self._reader, link, scope)
            try:
                await self._play()
            except MatchFailure as exc:
                failure = exc
                self._broadcast({"type": "abort", "reason": str(exc)})
            finally:
                self._sync_transcript()
                for link in self.links:
                    link.outbox.close()
                try:
                    with trio.move_on_after(FLUSH_SECONDS):
                        for link in self.links:
                            await link.drained.wait()
                    for scope in readers:
                        scope.cancel()
                    with trio.move_on_after(CLOSE_SECONDS):
                        async with trio.open_nursery() as closers:
                            for link in self.links:
                                closers.start_soon(link.framed.aclose_gracefully)
                finally:  # also when cancelled (Ctrl-C): then nothing above waits
                    for link in self.links:
                        await link.framed.aclose()
                    nursery.cancel_scope.cancel()
        if failure is not None:
            raise failure

    async def _reader(self, link: Link, scope: trio.CancelScope) -> None:
        with scope:
            await self._read(link)

    async def _read(self, link: Link) -> None:
        try:
            while True:
                message = await link.framed.receive_message()
                if message is None:
                    await self._inbox_send.send(("closed", link, None))
                    return
                await self._inbox_send.send(("message", link, message))
        except NetError as exc:
            await self._inbox_send.send(("error", link, exc))

    async def _play(self) -> None:
        for seat in self.seats:
            step = seat.table.start()
            self._after_step(seat, step.events)
            self._queue.extend((seat, data) for data in step.outgoing)
        while True:
            self._route()
            if self.reference.finished:
                return
            deciding = next((s for s in self.seats if s.table.needs_decision), None)
            if deciding is not None:
                await self._decide(deciding)
                continue
            expected = self.reference.expected
            assert expected is not None
            speaker, kind = expected
            if speaker in self._local_seats:
                raise MatchFailure(f"this peer's seat {speaker} cannot make progress "
                                   f"(waiting for its {kind!r} message)")
            person = kind == "action" and speaker not in self.bots
            limit = self.genesis.timeouts["action" if person else "step"]
            with trio.move_on_after(limit + self.grace):
                item = await self._inbox.receive()
                self._handle(item)
                continue
            raise MatchFailure(f"{seat_label(self.genesis, speaker)} did not answer within "
                               f"{limit} seconds")

    async def _decide(self, seat: LocalSeat) -> None:
        action: Action | None = None
        if not seat.person:
            action = await seat.decide(seat.table)
        else:
            interrupt: list[_Inbox] = []
            error: list[MatchFailure] = []
            async with trio.open_nursery() as nursery:
                async def decide() -> None:
                    nonlocal action
                    try:
                        action = await seat.decide(seat.table)
                    except MatchFailure as exc:
                        error.append(exc)
                    nursery.cancel_scope.cancel()

                async def watch() -> None:
                    interrupt.append(await self._inbox.receive())
                    nursery.cancel_scope.cancel()

                nursery.start_soon(decide)
                nursery.start_soon(watch)
            if error:
                raise error[0]
            if action is None:
                self._handle(interrupt[0])  # raises, or queues an out-of-turn envelope
                return
        step = seat.table.decide(action)
        self._after_step(seat, step.events)
        self._queue.extend((seat, data) for data in step.outgoing)

    # ------------------------------------------------------------------ messages

    def _handle(self, item: _Inbox) -> None:
        what, link, value = item
        if what == "closed":
            if self.reference.finished:
                return
            raise MatchFailure(f"{link.label} left the table: the connection closed")
        if what == "error":
            assert isinstance(value, NetError)
            raise value
        message: dict[str, Any] = value
        kind = message["type"]
        if kind == "envelope" and set(message) == {"type", "data"} and isinstance(
                message["data"], bytes):
            self._queue.append((link, message["data"]))
            return
        if kind == "abort" and isinstance(message.get("reason"), str):
            raise MatchFailure(f"{link.label} aborted the match: {message['reason']}")
        raise BadFrame(f"{link.label} sent an unexpected {kind!r} message during the match")

    def _route(self) -> None:
        """Deliver every queued envelope (and whatever the local tables answer)."""
        while self._queue:
            origin, data = self._queue.popleft()
            if isinstance(origin, Link):
                self._accept_remote(origin, data)
            for seat in self.seats:
                if seat is origin or (isinstance(origin, Link) and seat is self.seats[0]):
                    continue
                try:
                    step = seat.table.receive(data)
                except Violation as violation:
                    raise MatchFailure(f"protocol violation: {violation}",
                                       EXIT_VIOLATION) from None
                self._after_step(seat, step.events)
                self._queue.extend((seat, out) for out in step.outgoing)
            if self.forward or not isinstance(origin, Link):
                frame = codec.pack({"type": "envelope", "data": data})
                for link in self.links:
                    if link is not origin:
                        link.outbox.send_nowait(frame)
            self._sync_transcript()

    def _accept_remote(self, link: Link, data: bytes) -> None:
        expected = self.reference.expected
        if expected is not None and expected[0] not in link.seats:
            raise MatchFailure(
                f"protocol violation: {link.label} sent an envelope while "
                f"{seat_label(self.genesis, expected[0])} was to speak", EXIT_VIOLATION)
        reference = self.seats[0]
        try:
            step = reference.table.receive(data)
        except Violation as violation:
            raise MatchFailure(f"protocol violation: {violation}", EXIT_VIOLATION) from None
        self._after_step(reference, step.events)
        self._queue.extend((reference, out) for out in step.outgoing)

    def _after_step(self, seat: LocalSeat, events: Sequence[Event]) -> None:
        if seat.show is not None and events:
            seat.show(seat.table, events)
        if seat is self.seats[0]:
            self._sync_transcript()

    def _sync_transcript(self) -> None:
        frames = self.reference.frames
        if self.writer is not None:
            while self._written < len(frames):
                self.writer.append(frames[self._written])
                self._written += 1

    def _broadcast(self, message: dict[str, Any]) -> None:
        frame = codec.pack(message)
        for link in self.links:
            with contextlib.suppress(trio.ClosedResourceError, trio.BrokenResourceError):
                link.outbox.send_nowait(frame)

