"""The match loop every peer runs once the genesis is agreed: tables, links, routing, timeouts.

:class:`Session` runs the loop, routes envelopes (SPEC §6, §9.8), takes ``leave`` (SPEC §11.7.6)
and watches recoveries (SPEC §9.13); the other jobs live beside it, each a class over the shared
:class:`~.state.SessionState`: :mod:`.state` (reading and keeping links alive, the transcript),
:mod:`.away` (lost links and re-entry, SPEC §11.7), :mod:`.forks` (settling a fork, SPEC §6.1)
and :mod:`.turns` (waits, claim windows, decisions). :mod:`.player` and :mod:`.links` hold
the values they share.

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

Wire messages after the handshake (see :mod:`.framed`): ``envelope {data: envelope bytes}``,
``abort {reason: text}``, and the two messages of a fork probe, ``need {hash: bytes(32)}`` and
``have {hash, data: envelope bytes or nil}``. Aborts travel outside the chain: they are a
courtesy, not evidence. On a connection made by re-entry an abort is signed on that connection
(:meth:`~p2pcards.seating.reentry.Bond.abort`), and one its sender did not sign ends the match as a
tampered connection, blaming nobody.

Re-entry (SPEC §11.7): with a :class:`Reentry` policy a link whose connection is lost (closed,
broken, or silent past the keepalives) is not the end of the match. :meth:`Session._link_dead`
is the one place where a dead link is handled: the link is marked *down*, its seats are
"away", and the table goes on without it (envelopes for it are not queued: it catches up when it
returns). When the table must wait for an away seat, it waits until ``Reentry.patience``
seconds (plus the grace) after the loss, whatever the seat's timeout, telling ``notice`` whom
it waits for and how long is left; a link still down at that moment ends the match, whoever
the table waits for then (unless the hub can recover its one seat: see Dropouts). The seat
comes back through :meth:`Session.rejoin` (the hub's door, after the seat proved its key) or
through ``Reentry.reconnect`` (a joiner dialling the host again).
On the new connection each side first sends ``resume {count, head, proof}`` (how far its chain
goes: its length and the hash of its last envelope, signed on the connection's two challenges,
:class:`~p2pcards.seating.reentry.Bond`), then answers the other's ``resume`` with the envelopes of
its own chain that follow it, after checking the other's signature and that its head is the envelope
it holds at that position. A ``resume`` its sender's key did not sign ends the match blaming
nobody (the connection was tampered with); a signed one with another chain names its signer.
Until its ``resume`` has arrived a new connection is *syncing*: a wait for a seat behind it
never times out in that seat's name, and its silence counts from the start (both sides of a
new connection send keepalives). A session made with ``replay`` starts from a transcript
(:meth:`~p2pcards.table.Table.resume`) with every link down.

Evidence (``protocol/SPEC.md`` §9.8): when a local table refuses a signed envelope, the session
appends an evidence record (:mod:`p2pcards.records.evidence`) holding it to the transcript before it
aborts, so that anyone can check the accusation with ``p2pcards verify``.

Dropouts (SPEC §9.13): at a table whose genesis sets a dropout policy, the hub does not end the
match when a joiner's link closes or dies: it notes the seat as gone and goes on until the table
waits for that seat, or when a remote seat's timeout passes, then it begins the recovery
(:meth:`~p2pcards.table.Table.recover`); every seat's table follows with its ``recover``
message, and the match ends as the table says. Envelopes of a seat whose recovery has begun
are dropped. Only the hub begins a recovery, on its own liveness and timers: a joiner's
``recover`` that is not its turn is dropped with a warning and the match goes on. A joiner
whose own seat the hub recovers while its connection stayed up and its time was far from out,
or after it had answered, says so naming the hub and stops (:mod:`p2pcards.seating.recovery_watch`).
A holder's ``complain`` about a wrong share (SPEC §9.13.4), sent in its turn, is sent on by the
hub to every seat, the holder included, before it stops, so that every transcript ends with it.

Forks (SPEC §6.1): when the reference table finds a ``fork`` (an envelope whose link names
another envelope than the one this peer holds, signed by another seat), the session does not
blame the signer. It asks the link that delivered the envelope for the envelope that link names
(``need``), then for the one before, and so on (:class:`~p2pcards.records.evidence.ForkProbe`), for
at most ``timeouts["step"]`` seconds. Every peer answers ``need`` from its own chain (``have``, with
``data`` nil when it holds no such envelope). If the answers bring the two branches together,
the culprit is proven (an ``equivocation``, or an ``out-of-turn`` envelope) and named, with a
second evidence record; otherwise the fork is reported as such: the hub or one of two seats.
"""

