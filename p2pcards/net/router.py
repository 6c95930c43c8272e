"""Routing envelopes between the local tables and the links (SPEC §6, §9.8), and handling
everything the inbox brings: :class:`Routing` is the part of the match loop that takes one inbox
item (:meth:`Routing._handle`: an envelope to queue, an ``abort``, a ``leave``, a fork probe's
``need``, the hub's ``away``/``back``, or a link that closed, died or came back) and delivers the
queued envelopes (:meth:`Routing._route`).

The first local table is the *reference*: every envelope from a link goes through it first, so
nothing is accepted, forwarded or written that it rejected. Then an envelope accepted from link
``L`` goes to every other local table and, when the session forwards (the hosting hub), to every
live link except ``L``; an envelope produced by a local table goes to every other local table and
every live link; a link that is down catches up when it is back (``resume``, SPEC §11.7). The hub
orders claim windows (SPEC §9.2): a claim that lost the race is dropped, and the winner is sent
back to its sender too. When a table refuses a signed envelope the evidence record is written
before the match ends (SPEC §9.8); a fork (SPEC §6.1) is handed to :mod:`.forks`.
"""

from __future__ import annotations

from typing import Any

from ..table import Table, Violation
from ..wire import codec
from .away import AwaySession
from .errors import EXIT_VIOLATION, BadFrame, MatchFailure, NetError, PeerGone
from .forks import ForkFound, ForkSettling
from .leave import leaving_seat, left_sentence
from .links import KEEPALIVE_SECONDS, SILENT_TICKS, Inbox, Link
from .player import LocalSeat, seat_label
from .recoveries import Recoveries
from .sentences import aborted, left_the_table, relay_unreachable, stopped_answering

__all__ = ["Routing"]


