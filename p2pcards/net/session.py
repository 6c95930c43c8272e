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
import functools
import math
from collections import deque
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any

import trio

from ..games.base import Action
from ..records.evidence import Evidence, ForkProbe, ProbeError, from_violation
from ..records.secret_store import (
    SIGNED,
    SecretStoreError,
    encode_count,
    spent_names,
)
from ..records.transcript import TranscriptWriter
from ..seating.genesis import Genesis
from ..seating.recovery_watch import (
    Turn,
    answered_message,
    turn_limit,
    wrongful_elapsed,
    wrongful_message,
)
from ..seating.reentry import Bond, Unproven
from ..table import HUB_SEAT, Event, ResumeError, Table, Violation
from ..wire import ZERO_HASH, codec
from ..wire.chain import Chain
from ..wire.errors import ProtocolError
from ..wire.identity import PublicIdentity
from .away import AWAY_REMINDERS, MAX_RETURN_WAIT
from .errors import EXIT_VIOLATION, BadFrame, CannotResume, MatchFailure, NetError, PeerGone
from .framed import FrameChannel
from .interrupts import ON_SIGNAL, watch_signals
from .leave import leave_message, leaving_seat, left_sentence
from .links import (
    ALIVE,
    CLOSE_SECONDS,
    FLUSH_SECONDS,
    INBOX_SIZE,
    KEEPALIVE_SECONDS,
    SILENT_TICKS,
    Absent,
    Inbox,
    Link,
    Reentry,
)
from .player import STATUS_SECONDS, LocalSeat, Player, PlayerQuit, seat_label

__all__ = ["Player", "LocalSeat", "Link", "Session", "PlayerQuit", "Reentry", "Absent",
           "seat_label", "FLUSH_SECONDS", "MAX_RETURN_WAIT"]

_Inbox = Inbox
_INTERRUPTED = object()


def _carries_envelope(item: _Inbox) -> bool:
    """Whether an inbox item is an envelope from a peer."""
    what, _, value = item
    return what == "message" and isinstance(value, dict) and value.get("type") == "envelope"


def _tampered(link: Link, why: Unproven) -> MatchFailure:
    """The verdict on a re-entered connection that carried what its peer did not sign."""
    return MatchFailure(f"the connection to {link.label} was tampered with: {why}; its seat is "
                        "not blamed, and the match ends")


def _holds(chain: Chain, count: int, head: bytes) -> bool:
    """Whether ``chain`` holds ``head`` as the hash of its envelope at position ``count - 1``
    (for ``count`` 0: whether ``head`` is the zero hash)."""
    if count == 0:
        return head == ZERO_HASH
    return chain.position_of(head) == count - 1


class _ForkFound(Exception):
    """The reference table found a fork in an envelope from ``link`` (handled in ``_play``)."""

    def __init__(self, violation: Violation, link: Link, data: bytes) -> None:
        super().__init__(str(violation))
        self.violation = violation
        self.link = link
        self.data = data


class _ProbeEnded(Exception):
    """The fork probe cannot go on (the asked peer left, or someone aborted)."""


