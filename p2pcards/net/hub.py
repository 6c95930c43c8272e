"""The hosting peer: listen, seat the joiners, make the genesis, forward every envelope.

:func:`host_match` opens the listening socket (port 0 picks a free port), reports the invite,
seats joiners in arrival order (seat 0 is the host, then the joiners, then the host's bot
seats), builds the :class:`~p2pcards.genesis.Genesis`, sends it to every joiner, and runs the
:class:`~.session.Session` as the hub: every envelope a joiner sends is checked by the host's
own table, then forwarded to every other seat. The hub can neither forge (envelopes are signed)
nor reorder undetected (the chain); it can only stop forwarding, which the others see as a
timeout.

While seats are empty, a connection whose handshake fails (a wrong or stale invite, a key not
proven, garbage) is refused with a reason and closed; the host goes on waiting. Once the table
is full the listener closes, so a late joiner's connection is refused.

Through a relay (``HostConfig.relay``) the same happens over the virtual connections of
:mod:`.relay_mux`: the host joins the room first (slot 0), joiners open connections to it, and
once the table is full new ones are answered ``refused: the table is full``.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field

import trio

from ..genesis import Genesis
from ..local import SeatSecrets, make_genesis
from ..table import Table
from ..transcript import TranscriptWriter
from ..wire.identity import IdentityKey, PublicIdentity
from .errors import MatchFailure, NetError
from .framed import FrameChannel, FramedStream
from .handshake import (
    SeatedJoiner,
    TableOffer,
    confirm_seat,
    receive_hello,
    refuse,
    seat_joiner,
    send_genesis,
)
from .invite import NONCE_SIZE, Invite
from .relay_mux import HOST_SLOT, RelayMux, open_relay_mux
from .seats import bot_player, seat_secrets, table_rng
from .session import Link, LocalSeat, Player, Session

__all__ = ["HostConfig", "host_match", "HANDSHAKE_SECONDS"]

HANDSHAKE_SECONDS = 30.0
"""How long one joiner may take to complete the handshake."""


@dataclass(frozen=True)
class HostConfig:
    """Everything ``p2pcards host`` needs. ``advertise`` is the address put in the invite."""

    game: str
    preset: str
    players: int
    bots: int = 0
    listen_host: str = "0.0.0.0"
    listen_port: int = 0
    advertise: str = ""
    timeouts: Mapping[str, int] | None = None
    seed: int | None = None
    identity: IdentityKey | None = None
    name: str = "host"
    relay: tuple[str, int] | None = None
    """``(host, port)`` of a relay to play through instead of listening."""
    nonce: bytes = field(default_factory=lambda: os.urandom(NONCE_SIZE))


Notice = Callable[[str], None]
TranscriptFactory = Callable[[Genesis, int], TranscriptWriter]
PlayerFactory = Callable[[Genesis, int], Player]


@dataclass
class _Gathering:
    offer: TableOffer
    key: IdentityKey
    wanted: int
    taken: set[bytes]
    notice: Notice
    joined: list[tuple[FrameChannel, SeatedJoiner]] = field(default_factory=list)
    lock: trio.Lock = field(default_factory=trio.Lock)
    full: trio.Event = field(default_factory=trio.Event)
    """Set when the gathering is over: every seat taken, or :attr:`failure` set."""
    failure: MatchFailure | None = None

    async def check(self) -> None:
        """Raise :attr:`failure`, after telling every seated joiner why the table is off."""
        if self.failure is None:
            return
        for framed, _ in self.joined:
            with contextlib.suppress(NetError):
                await refuse(framed, f"the table is off: {self.failure}")
            await framed.aclose()
        self.joined.clear()
        raise self.failure


async def _welcome(state: _Gathering, framed: FrameChannel, where: str) -> None:
    """Handshake one connection; keep it if seated, else refuse and close it.

    The ``hello`` is read first, concurrently with other connections; the rest of the handshake
    runs under the gathering's lock, because it fixes the seat number.
    """
    kept = False
    try:
        with trio.fail_after(HANDSHAKE_SECONDS):
            hello = await receive_hello(framed, state.offer)
        async with state.lock:
            if state.full.is_set():
                await refuse(framed, "the table is full")
                return
            seat = len(state.joined) + 1
            with trio.fail_after(HANDSHAKE_SECONDS):
                seated = await seat_joiner(framed, state.offer, state.key, seat, state.taken,
                                           hello)
            state.taken.add(seated.info.identity)
            missing = state.wanted - seat
            await confirm_seat(framed, seat, missing)
            framed.label = seat_label_of(seated)
            state.joined.append((framed, seated))
            kept = True
            kind = "a bot" if seated.bot else "a person"
            state.notice(f"{framed.label} joined ({kind}, {seated.info.name or 'no name'}); "
                         f"{missing} seat(s) still empty")
            if missing == 0:
                state.full.set()
        await _watch_seated(state, framed, seated)
    except NetError as exc:
        state.notice(f"refused {where}: {exc}")
    except trio.TooSlowError:
        state.notice(f"refused {where}: the handshake took longer than "
                     f"{HANDSHAKE_SECONDS:.0f} seconds")
    finally:
        if not kept:
            await framed.aclose()


async def _watch_seated(state: _Gathering, framed: FrameChannel, seated: SeatedJoiner) -> None:
    """While the table fills (this task is cancelled when it is full), notice a seated joiner
    that leaves: its seat is freed if it is the last one given, else the table is off (seat
    numbers are signed in the handshake, so the later seats cannot move up)."""
    if state.full.is_set():
        return
    try:
        message = await framed.receive_message()
        reason = "it closed the connection" if message is None else \
            f"it sent {message['type']!r} before the match started"
    except NetError as exc:
        reason = str(exc)
    async with state.lock:
        if state.full.is_set():
            return
        index = next(i for i, (f, _) in enumerate(state.joined) if f is framed)
        if index == len(state.joined) - 1:
            state.joined.pop()
            state.taken.discard(seated.info.identity)
            await framed.aclose()
            state.notice(f"{framed.label} left before the match started ({reason}); "
                         f"{state.wanted - len(state.joined)} seat(s) still empty")
            return
        state.failure = MatchFailure(f"{framed.label} left before the match started ({reason}), "
                                     "after later seats were given; host a new table")
        state.full.set()


def seat_label_of(seated: SeatedJoiner) -> str:
    return f"seat {seated.seat} ({PublicIdentity(seated.info.identity).fingerprint})"


Acceptor = Callable[[], Awaitable[tuple[FrameChannel, str]]]
"""Waits for the next connection of a would-be joiner; returns it and where it comes from."""


def _tcp_acceptor(listener: trio.SocketListener, notice: Notice) -> Acceptor:
    async def next_connection() -> tuple[FrameChannel, str]:
        while True:
            try:
                stream = await listener.accept()
            except OSError as exc:
                notice(f"accepting a connection failed: {exc}")
                await trio.sleep(0.1)
                continue
            try:
                peer = stream.socket.getpeername()
                where = f"{peer[0]}:{peer[1]}"
            except OSError:
                where = "unknown address"
            return FramedStream(stream, label=f"a joiner from {where}"), where

    return next_connection


def _relay_acceptor(mux: RelayMux) -> Acceptor:
    async def next_connection() -> tuple[FrameChannel, str]:
        channel = await mux.accept()
        where = f"relay slot {channel.slot}"
        channel.label = f"a joiner at {where}"
        return channel, where

    return next_connection


async def _gather(acceptors: Sequence[Acceptor], state: _Gathering) -> None:
    """Welcome connections from every acceptor until the gathering is over."""
    async with trio.open_nursery() as nursery:
        async def welcome_all(next_connection: Acceptor) -> None:
            while True:
                framed, where = await next_connection()
                nursery.start_soon(_welcome, state, framed, where)

        for acceptor in acceptors:
            nursery.start_soon(welcome_all, acceptor)
        await state.full.wait()
        nursery.cancel_scope.cancel()


async def _turn_away(mux: RelayMux) -> None:
    """After the table is full: refuse every new connection through the relay."""
    while True:
        try:
            channel = await mux.accept()
        except NetError:
            return
        with contextlib.suppress(NetError):
            await refuse(channel, "the table is full")
        await channel.aclose()


async def host_match(config: HostConfig, player_for: PlayerFactory, *, notice: Notice,
                     on_invite: Callable[[Invite], None],
                     transcript: TranscriptFactory) -> Table:
    """Host one match to its end; returns the host's table. Raises :class:`MatchFailure`.

    With ``config.relay`` the host joins the relay room named by the table nonce instead of
    listening, and the invite names the relay.
    """
    remote = config.players - 1 - config.bots
    if remote < 0 or config.bots < 0:
        raise MatchFailure(f"a {config.players}-player table cannot have {config.bots} bot "
                           "seats besides the host", status=2)
    host_secrets, host_name = seat_secrets(0, config.seed, config.identity, config.name)
    state = _Gathering(TableOffer(config.nonce, config.game, config.preset, config.players),
                       host_secrets.identity, remote, {host_secrets.identity.public.to_bytes()},
                       notice)
    fingerprint = host_secrets.identity.public.fingerprint
    if config.relay is not None:
        relay_host, relay_port = config.relay
        async with open_relay_mux(relay_host, relay_port, config.nonce, host_secrets.identity,
                                  accept=True) as mux:
            if mux.slot != HOST_SLOT:
                raise MatchFailure(f"the relay at {mux.where} already has a room for this table "
                                   "nonce; host again to get a fresh one")
            on_invite(Invite(relay_host, relay_port, config.nonce, fingerprint, relay=True))
            try:
                if remote:
                    await _gather([_relay_acceptor(mux)], state)
                    await state.check()
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(_turn_away, mux)
                    table = await _play(config, player_for, host_secrets, host_name,
                                        state.joined, notice, transcript)
                    nursery.cancel_scope.cancel()
                return table
            finally:
                for framed, _ in state.joined:
                    await framed.aclose()
    try:
        listeners = await trio.open_tcp_listeners(config.listen_port, host=config.listen_host)
    except OSError as exc:
        raise MatchFailure(f"cannot listen on {config.listen_host}:{config.listen_port}: "
                           f"{exc.strerror or exc}") from None
    try:
        port = listeners[0].socket.getsockname()[1]
        advertise = config.advertise or config.listen_host
        on_invite(Invite(advertise, port, config.nonce, fingerprint))
        if remote:
            await _gather([_tcp_acceptor(listener, notice) for listener in listeners],
                          state)
            await state.check()
    finally:
        for listener in listeners:
            await listener.aclose()
    try:
        return await _play(config, player_for, host_secrets, host_name, state.joined, notice,
                           transcript)
    finally:
        for framed, _ in state.joined:
            await framed.aclose()


async def _play(config: HostConfig, player_for: PlayerFactory, host_secrets: SeatSecrets,
                host_name: str, joined: list[tuple[FrameChannel, SeatedJoiner]], notice: Notice,
                transcript: TranscriptFactory) -> Table:
    first_bot = 1 + len(joined)
    bot_secrets = [seat_secrets(seat, config.seed, None, f"bot {seat}")
                   for seat in range(first_bot, config.players)]
    infos = [host_secrets.info(host_name)] + [j.info for _, j in joined] + [
        s.info(name) for s, name in bot_secrets]
    genesis = make_genesis(config.game, config.preset, infos, timeouts=config.timeouts)
    bots = frozenset(j.seat for _, j in joined if j.bot) | frozenset(
        range(first_bot, config.players))
    for framed, _ in joined:
        try:
            await send_genesis(framed, genesis, bots)
        except NetError as exc:
            raise MatchFailure(f"{framed.label} left before the match started: {exc}") from None
    notice(f"every seat is taken; table {genesis.table_id.hex()[:16]} starts")
    tables = [Table(genesis, seat=0, identity=host_secrets.identity,
                    x25519_private=host_secrets.x25519_private, rng=table_rng(0, config.seed))]
    seats = [LocalSeat.of(tables[0], player_for(genesis, 0))]
    for offset, (secrets, _) in enumerate(bot_secrets):
        seat = first_bot + offset
        table = Table(genesis, seat=seat, identity=secrets.identity,
                      x25519_private=secrets.x25519_private, rng=table_rng(seat, config.seed))
        seats.append(LocalSeat.of(table, bot_player(config.game, seat, config.seed)))
    links = [Link(framed, frozenset({j.seat})) for framed, j in joined]
    writer = transcript(genesis, 0)
    try:
        session = Session(genesis, seats, links, forward=True, bots=bots, writer=writer)
        await session.run()
    finally:
        writer.close()
    return tables[0]

