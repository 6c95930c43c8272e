"""The connections of a session to other peers: :class:`Link` (one connection and the seats
behind it, with its outbox, state and keepalive count), :class:`Absent` (the connection of a link
that starts down), and the constants of reading, keepalives and closing.

Keepalives and ``abort`` travel outside the chain; a link silent past the keepalives is dead
and handled as a lost connection (SPEC §11.7.1); :class:`Reentry` says whether and how it comes
back (SPEC §11.7.2).
"""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import trio

from ..seating.reentry import Bond
from ..wire import codec
from .errors import NetError, PeerGone
from .framed import FrameChannel

__all__ = ["Link", "Absent", "Inbox", "Reentry", "FLUSH_SECONDS", "CLOSE_SECONDS", "INBOX_SIZE",
           "KEEPALIVE_SECONDS", "SILENT_TICKS", "ALIVE"]

FLUSH_SECONDS = 5.0
"""How long a finishing session waits for its last frames to leave."""
CLOSE_SECONDS = 5.0
"""How long a finishing session waits for the other ends to close after its own end (so that
what it sent, an ``abort`` above all, is not destroyed by a reset; see
:meth:`~.framed.FrameChannel.aclose_gracefully`)."""
INBOX_SIZE = 64
KEEPALIVE_SECONDS = 2.0
"""How often each side of a link sends ``alive`` (outside the chain, like ``abort``)."""
SILENT_TICKS = 6
"""A link that has sent keepalives and then stays silent for this many keepalive ticks
(12 s of this process's own running time) is dead: its peer's program, machine or network
is gone. Ticks count only while this process runs, so a pause of our own (a long computation,
a suspended laptop) never makes a live peer look dead."""
ALIVE = codec.pack({"type": "alive"})


@dataclass(frozen=True)
class Reentry:
    """How a lost link may come back (:mod:`p2pcards.net.session`). ``patience``: seconds an
    away seat has to come back, from the moment its loss was noticed. ``reconnect`` (a
    joiner's): open a new, authenticated connection to the hub, retrying as long as it is not
    cancelled, and return it with its :class:`~p2pcards.seating.reentry.Bond`; it raises
    :class:`MatchFailure` when the hub refuses for good. Without it the hub's door calls
    :meth:`Session.rejoin`."""

    patience: float
    reconnect: Callable[[], Awaitable[tuple[FrameChannel, Bond]]] | None = None


class Absent(FrameChannel):
    """The connection of a link that starts down (a resumed peer has none yet)."""

    def __init__(self, label: str) -> None:
        super().__init__(max_size=1, label=label)

    async def send(self, payload: bytes) -> None:
        raise PeerGone(f"there is no connection to {self.label}")

    async def receive(self) -> bytes | None:
        raise PeerGone(f"there is no connection to {self.label}")

    async def aclose(self) -> None:
        return None


@dataclass(eq=False)
class Link:
    """A connection to a peer that speaks for ``seats`` (the hub speaks for every other seat)."""

    framed: FrameChannel
    seats: frozenset[int]
    outbox: trio.MemorySendChannel[bytes] = field(init=False)
    _outbox_receive: trio.MemoryReceiveChannel[bytes] = field(init=False)
    drained: trio.Event = field(default_factory=trio.Event)
    silent_ticks: int = 0
    """Keepalive ticks (:data:`KEEPALIVE_SECONDS` of this process's own running time each)
    since anything last arrived on this link."""
    keepalives: bool = False
    """Whether the peer at the other end sends keepalives (it has sent one): only then does
    its silence count."""
    state: str = "live"
    """``live``; ``down``: its connection is lost, its seats are away; ``syncing``: a new
    connection whose ``resume`` has not arrived yet (nothing is forwarded to it)."""
    lost_at: float = 0.0
    lost_why: str = ""
    """When and how its connection was lost (a sentence naming the peer)."""
    scope: trio.CancelScope = field(default_factory=trio.CancelScope)
    """Cancels this connection's reader and keepalive."""
    retired: bool = False
    """Replaced by the link of a new connection: what it still reports is ignored."""
    bond: Bond | None = None
    """For a connection made by re-entry: the proven keys and challenges its ``resume`` is
    signed on (:mod:`p2pcards.seating.reentry`)."""

    def __post_init__(self) -> None:
        self.outbox, self._outbox_receive = trio.open_memory_channel[bytes](math.inf)

    @property
    def label(self) -> str:
        return self.framed.label

    def down(self, now: float, why: str) -> None:
        """Mark the connection lost: nothing more is sent or read on it."""
        self.state, self.lost_at, self.lost_why = "down", now, why
        self.scope.cancel()
        self.outbox.close()
        self.drained.set()

    async def sender(self) -> None:
        """Send everything queued, in order, until the outbox is closed and empty."""
        try:
            async for data in self._outbox_receive:
                await self.framed.send(data)
        except NetError:
            pass  # the reader of this link reports the broken connection
        finally:
            self.drained.set()




Inbox = tuple[str, Link, Any]
"""What a connection's reader hands the match loop: ``(what, link, value)`` with ``what`` one of
``message`` (a decoded frame), ``closed``, ``error`` (a :class:`~.errors.NetError`) or
``dead`` (silent past the keepalives)."""
