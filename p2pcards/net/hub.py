"""The hosting peer: listen, seat the joiners, make the genesis, forward every envelope.

:func:`host_match` opens the listening socket (port 0 picks a free port), reports the invite
(which commits to the table's rules with their digest), seats joiners as they claim seats (seat
0 is the host, then the joiners, then the host's bot seats) through the sans-IO
:class:`~p2pcards.seating.handshake.HostSeating`, which no slow or silent connection can hold
up, builds the :class:`~p2pcards.seating.genesis.Genesis`, sends it to every joiner, and runs the
:class:`~.session.Session` as the hub: every envelope a joiner sends is checked by the host's
own table, then forwarded to every other seat. The hub can neither forge (envelopes are signed)
nor reorder undetected (the chain); it can only stop forwarding, which the others see as a
timeout.

While seats are empty, a connection whose handshake fails (a wrong or stale invite, a key not
proven, garbage, a seat not claimed in time) is refused with a reason and closed (gracefully, so
the reason arrives); the host goes on waiting. A seated joiner that leaves frees its seat. Once
the table is full the host keeps listening until the match ends, through its
:class:`~.comeback.Door`: a seat whose connection was lost comes back on a new one (SPEC
§11.7.2), a late joiner's hello is answered ``refused: the table is full``, anything else is
closed.

Through a relay (``HostConfig.relay``) the same happens over the virtual connections of
:mod:`.relay_mux`: the host joins the room first (slot 0), joiners open connections to it, and
once the table is full new ones go through the door; if the relay restarts and loses the room,
the host makes it again (:mod:`.relay_room`).
"""

from __future__ import annotations

import contextlib
import functools
import math
import os
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import trio

from ..crypto import SystemRandomness
from ..games import get_game
from ..i18n import english, pgettext
from ..records.transcript import TranscriptWriter
from ..relay.client import RECONNECT_WINDOW
from ..relay.shared_port import free_port
from ..seating.candidates import (
    Candidate,
    CandidateError,
    Kind,
    classify,
    format_address,
    how,
    parse_address,
)
from ..seating.codes import Code
from ..seating.genesis import Genesis
from ..seating.handshake import Close, HostSeating, Joined, Output, SeatedJoiner, Send
from ..seating.invite import NONCE_SIZE, Invite
from ..seating.rules import TableRules
from ..seating.secrets import SeatSecrets, new_seat
from ..table import Table
from ..wire.identity import IdentityKey, PublicIdentity
from .codes import serve_codes
from .comeback import Comeback, Door, KeptSeat, LaterPunch
from .errors import MatchFailure, NetError
from .framed import FrameChannel, FramedStream
from .gather import direct_candidates, open_listeners
from .interrupts import unless_interrupted
from .links import Link, Reentry
from .notices import ConnectionFacts, TypedNotice
from .nursery import one_failure
from .player import LocalSeat, Player, seat_label
from .portmap import hold_port_mapping, mapped_address, wants_port_mapping
from .punch import PunchHandler, host_punch, is_punch
from .relay_mux import HOST_SLOT, RelayMux, open_relay_mux
from .relay_room import BEACON, door_relay, serve_room
from .rematch import (
    Answers,
    Series,
    again_message,
    closed_sentence,
    collect_answers,
    declined_sentence,
    side_names,
)
from .seats import bot_player, seat_secrets, table_rng
from .sentences import table_starts
from .session import Session

