"""Away seats and re-entry (SPEC §11.7), dropouts (SPEC §9.13): :class:`AwaySession` is the one
place where a dead link is handled (marked down, its seats away, the table going on without it),
where a seat's return is waited for and said, and where a new connection of a seat catches up
with the ``resume`` exchange (:class:`~p2pcards.seating.reentry.Bond`); plus the limits of the
wait (the policy itself is :class:`~.links.Reentry`).
"""

from __future__ import annotations

import math
from typing import Any

import trio

from ..seating.reentry import Bond, Unproven
from ..wire import ZERO_HASH, codec
from ..wire.chain import Chain
from .errors import EXIT_VIOLATION, BadFrame, MatchFailure
from .framed import FrameChannel
from .leave import left_on_policy
from .links import Link
from .player import seat_label
from .sentences import did_not_come_back, may_come_back, relay_reconnecting
from .state import SessionState, tampered

__all__ = ["AwaySession", "MAX_RETURN_WAIT", "AWAY_REMINDERS", "holds"]

MAX_RETURN_WAIT = 86_400
"""The longest return wait (``--return-wait``), in seconds: one day."""
AWAY_REMINDERS = (300.0, 60.0, 30.0, 10.0)
"""Seconds left at which the wait for an away seat is said again."""


def holds(chain: Chain, count: int, head: bytes) -> bool:
    """Whether ``chain`` holds ``head`` as the hash of its envelope at position ``count - 1``
    (for ``count`` 0: whether ``head`` is the zero hash)."""
    if count == 0:
        return head == ZERO_HASH
    return chain.position_of(head) == count - 1


