"""What every part of a :class:`~.session.Session` shares: :class:`SessionState` holds the
peer's seats, links, inbox, queue and transcript writer, reads each link's connection and keeps
it alive (SPEC §11.7.1: a link silent past :data:`~.links.SILENT_TICKS` keepalive ticks is
dead), writes every accepted envelope to the transcript at once with the evidence of a refused
one (SPEC §9.8), and sends ``abort`` (signed on a re-entered connection, SPEC §11.7).

The parts of the match loop (:mod:`.away`, :mod:`.forks`, :mod:`.turns`) are classes over this
state; :class:`~.session.Session` joins them.
"""

from __future__ import annotations

import abc
import contextlib
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import trio

from ..i18n import pgettext
from ..records.evidence import Evidence, from_violation
from ..records.secret_store import SIGNED, SecretStoreError, encode_count, spent_names
from ..records.transcript import TranscriptWriter
from ..seating.genesis import Genesis
from ..seating.recovery_watch import Turn
from ..seating.reentry import Unproven
from ..table import HUB_SEAT, Event, Table, Violation
from ..wire import codec
from ..wire.identity import PublicIdentity
from .errors import MatchFailure, NetError
from .links import ALIVE, INBOX_SIZE, KEEPALIVE_SECONDS, SILENT_TICKS, Inbox, Link, Reentry
from .player import LocalSeat

__all__ = ["SessionState", "tampered"]


def tampered(link: Link, why: Unproven) -> MatchFailure:
    """The verdict on a re-entered connection that carried what its peer did not sign."""
    return MatchFailure(f"the connection to {link.label} was tampered with: {why}; its seat is "
                        "not blamed, and the match ends")