__all__ = ["HostConfig", "host_match"]

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
    """``(host, port)`` of a relay room to fall back on; the host also listens and its invite
    names its direct addresses first (SPEC §11.9), unless ``relay_only``."""
    relay_only: bool = False
    """With a relay: do not listen, every joiner comes through the relay room."""
    nonce: bytes = field(default_factory=lambda: os.urandom(NONCE_SIZE))
    flags: Mapping[str, object] = field(default_factory=dict)
    """House rules: flag values that differ from (or repeat) the preset's."""
    code_ttl: float | None = None
    """With a relay: offer short invite codes (:mod:`.codes`) for this many seconds."""
    relay_patience: float = RECONNECT_WINDOW
    """Seconds a broken connection to the relay keeps being re-established."""
    dropout: str | None = None
    """The genesis dropout policy (SPEC §9.13): ``forfeit``, ``bot`` or ``None``."""
    again: Callable[[Table], Awaitable[bool]] | None = None
    """After each match: whether the host's seat plays another at the same table (SPEC
    §11.8); ``None``: no rematch is offered, and the connections close at the end."""
    partner: str | None = None
    """In a game of partnerships: the name of the joiner the host wants on its side
    (:func:`seat_plan`)."""
    comeback: Comeback | None = None
    """Re-entry (:mod:`.comeback`): how long a joiner whose connection is lost has to come
    back, and where this host keeps what it needs to be resumed after a crash. ``None``: a
    lost joiner ends the match at once (or drops out, SPEC §9.13)."""
    port_mapping: bool = False
    """Ask the home router to forward the listening port while the table lives
    (:mod:`.portmap`), and name the mapped address to players on the internet."""

    def table_rules(self) -> TableRules:
        """The rules of this table (raises GameError for a bad preset, count or flag,
        ValueError for bad timeouts or dropout policy)."""
        return TableRules.choose(self.game, self.preset, self.players, self.flags,
                                 self.timeouts, self.dropout)


Notice = Callable[[str], None]
TranscriptFactory = Callable[[Genesis, int], TranscriptWriter]
PlayerFactory = Callable[[Genesis, int], Player]

CLOSE_SECONDS = 2.0
"""How long a refused connection's last message may take to leave before it is cut."""


@dataclass(eq=False)
class _Connection:
    """One would-be joiner: its channel, an outbox drained by :meth:`sender` in order."""

    framed: FrameChannel
    where: str
    outbox: trio.MemorySendChannel[dict[str, Any]] = field(init=False)
    _queued: trio.MemoryReceiveChannel[dict[str, Any]] = field(init=False)
    closing: bool = False
    reader: trio.CancelScope = field(default_factory=trio.CancelScope)
    done: trio.Event = field(default_factory=trio.Event)

    def __post_init__(self) -> None:
        self.outbox, self._queued = trio.open_memory_channel[dict[str, Any]](math.inf)

    async def sender(self) -> None:
        """Send every queued message; once the outbox is closed, close the channel if it is
        refused (gracefully, so the refusal arrives), else leave it open for the match."""
        try:
            async for message in self._queued:
                await self.framed.send_message(message)
        except NetError:
            self.closing = True
        finally:
            if self.closing:
                with trio.move_on_after(CLOSE_SECONDS):
                    await self.framed.aclose_gracefully()
                await self.framed.aclose()
            self.done.set()