class AwaySession(SessionState):
    """Lost links, away seats and their return (module docstring)."""

    def _drops(self, link: Link) -> bool:
        """Whether a closed or dead ``link`` leaves the match going: the hub at a table that
        can recover the one seat behind it (noted as gone), or a seat already dropped."""
        table = self.reference
        if link.seats <= self._gone or (table.dropped is not None
                                        and link.seats == {table.dropped}):
            return True
        expected = table.expected
        if (not self.forward or not self.genesis.shares_keys or len(link.seats) != 1
                or self._gone or table.dropped is not None or expected is None
                or expected[1] == "accept"):
            return False
        self._gone |= link.seats
        return True

    def _goes_on_without(self, link: Link, seat: int) -> bool:
        """After the signed ``leave`` of ``seat`` (from ``link``): whether the match goes on
        without it, as the table's dropout policy says (SPEC §11.7.6). The hub goes on when
        it can recover the seat (:meth:`_drops`: the seat is noted as gone, and its recovery
        begins as soon as the table waits for it); a joiner at a table with a dropout policy
        goes on and waits for the hub's word, its ``recover`` or its ``abort``. Everyone who
        goes on is told who left and what follows."""
        if self.reference.finished or not self.genesis.shares_keys:
            return False
        if self.forward and not self._drops(link):
            return False
        self._left.add(seat)
        self.notice(left_on_policy(self.genesis, seat))
        return True

    def _link_dead(self, link: Link, why: str, relay_left: float | None = None) -> None:
        """The one place where a dead link is handled: its connection closed, broke, or fell
        silent past the keepalives (``why`` says which, naming the peer). Without re-entry the
        match ends with ``why``; with it the link goes *down* and its seats are away until they
        come back or the table's wait for them runs out (nothing it sent is lost: the
        transcript holds the chain). ``relay_left``: the relay between is what cannot be
        reached, and tries to reconnect for that many seconds more."""
        if self.reference.finished or link.state == "down" or link.seats <= self._left:
            return
        if self.reentry is None:
            raise MatchFailure(why)
        link.down(trio.current_time(), why)
        self._reminded.pop(id(link), None)
        patience = math.ceil(self.reentry.patience)
        if self.forward:
            self._tell_others(link, {"type": "away", "seats": sorted(link.seats),
                                     "seconds": patience})
        back = f"{patience // 60}:{patience % 60:02d}"
        if relay_left is not None:
            self.notice(relay_reconnecting(why, math.ceil(relay_left), self._names(link),
                                           back))
        else:
            self.notice(may_come_back(why, back))
        assert self._nursery is not None
        self._nursery.start_soon(self._expire, link, link.lost_at)
        if self.reentry.reconnect is not None:
            self._nursery.start_soon(self._bring_back, link)

    async def _expire(self, link: Link, lost_at: float) -> None:
        """Report ``link`` as ``expired`` once its seats' time to come back is over (whoever
        the table is waiting for then: the match cannot go on without them)."""
        assert self.reentry is not None
        await trio.sleep_until(lost_at + self.reentry.patience + self.grace)
        await self._inbox_send.send(("expired", link, lost_at))

    def _expired(self, link: Link, lost_at: float) -> None:
        """``link`` has been down since ``lost_at`` for the whole patience: the match ends,
        unless a dropout policy lets the hub recover its one seat when the table needs it."""
        if link.state != "down" or link.lost_at != lost_at or self._drops(link):
            return
        assert self.reentry is not None
        raise MatchFailure(did_not_come_back(link.lost_why, f"{self.reentry.patience:g}"))

    async def _bring_back(self, link: Link) -> None:
        """A joiner's: reconnect (``Reentry.reconnect`` retries) and hand the new connection
        to the match loop."""
        assert self.reentry is not None and self.reentry.reconnect is not None
        try:
            returned = await self.reentry.reconnect()
        except MatchFailure as exc:
            await self._inbox_send.send(("failed", link, exc))
            return
        channel, bond = returned
        await self._inbox_send.send(("returned", link, (channel, bond, None)))

    async def rejoin(self, bond: Bond, channel: FrameChannel, moved: str | None = None
                     ) -> None:
        """The hub's door: ``bond.seat`` proved its key on ``channel``
        (:mod:`p2pcards.seating.reentry`); the link of that seat is replaced by one over
        ``channel``, which is named by the proven seat from now on. ``moved``: the seat's
        live link moves onto ``channel`` (:meth:`move`), and this ``connection:`` line says
        so."""
        channel.label = seat_label(self.genesis, bond.seat)
        await self._inbox_send.send(("returned", self._link_of(bond.seat),
                                     (channel, bond, moved)))

    async def move(self, channel: FrameChannel, bond: Bond, line: str) -> None:
        """A joiner's: its link to the hub moves onto ``channel``, a new connection proven by
        re-entry while the link may still be live (a hole punched later, SPEC §11.10), and
        ``line`` says so instead of a return. The switch is the one of a return: from the
        moment the match loop takes it, the old connection is closed and nothing more it
        delivers is read, and the ``resume`` exchange on ``channel`` sends each side what
        the other has not accepted, so nothing in flight on the old path is lost or taken
        twice."""
        hub = self._link_of(0)
        channel.label = hub.label
        await self._inbox_send.send(("returned", hub, (channel, bond, line)))

    def _link_back(self, old: Link, channel: FrameChannel, bond: Bond,
                   moved: str | None = None) -> None:
        """A new, proven connection for the seats of ``old``: replace the link, start it, and
        open the ``resume`` exchange (the module docstring). The new link counts its peer's
        silence from the start and keeps the time it came back in ``lost_at``, so that a wait
        for its seats while it is ``syncing`` is bounded by the return wait. ``moved``: the
        ``connection:`` line of a live link that moved (:meth:`move`), said instead of a
        return (and after it, if the link was down meanwhile)."""
        now = trio.current_time()
        returning = moved is None or old.state == "down"
        if old.state != "down":
            old.down(now, f"{old.label} reconnected")
        old.retired = True
        if self._nursery is not None:
            self._nursery.start_soon(old.framed.aclose)
        link = Link(channel, old.seats, keepalives=True, state="syncing", lost_at=now,
                    lost_why=old.lost_why, bond=bond)
        self.links[self.links.index(old)] = link
        self._attach(link)
        chain = self.reference.chain
        link.outbox.send_nowait(codec.pack(bond.resume(chain.next_seq, chain.head)))
        if returning:
            self.notice(f"{self._names(link)} is back: catching up from envelope "
                        f"{chain.next_seq}")
            if self.forward:
                self._tell_others(link, {"type": "back", "seats": sorted(link.seats)})
        if moved is not None:
            self.notice(moved)

    def _note_away(self, link: Link, message: dict[str, Any]) -> bool:
        """A joiner's: take the hub's ``away {seats, seconds}`` or ``back {seats}``; False if
        ``message`` is neither. Raises :class:`BadFrame` for a malformed one."""
        kind = message["type"]
        fields = {"type", "seats", "seconds"} if kind == "away" else {"type", "seats"}
        if self.forward or kind not in ("away", "back"):
            return False
        seats = message.get("seats")
        seconds = message.get("seconds", 0)
        if (set(message) != fields or not isinstance(seats, list) or not seats
                or any(type(seat) is not int or seat not in link.seats or seat == 0
                       or seat in self._local_seats for seat in seats)
                or type(seconds) is not int or not 0 <= seconds <= MAX_RETURN_WAIT):
            raise BadFrame(f"{link.label} sent a malformed {kind!r} message")
        names = self._seat_names(seats)
        if kind == "back":
            for seat in seats:
                self._away_at_hub.pop(seat, None)
            self.notice(f"{names} is back at the table")
            return True
        until = trio.current_time() + seconds
        for seat in seats:
            self._away_at_hub[seat] = until
        self.notice(f"{names} lost the connection to the host; the host waits "
                    f"{seconds // 60}:{seconds % 60:02d} for it to come back")
        return True

    def _resync(self, link: Link, message: dict[str, Any]) -> None:
        """The other side's ``resume``: check its signature (a ``resume`` the other side did
        not sign ends the match naming nobody), then its head against this chain (another chain
        names the signer), and send it what follows (if it is ahead, it sends us what
        follows ours)."""
        assert link.bond is not None
        try:
            theirs = link.bond.check_resume(message)
        except Unproven as exc:
            raise tampered(link, exc) from None
        count, head = theirs.count, theirs.head
        chain = self.reference.chain
        if count <= chain.next_seq:
            if not holds(chain, count, head):
                raise MatchFailure(
                    f"protocol violation: {link.label} came back with a chain of {count} "
                    f"envelopes whose last one ({head[:8].hex()}...) is not the envelope this "
                    "peer holds at that place (its 'resume' signed on this connection says so)",
                    EXIT_VIOLATION)
            for data in self.reference.frames[count:]:
                link.outbox.send_nowait(codec.pack({"type": "envelope", "data": data}))
        link.state = "live"
