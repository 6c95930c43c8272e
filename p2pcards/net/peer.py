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

import functools
from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack
from typing import Any

import trio

from ..crypto import SystemRandomness
from ..i18n import NP_, pgettext
from ..records.transcript import TranscriptWriter
from ..relay.client import RECONNECT_WINDOW
from ..relay.shared_port import free_port
from ..seating.candidates import Candidate, format_address, how, parse_address
from ..seating.genesis import Genesis, GenesisError, SeatInfo
from ..seating.invite import Invite
from ..seating.secrets import SeatSecrets, new_seat
from ..table import Table
from ..wire.identity import IdentityKey
from .comeback import Comeback, KeptSeat, dialler
from .errors import MatchFailure, NetError
from .framed import FrameChannel, FramedStream
from .handshake import (
    Reviewer,
    SecretsFor,
    prove_host,
    receive_genesis,
    refuse_unusual,
    take_seat,
)
from .interrupts import unless_interrupted
from .leave import leave_message
from .links import Link, Reentry
from .notices import ConnectionFacts, TypedNotice
from .nursery import one_failure
from .player import LocalSeat, Player, host_label
from .punch import discard, joiner_punch
from .race import Claim, Reached, Way, close_now, connect_first, race
from .relay_mux import HOST_SLOT, RelayMux, RelayUnusable, open_relay_mux
from .relay_room import JoinerRoom
from .rematch import (
    Series,
    again_message,
    check_again,
    declined_sentence,
    next_again,
    next_genesis_problems,
    send_decline,
    side_names,
    take_back,
)
from .seats import table_rng
from .sentences import table_starts
from .session import Session
from .upgrade import LaterPunch, punch_later

__all__ = ["join_match", "connect_direct", "connect_to", "joiner_connection_line",
           "CONNECT_SECONDS", "GRACE_SECONDS"]

CONNECT_SECONDS = 15.0
GRACE_SECONDS = 2.0
AGAIN_GRACE = 10.0
"""How much longer than the hub a joiner waits for the answer to its ``again``."""

Again = Callable[[Table], Awaitable[bool]]
"""Asked after each match: whether this seat plays another at the same table."""
PUNCH_WAIT = 2.0
"""Seconds a joiner whose relayed connection proved the host waits for a punched one."""


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
    key = relay_identity or IdentityKey.generate()
    later: list[LaterPunch] = []
    ways = [(c, _way(c, invite, bot=bot, relay_key=key, patience=relay_patience, later=later))
            for c in invite.candidates()]
    with one_failure():
        async with trio.open_nursery() as attempts:
            reached = await race(ways, attempts)
            notice(joiner_connection_line(reached.candidate, reached.passed_over,
                                          reached.no_punch))
            try:
                return await _play(reached, invite, player_for, secrets_for, bot=bot, seed=seed,
                                   notice=notice, transcript=transcript, review=review,
                                   comeback=comeback, again=again,
                                   later=later[0] if later and not reached.candidate.direct
                                   else None)
            finally:
                await reached.release()
                attempts.cancel_scope.cancel()


def _way(candidate: Candidate, invite: Invite, *, bot: bool, relay_key: IdentityKey,
         patience: float, later: list[LaterPunch]) -> Way:
    """The attempt of the race (:mod:`.race`) that reaches the host through ``candidate``;
    a relayed winner puts into ``later`` how to punch a hole during the match."""
    if candidate.kind == "relay":
        return functools.partial(_through_relay, candidate, invite, bot=bot, key=relay_key,
                                 patience=patience, later=later)
    return functools.partial(_direct, candidate, invite, bot=bot, relay_key=relay_key,
                             patience=patience)