class _Gathering:
    """The Trio driver of :class:`~p2pcards.seating.handshake.HostSeating`: a reader per
    connection feeds it, a timer calls its ``tick``, and its outputs are carried out at once."""

    def __init__(self, seating: HostSeating, notice: Notice) -> None:
        self.seating = seating
        self.notice = notice
        self.connections: list[_Connection] = []
        self.changed = trio.Event()
        """Set after every change; only :meth:`timer` waits on it and replaces it."""
        self.full = trio.Event()
        self.ticks = 0
        """How many times the timer has called ``tick`` (a spinning timer shows here)."""
        self.on_punch: PunchHandler | None = None
        """Serves a connection whose first message opens a punch exchange (:mod:`.punch`);
        returns the punched connection and where it comes from, or ``None``."""

    def apply(self, outputs: list[Output], *, wake_timer: bool = True) -> None:
        """Carry out ``outputs``; unless they come from the timer itself, wake the timer so it
        reads the machine's next deadline (the timer's own ticks must not wake it, or it would
        tick again at once, forever, burning a core while the table fills)."""
        for out in outputs:
            conn = out.conn
            assert isinstance(conn, _Connection)
            if isinstance(out, Send):
                with contextlib.suppress(trio.ClosedResourceError):
                    conn.outbox.send_nowait(out.message)
            elif isinstance(out, Close):
                self._close(conn)
                self.notice(pgettext("network", "refused {where}: {reason}").format(
                    where=conn.where, reason=out.reason))
            elif isinstance(out, Joined):
                conn.framed.label = seat_label_of(out.joiner)
                kind = (pgettext("network", "a bot") if out.joiner.bot
                        else pgettext("network", "a person"))
                self.notice(pgettext("network", "{seat} joined ({kind}, {name}); {missing} "
                                     "seat(s) still empty").format(
                    seat=conn.framed.label, kind=kind,
                    name=out.joiner.info.name or pgettext("network", "no name"),
                    missing=out.missing))
                self.notice(host_connection_line(out.joiner.seat, conn.where))
            else:
                self._close(conn)
                self.notice(pgettext("network", "{seat} left before the match started "
                                     "({reason}); {missing} seat(s) still empty").format(
                    seat=conn.framed.label, reason=out.reason, missing=out.missing))
        if wake_timer:
            self.changed.set()
        if self.seating.full:
            self.full.set()

    def _close(self, conn: _Connection) -> None:
        conn.closing = True
        conn.reader.cancel()
        conn.outbox.close()

    async def welcome(self, framed: FrameChannel, where: str, nursery: trio.Nursery) -> None:
        conn = _Connection(framed, where)
        self.connections.append(conn)
        nursery.start_soon(conn.sender)
        self.apply(self.seating.connected(conn, trio.current_time()))
        nursery.start_soon(self._read, conn, nursery)

    async def _read(self, conn: _Connection, nursery: trio.Nursery) -> None:
        first = True
        with conn.reader:
            while True:
                try:
                    message = await conn.framed.receive_message()
                except NetError as exc:
                    self.apply(self.seating.closed(conn, str(exc), trio.current_time()))
                    return
                if message is None:
                    self.apply(self.seating.closed(conn, "it closed the connection",
                                                   trio.current_time()))
                    return
                if first and self.on_punch is not None and is_punch(message):
                    await self._punch(conn, message, self.on_punch, nursery)
                    return
                first = False
                self.apply(self.seating.receive(conn, message, trio.current_time()))
                if conn.closing:
                    return

    async def _punch(self, conn: _Connection, message: dict[str, Any], punch: PunchHandler,
                     nursery: trio.Nursery) -> None:
        """Serve a punch exchange on ``conn`` (not a joiner's connection), then welcome the
        punched connection, if any, as a new would-be joiner."""
        self.seating.forget(conn)
        punched = await punch(conn.framed, message)
        conn.closing = True
        conn.outbox.close()
        if punched is not None:
            await self.welcome(*punched, nursery)

    async def timer(self) -> None:
        while True:
            deadline = self.seating.next_deadline()
            with trio.move_on_at(math.inf if deadline is None else deadline):
                await self.changed.wait()
            self.changed = trio.Event()
            self.ticks += 1
            self.apply(self.seating.tick(trio.current_time()), wake_timer=False)

    async def seated(self) -> list[tuple[FrameChannel, SeatedJoiner]]:
        """Once full: wait until each seated joiner has its ``seated`` message sent."""
        for conn in self.connections:
            conn.reader.cancel()  # the session reads the seated ones from now on
        out = []
        for key, joiner in self.seating.seated():
            assert isinstance(key, _Connection)
            key.outbox.close()
            await key.done.wait()
            out.append((key.framed, joiner))
        return out


def host_connection_line(seat: int, where: str) -> TypedNotice:
    """The host's ``connection:`` line for a seat that came from ``where`` (``HOST:PORT`` of a
    direct connection, ``relay slot N`` through the relay room), with its facts."""
    if where.startswith(RELAY_WHERE):
        why = "the joiner came through the relay room"
        return TypedNotice(pgettext("network", "connection: seat {seat} relay (the joiner came "
                                    "through the relay room)").format(seat=seat),
                           ConnectionFacts("relay", why=why, seat=seat))
    if where.startswith(PUNCHED_WHERE):
        return _direct_line(seat, "punched", where[len(PUNCHED_WHERE):])
    try:
        host, _ = parse_address(where)
    except CandidateError:
        return TypedNotice(pgettext("network", "connection: seat {seat} direct from {where}"
                                    ).format(seat=seat, where=where),
                           ConnectionFacts("direct", where=where, seat=seat))
    return _direct_line(seat, classify(host), where)


