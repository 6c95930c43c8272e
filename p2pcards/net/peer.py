"""The joining peer: connect to the host of an invite, take a seat, play through the hub.

:func:`join_match` connects to ``HOST:PORT`` of the invite, runs the joiner side of the
handshake (the host must prove the invite's fingerprint and announce the rules the invite
commits to; ``review`` accepts or declines them; see :mod:`p2pcards.seating`), waits for the
genesis and checks it against those rules, then runs a :class:`~.session.Session` with one link
(the host, which speaks for every other seat). With a relay invite the connection to the host is
a virtual one through the relay room (:mod:`.relay_mux`); everything else is the same. The
joiner allows :data:`GRACE_SECONDS` more than the genesis timeouts, so that when a third seat
falls silent the host's report arrives first. """

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack

import trio

from ..genesis import Genesis
from ..relay.client import RECONNECT_WINDOW
from ..table import Table
from ..transcript import TranscriptWriter
from ..wire.identity import IdentityKey
from .comeback import Comeback, KeptSeat, dialler
from .errors import MatchFailure, one_failure
from .framed import FrameChannel, FramedStream
from .handshake import Reviewer, SecretsFor, join_table, receive_genesis, refuse_unusual
from .invite import Invite
from .relay_mux import HOST_SLOT, RelayMux, RelayUnusable, open_relay_mux
from .relay_room import JoinerRoom
from .seats import table_rng
from .session import Link, LocalSeat, Player, Reentry, Session, seat_label

__all__ = ["join_match", "connect_direct", "CONNECT_SECONDS", "GRACE_SECONDS"]

CONNECT_SECONDS = 15.0
GRACE_SECONDS = 2.0


async def join_match(invite: Invite, player_for: Callable[[Genesis, int], Player],
                     secrets_for: SecretsFor, *, bot: bool, seed: int | None,
                     notice: Callable[[str], None],
                     transcript: Callable[[Genesis, int], TranscriptWriter],
                     relay_identity: IdentityKey | None = None,
                     review: Reviewer = refuse_unusual,
                     relay_patience: float = RECONNECT_WINDOW,
                     comeback: Comeback | None = None) -> Table:
    """Join and play one match; returns this peer's table. Raises :class:`MatchFailure`.

    ``relay_identity`` is the key proven to the relay of a relay invite (a fresh one if None,
    which is what a joiner should use: the relay gives each relay key one slot, so a joiner
    proving the host's key would take the host's slot); the seat's own key comes from
    ``secrets_for`` as in direct play. ``review`` decides on the
    table's rules before anything is signed (by default: refuse any house rule).
    ``relay_patience`` is how long a broken connection to a relay is re-established.
    With ``comeback`` (:mod:`.comeback`) a lost connection to the host is dialled again and
    the seat proves its key to come back, and what a crashed joiner needs to be resumed is
    kept; without it a lost host ends the match.
    """
    if not invite.relay:
        framed = await connect_direct(invite)

        async def again() -> FrameChannel:
            return await connect_direct(invite)
        try:
            return await _play(framed, invite, player_for, secrets_for, bot=bot, seed=seed,
                               notice=notice, transcript=transcript, review=review,
                               comeback=comeback, connect=again)
        finally:
            await framed.aclose()
    key = relay_identity or IdentityKey.generate()
    async with AsyncExitStack() as stack:
        mux = await enter_hosted_room(stack, invite, key, relay_patience)
        with one_failure():
            async with trio.open_nursery() as nursery:
                room = JoinerRoom((invite.host, invite.port), invite.nonce, key, nursery,
                                  patience=relay_patience, mux=mux)
                channel = await room.connect()
                try:
                    return await _play(channel, invite, player_for, secrets_for, bot=bot,
                                       seed=seed, notice=notice, transcript=transcript,
                                       review=review, comeback=comeback, connect=room.connect)
                finally:
                    await channel.aclose()
                    nursery.cancel_scope.cancel()