class Routing(Recoveries, ForkSettling, AwaySession):
    """Handling inbox items and routing envelopes (module docstring)."""

    def _handle(self, item: Inbox) -> None:
        what, link, value = item
        if what == "returned":  # the latest proven connection of these seats takes over
            channel, bond, moved = value
            self._link_back(self._link_of(min(link.seats)), channel, bond, moved)
            return
        if link.retired:
            return  # what a replaced connection still reported
        if what == "failed":
            assert isinstance(value, MatchFailure)
            raise value
        if what == "expired":
            self._expired(link, value)
            return
        if (what in ("dead", "closed", "error") and self.reentry is None
                and self._drops(link)):
            return
        if what == "dead":
            relay = link.framed.relay_unreachable()
            if relay is not None:
                self._link_dead(link, relay_unreachable(relay[0]), relay[1])
                return
            seconds = int(SILENT_TICKS * KEEPALIVE_SECONDS)
            self._link_dead(link, stopped_answering(link.label, seconds))
            return
        if what == "closed":
            self._link_dead(link, left_the_table(link.label))
            return
        if what == "error":
            assert isinstance(value, NetError)
            if not isinstance(value, PeerGone):
                raise value
            self._link_dead(link, str(value))
            return
        message: dict[str, Any] = value
        if link.state == "syncing" and message["type"] not in ("abort", "leave"):
            self._resync(link, message)
            return
        kind = message["type"]
        if self.forward and link.seats <= self._gone:
            return  # a late message of a seat noted as gone, or whose recovery has begun
        if kind == "envelope" and set(message) == {"type", "data"} and isinstance(
                message["data"], bytes):
            self._queue.append((link, message["data"]))
            return
        if kind == "abort":
            reason = self._abort_reason(link, message)
            if reason is not None:
                raise MatchFailure(aborted(link.label, reason))
        if kind == "leave":
            self._take_leave(link, message)
            return
        if kind == "again":
            return  # a rematch answer that crossed this match's genesis: a leave follows it
        if self._answer(link, message) or self._note_away(link, message):
            return
        if kind == "have" and set(message) == {"type", "hash", "data"}:
            return  # a late answer to a probe that is over
        raise BadFrame(f"{link.label} sent an unexpected {kind!r} message during the match")

    def _take_leave(self, link: Link, message: dict[str, Any]) -> None:
        """Another seat's ``leave`` from ``link``: checked (the hub takes it only for the seats
        behind that link, a joiner for any seat but its own), sent on by the hub to every other
        seat, and the match ends naming who left, unless the table's dropout policy lets it go
        on without that seat (:meth:`_goes_on_without`). A ``leave`` that fails the check is a
        bad frame."""
        allowed = link.seats if self.forward else (
            frozenset(range(len(self.genesis.seats))) - self._local_seats)
        seat = leaving_seat(self.genesis, message, allowed)
        if seat is None:
            raise BadFrame(f"{link.label} sent a 'leave' that is not the signed leave of one "
                           "of its seats")
        if self.forward:
            self._tell_others(link, message)
        if not self._goes_on_without(link, seat):
            raise MatchFailure(left_sentence(self.genesis, seat))

    def _route(self) -> None:
        """Deliver every queued envelope (and whatever the local tables answer)."""
        while self._queue:
            origin, data = self._queue.popleft()
            echo = False
            local_proposal = isinstance(origin, LocalSeat) and origin.table.proposal == data
            if isinstance(origin, Link):
                placed = self._accept_remote(origin, data)
                if placed is None:
                    continue  # a claim-window message that came second, or a refused recover
                echo = placed in self.reference.windows
            elif (isinstance(origin, LocalSeat) and local_proposal and self.forward
                  and self._place_own(origin, data) is None):
                continue  # the hub orders claim windows: its own proposal enters its chain now
            for seat in self.seats:
                if seat is origin or (isinstance(origin, Link) and seat is self.seats[0]):
                    continue
                if local_proposal and not self.forward:
                    break  # the other local tables take it when the hub sends it back
                before = len(seat.table.frames)
                try:
                    step = seat.table.receive(data)
                except Violation as violation:
                    self._keep_evidence(seat.table, violation, data, before)
                    raise MatchFailure(f"protocol violation: {violation}",
                                       EXIT_VIOLATION) from None
                self._after_step(seat, step.events)
                self._queue.extend((seat, out) for out in step.outgoing)
            if self.forward or not isinstance(origin, Link):
                self._send_on(origin, data, echo)
            self._sync_transcript()

    def _send_on(self, origin: object, data: bytes, echo: bool) -> None:
        """Send an envelope this peer's chain accepted to every live link but the one it came
        from (to that one too with ``echo``: a claim-window winner, or a complaint)."""
        frame = codec.pack({"type": "envelope", "data": data})
        for link in self.links:
            if link.state != "live":
                continue  # it catches up when it is back (``resume``)
            same = isinstance(origin, Link) and link.seats == origin.seats
            if not same or echo:
                link.outbox.send_nowait(frame)

    def _send_proof_on(self, origin: object, table: Table, data: bytes,
                       before: int) -> None:
        """The hub's chain accepted ``data`` and then found a violation it proves (a proven
        complaint names the dealer, SPEC §9.13.4): every seat gets the envelope before the
        abort, so that every transcript holds the proof."""
        if self.forward and len(table.frames) != before:
            self._send_on(origin, data, echo=before in table.windows)

    def _accept_remote(self, link: Link, data: bytes) -> int | None:
        """Check and accept a remote envelope with the reference table: its chain index, or
        ``None`` for a claim-window message that lost the race (the hub drops it)."""
        reference = self.seats[0]
        if reference.table.is_lost_race(data):
            return None
        expected = self.reference.expected
        own = any(s.table.proposal == data for s in self.seats)
        if (expected is not None and not (self.reference.speakers & link.seats) and not own
                and not reference.table.opens_recovery(data)):
            if self._refuses_recovery(link, data):
                return None
            raise MatchFailure(
                f"protocol violation: {link.label} sent an envelope while "
                f"{seat_label(self.genesis, expected[0])} was to speak", EXIT_VIOLATION)
        index = reference.table.chain.next_seq
        before = len(reference.table.frames)
        try:
            step = reference.table.receive(data)
        except Violation as violation:
            if violation.rule == "wrong-kind" and self._refuses_recovery(link, data):
                return None  # the awaited seat or a claimant sent a recover: nothing changed
            self._keep_evidence(reference.table, violation, data, before)
            self._send_proof_on(link, reference.table, data, before)
            if violation.rule == "fork":
                raise ForkFound(violation, link, data) from None
            self._judge_late_recovery(data)
            raise MatchFailure(f"protocol violation: {violation}", EXIT_VIOLATION) from None
        self._after_step(reference, step.events)
        self._queue.extend((reference, out) for out in step.outgoing)
        recovery = reference.table.recovery
        if recovery is not None and recovery.index == index:
            self._judge_recovery(link, recovery.seat, index)
        return index

    def _place_own(self, seat: LocalSeat, data: bytes) -> int | None:
        """The hub puts its local seat's claim-window proposal in the chain (``None``: another
        message took the place first)."""
        index = seat.table.chain.next_seq
        try:
            step = seat.table.receive(data)
        except Violation as violation:
            if violation.rule == "lost-race":
                return None
            self._send_proof_on(seat, seat.table, data, index)
            raise MatchFailure(f"protocol violation: {violation}", EXIT_VIOLATION) from None
        self._after_step(seat, step.events)
        self._queue.extend((seat, out) for out in step.outgoing)
        return index
