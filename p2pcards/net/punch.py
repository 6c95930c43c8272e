"""Hole punching through the relay room (SPEC §11.10), in the manner of libp2p's DCUtR.

Host and joiner each reach the relay from a fixed local port and ask it for the address it sees
them at (``see``/``seen``, ``protocol/RELAY.md``): behind a home router with an
endpoint-independent mapping, that is the public address at which the router will let the other
peer in, once this side has sent a packet there itself. The joiner opens one more virtual
connection to the host in the room and they exchange::

    joiner -> host  punch  {addr: the joiner's observed HOST:PORT}
    host -> joiner  punch  {addr: the host's observed HOST:PORT}
                           (or refused {reason}, when the host has none)
    joiner -> host  sync   {}

The joiner measures the round trip from its ``punch`` to the host's, sends ``sync`` and waits
half of it; the host starts when ``sync`` arrives; so both start at about the same moment. Each
side then connects from its relay port to the other's observed address every
:data:`RETRY_SECONDS` (each try :data:`TRY_SECONDS` at most) for :data:`PUNCH_SECONDS`: the
first packets open each router for the other's, and the two connection attempts meet (TCP
simultaneous open). A connection that comes up is only a candidate: the joiner runs the seating
handshake on it and keeps it only if the host proves the invite's key (:mod:`.race`), so a relay
that lies about addresses can delay a table, never put someone else at it.
"""

from __future__ import annotations

import contextlib
import socket
import struct
from collections.abc import Awaitable, Callable
from typing import Any

import trio

from ..relay.shared_port import shared_port_stream
from ..seating.candidates import CandidateError, parse_address
from .errors import HandshakeError, NetError
from .framed import FrameChannel, FramedStream
from .race import close_now

__all__ = ["PUNCH_SECONDS", "RETRY_SECONDS", "TRY_SECONDS", "ANSWER_SECONDS",
           "simultaneous_open", "joiner_punch", "host_punch", "is_punch", "PunchHandler",
           "discard"]

PUNCH_SECONDS = 5.0
RETRY_SECONDS = 0.2
TRY_SECONDS = 1.0
ANSWER_SECONDS = 5.0
"""How long either side waits for the other's next punch message."""

PunchHandler = Callable[[FrameChannel, dict[str, Any]],
                        Awaitable[tuple[FrameChannel, str] | None]]
"""The host's side of a punch exchange on a room connection whose first message (given) is
``punch``: the punched connection and where it comes from, or ``None``."""


def is_punch(message: dict[str, Any]) -> bool:
    """Whether the first message of a room connection opens a punch exchange."""
    return message.get("type") == "punch"


async def discard(framed: FrameChannel) -> None:
    """Close a punched connection that is not kept with a reset (``SO_LINGER`` 0), not a FIN:
    an orderly close holds the pair of ports in ``TIME_WAIT`` for a minute on the side that
    closes first, and a later punch between the same two ports (during the match, SPEC
    §11.10) could not connect until then."""
    stream = framed.stream if isinstance(framed, FramedStream) else None
    if isinstance(stream, trio.SocketStream):
        with contextlib.suppress(OSError):
            stream.socket.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                     struct.pack("ii", 1, 0))
    await close_now(framed)


async def simultaneous_open(local_port: int, remote: str, *, seconds: float = PUNCH_SECONDS
                            ) -> trio.SocketStream | None:
    """Connect from ``local_port`` to ``remote`` (``HOST:PORT``) again and again for
    ``seconds``; the connection, or ``None``."""
    host, port = parse_address(remote, "punch address")
    with trio.move_on_after(seconds):
        while True:
            try:
                with trio.fail_after(TRY_SECONDS):
                    return await shared_port_stream(host, port, local_port)
            except (OSError, trio.TooSlowError):
                await trio.sleep(RETRY_SECONDS)
    return None


async def _answer(channel: FrameChannel, kind: str) -> dict[str, Any]:
    with trio.fail_after(ANSWER_SECONDS):
        message = await channel.receive_message()
    if message is None:
        raise HandshakeError(f"{channel.label} ended the punch exchange")
    if message.get("type") == "refused":
        raise HandshakeError(f"{channel.label} does not punch: {message.get('reason')}")
    if message.get("type") != kind:
        raise HandshakeError(f"{channel.label} sent {message.get('type')!r}, not {kind!r}")
    return message


def _address(message: dict[str, Any]) -> str:
    addr = message.get("addr")
    if not isinstance(addr, str):
        raise HandshakeError("a punch message without an address")
    try:
        parse_address(addr, "punch address")
    except CandidateError as exc:
        raise HandshakeError(str(exc)) from None
    return addr


async def joiner_punch(channel: FrameChannel, observed: str, local_port: int
                       ) -> tuple[trio.SocketStream, str] | None:
    """The joiner's side over a fresh room connection to the host: the punched connection and
    the host's address, or ``None`` when the exchange or the punch fails."""
    try:
        sent = trio.current_time()
        await channel.send_message({"type": "punch", "addr": observed})
        remote = _address(await _answer(channel, "punch"))
        round_trip = trio.current_time() - sent
        await channel.send_message({"type": "sync"})
    except (NetError, trio.TooSlowError):
        return None
    await trio.sleep(round_trip / 2)
    stream = await simultaneous_open(local_port, remote)
    return None if stream is None else (stream, remote)


async def host_punch(channel: FrameChannel, first: dict[str, Any], observed: str | None,
                     local_port: int | None) -> tuple[trio.SocketStream, str] | None:
    """The host's side, ``first`` being the joiner's ``punch``: the punched connection and the
    joiner's address, or ``None``."""
    try:
        remote = _address(first)
        if observed is None or local_port is None:
            await channel.send_message({"type": "refused",
                                        "reason": "the relay did not say where it sees this host"})
            return None
        await channel.send_message({"type": "punch", "addr": observed})
        await _answer(channel, "sync")
    except (NetError, trio.TooSlowError):
        return None
    stream = await simultaneous_open(local_port, remote)
    return None if stream is None else (stream, remote)
