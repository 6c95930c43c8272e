"""The joining peer: connect to the host of an invite, take a seat, play through the hub.

:func:`join_match` connects to ``HOST:PORT`` of the invite, runs the joiner side of the
handshake (the host must prove the invite's fingerprint and announce the rules the invite
commits to; ``review`` accepts or declines them; see :mod:`p2pcards.seating.handshake`), waits for
the genesis and checks it against those rules, then runs a :class:`~.session.Session` with one link
(the host, which speaks for every other seat). With a relay invite the connection to the host is
a virtual one through the relay room (:mod:`.relay_mux`); everything else is the same. The
joiner allows :data:`GRACE_SECONDS` more than the genesis timeouts, so that when a third seat
falls silent the host's report arrives first. """

from __future__ import annotations

import contextlib
import functools
from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack
from typing import Any

import trio

from ..crypto import SystemRandomness
from ..records.transcript import TranscriptWriter
from ..relay.client import RECONNECT_WINDOW
from ..seating.genesis import Genesis, GenesisError, SeatInfo
from ..seating.invite import Invite
from ..seating.secrets import SeatSecrets, new_seat
from ..table import Table
from ..wire.identity import IdentityKey
from .comeback import Comeback, KeptSeat, dialler
from .errors import MatchFailure, NetError
from .framed import FrameChannel, FramedStream
from .handshake import Reviewer, SecretsFor, join_table, receive_genesis, refuse_unusual
from .nursery import one_failure
from .relay_mux import HOST_SLOT, RelayMux, RelayUnusable, open_relay_mux
from .relay_room import JoinerRoom
from .rematch import (
    Series,
    again_message,
    check_again,
    declined_sentence,
    next_again,
    next_genesis_problems,
    side_names,
)
from .seats import table_rng
from .session import Link, LocalSeat, Player, Reentry, Session, seat_label

__all__ = ["join_match", "connect_direct", "CONNECT_SECONDS", "GRACE_SECONDS"]

CONNECT_SECONDS = 15.0
GRACE_SECONDS = 2.0
AGAIN_GRACE = 10.0
"""How much longer than the hub a joiner waits for the answer to its ``again``."""

Again = Callable[[Table], Awaitable[bool]]
"""Asked after each match: whether this seat plays another at the same table."""


async def join_match(invite: Invite, player_for: Callable[[Genesis, int], Player],
                     secrets_for: SecretsFor, *, bot: bool, seed: int | None,
                     notice: Callable[[str], None],
                     transcript: Callable[[Genesis, int], TranscriptWriter],
                     relay_identity: IdentityKey | None = None,
                     review: Reviewer = refuse_unusual,
                     relay_patience: float = RECONNECT_WINDOW,
                     comeback: Comeback | None = None, again: Again | None = None) -> Table:
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

        async def dial_again() -> FrameChannel:
            return await connect_direct(invite)
        try:
            return await _play(framed, invite, player_for, secrets_for, bot=bot, seed=seed,
                               notice=notice, transcript=transcript, review=review,
                               comeback=comeback, connect=dial_again, again=again)
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
                                       review=review, comeback=comeback, connect=room.connect,
                                       again=again)
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
                connect: Callable[[], Awaitable[FrameChannel]],
                again: Again | None = None) -> Table:
    """Seat, receive the genesis and play over ``framed`` (the host's connection); then, while
    everyone agrees (``again``), the next matches on the same connection."""
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
    play = functools.partial(_match, seat=seat, player_for=player_for, seed=seed,
                             notice=notice, transcript=transcript, comeback=comeback,
                             connect=connect)
    table, channel = await play(framed, genesis, bots, secrets)
    series = Series(side_names(genesis))
    try:
        if again is None:  # no rematch: a signed decline, as a courtesy
            if channel is not None:
                with contextlib.suppress(NetError):
                    await channel.send_message(again_message(genesis, seat, secrets.identity,
                                                             None))
            return table
        while True:
            series.record(table.engine.winner)
            notice(series.line())
            if channel is None:
                notice("the connection to the host is gone; the series ends")
                return table
            following = await _join_again(channel, table, seat, secrets, again, notice)
            if following is None:
                return table
            genesis, bots, secrets = following
            table, channel = await play(channel, genesis, bots, secrets)
    finally:
        if channel is not None:
            with trio.move_on_after(GRACE_SECONDS):
                await channel.aclose_gracefully()
            await channel.aclose()