async def _direct(candidate: Candidate, invite: Invite, claim: Claim, *, bot: bool,
                  relay_key: IdentityKey, patience: float) -> None:
    """Connect to a direct candidate and prove the host on it. The way back (re-entry, SPEC
    §11.7.2) dials the same address and, when the invite names a relay, the table's room as
    well (:func:`~.race.connect_first`): a direct link that is cut goes on through the relay.
    If this attempt wins with a relay to fall back on, it keeps the room's way until the
    match releases it."""
    framed = await connect_to(candidate.host, candidate.port)
    try:
        seating, offer = await prove_host(framed, invite, bot=bot, where=candidate.where)
    except BaseException:
        await close_now(framed)
        raise

    async def again() -> FrameChannel:
        return await connect_to(candidate.host, candidate.port)
    relay = invite.relay_address
    if relay is None:
        reached = Reached(candidate, framed, seating, offer, again)
        if not claim(reached):
            await reached.decline()
        return
    async with trio.open_nursery() as nursery:
        room = JoinerRoom(relay, invite.nonce, relay_key, nursery, patience=patience)
        reached = Reached(candidate, framed, seating, offer,
                          functools.partial(connect_first, (again, room.connect)))
        if claim(reached):
            await reached.released.wait()
        else:
            await reached.decline()
        nursery.cancel_scope.cancel()


async def _hold_hosted_room(relay: tuple[str, int], nonce: bytes, key: IdentityKey,
                            patience: float, punch_port: int | None, *,
                            task_status: trio.TaskStatus[RelayMux] = trio.TASK_STATUS_IGNORED
                            ) -> None:
    """Enter the room of a relay invite (:func:`enter_hosted_room`), report the mux and keep
    it until the relay fails (a :class:`~.relay_room.JoinerRoom` membership)."""
    async with AsyncExitStack() as stack:
        mux = await enter_hosted_room(stack, relay, nonce, key, patience, punch_port=punch_port)
        task_status.started(mux)
        await mux.wait_failed()


async def _through_relay(candidate: Candidate, invite: Invite, claim: Claim, *, bot: bool,
                         key: IdentityKey, patience: float, later: list[LaterPunch]) -> None:
    """Join the table's relay room, open a connection to the host there and prove the host;
    meanwhile, when the invite names direct addresses (so the host listens and punches), punch
    a hole to the host through the room (:mod:`.punch`). The punched connection wins if the
    host proves its key on it within :data:`PUNCH_WAIT` of the relayed one; if this attempt
    wins, stay in the room (the way back, SPEC §11.7.2) until the match releases it. A
    relayed winner that could have punched puts what it needs to punch during the match
    (:mod:`.upgrade`) into ``later``."""
    where = candidate.where
    relay = (candidate.host, candidate.port)
    punch_port = free_port() if invite.via else None
    with one_failure():
        async with trio.open_nursery() as nursery:
            room = JoinerRoom(relay, invite.nonce, key, nursery, patience=patience)
            mux = await room.hold(functools.partial(_hold_hosted_room, relay, invite.nonce, key,
                                                    patience, punch_port))
            punched: list[Reached] = []
            punch_done = trio.Event()
            punching = trio.CancelScope()
            if punch_port is not None and mux.conn.observed is not None:
                nursery.start_soon(_within, punching, functools.partial(
                    _punch, room, invite, bot, mux.conn.observed, punch_port, punched,
                    punch_done))
            else:
                punch_done.set()
            channel = await room.connect()
            try:
                seating, offer = await prove_host(channel, invite, bot=bot, where=where)
                relayed = Reached(candidate, channel, seating, offer, room.connect)
                with trio.move_on_after(PUNCH_WAIT):
                    await punch_done.wait()
                punching.cancel()  # a punch that comes later is the match's (.upgrade)
                chosen = punched[0] if punched else relayed
                if chosen is relayed and invite.via:
                    relayed.no_punch = _why_no_punch(mux, where)
                    if punch_port is not None and mux.conn.observed is not None:
                        later.append(LaterPunch(room, mux.conn.observed, punch_port))
                if chosen is not relayed:
                    chosen.passed_over = [(candidate, "a hole was punched through it")]
                    await relayed.decline()
                if claim(chosen):
                    await chosen.released.wait()
                else:
                    await chosen.decline()
            finally:
                for extra in punched:
                    if not extra.released.is_set():  # a punched winner's match closes it
                        await discard(extra.channel)
                await close_now(channel)
                nursery.cancel_scope.cancel()


