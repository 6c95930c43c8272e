"""Rooms, membership and the bounded store-and-forward buffer. Sans-IO: time is an argument.

A room is named by its invite code (16..64 bytes; logs show only :attr:`Room.rid`, a hash of
it). The first admitted identity creates the room; each distinct identity gets the next free
slot (0, 1, ...), kept for the room's life so that a reconnecting member gets its slot back.

Every payload a member sends is appended to the room's buffer under the next index (0, 1, ...)
already wrapped as the ``frame`` message the members will receive, so that forwarding to N
members costs one encoding. Connections read the buffer through their own cursor; nothing is
queued per connection. The buffer keeps every frame of the room, which is what makes catching
up after a reconnect possible; its size is bounded by :attr:`RelayLimits.max_room_bytes` per
room and :attr:`RelayLimits.max_total_bytes` overall, and a frame that would exceed either drops
the whole room (:class:`RoomDropped`) rather than letting the relay grow.
"""

from __future__ import annotations

import hashlib

from ..wire.framing import encode_frame
from .addresses import AddressCounts
from .errors import RelayError
from .limits import FRAME_OVERHEAD, RelayLimits
from .messages import Welcome, encode_delivery

__all__ = ["Room", "RoomRegistry", "JoinRefused", "RoomDropped", "room_id"]


def room_id(code: bytes) -> str:
    """The name of a room in logs: 12 hex digits of SHA-256 of its invite code."""
    return hashlib.sha256(code).hexdigest()[:12]


class JoinRefused(RelayError):
    """An admitted identity cannot join the room (``rooms-full``, ``rooms-per-address``,
    ``room-full``, ``room-unknown``, ``ahead-of-room``)."""


class RoomDropped(RelayError):
    """The room was dropped (``room-buffer``, ``total-buffer``); ``room`` says which."""

    def __init__(self, room: Room, reason: str, message: str) -> None:
        super().__init__(reason, message)
        self.room = room


class Room:
    """One room: members by identity, their slots, and the buffered frames."""

    def __init__(self, code: bytes, created: float, creator: str = "-") -> None:
        self.code = code
        self.rid = room_id(code)
        self.created = created
        self.creator = creator
        """The address (:func:`~.addresses.address_key`) of the member that created it."""
        self.slots: dict[bytes, int] = {}  # identity -> slot
        self.connected: set[int] = set()
        self.empty_since: float | None = created
        self.base = 0  # index of _frames[0]
        self._frames: list[bytes] = []  # framed ``frame`` messages, in index order
        self._senders: list[int] = []
        self.buffered = 0
        self.dropped: str | None = None

    @property
    def next_index(self) -> int:
        """The index the next appended frame gets."""
        return self.base + len(self._frames)

    def welcome(self, slot: int) -> Welcome:
        return Welcome(slot, self.base, self.next_index)

    def frame(self, index: int) -> bytes:
        """The framed ``frame`` message held at ``index`` (which the buffer must still hold)."""
        return self._frames[index - self.base]

    def read(self, cursor: int, max_bytes: int) -> list[tuple[int, int, bytes]]:
        """Frames from index ``cursor`` on as ``(index, sender slot, framed message)``; at least
        one frame if any, then as many as fit in ``max_bytes``."""
        out: list[tuple[int, int, bytes]] = []
        total = 0
        for i in range(max(cursor, self.base) - self.base, len(self._frames)):
            data = self._frames[i]
            if out and total + len(data) > max_bytes:
                break
            out.append((self.base + i, self._senders[i], data))
            total += len(data)
        return out