async def _join_again(channel: FrameChannel, table: Table, seat: int, secrets: SeatSecrets,
                      again: Again, notice: Callable[[str], None]
                      ) -> tuple[Genesis, frozenset[int], SeatSecrets] | None:
    """The joiner's side of the rematch exchange (SPEC §11.8): its answer, then the next
    genesis, checked, with the seat's fresh secrets; ``None`` when the series ends (said)."""
    previous = table.genesis
    if not await again(table):
        with contextlib.suppress(NetError):
            await channel.send_message(again_message(previous, seat, secrets.identity, None))
        notice("you declined another match; the series ends")
        return None
    fresh = new_seat(SystemRandomness(), secrets.identity)
    mine = fresh.info(previous.seats[seat].name)
    try:
        await channel.send_message(again_message(previous, seat, secrets.identity, mine))
    except NetError:
        notice("the connection to the host is gone; the series ends")
        return None
    notice("waiting for the others to say whether they play again")
    message = None
    with trio.move_on_after(previous.timeouts["action"] + AGAIN_GRACE):
        message = await next_again(channel)
    others = frozenset(range(len(previous.seats))) - {seat}
    if message is None:
        notice("the host did not start another match; the series ends")
        return None
    if message["type"] == "abort":
        reason = message.get("reason")
        notice(f"the host ended the series: {reason if isinstance(reason, str) else '?'}")
        return None
    if message["type"] == "again":
        checked = check_again(previous, message, others)
        if checked is None or checked[1] is not None:
            raise MatchFailure(f"{channel.label} sent an 'again' that is not the signed "
                               "decline of another seat")
        notice(f"{declined_sentence(previous, checked[0])}; the series ends")
        return None
    genesis = _next_genesis(channel, message, previous, seat, mine)
    return genesis, _bots_of(message, len(genesis.seats)), fresh


def _next_genesis(channel: FrameChannel, message: dict[str, Any], previous: Genesis,
                  seat: int, mine: SeatInfo) -> Genesis:
    """The next match's genesis from the hub's ``genesis`` message, checked against the
    finished one (:func:`~.rematch.next_genesis_problems`); :class:`MatchFailure` if refused."""
    data = message.get("genesis")
    try:
        if set(message) != {"type", "genesis", "bots"} or not isinstance(data, bytes):
            raise GenesisError("the message is not {genesis, bots}")
        genesis = Genesis.decode(data)
    except GenesisError as exc:
        raise MatchFailure(f"{channel.label} sent an unusable next genesis: {exc}") from None
    problems = next_genesis_problems(previous, genesis, seat, mine)
    if problems:
        raise MatchFailure(f"{channel.label} sent a next genesis this seat refuses to sign: "
                           f"{'; '.join(problems)}")
    return genesis


def _bots_of(message: dict[str, Any], seats: int) -> frozenset[int]:
    """The seats the hub's ``genesis`` message says bots play."""
    bots = message.get("bots")
    if not isinstance(bots, list) or not all(type(b) is int and 0 <= b < seats for b in bots):
        raise MatchFailure("the host's next genesis message names bots that are not seats")
    return frozenset(bots)


async def _match(framed: FrameChannel, genesis: Genesis, bots: frozenset[int],
                 secrets: SeatSecrets, *, seat: int,
                 player_for: Callable[[Genesis, int], Player], seed: int | None,
                 notice: Callable[[str], None],
                 transcript: Callable[[Genesis, int], TranscriptWriter],
                 comeback: Comeback | None, connect: Callable[[], Awaitable[FrameChannel]]
                 ) -> tuple[Table, FrameChannel | None]:
    """One match of this seat over ``framed``; the table, and the host's connection, kept
    open for the rematch exchange, if it is still live."""
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
            await session.run(keep_open=True)
        finally:
            if comeback is not None:
                comeback.end(genesis)
    finally:
        writer.close()
    return table, session.live_channels().get(0)


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