async def _within(scope: trio.CancelScope, task: Callable[[], Awaitable[None]]) -> None:
    """Run ``task`` inside ``scope``, so that its starter can cancel it alone."""
    with scope:
        await task()


async def _punch(room: JoinerRoom, invite: Invite, bot: bool, observed: str, port: int,
                 punched: list[Reached], done: trio.Event) -> None:
    """Punch a hole to the host and prove the host on it; the result goes into ``punched``."""
    try:
        exchange = await room.connect()
        try:
            result = await joiner_punch(exchange, observed, port)
        finally:
            await close_now(exchange)
        if result is None:
            return
        stream, remote = result
        framed = FramedStream(stream, label=f"the host at {remote}")
        try:
            seating, offer = await prove_host(framed, invite, bot=bot, where=remote)
        except MatchFailure:
            await discard(framed)
            return
        except BaseException:  # cancelled: the relayed connection was kept
            await discard(framed)
            raise
        host, host_port = parse_address(remote)
        punched.append(Reached(Candidate("punched", host, host_port), framed, seating, offer,
                               room.connect))
    except MatchFailure:
        return
    finally:
        done.set()


def joiner_moved_line(where: str) -> TypedNotice:
    """The joiner's ``connection:`` line when its relayed link moved onto a hole punched to
    the host at ``where`` during the match (:mod:`.upgrade`)."""
    return TypedNotice(pgettext("network", "connection: direct (hole punched; was relay) to the "
                                "host at {where}").format(where=where),
                       ConnectionFacts("direct", how="punched", where=where, why="was relay"))


_OLD_RELAY = NP_("network", "no hole punching: the relay at {where} does not say where it sees "
                "this joiner (it is older than hole punching)")
_NO_HOLE = NP_("network", "no hole punched through the routers")


def _why_no_punch(mux: RelayMux, where: str) -> tuple[str, str]:
    """Why a relayed winner has no punched connection, in the person's language and in English
    (for ``--json``): the relay does not say where it sees this joiner (a relay older than hole
    punching, RELAY.md), or the punch found no way."""
    template = _OLD_RELAY if mux.conn.observed is None else _NO_HOLE
    return pgettext("network", template).format(where=where), template.format(where=where)


def joiner_connection_line(candidate: Candidate, passed_over: list[tuple[Candidate, str]],
                           no_punch: tuple[str, str] | None = None) -> TypedNotice:
    """The joiner's ``connection:`` line for the link to the host, with its facts;
    ``no_punch`` says why a relayed link was not punched (:attr:`Reached.no_punch`), in the
    person's language and in English."""
    if candidate.direct:
        return TypedNotice(pgettext("network", "connection: direct ({how}) to the host at "
                                    "{where}").format(how=how(candidate.kind),
                                                      where=candidate.where),
                           ConnectionFacts("direct", how=candidate.kind, where=candidate.where))
    tried = [f"{c.where}: {why}" for c, why in passed_over if c.direct]
    plain_tried = list(tried)
    if no_punch is not None:
        tried.append(no_punch[0])
        plain_tried.append(no_punch[1])
    why = (pgettext("network", "direct failed: {tried}").format(tried="; ".join(tried)) if tried
           else pgettext("network", "the invite names no direct address"))
    plain = ("direct failed: " + "; ".join(plain_tried) if plain_tried  # --json stays English
             else "the invite names no direct address")
    return TypedNotice(pgettext("network", "connection: relay through {where} ({why})").format(
        where=candidate.where, why=why),
        ConnectionFacts("relay", where=candidate.where, why=plain))