class RoomRegistry:
    """All rooms of one relay and the buffer accounting.

    :attr:`buffered` is the sum of the rooms' buffered bytes and never exceeds
    ``limits.max_total_bytes``; no room's :attr:`Room.buffered` exceeds
    ``limits.max_room_bytes``; no address has created more than
    ``limits.max_rooms_per_address`` of the rooms held.
    """

    def __init__(self, limits: RelayLimits) -> None:
        self.limits = limits
        self.rooms: dict[bytes, Room] = {}
        self.buffered = 0
        self.created_by = AddressCounts(limits.max_rooms_per_address)
        """Rooms held, by the address of the member that created them."""

    def join(self, code: bytes, identity: bytes, since: int, now: float,
             address: str = "-") -> tuple[Room, int]:
        """Admit ``identity``, connected from ``address``, to room ``code`` (creating it);
        return the room and the slot.

        ``since`` is the last index the client holds: a client that holds frames of a room the
        relay does not have (``room-unknown``) or beyond its end (``ahead-of-room``) is refused,
        because the indices would not mean the same thing. ``since = 0`` (join only, never
        create) is also refused while no member of the room is connected (``room-empty``):
        there is nobody to talk to. A new room counts against its
        creator's address (``rooms-per-address``) until it is dropped.
        """
        room = self.rooms.get(code)
        if room is None:
            if since >= 0:
                raise JoinRefused("room-unknown", f"room {room_id(code)} does not exist on this "
                                  f"relay, so it cannot hold frames after index {since}")
            if self.created_by.full(address):
                raise JoinRefused("rooms-per-address", "your address already holds "
                                  f"{self.limits.max_rooms_per_address} rooms at this relay")
            if len(self.rooms) >= self.limits.max_rooms:
                raise JoinRefused("rooms-full", f"the relay already holds its maximum of "
                                  f"{self.limits.max_rooms} rooms")
            room = Room(code, now, address)
            self.rooms[code] = room
            self.created_by.add(address)
        elif since >= room.next_index:
            raise JoinRefused("ahead-of-room", f"room {room.rid} has frames up to index "
                              f"{room.next_index - 1}, not {since}")
        elif since == 0 and not room.connected:
            raise JoinRefused("room-empty", f"room {room.rid} has no member connected now")
        slot = room.slots.get(identity)
        if slot is None:
            if len(room.slots) >= self.limits.max_peers_per_room:
                raise JoinRefused("room-full", f"room {room.rid} already has its maximum of "
                                  f"{self.limits.max_peers_per_room} members")
            slot = len(room.slots)
            room.slots[identity] = slot
        room.connected.add(slot)
        room.empty_since = None
        return room, slot

    def leave(self, room: Room, slot: int, now: float) -> None:
        """A member's connection ended (the slot stays reserved for its identity)."""
        room.connected.discard(slot)
        if not room.connected and room.empty_since is None:
            room.empty_since = now

    def append(self, room: Room, slot: int, payload: bytes) -> int:
        """Buffer ``payload`` from ``slot``; return its index, or drop the room over budget."""
        if room.dropped is not None:
            raise RoomDropped(room, room.dropped, f"room {room.rid} was dropped")
        index = room.next_index
        data = encode_frame(encode_delivery(index, slot, payload),
                            self.limits.max_payload + FRAME_OVERHEAD)
        size = len(data)
        if room.buffered + size > self.limits.max_room_bytes:
            message = (f"room {room.rid} would buffer {room.buffered + size} bytes, over its "
                       f"limit of {self.limits.max_room_bytes}")
            self.drop(room, "room-buffer")
            raise RoomDropped(room, "room-buffer", message)
        if self.buffered + size > self.limits.max_total_bytes:
            message = (f"the relay would buffer {self.buffered + size} bytes, over its limit "
                       f"of {self.limits.max_total_bytes}; room {room.rid} dropped")
            self.drop(room, "total-buffer")
            raise RoomDropped(room, "total-buffer", message)
        room._frames.append(data)
        room._senders.append(slot)
        room.buffered += size
        self.buffered += size
        return index

    def drop(self, room: Room, reason: str) -> None:
        """Forget ``room`` and release its buffer (idempotent)."""
        if room.dropped is not None:
            return
        room.dropped = reason
        if self.rooms.get(room.code) is room:
            del self.rooms[room.code]
            self.created_by.remove(room.creator)
        self.buffered -= room.buffered
        room.buffered = 0
        room._frames.clear()
        room._senders.clear()

    def expire(self, now: float) -> list[tuple[Room, str]]:
        """Drop rooms past their lifetime (``room-expired``) or empty for too long
        (``room-abandoned``); return them with the reason."""
        gone: list[tuple[Room, str]] = []
        for room in list(self.rooms.values()):
            if now - room.created >= self.limits.room_lifetime:
                gone.append((room, "room-expired"))
            elif room.empty_since is not None and now - room.empty_since >= \
                    self.limits.empty_room_ttl:
                gone.append((room, "room-abandoned"))
        for room, reason in gone:
            self.drop(room, reason)
        return gone
