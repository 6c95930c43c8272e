"""Coming back into a running match: the host's door and the joiner's dialler (SPEC §11.7).

A seat whose connection to the hub is lost (its process was killed, its machine slept, the
network broke) may come back while the match waits for it (:class:`~.session.Reentry`). A
joiner always opens the new connection, also when the host is the one that came back:

- :class:`Door` is the host's side. During the match the host keeps accepting connections on
  its address (or in its relay room); the first message of each says what it wants. A
  ``rejoin`` is answered with :class:`~p2pcards.seating.reentry.HostReentry` (both sides prove their
  genesis keys on fresh challenges) and the proven connection is handed to the session
  (:meth:`~.session.Session.rejoin`) with its :class:`~p2pcards.seating.reentry.Bond`, which catches
  it up with a ``resume`` signed on that connection; a newcomer's seating ``hello``
  reads "the table is full"; anything else is closed without a word (in a relay room, a
  joiner's connection to the host's earlier life, before it crashed, still sending: closing it
  tells the joiner at once to come back). With :attr:`Door.later_punch` a ``punch`` (a joiner
  seated through the relay punching a hole later, SPEC §11.10) is answered, and a ``rejoin`` on
  the punched connection moves that seat's live link onto it.
- :func:`dialler` is the joiner's: it connects again and again, with capped backoff, until a
  connection passes :class:`~p2pcards.seating.reentry.SeatReentry`, or the host refuses for good
  with a refusal signed by its key (then the match ends with the host's reason; an unsigned refusal,
  which anyone on the path could write, is only a failed attempt).
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any

import trio

from ..records.match_record import MatchRecord, RecordedSeat
from ..records.secret_store import FileKeeper, SecretStore, SecretStoreError, TableLock
from ..seating.genesis import Genesis
from ..seating.reentry import Bond, HostReentry, Refused, Returned, SeatReentry
from ..seating.secrets import SeatSecrets
from ..wire.identity import IdentityKey
from .errors import HandshakeError, MatchFailure, NetError
from .framed import FrameChannel
from .punch import PunchHandler, is_punch
from .session import Session

__all__ = ["Door", "LaterPunch", "dialler", "prove_return", "Comeback", "KeptSeat",
           "recorded_seat", "HANDSHAKE_SECONDS", "RETRY_FIRST", "RETRY_CAP"]

HANDSHAKE_SECONDS = 10.0
"""How long either side of a re-entry waits for each message."""
RETRY_FIRST = 0.5
RETRY_CAP = 5.0
"""The joiner's backoff between attempts: from :data:`RETRY_FIRST`, doubling, at most this."""

FULL = "the table is full"


@dataclass(frozen=True)
class KeptSeat:
    """A seat this process plays: its secrets and who plays it (``person`` or ``bot:KIND``)."""

    seat: int
    secrets: SeatSecrets
    player: str


@dataclass
class Comeback:
    """What a peer keeps so that it can come back after a crash, and how long it waits for
    others to come back.

    ``wait``: seconds a seat whose connection is lost has to come back (``None``: the table's
    move timeout). ``store``: where the match record and the seats' secrets are kept (``None``:
    nothing is kept, so this process cannot be resumed). ``record`` makes the match record
    from the genesis, the local seats and the hub's bot seats (it knows the role, the invite
    and the transcript's path).
    """

    wait: float | None = None
    store: SecretStore | None = None
    record: Callable[[Genesis, Sequence[KeptSeat], frozenset[int]], MatchRecord] | None = None
    lock: TableLock | None = None
    """The lock of this process's own seat at the table in ``store``, held from :meth:`begin`
    to :meth:`end` (a ``resume`` of the same seats meanwhile is refused)."""
    seats: frozenset[int] = frozenset()
    """The seats this process keeps (set by :meth:`begin`): :meth:`end` forgets only theirs."""

    def patience(self, genesis: Genesis) -> float:
        return float(self.wait if self.wait is not None else genesis.timeouts["action"])

    def keeper(self, genesis: Genesis, seat: int) -> FileKeeper | None:
        return None if self.store is None else self.store.seat(genesis.table_id, seat)

    def begin(self, genesis: Genesis, seats: Sequence[KeptSeat], bots: frozenset[int]) -> None:
        """Take the lock of this process's own seat (the lowest of ``seats``) and write the
        match record, before this peer's first envelope. Raises :class:`MatchFailure` if
        either cannot be done (another process holds the seat, or the file cannot be
        written)."""
        if self.store is None or self.record is None:
            return
        record = self.record(genesis, seats, bots)
        self.seats = frozenset(k.seat for k in seats)
        try:
            self.lock = self.store.lock(genesis.table_id, record.own_seat)
            self.store.write(self.store.record_path(genesis.table_id, record.own_seat),
                             record.encode())
        except SecretStoreError as exc:
            if self.lock is not None:
                self.lock.release()
            raise MatchFailure(f"cannot keep what a crashed peer needs to come back: {exc}"
                               ) from None

    def end(self, genesis: Genesis) -> None:
        """The match is over (finished or given up): delete the record and the kept secrets of
        this process's seats (other processes' seats of the table keep theirs), and release
        the lock."""
        if self.store is None:
            return
        with contextlib.suppress(SecretStoreError):
            self.store.forget_table(genesis.table_id, self.seats)
        if self.lock is not None:
            self.lock.release()


