"""Whose turn it is and waiting for it (SPEC §9.10 timeouts, §11.7 away seats, §9.2 claims):
:class:`TurnTaking` waits for a remote seat within its timeout (or the away seat's patience),
tells the local seats' ``status`` hooks how long is left, offers the claim windows, and asks a
local seat to decide, racing a person's prompt against incoming messages.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Awaitable, Callable

import trio

from ..games.base import Action
from .away import AWAY_REMINDERS
from .errors import MatchFailure
from .links import Inbox, Link
from .player import STATUS_SECONDS, LocalSeat, seat_label
from .sentences import caught_up_too_late, did_not_answer, did_not_come_back
from .state import SessionState

__all__ = ["TurnTaking", "INTERRUPTED", "carries_envelope"]

INTERRUPTED = object()


def carries_envelope(item: Inbox) -> bool:
    """Whether an inbox item is an envelope from a peer."""
    what, _, value = item
    return what == "message" and isinstance(value, dict) and value.get("type") == "envelope"


class TurnTaking(SessionState):
    """Waiting for remote seats, claim windows and local decisions (module docstring)."""

    def _timed_out(self, speaker: int, limit: float) -> MatchFailure:
        """Why the wait for ``speaker`` ended: its link's loss when its connection is down or
        has come back without catching up, else the seat's own silence."""
        link = self._unsettled(speaker)
        if link is not None and self.reentry is not None:
            patience = f"{self.reentry.patience:g}"
            if link.state == "syncing":
                return MatchFailure(caught_up_too_late(link.label, patience))
            return MatchFailure(did_not_come_back(link.lost_why, patience))
        return MatchFailure(did_not_answer(seat_label(self.genesis, speaker), limit))

    async def _wait_for(self, speaker: int, limit: float) -> Inbox | None:
        """The next incoming item while the table waits for remote seat ``speaker``, or
        ``None`` after ``limit`` (+ grace) seconds. The local seats' ``status`` hooks are told
        whom the table waits for and the seconds left, at the start and every
        :data:`STATUS_SECONDS`, and told ``((), None)`` when the wait ends."""
        deadline = trio.current_time() + limit + self.grace
        try:
            while True:
                now = trio.current_time()
                away = self._away(speaker)
                unsettled = self._unsettled(speaker)
                end = deadline
                if unsettled is not None and self.reentry is not None:
                    end = unsettled.lost_at + self.reentry.patience + self.grace
                elif speaker in self._away_at_hub:  # the hub decides when to stop waiting
                    end = max(deadline, self._away_at_hub[speaker] + self.grace)
                left = end - now
                if left <= 0:
                    return None
                if away is not None:
                    self._remind_away(away, max(0.0, left - self.grace))
                self._report_status((speaker,), max(0.0, left - self.grace))
                with trio.move_on_after(min(left, STATUS_SECONDS)):
                    return await self._inbox.receive()
        finally:
            self._report_status((), None)

    async def _offer_claims(self) -> bool:
        """Ask each local seat's ``claim`` once per claim window; True if one claimed."""
        for seat in self.seats:
            if seat.claim is None:
                continue
            key = (seat.table.seat, seat.table.chain.next_seq)
            if key in self._offered or not seat.table.claim_actions():
                continue
            self._offered.add(key)
            claim = seat.claim
            if seat.person:
                raced = await self._race(functools.partial(claim, seat.table))
                if raced is INTERRUPTED:
                    return True  # a message came first: the window may be closed now
                action = raced if isinstance(raced, Action) else None
            else:
                action = await claim(seat.table)
            if action is not None:
                step = seat.table.claim(action)
                self._after_step(seat, step.events)
                self._queue.extend((seat, data) for data in step.outgoing)
                return True
        return False

    async def _race(self, ask: Callable[[], Awaitable[Action | None]]) -> object:
        """Run a person's prompt against incoming messages: its answer, or ``INTERRUPTED``
        after handling the message that came first. A message that arrived in the same
        scheduling moment as the answer is handled too, never dropped: an envelope wins (the
        answer is dropped and the person asked again on the table it leads to); anything else
        (a ``resume``, a link coming back, a notice) is handled and the answer kept."""
        answer: list[Action | None] = []
        interrupt: list[Inbox] = []
        error: list[MatchFailure] = []
        async with trio.open_nursery() as nursery:
            async def prompt() -> None:
                try:
                    answer.append(await ask())
                except MatchFailure as exc:
                    error.append(exc)
                nursery.cancel_scope.cancel()

            async def watch() -> None:
                interrupt.append(await self._inbox.receive())
                nursery.cancel_scope.cancel()

            nursery.start_soon(prompt)
            nursery.start_soon(watch)
        if error:
            raise error[0]
        if interrupt:  # also when the answer came in the same moment: never drop a message
            item = interrupt[0]
            self._handle(item)  # raises, queues an envelope, or changes a link
            if not answer or carries_envelope(item):
                return INTERRUPTED  # the table may change first: the person is asked again
        return answer[0]

    async def _decide(self, seat: LocalSeat) -> None:
        action: Action | None = None
        if not seat.person:
            action = await seat.decide(seat.table)
        else:
            raced = await self._race(lambda: seat.decide(seat.table))
            if not isinstance(raced, Action):
                return
            action = raced
        step = seat.table.decide(action)
        self._after_step(seat, step.events)
        self._queue.extend((seat, data) for data in step.outgoing)

    def _remind_away(self, link: Link, left: float) -> None:
        """Tell ``notice`` whom the table waits to come back: at once, then at
        :data:`AWAY_REMINDERS`."""
        key = id(link)
        said = self._reminded.get(key)
        if said is not None and not any(left <= mark < said for mark in AWAY_REMINDERS):
            return
        self._reminded[key] = left
        whole = max(0, math.ceil(left))
        self.notice(f"waiting for {self._names(link)} to come back: "
                    f"{whole // 60}:{whole % 60:02d} left")
