"""Headless relay node: rooms keyed by invite codes, proven identities, bounded everything.

Peers that cannot reach each other directly meet at a relay. Each member of a room connects
over TCP, proves its Ed25519 identity by signing a challenge, and from then on every frame it
sends is given the room's next index and forwarded verbatim to every other member. The relay
keeps a bounded store-and-forward buffer per room, so a member that reconnects catches up from
the last index it holds. The relay cannot forge, reorder or drop envelopes undetected: the table
layer checks signatures and the hash chain (a dropped frame shows as a stall naming the seat the
table waits for). The wire protocol is ``protocol/RELAY.md``; operation is ``docs/relay.md``.

Client API (Trio)::

    from p2pcards.relay import connect
    conn = await connect(host, port, room: bytes, identity_key, since=-1)  # -> RelayConnection
    await conn.send(payload: bytes)
    delivery = await conn.receive()     # Delivery(index: int, slot: int, payload: bytes)
    conn.last_index, conn.slot
    await conn.reconnect(); await conn.abort(); await conn.aclose()

Server API (Trio)::

    server = RelayServer(RelayLimits(...), log=print, stats_interval=60.0)
    port = await nursery.start(server.serve, "0.0.0.0", 7447)
    server.request_shutdown()

Sans-IO parts: :mod:`.limits` (:class:`RelayLimits`), :mod:`.messages` (the message codec),
:mod:`.handshake` (:class:`ServerHandshake`, :class:`ClientHandshake`), :mod:`.rooms`
(:class:`RoomRegistry`: membership, indices, buffer budgets), :mod:`.buckets`
(:class:`TokenBucket`), :mod:`.stats` (counters and the ``key=value`` log lines).

Errors: :class:`RelayError` with a kebab-case ``reason``; :class:`RelayProtocolError` (bytes
that break the protocol), :class:`RelayRejected` (the relay refused or closed us),
:class:`RelayUnavailable` (unreachable).
"""

import importlib
from typing import TYPE_CHECKING, Any

from .buckets import TokenBucket
from .client import RelayConnection, connect
from .errors import RelayError, RelayProtocolError, RelayRejected, RelayUnavailable
from .handshake import Admission, ClientHandshake, ServerHandshake
from .limits import DEFAULT_LIMITS, FRAME_OVERHEAD, RelayLimits
from .messages import Delivery, Welcome

if TYPE_CHECKING:
    from .rooms import JoinRefused, Room, RoomDropped, RoomRegistry, room_id
    from .server import RelayServer, parse_listen
    from .stats import RelayStats, log_line

_SERVER_SIDE = {
    "JoinRefused": "rooms", "Room": "rooms", "RoomDropped": "rooms", "RoomRegistry": "rooms",
    "room_id": "rooms", "RelayServer": "server", "parse_listen": "server",
    "RelayStats": "stats", "log_line": "stats",
}
"""The server's names, imported on first use: a peer that only connects to a relay (every
``host`` and ``join``) does not load the server."""


def __getattr__(name: str) -> Any:
    module = _SERVER_SIDE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)


__all__ = [
    "Admission",
    "ClientHandshake",
    "DEFAULT_LIMITS",
    "Delivery",
    "FRAME_OVERHEAD",
    "JoinRefused",
    "RelayConnection",
    "RelayError",
    "RelayLimits",
    "RelayProtocolError",
    "RelayRejected",
    "RelayServer",
    "RelayStats",
    "RelayUnavailable",
    "Room",
    "RoomDropped",
    "RoomRegistry",
    "ServerHandshake",
    "TokenBucket",
    "Welcome",
    "connect",
    "log_line",
    "parse_listen",
    "room_id",
]
