"""A table's relay room that outlives the relay (SPEC §11.7.5).

A relay keeps its rooms in memory only: when it restarts, the room of a running table and the
frames it held are gone, and every member's connection is refused on its next reconnect. With
re-entry on (:class:`~.session.Reentry`) the match survives it, because nothing the table needs
lives in the relay: every seat holds the chain, and a ``resume {count, head}`` exchange catches
both ends of a new connection up. What must be rebuilt is the room itself, and who is at slot 0:

- the host (:func:`serve_room`) joins the room again, first as a member that comes back (with
  the last index it held: the room may still be there, if only the connection was lost), and
  if the relay does not know the room, by making it again as its first member (slot 0); then it
  sends one :data:`BEACON` frame, so that the room holds a frame;
- a joiner (:class:`JoinerRoom`) only ever joins the room *again* with ``since = 0``: the relay
  refuses that for a room it does not have, or that holds no frame yet, so a joiner can never
  take slot 0 of a room the host has not made again. It retries (the dialler's backoff) until
  the host is back, then opens its connection to slot 0 and proves its seat's key.

Until then each side's session waits for the other within its patience, as for any lost link.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable

import trio

from ..wire import codec
from ..wire.identity import IdentityKey
from .comeback import Door
from .errors import MatchFailure, NetError
from .framed import FrameChannel
from .relay_mux import HOST_SLOT, RelayMux, RelayUnusable, open_relay_mux

__all__ = ["BEACON", "RelayAddress", "hold_room", "serve_room", "claim_host_slot", "JoinerRoom",
           "REOPEN_FIRST", "REOPEN_CAP", "NOT_BACK_YET"]

BEACON = codec.pack(["room"])
"""The frame a host sends into a room it made again: not a mux frame, so members ignore it."""
REOPEN_FIRST = 0.5
REOPEN_CAP = 5.0
"""The host's backoff between attempts to get its room back: from :data:`REOPEN_FIRST`,
doubling, at most this many seconds."""

NOT_BACK_YET = frozenset({"room-unknown", "ahead-of-room", "room-empty"})
"""The relay's refusals of a ``since = 0`` join while the host has not made the room again."""

RelayAddress = tuple[str, int]


async def hold_room(relay: RelayAddress, room: bytes, identity: IdentityKey, *, accept: bool,
                    patience: float, since: int,
                    task_status: trio.TaskStatus[RelayMux] = trio.TASK_STATUS_IGNORED) -> None:
    """Join ``room`` (see :func:`~.relay_mux.open_relay_mux`), report the mux through
    ``task_status`` and keep it running until the relay fails. Raises :class:`MatchFailure`
    before reporting when the relay refuses or cannot be reached."""
    async with open_relay_mux(relay[0], relay[1], room, identity, accept=accept,
                              patience=patience, since=since) as mux:
        task_status.started(mux)
        await mux.wait_failed()


async def door_relay(mux: RelayMux, door: Door, nursery: trio.Nursery) -> None:
    """Every new connection through the relay goes through ``door`` (a seat coming back, or a
    late joiner, who reads "the table is full"), until the relay fails."""
    while True:
        try:
            channel = await mux.accept()
        except NetError:
            return
        nursery.start_soon(door.welcome, channel)


async def serve_room(relay: RelayAddress, room: bytes, identity: IdentityKey, mux: RelayMux,
                     door: Door, nursery: trio.Nursery, *, patience: float,
                     notice: Callable[[str], None]) -> None:
    """The host's side: serve ``door`` in the room through ``mux`` and, each time the relay
    fails, get the room back (as its slot-0 member) and serve the door there. Runs until
    cancelled; raises :class:`MatchFailure` if the relay gave the room's slot 0 to another
    member."""
    where = f"{relay[0]}:{relay[1]}"
    while True:
        await door_relay(mux, door, nursery)
        last = mux.conn.last_index
        notice(f"{mux.failure}; getting this table's room back")
        mux = await _reopen(relay, room, identity, last, nursery, patience)
        await claim_host_slot(mux, f"the relay at {where} gave this table's room to another "
                              "member when it came back: the match cannot go on through it")
        notice(f"back in this table's room at the relay {where}; waiting for the other "
               "players to come back")