async def enter_hosted_room(stack: AsyncExitStack, invite: Invite, key: IdentityKey,
                            patience: float) -> RelayMux:
    """Join the room of a relay invite as a new member, only if its host is there: with
    ``since = 0`` first (RELAY.md: the relay refuses at once a room it does not hold,
    ``room-unknown``, and one in which no member is connected, ``room-empty``), then, for a
    room that holds no frame yet (``ahead-of-room``: its host has just made it, or is older
    and sends no beacon), with ``since = -1``. :class:`MatchFailure` in one sentence when
    nobody hosts the table there."""
    where = f"{invite.host}:{invite.port}"
    nobody = (f"nobody is hosting the table of this invite at the relay {where} now (the host "
              "has not started yet or has already left, or the invite is wrong or stale; ask "
              "the host for a fresh one)")
    try:
        return await stack.enter_async_context(open_relay_mux(
            invite.host, invite.port, invite.nonce, key, accept=False, patience=patience,
            since=0))
    except RelayUnusable as exc:
        if exc.reason == "room-unknown":
            raise MatchFailure(nobody) from None
        if exc.reason == "room-empty":
            raise MatchFailure(f"the host of this invite has left the table's room at the relay "
                               f"{where}: its match is over, it quit, or it lost its "
                               "connection; ask the host for a fresh invite") from None
        if exc.reason != "ahead-of-room":
            raise
    mux = await stack.enter_async_context(open_relay_mux(
        invite.host, invite.port, invite.nonce, key, accept=False, patience=patience))
    if mux.slot == HOST_SLOT:
        raise MatchFailure(nobody)
    return mux


async def connect_direct(invite: Invite) -> FramedStream:
    """A connection to the host of a direct invite, or :class:`MatchFailure` in one sentence."""
    where = f"{invite.host}:{invite.port}"
    try:
        with trio.fail_after(CONNECT_SECONDS):
            stream = await trio.open_tcp_stream(invite.host, invite.port)
    except trio.TooSlowError:
        raise MatchFailure(f"could not connect to {where} within {CONNECT_SECONDS:.0f} "
                           "seconds") from None
    except OSError as exc:
        reason = _reason(exc)
        raise MatchFailure(f"could not connect to {where}: {reason} (is the host still "
                           "hosting this table, and is the address reachable?)") from None
    return FramedStream(stream, label=f"the host at {where}")


async def _play(framed: FrameChannel, invite: Invite,
                player_for: Callable[[Genesis, int], Player], secrets_for: SecretsFor, *,
                bot: bool, seed: int | None, notice: Callable[[str], None],
                transcript: Callable[[Genesis, int], TranscriptWriter],
                review: Reviewer, comeback: Comeback | None,
                connect: Callable[[], Awaitable[FrameChannel]]) -> Table:
    """Seat, receive the genesis and play over ``framed`` (the host's connection)."""
    seating = await join_table(framed, invite, secrets_for, bot=bot, review=review)
    rules, seat = seating.rules, seating.seat
    assert rules is not None and seat is not None
    notice(f"seated at seat {seat} of a {rules.players}-player {rules.game} table "
           f"({rules.preset}); waiting for the other players")
    started = await receive_genesis(framed, seating)
    genesis, bots = started.genesis, started.bots
    secrets = seating.secrets
    assert secrets is not None
    framed.label = f"the host ({seat_label(genesis, 0)})"
    notice(f"every seat is taken; table {genesis.table_id.hex()[:16]} starts")
    table = Table(genesis, seat=seat, identity=secrets.identity,
                  x25519_private=secrets.x25519_private, rng=table_rng(seat, seed),
                  keeper=None if comeback is None else comeback.keeper(genesis, seat))
    others = frozenset(range(len(genesis.seats))) - {seat}
    writer = transcript(genesis, seat)
    try:
        local = LocalSeat.of(table, player_for(genesis, seat), secrets.identity)
        reentry = None
        if comeback is not None:
            comeback.begin(genesis, [KeptSeat(seat, secrets, "own")], bots)
            reentry = Reentry(comeback.patience(genesis), dialler(
                genesis, seat, secrets.identity, connect, notice=notice, label=framed.label))
        session = Session(genesis, [local], [Link(framed, others)], forward=False,
                          bots=bots, writer=writer, grace=GRACE_SECONDS, reentry=reentry,
                          notice=notice)
        try:
            await session.run()
        finally:
            if comeback is not None:
                comeback.end(genesis)
    finally:
        writer.close()
    return table


def _reason(exc: BaseException) -> str:
    """The most specific reason inside a connection error (trio chains the attempts' errors)."""
    seen: list[BaseException] = [exc]
    while seen:
        current = seen.pop(0)
        strerror = getattr(current, "strerror", None)
        if isinstance(strerror, str) and strerror:
            return strerror.lower()
        if current.__cause__ is not None:
            seen.append(current.__cause__)
        seen.extend(getattr(current, "exceptions", ()))
    return str(exc)