def moved_connection_line(seat: int, where: str) -> TypedNotice:
    """The host's ``connection:`` line for a seat whose relayed link moved onto a connection
    punched during the match (SPEC §11.10), ``where`` as :func:`_punch_handler` names it."""
    where = where.removeprefix(PUNCHED_WHERE)
    return TypedNotice(pgettext("network", "connection: seat {seat} direct (hole punched; was "
                                "relay) from {where}").format(seat=seat, where=where),
                       ConnectionFacts("direct", how="punched", where=where, seat=seat,
                                       why="was relay"))


def _direct_line(seat: int, kind: Kind, where: str) -> TypedNotice:
    """``connection: seat 1 direct (LAN) from 192.168.1.7:5000``."""
    return TypedNotice(pgettext("network", "connection: seat {seat} direct ({how}) from {where}"
                                ).format(seat=seat, how=how(kind), where=where),
                       ConnectionFacts("direct", how=kind, where=where, seat=seat))


def seat_label_of(seated: SeatedJoiner) -> str:
    """``seat 1 (FINGERPRINT)``: a joiner while it is seated, before the genesis names it (the
    fingerprint is what the host checks against the joiner's ``p2pcards id``)."""
    return pgettext("network", "seat {seat} ({fingerprint})").format(
        seat=seated.seat, fingerprint=PublicIdentity(seated.info.identity).fingerprint)


RELAY_WHERE = "relay slot "
PUNCHED_WHERE = "punched "
Acceptor = Callable[[], Awaitable[tuple[FrameChannel, str]]]
"""Waits for the next connection of a would-be joiner; returns it and where it comes from."""


def tcp_acceptor(listener: trio.SocketListener, notice: Notice) -> Acceptor:
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
                where = format_address(peer[0], peer[1])
            except OSError:
                where = "unknown address"
            return FramedStream(stream, label=f"a joiner from {where}"), where

    return next_connection


def _punch_handler(mux: RelayMux) -> PunchHandler:
    """Serves punch exchanges of joiners in ``mux``'s room from the host's relay port."""
    async def punch(channel: FrameChannel, first: dict[str, Any]
                    ) -> tuple[FrameChannel, str] | None:
        punched = await host_punch(channel, first, mux.conn.observed, mux.conn.local_port)
        if punched is None:
            return None
        stream, remote = punched
        return (FramedStream(stream, label=f"a joiner punched from {remote}"),
                f"{PUNCHED_WHERE}{remote}")

    return punch


def _relay_acceptor(mux: RelayMux) -> Acceptor:
    async def next_connection() -> tuple[FrameChannel, str]:
        channel = await mux.accept()
        where = f"{RELAY_WHERE}{channel.slot}"
        channel.label = f"a joiner at {where}"
        return channel, where

    return next_connection


async def _gather(acceptors: Sequence[Acceptor], seating: HostSeating, notice: Notice,
                  background: trio.Nursery, on_punch: PunchHandler | None = None
                  ) -> list[tuple[FrameChannel, SeatedJoiner]]:
    """Welcome connections from every acceptor until every seat is taken; returns the seated
    joiners' channels by seat. Every other connection is refused; its refusal is sent and the
    connection closed in ``background``, while the match already starts. With ``on_punch``,
    a connection that opens a punch exchange is served by it (:mod:`.punch`)."""
    gathering = _Gathering(seating, notice)
    gathering.on_punch = on_punch
    async with trio.open_nursery() as nursery:
        async def welcome_all(next_connection: Acceptor) -> None:
            while True:
                framed, where = await next_connection()
                await gathering.welcome(framed, where, background)

        for acceptor in acceptors:
            nursery.start_soon(welcome_all, acceptor)
        nursery.start_soon(gathering.timer)
        await gathering.full.wait()
        nursery.cancel_scope.cancel()
    return await gathering.seated()


async def door_tcp(next_connection: Acceptor, door: Door, nursery: trio.Nursery) -> None:
    """After the table is full: every new direct connection goes through ``door`` (a seat
    coming back, or a late joiner, who reads "the table is full")."""
    while True:
        framed, _ = await next_connection()
        nursery.start_soon(door.welcome, framed)