from __future__ import annotations

import contextlib
from typing import Any

import trio

from ..records.secret_store import SecretStoreError
from ..seating.recovery_watch import (
    Turn,
    answered_message,
    turn_limit,
    wrongful_elapsed,
    wrongful_message,
)
from ..table import HUB_SEAT, ResumeError, Table, Violation
from ..wire import codec
from .away import MAX_RETURN_WAIT, AwaySession
from .errors import EXIT_VIOLATION, BadFrame, CannotResume, MatchFailure, NetError, PeerGone
from .forks import ForkFound, ForkSettling
from .framed import FrameChannel
from .interrupts import ON_SIGNAL, watch_signals
from .leave import leave_message, leaving_seat, left_sentence
from .links import (
    CLOSE_SECONDS,
    FLUSH_SECONDS,
    KEEPALIVE_SECONDS,
    SILENT_TICKS,
    Absent,
    Inbox,
    Link,
    Reentry,
)
from .player import LocalSeat, Player, PlayerQuit, seat_label
from .turns import TurnTaking

__all__ = ["Player", "LocalSeat", "Link", "Session", "PlayerQuit", "Reentry", "Absent",
           "seat_label", "FLUSH_SECONDS", "MAX_RETURN_WAIT"]

_Inbox = Inbox
"""The old name of :data:`~.links.Inbox`."""