def recorded_seat(kept: KeptSeat, stored: IdentityKey | None) -> RecordedSeat:
    """The record of ``kept``; its identity key is left out when it is the user's ``stored``
    identity (``identity.key`` is never copied)."""
    identity = kept.secrets.identity
    same = stored is not None and stored.public == identity.public
    return RecordedSeat(kept.seat, kept.secrets.x25519_private, kept.player,
                        None if same else identity.to_bytes())


@dataclass(frozen=True)
class LaterPunch:
    """How the host's door serves a hole punched during the match (SPEC §11.10): ``serve``
    runs the punch exchange of a room connection whose first message is ``punch``; ``line``
    is the ``connection:`` line of seat N whose link moved onto the connection punched from
    WHERE."""

    serve: PunchHandler
    line: Callable[[int, str], str]


class Door:
    """The host's door during a match: see the module docstring. ``seats`` are the seats that
    may come back (those played by remote peers). :attr:`session` is set once the match runs;
    before that, and for other seats, a ``rejoin`` is refused."""

    def __init__(self, genesis: Genesis | None, identity: IdentityKey,
                 seats: Collection[int] = ()) -> None:
        self.genesis = genesis
        self.identity = identity
        self.seats = frozenset(seats)
        self.session: Session | None = None
        self.later_punch: LaterPunch | None = None
        """With it, a ``punch`` during the match is served, and a ``rejoin`` on the punched
        connection moves that seat's link onto it."""

    def open(self, genesis: Genesis, seats: Collection[int], session: Session) -> None:
        """The match has started: rejoins of ``seats`` go to ``session``."""
        self.genesis, self.seats, self.session = genesis, frozenset(seats), session

    async def welcome(self, framed: FrameChannel, punched_from: str | None = None) -> None:
        """Serve one connection that arrived during the match, then hand it over or close it;
        ``punched_from``: a connection punched from there (:meth:`_punch`), on which a proven
        ``rejoin`` moves the seat's link. Never raises: a failed re-entry only closes its
        connection."""
        handed = False
        deadline = trio.current_time() + HANDSHAKE_SECONDS
        try:
            first = None
            with trio.move_on_at(deadline):
                first = await self._first(framed)
            later = self.later_punch
            if (first is not None and is_punch(first) and later is not None
                    and punched_from is None and self.session is not None):
                await self._punch(framed, first, later)
                return
            if first is not None:
                with trio.move_on_at(deadline):
                    handed = await self._serve(framed, first, punched_from)
        finally:
            if not handed:
                with trio.move_on_after(HANDSHAKE_SECONDS):
                    await framed.aclose_gracefully()
                await framed.aclose()

    @staticmethod
    async def _first(framed: FrameChannel) -> dict[str, Any] | None:
        try:
            return await framed.receive_message()
        except NetError:
            return None

    async def _punch(self, framed: FrameChannel, first: dict[str, Any],
                     later: LaterPunch) -> None:
        """Serve a joiner's punch exchange on ``framed`` (a room connection), close it, and
        welcome the punched connection, if any."""
        try:
            punched = await later.serve(framed, first)
        finally:
            await framed.aclose()
        if punched is not None:
            await self.welcome(*punched)

    async def _serve(self, framed: FrameChannel, first: dict[str, Any],
                     punched_from: str | None) -> bool:
        if first.get("type") == "hello":
            await self._refuse(framed, FULL)  # a newcomer's seating hello
            return False
        if first.get("type") != "rejoin" or self.session is None or self.genesis is None:
            return False  # a connection of this host's earlier life (it crashed): just closed
        reentry = HostReentry(self.genesis, self.identity, self.seats)
        message = first
        try:
            while True:
                answer = reentry.receive(message)
                if isinstance(answer, Returned):
                    await framed.send_message({"type": "rejoined"})
                    moved = (None if punched_from is None or self.later_punch is None
                             else self.later_punch.line(answer.bond.seat, punched_from))
                    await self.session.rejoin(answer.bond, framed, moved)
                    return True
                await framed.send_message(answer)
                got = await framed.receive_message()
                if got is None:
                    return False
                message = got
        except HandshakeError as exc:
            with contextlib.suppress(NetError):
                await framed.send_message(reentry.refusal(str(exc)))
            return False
        except NetError:
            return False

    @staticmethod
    async def _refuse(framed: FrameChannel, reason: str) -> None:
        with contextlib.suppress(NetError):
            await framed.send_message({"type": "refused", "reason": reason})


