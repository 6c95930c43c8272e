"""Recoveries as the match loop sees them (SPEC §9.13): :class:`Recoveries` lets the hub begin the
recovery of a seat that is gone or silent past its timeout (:meth:`~p2pcards.table.Table.recover`),
drops with a warning a joiner's ``recover`` that is not its turn (SPEC §9.13.5: only the hub
begins a recovery, on its own liveness and timers), and lets a joiner judge a recovery of its own
seat: one begun while its connection stayed up and its time was far from out, or after it had
answered, is said naming the hub and ends the match
(:mod:`p2pcards.seating.recovery_watch`).
"""

from __future__ import annotations

import trio

from ..seating.recovery_watch import (
    Turn,
    answered_message,
    turn_limit,
    wrongful_elapsed,
    wrongful_message,
)
from ..table import HUB_SEAT
from .errors import EXIT_VIOLATION, MatchFailure
from .links import Link
from .state import SessionState

__all__ = ["Recoveries"]


class Recoveries(SessionState):
    """Beginning, refusing and judging recoveries (module docstring)."""

    def _refuses_recovery(self, link: Link, data: bytes) -> bool:
        """The hub's: whether ``data`` is a ``recover`` signed by a seat of ``link`` that is
        not that seat's turn in a ``recover`` round (an attempt to begin a recovery, or a late
        one); it is then dropped with a warning and the match goes on (SPEC §9.13.5: only the
        hub begins a recovery, by its own liveness and timers)."""
        claim = self.reference.recover_sender(data) if self.forward else None
        if claim is None or claim[0] not in link.seats:
            return False
        sender, named, _ = claim
        if self.reference.expected == (sender, "recover"):
            return False
        seats = range(len(self.genesis.seats))
        whom = self._seat_names([named]) if type(named) is int and named in seats \
            else repr(named)
        self.notice(f"{self._seat_names([sender])} sent a 'recover' of {whom}: refused and "
                    "dropped, since only the host begins a recovery, when its own wait for "
                    "that seat runs out")
        return True

    def _watch_turn(self) -> None:
        """A joiner's: note when its local seat's turn begins, and on which connection (the
        hub's live link, or none), for :meth:`_judge_recovery`."""
        expected = self.reference.expected
        if self.forward or expected is None or expected[0] not in self._local_seats:
            return
        position = self.reference.chain.next_seq
        if self._turn is not None and (self._turn.seat, self._turn.position) == (
                expected[0], position):
            return
        live = next((link for link in self.links if link.state == "live"), None)
        self._turn = Turn(expected[0], expected[1], position, trio.current_time(), live)

    def _judge_recovery(self, link: Link, seat: int, index: int) -> None:
        """A joiner's, after its table accepted the hub's first ``recover``, naming ``seat``
        at chain ``index``: if ``seat`` is this peer's and was connected and answering
        (:func:`~p2pcards.seating.recovery_watch.wrongful_elapsed`), say so naming the hub and stop,
        the transcript ending with that ``recover`` (SPEC §9.13.5)."""
        if self.forward or seat not in self._local_seats or self._turn is None:
            return
        turn = self._turn
        limit = turn_limit(self.genesis, turn.kind, seat, self.bots)
        elapsed = wrongful_elapsed(turn, seat=seat, position=index, now=trio.current_time(),
                                   limit=limit, connection=link)
        if elapsed is None or link.state != "live":
            return
        self._sync_transcript()
        raise MatchFailure(wrongful_message(self._hub_label(), turn, elapsed, limit),
                           EXIT_VIOLATION)

    def _judge_late_recovery(self, data: bytes) -> None:
        """A joiner's, when its table refused ``data``: if it is the hub's ``recover`` of this
        peer's seat at a chain position that holds that seat's own envelope (it had answered,
        and the hub claims it did not), say so naming the hub. The refused ``recover`` is
        already kept as an evidence record."""
        claim = self.reference.recover_sender(data)
        if self.forward or claim is None:
            return
        signer, named, seq = claim
        chain = self.reference.chain
        if (signer == HUB_SEAT and type(named) is int and named in self._local_seats
                and 0 <= seq < chain.next_seq
                and chain.seat_of(seq) == named):
            raise MatchFailure(answered_message(self._hub_label(), seq), EXIT_VIOLATION)

    def _begin_recovery(self, seat: int) -> bool:
        """The hub begins the recovery of ``seat`` (gone, or silent past its timeout) if the
        table allows it (SPEC §9.13); False otherwise."""
        host = self.seats[0]
        if not self.forward or not host.table.can_recover(seat):
            return False
        self._gone.add(seat)
        step = host.table.recover(seat)
        self._after_step(host, step.events)
        self._queue.extend((host, data) for data in step.outgoing)
        return True