class SessionState(abc.ABC):
    """The state of one peer's match and the parts every job of the match loop uses."""

    def __init__(self, genesis: Genesis, seats: Sequence[LocalSeat], links: Sequence[Link], *,
                 forward: bool, bots: frozenset[int] = frozenset(),
                 writer: TranscriptWriter | None = None, grace: float = 0.0,
                 reentry: Reentry | None = None, replay: Sequence[bytes] | None = None,
                 notice: Callable[[str], None] | None = None) -> None:
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
        self._evidence_kept = False
        self._queue: deque[tuple[object, bytes]] = deque()
        self._inbox_send, self._inbox = trio.open_memory_channel[Inbox](INBOX_SIZE)
        self._local_seats = {s.table.seat for s in self.seats}
        self._offered: set[tuple[int | None, int]] = set()
        self._gone: set[int] = set()
        """Seats whose link closed or died at a table that can recover them (the hub only)."""
        self._left: set[int] = set()
        """Seats that left with their signed ``leave`` while the match goes on without them
        (a table with a dropout policy, SPEC §11.7.6): their closing link is no loss."""
        self.reentry = reentry
        self.replay = replay
        self.notice = notice or (lambda text: None)
        self._dropped = 0
        self._signed: dict[int, int] | None = None
        """Local seat -> the count of its own envelopes the transcript holds (see
        :meth:`_keep_signed`); filled at the first write."""
        self._nursery: trio.Nursery | None = None
        self._reminded: dict[int, float] = {}
        self._away_at_hub: dict[int, float] = {}
        """A joiner's: seats the hub said are away (``away``), with the time by which the hub
        stops waiting for them."""
        self._turn: Turn | None = None
        """A joiner's: when its local seat's current turn began, and on which connection (to
        judge a recovery of that seat, :mod:`p2pcards.seating.recovery_watch`)."""
        if replay is not None:
            self._written = len(replay)
        self._playing = trio.CancelScope()
        self._leaving = False

    def _names(self, link: Link) -> str:
        """``Bob [1]`` (or ``the host, Alice [0]``) for the seats of ``link``."""
        if not self.forward and 0 in link.seats:
            return pgettext("network", "the host, {names}").format(names=self._seat_names([0]))
        return self._seat_names(link.seats)

    def _seat_names(self, seats: Iterable[int]) -> str:
        """``Bob [1], Carol [2]`` for ``seats``, by the names they sat down with."""
        return ", ".join(f"{self.genesis.seats[s].name or 'seat'} [{s}]" for s in sorted(seats))

    def _hub_label(self) -> str:
        """``seat 0 Alice (ABCD-...)``: the hub, for a sentence that names it."""
        hub = self.genesis.seats[HUB_SEAT]
        fingerprint = PublicIdentity(hub.identity).fingerprint
        return f"seat {HUB_SEAT} {hub.name or 'host'} ({fingerprint})"

    def _link_of(self, seat: int) -> Link:
        """The current link through which ``seat`` speaks."""
        for link in self.links:
            if seat in link.seats:
                return link
        raise ValueError(f"seat {seat} is not behind a link of this session")

    def _away(self, seat: int) -> Link | None:
        """The down link through which ``seat`` speaks, if its connection is lost."""
        for link in self.links:
            if seat in link.seats and link.state == "down":
                return link
        return None

    def _unsettled(self, seat: int) -> Link | None:
        """The link through which ``seat`` speaks if it is not ``live``: lost (``down``), or
        back on a new connection whose ``resume`` has not arrived (``syncing``). A wait for
        ``seat`` then ends with the return wait, in the link's name, never the seat's."""
        for link in self.links:
            if seat in link.seats and link.state != "live":
                return link
        return None

    def _report_status(self, seats: tuple[int, ...], seconds_left: float | None) -> None:
        for seat in self.seats:
            if seat.status is not None:
                seat.status(seats, seconds_left)

    def _tell_others(self, about: Link, message: dict[str, Any]) -> None:
        """The hub's: send ``message`` on every live link but ``about``'s."""
        frame = codec.pack(message)
        for link in self.links:
            if link is about or link.seats == about.seats or link.state != "live":
                continue
            with contextlib.suppress(trio.ClosedResourceError, trio.BrokenResourceError):
                link.outbox.send_nowait(frame)

    def _abort_all(self, reason: str) -> None:
        """Send ``abort {reason}`` on every link not down (signed on a re-entered one)."""
        plain = codec.pack({"type": "abort", "reason": reason})
        for link in self.links:
            if link.state == "down":
                continue
            frame = plain if link.bond is None else codec.pack(link.bond.abort(reason))
            with contextlib.suppress(trio.ClosedResourceError, trio.BrokenResourceError):
                link.outbox.send_nowait(frame)

    @staticmethod
    def _abort_reason(link: Link, message: dict[str, Any]) -> str | None:
        """The reason of an ``abort`` from ``link`` (``None`` if ``message`` is none). On a
        re-entered connection it must be signed there: :class:`MatchFailure` blaming nobody
        otherwise."""
        if message["type"] != "abort":
            return None
        if link.bond is None:
            reason = message.get("reason")
            return reason if isinstance(reason, str) else None
        try:
            return link.bond.check_abort(message)
        except Unproven as exc:
            raise tampered(link, exc) from None

    def _attach(self, link: Link) -> None:
        """Start the sender, reader and keepalive of ``link``'s connection."""
        assert self._nursery is not None
        self._nursery.start_soon(link.sender)
        self._nursery.start_soon(self._connection, link)

    async def _connection(self, link: Link) -> None:
        """Read ``link`` and keep it alive until ``link.scope`` is cancelled."""
        with link.scope:
            async with trio.open_nursery() as tasks:
                tasks.start_soon(self._read, link)
                tasks.start_soon(self._keepalive, link)

    async def _read(self, link: Link) -> None:
        try:
            while True:
                message = await link.framed.receive_message()
                link.silent_ticks = 0
                if message is None:
                    await self._inbox_send.send(("closed", link, None))
                    return
                if message.get("type") == "alive" and len(message) == 1:
                    link.keepalives = True
                    continue  # link-level only: never queued, never interrupts a prompt
                try:  # no checkpoint between reading it and queueing it: never lost
                    self._inbox_send.send_nowait(("message", link, message))
                except trio.WouldBlock:
                    await self._inbox_send.send(("message", link, message))
        except NetError as exc:
            await self._inbox_send.send(("error", link, exc))

    async def _keepalive(self, link: Link) -> None:
        """Send ``alive`` every :data:`KEEPALIVE_SECONDS` and count the link's silence; once a
        peer that sends keepalives has been silent for :data:`SILENT_TICKS` ticks, report the
        link dead (:meth:`_link_dead`)."""
        while True:
            try:
                link.outbox.send_nowait(ALIVE)  # at once, so the peer knows we send them
            except (trio.ClosedResourceError, trio.WouldBlock):
                return  # the session is finishing
            await trio.sleep(KEEPALIVE_SECONDS)
            link.silent_ticks += 1
            if link.keepalives and link.silent_ticks >= SILENT_TICKS:
                await self._inbox_send.send(("dead", link, None))
                return

    def _after_step(self, seat: LocalSeat, events: Sequence[Event]) -> None:
        if seat.show is not None and events:
            seat.show(seat.table, events)
        if seat is self.seats[0]:
            self._sync_transcript()

    def _sync_transcript(self) -> None:
        frames = self.reference.frames
        if self.writer is not None and not self._evidence_kept:
            written = self._written
            while self._written < len(frames):
                self.writer.append(frames[self._written])
                self._written += 1
            self._keep_signed(written)
        self._drop_spent()

    def _keep_signed(self, written: int) -> None:
        """Keep, for each local seat with a keeper, the count of its own envelopes the
        transcript now holds, if the frames from ``written`` on added some (SPEC §11.7.4); it
        is kept before those envelopes leave this process."""
        chain = self.reference.chain
        if chain.next_seq < self._written:
            return  # the reference table was not rebuilt from the transcript: nothing is signed
        if self._signed is None:  # the first write: count what the transcript held before
            self._signed = {s.table.seat: 0 for s in self.seats
                            if s.table.seat is not None and s.table.keeper is not None}
            for index in range(written):
                if chain.seat_of(index) in self._signed:
                    self._signed[chain.seat_of(index)] += 1
        if not self._signed:
            return
        grown: set[int] = set()
        for index in range(written, self._written):
            signer = chain.seat_of(index)
            if signer in self._signed:
                self._signed[signer] += 1
                grown.add(signer)
        for seat in self.seats:
            keeper, number = seat.table.keeper, seat.table.seat
            if keeper is None or number not in grown:
                continue
            keeper.keep(SIGNED, encode_count(self._signed[number]))

    def _drop_spent(self) -> None:
        """Delete the kept hand (and inbox) keys of every hand whose key reveals the transcript
        now holds
        (the reference table accepted them; the lines above wrote them)."""
        spent = self.reference.spent
        while self._dropped < len(spent):
            cycle = spent[self._dropped]
            self._dropped += 1
            for seat in self.seats:
                if seat.table.keeper is None:
                    continue
                for name in spent_names(cycle):
                    try:
                        seat.table.keeper.drop(name)
                    except SecretStoreError as exc:
                        self.notice(str(exc))

    def _keep_evidence(self, table: Table, violation: Violation, data: bytes,
                       before: int) -> None:
        """Append the evidence record of a refused envelope (nothing if the table accepted it
        before finding the violation: the chain holds it then)."""
        self._sync_transcript()
        if len(table.frames) != before:
            return
        record = from_violation(violation, data, before)
        if record is not None:
            self._write_evidence(record)

    def _write_evidence(self, record: Evidence) -> None:
        self._sync_transcript()
        self._evidence_kept = True
        if self.writer is not None:
            self.writer.append_evidence(record.encode())

    @abc.abstractmethod
    def _handle(self, item: Inbox) -> None:
        """Handle one item of the inbox (the match loop's :meth:`.session.Session._handle`)."""