async def claim_host_slot(mux: RelayMux, refusal: str) -> None:
    """The host back in its room: check that it holds slot 0 (else :class:`MatchFailure` with
    ``refusal``) and send the :data:`BEACON`, so that a room made again holds a frame."""
    if mux.slot != HOST_SLOT:
        raise MatchFailure(refusal)
    await mux.conn.send(BEACON)


async def _reopen(relay: RelayAddress, room: bytes, identity: IdentityKey, last: int,
                  nursery: trio.Nursery, patience: float) -> RelayMux:
    """Join ``room`` again: as a member that held frames up to ``last``, or, when the relay no
    longer has those, as the first member of the room made again; retries with backoff."""
    delay = REOPEN_FIRST
    while True:
        for since in dict.fromkeys((last, -1)):
            try:
                mux: RelayMux = await nursery.start(functools.partial(
                    hold_room, relay, room, identity, accept=True, patience=patience,
                    since=since))
                return mux
            except MatchFailure:
                continue
        await trio.sleep(delay)
        delay = min(REOPEN_CAP, delay * 2)


Holder = Callable[..., Awaitable[None]]
"""A task that joins a room, reports its mux through ``task_status`` and keeps it (as
:func:`hold_room`)."""


class JoinerRoom:
    """The joiner's side: :meth:`connect` is a re-entry dialler's raw connection to the host.

    ``mux`` is the room the joiner is in (``None``: not in it yet); once it has failed, or
    after :meth:`leave`, :meth:`connect` joins the room again with ``since = 0`` (see the
    module docstring), running the new mux in ``nursery``. :meth:`hold` runs the first
    membership in ``nursery`` too, so that :meth:`leave` can end it.
    """

    def __init__(self, relay: RelayAddress, room: bytes, identity: IdentityKey,
                 nursery: trio.Nursery, *, patience: float, mux: RelayMux | None = None) -> None:
        self.relay = relay
        self.room = room
        self.identity = identity
        self.nursery = nursery
        self.patience = patience
        self.mux = mux
        self.label = f"the host through the relay at {relay[0]}:{relay[1]}"
        self._membership: trio.CancelScope | None = None

    async def hold(self, holder: Holder) -> RelayMux:
        """Run ``holder`` in the nursery as this room's membership (ended by :meth:`leave`);
        its mux. Raises what ``holder`` raises before it reports the mux."""
        membership = trio.CancelScope()

        async def run(task_status: trio.TaskStatus[RelayMux] = trio.TASK_STATUS_IGNORED
                      ) -> None:
            with membership:
                await holder(task_status=task_status)

        mux: RelayMux = await self.nursery.start(run)
        self.mux, self._membership = mux, membership
        return mux

    def leave(self) -> None:
        """Leave the room now: the connection to the relay is closed; a later
        :meth:`connect` joins again."""
        if self._membership is not None:
            self._membership.cancel()
        self.mux = self._membership = None

    async def connect(self) -> FrameChannel:
        """A new connection to the host's slot; :class:`MatchFailure` in one sentence while the
        room cannot be joined (the relay is down, or the host has not made the room again)."""
        if self.mux is None or self.mux.failed:
            self.mux = None
            try:
                await self.hold(functools.partial(
                    hold_room, self.relay, self.room, self.identity, accept=False,
                    patience=self.patience, since=0))
            except RelayUnusable as exc:
                if exc.reason in NOT_BACK_YET:
                    where = f"{self.relay[0]}:{self.relay[1]}"
                    raise MatchFailure(f"the host has not made the table's room at the relay "
                                       f"{where} again yet") from None
                raise
        assert self.mux is not None
        return self.mux.open(HOST_SLOT, self.label)
