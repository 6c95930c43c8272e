"""Ctrl-C and SIGTERM during a match: leave it the way ``q`` does, telling every other seat.

The command line says how this process's signals are taken by setting :data:`ON_SIGNAL` (a
context variable, so every task of the match sees it) before the match runs; while a
:class:`~.session.Session` plays, it runs :func:`watch_signals`:

- SIGTERM, or SIGINT when nobody can be asked (no terminal, a bot, a web page): the seat leaves
  at once (the signed ``leave`` of :mod:`.leave`);
- SIGINT at a terminal: ``leave the match? (y/N)`` is asked; yes leaves, anything else goes on
  with the match; a second Ctrl-C while the question is open leaves.

Between two matches of a series (the ``play again?`` question and the wait for the others'
answers) the rematch exchange runs its steps through :func:`unless_interrupted`: SIGINT or
SIGTERM there is this seat's decline, told to the others by name (SPEC §11.8), and the finished
transcripts are kept. Elsewhere (while seating, after the last match) signals keep their default
meaning. A process killed with SIGKILL, or one that crashes, sends nothing: the others wait for
it to come back.
"""

from __future__ import annotations

import signal
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TypeVar

import trio

from ..i18n import N_

__all__ = ["LeaveOnSignal", "ON_SIGNAL", "watch_signals", "LEAVE_QUESTION",
           "unless_interrupted"]

T = TypeVar("T")

LEAVE_QUESTION = N_("leave the match? (y/N) ")
"""Asked in the person's language (``_(LEAVE_QUESTION)``) by the command line."""


@dataclass(frozen=True)
class LeaveOnSignal:
    """How this process takes SIGINT and SIGTERM during a match. ``ask``, when a person at a
    terminal can answer, asks :data:`LEAVE_QUESTION` and returns whether they said yes."""

    ask: Callable[[], Awaitable[bool]] | None = None


ON_SIGNAL: ContextVar[LeaveOnSignal | None] = ContextVar("p2pcards_leave_on_signal",
                                                        default=None)
"""Set by the command line; ``None`` (tests that run sessions in one process): signals are not
taken by the session."""


async def watch_signals(policy: LeaveOnSignal, leave: Callable[[], None]) -> None:
    """Take SIGINT and SIGTERM until ``leave`` is called (module docstring); run it in the
    session's nursery, which cancels it when the match ends."""
    async with trio.open_nursery() as nursery:
        asking = False

        async def ask(question: Callable[[], Awaitable[bool]]) -> None:
            nonlocal asking
            asking = True
            if await question():
                leave()
                nursery.cancel_scope.cancel()
            asking = False

        with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
            async for number in signals:
                if number == signal.SIGINT and policy.ask is not None and not asking:
                    nursery.start_soon(ask, policy.ask)
                    continue
                leave()
                nursery.cancel_scope.cancel()
                return


async def unless_interrupted(work: Callable[[], Awaitable[T]]) -> tuple[T] | None:
    """``(result,)`` of ``work``, or ``None`` when SIGINT or SIGTERM came first (``work`` is
    then cancelled). Signals are taken only when the command line set :data:`ON_SIGNAL`;
    otherwise ``work`` simply runs."""
    if ON_SIGNAL.get() is None:
        return (await work(),)
    result: list[T] = []
    async with trio.open_nursery() as nursery:
        with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
            async def run() -> None:
                result.append(await work())
                nursery.cancel_scope.cancel()

            nursery.start_soon(run)
            async for _number in signals:
                nursery.cancel_scope.cancel()
                break
    return (result[0],) if result else None