async def enter_hosted_room(stack: AsyncExitStack, relay: tuple[str, int], nonce: bytes,
                            key: IdentityKey, patience: float, *,
                            punch_port: int | None = None) -> RelayMux:
    """Join the room of a relay invite as a new member, only if its host is there: with
    ``since = 0`` first (RELAY.md: the relay refuses at once a room it does not hold,
    ``room-unknown``, and one in which no member is connected, ``room-empty``), then, for a
    room that holds no frame yet (``ahead-of-room``: its host has just made it, or is older
    and sends no beacon), with ``since = -1``. :class:`MatchFailure` in one sentence when
    nobody hosts the table there."""
    where = f"{relay[0]}:{relay[1]}"
    nobody = (f"nobody is hosting the table of this invite at the relay {where} now (the host "
              "has not started yet or has already left, or the invite is wrong or stale; ask "
              "the host for a fresh one)")
    try:
        return await stack.enter_async_context(open_relay_mux(
            relay[0], relay[1], nonce, key, accept=False, patience=patience, since=0,
            punch_port=punch_port))
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
        relay[0], relay[1], nonce, key, accept=False, patience=patience,
        punch_port=punch_port))
    if mux.slot == HOST_SLOT:
        raise MatchFailure(nobody)
    return mux


async def connect_direct(invite: Invite) -> FramedStream:
    """A connection to the host of a direct invite, or :class:`MatchFailure` in one sentence."""
    return await connect_to(invite.host, invite.port)


async def connect_to(host: str, port: int) -> FramedStream:
    """A connection to the host at ``host:port``, or :class:`MatchFailure` in one sentence."""
    where = format_address(host, port)
    try:
        with trio.fail_after(CONNECT_SECONDS):
            stream = await trio.open_tcp_stream(host, port)
    except trio.TooSlowError:
        raise MatchFailure(f"could not connect to {where} within {CONNECT_SECONDS:.0f} "
                           "seconds") from None
    except OSError as exc:
        reason = _reason(exc)
        raise MatchFailure(f"could not connect to {where}: {reason} (is the host still "
                           "hosting this table, and is the address reachable?)") from None
    return FramedStream(stream, label=f"the host at {where}")


