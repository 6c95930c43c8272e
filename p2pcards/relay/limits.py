"""Every bound the relay enforces, in one frozen dataclass.

A relay on the open internet must never let a client make it hold more than a known amount of
memory or spend more than a known amount of work. :class:`RelayLimits` names each bound; the
server and the sans-IO room logic read nothing else. Defaults are sized for card matches of up
to 8 seats: a 4-seat Scopa match moves well under 1 MiB in a few hundred frames, the largest
single message (a verified shuffle of the 108-card French deck) is about 25 KiB.

Compared with go-libp2p's circuit relay v2 (128 reservations, 2 minutes and 128 KiB per
circuit) the per-room byte budget is larger, because a room is a whole match, not one stream;
every limit here is enforced and has a test.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from ..wire.framing import MAX_FRAME_SIZE

__all__ = ["RelayLimits", "DEFAULT_LIMITS", "FRAME_OVERHEAD"]

FRAME_OVERHEAD = 64
"""Bytes the relay adds around a forwarded payload (its msgpack wrapper, see ``protocol/RELAY.md``);
a wrapped frame of a maximum-size payload is at most ``max_payload + FRAME_OVERHEAD`` bytes."""


@dataclass(frozen=True)
class RelayLimits:
    """The relay's bounds. Sizes in bytes, durations in seconds, rates per second.

    Frames and bytes per connection are token buckets: ``*_rate`` tokens per second refill a
    bucket of ``*_burst`` tokens; a client that outruns its bucket is throttled (the relay stops
    reading its socket until the bucket allows the next frame), which pushes back through TCP.
    """

    max_payload: int = MAX_FRAME_SIZE
    """Largest payload a client may send in one frame (1 MiB, as the wire layer)."""
    frames_rate: float = 100.0
    """Sustained frames per second per connection (keepalives count)."""
    frames_burst: float = 400.0
    """Frame bucket capacity: a whole burst of automatic protocol messages passes unthrottled."""
    bytes_rate: float = 256 * 1024
    """Sustained payload bytes per second per connection."""
    bytes_burst: float = 2 * 1024 * 1024
    """Byte bucket capacity; at least ``max_payload`` so that any legal frame can pass."""
    max_peers_per_room: int = 16
    """Distinct identities admitted to one room: a table has at most 8 seats (the host and 7
    joiners); the other 8 leave room for a joiner that comes back under a fresh relay key and
    for connections the host refused (a wrong key, a slow claim), whose slots stay taken."""
    max_rooms: int = 1000
    """Rooms held at once."""
    max_connections: int = 4096
    """Open TCP connections at once, handshaking or admitted."""
    max_rooms_per_address: int = 8
    """Rooms one network address (an IPv6 client: its /64) may have created and still held:
    a host makes one room per table. Less than ``max_rooms``, so that no single address can
    fill the relay."""
    max_connections_per_address: int = 32
    """Open TCP connections one network address (an IPv6 client: its /64) may hold at once,
    mailbox connections included: enough for a household behind one router hosting and
    joining several tables. Less than ``max_connections``."""
    handshake_timeout: float = 10.0
    """Seconds from accept to ``welcome``; slow or silent clients are cut."""
    idle_timeout: float = 300.0
    """Seconds without any frame from an admitted client (clients send empty keepalive frames)."""
    write_timeout: float = 30.0
    """Seconds one write to a client may block before the client is cut as a slow reader."""
    room_lifetime: float = 6 * 3600.0
    """Seconds a room may exist, whatever happens in it."""
    empty_room_ttl: float = 600.0
    """Seconds a room with no connected member is kept so that members can reconnect."""
    max_room_bytes: int = 8 * 1024 * 1024
    """Buffered (store-and-forward) bytes per room; a room that would exceed it is dropped."""
    max_total_bytes: int = 256 * 1024 * 1024
    """Buffered bytes across all rooms; the room whose frame would exceed it is dropped."""
    max_inflight_bytes: int = 64 * 1024 * 1024
    """Bytes of partly received or not yet forwarded frames across all connections; a connection
    that would push the total over it is cut."""
    read_chunk: int = 64 * 1024
    """Largest single socket read, so each connection holds at most this much raw input."""

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if not value > 0:
                raise ValueError(f"relay limit {f.name} must be positive, not {value!r}")
        if self.bytes_burst < self.max_payload:
            raise ValueError("relay limit bytes_burst must be at least max_payload")
        if self.frames_burst < 1:
            raise ValueError("relay limit frames_burst must be at least 1")
        if self.max_room_bytes < self.max_payload + FRAME_OVERHEAD:
            raise ValueError("relay limit max_room_bytes must hold at least one maximum frame")
        if self.max_total_bytes < self.max_room_bytes:
            raise ValueError("relay limit max_total_bytes must be at least max_room_bytes")
        if self.max_rooms_per_address >= self.max_rooms:
            raise ValueError("relay limit max_rooms_per_address must be less than max_rooms, "
                             "so that one address cannot take every room")
        if self.max_connections_per_address >= self.max_connections:
            raise ValueError("relay limit max_connections_per_address must be less than "
                             "max_connections, so that one address cannot take every connection")
        if self.max_inflight_bytes < self.max_payload + 4:
            raise ValueError("relay limit max_inflight_bytes must hold at least one maximum frame")


DEFAULT_LIMITS = RelayLimits()