class Session(TurnTaking, ForkSettling, AwaySession):
    """One peer's match; see the module docstring. Run it once with :meth:`run`."""

    # ------------------------------------------------------------------ running

    async def run(self, *, keep_open: bool = False) -> None:
        """Play to the end of the match or raise :class:`MatchFailure`. With ``keep_open`` a
        match that ends well leaves its live connections open (:meth:`live_channels`), for
        the rematch exchange (:mod:`.rematch`); otherwise, and after a failure, they are
        closed."""
        failure: MatchFailure | None = None
        ended_well = False
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            policy = ON_SIGNAL.get()
            if policy is not None:
                nursery.start_soon(watch_signals, policy, self.request_leave)
            for link in self.links:
                if self.replay is not None:
                    link.down(trio.current_time(), f"{link.label} has not reconnected since "
                              "this peer restarted")
                    if self.reentry is not None and self.reentry.reconnect is not None:
                        nursery.start_soon(self._bring_back, link)
                else:
                    self._attach(link)
            try:
                await self._play_until_left()
                ended_well = True
            except SecretStoreError as exc:
                failure = MatchFailure(str(exc))
                self._abort_all(str(exc))
            except PlayerQuit as exc:
                failure = exc
                self._leave_all()
            except MatchFailure as exc:
                failure = exc
                self._abort_all(str(exc))
            finally:
                self._sync_transcript()
                for link in self.links:
                    link.outbox.close()
                try:
                    with trio.move_on_after(FLUSH_SECONDS):
                        for link in self.links:
                            await link.drained.wait()
                    for link in self.links:
                        link.scope.cancel()
                    if keep_open and ended_well:
                        self._hand_back_unread()
                    if not (keep_open and ended_well):
                        with trio.move_on_after(CLOSE_SECONDS):
                            async with trio.open_nursery() as closers:
                                for link in self.links:
                                    closers.start_soon(link.framed.aclose_gracefully)
                finally:  # also when cancelled (Ctrl-C): then nothing above waits
                    if not (keep_open and ended_well):
                        for link in self.links:
                            await link.framed.aclose()
                    nursery.cancel_scope.cancel()
        if failure is not None:
            raise failure

    def _hand_back_unread(self) -> None:
        """After a match that ended well: the messages read from a connection but not handled
        (a peer's first rematch message, sent as soon as its own table finished) go back to
        that connection, to be read next."""
        while True:
            try:
                what, link, value = self._inbox.receive_nowait()
            except (trio.WouldBlock, trio.EndOfChannel):
                return
            if what == "message" and link.state == "live":
                link.framed.unread.append(value)

    def live_channels(self) -> dict[int, FrameChannel]:
        """After a match that ended well: the open connection of each remote seat, by seat
        (a seat whose connection was lost at the end has none)."""
        return {seat: link.framed for link in self.links if link.state == "live"
                for seat in link.seats}

    def request_leave(self) -> None:
        """Leave the match now, as a confirmed ``q`` does (Ctrl-C, SIGTERM): the match loop is
        cancelled where it waits (it changes the tables only between two waits, so no step is
        cut in half) and the signed ``leave`` goes out on every connection."""
        self._leaving = True
        self._playing.cancel()

    async def _play_until_left(self) -> None:
        """:meth:`_play`, ended by :meth:`request_leave` as a :class:`PlayerQuit`."""
        with self._playing:
            await self._play()
        if self._leaving and not self.reference.finished:
            raise PlayerQuit()

    def _leave_all(self) -> None:
        """Send this peer's signed ``leave`` (:mod:`.leave`) on every link not down; a seat
        without its key (a test's) sends an ``abort`` that names it instead."""
        own = self.seats[0]
        seat = own.table.seat
        if seat is None:
            return
        if own.identity is None:
            self._abort_all(left_sentence(self.genesis, seat))
            return
        frame = codec.pack(leave_message(self.genesis, seat, own.identity))
        for link in self.links:
            if link.state == "down":
                continue
            with contextlib.suppress(trio.ClosedResourceError, trio.BrokenResourceError):
                link.outbox.send_nowait(frame)

    def _take_leave(self, link: Link, message: dict[str, Any]) -> None:
        """Another seat's ``leave`` from ``link``: checked (the hub takes it only for the seats
        behind that link, a joiner for any seat but its own), sent on by the hub to every other
        seat, and the match ends naming who left. A ``leave`` that fails the check is a bad
        frame."""
        allowed = link.seats if self.forward else (
            frozenset(range(len(self.genesis.seats))) - self._local_seats)
        seat = leaving_seat(self.genesis, message, allowed)
        if seat is None:
            raise BadFrame(f"{link.label} sent a 'leave' that is not the signed leave of one "
                           "of its seats")
        if self.forward:
            self._tell_others(link, message)
        raise MatchFailure(left_sentence(self.genesis, seat))


    async def _play(self) -> None:
        for seat in self.seats:
            if self.replay is None:
                step = seat.table.start()
                self._after_step(seat, step.events)
            else:
                try:
                    step = seat.table.resume(self.replay)
                except ResumeError as exc:
                    raise CannotResume(f"seat {seat.table.seat} cannot resume: {exc}"
                                       ) from None
                self._after_step(seat, [])
            self._queue.extend((seat, data) for data in step.outgoing)
        while True:
            try:
                self._route()
            except ForkFound as fork:
                await self._settle_fork(fork)
            if self.reference.finished:
                return
            self._watch_turn()
            if await self._offer_claims():
                continue
            deciding = next((s for s in self.seats if s.table.needs_decision), None)
            if deciding is not None:
                await self._decide(deciding)
                continue
            expected = self.reference.expected
            assert expected is not None
            speaker, kind = expected
            proposing = any(s.table.proposal is not None for s in self.seats)
            if speaker in self._local_seats and not proposing:
                raise MatchFailure(f"this peer's seat {speaker} cannot make progress "
                                   f"(waiting for its {kind!r} message)")
            if speaker in self._gone and self._begin_recovery(speaker):
                continue
            person = kind == "action" and speaker not in self.bots
            limit = self.genesis.timeouts["action" if person else "step"]
            item = await self._wait_for(speaker, limit)
            if item is None:
                if self._begin_recovery(speaker):
                    continue
                raise self._timed_out(speaker, limit)
            self._handle(item)

    # ------------------------------------------------------------------ recoveries

    def _refuses_recovery(self, link: Link, data: bytes) -> bool:
        """The hub's: whether ``data`` is a ``recover`` signed by a seat of ``link`` that is
        not that seat's turn in a ``recover`` round (an attempt to begin a recovery, or a late
        one); it is then dropped with a warning and the match goes on (SPEC §9.13.5: only the
        hub begins a recovery, by its own liveness and timers)."""
        claim = self.reference.recover_sender(data) if self.forward else None
        if claim is None or claim[0] not in link.seats:
            return False
        sender, named, _ = claim
        if self.reference.expected == (sender, "recover"):
            return False
        seats = range(len(self.genesis.seats))
        whom = self._seat_names([named]) if type(named) is int and named in seats \
            else repr(named)
        self.notice(f"{self._seat_names([sender])} sent a 'recover' of {whom}: refused and "
                    "dropped, since only the host begins a recovery, when its own wait for "
                    "that seat runs out")
        return True

    def _watch_turn(self) -> None:
        """A joiner's: note when its local seat's turn begins, and on which connection (the
        hub's live link, or none), for :meth:`_judge_recovery`."""
        expected = self.reference.expected
        if self.forward or expected is None or expected[0] not in self._local_seats:
            return
        position = self.reference.chain.next_seq
        if self._turn is not None and (self._turn.seat, self._turn.position) == (
                expected[0], position):
            return
        live = next((link for link in self.links if link.state == "live"), None)
        self._turn = Turn(expected[0], expected[1], position, trio.current_time(), live)

    def _judge_recovery(self, link: Link, seat: int, index: int) -> None:
        """A joiner's, after its table accepted the hub's first ``recover``, naming ``seat``
        at chain ``index``: if ``seat`` is this peer's and was connected and answering
        (:func:`~p2pcards.seating.recovery_watch.wrongful_elapsed`), say so naming the hub and stop,
        the transcript ending with that ``recover`` (SPEC §9.13.5)."""
        if self.forward or seat not in self._local_seats or self._turn is None:
            return
        turn = self._turn
        limit = turn_limit(self.genesis, turn.kind, seat, self.bots)
        elapsed = wrongful_elapsed(turn, seat=seat, position=index, now=trio.current_time(),
                                   limit=limit, connection=link)
        if elapsed is None or link.state != "live":
            return
        self._sync_transcript()
        raise MatchFailure(wrongful_message(self._hub_label(), turn, elapsed, limit),
                           EXIT_VIOLATION)

    def _judge_late_recovery(self, data: bytes) -> None:
        """A joiner's, when its table refused ``data``: if it is the hub's ``recover`` of this
        peer's seat at a chain position that holds that seat's own envelope (it had answered,
        and the hub claims it did not), say so naming the hub. The refused ``recover`` is
        already kept as an evidence record."""
        claim = self.reference.recover_sender(data)
        if self.forward or claim is None:
            return
        signer, named, seq = claim
        chain = self.reference.chain
        if (signer == HUB_SEAT and type(named) is int and named in self._local_seats
                and 0 <= seq < chain.next_seq
                and chain.seat_of(seq) == named):
            raise MatchFailure(answered_message(self._hub_label(), seq), EXIT_VIOLATION)

    def _begin_recovery(self, seat: int) -> bool:
        """The hub begins the recovery of ``seat`` (gone, or silent past its timeout) if the
        table allows it (SPEC §9.13); False otherwise."""
        host = self.seats[0]
        if not self.forward or not host.table.can_recover(seat):
            return False
        self._gone.add(seat)
        step = host.table.recover(seat)
        self._after_step(host, step.events)
        self._queue.extend((host, data) for data in step.outgoing)
        return True

    # ------------------------------------------------------------------ messages

    def _handle(self, item: _Inbox) -> None:
        what, link, value = item
        if what == "returned":  # the latest proven connection of these seats takes over
            channel, bond = value
            self._link_back(self._link_of(min(link.seats)), channel, bond)
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
                self._link_dead(link, f"the relay at {relay[0]} is unreachable", relay[1])
                return
            seconds = int(SILENT_TICKS * KEEPALIVE_SECONDS)
            self._link_dead(link, f"{link.label} stopped answering: nothing arrived for "
                            f"{seconds} seconds (its program, its machine or the network is "
                            "gone)")
            return
        if what == "closed":
            self._link_dead(link, f"{link.label} left the table: the connection closed")
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
                raise MatchFailure(f"{link.label} aborted the match: {reason}")
        if kind == "leave":
            self._take_leave(link, message)
        if kind == "again":
            return  # a rematch answer that crossed this match's genesis: a leave follows it
        if self._answer(link, message) or self._note_away(link, message):
            return
        if kind == "have" and set(message) == {"type", "hash", "data"}:
            return  # a late answer to a probe that is over
        raise BadFrame(f"{link.label} sent an unexpected {kind!r} message during the match")


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
