"""The joiner's race over an invite's candidates (SPEC §11.9), in the manner of Happy Eyeballs.

Attempts start in the invite's order, each :data:`STAGGER` seconds after the one before, or at
once when the one before has failed (RFC 8305); the relay, the last resort, waits
:data:`RELAY_DELAY` instead. An attempt connects, sends ``hello`` and checks the host's
``challenge`` (:func:`~.handshake.prove_host`): the first attempt on which the host proves the
invite's identity key wins, every other attempt is cancelled and its connection closed (an
attempt that had already reached the host declines the table, so the host reads why). A wrong
or stale candidate therefore costs one failed attempt and can never seat the joiner with
someone else. When every attempt fails, the failure that says most is raised: one where a host
answered (a refusal, a wrong key), else the relay's (it speaks for the table's room), else the
first.

An attempt is a :data:`Way`: it opens its connection, proves the host, hands a
:class:`Reached` to ``claim`` and, if it won, keeps whatever the connection needs (a relay
room) until :meth:`Reached.release`.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field

import trio

from ..seating.candidates import Candidate
from ..seating.handshake import JoinerSeating, Review
from .errors import HandshakeError, MatchFailure, NetError
from .framed import FrameChannel

__all__ = ["Reached", "Way", "Connect", "race", "connect_first", "close_now", "STAGGER",
           "RELAY_DELAY", "LOST_RACE"]

STAGGER = 0.25
"""Seconds between the starts of two direct attempts (RFC 8305's connection attempt delay)."""
RELAY_DELAY = 0.5
"""Seconds the relay attempt waits after the last direct one started (unless all failed): a
direct candidate that works (a LAN) has proven the host well before."""
LOST_RACE = "this joiner kept another connection to the host"
"""The reason a losing attempt that reached the host gives when it declines the table."""


@dataclass(eq=False)
class Reached:
    """A connection on which the host proved its key: the seating machine and the rules it
    announced, and how to connect again the same way (for re-entry, SPEC §11.7)."""

    candidate: Candidate
    channel: FrameChannel
    seating: JoinerSeating
    offer: Review
    connect: Callable[[], Awaitable[FrameChannel]]
    released: trio.Event = field(default_factory=trio.Event)
    passed_over: list[tuple[Candidate, str]] = field(default_factory=list)
    """The candidates tried before this one won, each with why it did not (set by
    :func:`race`)."""
    no_punch: tuple[str, str] | None = None
    """For a relayed winner: why no hole was punched to the host (SPEC §11.10), if one could
    have been, in the person's language and in English (for ``--json``)."""

    async def release(self) -> None:
        """Close the connection and let its attempt end (leaving the relay room, if any)."""
        self.released.set()
        with contextlib.suppress(NetError, trio.ClosedResourceError, trio.BrokenResourceError):
            await self.channel.aclose()

    async def decline(self) -> None:
        """A losing attempt: tell the host why, then close."""
        with trio.move_on_after(1.0), contextlib.suppress(NetError, RuntimeError,
                                                          trio.ClosedResourceError,
                                                          trio.BrokenResourceError):
            await self.channel.send_message(self.seating.decline(LOST_RACE))
        self.released.set()
        await close_now(self.channel)


Claim = Callable[[Reached], bool]
Way = Callable[[Claim], Awaitable[None]]
"""One attempt: connect, prove the host, call ``claim``; if that returns True the attempt won
and keeps its connection's needs until :meth:`Reached.release`, else it must close it."""


@dataclass(eq=False)
class _Attempt:
    candidate: Candidate
    way: Way
    scope: trio.CancelScope = field(default_factory=trio.CancelScope)
    ended: trio.Event = field(default_factory=trio.Event)
    error: BaseException | None = None


async def race(ways: Sequence[tuple[Candidate, Way]], nursery: trio.Nursery, *,
               stagger: float = STAGGER, relay_delay: float = RELAY_DELAY) -> Reached:
    """Run the attempts as described above in ``nursery`` (which must outlive the match: the
    winner's attempt keeps running there); the winner, or the most telling failure."""
    if not ways:
        raise MatchFailure("the invite names no way to reach the host")
    won: list[Reached] = []
    found = trio.Event()
    attempts: list[_Attempt] = []

    def claim(claiming: _Attempt, reached: Reached) -> bool:
        if won:
            return False
        won.append(reached)
        found.set()
        for attempt in attempts:
            if attempt is not claiming:
                attempt.scope.cancel()
        return True

    for index, (candidate, way) in enumerate(ways):
        if index:
            delay = relay_delay if candidate.kind == "relay" else stagger
            await _first_of(found, attempts[-1].ended, timeout=delay)
        if found.is_set():
            break
        attempt = _Attempt(candidate, way)
        attempts.append(attempt)
        nursery.start_soon(_run, attempt, claim)
    for attempt in attempts:
        await _first_of(found, attempt.ended, timeout=float("inf"))
    if won:
        winner = won[0]
        winner.passed_over = [(a.candidate, _why(a)) for a in attempts
                              if a.candidate is not winner.candidate]
        return winner
    raise _telling(attempts)


async def _run(attempt: _Attempt, claim: Callable[[_Attempt, Reached], bool]) -> None:
    with attempt.scope:
        try:
            await attempt.way(functools.partial(claim, attempt))
        except (MatchFailure, OSError, trio.TooSlowError) as exc:
            attempt.error = exc
    attempt.ended.set()


async def _first_of(first: trio.Event, second: trio.Event, *, timeout: float) -> None:
    """Return when either event is set, or after ``timeout`` seconds."""
    with trio.move_on_after(timeout):
        async with trio.open_nursery() as waiting:
            async def wait(event: trio.Event) -> None:
                await event.wait()
                waiting.cancel_scope.cancel()

            waiting.start_soon(wait, first)
            waiting.start_soon(wait, second)


Connect = Callable[[], Awaitable[FrameChannel]]
"""Opens a raw connection to the host one way; raises :class:`MatchFailure` when it cannot."""


async def connect_first(ways: Sequence[Connect], *, stagger: float = RELAY_DELAY
                        ) -> FrameChannel:
    """The first of ``ways`` to open a connection, tried as the race tries candidates: each
    ``stagger`` seconds after the one before started, or at once when it has failed. The
    others are cancelled, and one that connected too is closed. How a seat seated over a direct
    candidate comes back (SPEC §11.7.2) when the invite also names a relay room: the direct
    address, then the room, so a direct link that is cut goes on through the relay. Raises the
    first way's failure when every way fails."""
    if not ways:
        raise MatchFailure("no way to reach the host")
    won: list[FrameChannel] = []
    failures: list[MatchFailure | None] = [None] * len(ways)
    ended = [trio.Event() for _ in ways]

    async def attempt(index: int, nursery: trio.Nursery) -> None:
        try:
            channel = await ways[index]()
        except MatchFailure as exc:
            failures[index] = exc
            ended[index].set()
            return
        if won:
            await close_now(channel)
            return
        won.append(channel)
        nursery.cancel_scope.cancel()

    async with trio.open_nursery() as nursery:
        for index in range(len(ways)):
            if index:
                with trio.move_on_after(stagger):
                    await ended[index - 1].wait()
            nursery.start_soon(attempt, index, nursery)
    if won:
        return won[0]
    raise next(f for f in failures if f is not None)


async def close_now(channel: FrameChannel) -> None:
    """Close ``channel`` without waiting for anything (as :func:`trio.aclose_forcefully`)."""
    with trio.CancelScope() as scope:
        scope.cancel()
        with contextlib.suppress(NetError, trio.ClosedResourceError, trio.BrokenResourceError):
            await channel.aclose()


def _why(attempt: _Attempt) -> str:
    """Why an attempt did not win: its failure, or that it was still under way."""
    if attempt.error is None:
        return "no answer in time"
    return str(attempt.error)


def _telling(attempts: list[_Attempt]) -> BaseException:
    """The failure that says most: a host's answer, else the relay's word on the table, else
    the first."""
    failed = [a for a in attempts if a.error is not None]
    for attempt in failed:
        if isinstance(attempt.error, HandshakeError):
            return attempt.error
    for attempt in failed:
        if attempt.candidate.kind == "relay" and attempt.error is not None:
            return attempt.error
    if failed and failed[0].error is not None:
        return failed[0].error
    return MatchFailure("no way to reach the host worked")