class Session:
    """One peer's match; see the module docstring. Run it once with :meth:`run`."""

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
        self._inbox_send, self._inbox = trio.open_memory_channel[_Inbox](INBOX_SIZE)
        self._local_seats = {s.table.seat for s in self.seats}
        self._offered: set[tuple[int | None, int]] = set()
        self._gone: set[int] = set()
        """Seats whose link closed or died at a table that can recover them (the hub only)."""
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
            except _ForkFound as fork:
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

    def _timed_out(self, speaker: int, limit: float) -> MatchFailure:
        """Why the wait for ``speaker`` ended: its link's loss when its connection is down or
        has come back without catching up, else the seat's own silence."""
        link = self._unsettled(speaker)
        if link is not None and self.reentry is not None:
            patience = f"{self.reentry.patience:g} seconds"
            if link.state == "syncing":
                return MatchFailure(f"{link.label} came back on a new connection but did not "
                                    f"catch up within {patience}")
            return MatchFailure(f"{link.lost_why}, and did not come back within {patience}")
        return MatchFailure(f"{seat_label(self.genesis, speaker)} did not answer within "
                            f"{limit} seconds")

    async def _wait_for(self, speaker: int, limit: float) -> _Inbox | None:
        """The next incoming item while the table waits for remote seat ``speaker``, or
        ``None`` after ``limit`` (+ grace) seconds. The local seats' ``status`` hooks are told
        whom the table waits for and the seconds left, at the start and every
        :data:`STATUS_SECONDS`, and told ``((), None)`` when the wait ends."""
        deadline = trio.current_time() + limit + self.grace
        try:
            while True:
                now = trio.current_time()
                away = self._away(speaker)
                unsettled = self._unsettled(speaker)
                end = deadline
                if unsettled is not None and self.reentry is not None:
                    end = unsettled.lost_at + self.reentry.patience + self.grace
                elif speaker in self._away_at_hub:  # the hub decides when to stop waiting
                    end = max(deadline, self._away_at_hub[speaker] + self.grace)
                left = end - now
                if left <= 0:
                    return None
                if away is not None:
                    self._remind_away(away, max(0.0, left - self.grace))
                self._report_status((speaker,), max(0.0, left - self.grace))
                with trio.move_on_after(min(left, STATUS_SECONDS)):
                    return await self._inbox.receive()
        finally:
            self._report_status((), None)

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

    def _remind_away(self, link: Link, left: float) -> None:
        """Tell ``notice`` whom the table waits to come back: at once, then at
        :data:`AWAY_REMINDERS`."""
        key = id(link)
        said = self._reminded.get(key)
        if said is not None and not any(left <= mark < said for mark in AWAY_REMINDERS):
            return
        self._reminded[key] = left
        whole = max(0, math.ceil(left))
        self.notice(f"waiting for {self._names(link)} to come back: "
                    f"{whole // 60}:{whole % 60:02d} left")

    def _names(self, link: Link) -> str:
        """``Bob [1]`` (or ``the host, Alice [0]``) for the seats of ``link``."""
        if not self.forward and 0 in link.seats:
            return f"the host, {self._seat_names([0])}"
        return self._seat_names(link.seats)

    def _seat_names(self, seats: Iterable[int]) -> str:
        """``Bob [1], Carol [2]`` for ``seats``, by the names they sat down with."""
        return ", ".join(f"{self.genesis.seats[s].name or 'seat'} [{s}]" for s in sorted(seats))

    def _report_status(self, seats: tuple[int, ...], seconds_left: float | None) -> None:
        for seat in self.seats:
            if seat.status is not None:
                seat.status(seats, seconds_left)

    async def _offer_claims(self) -> bool:
        """Ask each local seat's ``claim`` once per claim window; True if one claimed."""
        for seat in self.seats:
            if seat.claim is None:
                continue
            key = (seat.table.seat, seat.table.chain.next_seq)
            if key in self._offered or not seat.table.claim_actions():
                continue
            self._offered.add(key)
            claim = seat.claim
            if seat.person:
                raced = await self._race(functools.partial(claim, seat.table))
                if raced is _INTERRUPTED:
                    return True  # a message came first: the window may be closed now
                action = raced if isinstance(raced, Action) else None
            else:
                action = await claim(seat.table)
            if action is not None:
                step = seat.table.claim(action)
                self._after_step(seat, step.events)
                self._queue.extend((seat, data) for data in step.outgoing)
                return True
        return False

    async def _race(self, ask: Callable[[], Awaitable[Action | None]]) -> object:
        """Run a person's prompt against incoming messages: its answer, or ``_INTERRUPTED``
        after handling the message that came first. A message that arrived in the same
        scheduling moment as the answer is handled too, never dropped: an envelope wins (the
        answer is dropped and the person asked again on the table it leads to); anything else
        (a ``resume``, a link coming back, a notice) is handled and the answer kept."""
        answer: list[Action | None] = []
        interrupt: list[_Inbox] = []
        error: list[MatchFailure] = []
        async with trio.open_nursery() as nursery:
            async def prompt() -> None:
                try:
                    answer.append(await ask())
                except MatchFailure as exc:
                    error.append(exc)
                nursery.cancel_scope.cancel()

            async def watch() -> None:
                interrupt.append(await self._inbox.receive())
                nursery.cancel_scope.cancel()

            nursery.start_soon(prompt)
            nursery.start_soon(watch)
        if error:
            raise error[0]
        if interrupt:  # also when the answer came in the same moment: never drop a message
            item = interrupt[0]
            self._handle(item)  # raises, queues an envelope, or changes a link
            if not answer or _carries_envelope(item):
                return _INTERRUPTED  # the table may change first: the person is asked again
        return answer[0]

    async def _decide(self, seat: LocalSeat) -> None:
        action: Action | None = None
        if not seat.person:
            action = await seat.decide(seat.table)
        else:
            raced = await self._race(lambda: seat.decide(seat.table))
            if not isinstance(raced, Action):
                return
            action = raced
        step = seat.table.decide(action)
        self._after_step(seat, step.events)
        self._queue.extend((seat, data) for data in step.outgoing)

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

    def _hub_label(self) -> str:
        """``seat 0 Alice (ABCD-...)``: the hub, for a sentence that names it."""
        hub = self.genesis.seats[HUB_SEAT]
        fingerprint = PublicIdentity(hub.identity).fingerprint
        return f"seat {HUB_SEAT} {hub.name or 'host'} ({fingerprint})"

    # ------------------------------------------------------------------ messages

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
        if self._answer(link, message) or self._note_away(link, message):
            return
        if kind == "have" and set(message) == {"type", "hash", "data"}:
            return  # a late answer to a probe that is over
        raise BadFrame(f"{link.label} sent an unexpected {kind!r} message during the match")

    def _link_dead(self, link: Link, why: str, relay_left: float | None = None) -> None:
        """The one place where a dead link is handled: its connection closed, broke, or fell
        silent past the keepalives (``why`` says which, naming the peer). Without re-entry the
        match ends with ``why``; with it the link goes *down* and its seats are away until they
        come back or the table's wait for them runs out (nothing it sent is lost: the
        transcript holds the chain). ``relay_left``: the relay between is what cannot be
        reached, and tries to reconnect for that many seconds more."""
        if self.reference.finished or link.state == "down":
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
            self.notice(f"{why}; reconnecting ({math.ceil(relay_left)} s left); "
                        f"{self._names(link)} may come back within {back}")
        else:
            self.notice(f"{why}; it may come back within {back}")
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
        raise MatchFailure(f"{link.lost_why}, and did not come back within "
                           f"{self.reentry.patience:g} seconds")

    async def _bring_back(self, link: Link) -> None:
        """A joiner's: reconnect (``Reentry.reconnect`` retries) and hand the new connection
        to the match loop."""
        assert self.reentry is not None and self.reentry.reconnect is not None
        try:
            returned = await self.reentry.reconnect()
        except MatchFailure as exc:
            await self._inbox_send.send(("failed", link, exc))
            return
        await self._inbox_send.send(("returned", link, returned))

    async def rejoin(self, bond: Bond, channel: FrameChannel) -> None:
        """The hub's door: ``bond.seat`` proved its key on ``channel``
        (:mod:`p2pcards.seating.reentry`); the link of that seat is replaced by one over
        ``channel``, which is named by the proven seat from now on."""
        channel.label = seat_label(self.genesis, bond.seat)
        await self._inbox_send.send(("returned", self._link_of(bond.seat), (channel, bond)))

    def _link_of(self, seat: int) -> Link:
        """The current link through which ``seat`` speaks."""
        for link in self.links:
            if seat in link.seats:
                return link
        raise ValueError(f"seat {seat} is not behind a link of this session")

    def _link_back(self, old: Link, channel: FrameChannel, bond: Bond) -> None:
        """A new, proven connection for the seats of ``old``: replace the link, start it, and
        open the ``resume`` exchange (the module docstring). The new link counts its peer's
        silence from the start and keeps the time it came back in ``lost_at``, so that a wait
        for its seats while it is ``syncing`` is bounded by the return wait."""
        now = trio.current_time()
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
        self.notice(f"{self._names(link)} is back: catching up from envelope {chain.next_seq}")
        if self.forward:
            self._tell_others(link, {"type": "back", "seats": sorted(link.seats)})

    def _tell_others(self, about: Link, message: dict[str, Any]) -> None:
        """The hub's: send ``message`` on every live link but ``about``'s."""
        frame = codec.pack(message)
        for link in self.links:
            if link is about or link.seats == about.seats or link.state != "live":
                continue
            with contextlib.suppress(trio.ClosedResourceError, trio.BrokenResourceError):
                link.outbox.send_nowait(frame)

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
            raise _tampered(link, exc) from None
        count, head = theirs.count, theirs.head
        chain = self.reference.chain
        if count <= chain.next_seq:
            if not _holds(chain, count, head):
                raise MatchFailure(
                    f"protocol violation: {link.label} came back with a chain of {count} "
                    f"envelopes whose last one ({head[:8].hex()}...) is not the envelope this "
                    "peer holds at that place (its 'resume' signed on this connection says so)",
                    EXIT_VIOLATION)
            for data in self.reference.frames[count:]:
                link.outbox.send_nowait(codec.pack({"type": "envelope", "data": data}))
        link.state = "live"

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
                raise _ForkFound(violation, link, data) from None
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

    # ------------------------------------------------------------------ evidence and forks

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

    def _answer(self, link: Link, message: dict[str, Any]) -> bool:
        """Answer a ``need`` from this peer's chain; False if ``message`` is not one."""
        if message["type"] != "need" or set(message) != {"type", "hash"} or not isinstance(
                message["hash"], bytes):
            return False
        position = self.reference.chain.position_of(message["hash"])
        data = None if position is None else self.reference.frames[position]
        with contextlib.suppress(trio.ClosedResourceError, trio.BrokenResourceError):
            link.outbox.send_nowait(codec.pack({"type": "have", "hash": message["hash"],
                                                "data": data}))
        return True

    async def _answer_for(self, link: Link, wanted: bytes) -> bytes | None:
        """Wait for ``link``'s ``have`` for ``wanted``, answering ``need`` meanwhile and dropping
        envelopes (the table has stopped); :class:`_ProbeEnded` if that cannot happen."""
        while True:
            what, source, value = await self._inbox.receive()
            if what != "message":
                if source is link:
                    raise _ProbeEnded(f"{link.label} left")
                continue
            message: dict[str, Any] = value
            reason = self._abort_reason(source, message)
            if reason is not None:
                raise _ProbeEnded(f"{source.label} aborted the match: {reason}")
            if self._answer(source, message):
                continue
            if (source is link and message["type"] == "have"
                    and set(message) == {"type", "hash", "data"}
                    and message["hash"] == wanted):
                data = message["data"]
                return data if isinstance(data, bytes) else None

    async def _settle_fork(self, fork: _ForkFound) -> None:
        """Probe the branch behind a fork (module docstring); always raises MatchFailure."""
        table = self.reference
        keys = [PublicIdentity.from_bytes(s.identity) for s in self.genesis.seats]
        failure = f"protocol violation: {fork.violation}"
        try:
            probe = ForkProbe(table.chain, keys, fork.data)
        except (ValueError, ProtocolError):
            raise MatchFailure(failure, EXIT_VIOLATION) from None
        ask = fork.link
        limit = self.genesis.timeouts["step"]
        why = f"{ask.label} did not produce the envelope it linked to within {limit} seconds"
        with trio.move_on_after(limit + self.grace):
            try:
                while True:
                    wanted = probe.wanted
                    with contextlib.suppress(trio.ClosedResourceError,
                                             trio.BrokenResourceError):
                        ask.outbox.send_nowait(codec.pack({"type": "need", "hash": wanted}))
                    data = await self._answer_for(ask, wanted)
                    if data is None:
                        why = (f"{ask.label} does not hold the envelope {wanted[:8].hex()}... "
                               "that the link names")
                        break
                    record = probe.feed(data)
                    if record is not None:
                        self._write_evidence(record)
                        culprit = seat_label(self.genesis, record.seat) \
                            if record.seat is not None else "no seat"
                        raise MatchFailure(
                            f"protocol violation: {culprit} is proven at fault "
                            f"({record.rule}): {record.message}; this peer's chain holds one "
                            f"branch and {ask.label} produced the other when asked about the "
                            f"fork at envelope {fork.violation.index} (both kept as evidence)",
                            EXIT_VIOLATION)
            except ProbeError as exc:
                why = f"{ask.label} answered with a wrong envelope: {exc}"
            except _ProbeEnded as exc:
                why = str(exc)
        raise MatchFailure(f"{failure}; asked for the other branch, {why}", EXIT_VIOLATION)

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
            raise _tampered(link, exc) from None