async def _play(reached: Reached, invite: Invite,
                player_for: Callable[[Genesis, int], Player], secrets_for: SecretsFor, *,
                bot: bool, seed: int | None, notice: Callable[[str], None],
                transcript: Callable[[Genesis, int], TranscriptWriter],
                review: Reviewer, comeback: Comeback | None,
                again: Again | None = None, later: LaterPunch | None = None) -> Table:
    """Seat, receive the genesis and play over the connection on which the host proved its
    key (a lost connection is dialled again the same way, with ``comeback``); then, while
    everyone agrees (``again``), the next matches on the same connection. With ``later``
    (and ``comeback``) a relayed link tries to move onto a hole punched during the first
    match (:mod:`.upgrade`)."""
    framed, connect = reached.channel, reached.connect
    seating = await take_seat(framed, reached.seating, reached.offer, secrets_for,
                              review=review)
    rules, seat = seating.rules, seating.seat
    assert rules is not None and seat is not None
    notice(pgettext("network", "seated at seat {seat} of a {players}-player {game} table "
                    "({preset}); waiting for the other players").format(
        seat=seat, players=rules.players, game=rules.game, preset=rules.preset))
    started = await receive_genesis(framed, seating)
    genesis, bots = started.genesis, started.bots
    secrets = seating.secrets
    assert secrets is not None
    framed.label = host_label(genesis)
    play = functools.partial(_match, seat=seat, player_for=player_for, seed=seed,
                             notice=notice, transcript=transcript, comeback=comeback,
                             connect=connect)
    table, channel = await play(framed, genesis, bots, secrets, later=later)
    series = Series(side_names(genesis))
    try:
        if again is None:  # no rematch: a signed decline, as a courtesy
            if channel is not None:
                await send_decline(channel, again_message(genesis, seat, secrets.identity,
                                                          None))
            return table
        while True:
            series.record(table.engine.winner, table.engine.match_scores)
            if channel is None:
                notice(series.line())
                notice(pgettext("network", "the connection to the host is gone; the series ends"))
                return table
            following = await _join_again(channel, table, seat, secrets, again, notice, series)
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
                      again: Again, notice: Callable[[str], None], series: Series
                      ) -> tuple[Genesis, frozenset[int], SeatSecrets] | None:
    """The joiner's side of the rematch exchange (SPEC §11.8), after saying the ``series``
    tally: its answer, then the next genesis, checked, with the seat's fresh secrets; ``None``
    when the series ends (said). Ctrl-C or SIGTERM at the question or during the wait is this
    seat's decline (:func:`~.interrupts.unless_interrupted`)."""
    previous = table.genesis
    declined = again_message(previous, seat, secrets.identity, None)

    async def ask() -> bool:
        notice(series.line())
        return await again(table)

    answer = await unless_interrupted(ask)
    if answer is None or not answer[0]:
        notice(pgettext("network", "you declined another match; the series ends"))
        await send_decline(channel, declined)
        return None
    fresh = new_seat(SystemRandomness(), secrets.identity)
    mine = fresh.info(previous.seats[seat].name)
    try:
        await channel.send_message(again_message(previous, seat, secrets.identity, mine))
    except NetError:
        notice(pgettext("network", "the connection to the host is gone; the series ends"))
        return None
    notice(pgettext("network", "waiting for the others to say whether they play again"))

    async def wait() -> dict[str, Any] | None:
        with trio.move_on_after(previous.timeouts["action"] + AGAIN_GRACE):
            return await next_again(channel)
        return None

    waited = await unless_interrupted(wait)
    if waited is None:  # the seat takes its yes back (SPEC §11.8)
        notice(pgettext("network", "you declined another match; the series ends"))

        def leave(genesis: Genesis) -> dict[str, Any] | None:
            if seat >= len(genesis.seats) or genesis.seats[seat] != mine:
                return None
            return leave_message(genesis, seat, secrets.identity)
        await take_back(channel, declined, leave)
        return None
    message = waited[0]
    others = frozenset(range(len(previous.seats))) - {seat}
    if message is None:
        notice(pgettext("network", "the host did not start another match; the series ends"))
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
        notice(pgettext("network", "{declined}; the series ends").format(
            declined=declined_sentence(previous, checked[0])))
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
                 comeback: Comeback | None, connect: Callable[[], Awaitable[FrameChannel]],
                 later: LaterPunch | None = None) -> tuple[Table, FrameChannel | None]:
    """One match of this seat over ``framed``; the table, and the host's connection, kept
    open for the rematch exchange, if it is still live. With ``later`` and re-entry, a hole
    punched meanwhile takes over the link (:func:`~.upgrade.punch_later`)."""
    framed.label = host_label(genesis)
    notice(table_starts(genesis))
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
            if later is None or reentry is None:
                await session.run(keep_open=True)
            else:
                await _run_punching(session, functools.partial(
                    punch_later, session, later, framed, genesis, seat, secrets.identity,
                    joiner_moved_line))
        finally:
            if comeback is not None:
                comeback.end(genesis)
    finally:
        writer.close()
    return table, session.live_channels().get(0)


async def _run_punching(session: Session, punching: Callable[[], Awaitable[None]]) -> None:
    """Run ``session`` (keeping its connections open) with ``punching`` beside it, cancelled
    when the match ends."""
    with one_failure():
        async with trio.open_nursery() as nursery:
            nursery.start_soon(punching)
            await session.run(keep_open=True)
            nursery.cancel_scope.cancel()


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