async def host_match(config: HostConfig, player_for: PlayerFactory, *, notice: Notice,
                     on_invite: Callable[[Invite], None],
                     transcript: TranscriptFactory,
                     on_code: Callable[[Code, float], None] | None = None,
                     codes_again: Callable[[], Awaitable[None]] | None = None) -> Table:
    """Host one match to its end; returns the host's table. Raises :class:`MatchFailure`.

    With ``config.relay`` the host joins the relay room named by the table nonce instead of
    listening, and the invite names the relay; with ``config.code_ttl`` too, it offers short
    codes while seats are empty, telling ``on_code`` each one and the seconds it lasts; after
    the codes stopped because too many were burned, ``codes_again`` returns when the person
    asks for codes again (:func:`~.codes.serve_codes`).
    """
    with one_failure():
        async with trio.open_nursery() as background:
            table = await _host(config, player_for, notice, on_invite, transcript, background,
                                on_code, codes_again)
            background.cancel_scope.cancel()
    return table


async def _host(config: HostConfig, player_for: PlayerFactory, notice: Notice,
                on_invite: Callable[[Invite], None], transcript: TranscriptFactory,
                background: trio.Nursery,
                on_code: Callable[[Code, float], None] | None,
                codes_again: Callable[[], Awaitable[None]] | None = None) -> Table:
    remote = config.players - 1 - config.bots
    if remote < 0 or config.bots < 0:
        raise MatchFailure(f"a {config.players}-player table cannot have {config.bots} bot "
                           "seats besides the host", status=2)
    rules = config.table_rules()
    host_secrets, host_name = seat_secrets(0, config.seed, config.identity, config.name)
    offered, partner_seats = seat_plan(rules, remote, config.partner)
    seating = HostSeating(rules, config.nonce, host_secrets.identity, remote, offered=offered,
                          partner=config.partner, partner_seats=partner_seats)
    door = Door(None, host_secrets.identity)
    fingerprint = host_secrets.identity.public.fingerprint
    listeners: list[trio.SocketListener] = []
    if config.relay is None or not config.relay_only:
        try:
            listeners = await open_listeners(config.listen_host, config.listen_port)
        except OSError as exc:
            raise MatchFailure(f"cannot listen on {config.listen_host}:{config.listen_port}: "
                               f"{exc.strerror or exc}") from None
    try:
        direct = direct_candidates(listeners, config.advertise) if listeners else []
        if listeners and config.port_mapping and wants_port_mapping(config.listen_host):
            mapped = await background.start(hold_port_mapping,
                                            listeners[0].socket.getsockname()[1], notice)
            if mapped is not None:
                direct.append(Candidate("mapped", *mapped_address(mapped)))
        acceptors = [tcp_acceptor(listener, notice) for listener in listeners]
        if config.relay is not None:
            return await _host_with_relay(config, config.relay, rules, seating, door,
                                          host_secrets, host_name, direct, acceptors,
                                          player_for, notice, on_invite, transcript,
                                          background, on_code, codes_again)
        first = direct[0]
        on_invite(Invite(first.host, first.port, config.nonce, fingerprint,
                         rules=rules.digest(), via=tuple(direct[1:])))
        joined: list[tuple[FrameChannel, SeatedJoiner]] = []
        try:
            if remote:
                joined = await _gather(acceptors, seating, notice, background)
            async with trio.open_nursery() as nursery:
                for acceptor in acceptors:
                    nursery.start_soon(door_tcp, acceptor, door, nursery)
                try:
                    table = await _play(config, rules, player_for, host_secrets, host_name,
                                        joined, notice, transcript, door)
                finally:
                    nursery.cancel_scope.cancel()  # no checkpoint after this inside the nursery
            return table
        finally:
            for framed, _ in joined:
                await framed.aclose()
    finally:
        for listener in listeners:
            await listener.aclose()


