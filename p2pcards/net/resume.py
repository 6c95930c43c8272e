"""Resume: bring a crashed peer back into its unfinished match (``p2pcards resume``).

:func:`resume_match` takes the match record the peer kept (:mod:`p2pcards.records.match_record`),
its transcript so far and the seats' kept secrets (:mod:`p2pcards.records.secret_store`), rebuilds
each local seat from the chain (:meth:`~p2pcards.table.Table.resume`: every envelope is checked
again, nothing already signed is signed again) and runs a :class:`~.session.Session` whose links
all start *down*:

- a host listens again on the address it listened on (or takes its slot in its relay room
  again) and opens its :class:`~.comeback.Door`; the joiners, whose own sessions noticed the
  host was gone, dial it again by themselves and prove their keys;
- a joiner dials the host (or its relay room) and proves its seat's key
  (:func:`~.comeback.dialler`).

Either way both sides then exchange ``resume {count, head}`` and catch up, and the match goes on
from where the chain stands.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Awaitable, Callable, Sequence

import trio

from ..crypto import SystemRandomness
from ..records.match_record import HOST, MatchRecord
from ..records.secret_store import SecretStore, SecretStoreError
from ..records.transcript import TranscriptWriter
from ..seating.genesis import Genesis
from ..seating.invite import Invite, InviteError
from ..table import Table
from ..wire.identity import IdentityKey
from .comeback import Door, dialler
from .errors import CannotResume, MatchFailure
from .framed import FrameChannel
from .hub import door_tcp, tcp_acceptor
from .links import Absent, Link, Reentry
from .nursery import one_failure
from .peer import GRACE_SECONDS, connect_direct
from .player import LocalSeat, Player, host_label, seat_label
from .relay_mux import open_relay_mux
from .relay_room import JoinerRoom, claim_host_slot, serve_room
from .session import Session

__all__ = ["ResumedSeat", "resume_match"]

ResumedSeat = tuple[int, IdentityKey, bytes, Player]
"""A local seat to rebuild: its number, identity key, X25519 private key and who plays it."""


async def resume_match(record: MatchRecord, genesis: Genesis, frames: Sequence[bytes],
                       seats: Sequence[ResumedSeat], writer: TranscriptWriter,
                       store: SecretStore, *, patience: float,
                       notice: Callable[[str], None]) -> Table:
    """Run the rest of the match; returns the first local seat's table. Raises
    :class:`MatchFailure`. The record and the kept secrets are deleted when the match is over
    (finished or given up); a crash, or seats that cannot be rebuilt (:class:`CannotResume`),
    leave them for another try. The caller holds the lock of the record's own seat
    (:meth:`~p2pcards.records.secret_store.SecretStore.lock`)."""
    try:
        invite = Invite.parse(record.invite)
    except InviteError as exc:
        raise MatchFailure(f"the recorded invite cannot be read: {exc}") from None
    tables = [Table(genesis, seat=seat, identity=identity, x25519_private=x25519,
                    rng=SystemRandomness(), keeper=store.seat(genesis.table_id, seat))
              for seat, identity, x25519, _ in seats]
    local = [LocalSeat.of(table, player, identity)
             for table, (_, identity, _, player) in zip(tables, seats, strict=True)]
    mine = {seat for seat, _, _, _ in seats}
    bots = frozenset(record.bots)

    def over() -> None:
        """The session ran and ended: the match is finished or given up for good."""
        with contextlib.suppress(SecretStoreError):
            store.forget_table(genesis.table_id, mine)
    try:
        with one_failure():
            if record.role == HOST:
                await _as_host(record, invite, genesis, frames, local, mine, bots, writer,
                               patience, notice, seats[0][1], over)
            else:
                await _as_joiner(record, invite, genesis, frames, local, mine, bots, writer,
                                 patience, notice, seats[0][1], over)
    finally:
        with trio.CancelScope(shield=True):
            writer.close()
    return tables[0]


async def _as_host(record: MatchRecord, invite: Invite, genesis: Genesis,
                   frames: Sequence[bytes], local: list[LocalSeat], mine: set[int],
                   bots: frozenset[int], writer: TranscriptWriter, patience: float,
                   notice: Callable[[str], None], identity: IdentityKey,
                   over: Callable[[], None]) -> None:
    remote = [seat for seat in range(len(genesis.seats)) if seat not in mine]
    links = [Link(Absent(seat_label(genesis, seat)), frozenset({seat})) for seat in remote]
    session = Session(genesis, local, links, forward=True, bots=bots, writer=writer,
                      reentry=Reentry(patience), replay=frames, notice=notice)
    door = Door(genesis, identity)
    door.open(genesis, remote, session)
    async with trio.open_nursery() as nursery:
        if invite.relay:
            async with open_relay_mux(invite.host, invite.port, invite.nonce, identity,
                                      accept=True, patience=record.relay_patience) as mux:
                await claim_host_slot(mux, f"the relay at {mux.where} gave this host another "
                                      "slot than its own: the table's room is not its any more")
                nursery.start_soon(functools.partial(
                    serve_room, (invite.host, invite.port), invite.nonce, identity, mux, door,
                    nursery, patience=record.relay_patience, notice=notice))
                notice(f"back in the relay room at {invite.host}:{invite.port}; waiting for "
                       "the other players to come back")
                await _run(session, nursery, over)
            return
        listen = record.listen or ("0.0.0.0", invite.port)
        try:
            listeners = await trio.open_tcp_listeners(listen[1], host=listen[0])
        except OSError as exc:
            raise MatchFailure(f"cannot listen again on {listen[0]}:{listen[1]}, where the "
                               f"other players will look for this table: "
                               f"{exc.strerror or exc}") from None
        try:
            for listener in listeners:
                nursery.start_soon(door_tcp, tcp_acceptor(listener, notice), door, nursery)
            notice(f"listening again on {listen[0]}:{listen[1]}; waiting for the other "
                   "players to come back")
            await _run(session, nursery, over)
        finally:
            for listener in listeners:
                await listener.aclose()


async def _as_joiner(record: MatchRecord, invite: Invite, genesis: Genesis,
                     frames: Sequence[bytes], local: list[LocalSeat], mine: set[int],
                     bots: frozenset[int], writer: TranscriptWriter, patience: float,
                     notice: Callable[[str], None], identity: IdentityKey,
                     over: Callable[[], None]) -> None:
    seat = local[0].table.seat
    assert seat is not None
    others = frozenset(range(len(genesis.seats))) - mine
    label = host_label(genesis)

    async def play(connect: Callable[[], Awaitable[FrameChannel]]) -> None:
        reentry = Reentry(patience, dialler(genesis, seat, identity, connect, notice=notice,
                                            label=label))
        session = Session(genesis, local, [Link(Absent(label), others)], forward=False,
                          bots=bots, writer=writer, grace=GRACE_SECONDS, reentry=reentry,
                          replay=frames, notice=notice)
        await _play_out(session, over)

    if not invite.relay:
        async def again() -> FrameChannel:
            return await connect_direct(invite)
        await play(again)
        return
    key = (IdentityKey.from_bytes(record.relay_identity) if record.relay_identity is not None
           else IdentityKey.generate())
    async with trio.open_nursery() as nursery:
        room = JoinerRoom((invite.host, invite.port), invite.nonce, key, nursery,
                          patience=record.relay_patience)
        try:
            await play(room.connect)
        finally:
            nursery.cancel_scope.cancel()


async def _run(session: Session, nursery: trio.Nursery, over: Callable[[], None]) -> None:
    try:
        await _play_out(session, over)
    finally:
        nursery.cancel_scope.cancel()


async def _play_out(session: Session, over: Callable[[], None]) -> None:
    """Run ``session``; call ``over`` when it ends, unless its seats could not be rebuilt
    (:class:`CannotResume`: nothing was sent, and the record and secrets stay for another try,
    from a complete transcript)."""
    try:
        await session.run()
    except CannotResume:
        raise
    except BaseException:
        over()
        raise
    over()
