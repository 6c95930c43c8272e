"""The match loop every peer runs once the genesis is agreed: tables, links, routing, timeouts.

:class:`Session` runs the loop and sends this peer's ``leave`` (SPEC §11.7.6); the other jobs
live beside it, each a class over the shared :class:`~.state.SessionState`: :mod:`.state`
(reading and keeping links alive, the transcript), :mod:`.router` (handling the inbox and routing
envelopes, SPEC §6, §9.8), :mod:`.recoveries` (beginning and judging recoveries, SPEC §9.13),
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
are dropped. A seat's signed ``leave`` at such a table notes it as gone at once
(:mod:`.leave`). Only the hub begins a recovery, on its own liveness and timers: a joiner's
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

import trio

from ..records.secret_store import SecretStoreError
from ..table import ResumeError
from ..wire import codec
from .away import MAX_RETURN_WAIT
from .errors import CannotResume, MatchFailure
from .forks import ForkFound
from .framed import FrameChannel
from .interrupts import ON_SIGNAL, watch_signals
from .leave import leave_message, left_sentence
from .links import (
    CLOSE_SECONDS,
    FLUSH_SECONDS,
    Absent,
    Inbox,
    Link,
    Reentry,
)
from .player import LocalSeat, Player, PlayerQuit, seat_label
from .router import Routing
from .turns import TurnTaking

__all__ = ["Player", "LocalSeat", "Link", "Session", "PlayerQuit", "Reentry", "Absent",
           "seat_label", "FLUSH_SECONDS", "MAX_RETURN_WAIT"]

_Inbox = Inbox
"""The old name of :data:`~.links.Inbox`."""


class Session(TurnTaking, Routing):
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
