"""Settling a fork (SPEC §6.1): when the reference table finds an envelope whose link names
another envelope than the one this peer holds, :class:`ForkSettling` asks the link that delivered
it for the branch it names (``need``/``have``, :class:`~p2pcards.records.evidence.ForkProbe`)
until the two branches meet and the culprit is proven (SPEC §9.8 evidence), or the time is up;
and it answers the other peers' ``need`` from its own chain.
"""

from __future__ import annotations

import contextlib
from typing import Any

import trio

from ..records.evidence import ForkProbe, ProbeError
from ..table import Violation
from ..wire import codec
from ..wire.errors import ProtocolError
from ..wire.identity import PublicIdentity
from .errors import EXIT_VIOLATION, MatchFailure
from .links import Link
from .player import seat_label
from .sentences import aborted
from .state import SessionState

__all__ = ["ForkSettling", "ForkFound", "ProbeEnded"]


class ForkFound(Exception):
    """The reference table found a fork in an envelope from ``link`` (handled in ``_play``)."""

    def __init__(self, violation: Violation, link: Link, data: bytes) -> None:
        super().__init__(str(violation))
        self.violation = violation
        self.link = link
        self.data = data


class ProbeEnded(Exception):
    """The fork probe cannot go on (the asked peer left, or someone aborted)."""


class ForkSettling(SessionState):
    """Settling a fork and answering ``need`` (module docstring)."""

    def _answer(self, link: Link, message: dict[str, Any]) -> bool:
        """Answer a ``need`` from this peer's chain; False if ``message`` is not one."""
        if message["type"] != "need" or set(message) != {"type", "hash"} or not isinstance(
                message["hash"], bytes):
            return False
        position = self.reference.chain.position_of(message["hash"])
        data = None if position is None else self.reference.frames[position]
        with contextlib.suppress(trio.ClosedResourceError, trio.BrokenResourceError):
            link.outbox.send_nowait(codec.pack({"type": "have", "hash": message["hash"],
                                                "data": data}))
        return True

    async def _answer_for(self, link: Link, wanted: bytes) -> bytes | None:
        """Wait for ``link``'s ``have`` for ``wanted``, answering ``need`` meanwhile and dropping
        envelopes (the table has stopped); :class:`ProbeEnded` if that cannot happen."""
        while True:
            what, source, value = await self._inbox.receive()
            if what != "message":
                if source is link:
                    raise ProbeEnded(f"{link.label} left")
                continue
            message: dict[str, Any] = value
            reason = self._abort_reason(source, message)
            if reason is not None:
                raise ProbeEnded(aborted(source.label, reason))
            if self._answer(source, message):
                continue
            if (source is link and message["type"] == "have"
                    and set(message) == {"type", "hash", "data"}
                    and message["hash"] == wanted):
                data = message["data"]
                return data if isinstance(data, bytes) else None

    async def _settle_fork(self, fork: ForkFound) -> None:
        """Probe the branch behind a fork (module docstring); always raises MatchFailure."""
        table = self.reference
        keys = [PublicIdentity.from_bytes(s.identity) for s in self.genesis.seats]
        failure = f"protocol violation: {fork.violation}"
        try:
            probe = ForkProbe(table.chain, keys, fork.data)
        except (ValueError, ProtocolError):
            raise MatchFailure(failure, EXIT_VIOLATION) from None
        ask = fork.link
        limit = self.genesis.timeouts["step"]
        why = f"{ask.label} did not produce the envelope it linked to within {limit} seconds"
        with trio.move_on_after(limit + self.grace):
            try:
                while True:
                    wanted = probe.wanted
                    with contextlib.suppress(trio.ClosedResourceError,
                                             trio.BrokenResourceError):
                        ask.outbox.send_nowait(codec.pack({"type": "need", "hash": wanted}))
                    data = await self._answer_for(ask, wanted)
                    if data is None:
                        why = (f"{ask.label} does not hold the envelope {wanted[:8].hex()}... "
                               "that the link names")
                        break
                    record = probe.feed(data)
                    if record is not None:
                        self._write_evidence(record)
                        culprit = seat_label(self.genesis, record.seat) \
                            if record.seat is not None else "no seat"
                        raise MatchFailure(
                            f"protocol violation: {culprit} is proven at fault "
                            f"({record.rule}): {record.message}; this peer's chain holds one "
                            f"branch and {ask.label} produced the other when asked about the "
                            f"fork at envelope {fork.violation.index} (both kept as evidence)",
                            EXIT_VIOLATION)
            except ProbeError as exc:
                why = f"{ask.label} answered with a wrong envelope: {exc}"
            except ProbeEnded as exc:
                why = str(exc)
        raise MatchFailure(f"{failure}; asked for the other branch, {why}", EXIT_VIOLATION)
