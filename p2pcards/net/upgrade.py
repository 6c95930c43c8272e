"""A joiner seated through the relay moves onto a hole punched later in the match (SPEC §11.10).

When the joiner's race (:mod:`.race`) kept the relayed connection because the punch at seating
failed or came too late, and the invite names direct addresses (so the host listens and
punches), :func:`punch_later` keeps trying in the background: :data:`TRIES` more punch
exchanges through the room, the first :data:`FIRST_WAIT` seconds after the match starts,
each wait twice the one before. A punched connection counts only when the re-entry handshake
(SPEC §11.7.2) proves the host's genesis key on it, the key the invite named, as the race's
handshake does. The session then moves its link onto it (:meth:`~.away.AwaySession.move`): the
switch is ordered as a return is, the ``resume`` exchange on the new connection being the
marker after which the relayed one carries nothing, so nothing in flight there is lost or taken
twice. The joiner then leaves the room (a later loss of the punched link joins it again, as
re-entry does) and both sides print ``connection: direct (hole punched; was relay) ...``. When
no try succeeds nothing visible changes.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass

import trio

from ..seating.genesis import Genesis
from ..seating.reentry import Bond
from ..wire.identity import IdentityKey
from .comeback import prove_return
from .errors import MatchFailure, NetError
from .framed import FrameChannel, FramedStream
from .punch import discard, joiner_punch
from .race import close_now
from .relay_room import JoinerRoom
from .session import Session

__all__ = ["LaterPunch", "punch_later", "TRIES", "FIRST_WAIT", "WAIT_CAP"]

TRIES = 4
"""Punch exchanges tried during the match before the joiner stays on the relay."""
FIRST_WAIT = 2.0
"""Seconds from the start of the match to the first try."""
WAIT_CAP = 16.0
"""The longest wait between two tries (each waits twice the one before, up to this)."""


@dataclass(frozen=True)
class LaterPunch:
    """What a joiner seated through the relay room needs to punch a hole later: the room, the
    address the relay sees it at, and the local port its relay connection leaves from."""

    room: JoinerRoom
    observed: str
    port: int

    async def attempt(self, genesis: Genesis, seat: int, identity: IdentityKey, label: str
                      ) -> tuple[FrameChannel, Bond, str] | None:
        """One punch exchange through the room, then the re-entry handshake on the punched
        connection: the connection, its bond and the host's address, or ``None``."""
        try:
            exchange = await self.room.connect()
        except MatchFailure:
            return None
        try:
            punched = await joiner_punch(exchange, self.observed, self.port)
        finally:
            await close_now(exchange)
        if punched is None:
            return None
        stream, remote = punched
        framed = FramedStream(stream, label=label)
        try:
            bond = await prove_return(framed, genesis, seat, identity, label)
        except MatchFailure:
            await discard(framed)
            return None
        except BaseException:
            await discard(framed)
            raise
        return framed, bond, remote


async def punch_later(session: Session, later: LaterPunch, relayed: FrameChannel,
                      genesis: Genesis, seat: int, identity: IdentityKey,
                      line: Callable[[str], str]) -> None:
    """Try :data:`TRIES` times, with growing waits, to move ``session``'s link to the host,
    over the room connection ``relayed``, onto a punched connection; ``line(ADDR)`` is the
    ``connection:`` line said when it moves. Returns after the move or the last try; cancel
    it when the match ends."""
    wait = FIRST_WAIT
    for _ in range(TRIES):
        await trio.sleep(wait)
        wait = min(WAIT_CAP, wait * 2)
        moved = await later.attempt(genesis, seat, identity, relayed.label)
        if moved is None:
            continue
        framed, bond, remote = moved
        try:
            await session.move(framed, bond, line(remote))
        except (trio.ClosedResourceError, trio.BrokenResourceError):
            await close_now(framed)  # the match is over
            return
        with contextlib.suppress(NetError):
            await relayed.aclose()  # its end reaches the host before the joiner leaves
        later.room.leave()
        return