def dialler(genesis: Genesis, seat: int, identity: IdentityKey,
            connect: Callable[[], Awaitable[FrameChannel]], *,
            notice: Callable[[str], None] = lambda text: None,
            label: str = "the host") -> Callable[[], Awaitable[tuple[FrameChannel, Bond]]]:
    """The joiner's ``Reentry.reconnect``: ``connect`` opens a raw connection to the host (it
    raises :class:`MatchFailure` when it cannot). Attempts go on with capped backoff until one
    passes the re-entry handshake (its channel and :class:`~p2pcards.seating.reentry.Bond` are
    returned) or the host refuses the seat with a signed refusal (a :class:`MatchFailure` with
    its reason). The first failed attempt that got an answer is told to ``notice``. Cancel it
    to stop trying."""

    async def reconnect() -> tuple[FrameChannel, Bond]:
        delay = RETRY_FIRST
        said = warned = False
        while True:
            try:
                framed = await connect()
            except MatchFailure as exc:
                if not said:
                    notice(f"trying to reach {label} again ({exc})")
                    said = True
                await trio.sleep(delay)
                delay = min(RETRY_CAP, delay * 2)
                continue
            try:
                with trio.fail_after(HANDSHAKE_SECONDS):
                    bond = await _prove(framed, genesis, seat, identity, label)
                framed.label = label
                return framed, bond
            except Refused as exc:
                await framed.aclose()
                raise MatchFailure(f"{label} would not take this seat back: {exc}") from None
            except HandshakeError as exc:  # a failed attempt, an unsigned refusal among them
                await framed.aclose()
                if not warned:
                    notice(str(exc))
                    warned = True
            except (NetError, trio.TooSlowError):
                await framed.aclose()
            await trio.sleep(delay)
            delay = min(RETRY_CAP, delay * 2)

    return reconnect


async def prove_return(framed: FrameChannel, genesis: Genesis, seat: int,
                       identity: IdentityKey, label: str) -> Bond:
    """The seat's side of the re-entry handshake on ``framed``, each message within
    :data:`HANDSHAKE_SECONDS`: the proven connection's bond, or :class:`MatchFailure`
    (:class:`~p2pcards.seating.reentry.Refused` for the host's signed refusal)."""
    try:
        with trio.fail_after(HANDSHAKE_SECONDS):
            return await _prove(framed, genesis, seat, identity, label)
    except trio.TooSlowError:
        raise NetError(f"{label} did not finish re-entry within {HANDSHAKE_SECONDS:.0f} "
                       "seconds") from None


async def _prove(framed: FrameChannel, genesis: Genesis, seat: int, identity: IdentityKey,
                 label: str) -> Bond:
    """Run the seat's side of the re-entry handshake on ``framed``; the proven connection's
    bond."""
    reentry = SeatReentry(genesis, seat, identity, label=label)
    await framed.send_message(reentry.hello())
    while True:
        message = await framed.receive_message()
        if message is None:
            raise NetError(f"{label} closed the connection during re-entry")
        answer = reentry.receive(message)
        if answer is None:
            assert reentry.bond is not None
            return reentry.bond
        await framed.send_message(answer)