def seat_plan(rules: TableRules, remote: int, partner: str | None
              ) -> tuple[tuple[int, ...], frozenset[int]]:
    """The seats joiners take, in the order they are given, and those of the host's side
    among them; the host's bots take the other seats.

    Without ``partner`` the joiners take seats ``1..remote``. With it, in a game of
    partnerships, the host's side is kept for people: the joiners' seats include as many of
    the host's partner seats as there are joiners, and are given the other seats first, so that
    the partner seats are free when the named joiner arrives (:class:`HostSeating` moves it
    there if it claimed another)."""
    others = list(range(1, rules.players))
    if partner is None:
        return tuple(others[:remote]), frozenset()
    spec = get_game(rules.game)
    engine = spec.new_match(spec.config_from_wire(dict(rules.config)))
    mine = [s for s in others if engine.side_of(s) == engine.side_of(0)]
    if not mine:
        raise MatchFailure(f"--partner: {rules.game} at {rules.players} seats is not played "
                           "in partnerships", status=2)
    partners = mine[:remote]
    rest = [s for s in others if s not in partners][:remote - len(partners)]
    return tuple(rest + partners), frozenset(partners)


def sides_line(genesis: Genesis) -> str | None:
    """``sides: Alba [0] + Bruno [2] against bot 1 [1] + bot 3 [3]``, or ``None`` in a game
    without partnerships: said by the host before the match."""
    sides = side_names(genesis)
    if len(sides) == len(genesis.seats):
        return None
    return pgettext("network", "sides: {sides}").format(
        sides=pgettext("network", " against ").join(sides))


async def _send_all(channels: Iterable[FrameChannel], message: dict[str, Any]) -> None:
    """Send ``message`` on every channel; a broken one is skipped (its peer is gone)."""
    for framed in channels:
        with contextlib.suppress(NetError):
            await framed.send_message(message)


SeatedLinks = list[tuple[FrameChannel, SeatedJoiner]]
"""The seated joiners' connections, with their seats and genesis entries."""


async def _host_with_relay(config: HostConfig, relay: tuple[str, int], rules: TableRules,
                           seating: HostSeating, door: Door, host_secrets: SeatSecrets,
                           host_name: str, direct: list[Candidate], acceptors: list[Acceptor],
                           player_for: PlayerFactory, notice: Notice,
                           on_invite: Callable[[Invite], None], transcript: TranscriptFactory,
                           background: trio.Nursery,
                           on_code: Callable[[Code, float], None] | None,
                           codes_again: Callable[[], Awaitable[None]] | None) -> Table:
    """Host through the relay room, with the direct candidates first in the invite: joiners
    come from the room and from ``acceptors`` alike."""
    remote = seating.seats
    relay_host, relay_port = relay
    joined: list[tuple[FrameChannel, SeatedJoiner]] = []
    async with open_relay_mux(relay_host, relay_port, config.nonce, host_secrets.identity,
                              accept=True, patience=config.relay_patience,
                              punch_port=free_port() if acceptors else None) as mux:
        if mux.slot != HOST_SLOT:
            raise MatchFailure(f"the relay at {mux.where} already has a room for this table "
                               "nonce; host again to get a fresh one")
        await mux.conn.send(BEACON)  # the room holds a frame: joiners enter with since 0
        invite = Invite(relay_host, relay_port, config.nonce,
                        host_secrets.identity.public.fingerprint, relay=True,
                        rules=rules.digest(), via=tuple(direct))
        on_invite(invite)
        try:
            if remote:
                async with trio.open_nursery() as codes:
                    if config.code_ttl is not None and on_code is not None:
                        codes.start_soon(functools.partial(
                            serve_codes, relay, invite,
                            host_secrets.identity.public.to_bytes(), seats=remote,
                            ttl=config.code_ttl, on_code=on_code, notice=notice,
                            room=config.nonce, again=codes_again))
                    joined = await _gather([_relay_acceptor(mux), *acceptors], seating, notice,
                                           background, _punch_handler(mux) if acceptors else None)
                    codes.cancel_scope.cancel()
            if acceptors:  # a seat seated through the room may punch a hole later
                door.later_punch = LaterPunch(_punch_handler(mux), moved_connection_line)
            async with trio.open_nursery() as nursery:
                for acceptor in acceptors:
                    nursery.start_soon(door_tcp, acceptor, door, nursery)
                if config.comeback is not None:
                    nursery.start_soon(functools.partial(
                        serve_room, relay, config.nonce, host_secrets.identity, mux,
                        door, nursery, patience=config.relay_patience, notice=notice))
                else:
                    nursery.start_soon(door_relay, mux, door, nursery)
                table = await _play(config, rules, player_for, host_secrets, host_name,
                                    joined, notice, transcript, door)
                nursery.cancel_scope.cancel()
            return table
        finally:
            for framed, _ in joined:
                await framed.aclose()


async def _play(config: HostConfig, rules: TableRules, player_for: PlayerFactory,
                host_secrets: SeatSecrets,
                host_name: str, joined: SeatedLinks, notice: Notice,
                transcript: TranscriptFactory, door: Door) -> Table:
    """The match, then, while everyone agrees (``config.again``), the next ones on the same
    connections (:mod:`.rematch`); returns the last match's table."""
    people = {j.seat for _, j in joined}
    bot_secrets = [seat_secrets(seat, config.seed, None, f"bot {seat}")
                   for seat in range(1, config.players) if seat not in people]
    series: Series | None = None
    try:
        while True:
            table, channels = await _one_match(config, rules, player_for, host_secrets,
                                               host_name, joined, bot_secrets, notice,
                                               transcript, door, keep_open=True)
            if config.again is None:  # no rematch: a signed decline, as a courtesy
                joined = [(channels[j.seat], j) for _, j in joined if j.seat in channels]
                await _send_all((framed for framed, _ in joined), again_message(
                    table.genesis, 0, host_secrets.identity, None))
                return table
            series = series or Series(side_names(table.genesis))
            series.record(table.engine.winner, table.engine.match_scores)
            if any(j.seat not in channels for _, j in joined):
                notice(series.line())
                notice(pgettext("network", "a player's connection is gone; the series ends"))
                joined = [(channels[j.seat], j) for _, j in joined if j.seat in channels]
                return table
            joined = [(channels[j.seat], j) for _, j in joined]
            agreed = await _host_again(config, table, host_secrets, joined, bot_secrets, notice,
                                       series)
            if agreed is None:
                return table
            host_secrets, joined, bot_secrets = agreed
    finally:
        with trio.move_on_after(CLOSE_SECONDS):
            async with trio.open_nursery() as closers:
                for framed, _ in joined:
                    closers.start_soon(framed.aclose_gracefully)
        for framed, _ in joined:
            await framed.aclose()


def _fresh(secrets: SeatSecrets) -> SeatSecrets:
    """The same identity with a fresh X25519 key and seat nonce, for the next match."""
    return new_seat(SystemRandomness(), secrets.identity)


async def _host_again(config: HostConfig, table: Table, host_secrets: SeatSecrets,
                      joined: SeatedLinks, bot_secrets: list[tuple[SeatSecrets, str]],
                      notice: Notice, series: Series
                      ) -> tuple[SeatSecrets, SeatedLinks, list[tuple[SeatSecrets, str]]] | None:
    """The hub's side of the rematch exchange after ``table``'s match, once the ``series``
    tally is said: its own answer, then every joiner's; the next match's secrets and seats when
    everyone said yes, else ``None`` (everyone has been told who declined, or why the series
    ends). Ctrl-C or SIGTERM at the question or during the wait is the host's decline."""
    again = config.again
    assert again is not None
    previous = table.genesis
    channels = {j.seat: framed for framed, j in joined}

    async def ask_and_read() -> tuple[bool, Answers]:
        """The host's answer and the joiners' at once: a joiner's decline ends the question
        (nobody needs to be asked then), the host's no ends the reading."""
        notice(series.line())
        found, answered = Answers(), trio.Event()
        mine = False
        async with trio.open_nursery() as nursery:
            async def read() -> None:
                await collect_answers(previous, channels, previous.timeouts["action"], found,
                                      answered)
                nursery.cancel_scope.cancel()

            nursery.start_soon(read)
            mine = await again(table)
            answered.set()
            if not mine or len(found.yes) == len(channels):
                nursery.cancel_scope.cancel()
            else:
                notice(pgettext("network", "waiting for the others to say whether they play "
                                "again"))
        return mine, found

    outcome = await unless_interrupted(ask_and_read)
    collected: tuple[Answers] | None = None
    if outcome is not None:
        mine, got = outcome[0]
        if mine or got.declined is not None:
            collected = (got,)
    if collected is None:
        await _send_all(channels.values(), again_message(previous, 0, host_secrets.identity,
                                                         None))
        notice(pgettext("network", "you declined another match; the series ends"))
        return None
    answers = collected[0]
    seat = answers.declined
    if seat is not None:
        others = [c for s, c in channels.items() if s != seat]
        if answers.signed is not None:
            await _send_all(others, answers.signed)
            said = declined_sentence(previous, seat)
        else:  # its connection ended: a decline the others are told of in the hub's words
            with english():
                reason = closed_sentence(previous, seat)
            await _send_all(others, {"type": "abort", "reason": reason})
            said = closed_sentence(previous, seat)
        notice(pgettext("network", "{declined}; the series ends").format(declined=said))
        return None
    if len(answers.yes) != len(channels):
        why = "a player did not answer whether to play again; the series ends"
        await _send_all(channels.values(), {"type": "abort", "reason": why})
        notice(why)
        return None
    next_joined: SeatedLinks = [
        (framed, SeatedJoiner(joiner.seat, answers.yes[joiner.seat], joiner.bot))
        for framed, joiner in joined]
    return _fresh(host_secrets), next_joined, [(_fresh(s), name) for s, name in bot_secrets]


async def _one_match(config: HostConfig, rules: TableRules, player_for: PlayerFactory,
                     host_secrets: SeatSecrets, host_name: str, joined: SeatedLinks,
                     bot_secrets: list[tuple[SeatSecrets, str]], notice: Notice,
                     transcript: TranscriptFactory, door: Door, *, keep_open: bool
                     ) -> tuple[Table, dict[int, FrameChannel]]:
    people = {j.seat: j.info for _, j in joined}
    bot_seats = [seat for seat in range(1, config.players) if seat not in people]
    by_seat = {0: host_secrets.info(host_name), **people} | {
        seat: secrets.info(name) for seat, (secrets, name) in zip(bot_seats, bot_secrets,
                                                                 strict=True)}
    infos = [by_seat[seat] for seat in range(config.players)]
    genesis = Genesis(rules.game, rules.preset, dict(rules.config), tuple(infos),
                      dict(rules.timeouts), dropout=rules.dropout)
    bots = frozenset(j.seat for _, j in joined if j.bot) | frozenset(bot_seats)
    for framed, _ in joined:
        try:
            await framed.send_message({"type": "genesis", "genesis": genesis.encode(),
                                       "bots": sorted(bots)})
        except NetError as exc:
            raise MatchFailure(f"{framed.label} left before the match started: {exc}") from None
    notice(table_starts(genesis))
    sides = sides_line(genesis)
    if sides is not None:
        notice(sides)
    comeback = config.comeback
    kept = [KeptSeat(0, host_secrets, "own")] + [
        KeptSeat(seat, secrets, "bot:smart")
        for seat, (secrets, _) in zip(bot_seats, bot_secrets, strict=True)]
    tables = [Table(genesis, seat=k.seat, identity=k.secrets.identity,
                    x25519_private=k.secrets.x25519_private, rng=table_rng(k.seat, config.seed),
                    keeper=None if comeback is None else comeback.keeper(genesis, k.seat))
              for k in kept]
    seats = [LocalSeat.of(tables[0], player_for(genesis, 0), host_secrets.identity)] + [
        LocalSeat.of(table, bot_player(config.game, table.seat or 0, config.seed))
        for table in tables[1:]]
    for framed, j in joined:
        framed.label = seat_label(genesis, j.seat)  # named as the genesis seats it, from now on
    links = [Link(framed, frozenset({j.seat})) for framed, j in joined]
    writer = transcript(genesis, 0)
    try:
        reentry = None
        if comeback is not None:
            comeback.begin(genesis, kept, bots)
            reentry = Reentry(comeback.patience(genesis))
        session = Session(genesis, seats, links, forward=True, bots=bots, writer=writer,
                          reentry=reentry, notice=notice)
        if reentry is not None:
            door.open(genesis, [j.seat for _, j in joined], session)
        try:
            await session.run(keep_open=keep_open)
        finally:
            if comeback is not None:
                comeback.end(genesis)
    finally:
        writer.close()
    return tables[0], session.live_channels()
